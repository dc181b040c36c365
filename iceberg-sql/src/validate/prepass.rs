//! The token pass that runs between the lexer (`super::lexer`) and the parser, on the
//! lexer's tokens. It refuses what the parser would read wrongly or with a less helpful
//! message.
//!
//! * Comments are refused: our renderers never write one, so a `--` or `/*` in the text
//!   means a string literal ended early (the classic injection shape).
//! * Trino grammar only: the `FOR`-less spelling and `FOR SYSTEM_TIME|SYSTEM_VERSION AS
//!   OF` (Athena engine v2's) are refused with a message saying what the target accepts.
//! * A number directly followed by letters or another number (`1e`, `1abc`, `1e5e5`,
//!   `1.5.5`) is refused: the lexer, like sqlparser's tokenizer, splits it into a number
//!   and a name (`SELECT 1e` is `SELECT 1 AS e`), while Trino reads one token it then
//!   refuses ("identifiers must not start with a digit") and Spark one name. Spark's
//!   typed numbers (`5L`, `1.5D`) are one number.
//! * Trino grammar only: `==` (Trino compares with `=`; sqlparser reads both alike), and
//!   `FETCH` clauses not written `FETCH FIRST|NEXT [n] ROW|ROWS ONLY|WITH TIES` (sqlparser
//!   takes `FIRST` and `ONLY` as optional; the row count itself is checked on the tree),
//!   and `WITH ()` (sqlparser reads it as no `WITH` at all).
//! * A `?` right after `.` (`s.?a`) is refused: sqlparser reads it as a name part
//!   `"?"`; a name part is a name in Trino's and Spark's grammars, never a parameter.
//! * Trino grammar only: white space Trino's lexer lacks (`SELECT\u{a0}1`) and an empty
//!   column list in CREATE TABLE (`CREATE TABLE t () AS …`).

use super::lexer::{Blank, Kind, Symbol, Token};
use crate::dialect::Grammar;

/// What the pre-pass needs to know about the target, for its messages.
pub(super) struct Target {
    /// The engine's name.
    pub(super) engine: &'static str,
    /// Why `FOR SYSTEM_TIME AS OF` is refused (completes "… is …").
    pub(super) system_time_refusal: &'static str,
}

/// A rejection found by the pre-pass, at byte offset `at` of the text.
#[derive(Debug)]
pub(super) struct PrepassError {
    pub(super) message: String,
    pub(super) at: usize,
}

/// Spark's typed number suffixes (after a number the lexer did not read `L` with).
const SPARK_NUMBER_SUFFIXES: [&str; 6] = ["L", "S", "Y", "D", "F", "BD"];

/// The refusal of a comment (`marker`: `--` or `/*`).
pub(crate) fn comment_refusal(marker: &str) -> String {
    format!(
        "a `{marker}` comment in generated SQL: our renderers never write comments, so this \
         is most likely a string literal that ended early (unescaped quote)"
    )
}

/// The significant tokens of a text: no white space.
#[derive(Clone, Copy)]
struct Significant<'a> {
    sql: &'a str,
    tokens: &'a [Token],
}

impl<'a> Significant<'a> {
    fn text(&self, t: &Token) -> &'a str {
        t.text(self.sql)
    }

    /// Whether `t` is the unquoted word `w` (any case).
    fn is_word(&self, t: &Token, w: &str) -> bool {
        matches!(t.kind, Kind::Word { quote: None, .. }) && self.text(t).eq_ignore_ascii_case(w)
    }

    /// The significant tokens after index `i`.
    fn after(&self, i: usize) -> impl Iterator<Item = &'a Token> {
        self.tokens[i + 1..]
            .iter()
            .filter(|t| !matches!(t.kind, Kind::Blank(_)))
    }
}

/// Runs the pass over `tokens`, the tokens of `sql`.
pub(super) fn run(
    sql: &str,
    tokens: &[Token],
    grammar: Grammar,
    target: &Target,
) -> Result<(), PrepassError> {
    let s = Significant { sql, tokens };
    if grammar == Grammar::TrinoDml {
        if let Some(e) = foreign_whitespace(s).or_else(|| empty_column_list(s)) {
            return Err(e);
        }
    }
    let n = tokens.len();
    let mut i = 0;
    while i < n {
        let t = &tokens[i];
        match t.kind {
            Kind::LineComment => return Err(comment("--", t.start)),
            Kind::BlockComment => return Err(comment("/*", t.start)),
            Kind::Blank(_) => {
                i += 1;
                continue;
            }
            _ => {}
        }
        // Spark's typed numbers `1.5D`, `2BD`: a number and an adjacent suffix word.
        if grammar == Grammar::Spark && spark_typed_number(sql, tokens, i) {
            i += 2;
            continue;
        }
        if let Some(e) = number_run_on(s, i) {
            return Err(e);
        }
        if let Some(e) = placeholder_name_part(s, i) {
            return Err(e);
        }
        if grammar == Grammar::TrinoDml {
            trino_forms(s, i, target)?;
        }
        let of = matches!(t.kind, Kind::Word { quote: None, .. })
            && s.text(t).eq_ignore_ascii_case("OF");
        if of {
            time_travel(s, i, grammar, target)?;
        }
        i += 1;
    }
    Ok(())
}

