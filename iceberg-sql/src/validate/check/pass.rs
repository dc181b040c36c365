//! One pass over the parsed tree, in text order, checking each node: the target's
//! refusals, quoting per grammar, the `?` placeholders, and the literal, row count and
//! type rules of [`literals`].
//!
//! Operator chains are as deep as they are long (10,000 `OR`s fit in a statement), so
//! the pass goes down the first operands of a chain in a loop, as the tree's `Drop`
//! does, and recurses only into the other operands.

use std::borrow::Cow;
use std::fmt::{self, Display};

use super::Ctx;
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;
use crate::validate::literals::{self, Brackets, CallArgs, RowCount, TypeForm, Zone};
use crate::validate::parser::ast::{
    AlterAction, Assignment, Brackets as AstBrackets, ColumnDef, DataType, Expr, Function,
    FunctionArgs, Ident, InsertSource, Literal, LiteralValue, MergeAction, OrderByItem, Property,
    Query, Select, SelectItem, Statement, StringForm, TableClause, TableFactor, TableVersion,
    TimeZone, UnaryOp, Window,
};
use crate::validate::parser::ast::{FrameBound, WindowFrame};

/// Runs the pass over `stmt`, then counts its `?` placeholders against `param_count`.
pub(super) fn check(ctx: &Ctx, stmt: &Statement, param_count: usize) -> Result<()> {
    let mut p = Pass {
        ctx,
        accepts_parameters: ctx.dialect.rules().accepts_parameters(ctx.kind),
        placeholders: 0,
        first_extra: None,
        param_count,
        in_where: 0,
    };
    p.statement(stmt)?;
    if p.placeholders != param_count {
        let msg = format!(
            "the {} text has {} `?` placeholder(s) but {} parameter(s) are bound; \
             every `?` needs exactly one execution parameter",
            ctx.kind.name(),
            p.placeholders,
            param_count
        );
        return Err(match p.first_extra {
            Some(at) => ctx.at(msg, at),
            None => ctx.at_start(msg),
        });
    }
    Ok(())
}

struct Pass<'a> {
    ctx: &'a Ctx<'a>,
    /// Whether the target takes `?` parameters for this kind.
    accepts_parameters: bool,
    placeholders: usize,
    /// Where the first `?` beyond `param_count` is.
    first_extra: Option<usize>,
    param_count: usize,
    /// How many `WHERE` clauses of a `SELECT` the pass is inside.
    in_where: usize,
}

