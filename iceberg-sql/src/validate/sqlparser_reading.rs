//! A second reading of every statement the builders return, by sqlparser (feature
//! `sqlparser`): its own tokenizer and parser, in the stock dialect closest to the
//! statement's [`Grammar`], after our validator has passed the text.
//!
//! | Grammar | sqlparser dialect | why this one |
//! |---|---|---|
//! | Trino (Athena DML, Trino) | [`GenericDialect`] | double-quoted names and `''` in strings as Trino writes them; of the stock dialects it reads the most of the validator's accepted corpus after Hive's (which quotes names with backticks, not Trino's double quotes), and unlike `AnsiDialect` it reads `FILTER (WHERE …)`, `GROUPING SETS` and `CREATE TABLE … WITH (…) AS SELECT` |
//! | Hive (Athena DDL) | [`HiveDialect`] | Athena's DDL is Hive's grammar (<https://docs.aws.amazon.com/athena/latest/ug/ddl-reference.html>) |
//! | Spark | [`DatabricksDialect`] | Spark's lexical rules: backslash escapes inside strings (<https://spark.apache.org/docs/3.5.0/sql-ref-literals.html>), which `SparkSqlDialect` does not read, and `struct<…>` / `array<…>` types |
//!
//! A text sqlparser refuses is refused ([`ErrorKind::Syntax`], naming sqlparser, its
//! message and the statement), unless the text holds one of [`SQLPARSER_GAPS`]: forms
//! the engines read that sqlparser's stock dialects do not, which pass through with the
//! reason listed there.

use sqlparser::dialect::{
    DatabricksDialect, Dialect as SqlparserDialect, GenericDialect, HiveDialect,
};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, Tokenizer};

use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result, SqlLocation};
use crate::statement::StatementKind;

/// sqlparser's nesting limit here: our validator's (the text has passed it).
const RECURSION_LIMIT: usize = super::RECURSION_LIMIT + 8;

/// Text longer than this, or with more brackets, is read on a big stack: sqlparser
/// recurses once per nesting level and builds `a OR b OR …` chains as deep trees.
const SMALL_TEXT_BYTES: usize = 4096;
const SMALL_TEXT_BRACKETS: usize = 24;

/// A form the engine reads and sqlparser's stock dialect refuses: a text sqlparser
/// refuses that holds it is passed through (the statement keeps our validator's
/// verdict).
#[derive(Debug)]
pub struct SqlparserGap {
    /// The grammars whose statements can hold the form.
    pub grammars: &'static [Grammar],
    /// The form, as the engine writes it.
    pub form: &'static str,
    /// Why sqlparser refuses it, and where the engine documents it.
    pub reason: &'static str,
    /// Whether the form starts around token `at` of `tokens` (sqlparser's, white space
    /// dropped).
    matches: fn(&Around<'_>) -> bool,
}

/// A position in a statement's tokens.
pub(crate) struct Around<'a> {
    tokens: &'a [Token],
    at: usize,
}

impl Around<'_> {
    /// The keyword `offset` tokens from the position (negative: before it).
    fn word(&self, offset: isize) -> Option<Keyword> {
        let i = self.at.checked_add_signed(offset)?;
        match self.tokens.get(i)? {
            Token::Word(w) if w.quote_style.is_none() => Some(w.keyword),
            _ => None,
        }
    }

    /// Whether the token `offset` from the position is the unquoted word `w`.
    fn is_word(&self, offset: isize, w: &str) -> bool {
        self.at
            .checked_add_signed(offset)
            .and_then(|i| self.tokens.get(i))
            .is_some_and(|t| matches!(t, Token::Word(x) if x.quote_style.is_none() && x.value.eq_ignore_ascii_case(w)))
    }

    /// Whether the token `offset` from the position is `t`.
    fn is(&self, offset: isize, t: &Token) -> bool {
        self.at
            .checked_add_signed(offset)
            .and_then(|i| self.tokens.get(i))
            .is_some_and(|x| x == t)
    }

    /// Whether any token of the statement is the keyword `k`.
    fn has(&self, k: Keyword) -> bool {
        self.tokens
            .iter()
            .any(|t| matches!(t, Token::Word(w) if w.keyword == k && w.quote_style.is_none()))
    }
}

