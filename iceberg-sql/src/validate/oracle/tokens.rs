//! Our tokens as sqlparser's, so that sqlparser's `Parser`
//! (`with_tokens_with_locations`) runs on them unchanged, in the tests' oracle.
//!
//! sqlparser's positions are 1-based lines and columns, a column counting characters
//! (not bytes) since the last `\n` (a lone `\r` is a character of the line); a token's
//! span runs from its first character to the position just after its last.

use std::sync::OnceLock;

use sqlparser::ast::DollarQuotedString;
use sqlparser::keywords::{Keyword, ALL_KEYWORDS, ALL_KEYWORDS_INDEX};
use sqlparser::tokenizer::{Location, Span, Token as SqlToken, TokenWithSpan, Whitespace, Word};

use crate::dialect::Grammar;
use crate::validate::lexer::{self, Blank, Kind, LexError, StrForm, Symbol, Token};
use crate::validate::prepass;

/// `tokens` (lexed from `sql`: they cover it, each starting where the last ended) as
/// sqlparser's tokens with their spans.
pub(crate) fn convert(sql: &str, tokens: &[Token]) -> Vec<TokenWithSpan> {
    let ascii = sql.is_ascii();
    let mut at = Location::new(1, 1);
    tokens
        .iter()
        .map(|t| {
            let start = at;
            at = after(at, sql.as_bytes().get(t.start..t.end).unwrap_or(&[]), ascii);
            TokenWithSpan::new(token(sql, t), Span::new(start, at))
        })
        .collect()
}

/// `e`'s position as sqlparser's location.
pub(crate) fn location(sql: &str, e: &LexError) -> Location {
    let (line, column) = lexer::line_column(sql, e.at);
    Location::new(line, column)
}

/// The position after `text`, which starts at `at` (`ascii`: the whole text is ASCII,
/// so a column is a byte).
fn after(at: Location, text: &[u8], ascii: bool) -> Location {
    let chars = |b: &[u8]| if ascii { b.len() } else { lexer::chars_in(b) } as u64;
    match text.iter().rposition(|&b| b == b'\n') {
        None => Location::new(at.line, at.column + chars(text)),
        Some(last) => Location::new(
            at.line + text.iter().filter(|&&b| b == b'\n').count() as u64,
            1 + chars(&text[last + 1..]),
        ),
    }
}

fn token(sql: &str, t: &Token) -> SqlToken {
    let value = || t.value(sql).into_owned();
    match t.kind {
        Kind::Word { quote: None, .. } => {
            let value = t.text(sql);
            SqlToken::Word(Word {
                keyword: keyword(value),
                value: value.to_string(),
                quote_style: None,
            })
        }
        // A quoted name is never a keyword.
        Kind::Word { quote: Some(q), .. } => SqlToken::Word(Word {
            value: value(),
            quote_style: Some(char::from(q)),
            keyword: Keyword::NoKeyword,
        }),
        Kind::Number { long } => SqlToken::Number(value(), long),
        Kind::Str { form, .. } => match form {
            StrForm::Single => SqlToken::SingleQuotedString(value()),
            StrForm::Double => SqlToken::DoubleQuotedString(value()),
            StrForm::National => SqlToken::NationalStringLiteral(value()),
            StrForm::Hex => SqlToken::HexStringLiteral(value()),
            StrForm::Unicode => SqlToken::UnicodeStringLiteral(value()),
        },
        Kind::DollarStr => {
            let (tag, value) = t.dollar_parts(sql);
            SqlToken::DollarQuotedString(DollarQuotedString {
                value,
                tag: tag.map(str::to_string),
            })
        }
        Kind::Placeholder => SqlToken::Placeholder(value()),
        Kind::Symbol(s) => symbol(s),
        Kind::Blank(Blank::Tab) => SqlToken::Whitespace(Whitespace::Tab),
        Kind::Blank(Blank::Newline) => SqlToken::Whitespace(Whitespace::Newline),
        Kind::Blank(Blank::Space | Blank::Other) => SqlToken::Whitespace(Whitespace::Space),
        Kind::LineComment => SqlToken::Whitespace(Whitespace::SingleLineComment {
            comment: value(),
            prefix: "--".to_string(),
        }),
        Kind::BlockComment => SqlToken::Whitespace(Whitespace::MultiLineComment(value())),
        Kind::Other => SqlToken::Char(t.text(sql).chars().next().unwrap_or('\0')),
    }
}

