//! [`Inspection`] from our own parser's tree (`super::super::parser`): the names and
//! string literals a statement holds as values.
//!
//! Every identifier and `'…'` literal of the tree is collected with its byte offset and
//! the lists are sorted by it (text order, but for a `CREATE TABLE`'s `PARTITIONED BY`,
//! which comes after the properties and the CTAS query). The tree is visited from a work list, not by
//! recursion: an operator chain is as deep as it is long.
//!
//! What is text rather than a value or a name is not read: a column's `COMMENT`;
//! a `CREATE TABLE`'s `LOCATION`, `COMMENT`, `STORED AS` and `OPTIONS`; a schema's
//! `COMMENT`, `LOCATION` and `WITH (…)`; the pattern of `SHOW TABLES`; a table
//! procedure's name and arguments; `LIMIT ALL`, `GROUP BY ALL` and the words `ROLLUP`
//! and `CUBE`. Where it holds a name, one is read: the location of an `UNLOAD` and a
//! property key (quoted `'`), `DEFAULT` in `SET PROPERTIES`.

use super::{Clause, ColumnUse, Inspection, Name, References, Shape, TableUse, Wildcard};
use crate::validate::parser::ast::*;

impl Inspection {
    /// What `stmt` holds: its names and single-quoted string literals in text order.
    pub(crate) fn of_tree(stmt: &Statement) -> Inspection {
        let mut r = Reader::default();
        r.statement(stmt);
        r.run();
        r.names.sort_by_key(|(at, _)| *at);
        r.strings.sort_by_key(|(at, _)| *at);
        Inspection {
            names: r.names.into_iter().map(|(_, n)| n).collect(),
            strings: r.strings.into_iter().map(|(_, s)| s).collect(),
        }
    }
}

impl References {
    /// How `stmt` reads columns: every column name with the clause it stands in, the
    /// tables it reads, its `*`s, and what its output feeds. `sql` is its text.
    pub(crate) fn of_tree(stmt: &Statement, sql: &str) -> References {
        let mut r = Reader::default();
        r.statement(stmt);
        r.run();
        let mut refs = r.refs;
        refs.shape = match stmt {
            Statement::CreateView { name, .. } => {
                let end = name.last().map_or(0, |n| n.span.end);
                // Our grammar reads nothing between a view's name and `AS`.
                let query_at =
                    crate::validate::check::find_word(sql, end, "AS").map_or(end, |at| at + 2);
                Shape::View {
                    name: values(name),
                    query_at,
                }
            }
            Statement::Insert(i) => Shape::Insert {
                table: values(&i.table),
                columns: values(&i.columns),
            },
            Statement::Query(_) => Shape::Query,
            _ => Shape::Other,
        };
        refs.columns.sort_by_key(|c| c.spans.first().map(|s| s.0));
        refs
    }
}

fn values(ids: &[Ident]) -> Vec<String> {
    ids.iter().map(|i| i.value.clone()).collect()
}

