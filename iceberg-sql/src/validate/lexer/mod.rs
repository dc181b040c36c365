//! Our own lexer for the grammars the validator reads: one pass over the bytes of the
//! text, tokens that are a kind and a byte span (no text is copied; a quoted name or
//! string with escapes says so, and its value is decoded only when asked for).
//!
//! The lexical rules that differ between grammars are a small table, [`Rules`], that
//! each grammar names (`parser::Rules::lexical`): which characters quote a name,
//! whether a backslash escapes inside a string, whether `U&'…'` is a string. Everything
//! else is read the same way in every grammar.
//!
//! The token pre-pass (`super::prepass`) and our parser (`super::parser`) read these
//! tokens.

use std::borrow::Cow;

/// The lexical rules of one grammar.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    /// The characters that open (and close) a quoted name.
    pub(crate) name_quotes: &'static [u8],
    /// Whether `\` escapes the next character inside a `'…'` (or `N'…'`, Spark `"…"`)
    /// string (`'it\'s'`); otherwise only a doubled quote does (`'it''s'`).
    pub(crate) backslash_escapes: bool,
    /// Whether `U&'…'` is a string with `\XXXX` escapes (otherwise `U`, `&`, `'…'`).
    pub(crate) unicode_strings: bool,
}

impl Rules {
    /// Athena's Hive DDL. Backticks quote names; `"` opens a name too, so the
    /// validator can say which quote the grammar wants. No backslash escapes in Hive DDL
    /// text (our renderers write `''`).
    pub(crate) const HIVE_DDL: Rules = Rules {
        name_quotes: b"\"`",
        backslash_escapes: false,
        unicode_strings: false,
    };

    /// Trino's grammar (Athena DML, Trino, S3 Tables): `"` quotes names (a backtick
    /// opens one too, for the quoting message), `''` is the only escape in a string,
    /// and `U&'…'` is a Unicode string
    /// (<https://trino.io/docs/current/language/types.html#varchar>).
    pub(crate) const TRINO: Rules = Rules {
        name_quotes: b"\"`",
        backslash_escapes: false,
        unicode_strings: true,
    };

    /// Spark SQL: backticks quote names, `"…"` is a string, and a backslash escapes
    /// inside strings (<https://spark.apache.org/docs/3.5.0/sql-ref-literals.html#string-literal>).
    pub(crate) const SPARK: Rules = Rules {
        name_quotes: b"`",
        backslash_escapes: true,
        unicode_strings: false,
    };

    fn quotes_names(&self, b: u8) -> bool {
        self.name_quotes.contains(&b)
    }
}

/// One token: what it is and where it is (byte offsets into the text, end exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) kind: Kind,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A name or keyword: `select`, `"order"`, `` `date` ``. `quote` is the quote
    /// character of a quoted name; `doubled` says its text has a doubled quote in it.
    Word { quote: Option<u8>, doubled: bool },
    /// An unsigned number as written: `12`, `1.5`, `.5`, `1e5`, `0x1F`; `long` when a
    /// `L` suffix follows (`5L`; not part of the number's text).
    Number { long: bool },
    /// A string literal; `escaped` says its value differs from the text between the
    /// quotes (a doubled quote or an escape), `backslash` whether `\` escapes in it.
    Str {
        form: StrForm,
        escaped: bool,
        backslash: bool,
    },
    /// A dollar-quoted string, `$$…$$` or `$tag$…$tag$` (no grammar of ours has one;
    /// read so that the parser refuses it as it always has).
    DollarStr,
    /// A parameter placeholder: `?` (with any digits after it) or `$name`.
    Placeholder,
    /// An operator or punctuation.
    Symbol(Symbol),
    /// White space: one character (a line break may be `\r\n`).
    Blank(Blank),
    /// `-- …` up to (not including) the end of the line.
    LineComment,
    /// `/* … */`.
    BlockComment,
    /// One character that starts no token (a non-ASCII letter, a stray symbol).
    Other,
}

/// The forms of a string literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StrForm {
    /// `'…'`.
    Single,
    /// `"…"` in a grammar where `"` does not quote names (Spark).
    Double,
    /// `N'…'`.
    National,
    /// `X'…'` (hex digits, checked after the parse).
    Hex,
    /// `U&'…'` with `\XXXX` / `\+XXXXXX` escapes.
    Unicode,
}

