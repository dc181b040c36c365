//! The token pass that runs between the tokenizer and the parser.
//!
//! * Comments are refused: our renderers never write one, so a `--` or `/*` in the text
//!   means a string literal ended early (the classic injection shape).
//! * `FOR TIMESTAMP AS OF` / `FOR VERSION AS OF` lose their `FOR` (sqlparser has no
//!   hook where table factors are parsed, and only knows the `FOR`-less spelling). The
//!   token is replaced by a space, so spans still point into the original text.
//! * Trino grammar only: the `FOR`-less spelling and `FOR SYSTEM_TIME|SYSTEM_VERSION AS
//!   OF` (Athena engine v2's) are refused with a message saying what the target accepts.
//! * A number directly followed by letters or another number (`1e`, `1abc`, `1e5e5`,
//!   `1.5.5`) is refused: sqlparser splits it into a number and a name (`SELECT 1e` is
//!   `SELECT 1 AS e`), while Trino reads one token it then refuses ("identifiers must not
//!   start with a digit") and Spark one name. Spark's typed numbers (`5L`, `1.5D`) are
//!   glued first.
//! * Trino grammar only: `==` (Trino compares with `=`; sqlparser reads both alike), and
//!   `FETCH` clauses not written `FETCH FIRST|NEXT [n] ROW|ROWS ONLY|WITH TIES` (sqlparser
//!   takes `FIRST` and `ONLY` as optional; the row count itself is checked on the tree),
//!   and `WITH ()` (sqlparser reads it as no `WITH` at all).
//! * `FILTER` not followed by `( WHERE` is a plain word: sqlparser's function-call parse
//!   takes `FILTER (` before it looks for `WHERE` and does not give them back, so
//!   `count(x) FILTER ( FROM t` read as `count(x) FROM t` and `count(x) filter` lost its
//!   alias. Trino's grammar (SqlBase.g4, `filter`: `FILTER '(' WHERE booleanExpression
//!   ')'`) and Spark's (SqlBaseParser.g4, `functionCall`) have only that form, and take
//!   `filter` as a name anywhere else (`count(x) filter`, `FROM (…) filter (a)`).
//! * A `?` right after `.` (`s.?a`) is refused: sqlparser reads it as a name part
//!   `"?"`; a name part is a name in Trino's and Spark's grammars, never a parameter.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Whitespace};

use crate::dialect::Grammar;

/// What the pre-pass needs to know about the target, for its messages.
pub(super) struct Target {
    /// The engine's name.
    pub(super) engine: &'static str,
    /// Why `FOR SYSTEM_TIME AS OF` is refused (completes "… is …").
    pub(super) system_time_refusal: &'static str,
}

/// A rejection found by the pre-pass.
pub(super) struct PrepassError {
    pub(super) message: String,
    pub(super) location: Location,
}

fn is_word(t: &Token, s: &str) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(s))
}

/// How many binary- or postfix-operator tokens the text may have before it is parsed,
/// checked and dropped on the big stack (a left-deep chain is as deep as its operator
/// count, and the parser builds it in a loop, without counting recursion; well below
/// this, visiting and dropping the tree is safe on a 2 MiB stack).
/// Measured in a debug build: checking and dropping a chain takes about 1.8 KiB of
/// stack per link, so 250 links take about 450 KiB.
const DEEP_OPERATOR_CHAIN: usize = 250;

/// How deeply brackets and `CASE … END` may nest before the text is parsed on the big
/// stack right away. Each level is at least one level of parser recursion, 30 to 75 KiB
/// of stack in an unoptimised build; deeper text would likely exceed the caller's-stack
/// budget (`super::stack`) and be parsed twice. Bracketed table expressions
/// (`FROM ((t))`), which no hook sees, nest only this deep on the caller's stack.
pub(super) const DEEP_NESTING: usize = 5;

