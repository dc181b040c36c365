//! Reading a live table definition from the text engines print: Athena's and Spark's
//! `SHOW CREATE TABLE`, and Athena's `DESCRIBE [FORMATTED]`.
//!
//! The parsers are lenient about what does not matter for evolution (unknown table
//! properties, `USING`, `ROW FORMAT` and similar clauses are skipped) and strict about
//! what does (every column type must be understood).

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{Column, PartitionField, PartitionTransform, TableDef, TableName};
use crate::types::IcebergType;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A bare word, as written.
    Word(String),
    /// A quoted identifier (backticks or double quotes), unquoted.
    Quoted(String),
    /// A string literal, unescaped.
    Str(String),
    Num(u64),
    Punct(char),
}

fn bad(what: impl Into<String>) -> Error {
    Error::new(ErrorKind::Syntax, what.into()).with_hint(
        "pass the complete text of SHOW CREATE TABLE (one string, as the engine printed it)",
    )
}

/// The tokens of `text` and the byte offset where each starts.
fn tokenize(text: &str) -> Result<(Vec<Tok>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    let cs: Vec<char> = text.chars().collect();
    let bytes: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        let (start, before) = (i, out.len());
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && cs.get(i + 1) == Some(&'-') {
            while i < cs.len() && cs[i] != '\n' {
                i += 1;
            }
        } else if c == '`' || c == '"' {
            let mut s = String::new();
            i += 1;
            loop {
                match cs.get(i) {
                    None => return Err(bad("unterminated quoted identifier")),
                    Some(&q) if q == c => {
                        if cs.get(i + 1) == Some(&c) {
                            s.push(c);
                            i += 2;
                        } else {
                            i += 1;
                            break;
                        }
                    }
                    Some(&x) => {
                        s.push(x);
                        i += 1;
                    }
                }
            }
            out.push(Tok::Quoted(s));
        } else if c == '\'' {
            let mut s = String::new();
            i += 1;
            loop {
                match cs.get(i) {
                    None => return Err(bad("unterminated string literal")),
                    Some('\\') => {
                        if let Some(&x) = cs.get(i + 1) {
                            s.push(match x {
                                'n' => '\n',
                                't' => '\t',
                                'r' => '\r',
                                x => x,
                            });
                        }
                        i += 2;
                    }
                    Some('\'') => {
                        if cs.get(i + 1) == Some(&'\'') {
                            s.push('\'');
                            i += 2;
                        } else {
                            i += 1;
                            break;
                        }
                    }
                    Some(&x) => {
                        s.push(x);
                        i += 1;
                    }
                }
            }
            out.push(Tok::Str(s));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < cs.len() && cs[i].is_ascii_digit() {
                i += 1;
            }
            let s: String = cs[start..i].iter().collect();
            out.push(Tok::Num(
                s.parse()
                    .map_err(|_| bad(format!("number `{s}` too large")))?,
            ));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_' || cs[i] == '$') {
                i += 1;
            }
            out.push(Tok::Word(cs[start..i].iter().collect()));
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
        if out.len() > before {
            offsets.push(bytes[start]);
        }
    }
    Ok((out, offsets))
}

struct P<'a> {
    text: &'a str,
    toks: Vec<Tok>,
    /// The byte offset in `text` of each token.
    offsets: Vec<usize>,
    pos: usize,
    /// The engine that printed the text.
    dialect: Dialect,
}