const TRINO: &[Grammar] = &[Grammar::TrinoDml];
const HIVE: &[Grammar] = &[Grammar::HiveDdl];
const SPARK: &[Grammar] = &[Grammar::Spark];
const HIVE_SPARK: &[Grammar] = &[Grammar::HiveDdl, Grammar::Spark];
const ALL: &[Grammar] = &[Grammar::TrinoDml, Grammar::HiveDdl, Grammar::Spark];

/// The forms sqlparser 0.64's stock dialects cannot read that our targets write, each
/// with its reason. A text sqlparser refuses that holds one of them passes through.
pub const SQLPARSER_GAPS: &[SqlparserGap] = &[
    SqlparserGap {
        grammars: ALL,
        form: "FOR TIMESTAMP AS OF … / FOR VERSION AS OF … (time travel)",
        reason: "sqlparser reads FOR after a table as a locking clause (FOR UPDATE / FOR SHARE); \
                 Trino, Athena and Spark read time travel there \
                 (https://trino.io/docs/current/connector/iceberg.html#time-travel-queries)",
        matches: |a| {
            a.word(-1) == Some(Keyword::FOR)
                && matches!(a.word(0), Some(Keyword::TIMESTAMP | Keyword::VERSION | Keyword::SYSTEM_TIME))
        },
    },
    SqlparserGap {
        grammars: TRINO,
        form: "array(T), map(K, V), row(name T, …) type names",
        reason: "sqlparser reads ARRAY<T> / MAP<K, V> / STRUCT<…> and refuses Trino's bracketed \
                 type constructors (https://trino.io/docs/current/language/types.html#structural)",
        matches: |a| {
            a.is(0, &Token::LParen)
                && matches!(a.word(-1), Some(Keyword::ARRAY | Keyword::MAP | Keyword::ROW))
        },
    },
    SqlparserGap {
        grammars: TRINO,
        form: "a column named view or returning, unquoted",
        reason: "sqlparser's GenericDialect reserves VIEW and RETURNING where a column name \
                 stands; Trino's grammar lists both as non-reserved words, read as identifiers \
                 (nonReserved in core/trino-grammar/src/main/antlr4/io/trino/grammar/sql/SqlBase.g4)",
        matches: |a| {
            matches!(a.word(0), Some(Keyword::VIEW | Keyword::RETURNING)) && !a.has(Keyword::CREATE)
        },
    },
    SqlparserGap {
        grammars: TRINO,
        form: "ALTER TABLE … EXECUTE optimize / expire_snapshots (Trino's table procedures)",
        reason: "sqlparser has no ALTER TABLE … EXECUTE \
                 (https://trino.io/docs/current/connector/iceberg.html#table-procedures)",
        matches: |a| a.word(0) == Some(Keyword::EXECUTE) && a.has(Keyword::ALTER),
    },
    SqlparserGap {
        grammars: TRINO,
        form: "ALTER TABLE … SET PROPERTIES …",
        reason: "sqlparser reads SET TBLPROPERTIES / SET OPTIONS, not Trino's SET PROPERTIES \
                 (https://trino.io/docs/current/sql/alter-table.html)",
        matches: |a| a.word(-1) == Some(Keyword::SET) && a.is_word(0, "PROPERTIES"),
    },
    SqlparserGap {
        grammars: TRINO,
        form: "CREATE TABLE (…) … WITH (…) table properties",
        reason: "sqlparser's GenericDialect reads WITH (…) only before AS SELECT, not after the \
                 column list (https://trino.io/docs/current/sql/create-table.html)",
        matches: |a| a.word(0) == Some(Keyword::WITH) && a.has(Keyword::CREATE),
    },
    SqlparserGap {
        grammars: TRINO,
        form: "SHOW TABLES … LIKE '…' ESCAPE '…'",
        reason: "sqlparser's SHOW TABLES takes LIKE without ESCAPE \
                 (https://trino.io/docs/current/sql/show-tables.html)",
        matches: |a| a.word(0) == Some(Keyword::ESCAPE) && a.has(Keyword::SHOW),
    },
    SqlparserGap {
        grammars: TRINO,
        form: "a name sqlparser reserves and Trino does not (`limit.t`, `local.t`)",
        reason: "sqlparser reads LIMIT and LOCAL as keywords where a table name goes; both are \
                 nonReserved words of Trino's grammar (SqlBase.g4 in trinodb/trino)",
        matches: |a| {
            matches!(a.word(0), Some(Keyword::LIMIT | Keyword::LOCAL)) && a.is(1, &Token::Period)
        },
    },
    SqlparserGap {
        grammars: HIVE,
        form: "struct<name:T, …> column types",
        reason: "sqlparser's HiveDialect reads no STRUCT<…> type \
                 (https://docs.aws.amazon.com/athena/latest/ug/data-types.html)",
        matches: |a| a.word(0) == Some(Keyword::STRUCT) && a.is(1, &Token::Lt),
    },
    SqlparserGap {
        grammars: HIVE,
        form: "PARTITIONED BY (day(ts), bucket(16, id), …): Iceberg partition transforms",
        reason: "sqlparser's HiveDialect reads PARTITIONED BY as column definitions \
                 (https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-creating-tables.html)",
        matches: |a| a.word(0) == Some(Keyword::PARTITIONED) && a.has(Keyword::CREATE),
    },
    SqlparserGap {
        grammars: HIVE,
        form: "ALTER TABLE … ADD PARTITION (…) LOCATION '…' PARTITION (…): a location before the last partition",
        reason: "sqlparser's HiveDialect reads LOCATION only after the last partition; Athena \
                 gives each partition its own LOCATION \
                 (https://docs.aws.amazon.com/athena/latest/ug/alter-table-add-partition.html)",
        matches: |a| {
            a.word(0) == Some(Keyword::PARTITION)
                && a.word(-2) == Some(Keyword::LOCATION)
                && a.has(Keyword::ALTER)
        },
    },
    SqlparserGap {
        grammars: HIVE,
        form: "OPTIMIZE … REWRITE DATA USING BIN_PACK",
        reason: "sqlparser has no Athena OPTIMIZE \
                 (https://docs.aws.amazon.com/athena/latest/ug/optimize-statement.html)",
        matches: |a| a.at == 0 && a.word(0) == Some(Keyword::OPTIMIZE),
    },
    SqlparserGap {
        grammars: HIVE_SPARK,
        form: "ALTER TABLE … ADD COLUMNS (…)",
        reason: "sqlparser reads ADD [COLUMN] one column, not Hive's and Spark's ADD COLUMNS list \
                 (https://docs.aws.amazon.com/athena/latest/ug/alter-table-add-columns.html)",
        matches: |a| a.is(0, &Token::LParen) && a.word(-1) == Some(Keyword::COLUMNS),
    },
    SqlparserGap {
        grammars: HIVE_SPARK,
        form: "ALTER TABLE … UNSET TBLPROPERTIES (…)",
        reason: "sqlparser has no UNSET TBLPROPERTIES \
                 (https://spark.apache.org/docs/3.5.0/sql-ref-syntax-ddl-alter-table.html)",
        matches: |a| a.word(0) == Some(Keyword::UNSET),
    },
    SqlparserGap {
        grammars: HIVE_SPARK,
        form: "CREATE DATABASE … COMMENT '…' / LOCATION '…'",
        reason: "sqlparser's CREATE DATABASE takes neither COMMENT nor (in these dialects) \
                 LOCATION (https://docs.aws.amazon.com/athena/latest/ug/create-database.html)",
        matches: |a| {
            matches!(a.word(0), Some(Keyword::COMMENT | Keyword::LOCATION)) && a.has(Keyword::DATABASE)
        },
    },
    SqlparserGap {
        grammars: SPARK,
        form: "ALTER TABLE … ADD / DROP / REPLACE PARTITION FIELD … (partition evolution)",
        reason: "sqlparser reads PARTITION after ADD / DROP as a Hive partition spec; the \
                 PARTITION FIELD forms are Iceberg's Spark SQL extensions \
                 (https://iceberg.apache.org/docs/latest/spark-ddl/#alter-table-add-partition-field)",
        matches: |a| {
            matches!(a.word(-2), Some(Keyword::ADD | Keyword::DROP | Keyword::REPLACE))
                && a.word(-1) == Some(Keyword::PARTITION)
                && a.is_word(0, "FIELD")
        },
    },
    SqlparserGap {
        grammars: SPARK,
        form: "CREATE TABLE … USING iceberg … (Spark's data source tables)",
        reason: "sqlparser's DatabricksDialect reads CREATE TABLE without USING \
                 (https://spark.apache.org/docs/3.5.0/sql-ref-syntax-ddl-create-table-datasource.html)",
        matches: |a| a.word(0) == Some(Keyword::USING) && a.has(Keyword::CREATE) && a.has(Keyword::TABLE),
    },
    SqlparserGap {
        grammars: SPARK,
        form: "CREATE TEMPORARY VIEW name (columns) USING parquet OPTIONS (…)",
        reason: "sqlparser reads a view's column list as names without types, and no USING \
                 (https://spark.apache.org/docs/3.5.0/sql-ref-syntax-ddl-create-view.html)",
        matches: |a| a.has(Keyword::TEMPORARY) && a.has(Keyword::VIEW) && a.has(Keyword::USING),
    },
];

