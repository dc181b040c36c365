//! End-to-end on Spark: the operators and orders the crate writes give Athena's
//! (Trino's) results, with NULLs, negative numbers, zero divisors and halves.
//!
//! Athena's semantics, each checked against an oracle written here from Trino's
//! documentation and source:
//!
//! * `ORDER BY x ASC` sorts NULLs last ("The default null ordering is NULLS LAST,
//!   regardless of the ordering direction": <https://trino.io/docs/current/sql/select.html#order-by-clause>);
//! * `/` of integers is an integer truncated toward zero (`-7 / 2` = `-3`), `%` has the
//!   sign of the dividend (`IntegerOperators`/`BigintOperators` in trinodb/trino: Java's
//!   `/` and `%`), and a zero divisor fails the statement ("Division by zero");
//! * a decimal quotient has scale `max(s1, s2)`, rounded half up (`DecimalOperators`);
//! * `CAST(x AS bigint)` of a double or decimal rounds half away from zero
//!   (`DoubleOperators.castToLong`: `DoubleMath.roundToLong(value, HALF_UP)`);
//! * `date_trunc` of a date is a date;
//! * doubles compare as IEEE does: any comparison with NaN is false, `<>` true
//!   (`DoubleType` in trinodb/trino: `EQUAL` is Java's `==`, `LESS_THAN` `<`), which is
//!   Rust's `f64` comparison.
//!
//! Each check compares the rows (or values) Spark returns for the crate's Spark text with
//! the oracle's, over every row of the table.

use chrono::{Datelike, NaiveDate, NaiveDateTime};
use iceberg_sql::expr::TimeUnit;
use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;
use iceberg_sql::Decimal;
use iceberg_sql_tests::engine::Engine;

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "parity",
    name = "nums",
    location = "s3://parity-bucket/iceberg/nums/"
)]
pub struct Num {
    pub id: i64,
    pub a: Option<i64>,
    pub b: Option<i64>,
    pub x: Option<i32>,
    #[iceberg(type = "decimal(10, 2)")]
    pub price: Option<Decimal>,
    pub ratio: Option<f64>,
    pub day: Option<NaiveDate>,
    pub den: Option<f64>,
    pub share: Option<f32>,
    pub at: Option<NaiveDateTime>,
}

const SPARK: Dialect = Dialect::Spark;

/// Dividends and divisors with both signs, one, NULL; no zero divisor (see
/// [`a_zero_divisor_fails_the_statement_as_on_athena`]).
const A: &[Option<i64>] = &[
    Some(-7),
    Some(7),
    Some(-1),
    Some(0),
    Some(9),
    Some(-9),
    Some(i64::MAX),
    None,
];
const B: &[Option<i64>] = &[Some(2), Some(-2), Some(3), Some(-3), Some(1), None];
/// Cents: halves of a cent after division by 3 round away from zero.
const CENTS: &[Option<i64>] = &[
    Some(1000),
    Some(-1000),
    Some(5),
    Some(-5),
    Some(200),
    Some(-200),
    Some(1),
    Some(2),
    Some(-2),
    Some(250),
    Some(-250),
    None,
];
const RATIOS: &[Option<f64>] = &[
    Some(2.5),
    Some(-2.5),
    Some(1.49),
    Some(-1.5),
    Some(0.5),
    Some(-0.5),
    Some(3.0),
    Some(0.499_999_999_999_999_94),
    None,
];

/// Double divisors: both zeros, NaN, NULL and an ordinary one.
const DENS: &[Option<f64>] = &[
    Some(0.0),
    Some(-0.0),
    Some(f64::NAN),
    Some(2.0),
    None,
    Some(-4.0),
];