impl Pass<'_> {
    fn fail<T>(&self, msg: impl Into<String>, at: usize) -> Result<T> {
        Err(self.ctx.at(msg, at))
    }

    fn trino(&self) -> bool {
        self.ctx.grammar == Grammar::TrinoDml
    }

    // ---- statements ------------------------------------------------------------------

    fn statement(&mut self, stmt: &Statement) -> Result<()> {
        match stmt {
            Statement::Query(q) => self.query(q),
            Statement::Insert(ins) => {
                self.idents(&ins.table)?;
                self.idents(&ins.columns)?;
                match &ins.source {
                    InsertSource::Values(rows) => self.rows(rows),
                    InsertSource::Query(q) => self.query(q),
                }
            }
            Statement::Update(u) => {
                self.idents(&u.table)?;
                self.opt_ident(u.alias.as_ref())?;
                self.assignments(&u.assignments)?;
                self.opt_expr(u.selection.as_ref())
            }
            Statement::Delete(d) => {
                self.idents(&d.table)?;
                self.opt_ident(d.alias.as_ref())?;
                self.opt_expr(d.selection.as_ref())
            }
            Statement::Merge(m) => {
                self.idents(&m.table)?;
                self.opt_ident(m.alias.as_ref())?;
                self.table_factor(&m.source)?;
                self.expr(&m.on)?;
                for c in &m.clauses {
                    self.opt_expr(c.condition.as_ref())?;
                    match &c.action {
                        MergeAction::Update(a) => self.assignments(a)?,
                        MergeAction::Delete => {}
                        MergeAction::Insert { columns, values } => {
                            self.idents(columns)?;
                            self.exprs(values)?;
                        }
                        MergeAction::UpdateAll | MergeAction::InsertAll => {}
                    }
                }
                Ok(())
            }
            Statement::Optimize { table, predicate } => {
                self.idents(table)?;
                self.opt_expr(predicate.as_ref())
            }
            Statement::Vacuum { table } => self.idents(table),
            Statement::Unload { query, to, with } => {
                self.query(query)?;
                self.literal(to)?;
                for p in with {
                    self.ident(&p.name)?;
                    self.expr(&p.value)?;
                }
                Ok(())
            }
            Statement::Call { procedure, args } => {
                self.idents(procedure)?;
                for (name, value) in args {
                    self.opt_ident(name.as_ref())?;
                    self.expr(value)?;
                }
                Ok(())
            }
            // Any other field (`WITH [NO] DATA`) holds no name, literal or type.
            Statement::CreateTableAs {
                table, with, query, ..
            } => {
                self.idents(table)?;
                self.properties(with)?;
                self.query(query)
            }
            Statement::CreateTable(_)
            | Statement::AlterTable { .. }
            | Statement::Drop { .. }
            | Statement::CreateDatabase { .. }
            | Statement::CreateView { .. }
            | Statement::ShowTables { .. }
            | Statement::ShowCreateTable { .. }
            | Statement::Describe { .. } => self.ddl(stmt),
        }
    }

    /// The DDL statements: their names, literals, types and expressions. (A
    /// `TBLPROPERTIES` key is a name: not checked as a string.)
    fn ddl(&mut self, stmt: &Statement) -> Result<()> {
        match stmt {
            Statement::CreateTable(ct) => {
                self.idents(&ct.name)?;
                for c in &ct.columns {
                    self.column(c)?;
                }
                for clause in &ct.clauses {
                    match clause {
                        TableClause::Using(i) | TableClause::StoredAs(i) => self.ident(i)?,
                        TableClause::Comment(l) | TableClause::Location(l) => self.literal(l)?,
                        TableClause::PartitionedBy(fields) => self.exprs(fields)?,
                        TableClause::TblProperties(props) => {
                            for (_, v) in props {
                                self.literal(v)?;
                            }
                        }
                        TableClause::With(props) => self.properties(props)?,
                        TableClause::Options(opts) => {
                            for (k, v) in opts {
                                self.ident(k)?;
                                self.literal(v)?;
                            }
                        }
                    }
                }
                match &ct.query {
                    Some(q) => self.query(q),
                    None => Ok(()),
                }
            }
            Statement::AlterTable { table, action } => {
                self.idents(table)?;
                match action {
                    AlterAction::AddColumns(cols) => cols.iter().try_for_each(|c| self.column(c)),
                    AlterAction::AddColumn(c) => self.column(c),
                    AlterAction::DropColumn(i) => self.ident(i),
                    AlterAction::ChangeColumn {
                        old,
                        new,
                        ty,
                        comment,
                    } => {
                        self.ident(old)?;
                        self.ident(new)?;
                        self.data_type(ty, new.span.end)?;
                        comment.as_ref().map_or(Ok(()), |l| self.literal(l))
                    }
                    AlterAction::RenameColumn { old, new } => {
                        self.ident(old)?;
                        self.ident(new)
                    }
                    AlterAction::AlterColumnType { column, ty } => {
                        self.ident(column)?;
                        self.data_type(ty, column.span.end)
                    }
                    AlterAction::RenameTo(name) => self.idents(name),
                    AlterAction::SetTblProperties(props) => {
                        props.iter().try_for_each(|(_, v)| self.literal(v))
                    }
                    AlterAction::UnsetTblProperties(_) => Ok(()),
                    AlterAction::AddPartitionField(f) | AlterAction::DropPartitionField(f) => {
                        self.expr(f)
                    }
                    AlterAction::ReplacePartitionField(old, new) => {
                        self.expr(old)?;
                        self.expr(new)
                    }
                    AlterAction::AddPartitions { partitions, .. } => {
                        for p in partitions {
                            for (k, v) in &p.values {
                                self.ident(k)?;
                                self.expr(v)?;
                            }
                            if let Some(l) = &p.location {
                                self.literal(l)?;
                            }
                        }
                        Ok(())
                    }
                    AlterAction::SetProperties(props) => {
                        for (k, v) in props {
                            self.ident(k)?;
                            self.opt_expr(v.as_ref())?;
                        }
                        Ok(())
                    }
                    AlterAction::Execute {
                        procedure,
                        args,
                        predicate,
                    } => {
                        self.ident(procedure)?;
                        for (name, value) in args {
                            self.opt_ident(name.as_ref())?;
                            self.expr(value)?;
                        }
                        self.opt_expr(predicate.as_ref())
                    }
                }
            }
            Statement::Drop { name, .. }
            | Statement::ShowCreateTable { table: name }
            | Statement::Describe { table: name, .. } => self.idents(name),
            Statement::CreateDatabase {
                name,
                comment,
                location,
                with,
                ..
            } => {
                self.idents(name)?;
                for l in comment.iter().chain(location) {
                    self.literal(l)?;
                }
                self.properties(with)
            }
            Statement::CreateView { name, query, .. } => {
                self.idents(name)?;
                self.query(query)
            }
            // The pattern and the escape character of a `SHOW TABLES` filter are plain
            // strings, not literals, so no literal rule applies to them; `ddl.rs`
            // checks them.
            Statement::ShowTables {
                database: Some(db), ..
            } => self.idents(db),
            _ => Ok(()),
        }
    }

    fn column(&mut self, c: &ColumnDef) -> Result<()> {
        self.ident(&c.name)?;
        self.data_type(&c.ty, c.name.span.end)?;
        c.comment.as_ref().map_or(Ok(()), |l| self.literal(l))
    }

    fn properties(&mut self, props: &[Property]) -> Result<()> {
        for p in props {
            self.ident(&p.name)?;
            self.expr(&p.value)?;
        }
        Ok(())
    }

    fn assignments(&mut self, assignments: &[Assignment]) -> Result<()> {
        for a in assignments {
            self.idents(&a.column)?;
            self.expr(&a.value)?;
        }
        Ok(())
    }

    fn rows(&mut self, rows: &[Vec<Expr>]) -> Result<()> {
        rows.iter().try_for_each(|r| self.exprs(r))
    }

    // ---- queries ---------------------------------------------------------------------

    fn query(&mut self, q: &Query) -> Result<()> {
        // `LIMIT ALL` is no limit (`limitRowCount: ALL | rowCount` in Trino's SqlBase.g4,
        // `LIMIT (ALL | expression)` in Spark's); the parser reads the word as a name.
        let limit = q.limit.as_ref().filter(|l| !is_all(l));
        let offset = q.offset.as_ref().map(|o| &o.value);
        if self.ctx.grammar != Grammar::HiveDdl {
            // In text order: LIMIT's count, OFFSET's, then FETCH's.
            let counts = limit.map(|l| ("LIMIT", l)).into_iter();
            for (clause, count) in counts.chain(offset.map(|o| ("OFFSET", o))) {
                if let Some(msg) = self.row_count_problem(clause, count) {
                    return self.fail(msg, expr_start(count));
                }
            }
            if let Some(fetch) = &q.fetch {
                let problem = fetch
                    .quantity
                    .as_ref()
                    .and_then(|n| self.row_count_problem("FETCH FIRST", n));
                if let Some(msg) = problem {
                    return Err(self.ctx.at_word(msg, "FETCH"));
                }
                if fetch.with_ties && q.order_by.is_empty() {
                    return Err(self.ctx.at_word(
                        "FETCH FIRST … WITH TIES needs an ORDER BY (ties are rows equal in the \
                         ordering)",
                        "TIES",
                    ));
                }
            }
        }
        for cte in &q.with {
            self.ident(&cte.name)?;
            self.query(&cte.query)?;
        }
        for s in q.body.selects() {
            self.select(s)?;
        }
        self.order_by(&q.order_by)?;
        self.opt_expr(limit)?;
        self.opt_expr(offset)?;
        self.opt_expr(q.fetch.as_ref().and_then(|f| f.quantity.as_ref()))
    }

    /// What is wrong with `count` as the row count of `clause` (`LIMIT`, …), if anything.
    fn row_count_problem(&self, clause: &str, count: &Expr) -> Option<String> {
        let form = match count {
            Expr::Literal(Literal {
                value: LiteralValue::Number { text, long: false },
                ..
            }) => RowCount::Integer(text),
            Expr::Placeholder(_) => RowCount::Placeholder,
            _ => RowCount::Other,
        };
        let shown = text_with_sign(self.ctx.sql, count);
        literals::row_count_problem(clause, form, &shown, self.ctx.grammar)
    }

    fn order_by(&mut self, items: &[OrderByItem]) -> Result<()> {
        items.iter().try_for_each(|o| self.expr(&o.expr))
    }

    fn select(&mut self, s: &Select) -> Result<()> {
        for item in &s.items {
            match item {
                SelectItem::Expr { expr, alias } => {
                    self.expr(expr)?;
                    self.opt_ident(alias.as_ref())?;
                }
                SelectItem::Wildcard(_) => {}
                SelectItem::QualifiedWildcard(name) => self.idents(name)?,
            }
        }
        for t in &s.from {
            self.table_factor(&t.relation)?;
            for j in &t.joins {
                self.table_factor(&j.relation)?;
                match &j.constraint {
                    crate::validate::parser::ast::JoinConstraint::On(e) => self.expr(e)?,
                    crate::validate::parser::ast::JoinConstraint::Using(cols) => {
                        self.idents(cols)?
                    }
                    crate::validate::parser::ast::JoinConstraint::None
                    | crate::validate::parser::ast::JoinConstraint::Natural => {}
                }
            }
        }
        // Spark's `LATERAL VIEW`s, read by the walk after the relations: call, name,
        // columns.
        for v in &s.lateral_views {
            self.expr(&v.call)?;
            self.ident(&v.name)?;
            self.idents(&v.columns)?;
        }
        // Spark's `PIVOT`, read by the walk after the relations: the aggregates and their
        // aliases, the pivot columns, the values and their aliases.
        if let Some(p) = &s.pivot {
            for (e, alias) in &p.aggregates {
                self.expr(e)?;
                self.opt_ident(alias.as_ref())?;
            }
            self.idents(&p.columns)?;
            for (e, alias) in &p.values {
                self.expr(e)?;
                self.opt_ident(alias.as_ref())?;
            }
        }
        if let Some(w) = &s.selection {
            self.in_where += 1;
            let r = self.expr(w);
            self.in_where -= 1;
            r?;
        }
        self.exprs(&s.group_by)?;
        self.exprs(&s.cluster_by)?;
        self.opt_expr(s.having.as_ref())?;
        for (name, w) in &s.windows {
            self.ident(name)?;
            self.window(w)?;
        }
        Ok(())
    }

    fn table_factor(&mut self, tf: &TableFactor) -> Result<()> {
        match tf {
            TableFactor::Table {
                name,
                version,
                alias,
                sample,
            } => {
                self.idents(name)?;
                match version {
                    Some(
                        TableVersion::Version(e)
                        | TableVersion::Timestamp(e)
                        | TableVersion::SystemTime(e),
                    ) => self.expr(e)?,
                    None => {}
                }
                self.opt_ident(alias.as_ref())?;
                self.opt_expr(sample.as_ref().map(|s| &s.percentage))
            }
            TableFactor::Derived {
                query,
                alias,
                columns,
                ..
            } => {
                self.query(query)?;
                self.opt_ident(alias.as_ref())?;
                self.idents(columns)
            }
            TableFactor::Values {
                rows,
                alias,
                columns,
            } => {
                self.rows(rows)?;
                self.opt_ident(alias.as_ref())?;
                self.idents(columns)
            }
            TableFactor::TableFunction { call, alias } => {
                self.expr(call)?;
                self.opt_ident(alias.as_ref())
            }
            // A table with arguments: its name, its alias, then its arguments. (Trino's
            // `UNNEST`, unquoted, has no quotes to check.)
            TableFactor::TableValued {
                name,
                args,
                alias,
                columns,
                ..
            } => {
                self.idents(name)?;
                self.opt_ident(alias.as_ref())?;
                self.idents(columns)?;
                self.exprs(args)
            }
        }
    }

    // ---- names -----------------------------------------------------------------------

    fn idents(&mut self, idents: &[Ident]) -> Result<()> {
        idents.iter().try_for_each(|i| self.ident(i))
    }

    fn opt_ident(&mut self, ident: Option<&Ident>) -> Result<()> {
        ident.map_or(Ok(()), |i| self.ident(i))
    }

    /// A name's quotes: the grammar's own, and never empty. (A word Trino reserves is
    /// a name only quoted: the parser refuses it unquoted.)
    fn ident(&mut self, ident: &Ident) -> Result<()> {
        let Some(q) = ident.quote else {
            return Ok(());
        };
        let at = ident.span.start;
        // Trino: "Zero-length delimited identifier not allowed" (SqlParser.java).
        if ident.value.is_empty() && matches!(q, '"' | '`') {
            return self.fail(
                format!("an empty quoted name {q}{q}: a name has at least one character"),
                at,
            );
        }
        let g = self.ctx.grammar;
        if q == g.quote_char() {
            return Ok(());
        }
        let name = &ident.value;
        let label = self.ctx.dialect.rules().syntax().grammar_label(g);
        let msg = match (g, q) {
            (Grammar::HiveDdl, '"') => format!(
                "double-quoted name \"{name}\" in {label}: the Hive DDL parser quotes names with backticks (`{name}`)"
            ),
            (Grammar::TrinoDml, '`') => format!(
                "backticked name `{name}` in {label}: Trino quotes names with double quotes (\"{name}\")"
            ),
            (Grammar::Spark, '"') => format!(
                "double-quoted name \"{name}\" in {label}: Spark quotes names with backticks (`{name}`)"
            ),
            (_, other) => format!(
                "name {other}{name} quoted with `{other}`: {} quotes names with {}",
                self.ctx.grammar_name(),
                if g == Grammar::TrinoDml { "double quotes" } else { "backticks" }
            ),
        };
        self.fail(msg, at)
    }

    // ---- expressions -----------------------------------------------------------------

    fn exprs(&mut self, exprs: &[Expr]) -> Result<()> {
        exprs.iter().try_for_each(|e| self.expr(e))
    }

    fn opt_expr(&mut self, e: Option<&Expr>) -> Result<()> {
        e.map_or(Ok(()), |e| self.expr(e))
    }

    /// `e` and everything under it: down the chain of first operands in a loop, then
    /// each node's own check and its other operands, innermost first (text order).
    fn expr(&mut self, e: &Expr) -> Result<()> {
        let mut spine = Vec::new();
        let mut leaf = e;
        while let Some(first) = first_operand(leaf) {
            spine.push(leaf);
            leaf = first;
        }
        self.node(leaf)?;
        self.children(leaf)?;
        for n in spine.into_iter().rev() {
            self.node(n)?;
            self.children(n)?;
        }
        Ok(())
    }

    /// The operands of `e` other than its first operand when it has one (see
    /// [`first_operand`]), in text order.
    fn children(&mut self, e: &Expr) -> Result<()> {
        match e {
            Expr::Name(parts) => self.idents(parts),
            Expr::Literal(_) | Expr::Placeholder(_) => Ok(()),
            Expr::Nested(x) => self.expr(x),
            Expr::Unary { expr, .. } => self.expr(expr),
            Expr::Binary { right, .. } => self.expr(right),
            Expr::IsNull { .. } => Ok(()),
            Expr::IsDistinctFrom { right, .. } => self.expr(right),
            Expr::InList { list, .. } => self.exprs(list),
            Expr::Between { low, high, .. } => {
                self.expr(low)?;
                self.expr(high)
            }
            Expr::Like {
                pattern, escape, ..
            }
            | Expr::ILike {
                pattern, escape, ..
            } => {
                self.expr(pattern)?;
                self.opt_expr(escape.as_deref())
            }
            Expr::Case {
                operand,
                branches,
                otherwise,
            } => {
                self.opt_expr(operand.as_deref())?;
                for (when, then) in branches {
                    self.expr(when)?;
                    self.expr(then)?;
                }
                self.opt_expr(otherwise.as_deref())
            }
            Expr::Cast { expr, ty, .. } => {
                self.expr(expr)?;
                self.data_type(ty, expr_end(expr))
            }
            Expr::Function(f) => self.function(f),
            Expr::Array(items) => self.exprs(items),
            Expr::Subscript { index, .. } => self.expr(index),
            Expr::Field { field, .. } => self.ident(field),
            Expr::AtTimeZone { zone, .. } => self.expr(zone),
            Expr::Interval { value, .. } => self.expr(value),
            Expr::Extract { expr, .. } => self.expr(expr),
            Expr::Subquery(q) | Expr::Exists { query: q, .. } => self.query(q),
            Expr::InSubquery { query, .. } => self.query(query),
            Expr::Lambda { params, body, .. } => {
                self.idents(params)?;
                self.expr(body)
            }
            Expr::IsBool { .. } => Ok(()),
            Expr::RLike { pattern, .. } => self.expr(pattern),
            Expr::Quantified { query, .. } => self.query(query),
            Expr::Row(fields) => self.exprs(fields),
            Expr::Named { expr, name } => {
                self.expr(expr)?;
                self.ident(name)
            }
            Expr::Position { needle, haystack } => {
                self.expr(needle)?;
                self.expr(haystack)
            }
            Expr::Substring { expr, from, length } => {
                self.expr(expr)?;
                self.expr(from)?;
                self.opt_expr(length.as_deref())
            }
            // `trim(chars FROM value)`: the characters before the value, as written.
            Expr::Trim { chars, expr, .. } => {
                self.expr(chars)?;
                self.expr(expr)
            }
            Expr::Overlay {
                expr,
                placing,
                from,
                length,
            } => {
                self.expr(expr)?;
                self.expr(placing)?;
                self.expr(from)?;
                self.opt_expr(length.as_deref())
            }
            Expr::Grouping { sets, .. } => sets.iter().try_for_each(|set| self.exprs(set)),
        }
    }

    fn window(&mut self, w: &Window) -> Result<()> {
        self.exprs(&w.partition_by)?;
        self.order_by(&w.order_by)?;
        if let Some(frame) = &w.frame {
            self.window_frame(frame)?;
        }
        self.opt_ident(w.name.as_ref())
    }

    fn function(&mut self, f: &Function) -> Result<()> {
        self.idents(&f.name)?;
        if let FunctionArgs::List { args, .. } = &f.args {
            self.exprs(args)?;
        }
        if let Some(o) = &f.ordering {
            self.order_by(&o.order_by)?;
            self.order_by(&o.within_group)?;
        }
        self.opt_expr(f.filter.as_deref())?;
        if let Some(w) = &f.over {
            self.window(w)?;
        }
        Ok(())
    }

    /// The checks on `e` itself (its children come after).
    fn node(&mut self, e: &Expr) -> Result<()> {
        let trino = self.trino();
        if self.ctx.grammar != Grammar::HiveDdl {
            if let Some(operand) = predicate_as_value(e, self.ctx.grammar) {
                return self.fail(
                    format!(
                        "{} stands where {} takes a value: the operands of a \
                         comparison, BETWEEN, IN, LIKE, IS [NOT] NULL, IS DISTINCT FROM and of the \
                         arithmetic operators are values; put the predicate in parentheses",
                        predicate_name(operand),
                        if trino {
                            "Trino's grammar"
                        } else {
                            "Spark's grammar"
                        }
                    ),
                    expr_start(operand),
                );
            }
        }
        match e {
            Expr::Literal(l) => self.literal(l),
            Expr::Placeholder(span) => self.placeholder(span.start),
            Expr::Cast { ty, .. } if trino && hive_type_in_trino(ty).is_some() => {
                let msg = hive_type_in_trino(ty).unwrap_or_default();
                self.fail(msg, expr_start(e))
            }
            // INSERT casts only NULLs and literals, to the column types we declare.
            Expr::Cast { ty, .. }
                if self.ctx.kind == StatementKind::Insert
                    && !written_type(ty, self.ctx.grammar) =>
            {
                self.fail(
                    format!(
                        "CAST to `{}`: an INSERT here casts only to the column types {} spells \
                         (e.g. {})",
                        Shown(ty),
                        self.ctx.grammar_name(),
                        if trino {
                            "varchar, bigint, row(a integer)"
                        } else {
                            "string, bigint, struct<a: int>"
                        }
                    ),
                    expr_start(e),
                )
            }
            Expr::Interval { value, unit, to } if trino => {
                let value_ok = match value.as_ref() {
                    Expr::Literal(l) => l.single_quoted(),
                    Expr::Unary {
                        op: UnaryOp::Plus | UnaryOp::Minus,
                        expr,
                    } => match expr.as_ref() {
                        Expr::Literal(l) => l.single_quoted(),
                        _ => None,
                    },
                    _ => None,
                }
                .is_some_and(|s| interval_value_ok(s, to.is_some()));
                let field = |u: &str| {
                    ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"]
                        .iter()
                        .position(|f| *f == u)
                };
                // YEAR TO MONTH, and DAY/HOUR/MINUTE TO a smaller day-time field.
                let fields_ok = match (field(unit), to.as_deref().map(field)) {
                    (Some(_), None) => true,
                    (Some(0), Some(Some(1))) => true,
                    (Some(f), Some(Some(t))) => (2..5).contains(&f) && t > f,
                    _ => false,
                };
                if value_ok && fields_ok {
                    return Ok(());
                }
                let amount = text_with_sign(self.ctx.sql, value);
                let shown = match to {
                    Some(to) => format!("INTERVAL {amount} {unit} TO {to}"),
                    None => format!("INTERVAL {amount} {unit}"),
                };
                self.fail(
                    format!(
                        "interval `{shown}`: Trino writes INTERVAL [+|-] 'n' <field> [TO <field>], \
                         n a number in a string, the fields YEAR, MONTH, DAY, HOUR, MINUTE or \
                         SECOND (ranges YEAR TO MONTH or DAY … TO SECOND)"
                    ),
                    expr_start(e),
                )
            }
            // `CONVERT(x, T)` is refused: no target of ours has a function of that name.
            Expr::Function(f)
                if f.name.len() == 1
                    && f.name[0].quote.is_none()
                    && f.name[0].value.eq_ignore_ascii_case("convert") =>
            {
                let at = match &f.args {
                    FunctionArgs::List { args, .. } => args.first().map(expr_start),
                    _ => None,
                };
                self.fail(
                    crate::validate::unwritten_form("`CONVERT(…)`", "write `CAST(x AS type)`"),
                    at.unwrap_or_else(|| expr_start(e)),
                )
            }
            Expr::Function(f) if trino && f.name.len() == 1 && f.name[0].quote.is_none() => {
                let args = match &f.args {
                    FunctionArgs::None => CallArgs::None,
                    FunctionArgs::List {
                        distinct: false,
                        args,
                    } => match args.as_slice() {
                        [Expr::Literal(Literal {
                            value: LiteralValue::Number { text, long: false },
                            ..
                        })] => text.parse().map_or(CallArgs::Other, CallArgs::Precision),
                        _ => CallArgs::Other,
                    },
                    _ => CallArgs::Other,
                };
                match literals::special_date_time_problem(&f.name[0].value, args) {
                    Some(msg) => self.fail(msg, expr_start(e)),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    fn placeholder(&mut self, at: usize) -> Result<()> {
        if !self.accepts_parameters {
            return self.fail(
                format!(
                    "`?` parameter in {}: Athena accepts execution parameters only in SELECT, \
                     INSERT INTO, CREATE TABLE AS and UNLOAD; write the value as a literal",
                    self.ctx.kind.name()
                ),
                at,
            );
        }
        if self.trino() && self.in_where == 0 {
            return self.fail(
                "`?` parameter outside a WHERE clause: Athena accepts execution parameters only \
                 in WHERE (`SELECT ? FROM t` and `VALUES (?)` are not supported); write the value as a literal",
                at,
            );
        }
        self.placeholders += 1;
        if self.placeholders == self.param_count + 1 {
            self.first_extra = Some(at);
        }
        Ok(())
    }

    fn literal(&mut self, l: &Literal) -> Result<()> {
        let g = self.ctx.grammar;
        let at = l.span.start;
        let problem = match &l.value {
            LiteralValue::Number { text, long } => literals::number_problem(text, *long, g),
            LiteralValue::String {
                form: StringForm::Hex,
                value,
            } => literals::binary_problem(value, g),
            LiteralValue::String {
                form: StringForm::Single,
                value,
            } if g == Grammar::HiveDdl => ddl_string_problem(value),
            LiteralValue::String {
                form: StringForm::Single,
                ..
            } => None,
            LiteralValue::String {
                form: StringForm::Unicode,
                ..
            } if g == Grammar::TrinoDml => None,
            LiteralValue::String {
                form: StringForm::Double,
                ..
            } => Some(format!(
                "double-quoted string literal in {}: write string literals in single quotes",
                self.ctx.grammar_name()
            )),
            LiteralValue::String { form, value } => Some(format!(
                "literal {}'{}' is not a {} literal form: write strings as '…' and binary as X'…'",
                // The prefix in upper case, the value as is.
                match form {
                    StringForm::National => "N",
                    StringForm::Unicode => "U&",
                    _ => "",
                },
                value.replace('\'', "''"),
                self.ctx.grammar_name()
            )),
            LiteralValue::Boolean(_) | LiteralValue::Null => None,
            LiteralValue::Typed { ty, value } => {
                if let Some(msg) =
                    literals::typed_literal_problem(&type_form(ty), &Shown(ty), value, g)
                {
                    return self.fail(msg, at);
                }
                let start = typed_literal_start(self.ctx.sql, l.span.start);
                self.data_type(ty, start)?;
                // The value is a string like any other (`DATE '…'` in OPTIMIZE's WHERE).
                if g == Grammar::HiveDdl {
                    ddl_string_problem(value)
                } else {
                    None
                }
            }
        };
        match problem {
            Some(msg) => self.fail(msg, at),
            None => Ok(()),
        }
    }

    /// A type and the types inside it; `near` is an offset before it, for the position
    /// of a refusal (types carry no span: the refusal points at the first occurrence
    /// of the type's first word after `near`).
    fn data_type(&mut self, t: &DataType, near: usize) -> Result<()> {
        if let Some(msg) = literals::type_problem(&type_form(t), &Shown(t), self.ctx.grammar) {
            let word = match t {
                DataType::Named { name, .. } => name.split(' ').next().unwrap_or_default(),
                DataType::Array(..) => "array",
                DataType::Map(..) => "map",
                DataType::Row(_, AstBrackets::Parentheses) => "row",
                DataType::Row(_, AstBrackets::Angle) => "struct",
            };
            let at = super::find_word(self.ctx.sql, near, word).unwrap_or(near);
            return self.fail(msg, at);
        }
        match t {
            DataType::Named { .. } => Ok(()),
            DataType::Array(e, _) => self.data_type(e, near),
            DataType::Map(k, v, _) => {
                self.data_type(k, near)?;
                self.data_type(v, near)
            }
            DataType::Row(fields, _) => {
                for f in fields {
                    self.ident(&f.name)?;
                    self.data_type(&f.ty, f.name.span.end)?;
                }
                Ok(())
            }
        }
    }

    // ---- more expression forms ------------------------------------------------------------

    /// A window's frame: its offsets are expressions.
    fn window_frame(&mut self, frame: &WindowFrame) -> Result<()> {
        for bound in std::iter::once(&frame.start).chain(frame.end.as_ref()) {
            if let FrameBound::Preceding(Some(e)) | FrameBound::Following(Some(e)) = bound {
                self.expr(e)?;
            }
        }
        Ok(())
    }
}

/// The operand of `e` that the grammar does not take there (as `allow.rs`'s
/// `predicate_as_value`): comparisons, `BETWEEN`, `IN`, `LIKE`, `IS [NOT] NULL`, `IS
/// DISTINCT FROM` and arithmetic take values; a predicate, `NOT`, `AND` and `OR` are one
/// only in parentheses, and in Trino a comparison too (Trino's `SqlBase.g4`: `predicate`
/// and `valueExpression`; Spark's `SqlBaseParser.g4`, where a comparison is a
/// `valueExpression`).
fn predicate_as_value(e: &Expr, grammar: Grammar) -> Option<&Expr> {
    use crate::validate::parser::ast::BinaryOp as B;
    let comparisons_are_values = grammar == Grammar::Spark;
    let is_predicate = |e: &Expr| match e {
        Expr::Binary { op, .. } => match op {
            B::And | B::Or => true,
            B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::NullSafeEq => {
                !comparisons_are_values
            }
            _ => false,
        },
        Expr::Unary {
            op: UnaryOp::Not, ..
        } => true,
        Expr::IsNull { .. }
        | Expr::IsDistinctFrom { .. }
        | Expr::Between { .. }
        | Expr::InList { .. }
        | Expr::InSubquery { .. }
        | Expr::Like { .. }
        | Expr::IsBool { .. }
        | Expr::ILike { .. }
        | Expr::RLike { .. }
        | Expr::Quantified { .. } => true,
        _ => false,
    };
    let operands: [Option<&Expr>; 3] = match e {
        Expr::Binary { left, op, right } if !matches!(op, B::And | B::Or) => {
            [Some(left), Some(right), None]
        }
        Expr::Unary {
            op: UnaryOp::Plus | UnaryOp::Minus,
            expr,
        } => [Some(expr), None, None],
        Expr::IsNull { expr, .. } => [Some(expr), None, None],
        Expr::IsDistinctFrom { left, right, .. } => [Some(left), Some(right), None],
        Expr::Between {
            expr, low, high, ..
        } => [Some(expr), Some(low), Some(high)],
        Expr::InList { expr, .. } | Expr::InSubquery { expr, .. } => [Some(expr), None, None],
        Expr::Like { expr, pattern, .. } => [Some(expr), Some(pattern), None],
        _ => return None,
    };
    operands.into_iter().flatten().find(|o| is_predicate(o))
}

/// What a predicate is called in a refusal.
fn predicate_name(e: &Expr) -> &'static str {
    match e {
        Expr::Binary { .. } | Expr::Quantified { .. } => "a comparison",
        Expr::Unary { .. } => "NOT",
        Expr::Between { .. } => "BETWEEN",
        Expr::InList { .. } | Expr::InSubquery { .. } => "IN",
        Expr::Like { .. } | Expr::ILike { .. } | Expr::RLike { .. } => "LIKE",
        Expr::IsDistinctFrom { .. } => "IS DISTINCT FROM",
        _ => "IS [NOT] NULL",
    }
}

/// Whether `e` is the word `ALL`, unquoted.
fn is_all(e: &Expr) -> bool {
    matches!(e, Expr::Name(parts) if parts.len() == 1
        && parts[0].quote.is_none()
        && parts[0].value.eq_ignore_ascii_case("all"))
}

/// A `'…'` string in Athena's Hive DDL: no `'`, `\` or control character.
fn ddl_string_problem(value: &str) -> Option<String> {
    crate::validate::ddl_rules::ddl_string_problem(value, "a DDL string literal")
}

/// The first operand of a node whose tree can be as deep as a chain is long (as in the
/// tree's `Drop`).
fn first_operand(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Binary { left: x, .. }
        | Expr::IsNull { expr: x, .. }
        | Expr::IsDistinctFrom { left: x, .. }
        | Expr::InList { expr: x, .. }
        | Expr::InSubquery { expr: x, .. }
        | Expr::Between { expr: x, .. }
        | Expr::Like { expr: x, .. }
        | Expr::AtTimeZone { expr: x, .. }
        | Expr::Subscript { expr: x, .. }
        | Expr::Field { expr: x, .. }
        | Expr::IsBool { expr: x, .. }
        | Expr::ILike { expr: x, .. }
        | Expr::RLike { expr: x, .. }
        | Expr::Quantified { left: x, .. } => Some(x),
        _ => None,
    }
}

/// The byte offset where `e`'s text starts, found down its first operands in a loop
/// (a form that starts with a keyword or bracket carries no span: its first operand's
/// start, as sqlparser's spans have it for `CAST(…)`, `INTERVAL …`).
pub(super) fn expr_start(mut e: &Expr) -> usize {
    loop {
        if let Some(first) = first_operand(e) {
            e = first;
            continue;
        }
        return match e {
            Expr::Name(parts) => parts.first().map_or(0, |i| i.span.start),
            Expr::Literal(l) => l.span.start,
            Expr::Placeholder(s) => s.start,
            Expr::Function(f) => f.name.first().map_or(0, |i| i.span.start),
            Expr::Lambda { params, .. } => params.first().map_or(0, |i| i.span.start),
            Expr::Nested(x)
            | Expr::Unary { expr: x, .. }
            | Expr::Cast { expr: x, .. }
            | Expr::Interval { value: x, .. }
            | Expr::Extract { expr: x, .. } => expr_start(x),
            _ => 0,
        };
    }
}

/// The text of `e` as written, where the tree has its end (else its first token's),
/// for messages.
pub(super) fn text_of<'a>(sql: &'a str, e: &Expr) -> &'a str {
    let start = expr_start(e);
    let end = match e {
        Expr::Literal(l) => l.span.end,
        _ => expr_end(e),
    };
    sql.get(start..end.max(start)).unwrap_or_default()
}

