//! The validator's pipeline and its checks on the tree of our own parser
//! (`super::parser`).
//!
//! Every `build()` runs it ([`super::validate_sql`]). It checks the queries, the DML, OPTIMIZE and VACUUM (Athena's, Spark's CALL, Trino's ALTER TABLE …
//! EXECUTE), UNLOAD, the CTAS (Trino's, Spark's), CREATE TABLE and the staging table's
//! CREATE (`create.rs`), ALTER TABLE (`alter.rs`) and the other DDL (`ddl.rs`): every
//! statement kind.
//!
//! * [`validate`]: the whole pipeline: size, our lexer and the token pre-pass, our
//!   parser in the Rules of `Dialect::grammar(kind)`, then [`check`];
//! * [`check`]: the statement is the variant its kind renders, in the shape the target
//!   writes (`top.rs`, `ddl.rs`); then one pass over the tree (`pass.rs`) for the target's
//!   refusals, quoting per grammar, the `?` placeholders and what the engines check
//!   after their parser (`super::literals`: number ranges, `X'…'` digits, row counts,
//!   type parameters, typed literals).
//!
//! Forms outside our AST and a word Trino reserves used as a name are refused at parse
//! time (`ErrorKind::Syntax`); a form the parser reads but the target or the statement
//! kind does not take is refused here (`ErrorKind::DisallowedSyntax`).
//!
//! The text is lexed once ([`read`]): the token pre-pass (`super::prepass`), the `;`s
//! around the statement and our parser read the same tokens.

mod alter;
mod create;
mod ddl;
mod pass;
mod top;

use super::lexer::{self, Kind, Symbol};
use super::parser::{self, ast::Statement, Rules};
use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result, SqlLocation};
use crate::statement::StatementKind;