fn rows() -> Vec<Num> {
    let mut rows = Vec::new();
    for (i, (a, b)) in A
        .iter()
        .flat_map(|a| B.iter().map(move |b| (*a, *b)))
        .enumerate()
    {
        let cents = CENTS[i % CENTS.len()];
        let day = (i % 5 != 4).then(|| {
            NaiveDate::from_ymd_opt(2024, 1 + (i % 12) as u32, 1 + (i % 28) as u32).unwrap()
        });
        rows.push(Num {
            id: i as i64,
            a,
            b,
            x: a.map(|v| (v % 1000) as i32),
            price: cents.map(|c| Decimal::new(c.into(), 2)),
            ratio: RATIOS[i % RATIOS.len()],
            day,
            den: DENS[i % DENS.len()],
            share: RATIOS[(i + 3) % RATIOS.len()].map(|v| v as f32),
            at: day.map(|d| {
                d.and_hms_micro_opt(
                    (i % 24) as u32,
                    (i % 60) as u32,
                    7,
                    (i as u32 * 37_013) % 1_000_000,
                )
                .unwrap()
            }),
        });
    }
    rows
}

/// Athena's integer `/`: truncated toward zero (Rust's `/` on integers).
fn trino_div(a: i64, b: i64) -> i64 {
    a / b
}

/// Athena's decimal `/` of a `decimal(10,2)` by an integer `d` (`decimal(1,0)`): scale 2,
/// rounded half away from zero, on the unscaled cents.
fn trino_div_cents(cents: i64, d: i64) -> i64 {
    let q = cents / d;
    let r = cents % d;
    if 2 * r.abs() >= d.abs() {
        q + (cents.signum() * d.signum())
    } else {
        q
    }
}

/// A decimal of scale 2 as the engine prints it.
fn cents_text(c: i64) -> String {
    let sign = if c < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
}

fn ids(engine: &Engine, q: iceberg_sql::query::Select<Num>) -> Vec<i64> {
    let q = q.build_for(SPARK).unwrap();
    engine
        .run(&q)
        .column("id")
        .into_iter()
        .map(|c| c.expect("id").parse().expect("a number"))
        .collect()
}

/// `id → value` of one projected expression, in id order.
fn values(
    engine: &Engine,
    q: iceberg_sql::query::Select<Num>,
) -> (String, Vec<(i64, Option<String>)>) {
    let q = q.order_by(Num::ID, Order::Asc).build_for(SPARK).unwrap();
    let r = engine.run(&q);
    let ty = r.types[1].clone();
    let out = r
        .rows
        .iter()
        .map(|row| (row[0].as_deref().unwrap().parse().unwrap(), row[1].clone()))
        .collect();
    (ty, out)
}

fn setup(engine: &Engine) -> Vec<Num> {
    engine.run("CREATE NAMESPACE IF NOT EXISTS parity");
    engine.run("DROP TABLE IF EXISTS parity.nums");
    engine.run(Num::table_def().create_table().build_for(SPARK).unwrap());
    let rows = rows();
    for batch in Num::insert(&rows).batches_for(SPARK).unwrap() {
        engine.run(batch);
    }
    rows
}

#[test]
fn the_oracles_are_athenas() {
    assert_eq!(trino_div(-7, 2), -3);
    assert_eq!(trino_div(7, -2), -3);
    assert_eq!(-7 % 2, -1);
    assert_eq!(trino_div_cents(1000, 3), 333);
    assert_eq!(trino_div_cents(5, 3), 2); // 0.05 / 3 = 0.0166… → 0.02
    assert_eq!(trino_div_cents(-250, 3), -83);
    assert_eq!(trino_div_cents(1, 2), 1); // half a cent rounds away from zero
    assert_eq!(trino_div_cents(-1, 2), -1);
    assert_eq!(cents_text(-5), "-0.05");
    assert_eq!((2.5_f64).round(), 3.0);
    assert_eq!((-2.5_f64).round(), -3.0);
    assert_eq!((0.499_999_999_999_999_94_f64).round(), 0.0);
}

#[test]
fn semantics_are_athenas_on_spark() {
    let Some(engine) = Engine::get_or_skip("semantics_are_athenas_on_spark") else {
        return;
    };
    // The test engine runs in ANSI mode; Spark's default (and Glue's and EMR's) is
    // without it, where a zero divisor is NULL and CASTs do not fail: the same text
    // must give Athena's results in both.
    for ansi in [false, true] {
        engine.run(format!("SET spark.sql.ansi.enabled={ansi}"));
        let rows = setup(engine);
        null_order(engine, &rows);
        integer_division(engine, &rows);
        decimal_division(engine, &rows);
        casts_round(engine, &rows);
        date_trunc_of_dates(engine, &rows);
        float_division(engine, &rows);
        nan_comparisons(engine, &rows);
        timestamps(engine, &rows);
        aggregates(engine, &rows);
        a_zero_divisor_fails_the_statement_as_on_athena(engine, &rows, ansi);
        updates_write_athenas_values(engine, &rows);
    }
}