/// [`text_of`] `e`, with its prefix operator where it has one: the tree keeps no span
/// for a sign, and `LIMIT -1` is shown with its `-`.
fn text_with_sign<'a>(sql: &'a str, e: &Expr) -> std::borrow::Cow<'a, str> {
    let Expr::Unary { op, expr } = e else {
        return text_of(sql, e).into();
    };
    let sign = match op {
        UnaryOp::Minus => "-",
        UnaryOp::Plus => "+",
        UnaryOp::Not => "NOT ",
        UnaryOp::BitNot => "~",
    };
    format!("{sign}{}", text_of(sql, expr)).into()
}

/// The byte offset just past `e`'s text, where the tree has it (else `e`'s start).
fn expr_end(e: &Expr) -> usize {
    match e {
        Expr::Name(parts) => parts.last().map_or(0, |i| i.span.end),
        Expr::Literal(l) => l.span.end,
        Expr::Placeholder(s) => s.end,
        Expr::Binary { right: x, .. } | Expr::Unary { expr: x, .. } => expr_end(x),
        _ => expr_start(e),
    }
}

/// Where the type word of a typed literal whose string starts at `string_start` begins.
fn typed_literal_start(sql: &str, string_start: usize) -> usize {
    let before = sql.get(..string_start).unwrap_or_default().trim_end();
    let word = before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .count();
    before.len() - word
}