impl StrForm {
    /// How many bytes precede the opening quote.
    fn prefix_len(self) -> usize {
        match self {
            StrForm::Single | StrForm::Double => 0,
            StrForm::National | StrForm::Hex => 1,
            StrForm::Unicode => 2,
        }
    }
}

/// White space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blank {
    Space,
    Tab,
    /// `\n`, `\r` or `\r\n`.
    Newline,
    /// Any other character Unicode calls white space (U+00A0, U+3000, …).
    Other,
}

/// Operators and punctuation, one per spelling the lexer recognises (`<>` and `!=`
/// are one operator).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Symbol {
    Comma,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Period,
    SemiColon,
    Colon,
    /// `::`
    DoubleColon,
    /// `:=`
    Assignment,
    Eq,
    /// `==`
    DoubleEq,
    /// `=>`
    RArrow,
    /// `<>` or `!=`
    Neq,
    Lt,
    LtEq,
    /// `<=>`
    Spaceship,
    /// `<<`
    ShiftLeft,
    /// `<@`
    ArrowAt,
    Gt,
    GtEq,
    /// `>>`
    ShiftRight,
    Plus,
    Minus,
    /// `->`
    Arrow,
    /// `->>`
    LongArrow,
    Mul,
    Div,
    Mod,
    /// `|`
    Pipe,
    /// `||`
    StringConcat,
    /// `|/`
    SquareRoot,
    /// `||/`
    CubeRoot,
    /// `!`
    Exclamation,
    /// `!!`
    DoubleExclamation,
    /// `!~`
    ExclamationTilde,
    /// `!~*`
    ExclamationTildeAsterisk,
    /// `&`
    Ampersand,
    /// `&&`
    Overlap,
    /// `^`
    Caret,
    /// `^@`
    CaretAt,
    /// `~`
    Tilde,
    /// `~*`
    TildeAsterisk,
    /// `#`
    Sharp,
    /// `#-`
    HashMinus,
    /// `#>`
    HashArrow,
    /// `#>>`
    HashLongArrow,
    /// `@`
    AtSign,
    /// `@>`
    AtArrow,
    /// `@?`
    AtQuestion,
    /// `@@`
    AtAt,
    /// `\`
    Backslash,
}

/// Text the lexer cannot read: what and where (a byte offset into the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LexError {
    pub(crate) message: Cow<'static, str>,
    pub(crate) at: usize,
}

fn error<T>(message: impl Into<Cow<'static, str>>, at: usize) -> Result<T, LexError> {
    Err(LexError {
        message: message.into(),
        at,
    })
}

/// The line and column (both 1-based; the column counts characters) of byte offset
/// `at` in `sql`. Only errors and spans for the parser need it.
pub(crate) fn line_column(sql: &str, at: usize) -> (u64, u64) {
    let before = sql.as_bytes().get(..at).unwrap_or(sql.as_bytes());
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    (line as u64, 1 + chars_in(&before[line_start..]) as u64)
}

/// How many characters the UTF-8 bytes `b` hold (bytes that do not continue one).
pub(crate) fn chars_in(b: &[u8]) -> usize {
    b.iter().filter(|&&c| (c & 0xC0) != 0x80).count()
}

/// Splits `sql` into tokens by `rules`; white space and comments are tokens too.
pub(crate) fn lex(sql: &str, rules: &Rules) -> Result<Vec<Token>, LexError> {
    let b = sql.as_bytes();
    let mut tokens = Vec::with_capacity(b.len() / 4 + 1);
    // Whether the last token that is not white space or a comment is a word (`t._c`
    // is a field access, `._c` elsewhere an error).
    let mut after_word = false;
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let (kind, end) = next_token(sql, i, rules, after_word)?;
        i = end;
        match kind {
            Kind::Blank(_) | Kind::LineComment | Kind::BlockComment => {}
            _ => after_word = matches!(kind, Kind::Word { .. }),
        }
        tokens.push(Token { kind, start, end });
    }
    Ok(tokens)
}