/// Filters on doubles holding NaN, ±0.0 and NULL select the rows IEEE comparisons (Rust's
/// `f64` operators, Athena's) select, under SQL's NULL logic: a NULL operand never
/// selects a row, negated or not.
// The oracles are IEEE comparisons written out: `d == d` and `!(d < r)` are the point.
#[allow(clippy::eq_op, clippy::neg_cmp_op_on_partial_ord)]
fn nan_comparisons(engine: &Engine, rows: &[Num]) {
    type Oracle = fn(f64, f64) -> bool;
    assert!(rows.iter().any(|r| r.den.is_some_and(f64::is_nan)));
    // (name, filter, oracle over (den, ratio) when both are non-NULL).
    let cases: Vec<(&str, Cond<Num>, Oracle)> = vec![
        ("den > 1", Num::DEN.gt(1.0), |d, _| d > 1.0),
        ("den = den", Num::DEN.eq(Num::DEN), |d, _| d == d),
        ("den <> den", Num::DEN.ne(Num::DEN), |d, _| d != d),
        ("den <= ratio", Num::DEN.le(Num::RATIO), |d, r| d <= r),
        (
            "NOT (den < ratio)",
            Num::DEN.lt(Num::RATIO).not(),
            |d, r| !(d < r),
        ),
        ("NOT (den = den)", Num::DEN.eq(Num::DEN).not(), |d, _| {
            !(d == d)
        }),
        (
            "den BETWEEN -5 AND 5",
            Num::DEN.between(-5.0, 5.0),
            |d, _| (-5.0..=5.0).contains(&d),
        ),
        (
            "den NOT BETWEEN -1 AND 1",
            Num::DEN.not_between(-1.0, 1.0),
            |d, _| !(-1.0..=1.0).contains(&d),
        ),
        (
            "den BETWEEN ratio AND 5",
            Num::DEN.between(Num::RATIO, 5.0),
            |d, r| r <= d && d <= 5.0,
        ),
        ("den IN (2, 3)", Num::DEN.is_in([2.0, 3.0]), |d, _| {
            d == 2.0 || d == 3.0
        }),
        ("den NOT IN (2, 3)", Num::DEN.not_in([2.0, 3.0]), |d, _| {
            d != 2.0 && d != 3.0
        }),
        // Trino's is_nan(NULL) is NULL (Spark's isnan(NULL) is false): negated, a NULL
        // `den` still selects no row.
        ("is_nan(den)", Num::DEN.is_nan(), |d, _| d.is_nan()),
        ("NOT is_nan(den)", Num::DEN.is_nan().not(), |d, _| {
            !d.is_nan()
        }),
    ];
    // A NaN literal compares unequal to every value, itself included: such a filter is
    // refused (IN lists too), so it never reaches an engine.
    for refused in [
        Num::DEN.eq(f64::NAN),
        Num::DEN.is_in([2.0, f64::NAN]),
        Num::DEN.not_in([2.0, f64::NAN]),
    ] {
        let err = Num::select()
            .column(Num::ID)
            .filter(refused)
            .build_for(SPARK)
            .expect_err("a comparison with a NaN literal is refused");
        assert!(err.to_string().contains("NaN"), "{err}");
    }
    for (name, filter, oracle) in cases {
        // Operands a case does not read may be NULL: give the oracle a number for them.
        let reads_ratio = name.contains("ratio");
        let want: Vec<i64> = rows
            .iter()
            .filter(|r| match (r.den, r.ratio) {
                (Some(d), Some(q)) => oracle(d, q),
                (Some(d), None) if !reads_ratio => oracle(d, 0.0),
                _ => false,
            })
            .map(|r| r.id)
            .collect();
        let got = ids(
            engine,
            Num::select()
                .column(Num::ID)
                .filter(filter)
                .order_by(Num::ID, Order::Asc),
        );
        assert_eq!(got, want, "{name}");
    }
}

