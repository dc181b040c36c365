//! The VALUES recognizer: checks the rows of a big `INSERT … VALUES` without building a
//! syntax tree per row.
//!
//! A batch of 262,144 bytes holds about 1,700 rows; a parser would build a full tree
//! for each. Rows of literals have a small grammar, so [`validate_insert_values`]
//! splits the work:
//!
//! * the statement up to the end of its **first row** goes through the whole validator
//!   (`check::validated`: our parser, the checks for INSERT: the target, the column
//!   list, its literal forms), then the INSERT's form and the row's column count are
//!   read from its tree;
//! * **every row**, the first included, is read byte by byte by the recognizer below,
//!   which accepts only the literal forms the grammar's writers produce, each row with
//!   the first row's number of values, rows separated by `,` and whitespace, and
//!   nothing after the last row.
//!
//! What it accepts, per grammar (`T` = a type as the grammar spells it; `v` = a value):
//!
//! | form | Trino (Athena DML) | Spark |
//! |---|---|---|
//! | string | `'…'`, `'` doubled; `U&'…'` with `''`, `\\` and `\XXXX` (text with control characters) | `'…'`, only `\\` `\'` `\{` escapes |
//! | number | `-?digits` (within bigint), `-?d.d` (at most 38 digits), `-?d.dE-?d` | the same (any size) |
//! | boolean | `true`, `false` | the same |
//! | typed string | `TIMESTAMP`, `DATE`, `REAL`, `DECIMAL`, `BIGINT` + a string of that type | `TIMESTAMP`, `TIMESTAMP_NTZ`, `DATE` + string |
//! | binary | `X'hex'` | `X'hex'` |
//! | cast | `CAST(v AS T)`, `v` also `NULL`, `ARRAY[]`, `nan()`, `infinity()`, `-infinity()` | `CAST(v AS T)`, `v` also `NULL`, `array()`, `map()` |
//! | nested | `ARRAY[v, …]`, `MAP(ARRAY[…], ARRAY[…])`, `ROW(v, …)` | `array(v, …)`, `map(k, v, …)`, `named_struct('n', v, …)` |
//!
//! Whatever it accepts, the full validator accepts too (`tests/dml_props.rs` checks
//! generated rows); it refuses some text the validator would accept (other spacing,
//! other escapes, an INSERT without columns), which our writers never produce.

use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result, SqlLocation};
use crate::statement::StatementKind;

/// Validates `sql`, an `INSERT INTO t (…) VALUES row, row, …` whose first row starts at
/// byte `rows_at`: the statement through its first row with the full validator, every
/// row with the recognizer.
pub(crate) fn validate_insert_values(sql: &str, rows_at: usize, dialect: Dialect) -> Result<()> {
    validate_rows(sql, rows_at, dialect, |head| shape(head, dialect))
}

/// The statement through its first row, `head`, through the validator
/// (`check::validated`: the token pre-pass, our parser in the grammar of the dialect's
/// INSERT, the target's checks on its tree, the names' quoting among them), then its
/// shape: exactly one `INSERT INTO t (columns) VALUES (row)` with a value per column.
/// The row's values are the recognizer's to check too.
fn shape(head: &str, dialect: Dialect) -> Result<()> {
    use super::parser::ast::{InsertSource, Statement};
    let kind = StatementKind::Insert;
    let stmt = super::check::validated(head, kind, dialect, 0)?;
    // At the text's start: the tree keeps no span for the parts these name.
    let shape_error = |what: String| {
        Err(Error::new(ErrorKind::DisallowedSyntax, what)
            .with_sql(head, Some(SqlLocation { line: 1, column: 1 })))
    };
    let Statement::Insert(ins) = &stmt else {
        return shape_error("expected an INSERT INTO t (columns) VALUES …".into());
    };
    let InsertSource::Values(rows) = &ins.source else {
        return shape_error("expected VALUES rows after the INSERT's columns".into());
    };
    match rows.as_slice() {
        [row] if row.len() == ins.columns.len() => Ok(()),
        [row] => shape_error(format!(
            "a VALUES row has {} values for the {} columns of the INSERT",
            row.len(),
            ins.columns.len()
        )),
        _ => shape_error("expected exactly one VALUES row before the recognizer's".into()),
    }
}