/// The byte at `i`, or 0 past the end (0 starts no token of its own here).
#[inline]
fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// The token starting at byte `i` (a character boundary) and the offset after it.
fn next_token(
    sql: &str,
    i: usize,
    rules: &Rules,
    after_word: bool,
) -> Result<(Kind, usize), LexError> {
    use Symbol as S;
    let b = sql.as_bytes();
    let c = b[i];
    let next = at(b, i + 1);
    let sym = |s: Symbol, len: usize| Ok((Kind::Symbol(s), i + len));
    match c {
        b' ' => Ok((Kind::Blank(Blank::Space), i + 1)),
        b'\t' => Ok((Kind::Blank(Blank::Tab), i + 1)),
        b'\n' => Ok((Kind::Blank(Blank::Newline), i + 1)),
        b'\r' => Ok((
            Kind::Blank(Blank::Newline),
            i + 1 + usize::from(next == b'\n'),
        )),
        b'N' | b'n' if next == b'\'' => {
            string(sql, i, StrForm::National, b'\'', rules.backslash_escapes)
        }
        b'U' | b'u' if rules.unicode_strings && next == b'&' && at(b, i + 2) == b'\'' => {
            let (end, escaped) = unicode_string(sql, i + 3, None)?;
            Ok((
                Kind::Str {
                    form: StrForm::Unicode,
                    escaped,
                    backslash: false,
                },
                end,
            ))
        }
        // Hex strings read backslash escapes in every grammar (a hex digit is never
        // one, so this only decides where a malformed literal ends).
        b'X' | b'x' if next == b'\'' => string(sql, i, StrForm::Hex, b'\'', true),
        b'\'' => string(sql, i, StrForm::Single, b'\'', rules.backslash_escapes),
        b'"' if !rules.quotes_names(b'"') => {
            string(sql, i, StrForm::Double, b'"', rules.backslash_escapes)
        }
        q if rules.quotes_names(q) => quoted_name(b, i, q),
        b'0'..=b'9' | b'.' => number(sql, i, after_word),
        b'(' => sym(S::LParen, 1),
        b')' => sym(S::RParen, 1),
        b',' => sym(S::Comma, 1),
        b'-' => match next {
            b'-' => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| i + p);
                Ok((Kind::LineComment, end))
            }
            b'>' if at(b, i + 2) == b'>' => sym(S::LongArrow, 3),
            b'>' => sym(S::Arrow, 2),
            _ => sym(S::Minus, 1),
        },
        b'/' if next == b'*' => match find(b, i + 2, b"*/") {
            Some(p) => Ok((Kind::BlockComment, p + 2)),
            None => error("Unexpected EOF while in a multi-line comment", b.len()),
        },
        b'/' => sym(S::Div, 1),
        b'+' => sym(S::Plus, 1),
        b'*' => sym(S::Mul, 1),
        b'%' => sym(S::Mod, 1),
        b'|' => match next {
            b'/' => sym(S::SquareRoot, 2),
            b'|' if at(b, i + 2) == b'/' => sym(S::CubeRoot, 3),
            b'|' => sym(S::StringConcat, 2),
            _ => sym(S::Pipe, 1),
        },
        b'=' => match next {
            b'>' => sym(S::RArrow, 2),
            b'=' => sym(S::DoubleEq, 2),
            _ => sym(S::Eq, 1),
        },
        b'!' => match next {
            b'=' => sym(S::Neq, 2),
            b'!' => sym(S::DoubleExclamation, 2),
            b'~' if at(b, i + 2) == b'*' => sym(S::ExclamationTildeAsterisk, 3),
            b'~' => sym(S::ExclamationTilde, 2),
            _ => sym(S::Exclamation, 1),
        },
        b'<' => match next {
            b'=' if at(b, i + 2) == b'>' => sym(S::Spaceship, 3),
            b'=' => sym(S::LtEq, 2),
            b'>' => sym(S::Neq, 2),
            b'<' => sym(S::ShiftLeft, 2),
            b'@' => sym(S::ArrowAt, 2),
            _ => sym(S::Lt, 1),
        },
        b'>' => match next {
            b'=' => sym(S::GtEq, 2),
            b'>' => sym(S::ShiftRight, 2),
            _ => sym(S::Gt, 1),
        },
        b':' => match next {
            b':' => sym(S::DoubleColon, 2),
            b'=' => sym(S::Assignment, 2),
            _ => sym(S::Colon, 1),
        },
        b';' => sym(S::SemiColon, 1),
        b'\\' => sym(S::Backslash, 1),
        b'[' => sym(S::LBracket, 1),
        b']' => sym(S::RBracket, 1),
        b'{' => sym(S::LBrace, 1),
        b'}' => sym(S::RBrace, 1),
        b'&' if next == b'&' => sym(S::Overlap, 2),
        b'&' => sym(S::Ampersand, 1),
        b'^' if next == b'@' => sym(S::CaretAt, 2),
        b'^' => sym(S::Caret, 1),
        b'~' if next == b'*' => sym(S::TildeAsterisk, 2),
        b'~' => sym(S::Tilde, 1),
        b'#' => match next {
            b'-' => sym(S::HashMinus, 2),
            b'>' if at(b, i + 2) == b'>' => sym(S::HashLongArrow, 3),
            b'>' => sym(S::HashArrow, 2),
            _ => sym(S::Sharp, 1),
        },
        b'@' => match next {
            b'>' => sym(S::AtArrow, 2),
            b'?' => sym(S::AtQuestion, 2),
            b'@' => sym(S::AtAt, 2),
            _ => sym(S::AtSign, 1),
        },
        b'?' => {
            let end = take_chars(sql, i + 1, char::is_numeric);
            Ok((Kind::Placeholder, end))
        }
        c if c.is_ascii_alphabetic() || c == b'_' => {
            let end = i
                + 1
                + b[i + 1..]
                    .iter()
                    .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
                    .unwrap_or(b.len() - i - 1);
            Ok((
                Kind::Word {
                    quote: None,
                    doubled: false,
                },
                end,
            ))
        }
        b'$' => dollar(sql, i),
        _ => {
            let ch = sql[i..].chars().next().unwrap_or('\0');
            let kind = if ch.is_whitespace() {
                Kind::Blank(Blank::Other)
            } else {
                Kind::Other
            };
            Ok((kind, i + ch.len_utf8().max(1)))
        }
    }
}

