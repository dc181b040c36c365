//! The token pass that runs between the tokenizer and the parser.
//!
//! * Comments are refused: our renderers never write one, so a `--` or `/*` in the text
//!   means a string literal ended early (the classic injection shape).
//! * `FOR TIMESTAMP AS OF` / `FOR VERSION AS OF` lose their `FOR` (sqlparser has no
//!   hook where table factors are parsed, and only knows the `FOR`-less spelling). The
//!   token is replaced by a space, so spans still point into the original text.
//! * Trino grammar only: the `FOR`-less spelling and `FOR SYSTEM_TIME|SYSTEM_VERSION AS
//!   OF` (Athena engine v2's) are refused with a message saying what the target accepts.

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

/// How many binary-operator tokens the text may have before the parsed tree is
/// dropped with [`super::teardown`] (a left-deep chain is as deep as its operator
/// count; well below this, the default drop is safe on a 2 MiB stack).
const DEEP_OPERATOR_CHAIN: usize = 2_000;

/// Runs the pass over `tokens` in place. Returns whether the text has enough binary
/// operators that its tree should be dropped iteratively.
pub(super) fn run(
    tokens: &mut [TokenWithSpan],
    grammar: Grammar,
    target: &Target,
) -> Result<bool, PrepassError> {
    let n = tokens.len();
    let mut operators = 0usize;
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
            Token::Word(w) if matches!(w.keyword, Keyword::AND | Keyword::OR) => operators += 1,
            // `-5` in a VALUES row is a sign, not a chain link.
            Token::Plus | Token::Minus if !after_operand => {}
            Token::Plus
            | Token::Minus
            | Token::Mul
            | Token::Div
            | Token::Mod
            | Token::Eq
            | Token::Neq
            | Token::Lt
            | Token::Gt
            | Token::LtEq
            | Token::GtEq
            | Token::StringConcat
            | Token::Ampersand
            | Token::Pipe
            | Token::Caret => operators += 1,
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
    Ok(operators > DEEP_OPERATOR_CHAIN)
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
