//! The last step of every `build()`: the text must fit Athena's size limit, parse as
//! exactly one statement through our own parser in the grammar the target reads the
//! statement with, and have only the shapes its kind allows.
//!
//! Meaning (columns exist, types fit, transforms suit their columns) is checked by the
//! builders before they render, where the typed model is at hand; this module checks
//! the text that comes out, so a renderer bug cannot ship invalid SQL.
//!
//! The pipeline, per statement (`check/`):
//!
//! 1. size: at most [`MAX_QUERY_BYTES`] UTF-8 bytes;
//! 2. tokenize with our own lexer (`lexer/`) by the lexical rules of the statement's
//!    [`Grammar`](crate::dialect::Grammar) (Trino's for Athena DML and Trino, Hive's for Athena DDL, Spark's),
//!    then a token pre-pass (`prepass.rs`) that refuses comments (generated SQL never
//!    has one: a comment means a string literal ended early), Athena's removed `FOR
//!    SYSTEM_TIME AS OF` and a number run into letters (`1e`, `1abc`); in Trino
//!    grammar also white space Trino's lexer lacks (U+00A0, …), `WITH ()` and `CREATE
//!    TABLE t ()`;
//! 3. parse exactly one statement with our recursive-descent parser (`parser/`), which
//!    reads only the forms some target writes, in that grammar's rules (in Trino
//!    grammar no `;`, except one final `;` where the target takes it: Athena);
//! 4. check the tree (`check/`): the statement is the one its [`StatementKind`]
//!    renders, in the shape the target writes (`dialects/` holds what targets do
//!    differently); then one pass over the tree for the target's refusals, quoting per
//!    grammar (Hive DDL and Spark: backticks; Trino DML: double quotes, and a word Trino
//!    reserves is a name only quoted), the `?` placeholders (none for kinds without
//!    parameters, Athena's only inside `WHERE`, and exactly as many as bound
//!    parameters) and what the engines check after their parser (`literals.rs`):
//!    integer and decimal literal ranges, `X'…'` digits, `LIMIT` / `OFFSET` / `FETCH`
//!    row counts, type names and their parameters (`decimal(p, s)`, `varchar(n)`,
//!    `timestamp(p)`).
//!
//! An INSERT's `VALUES` rows are read by a recognizer of their small grammar
//! (`values.rs`); the statement around them is parsed as above.
//!
//! Parse failures are [`ErrorKind::Syntax`]; constructs that parse but that the engine
//! (or this statement kind) does not accept are [`ErrorKind::DisallowedSyntax`]. Both
//! carry the SQL and the line/column, so the error's `Display` shows the line with a
//! caret. Only our [`Error`]s and [`inspect`]'s plain values leave this module.
//!
//! With the `sqlparser` feature, every statement `build()` returns is read again by
//! sqlparser's own tokenizer and parser in a stock dialect ([`read_with_sqlparser`]), a
//! reading independent of this one; `tests/sqlparser_reading.rs` holds the two to each
//! other over the verdict corpus (`tests/fixtures/validate_verdicts.txt`).

mod check;
mod ddl_rules;
pub(crate) mod dialects;
mod inspect;
pub(crate) mod lexer;
mod literals;
mod parser;
mod prepass;
pub(crate) mod raw;
#[cfg(feature = "sqlparser")]
mod sqlparser_reading;
mod stack;
mod values;

pub use inspect::{inspect, Inspection, Name};
pub(crate) use inspect::{references, Clause, References, Shape};
#[cfg(feature = "sqlparser")]
#[cfg_attr(docsrs, doc(cfg(feature = "sqlparser")))]
pub use sqlparser_reading::{read_with_sqlparser, SqlparserGap, SQLPARSER_GAPS};
pub(crate) use values::validate_insert_values;

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result, SqlLocation};
use crate::statement::{StatementKind, MAX_QUERY_BYTES};

/// How deep expressions and types may nest: deeper than nested struct and array
/// literals with their `CAST … AS row(…)` types need. Our parser does not grow the
/// stack: a parse on the caller's stack stays within a budget or is redone on a thread
/// with a [`BIG_STACK_BYTES`] stack (see [`stack`]), so this depth is safe on a 2 MiB
/// thread in unoptimised builds too (the `deep_nesting`, `nesting_beyond_the_limit` and
/// `hostile_nesting` tests).
const RECURSION_LIMIT: usize = 128;

/// The way out of text that nests past [`RECURSION_LIMIT`]: conditions chained by
/// AND/OR nest no brackets, a CAST or function call inside another nests one each.
const NESTING_HINT: &str = "write fewer brackets inside each other: chain conditions with \
     .and(...)/.or(...) or combine them with Cond::all_of(...)/Cond::any_of(...), and \
     avoid wrapping a value in more than about 100 CASTs or function calls";

