//! Type names as text, read once for every reader: Iceberg's (`long`, `list<string>`,
//! `struct<lat: double>`), Hive's as Athena's DDL prints them (`array<string>`,
//! `struct<lat:double COMMENT 'deg'>`) and Trino's (`varchar(20)`, `array(varchar)`,
//! `row(lat double, "a b" varchar)`, `row(integer, varchar)`, `timestamp(6) with time
//! zone`, `double precision`, `interval day to second`); type names:
//! <https://iceberg.apache.org/spec/#schemas-and-data-types>,
//! <https://docs.aws.amazon.com/athena/latest/ug/data-types.html>,
//! <https://trino.io/docs/current/language/types.html>.
//!
//! This is syntax only: [`parse`] gives the name, its numbers, its element types and
//! fields; what a name means (and which names exist) is each reader's to say.
//!
//! ```
//! use iceberg_sql_rules::type_name::{parse, TypeName};
//! let t = parse("row(at timestamp(3) with time zone, tags array(varchar))")?;
//! assert_eq!(t.name, "row");
//! assert_eq!(t.fields[0].name.as_deref(), Some("at"));
//! assert_eq!(t.fields[0].ty.numbers, [3]);
//! assert_eq!(t.fields[0].ty.time_zone, Some(true));
//! assert_eq!(t.fields[1].ty.params[0].name, "varchar");
//! assert_eq!(parse("decimal(10, 2)")?.numbers, [10, 2]);
//! assert_eq!(parse("map<string, long>")?.params.len(), 2);
//! assert!(parse("array<string").is_err());
//! # Ok::<(), iceberg_sql_rules::type_name::SyntaxError>(())
//! ```

use std::fmt;

/// A type name as written: `name`, then numbers (`varchar(20)`, `decimal(10, 2)`),
/// element types (`array(varchar)`, `map<string, long>`) or fields (`row(..)`,
/// `struct<..>`), then `with` / `without time zone`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeName {
    /// The name, lower-cased; a name of several words is joined by single spaces
    /// (`double precision`, `interval day to second`).
    pub name: String,
    /// The numbers in parentheses after the name.
    pub numbers: Vec<u64>,
    /// The element types of any name other than `row` / `struct`.
    pub params: Vec<TypeName>,
    /// The fields of a `row` or `struct`.
    pub fields: Vec<FieldName>,
    /// `Some(true)` after `with time zone`, `Some(false)` after `without time zone`.
    pub time_zone: Option<bool>,
    /// Whether the element types or fields were in angle brackets (`array<string>`,
    /// Iceberg's and Hive's spelling) rather than parentheses (Trino's).
    pub angle_brackets: bool,
}

/// A field of a `row` or `struct`: `name type`, `name: type`, or a type alone (Trino's
/// anonymous row fields), with Hive's `NOT NULL` and `COMMENT '…'` after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldName {
    /// The field's name (unquoted; `""` and ``` `` ``` inside quotes read as one quote);
    /// `None` for an anonymous field.
    pub name: Option<String>,
    /// The field's type.
    pub ty: TypeName,
    /// Whether `NOT NULL` followed the type.
    pub not_null: bool,
    /// The text of a `COMMENT '…'` after the type (`''` and `\'` read as a quote).
    pub comment: Option<String>,
}

/// Why a text is not a type name, and the byte where reading stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// What was expected or found (`expected \`)\``).
    pub message: String,
    /// The byte offset in the text.
    pub at: usize,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.at)
    }
}

impl std::error::Error for SyntaxError {}

/// Deepest nesting read: deeper text is refused rather than risking the stack.
pub const MAX_DEPTH: usize = 64;

/// Parses all of `text` as one type name (surrounding white space allowed).
pub fn parse(text: &str) -> Result<TypeName, SyntaxError> {
    let (ty, end) = parse_prefix(text)?;
    if end != text.len() {
        return Err(SyntaxError {
            message: "unexpected text after the type".into(),
            at: end,
        });
    }
    Ok(ty)
}

/// Parses the type name at the start of `text`; returns it and the number of bytes
/// read, trailing white space included (for readers of a longer text, such as a
/// column list).
pub fn parse_prefix(text: &str) -> Result<(TypeName, usize), SyntaxError> {
    let mut p = Reader { s: text, i: 0 };
    let ty = p.ty(0)?;
    p.ws();
    Ok((ty, p.i))
}