/// Runs the pass over `tokens` in place. Returns whether the text has enough binary and
/// postfix operators, or nests deeply enough, that it must be parsed, checked and
/// dropped on the big stack.
pub(super) fn run(
    tokens: &mut [TokenWithSpan],
    grammar: Grammar,
    target: &Target,
) -> Result<bool, PrepassError> {
    let n = tokens.len();
    let mut operators = 0usize;
    let mut nesting = 0usize;
    let mut max_nesting = 0usize;
    // Whether the previous significant token ends an operand (so `+`/`-` are binary).
    let mut after_operand = false;
    let mut i = 0;
    while i < n {
        match &tokens[i].token {
            Token::Whitespace(Whitespace::SingleLineComment { prefix, .. }) => {
                return Err(comment(prefix, tokens[i].span.start));
            }
            Token::Whitespace(Whitespace::MultiLineComment(_)) => {
                return Err(comment("/*", tokens[i].span.start));
            }
            Token::Whitespace(_) => {
                i += 1;
                continue;
            }
            Token::LParen | Token::LBracket => {
                nesting += 1;
                max_nesting = max_nesting.max(nesting);
            }
            Token::RParen | Token::RBracket => nesting = nesting.saturating_sub(1),
            Token::Word(w) if w.quote_style.is_none() && w.keyword == Keyword::CASE => {
                nesting += 1;
                max_nesting = max_nesting.max(nesting);
            }
            Token::Word(w) if w.quote_style.is_none() && w.keyword == Keyword::END => {
                nesting = nesting.saturating_sub(1)
            }
            // Hive DDL types nest in angle brackets (`struct<a:array<int>>`).
            Token::Lt if grammar == Grammar::HiveDdl => {
                nesting += 1;
                max_nesting = max_nesting.max(nesting);
            }
            Token::Gt if grammar == Grammar::HiveDdl => nesting = nesting.saturating_sub(1),
            Token::ShiftRight if grammar == Grammar::HiveDdl => nesting = nesting.saturating_sub(2),
            Token::Word(w) if matches!(w.keyword, Keyword::AND | Keyword::OR) => operators += 1,
            // Postfix and infix words (`x IS NULL IS NULL …`, `a LIKE b LIKE c …`) build
            // left-deep chains the same way.
            Token::Word(w) if after_operand && w.quote_style.is_none() && chains(w.keyword) => {
                operators += 1
            }
            // `-5` in a VALUES row is a sign, not a chain link.
            Token::Plus | Token::Minus if !after_operand => {}
            // Separators and brackets; `.` joins the parts of one name.
            Token::Comma
            | Token::Period
            | Token::SemiColon
            | Token::Word(_)
            | Token::Number(..)
            | Token::SingleQuotedString(_)
            | Token::EOF => {}
            // Any other symbol after an operand is a binary or postfix operator (`+`,
            // `=`, `||`, `::`, `->`, …): one more link of a left-deep chain.
            _ if after_operand => operators += 1,
            _ => {}
        }
        after_operand = match &tokens[i].token {
            Token::Word(w) => !matches!(w.keyword, Keyword::AND | Keyword::OR | Keyword::NOT),
            Token::Number(..) | Token::SingleQuotedString(_) | Token::RParen | Token::RBracket => {
                true
            }
            _ => false,
        };
        // Spark typed numeric literals `5L`, `1.5D`, `2BD`: the tokenizer splits them into
        // a number and an adjacent word; glue the suffix back onto the number.
        if grammar == Grammar::Spark && i + 1 < n {
            if let (Token::Number(num, false), Token::Word(w)) =
                (&tokens[i].token, &tokens[i + 1].token)
            {
                let adjacent = tokens[i].span.end == tokens[i + 1].span.start;
                let suffix = ["L", "S", "Y", "D", "F", "BD"]
                    .iter()
                    .any(|s| w.quote_style.is_none() && w.value.eq_ignore_ascii_case(s));
                if adjacent && suffix {
                    let glued = format!("{num}{}", w.value);
                    tokens[i].token = Token::Number(glued, false);
                    tokens[i].span.end = tokens[i + 1].span.end;
                    tokens[i + 1].token = Token::Whitespace(Whitespace::Space);
                    i += 2;
                    continue;
                }
            }
        }
        if let Some(e) = number_run_on(tokens, i) {
            return Err(e);
        }
        if let Some(e) = placeholder_name_part(tokens, i) {
            return Err(e);
        }
        if is_word(&tokens[i].token, "FILTER") && !filter_clause_follows(tokens, i) {
            if let Token::Word(w) = &mut tokens[i].token {
                w.keyword = Keyword::NoKeyword;
            }
        }
        if grammar == Grammar::TrinoDml {
            if tokens[i].token == Token::DoubleEq {
                return Err(PrepassError {
                    message: format!("`==` is not {}'s: compare with =", target.engine),
                    location: tokens[i].span.start,
                });
            }
            if is_word(&tokens[i].token, "FETCH") {
                fetch_shape(tokens, i)?;
            }
            // `WITH ()`: sqlparser reads it as no properties at all; Trino's grammar has
            // at least one property between the brackets (SqlBase.g4, `properties`).
            if is_word(&tokens[i].token, "WITH") {
                let mut next = tokens[i + 1..]
                    .iter()
                    .filter(|t| !matches!(t.token, Token::Whitespace(_)));
                if next.next().is_some_and(|t| t.token == Token::LParen)
                    && next.next().is_some_and(|t| t.token == Token::RParen)
                {
                    return Err(PrepassError {
                        message: format!(
                            "an empty WITH (): {} takes WITH (property = value, …) with at least \
                             one property; leave WITH out when there is none",
                            target.engine
                        ),
                        location: tokens[i].span.start,
                    });
                }
            }
        }
        // `OF` closes a time-travel window: look back at `<kind> AS OF` and its `FOR`.
        if is_word(&tokens[i].token, "OF") {
            let mut back = [0usize; 3];
            let mut found = 0;
            let mut j = i;
            while found < 3 && j > 0 {
                j -= 1;
                if !matches!(tokens[j].token, Token::Whitespace(_)) {
                    back[found] = j;
                    found += 1;
                }
            }
            if found >= 2 && is_word(&tokens[back[0]].token, "AS") {
                let kind_idx = back[1];
                let for_idx =
                    (found == 3 && is_word(&tokens[back[2]].token, "FOR")).then_some(back[2]);
                let kind = &tokens[kind_idx].token;
                let travel = is_word(kind, "TIMESTAMP") || is_word(kind, "VERSION");
                let system = is_word(kind, "SYSTEM_TIME") || is_word(kind, "SYSTEM_VERSION");
                if travel {
                    match for_idx {
                        Some(f) => tokens[f].token = Token::Whitespace(Whitespace::Space),
                        None if grammar == Grammar::TrinoDml => {
                            return Err(PrepassError {
                                message: format!(
                                    "time travel written `{kind} AS OF` without FOR: {} accepts \
                                     FOR TIMESTAMP AS OF <timestamp> and FOR VERSION AS OF <snapshot id>",
                                    target.engine
                                ),
                                location: tokens[kind_idx].span.start,
                            });
                        }
                        None => {}
                    }
                } else if system && for_idx.is_some() && grammar == Grammar::TrinoDml {
                    return Err(PrepassError {
                        message: format!(
                            "FOR {kind} AS OF is {}: {} accepts FOR TIMESTAMP AS OF <timestamp> \
                             and FOR VERSION AS OF <snapshot id>",
                            target.system_time_refusal, target.engine
                        ),
                        location: tokens[kind_idx].span.start,
                    });
                }
            }
        }
        i += 1;
    }
    Ok(operators > DEEP_OPERATOR_CHAIN || max_nesting > DEEP_NESTING)
}

