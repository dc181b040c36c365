//! `WITH` (common table expressions) and `UNION ALL`.
//!
//! A CTE is a named query whose rows a [`FromRow`] type describes: the type's named
//! fields are the columns the outer query reads, with the types it reads them as, and
//! typed handles on them (`Col<Row, V>`) make the outer query's expressions as typed as
//! a table's. When the statement is built, each declared column must be an output
//! column of the CTE's query, of the type the field reads (Trino's types; a `varchar`
//! of any length reads as `String`).
//!
//! `UNION ALL` takes queries with as many columns each; on Athena the columns at each
//! position must have a common super type, as Trino requires ("column N in UNION query
//! has incompatible types", `StatementAnalyzer.visitSetOperation` in trinodb/trino,
//! core/trino-main/src/main/java/io/trino/sql/analyzer/StatementAnalyzer.java); the
//! result's columns have that type and the first query's names
//! (<https://trino.io/docs/current/sql/select.html#union-intersect-except-clause>).
//! A member of a union has no ORDER BY, OFFSET or LIMIT of its own (written there they
//! would apply to the whole union): name the union as a CTE and order or limit the
//! select of it.

use std::marker::PhantomData;
use std::sync::Arc;

use crate::dialect::{Dialect, DialectRules};
use crate::engine::types::{EngineType, TableFormat};
use crate::error::{Error, ErrorKind, Result};
use crate::ident::{check_name, NameRole};
use crate::model::Column;
use crate::record::FromRow;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

use super::{Relation, Select, SelectBody, Usage};

/// A query a CTE can name: a [`Select`] or a [`UnionAll`] of selects.
#[derive(Debug, Clone)]
pub struct Query {
    members: Vec<SelectBody>,
}

impl<S> From<Select<S>> for Query {
    fn from(select: Select<S>) -> Self {
        Query {
            members: vec![select.body],
        }
    }
}

impl<S> From<UnionAll<S>> for Query {
    fn from(union: UnionAll<S>) -> Self {
        union.query
    }
}

/// `a UNION ALL b [UNION ALL c …]`: every row of each query, in the first query's
/// scope type and column names ([`Select::union_all`]).
#[must_use]
pub struct UnionAll<S> {
    query: Query,
    _scope: PhantomData<fn() -> S>,
}

impl<S> Clone for UnionAll<S> {
    fn clone(&self) -> Self {
        UnionAll {
            query: self.query.clone(),
            _scope: PhantomData,
        }
    }
}

impl<S> std::fmt::Debug for UnionAll<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("UnionAll")
            .field(&self.query.members)
            .finish()
    }
}

impl<S> Select<S> {
    /// `self UNION ALL other`: the rows of both queries, duplicates kept. Both must
    /// have as many columns, and on Athena the columns at each position a common super
    /// type (an `integer` and a `bigint` make a `bigint`; a `varchar` and a `bigint`
    /// none: CAST one side).
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// # #[derive(IcebergTable)]
    /// # #[iceberg(database = "db", name = "calls", location = "s3://my-bucket/calls/")]
    /// # struct Call { tool: String, latency_ms: i64 }
    /// # #[derive(IcebergTable)]
    /// # #[iceberg(database = "db", name = "old_calls", location = "s3://my-bucket/old_calls/")]
    /// # struct OldCall { tool: String, latency_ms: i32 }
    /// let all = Call::select().column(Call::TOOL).column(Call::LATENCY_MS)
    ///     .union_all(OldCall::select().column(OldCall::TOOL).column(OldCall::LATENCY_MS));
    /// assert_eq!(all.build()?.sql(),
    ///     "SELECT tool, latency_ms FROM db.calls UNION ALL SELECT tool, latency_ms FROM db.old_calls");
    /// // A varchar and a bigint have no common type in Trino.
    /// let bad = Call::select().column(Call::LATENCY_MS)
    ///     .union_all(OldCall::select().column(OldCall::TOOL));
    /// assert!(bad.build().unwrap_err().message()
    ///     .contains("column 1 in UNION query has incompatible types: bigint, varchar"));
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn union_all<S2>(self, other: Select<S2>) -> UnionAll<S> {
        UnionAll {
            query: Query {
                members: vec![self.body, other.body],
            },
            _scope: PhantomData,
        }
    }
}

