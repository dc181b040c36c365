//! Our tokens as sqlparser's, so that the token pre-pass and sqlparser's `Parser`
//! (`with_tokens_with_locations`) run on them unchanged. This module goes when the
//! parser is ours.
//!
//! sqlparser's positions are 1-based lines and columns, a column counting characters
//! (not bytes) since the last `\n` (a lone `\r` is a character of the line); a token's
//! span runs from its first character to the position just after its last.

use sqlparser::ast::DollarQuotedString;
use sqlparser::tokenizer::{Location, Span, Token as SqlToken, TokenWithSpan, Whitespace};

use super::{Blank, Kind, LexError, StrForm, Symbol, Token};

/// `tokens` (lexed from `sql`) as sqlparser's tokens with their spans.
pub(crate) fn convert(sql: &str, tokens: &[Token]) -> Vec<TokenWithSpan> {
    let mut cursor = Cursor::new(sql);
    tokens
        .iter()
        .map(|t| {
            let start = cursor.advance_to(t.start);
            let end = cursor.advance_to(t.end);
            TokenWithSpan::new(token(sql, t), Span::new(start, end))
        })
        .collect()
}

/// `e`'s position as sqlparser's location.
pub(crate) fn location(sql: &str, e: &LexError) -> Location {
    let (line, column) = super::line_column(sql, e.at);
    Location::new(line, column)
}

/// Walks the text once, turning increasing byte offsets into line and column.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u64,
    column: u64,
}

impl<'a> Cursor<'a> {
    fn new(sql: &'a str) -> Self {
        Cursor {
            bytes: sql.as_bytes(),
            at: 0,
            line: 1,
            column: 1,
        }
    }

    fn advance_to(&mut self, to: usize) -> Location {
        for &b in self.bytes.get(self.at..to).unwrap_or(&[]) {
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else if (b & 0xC0) != 0x80 {
                self.column += 1;
            }
        }
        self.at = self.at.max(to);
        Location::new(self.line, self.column)
    }
}

fn token(sql: &str, t: &Token) -> SqlToken {
    let value = || t.value(sql).into_owned();
    match t.kind {
        Kind::Word { quote, .. } => SqlToken::make_word(&t.value(sql), quote.map(char::from)),
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
