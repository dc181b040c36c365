//! The readers of a table: views and SQL texts, checked against each step of an
//! [`EvolutionPlan`].
//!
//! Our parser reads each reader once ([`crate::validate`]'s walk of its tree): the
//! column names it uses and the clause each stands in, the tables it reads and their
//! aliases, its `*`s. A name is taken as a column of the evolved table when its
//! qualifier is the table or one of the table's aliases, or when it is unqualified and
//! the reader reads the table (in a join, a column of the same name in another table is
//! flagged too: the check errs on the side of a report).
//!
//! A Trino (so Athena) view keeps the names and types of the columns its query had when
//! it was created, and refuses to run when its query's columns no longer match them
//! ("view is stale", `isViewStale` in Trino's `StatementAnalyzer`): so a view over
//! `SELECT *` breaks when the table gains, loses or renames a column, and a view breaks
//! when a column it outputs gets a wider type.

use std::fmt;

use super::{Change, EvolutionPlan, EvolutionStep};
use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{TableDef, TableName};
use crate::render::SqlWriter;
use crate::statement::StatementKind;
use crate::validate::{references, Clause, References, Shape};

/// A statement that reads tables: a view, or a SQL text kept elsewhere (a saved query,
/// an export job), read by our parser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reader {
    label: String,
    view: Option<TableName>,
    /// The view's query, or the whole text.
    sql: String,
    refs: References,
}

impl Reader {
    /// A view as the catalog holds it: its name and its query (the `view_definition`
    /// of `information_schema.views`).
    pub fn view(name: TableName, query: &str) -> Result<Reader> {
        let refs = read(query, &name.to_string())?;
        if refs.shape != Shape::Query {
            return Err(Error::new(
                ErrorKind::DisallowedSyntax,
                format!("the definition of view {name} is not a query"),
            )
            .with_hint("pass the view's SELECT text (information_schema.views' view_definition)"));
        }
        Ok(Reader {
            label: name.to_string(),
            view: Some(name),
            sql: query.to_string(),
            refs,
        })
    }

    /// A SQL text registered under `label`: a query, an `INSERT … SELECT`, or a
    /// `CREATE [OR REPLACE] VIEW` (such as a view statement this crate builds), which is
    /// read as that view.
    pub fn sql(label: impl Into<String>, sql: &str) -> Result<Reader> {
        let label = label.into();
        let refs = read(sql, &label)?;
        if refs.shape == Shape::Other {
            return Err(Error::new(
                ErrorKind::DisallowedSyntax,
                format!("reader {label} is not a query, an INSERT or a CREATE VIEW"),
            )
            .with_hint("register the statements that read tables"));
        }
        if let Shape::View { name, query_at } = &refs.shape {
            let [.., db, v] = name.as_slice() else {
                return Err(Error::new(
                    ErrorKind::InvalidIdentifier,
                    format!(
                        "reader {label}: the view {} has no database",
                        name.join(".")
                    ),
                )
                .with_hint("name the view as database.view in its CREATE VIEW"));
            };
            let view = TableName::new(db.as_str(), v.as_str());
            let query = sql.get(*query_at..).unwrap_or_default().trim();
            return Reader::view(view, query).map(|mut r| {
                r.label = label;
                r
            });
        }
        Ok(Reader {
            label,
            view: None,
            sql: sql.to_string(),
            refs,
        })
    }

    /// The label: the view's name, or the label of the text.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The view, when the reader is one.
    pub fn view_name(&self) -> Option<&TableName> {
        self.view.as_ref()
    }
}

fn read(sql: &str, label: &str) -> Result<References> {
    references(sql, Dialect::Athena).map_err(|e| {
        Error::new(
            ErrorKind::Syntax,
            format!("reader {label}: our parser cannot read its SQL (the reason follows)"),
        )
        .with_hint(
            "register the reader's text as Athena (Trino) SQL: a query, an INSERT or a CREATE VIEW",
        )
        .and(e)
    })
}

/// How a reader uses a column a step changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ReadAs {
    /// In its select list.
    Select,
    /// In `WHERE` or `HAVING`.
    Filter,
    /// In a join's `ON` or `USING`.
    Join,
    /// In `GROUP BY`.
    GroupBy,
    /// In `ORDER BY`.
    OrderBy,
    /// Elsewhere (a window, an `UPDATE`'s `SET`, …).
    Other,
    /// Through a `SELECT *` (or `t.*`) whose columns are a fixed list: a view's stored
    /// columns, or the columns of an `INSERT`.
    Star,
    /// Written by an `INSERT` into the table: named in its column list, or, without
    /// one, as one of all the table's columns in order.
    Write,
}