/// The check of [`super::validate_sql`]: size, one statement read by our parser, the
/// shape of `kind` and its passes, `param_count` placeholders.
pub(crate) fn validate(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<()> {
    validated(sql, kind, dialect, param_count).map(drop)
}

/// [`validate`], returning the tree it checked.
pub(crate) fn validated(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<Statement> {
    super::check_size(sql)?;
    let stmt = read(sql, dialect.grammar(kind), dialect)?;
    check(&stmt, sql, kind, dialect, param_count)?;
    Ok(stmt)
}

/// Our parser's tree of `sql` in `grammar`, unchecked. One lexing: the pre-pass's
/// refusals (comments, `FOR SYSTEM_TIME`, a number run into letters, white space Trino
/// lacks, …), the `;`s and the parse read its tokens.
pub(crate) fn read(sql: &str, grammar: Grammar, dialect: Dialect) -> Result<Statement> {
    let tokens = lex(sql, grammar, dialect)?;
    super::prepass::run(sql, &tokens, grammar, &super::prepass_target(dialect))
        .map_err(|e| super::prepass_error(sql, e))?;
    let (tokens, second) = without_semicolons(sql, tokens, grammar, dialect)?;
    parser::parse_statement_tokens(sql, &tokens, Rules::of(grammar))
        .map_err(|e| parse_error(e, sql, grammar, dialect, second))
}

/// A `;` with more text after it: where it is, and the token after it.
#[derive(Clone, Copy)]
struct Second {
    semicolon: usize,
    next: (usize, usize),
}

/// An error of the parse of the text without its `;`s, shown on the text as written,
/// with the grammar named as the target names it; a parse that stopped at a `;` with
/// a statement after it is refused as a second statement.
fn parse_error(
    e: Error,
    sql: &str,
    grammar: Grammar,
    dialect: Dialect,
    second: Option<Second>,
) -> Error {
    let location = |at: usize| {
        let (line, column) = lexer::line_column(sql, at);
        SqlLocation {
            line: line as usize,
            column: column as usize,
        }
    };
    if let Some(s) = second {
        if e.location() == Some(&location(s.semicolon)) {
            let next = sql.get(s.next.0..s.next.1).unwrap_or_default();
            return Error::new(
                ErrorKind::Syntax,
                format!(
                    "expected exactly one SQL statement, found a second one starting with \
                     `{next}`: Athena runs one statement per query"
                ),
            )
            .with_sql(sql, Some(location(s.next.0)));
        }
    }
    let ours = format!("{} does not parse: ", Rules::of(grammar).name);
    let message = match e.message().strip_prefix(&ours) {
        Some(rest) => format!(
            "{} does not parse: {rest}",
            dialect.rules().syntax().grammar_name(grammar)
        ),
        None => e.message().to_string(),
    };
    let mut out = Error::new(e.kind(), message).with_sql(sql, e.location().cloned());
    if let Some(h) = e.hint() {
        out = out.with_hint(h);
    }
    out
}

/// The tokens of `sql` by `grammar`'s lexical rules; a text they do not lex is refused
/// as the target names the grammar.
fn lex(sql: &str, grammar: Grammar, dialect: Dialect) -> Result<Vec<lexer::Token>> {
    lexer::lex(sql, Rules::of(grammar).lexical).map_err(|e| {
        let (line, column) = lexer::line_column(sql, e.at);
        Error::new(
            ErrorKind::Syntax,
            format!(
                "{} does not parse: {}",
                dialect.rules().syntax().grammar_name(grammar),
                e.message
            ),
        )
        .with_sql(
            sql,
            Some(SqlLocation {
                line: line as usize,
                column: column as usize,
            }),
        )
    })
}

/// `tokens` (of `sql`) without the `;`s before and after the statement, as the target
/// takes them: none in Trino's grammar (`singleStatement` in SqlBase.g4) except one
/// final `;` where the target takes it (Athena); any number before and after the
/// statement in Spark's and Hive's. A `;` between two statements stays, for the parser
/// to refuse; [`Second`] says where it is.
fn without_semicolons(
    sql: &str,
    tokens: Vec<lexer::Token>,
    grammar: Grammar,
    dialect: Dialect,
) -> Result<(Vec<lexer::Token>, Option<Second>)> {
    let target = dialect.rules().syntax();
    let significant: Vec<_> = tokens
        .iter()
        .filter(|t| !matches!(t.kind, Kind::Blank(_)))
        .collect();
    let is_semicolon = |t: &&&lexer::Token| t.kind == Kind::Symbol(Symbol::SemiColon);
    let leading = significant.iter().take_while(is_semicolon).count();
    let trailing = significant[leading..]
        .iter()
        .rev()
        .take_while(is_semicolon)
        .count();
    let trino = grammar == Grammar::TrinoDml;
    let allowed = usize::from(target.accepts_a_final_semicolon());
    let refused = if trino && leading > 0 {
        Some(significant[0])
    } else if trino && trailing > allowed {
        Some(significant[significant.len() - trailing])
    } else {
        None
    };
    // Trino's grammar refuses a leading `;` before it finds no statement.
    if refused.is_none() && leading == significant.len() {
        return Err(Error::new(
            ErrorKind::Syntax,
            "expected exactly one SQL statement, found none",
        )
        .with_sql(sql, super::located(sql, None)));
    }
    if let Some(t) = refused {
        let allowed = if target.accepts_a_final_semicolon() {
            "at most one `;`, after the statement"
        } else {
            "no `;`"
        };
        let (line, column) = lexer::line_column(sql, t.start);
        return Err(Error::new(
            ErrorKind::Syntax,
            format!(
                "a `;` where {} takes {allowed}: remove it",
                target.grammar_name(grammar)
            ),
        )
        .with_sql(
            sql,
            Some(SqlLocation {
                line: line as usize,
                column: column as usize,
            }),
        ));
    }
    let inner = &significant[leading..significant.len() - trailing];
    let second = inner.windows(2).find_map(|w| {
        (w[0].kind == Kind::Symbol(Symbol::SemiColon)).then_some(Second {
            semicolon: w[0].start,
            next: (w[1].start, w[1].end),
        })
    });
    if leading == 0 && trailing == 0 {
        return Ok((tokens, second));
    }
    // The statement runs from its first token to its last: `inner` is not empty (a
    // text of `;`s only was refused above).
    let (from, to) = match (inner.first(), inner.last()) {
        (Some(first), Some(last)) => (first.start, last.end),
        _ => (0, sql.len()),
    };
    let outside = |t: &lexer::Token| t.end <= from || t.start >= to;
    let kept = tokens
        .iter()
        .filter(|t| !(t.kind == Kind::Symbol(Symbol::SemiColon) && outside(t)))
        .copied()
        .collect();
    Ok((kept, second))
}

/// Checks our parser's tree of `sql` for `kind` in `dialect`, with `param_count` bound
/// parameters: the statement is the one `kind` renders, in the shapes `dialect` writes,
/// with every name, literal, type and placeholder as its grammar and engine take them.
pub(crate) fn check(
    stmt: &Statement,
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<()> {
    let ctx = Ctx::new(sql, kind, dialect);
    top::check(&ctx, stmt)?;
    pass::check(&ctx, stmt, param_count)
}

/// What every check needs to know about the statement.
pub(crate) struct Ctx<'a> {
    pub(crate) sql: &'a str,
    pub(crate) kind: StatementKind,
    pub(crate) grammar: Grammar,
    pub(crate) dialect: Dialect,
}

impl<'a> Ctx<'a> {
    fn new(sql: &'a str, kind: StatementKind, dialect: Dialect) -> Self {
        Ctx {
            sql,
            kind,
            grammar: dialect.grammar(kind),
            dialect,
        }
    }

    /// The target engine's name, for messages.
    pub(crate) fn engine(&self) -> &'static str {
        self.dialect.rules().name()
    }

    /// The grammar's name in the target's messages.
    pub(crate) fn grammar_name(&self) -> &'static str {
        self.dialect.rules().syntax().grammar_name(self.grammar)
    }

    /// A refusal pointing at byte offset `at`.
    pub(crate) fn at(&self, msg: impl Into<String>, at: usize) -> Error {
        let (line, column) = lexer::line_column(self.sql, at);
        let loc = super::located(
            self.sql,
            Some(SqlLocation {
                line: line as usize,
                column: column as usize,
            }),
        );
        Error::new(ErrorKind::DisallowedSyntax, msg).with_sql(self.sql, loc)
    }

    /// A refusal pointing at the first whole word `word` of the text outside strings
    /// (else its first token).
    pub(crate) fn at_word(&self, msg: impl Into<String>, word: &str) -> Error {
        let loc = super::located(self.sql, super::locate_word(self.sql, word));
        Error::new(ErrorKind::DisallowedSyntax, msg).with_sql(self.sql, loc)
    }

    /// A refusal pointing at the first token of the text.
    pub(crate) fn at_start(&self, msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::DisallowedSyntax, msg)
            .with_sql(self.sql, super::located(self.sql, None))
    }
}
/// The first whole-word, case-insensitive `word` at or after byte offset `from`.
pub(crate) fn find_word(sql: &str, from: usize, word: &str) -> Option<usize> {
    let rest = sql.get(from..)?;
    let lower = rest.to_ascii_lowercase();
    let word = word.to_ascii_lowercase();
    let word = word.as_str();
    let mut start = 0;
    while let Some(i) = lower[start..].find(word) {
        let at = start + i;
        let before = lower[..at].chars().next_back();
        let after = lower[at + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        if !part(before) && !part(after) {
            return Some(from + at);
        }
        start = at + word.len();
    }
    None
}