/// The offset of the first `needle` in `b` at or after `from`.
fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

/// The offset after the characters from `from` on that satisfy `keep`.
fn take_chars(sql: &str, from: usize, keep: impl Fn(char) -> bool) -> usize {
    let rest = sql.get(from..).unwrap_or("");
    from + rest.find(|c: char| !keep(c)).unwrap_or(rest.len())
}

/// A quoted name opened by `q` at `i`; a doubled quote stands for one.
fn quoted_name(b: &[u8], i: usize, q: u8) -> Result<(Kind, usize), LexError> {
    let mut doubled = false;
    let mut j = i + 1;
    loop {
        match b
            .get(j..)
            .and_then(|rest| rest.iter().position(|&c| c == q))
        {
            Some(p) if at(b, j + p + 1) == q => {
                doubled = true;
                j += p + 2;
            }
            Some(p) => {
                let kind = Kind::Word {
                    quote: Some(q),
                    doubled,
                };
                return Ok((kind, j + p + 1));
            }
            None => {
                return error(
                    format!("Expected close delimiter '{}' before EOF.", q as char),
                    i,
                )
            }
        }
    }
}

/// A string of `form` starting at `i` (its prefix, then `quote`).
fn string(
    sql: &str,
    i: usize,
    form: StrForm,
    quote: u8,
    backslash: bool,
) -> Result<(Kind, usize), LexError> {
    let open = i + form.prefix_len();
    let (end, escaped) = quoted_body(sql, open, quote, backslash, None)?;
    Ok((
        Kind::Str {
            form,
            escaped,
            backslash,
        },
        end,
    ))
}

