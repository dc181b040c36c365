//! Other engines' forms that our grammars refuse, each with the way out: one table,
//! [`FOREIGN_FORMS`], looked up wherever the cursor builds a syntax error
//! (`Cursor::error_at`, which `expected` and `refuse_at` go through). The error keeps its
//! kind, position and message; a form whose tokens stand at the failure point adds its
//! hint.
//!
//! A form matches when the statement starts with its `statement` tokens and the failing
//! token lies inside a run of tokens that spells its `form`: `ON CONFLICT` matches
//! whether the parse stopped at `ON` (Trino) or at `CONFLICT` (Spark, which took `ON`
//! for an alias). The failure must be inside the run, so a word that merely appears
//! elsewhere in the text (a column named `returning`) gives no hint, and a quoted word
//! never matches a keyword.
//!
//! The facts the hints state are those of Trino's `SqlBase.g4`, Spark's
//! `SqlBaseParser.g4` and AWS's pages on Athena's DDL; a hint in Trino's grammar holds
//! for Athena's DML, which is written in it.

use crate::dialect::Grammar;
use crate::validate::lexer::{Kind, Symbol, Token};

/// One token, or a run of them, of a form.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tok {
    /// This unquoted word, in any case.
    Word(&'static str),
    /// Any of these unquoted words.
    OneOf(&'static [&'static str]),
    /// This symbol.
    Sym(Symbol),
    /// Any of these symbols.
    Syms(&'static [Symbol]),
    /// A string literal.
    Str,
    /// A name, quoted or not, qualified or not (`db.t`).
    Name,
    /// A placeholder other than a bare `?`, starting with this text (`$1`, `?1`).
    Placeholder(&'static str),
    /// Any one token.
    Any,
    /// No token: what follows stands outside every parenthesis (the statement's own
    /// clause, not one of a subquery's).
    Outside,
}

/// Another engine's form, where our grammar refuses it, and how to write it instead.
#[derive(Debug)]
pub(crate) struct ForeignForm {
    /// The grammars in which the form is refused with this hint.
    pub(crate) grammars: &'static [Grammar],
    /// The tokens the statement starts with (none: any statement).
    pub(crate) statement: &'static [Tok],
    /// The tokens of the form; the failure must be at one of them.
    pub(crate) form: &'static [Tok],
    /// What the form is and what to write instead.
    pub(crate) hint: &'static str,
}

const HIVE: &[Grammar] = &[Grammar::HiveDdl];
const TRINO: &[Grammar] = &[Grammar::TrinoDml];
const SPARK: &[Grammar] = &[Grammar::Spark];
const QUERY_GRAMMARS: &[Grammar] = &[Grammar::TrinoDml, Grammar::Spark];
const HIVE_AND_SPARK: &[Grammar] = &[Grammar::HiveDdl, Grammar::Spark];
const EVERY_GRAMMAR: &[Grammar] = &[Grammar::HiveDdl, Grammar::TrinoDml, Grammar::Spark];

const ANY_STATEMENT: &[Tok] = &[];
const DML: &[Tok] = &[Tok::OneOf(&["INSERT", "UPDATE", "DELETE", "MERGE"])];
const ALTER_TABLE: &[Tok] = &[Tok::Word("ALTER"), Tok::Word("TABLE")];
const CREATE: &[Tok] = &[Tok::Word("CREATE")];
const SHOW_TABLES: &[Tok] = &[Tok::Word("SHOW"), Tok::Word("TABLES")];
/// Where a `:name` or `@name` parameter stands: after an operator, `(` or `,`.
const BEFORE_A_VALUE: &[Symbol] = &[
    Symbol::Eq,
    Symbol::Neq,
    Symbol::Lt,
    Symbol::LtEq,
    Symbol::Gt,
    Symbol::GtEq,
    Symbol::LParen,
    Symbol::Comma,
];

use Tok::{Any, Name, OneOf, Outside, Placeholder, Str, Sym, Syms, Word};

/// Other engines' forms, by the grammars that refuse them. The first that matches
/// gives its hint.
pub(crate) const FOREIGN_FORMS: &[ForeignForm] = &[
    // PostgreSQL, SQL Server, MySQL, Snowflake and BigQuery in queries and DML.
    ForeignForm {
        grammars: QUERY_GRAMMARS,
        statement: DML,
        form: &[Outside, Word("RETURNING"), Any],
        hint: "`RETURNING` is PostgreSQL's: Trino's and Spark's INSERT, UPDATE, DELETE and \
               MERGE do not return the rows they write; read them back with a SELECT",
    },
    ForeignForm {
        grammars: QUERY_GRAMMARS,
        statement: &[Word("INSERT")],
        form: &[Outside, Word("ON"), Word("CONFLICT")],
        hint: "`ON CONFLICT` is PostgreSQL's upsert: write it as `MERGE INTO t USING s ON … \
               WHEN MATCHED THEN UPDATE SET … WHEN NOT MATCHED THEN INSERT …`",
    },
    ForeignForm {
        grammars: QUERY_GRAMMARS,
        statement: &[Word("INSERT")],
        form: &[Outside, Word("ON"), Word("DUPLICATE"), Word("KEY")],
        hint: "`ON DUPLICATE KEY UPDATE` is MySQL's upsert: write it as `MERGE INTO t USING s \
               ON … WHEN MATCHED THEN UPDATE SET … WHEN NOT MATCHED THEN INSERT …`",
    },
    ForeignForm {
        grammars: QUERY_GRAMMARS,
        statement: ANY_STATEMENT,
        form: &[Word("SELECT"), Word("TOP")],
        hint: "`SELECT TOP n` is SQL Server's: write `LIMIT n` at the end of the query",
    },
    ForeignForm {
        grammars: QUERY_GRAMMARS,
        statement: ANY_STATEMENT,
        form: &[Word("DISTINCT"), Word("ON")],
        hint: "`DISTINCT ON (…)` is PostgreSQL's: number the rows with `row_number() OVER \
               (PARTITION BY … ORDER BY …)` in a subquery and keep those numbered 1",
    },
    ForeignForm {
        grammars: EVERY_GRAMMAR,
        statement: ANY_STATEMENT,
        form: &[Sym(Symbol::DoubleColon)],
        hint: "`x::type` is PostgreSQL's cast, which this validator does not read: write \
               `CAST(x AS type)`",
    },
    ForeignForm {
        grammars: QUERY_GRAMMARS,
        statement: ANY_STATEMENT,
        form: &[Word("QUALIFY"), Any],
        hint: "`QUALIFY` (Snowflake's, BigQuery's) is in neither Trino's nor Spark's grammar: \
               compute the window function in a subquery and filter on its column in the \
               outer query's WHERE",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ANY_STATEMENT,
        form: &[Word("LIMIT"), Any, Sym(Symbol::Comma)],
        hint: "`LIMIT skip, count` is MySQL's: Trino writes `OFFSET skip LIMIT count`",
    },
    ForeignForm {
        grammars: SPARK,
        statement: ANY_STATEMENT,
        form: &[Word("LIMIT"), Any, Sym(Symbol::Comma)],
        hint: "`LIMIT skip, count` is MySQL's: Spark writes `LIMIT count OFFSET skip`",
    },
    ForeignForm {
        grammars: QUERY_GRAMMARS,
        statement: &[Word("DELETE")],
        form: &[Outside, Word("USING")],
        hint: "`DELETE … USING` is PostgreSQL's: Trino's and Spark's DELETE name one table; \
               match another's rows with a subquery in WHERE (`WHERE EXISTS (SELECT 1 FROM s \
               WHERE …)`) or with `MERGE INTO t USING s ON … WHEN MATCHED THEN DELETE`",
    },
    ForeignForm {
        grammars: QUERY_GRAMMARS,
        statement: &[Word("UPDATE")],
        form: &[Outside, Word("FROM")],
        hint: "`UPDATE … FROM` is PostgreSQL's and SQL Server's: Trino's and Spark's UPDATE \
               name one table; update from another with `MERGE INTO t USING s ON … WHEN \
               MATCHED THEN UPDATE SET …`",
    },
    // Parameters: the validator counts `?`s.
    ForeignForm {
        grammars: EVERY_GRAMMAR,
        statement: ANY_STATEMENT,
        form: &[Placeholder("$")],
        hint: "`$1` parameters are PostgreSQL's: write `?` for each value, in order",
    },
    ForeignForm {
        grammars: EVERY_GRAMMAR,
        statement: ANY_STATEMENT,
        form: &[Placeholder("?")],
        hint: "a numbered `?1` parameter is SQLite's: write a bare `?` for each value, in order",
    },
    ForeignForm {
        grammars: EVERY_GRAMMAR,
        statement: ANY_STATEMENT,
        form: &[Syms(BEFORE_A_VALUE), Sym(Symbol::Colon), Name],
        hint: "this validator reads no named `:name` parameters: write `?` for each value, in \
               order",
    },
    ForeignForm {
        grammars: EVERY_GRAMMAR,
        statement: ANY_STATEMENT,
        form: &[Syms(BEFORE_A_VALUE), Sym(Symbol::AtSign), Name],
        hint: "`@name` parameters are SQL Server's: write `?` for each value, in order",
    },
    // Spark's and Hive's forms in Trino's grammar.
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("INSERT")],
        form: &[Word("INSERT"), Word("OVERWRITE")],
        hint: "`INSERT OVERWRITE` is Spark's and Hive's: Trino's grammar has `INSERT INTO` \
               only; delete the rows it replaces first, or write a MERGE",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("INSERT")],
        form: &[Word("INSERT"), Word("INTO"), Word("TABLE")],
        hint: "`INSERT INTO TABLE t` is Spark's and Hive's: Trino writes `INSERT INTO t`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("MERGE")],
        form: &[Word("NOT"), Word("MATCHED"), Word("BY"), Word("SOURCE")],
        hint: "`WHEN NOT MATCHED BY SOURCE` is Spark's and SQL Server's: Trino's MERGE has no \
               clause for target rows that match no source row; delete them with a separate \
               `DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM s WHERE …)`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("MERGE")],
        form: &[Word("NOT"), Word("MATCHED"), Word("BY"), Word("TARGET")],
        hint: "`WHEN NOT MATCHED BY TARGET` is Spark's long form of `WHEN NOT MATCHED`, which \
               Trino writes without `BY TARGET`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("MERGE")],
        form: &[Word("UPDATE"), Word("SET"), Sym(Symbol::Mul)],
        hint: "`UPDATE SET *` is Spark's: Trino names each column, `UPDATE SET a = s.a, b = s.b`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("MERGE")],
        form: &[Word("INSERT"), Sym(Symbol::Mul)],
        hint: "`INSERT *` is Spark's: Trino lists the columns and their values, `INSERT (a, b) \
               VALUES (s.a, s.b)`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ANY_STATEMENT,
        form: &[Word("SORT"), Word("BY")],
        hint: "`SORT BY` is Spark's and Hive's: Trino orders the result with `ORDER BY`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ANY_STATEMENT,
        form: &[OneOf(&["DISTRIBUTE", "CLUSTER"]), Word("BY")],
        hint: "`DISTRIBUTE BY` and `CLUSTER BY` are Spark's and Hive's: Trino's queries have \
               no clause that places rows; leave it out (`ORDER BY` orders the result)",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ANY_STATEMENT,
        form: &[Word("DIV")],
        hint: "`DIV` is Spark's and MySQL's integer division: Trino's `/` divides integers \
               without a remainder (`7 / 2` is 3)",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ANY_STATEMENT,
        form: &[OneOf(&["RLIKE", "REGEXP"]), Any],
        hint: "`RLIKE` and `REGEXP` are Spark's and Hive's: Trino writes `regexp_like(x, \
               'pattern')`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ANY_STATEMENT,
        form: &[Word("ILIKE"), Any],
        hint: "`ILIKE` is PostgreSQL's and Spark's: Trino writes `lower(x) LIKE \
               lower('pattern')`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[OneOf(&["OPTIMIZE", "VACUUM"])],
        form: &[OneOf(&["OPTIMIZE", "VACUUM"])],
        hint: "`OPTIMIZE` and `VACUUM` are Athena's statements: Trino compacts with `ALTER \
               TABLE t EXECUTE optimize` and expires snapshots with `ALTER TABLE t EXECUTE \
               expire_snapshots(retention_threshold => '7d')`",
    },
    // Other engines' DDL in Trino's grammar.
    ForeignForm {
        grammars: TRINO,
        statement: CREATE,
        form: &[Word("CREATE"), Word("DATABASE")],
        hint: "Trino calls a database a schema: write `CREATE SCHEMA [IF NOT EXISTS] s`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("DROP")],
        form: &[Word("DROP"), Word("DATABASE")],
        hint: "Trino calls a database a schema: write `DROP SCHEMA [IF EXISTS] s [CASCADE]`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("SHOW")],
        form: &[Word("SHOW"), Word("DATABASES")],
        hint: "Trino calls a database a schema: write `SHOW SCHEMAS`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("DROP"), Word("TABLE")],
        form: &[Word("PURGE")],
        hint: "`PURGE` is Spark's: Trino's DROP TABLE takes none; write `DROP TABLE [IF EXISTS] \
               t`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[Word("DROP"), Word("VIEW")],
        form: &[OneOf(&["CASCADE", "RESTRICT"])],
        hint: "Trino's DROP VIEW takes no `CASCADE` or `RESTRICT`: write `DROP VIEW [IF EXISTS] \
               v`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: CREATE,
        form: &[Word("VIEW"), Word("IF"), Word("NOT"), Word("EXISTS")],
        hint: "Trino's CREATE VIEW takes no `IF NOT EXISTS`: write `CREATE OR REPLACE VIEW v AS \
               …`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: CREATE,
        form: &[Word("VIEW"), Name, Sym(Symbol::LParen)],
        hint: "Trino's CREATE VIEW takes no column list: name the columns in the query \
               (`SELECT a AS x, …`)",
    },
    ForeignForm {
        grammars: TRINO,
        statement: CREATE,
        form: &[Outside, Word("USING"), Name],
        hint: "Trino's CREATE TABLE names no format provider: the catalog's connector makes \
               the table, and `WITH (format = 'PARQUET')` sets its file format",
    },
    ForeignForm {
        grammars: TRINO,
        statement: CREATE,
        form: &[Outside, Word("PARTITIONED"), Word("BY")],
        hint: "Trino's Iceberg connector partitions a table with `WITH (partitioning = \
               ARRAY['col', 'day(ts)'])`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: CREATE,
        form: &[Outside, Word("TBLPROPERTIES")],
        hint: "`TBLPROPERTIES` is Hive's and Spark's: Trino writes table properties as `WITH \
               (name = value, …)`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: CREATE,
        form: &[Outside, Word("LOCATION"), Str],
        hint: "Trino's Iceberg connector takes a table's location as `WITH (location = \
               's3://…')`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: &[OneOf(&["CREATE", "ALTER"])],
        form: &[Str, Sym(Symbol::Eq)],
        hint: "Trino's property names are names, not strings: `WITH (format = 'PARQUET')`, \
               `SET PROPERTIES format = 'PARQUET'`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: SHOW_TABLES,
        form: &[OneOf(&["IN", "FROM"]), Name, Str],
        hint: "Trino takes the pattern after `LIKE`, `SHOW TABLES IN db LIKE 'mcp%'`: a LIKE \
               pattern, where `%` and `_` are the wildcards",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ALTER_TABLE,
        form: &[Word("SET"), Word("TBLPROPERTIES")],
        hint: "`SET TBLPROPERTIES` is Hive's and Spark's: Trino writes `SET PROPERTIES name = \
               value`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ALTER_TABLE,
        form: &[Word("UNSET"), Word("TBLPROPERTIES")],
        hint: "`UNSET TBLPROPERTIES` is Hive's and Spark's: Trino resets a property with `SET \
               PROPERTIES name = DEFAULT`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ALTER_TABLE,
        form: &[Word("CHANGE")],
        hint: "`CHANGE COLUMN` is Hive's: Trino renames a column with `RENAME COLUMN a TO b` \
               and changes its type with `ALTER COLUMN c SET DATA TYPE t`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ALTER_TABLE,
        form: &[Word("ADD"), Word("COLUMNS")],
        hint: "`ADD COLUMNS (…)` is Hive's and Spark's: Trino adds one column per statement, \
               `ADD COLUMN c type`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ALTER_TABLE,
        form: &[Word("ALTER"), Word("COLUMN"), Name, Word("TYPE")],
        hint: "Trino changes a column's type with `ALTER COLUMN c SET DATA TYPE t`",
    },
    ForeignForm {
        grammars: TRINO,
        statement: ALTER_TABLE,
        form: &[
            OneOf(&["ADD", "DROP", "REPLACE"]),
            Word("PARTITION"),
            Word("FIELD"),
        ],
        hint: "`ADD|DROP|REPLACE PARTITION FIELD` is Spark's: Trino's Iceberg connector \
               changes a table's partitioning with `SET PROPERTIES partitioning = \
               ARRAY['col', 'day(ts)']`",
    },
    // Trino's forms, and Athena's, in Spark's grammar.
    ForeignForm {
        grammars: SPARK,
        statement: ANY_STATEMENT,
        form: &[Word("FETCH"), OneOf(&["FIRST", "NEXT"])],
        hint: "`FETCH FIRST n ROWS ONLY` is Trino's (and the SQL standard's): Spark writes \
               `LIMIT n`",
    },
    ForeignForm {
        grammars: SPARK,
        statement: &[OneOf(&["OPTIMIZE", "VACUUM"])],
        form: &[OneOf(&["OPTIMIZE", "VACUUM"])],
        hint: "`OPTIMIZE` and `VACUUM` are Athena's statements: Spark runs Iceberg's \
               procedures, `CALL catalog.system.rewrite_data_files(table => 'db.t')` and \
               `CALL catalog.system.expire_snapshots(table => 'db.t')`",
    },
    ForeignForm {
        grammars: SPARK,
        statement: &[Word("UNLOAD")],
        form: &[Word("UNLOAD")],
        hint: "`UNLOAD` is Athena's: Spark writes a query's rows to files with `INSERT \
               OVERWRITE DIRECTORY 's3://…' USING parquet SELECT …`",
    },
    ForeignForm {
        grammars: SPARK,
        statement: CREATE,
        form: &[Word("WITH"), Sym(Symbol::LParen)],
        hint: "`WITH (…)` table properties are Trino's: Spark writes `TBLPROPERTIES ('name' = \
               'value', …)`",
    },
    ForeignForm {
        grammars: SPARK,
        statement: ALTER_TABLE,
        form: &[Word("SET"), Word("PROPERTIES")],
        hint: "`SET PROPERTIES` is Trino's: Spark writes `SET TBLPROPERTIES ('name' = \
               'value')`",
    },
    ForeignForm {
        grammars: SPARK,
        statement: ALTER_TABLE,
        form: &[Word("SET"), Word("DATA"), Word("TYPE")],
        hint: "`SET DATA TYPE` is Trino's: Spark writes `ALTER COLUMN c TYPE t`",
    },
    ForeignForm {
        grammars: SPARK,
        statement: ALTER_TABLE,
        form: &[Word("EXECUTE")],
        hint: "`ALTER TABLE … EXECUTE` is Trino's: Spark runs Iceberg's procedures, `CALL \
               catalog.system.rewrite_data_files(table => 'db.t')`",
    },
    // Compound types in parentheses (Trino's) where they take angle brackets.
    ForeignForm {
        grammars: HIVE_AND_SPARK,
        statement: ANY_STATEMENT,
        form: &[OneOf(&["ARRAY", "MAP"]), Sym(Symbol::LParen), Name],
        hint: "`array(T)` and `map(K, V)` are Trino's spelling: Hive's and Spark's types take \
               angle brackets, `array<int>`, `map<string, int>`, `struct<a: int>`",
    },
    // Forms Athena's Hive DDL lacks.
    ForeignForm {
        grammars: HIVE,
        statement: ALTER_TABLE,
        form: &[Word("RENAME"), Word("COLUMN")],
        hint: "Athena's DDL has no `RENAME COLUMN`: rename with `ALTER TABLE t CHANGE COLUMN \
               old_name new_name type`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: ALTER_TABLE,
        form: &[Word("ALTER"), Word("COLUMN")],
        hint: "Athena's DDL has no `ALTER COLUMN`: change a column's type with `ALTER TABLE t \
               CHANGE COLUMN c c new_type`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: ALTER_TABLE,
        form: &[Word("ADD"), Word("COLUMN")],
        hint: "Athena's DDL adds columns with `ADD COLUMNS (c type, …)`: `COLUMNS`, plural, \
               and the list in parentheses",
    },
    ForeignForm {
        grammars: HIVE,
        statement: ALTER_TABLE,
        form: &[
            OneOf(&["ADD", "DROP", "REPLACE"]),
            Word("PARTITION"),
            Word("FIELD"),
        ],
        hint: "Athena's DDL has no partition evolution (`ADD|DROP|REPLACE PARTITION FIELD` is \
               an Iceberg extension of Spark SQL): run it in Spark, or recreate the table with \
               the new `PARTITIONED BY`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: ALTER_TABLE,
        form: &[Word("REPLACE"), Word("COLUMNS")],
        hint: "Athena takes no `REPLACE COLUMNS` on an Iceberg table: change the columns one \
               at a time with `ADD COLUMNS`, `DROP COLUMN` and `CHANGE COLUMN`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: ALTER_TABLE,
        form: &[Word("SET"), Word("PROPERTIES")],
        hint: "`SET PROPERTIES` is Trino's: Athena's DDL writes `SET TBLPROPERTIES ('name' = \
               'value')`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: &[Word("VACUUM")],
        form: &[Word("RETAIN")],
        hint: "Athena's VACUUM takes no options: it expires snapshots by the table properties \
               `vacuum_max_snapshot_age_seconds` and `vacuum_min_snapshots_to_keep`; set them \
               with `ALTER TABLE t SET TBLPROPERTIES (…)`, then run `VACUUM t`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: &[Word("CREATE"), OneOf(&["DATABASE", "SCHEMA"])],
        form: &[Word("LOCATION"), Str, Word("COMMENT")],
        hint: "Athena's CREATE DATABASE takes `COMMENT '…'` before `LOCATION '…'`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: CREATE,
        form: &[Word("OR"), Word("REPLACE"), Word("TABLE")],
        hint: "Athena's DDL has no `CREATE OR REPLACE TABLE`: drop the table first (`DROP \
               TABLE IF EXISTS t`), then create it",
    },
    ForeignForm {
        grammars: HIVE,
        statement: CREATE,
        form: &[Word("NOT"), Word("NULL")],
        hint: "Athena's CREATE TABLE declares no column constraints: leave out `NOT NULL`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: SHOW_TABLES,
        form: &[Word("LIKE")],
        hint: "Athena's SHOW TABLES takes the pattern as a bare string, without `LIKE`: `SHOW \
               TABLES IN db 'mcp_*'`",
    },
    ForeignForm {
        grammars: HIVE,
        statement: SHOW_TABLES,
        form: &[Word("FROM")],
        hint: "Athena writes `SHOW TABLES IN db`",
    },
];

