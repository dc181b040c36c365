//! The rules of the DDL the validator applies, on plain values: what each
//! grammar's CREATE TABLE and ALTER TABLE take (column types and options, partition
//! transforms, `TBLPROPERTIES` entries, Hive DDL strings), and their refusals' words.
//! The checks on our parser's tree (`check/`) turn its nodes into these values.

use std::fmt::Display;

use crate::dialect::Grammar;

/// What is wrong with `s` as a Hive DDL string (`what`: the string's role, for the
/// message): a `'`, `\` or control character.
pub(crate) fn ddl_string_problem(s: &str, what: &str) -> Option<String> {
    s.chars()
        .find(|c| *c == '\'' || *c == '\\' || c.is_control())
        .map(|c| {
            format!(
                "{what} contains {}: Athena DDL strings go through the Hive lexer, whose escaping is unverified; \
                 use only characters other than ', \\ and control characters",
                describe_char(c)
            )
        })
}

fn describe_char(c: char) -> String {
    match c {
        '\'' => "a single quote (')".to_string(),
        '\\' => "a backslash (\\)".to_string(),
        c => format!("the control character U+{:04X}", c as u32),
    }
}

/// The refusal of `CREATE EXTERNAL TABLE` where an Iceberg table is created.
pub(crate) const EXTERNAL_TABLE: &str =
    "CREATE EXTERNAL TABLE: Athena rejects EXTERNAL for Iceberg tables \
     (\"External keyword not supported for table type ICEBERG\"); write CREATE TABLE";

/// A `TBLPROPERTIES` key that is not a single-quoted string (`shown`: as written).
pub(crate) fn tblproperty_key_problem(shown: &dyn Display, single_quoted: bool) -> Option<String> {
    (!single_quoted).then(|| {
        format!("TBLPROPERTIES key `{shown}` must be a single-quoted string: 'key'='value'")
    })
}

/// A `TBLPROPERTIES` value (`string`: its value when a single-quoted string) that is
/// not a single-quoted string, or not one Hive DDL takes.
pub(crate) fn tblproperty_value_problem(
    shown: &dyn Display,
    string: Option<&str>,
    grammar: Grammar,
) -> Option<String> {
    match string {
        None => Some(format!(
            "TBLPROPERTIES value `{shown}` must be a single-quoted string: 'key'='value'"
        )),
        Some(s) if grammar == Grammar::HiveDdl => ddl_string_problem(s, "a TBLPROPERTIES value"),
        Some(_) => None,
    }
}

const HIVE_TRANSFORMS: &str =
    "a bare column, year(col), month(col), day(col), hour(col), bucket(N, col) or truncate(L, col)";
const SPARK_TRANSFORMS: &str = "a bare column, years(col), months(col), days(col), hours(col), \
     bucket(N, col) or truncate(L, col)";

/// A partition transform's form, as both parsers' trees give it.
pub(crate) enum Transform<'a> {
    /// A bare, one-part column name.
    Column,
    /// A call: its name when one unquoted word, its arguments when a plain list.
    Call {
        name: Option<&'a str>,
        args: Option<Vec<TransformArg<'a>>>,
    },
    /// Anything else.
    Other,
}

/// An argument of a partition transform.
pub(crate) enum TransformArg<'a> {
    /// A one-part column name.
    Column,
    /// An integer literal's text.
    Integer(&'a str),
    /// Anything else.
    Other,
}

