//! Grammars: the SQL languages statement text is written in.
//!
//! A target engine may parse different statements with different parsers: Athena reads
//! its DDL with a Hive parser and its DML and queries with Trino's. A [`Grammar`] is one
//! such parser's language, and it alone decides the spelling of text details:
//!
//! | detail | Hive DDL | Trino | Spark |
//! |---|---|---|---|
//! | quoted name | `` `date` `` | `"first"` | `` `user` `` |
//! | types | `string`, `struct<a:int>` | `varchar`, `row(a integer)` | `string`, `struct<a: int>` |
//! | `'` in a string | (refused) | `''` | `\'` |
//! | float literal | `REAL '1.5'` | `REAL '1.5'` | `CAST('1.5' AS FLOAT)` |
//! | now | `current_timestamp` | `current_timestamp` | `current_timestamp()` |
//!
//! Which grammar a statement kind is written in is the target's decision
//! ([`Dialect::grammar`](super::Dialect::grammar)).

mod literals;
mod reserved;
mod types;

use reserved::WordSet;
pub(crate) use reserved::{
    is_reserved_in_dml, TRINO_417_RESERVED, TRINO_CURRENT_VALUES, TRINO_DATE_TIME_VALUES,
};
pub use reserved::{HIVE_DDL_RESERVED, TRINO_DML_RESERVED};

use crate::error::Result;
use crate::model::TableDef;
use crate::record::{ColumnMeta, Columns};
use crate::types::IcebergType;
use crate::value::Value;

/// Words Trino does not reserve but also reads as quantifiers (`x = ALL (…)`,
/// `SELECT ALL …`): quoted in DML all the same, which is valid on every reading
/// (<https://trino.io/docs/current/language/reserved.html>).
const TRINO_AMBIGUOUS: &[&str] = &["all", "any", "some"];

/// Every word a name is quoted for in DML: every word any reading reserves
/// ([`is_reserved_in_dml`]'s) and [`TRINO_AMBIGUOUS`], merged at compile time into one
/// indexed set (every name written is looked up).
const DML_QUOTED_LISTS: [&[&str]; 2] = [reserved::DML_RESERVED, TRINO_AMBIGUOUS];
const DML_QUOTED_WORDS: [&str; reserved::union_len(&DML_QUOTED_LISTS)] =
    reserved::union(&DML_QUOTED_LISTS);
const DML_QUOTED: WordSet = WordSet::new(&DML_QUOTED_WORDS);

/// Words Spark does not reserve (`struct` is a non-reserved keyword of its grammar) but
/// our validator's parser reads as the start of a type in a partition list
/// (`PARTITIONED BY (struct)`): quoted in Spark text, where backticks are always valid.
const SPARK_TYPE_WORDS: WordSet = WordSet::new(&["struct"]);

/// [`TRINO_417_RESERVED`], indexed for the lookup of every name a DDL statement writes.
const TRINO_417: WordSet = WordSet::new(TRINO_417_RESERVED);

/// The bytes of a name written without quotes, `[a-z0-9_]`, as a table: every name
/// written is scanned, one lookup per byte.
const PLAIN_NAME_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_';
        b += 1;
    }
    table
};

/// Where list text goes: a statement's writer, or a plain string.
pub(crate) trait Sink {
    /// Appends `text` as it is.
    fn push_text(&mut self, text: &str);
}

impl Sink for String {
    fn push_text(&mut self, text: &str) {
        self.push_str(text);
    }
}

/// Writes every item of `items` with `item`, with `sep` between two items.
pub(crate) fn separated<W: Sink + ?Sized, I: IntoIterator>(
    out: &mut W,
    items: I,
    sep: &str,
    mut item: impl FnMut(&mut W, I::Item) -> Result<()>,
) -> Result<()> {
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_text(sep);
        }
        item(out, x)?;
    }
    Ok(())
}

impl IcebergType {
    /// The type as `grammar` spells it (`array(varchar)` in Trino, `array<string>` in
    /// Hive DDL and Spark).
    pub fn to_sql(&self, grammar: Grammar) -> String {
        let mut s = String::new();
        grammar.write_type(&mut s, self);
        s
    }
}