/// Reads the string whose opening `quote` is at `open`: returns the offset after the
/// closing quote and whether the value differs from the text between the quotes;
/// pushes the value onto `value` if given.
fn quoted_body(
    sql: &str,
    open: usize,
    quote: u8,
    backslash: bool,
    mut value: Option<&mut String>,
) -> Result<(usize, bool), LexError> {
    let b = sql.as_bytes();
    let mut escaped = false;
    let mut j = open + 1;
    // Start of the text not yet pushed onto `value`.
    let mut from = j;
    let push = |value: &mut Option<&mut String>, s: &str| {
        if let Some(v) = value.as_deref_mut() {
            v.push_str(s);
        }
    };
    while j < b.len() {
        let c = b[j];
        if c == quote {
            if at(b, j + 1) == quote {
                // `''`: one quote.
                escaped = true;
                push(&mut value, &sql[from..j + 1]);
                j += 2;
                from = j;
                continue;
            }
            push(&mut value, &sql[from..j]);
            return Ok((j + 1, escaped));
        }
        if c == b'\\' && backslash {
            escaped = true;
            push(&mut value, &sql[from..j]);
            j += 1;
            if let Some(ch) = sql.get(j..).and_then(|r| r.chars().next()) {
                let mut buf = [0u8; 4];
                push(&mut value, unescape(ch).encode_utf8(&mut buf));
                j += ch.len_utf8();
            }
            from = j;
            continue;
        }
        j += 1;
    }
    error("Unterminated string literal", open)
}

/// The character a backslash escape stands for (`\n`, `\t`, …; `\x` is `x`).
fn unescape(c: char) -> char {
    match c {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'Z' => '\u{1a}',
        c => c,
    }
}

/// Reads the body of `U&'…'` starting after its opening quote: returns the offset after
/// the closing quote and whether it has escapes; pushes the value onto `value` if
/// given.
fn unicode_string(
    sql: &str,
    from: usize,
    mut value: Option<&mut String>,
) -> Result<(usize, bool), LexError> {
    let mut escaped = false;
    let mut j = from;
    let mut chars = sql.get(from..).unwrap_or("").chars().peekable();
    let push = |value: &mut Option<&mut String>, c: char| {
        if let Some(v) = value.as_deref_mut() {
            v.push(c);
        }
    };
    while let Some(c) = chars.next() {
        j += c.len_utf8();
        match c {
            '\'' if chars.peek() == Some(&'\'') => {
                chars.next();
                j += 1;
                escaped = true;
                push(&mut value, '\'');
            }
            '\'' => return Ok((j, escaped)),
            '\\' => {
                escaped = true;
                let digits = match chars.peek() {
                    Some('\\') => {
                        chars.next();
                        j += 1;
                        push(&mut value, '\\');
                        continue;
                    }
                    Some('+') => {
                        chars.next();
                        j += 1;
                        6
                    }
                    _ => 4,
                };
                let mut code = 0u32;
                for _ in 0..digits {
                    let Some(d) = chars.next() else {
                        return error(
                            "Unexpected EOF while parsing hex digit in escaped unicode string.",
                            j,
                        );
                    };
                    j += d.len_utf8();
                    let Some(v) = d.to_digit(16) else {
                        return error(
                            format!("Invalid hex digit in escaped unicode string: {d}"),
                            j,
                        );
                    };
                    code = code * 16 + v;
                }
                match char::from_u32(code) {
                    Some(c) => push(&mut value, c),
                    None => return error(format!("Invalid unicode character: {code:x}"), j),
                }
            }
            c => push(&mut value, c),
        }
    }
    error("Unterminated unicode encoded string literal", j)
}

