//! The parser's position in the significant tokens of one text (white space dropped,
//! comments refused), and its located errors.

use std::borrow::Cow;
use std::collections::HashMap;

use super::ast::{Ident, Span};
use super::{foreign, Rules};
use crate::error::{Error, ErrorKind, Result, SqlLocation};
use crate::validate::lexer::{self, Kind, Symbol, Token};
use crate::validate::prepass::comment_refusal;
use crate::validate::stack::StackBudget;
use crate::validate::{located, NESTING_HINT, RECURSION_LIMIT};

pub(super) struct Cursor<'a> {
    pub(super) sql: &'a str,
    pub(super) rules: &'static Rules,
    tokens: Vec<Token>,
    pos: usize,
    /// How many nested expressions and types are open.
    depth: usize,
    /// Whether an error was raised that no other reading of the text may escape: the
    /// nesting limit, or a form refused on purpose (`x NOT NULL`).
    final_error: bool,
    /// The keyword forms (`CASE …`) that failed to parse, by token index, with their
    /// error: each is tried once, so that `case-case-case…` is not read in 2^n ways.
    failed_forms: HashMap<usize, Error>,
    /// How far down the caller's stack the parse may go (see `super::read`).
    pub(super) budget: StackBudget,
}

/// A position to go back to after a reading that failed.
#[derive(Clone, Copy)]
pub(super) struct Checkpoint {
    pos: usize,
    depth: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over the significant tokens of `all`, the tokens of `sql` (white space
    /// dropped). A comment is refused: our renderers never write one, so one means a
    /// string literal ended early.
    pub(super) fn over(sql: &'a str, all: &[Token], rules: &'static Rules) -> Result<Self> {
        let mut tokens = Vec::with_capacity(all.len() / 2 + 1);
        for &t in all {
            match t.kind {
                Kind::Blank(_) => {}
                Kind::LineComment | Kind::BlockComment => {
                    let marker = if t.kind == Kind::LineComment {
                        "--"
                    } else {
                        "/*"
                    };
                    return Err(
                        Error::new(ErrorKind::DisallowedSyntax, comment_refusal(marker))
                            .with_sql(sql, location(sql, t.start)),
                    );
                }
                _ => tokens.push(t),
            }
        }
        Ok(Cursor {
            sql,
            rules,
            tokens,
            pos: 0,
            depth: 0,
            final_error: false,
            failed_forms: HashMap::new(),
            budget: StackBudget::default(),
        })
    }

    /// The `n`th token from the position.
    pub(super) fn peek(&self, n: usize) -> Option<&Token> {
        self.tokens.get(self.pos + n)
    }

    /// Whether the `n`th token is the unquoted word `kw` (any case).
    pub(super) fn is_word(&self, n: usize, kw: &str) -> bool {
        self.peek(n).is_some_and(|t| {
            matches!(t.kind, Kind::Word { quote: None, .. })
                && t.text(self.sql).eq_ignore_ascii_case(kw)
        })
    }

    /// Whether the `n`th token is the symbol `s`.
    pub(super) fn is_symbol(&self, n: usize, s: Symbol) -> bool {
        self.peek(n).is_some_and(|t| t.kind == Kind::Symbol(s))
    }

    pub(super) fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            pos: self.pos,
            depth: self.depth,
        }
    }

    pub(super) fn rewind(&mut self, c: Checkpoint) {
        self.pos = c.pos;
        self.depth = c.depth;
    }

    /// Whether an error no other reading escapes was raised (see [`Self::refuse_at`]).
    pub(super) fn final_error(&self) -> bool {
        self.final_error
    }

    /// An error at byte offset `at` that no other reading of the text escapes (a
    /// keyword is not read again as a name after it): a form refused on purpose.
    pub(super) fn refuse_at(&mut self, at: usize, message: &str) -> Error {
        self.final_error = true;
        self.error_at(at, message)
    }

    /// The error of the keyword form tried at `c`, if it failed.
    pub(super) fn failed_form(&self, c: Checkpoint) -> Option<Error> {
        self.failed_forms.get(&c.pos).cloned()
    }

    pub(super) fn record_failed_form(&mut self, c: Checkpoint, e: Error) {
        self.failed_forms.insert(c.pos, e);
    }

    /// Takes the next token.
    pub(super) fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.pos).copied();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    /// Takes the first character of the next token (`>` of `>>`), leaving the rest as
    /// `rest`.
    pub(super) fn split_first_char(&mut self, rest: Symbol) {
        if let Some(t) = self.tokens.get_mut(self.pos) {
            t.start += 1;
            t.kind = Kind::Symbol(rest);
        }
    }

    /// Takes the word `kw` if it is next.
    pub(super) fn eat_word(&mut self, kw: &str) -> bool {
        let found = self.is_word(0, kw);
        if found {
            self.pos += 1;
        }
        found
    }

    /// Takes the words `kws` (`ORDER BY`) if they are all next, else nothing.
    pub(super) fn eat_words(&mut self, kws: &[&str]) -> bool {
        let found = kws.iter().enumerate().all(|(n, kw)| self.is_word(n, kw));
        if found {
            self.pos += kws.len();
        }
        found
    }

    /// Takes the symbol `s` if it is next.
    pub(super) fn eat_symbol(&mut self, s: Symbol) -> bool {
        let found = self.is_symbol(0, s);
        if found {
            self.pos += 1;
        }
        found
    }

    pub(super) fn expect_word(&mut self, kw: &str) -> Result<Token> {
        match self.peek(0) {
            Some(&t) if self.is_word(0, kw) => {
                self.pos += 1;
                Ok(t)
            }
            _ => Err(self.expected(&format!("`{kw}`"))),
        }
    }

    pub(super) fn expect_symbol(&mut self, s: Symbol, shown: &str) -> Result<Token> {
        match self.peek(0) {
            Some(&t) if t.kind == Kind::Symbol(s) => {
                self.pos += 1;
                Ok(t)
            }
            _ => Err(self.expected(&format!("`{shown}`"))),
        }
    }

    /// A name: a word the grammar does not reserve, or any quoted word.
    pub(super) fn ident(&mut self) -> Result<Ident> {
        self.ident_allowing(|_| false)
    }

    /// A name, where the reserved words `allowed` says yes to are names too (a
    /// function name).
    pub(super) fn ident_allowing(&mut self, allowed: impl Fn(&str) -> bool) -> Result<Ident> {
        match self.peek(0) {
            Some(&t) if matches!(t.kind, Kind::Word { .. }) => {
                if self.reserved(&t) && !allowed(&t.text(self.sql).to_ascii_lowercase()) {
                    return Err(self.error_at(
                        t.start,
                        &format!(
                            "expected a name, found the reserved word `{}` (quote it to use it \
                             as a name)",
                            t.text(self.sql)
                        ),
                    ));
                }
                self.pos += 1;
                Ok(self.ident_of(&t))
            }
            // sqlparser reads `s.?` as a name; a `?` is a placeholder, refused here on
            // purpose whatever else the text could be read as.
            Some(t) if t.kind == Kind::Placeholder => {
                let at = t.start;
                let message = format!("expected a name, found `{}`", t.text(self.sql));
                Err(self.refuse_at(at, &message))
            }
            _ => Err(self.expected("a name")),
        }
    }

    /// Whether `t` is an unquoted word the grammar reserves.
    pub(super) fn reserved(&self, t: &Token) -> bool {
        matches!(t.kind, Kind::Word { quote: None, .. })
            && self.rules.reserved.is_some_and(|r| r(t.text(self.sql)))
    }

    /// The name a word token spells.
    pub(super) fn ident_of(&self, t: &Token) -> Ident {
        let quote = match t.kind {
            Kind::Word { quote, .. } => quote.map(char::from),
            _ => None,
        };
        Ident {
            value: t.value(self.sql).into_owned(),
            quote,
            span: span(t),
        }
    }

    /// Fails unless every token has been read (`what` was read: "expression", …).
    pub(super) fn expect_end(&self, what: &str) -> Result<()> {
        match self.peek(0) {
            None => Ok(()),
            Some(_) => Err(self.expected(&format!("the end of the {what}"))),
        }
    }

    /// Opens one more level of nesting, refusing text past [`RECURSION_LIMIT`], or past
    /// the stack budget (the parse is then void, and redone on a big stack).
    pub(super) fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > RECURSION_LIMIT || self.budget.spent() {
            self.final_error = true;
            let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
            return Err(self
                .error_at(
                    at,
                    &format!(
                        "the statement nests deeper than the parser's limit of \
                         {RECURSION_LIMIT} levels"
                    ),
                )
                .with_hint(NESTING_HINT));
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// "expected `what`, found …" at the next token (or the end of the text).
    pub(super) fn expected(&self, what: &str) -> Error {
        match self.peek(0) {
            Some(t) => self.error_at(
                t.start,
                &format!("expected {what}, found `{}`", t.text(self.sql)),
            ),
            None => self.error_at(
                self.sql.len(),
                &format!("expected {what}, found the end of the text"),
            ),
        }
    }

    /// A syntax error at byte offset `at`, with the way out when another engine's form
    /// stands there (`super::foreign`).
    pub(super) fn error_at(&self, at: usize, message: &str) -> Error {
        let e = syntax(self.sql, self.rules, at, message);
        // The token the error points at, if it points at one (not the end of the text).
        let index = self.tokens.partition_point(|t| t.start < at);
        if self.tokens.get(index).is_none_or(|t| t.start != at) {
            return e;
        }
        match foreign::hint(self.sql, &self.tokens, index, self.rules.grammar) {
            Some(hint) => e.with_hint(hint),
            None => e,
        }
    }

    /// The text of token `t`.
    pub(super) fn text(&self, t: &Token) -> &'a str {
        t.text(self.sql)
    }

    /// The value of token `t` (see [`Token::value`]).
    pub(super) fn value(&self, t: &Token) -> Cow<'a, str> {
        t.value(self.sql)
    }
}

pub(super) fn span(t: &Token) -> Span {
    Span {
        start: t.start,
        end: t.end,
    }
}

fn location(sql: &str, at: usize) -> Option<SqlLocation> {
    let (line, column) = lexer::line_column(sql, at);
    located(
        sql,
        Some(SqlLocation {
            line: line as usize,
            column: column as usize,
        }),
    )
}

pub(super) fn syntax(sql: &str, rules: &Rules, at: usize, message: &str) -> Error {
    Error::new(
        ErrorKind::Syntax,
        format!("{} does not parse: {message}", rules.name),
    )
    .with_sql(sql, location(sql, at))
}