/// ORDER BY with NULLs, in every order, with a LIMIT that cuts inside the NULLs' side.
fn null_order(engine: &Engine, rows: &[Num]) {
    // Spark's own default puts NULLs first: the comparison below is not vacuous.
    let own = engine.run("SELECT id FROM parity.nums ORDER BY a ASC, id ASC LIMIT 1");
    let first = own.column("id")[0].unwrap().parse::<i64>().unwrap();
    assert_eq!(rows[first as usize].a, None, "Spark's ASC puts NULLs first");

    for order in [
        Order::Asc,
        Order::Desc,
        Order::AscNullsFirst,
        Order::DescNullsFirst,
    ] {
        let mut want: Vec<&Num> = rows.iter().collect();
        want.sort_by(|l, r| {
            let nulls_first = matches!(order, Order::AscNullsFirst | Order::DescNullsFirst);
            let desc = matches!(order, Order::Desc | Order::DescNullsFirst);
            let by_value = match (l.a, r.a) {
                (None, None) => std::cmp::Ordering::Equal,
                (None, Some(_)) if nulls_first => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (Some(_), None) if nulls_first => std::cmp::Ordering::Greater,
                (Some(_), None) => std::cmp::Ordering::Less,
                (Some(x), Some(y)) if desc => y.cmp(&x),
                (Some(x), Some(y)) => x.cmp(&y),
            };
            by_value.then(l.id.cmp(&r.id))
        });
        let want: Vec<i64> = want.iter().take(10).map(|r| r.id).collect();
        let got = ids(
            engine,
            Num::select()
                .column(Num::ID)
                .order_by(Num::A, order)
                .order_by(Num::ID, Order::Asc)
                .limit(10),
        );
        assert_eq!(got, want, "{order:?}");
    }
}

fn integer_division(engine: &Engine, rows: &[Num]) {
    // Filters: which rows `a / b = q` and `a % b = m` select.
    for q in -5..=5_i64 {
        let want: Vec<i64> = rows
            .iter()
            .filter(|r| matches!((r.a, r.b), (Some(a), Some(b)) if trino_div(a, b) == q))
            .map(|r| r.id)
            .collect();
        let got = ids(
            engine,
            Num::select()
                .column(Num::ID)
                .filter((Num::A / Num::B).eq(q))
                .order_by(Num::ID, Order::Asc),
        );
        assert_eq!(got, want, "a / b = {q}");
    }
    assert!(!ids(
        engine,
        Num::select()
            .column(Num::ID)
            .filter((Num::A / Num::B).eq(-3_i64))
    )
    .is_empty());
    for m in -2..=2_i64 {
        let want: Vec<i64> = rows
            .iter()
            .filter(|r| matches!((r.a, r.b), (Some(a), Some(b)) if a % b == m))
            .map(|r| r.id)
            .collect();
        let got = ids(
            engine,
            Num::select()
                .column(Num::ID)
                .filter((Num::A % Num::B).eq(m))
                .order_by(Num::ID, Order::Asc),
        );
        assert_eq!(got, want, "a % b = {m}");
    }
    // Values and types: bigint / bigint is a bigint, int / int an int.
    let (ty, got) = values(
        engine,
        Num::select().column(Num::ID).expr_as(Num::A / Num::B, "q"),
    );
    assert_eq!(ty, "bigint");
    let want: Vec<(i64, Option<String>)> = rows
        .iter()
        .map(|r| (r.id, r.a.zip(r.b).map(|(a, b)| trino_div(a, b).to_string())))
        .collect();
    assert_eq!(got, want);
    let (ty, got) = values(
        engine,
        Num::select().column(Num::ID).expr_as(Num::X / -2, "q"),
    );
    assert_eq!(ty, "int");
    let want: Vec<(i64, Option<String>)> = rows
        .iter()
        .map(|r| (r.id, r.x.map(|x| (x / -2).to_string())))
        .collect();
    assert_eq!(got, want);
}

