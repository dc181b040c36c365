//! The type model held to Trino's verdicts (Athena engine v3 is built on Trino): a
//! generated corpus of column type × value kind × statement position. Every case is built
//! through the crate (Athena DML text) and also written raw, as the plain literal a user
//! would type. Verdicts:
//! - the crate builds it: the statement runs on Trino 476 and the value read back (or the
//!   rows a WHERE selects) equals what Trino makes of the raw literal, exactly;
//! - the crate refuses it: Trino refuses the raw form too (`EXPLAIN (TYPE VALIDATE)`, then
//!   evaluating the raw literal), or the case is listed as an Athena-only rule with its
//!   AWS source, or as a known difference under repair.
//!
//! Types: every Iceberg type the crate models (boolean, int, bigint, real, double,
//! decimal(p,s) incl. precision 38, date, timestamp(6), timestamp(6) with time zone,
//! varchar, varbinary, array, map, row; the crate models no `time` and no `uuid`). Values:
//! in range, edges (min/max, precision limits, NaN and infinities, empty text, unicode,
//! leap days, years 1 and 9999), out of range, another type's value, NULL. Positions:
//! INSERT VALUES, UPDATE SET, MERGE UPDATE SET, MERGE INSERT, WHERE `=`, CTAS and
//! INSERT … SELECT outputs, ORDER BY keys.
//!
//! Known: the differences another change of the model repairs, printed as KNOWN and
//! counted as disagreements without failing the run (none at present). A de-duplicating
//! window ordered by an array or row is refused by the crate and judged against Trino
//! ordering every value of the type the corpus has, NULL elements and fields included.
//!
//! Speed: one table per type, six at a time (one HTTP connection per query); refusals
//! are judged with `EXPLAIN (TYPE VALIDATE)` first and written only when analysis
//! passes; the INSERT rows go in one multi-row statement. Measured on the project's
//! 2-core machine on 2026-12-07: 2,089 cases in 375 s with a load average of 20 (other
//! builds running); 1,203 cases took 196 s at a lower load. Each UPDATE and MERGE case is
//! a commit of its own, which is most of the time.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::Instant;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use iceberg_sql::ctas::IcebergCtas;
use iceberg_sql::dsl::source;
use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;
use iceberg_sql::{Decimal, StructField};
use iceberg_sql_tests::trino::{Trino, TrinoError};

const DB: &str = "trino_corpus";

/// One table per column type: `id bigint NOT NULL, c <type>`.
struct Ty {
    name: &'static str,
    ty: IcebergType,
    /// Trino's name of the type, for the raw forms.
    trino: &'static str,
}

fn types() -> &'static [Ty] {
    static T: OnceLock<Vec<Ty>> = OnceLock::new();
    T.get_or_init(|| {
        let t = |name, ty, trino| Ty { name, ty, trino };
        vec![
            t("bool", IcebergType::Boolean, "boolean"),
            t("int", IcebergType::Int, "integer"),
            t("long", IcebergType::Long, "bigint"),
            t("real", IcebergType::Float, "real"),
            t("double", IcebergType::Double, "double"),
            t("dec10_2", IcebergType::decimal(10, 2), "decimal(10,2)"),
            t("dec38_0", IcebergType::decimal(38, 0), "decimal(38,0)"),
            t("dec38_6", IcebergType::decimal(38, 6), "decimal(38,6)"),
            t("date", IcebergType::Date, "date"),
            t("ts", IcebergType::Timestamp, "timestamp(6)"),
            t(
                "tstz",
                IcebergType::TimestampTz,
                "timestamp(6) with time zone",
            ),
            t("str", IcebergType::String, "varchar"),
            t("bin", IcebergType::Binary, "varbinary"),
            t(
                "arr",
                IcebergType::List(Box::new(IcebergType::String)),
                "array(varchar)",
            ),
            t(
                "map",
                IcebergType::Map(Box::new(IcebergType::String), Box::new(IcebergType::Long)),
                "map(varchar, bigint)",
            ),
            t(
                "row",
                IcebergType::Struct(vec![
                    StructField::new("a", IcebergType::Int),
                    StructField::new("b", IcebergType::String),
                ]),
                "row(a integer, b varchar)",
            ),
        ]
    })
}

fn defs() -> &'static [TableDef] {
    static D: OnceLock<Vec<TableDef>> = OnceLock::new();
    D.get_or_init(|| {
        types()
            .iter()
            .map(|t| {
                TableDef::builder(DB, format!("t_{}", t.name))
                    .column(Column::new("id", IcebergType::Long).required())
                    .column(Column::new("c", t.ty.clone()))
                    .build()
                    .unwrap_or_else(|e| panic!("table of {}: {e}", t.name))
            })
            .collect()
    })
}

/// A row of table `K`: its id and the value of `c` (any value: the crate checks it).
#[derive(Debug, Clone)]
struct Rec<const K: usize>(i64, Value);

