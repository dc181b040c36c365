//! The last step of every `build()`: the text must fit Athena's size limit, parse as
//! exactly one statement through our own sqlparser dialect, and have only the AST
//! shapes its kind allows.
//!
//! Meaning (columns exist, types fit, transforms suit their columns) is checked by the
//! builders before they render, where the typed model is at hand; this module checks
//! the text that comes out, so a renderer bug cannot ship invalid SQL.
//!
//! The pipeline, per statement:
//!
//! 1. size: at most [`MAX_QUERY_BYTES`] UTF-8 bytes;
//! 2. tokenize with our own lexer (`lexer/`) by the lexical rules of the target's parser
//!    for the statement's [`Grammar`] (Athena DDL and DML share one hand-written
//!    `AthenaDialect`; Spark has its own; see `dialects/`), then a token pre-pass on
//!    those tokens (`prepass.rs`) that refuses comments (generated SQL never has one:
//!    a comment means a string literal ended early), Athena's removed `FOR
//!    SYSTEM_TIME AS OF` and a number run into letters (`1e`, `1abc`); in Trino
//!    grammar also white space Trino's lexer lacks (U+00A0, …), `WITH ()` and `CREATE
//!    TABLE t ()`; the tokens become sqlparser's, with the rewrites its parser needs
//!    (`lexer::to_sqlparser::adapt`: `FOR TIMESTAMP|VERSION AS OF` without its `FOR`,
//!    Spark's `1.5D` one number);
//! 3. parse exactly one statement (in Trino grammar no `;`, except one final `;` where
//!    the target takes it: Athena; hooks cover Iceberg `CREATE TABLE … PARTITIONED BY
//!    (transforms)`, `ADD COLUMNS`, `UNSET TBLPROPERTIES`, `OPTIMIZE … BIN_PACK`,
//!    `VACUUM`, Trino `array(T)`/`map(K,V)`/`row(…)` types); a hook that refuses syntax
//!    the engine lacks leaves the refusal as a value beside the parse;
//! 4. an allow-list of AST shapes for the [`StatementKind`] (the target's own part for
//!    the kinds targets write differently), then our own walk over the tree (`walk/`),
//!    which refuses every node none of our targets writes and runs the passes: the
//!    target's refusals, quoting per grammar (Hive DDL and Spark: backticks; Trino DML:
//!    double quotes, and a word Trino reserves is a name only quoted), and the `?`
//!    placeholders: none for kinds without parameters, Athena's only inside `WHERE`,
//!    and exactly as many as bound parameters; and what the engines check after their
//!    parser (`literals`): integer and decimal literal
//!    ranges, `X'…'` digits, `LIMIT` / `OFFSET` / `FETCH` row counts, type names and
//!    their parameters (`decimal(p, s)`, `varchar(n)`, `timestamp(p)`).
//!
//! Parse failures are [`ErrorKind::Syntax`]; constructs that parse but that the engine
//! (or this statement kind) does not accept are [`ErrorKind::DisallowedSyntax`]. Both
//! carry the SQL and the line/column, so the error's `Display` shows the line with a
//! caret.
//!
//! sqlparser is an implementation detail: only our [`Error`]s leave this module
//! (and [`inspect`]'s plain values). The hooks map Athena-only syntax onto existing
//! sqlparser nodes; the tree is checked and dropped, never rendered.

mod allow;
mod ast_pass;
#[cfg(test)]
mod check;
mod ddl_rules;
pub(crate) mod dialects;
mod hooks;
mod inspect;
pub(crate) mod lexer;
mod literals;
#[cfg(test)]
mod parser;
mod prefix;
mod prepass;
mod stack;
mod values;
mod walk;

pub use inspect::{inspect, Inspection, Name};
pub(crate) use values::validate_insert_values;

use sqlparser::ast::Statement as SqlStatement;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result, SqlLocation};
use crate::statement::{StatementKind, MAX_QUERY_BYTES};

use dialects::{ParserDialect, TargetSyntax};

/// How deep expressions and types may nest. sqlparser's default (50) allows about 45
/// nested parentheses; nested struct/array literals with their `CAST … AS row(…)` types
/// use several levels each, so we allow more. sqlparser does not grow the stack (we
/// leave its `recursive-protection` feature off): text that nests deeply is parsed on a
/// thread with a [`BIG_STACK_BYTES`] stack, and a parse on the caller's stack stays
/// within a budget or is redone there (see [`stack`]), so this depth is safe on a 2 MiB
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
/// one statement through our own parser for `kind`'s grammar in `dialect`, the
/// allow-list of shapes for `kind`, quoting, and exactly `param_count` `?` placeholders.
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
/// assert_eq!(err.kind(), ErrorKind::DisallowedSyntax);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn validate_sql(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<()> {
    check_size(sql)?;
    on_parsed(sql, kind, dialect, |stmt| {
        allow::check(stmt, sql, kind, dialect, param_count)
    })?
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