/// Keywords that join an operand to what follows it in a chain the parser builds in a
/// loop (`a IS NULL`, `a NOT IN (…)`, `a IN (…)`, `a LIKE b`, `a BETWEEN b AND c`, `a COLLATE c`,
/// `a AT TIME ZONE z`, `a DIV b`, `a XOR b`).
fn chains(k: Keyword) -> bool {
    matches!(
        k,
        Keyword::IS
            | Keyword::NOT
            | Keyword::IN
            | Keyword::LIKE
            | Keyword::ILIKE
            | Keyword::RLIKE
            | Keyword::REGEXP
            | Keyword::SIMILAR
            | Keyword::BETWEEN
            | Keyword::COLLATE
            | Keyword::AT
            | Keyword::DIV
            | Keyword::XOR
    )
}

fn comment(prefix: &str, location: Location) -> PrepassError {
    PrepassError {
        message: format!(
            "a `{}` comment in generated SQL: our renderers never write comments, so this is \
             most likely a string literal that ended early (unescaped quote)",
            prefix.trim()
        ),
        location,
    }
}

/// A number at `i` directly followed by a word or another number, as one refusal.
fn number_run_on(tokens: &[TokenWithSpan], i: usize) -> Option<PrepassError> {
    let Token::Number(num, long) = &tokens[i].token else {
        return None;
    };
    let next = tokens.get(i + 1)?;
    let runs_on = match &next.token {
        Token::Word(w) => w.quote_style.is_none(),
        Token::Number(..) => true,
        _ => false,
    };
    (runs_on && tokens[i].span.end == next.span.start).then(|| PrepassError {
        message: format!(
            "a number directly followed by letters or digits: `{num}{}{}`; a name cannot start \
             with a digit (quote it: \"{num}…\"), a number ends before a letter (write a space \
             or an operator after it), and an exponent has digits (`1e5`)",
            if *long { "L" } else { "" },
            next.token
        ),
        location: tokens[i].span.start,
    })
}