impl P<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if w.eq_ignore_ascii_case(kw))
    }
    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect_kw(&mut self, kw: &str) -> Result<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(bad(format!("expected `{kw}`, found {:?}", self.peek())))
        }
    }
    fn eat_punct(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect_punct(&mut self, c: char) -> Result<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(bad(format!("expected `{c}`, found {:?}", self.peek())))
        }
    }
    /// An identifier: a bare word (lower-cased, as Athena stores names) or a quoted one.
    fn ident(&mut self) -> Result<String> {
        match self.next() {
            Some(Tok::Word(w)) => Ok(w.to_ascii_lowercase()),
            Some(Tok::Quoted(q)) => Ok(q),
            t => Err(bad(format!("expected a name, found {t:?}"))),
        }
    }
    fn string(&mut self) -> Result<String> {
        match self.next() {
            Some(Tok::Str(s)) => Ok(s),
            t => Err(bad(format!("expected a string literal, found {t:?}"))),
        }
    }
    fn number(&mut self) -> Result<u64> {
        match self.next() {
            Some(Tok::Num(n)) => Ok(n),
            t => Err(bad(format!("expected a number, found {t:?}"))),
        }
    }

    /// The column type starting at the next token, read by the one type-name reader
    /// (`iceberg_sql_rules::type_name`); a bare `decimal` is Hive's `decimal(10, 0)`.
    fn data_type(&mut self) -> Result<IcebergType> {
        let start = self
            .offsets
            .get(self.pos)
            .copied()
            .unwrap_or(self.text.len());
        let rest = &self.text[start..];
        let (name, used) = iceberg_sql_rules::type_name::parse_prefix(rest).map_err(|e| {
            bad(format!(
                "column type `{}`: {e}",
                rest.split([',', '\n']).next().unwrap_or(rest).trim()
            ))
        })?;
        let end = start + used;
        while self.offsets.get(self.pos).is_some_and(|&at| at < end) {
            self.pos += 1;
        }
        let bare = name.numbers.is_empty() && name.params.is_empty() && name.fields.is_empty();
        if let Some(ty) = bare
            .then(|| self.dialect.rules().live_type(&name.name))
            .flatten()
        {
            return Ok(ty);
        }
        crate::record::iceberg_type(&rest[..used], &name, (10, 0))
    }

    fn table_name(&mut self) -> Result<TableName> {
        let mut parts = vec![self.ident()?];
        while self.eat_punct('.') {
            parts.push(self.ident()?);
        }
        if parts.len() < 2 {
            return Err(bad(format!(
                "table name `{}` has no database; expected `db.table`",
                parts[0]
            )));
        }
        let t = parts.pop().unwrap_or_default();
        let d = parts.pop().unwrap_or_default();
        Ok(TableName::new(d, t))
    }

    fn partition_field(&mut self) -> Result<PartitionField> {
        let first = match self.next() {
            Some(Tok::Word(w)) => w.to_ascii_lowercase(),
            Some(Tok::Quoted(q)) => q,
            t => return Err(bad(format!("expected a partition field, found {t:?}"))),
        };
        if !self.eat_punct('(') {
            return Ok(PartitionField::identity(first));
        }
        // transform(args): columns and numbers in either order.
        let mut col = None;
        let mut num = None;
        loop {
            match self.next() {
                Some(Tok::Num(n)) => num = Some(n),
                Some(Tok::Word(w)) => col = Some(w.to_ascii_lowercase()),
                Some(Tok::Quoted(q)) => col = Some(q),
                t => return Err(bad(format!("unexpected {t:?} in partition transform"))),
            }
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(')')?;
        let col =
            col.ok_or_else(|| bad(format!("partition transform `{first}` names no column")))?;
        let n = || {
            num.and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| bad(format!("partition transform `{first}` has no width")))
        };
        let t = match first.as_str() {
            "year" | "years" => PartitionTransform::Year,
            "month" | "months" => PartitionTransform::Month,
            "day" | "days" | "date" => PartitionTransform::Day,
            "hour" | "hours" | "date_hour" => PartitionTransform::Hour,
            "bucket" => PartitionTransform::Bucket(n()?),
            "truncate" => PartitionTransform::Truncate(n()?),
            "identity" => PartitionTransform::Identity,
            other => {
                return Err(Error::new(
                    ErrorKind::InvalidPartition,
                    format!("unknown partition transform `{other}`"),
                ))
            }
        };
        Ok(PartitionField::new(col, t))
    }

    fn skip_balanced(&mut self) -> Result<()> {
        self.expect_punct('(')?;
        let mut depth = 1;
        while depth > 0 {
            match self.next() {
                None => return Err(bad("unbalanced parentheses")),
                Some(Tok::Punct('(')) => depth += 1,
                Some(Tok::Punct(')')) => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }
}

/// Parses the text of `SHOW CREATE TABLE` as Athena (`dialect` Athena) or Spark
/// (`dialect` Spark) prints it into a [`TableDef`].
///
/// Spark's `timestamp` is Iceberg `timestamptz` and its `timestamp_ntz` is Iceberg
/// `timestamp`; in Athena's output `timestamp` is Iceberg `timestamp`. Athena's output
/// cannot show NOT NULL, so every column it lists is nullable. Unknown properties are
/// skipped; Spark's Iceberg property names are mapped back to Athena's.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::evolve::parse_show_create_table;
/// let text = "CREATE TABLE `analytics`.`mcp_events`(\n  `event_id` string COMMENT 'ULID', \n  \
///             `event_ts` timestamp, \n  `user_id` string)\n\
///             PARTITIONED BY (`day`(`event_ts`), bucket(16, `user_id`))\n\
///             LOCATION 's3://my-datalake/iceberg/mcp_events'\n\
///             TBLPROPERTIES (\n  'table_type'='iceberg', \n  'write_compression'='zstd')";
/// let t = parse_show_create_table(text, Dialect::Athena)?;
/// assert_eq!(t.name().to_string(), "analytics.mcp_events");
/// assert_eq!(t.column("event_ts").unwrap().ty, IcebergType::Timestamp);
/// assert_eq!(t.partition_spec()[1], PartitionField::new("user_id", PartitionTransform::Bucket(16)));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn parse_show_create_table(text: &str, dialect: Dialect) -> Result<TableDef> {
    let (toks, offsets) = tokenize(text)?;
    let mut p = P {
        text,
        toks,
        offsets,
        pos: 0,
        dialect,
    };
    p.eat_punct(';');
    p.expect_kw("create")?;
    if p.eat_kw("or") {
        p.expect_kw("replace")?;
    }
    p.eat_kw("external");
    p.expect_kw("table")?;
    if p.eat_kw("if") {
        p.expect_kw("not")?;
        p.expect_kw("exists")?;
    }
    let name = p.table_name()?;
    p.expect_punct('(')?;
    let mut columns = Vec::new();
    loop {
        let n = p.ident()?;
        let ty = p.data_type()?;
        let mut c = Column::new(n, ty);
        loop {
            if p.eat_kw("not") {
                p.expect_kw("null")?;
                c = c.required();
            } else if p.eat_kw("comment") {
                c = c.comment(p.string()?);
            } else {
                break;
            }
        }
        columns.push(c);
        if !p.eat_punct(',') {
            break;
        }
    }
    p.expect_punct(')')?;
    let mut b = TableDef::builder(name.database, name.table).columns(columns);
    let mut errors = Vec::new();
    while let Some(t) = p.peek().cloned() {
        if p.eat_kw("partitioned") {
            p.expect_kw("by")?;
            p.expect_punct('(')?;
            loop {
                b = b.partition(p.partition_field()?);
                if !p.eat_punct(',') {
                    break;
                }
            }
            p.expect_punct(')')?;
        } else if p.eat_kw("clustered") {
            // Spark prints an Iceberg bucket field as `CLUSTERED BY (c) INTO n BUCKETS`,
            // apart from the other fields (so their relative order is lost).
            p.expect_kw("by")?;
            p.expect_punct('(')?;
            let mut cols = vec![p.ident()?];
            while p.eat_punct(',') {
                cols.push(p.ident()?);
            }
            p.expect_punct(')')?;
            p.expect_kw("into")?;
            let n = u32::try_from(p.number()?)
                .map_err(|_| bad("CLUSTERED BY ... INTO n BUCKETS: n is too large"))?;
            p.expect_kw("buckets")?;
            for c in cols {
                b = b.partition(PartitionField::new(c, PartitionTransform::Bucket(n)));
            }
        } else if p.eat_kw("location") {
            b = b.location(p.string()?);
        } else if p.eat_kw("comment") {
            b = b.comment(p.string()?);
        } else if p.eat_kw("tblproperties") {
            p.expect_punct('(')?;
            while !p.eat_punct(')') {
                let k = p.string()?;
                p.expect_punct('=')?;
                let v = p.string()?;
                match dialect.rules().live_property(&k, &v) {
                    Ok(Some(prop)) => b = b.property(prop),
                    Ok(None) => {}
                    Err(e) => errors.push(e),
                }
                p.eat_punct(',');
                if p.peek().is_none() {
                    return Err(bad("unterminated TBLPROPERTIES"));
                }
            }
        } else if matches!(t, Tok::Punct('(')) {
            p.skip_balanced()?;
        } else {
            // USING iceberg, ROW FORMAT ..., STORED AS ..., WITH SERDEPROPERTIES, `;`
            p.next();
        }
    }
    Error::check_all(errors)?;
    b.build()
}