/// Whether the token at `i` of `tokens` (of `sql`) is a number without `L` directly
/// followed by one of Spark's type suffixes (`1.5D`, `2BD`).
pub(crate) fn spark_typed_number(sql: &str, tokens: &[Token], i: usize) -> bool {
    let (Some(t), Some(next)) = (tokens.get(i), tokens.get(i + 1)) else {
        return false;
    };
    t.kind == (Kind::Number { long: false })
        && matches!(next.kind, Kind::Word { quote: None, .. })
        && t.end == next.start
        && SPARK_NUMBER_SUFFIXES
            .iter()
            .any(|x| next.text(sql).eq_ignore_ascii_case(x))
}

fn comment(marker: &str, at: usize) -> PrepassError {
    PrepassError {
        message: comment_refusal(marker),
        at,
    }
}

/// A number at `i` directly followed by a word or another number, as one refusal.
fn number_run_on(s: Significant<'_>, i: usize) -> Option<PrepassError> {
    let t = &s.tokens[i];
    let Kind::Number { long } = t.kind else {
        return None;
    };
    let next = s.tokens.get(i + 1)?;
    let runs_on = match next.kind {
        Kind::Word { quote, .. } => quote.is_none(),
        Kind::Number { .. } => true,
        _ => false,
    };
    let shown =
        |t: &Token, long: bool| format!("{}{}", t.value(s.sql), if long { "L" } else { "" });
    let next_shown = match next.kind {
        Kind::Number { long } => shown(next, long),
        _ => s.text(next).to_string(),
    };
    (runs_on && t.end == next.start).then(|| PrepassError {
        message: format!(
            "a number directly followed by letters or digits: `{}{next_shown}`; a name cannot \
             start with a digit (quote it: \"{}…\"), a number ends before a letter (write a \
             space or an operator after it), and an exponent has digits (`1e5`)",
            shown(t, long),
            t.value(s.sql),
        ),
        at: t.start,
    })
}

/// A `.` at `i` followed by a parameter placeholder (a name part that is a parameter).
fn placeholder_name_part(s: Significant<'_>, i: usize) -> Option<PrepassError> {
    if s.tokens[i].kind != Kind::Symbol(Symbol::Period) {
        return None;
    }
    let next = s.after(i).next()?;
    (next.kind == Kind::Placeholder).then(|| PrepassError {
        message: "a `?` parameter after `.`: the parts of a dotted name are names; a \
                  parameter stands for a whole value (write `s.a`, or `?` alone)"
            .to_string(),
        at: next.start,
    })
}

/// Trino grammar: `==`, the `FETCH` clause's shape, an empty `WITH ()`, at token `i`.
fn trino_forms(s: Significant<'_>, i: usize, target: &Target) -> Result<(), PrepassError> {
    let t = &s.tokens[i];
    if t.kind == Kind::Symbol(Symbol::DoubleEq) {
        return Err(PrepassError {
            message: format!("`==` is not {}'s: compare with =", target.engine),
            at: t.start,
        });
    }
    if s.is_word(t, "FETCH") {
        fetch_shape(s, i)?;
    }
    // `WITH ()`: sqlparser reads it as no properties at all; Trino's grammar has at
    // least one property between the brackets (SqlBase.g4, `properties`).
    if s.is_word(t, "WITH") {
        let mut next = s.after(i);
        if next
            .next()
            .is_some_and(|t| t.kind == Kind::Symbol(Symbol::LParen))
            && next
                .next()
                .is_some_and(|t| t.kind == Kind::Symbol(Symbol::RParen))
        {
            return Err(PrepassError {
                message: format!(
                    "an empty WITH (): {} takes WITH (property = value, …) with at least one \
                     property; leave WITH out when there is none",
                    target.engine
                ),
                at: t.start,
            });
        }
    }
    Ok(())
}