/// Slots of the keyword table (a power of two, about four times sqlparser's keyword
/// count, so a lookup mostly probes one slot).
const KEYWORD_SLOTS: usize = 4096;

/// An unused slot of the keyword table.
const EMPTY: u16 = u16::MAX;

/// A hash of `w` that ignores ASCII case (FNV-1a over the upper-cased bytes).
fn fold_hash(w: &[u8]) -> usize {
    let h = w.iter().fold(0x811c_9dc5_u32, |h, &c| {
        (h ^ u32::from(c.to_ascii_uppercase())).wrapping_mul(0x0100_0193)
    });
    h as usize & (KEYWORD_SLOTS - 1)
}

/// sqlparser's keyword for an unquoted `word` (any ASCII case), as its tokenizer finds
/// it, through a hash table built once instead of its binary search over all keywords
/// (that search was a third of this conversion's instructions).
fn keyword(word: &str) -> Keyword {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = vec![EMPTY; KEYWORD_SLOTS];
        // At most all slots but one, so a lookup always ends at an empty slot (the
        // keyword test fails if sqlparser ever has that many keywords).
        for (i, k) in ALL_KEYWORDS.iter().enumerate().take(KEYWORD_SLOTS - 1) {
            let Ok(i) = u16::try_from(i) else { break };
            let mut slot = fold_hash(k.as_bytes());
            while table[slot] != EMPTY {
                slot = (slot + 1) & (KEYWORD_SLOTS - 1);
            }
            table[slot] = i;
        }
        table
    });
    let w = word.as_bytes();
    let mut slot = fold_hash(w);
    loop {
        let i = usize::from(table[slot]);
        match ALL_KEYWORDS.get(i) {
            // EMPTY is past the last keyword: not a keyword.
            None => return Keyword::NoKeyword,
            Some(k) if k.as_bytes().eq_ignore_ascii_case(w) => return ALL_KEYWORDS_INDEX[i],
            Some(_) => slot = (slot + 1) & (KEYWORD_SLOTS - 1),
        }
    }
}

fn symbol(s: Symbol) -> SqlToken {
    use SqlToken as T;
    use Symbol as S;
    match s {
        S::Comma => T::Comma,
        S::LParen => T::LParen,
        S::RParen => T::RParen,
        S::LBracket => T::LBracket,
        S::RBracket => T::RBracket,
        S::LBrace => T::LBrace,
        S::RBrace => T::RBrace,
        S::Period => T::Period,
        S::SemiColon => T::SemiColon,
        S::Colon => T::Colon,
        S::DoubleColon => T::DoubleColon,
        S::Assignment => T::Assignment,
        S::Eq => T::Eq,
        S::DoubleEq => T::DoubleEq,
        S::RArrow => T::RArrow,
        S::Neq => T::Neq,
        S::Lt => T::Lt,
        S::LtEq => T::LtEq,
        S::Spaceship => T::Spaceship,
        S::ShiftLeft => T::ShiftLeft,
        S::ArrowAt => T::ArrowAt,
        S::Gt => T::Gt,
        S::GtEq => T::GtEq,
        S::ShiftRight => T::ShiftRight,
        S::Plus => T::Plus,
        S::Minus => T::Minus,
        S::Arrow => T::Arrow,
        S::LongArrow => T::LongArrow,
        S::Mul => T::Mul,
        S::Div => T::Div,
        S::Mod => T::Mod,
        S::Pipe => T::Pipe,
        S::StringConcat => T::StringConcat,
        S::SquareRoot => T::PGSquareRoot,
        S::CubeRoot => T::PGCubeRoot,
        S::Exclamation => T::ExclamationMark,
        S::DoubleExclamation => T::DoubleExclamationMark,
        S::ExclamationTilde => T::ExclamationMarkTilde,
        S::ExclamationTildeAsterisk => T::ExclamationMarkTildeAsterisk,
        S::Ampersand => T::Ampersand,
        S::Overlap => T::Overlap,
        S::Caret => T::Caret,
        S::CaretAt => T::CaretAt,
        S::Tilde => T::Tilde,
        S::TildeAsterisk => T::TildeAsterisk,
        S::Sharp => T::Sharp,
        S::HashMinus => T::HashMinus,
        S::HashArrow => T::HashArrow,
        S::HashLongArrow => T::HashLongArrow,
        S::AtSign => T::AtSign,
        S::AtArrow => T::AtArrow,
        S::AtQuestion => T::AtQuestion,
        S::AtAt => T::AtAt,
        S::Backslash => T::Backslash,
    }
}