/// The sqlparser dialect statements of `grammar` are read in, and its name.
fn sqlparser_dialect(grammar: Grammar) -> (&'static dyn SqlparserDialect, &'static str) {
    match grammar {
        Grammar::TrinoDml => (&GenericDialect {}, "GenericDialect"),
        Grammar::HiveDdl => (&HiveDialect {}, "HiveDialect"),
        Grammar::Spark => (&DatabricksDialect {}, "DatabricksDialect"),
    }
}

/// Has sqlparser read `sql`, a statement of `kind` for `dialect`, as exactly one
/// statement: `Ok(None)` when it does, `Ok(Some(gap))` when it refuses a text that holds
/// one of [`SQLPARSER_GAPS`] (passed through), otherwise an [`ErrorKind::Syntax`] error
/// that names sqlparser, its message and the statement.
///
/// Every statement a builder returns has passed this when the `sqlparser` feature is
/// on; it does not run our validator (see [`validate_sql`](super::validate_sql)).
///
/// ```
/// use iceberg_sql::{Dialect, StatementKind};
/// use iceberg_sql::validate::read_with_sqlparser;
///
/// let read = read_with_sqlparser("SELECT a FROM t WHERE b = ?", StatementKind::Select, Dialect::Athena)?;
/// assert!(read.is_none(), "read, not passed through");
/// let time_travel = "SELECT a FROM t FOR VERSION AS OF 5";
/// let gap = read_with_sqlparser(time_travel, StatementKind::Select, Dialect::Athena)?;
/// assert!(gap.is_some_and(|g| g.form.starts_with("FOR TIMESTAMP AS OF")));
/// let err = read_with_sqlparser("SELECT a FROM t WHERE", StatementKind::Select, Dialect::Athena)
///     .unwrap_err();
/// assert!(err.message().starts_with("sqlparser 0.64 (GenericDialect"));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn read_with_sqlparser(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
) -> Result<Option<&'static SqlparserGap>> {
    let grammar = dialect.grammar(kind);
    let small = sql.len() <= SMALL_TEXT_BYTES
        && sql.bytes().filter(|&b| b == b'(').count() <= SMALL_TEXT_BRACKETS;
    let refusal = if small {
        refusal(sql, grammar)
    } else {
        super::on_big_stack(|| refusal(sql, grammar))
    };
    let Some((message, location, gap)) = refusal else {
        return Ok(None);
    };
    if gap.is_some() {
        return Ok(gap);
    }
    let (_, name) = sqlparser_dialect(grammar);
    Err(Error::new(
        ErrorKind::Syntax,
        format!(
            "sqlparser {SQLPARSER_VERSION} ({name}, its own tokenizer) does not read this {} \
             statement that iceberg-sql's validator passed for {}: {message}",
            kind.name(),
            dialect.name()
        ),
    )
    .with_hint(
        "build without the `sqlparser` feature to run this statement as iceberg-sql's own \
         validator passed it; if the engine reads this form, it belongs in \
         `iceberg_sql::validate::SQLPARSER_GAPS` (the forms sqlparser cannot read, passed \
         through with their reason)",
    )
    .with_sql(sql, location.or(Some(SqlLocation { line: 1, column: 1 }))))
}