impl fmt::Display for ReadAs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReadAs::Select => "selects",
            ReadAs::Filter => "filters on",
            ReadAs::Join => "joins on",
            ReadAs::GroupBy => "groups by",
            ReadAs::OrderBy => "orders by",
            ReadAs::Other => "uses",
            ReadAs::Star => "reads through SELECT * into a fixed column list",
            ReadAs::Write => "writes",
        })
    }
}

/// A reader a step breaks, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReaderBreak {
    /// The reader's label.
    pub reader: String,
    /// How it reads the column (or the table, for [`ReadAs::Star`]).
    pub read_as: ReadAs,
    /// The column of the table it reads (for [`ReadAs::Star`]: the step's column, or
    /// the first added one).
    pub column: String,
}

impl fmt::Display for ReaderBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.read_as {
            ReadAs::Star => write!(
                f,
                "{} {} (column {})",
                self.reader, self.read_as, self.column
            ),
            _ => write!(f, "{} {} {}", self.reader, self.read_as, self.column),
        }
    }
}

impl EvolutionPlan {
    /// Checks each step against `readers` of `live` (the table the plan evolves):
    /// fills [`EvolutionStep::readers`] with the readers it breaks, and after each
    /// rename that breaks a view, adds a step that replaces the view
    /// (`CREATE OR REPLACE VIEW`) with its query reading the new name as the old
    /// one, so the view keeps its columns. The rewrite runs after the rename: the
    /// engine checks a view's query when it is created, and the new name exists only
    /// then. A view's `SELECT *` over the table alone is written out as the live
    /// columns; a view with `*` over a join or a `t.*` is reported, not rewritten, and
    /// so are the views of a Spark plan (readers are read as Athena's and Trino's SQL).
    ///
    /// What breaks: a use of a column a step renames or drops (select list, filter,
    /// join, group by, order by, anywhere, or an `INSERT`'s column list); an `INSERT`
    /// into the table without a column list, when a step adds or drops a column; a view's column whose type a step widens
    /// (a view keeps its columns' types) and an `INSERT`'s selected column so widened;
    /// a `SELECT *` over the table feeding a view or an `INSERT` when a step adds,
    /// drops or widens a column, and a view's when a step renames one.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::evolve::{evolve, EvolveOptions, Reader};
    /// let live = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("event_id", IcebergType::String))
    ///     .column(Column::new("payload", IcebergType::String))
    ///     .location("s3://my-datalake/iceberg/mcp_events/").build()?;
    /// let desired = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("event_id", IcebergType::String))
    ///     .column(Column::new("tool_payload", IcebergType::String).renamed_from("payload"))
    ///     .location("s3://my-datalake/iceberg/mcp_events/").build()?;
    /// let readers = [
    ///     Reader::view(TableName::new("analytics", "payloads"),
    ///         "SELECT event_id, payload FROM analytics.mcp_events WHERE payload IS NOT NULL")?,
    ///     Reader::sql("export job", "SELECT count(*) FROM analytics.mcp_events GROUP BY payload")?,
    /// ];
    /// let plan = evolve(&live, &desired, EvolveOptions::new())?.check_readers(&live, &readers)?;
    /// let broken: Vec<String> = plan.steps[0].readers.iter().map(|b| b.to_string()).collect();
    /// assert_eq!(broken, [
    ///     "analytics.payloads selects payload",
    ///     "analytics.payloads filters on payload",
    ///     "export job groups by payload",
    /// ]);
    /// assert_eq!(plan.steps[1].statement.sql(),
    ///     "CREATE OR REPLACE VIEW analytics.payloads AS\n\
    ///      SELECT event_id, tool_payload AS payload FROM analytics.mcp_events WHERE tool_payload IS NOT NULL");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn check_readers(self, live: &TableDef, readers: &[Reader]) -> Result<EvolutionPlan> {
        let table = live.name();
        // The rewrites are written for the plan's target, in the Trino text the readers
        // are read as: a target whose views are other text gets the report only.
        let dialect = self
            .steps
            .first()
            .map_or(Dialect::default(), |s| s.statement.dialect());
        let rewrite = dialect.grammar(StatementKind::CreateView) == Grammar::TrinoDml;
        let mut readers: Vec<Reader> = readers.to_vec();
        let mut steps = Vec::with_capacity(self.steps.len());
        for mut step in self.steps {
            let mut rewrites = Vec::new();
            for r in readers.iter_mut() {
                let breaks = breaks(r, table, &step.change);
                if breaks.is_empty() {
                    continue;
                }
                step.readers
                    .extend(breaks.iter().map(|(read_as, column)| ReaderBreak {
                        reader: r.label.clone(),
                        read_as: *read_as,
                        column: column.clone(),
                    }));
                if let (Change::RenameColumn { from, to }, Some(view)) =
                    (&step.change, r.view.clone())
                {
                    if let Some(query) = rename_in(r, live, from, to, dialect).filter(|_| rewrite) {
                        let statement = replace_view(&view, &query, dialect)?;
                        let label = std::mem::take(&mut r.label);
                        *r = Reader {
                            label,
                            ..Reader::view(view.clone(), &query)?
                        };
                        rewrites.push(EvolutionStep {
                            change: Change::ReplaceView {
                                view: view.clone(),
                                column: to.clone(),
                                read_as: from.clone(),
                            },
                            breaking: false,
                            statement,
                            readers: Vec::new(),
                        });
                    }
                }
            }
            steps.push(step);
            steps.extend(rewrites);
        }
        Ok(EvolutionPlan { steps })
    }
}