impl Value {
    /// The literal for this value as a `ty` in `grammar`.
    ///
    /// ```
    /// use iceberg_sql::{Grammar, IcebergType, Value};
    /// let v = Value::from("O'Reilly");
    /// assert_eq!(v.to_literal(&IcebergType::String, Grammar::TrinoDml).unwrap(), "'O''Reilly'");
    /// assert_eq!(v.to_literal(&IcebergType::String, Grammar::Spark).unwrap(), r"'O\'Reilly'");
    /// assert_eq!(Value::Null.to_literal(&IcebergType::Long, Grammar::TrinoDml).unwrap(),
    ///            "CAST(NULL AS bigint)");
    /// ```
    pub fn to_literal(&self, ty: &IcebergType, grammar: Grammar) -> Result<String> {
        let mut s = String::new();
        grammar.write_literal(&mut s, self, ty)?;
        Ok(s)
    }
}

impl Columns {
    /// The columns a `SELECT` of every column of `table` returns on Athena, with their
    /// Athena type names; nested columns are `json`, as the SELECT builder reads them
    /// (`CAST(col AS JSON)`). For fakes and tests.
    pub fn of_table(table: &TableDef) -> Self {
        Columns::new(
            table
                .columns()
                .iter()
                .map(|c| {
                    let type_name = if c.ty.is_primitive() {
                        c.ty.to_sql(Grammar::TrinoDml)
                    } else {
                        "json".to_string()
                    };
                    ColumnMeta::new(&c.name, type_name).with_nullable(Some(c.nullable))
                })
                .collect(),
        )
    }
}

/// The parser a statement's text goes through. It decides quoting, type names and
/// literal spelling: nobody calling the API picks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grammar {
    /// Athena DDL (CREATE TABLE, ALTER, DROP, ...): backticks, Hive type names,
    /// string literals without escapes.
    HiveDdl,
    /// Athena DML and queries (SELECT, INSERT, UPDATE, DELETE, MERGE, CTAS, UNLOAD):
    /// double quotes, Trino type names, `''` inside strings.
    TrinoDml,
    /// Spark SQL: backticks, Spark type names, backslash escapes inside strings.
    Spark,
}