fn decimal_division(engine: &Engine, rows: &[Num]) {
    let three = Decimal::parse("3").unwrap();
    let two = Decimal::parse("2").unwrap();
    for (d, by) in [(3, three), (2, two)] {
        let (ty, got) = values(
            engine,
            Num::select().column(Num::ID).expr_as(Num::PRICE / by, "q"),
        );
        assert_eq!(ty, "decimal(10,2)", "price / {d}");
        let want: Vec<(i64, Option<String>)> = rows
            .iter()
            .map(|r| {
                let cents = r.price.map(|p| i64::try_from(p.unscaled()).unwrap());
                (r.id, cents.map(|c| cents_text(trino_div_cents(c, d))))
            })
            .collect();
        assert_eq!(got, want, "price / {d}");
    }
    // A filter on the quotient selects the rows Athena's quotient selects.
    let target = Decimal::parse("3.33").unwrap();
    let want: Vec<i64> = rows
        .iter()
        .filter(|r| {
            r.price
                .is_some_and(|p| trino_div_cents(i64::try_from(p.unscaled()).unwrap(), 3) == 333)
        })
        .map(|r| r.id)
        .collect();
    assert!(!want.is_empty());
    let got = ids(
        engine,
        Num::select()
            .column(Num::ID)
            .filter((Num::PRICE / three).eq(target))
            .order_by(Num::ID, Order::Asc),
    );
    assert_eq!(got, want);
}

fn casts_round(engine: &Engine, rows: &[Num]) {
    let (_, got) = values(
        engine,
        Num::select()
            .column(Num::ID)
            .expr_as(Num::RATIO.cast::<i64>(), "n"),
    );
    let want: Vec<(i64, Option<String>)> = rows
        .iter()
        .map(|r| (r.id, r.ratio.map(|v| (v.round() as i64).to_string())))
        .collect();
    assert_eq!(got, want, "CAST(ratio AS bigint)");
    let (ty, got) = values(
        engine,
        Num::select()
            .column(Num::ID)
            .expr_as(Num::PRICE.cast::<i32>(), "n"),
    );
    assert_eq!(ty, "int");
    let want: Vec<(i64, Option<String>)> = rows
        .iter()
        .map(|r| {
            let cents = r.price.map(|p| i64::try_from(p.unscaled()).unwrap());
            (r.id, cents.map(|c| trino_div_cents(c, 100).to_string()))
        })
        .collect();
    assert_eq!(got, want, "CAST(price AS integer)");
    // And as a filter: the rows whose rounded ratio is 3 (2.5 and 3.0), or -3 (-2.5).
    for k in [3_i64, -3, 0, -2, 2] {
        let want: Vec<i64> = rows
            .iter()
            .filter(|r| r.ratio.is_some_and(|v| v.round() as i64 == k))
            .map(|r| r.id)
            .collect();
        let got = ids(
            engine,
            Num::select()
                .column(Num::ID)
                .filter(Num::RATIO.cast::<i64>().eq(k))
                .order_by(Num::ID, Order::Asc),
        );
        assert_eq!(got, want, "CAST(ratio AS bigint) = {k}");
    }
}

fn date_trunc_of_dates(engine: &Engine, rows: &[Num]) {
    let (ty, got) = values(
        engine,
        Num::select()
            .column(Num::ID)
            .expr_as(Num::DAY.date_trunc(TimeUnit::Month), "m"),
    );
    assert_eq!(ty, "date");
    let want: Vec<(i64, Option<String>)> = rows
        .iter()
        .map(|r| (r.id, r.day.map(|d| d.with_day(1).unwrap().to_string())))
        .collect();
    assert_eq!(got, want);
}

