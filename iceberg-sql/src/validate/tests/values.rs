//! The VALUES recognizer (`validate/values.rs`) against the sqlparser path the tests
//! keep (`oracle::validate_sql`), on generated rows of every literal form and on corrupted text.
//!
//! * generated INSERTs (hostile strings, every type, NULLs, nesting) pass both;
//! * each deliberate corruption (an early-ended string, a stray quote, a comment
//!   marker, a second statement, unbalanced parentheses, a wrong column count, a type
//!   name we never write) is refused by both;
//! * any byte inserted or removed anywhere: whatever the recognizer accepts, the
//!   sqlparser path accepts too.

use chrono::{DateTime, NaiveDate, Utc};
use proptest::prelude::*;

use super::*;
use crate::types::IcebergType as T;
use crate::value::{Decimal, Value};

pub(in crate::validate) fn columns() -> Vec<(&'static str, T)> {
    vec![
        ("s", T::String),
        ("l", T::Long),
        ("i", T::Int),
        ("d", T::Double),
        ("f", T::Float),
        ("b", T::Boolean),
        ("dt", T::Date),
        ("ts", T::Timestamp),
        ("tz", T::TimestampTz),
        ("dec", T::decimal(10, 2)),
        ("bin", T::Binary),
        ("tags", T::list(T::String)),
        ("m", T::map(T::String, T::Int)),
        (
            "st",
            T::structure([
                ("lat", T::Double),
                ("select", T::String),
                ("xs", T::list(T::Long)),
            ]),
        ),
    ]
}

fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-z'\\\\;\"`\\-/*\n\r\t ()\u{2019}\u{0}${},]{0,24}",
        Just("'; DROP TABLE t; --".to_string()),
        Just("a''b\\\\'".to_string()),
    ]
}

fn nullable(v: impl Strategy<Value = Value> + 'static) -> BoxedStrategy<Value> {
    prop_oneof![1 => Just(Value::Null), 4 => v].boxed()
}

pub(in crate::validate) fn value_of(ty: &T) -> BoxedStrategy<Value> {
    match ty {
        T::String => nullable(hostile().prop_map(Value::String)),
        T::Long => nullable(any::<i64>().prop_map(Value::Long)),
        T::Int => nullable(any::<i32>().prop_map(Value::Int)),
        T::Double => nullable(any::<f64>().prop_map(Value::Double)),
        T::Float => nullable(any::<f32>().prop_map(Value::Float)),
        T::Boolean => nullable(any::<bool>().prop_map(Value::Boolean)),
        T::Date => nullable(day().prop_map(Value::Date)),
        T::Timestamp => nullable(micros().prop_map(|us| Value::Timestamp(utc(us).naive_utc()))),
        T::TimestampTz => nullable(micros().prop_map(|us| Value::TimestampTz(utc(us)))),
        T::Decimal { .. } => nullable(
            (-9_999_999_999i64..9_999_999_999)
                .prop_map(|u| Value::Decimal(Decimal::new(i128::from(u), 2))),
        ),
        T::Binary => nullable(proptest::collection::vec(any::<u8>(), 0..6).prop_map(Value::Binary)),
        T::List(e) => nullable(proptest::collection::vec(value_of(e), 0..3).prop_map(Value::List)),
        T::Map(_, v) => {
            let v = value_of(v);
            nullable(
                proptest::collection::btree_map("[a-z']{0,3}", v, 0..3).prop_map(move |m| {
                    Value::Map(m.into_iter().map(|(k, v)| (Value::String(k), v)).collect())
                }),
            )
        }
        T::Struct(fields) => {
            let parts: Vec<_> = fields.iter().map(|f| value_of(&f.ty)).collect();
            nullable(parts.prop_map(Value::Struct))
        }
    }
    .boxed()
}

fn day() -> impl Strategy<Value = NaiveDate> {
    (1i32..3_652_059).prop_map(|n| NaiveDate::from_num_days_from_ce_opt(n).expect("in range"))
}

