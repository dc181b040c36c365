//! Type names per grammar: one writer, three spelling tables.
//!
//! | Iceberg | Hive DDL | Trino | Spark |
//! |---|---|---|---|
//! | int, float | `int`, `float` | `integer`, `real` | `int`, `float` |
//! | timestamp | `timestamp` | `timestamp(6)` | `timestamp_ntz` |
//! | timestamptz | (not declarable) | `timestamp(6) with time zone` | `timestamp` |
//! | string, binary | `string`, `binary` | `varchar`, `varbinary` | `string`, `binary` |
//! | list, map | `array<T>`, `map<K,V>` | `array(T)`, `map(K, V)` | `array<T>`, `map<K, V>` |
//! | struct | `struct<a:T>` | `row(a T)` | `struct<a: T>` |
//!
//! Spark's `timestamp` is Iceberg's `timestamptz` and its `timestamp_ntz` Iceberg's
//! `timestamp` (Iceberg's Spark type tables, "Type compatibility" in
//! <https://iceberg.apache.org/docs/latest/spark-getting-started/>).

use std::fmt::Write;

use super::separated;
use super::Grammar;
use crate::types::IcebergType;

/// How one grammar spells types.
struct TypeSpelling {
    boolean: &'static str,
    int: &'static str,
    long: &'static str,
    float: &'static str,
    double: &'static str,
    date: &'static str,
    timestamp: &'static str,
    /// Hive DDL cannot declare it; `IcebergType::check_declarable` refuses it first.
    timestamptz: &'static str,
    string: &'static str,
    binary: &'static str,
    /// `array` + open, close.
    list: (&'static str, &'static str),
    /// `map` + open, key/value separator, close.
    map: (&'static str, &'static str, &'static str),
    /// Open, field separator, name/type separator, close.
    structure: (&'static str, &'static str, &'static str, &'static str),
}

const HIVE: TypeSpelling = TypeSpelling {
    boolean: "boolean",
    int: "int",
    long: "bigint",
    float: "float",
    double: "double",
    date: "date",
    timestamp: "timestamp",
    timestamptz: "timestamp",
    string: "string",
    binary: "binary",
    list: ("array<", ">"),
    map: ("map<", ",", ">"),
    structure: ("struct<", ",", ":", ">"),
};

const TRINO: TypeSpelling = TypeSpelling {
    boolean: "boolean",
    int: "integer",
    long: "bigint",
    float: "real",
    double: "double",
    date: "date",
    timestamp: "timestamp(6)",
    timestamptz: "timestamp(6) with time zone",
    string: "varchar",
    binary: "varbinary",
    list: ("array(", ")"),
    map: ("map(", ", ", ")"),
    structure: ("row(", ", ", " ", ")"),
};

const SPARK: TypeSpelling = TypeSpelling {
    boolean: "boolean",
    int: "int",
    long: "bigint",
    float: "float",
    double: "double",
    date: "date",
    timestamp: "timestamp_ntz",
    timestamptz: "timestamp",
    string: "string",
    binary: "binary",
    list: ("array<", ">"),
    map: ("map<", ", ", ">"),
    structure: ("struct<", ", ", ": ", ">"),
};

fn spelling(grammar: Grammar) -> &'static TypeSpelling {
    match grammar {
        Grammar::HiveDdl => &HIVE,
        Grammar::TrinoDml => &TRINO,
        Grammar::Spark => &SPARK,
    }
}

/// Appends `ty` as `grammar` spells it; struct field names are quoted as it requires.
pub(super) fn write_type(out: &mut String, ty: &IcebergType, grammar: Grammar) {
    let s = spelling(grammar);
    match ty {
        IcebergType::Boolean => out.push_str(s.boolean),
        IcebergType::Int => out.push_str(s.int),
        IcebergType::Long => out.push_str(s.long),
        IcebergType::Float => out.push_str(s.float),
        IcebergType::Double => out.push_str(s.double),
        IcebergType::Decimal { precision, scale } => {
            let _ = write!(out, "decimal({precision},{scale})");
        }
        IcebergType::Date => out.push_str(s.date),
        IcebergType::Timestamp => out.push_str(s.timestamp),
        IcebergType::TimestampTz => out.push_str(s.timestamptz),
        IcebergType::String => out.push_str(s.string),
        IcebergType::Binary => out.push_str(s.binary),
        IcebergType::List(e) => {
            out.push_str(s.list.0);
            write_type(out, e, grammar);
            out.push_str(s.list.1);
        }
        IcebergType::Map(k, v) => {
            out.push_str(s.map.0);
            write_type(out, k, grammar);
            out.push_str(s.map.1);
            write_type(out, v, grammar);
            out.push_str(s.map.2);
        }
        IcebergType::Struct(fields) => {
            let (open, sep, name_sep, close) = s.structure;
            out.push_str(open);
            let _ = separated(out, fields, sep, |out, f| {
                grammar.write_ident(out, &f.name);
                out.push_str(name_sep);
                write_type(out, &f.ty, grammar);
                Ok(())
            });
            out.push_str(close);
        }
    }
}
