//! A builder call means Athena's (Trino's) result on every target: the exact text each
//! target gets where an engine's own reading of the plain form would differ.
//!
//! The rows each form selects on the real Spark engine are checked by
//! `tests/tests/e2e_semantic_parity.rs`; here, the text, and (for the Trino-grammar
//! targets) that Trino's own parser reads it.

mod trino_grammar;

use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;

#[derive(IcebergTable, Debug, Clone)]
#[iceberg(
    database = "parity",
    name = "nums",
    location = "s3://parity-bucket/iceberg/nums/"
)]
pub struct Num {
    pub id: i64,
    pub score: Option<i64>,
    pub small: Option<i32>,
    #[iceberg(type = "decimal(10, 2)")]
    pub price: Option<iceberg_sql::Decimal>,
    pub ratio: Option<f64>,
    pub day: Option<chrono::NaiveDate>,
    pub share: Option<f32>,
    pub at: Option<chrono::NaiveDateTime>,
}

const TARGETS: [Dialect; 3] = [Dialect::Athena, Dialect::Trino, Dialect::Spark];

/// `(target, text)` of one statement for every target.
type Texts = Vec<(Dialect, String)>;

/// `(target, text)` of `build(target)` for every target.
fn texts(build: impl Fn(Dialect) -> iceberg_sql::Result<Statement>) -> Vec<(Dialect, String)> {
    TARGETS
        .iter()
        .map(|&d| (d, build(d).expect("builds").sql().to_string()))
        .collect()
}

/// Each text Athena and Trino get parses in Trino's grammar.
fn trino_parses(statements: &[(Dialect, String)]) {
    let Some(python) = trino_grammar::python() else {
        return;
    };
    let trino: Vec<&str> = statements
        .iter()
        .filter(|(d, _)| *d != Dialect::Spark)
        .map(|(_, s)| s.as_str())
        .collect();
    assert!(!trino.is_empty());
    trino_grammar::assert_grammar_parses(&python, &trino);
}

/// Athena sorts NULLs last in both directions; Spark first when ascending. Spark gets
/// the NULL order written where its default differs; an explicit `NULLS FIRST` is
/// written for every target.
#[test]
fn null_order_is_athenas_on_every_target() {
    let top = |o: Order| {
        move |d| {
            Num::select()
                .column(Num::ID)
                .order_by(Num::SCORE, o)
                .limit(3)
                .build_for(d)
        }
    };
    let mut all = Vec::new();
    for (order, athena, spark) in [
        (Order::Asc, "ASC", "ASC NULLS LAST"),
        (Order::Desc, "DESC", "DESC"),
        (Order::AscNullsFirst, "ASC NULLS FIRST", "ASC"),
        (
            Order::DescNullsFirst,
            "DESC NULLS FIRST",
            "DESC NULLS FIRST",
        ),
    ] {
        let got = texts(top(order));
        let want = |dir: &str| format!("SELECT id FROM parity.nums ORDER BY score {dir} LIMIT 3");
        assert_eq!(
            got,
            vec![
                (Dialect::Athena, want(athena)),
                (Dialect::Trino, want(athena)),
                (Dialect::Spark, want(spark)),
            ],
            "{order:?}"
        );
        all.extend(got);
    }
    trino_parses(&all);
}

/// The text of `filter` on `Num` for every target (`SELECT id … WHERE filter`).
fn filters(filter: impl Fn() -> Cond<Num>) -> Vec<(Dialect, String)> {
    texts(|d| Num::select().column(Num::ID).filter(filter()).build_for(d))
}

fn where_(cond: &str) -> String {
    format!("SELECT id FROM parity.nums WHERE {cond}")
}