/// Whether `( WHERE` follows the token at `i`.
fn filter_clause_follows(tokens: &[TokenWithSpan], i: usize) -> bool {
    let mut next = tokens[i + 1..]
        .iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_)));
    next.next().is_some_and(|t| t.token == Token::LParen)
        && next.next().is_some_and(|t| is_word(&t.token, "WHERE"))
}

/// A `.` at `i` followed by a `?` placeholder (a name part that is a parameter).
fn placeholder_name_part(tokens: &[TokenWithSpan], i: usize) -> Option<PrepassError> {
    if tokens[i].token != Token::Period {
        return None;
    }
    let next = tokens[i + 1..]
        .iter()
        .find(|t| !matches!(t.token, Token::Whitespace(_)))?;
    matches!(next.token, Token::Placeholder(_)).then(|| PrepassError {
        message: "a `?` parameter after `.`: the parts of a dotted name are names; a \
                  parameter stands for a whole value (write `s.a`, or `?` alone)"
            .to_string(),
        location: next.span.start,
    })
}

/// `FETCH` at `i`, in Trino grammar: `FETCH FIRST|NEXT [n] ROW|ROWS ONLY|WITH TIES`.
/// A `FETCH` followed by none of `FIRST`, `NEXT`, a number, `ROW`, `ROWS` or `?` is a
/// name, left to the parser.
fn fetch_shape(tokens: &[TokenWithSpan], i: usize) -> Result<(), PrepassError> {
    let mut next = tokens[i + 1..]
        .iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_)));
    let is_count =
        |t: &Token| matches!(t, Token::Number(..)) || *t == Token::Placeholder("?".into());
    let rows = |t: &Token| is_word(t, "ROW") || is_word(t, "ROWS");
    let refuse = || {
        Err(PrepassError {
            message: "FETCH clause: Trino writes FETCH FIRST|NEXT [n] ROW|ROWS ONLY or \
                      FETCH FIRST|NEXT [n] ROW|ROWS WITH TIES (a number of rows, no PERCENT)"
                .to_string(),
            location: tokens[i].span.start,
        })
    };
    let Some(first) = next.next() else {
        return Ok(());
    };
    if is_count(&first.token) || rows(&first.token) {
        return refuse();
    }
    if !is_word(&first.token, "FIRST") && !is_word(&first.token, "NEXT") {
        return Ok(());
    }
    let mut t = next.next();
    if t.is_some_and(|t| is_count(&t.token)) {
        t = next.next();
    }
    if !t.is_some_and(|t| rows(&t.token)) {
        return refuse();
    }
    match next.next() {
        Some(t) if is_word(&t.token, "ONLY") => Ok(()),
        Some(t)
            if is_word(&t.token, "WITH")
                && next.next().is_some_and(|t| is_word(&t.token, "TIES")) =>
        {
            Ok(())
        }
        _ => refuse(),
    }
}