/// Athena fails a statement whose integer or decimal divisor is zero on a row it
/// evaluates; Spark (without ANSI mode) would write NULL. The statement fails, and the
/// table keeps every row as it was.
fn a_zero_divisor_fails_the_statement_as_on_athena(engine: &Engine, rows: &[Num], ansi: bool) {
    let before = engine.run("SELECT * FROM parity.nums ORDER BY id");
    // Without ANSI mode Spark's own `div`, `/` and `%` give NULL: why the Spark text is
    // guarded.
    if !ansi {
        let own = engine.run("SELECT 7 div 0 AS q, 7 % 0 AS r, 7.00 / 0 AS s");
        assert_eq!(own.rows, vec![vec![None, None, None]]);
    }

    let id = rows
        .iter()
        .find(|r| r.a == Some(7) && r.b == Some(2))
        .unwrap()
        .id;
    let zero = Decimal::parse("0").unwrap();
    let failing = [
        Num::update()
            .set(Num::A, Num::A / (Num::B - Num::B.coalesce(0_i64)))
            .filter(Num::ID.eq(id))
            .build_for(SPARK)
            .unwrap(),
        Num::update()
            .set(Num::A, Num::A % (Num::B - Num::B.coalesce(0_i64)))
            .filter(Num::ID.eq(id))
            .build_for(SPARK)
            .unwrap(),
        Num::update()
            .set(Num::PRICE, Num::PRICE / zero)
            .filter(Num::ID.eq(id))
            .build_for(SPARK)
            .unwrap(),
        Num::select()
            .column(Num::ID)
            .filter((Num::A / (Num::B - 2_i64)).eq(1_i64))
            .build_for(SPARK)
            .unwrap(),
    ];
    for s in &failing {
        let e = engine.expect_err(s);
        assert!(e.message().contains("Division by zero"), "{}: {e}", s.sql());
    }
    // A NULL divisor is NULL, as on Athena (no failure).
    let nulls = ids(
        engine,
        Num::select()
            .column(Num::ID)
            .filter((Num::A / (Num::B - Num::B.coalesce(0_i64))).is_null())
            .filter(Num::B.is_null()),
    );
    assert_eq!(nulls.len(), rows.iter().filter(|r| r.b.is_none()).count());
    assert_eq!(engine.run("SELECT * FROM parity.nums ORDER BY id"), before);
}

/// An UPDATE writes the quotients Athena writes.
fn updates_write_athenas_values(engine: &Engine, rows: &[Num]) {
    let update = Num::update()
        .set(Num::A, Num::A / Num::B)
        .set(Num::X, Num::X / 2)
        .set(Num::PRICE, Num::PRICE / Decimal::parse("3").unwrap())
        .filter(Num::B.is_not_null())
        .build_for(SPARK)
        .unwrap();
    engine.run(&update);
    let got = engine.run("SELECT id, a, x, price FROM parity.nums ORDER BY id");
    for (row, r) in got.rows.iter().zip(rows) {
        let (a, x, price) = if r.b.is_some() {
            (
                r.a.zip(r.b).map(|(a, b)| trino_div(a, b)),
                r.x.map(|x| x / 2),
                r.price
                    .map(|p| trino_div_cents(i64::try_from(p.unscaled()).unwrap(), 3)),
            )
        } else {
            (
                r.a,
                r.x,
                r.price.map(|p| i64::try_from(p.unscaled()).unwrap()),
            )
        };
        assert_eq!(row[0].as_deref(), Some(r.id.to_string().as_str()));
        assert_eq!(row[1], a.map(|v| v.to_string()), "a of row {}", r.id);
        assert_eq!(row[2], x.map(|v| v.to_string()), "x of row {}", r.id);
        assert_eq!(row[3], price.map(cents_text), "price of row {}", r.id);
    }
}

/// A double as the engine prints it (Python's repr, or `NaN`, `Infinity`, `-Infinity`).
fn double(text: &str) -> f64 {
    match text {
        "NaN" => f64::NAN,
        "Infinity" => f64::INFINITY,
        "-Infinity" => f64::NEG_INFINITY,
        t => t.parse().expect("a double"),
    }
}

/// The same double: equal bits, or both NaN.
fn same(l: Option<f64>, r: Option<f64>) -> bool {
    match (l, r) {
        (Some(l), Some(r)) => (l.is_nan() && r.is_nan()) || l.to_bits() == r.to_bits(),
        (None, None) => true,
        _ => false,
    }
}