/// Integer `/` truncates toward zero on Athena (`bigint` / `bigint` is `bigint`,
/// `integer` / `integer` is `integer`); Spark's `/` is a double division, its `div`
/// Athena's. A divisor that may be zero fails the statement on Spark as on Athena.
#[test]
fn integer_division_is_athenas_on_every_target() {
    let guard =
        |d: &str| format!("CASE WHEN {d} = 0 THEN raise_error('Division by zero') ELSE {d} END");
    let cases: Vec<(Texts, String, String)> = vec![
        (
            filters(|| (Num::SCORE / 2_i64).eq(3_i64)),
            "score / 2 = 3".into(),
            "div(score, 2) = 3".into(),
        ),
        (
            filters(|| (Num::SMALL / 2).eq(-3)),
            "small / 2 = -3".into(),
            "CAST(div(small, 2) AS int) = -3".into(),
        ),
        (
            filters(|| (Num::SCORE / Num::ID).gt(0_i64)),
            "score / id > 0".into(),
            format!("div(score, {}) > 0", guard("id")),
        ),
        (
            filters(|| (Num::SCORE % Num::ID).eq(0_i64)),
            "score % id = 0".into(),
            format!("score % {} = 0", guard("id")),
        ),
        (
            // A literal zero divisor is guarded too (it fails on Athena when evaluated).
            filters(|| (Num::SCORE / 0_i64).eq(0_i64)),
            "score / 0 = 0".into(),
            format!("div(score, {}) = 0", guard("0")),
        ),
        (
            // `%` of a non-zero literal: Spark's remainder is Trino's (sign of the dividend).
            filters(|| (Num::SCORE % 2_i64).eq(-1_i64)),
            "score % 2 = -1".into(),
            "score % 2 = -1".into(),
        ),
        (
            // Doubles divide alike by a literal that is not zero.
            filters(|| (Num::RATIO / 2.0).gt(1.0)),
            "ratio / 2E0 > 1E0".into(),
            // (NaN is larger than any number on Spark: see `nan_compares_as_ieee_…`.)
            "ratio / 2E0 > 1E0 AND NOT isnan(ratio / 2E0)".into(),
        ),
        (
            // By zero, Athena's doubles are IEEE's (±Infinity, NaN), Spark's NULL.
            filters(|| (Num::RATIO / Num::RATIO).gt(1.0)),
            "ratio / ratio > 1E0".into(),
            "CASE WHEN ratio = 0 THEN ratio * power(ratio, -1) ELSE ratio / ratio END > 1E0 \
             AND NOT isnan(CASE WHEN ratio = 0 THEN ratio * power(ratio, -1) ELSE ratio / ratio END)"
                .into(),
        ),
        (
            filters(|| (Num::RATIO % Num::RATIO).gt(1.0)),
            "ratio % ratio > 1E0".into(),
            "CASE WHEN ratio = 0 THEN ratio * CAST('NaN' AS DOUBLE) ELSE ratio % ratio END > 1E0 \
             AND NOT isnan(CASE WHEN ratio = 0 THEN ratio * CAST('NaN' AS DOUBLE) ELSE ratio % ratio END)"
                .into(),
        ),
        (
            // A real quotient is a real on Athena, a double on Spark.
            filters(|| (Num::SHARE / 3.0_f32).eq(0.5_f32)),
            "share / REAL '3' = REAL '0.5'".into(),
            "CAST(share / CAST('3' AS FLOAT) AS float) = CAST('0.5' AS FLOAT) \
             AND NOT isnan(CAST(share / CAST('3' AS FLOAT) AS float))"
                .into(),
        ),
    ];
    let mut all = Vec::new();
    for (got, athena, spark) in cases {
        assert_eq!(
            got,
            vec![
                (Dialect::Athena, where_(&athena)),
                (Dialect::Trino, where_(&athena)),
                (Dialect::Spark, where_(&spark)),
            ]
        );
        all.extend(got);
    }
    trino_parses(&all);
}