/// Parses `sql` as exactly one statement of `kind` for `dialect` (without the
/// allow-list, size and placeholder checks) and hands the tree to `f`.
pub(crate) fn with_parsed<R: Send>(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    f: impl FnOnce(&SqlStatement) -> R + Send,
) -> Result<R> {
    on_parsed(sql, kind, dialect, f)
}

/// Parses `sql` and hands the tree to `f`: on the caller's stack within a budget
/// (see [`stack`]), or, for text with long operator chains (a tree as deep as the chain
/// is long), text that nests deeply, and text the budget stopped, on a thread with
/// [`BIG_STACK_BYTES`] where it is parsed, read and freed.
fn on_parsed<R: Send>(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    f: impl FnOnce(&SqlStatement) -> R + Send,
) -> Result<R> {
    let grammar = dialect.grammar(kind);
    let target = dialect.rules().syntax();
    let (mut tokens, deep) = lex(sql, kind, grammar, dialect)?;
    if !deep {
        match parse_tokens(sql, kind, grammar, target, tokens, Stack::Callers) {
            Ok(stmt) => return Ok(f(&stmt)),
            Err(Parsed::Failed(e)) => return Err(e),
            // The parser consumed the tokens: lex again (rare: deep text is flagged
            // by the pre-pass).
            Err(Parsed::OverBudget) => tokens = lex(sql, kind, grammar, dialect)?.0,
        }
    }
    on_big_stack(move || {
        let stmt = parse_tokens(sql, kind, grammar, target, tokens, Stack::Big)
            .map_err(Parsed::into_error)?;
        // Dropped here too: the drop glue recurses once per level of an operator chain.
        Ok(f(&stmt))
    })
}