/// Whether `parts` (a table name as written) names `table`; an unqualified name is
/// taken as in the table's database.
fn names_table(parts: &[String], table: &TableName) -> bool {
    match parts {
        [.., db, t] => {
            db.eq_ignore_ascii_case(&table.database) && t.eq_ignore_ascii_case(&table.table)
        }
        [t] => t.eq_ignore_ascii_case(&table.table),
        [] => false,
    }
}

/// The names `table` goes by in `refs` (its aliases and its own name), or none when the
/// reader does not read it.
fn qualifiers(refs: &References, table: &TableName) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for t in refs.tables.iter().filter(|t| names_table(&t.name, table)) {
        match &t.alias {
            Some(a) => out.push(vec![a.clone()]),
            None => {
                out.push(t.name.clone());
                if let Some(last) = t.name.last() {
                    out.push(vec![last.clone()]);
                }
            }
        }
    }
    out
}

fn same(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.eq_ignore_ascii_case(y))
}

/// The uses in `r` of `column` of `table`: their index in `r.refs.columns` and the
/// index of the part that names the column.
fn uses_of(r: &Reader, table: &TableName, column: &str) -> Vec<(usize, usize)> {
    let quals = qualifiers(&r.refs, table);
    if quals.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, u) in r.refs.columns.iter().enumerate() {
        // `q.c` with `q` the table or one of its names, else `c` or `c.field` (a
        // field of a row).
        let qualified = (1..u.parts.len()).find(|&n| {
            u.parts[n].eq_ignore_ascii_case(column) && quals.iter().any(|q| same(q, &u.parts[..n]))
        });
        let part = qualified.or_else(|| {
            let own = u
                .parts
                .first()
                .is_some_and(|c| c.eq_ignore_ascii_case(column))
                && !quals.iter().any(|q| same(q, &u.parts[..1]));
            own.then_some(0)
        });
        if let Some(part) = part {
            out.push((i, part));
        }
    }
    out
}

/// Whether `r` has a `SELECT *` over `table` in its outermost query.
fn star_over(r: &Reader, table: &TableName) -> bool {
    let quals = qualifiers(&r.refs, table);
    !quals.is_empty()
        && r.refs.wildcards.iter().any(|w| {
            w.top && (w.qualifier.is_empty() || quals.iter().any(|q| same(q, &w.qualifier)))
        })
}

fn read_as(c: Clause) -> ReadAs {
    match c {
        Clause::Select => ReadAs::Select,
        Clause::Filter => ReadAs::Filter,
        Clause::Join => ReadAs::Join,
        Clause::GroupBy => ReadAs::GroupBy,
        Clause::OrderBy => ReadAs::OrderBy,
        Clause::Other => ReadAs::Other,
    }
}

