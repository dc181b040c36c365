//! Queries: `[WITH …] SELECT … [FROM …] [WHERE …] [GROUP BY …] [HAVING …]
//! [ORDER BY …] [LIMIT n]` with `OFFSET` and Trino's `FETCH`, set operations between
//! `SELECT`s, time travel on tables, windows of calls, and the subqueries of
//! expressions.

use super::ast::{
    Cte, Expr, Fetch, FrameBound, FrameUnits, GroupingKind, Ident, Join, JoinConstraint, JoinKind,
    LateralView, Offset, OffsetRows, OrderByItem, Pivot, Query, SampleMethod, Select, SelectItem,
    SetExpr, SetOperator, SetQuantifier, TableFactor, TableSample, TableVersion, TableWithJoins,
    Window, WindowFrame,
};
use super::cursor::{span, Cursor};
use crate::dialect::Grammar;
use crate::error::Result;
use crate::validate::lexer::{Kind, StrForm, Symbol};

/// Words that are no column alias written without `AS` (sqlparser's
/// `RESERVED_FOR_COLUMN_ALIAS`, so the two readings agree).
pub(super) const NOT_A_COLUMN_ALIAS: &[&str] = &[
    "with",
    "explain",
    "analyze",
    "select",
    "where",
    "group",
    "sort",
    "having",
    "order",
    "top",
    "lateral",
    "view",
    "limit",
    "offset",
    "fetch",
    "union",
    "except",
    "exclude",
    "intersect",
    "minus",
    "cluster",
    "distribute",
    "returning",
    "values",
    "from",
    "into",
    "end",
];

/// Words that are no table alias written without `AS` (sqlparser's
/// `RESERVED_FOR_TABLE_ALIAS`).
const NOT_A_TABLE_ALIAS: &[&str] = &[
    "with",
    "explain",
    "analyze",
    "select",
    "where",
    "group",
    "sort",
    "having",
    "order",
    "pivot",
    "unpivot",
    "top",
    "lateral",
    "view",
    "limit",
    "offset",
    "fetch",
    "union",
    "except",
    "intersect",
    "minus",
    "on",
    "join",
    "inner",
    "cross",
    "full",
    "left",
    "right",
    "natural",
    "using",
    "cluster",
    "distribute",
    "global",
    "anti",
    "semi",
    "returning",
    "output",
    "asof",
    "match_condition",
    "outer",
    "set",
    "qualify",
    "window",
    "end",
    "for",
    "partition",
    "array",
    "prewhere",
    "settings",
    "format",
    "start",
    "connect",
    "match_recognize",
    "sample",
    "tablesample",
    "from",
    "open",
];

/// Clause words that are no table name unquoted where the grammar quotes them
/// (sqlparser's `RESERVED_FOR_TABLE_FACTOR`).
const NOT_A_TABLE_NAME: &[&str] = &["into", "limit", "having", "where", "on"];

/// Words that start another kind of relation where a table name stands, in every
/// grammar: sqlparser reads `LATERAL (…)` and `TABLE(…)` there, and the validator lets
/// neither through as a name unquoted (Trino reserves `table`; Spark's
/// `LATERAL` is a strict non-reserved word, its `TABLE` starts `TABLE(…)` too).
const RELATION_WORDS: &[&str] = &["lateral", "table"];

/// Words that are no table alias written without `AS`: sqlparser reads `t AT (…)`,
/// `t BEFORE (…)` and `t CHANGES (…)` (Snowflake's time travel) after a table name,
/// so the validator reads none as an alias there.
const TABLE_CLAUSE_WORDS: &[&str] = &["at", "before", "changes"];

/// Words that are no column alias written without `AS`: sqlparser reads each as an
/// operator after an expression (`a DIV b`, `a REGEXP b`, `a COLLATE c`, …), so the
/// validator does not read `SELECT a div FROM t` as an alias.
const INFIX_WORDS: &[&str] = &[
    "collate", "div", "glob", "ilike", "match", "member", "operator", "overlaps", "regexp",
    "rlike", "similar", "xor",
];

/// Which alias is read: the two have different lists of words that end them.
#[derive(Clone, Copy)]
pub(super) enum AliasOf {
    Column,
    Table,
}