/// The sqlparser release this reading is written for (the workspace pins it).
const SQLPARSER_VERSION: &str = "0.64";

/// sqlparser's refusal of `sql` in `grammar`'s dialect, if any: its message, its
/// position and whether the text holds one of [`SQLPARSER_GAPS`].
fn refusal(
    sql: &str,
    grammar: Grammar,
) -> Option<(String, Option<SqlLocation>, Option<&'static SqlparserGap>)> {
    let (d, _) = sqlparser_dialect(grammar);
    let tokens = match Tokenizer::new(d, sql).tokenize_with_location() {
        Ok(t) => t,
        Err(e) => {
            let at = location(e.location.line, e.location.column);
            return Some((e.message, at, None));
        }
    };
    let mut parser = Parser::new(d)
        .with_recursion_limit(RECURSION_LIMIT)
        .with_tokens_with_locations(tokens);
    let (message, at) = match parser.parse_statements() {
        Ok(s) if s.len() == 1 => return None,
        Ok(s) => (
            format!("expected exactly one statement, read {}", s.len()),
            None,
        ),
        Err(e) => {
            let text = match e {
                ParserError::TokenizerError(s) | ParserError::ParserError(s) => s,
                ParserError::RecursionLimitExceeded => {
                    format!("the statement nests deeper than its limit of {RECURSION_LIMIT} levels")
                }
            };
            split_location(text)
        }
    };
    // sqlparser backtracks (a bracket may open a subquery or an expression), so its
    // position can lie before the form it stumbled on: a gap is a form anywhere in the
    // text.
    // The tokens went to the parser; a refused text (rare) is tokenized again, so that
    // a text sqlparser reads costs one tokenization, not a copy of its tokens.
    let words: Vec<Token> = Tokenizer::new(d, sql)
        .tokenize()
        .unwrap_or_default()
        .into_iter()
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .collect();
    let gap = SQLPARSER_GAPS.iter().find(|g| {
        g.grammars.contains(&grammar)
            && (0..=words.len()).any(|at| (g.matches)(&Around { tokens: &words, at }))
    });
    Some((message, at, gap))
}

fn location(line: u64, column: u64) -> Option<SqlLocation> {
    (line > 0 && column > 0).then_some(SqlLocation {
        line: line as usize,
        column: column as usize,
    })
}

/// Splits sqlparser's `"… at Line: 3, Column: 14"` into the message and the position.
fn split_location(text: String) -> (String, Option<SqlLocation>) {
    const MARK: &str = " at Line: ";
    if let Some(at) = text.rfind(MARK) {
        if let Some((l, c)) = text[at + MARK.len()..].split_once(", Column: ") {
            if let (Ok(line), Ok(column)) = (l.trim().parse(), c.trim().parse()) {
                let loc = location(line, column);
                return (text[..at].to_string(), loc);
            }
        }
    }
    (text, None)
}