impl<S> UnionAll<S> {
    /// Adds another query: `… UNION ALL other`.
    pub fn union_all<S2>(mut self, other: Select<S2>) -> Self {
        self.query.members.push(other.body);
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let mut w = SqlWriter::new(StatementKind::Select, dialect);
        let mut ctes = Vec::new();
        for m in &self.query.members {
            m.collect_ctes(&mut ctes)?;
        }
        write_ctes(&mut w, &ctes)?;
        self.query.write(&mut w, Usage::Read)?;
        w.finish()
    }
}

impl Query {
    /// The output columns' names (the first query's) and types (the common super types
    /// where the target's rules know them), checked as a union where there are several
    /// queries.
    fn output_types(
        &self,
        rules: &dyn DialectRules,
        usage: Usage,
    ) -> Result<Vec<(Option<String>, Option<EngineType>)>> {
        let mut errors = Vec::new();
        let mut out: Option<Vec<(Option<String>, Option<EngineType>)>> = None;
        for (i, m) in self.members.iter().enumerate() {
            if self.members.len() > 1 {
                m.check_union_member(i)?;
            }
            let types = m.output_types(rules, usage)?;
            let Some(first) = out.as_mut() else {
                out = Some(types);
                continue;
            };
            if first.len() != types.len() {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidTable,
                        format!(
                            "UNION query has different number of fields: {}, {}",
                            first.len(),
                            types.len()
                        ),
                    )
                    .with_hint("project the same number of columns in every query of the union"),
                );
                continue;
            }
            for (column, ((_, a), (_, b))) in first.iter_mut().zip(&types).enumerate() {
                match rules.union_column_type(column + 1, a.as_ref(), b.as_ref()) {
                    Ok(t) => *a = t,
                    Err(e) => errors.push(e),
                }
            }
        }
        Error::check_all(errors)?;
        Ok(out.unwrap_or_default())
    }

    /// Writes the queries joined by `UNION ALL` (without their CTEs: see
    /// [`write_ctes`]).
    fn write(&self, w: &mut SqlWriter, usage: Usage) -> Result<()> {
        if self.members.len() > 1 {
            self.output_types(w.rules(), usage)?;
        }
        for (i, m) in self.members.iter().enumerate() {
            if i > 0 {
                w.push(" UNION ALL ");
            }
            let projected = m.projections(w.rules(), usage)?;
            m.write_select(w, &projected)?;
        }
        Ok(())
    }
}

/// A CTE: a named query ([`Cte::new`]).
pub(crate) struct CteDef {
    name: String,
    query: Query,
    /// The columns the row type reads, with the Iceberg types it reads them as.
    columns: Option<Vec<Column>>,
    row_type: &'static str,
}

impl std::fmt::Debug for CteDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cte")
            .field("name", &self.name)
            .field("query", &self.query.members)
            .field("row_type", &self.row_type)
            .finish()
    }
}