/// An interval's value as Trino reads it: a number for one field (a fraction for
/// SECOND).
fn interval_value_ok(s: &str, range: bool) -> bool {
    crate::validate::literals::interval_value_ok(s, range)
}

/// Hive-only type spellings inside a Trino `CAST`.
fn hive_type_in_trino(t: &DataType) -> Option<String> {
    match t {
        DataType::Array(_, AstBrackets::Angle)
        | DataType::Map(_, _, AstBrackets::Angle)
        | DataType::Row(_, AstBrackets::Angle) => Some(format!(
            "type `{}` is Hive DDL spelling: Trino (Athena DML) writes array(T), map(K, V), row(name T, …)",
            Shown(t)
        )),
        DataType::Named { name, .. } if name == "string" => Some(
            "type `string` in Athena DML: Trino writes varchar (\"cast them to varchar instead\")"
                .to_string(),
        ),
        _ => None,
    }
}

/// Whether `t` is a type as `grammar` spells it in a CAST (the spellings of
/// `dialect::grammar::types`, plus Trino's `json`).
fn written_type(t: &DataType, grammar: Grammar) -> bool {
    let inner = |t: &DataType| written_type(t, grammar);
    let (spark, brackets) = match grammar {
        Grammar::Spark => (true, AstBrackets::Angle),
        _ => (false, AstBrackets::Parentheses),
    };
    match t {
        DataType::Named {
            name,
            params,
            time_zone,
        } => {
            let plain: &[&str] = if spark {
                &[
                    "boolean",
                    "int",
                    "bigint",
                    "float",
                    "double",
                    "date",
                    "timestamp_ntz",
                    "timestamp",
                    "string",
                    "binary",
                ]
            } else {
                &[
                    "boolean",
                    "integer",
                    "bigint",
                    "real",
                    "double",
                    "date",
                    "varchar",
                    "varbinary",
                    "json",
                ]
            };
            match (name.as_str(), params.as_slice(), time_zone) {
                ("decimal", [_, _], TimeZone::None) => true,
                ("timestamp", [6], TimeZone::None | TimeZone::With) if !spark => true,
                (n, [], TimeZone::None) => plain.contains(&n),
                _ => false,
            }
        }
        DataType::Array(e, b) => *b == brackets && inner(e),
        DataType::Map(k, v, b) => *b == brackets && inner(k) && inner(v),
        DataType::Row(fields, b) => *b == brackets && fields.iter().all(|f| inner(&f.ty)),
    }
}