/// [`validate_insert_values`] with `shape`, the check of the statement through its first
/// row.
fn validate_rows(
    sql: &str,
    rows_at: usize,
    dialect: Dialect,
    shape: impl FnOnce(&str) -> Result<()>,
) -> Result<()> {
    super::check_size(sql)?;
    let grammar = dialect.grammar(StatementKind::Insert);
    let mut r = Reader {
        sql: sql.as_bytes(),
        at: rows_at,
        grammar,
        depth: 0,
    };
    let fail = |e: Refused| Err(e.into_error(sql, grammar));
    if !sql.is_char_boundary(rows_at) || rows_at > sql.len() {
        return fail(Refused {
            at: 0,
            what: "the VALUES rows start inside a character",
        });
    }
    let width = match r.row() {
        Ok(n) => n,
        Err(e) => return fail(e),
    };
    // The shape (target, columns, the first row and its column count).
    shape(&sql[..r.at])?;
    loop {
        r.skip_space();
        if r.at == r.sql.len() {
            return Ok(());
        }
        if let Err(e) = r.expect(b",").and_then(|()| {
            r.skip_space();
            let start = r.at;
            let n = r.row()?;
            if n == width {
                Ok(())
            } else {
                Err(Refused {
                    at: start,
                    what: "a row with another number of values than the first row",
                })
            }
        }) {
            return fail(e);
        }
    }
}

/// Where the recognizer stopped and what it expected.
#[derive(Debug)]
struct Refused {
    at: usize,
    what: &'static str,
}

impl Refused {
    fn into_error(self, sql: &str, grammar: Grammar) -> Error {
        let before = &sql[..floor_char_boundary(sql, self.at)];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let found = sql[floor_char_boundary(sql, self.at)..]
            .chars()
            .take(20)
            .collect::<String>();
        let found = if found.is_empty() {
            "the end of the text".to_string()
        } else {
            format!("`{}`", found.escape_debug())
        };
        Error::new(
            ErrorKind::Syntax,
            format!(
                "{} VALUES row: expected {}, found {found}",
                grammar.name(),
                self.what
            ),
        )
        .with_sql(sql, Some(SqlLocation { line, column }))
    }
}

fn floor_char_boundary(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

type Read<T> = std::result::Result<T, Refused>;

/// A cursor over the text.
struct Reader<'a> {
    sql: &'a [u8],
    at: usize,
    grammar: Grammar,
    /// How many values enclose the one being read (ARRAY, MAP, ROW, CAST).
    depth: usize,
}