/// Athena compares doubles and reals as IEEE does: a comparison with NaN is false
/// (`<>`: true). Spark's NaN equals NaN and is larger than any other value, so Spark
/// gets a guard (`isnan(NULL)` is false on Spark: a NULL operand keeps the result NULL).
#[test]
fn nan_compares_as_ieee_on_every_target() {
    let cases: Vec<(Texts, &str, &str)> = vec![
        (
            filters(|| Num::RATIO.gt(100.0)),
            "ratio > 1E2",
            "ratio > 1E2 AND NOT isnan(ratio)",
        ),
        (
            filters(|| Num::RATIO.eq(1.5)),
            "ratio = 1.5E0",
            "ratio = 1.5E0 AND NOT isnan(ratio)",
        ),
        (
            // A number on one side: only NaN <> NaN differs, and it cannot happen.
            filters(|| Num::RATIO.ne(1.5)),
            "ratio <> 1.5E0",
            "ratio <> 1.5E0",
        ),
        (
            filters(|| Num::RATIO.le(Num::RATIO)),
            "ratio <= ratio",
            "ratio <= ratio AND (ratio IS NULL OR ratio IS NULL OR NOT (isnan(ratio) OR isnan(ratio)))",
        ),
        (
            filters(|| Num::RATIO.ne(Num::RATIO)),
            "ratio <> ratio",
            "ratio <> ratio OR isnan(ratio) AND isnan(ratio)",
        ),
        (
            filters(|| Num::SHARE.lt(0.5_f32)),
            "share < REAL '0.5'",
            "share < CAST('0.5' AS FLOAT) AND NOT isnan(share)",
        ),
        (
            filters(|| Num::RATIO.between(1.0, 2.0)),
            "ratio BETWEEN 1E0 AND 2E0",
            "ratio BETWEEN 1E0 AND 2E0 AND NOT isnan(ratio)",
        ),
        (
            filters(|| Num::RATIO.not_between(1.0, 2.0)),
            "ratio NOT BETWEEN 1E0 AND 2E0",
            "ratio NOT BETWEEN 1E0 AND 2E0 OR isnan(ratio)",
        ),
        (
            // A CAST of an integer is never NaN, but may be NULL: named beside the guard.
            filters(|| Num::RATIO.gt(Num::SCORE.cast::<f64>())),
            "ratio > CAST(score AS double)",
            "ratio > CAST(score AS double) AND (CAST(score AS double) IS NULL OR NOT isnan(ratio))",
        ),
        (
            // Neither side can be NaN.
            filters(|| Num::SCORE.cast::<f64>().ge(1.5)),
            "CAST(score AS double) >= 1.5E0",
            "CAST(score AS double) >= 1.5E0",
        ),
        (
            // Integers are not touched.
            filters(|| Num::SCORE.gt(1_i64)),
            "score > 1",
            "score > 1",
        ),
    ];
    let mut all = Vec::new();
    for (got, athena, spark) in cases {
        assert_eq!(
            got,
            vec![
                (Dialect::Athena, where_(athena)),
                (Dialect::Trino, where_(athena)),
                (Dialect::Spark, where_(spark)),
            ]
        );
        all.extend(got);
    }
    trino_parses(&all);
    // A NaN literal equals nothing on Athena, itself included: a comparison or IN list
    // with one is refused on every target rather than rendered.
    for d in TARGETS {
        let err = Num::select()
            .column(Num::ID)
            .filter(Num::RATIO.is_in([1.0, f64::NAN]))
            .build_for(d)
            .expect_err("an IN list with a NaN literal is refused");
        assert!(err.to_string().contains("NaN"), "{d:?}: {err}");
    }
}

/// A decimal quotient has Trino's type on Spark too: `decimal(10,2) / decimal(1,0)` is
/// `decimal(min(38, p1 + s2 + max(s2 - s1, 0)), max(s1, s2))` = `decimal(10,2)`, rounded
/// half up (`DecimalOperators` in trinodb/trino); Spark's own quotient has 13 digits.
#[test]
fn decimal_division_has_athenas_scale_on_every_target() {
    let three = iceberg_sql::Decimal::parse("3").unwrap();
    let got = filters(|| (Num::PRICE / three).eq(iceberg_sql::Decimal::parse("3.33").unwrap()));
    assert_eq!(
        got,
        vec![
            (Dialect::Athena, where_("price / DECIMAL '3' = DECIMAL '3.33'")),
            (Dialect::Trino, where_("price / DECIMAL '3' = DECIMAL '3.33'")),
            (
                Dialect::Spark,
                where_("CAST(price / CAST('3' AS DECIMAL(1,0)) AS decimal(10,2)) = CAST('3.33' AS DECIMAL(3,2))")
            ),
        ]
    );
    trino_parses(&got);
}