/// Our tree's type as `literals` reads it.
fn type_form(t: &DataType) -> TypeForm<'_> {
    let brackets = |b: &AstBrackets| match b {
        AstBrackets::Parentheses => Brackets::Parentheses,
        AstBrackets::Angle => Brackets::Angle,
    };
    match t {
        DataType::Named {
            name,
            params,
            time_zone,
        } => TypeForm::Named {
            name: Cow::Borrowed(name),
            params: params
                .iter()
                .map(|p| i64::try_from(*p).unwrap_or(i64::MAX))
                .collect(),
            zone: match time_zone {
                TimeZone::None => Zone::None,
                TimeZone::With => Zone::With,
                TimeZone::Without => Zone::Without,
            },
        },
        DataType::Array(_, b) => TypeForm::Array(brackets(b)),
        DataType::Map(_, _, b) => TypeForm::Map(brackets(b)),
        DataType::Row(_, b) => TypeForm::Row(brackets(b)),
    }
}

/// The type names sqlparser reads as keywords (and shows in upper case).
const SQLPARSER_TYPE_WORDS: &[&str] = &[
    "boolean",
    "bool",
    "tinyint",
    "smallint",
    "int",
    "integer",
    "bigint",
    "int64",
    "float",
    "real",
    "double",
    "double precision",
    "decimal",
    "numeric",
    "dec",
    "date",
    "time",
    "timestamp",
    "timestamp_ntz",
    "string",
    "binary",
    "varbinary",
    "varchar",
    "char",
    "json",
    "uuid",
];