/// Validates generated SQL text for `kind` in `dialect`, expecting `param_count`
/// `?` placeholders.
pub(crate) fn validate(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<()> {
    validate_sql(sql, kind, dialect, param_count)
}

/// Runs the same check every `build()` runs on its rendered text: size limit, exactly
/// one statement through our own parser for `kind`'s grammar in `dialect`, the shape
/// its kind renders, quoting, and exactly `param_count` `?` placeholders.
///
/// Useful for testing renderers and for checking hand-written SQL against the same
/// rules.
///
/// ```
/// use iceberg_sql::{Dialect, ErrorKind, StatementKind};
/// use iceberg_sql::validate::validate_sql;
///
/// validate_sql("VACUUM analytics.mcp_events", StatementKind::Vacuum, Dialect::Athena, 0)?;
///
/// let err = validate_sql("VACUUM analytics.mcp_events RETAIN 7 DAYS",
///                        StatementKind::Vacuum, Dialect::Athena, 0).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Syntax);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn validate_sql(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<()> {
    check::validate(sql, kind, dialect, param_count)
}

/// Athena rejects query strings over 262,144 UTF-8 bytes.
pub(crate) fn check_size(sql: &str) -> Result<()> {
    if sql.len() > MAX_QUERY_BYTES {
        return Err(Error::new(
            ErrorKind::QueryTooLong,
            format!(
                "the statement is {} bytes long; Athena accepts at most {MAX_QUERY_BYTES} bytes per query",
                sql.len()
            ),
        )
        .with_hint("split the work into several statements (INSERT: use `batches()`), or stage the data in S3 and INSERT ... SELECT"));
    }
    Ok(())
}

/// Stack for parsing, checking and freeing statements that nest deeply (reserved
/// address space; only the pages used are committed).
const BIG_STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a helper thread with a [`BIG_STACK_BYTES`] stack (or inline if no
/// thread can be started): a parse that went past its stack budget is redone here. Our
/// parser recurses once per nesting level, up to [`RECURSION_LIMIT`]; sqlparser (feature
/// `sqlparser`) also builds `a OR b OR …` left-deep without counting recursion, and the
/// compiler's drop glue for such trees recurses once per operator.
fn on_big_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let slot = std::sync::Mutex::new(Some(f));
    let take = || slot.lock().ok().and_then(|mut g| g.take());
    let ran = std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("iceberg-sql-validate".into())
            .stack_size(BIG_STACK_BYTES)
            .spawn_scoped(scope, || take().map(|f| f()))
            .ok()?;
        match handle.join() {
            Ok(r) => r,
            // Our code does not panic on input; if something did, keep its panic.
            Err(payload) => std::panic::resume_unwind(payload),
        }
    });
    match ran {
        Some(r) => r,
        // The thread could not be started, so `f` is still in the slot: run it here.
        None => match take() {
            Some(f) => f(),
            None => unreachable!("the validation closure is taken exactly once"),
        },
    }
}

/// What the token pre-pass says of `dialect` in its messages.
fn prepass_target(dialect: Dialect) -> prepass::Target {
    prepass::Target {
        engine: dialect.name(),
        system_time_refusal: dialect.rules().syntax().system_time_refusal(),
    }
}

/// A refusal of the token pre-pass, located in `sql`.
fn prepass_error(sql: &str, e: prepass::PrepassError) -> Error {
    let (line, column) = lexer::line_column(sql, e.at);
    Error::new(ErrorKind::DisallowedSyntax, e.message).with_sql(
        sql,
        located(
            sql,
            Some(SqlLocation {
                line: line as usize,
                column: column as usize,
            }),
        ),
    )
}

/// The refusal of `found`, a form none of our targets is written with, with `fix`.
pub(crate) fn unwritten_form(found: &str, fix: &str) -> String {
    format!(
        "{found} is not SQL this crate writes for any target: Athena (Hive DDL, Trino DML), \
         Trino and Spark SQL are written without it; {fix}"
    )
}

/// Best-effort position of the first whole-word, case-insensitive `word` outside
/// single-quoted strings (for nodes that carry no span).
pub(crate) fn locate_word(sql: &str, word: &str) -> Option<SqlLocation> {
    let mut line = 1;
    let mut column = 1;
    let mut in_string = false;
    let mut prev_ident = false;
    let chars: Vec<char> = sql.chars().collect();
    let w: Vec<char> = word.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            in_string = !in_string;
        } else if !in_string
            && !prev_ident
            && i + w.len() <= chars.len()
            && chars[i..i + w.len()]
                .iter()
                .zip(&w)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
            && chars
                .get(i + w.len())
                .is_none_or(|n| !(n.is_ascii_alphanumeric() || *n == '_'))
        {
            return Some(SqlLocation { line, column });
        }
        prev_ident = c.is_ascii_alphanumeric() || c == '_';
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
        i += 1;
    }
    None
}

/// The position of the first non-whitespace character.
pub(crate) fn first_token(sql: &str) -> Option<SqlLocation> {
    let mut line = 1;
    let mut column = 1;
    for c in sql.chars() {
        if c == '\n' {
            line += 1;
            column = 1;
        } else if c.is_whitespace() {
            column += 1;
        } else {
            return Some(SqlLocation { line, column });
        }
    }
    None
}

/// `loc`, or failing that the first token (or 1:1), so every validation error can
/// show a caret.
pub(crate) fn located(sql: &str, loc: Option<SqlLocation>) -> Option<SqlLocation> {
    loc.or_else(|| first_token(sql))
        .or(Some(SqlLocation { line: 1, column: 1 }))
}