/// `CAST(x AS bigint)` of a double or decimal rounds half away from zero on Athena;
/// Spark's CAST truncates, its `round` is Athena's.
#[test]
fn casts_to_integers_round_as_athena_does_on_every_target() {
    let got = filters(|| Num::RATIO.cast::<i64>().eq(3_i64));
    assert_eq!(
        got,
        vec![
            (Dialect::Athena, where_("CAST(ratio AS bigint) = 3")),
            (Dialect::Trino, where_("CAST(ratio AS bigint) = 3")),
            (Dialect::Spark, where_("CAST(round(ratio) AS bigint) = 3")),
        ]
    );
    let got = filters(|| Num::PRICE.cast::<i32>().eq(-3));
    assert_eq!(
        got[2],
        (Dialect::Spark, where_("CAST(round(price) AS int) = -3"))
    );
    // A cast between integers, or from text, is written as it is.
    let got = filters(|| Num::SMALL.cast::<i64>().eq(3_i64));
    assert_eq!(
        got[2],
        (Dialect::Spark, where_("CAST(small AS bigint) = 3"))
    );
}

/// `date_trunc` of a date is a date on Athena; Spark's is a timestamp, cast back.
#[test]
fn date_trunc_of_a_date_is_a_date_on_every_target() {
    let first = chrono::NaiveDate::from_ymd_opt(2024, 5, 1).unwrap();
    let got = filters(|| {
        Num::DAY
            .date_trunc(iceberg_sql::expr::TimeUnit::Month)
            .eq(first)
    });
    assert_eq!(
        got[0].1,
        where_("date_trunc('month', day) = DATE '2024-05-01'")
    );
    assert_eq!(
        got[2].1,
        where_("CAST(date_trunc('month', day) AS date) = DATE '2024-05-01'")
    );
}

/// `date_trunc` of a timestamp is a timestamp; a timestamp's text has six fractional
/// digits on Athena.
#[test]
fn timestamps_truncate_and_print_as_athena_does_on_every_target() {
    let got = filters(|| {
        Num::AT
            .date_trunc(iceberg_sql::expr::TimeUnit::Day)
            .cast::<String>()
            .eq("2024-05-01 00:00:00.000000")
    });
    assert_eq!(
        got[0].1,
        where_("CAST(date_trunc('day', at) AS varchar) = '2024-05-01 00:00:00.000000'")
    );
    assert_eq!(
        got[2].1,
        where_("date_format(CAST(date_trunc('day', at) AS timestamp_ntz), 'yyyy-MM-dd HH:mm:ss.SSSSSS') = '2024-05-01 00:00:00.000000'")
    );
    trino_parses(&got);
}

/// `avg` of a decimal keeps its type on Athena (Spark's has four more digits), and
/// `avg`/`sum` of a real are reals (Spark's are doubles).
#[test]
fn aggregates_have_athenas_types_on_every_target() {
    let got = texts(|d| {
        Num::select()
            .expr_as(Num::PRICE.avg(), "p")
            .expr_as(Num::SHARE.sum(), "s")
            .expr_as(Num::SHARE.avg(), "a")
            .expr_as(Num::SCORE.avg(), "n")
            .build_for(d)
    });
    assert_eq!(
        got[0].1,
        "SELECT avg(price) AS p, sum(share) AS s, avg(share) AS a, avg(score) AS n FROM parity.nums"
    );
    assert_eq!(
        got[2].1,
        "SELECT CAST(avg(price) AS decimal(10,2)) AS p, CAST(sum(share) AS float) AS s, CAST(avg(share) AS float) AS a, avg(score) AS n FROM parity.nums"
    );
}

/// A SET value is rewritten like a filter: the value written is Athena's.
#[test]
fn values_written_by_update_are_athenas() {
    let got = texts(|d| {
        Num::update()
            .set(Num::SCORE, Num::SCORE / Num::ID)
            .set(Num::SMALL, Num::SMALL / 2)
            .filter(Num::ID.gt(0_i64))
            .build_for(d)
    });
    assert_eq!(
        got[0].1,
        "UPDATE parity.nums\nSET score = score / id, small = small / 2\nWHERE id > 0"
    );
    assert_eq!(
        got[2].1,
        "UPDATE parity.nums\nSET score = div(score, CASE WHEN id = 0 THEN raise_error('Division by zero') ELSE id END), small = CAST(div(small, 2) AS int)\nWHERE id > 0"
    );
    trino_parses(&got);
}