/// Trino grammar: the first character between tokens that is whitespace to sqlparser
/// (any Unicode white space) but not to Trino, whose lexer skips only space, tab, line
/// feed and carriage return (SqlBase.g4, `WS`) and refuses the rest (`SELECT\u{a0}1`).
/// Inside a string or a quoted name such a character is text, and fine.
pub(super) fn foreign_whitespace(sql: &str, tokens: &[TokenWithSpan]) -> Option<PrepassError> {
    let foreign = |c: char| c.is_whitespace() && !matches!(c, ' ' | '\t' | '\n' | '\r');
    // The ASCII ones are vertical tab and form feed; a byte scan settles the usual text.
    // (A fold, not `any`: without the early exit the scan is vectorised.)
    let maybe = sql.bytes().fold(false, |seen, b| {
        seen | matches!(b, 0x0b | 0x0c) | !b.is_ascii()
    });
    if !maybe || !sql.chars().any(foreign) {
        return None;
    }
    // Where each such character is, as the tokenizer counts (line, column).
    let mut at = std::collections::HashMap::new();
    let (mut line, mut column) = (1u64, 1u64);
    for c in sql.chars() {
        if foreign(c) {
            at.insert((line, column), c);
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    tokens.iter().find_map(|t| {
        let Token::Whitespace(Whitespace::Space) = t.token else {
            return None;
        };
        let c = at.get(&(t.span.start.line, t.span.start.column))?;
        Some(PrepassError {
            message: format!(
                "the white-space character U+{:04X} between words: Trino's SQL separates words \
                 with spaces, tabs and line breaks only; write a space",
                *c as u32
            ),
            location: t.span.start,
        })
    })
}

/// Trino grammar: `CREATE TABLE t () AS …`, an empty column list, which sqlparser reads
/// as none; Trino's grammar lists at least one name in it (SqlBase.g4, `columnAliases`).
pub(super) fn empty_column_list(tokens: &[TokenWithSpan]) -> Option<PrepassError> {
    let mut words = tokens
        .iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_)));
    let mut next = words.next()?;
    if !is_word(&next.token, "CREATE") {
        return None;
    }
    next = words.next()?;
    if is_word(&next.token, "OR") {
        words.next()?; // REPLACE
        next = words.next()?;
    }
    if !is_word(&next.token, "TABLE") {
        return None;
    }
    next = words.next()?;
    if is_word(&next.token, "IF") {
        words.next()?; // NOT
        words.next()?; // EXISTS
        next = words.next()?;
    }
    // The dotted name, then what follows it.
    loop {
        if !matches!(next.token, Token::Word(_)) {
            return None;
        }
        next = words.next()?;
        if next.token != Token::Period {
            break;
        }
        next = words.next()?;
    }
    let close = words.next()?;
    (next.token == Token::LParen && close.token == Token::RParen).then(|| PrepassError {
        message: "CREATE TABLE with an empty column list `()`: write the columns, or leave \
                  the brackets out"
            .to_string(),
        location: next.span.start,
    })
}