impl Cursor<'_> {
    /// A whole query.
    pub(super) fn query(&mut self) -> Result<Query> {
        self.enter()?;
        let mut with = Vec::new();
        if self.eat_word("WITH") {
            if self.is_word(0, "RECURSIVE") {
                return Err(self.expected("a name (`WITH RECURSIVE` is not read yet)"));
            }
            with = self.comma_separated(|c| {
                let name = c.ident()?;
                c.expect_word("AS")?;
                c.expect_symbol(Symbol::LParen, "(")?;
                let query = c.query()?;
                c.expect_symbol(Symbol::RParen, ")")?;
                Ok(Cte { name, query })
            })?;
        }
        let body = self.set_expr()?;
        let mut order_by = Vec::new();
        if self.eat_words(&["ORDER", "BY"]) {
            order_by = self.comma_separated(|c| c.order_by_item())?;
        }
        let (mut offset, mut fetch) = (None, None);
        if self.rules.offset_before_limit {
            offset = self.offset()?;
        }
        let limit = if self.eat_word("LIMIT") {
            Some(self.expr()?)
        } else {
            if self.rules.fetch_first && self.is_word(0, "FETCH") {
                fetch = Some(self.fetch()?);
            }
            None
        };
        if !self.rules.offset_before_limit {
            offset = self.offset()?;
        }
        self.row_count_order(limit.is_some(), offset.is_some())?;
        self.leave();
        Ok(Query {
            with,
            body,
            order_by,
            limit,
            offset,
            fetch,
        })
    }

    fn select(&mut self) -> Result<Select> {
        self.expect_word("SELECT")?;
        // `ALL` here is the quantifier, never a name (sqlparser's reading too).
        if self.is_word(0, "ALL") {
            return Err(self.expected("the select list (`SELECT ALL` is not read yet)"));
        }
        let distinct = self.eat_word("DISTINCT");
        // sqlparser reads `TOP n` here (SQL Server's), so the validator lets no select
        // list start with the word unquoted.
        if self.is_word(0, "TOP") {
            return Err(self.expected("the select list (`TOP` is not Trino's or Spark's)"));
        }
        // `DISTINCT ON (…)` is PostgreSQL's (sqlparser reads `ON` here as nothing else).
        if distinct && self.is_word(0, "ON") {
            return Err(self.expected("the select list (`DISTINCT ON` is not Trino's or Spark's)"));
        }
        let mut items = vec![self.select_item()?];
        while self.eat_symbol(Symbol::Comma) {
            // As sqlparser reads it: after a comma,
            // a word that ends a select list (`FROM`, `WHERE`, …) starts no item.
            let ends_list = self.peek(0).is_some_and(|t| {
                matches!(t.kind, Kind::Word { quote: None, .. })
                    && self.ends_select_list(&self.text(t).to_ascii_lowercase())
            });
            if ends_list {
                return Err(self.expected("a select item"));
            }
            items.push(self.select_item()?);
        }
        let from = if self.eat_word("FROM") {
            self.comma_separated(|c| c.table_with_joins())?
        } else {
            Vec::new()
        };
        let mut lateral_views = Vec::new();
        let mut pivot = None;
        if !from.is_empty() {
            while self.is_word(0, "LATERAL") && self.is_word(1, "VIEW") {
                lateral_views.push(self.lateral_view()?);
            }
            if self.is_word(0, "PIVOT") {
                pivot = Some(Box::new(self.pivot(!lateral_views.is_empty())?));
            }
        }
        let selection = if self.eat_word("WHERE") {
            Some(self.expr()?)
        } else {
            None
        };
        let mut group_by = Vec::new();
        if self.eat_words(&["GROUP", "BY"]) {
            group_by = self.group_by()?;
        }
        let cluster_by = self.cluster_by()?;
        let having = if self.eat_word("HAVING") {
            Some(self.expr()?)
        } else {
            None
        };
        let mut windows = Vec::new();
        if self.eat_word("WINDOW") {
            windows = self.comma_separated(|c| {
                let name = c.ident()?;
                c.expect_word("AS")?;
                // `AS name` (a window named after another) is not read yet.
                if !c.is_symbol(0, Symbol::LParen) {
                    return Err(c.expected("`(` and the window's specification"));
                }
                Ok((name, c.window()?))
            })?;
        }
        Ok(Select {
            distinct,
            items,
            from,
            selection,
            group_by,
            having,
            cluster_by,
            windows,
            lateral_views,
            pivot,
        })
    }

    /// Whether an unquoted `word` (lower case) where a select item starts ends the list
    /// instead (`FROM`, `WHERE`, …, as sqlparser reads it). Trino's grammar reads every
    /// word of its `nonReserved` rule (SqlBase.g4) as a name there (`SELECT offset, view
    /// FROM t`), so in it a clause word ends the list only when the grammar reserves it.
    fn ends_select_list(&self, word: &str) -> bool {
        NOT_A_COLUMN_ALIAS.contains(&word)
            && (self.rules.grammar != Grammar::TrinoDml || Grammar::TrinoDml.is_reserved(word))
    }

    fn select_item(&mut self) -> Result<SelectItem> {
        let at = self.peek(0).map(span);
        if self.eat_symbol(Symbol::Mul) {
            return Ok(SelectItem::Wildcard(at.unwrap_or_default()));
        }
        if let Some(name) = self.qualified_wildcard()? {
            return Ok(SelectItem::QualifiedWildcard(name));
        }
        let start = self.peek(0).map_or(self.sql.len(), |t| t.start);
        let expr = self.expr()?;
        // As sqlparser reads it: a word that ends a
        // select list is no item by itself (`SELECT FROM t`).
        if let Expr::Name(parts) = &expr {
            if let [Ident {
                value, quote: None, ..
            }] = parts.as_slice()
            {
                if self.ends_select_list(&value.to_ascii_lowercase()) {
                    return Err(self.error_at(start, "expected a select item"));
                }
            }
        }
        let alias = self.alias(AliasOf::Column)?;
        Ok(SelectItem::Expr { expr, alias })
    }

    /// `a.b.*` at the cursor, read; `None` (nothing read) for anything else.
    fn qualified_wildcard(&mut self) -> Result<Option<Vec<Ident>>> {
        let mut n = 0;
        loop {
            if !self
                .peek(n)
                .is_some_and(|t| matches!(t.kind, Kind::Word { .. }))
                || !self.is_symbol(n + 1, Symbol::Period)
            {
                return Ok(None);
            }
            if self.is_symbol(n + 2, Symbol::Mul) {
                break;
            }
            n += 2;
        }
        let mut name = vec![self.ident()?];
        while self.eat_symbol(Symbol::Period) {
            if self.eat_symbol(Symbol::Mul) {
                return Ok(Some(name));
            }
            name.push(self.ident()?);
        }
        Err(self.expected("`.*`"))
    }

    /// `[AS] alias`, or none.
    pub(super) fn alias(&mut self, of: AliasOf) -> Result<Option<Ident>> {
        if self.eat_word("AS") {
            return self.ident().map(Some);
        }
        let (stop, also) = match of {
            AliasOf::Column => (NOT_A_COLUMN_ALIAS, INFIX_WORDS),
            AliasOf::Table => (NOT_A_TABLE_ALIAS, TABLE_CLAUSE_WORDS),
        };
        let plain = self.peek(0).is_some_and(|t| match t.kind {
            Kind::Word { quote: Some(_), .. } => true,
            Kind::Word { quote: None, .. } => {
                let w = self.text(t).to_ascii_lowercase();
                !stop.contains(&w.as_str()) && !also.contains(&w.as_str()) && !self.reserved(t)
            }
            _ => false,
        });
        if plain {
            self.ident().map(Some)
        } else {
            Ok(None)
        }
    }

    fn table_with_joins(&mut self) -> Result<TableWithJoins> {
        let relation = self.table_factor()?;
        let mut joins = Vec::new();
        loop {
            // `NATURAL` and a join type (Trino's `NATURAL joinType JOIN`, Spark's).
            let natural_at = self.peek(0).map_or(self.sql.len(), |t| t.start);
            let natural = self.eat_word("NATURAL");
            let Some(kind) = self.join_kind()? else {
                if natural {
                    return Err(self.expected("a join after `NATURAL`"));
                }
                break;
            };
            if natural && kind == JoinKind::Cross {
                return Err(self.error_at(
                    natural_at,
                    "`NATURAL CROSS JOIN`: a cross join has no join columns (Trino's \
                     `joinType` has no CROSS; Spark refuses it)",
                ));
            }
            let relation = self.table_factor()?;
            let constraint = if natural {
                JoinConstraint::Natural
            } else if kind == JoinKind::Cross {
                JoinConstraint::None
            } else if self.eat_word("ON") {
                JoinConstraint::On(self.expr()?)
            } else if self.eat_word("USING") {
                self.expect_symbol(Symbol::LParen, "(")?;
                let columns = self.comma_separated(|c| c.ident())?;
                self.expect_symbol(Symbol::RParen, ")")?;
                JoinConstraint::Using(columns)
            } else if self.rules.optional_join_criteria {
                JoinConstraint::None
            } else {
                return Err(self.expected("`ON` and the join condition, or `USING (…)`"));
            };
            joins.push(Join {
                kind,
                relation,
                constraint,
            });
        }
        Ok(TableWithJoins { relation, joins })
    }

    /// The join keywords at the cursor, read, up to and with `JOIN`.
    fn join_kind(&mut self) -> Result<Option<JoinKind>> {
        // `[LEFT] SEMI|ANTI JOIN`: Spark's; sqlparser reads them in every dialect.
        let left = usize::from(self.is_word(0, "LEFT"));
        let semi = self.is_word(left, "SEMI");
        if (semi || self.is_word(left, "ANTI")) && self.is_word(left + 1, "JOIN") {
            if !self.rules.semi_anti_joins {
                return Err(self.expected(
                    "a join type of Trino's grammar (`[LEFT] SEMI|ANTI JOIN` is Spark's: \
                     Trino's `joinType` is INNER, LEFT, RIGHT or FULL)",
                ));
            }
            for _ in 0..left + 2 {
                self.next();
            }
            return Ok(Some(if semi {
                JoinKind::LeftSemi
            } else {
                JoinKind::LeftAnti
            }));
        }
        let (kind, words) = if self.is_word(0, "JOIN") {
            (JoinKind::Inner, 1)
        } else if self.is_word(0, "INNER") && self.is_word(1, "JOIN") {
            (JoinKind::Inner, 2)
        } else if self.is_word(0, "CROSS") && self.is_word(1, "JOIN") {
            (JoinKind::Cross, 2)
        } else {
            let kind = if self.is_word(0, "LEFT") {
                JoinKind::Left
            } else if self.is_word(0, "RIGHT") {
                JoinKind::Right
            } else if self.is_word(0, "FULL") {
                JoinKind::Full
            } else {
                return Ok(None);
            };
            if self.is_word(1, "JOIN") {
                (kind, 2)
            } else if self.is_word(1, "OUTER") && self.is_word(2, "JOIN") {
                (kind, 3)
            } else {
                return Ok(None);
            }
        };
        for _ in 0..words {
            self.next();
        }
        Ok(Some(kind))
    }

    pub(super) fn table_factor(&mut self) -> Result<TableFactor> {
        if self.is_symbol(0, Symbol::LParen) && self.is_word(1, "VALUES") {
            return self.values_relation();
        }
        if self.is_word(0, "TABLE") && self.is_symbol(1, Symbol::LParen) {
            return self.table_function();
        }
        if self.rules.unnest && self.is_word(0, "UNNEST") && self.is_symbol(1, Symbol::LParen) {
            return self.unnest();
        }
        let lateral = self.is_word(0, "LATERAL") && self.is_symbol(1, Symbol::LParen);
        if lateral {
            self.next();
        }
        if self.eat_symbol(Symbol::LParen) {
            let query = Box::new(self.query()?);
            self.expect_symbol(Symbol::RParen, ")")?;
            let alias = self.alias(AliasOf::Table)?;
            let columns = self.alias_columns(alias.is_some())?;
            return Ok(TableFactor::Derived {
                query,
                alias,
                columns,
                lateral,
            });
        }
        let name = self.relation_name()?;
        if self.rules.table_valued && self.is_symbol(0, Symbol::LParen) {
            return self.table_valued(name);
        }
        // `FOR VERSION AS OF 1` right after `FROM`: the `FOR` is the time travel's,
        // with no table before it (the validator's token pass reads it so too).
        let bare_for = matches!(name.as_slice(), [Ident { value, quote: None, .. }]
            if value.eq_ignore_ascii_case("for"));
        if bare_for && self.time_travel_kind_at(0) {
            let at = name[0].span.start;
            return Err(self.error_at(
                at,
                "expected a table name before `FOR VERSION|TIMESTAMP AS OF` (quote a table \
                 named `for`)",
            ));
        }
        let version = self.time_travel()?;
        let alias = self.alias(AliasOf::Table)?;
        let sample = self.table_sample()?;
        Ok(TableFactor::Table {
            name,
            version,
            alias,
            sample,
        })
    }

    /// `(VALUES (a, b), …) [[AS] alias [(x, y)]]`
    fn values_relation(&mut self) -> Result<TableFactor> {
        self.expect_symbol(Symbol::LParen, "(")?;
        self.expect_word("VALUES")?;
        let rows = self.comma_separated(|c| c.row())?;
        self.expect_symbol(Symbol::RParen, ")")?;
        let alias = self.alias(AliasOf::Table)?;
        let columns = self.alias_columns(alias.is_some())?;
        Ok(TableFactor::Values {
            rows,
            alias,
            columns,
        })
    }

    /// The columns an alias renames, `(x, y)` after it (Trino's `columnAliases`, Spark's
    /// `identifierList` of a `tableAlias`), if the relation has an alias.
    fn alias_columns(&mut self, aliased: bool) -> Result<Vec<Ident>> {
        if aliased && self.is_symbol(0, Symbol::LParen) {
            self.parenthesized_names()
        } else {
            Ok(Vec::new())
        }
    }

    /// A table's name where a relation stands (`FROM`, `UPDATE`, `DELETE FROM`): no
    /// word that starts another relation there is one unquoted.
    pub(super) fn relation_name(&mut self) -> Result<Vec<Ident>> {
        let relation_word = self.peek(0).is_some_and(|t| {
            matches!(t.kind, Kind::Word { quote: None, .. })
                && RELATION_WORDS.contains(&self.text(t).to_ascii_lowercase().as_str())
        });
        if relation_word {
            return Err(self.expected(
                "a table name (`LATERAL` and `TABLE` start other relations: quote a table of \
                 that name)",
            ));
        }
        self.table_name()
    }

    /// `db.t`: a table's name, where no clause word the grammar quotes is one unquoted.
    pub(super) fn table_name(&mut self) -> Result<Vec<Ident>> {
        let clause_word = self.peek(0).is_some_and(|t| {
            let w = self.text(t).to_ascii_lowercase();
            matches!(t.kind, Kind::Word { quote: None, .. })
                && NOT_A_TABLE_NAME.contains(&w.as_str())
                && (self.rules.quoted_words)(&w)
        });
        if clause_word {
            return Err(self.expected("a table name"));
        }
        let mut name = vec![self.ident()?];
        while self.eat_symbol(Symbol::Period) {
            name.push(self.ident()?);
        }
        Ok(name)
    }

    /// `FOR VERSION AS OF v` / `FOR TIMESTAMP AS OF t` after a table name, if there.
    fn time_travel(&mut self) -> Result<Option<TableVersion>> {
        let system_time = self.is_word(0, "FOR")
            && self.is_word(1, "SYSTEM_TIME")
            && self.is_word(2, "AS")
            && self.is_word(3, "OF");
        if system_time && self.rules.system_time {
            for _ in 0..4 {
                self.next();
            }
            return Ok(Some(TableVersion::SystemTime(self.expr()?)));
        }
        let with_for = self.is_word(0, "FOR");
        let at = usize::from(with_for);
        let kind_follows = self.time_travel_kind_at(at);
        if !kind_follows {
            if with_for {
                return Err(self.expected(
                    "time travel, `FOR VERSION AS OF <snapshot id>` or `FOR TIMESTAMP AS OF <timestamp>`",
                ));
            }
            return Ok(None);
        }
        if !with_for && !self.rules.optional_for_in_time_travel {
            return Err(self.expected("`FOR` before `VERSION|TIMESTAMP AS OF`"));
        }
        let version = self.is_word(at, "VERSION");
        for _ in 0..at + 3 {
            self.next();
        }
        // As sqlparser reads it: a snapshot id is a
        // literal, a timestamp any expression (Trino's grammar takes a value expression
        // for both; a comparison there is no timestamp and fails its analysis).
        let point = if version {
            self.literal_value()?
        } else {
            self.expr()?
        };
        Ok(Some(if version {
            TableVersion::Version(point)
        } else {
            TableVersion::Timestamp(point)
        }))
    }

    /// Whether `VERSION|TIMESTAMP AS OF` is the `n`th token on.
    fn time_travel_kind_at(&self, n: usize) -> bool {
        (self.is_word(n, "VERSION") || self.is_word(n, "TIMESTAMP"))
            && self.is_word(n + 1, "AS")
            && self.is_word(n + 2, "OF")
    }

    /// The items of `GROUP BY`, read. sqlparser reads `GROUP BY ALL` as the whole
    /// clause, and `GROUPING SETS (…)`, `ROLLUP (…)` and `CUBE (…)` as items of their
    /// own that take a parenthesized list and nothing after it (`parse_group_by_expr`);
    /// so do Trino's `groupingElement` and Spark's `groupingAnalytics`, which Spark
    /// tries before an expression (`groupByClause`).
    fn group_by(&mut self) -> Result<Vec<Expr>> {
        if self.is_word(0, "ALL") {
            let all = Expr::Name(vec![self.ident()?]);
            if let Some(t) = self.peek(0).copied() {
                if matches!(t.kind, Kind::Symbol(s) if s != Symbol::RParen) {
                    return Err(self.refuse_at(
                        t.start,
                        &format!(
                            "expected the end of `GROUP BY ALL`, found `{}` (`ALL` is the \
                             whole clause; quote a column named `all`)",
                            self.text(&t)
                        ),
                    ));
                }
            }
            return Ok(vec![all]);
        }
        self.comma_separated(|c| {
            let kind = if c.is_word(0, "GROUPING") && c.is_word(1, "SETS") {
                c.next();
                GroupingKind::Sets
            } else if c.is_word(0, "ROLLUP") {
                GroupingKind::Rollup
            } else if c.is_word(0, "CUBE") {
                GroupingKind::Cube
            } else {
                return c.expr();
            };
            if !c.is_symbol(1, Symbol::LParen) {
                c.next();
                return Err(c.expected(match kind {
                    GroupingKind::Sets => "`(` and the sets of `GROUPING SETS (…)`",
                    _ => "`(` and the columns of `ROLLUP|CUBE (…)`",
                }));
            }
            c.next();
            c.grouping(kind)
        })
    }

    /// The sets of `GROUPING SETS|ROLLUP|CUBE (…)`, at the `(`: Trino's `groupingSet` and
    /// Spark's (a parenthesized list or one expression); as in sqlparser's `parse_tuple`, no
    /// empty list but in a set.
    fn grouping(&mut self, kind: GroupingKind) -> Result<Expr> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let sets = self.comma_separated(|c| {
            if !c.eat_symbol(Symbol::LParen) {
                return Ok(vec![c.expr()?]);
            }
            if c.eat_symbol(Symbol::RParen) {
                return Ok(Vec::new());
            }
            let set = c.comma_separated(|c| c.expr())?;
            c.expect_symbol(Symbol::RParen, ")")?;
            Ok(set)
        })?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(Expr::Grouping { kind, sets })
    }

    /// `OVER ([PARTITION BY …] [ORDER BY …] [frame])` or `OVER name` after a call, the
    /// `OVER` read.
    pub(super) fn window(&mut self) -> Result<Window> {
        if !self.is_symbol(0, Symbol::LParen) {
            return Ok(Window {
                partition_by: Vec::new(),
                order_by: Vec::new(),
                frame: None,
                name: Some(self.ident()?),
            });
        }
        self.expect_symbol(Symbol::LParen, "(")?;
        let mut partition_by = Vec::new();
        if self.eat_words(&["PARTITION", "BY"]) {
            partition_by = self.comma_separated(|c| c.expr())?;
        }
        let mut order_by = Vec::new();
        if self.eat_words(&["ORDER", "BY"]) {
            order_by = self.comma_separated(|c| c.order_by_item())?;
        }
        let frame = self.window_frame()?;
        if !self.is_symbol(0, Symbol::RParen) {
            return Err(self.expected("`)` (`OVER (name …)` is not read yet)"));
        }
        self.next();
        Ok(Window {
            partition_by,
            order_by,
            frame,
            name: None,
        })
    }

    /// `ROWS|RANGE|GROUPS bound` or `… BETWEEN bound AND bound`, if one is at the cursor
    /// (`GROUPS` where the grammar has it: Trino's `frameExtent`; Spark's `windowFrame`
    /// has `RANGE` and `ROWS` only).
    fn window_frame(&mut self) -> Result<Option<Box<WindowFrame>>> {
        let units = if self.eat_word("ROWS") {
            FrameUnits::Rows
        } else if self.eat_word("RANGE") {
            FrameUnits::Range
        } else if self.is_word(0, "GROUPS") {
            if !self.rules.groups_frames {
                let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
                return Err(self.refuse_at(
                    at,
                    "a frame in GROUPS is Trino's: Spark's window frames count ROWS or RANGE",
                ));
            }
            self.next();
            FrameUnits::Groups
        } else {
            return Ok(None);
        };
        if self.eat_word("BETWEEN") {
            let start = self.frame_bound()?;
            self.expect_word("AND")?;
            let end = self.frame_bound()?;
            return Ok(Some(Box::new(WindowFrame {
                units,
                start,
                end: Some(end),
            })));
        }
        let start = self.frame_bound()?;
        Ok(Some(Box::new(WindowFrame {
            units,
            start,
            end: None,
        })))
    }

    /// `UNBOUNDED PRECEDING|FOLLOWING`, `CURRENT ROW` or `expression PRECEDING|FOLLOWING`
    /// (`frameBound` in both grammars).
    fn frame_bound(&mut self) -> Result<FrameBound> {
        if self.eat_words(&["CURRENT", "ROW"]) {
            return Ok(FrameBound::CurrentRow);
        }
        let offset = if self.eat_word("UNBOUNDED") {
            None
        } else {
            // sqlparser reads a bare string here as an interval without its unit, a
            // node neither grammar has: refused rather than read as a string.
            let plain_string = |t: &crate::validate::lexer::Token| {
                matches!(
                    t.kind,
                    Kind::Str {
                        form: StrForm::Single,
                        ..
                    }
                )
            };
            if self.peek(0).is_some_and(plain_string) {
                return Err(self.expected(
                    "a frame offset (a number, or `INTERVAL '1' DAY`) before PRECEDING or FOLLOWING",
                ));
            }
            Some(Box::new(self.expr()?))
        };
        if self.eat_word("PRECEDING") {
            Ok(FrameBound::Preceding(offset))
        } else if self.eat_word("FOLLOWING") {
            Ok(FrameBound::Following(offset))
        } else {
            Err(self.expected("PRECEDING or FOLLOWING"))
        }
    }

    pub(super) fn order_by_item(&mut self) -> Result<OrderByItem> {
        let expr = self.expr()?;
        let asc = if self.eat_word("ASC") {
            Some(true)
        } else if self.eat_word("DESC") {
            Some(false)
        } else {
            None
        };
        let nulls_first = if self.eat_word("NULLS") {
            if self.eat_word("FIRST") {
                Some(true)
            } else {
                self.expect_word("LAST")?;
                Some(false)
            }
        } else {
            None
        };
        Ok(OrderByItem {
            expr,
            asc,
            nulls_first,
        })
    }

    /// Whether a query starts at the `n`th token (`SELECT` or `WITH`).
    pub(super) fn query_at(&self, n: usize) -> bool {
        self.is_word(n, "SELECT") || self.is_word(n, "WITH")
    }

    /// A query's body: `SELECT`s joined by set operators, `INTERSECT` binding tighter
    /// than `UNION` and `EXCEPT`, each level left-associative and read in a loop.
    fn set_expr(&mut self) -> Result<SetExpr> {
        self.set_level(
            &[SetOperator::Union, SetOperator::Except],
            Self::intersect_term,
        )
    }

    /// `SELECT`s joined by `INTERSECT`.
    fn intersect_term(&mut self) -> Result<SetExpr> {
        self.set_level(&[SetOperator::Intersect], |c| {
            Ok(SetExpr::Select(Box::new(c.select()?)))
        })
    }

    /// Operands read by `operand`, joined left to right by the operators `ops`.
    fn set_level(
        &mut self,
        ops: &[SetOperator],
        operand: fn(&mut Self) -> Result<SetExpr>,
    ) -> Result<SetExpr> {
        let mut left = operand(self)?;
        while let Some(op) = self.set_operator(ops) {
            let quantifier = self.set_quantifier()?;
            let right = operand(self)?;
            left = SetExpr::Operation {
                left: Box::new(left),
                op,
                quantifier,
                right: Box::new(right),
            };
        }
        Ok(left)
    }

    /// One of `ops` at the cursor, read.
    fn set_operator(&mut self, ops: &[SetOperator]) -> Option<SetOperator> {
        let op = ops.iter().copied().find(|op| {
            self.is_word(
                0,
                match op {
                    SetOperator::Union => "UNION",
                    SetOperator::Except => "EXCEPT",
                    SetOperator::Intersect => "INTERSECT",
                },
            )
        })?;
        self.next();
        Some(op)
    }

    /// `ALL` or `DISTINCT` after a set operator, read, or neither.
    fn set_quantifier(&mut self) -> Result<SetQuantifier> {
        let quantifier = if self.eat_word("ALL") {
            SetQuantifier::All
        } else if self.eat_word("DISTINCT") {
            SetQuantifier::Distinct
        } else {
            SetQuantifier::None
        };
        // sqlparser reads DuckDB's `BY NAME` here in every dialect.
        if self.is_word(0, "BY") && self.is_word(1, "NAME") {
            return Err(self.expected(
                "`SELECT` (`BY NAME` is not Trino's or Spark's: their `setQuantifier` is \
                 `DISTINCT | ALL`)",
            ));
        }
        Ok(quantifier)
    }

    /// `OFFSET n`, with `ROW|ROWS` after it in Trino's grammar, if there.
    fn offset(&mut self) -> Result<Option<Offset>> {
        if !self.eat_word("OFFSET") {
            return Ok(None);
        }
        // A row count: read as an expression; the check after the parse refuses what
        // is not one.
        let value = self.expr()?;
        let mut rows = OffsetRows::None;
        let rows_at = self.peek(0).map_or(self.sql.len(), |t| t.start);
        if self.eat_word("ROW") {
            rows = OffsetRows::Row;
        } else if self.eat_word("ROWS") {
            rows = OffsetRows::Rows;
        }
        if rows != OffsetRows::None && !self.rules.offset_before_limit {
            return Err(self.error_at(
                rows_at,
                "`ROW|ROWS` after an `OFFSET`'s count is Trino's: Spark's grammar takes \
                 `OFFSET expression`",
            ));
        }
        Ok(Some(Offset { value, rows }))
    }

    /// `FETCH FIRST|NEXT [n] ROW|ROWS ONLY|WITH TIES` (Trino's `queryNoWith`).
    fn fetch(&mut self) -> Result<Fetch> {
        self.expect_word("FETCH")?;
        if !(self.eat_word("FIRST") || self.eat_word("NEXT")) {
            return Err(self.expected("`FIRST` or `NEXT`"));
        }
        // `rowCount: INTEGER_VALUE | QUESTION_MARK`: one token (the check after the
        // parse refuses a number that is no row count, as the validator does).
        let count = self
            .peek(0)
            .is_some_and(|t| matches!(t.kind, Kind::Number { .. } | Kind::Placeholder));
        let quantity = if count {
            Some(self.literal_value()?)
        } else {
            None
        };
        if !(self.eat_word("ROW") || self.eat_word("ROWS")) {
            return Err(self.expected("`ROW` or `ROWS`"));
        }
        let with_ties = if self.eat_word("ONLY") {
            false
        } else if self.eat_words(&["WITH", "TIES"]) {
            true
        } else {
            return Err(self.expected("`ONLY` or `WITH TIES`"));
        };
        Ok(Fetch {
            quantity,
            with_ties,
        })
    }

    /// Refuses, with its reason, a row count clause at the cursor that the grammar
    /// takes only in the other order (`limit`, `offset`: whether each was read).
    fn row_count_order(&self, limit: bool, offset: bool) -> Result<()> {
        let Some(t) = self.peek(0) else {
            return Ok(());
        };
        let message = if self.rules.offset_before_limit && limit && self.is_word(0, "OFFSET") {
            "`OFFSET` after `LIMIT`: Trino's grammar takes `OFFSET n` before `LIMIT m`"
        } else if self.rules.fetch_first && limit && self.is_word(0, "FETCH") {
            "`FETCH` after `LIMIT`: Trino's grammar takes either `LIMIT` or `FETCH`"
        } else if !self.rules.offset_before_limit && offset && !limit && self.is_word(0, "LIMIT") {
            "`LIMIT` after `OFFSET`: Spark's grammar takes `LIMIT n` before `OFFSET m` \
             (`queryOrganization`)"
        } else {
            return Ok(());
        };
        Err(self.error_at(t.start, message))
    }

    /// `TABLESAMPLE BERNOULLI|SYSTEM (percentage)` after a table, if there.
    fn table_sample(&mut self) -> Result<Option<Box<TableSample>>> {
        if !self.is_word(0, "TABLESAMPLE") {
            return Ok(None);
        }
        let method = if self.is_word(1, "BERNOULLI") {
            SampleMethod::Bernoulli
        } else if self.is_word(1, "SYSTEM") {
            SampleMethod::System
        } else {
            self.next();
            return Err(self.expected("`BERNOULLI` or `SYSTEM` (Spark's samples are not read yet)"));
        };
        if !self.rules.sample_methods {
            return Err(self.expected(
                "the end of the relation (`TABLESAMPLE BERNOULLI|SYSTEM` is Trino's: Spark \
                 samples with `TABLESAMPLE (n PERCENT)`, `(n ROWS)` or `(BUCKET x OUT OF y)`)",
            ));
        }
        self.next();
        self.next();
        self.expect_symbol(Symbol::LParen, "(")?;
        let percentage = self.expr()?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(Some(Box::new(TableSample { method, percentage })))
    }

    /// Spark's `CLUSTER BY a, …`, if there. Spark takes it after `HAVING` and without
    /// `ORDER BY` (`queryOrganization`, and its AstBuilder), sqlparser before `HAVING`:
    /// read where both take it, as the last clause before `LIMIT`.
    fn cluster_by(&mut self) -> Result<Vec<Expr>> {
        if !self.rules.cluster_by || !self.eat_words(&["CLUSTER", "BY"]) {
            return Ok(Vec::new());
        }
        let exprs = self.comma_separated(|c| c.expr())?;
        let clause_after = ["HAVING", "WINDOW", "ORDER", "SORT", "DISTRIBUTE"]
            .iter()
            .any(|w| self.is_word(0, w));
        if clause_after {
            return Err(self.expected(
                "`LIMIT` or the end of the query (`CLUSTER BY` comes last in Spark's \
                 `queryOrganization`, with no `ORDER BY`)",
            ));
        }
        Ok(exprs)
    }

    /// `TABLE(f(…)) [[AS] alias]`, at `TABLE`.
    fn table_function(&mut self) -> Result<TableFactor> {
        if !self.rules.table_function {
            return Err(self.expected(
                "a table name (`TABLE(f(…))` is Trino's: Spark calls a table-valued function \
                 by its name, `FROM f(…)`)",
            ));
        }
        self.next();
        self.expect_symbol(Symbol::LParen, "(")?;
        let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
        let call = self.expr()?;
        if !matches!(call, Expr::Function(_)) {
            return Err(self.error_at(at, "expected a table function's call in `TABLE(…)`"));
        }
        self.expect_symbol(Symbol::RParen, ")")?;
        let alias = self.alias(AliasOf::Table)?;
        Ok(TableFactor::TableFunction {
            call: Box::new(call),
            alias,
        })
    }

    /// Trino's `UNNEST(a, …) [WITH ORDINALITY] [[AS] alias [(x, …)]]`, at `UNNEST`
    /// (`relationPrimary` and `aliasedRelation`, SqlBase.g4).
    fn unnest(&mut self) -> Result<TableFactor> {
        let word = self.ident_allowing(|w| w == "unnest")?;
        self.expect_symbol(Symbol::LParen, "(")?;
        let args = self.comma_separated(|c| c.expr())?;
        self.expect_symbol(Symbol::RParen, ")")?;
        let ordinality = self.eat_words(&["WITH", "ORDINALITY"]);
        self.table_valued_alias(vec![word], args, ordinality)
    }

    /// Spark's `f(a, …) [[AS] alias [(x, …)]]`, after the name (`functionTable`: no
    /// sample, no time travel).
    fn table_valued(&mut self, name: Vec<Ident>) -> Result<TableFactor> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let args = if self.is_symbol(0, Symbol::RParen) {
            Vec::new()
        } else {
            self.comma_separated(|c| c.expr())?
        };
        self.expect_symbol(Symbol::RParen, ")")?;
        self.table_valued_alias(name, args, false)
    }

    /// A table function's `[[AS] alias [(x, …)]]`, after its call.
    fn table_valued_alias(
        &mut self,
        name: Vec<Ident>,
        args: Vec<Expr>,
        ordinality: bool,
    ) -> Result<TableFactor> {
        let alias = self.alias(AliasOf::Table)?;
        let columns = if alias.is_some() && self.is_symbol(0, Symbol::LParen) {
            self.parenthesized_names()?
        } else {
            Vec::new()
        };
        Ok(TableFactor::TableValued {
            name,
            args,
            ordinality,
            alias,
            columns,
        })
    }

    /// Spark's `LATERAL VIEW [OUTER] f(a, …) name [[AS] c, …]`, at `LATERAL`.
    fn lateral_view(&mut self) -> Result<LateralView> {
        if !self.rules.lateral_view {
            return Err(self.expected(
                "the end of the relations (`LATERAL VIEW` is Spark's: Trino flattens arrays \
                 with `CROSS JOIN UNNEST(…)`)",
            ));
        }
        self.next();
        self.next();
        let outer = self.eat_word("OUTER");
        let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
        let call = self.expr()?;
        // Spark's `lateralView` takes a call, `qualifiedName '(' … ')'`.
        if !matches!(call, Expr::Function(_)) {
            return Err(self.error_at(at, "expected a generator's call after `LATERAL VIEW`"));
        }
        let name = self.ident()?;
        // Spark's `(AS? colName (',' colName)*)?`. sqlparser takes any word for a column
        // here but these (its list), so one that starts a clause (`ORDER`, `LIMIT`, …) is
        // read as a column and the clause fails after it, as in sqlparser.
        let ends = ["WHERE", "GROUP", "CLUSTER", "HAVING", "LATERAL"];
        let word_next = self
            .peek(0)
            .is_some_and(|t| matches!(t.kind, Kind::Word { .. }));
        let columns =
            if self.eat_word("AS") || (word_next && !ends.iter().any(|w| self.is_word(0, w))) {
                self.comma_separated(|c| c.ident())?
            } else {
                Vec::new()
            };
        Ok(LateralView {
            outer,
            call,
            name,
            columns,
        })
    }
}