fn micros() -> impl Strategy<Value = i64> {
    -62_135_596_800_000_000i64..253_402_300_799_999_999
}

fn utc(us: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_micros(us).expect("in range")
}

fn rows() -> impl Strategy<Value = Vec<Vec<Value>>> {
    let row: Vec<_> = columns().iter().map(|(_, t)| value_of(t)).collect();
    proptest::collection::vec(row, 1..5)
}

/// The INSERT text, where its rows start, and where each row starts.
fn render(rows: &[Vec<Value>], dialect: Dialect) -> (String, usize, Vec<usize>) {
    let grammar = dialect.grammar(StatementKind::Insert);
    let cols = columns();
    let mut sql = String::from("INSERT INTO db.t (");
    for (i, (name, _)) in cols.iter().enumerate() {
        if i > 0 {
            sql.push_str(", ");
        }
        grammar.write_ident(&mut sql, name);
    }
    sql.push_str(")\nVALUES\n  ");
    let rows_at = sql.len();
    let mut starts = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if r > 0 {
            sql.push_str(",\n  ");
        }
        starts.push(sql.len());
        sql.push('(');
        for (i, (v, (_, ty))) in row.iter().zip(&cols).enumerate() {
            if i > 0 {
                sql.push_str(", ");
            }
            grammar.write_literal(&mut sql, v, ty).expect("a literal");
        }
        sql.push(')');
    }
    (sql, rows_at, starts)
}

/// The recognizer with the shape read by sqlparser, and by our own parser.
type Recognizer = fn(&str, usize, Dialect) -> Result<()>;
const RECOGNIZERS: [(&str, Recognizer); 2] = [
    (
        "sqlparser's shape",
        crate::validate::values::validate_insert_values_oracle,
    ),
    ("our parser's shape", validate_insert_values),
];

fn sqlparser_path(sql: &str, dialect: Dialect) -> Result<()> {
    crate::validate::oracle::validate_sql(sql, StatementKind::Insert, dialect, 0)
}

