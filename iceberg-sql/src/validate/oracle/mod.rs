//! A second reading of every statement on sqlparser, for the tests: our lexer's tokens
//! turned into sqlparser's (`tokens.rs`), sqlparser 0.64 through our hand-written
//! dialects (`dialects/`, with the hooks of `hooks.rs` and `prefix.rs`), then the
//! allow-list (`allow.rs`) and the walk (`walk/`, passes of `ast_pass.rs`). Compiled for
//! tests only, as an oracle written independently of our parser (`parser/`, `check/`): the differential tests (`check/tests.rs`, `parser/tests/`) hold every
//! statement of the corpus to the same verdict through both.

pub(crate) mod allow;
pub(crate) mod ast_pass;
pub(crate) mod dialects;
pub(crate) mod hooks;
pub(crate) mod inspect;
pub(crate) mod prefix;
pub(crate) mod tokens;
pub(crate) mod walk;

use sqlparser::ast::Statement as SqlStatement;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result, SqlLocation};
use crate::statement::StatementKind;
use crate::validate::lexer;
use crate::validate::{
    located, on_big_stack, prepass, prepass_error, prepass_target, NESTING_HINT, RECURSION_LIMIT,
};
use dialects::{OracleSyntax, ParserDialect};

/// What `build()` checked through sqlparser: the size limit, exactly one statement,
/// the allow-list of shapes for `kind`, quoting and `param_count` placeholders.
pub(crate) fn validate_sql(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<()> {
    crate::validate::check_size(sql)?;
    on_parsed(sql, kind, dialect, |stmt| {
        allow::check(stmt, sql, kind, dialect, param_count)
    })?
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
/// (see `validate::stack`), or, for text with long operator chains (a tree as deep as the chain
/// is long), text that nests deeply, and text the budget stopped, on a thread with
/// [`BIG_STACK_BYTES`] where it is parsed, read and freed.
pub(super) fn on_parsed<R: Send>(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    f: impl FnOnce(&SqlStatement) -> R + Send,
) -> Result<R> {
    let grammar = dialect.grammar(kind);
    let target = dialect.rules().oracle();
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

/// Tokenizes `sql` and runs the pre-pass; the flag says whether the text has operator
/// chains long enough, or nests deeply enough, to need the big stack.
pub(super) fn lex(
    sql: &str,
    kind: StatementKind,
    grammar: Grammar,
    dialect: Dialect,
) -> Result<(Vec<TokenWithSpan>, bool)> {
    let target = dialect.rules().oracle();
    let rules = target.parser(grammar, kind).lexical_rules();
    let ours = lexer::lex(sql, rules).map_err(|e| {
        let at = tokens::location(sql, &e);
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
    let mut tokens = tokens::convert(sql, &ours);
    tokens::adapt(sql, &ours, &mut tokens, grammar);
    Ok((tokens, deep))
}

/// Which stack [`parse_tokens`] runs on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stack {
    /// The caller's: the parse has a `validate::stack::PARSE_STACK_BUDGET`.
    Callers,
    /// [`on_big_stack`]'s: no budget.
    Big,
}

/// Why [`parse_tokens`] returned no statement.
pub(super) enum Parsed {
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
pub(super) fn parse_tokens(
    sql: &str,
    kind: StatementKind,
    grammar: Grammar,
    target: &dyn OracleSyntax,
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
pub(super) fn parse_one(
    sql: &str,
    grammar: Grammar,
    target: &dyn OracleSyntax,
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

pub(super) fn parser_error_text(e: &ParserError) -> String {
    match e {
        ParserError::TokenizerError(s) | ParserError::ParserError(s) => s.clone(),
        ParserError::RecursionLimitExceeded => format!(
            "the statement nests deeper than the parser's limit of {RECURSION_LIMIT} levels"
        ),
    }
}

/// Turns a sqlparser message into our error, with the position parsed out of its
/// `at Line: L, Column: C` suffix; `grammar` names the grammar that was parsed.
pub(super) fn syntax_error(sql: &str, grammar: &str, text: &str) -> Error {
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
pub(super) fn split_location(text: &str) -> (&str, Option<SqlLocation>) {
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

pub(super) fn to_location_parts(line: usize, column: usize) -> Option<SqlLocation> {
    (line > 0 && column > 0).then_some(SqlLocation { line, column })
}

pub(crate) fn to_location(l: sqlparser::tokenizer::Location) -> Option<SqlLocation> {
    to_location_parts(l.line as usize, l.column as usize)
}

/// The position just after the last character of `sql`.
pub(super) fn end_location(sql: &str) -> Option<SqlLocation> {
    let line = sql.split('\n').count();
    let last = sql.rsplit('\n').next().unwrap_or("");
    to_location_parts(line, last.chars().count() + 1)
}