struct Reader<'a> {
    s: &'a str,
    i: usize,
}

impl Reader<'_> {
    fn bad<T>(&self, message: impl Into<String>) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            message: message.into(),
            at: self.i,
        })
    }

    fn rest(&self) -> &str {
        &self.s[self.i..]
    }

    fn ws(&mut self) {
        self.i = self.s.len() - self.rest().trim_start().len();
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        if self.rest().starts_with(c) {
            self.i += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), SyntaxError> {
        if self.eat(c) {
            Ok(())
        } else {
            self.bad(format!("expected `{c}`"))
        }
    }

    /// The next word (ASCII letters, digits, `_`), lower-cased, without reading it.
    fn peek_word(&mut self) -> String {
        self.ws();
        let len = self
            .rest()
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(self.rest().len());
        self.rest()[..len].to_ascii_lowercase()
    }

    fn word(&mut self) -> String {
        let w = self.peek_word();
        self.i += w.len();
        w
    }

    /// Reads `word` if it comes next.
    fn eat_word(&mut self, word: &str) -> bool {
        if self.peek_word() == word {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn expect_word(&mut self, word: &str) -> Result<(), SyntaxError> {
        if self.eat_word(word) {
            Ok(())
        } else {
            self.bad(format!("expected `{word}`"))
        }
    }

    fn number(&mut self) -> Result<u64, SyntaxError> {
        self.ws();
        let len = self
            .rest()
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(self.rest().len());
        match self.rest()[..len].parse() {
            Ok(n) => {
                self.i += len;
                Ok(n)
            }
            Err(_) => self.bad("expected a number"),
        }
    }

    fn ty(&mut self, depth: usize) -> Result<TypeName, SyntaxError> {
        if depth >= MAX_DEPTH {
            return self.bad("nested too deeply");
        }
        let mut name = self.word();
        if name.is_empty() {
            return self.bad("expected a type name");
        }
        if name == "double" && self.eat_word("precision") {
            name.push_str(" precision");
        } else if name == "interval" {
            let from = self.word();
            self.expect_word("to")?;
            let to = self.word();
            name = format!("interval {from} to {to}");
        }
        let mut ty = TypeName {
            name,
            numbers: Vec::new(),
            params: Vec::new(),
            fields: Vec::new(),
            time_zone: None,
            angle_brackets: false,
        };
        let composite = matches!(ty.name.as_str(), "row" | "struct");
        self.ws();
        let close = if self.eat('<') {
            ty.angle_brackets = true;
            Some('>')
        } else if self.eat('(') {
            Some(')')
        } else {
            None
        };
        if let Some(close) = close {
            self.ws();
            let numbers = close == ')' && self.rest().starts_with(|c: char| c.is_ascii_digit());
            if !self.eat(close) {
                loop {
                    if numbers {
                        ty.numbers.push(self.number()?);
                    } else if composite {
                        ty.fields.push(self.field(depth)?);
                    } else {
                        ty.params.push(self.ty(depth + 1)?);
                    }
                    if !self.eat(',') {
                        break;
                    }
                }
                self.expect(close)?;
            }
        }
        if self.eat_word("with") {
            self.expect_word("time")?;
            self.expect_word("zone")?;
            ty.time_zone = Some(true);
        } else if self.eat_word("without") {
            self.expect_word("time")?;
            self.expect_word("zone")?;
            ty.time_zone = Some(false);
        }
        Ok(ty)
    }

    /// A quoted name (`"…"` or `` `…` ``, the quote doubled inside), if one comes next.
    fn quoted(&mut self) -> Result<Option<String>, SyntaxError> {
        self.ws();
        let Some(q) = self
            .rest()
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '`')
        else {
            return Ok(None);
        };
        self.i += 1;
        let mut name = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                return self.bad("unterminated quoted field name");
            };
            self.i += c.len_utf8();
            if c != q {
                name.push(c);
            } else if self.rest().starts_with(q) {
                self.i += 1;
                name.push(q);
            } else {
                return Ok(Some(name));
            }
        }
    }

    fn field(&mut self, depth: usize) -> Result<FieldName, SyntaxError> {
        let name = match self.quoted()? {
            Some(name) => {
                self.eat(':');
                Some(name)
            }
            None => {
                // `name: type` and `name type` are named; a lone type (`integer`,
                // `double precision`, `timestamp with time zone`) is anonymous.
                let save = self.i;
                let first = self.word();
                if self.eat(':') {
                    Some(first)
                } else {
                    let next = self.peek_word();
                    let starts_type = next.starts_with(|c: char| c.is_ascii_alphabetic());
                    let continues_first = matches!(first.as_str(), "double" | "interval")
                        || matches!(next.as_str(), "with" | "without");
                    if starts_type && !continues_first {
                        Some(first)
                    } else {
                        self.i = save;
                        None
                    }
                }
            }
        };
        if name.as_deref() == Some("") {
            return self.bad("expected a field name");
        }
        let ty = self.ty(depth + 1)?;
        let not_null = if self.eat_word("not") {
            self.expect_word("null")?;
            true
        } else {
            false
        };
        let comment = if self.eat_word("comment") {
            Some(self.string()?)
        } else {
            None
        };
        Ok(FieldName {
            name,
            ty,
            not_null,
            comment,
        })
    }

    /// A `'…'` string: `''` and `\'` are a quote, `\n` / `\t` / `\r` their characters.
    fn string(&mut self) -> Result<String, SyntaxError> {
        if !self.eat('\'') {
            return self.bad("expected a quoted comment");
        }
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((at, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, x)) => out.push(x),
                    None => break,
                },
                '\'' if self.rest()[at + 1..].starts_with('\'') => {
                    out.push('\'');
                    chars.next();
                }
                '\'' => {
                    self.i += at + 1;
                    return Ok(out);
                }
                c => out.push(c),
            }
        }
        self.i = self.s.len();
        self.bad("unterminated comment")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simple(name: &str) -> TypeName {
        TypeName {
            name: name.into(),
            numbers: vec![],
            params: vec![],
            fields: vec![],
            time_zone: None,
            angle_brackets: false,
        }
    }

    #[test]
    fn each_spelling() {
        assert_eq!(parse(" BIGINT ").unwrap(), simple("bigint"));
        assert_eq!(
            parse("double precision").unwrap(),
            simple("double precision")
        );
        assert_eq!(
            parse("interval day to second").unwrap(),
            simple("interval day to second")
        );
        let t = parse("timestamp(6) without time zone").unwrap();
        assert_eq!((t.numbers, t.time_zone), (vec![6], Some(false)));
        let t = parse("array<map<string,decimal(38,9)>>").unwrap();
        assert!(t.angle_brackets);
        assert_eq!(t.params[0].params[1].numbers, [38, 9]);
        let t = parse("row(integer, double precision, timestamp with time zone)").unwrap();
        assert!(t.fields.iter().all(|f| f.name.is_none()));
        assert_eq!(t.fields[2].ty.time_zone, Some(true));
        let t = parse("struct<`a``b`:int NOT NULL COMMENT 'it''s \\'x\\'', c: string>").unwrap();
        assert_eq!(t.fields[0].name.as_deref(), Some("a`b"));
        assert!(t.fields[0].not_null);
        assert_eq!(t.fields[0].comment.as_deref(), Some("it's 'x'"));
        assert_eq!(t.fields[1].name.as_deref(), Some("c"));
        let t = parse("row(\"a \"\"b\"\"\" varchar, ts timestamp(3))").unwrap();
        assert_eq!(t.fields[0].name.as_deref(), Some("a \"b\""));
        assert_eq!(t.fields[1].ty.numbers, [3]);
    }

    #[test]
    fn refusals_say_where() {
        let at = |t: &str| parse(t).unwrap_err();
        assert_eq!(at("array<string").to_string(), "expected `>` at byte 12");
        assert_eq!(
            at("int extra").to_string(),
            "unexpected text after the type at byte 4"
        );
        assert_eq!(at("").message, "expected a type name");
        assert_eq!(
            at("struct<a:int COMMENT 'x").message,
            "unterminated comment"
        );
        assert_eq!(at("decimal(10,)").message, "expected a number");
        assert_eq!(at(&"array(".repeat(70)).message, "nested too deeply");
        let (t, used) = parse_prefix("varchar(5) COMMENT 'x'").unwrap();
        assert_eq!((t.numbers, used), (vec![5], 11));
    }
}