/// The hint of the first form of [`FOREIGN_FORMS`] in `grammar` whose tokens stand at
/// `at`, the index in `tokens` (of `sql`) of the token the parse failed at
/// (`tokens.len()`: the end of the text, where no form stands).
pub(crate) fn hint(
    sql: &str,
    tokens: &[Token],
    at: usize,
    grammar: Grammar,
) -> Option<&'static str> {
    find(sql, tokens, at, grammar).map(|f| f.hint)
}

/// The form of [`FOREIGN_FORMS`] whose hint [`hint`] gives.
pub(crate) fn find(
    sql: &str,
    tokens: &[Token],
    at: usize,
    grammar: Grammar,
) -> Option<&'static ForeignForm> {
    if at >= tokens.len() {
        return None;
    }
    FOREIGN_FORMS.iter().find(|f| {
        f.grammars.contains(&grammar)
            && spells(sql, tokens, 0, f.statement).is_some()
            && stands_at(sql, tokens, at, f.form)
    })
}

/// How many tokens a [`Tok::Name`] may take: `catalog.db.t`, each part a token and each
/// `.` one.
const NAME_TOKENS: usize = 5;

/// Whether a run of tokens that spells `form` holds token `at`.
fn stands_at(sql: &str, tokens: &[Token], at: usize, form: &[Tok]) -> bool {
    let longest: usize = form
        .iter()
        .map(|t| if matches!(t, Name) { NAME_TOKENS } else { 1 })
        .sum();
    (at.saturating_sub(longest.saturating_sub(1))..=at)
        .any(|start| spells(sql, tokens, start, form).is_some_and(|end| end > at))
}