impl Reader<'_> {
    fn spark(&self) -> bool {
        self.grammar == Grammar::Spark
    }

    fn refuse<T>(&self, what: &'static str) -> Read<T> {
        Err(Refused { at: self.at, what })
    }

    fn peek(&self) -> Option<u8> {
        self.sql.get(self.at).copied()
    }

    /// Consumes `s` (ASCII, compared without case), if it is next.
    fn eat(&mut self, s: &[u8]) -> bool {
        let ok = self
            .sql
            .get(self.at..self.at + s.len())
            .is_some_and(|t| t.eq_ignore_ascii_case(s));
        if ok {
            self.at += s.len();
        }
        ok
    }

    /// Consumes `s` (a keyword: not followed by a name character), if it is next.
    fn eat_word(&mut self, s: &[u8]) -> bool {
        let end = self.at + s.len();
        let whole = self
            .sql
            .get(end)
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
        whole && self.eat(s)
    }

    fn expect(&mut self, s: &'static [u8]) -> Read<()> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(Refused {
                at: self.at,
                what: match s {
                    b"," => "`,` between rows",
                    b")" => "`)`",
                    b"(" => "`(`",
                    b"]" => "`]`",
                    b", " => "`, ` between values",
                    b" AS " => "` AS ` in a CAST",
                    _ => "punctuation",
                },
            })
        }
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    /// `(v, v, …)`; returns the number of values.
    fn row(&mut self) -> Read<usize> {
        if !self.eat(b"(") {
            return self.refuse("`(` starting a row of values");
        }
        let n = self.values(b")")?;
        if n == 0 {
            return self.refuse("a value");
        }
        self.expect(b")")?;
        Ok(n)
    }

    /// `v, v, …` up to (not including) `close`; returns the count (0 if `close` is next).
    fn values(&mut self, close: &[u8]) -> Read<usize> {
        if self.sql[self.at..].starts_with(close) {
            return Ok(0);
        }
        let mut n = 0;
        loop {
            self.value()?;
            n += 1;
            if !self.eat(b", ") {
                return Ok(n);
            }
        }
    }

    /// One value, nested at most as deep as sqlparser reads the first row (the
    /// recognizer recurses once per level, and a row is up to 256 KiB long).
    fn value(&mut self) -> Read<()> {
        if self.depth >= super::RECURSION_LIMIT {
            return self.refuse("values nested less deeply (the parser's recursion limit)");
        }
        self.depth += 1;
        let read = self.one_value();
        self.depth -= 1;
        read
    }

    fn one_value(&mut self) -> Read<()> {
        match self.peek() {
            Some(b'\'') => self.string(),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'x' | b'X') if self.sql.get(self.at + 1) == Some(&b'\'') => {
                self.at += 1;
                self.hex()
            }
            Some(c) if c.is_ascii_alphabetic() => self.word_value(),
            _ => self.refuse("a literal value"),
        }
    }

    /// Values that start with a word.
    fn word_value(&mut self) -> Read<()> {
        if self.eat_word(b"true") || self.eat_word(b"false") {
            return Ok(());
        }
        if self.eat_word(b"CAST") {
            return self.cast();
        }
        let typed: &[&[u8]] = if self.spark() {
            &[b"TIMESTAMP_NTZ", b"TIMESTAMP", b"DATE"]
        } else {
            &[b"TIMESTAMP", b"DATE", b"REAL", b"DECIMAL", b"BIGINT"]
        };
        for kw in typed {
            if self.eat_word(kw) {
                if !self.eat(b" ") || self.peek() != Some(b'\'') {
                    return self.refuse("a string after a typed literal's type");
                }
                let start = self.at + 1;
                self.string()?;
                return self.typed_value(kw, start);
            }
        }
        if self.spark() {
            if self.eat(b"array(") {
                self.values(b")")?;
                return self.expect(b")");
            }
            if self.eat(b"map(") {
                if self.values(b")")? % 2 != 0 {
                    return self.refuse("keys and values in pairs");
                }
                return self.expect(b")");
            }
            if self.eat(b"named_struct(") {
                let n = self.values(b")")?;
                if n == 0 || n % 2 != 0 {
                    return self.refuse("field names and values in pairs");
                }
                return self.expect(b")");
            }
        } else {
            if self.sql[self.at..].starts_with(b"U&'") {
                self.at += 2;
                return self.unicode_string();
            }
            if self.eat(b"ARRAY[") {
                self.values(b"]")?;
                return self.expect(b"]");
            }
            if self.eat(b"MAP(ARRAY[") {
                let keys = self.values(b"]")?;
                self.expect(b"]")?;
                if !self.eat(b", ARRAY[") {
                    return self.refuse("`, ARRAY[` with the map's values");
                }
                if self.values(b"]")? != keys {
                    return self.refuse("as many map values as keys");
                }
                self.expect(b"]")?;
                return self.expect(b")");
            }
            if self.eat(b"ROW(") {
                if self.values(b")")? == 0 {
                    return self.refuse("a ROW field value");
                }
                return self.expect(b")");
            }
        }
        self.refuse("a literal value")
    }

    /// The value of the typed literal `kw '…'` that ended at the reader's position and
    /// started at `start`, as `super::literals` reads it (a quote inside is never valid).
    fn typed_value(&self, kw: &[u8], start: usize) -> Read<()> {
        use super::literals::{TypeForm, Zone};
        let name = match kw {
            b"TIMESTAMP" => "timestamp",
            b"DATE" => "date",
            b"REAL" => "real",
            b"DECIMAL" => "decimal",
            b"BIGINT" => "bigint",
            _ => return Ok(()),
        };
        let t = TypeForm::Named {
            name: name.into(),
            params: Vec::new(),
            zone: Zone::None,
        };
        let raw = std::str::from_utf8(&self.sql[start..self.at - 1]).unwrap_or("'");
        match super::literals::typed_literal_problem(&t, &name, raw, self.grammar) {
            Some(_) => self.refuse("a typed literal's value in its type's form"),
            None => Ok(()),
        }
    }

    /// After `CAST`: `(v AS T)`.
    fn cast(&mut self) -> Read<()> {
        self.expect(b"(")?;
        let special: &[&[u8]] = if self.spark() {
            &[b"NULL", b"array()", b"map()"]
        } else {
            &[
                b"NULL",
                b"ARRAY[]",
                b"MAP(ARRAY[], ARRAY[])",
                b"nan()",
                b"infinity()",
                b"-infinity()",
            ]
        };
        if !special.iter().any(|s| self.eat_special(s)) {
            self.value()?;
        }
        self.expect(b" AS ")?;
        self.ty()?;
        self.expect(b")")
    }

    /// Consumes `s` if it is next and is not the start of a longer name.
    fn eat_special(&mut self, s: &[u8]) -> bool {
        if s.last().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.eat_word(s)
        } else {
            self.eat(s)
        }
    }

    /// A string literal; `'` doubled (Trino) or `\\`, `\'`, `\{` escapes (Spark).
    fn string(&mut self) -> Read<()> {
        let start = self.at;
        self.at += 1;
        loop {
            let Some(i) = self.sql[self.at..]
                .iter()
                .position(|&c| c == b'\'' || c == b'\\')
            else {
                self.at = start;
                return self.refuse("a string literal that ends");
            };
            self.at += i;
            match self.sql[self.at] {
                b'\\' if self.spark() => {
                    match self.sql.get(self.at + 1) {
                        Some(b'\\' | b'\'' | b'{') => self.at += 2,
                        _ => return self.refuse(
                            "`\\\\`, `\\'` or `\\{` (the escapes Spark strings are written with)",
                        ),
                    }
                }
                b'\\' => self.at += 1,
                _ if !self.spark() && self.sql.get(self.at + 1) == Some(&b'\'') => self.at += 2,
                _ => {
                    self.at += 1;
                    return Ok(());
                }
            }
        }
    }

    /// The body of a Trino `U&'…'` from its opening quote, in the form text with control
    /// characters is written in: `''`, `\\\\` and `\\XXXX` (four hex digits of a code
    /// point that is no surrogate), any other character as itself.
    fn unicode_string(&mut self) -> Read<()> {
        let start = self.at;
        self.at += 1;
        loop {
            let Some(i) = self.sql[self.at..]
                .iter()
                .position(|&c| c == b'\'' || c == b'\\')
            else {
                self.at = start;
                return self.refuse("a string literal that ends");
            };
            self.at += i;
            if self.sql[self.at] == b'\'' {
                if self.sql.get(self.at + 1) == Some(&b'\'') {
                    self.at += 2;
                    continue;
                }
                self.at += 1;
                return Ok(());
            }
            if self.sql.get(self.at + 1) == Some(&b'\\') {
                self.at += 2;
                continue;
            }
            let code = self
                .sql
                .get(self.at + 1..self.at + 5)
                .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u32::from_str_radix(h, 16).ok());
            match code.and_then(char::from_u32) {
                Some(_) => self.at += 5,
                None => {
                    return self.refuse(
                        "`\\\\` or `\\XXXX` (four hex digits of a code point) in a U&'…' string",
                    )
                }
            }
        }
    }

    /// `-?digits` or `-?d.dE-?d` (doubles are written in scientific notation), within
    /// the ranges of `super::literals`.
    fn number(&mut self) -> Read<()> {
        self.eat(b"-");
        let start = self.at;
        if !self.digits() {
            return self.refuse("digits");
        }
        if self.eat(b".") && !self.digits() {
            return self.refuse("digits after `.`");
        }
        if self.eat(b"E") {
            self.eat(b"-");
            if !self.digits() {
                return self.refuse("the exponent's digits");
            }
        }
        if self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        {
            return self.refuse("the end of a number");
        }
        let text = std::str::from_utf8(&self.sql[start..self.at]).unwrap_or_default();
        if super::literals::number_problem(text, false, self.grammar).is_some() {
            return self
                .refuse("a number within its type (bigint, a decimal of at most 38 digits)");
        }
        Ok(())
    }

    fn digits(&mut self) -> bool {
        let n = self.sql[self.at..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        self.at += n;
        n > 0
    }

    /// After `X`: `'hex digits'` (an even number).
    fn hex(&mut self) -> Read<()> {
        self.at += 1;
        let n = self.sql[self.at..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        self.at += n;
        if n % 2 != 0 || !self.eat(b"'") {
            return self.refuse("hex digit pairs and `'` closing a binary literal");
        }
        Ok(())
    }

    /// A type as the grammar spells it in a CAST.
    fn ty(&mut self) -> Read<()> {
        if self.spark() {
            for plain in [
                &b"boolean"[..],
                b"int",
                b"bigint",
                b"float",
                b"double",
                b"date",
                b"timestamp_ntz",
                b"timestamp",
                b"string",
                b"binary",
            ] {
                if self.eat_word(plain) {
                    return Ok(());
                }
            }
            if self.eat_word(b"decimal") {
                return self.precision_scale();
            }
            if self.eat(b"array<") {
                self.ty()?;
                return self.close_angle();
            }
            if self.eat(b"map<") {
                self.ty()?;
                if !self.eat(b", ") {
                    return self.refuse("`, ` between a map's key and value types");
                }
                self.ty()?;
                return self.close_angle();
            }
            if self.eat(b"struct<") {
                loop {
                    self.name(b'`')?;
                    if !self.eat(b": ") {
                        return self.refuse("`: ` after a struct field name");
                    }
                    self.ty()?;
                    if !self.eat(b", ") {
                        return self.close_angle();
                    }
                }
            }
        } else {
            if self.eat_word(b"timestamp(6) with time zone") || self.eat_word(b"timestamp(6)") {
                return Ok(());
            }
            for plain in [
                &b"boolean"[..],
                b"integer",
                b"bigint",
                b"real",
                b"double",
                b"date",
                b"varchar",
                b"varbinary",
            ] {
                if self.eat_word(plain) {
                    return Ok(());
                }
            }
            if self.eat_word(b"decimal") {
                return self.precision_scale();
            }
            if self.eat(b"array(") {
                self.ty()?;
                return self.expect(b")");
            }
            if self.eat(b"map(") {
                self.ty()?;
                if !self.eat(b", ") {
                    return self.refuse("`, ` between a map's key and value types");
                }
                self.ty()?;
                return self.expect(b")");
            }
            if self.eat(b"row(") {
                loop {
                    self.name(b'"')?;
                    if !self.eat(b" ") {
                        return self.refuse("a space after a row field name");
                    }
                    self.ty()?;
                    if !self.eat(b", ") {
                        return self.expect(b")");
                    }
                }
            }
        }
        self.refuse("a type this crate writes")
    }

    fn close_angle(&mut self) -> Read<()> {
        if self.eat(b">") {
            Ok(())
        } else {
            self.refuse("`>`")
        }
    }

    /// `(p,s)` after `decimal`, within the ranges of `super::literals`.
    fn precision_scale(&mut self) -> Read<()> {
        let number = |r: &mut Self| {
            let start = r.at;
            r.digits()
                .then(|| {
                    std::str::from_utf8(&r.sql[start..r.at])
                        .ok()?
                        .parse::<u32>()
                        .ok()
                })
                .flatten()
        };
        if !self.eat(b"(") {
            return self.refuse("(precision,scale)");
        }
        let p = number(self);
        let s = if self.eat(b",") { number(self) } else { None };
        match (p, s) {
            (Some(p), Some(s))
                if self.eat(b")")
                    && super::literals::precision_scale_problem("decimal", p.into(), s.into())
                        .is_none() =>
            {
                Ok(())
            }
            _ => self.refuse("(precision,scale) with precision 1 to 38 and scale 0 to precision"),
        }
    }

    /// A struct field name: `[a-z_][a-z0-9_]*`, or quoted with `quote` (quote doubled).
    fn name(&mut self, quote: u8) -> Read<()> {
        match self.peek() {
            Some(c) if c.is_ascii_lowercase() || c == b'_' => {
                let n = self.sql[self.at..]
                    .iter()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || **c == b'_')
                    .count();
                self.at += n;
                Ok(())
            }
            Some(c) if c == quote => {
                self.at += 1;
                loop {
                    let n = self.sql[self.at..]
                        .iter()
                        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || **c == b'_')
                        .count();
                    self.at += n;
                    if self.eat(&[quote, quote]) {
                        continue;
                    }
                    if n > 0 && self.eat(&[quote]) {
                        return Ok(());
                    }
                    return self.refuse("a quoted field name of a-z, 0-9 and _");
                }
            }
            _ => self.refuse("a struct field name"),
        }
    }
}