impl<const K: usize> IcebergTable for Rec<K> {
    fn table_def() -> &'static TableDef {
        &defs()[K]
    }
    fn to_values(&self) -> Vec<Value> {
        vec![Value::Long(self.0), self.1.clone()]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    InRange,
    Edge,
    OutOfRange,
    WrongType,
    Null,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Pos {
    Insert,
    UpdateSet,
    MergeSet,
    MergeInsert,
    WhereEq,
    WhereLt,
    WhereNe,
    WhereGe,
    CtasOutput,
    InsertSelectOutput,
    WindowKey,
}

/// The value cases for a column of `ty`: its own values, then one value of every other
/// scalar kind.
fn values(ty: &IcebergType) -> Vec<(Kind, Value)> {
    use Kind::*;
    use Value as V;
    let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
    let ts = |y, m, day, h, mi, s, micro| d(y, m, day).and_hms_micro_opt(h, mi, s, micro).unwrap();
    let dec = |s: &str| V::Decimal(Decimal::parse(s).unwrap());
    let tz = |t: NaiveDateTime| V::TimestampTz(DateTime::<Utc>::from_naive_utc_and_offset(t, Utc));
    let mut v: Vec<(Kind, Value)> = match ty {
        IcebergType::Boolean => vec![(InRange, V::Boolean(true)), (InRange, V::Boolean(false))],
        IcebergType::Int => vec![
            (InRange, V::Int(42)),
            (InRange, V::Int(-7)),
            (Edge, V::Int(i32::MIN)),
            (Edge, V::Int(i32::MAX)),
            (InRange, V::Long(5)),
            (OutOfRange, V::Long(i64::from(i32::MAX) + 1)),
            (OutOfRange, V::Long(i64::MIN)),
        ],
        IcebergType::Long => vec![
            (InRange, V::Long(1_234_567_890_123)),
            (Edge, V::Long(i64::MIN)),
            (Edge, V::Long(i64::MAX)),
            (InRange, V::Int(7)),
            (Edge, V::Long(0)),
        ],
        IcebergType::Float => vec![
            (InRange, V::Float(1.5)),
            (Edge, V::Float(-0.0)),
            (Edge, V::Float(f32::MAX)),
            (Edge, V::Float(f32::MIN)),
            (Edge, V::Float(f32::MIN_POSITIVE)),
            (Edge, V::Float(1e-45)),
            (Edge, V::Float(f32::NAN)),
            (Edge, V::Float(f32::INFINITY)),
            (Edge, V::Float(f32::NEG_INFINITY)),
            (OutOfRange, V::Double(1e300)),
            (InRange, V::Double(0.25)),
        ],
        IcebergType::Double => vec![
            (InRange, V::Double(1.5)),
            (InRange, V::Double(0.1)),
            (Edge, V::Double(-0.0)),
            (Edge, V::Double(f64::MAX)),
            (Edge, V::Double(f64::MIN)),
            (Edge, V::Double(f64::MIN_POSITIVE)),
            (Edge, V::Double(5e-324)),
            (Edge, V::Double(f64::NAN)),
            (Edge, V::Double(f64::INFINITY)),
            (Edge, V::Double(f64::NEG_INFINITY)),
            (InRange, V::Float(0.5)),
            (InRange, V::Int(3)),
        ],
        IcebergType::Decimal { precision: 10, .. } => vec![
            (InRange, dec("12.34")),
            (InRange, dec("0.00")),
            (Edge, dec("99999999.99")),
            (Edge, dec("-99999999.99")),
            (InRange, dec("1.5")),
            (OutOfRange, dec("1.234")),
            (OutOfRange, dec("123456789.00")),
        ],
        IcebergType::Decimal { scale: 0, .. } => vec![
            (InRange, dec("123")),
            (Edge, dec(&"9".repeat(38))),
            (Edge, dec(&format!("-{}", "9".repeat(38)))),
            (OutOfRange, dec("0.5")),
        ],
        IcebergType::Decimal { .. } => vec![
            (InRange, dec("3.141593")),
            (Edge, dec(&format!("{}.{}", "9".repeat(32), "9".repeat(6)))),
            (Edge, dec("0.000001")),
            (OutOfRange, dec("0.0000001")),
            (OutOfRange, dec(&format!("{}.0", "9".repeat(33)))),
        ],
        IcebergType::Date => vec![
            (InRange, V::Date(d(2024, 5, 17))),
            (Edge, V::Date(d(2024, 2, 29))),
            (Edge, V::Date(d(1, 1, 1))),
            (Edge, V::Date(d(9999, 12, 31))),
            (Edge, V::Date(d(1970, 1, 1))),
            (Edge, V::Date(d(1582, 10, 10))),
            (OutOfRange, V::Date(d(10000, 1, 1))),
        ],
        IcebergType::Timestamp => vec![
            (InRange, V::Timestamp(ts(2024, 5, 17, 12, 34, 56, 123_456))),
            (Edge, V::Timestamp(ts(2024, 2, 29, 23, 59, 59, 999_999))),
            (Edge, V::Timestamp(ts(1, 1, 1, 0, 0, 0, 0))),
            (Edge, V::Timestamp(ts(9999, 12, 31, 23, 59, 59, 999_999))),
            (
                OutOfRange,
                V::Timestamp(
                    d(2024, 1, 1)
                        .and_hms_nano_opt(0, 0, 0, 123_456_789)
                        .unwrap(),
                ),
            ),
        ],
        IcebergType::TimestampTz => vec![
            (InRange, tz(ts(2024, 5, 17, 12, 34, 56, 123_456))),
            (Edge, tz(ts(2024, 2, 29, 23, 59, 59, 999_999))),
            (Edge, tz(ts(1, 1, 1, 0, 0, 0, 0))),
            (Edge, tz(ts(9999, 12, 31, 23, 59, 59, 999_999))),
        ],
        IcebergType::String => vec![
            (InRange, V::String("hello".into())),
            (Edge, V::String(String::new())),
            (Edge, V::String("it's \\ \"q\" -- /* */ ;".into())),
            (
                Edge,
                V::String("zürich ✓ 😀 日本語 e\u{301} \u{202e}rtl".into()),
            ),
            (Edge, V::String("tab\there\nline\u{1}".into())),
            (Edge, V::String("x".repeat(5000))),
        ],
        IcebergType::Binary => vec![
            (InRange, V::Binary(vec![0xde, 0xad, 0xbe, 0xef])),
            (Edge, V::Binary(vec![])),
            (Edge, V::Binary((0..=255).collect())),
        ],
        IcebergType::List(_) => vec![
            (
                InRange,
                V::List(vec![V::String("a".into()), V::String("b'c".into())]),
            ),
            (Edge, V::List(vec![])),
            (Edge, V::List(vec![V::Null, V::String(String::new())])),
            (WrongType, V::List(vec![V::Int(1)])),
        ],
        IcebergType::Map(..) => vec![
            (
                InRange,
                V::Map(vec![
                    (V::String("a".into()), V::Long(1)),
                    (V::String("b".into()), V::Long(-2)),
                ]),
            ),
            (Edge, V::Map(vec![])),
            (Edge, V::Map(vec![(V::String("k".into()), V::Null)])),
            (WrongType, V::Map(vec![(V::Long(1), V::String("a".into()))])),
        ],
        IcebergType::Struct(_) => vec![
            (InRange, V::Struct(vec![V::Int(1), V::String("x".into())])),
            (Edge, V::Struct(vec![V::Null, V::Null])),
            (WrongType, V::Struct(vec![V::String("x".into()), V::Int(1)])),
            (WrongType, V::Struct(vec![V::Int(1)])),
        ],
    };
    // Another type's value.
    let others = [
        V::Boolean(true),
        V::Int(5),
        V::Long(6_000_000_000),
        V::Float(2.5),
        V::Double(3.25),
        dec("4.50"),
        V::Date(d(2024, 1, 2)),
        V::Timestamp(ts(2024, 1, 2, 3, 4, 5, 6)),
        tz(ts(2024, 1, 2, 3, 4, 5, 6)),
        V::String("7".into()),
        V::String("2024-01-02".into()),
        V::Binary(vec![1, 2]),
        V::List(vec![V::String("z".into())]),
    ];
    for o in others {
        if !v.iter().any(|(_, x)| x.kind_name() == o.kind_name()) {
            v.push((WrongType, o));
        }
    }
    v.push((Null, V::Null));
    v
}

/// The plain literal a user would write for `v` (its own type, none of the crate's
/// conversions).
fn raw(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Long(i) => i.to_string(),
        Value::Float(f) if f.is_nan() => "CAST(nan() AS real)".into(),
        Value::Float(f) if f.is_infinite() => {
            format!(
                "CAST({}infinity() AS real)",
                if *f < 0.0 { "-" } else { "" }
            )
        }
        Value::Float(f) => format!("REAL '{f:?}'"),
        Value::Double(f) if f.is_nan() => "nan()".into(),
        Value::Double(f) if f.is_infinite() => {
            format!("{}infinity()", if *f < 0.0 { "-" } else { "" })
        }
        Value::Double(f) => format!("DOUBLE '{f:?}'"),
        Value::Decimal(d) => format!("DECIMAL '{d}'"),
        Value::Date(d) => format!("DATE '{}'", d.format("%Y-%m-%d")),
        Value::Timestamp(t) => format!("TIMESTAMP '{}'", t.format("%Y-%m-%d %H:%M:%S%.f")),
        Value::TimestampTz(t) => {
            format!(
                "TIMESTAMP '{} UTC'",
                t.naive_utc().format("%Y-%m-%d %H:%M:%S%.f")
            )
        }
        Value::String(s) => format!("'{}'", s.replace('\'', "''")),
        Value::Binary(b) => {
            let mut s = String::from("X'");
            for x in b {
                let _ = write!(s, "{x:02x}");
            }
            s + "'"
        }
        Value::List(xs) => format!(
            "ARRAY[{}]",
            xs.iter().map(raw).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(kv) => format!(
            "MAP(ARRAY[{}], ARRAY[{}])",
            kv.iter()
                .map(|(k, _)| raw(k))
                .collect::<Vec<_>>()
                .join(", "),
            kv.iter()
                .map(|(_, x)| raw(x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Struct(xs) => format!("ROW({})", xs.iter().map(raw).collect::<Vec<_>>().join(", ")),
    }
}

/// `$body` with `$c` a `Col<Rec<K>, Option<X>>` and `$l` the value as an `X`, for the
/// scalar value kinds (`None` for NULL, binary and nested values, which have no typed
/// literal).
macro_rules! typed {
    ($v:expr, $k:ident, |$c:ident, $l:ident| $body:expr) => {
        match $v {
            Value::Boolean(x) => {
                let $c = Col::<Rec<$k>, Option<bool>>::new("c");
                let $l = *x;
                Some($body)
            }
            Value::Int(x) => {
                let $c = Col::<Rec<$k>, Option<i32>>::new("c");
                let $l = *x;
                Some($body)
            }
            Value::Long(x) => {
                let $c = Col::<Rec<$k>, Option<i64>>::new("c");
                let $l = *x;
                Some($body)
            }
            Value::Float(x) => {
                let $c = Col::<Rec<$k>, Option<f32>>::new("c");
                let $l = *x;
                Some($body)
            }
            Value::Double(x) => {
                let $c = Col::<Rec<$k>, Option<f64>>::new("c");
                let $l = *x;
                Some($body)
            }
            Value::Decimal(x) => {
                let $c = Col::<Rec<$k>, Option<Decimal>>::new("c");
                let $l = x.clone();
                Some($body)
            }
            Value::Date(x) => {
                let $c = Col::<Rec<$k>, Option<NaiveDate>>::new("c");
                let $l = *x;
                Some($body)
            }
            Value::Timestamp(x) => {
                let $c = Col::<Rec<$k>, Option<NaiveDateTime>>::new("c");
                let $l = *x;
                Some($body)
            }
            Value::TimestampTz(x) => {
                let $c = Col::<Rec<$k>, Option<DateTime<Utc>>>::new("c");
                let $l = *x;
                Some($body)
            }
            Value::String(x) => {
                let $c = Col::<Rec<$k>, Option<String>>::new("c");
                let $l = x.clone();
                Some($body)
            }
            _ => None,
        }
    };
}

fn id_col<const K: usize>() -> Col<Rec<K>, i64> {
    Col::new("id")
}

/// The crate's statement for `v` at `pos` on table `K`, row `id`; `None` where the
/// position has no typed form for the value.
fn build<const K: usize>(pos: Pos, v: &Value, id: i64) -> Option<Result<Statement, Error>> {
    let id_c = id_col::<K>();
    match pos {
        Pos::Insert => Some(Rec::<K>::insert(&[Rec::<K>(id, v.clone())]).build()),
        Pos::UpdateSet => {
            if matches!(v, Value::Null) {
                return null_update::<K>(id);
            }
            typed!(v, K, |c, l| Rec::<K>::update()
                .set(c, l)
                .filter(id_c.eq(id))
                .build())
        }
        Pos::MergeSet => {
            let rows = [Rec::<K>(id, Value::Null)];
            if matches!(v, Value::Null) {
                return typed!(&proto(K), K, |c, _l| Rec::<K>::merge_from(
                    MergeSource::rows(&rows)
                )
                .on_key(id_c)
                .when_matched()
                .update(|u| u.set_null(c))
                .build());
            }
            typed!(v, K, |c, l| Rec::<K>::merge_from(MergeSource::rows(&rows))
                .on_key(id_c)
                .when_matched()
                .update(|u| u.set(c, l))
                .build())
        }
        Pos::MergeInsert => {
            let rows = [Rec::<K>(id, Value::Null)];
            if matches!(v, Value::Null) {
                return Some(
                    Rec::<K>::merge_from(MergeSource::rows(&rows))
                        .on_key(id_c)
                        .when_not_matched()
                        .insert(|i| i.value(id_c, source(id_c)))
                        .build(),
                );
            }
            typed!(v, K, |c, l| Rec::<K>::merge_from(MergeSource::rows(&rows))
                .on_key(id_c)
                .when_not_matched()
                .insert(|i| i.value(id_c, source(id_c)).value(c, l))
                .build())
        }
        Pos::WhereEq => {
            if matches!(v, Value::Null) {
                return typed!(&proto(K), K, |c, _l| Rec::<K>::select()
                    .filter(c.is_null())
                    .order_by(id_c, Order::Asc)
                    .build());
            }
            typed!(v, K, |c, l| Rec::<K>::select()
                .filter(c.eq(l))
                .order_by(id_c, Order::Asc)
                .build())
        }
        Pos::WhereNe => typed!(v, K, |c, l| Rec::<K>::select()
            .filter(c.ne(l))
            .order_by(id_c, Order::Asc)
            .build()),
        Pos::WhereGe => typed!(v, K, |c, l| Rec::<K>::select()
            .filter(c.ge(l))
            .order_by(id_c, Order::Asc)
            .build()),
        Pos::WhereLt => typed!(v, K, |c, l| Rec::<K>::select()
            .filter(c.lt(l))
            .order_by(id_c, Order::Asc)
            .build()),
        _ => None,
    }
}

/// A value of table `K`'s own type (for NULL of that type).
fn proto(k: usize) -> Value {
    values(&types()[k].ty)
        .into_iter()
        .map(|(_, v)| v)
        .next()
        .unwrap_or(Value::Null)
}

fn null_update<const K: usize>(id: i64) -> Option<Result<Statement, Error>> {
    let id_c = id_col::<K>();
    typed!(&proto(K), K, |c, _l| Rec::<K>::update()
        .set_null(c)
        .filter(id_c.eq(id))
        .build())
}

macro_rules! by_k {
    ($k:expr, $f:ident ( $($a:expr),* )) => {
        match $k {
            0 => $f::<0>($($a),*),
            1 => $f::<1>($($a),*),
            2 => $f::<2>($($a),*),
            3 => $f::<3>($($a),*),
            4 => $f::<4>($($a),*),
            5 => $f::<5>($($a),*),
            6 => $f::<6>($($a),*),
            7 => $f::<7>($($a),*),
            8 => $f::<8>($($a),*),
            9 => $f::<9>($($a),*),
            10 => $f::<10>($($a),*),
            11 => $f::<11>($($a),*),
            12 => $f::<12>($($a),*),
            13 => $f::<13>($($a),*),
            14 => $f::<14>($($a),*),
            15 => $f::<15>($($a),*),
            k => panic!("no table {k}"),
        }
    };
}

/// The raw statement of a case (the user's own text).
fn raw_statement(pos: Pos, table: &str, v: &Value, id: i64) -> Option<String> {
    let r = raw(v);
    Some(match pos {
        Pos::Insert => format!("INSERT INTO {table} (id, c) VALUES ({id}, {r})"),
        Pos::UpdateSet => format!("UPDATE {table} SET c = {r} WHERE id = {id}"),
        Pos::MergeSet => format!(
            "MERGE INTO {table} t USING (VALUES ({id})) AS s(id) ON t.id = s.id \
             WHEN MATCHED THEN UPDATE SET c = {r}"
        ),
        Pos::MergeInsert => format!(
            "MERGE INTO {table} t USING (VALUES ({id})) AS s(id) ON t.id = s.id \
             WHEN NOT MATCHED THEN INSERT (id, c) VALUES (s.id, {r})"
        ),
        Pos::WhereEq if matches!(v, Value::Null) => {
            format!("SELECT id FROM {table} WHERE c IS NULL ORDER BY id")
        }
        Pos::WhereEq => format!("SELECT id FROM {table} WHERE c = {r} ORDER BY id"),
        Pos::WhereLt => format!("SELECT id FROM {table} WHERE c < {r} ORDER BY id"),
        Pos::WhereNe => format!("SELECT id FROM {table} WHERE c <> {r} ORDER BY id"),
        Pos::WhereGe => format!("SELECT id FROM {table} WHERE c >= {r} ORDER BY id"),
        _ => return None,
    })
}

struct Case {
    k: usize,
    pos: Pos,
    kind: Kind,
    value: Value,
    id: i64,
    built: Result<Statement, Error>,
}

fn verdict(out: &mut Tally, c: &Case, ok: Result<(), String>) {
    out.cases += 1;
    match ok {
        Ok(()) => out.agree += 1,
        Err(why) => {
            let line = format!(
                "{} {:?} {:?} {:?}: {why}",
                types()[c.k].name,
                c.pos,
                c.kind,
                c.value
            );
            if let Some(k) = known(c.k, c.pos, &c.value) {
                out.known.push(format!("{line} [known: {k}]"));
            } else {
                out.disagree.push(line);
            }
        }
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    agree: usize,
    known: Vec<String>,
    disagree: Vec<String>,
}

/// Differences under repair elsewhere in the model, by (type, position, value kind):
/// the verdict is recorded but does not fail the run. None at present.
fn known(_k: usize, _pos: Pos, _v: &Value) -> Option<&'static str> {
    None
}

/// Crate refusals that are Athena's own rules, not Trino's, with their AWS source.
fn athena_only(_k: usize, _pos: Pos, v: &Value) -> Option<&'static str> {
    use chrono::Datelike;
    let year = match v {
        Value::Date(d) => d.year(),
        Value::Timestamp(t) => t.year(),
        Value::TimestampTz(t) => t.year(),
        _ => return None,
    };
    (!(1..=9999).contains(&year)).then_some(
        "Athena's data types are DATE `YYYY-MM-DD` and TIMESTAMP `yyyy-MM-dd HH:mm:ss[.f...]`, \
         four-digit years (https://docs.aws.amazon.com/athena/latest/ug/data-types.html)",
    )
}

fn refusal(e: &TrinoError) -> Result<String, TrinoError> {
    match e {
        TrinoError::Sql { name, message, .. } => Ok(format!("{name}: {message}")),
        TrinoError::Protocol(_) => Err(e.clone()),
    }
}

/// Trino's verdict on the raw form of a case the crate refuses: `Ok(why)` when Trino
/// refuses it too (at analysis, or when it runs), or runs it but does not keep the
/// intended value (it rounds, truncates or overflows: the stored value, cast back to the
/// raw literal's own type, differs from it; a WHERE selects other rows than those
/// holding the value); `Err(what)` when Trino means the value exactly.
fn judge_refused(
    trino: &Trino,
    pos: Pos,
    table: &str,
    v: &Value,
    id: i64,
) -> Result<String, String> {
    let raw_stmt = raw_statement(pos, table, v, id).unwrap_or_default();
    let fail = |e: TrinoError| -> String { panic!("{e}") };
    if let Err(e) = trino.sql(format!("EXPLAIN (TYPE VALIDATE) {raw_stmt}")) {
        return Ok(refusal(&e).unwrap_or_else(fail));
    }
    let r = raw(v);
    let own = match trino.sql(format!("SELECT typeof({r})")) {
        Ok(t) => cell_text(&t.rows[0][0]),
        Err(e) => return Ok(refusal(&e).unwrap_or_else(fail)),
    };
    let same = |c: &str| {
        if matches!(v, Value::Null) {
            format!("{c} IS NULL")
        } else if pos == Pos::WhereLt {
            format!("CAST({c} AS {own}) < {r}")
        } else if pos == Pos::WhereGe {
            format!("CAST({c} AS {own}) >= {r}")
        } else if pos == Pos::WhereNe {
            format!("{c} IS NOT NULL AND NOT (CAST({c} AS {own}) IS NOT DISTINCT FROM {r})")
        } else {
            format!("CAST({c} AS {own}) IS NOT DISTINCT FROM {r}")
        }
    };
    if pos == Pos::WhereEq && !matches!(v, Value::Null) {
        // A value no row of the column can hold: `=` is false on every row.
        let col_type = &types()
            .iter()
            .find(|t| table.ends_with(&format!("t_{}", t.name)))
            .map(|t| t.trino)
            .unwrap_or("");
        let keeps = trino.sql(format!(
            "SELECT try(CAST(CAST({r} AS {col_type}) AS {own}) IS NOT DISTINCT FROM {r})"
        ));
        if let Ok(q) = keeps {
            if q.rows[0][0].as_deref() != Some("true") {
                return Ok(format!("no value of the column equals it ({col_type} cannot hold it): the raw `=` is false on every row"));
            }
        }
    }
    if matches!(
        pos,
        Pos::WhereEq | Pos::WhereLt | Pos::WhereNe | Pos::WhereGe
    ) {
        let ids = |sql: String| {
            trino
                .sql(sql)
                .map(|q| q.rows.iter().map(|x| cell_text(&x[0])).collect::<Vec<_>>())
        };
        let intended = ids(format!(
            "SELECT id FROM {table} WHERE try({}) ORDER BY id",
            same("c")
        ));
        return match (ids(raw_stmt.clone()), intended) {
            (Err(e), _) => Ok(refusal(&e).unwrap_or_else(fail)),
            (Ok(got), Ok(want)) if got != want => Ok(format!(
                "Trino's raw comparison selects {got:?}, the rows holding the value are {want:?}"
            )),
            (Ok(got), _) => Err(format!(
                "Trino's raw comparison selects the intended rows {got:?}: {raw_stmt}"
            )),
        };
    }
    if let Err(e) = trino.sql(&raw_stmt) {
        return Ok(refusal(&e).unwrap_or_else(fail));
    }
    let q = format!(
        "SELECT CAST(c AS varchar), try({}) FROM {table} WHERE id = {id}",
        same("c")
    );
    match trino.sql(&q) {
        Err(e) => Ok(refusal(&e).unwrap_or_else(fail)),
        Ok(q) if q.rows.first().and_then(|x| x[1].as_deref()) == Some("true") => Err(format!(
            "Trino stores the value exactly ({:?}): {raw_stmt}",
            q.rows[0][0]
        )),
        Ok(q) => Ok(format!(
            "Trino changes the value: stores {:?}",
            q.rows.first().map(|x| x[0].clone())
        )),
    }
}

fn cell_text(c: &Option<String>) -> String {
    c.clone().unwrap_or_else(|| "NULL".into())
}

/// Runs all cases of table `k`.
fn run_table(trino: &Trino, k: usize, tally: &Mutex<Tally>) {
    let ty = &types()[k];
    let def = &defs()[k];
    let table = def.name().to_string();
    trino.run(format!("DROP TABLE IF EXISTS {table}"));
    trino.run(def.create_table().build_for(Dialect::Trino).unwrap());
    let vals = values(&ty.ty);
    let positions = [
        Pos::Insert,
        Pos::UpdateSet,
        Pos::MergeSet,
        Pos::MergeInsert,
        Pos::WhereEq,
        Pos::WhereLt,
        Pos::WhereNe,
        Pos::WhereGe,
    ];
    let mut cases = Vec::new();
    for (p, pos) in positions.iter().enumerate() {
        for (i, (kind, v)) in vals.iter().enumerate() {
            let id = (p as i64 + 1) * 1000 + i as i64;
            let nan = matches!(v, Value::Float(f) if f.is_nan())
                || matches!(v, Value::Double(f) if f.is_nan());
            let ordering = matches!(*pos, Pos::WhereLt | Pos::WhereGe);
            if (ordering && nan) || (ordering || *pos == Pos::WhereNe) && matches!(v, Value::Null) {
                // `<` and `>=` have no intended meaning with NaN, nor any but `=` with NULL
                // (`=` NULL is `is_null()`): not generated.
                continue;
            }
            if let Some(built) = by_k!(k, build(*pos, v, id)) {
                cases.push(Case {
                    k,
                    pos: *pos,
                    kind: *kind,
                    value: v.clone(),
                    id,
                    built,
                });
            }
        }
    }
    let mut out = Tally::default();
    // Seed rows for UPDATE and MERGE UPDATE (one per case), one raw INSERT.
    let seeds: Vec<String> = cases
        .iter()
        .filter(|c| matches!(c.pos, Pos::UpdateSet | Pos::MergeSet))
        .map(|c| format!("({}, NULL)", c.id))
        .collect();
    if !seeds.is_empty() {
        trino.run(format!(
            "INSERT INTO {table} (id, c) VALUES {}",
            seeds.join(", ")
        ));
    }
    // Accepted writes: run the crate's text. The INSERT rows go in one multi-row
    // statement built by the crate (each row was also built alone above); should Trino
    // refuse it, each row's own statement runs to say which.
    let mut wrote: Vec<&Case> = Vec::new();
    let ins: Vec<&Case> = cases
        .iter()
        .filter(|c| c.built.is_ok() && c.pos == Pos::Insert)
        .collect();
    let together = by_k!(k, insert_rows(&ins));
    let mut single: Vec<&Case> = cases
        .iter()
        .filter(|c| {
            c.built.is_ok()
                && !matches!(
                    c.pos,
                    Pos::Insert | Pos::WhereEq | Pos::WhereLt | Pos::WhereNe | Pos::WhereGe
                )
        })
        .collect();
    match together.map(|st| trino.sql(st.sql())) {
        Ok(Ok(_)) => wrote.extend(ins),
        _ => single.extend(ins),
    }
    for c in single {
        let st = c.built.as_ref().unwrap();
        match trino.sql(st.sql()) {
            Ok(_) => wrote.push(c),
            Err(e) => verdict(
                &mut out,
                c,
                Err(format!("the crate builds it but Trino refuses: {e}")),
            ),
        }
    }
    // Refused cases: Trino must refuse the raw form, or not keep the value.
    for c in cases.iter().filter(|c| c.built.is_err()) {
        let err = c
            .built
            .as_ref()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        let first = err.lines().next().unwrap_or("").to_string();
        let v = match judge_refused(trino, c.pos, &table, &c.value, c.id) {
            Ok(_) => Ok(()),
            Err(why) => match athena_only(c.k, c.pos, &c.value) {
                Some(_) => Ok(()),
                None => Err(format!("the crate refuses ({first}) but {why}")),
            },
        };
        verdict(&mut out, c, v);
    }
    // Read back and compare with Trino's reading of the raw literal as the column's type.
    let stored: BTreeMap<i64, String> = trino
        .run(format!("SELECT id, c FROM {table}"))
        .rows
        .iter()
        .map(|r| {
            (
                r[0].as_deref().unwrap_or("0").parse::<i64>().unwrap_or(0),
                cell_text(&r[1]),
            )
        })
        .collect();
    for c in wrote {
        let expected = trino
            .sql(format!("SELECT CAST({} AS {})", raw(&c.value), ty.trino))
            .map(|r| cell_text(&r.rows[0][0]));
        let got = stored.get(&c.id);
        let v = match (&expected, got) {
            (Ok(e), Some(g)) if e == g => Ok(()),
            (Ok(e), g) => Err(format!(
                "stored {g:?}, the raw literal reads {e:?}: {}",
                c.built.as_ref().unwrap().sql()
            )),
            (Err(e), _) => Err(format!(
                "the crate wrote {:?} but Trino refuses the raw literal: {e}",
                got
            )),
        };
        verdict(&mut out, c, v);
    }
    // WHERE: the crate's rows equal the raw comparison's rows.
    for c in cases.iter().filter(|c| {
        matches!(
            c.pos,
            Pos::WhereEq | Pos::WhereLt | Pos::WhereNe | Pos::WhereGe
        ) && c.built.is_ok()
    }) {
        let st = c.built.as_ref().unwrap();
        let raw_stmt = raw_statement(c.pos, &table, &c.value, c.id).unwrap();
        let ids = |r: Result<iceberg_sql_tests::trino::QueryResult, TrinoError>| {
            r.map(|r| {
                r.rows
                    .iter()
                    .map(|row| cell_text(&row[0]))
                    .collect::<Vec<_>>()
            })
        };
        let got = ids(trino.sql(st.sql()));
        let want = ids(trino.sql(&raw_stmt));
        let v = match (got, want) {
            (Ok(g), Ok(w)) if g == w => Ok(()),
            (Ok(g), Ok(w)) => Err(format!(
                "the crate's WHERE selects {g:?}, the raw one {w:?}: {}",
                st.sql()
            )),
            (Err(e), _) => Err(format!("the crate builds it but Trino refuses: {e}")),
            (_, Err(e)) => Err(format!("Trino refuses the raw comparison: {e}")),
        };
        verdict(&mut out, c, v);
    }
    outputs(trino, k, &cases, &stored, &mut out);
    let mut t = tally.lock().unwrap();
    t.cases += out.cases;
    t.agree += out.agree;
    t.known.extend(out.known);
    t.disagree.extend(out.disagree);
}

/// CTAS and INSERT … SELECT outputs (every row the INSERT position stored is one case:
/// it reads back the same, in a column of the same type), ORDER BY keys and the
/// de-duplicating window's ORDER BY key (one case each per type).
fn outputs(
    trino: &Trino,
    k: usize,
    cases: &[Case],
    stored: &BTreeMap<i64, String>,
    out: &mut Tally,
) {
    let def = &defs()[k];
    let ty = &types()[k];
    let table = def.name().to_string();
    let rows: Vec<&Case> = cases
        .iter()
        .filter(|c| c.pos == Pos::Insert && c.built.is_ok() && stored.contains_key(&c.id))
        .collect();
    let src_type = cell_text(
        &trino
            .run(format!("SELECT typeof(c) FROM {table} LIMIT 1"))
            .rows[0][0],
    );
    let check_copy = |out: &mut Tally, pos: Pos, name: &str, built: Result<Statement, Error>| {
        let ran = built
            .map_err(|e| {
                format!(
                    "the crate refuses: {}",
                    e.to_string().lines().next().unwrap_or("")
                )
            })
            .and_then(|st| {
                trino
                    .sql(st.sql())
                    .map_err(|e| format!("Trino refuses the crate's text: {e}"))
            });
        let copy: Result<(String, BTreeMap<i64, String>), String> = ran.map(|_| {
            let q = trino.run(format!("SELECT id, c, typeof(c) FROM {name}"));
            let ty = q.rows.first().map(|r| cell_text(&r[2])).unwrap_or_default();
            let cells = q
                .rows
                .iter()
                .map(|r| {
                    (
                        r[0].as_deref().unwrap_or("0").parse().unwrap_or(0),
                        cell_text(&r[1]),
                    )
                })
                .collect();
            (ty, cells)
        });
        for c in &rows {
            let v = match &copy {
                Err(e) => Err(e.clone()),
                Ok((t, _)) if *t != src_type => {
                    Err(format!("the copy's column is {t}, the source's {src_type}"))
                }
                Ok((_, cells)) if cells.get(&c.id) == stored.get(&c.id) => Ok(()),
                Ok((_, cells)) => Err(format!(
                    "copied {:?}, stored {:?}",
                    cells.get(&c.id),
                    stored.get(&c.id)
                )),
            };
            let case = Case {
                k,
                pos,
                kind: c.kind,
                value: c.value.clone(),
                id: c.id,
                built: Err(Error::new(ErrorKind::InvalidValue, "")),
            };
            verdict(out, &case, v);
        }
    };
    // CTAS (Trino target: Athena's CTAS properties are Athena's own) of the whole table.
    let ctas_name = TableName::new(DB, format!("t_{}_ctas", ty.name));
    trino.run(format!("DROP TABLE IF EXISTS {ctas_name}"));
    let location = format!("s3://trino-corpus/ctas/{}/", ty.name);
    let built = by_k!(k, ctas(&ctas_name, &location));
    check_copy(out, Pos::CtasOutput, &ctas_name.to_string(), built);
    // INSERT … SELECT (Athena text) into an empty table of the same definition.
    let copy_def = def.renamed(DB, format!("t_{}_copy", ty.name));
    trino.run(format!("DROP TABLE IF EXISTS {}", copy_def.name()));
    trino.run(copy_def.create_table().build_for(Dialect::Trino).unwrap());
    let built = by_k!(k, insert_select(copy_def.name()));
    check_copy(
        out,
        Pos::InsertSelectOutput,
        &copy_def.name().to_string(),
        built,
    );
    // The de-duplicated MERGE source ordered by the column: of two source rows with one
    // key, the one with the greatest value is inserted.
    let own: Vec<Value> = values(&ty.ty)
        .into_iter()
        .filter(|(kind, v)| *kind != Kind::WrongType && !matches!(v, Value::Null))
        .map(|(_, v)| v)
        .filter(|v| matches!(by_k!(k, build(Pos::Insert, v, 0)), Some(Ok(_))))
        .collect();
    let (a, b) = (own[0].clone(), own[1].clone());
    let id = 9001;
    let built = by_k!(k, dedup_merge(id, &a, &b));
    // Trino's greatest of `vals` (a window's ORDER BY ranks as `max` does).
    let max_of = |vals: &[Value]| {
        let rows: Vec<String> = vals
            .iter()
            .map(|v| format!("CAST({} AS {})", raw(v), ty.trino))
            .collect();
        trino
            .sql(format!(
                "SELECT max(x) FROM (VALUES {}) AS v(x)",
                rows.join(", ")
            ))
            .map(|q| cell_text(&q.rows[0][0]))
    };
    let want = max_of(&[a.clone(), b.clone()]);
    let v = match built {
        // A refusal: Trino fails to order some values of the column's type (every value
        // of it the corpus has, NULL elements and fields included).
        Err(e) => match max_of(&own) {
            Err(_) => Ok(()),
            Ok(w) => Err(format!(
                "the crate refuses ({}) but Trino orders every value (max {w})",
                e.to_string().lines().next().unwrap_or("")
            )),
        },
        Ok(st) => match trino.sql(st.sql()) {
            Err(e) => Err(format!("the crate builds it but Trino refuses: {e}")),
            Ok(_) => {
                let got = trino.run(format!("SELECT c FROM {table} WHERE id = {id}"));
                let got = got.rows.first().map(|r| cell_text(&r[0]));
                match want {
                    Ok(w) if Some(&w) == got.as_ref() => Ok(()),
                    w => Err(format!("inserted {got:?}, the greatest is {w:?}")),
                }
            }
        },
    };
    let case = Case {
        k,
        pos: Pos::WindowKey,
        kind: Kind::InRange,
        value: a,
        id,
        built: Err(Error::new(ErrorKind::InvalidValue, "")),
    };
    verdict(out, &case, v);
}

fn dedup_merge<const K: usize>(id: i64, a: &Value, b: &Value) -> Result<Statement, Error> {
    let rows = [Rec::<K>(id, a.clone()), Rec::<K>(id, b.clone())];
    Rec::<K>::merge_from(MergeSource::rows(&rows))
        .on_key(id_col::<K>())
        .dedup_source(Col::<Rec<K>, Value>::new("c"))
        .when_not_matched()
        .insert_all()
        .build()
}

fn insert_rows<const K: usize>(cases: &[&Case]) -> Result<Statement, Error> {
    let rows: Vec<Rec<K>> = cases
        .iter()
        .map(|c| Rec::<K>(c.id, c.value.clone()))
        .collect();
    Rec::<K>::insert(&rows).build()
}

fn ctas<const K: usize>(name: &TableName, location: &str) -> Result<Statement, Error> {
    let all = Rec::<K>::select();
    IcebergCtas::new(name.clone(), &all)
        .location(location)
        .build_for(Dialect::Trino)
}

fn insert_select<const K: usize>(into: &TableName) -> Result<Statement, Error> {
    Rec::<K>::insert_from(&TableName::new(
        DB,
        defs()[K]
            .name()
            .to_string()
            .rsplit('.')
            .next()
            .unwrap_or(""),
    ))
    .into_table(into.clone())
    .filter(id_col::<K>().lt(2000))
    .build()
}

#[test]
fn corpus_held_to_trinos_verdicts() {
    let Some(trino) = Trino::get_or_skip("corpus_held_to_trinos_verdicts") else {
        return;
    };
    let t0 = Instant::now();
    trino.ensure_schema(DB);
    trino.ensure_bucket("trino-corpus");
    let tally = Mutex::new(Tally::default());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..6 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if k >= types().len() {
                    break;
                }
                run_table(trino, k, &tally);
            });
        }
    });
    let t = tally.into_inner().unwrap();
    // The real stdout, so that the counts show in `cargo test` output without
    // --nocapture.
    let mut out = std::io::stdout();
    for (tag, list) in [("DISAGREE", &t.disagree), ("KNOWN", &t.known)] {
        for d in list {
            let _ = writeln!(out, "{tag} {d}");
        }
    }
    let _ = writeln!(
        out,
        "trino corpus: {} cases, {} agree, {} disagree ({} known) in {:.1} s",
        t.cases,
        t.agree,
        t.disagree.len() + t.known.len(),
        t.known.len(),
        t0.elapsed().as_secs_f64()
    );
    assert!(
        t.disagree.is_empty(),
        "{} unexplained disagreements (see DISAGREE lines)",
        t.disagree.len()
    );
}