/// A type as messages show it: the standard type keywords in upper case
/// (`VARCHAR(10)`), other names as written.
pub(super) struct Shown<'a>(pub(super) &'a DataType);

impl Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            DataType::Named {
                name,
                params,
                time_zone,
            } => {
                // sqlparser shows its type keywords in upper case, other names as
                // written (here: in lower case, as the tree keeps them).
                if SQLPARSER_TYPE_WORDS.contains(&name.as_str()) {
                    f.write_str(&name.to_ascii_uppercase())?;
                } else {
                    f.write_str(name)?;
                }
                if !params.is_empty() {
                    let p: Vec<String> = params.iter().map(u64::to_string).collect();
                    write!(f, "({})", p.join(","))?;
                }
                match time_zone {
                    TimeZone::None => Ok(()),
                    TimeZone::With => f.write_str(" WITH TIME ZONE"),
                    TimeZone::Without => f.write_str(" WITHOUT TIME ZONE"),
                }
            }
            DataType::Array(e, AstBrackets::Angle) => write!(f, "ARRAY<{}>", Shown(e)),
            DataType::Array(e, AstBrackets::Parentheses) => write!(f, "Array({})", Shown(e)),
            DataType::Map(k, v, AstBrackets::Angle) => write!(f, "MAP<{}, {}>", Shown(k), Shown(v)),
            DataType::Map(k, v, AstBrackets::Parentheses) => {
                write!(f, "Map({}, {})", Shown(k), Shown(v))
            }
            DataType::Row(fields, b) => {
                let (open, close) = match b {
                    AstBrackets::Angle => ('<', '>'),
                    AstBrackets::Parentheses => ('(', ')'),
                };
                write!(f, "STRUCT{open}")?;
                for (i, field) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(
                        f,
                        "{} {}",
                        super::top::Name(std::slice::from_ref(&field.name)),
                        Shown(&field.ty)
                    )?;
                }
                write!(f, "{close}")
            }
        }
    }
}