/// A node still to read.
enum Node<'t> {
    Expr(&'t Expr),
    Query(&'t Query),
    Type(&'t DataType),
    Relation(&'t TableFactor),
}

/// Where an item sorts: after every other item when `late` (see [`Reader::late`]),
/// then by its byte offset.
type At = (bool, usize);

/// What a queued node is read as: [`Reader::late`], [`Reader::clause`], [`Reader::top`].
type Ctx = (bool, Clause, bool);

#[derive(Default)]
struct Reader<'t> {
    todo: Vec<(Ctx, Node<'t>)>,
    /// Whether what is read now sorts after everything else: a `CREATE TABLE`'s
    /// `PARTITIONED BY` is listed after its properties and its CTAS query.
    late: bool,
    /// The clause of a query what is read now stands in.
    clause: Clause,
    /// Whether what is read now belongs to the statement's outermost query (whose
    /// output is the view's or the INSERT's columns), not to a subquery or a `WITH`.
    top: bool,
    names: Vec<(At, Name)>,
    strings: Vec<(At, String)>,
    refs: References,
}

impl<'t> Reader<'t> {
    fn run(&mut self) {
        while let Some(((late, clause, top), node)) = self.todo.pop() {
            self.late = late;
            self.clause = clause;
            self.top = top;
            match node {
                Node::Expr(e) => self.expr(e),
                Node::Query(q) => self.query(q),
                Node::Type(t) => self.data_type(t),
                Node::Relation(r) => self.relation(r),
            }
        }
    }

    /// Queues `node`, to be read as late as what is read now.
    /// A query is queued as a subquery; [`Self::queue_top`] queues the outermost one.
    fn queue(&mut self, node: Node<'t>) {
        let top = self.top && !matches!(node, Node::Query(_));
        self.todo.push(((self.late, self.clause, top), node));
    }

    fn queue_top(&mut self, q: &'t Query) {
        self.todo
            .push(((self.late, Clause::Other, true), Node::Query(q)));
    }

    /// A column name (one part or qualified) read in the current clause.
    fn column_use(&mut self, ids: &[Ident], output: bool) {
        if !ids.is_empty() {
            self.refs.columns.push(ColumnUse {
                parts: values(ids),
                clause: self.clause,
                spans: ids.iter().map(|i| (i.span.start, i.span.end)).collect(),
                top: self.top,
                output: output && self.top,
            });
        }
    }

    fn ident(&mut self, i: &Ident) {
        self.ident_at(i, i.span.start);
    }

    /// `i`, sorted as if it stood at `at`.
    fn ident_at(&mut self, i: &Ident, at: usize) {
        self.names.push((
            (self.late, at),
            Name {
                value: i.value.clone(),
                quote: i.quote,
            },
        ));
    }

    fn idents(&mut self, ids: &'t [Ident]) {
        ids.iter().for_each(|i| self.ident(i));
    }

    /// A `'…'` literal read as a name (a property key).
    fn key(&mut self, l: &Literal) {
        if let LiteralValue::String { value, .. } = &l.value {
            self.names.push((
                (self.late, l.span.start),
                Name {
                    value: value.clone(),
                    quote: Some('\''),
                },
            ));
        }
    }

    fn literal(&mut self, l: &Literal) {
        match &l.value {
            LiteralValue::String {
                form: StringForm::Single | StringForm::Unicode,
                value,
            }
            | LiteralValue::Typed { value, .. } => self
                .strings
                .push(((self.late, l.span.start), value.clone())),
            _ => {}
        }
    }

    fn push(&mut self, e: &'t Expr) {
        self.queue(Node::Expr(e));
    }

    fn expr(&mut self, e: &'t Expr) {
        match e {
            Expr::Name(ids) => {
                self.idents(ids);
                self.column_use(ids, false);
            }
            Expr::Literal(l) => self.literal(l),
            Expr::Placeholder(_) => {}
            Expr::Nested(e) | Expr::Unary { expr: e, .. } | Expr::IsNull { expr: e, .. } => {
                self.push(e)
            }
            Expr::Binary { left, right, .. } | Expr::IsDistinctFrom { left, right, .. } => {
                self.push(left);
                self.push(right);
            }
            Expr::InList { expr, list, .. } => {
                self.push(expr);
                self.exprs(list);
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                self.push(expr);
                self.push(low);
                self.push(high);
            }
            Expr::Like {
                expr,
                pattern,
                escape,
                ..
            }
            | Expr::ILike {
                expr,
                pattern,
                escape,
                ..
            } => {
                self.push(expr);
                self.push(pattern);
                escape.iter().for_each(|e| self.push(e));
            }
            Expr::Case {
                operand,
                branches,
                otherwise,
            } => {
                operand.iter().for_each(|e| self.push(e));
                for (when, then) in branches {
                    self.push(when);
                    self.push(then);
                }
                otherwise.iter().for_each(|e| self.push(e));
            }
            Expr::Cast { expr, ty, .. } => {
                self.push(expr);
                self.queue(Node::Type(ty));
            }
            Expr::Function(f) => self.function(f),
            Expr::Array(items) => self.exprs(items),
            Expr::Subscript { expr, index } => {
                self.push(expr);
                self.push(index);
            }
            Expr::Field { expr, field } => {
                self.push(expr);
                self.ident(field);
            }
            Expr::AtTimeZone { expr, zone } => {
                self.push(expr);
                self.push(zone);
            }
            Expr::Interval { value, .. } => self.push(value),
            Expr::Extract { expr, .. } => self.push(expr),
            Expr::Subquery(q) | Expr::Exists { query: q, .. } => self.queue(Node::Query(q)),
            Expr::InSubquery { expr, query, .. } => {
                self.push(expr);
                self.queue(Node::Query(query));
            }
            Expr::Lambda { params, body, .. } => {
                self.push(body);
                self.idents(params);
            }
            Expr::IsBool { expr, .. } => self.push(expr),
            Expr::RLike { expr, pattern, .. } => {
                self.push(expr);
                self.push(pattern);
            }
            Expr::Quantified { left, query, .. } => {
                self.push(left);
                self.queue(Node::Query(query));
            }
            Expr::Row(fields) => self.exprs(fields),
            Expr::Named { expr, name } => {
                self.push(expr);
                self.ident(name);
            }
            Expr::Position { needle, haystack } => {
                self.push(needle);
                self.push(haystack);
            }
            Expr::Substring { expr, from, length } => {
                self.push(expr);
                self.push(from);
                length.iter().for_each(|e| self.push(e));
            }
            Expr::Trim { chars, expr, .. } => {
                self.push(chars);
                self.push(expr);
            }
            Expr::Overlay {
                expr,
                placing,
                from,
                length,
            } => {
                self.push(expr);
                self.push(placing);
                self.push(from);
                length.iter().for_each(|e| self.push(e));
            }
            Expr::Grouping { sets, .. } => sets.iter().for_each(|set| self.exprs(set)),
        }
    }

    fn exprs(&mut self, es: &'t [Expr]) {
        es.iter().for_each(|e| self.push(e));
    }

    fn opt_expr(&mut self, e: &'t Option<Expr>) {
        e.iter().for_each(|e| self.push(e));
    }

    fn function(&mut self, f: &'t Function) {
        // sqlparser reads Spark's `struct(…)` as a node of its own, without a name.
        let struct_form = matches!(f.name.as_slice(), [Ident { value, quote: None, .. }]
            if value.eq_ignore_ascii_case("struct"));
        if !struct_form {
            self.idents(&f.name);
        }
        if let FunctionArgs::List { args, .. } = &f.args {
            self.exprs(args);
        }
        if let Some(o) = &f.ordering {
            self.order_by(&o.order_by);
            self.order_by(&o.within_group);
        }
        if let Some(filter) = &f.filter {
            self.queue(Node::Expr(filter));
        }
        if let Some(w) = &f.over {
            self.window(w);
        }
    }

    fn window(&mut self, w: &'t Window) {
        self.exprs(&w.partition_by);
        self.order_by(&w.order_by);
        for bound in w
            .frame
            .iter()
            .flat_map(|f| std::iter::once(&f.start).chain(&f.end))
        {
            if let FrameBound::Preceding(Some(e)) | FrameBound::Following(Some(e)) = bound {
                self.push(e);
            }
        }
        w.name.iter().for_each(|n| self.ident(n));
    }

    fn order_by(&mut self, items: &'t [OrderByItem]) {
        items.iter().for_each(|i| self.push(&i.expr));
    }

    fn data_type(&mut self, t: &'t DataType) {
        match t {
            DataType::Named { .. } => {}
            DataType::Array(t, _) => self.queue(Node::Type(t)),
            DataType::Map(k, v, _) => {
                self.queue(Node::Type(k));
                self.queue(Node::Type(v));
            }
            DataType::Row(fields, _) => {
                for f in fields {
                    self.ident(&f.name);
                    self.queue(Node::Type(&f.ty));
                }
            }
        }
    }

    fn query(&mut self, q: &'t Query) {
        for cte in &q.with {
            self.ident(&cte.name);
            self.queue(Node::Query(&cte.query));
        }
        let outer = self.clause;
        for s in q.body.selects() {
            self.clause = Clause::Select;
            for item in &s.items {
                match item {
                    // A bare column is the output column of its name.
                    SelectItem::Expr {
                        expr: Expr::Name(ids),
                        alias: None,
                    } => {
                        self.idents(ids);
                        self.column_use(ids, true);
                    }
                    SelectItem::Expr { expr, alias } => {
                        self.queue(Node::Expr(expr));
                        alias.iter().for_each(|a| self.ident(a));
                    }
                    SelectItem::Wildcard(at) => self.refs.wildcards.push(Wildcard {
                        qualifier: Vec::new(),
                        top: self.top,
                        at: Some((at.start, at.end)),
                    }),
                    SelectItem::QualifiedWildcard(ids) => {
                        self.idents(ids);
                        self.refs.wildcards.push(Wildcard {
                            qualifier: values(ids),
                            top: self.top,
                            at: None,
                        });
                    }
                }
            }
            self.clause = Clause::Join;
            for t in &s.from {
                self.queue(Node::Relation(&t.relation));
                for j in &t.joins {
                    self.queue(Node::Relation(&j.relation));
                    match &j.constraint {
                        JoinConstraint::On(e) => self.queue(Node::Expr(e)),
                        JoinConstraint::Using(ids) => {
                            self.idents(ids);
                            for i in ids {
                                self.column_use(std::slice::from_ref(i), false);
                            }
                        }
                        JoinConstraint::None | JoinConstraint::Natural => {}
                    }
                }
            }
            self.clause = Clause::Other;
            for v in &s.lateral_views {
                self.queue(Node::Expr(&v.call));
                self.ident(&v.name);
                self.idents(&v.columns);
            }
            if let Some(p) = &s.pivot {
                for (e, alias) in p.aggregates.iter().chain(&p.values) {
                    self.queue(Node::Expr(e));
                    alias.iter().for_each(|a| self.ident(a));
                }
                self.idents(&p.columns);
            }
            self.clause = Clause::Filter;
            self.opt_expr(&s.selection);
            self.clause = Clause::GroupBy;
            for e in &s.group_by {
                match e {
                    // sqlparser's `GROUP BY ALL`, `ROLLUP (…)` and `CUBE (…)` (which Spark's
                    // grammar, and so ours, reads as a name and as calls) have no name.
                    e if is_word(e, "ALL") => {}
                    Expr::Function(f) if is_grouping(f) => {
                        if let FunctionArgs::List { args, .. } = &f.args {
                            self.exprs(args);
                        }
                    }
                    e => self.push(e),
                }
            }
            self.clause = Clause::Other;
            self.exprs(&s.cluster_by);
            self.clause = Clause::Filter;
            self.opt_expr(&s.having);
            self.clause = Clause::Other;
            for (name, w) in &s.windows {
                self.ident(name);
                self.window(w);
            }
        }
        self.clause = Clause::OrderBy;
        self.order_by(&q.order_by);
        self.clause = outer;
        match &q.limit {
            // sqlparser's `LIMIT ALL` is no limit.
            Some(e) if is_word(e, "ALL") => {}
            limit => self.opt_expr(limit),
        }
        if let Some(o) = &q.offset {
            self.push(&o.value);
        }
        if let Some(f) = &q.fetch {
            self.opt_expr(&f.quantity);
        }
    }

    fn relation(&mut self, r: &'t TableFactor) {
        match r {
            TableFactor::Table {
                name,
                version,
                alias,
                sample,
            } => {
                self.idents(name);
                self.refs.tables.push(TableUse {
                    name: values(name),
                    alias: alias.as_ref().map(|a| a.value.clone()),
                });
                match version {
                    Some(
                        TableVersion::Version(e)
                        | TableVersion::Timestamp(e)
                        | TableVersion::SystemTime(e),
                    ) => self.queue(Node::Expr(e)),
                    None => {}
                }
                alias.iter().for_each(|a| self.ident(a));
                if let Some(s) = sample {
                    self.queue(Node::Expr(&s.percentage));
                }
            }
            TableFactor::Derived {
                query,
                alias,
                columns,
                ..
            } => {
                self.queue(Node::Query(query));
                alias.iter().for_each(|a| self.ident(a));
                self.idents(columns);
            }
            TableFactor::Values {
                rows,
                alias,
                columns,
            } => {
                rows.iter().for_each(|row| self.exprs(row));
                alias.iter().for_each(|a| self.ident(a));
                self.idents(columns);
            }
            TableFactor::TableFunction { call, alias } => {
                self.queue(Node::Expr(call));
                alias.iter().for_each(|a| self.ident(a));
            }
            // sqlparser reads `f(…) AS u (x)` (Trino's `UNNEST(…)` too) as a table named
            // `f` with arguments, and its tree lists the alias before the arguments: the
            // alias sorts at the name's last part, after it (the sort is stable).
            TableFactor::TableValued {
                name,
                args,
                alias,
                columns,
                ..
            } => {
                self.idents(name);
                let at = name.last().map_or(0, |n| n.span.start);
                for i in alias.iter().chain(columns) {
                    self.ident_at(i, at);
                }
                self.exprs(args);
            }
        }
    }

    fn assignments(&mut self, set: &'t [Assignment]) {
        for a in set {
            self.idents(&a.column);
            self.queue(Node::Expr(&a.value));
        }
    }

    fn properties(&mut self, props: &'t [Property]) {
        for p in props {
            self.ident(&p.name);
            self.queue(Node::Expr(&p.value));
        }
    }

    fn tbl_properties(&mut self, props: &'t [(Literal, Literal)]) {
        for (k, v) in props {
            self.key(k);
            self.literal(v);
        }
    }

    fn column(&mut self, c: &'t ColumnDef) {
        self.ident(&c.name);
        self.queue(Node::Type(&c.ty));
    }

    fn args(&mut self, args: &'t [(Option<Ident>, Expr)]) {
        for (name, value) in args {
            name.iter().for_each(|n| self.ident(n));
            self.queue(Node::Expr(value));
        }
    }

    fn statement(&mut self, s: &'t Statement) {
        match s {
            Statement::Query(q) => self.queue_top(q),
            Statement::Insert(i) => {
                self.idents(&i.table);
                self.idents(&i.columns);
                match &i.source {
                    InsertSource::Values(rows) => rows.iter().for_each(|r| self.exprs(r)),
                    InsertSource::Query(q) => self.queue_top(q),
                }
            }
            Statement::Update(u) => {
                self.idents(&u.table);
                u.alias.iter().for_each(|a| self.ident(a));
                self.assignments(&u.assignments);
                self.opt_expr(&u.selection);
            }
            Statement::Delete(d) => {
                self.idents(&d.table);
                d.alias.iter().for_each(|a| self.ident(a));
                self.opt_expr(&d.selection);
            }
            Statement::Merge(m) => {
                self.idents(&m.table);
                m.alias.iter().for_each(|a| self.ident(a));
                self.queue(Node::Relation(&m.source));
                self.queue(Node::Expr(&m.on));
                for c in &m.clauses {
                    self.opt_expr(&c.condition);
                    match &c.action {
                        MergeAction::Update(set) => self.assignments(set),
                        MergeAction::Delete => {}
                        MergeAction::Insert { columns, values } => {
                            self.idents(columns);
                            self.exprs(values);
                        }
                        MergeAction::UpdateAll | MergeAction::InsertAll => {}
                    }
                }
            }
            Statement::Optimize { table, predicate } => {
                self.idents(table);
                self.opt_expr(predicate);
            }
            Statement::Vacuum { table } => self.idents(table),
            Statement::Unload { query, to, with } => {
                self.queue(Node::Query(query));
                // sqlparser keeps the location as a name in `'…'`.
                self.key(to);
                self.properties(with);
            }
            Statement::Call { procedure, args } => {
                self.idents(procedure);
                self.args(args);
            }
            Statement::CreateTableAs {
                table, with, query, ..
            } => {
                self.idents(table);
                self.properties(with);
                self.queue(Node::Query(query));
            }
            Statement::CreateTable(c) => self.create_table(c),
            Statement::AlterTable { table, action } => {
                self.idents(table);
                self.alter(action);
            }
            Statement::Drop { name, .. } => self.idents(name),
            // sqlparser keeps no `COMMENT`, `LOCATION` or `WITH (…)` of a schema as
            // names or values.
            Statement::CreateDatabase { name, .. } => self.idents(name),
            Statement::CreateView { name, query, .. } => {
                self.idents(name);
                self.queue_top(query);
            }
            // sqlparser keeps the pattern and its escape as plain strings, not values.
            Statement::ShowTables { database, .. } => database.iter().for_each(|d| self.idents(d)),
            Statement::ShowCreateTable { table } | Statement::Describe { table, .. } => {
                self.idents(table)
            }
        }
    }

    fn create_table(&mut self, c: &'t CreateTable) {
        self.idents(&c.name);
        c.columns.iter().for_each(|col| self.column(col));
        for clause in &c.clauses {
            match clause {
                TableClause::Using(i) => self.ident(i),
                // sqlparser keeps these as plain strings and words, not values and names.
                TableClause::StoredAs(_)
                | TableClause::Comment(_)
                | TableClause::Location(_)
                | TableClause::Options(_) => {}
                TableClause::PartitionedBy(fields) => {
                    self.late = true;
                    self.exprs(fields);
                    self.late = false;
                }
                TableClause::TblProperties(props) => self.tbl_properties(props),
                TableClause::With(props) => self.properties(props),
            }
        }
        if let Some(q) = &c.query {
            self.queue(Node::Query(q));
        }
    }

    fn alter(&mut self, a: &'t AlterAction) {
        match a {
            AlterAction::AddColumns(cols) => cols.iter().for_each(|c| self.column(c)),
            AlterAction::AddColumn(c) => self.column(c),
            AlterAction::DropColumn(i) => self.ident(i),
            AlterAction::ChangeColumn { old, new, ty, .. } => {
                self.ident(old);
                self.ident(new);
                self.queue(Node::Type(ty));
            }
            AlterAction::RenameColumn { old, new } => {
                self.ident(old);
                self.ident(new);
            }
            AlterAction::AlterColumnType { column, ty } => {
                self.ident(column);
                self.queue(Node::Type(ty));
            }
            AlterAction::RenameTo(name) => self.idents(name),
            AlterAction::SetTblProperties(props) => self.tbl_properties(props),
            AlterAction::AddPartitionField(f) | AlterAction::DropPartitionField(f) => self.push(f),
            AlterAction::ReplacePartitionField(old, new) => {
                self.push(old);
                self.push(new);
            }
            AlterAction::AddPartitions { partitions, .. } => {
                for p in partitions {
                    for (key, value) in &p.values {
                        self.ident(key);
                        self.push(value);
                    }
                    if let Some(l) = &p.location {
                        self.literal(l);
                    }
                }
            }
            AlterAction::UnsetTblProperties(keys) => keys.iter().for_each(|k| self.key(k)),
            AlterAction::SetProperties(props) => {
                for (name, value) in props {
                    self.ident(name);
                    match value {
                        Some(v) => self.push(v),
                        // sqlparser reads `DEFAULT` as a name; ours keeps no token for
                        // it, so it sorts just after the property's name.
                        None => self.names.push((
                            (self.late, name.span.end),
                            Name {
                                value: "DEFAULT".into(),
                                quote: None,
                            },
                        )),
                    }
                }
            }
            // Of a table procedure, only the condition is read.
            AlterAction::Execute { predicate, .. } => self.opt_expr(predicate),
        }
    }
}

/// Whether `e` is the unquoted word `word` (any case).
fn is_word(e: &Expr, word: &str) -> bool {
    matches!(e, Expr::Name(ids) if ids.len() == 1
        && ids[0].quote.is_none()
        && ids[0].value.eq_ignore_ascii_case(word))
}

/// Whether `f` is `ROLLUP (…)` or `CUBE (…)`.
fn is_grouping(f: &Function) -> bool {
    matches!(&f.name[..], [n] if n.quote.is_none()
        && (n.value.eq_ignore_ascii_case("rollup") || n.value.eq_ignore_ascii_case("cube")))
}