/// How `change` of `table` breaks `r`: each way once, in the order of
/// [`ReadAs`].
fn breaks(r: &Reader, table: &TableName, change: &Change) -> Vec<(ReadAs, String)> {
    let fixed = r.view.is_some() || matches!(r.refs.shape, Shape::Insert { .. });
    // An INSERT into the table without a column list writes every column, in order.
    let writes_all = matches!(&r.refs.shape, Shape::Insert { table: into, columns }
        if columns.is_empty() && names_table(into, table));
    let star = fixed && star_over(r, table);
    let mut out: Vec<(ReadAs, String)> = Vec::new();
    let all_uses = |column: &str, out: &mut Vec<(ReadAs, String)>| {
        for (i, _) in uses_of(r, table, column) {
            out.push((read_as(r.refs.columns[i].clause), column.to_string()));
        }
        if let Shape::Insert {
            table: into,
            columns,
        } = &r.refs.shape
        {
            if names_table(into, table) && columns.iter().any(|c| c.eq_ignore_ascii_case(column)) {
                out.push((ReadAs::Write, column.to_string()));
            }
        }
    };
    match change {
        Change::RenameColumn { from, .. } => {
            all_uses(from, &mut out);
            if star && r.view.is_some() {
                out.push((ReadAs::Star, from.clone()));
            }
        }
        Change::DropColumn(c) => {
            all_uses(c, &mut out);
            if star {
                out.push((ReadAs::Star, c.clone()));
            }
            if writes_all {
                out.push((ReadAs::Write, c.clone()));
            }
        }
        Change::WidenColumn { column, .. } => {
            if fixed {
                for (i, _) in uses_of(r, table, column) {
                    let u = &r.refs.columns[i];
                    if u.clause == Clause::Select && u.top {
                        out.push((ReadAs::Select, column.clone()));
                    }
                }
            }
            if star {
                out.push((ReadAs::Star, column.clone()));
            }
        }
        Change::AddColumns(cols) => {
            if let Some(c) = cols.first() {
                if star {
                    out.push((ReadAs::Star, c.clone()));
                }
                if writes_all {
                    out.push((ReadAs::Write, c.clone()));
                }
            }
        }
        Change::SetProperties(_) | Change::ReplaceView { .. } => {}
    }
    out.sort();
    out.dedup();
    out
}

/// `r`'s query with `from` of `table` read as `to`: each use renamed, a bare output
/// column aliased to its old name, and a `SELECT *` over the table alone written as
/// `live`'s columns. `None` when a `*` cannot be written out (over a join, or `t.*`).
fn rename_in(
    r: &Reader,
    live: &TableDef,
    from: &str,
    to: &str,
    dialect: Dialect,
) -> Option<String> {
    let table = live.name();
    let grammar = dialect.grammar(StatementKind::CreateView);
    let new = grammar.quote_ident(to);
    let old = grammar.quote_ident(from);
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (i, part) in uses_of(r, table, from) {
        let u = &r.refs.columns[i];
        let (start, end) = u.spans[part];
        let mut text = new.clone();
        if u.output && part + 1 == u.parts.len() {
            text = format!("{new} AS {old}");
        }
        edits.push((start, end, text));
    }
    for w in r.refs.wildcards.iter().filter(|w| w.top) {
        let alone = r.refs.tables.len() == 1 && names_table(&r.refs.tables[0].name, table);
        let (Some((start, end)), true) = (w.at, alone) else {
            return None;
        };
        let columns: Vec<String> = live
            .columns()
            .iter()
            .map(|c| {
                if c.name.eq_ignore_ascii_case(from) {
                    format!("{new} AS {old}")
                } else {
                    grammar.quote_ident(&c.name)
                }
            })
            .collect();
        edits.push((start, end, columns.join(", ")));
    }
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(r.sql.len() + 16);
    let mut at = 0;
    for (start, end, text) in edits {
        out.push_str(r.sql.get(at..start)?);
        out.push_str(&text);
        at = end;
    }
    out.push_str(r.sql.get(at..)?);
    Some(out)
}

/// `CREATE OR REPLACE VIEW view AS query`, validated.
fn replace_view(
    view: &TableName,
    query: &str,
    dialect: Dialect,
) -> Result<crate::statement::Statement> {
    let mut w = SqlWriter::new(StatementKind::CreateView, dialect);
    w.rules().check_view_statement(StatementKind::CreateView)?;
    w.push("CREATE OR REPLACE VIEW ")
        .table_name(view)
        .push(" AS\n")
        .push(query.trim());
    w.finish()
}