/// `WITH name AS (query)`: a named query whose rows `C` (a [`FromRow`] type with named
/// fields) describes. [`Cte::select`] reads it; columns of `C` are typed handles
/// `Col<C, V>` declared next to it.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::dsl::count_all;
/// use iceberg_sql::query::{Cte, Order};
/// # #[derive(IcebergTable)]
/// # #[iceberg(database = "db", name = "calls", location = "s3://my-bucket/calls/")]
/// # struct Call { tool: String, latency_ms: i64 }
/// #[derive(FromRow)]
/// struct PerTool { tool: String, n: i64 }
/// impl PerTool {
///     const TOOL: Col<PerTool, String> = Col::new("tool");
///     const N: Col<PerTool, i64> = Col::new("n");
/// }
/// let per_tool = Cte::<PerTool>::new("per_tool",
///     Call::select().column(Call::TOOL).expr_as(count_all(), "n").group_by(Call::TOOL));
/// let q = per_tool.select().column(PerTool::TOOL).filter(PerTool::N.gt(10))
///     .order_by(PerTool::N, Order::Desc);
/// assert_eq!(q.build()?.sql(),
///     "WITH per_tool AS (SELECT tool, count(*) AS n FROM db.calls GROUP BY tool) \
///      SELECT tool FROM per_tool WHERE n > 10 ORDER BY n DESC");
///
/// // The row type must read the CTE's columns as their types: count(*) is a bigint.
/// #[derive(FromRow)]
/// struct Wrong { tool: String, n: String }
/// let bad = Cte::<Wrong>::new("per_tool",
///     Call::select().column(Call::TOOL).expr_as(count_all(), "n").group_by(Call::TOOL));
/// assert!(bad.select().build().unwrap_err().message()
///     .contains("column `n` of CTE `per_tool` is bigint, but `Wrong` reads it as varchar"));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub struct Cte<C> {
    def: Arc<CteDef>,
    _row: PhantomData<fn() -> C>,
}

impl<C> Clone for Cte<C> {
    fn clone(&self) -> Self {
        Cte {
            def: Arc::clone(&self.def),
            _row: PhantomData,
        }
    }
}

impl<C> std::fmt::Debug for Cte<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.def.fmt(f)
    }
}

impl<C: FromRow> Cte<C> {
    /// `name AS (query)`; the name and the columns are checked when a statement that
    /// reads it is built.
    pub fn new(name: &str, query: impl Into<Query>) -> Self {
        Cte {
            def: Arc::new(CteDef {
                name: name.to_string(),
                query: query.into(),
                columns: C::expected_columns(),
                row_type: short_type_name::<C>(),
            }),
            _row: PhantomData,
        }
    }

    /// `WITH name AS (…) SELECT … FROM name`: a query over the CTE's rows, built like
    /// any [`Select`] (filters, grouping, joins of tables, another CTE over it).
    pub fn select(&self) -> Select<C> {
        let mut body = SelectBody::new(
            Relation::Cte(self.def.name.clone()),
            self.def.columns.clone().unwrap_or_default(),
            &[],
        );
        body.ctes.push(Arc::clone(&self.def));
        Select::new(body)
    }
}

fn short_type_name<C>() -> &'static str {
    let full = std::any::type_name::<C>();
    let base = full.split('<').next().unwrap_or(full);
    let start = base.rfind("::").map_or(0, |i| i + 2);
    &full[start..]
}

impl SelectBody {
    /// Adds this query's CTEs (and theirs, first) to `out`, once each; two different
    /// CTEs of one name are refused.
    pub(crate) fn collect_ctes(&self, out: &mut Vec<Arc<CteDef>>) -> Result<()> {
        for cte in &self.ctes {
            if out.iter().any(|c| Arc::ptr_eq(c, cte)) {
                continue;
            }
            for m in &cte.query.members {
                m.collect_ctes(out)?;
            }
            if out.iter().any(|c| c.name == cte.name) {
                return Err(Error::new(
                    ErrorKind::InvalidTable,
                    format!("two different CTEs are named `{}`", cte.name),
                )
                .with_hint("give each CTE a name of its own"));
            }
            out.push(Arc::clone(cte));
        }
        Ok(())
    }

    /// Refuses what a member of a union cannot have on its own.
    fn check_union_member(&self, i: usize) -> Result<()> {
        let clause = if !self.order_by.is_empty() {
            "ORDER BY"
        } else if self.offset.is_some() {
            "OFFSET"
        } else if self.limit.is_some() {
            "LIMIT"
        } else {
            return Ok(());
        };
        Err(Error::new(
            ErrorKind::DisallowedSyntax,
            format!(
                "query {} of a UNION ALL has its own {clause}, which written there would apply to the whole union",
                i + 1
            ),
        )
        .with_hint(
            "name the union as a CTE (`Cte::new(\"name\", a.union_all(b))`) and order or \
             limit the select of it",
        ))
    }

