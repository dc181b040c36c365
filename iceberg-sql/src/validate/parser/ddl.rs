//! The statements on tables, views and databases our builders write (`CREATE`,
//! `ALTER`, `DROP`, `SHOW`, `DESCRIBE`), in each grammar's forms: Athena's Hive DDL (its
//! CREATE TABLE, ALTER TABLE, CREATE DATABASE, SHOW and DESCRIBE pages), Trino's
//! `SqlBase.g4` and Spark's `SqlBaseParser.g4` (with Iceberg's Spark DDL page).

use super::ast::{
    AlterAction, ColumnDef, CreateObject, CreateTable, DropObject, Expr, FunctionArgs, Ident,
    Literal, LiteralValue, PartitionSpec, Statement, StringForm, TableClause,
};
use super::cursor::{span, Cursor};
use super::DdlForms;
use crate::error::Result;
use crate::validate::lexer::{Kind, StrForm, Symbol};

impl Cursor<'_> {
    /// A DDL statement, if one starts here (`None`: not a DDL word of this grammar).
    pub(super) fn ddl_statement(&mut self) -> Option<Result<Statement>> {
        let forms = self.rules.ddl;
        if self.eat_word("CREATE") {
            return Some(self.create());
        }
        if self.eat_word("DROP") {
            return Some(self.drop());
        }
        if self.eat_words(&["ALTER", "TABLE"]) {
            return Some(self.alter_table());
        }
        if self.eat_words(&["SHOW", "TABLES"]) {
            return Some(self.show_tables());
        }
        if self.eat_words(&["SHOW", "CREATE", "TABLE"]) {
            return Some(
                self.table_name()
                    .map(|table| Statement::ShowCreateTable { table }),
            );
        }
        if self.eat_word("DESCRIBE") {
            // Trino's `DESCRIBE qualifiedName` has no FORMATTED; the validator reads
            // the word there as Hive's keyword in every grammar, so a table or schema called
            // `formatted` is written quoted.
            if forms == DdlForms::Trino && self.is_word(0, "FORMATTED") {
                let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
                return Some(Err(self.error_at(
                    at,
                    "`DESCRIBE FORMATTED` is Hive's: Trino's DESCRIBE takes a table name \
                     (quote a name spelled `formatted`)",
                )));
            }
            let formatted = forms != DdlForms::Trino && self.eat_word("FORMATTED");
            return Some(
                self.table_name()
                    .map(|table| Statement::Describe { formatted, table }),
            );
        }
        None
    }

    /// After `CREATE`.
    fn create(&mut self) -> Result<Statement> {
        let forms = self.rules.ddl;
        if self.eat_word("TABLE") {
            return self.create_table(CreateObject::Table);
        }
        if forms == DdlForms::Hive && self.eat_words(&["EXTERNAL", "TABLE"]) {
            return self.create_table(CreateObject::ExternalTable);
        }
        if forms == DdlForms::Spark && self.eat_words(&["TEMPORARY", "VIEW"]) {
            return self.create_table(CreateObject::TemporaryView);
        }
        if forms != DdlForms::Trino && self.eat_word("DATABASE") {
            return self.create_database(false);
        }
        if self.eat_word("SCHEMA") {
            return self.create_database(true);
        }
        if forms != DdlForms::Hive {
            let or_replace = self.eat_words(&["OR", "REPLACE"]);
            if self.eat_word("VIEW") {
                let name = self.table_name()?;
                self.expect_word("AS")?;
                let query = Box::new(self.query_here()?);
                return Ok(Statement::CreateView {
                    or_replace,
                    name,
                    query,
                });
            }
            if or_replace {
                return Err(self.expected("`VIEW`"));
            }
        }
        Err(self.expected(match forms {
            DdlForms::Hive => "`TABLE`, `EXTERNAL TABLE`, `DATABASE` or `SCHEMA`",
            DdlForms::Trino => "`TABLE`, `SCHEMA` or `[OR REPLACE] VIEW`",
            DdlForms::Spark => {
                "`TABLE`, `TEMPORARY VIEW`, `DATABASE`, `SCHEMA` or `[OR REPLACE] VIEW`"
            }
        }))
    }

    /// A query, where the grammar requires one.
    fn query_here(&mut self) -> Result<super::ast::Query> {
        if !self.query_at(0) {
            return Err(self.expected("a query (`SELECT` or `WITH`)"));
        }
        self.query()
    }

    /// After `CREATE [EXTERNAL] TABLE` or `CREATE TEMPORARY VIEW`: the name, the
    /// columns, the clauses in the grammar's order, and Spark's `AS query`. Trino's
    /// `CREATE TABLE t [WITH (…)] AS query` is read by `create_table_as`.
    fn create_table(&mut self, object: CreateObject) -> Result<Statement> {
        let forms = self.rules.ddl;
        let if_not_exists =
            object == CreateObject::Table && self.eat_words(&["IF", "NOT", "EXISTS"]);
        let before_name = self.checkpoint();
        let name = self.table_name()?;
        if forms == DdlForms::Trino && !self.is_symbol(0, Symbol::LParen) && !if_not_exists {
            self.rewind(before_name);
            return self.create_table_as();
        }
        // Spark's columns are optional (`CREATE TABLE t USING iceberg AS query`); Hive's
        // and Trino's CREATE TABLE, and the staging tables, list them.
        let columns = if forms != DdlForms::Spark
            || object != CreateObject::Table
            || self.is_symbol(0, Symbol::LParen)
        {
            self.expect_symbol(Symbol::LParen, "(")?;
            let columns = self.comma_separated(|c| c.column_def())?;
            self.expect_symbol(Symbol::RParen, ")")?;
            columns
        } else {
            Vec::new()
        };
        let clauses = match (forms, object) {
            (DdlForms::Hive, _) => self.hive_table_clauses(object)?,
            (DdlForms::Trino, _) => self.trino_table_clauses()?,
            (DdlForms::Spark, CreateObject::TemporaryView) => {
                self.expect_word("USING")?;
                let using = TableClause::Using(self.ident()?);
                let mut clauses = vec![using];
                if self.eat_word("OPTIONS") {
                    clauses.push(TableClause::Options(self.options()?));
                }
                clauses
            }
            (DdlForms::Spark, _) => self.spark_table_clauses()?,
        };
        // Spark's AstBuilder refuses a CTAS that also lists columns.
        let query = if forms == DdlForms::Spark
            && object == CreateObject::Table
            && columns.is_empty()
            && self.eat_word("AS")
        {
            Some(Box::new(self.query_here()?))
        } else {
            None
        };
        Ok(Statement::CreateTable(CreateTable {
            object,
            if_not_exists,
            name,
            columns,
            clauses,
            query,
        }))
    }

    /// Hive's clauses, in its order: `[COMMENT '…'] [PARTITIONED BY (…)] [STORED AS
    /// format] [LOCATION '…'] [TBLPROPERTIES (…)]`. Athena creates an Iceberg table only
    /// with `TBLPROPERTIES ('table_type'='ICEBERG')` (its Iceberg CREATE TABLE page), so
    /// a `CREATE TABLE` needs the clause. An external table is a staged load's, which
    /// names its files' format and place: Hive's grammar makes `STORED AS` and
    /// `LOCATION` optional, the validator requires both.
    fn hive_table_clauses(&mut self, object: CreateObject) -> Result<Vec<TableClause>> {
        let mut clauses = Vec::new();
        if self.eat_word("COMMENT") {
            clauses.push(TableClause::Comment(self.string("the table's comment")?));
        }
        if self.eat_words(&["PARTITIONED", "BY"]) {
            clauses.push(TableClause::PartitionedBy(self.partition_fields()?));
        }
        let external = object == CreateObject::ExternalTable;
        if external {
            self.expect_words(&["STORED", "AS"])?;
            clauses.push(TableClause::StoredAs(self.ident()?));
        }
        if external && !self.is_word(0, "LOCATION") {
            return Err(self.expected("`LOCATION '…'` (an external table's files)"));
        }
        if self.eat_word("LOCATION") {
            clauses.push(TableClause::Location(self.string("the location")?));
        }
        if self.is_word(0, "TBLPROPERTIES") || !external {
            if !self.eat_word("TBLPROPERTIES") {
                return Err(self.expected(
                    "`TBLPROPERTIES ('table_type'='ICEBERG', …)` (Athena creates an Iceberg \
                     table only with it)",
                ));
            }
            clauses.push(TableClause::TblProperties(self.string_pairs()?));
        }
        Ok(clauses)
    }

    /// Trino's `[COMMENT '…'] [WITH (…)]`.
    fn trino_table_clauses(&mut self) -> Result<Vec<TableClause>> {
        let mut clauses = Vec::new();
        if self.eat_word("COMMENT") {
            clauses.push(TableClause::Comment(self.string("the table's comment")?));
        }
        let with = self.properties()?;
        if !with.is_empty() {
            clauses.push(TableClause::With(with));
        }
        Ok(clauses)
    }

    /// Spark's `USING provider` and `createTableClauses`, in any order, each at most once
    /// (its AstBuilder refuses a second). Spark's grammar makes `USING` optional, but a
    /// table is Iceberg's only with `USING iceberg`, so it is required here.
    fn spark_table_clauses(&mut self) -> Result<Vec<TableClause>> {
        let mut clauses: Vec<TableClause> = Vec::new();
        loop {
            let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
            let clause = if self.eat_word("USING") {
                TableClause::Using(self.ident()?)
            } else if self.eat_words(&["PARTITIONED", "BY"]) {
                TableClause::PartitionedBy(self.partition_fields()?)
            } else if self.eat_word("COMMENT") {
                TableClause::Comment(self.string("the table's comment")?)
            } else if self.eat_word("LOCATION") {
                TableClause::Location(self.string("the location")?)
            } else if self.eat_word("TBLPROPERTIES") {
                TableClause::TblProperties(self.string_pairs()?)
            } else if self.eat_word("OPTIONS") {
                TableClause::Options(self.options()?)
            } else {
                break;
            };
            let seen = clauses
                .iter()
                .any(|c| std::mem::discriminant(c) == std::mem::discriminant(&clause));
            if seen {
                return Err(self.error_at(at, "a clause given twice (Spark takes each once)"));
            }
            clauses.push(clause);
        }
        if !clauses.iter().any(|c| matches!(c, TableClause::Using(_))) {
            return Err(
                self.expected("`USING iceberg` (Spark creates an Iceberg table only with it)")
            );
        }
        Ok(clauses)
    }

    /// `(field, …)` of `PARTITIONED BY`: a column, or a transform's call on columns and
    /// whole numbers (`day(ts)`, `bucket(16, id)`), as Athena's and Iceberg's Spark DDL
    /// write them.
    fn partition_fields(&mut self) -> Result<Vec<Expr>> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let fields = self.comma_separated(|c| c.partition_field())?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(fields)
    }

    /// One partition field: a column, or a transform of columns and whole numbers.
    fn partition_field(&mut self) -> Result<Expr> {
        let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
        let field = self.expr()?;
        let ok = match &field {
            Expr::Name(n) => n.len() == 1,
            Expr::Function(f) => {
                let args_ok = match &f.args {
                    FunctionArgs::List {
                        distinct: false,
                        args,
                    } => args.iter().all(is_transform_argument),
                    _ => false,
                };
                f.name.len() == 1 && f.filter.is_none() && f.over.is_none() && args_ok
            }
            _ => false,
        };
        if !ok {
            return Err(self.error_at(
                at,
                "expected a partition field: a column, or a transform of columns and whole \
                 numbers (`day(ts)`, `bucket(16, id)`)",
            ));
        }
        Ok(field)
    }

    /// `name type [NOT NULL] [COMMENT '…']` (`NOT NULL` in Spark and Trino).
    fn column_def(&mut self) -> Result<ColumnDef> {
        let name = self.ident()?;
        let ty = self.data_type()?;
        let not_null = self.rules.ddl != DdlForms::Hive && self.eat_words(&["NOT", "NULL"]);
        let comment = if self.eat_word("COMMENT") {
            Some(self.string("the column's comment")?)
        } else {
            None
        };
        Ok(ColumnDef {
            name,
            ty,
            not_null,
            comment,
        })
    }

    /// `('k'='v', …)` after `TBLPROPERTIES`.
    fn string_pairs(&mut self) -> Result<Vec<(Literal, Literal)>> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let pairs = self.comma_separated(|c| {
            let key = c.string("a property's name")?;
            c.expect_symbol(Symbol::Eq, "=")?;
            let value = c.string("a property's value")?;
            Ok((key, value))
        })?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(pairs)
    }

    /// `(key [=] '…', …)` after Spark's `OPTIONS`.
    fn options(&mut self) -> Result<Vec<(Ident, Literal)>> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let options = self.comma_separated(|c| {
            let key = c.ident()?;
            c.eat_symbol(Symbol::Eq);
            let value = c.string("an option's value")?;
            Ok((key, value))
        })?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(options)
    }

    /// After `CREATE DATABASE` or `CREATE SCHEMA` (`schema`).
    fn create_database(&mut self, schema: bool) -> Result<Statement> {
        let if_not_exists = self.eat_words(&["IF", "NOT", "EXISTS"]);
        let name = self.table_name()?;
        let mut comment = None;
        let mut location = None;
        let mut with = Vec::new();
        match self.rules.ddl {
            // `[COMMENT '…'] [LOCATION '…']`, in that order.
            DdlForms::Hive => {
                if self.eat_word("COMMENT") {
                    comment = Some(self.string("the database's comment")?);
                }
                if self.eat_word("LOCATION") {
                    location = Some(self.string("the location")?);
                }
            }
            // `(COMMENT '…' | LOCATION '…')*`, each once (Spark's AstBuilder).
            DdlForms::Spark => loop {
                let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
                let slot = if self.eat_word("COMMENT") {
                    &mut comment
                } else if self.eat_word("LOCATION") {
                    &mut location
                } else {
                    break;
                };
                if slot.is_some() {
                    return Err(self.error_at(at, "a clause given twice (Spark takes each once)"));
                }
                *slot = Some(self.string("a string")?);
            },
            DdlForms::Trino => with = self.properties()?,
        }
        Ok(Statement::CreateDatabase {
            schema,
            if_not_exists,
            name,
            comment,
            location,
            with,
        })
    }

    /// After `DROP`: `TABLE|VIEW|DATABASE|SCHEMA [IF EXISTS] name`, then `PURGE` after a
    /// table (Hive, Spark) or `CASCADE` after a database.
    fn drop(&mut self) -> Result<Statement> {
        let forms = self.rules.ddl;
        let object = if self.eat_word("TABLE") {
            DropObject::Table
        } else if forms != DdlForms::Hive && self.eat_word("VIEW") {
            DropObject::View
        } else if forms != DdlForms::Trino && self.eat_word("DATABASE") {
            DropObject::Database
        } else if self.eat_word("SCHEMA") {
            DropObject::Schema
        } else {
            return Err(self.expected(match forms {
                DdlForms::Hive => "`TABLE`, `DATABASE` or `SCHEMA`",
                DdlForms::Trino => "`TABLE`, `VIEW` or `SCHEMA`",
                DdlForms::Spark => "`TABLE`, `VIEW`, `DATABASE` or `SCHEMA`",
            }));
        };
        let if_exists = self.eat_words(&["IF", "EXISTS"]);
        let name = self.table_name()?;
        let purge =
            object == DropObject::Table && forms != DdlForms::Trino && self.eat_word("PURGE");
        let cascade =
            matches!(object, DropObject::Database | DropObject::Schema) && self.eat_word("CASCADE");
        Ok(Statement::Drop {
            object,
            if_exists,
            name,
            purge,
            cascade,
        })
    }

    /// After `ALTER TABLE`.
    fn alter_table(&mut self) -> Result<Statement> {
        let forms = self.rules.ddl;
        let table = self.table_name()?;
        let action = if forms != DdlForms::Trino && self.eat_words(&["ADD", "COLUMNS"]) {
            self.expect_symbol(Symbol::LParen, "(")?;
            let columns = self.comma_separated(|c| c.column_def())?;
            self.expect_symbol(Symbol::RParen, ")")?;
            AlterAction::AddColumns(columns)
        } else if forms == DdlForms::Hive
            && self.is_word(0, "ADD")
            && ((self.is_word(1, "PARTITION") && !self.is_word(2, "FIELD"))
                || self.is_word(1, "IF"))
        {
            self.next();
            let if_not_exists = self.eat_words(&["IF", "NOT", "EXISTS"]);
            let mut partitions = Vec::new();
            while self.eat_word("PARTITION") {
                self.expect_symbol(Symbol::LParen, "(")?;
                let values = self.comma_separated(|c| {
                    let key = c.ident()?;
                    c.expect_symbol(Symbol::Eq, "=")?;
                    Ok((key, c.literal_value()?))
                })?;
                self.expect_symbol(Symbol::RParen, ")")?;
                let location = if self.eat_word("LOCATION") {
                    Some(self.string("the partition's location")?)
                } else {
                    None
                };
                partitions.push(PartitionSpec { values, location });
            }
            if partitions.is_empty() {
                return Err(self.expected("`PARTITION (…)`"));
            }
            AlterAction::AddPartitions {
                if_not_exists,
                partitions,
            }
        } else if forms == DdlForms::Spark && self.eat_words(&["ADD", "PARTITION", "FIELD"]) {
            AlterAction::AddPartitionField(self.partition_field()?)
        } else if forms == DdlForms::Spark && self.eat_words(&["DROP", "PARTITION", "FIELD"]) {
            AlterAction::DropPartitionField(self.partition_field()?)
        } else if forms == DdlForms::Spark && self.eat_words(&["REPLACE", "PARTITION", "FIELD"]) {
            let old = self.partition_field()?;
            self.expect_word("WITH")?;
            AlterAction::ReplacePartitionField(old, self.partition_field()?)
        } else if forms != DdlForms::Hive && self.eat_words(&["ADD", "COLUMN"]) {
            AlterAction::AddColumn(self.column_def()?)
        } else if self.eat_words(&["DROP", "COLUMN"]) {
            AlterAction::DropColumn(self.ident()?)
        } else if forms == DdlForms::Hive && self.eat_word("CHANGE") {
            self.eat_word("COLUMN");
            let old = self.ident()?;
            let new = self.ident()?;
            let ty = self.data_type()?;
            let comment = if self.eat_word("COMMENT") {
                Some(self.string("the column's comment")?)
            } else {
                None
            };
            AlterAction::ChangeColumn {
                old,
                new,
                ty,
                comment,
            }
        } else if forms != DdlForms::Hive && self.eat_words(&["RENAME", "COLUMN"]) {
            let old = self.ident()?;
            self.expect_word("TO")?;
            let new = self.ident()?;
            AlterAction::RenameColumn { old, new }
        } else if self.eat_words(&["RENAME", "TO"]) {
            AlterAction::RenameTo(self.table_name()?)
        } else if forms == DdlForms::Spark && self.eat_word("ALTER") {
            self.eat_word("COLUMN");
            let column = self.ident()?;
            self.expect_word("TYPE")?;
            let ty = self.data_type()?;
            AlterAction::AlterColumnType { column, ty }
        } else if forms == DdlForms::Trino && self.eat_words(&["ALTER", "COLUMN"]) {
            let column = self.ident()?;
            self.expect_words(&["SET", "DATA", "TYPE"])?;
            let ty = self.data_type()?;
            AlterAction::AlterColumnType { column, ty }
        } else if forms != DdlForms::Trino && self.eat_words(&["SET", "TBLPROPERTIES"]) {
            AlterAction::SetTblProperties(self.string_pairs()?)
        } else if forms != DdlForms::Trino && self.eat_words(&["UNSET", "TBLPROPERTIES"]) {
            self.expect_symbol(Symbol::LParen, "(")?;
            let keys = self.comma_separated(|c| c.string("a property's name"))?;
            self.expect_symbol(Symbol::RParen, ")")?;
            AlterAction::UnsetTblProperties(keys)
        } else if forms == DdlForms::Trino && self.eat_words(&["SET", "PROPERTIES"]) {
            AlterAction::SetProperties(self.comma_separated(|c| {
                let name = c.ident()?;
                c.expect_symbol(Symbol::Eq, "=")?;
                let value = if c.eat_word("DEFAULT") {
                    None
                } else {
                    Some(c.expr()?)
                };
                Ok((name, value))
            })?)
        } else if forms == DdlForms::Trino && self.eat_word("EXECUTE") {
            let procedure = self.ident()?;
            let args = if self.eat_symbol(Symbol::LParen) {
                self.call_arguments()?
            } else {
                Vec::new()
            };
            let predicate = self.where_clause()?;
            AlterAction::Execute {
                procedure,
                args,
                predicate,
            }
        } else {
            return Err(self.expected(match forms {
                DdlForms::Hive => {
                    "`ADD COLUMNS`, `ADD PARTITION`, `DROP COLUMN`, `CHANGE COLUMN`, `RENAME TO`, \
                     `SET TBLPROPERTIES` or `UNSET TBLPROPERTIES`"
                }
                DdlForms::Trino => {
                    "`ADD COLUMN`, `DROP COLUMN`, `RENAME COLUMN`, `ALTER COLUMN`, `RENAME TO`, \
                     `SET PROPERTIES` or `EXECUTE`"
                }
                DdlForms::Spark => {
                    "`ADD COLUMN[S]`, `DROP COLUMN`, `RENAME COLUMN`, `ALTER COLUMN`, \
                     `ADD|DROP|REPLACE PARTITION FIELD`, `RENAME TO`, \
                     `SET TBLPROPERTIES` or `UNSET TBLPROPERTIES`"
                }
            }));
        };
        Ok(Statement::AlterTable { table, action })
    }

    /// After `SHOW TABLES`: `[IN db]`, then the pattern: Hive writes it bare, Trino after
    /// `LIKE` (with an optional `ESCAPE`), Spark either way.
    fn show_tables(&mut self) -> Result<Statement> {
        let forms = self.rules.ddl;
        let database = if self.eat_word("IN") || (forms != DdlForms::Hive && self.eat_word("FROM"))
        {
            Some(self.table_name()?)
        } else {
            None
        };
        let like = forms != DdlForms::Hive && self.eat_word("LIKE");
        let pattern = if like || (forms != DdlForms::Trino && self.is_string_next()) {
            Some(self.string("the pattern")?)
        } else {
            None
        };
        let escape = if like && forms == DdlForms::Trino && self.eat_word("ESCAPE") {
            Some(self.string("the escape character")?)
        } else {
            None
        };
        Ok(Statement::ShowTables {
            database,
            pattern,
            like,
            escape,
        })
    }

    /// Whether a `'…'` string is next.
    fn is_string_next(&self) -> bool {
        self.peek(0).is_some_and(|t| {
            matches!(
                t.kind,
                Kind::Str {
                    form: StrForm::Single,
                    ..
                }
            )
        })
    }

    /// A `'…'` string (`what` it is, for the error).
    pub(super) fn string(&mut self, what: &str) -> Result<Literal> {
        match self.peek(0).copied() {
            Some(t) if self.is_string_next() => {
                self.next();
                Ok(Literal {
                    value: LiteralValue::String {
                        form: StringForm::Single,
                        value: self.value(&t).into_owned(),
                    },
                    span: span(&t),
                })
            }
            _ => Err(self.expected(&format!("{what}, a `'…'` string"))),
        }
    }

    /// Takes the words `kws`, or fails naming the first.
    fn expect_words(&mut self, kws: &[&str]) -> Result<()> {
        for kw in kws {
            self.expect_word(kw)?;
        }
        Ok(())
    }
}

/// Whether `e` may be an argument of a partition transform: a column or a whole number.
fn is_transform_argument(e: &Expr) -> bool {
    match e {
        Expr::Name(n) => n.len() == 1,
        Expr::Literal(Literal {
            value: LiteralValue::Number { text, long: false },
            ..
        }) => text.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    }
}