/// A number, or a `.` that is no part of one, starting at `i`.
fn number(sql: &str, i: usize, after_word: bool) -> Result<(Kind, usize), LexError> {
    let b = sql.as_bytes();
    let digits = |from: usize| {
        from + b[from.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    if b[i] == b'.' && at(b, i + 1) == b'_' {
        // `t._c` is a field access; a number cannot be followed by `_`.
        if after_word {
            return Ok((Kind::Symbol(Symbol::Period), i + 1));
        }
        return error("Unexpected character '_'", i);
    }
    let mut j = digits(i);
    if j == i + 1 && b[i] == b'0' {
        let radix = match at(b, j) {
            b'x' | b'X' => Some((16, "a hexadecimal")),
            b'o' | b'O' => Some((8, "an octal")),
            b'b' | b'B' => Some((2, "a binary")),
            _ => None,
        };
        if let Some((radix, name)) = radix {
            let from = j + 1;
            let end = from
                + b[from..]
                    .iter()
                    .take_while(|&&c| (c as char).is_digit(radix))
                    .count();
            if end == from {
                return error(
                    format!("Expected {name} digit after '{}'", &sql[i..from]),
                    from,
                );
            }
            return Ok((Kind::Number { long: false }, end));
        }
    }
    if at(b, j) == b'.' {
        j = digits(j + 1);
    }
    if j == i + 1 && b[i] == b'.' {
        return Ok((Kind::Symbol(Symbol::Period), j));
    }
    if matches!(at(b, j), b'e' | b'E') {
        let mut k = j + 1;
        if matches!(at(b, k), b'+' | b'-') {
            k += 1;
        }
        if at(b, k).is_ascii_digit() {
            j = digits(k);
        }
    }
    let long = at(b, j) == b'L';
    Ok((Kind::Number { long }, j + usize::from(long)))
}

/// `$$…$$`, `$tag$…$tag$` or a `$name` placeholder, starting at `i`.
fn dollar(sql: &str, i: usize) -> Result<(Kind, usize), LexError> {
    let b = sql.as_bytes();
    if at(b, i + 1) == b'$' {
        // Ends at the first `$$` after the opening one.
        return match find(b, i + 2, b"$$") {
            Some(p) => Ok((Kind::DollarStr, p + 2)),
            None => error("Unterminated dollar-quoted string", b.len()),
        };
    }
    let tag_end = take_chars(sql, i + 1, |c| c.is_alphanumeric() || c == '_');
    if at(b, tag_end) != b'$' {
        return Ok((Kind::Placeholder, tag_end));
    }
    let delimiter = &b[i..=tag_end];
    match find(b, tag_end + 1, delimiter) {
        Some(p) => Ok((Kind::DollarStr, p + delimiter.len())),
        None => error("Unterminated dollar-quoted, expected $", b.len()),
    }
}

impl Token {
    /// The token's text as written.
    pub(crate) fn text<'a>(&self, sql: &'a str) -> &'a str {
        sql.get(self.start..self.end).unwrap_or("")
    }

    /// The value of a word (a quoted name without its quotes, a doubled quote as one),
    /// number (without its `L`), string, placeholder or comment (without `--`, `/*`,
    /// `*/`); otherwise the text.
    pub(crate) fn value<'a>(&self, sql: &'a str) -> Cow<'a, str> {
        let text = self.text(sql);
        let inner =
            |from: usize, to: usize| text.get(from..text.len().saturating_sub(to)).unwrap_or("");
        match self.kind {
            Kind::Word { quote: None, .. } => Cow::Borrowed(text),
            Kind::Word {
                quote: Some(q),
                doubled,
            } => {
                let s = inner(1, 1);
                if doubled {
                    let q = (q as char).to_string();
                    Cow::Owned(s.replace(&q.repeat(2), &q))
                } else {
                    Cow::Borrowed(s)
                }
            }
            Kind::Number { long } => Cow::Borrowed(inner(0, usize::from(long))),
            Kind::Str {
                form,
                escaped: false,
                ..
            } => Cow::Borrowed(inner(form.prefix_len() + 1, 1)),
            Kind::Str {
                form: StrForm::Unicode,
                ..
            } => {
                let mut v = String::new();
                // Checked when lexed, so this cannot fail; an empty value if it did.
                let _ = unicode_string(sql, self.start + 3, Some(&mut v));
                Cow::Owned(v)
            }
            Kind::Str {
                form, backslash, ..
            } => {
                let quote = if form == StrForm::Double { b'"' } else { b'\'' };
                let mut v = String::new();
                let _ = quoted_body(
                    sql,
                    self.start + form.prefix_len(),
                    quote,
                    backslash,
                    Some(&mut v),
                );
                Cow::Owned(v)
            }
            Kind::LineComment => Cow::Borrowed(inner(2, 0)),
            Kind::BlockComment => Cow::Borrowed(inner(2, 2)),
            Kind::DollarStr
            | Kind::Placeholder
            | Kind::Symbol(_)
            | Kind::Blank(_)
            | Kind::Other => Cow::Borrowed(text),
        }
    }
}