/// Stack for parsing, checking and freeing statements whose operator chains are deep
/// (reserved address space; only the pages used are committed).
const BIG_STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a helper thread with a [`BIG_STACK_BYTES`] stack (or inline if no
/// thread can be started). sqlparser builds `a OR b OR …` left-deep without counting
/// recursion, and the compiler's drop glue for such trees (also on sqlparser's own
/// error paths) recurses once per operator; its parser recurses once per nesting
/// level, up to [`RECURSION_LIMIT`].
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

/// Tokenizes `sql` and runs the pre-pass; the flag says whether the text has operator
/// chains long enough, or nests deeply enough, to need the big stack.
fn lex(
    sql: &str,
    kind: StatementKind,
    grammar: Grammar,
    dialect: Dialect,
) -> Result<(Vec<TokenWithSpan>, bool)> {
    let target = dialect.rules().syntax();
    let rules = target.parser(grammar, kind).lexical_rules();
    let ours = lexer::lex(sql, rules).map_err(|e| {
        let at = lexer::to_sqlparser::location(sql, &e);
        Error::new(
            ErrorKind::Syntax,
            format!(
                "{} does not parse: {}",
                target.grammar_name(grammar),
                e.message
            ),
        )
        .with_sql(sql, located(sql, to_location(at)))
    })?;
    let deep = prepass::run(sql, &ours, grammar, &prepass_target(dialect))
        .map_err(|e| prepass_error(sql, e))?;
    let mut tokens = lexer::to_sqlparser::convert(sql, &ours);
    lexer::to_sqlparser::adapt(sql, &ours, &mut tokens, grammar);
    Ok((tokens, deep))
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

/// Which stack [`parse_tokens`] runs on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stack {
    /// The caller's: the parse has a [`stack::PARSE_STACK_BUDGET`].
    Callers,
    /// [`on_big_stack`]'s: no budget.
    Big,
}

/// Why [`parse_tokens`] returned no statement.
enum Parsed {
    /// The text is not exactly one statement of the grammar (or a hook refused it).
    Failed(Error),
    /// The parse went past its stack budget; its result, whatever it was, is void.
    OverBudget,
}

impl Parsed {
    fn into_error(self) -> Error {
        match self {
            Parsed::Failed(e) => e,
            // Only a parse on the caller's stack has a budget.
            Parsed::OverBudget => Error::new(
                ErrorKind::Syntax,
                format!("the statement nests deeper than the parser's limit of {RECURSION_LIMIT} levels"),
            )
            .with_hint(NESTING_HINT),
        }
    }
}

/// Parses the pre-passed tokens as exactly one statement, on `stack`.
fn parse_tokens(
    sql: &str,
    kind: StatementKind,
    grammar: Grammar,
    target: &dyn TargetSyntax,
    tokens: Vec<TokenWithSpan>,
    stack: Stack,
) -> std::result::Result<SqlStatement, Parsed> {
    let d: Box<dyn ParserDialect> = target.parser(grammar, kind);
    if stack == Stack::Callers {
        d.stack().start_here();
    }
    let parsed = parse_one(sql, grammar, target, d.as_ref(), tokens);
    if d.stack().exceeded() {
        return Err(Parsed::OverBudget);
    }
    parsed.map_err(Parsed::Failed)
}

/// The parse of [`parse_tokens`] with dialect `d`.
fn parse_one(
    sql: &str,
    grammar: Grammar,
    target: &dyn TargetSyntax,
    d: &dyn ParserDialect,
    tokens: Vec<TokenWithSpan>,
) -> Result<SqlStatement> {
    let mut parser = Parser::new(d)
        .with_recursion_limit(RECURSION_LIMIT)
        .with_tokens_with_locations(tokens);
    // Trino's grammar is one statement and the end of the text (`singleStatement` in
    // SqlBase.g4): a `;` before or after it does not parse; Athena takes one after it.
    // Our renderers never write one.
    let trino = grammar == Grammar::TrinoDml;
    let semicolon_error = |span: sqlparser::tokenizer::Span| {
        let allowed = if target.accepts_a_final_semicolon() {
            "at most one `;`, after the statement"
        } else {
            "no `;`"
        };
        Error::new(
            ErrorKind::Syntax,
            format!(
                "a `;` where {} takes {allowed}: remove it",
                target.grammar_name(grammar)
            ),
        )
        .with_sql(sql, located(sql, to_location(span.start)))
    };
    if trino && parser.peek_token_ref().token == Token::SemiColon {
        return Err(semicolon_error(parser.peek_token_ref().span));
    }
    while parser.consume_token(&Token::SemiColon) {}
    if parser.peek_token_ref().token == Token::EOF {
        return Err(Error::new(
            ErrorKind::Syntax,
            "expected exactly one SQL statement, found none",
        )
        .with_sql(sql, located(sql, None)));
    }
    let stmt = parser
        .parse_statement()
        .map_err(|e| match d.refusals().take_for(&e) {
            Some(r) => Error::new(ErrorKind::DisallowedSyntax, r.message)
                .with_sql(sql, located(sql, to_location(r.location))),
            None => {
                let err = syntax_error(sql, target.grammar_name(grammar), &parser_error_text(&e));
                match e {
                    ParserError::RecursionLimitExceeded => err.with_hint(NESTING_HINT),
                    _ => err,
                }
            }
        })?;
    let mut semicolons = 0usize;
    let first_semicolon = parser.peek_token_ref().span;
    while parser.consume_token(&Token::SemiColon) {
        semicolons += 1;
    }
    let next = parser.peek_token_ref();
    let allowed = usize::from(target.accepts_a_final_semicolon());
    if trino && semicolons > allowed && next.token == Token::EOF {
        return Err(semicolon_error(first_semicolon));
    }
    if next.token != Token::EOF {
        let loc = to_location(next.span.start).or_else(|| end_location(sql));
        let msg = if semicolons > 0 {
            format!(
                "expected exactly one SQL statement, found a second one starting with `{}`: \
                 Athena runs one statement per query",
                next.token
            )
        } else {
            format!(
                "{}: expected the end of the statement, found `{}`",
                target.grammar_name(grammar),
                next.token
            )
        };
        return Err(Error::new(ErrorKind::Syntax, msg).with_sql(sql, located(sql, loc)));
    }
    Ok(stmt)
}

fn parser_error_text(e: &ParserError) -> String {
    match e {
        ParserError::TokenizerError(s) | ParserError::ParserError(s) => s.clone(),
        ParserError::RecursionLimitExceeded => format!(
            "the statement nests deeper than the parser's limit of {RECURSION_LIMIT} levels"
        ),
    }
}

/// Turns a sqlparser message into our error, with the position parsed out of its
/// `at Line: L, Column: C` suffix; `grammar` names the grammar that was parsed.
fn syntax_error(sql: &str, grammar: &str, text: &str) -> Error {
    let (body, loc) = split_location(text);
    let loc = loc.or_else(|| {
        // sqlparser reports the end of input without a position.
        body.contains("found: EOF")
            .then(|| end_location(sql))
            .flatten()
    });
    Error::new(
        ErrorKind::Syntax,
        format!("{grammar} does not parse: {body}"),
    )
    .with_sql(sql, located(sql, loc))
}

/// Splits `"… at Line: 3, Column: 14"` into the message and the location.
fn split_location(text: &str) -> (&str, Option<SqlLocation>) {
    const MARK: &str = " at Line: ";
    if let Some(at) = text.rfind(MARK) {
        let rest = &text[at + MARK.len()..];
        if let Some((l, c)) = rest.split_once(", Column: ") {
            if let (Ok(line), Ok(column)) = (l.trim().parse(), c.trim().parse()) {
                return (&text[..at], to_location_parts(line, column));
            }
        }
    }
    (text, None)
}

fn to_location_parts(line: usize, column: usize) -> Option<SqlLocation> {
    (line > 0 && column > 0).then_some(SqlLocation { line, column })
}

pub(crate) fn to_location(l: sqlparser::tokenizer::Location) -> Option<SqlLocation> {
    to_location_parts(l.line as usize, l.column as usize)
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

/// The position just after the last character of `sql`.
fn end_location(sql: &str) -> Option<SqlLocation> {
    let line = sql.split('\n').count();
    let last = sql.rsplit('\n').next().unwrap_or("");
    to_location_parts(line, last.chars().count() + 1)
}

#[cfg(test)]
mod tests;