/// `OF` at `i` closes a time-travel window: look back at `<kind> AS OF` and its `FOR`.
/// Trino's grammar has only `FOR TIMESTAMP|VERSION AS OF`.
fn time_travel(
    s: Significant<'_>,
    i: usize,
    grammar: Grammar,
    target: &Target,
) -> Result<(), PrepassError> {
    if grammar != Grammar::TrinoDml {
        return Ok(());
    }
    let mut back = s.tokens[..i]
        .iter()
        .rev()
        .filter(|t| !matches!(t.kind, Kind::Blank(_)));
    let (Some(as_), Some(kind)) = (back.next(), back.next()) else {
        return Ok(());
    };
    if !s.is_word(as_, "AS") {
        return Ok(());
    }
    let has_for = back.next().is_some_and(|t| s.is_word(t, "FOR"));
    let shown = s.text(kind);
    let travel = s.is_word(kind, "TIMESTAMP") || s.is_word(kind, "VERSION");
    let system = s.is_word(kind, "SYSTEM_TIME") || s.is_word(kind, "SYSTEM_VERSION");
    let message = if travel && !has_for {
        format!(
            "time travel written `{shown} AS OF` without FOR: {} accepts FOR TIMESTAMP AS OF \
             <timestamp> and FOR VERSION AS OF <snapshot id>",
            target.engine
        )
    } else if system && has_for {
        format!(
            "FOR {shown} AS OF is {}: {} accepts FOR TIMESTAMP AS OF <timestamp> and FOR \
             VERSION AS OF <snapshot id>",
            target.system_time_refusal, target.engine
        )
    } else {
        return Ok(());
    };
    Err(PrepassError {
        message,
        at: kind.start,
    })
}

/// `FETCH` at `i`, in Trino grammar: `FETCH FIRST|NEXT [n] ROW|ROWS ONLY|WITH TIES`.
/// A `FETCH` followed by none of `FIRST`, `NEXT`, a number, `ROW`, `ROWS` or `?` is a
/// name, left to the parser.
fn fetch_shape(s: Significant<'_>, i: usize) -> Result<(), PrepassError> {
    let mut next = s.after(i);
    let is_count = |t: &Token| {
        matches!(t.kind, Kind::Number { .. }) || (t.kind == Kind::Placeholder && s.text(t) == "?")
    };
    let rows = |t: &Token| s.is_word(t, "ROW") || s.is_word(t, "ROWS");
    let refuse = || {
        Err(PrepassError {
            message: "FETCH clause: Trino writes FETCH FIRST|NEXT [n] ROW|ROWS ONLY or \
                      FETCH FIRST|NEXT [n] ROW|ROWS WITH TIES (a number of rows, no PERCENT)"
                .to_string(),
            at: s.tokens[i].start,
        })
    };
    let Some(first) = next.next() else {
        return Ok(());
    };
    if is_count(first) || rows(first) {
        return refuse();
    }
    if !s.is_word(first, "FIRST") && !s.is_word(first, "NEXT") {
        return Ok(());
    }
    let mut t = next.next();
    if t.is_some_and(is_count) {
        t = next.next();
    }
    if !t.is_some_and(rows) {
        return refuse();
    }
    match next.next() {
        Some(t) if s.is_word(t, "ONLY") => Ok(()),
        Some(t) if s.is_word(t, "WITH") && next.next().is_some_and(|t| s.is_word(t, "TIES")) => {
            Ok(())
        }
        _ => refuse(),
    }
}

/// Trino grammar: the first white-space character between tokens that Trino's lexer
/// lacks: it skips only space, tab, line feed and carriage return (SqlBase.g4, `WS`)
/// and refuses the rest (`SELECT\u{a0}1`). Inside a string or a quoted name such a
/// character is text, and fine.
fn foreign_whitespace(s: Significant<'_>) -> Option<PrepassError> {
    let t = s
        .tokens
        .iter()
        .find(|t| t.kind == Kind::Blank(Blank::Other))?;
    let c = s.text(t).chars().next()?;
    Some(PrepassError {
        message: format!(
            "the white-space character U+{:04X} between words: Trino's SQL separates words \
             with spaces, tabs and line breaks only; write a space",
            c as u32
        ),
        at: t.start,
    })
}

/// Trino grammar: `CREATE TABLE t () AS …`, an empty column list, which sqlparser reads
/// as none; Trino's grammar lists at least one name in it (SqlBase.g4, `columnAliases`).
fn empty_column_list(s: Significant<'_>) -> Option<PrepassError> {
    let mut words = s
        .tokens
        .iter()
        .filter(|t| !matches!(t.kind, Kind::Blank(_)));
    let mut next = words.next()?;
    if !s.is_word(next, "CREATE") {
        return None;
    }
    next = words.next()?;
    if s.is_word(next, "OR") {
        words.next()?; // REPLACE
        next = words.next()?;
    }
    if !s.is_word(next, "TABLE") {
        return None;
    }
    next = words.next()?;
    if s.is_word(next, "IF") {
        words.next()?; // NOT
        words.next()?; // EXISTS
        next = words.next()?;
    }
    // The dotted name, then what follows it.
    loop {
        if !matches!(next.kind, Kind::Word { .. }) {
            return None;
        }
        next = words.next()?;
        if next.kind != Kind::Symbol(Symbol::Period) {
            break;
        }
        next = words.next()?;
    }
    let close = words.next()?;
    (next.kind == Kind::Symbol(Symbol::LParen) && close.kind == Kind::Symbol(Symbol::RParen)).then(
        || PrepassError {
            message: "CREATE TABLE with an empty column list `()`: write the columns, or leave \
                      the brackets out"
                .to_string(),
            at: next.start,
        },
    )
}