impl Grammar {
    /// The grammar's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Grammar::HiveDdl => "Athena DDL (Hive grammar)",
            Grammar::TrinoDml => "Athena DML (Trino grammar)",
            Grammar::Spark => "Spark SQL",
        }
    }

    /// The character that quotes a name.
    pub fn quote_char(self) -> char {
        match self {
            Grammar::HiveDdl | Grammar::Spark => '`',
            Grammar::TrinoDml => '"',
        }
    }

    /// True when `word` (lower case) is reserved. Spark's own reserved set depends on
    /// its ANSI mode; every word either Athena list reserves is a safe superset.
    #[inline]
    pub fn is_reserved(self, word: &str) -> bool {
        let ddl = || reserved::is_hive_ddl_reserved(word);
        // AWS's list lacks `current_role`, which Trino reserves, and Trino reserved more
        // words later (`auto`, `primary`): quote every word any reading reserves.
        let dml = || DML_QUOTED.contains(word);
        match self {
            // Backticks are always accepted in Hive DDL: a word Trino reserves
            // (`current_time`, `trim`) is quoted there too, whatever Hive's own list says.
            Grammar::HiveDdl => ddl() || TRINO_417.contains(word),
            Grammar::TrinoDml => dml(),
            Grammar::Spark => ddl() || dml() || SPARK_TYPE_WORDS.contains(word),
        }
    }

    /// True when `name` must be quoted: it is reserved, or it does not start with a
    /// letter (Athena: `_x` needs backticks in DDL, `1x` double quotes in DML).
    #[inline]
    pub fn needs_quotes(self, name: &str) -> bool {
        let bytes = name.as_bytes();
        // Every byte looked up without a branch per byte (the usual name is plain, so
        // stopping early would rarely save anything).
        let plain = bytes.first().is_some_and(u8::is_ascii_lowercase)
            && bytes
                .iter()
                .fold(true, |plain, &c| plain & PLAIN_NAME_BYTE[usize::from(c)]);
        !plain || self.is_reserved(name)
    }

    /// Appends `name`, quoted if it must be.
    ///
    /// Names are checked by [`check_name`](crate::ident::check_name) before they reach a
    /// renderer, so they never contain a quote character; the doubling below is a
    /// second line of defence.
    pub fn write_ident(self, out: &mut String, name: &str) {
        if !self.needs_quotes(name) {
            out.push_str(name);
            return;
        }
        let q = self.quote_char();
        out.push(q);
        for c in name.chars() {
            if c == q {
                out.push(q);
            }
            out.push(c);
        }
        out.push(q);
    }

    /// `name`, quoted if it must be.
    ///
    /// ```
    /// use iceberg_sql::Grammar;
    /// assert_eq!(Grammar::HiveDdl.quote_ident("date"), "`date`");
    /// assert_eq!(Grammar::TrinoDml.quote_ident("date"), "date");
    /// assert_eq!(Grammar::TrinoDml.quote_ident("first"), "\"first\"");
    /// ```
    pub fn quote_ident(self, name: &str) -> String {
        let mut s = String::with_capacity(name.len() + 2);
        self.write_ident(&mut s, name);
        s
    }

    /// Appends `ty` as this grammar spells it.
    pub(crate) fn write_type(self, out: &mut String, ty: &IcebergType) {
        types::write_type(out, ty, self);
    }

    /// Appends `value` as the operand of a comparison (`=`, `<`, IN, BETWEEN) with a
    /// `ty` value: [`Self::write_literal`], except that a timestamp with digits below a
    /// microsecond keeps them where the grammar can (see
    /// `literals::write_compared_literal`).
    pub(crate) fn write_compared_literal(
        self,
        out: &mut String,
        value: &Value,
        ty: &IcebergType,
    ) -> Result<()> {
        literals::write_compared_literal(out, value, ty, self)
    }

    /// Appends `value` as a literal of type `ty`.
    pub(crate) fn write_literal(
        self,
        out: &mut String,
        value: &Value,
        ty: &IcebergType,
    ) -> Result<()> {
        literals::write_literal(out, value, ty, self)
    }

    /// Appends a string literal holding any text, escaped for this grammar: Trino (and
    /// Hive) double `'`; Spark backslash-escapes `\` and `'`, and the `{` of `${`
    /// against its variable substitution. Any Rust string round-trips.
    ///
    /// ```
    /// use iceberg_sql::Grammar;
    /// let mut sql = String::new();
    /// Grammar::Spark.write_string(&mut sql, "it's ${x}");
    /// assert_eq!(sql, r"'it\'s $\{x}'");
    /// ```
    pub fn write_string(self, out: &mut String, text: &str) {
        literals::write_string(out, text, self);
    }

    /// Appends a DDL string literal (location, comment, property key or value); `what`
    /// names it in the error when the text cannot be written (quotes, backslashes and
    /// control characters anywhere; `${` in Spark).
    pub(crate) fn write_ddl_string(self, out: &mut String, what: &str, text: &str) -> Result<()> {
        literals::write_ddl_string(out, what, text, self)
    }

    /// Whether string literals in this grammar are limited to text without quotes,
    /// backslashes and control characters (the Hive lexer's escaping is undocumented
    /// for Athena, so we never rely on it).
    pub(crate) fn restricts_string_literals(self) -> bool {
        self == Grammar::HiveDdl
    }

    /// The current timestamp (Spark spells functions without arguments with `()`).
    pub(crate) fn current_timestamp(self) -> &'static str {
        match self {
            Grammar::Spark => "current_timestamp()",
            Grammar::HiveDdl | Grammar::TrinoDml => "current_timestamp",
        }
    }

    /// The current date.
    pub(crate) fn current_date(self) -> &'static str {
        match self {
            Grammar::Spark => "current_date()",
            Grammar::HiveDdl | Grammar::TrinoDml => "current_date",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_the_grammar() {
        // `date` is reserved in DDL only, `first` in DML only.
        assert_eq!(Grammar::HiveDdl.quote_ident("date"), "`date`");
        assert_eq!(Grammar::TrinoDml.quote_ident("date"), "date");
        assert_eq!(Grammar::HiveDdl.quote_ident("first"), "first");
        assert_eq!(Grammar::TrinoDml.quote_ident("first"), "\"first\"");
        assert_eq!(Grammar::HiveDdl.quote_ident("_x"), "`_x`");
        assert_eq!(Grammar::TrinoDml.quote_ident("1x"), "\"1x\"");
        assert_eq!(Grammar::Spark.quote_ident("user"), "`user`");
        // Trino reserves `current_role` (AWS's list lacks it) and `trim`; it does not
        // reserve `limit` or `interval`; `all` is quoted for its quantifier reading.
        assert_eq!(
            Grammar::TrinoDml.quote_ident("current_role"),
            "\"current_role\""
        );
        assert_eq!(Grammar::TrinoDml.quote_ident("primary"), "\"primary\"");
        assert_eq!(Grammar::TrinoDml.quote_ident("limit"), "limit");
        assert_eq!(Grammar::TrinoDml.quote_ident("interval"), "interval");
        assert_eq!(Grammar::TrinoDml.quote_ident("all"), "\"all\"");
        assert_eq!(
            Grammar::HiveDdl.quote_ident("current_time"),
            "`current_time`"
        );
        assert_eq!(Grammar::HiveDdl.quote_ident("trim"), "`trim`");
    }

    #[test]
    fn the_plain_name_table_is_a_z_0_9_and_underscore() {
        for b in 0..=255u8 {
            let plain = b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_';
            assert_eq!(PLAIN_NAME_BYTE[usize::from(b)], plain, "byte {b}");
        }
    }

    #[test]
    fn trino_dml_quotes_every_word_any_reading_reserves() {
        for w in reserved::DML_RESERVED.iter().chain(TRINO_AMBIGUOUS) {
            assert!(Grammar::TrinoDml.is_reserved(w), "{w}");
        }
        assert!(Grammar::TrinoDml.is_reserved("current_role"));
        assert!(!Grammar::TrinoDml.is_reserved("event_id"));
    }

    #[test]
    fn reserved_lists_are_sorted_and_lower_case() {
        for list in [HIVE_DDL_RESERVED, TRINO_DML_RESERVED] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{:?}", list);
            assert!(list
                .iter()
                .all(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
        }
        // The lookups find every listed word, and nothing else.
        for (list, is) in [
            (
                HIVE_DDL_RESERVED,
                reserved::is_hive_ddl_reserved as fn(&str) -> bool,
            ),
            (TRINO_DML_RESERVED, reserved::is_trino_dml_reserved),
        ] {
            for w in list {
                assert!(is(w), "{w}");
                assert!(!is(&format!("{w}x")));
                assert_eq!(is(&w[..w.len() - 1]), list.contains(&&w[..w.len() - 1]));
            }
            assert!(!is("") && !is("zzz") && !is("event_id"));
        }
    }

    #[test]
    fn type_spellings_per_grammar() {
        let t = IcebergType::structure([
            ("lat", IcebergType::Double),
            ("tags", IcebergType::list(IcebergType::String)),
            (
                "m",
                IcebergType::map(IcebergType::String, IcebergType::Float),
            ),
        ]);
        assert_eq!(
            t.to_sql(Grammar::HiveDdl),
            "struct<lat:double,tags:array<string>,m:map<string,float>>"
        );
        assert_eq!(
            t.to_sql(Grammar::TrinoDml),
            "row(lat double, tags array(varchar), m map(varchar, real))"
        );
        assert_eq!(
            t.to_sql(Grammar::Spark),
            "struct<lat: double, tags: array<string>, m: map<string, float>>"
        );
        assert_eq!(
            IcebergType::Timestamp.to_sql(Grammar::Spark),
            "timestamp_ntz"
        );
    }
}
