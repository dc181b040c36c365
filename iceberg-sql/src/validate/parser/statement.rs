//! Statements: a query, or the DML our builders write (`INSERT`, `UPDATE`, `DELETE`,
//! `MERGE`), in the forms Trino's `SqlBase.g4` and Spark's `SqlBaseParser.g4` give them;
//! Athena's `OPTIMIZE` and `VACUUM` (its DDL); the other statements are `super::ddl`'s.

use super::ast::Property;
use super::ast::{
    Assignment, Delete, Expr, Ident, Insert, InsertSource, Merge, MergeAction, MergeClause,
    NotMatchedBy, Statement, Update,
};
use super::cursor::Cursor;
use super::query::AliasOf;
use crate::dialect::Grammar;
use crate::error::Result;
use crate::validate::lexer::{Kind, Symbol};

impl Cursor<'_> {
    /// One statement.
    pub(super) fn statement(&mut self) -> Result<Statement> {
        if self.query_at(0) {
            return Ok(Statement::Query(Box::new(self.query()?)));
        }
        if self.eat_word("INSERT") {
            return self.insert().map(Statement::Insert);
        }
        if self.eat_word("UPDATE") {
            return self.update().map(Statement::Update);
        }
        if self.eat_word("DELETE") {
            return self.delete().map(Statement::Delete);
        }
        if self.eat_word("MERGE") {
            return self.merge().map(Statement::Merge);
        }
        if self.rules.athena_maintenance {
            if self.eat_word("OPTIMIZE") {
                return self.optimize();
            }
            if self.eat_word("VACUUM") {
                let table = self.table_name()?;
                return Ok(Statement::Vacuum { table });
            }
        }
        if self.rules.spark_call && self.eat_word("CALL") {
            return self.call();
        }
        if self.rules.athena_unload && self.eat_word("UNLOAD") {
            return self.unload();
        }
        if let Some(ddl) = self.ddl_statement() {
            return ddl;
        }
        const STATEMENTS: &str = "a statement (`SELECT`, `INSERT`, `UPDATE`, `DELETE`, \
             `MERGE`, `CREATE`, `ALTER`, `DROP`, `SHOW` or `DESCRIBE`)";
        // A word that starts statements, followed by one none of ours continues with
        // (`SHOW VIEWS`): name both words, not only the first, which the list names.
        let starts = ["CREATE", "ALTER", "DROP", "SHOW", "DESCRIBE"]
            .iter()
            .any(|w| self.is_word(0, w));
        match (self.peek(0).copied(), self.peek(1).copied()) {
            (Some(first), Some(second)) if starts => Err(self.error_at(
                first.start,
                &format!(
                    "expected {STATEMENTS}, found `{} {}`, which this grammar's statements \
                     do not start with",
                    self.text(&first),
                    self.text(&second)
                ),
            )),
            _ => Err(self.expected(STATEMENTS)),
        }
    }

    /// `(query) TO 's3://…' [WITH (name = value, …)]`, after `UNLOAD` (Athena's UNLOAD
    /// page).
    fn unload(&mut self) -> Result<Statement> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let query = Box::new(self.query()?);
        self.expect_symbol(Symbol::RParen, ")")?;
        self.expect_word("TO")?;
        let to = self.string("the location")?;
        let with = self.properties()?;
        Ok(Statement::Unload { query, to, with })
    }

    /// `t [WITH (name = value, …)] AS query [WITH [NO] DATA]`, after `CREATE TABLE`
    /// (Trino's `createTableAsSelect`).
    pub(super) fn create_table_as(&mut self) -> Result<Statement> {
        let table = self.table_name()?;
        let with = self.properties()?;
        self.expect_word("AS")?;
        if !self.query_at(0) {
            return Err(self.expected("a query (`SELECT` or `WITH`)"));
        }
        let query = Box::new(self.query()?);
        let data = if self.eat_word("WITH") {
            let data = !self.eat_word("NO");
            self.expect_word("DATA")?;
            Some(data)
        } else {
            None
        };
        Ok(Statement::CreateTableAs {
            table,
            with,
            query,
            data,
        })
    }

    /// `procedure([name =>] value, …)`, after `CALL`.
    fn call(&mut self) -> Result<Statement> {
        let procedure = self.table_name()?;
        self.expect_symbol(Symbol::LParen, "(")?;
        let args = self.call_arguments()?;
        Ok(Statement::Call { procedure, args })
    }

    /// `[name =>] value, …)` of a procedure's call, after its `(`.
    pub(super) fn call_arguments(&mut self) -> Result<Vec<(Option<Ident>, Expr)>> {
        let mut args = Vec::new();
        if !self.eat_symbol(Symbol::RParen) {
            args = self.comma_separated(|c| {
                let named = c
                    .peek(0)
                    .is_some_and(|t| matches!(t.kind, Kind::Word { .. }))
                    && c.is_symbol(1, Symbol::RArrow);
                let name = if named {
                    let name = c.ident()?;
                    c.next();
                    Some(name)
                } else {
                    None
                };
                Ok((name, c.expr()?))
            })?;
            self.expect_symbol(Symbol::RParen, ")")?;
        }
        Ok(args)
    }

    /// `WITH (name = value, …)`, if there.
    pub(super) fn properties(&mut self) -> Result<Vec<Property>> {
        if !self.eat_word("WITH") {
            return Ok(Vec::new());
        }
        self.expect_symbol(Symbol::LParen, "(")?;
        let with = self.comma_separated(|c| {
            let name = c.ident()?;
            c.expect_symbol(Symbol::Eq, "=")?;
            let value = c.expr()?;
            Ok(Property { name, value })
        })?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(with)
    }

    /// `t REWRITE DATA USING BIN_PACK [WHERE condition]`, after `OPTIMIZE` (Athena's
    /// only form, its OPTIMIZE page).
    fn optimize(&mut self) -> Result<Statement> {
        let table = self.table_name()?;
        for word in ["REWRITE", "DATA", "USING", "BIN_PACK"] {
            self.expect_word(word)?;
        }
        let predicate = self.where_clause()?;
        Ok(Statement::Optimize { table, predicate })
    }

    /// `INTO t [(a, b)] VALUES (…), … | query`, after `INSERT`.
    fn insert(&mut self) -> Result<Insert> {
        self.expect_word("INTO")?;
        // sqlparser reads Hive's `INSERT [LOCAL] DIRECTORY '…'` and Spark's `INSERT INTO
        // TABLE t` here.
        self.no_table_named(&["local", "directory", "table"], "INSERT INTO")?;
        let table = self.table_name()?;
        let columns = if self.is_symbol(0, Symbol::LParen) && !self.query_at(1) {
            self.parenthesized_names()?
        } else {
            Vec::new()
        };
        let source = if self.eat_word("VALUES") {
            InsertSource::Values(self.comma_separated(|c| c.row())?)
        } else if self.query_at(0) {
            InsertSource::Query(Box::new(self.query()?))
        } else {
            return Err(self.expected("`VALUES` or a query"));
        };
        Ok(Insert {
            table,
            columns,
            source,
        })
    }

    /// `t [alias] SET a = x, … [WHERE condition]`, after `UPDATE`.
    fn update(&mut self) -> Result<Update> {
        // sqlparser takes the word after `UPDATE` for a `REPLACE` of its own.
        self.no_table_named(&["replace"], "UPDATE")?;
        let table = self.relation_name()?;
        let alias = self.dml_alias()?;
        self.expect_word("SET")?;
        let assignments = self.comma_separated(|c| c.assignment())?;
        let selection = self.where_clause()?;
        Ok(Update {
            table,
            alias,
            assignments,
            selection,
        })
    }

    /// Refuses a table name starting with one of `words` unquoted after `after`: each
    /// starts another form there in sqlparser's reading, so the validator lets none
    /// through as a name (the two readings agree).
    /// Trino's grammar reads any word of its `nonReserved` rule as a name there
    /// (`INSERT INTO local.t`, `UPDATE replace.t`), so in it only reserved words, which
    /// the name itself refuses, are no table name.
    fn no_table_named(&self, words: &[&str], after: &str) -> Result<()> {
        if self.rules.grammar == Grammar::TrinoDml {
            return Ok(());
        }
        match self.peek(0) {
            Some(t)
                if matches!(t.kind, Kind::Word { quote: None, .. })
                    && words.iter().any(|w| self.text(t).eq_ignore_ascii_case(w)) =>
            {
                Err(self.error_at(
                    t.start,
                    &format!(
                        "expected a table name after `{after}`, found `{}` (quote a table \
                         of that name)",
                        self.text(t)
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    /// `FROM t [alias] [WHERE condition]`, after `DELETE`.
    fn delete(&mut self) -> Result<Delete> {
        self.expect_word("FROM")?;
        let table = self.relation_name()?;
        let alias = self.dml_alias()?;
        let selection = self.where_clause()?;
        Ok(Delete {
            table,
            alias,
            selection,
        })
    }

    /// `INTO t [[AS] alias] USING relation ON condition clause…`, after `MERGE`.
    fn merge(&mut self) -> Result<Merge> {
        self.expect_word("INTO")?;
        let table = self.table_name()?;
        let alias = self.alias(AliasOf::Table)?;
        self.expect_word("USING")?;
        let source = self.table_factor()?;
        self.expect_word("ON")?;
        let on = self.expr()?;
        let mut clauses: Vec<MergeClause> = Vec::new();
        while self.is_word(0, "WHEN") {
            let at = self.next().map_or(self.sql.len(), |t| t.start);
            let clause = self.merge_clause()?;
            if let Some(before) = clauses.last().filter(|_| self.rules.merge_clause_order) {
                if !before.matched && clause.matched {
                    return Err(self.error_at(
                        at,
                        "a `WHEN MATCHED` clause after a `WHEN NOT MATCHED` one: Spark takes \
                         the MATCHED clauses first",
                    ));
                }
                let by_source = |c: &MergeClause| c.by == NotMatchedBy::Source;
                if by_source(before) && !by_source(&clause) {
                    return Err(self.error_at(
                        at,
                        "a clause after a `WHEN NOT MATCHED BY SOURCE` one: Spark takes the \
                         MATCHED clauses first, then NOT MATCHED, then NOT MATCHED BY SOURCE",
                    ));
                }
                if before.matched == clause.matched
                    && by_source(before) == by_source(&clause)
                    && before.condition.is_none()
                {
                    return Err(self.error_at(
                        at,
                        "a clause after one of its kind without a condition: in Spark only \
                         the last MATCHED (or NOT MATCHED) clause may leave out `AND …`",
                    ));
                }
            }
            clauses.push(clause);
        }
        if clauses.is_empty() {
            return Err(self.expected("`WHEN [NOT] MATCHED` (a MERGE needs at least one)"));
        }
        Ok(Merge {
            table,
            alias,
            source,
            on,
            clauses,
        })
    }

    /// `[NOT] MATCHED [BY SOURCE|TARGET] [AND condition] THEN action`, after `WHEN`.
    fn merge_clause(&mut self) -> Result<MergeClause> {
        let matched = !self.eat_word("NOT");
        self.expect_word("MATCHED")?;
        let mut by = NotMatchedBy::Unsaid;
        if !matched && self.rules.merge_spark_forms && self.eat_word("BY") {
            by = if self.eat_word("SOURCE") {
                NotMatchedBy::Source
            } else {
                self.expect_word("TARGET")?;
                NotMatchedBy::Target
            };
        }
        let condition = if self.eat_word("AND") {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect_word("THEN")?;
        // Spark's `notMatchedBySourceAction` updates or deletes, as a MATCHED one does.
        let on_target = matched || by == NotMatchedBy::Source;
        let action = if on_target && self.eat_word("UPDATE") {
            self.expect_word("SET")?;
            // Spark's `UPDATE SET ASTERISK` (`matchedAction`; its
            // `notMatchedBySourceAction` has none).
            let star = self.is_symbol(0, Symbol::Mul);
            if star && self.rules.merge_spark_forms && matched {
                self.next();
                MergeAction::UpdateAll
            } else if star {
                return Err(self.expected(&format!(
                    "an assignment ({} has no `UPDATE SET *`{})",
                    self.rules.name,
                    if matched {
                        ""
                    } else {
                        " after `NOT MATCHED BY SOURCE`"
                    }
                )));
            } else {
                MergeAction::Update(self.comma_separated(|c| c.assignment())?)
            }
        } else if on_target && self.eat_word("DELETE") {
            MergeAction::Delete
        } else if !on_target && self.eat_word("INSERT") {
            if self.is_symbol(0, Symbol::Mul) {
                if self.rules.merge_spark_forms {
                    self.next();
                    return Ok(MergeClause {
                        matched,
                        condition,
                        action: MergeAction::InsertAll,
                        by,
                    });
                }
                return Err(self.expected(&format!(
                    "`(` or `VALUES` ({} has no `INSERT *`)",
                    self.rules.name
                )));
            }
            let columns = if self.is_symbol(0, Symbol::LParen) {
                self.parenthesized_names()?
            } else if self.rules.merge_insert_columns {
                return Err(self.expected(
                    "`(` and the columns to insert (Spark's MERGE … INSERT names them)",
                ));
            } else {
                Vec::new()
            };
            self.expect_word("VALUES")?;
            let values = self.row()?;
            MergeAction::Insert { columns, values }
        } else if on_target {
            return Err(self.expected("`UPDATE SET` or `DELETE`"));
        } else {
            return Err(self.expected("`INSERT`"));
        };
        Ok(MergeClause {
            matched,
            condition,
            action,
            by,
        })
    }

    /// `column = value`
    fn assignment(&mut self) -> Result<Assignment> {
        let mut column = vec![self.ident()?];
        while self.is_symbol(0, Symbol::Period) {
            if !self.rules.qualified_assignment {
                return Err(self.expected("`=` (the column of a `SET` is one name in Trino)"));
            }
            self.next();
            column.push(self.ident()?);
        }
        self.expect_symbol(Symbol::Eq, "=")?;
        let value = self.expr()?;
        Ok(Assignment { column, value })
    }

    /// `(a, b, …)` of values.
    pub(super) fn row(&mut self) -> Result<Vec<Expr>> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let values = self.comma_separated(|c| c.expr())?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(values)
    }

    /// `(a, b, …)` of names.
    pub(super) fn parenthesized_names(&mut self) -> Result<Vec<Ident>> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let names = self.comma_separated(|c| c.ident())?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(names)
    }

    /// The alias after an `UPDATE`'s or `DELETE`'s table, where the grammar has one.
    fn dml_alias(&mut self) -> Result<Option<Ident>> {
        let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
        let alias = self.alias(AliasOf::Table)?;
        if alias.is_some() && !self.rules.dml_alias {
            return Err(self.error_at(
                at,
                "expected `SET`, `WHERE` or the end (Trino's UPDATE and DELETE take no table \
                 alias: name the table's columns unqualified)",
            ));
        }
        Ok(alias)
    }

    pub(super) fn where_clause(&mut self) -> Result<Option<Expr>> {
        if self.eat_word("WHERE") {
            self.expr().map(Some)
        } else {
            Ok(None)
        }
    }
}