/// Doubles divide by zero as IEEE says (Trino's `/` and `%` of doubles are Java's):
/// `±Infinity` by the zero's sign, `NaN` for `0 / 0` and `x % 0`; reals divide as reals.
fn float_division(engine: &Engine, rows: &[Num]) {
    for (what, q, oracle) in [
        (
            "ratio / den",
            Num::RATIO / Num::DEN,
            (|a: f64, b: f64| a / b) as fn(f64, f64) -> f64,
        ),
        ("ratio % den", Num::RATIO % Num::DEN, |a: f64, b: f64| a % b),
    ] {
        let (ty, got) = values(engine, Num::select().column(Num::ID).expr_as(q, "q"));
        assert_eq!(ty, "double", "{what}");
        for ((id, cell), r) in got.iter().zip(rows) {
            assert_eq!(*id, r.id);
            let want = r.ratio.zip(r.den).map(|(a, b)| oracle(a, b));
            assert!(
                same(cell.as_deref().map(double), want),
                "{what} of row {id}: {cell:?}, Athena's {want:?}"
            );
        }
    }
    // Not vacuous: both infinities and NaN come out.
    let (_, got) = values(
        engine,
        Num::select()
            .column(Num::ID)
            .expr_as(Num::RATIO / Num::DEN, "q"),
    );
    for special in ["Infinity", "-Infinity", "NaN"] {
        assert!(
            got.iter().any(|(_, c)| c.as_deref() == Some(special)),
            "{special}"
        );
    }

    let (ty, got) = values(
        engine,
        Num::select()
            .column(Num::ID)
            .expr_as(Num::SHARE / 3.0_f32, "q"),
    );
    assert_eq!(ty, "float");
    for ((id, cell), r) in got.iter().zip(rows) {
        let want = r.share.map(|s| f64::from(s / 3.0_f32));
        assert!(
            same(cell.as_deref().map(double), want),
            "share / 3 of row {id}: {cell:?}, Athena's {want:?}"
        );
    }
}

/// `date_trunc` of a timestamp is a timestamp (without time zone), and its text has six
/// fractional digits.
fn timestamps(engine: &Engine, rows: &[Num]) {
    let (ty, got) = values(
        engine,
        Num::select()
            .column(Num::ID)
            .expr_as(Num::AT.date_trunc(TimeUnit::Day), "d"),
    );
    assert_eq!(ty, "timestamp_ntz");
    let want: Vec<(i64, Option<String>)> = rows
        .iter()
        .map(|r| {
            (
                r.id,
                r.at.map(|t| {
                    t.date()
                        .and_hms_opt(0, 0, 0)
                        .unwrap()
                        .format("%Y-%m-%dT%H:%M:%S")
                        .to_string()
                }),
            )
        })
        .collect();
    assert_eq!(got, want);
    let (_, got) = values(
        engine,
        Num::select()
            .column(Num::ID)
            .expr_as(Num::AT.cast::<String>(), "t"),
    );
    let want: Vec<(i64, Option<String>)> = rows
        .iter()
        .map(|r| {
            (
                r.id,
                r.at.map(|t| t.format("%Y-%m-%d %H:%M:%S%.6f").to_string()),
            )
        })
        .collect();
    assert_eq!(got, want);
}

/// `avg` of a `decimal(10,2)` is a `decimal(10,2)` rounded half up; of a real, a real.
fn aggregates(engine: &Engine, rows: &[Num]) {
    let q = Num::select()
        .expr_as(Num::PRICE.avg(), "p")
        .expr_as(Num::SHARE.avg(), "a")
        .build_for(SPARK)
        .unwrap();
    let r = engine.run(&q);
    assert_eq!(r.types, vec!["decimal(10,2)", "float"]);
    let cents: Vec<i64> = rows
        .iter()
        .filter_map(|r| r.price.map(|p| i64::try_from(p.unscaled()).unwrap()))
        .collect();
    let avg = trino_div_cents(cents.iter().sum(), cents.len() as i64);
    assert_eq!(r.rows[0][0].as_deref(), Some(cents_text(avg).as_str()));
}