/// Deliberate corruptions, each of which no correct INSERT has.
fn corruptions(
    sql: &str,
    rows_at: usize,
    starts: &[usize],
    k: usize,
) -> Vec<(&'static str, String)> {
    let row = starts[k % starts.len()];
    let insert_at = |at: usize, s: &str| format!("{}{s}{}", &sql[..at], &sql[at..]);
    let row_end = |start: usize| {
        starts
            .iter()
            .find(|&&s| s > start)
            .map_or(sql.len(), |&next| next - ",\n  ".len())
    };
    let mut out = vec![
        ("early-ended string", insert_at(row + 1, "'x', '")),
        ("stray quote", insert_at(row + 1, "'")),
        ("stray quote at the end", format!("{sql}'")),
        ("comment marker --", insert_at(row + 1, "-- ")),
        ("comment marker /*", insert_at(row + 1, "/* ")),
        ("second statement", format!("{sql}; DROP TABLE db.t")),
        (
            "second statement after a row",
            insert_at(row_end(row), "); SELECT (1"),
        ),
        ("unbalanced: a missing )", sql[..sql.len() - 1].to_string()),
        ("unbalanced: an extra (", insert_at(row + 1, "(")),
        ("unbalanced: an extra )", insert_at(row_end(row), ")")),
        (
            "wrong column count: one more",
            insert_at(row_end(row) - 1, ", 1"),
        ),
        (
            "wrong column count: in the first row",
            insert_at(row_end(rows_at) - 1, ", 1"),
        ),
        ("empty row", insert_at(row_end(row), ", ()")),
    ];
    for (written, never) in [
        (" AS varchar)", " AS varchr)"),
        (" AS string)", " AS strin)"),
        (" AS bigint)", " AS int64)"),
    ] {
        if let Some(at) = sql[rows_at..].find(written) {
            let at = rows_at + at;
            out.push((
                "a type name we never write",
                format!("{}{never}{}", &sql[..at], &sql[at + written.len()..]),
            ));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_rows_pass_both_and_corruptions_fail_both(rows in rows(), k in 0usize..8) {
        for dialect in [Dialect::Athena, Dialect::Spark] {
            let (sql, rows_at, starts) = render(&rows, dialect);
            for (shape, recognizer) in RECOGNIZERS {
                prop_assert!(recognizer(&sql, rows_at, dialect).is_ok(), "{shape}: {:?}\n{sql}", recognizer(&sql, rows_at, dialect));
            }
            prop_assert!(sqlparser_path(&sql, dialect).is_ok(), "{:?}\n{sql}", sqlparser_path(&sql, dialect));
            for (what, bad) in corruptions(&sql, rows_at, &starts, k) {
                for (shape, recognizer) in RECOGNIZERS {
                    prop_assert!(recognizer(&bad, rows_at, dialect).is_err(), "recognizer ({shape}) accepted {what} ({dialect:?}):\n{bad}");
                }
                prop_assert!(sqlparser_path(&bad, dialect).is_err(), "sqlparser path accepted {what} ({dialect:?}):\n{bad}");
            }
        }
    }

    #[test]
    fn what_the_recognizer_accepts_the_sqlparser_path_accepts(
        rows in rows(),
        at in any::<prop::sample::Index>(),
        edit in prop_oneof![
            Just(None),
            proptest::sample::select(vec!["'", "\\", "-", "--", "/*", ";", "(", ")", ",", " ", "\n", "e", "E", ".", "[", "]", "x", "0", "AS ", "NULL"]).prop_map(Some),
        ],
    ) {
        for dialect in [Dialect::Athena, Dialect::Spark] {
            let (sql, rows_at, _) = render(&rows, dialect);
            let mut p = rows_at + at.index(sql.len() - rows_at);
            while !sql.is_char_boundary(p) {
                p -= 1;
            }
            let bad = match edit {
                Some(s) => format!("{}{s}{}", &sql[..p], &sql[p..]),
                None => {
                    let mut q = p + 1;
                    while q < sql.len() && !sql.is_char_boundary(q) {
                        q += 1;
                    }
                    format!("{}{}", &sql[..p], &sql[q.min(sql.len())..])
                }
            };
            for (shape, recognizer) in RECOGNIZERS {
                if recognizer(&bad, rows_at, dialect).is_ok() {
                    prop_assert!(sqlparser_path(&bad, dialect).is_ok(), "recognizer ({shape}) accepted what sqlparser refuses ({dialect:?}): {:?}\n{bad}", sqlparser_path(&bad, dialect));
                }
            }
        }
    }
}

#[test]
fn refusals_point_at_the_row() {
    for (shape, recognizer) in RECOGNIZERS {
        let sql = "INSERT INTO db.t (a, b)\nVALUES\n  ('x', 1),\n  ('y' 2)";
        let e = recognizer(sql, sql.find("('x'").unwrap(), Dialect::Athena).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Syntax, "{shape}");
        assert!(e.to_string().contains("(line 4, column 7)"), "{shape}: {e}");
        let sql = "INSERT INTO db.t (a)\nVALUES\n  (1),\n  (1, 2)";
        let e = recognizer(sql, sql.find("(1)").unwrap(), Dialect::Athena).unwrap_err();
        assert!(
            e.message().contains("another number of values"),
            "{shape}: {e}"
        );
    }
}

/// What the shape is checked for, before the first row: each corruption of the target
/// or the column list is refused with either parser's shape, as by the sqlparser path.
#[test]
fn a_corrupted_shape_is_refused_with_either_parser() {
    let row = "('x', 1)";
    let cases = [
        (Dialect::Athena, "INSERT INTO db.t (a) VALUES "),
        (Dialect::Athena, "INSERT INTO db.t (a, b, c) VALUES "),
        (Dialect::Athena, "INSERT INTO db.`t` (a, b) VALUES "),
        (Dialect::Athena, "INSERT INTO db.t (a, select) VALUES "),
        (Dialect::Athena, "INSERT INTO db.t (a, \"\") VALUES "),
        (Dialect::Athena, "INSERT INTO db.t (t.a, b) VALUES "),
        (Dialect::Athena, "INSERT OVERWRITE db.t (a, b) VALUES "),
        (Dialect::Athena, "INSERT INTO db.t (a, b) /* c */ VALUES "),
        (Dialect::Athena, "UPDATE db.t SET a = 1 WHERE b IN "),
        (Dialect::Spark, "INSERT INTO db.\"t\" (a, b) VALUES "),
        (Dialect::Spark, "INSERT INTO TABLE db.t (a, b) VALUES "),
        (Dialect::Spark, "INSERT INTO db.t (a, b) -- c\nVALUES "),
    ];
    for (dialect, head) in cases {
        let sql = format!("{head}{row}");
        assert!(sqlparser_path(&sql, dialect).is_err(), "{dialect:?}: {sql}");
        for (shape, recognizer) in RECOGNIZERS {
            assert!(
                recognizer(&sql, head.len(), dialect).is_err(),
                "{shape} accepted ({dialect:?}): {sql}"
            );
        }
    }
    // A backticked name in Trino's grammar is read by both parsers and refused after the
    // parse by both shapes, with one message (our parser's through `check::validate`).
    // (Spark's grammar has no `"…"` name: our parser refuses it while parsing.)
    {
        let (dialect, head) = (Dialect::Athena, "INSERT INTO db.`t` (a, b) VALUES ");
        let sql = format!("{head}{row}");
        let theirs =
            crate::validate::values::validate_insert_values_oracle(&sql, head.len(), dialect)
                .map_err(|e| e.to_string());
        let ours = validate_insert_values(&sql, head.len(), dialect).map_err(|e| e.to_string());
        assert!(theirs.is_err(), "{sql}");
        assert_eq!(ours, theirs, "{sql}");
    }
    // And the same with the names written right, which all accept.
    for (dialect, head) in [
        (
            Dialect::Athena,
            "INSERT INTO db.\"t\" (a, \"select\") VALUES ",
        ),
        (Dialect::Spark, "INSERT INTO db.`t` (a, `select`) VALUES "),
    ] {
        let sql = format!("{head}{row}");
        sqlparser_path(&sql, dialect).unwrap_or_else(|e| panic!("{e}"));
        for (shape, recognizer) in RECOGNIZERS {
            recognizer(&sql, head.len(), dialect).unwrap_or_else(|e| panic!("{shape}: {e}"));
        }
    }
}

#[test]
fn deeply_nested_rows_after_the_first_are_an_error_not_a_crash() {
    // Only the first row goes through sqlparser (and its recursion limit); the
    // recognizer reads the others and stops at the same depth.
    let head = "INSERT INTO db.t (a) VALUES ";
    for (dialect, first, open, close) in [
        (Dialect::Athena, "(ARRAY[1])", "ARRAY[", "]"),
        (Dialect::Spark, "(array(1))", "array(", ")"),
    ] {
        let deep = format!("({}1{})", open.repeat(30_000), close.repeat(30_000));
        let sql = format!("{head}{first}, {deep}");
        assert!(sql.len() <= crate::statement::MAX_QUERY_BYTES);
        for (shape, recognizer) in RECOGNIZERS {
            super::on_2_mib_thread(|| {
                let e = recognizer(&sql, head.len(), dialect).unwrap_err();
                assert_eq!(e.kind(), ErrorKind::Syntax, "{shape}: {e}");
                assert!(e.message().contains("nested less deeply"), "{shape}: {e}");
            });
            // 100 levels pass.
            let fine = format!("({}1{})", open.repeat(100), close.repeat(100));
            recognizer(&format!("{head}{first}, {fine}"), head.len(), dialect)
                .unwrap_or_else(|e| panic!("{shape}: {e}"));
        }
    }
}