/// Parses Athena's `DESCRIBE [FORMATTED] db.t` output (tab-separated lines: columns,
/// then `# Partition Transforms` or `# Partition Information`, and with FORMATTED a
/// `Location:` line and `Table Parameters:`) into a [`TableDef`] named `name`.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::evolve::parse_describe;
/// let text = [
///     "event_id\tstring\tULID",
///     "event_ts\ttimestamp\t",
///     "user_id\tstring\t",
///     "\t \t ",
///     "# Partition Transforms\t \t ",
///     "# field_name\tfield_transform\tcolumn_name",
///     "event_ts_day\tday\tevent_ts",
///     "user_id_bucket\tbucket[16]\tuser_id",
/// ].join("\n");
/// let t = parse_describe(&text, &TableName::new("analytics", "mcp_events"))?;
/// assert_eq!(t.columns().len(), 3);
/// assert_eq!(t.column("event_id").unwrap().comment.as_deref(), Some("ULID"));
/// assert_eq!(t.partition_spec()[1], PartitionField::new("user_id", PartitionTransform::Bucket(16)));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn parse_describe(text: &str, name: &TableName) -> Result<TableDef> {
    #[derive(PartialEq)]
    enum Section {
        Columns,
        PartitionInfo,
        PartitionTransforms,
        Detail,
        Parameters,
    }
    let mut section = Section::Columns;
    let mut b = TableDef::builder(name.database.clone(), name.table.clone());
    let mut errors = Vec::new();
    let mut columns: Vec<Column> = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
        let first = fields.first().copied().unwrap_or("");
        if fields.iter().all(|f| f.is_empty()) {
            if section == Section::Columns {
                section = Section::Detail;
            }
            continue;
        }
        if let Some(h) = first.strip_prefix('#') {
            let h = h.trim().to_ascii_lowercase();
            if h.starts_with("partition transform") {
                section = Section::PartitionTransforms;
            } else if h.starts_with("partition information") {
                section = Section::PartitionInfo;
            } else if h.starts_with("detailed table") || h.starts_with("storage") {
                section = Section::Detail;
            }
            continue;
        }
        match section {
            Section::Columns => {
                let ty = fields.get(1).copied().unwrap_or("");
                let (toks, offsets) = tokenize(ty)?;
                let mut p = P {
                    text: ty,
                    toks,
                    offsets,
                    pos: 0,
                    dialect: Dialect::Athena,
                };
                let ty = p.data_type()?;
                let mut c = Column::new(first.to_ascii_lowercase(), ty);
                if let Some(comment) = fields.get(2).filter(|c| !c.is_empty()) {
                    c = c.comment(*comment);
                }
                columns.push(c);
            }
            Section::PartitionInfo => {
                b = b.partition(PartitionField::identity(first.to_ascii_lowercase()));
            }
            Section::PartitionTransforms => {
                let transform = fields.get(1).copied().unwrap_or("").to_ascii_lowercase();
                let source = fields.get(2).copied().unwrap_or(first).to_ascii_lowercase();
                let (t, n) = match transform.split_once(['[', '(']) {
                    Some((t, rest)) => (
                        t.to_string(),
                        rest.trim_end_matches([']', ')']).trim().parse::<u32>().ok(),
                    ),
                    None => (transform.clone(), None),
                };
                let t = match (t.as_str(), n) {
                    ("identity", _) => PartitionTransform::Identity,
                    ("year", _) => PartitionTransform::Year,
                    ("month", _) => PartitionTransform::Month,
                    ("day", _) => PartitionTransform::Day,
                    ("hour", _) => PartitionTransform::Hour,
                    ("bucket", Some(n)) => PartitionTransform::Bucket(n),
                    ("truncate", Some(n)) => PartitionTransform::Truncate(n),
                    _ => {
                        errors.push(Error::new(
                            ErrorKind::InvalidPartition,
                            format!("unknown partition transform `{transform}` in DESCRIBE output"),
                        ));
                        continue;
                    }
                };
                b = b.partition(PartitionField::new(source, t));
            }
            Section::Detail => {
                if first.eq_ignore_ascii_case("location:") {
                    if let Some(l) = fields.get(1) {
                        b = b.location(*l);
                    }
                } else if first.eq_ignore_ascii_case("table parameters:") {
                    section = Section::Parameters;
                }
            }
            Section::Parameters => {}
        }
        if section == Section::Parameters && first.is_empty() {
            if let (Some(k), Some(v)) = (fields.get(1), fields.get(2)) {
                match Dialect::Athena.rules().live_property(k, v) {
                    Ok(Some(p)) => b = b.property(p),
                    Ok(None) => {}
                    Err(e) => errors.push(e),
                }
            }
        }
    }
    Error::check_all(errors)?;
    b.columns(columns).build()
}