/// Spark's AstBuilder refuses a FROM clause with both (`visitFromClause`,
/// `NOT_ALLOWED_IN_FROM.LATERAL_WITH_PIVOT`).
const LATERAL_WITH_PIVOT: &str = "`LATERAL VIEW` cannot be used together with `PIVOT` in a FROM \
                                  clause (Spark's AstBuilder refuses it)";

/// What may not follow a `PIVOT (…)`: Spark's `fromClause` ends with it.
const AFTER_PIVOT: &[&str] = &[
    "join", "inner", "cross", "left", "right", "full", "natural", "semi", "anti", "on", "using",
    "pivot",
];

impl Cursor<'_> {
    /// Spark's `PIVOT (agg [[AS] a], … FOR c | (c, …) IN (v [[AS] n], …))`, at `PIVOT`
    /// after the FROM clause's relations: its `fromClause` is `FROM relation (',' relation)*
    /// lateralView* pivotClause? unpivotClause?` (SqlBaseParser.g4), so the pivot
    /// takes the whole FROM clause and nothing of it follows.
    fn pivot(&mut self, after_lateral_views: bool) -> Result<Pivot> {
        if !self.rules.pivot {
            return Err(self.expected(
                "the end of the relations (`PIVOT` is Spark's: Trino's grammar has none)",
            ));
        }
        if after_lateral_views {
            let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
            return Err(self.error_at(at, LATERAL_WITH_PIVOT));
        }
        self.next();
        self.expect_symbol(Symbol::LParen, "(")?;
        // `namedExpressionSeq`: any expression, named or not (the analyzer asks for
        // aggregates). An alias without `AS` is no `FOR`.
        let aggregates = self.comma_separated(|c| {
            let e = c.expr()?;
            let alias = if c.is_word(0, "FOR") {
                None
            } else {
                c.alias(AliasOf::Column)?
            };
            Ok((e, alias))
        })?;
        self.expect_word("FOR")?;
        // `pivotColumn`: one name, or names in parentheses.
        let columns = if self.eat_symbol(Symbol::LParen) {
            let columns = self.comma_separated(|c| c.ident())?;
            self.expect_symbol(Symbol::RParen, ")")?;
            columns
        } else {
            vec![self.ident()?]
        };
        self.expect_word("IN")?;
        self.expect_symbol(Symbol::LParen, "(")?;
        // `pivotValue`: `expression (AS? errorCapturingIdentifier)?`.
        let values = self.comma_separated(|c| {
            let e = c.expr()?;
            let named = c.eat_word("AS")
                || c.peek(0)
                    .is_some_and(|t| matches!(t.kind, Kind::Word { .. }));
            let alias = if named { Some(c.ident()?) } else { None };
            Ok((e, alias))
        })?;
        self.expect_symbol(Symbol::RParen, ")")?;
        self.expect_symbol(Symbol::RParen, ")")?;
        // Nothing of the FROM clause follows the pivot, and it takes no alias
        // (sqlparser reads a pivot after any table factor, with an alias, and views
        // after it).
        let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
        let follows = self.is_symbol(0, Symbol::Comma)
            || AFTER_PIVOT.iter().any(|w| self.is_word(0, w))
            || (self.is_word(0, "LATERAL") && self.is_word(1, "VIEW"));
        if follows {
            if self.is_word(0, "LATERAL") {
                return Err(self.error_at(at, LATERAL_WITH_PIVOT));
            }
            return Err(self.error_at(
                at,
                "`PIVOT (…)` ends the FROM clause in Spark's grammar (`fromClause`: the \
                 relations, joins and views come before it)",
            ));
        }
        if self.is_word(0, "AS") || self.alias(AliasOf::Table)?.is_some() {
            return Err(self.error_at(at, "`PIVOT (…)` takes no alias in Spark's grammar"));
        }
        Ok(Pivot {
            aggregates,
            columns,
            values,
        })
    }
}