/// Where a run of tokens from `start` that spells `form` ends (exclusive), if one does.
fn spells(sql: &str, tokens: &[Token], start: usize, form: &[Tok]) -> Option<usize> {
    form.iter()
        .try_fold(start, |i, t| t.spelled(sql, tokens, i))
}

impl Tok {
    /// Where the run of tokens from `i` that this spells ends, if one does.
    fn spelled(&self, sql: &str, tokens: &[Token], i: usize) -> Option<usize> {
        let t = tokens.get(i)?;
        let keyword = |w: &str| {
            matches!(t.kind, Kind::Word { quote: None, .. }) && t.text(sql).eq_ignore_ascii_case(w)
        };
        let one = match *self {
            Word(w) => keyword(w),
            OneOf(ws) => ws.iter().any(|w| keyword(w)),
            Sym(s) => t.kind == Kind::Symbol(s),
            Syms(ss) => ss.iter().any(|&s| t.kind == Kind::Symbol(s)),
            Str => matches!(t.kind, Kind::Str { .. }),
            Placeholder(prefix) => {
                t.kind == Kind::Placeholder && t.text(sql).starts_with(prefix) && t.text(sql) != "?"
            }
            Any => true,
            Name => return name_end(tokens, i),
            Outside => return outside_parentheses(tokens, i).then_some(i),
        };
        one.then_some(i + 1)
    }
}

/// Whether token `i` stands outside every parenthesis.
fn outside_parentheses(tokens: &[Token], i: usize) -> bool {
    let depth = tokens[..i.min(tokens.len())]
        .iter()
        .fold(0i64, |depth, t| match t.kind {
            Kind::Symbol(Symbol::LParen) => depth + 1,
            Kind::Symbol(Symbol::RParen) => depth - 1,
            _ => depth,
        });
    depth == 0
}

/// Where the name from `i` ends (`db . t`), if a word is there.
fn name_end(tokens: &[Token], i: usize) -> Option<usize> {
    let is_word = |j: usize| {
        tokens
            .get(j)
            .is_some_and(|t| matches!(t.kind, Kind::Word { .. }))
    };
    let is_period = |j: usize| {
        tokens
            .get(j)
            .is_some_and(|t| t.kind == Kind::Symbol(Symbol::Period))
    };
    if !is_word(i) {
        return None;
    }
    let mut end = i + 1;
    while is_period(end) && is_word(end + 1) {
        end += 2;
    }
    Some(end)
}