/// Rewrites `theirs`, the conversion of `ours` (tokens of `sql`), where sqlparser's
/// parser would read our grammars' text otherwise:
///
/// * `FOR TIMESTAMP AS OF` / `FOR VERSION AS OF` lose their `FOR` (sqlparser has no
///   hook where table factors are parsed, and only knows the `FOR`-less spelling). The
///   token becomes a space, so spans still point into the original text.
/// * Spark's typed numbers (`1.5D`, `2BD`) are one number token, as Spark reads them.
/// * `FILTER` not followed by `( WHERE` is a plain word: sqlparser's function-call parse
///   takes `FILTER (` before it looks for `WHERE` and does not give them back, so
///   `count(x) FILTER ( FROM t` read as `count(x) FROM t` and `count(x) filter` lost its
///   alias. Trino's grammar (SqlBase.g4, `filter`: `FILTER '(' WHERE booleanExpression
///   ')'`) and Spark's (SqlBaseParser.g4, `functionCall`) have only that form, and take
///   `filter` as a name anywhere else (`count(x) filter`, `FROM (…) filter (a)`).
pub(crate) fn adapt(sql: &str, ours: &[Token], theirs: &mut [TokenWithSpan], grammar: Grammar) {
    let word = |t: &Token, w: &str| {
        matches!(t.kind, Kind::Word { quote: None, .. }) && t.text(sql).eq_ignore_ascii_case(w)
    };
    let significant = |from: usize| {
        ours[from..]
            .iter()
            .enumerate()
            .filter(|(_, t)| !matches!(t.kind, Kind::Blank(_)))
            .map(move |(j, t)| (from + j, t))
    };
    let mut i = 0;
    while i < ours.len() {
        if grammar == Grammar::Spark && prepass::spark_typed_number(sql, ours, i) {
            if let SqlToken::Number(num, false) = &theirs[i].token {
                let glued = format!("{num}{}", ours[i + 1].text(sql));
                theirs[i].token = SqlToken::Number(glued, false);
                theirs[i].span.end = theirs[i + 1].span.end;
                theirs[i + 1].token = SqlToken::Whitespace(Whitespace::Space);
            }
            i += 2;
            continue;
        }
        if word(&ours[i], "FILTER") {
            let mut next = significant(i + 1);
            let clause = next
                .next()
                .is_some_and(|(_, t)| t.kind == Kind::Symbol(Symbol::LParen))
                && next.next().is_some_and(|(_, t)| word(t, "WHERE"));
            if let (false, SqlToken::Word(w)) = (clause, &mut theirs[i].token) {
                w.keyword = Keyword::NoKeyword;
            }
        }
        if word(&ours[i], "FOR") {
            let mut next = significant(i + 1);
            let travel = next
                .next()
                .is_some_and(|(_, t)| word(t, "TIMESTAMP") || word(t, "VERSION"))
                && next.next().is_some_and(|(_, t)| word(t, "AS"))
                && next.next().is_some_and(|(_, t)| word(t, "OF"));
            if travel {
                theirs[i].token = SqlToken::Whitespace(Whitespace::Space);
            }
        }
        i += 1;
    }
}