    /// Writes `WITH a AS (…), b AS (…) ` for this query's CTEs, if any.
    pub(crate) fn write_ctes(&self, w: &mut SqlWriter) -> Result<()> {
        let mut ctes = Vec::new();
        self.collect_ctes(&mut ctes)?;
        write_ctes(w, &ctes)
    }
}

/// Writes `WITH a AS (…), … ` (nothing for no CTEs), each checked: its name, and the
/// columns its row type declares against its query's output.
fn write_ctes(w: &mut SqlWriter, ctes: &[Arc<CteDef>]) -> Result<()> {
    if ctes.is_empty() {
        return Ok(());
    }
    let mut errors = Vec::new();
    for cte in ctes {
        if let Err(e) = check_name(&cte.name, NameRole::Table) {
            errors.extend(e.into_vec());
        }
        if let Err(e) = cte.check_columns(w.rules()) {
            errors.extend(e.into_vec());
        }
    }
    Error::check_all(errors)?;
    w.push("WITH ");
    for (i, cte) in ctes.iter().enumerate() {
        if i > 0 {
            w.push(", ");
        }
        w.ident(&cte.name).push(" AS (");
        cte.query.write(w, Usage::Rows)?;
        w.push_char(')');
    }
    w.push_char(' ');
    Ok(())
}

impl CteDef {
    /// Each column the row type declares is an output column of the query, of the type
    /// the row type reads it as (where the target's rules know the type).
    fn check_columns(&self, rules: &dyn DialectRules) -> Result<()> {
        let name = &self.name;
        let Some(columns) = &self.columns else {
            return Err(Error::new(
                ErrorKind::InvalidTable,
                format!(
                    "CTE `{name}`: `{}` reads rows by position, so the columns of the CTE are unknown",
                    self.row_type
                ),
            )
            .with_hint("describe the CTE's rows with a `#[derive(FromRow)]` struct with named fields"));
        };
        let outputs = self.query.output_types(rules, Usage::Rows)?;
        let mut errors = Vec::new();
        for c in columns {
            let Some((_, ty)) = outputs
                .iter()
                .find(|(n, _)| n.as_deref() == Some(c.name.as_str()))
            else {
                let names: Vec<&str> = outputs.iter().filter_map(|(n, _)| n.as_deref()).collect();
                errors.push(
                    Error::new(
                        ErrorKind::UnknownColumn,
                        format!(
                            "CTE `{name}` has no column `{}` (its columns: {})",
                            c.name,
                            names.join(", ")
                        ),
                    )
                    .with_hint(format!(
                        "name the expression with .expr_as(expr, \"{}\") in the CTE's query, \
                         or rename the field of `{}`",
                        c.name, self.row_type
                    )),
                );
                continue;
            };
            let (Some(ty), Ok(read)) = (ty, EngineType::of_column(&c.ty, TableFormat::Iceberg))
            else {
                continue;
            };
            let same = *ty == read
                || *ty == EngineType::Unknown
                || matches!(
                    (ty, &read),
                    (EngineType::Varchar(_), EngineType::Varchar(_))
                );
            if !same {
                errors.push(
                    Error::new(
                        ErrorKind::TypeMismatch,
                        format!(
                            "column `{}` of CTE `{name}` is {ty}, but `{}` reads it as {read}",
                            c.name, self.row_type
                        ),
                    )
                    .with_hint(format!(
                        "give the field of `{}` the Rust type of {ty}, or CAST the expression \
                         in the CTE's query (`.cast::<T>()`)",
                        self.row_type
                    )),
                );
            }
        }
        Error::check_all(errors)
    }
}