/// What is wrong with partition transform `shown` of form `t` in `grammar` (Hive DDL or
/// Spark): a bare column, a temporal transform of one column, or bucket|truncate of a
/// positive integer and a column.
pub(crate) fn transform_problem(
    shown: &dyn Display,
    t: &Transform,
    grammar: Grammar,
) -> Option<String> {
    let spark = grammar == Grammar::Spark;
    let (accepted, engine) = if spark {
        (SPARK_TRANSFORMS, "Spark")
    } else {
        (HIVE_TRANSFORMS, "Athena DDL")
    };
    let bad = |why: String| {
        Some(format!(
            "partition transform `{shown}`: {why}; {engine} accepts {accepted}"
        ))
    };
    let (name, args) = match t {
        Transform::Column => return None,
        Transform::Other => return bad("not a column or a transform".into()),
        Transform::Call { name, args } => (name, args),
    };
    let Some(name) = name else {
        return bad("not a transform name".into());
    };
    let Some(args) = args else {
        return bad("not a transform call".into());
    };
    let name = name.to_ascii_lowercase();
    let is_col = |x: &TransformArg| matches!(x, TransformArg::Column);
    let is_int = |x: &TransformArg| matches!(x, TransformArg::Integer(n) if n.parse::<u32>().is_ok_and(|n| n > 0));
    let temporal_hive = ["year", "month", "day", "hour"];
    let temporal_spark = ["years", "months", "days", "hours", "date", "date_hour"];
    let (mine, theirs) = if spark {
        (&temporal_spark[..], &temporal_hive[..])
    } else {
        (&temporal_hive[..], &temporal_spark[..])
    };
    let n = name.as_str();
    if mine.contains(&n) {
        if args.len() == 1 && is_col(&args[0]) {
            return None;
        }
        return bad(format!("{n} takes exactly one column"));
    }
    if n == "bucket" || n == "truncate" {
        if args.len() == 2 && is_int(&args[0]) && is_col(&args[1]) {
            return None;
        }
        if args.len() == 2 && is_col(&args[0]) && is_int(&args[1]) {
            return bad(format!(
                "{n} takes the number first here (the column-first order is CTAS `partitioning` syntax)"
            ));
        }
        return bad(format!("{n} takes a positive integer literal and a column"));
    }
    if theirs.contains(&n) {
        let other = if spark { "Athena's" } else { "Spark's" };
        return bad(format!("`{n}` is {other} spelling"));
    }
    bad(format!("unknown transform `{n}`"))
}

const HIVE_TYPES: &str = "boolean, int, bigint, float, double, decimal(p,s), date, timestamp, \
     string, binary, array<T>, map<K,V> and struct<name:T,…>";
const SPARK_TYPES: &str =
    "boolean, int, bigint, float, double, decimal(p,s), date, timestamp_ntz, \
     timestamp, string, binary, array<T>, map<K, V> and struct<name: T, …>";

/// A column type (one node of it: the element types of `array<…>`, `map<…>` and
/// `struct<…>` are each one), as both parsers' trees give it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnType {
    /// A type both grammars declare Iceberg columns with.
    Iceberg,
    /// `timestamp_ntz` (Spark's).
    TimestampNtz,
    /// `varchar`, `char`, `text`.
    Character,
    /// `tinyint`, `smallint`.
    SmallInteger,
    /// `timestamp` with a precision or a zone.
    TimestampWithParts,
    /// `real`.
    Real,
    /// Any other.
    Other,
}

/// What is wrong with column type `shown` of form `form` in `grammar` (Hive DDL or
/// Spark).
pub(crate) fn column_type_problem(
    shown: &dyn Display,
    form: ColumnType,
    grammar: Grammar,
) -> Option<String> {
    let spark = grammar == Grammar::Spark;
    let hint = match form {
        ColumnType::Iceberg => return None,
        ColumnType::TimestampNtz if spark => return None,
        ColumnType::Character => "; use string",
        ColumnType::SmallInteger => "; use int",
        ColumnType::TimestampWithParts if !spark => {
            "; Athena Iceberg DDL declares only timestamp (no precision, no zone)"
        }
        ColumnType::Real => "; use float",
        _ => "",
    };
    let (what, accepted) = if spark {
        ("a Spark Iceberg column type", SPARK_TYPES)
    } else {
        ("an Athena Iceberg DDL type", HIVE_TYPES)
    };
    Some(format!(
        "type `{shown}` is not {what}{hint}; {} accepts {accepted}",
        if spark { "Spark" } else { "Athena DDL" }
    ))
}

/// A column option the grammar's column definitions do not take (`shown`: the option
/// as written; Spark's take `NOT NULL`, both take `COMMENT '…'`).
pub(crate) fn column_option_refusal(column: &str, shown: &dyn Display, grammar: Grammar) -> String {
    let accepted = if grammar == Grammar::Spark {
        "Spark column definitions here take only NOT NULL and COMMENT '…'"
    } else {
        "Athena Iceberg DDL columns take only COMMENT '…'"
    };
    format!("column `{column}` has the option `{shown}`: {accepted}")
}

/// A Trino `WITH (…)` table property named by a string or a qualified name (`shown`).
pub(crate) fn property_key_refusal(engine: &str, shown: &dyn std::fmt::Display) -> String {
    format!(
        "table property key `{shown}`: {engine} names a property with a plain or \
         double-quoted name (format = 'PARQUET'), not a string"
    )
}
