//! Walks every builder's output through the type model: each statement kind is built
//! with expressions of every form, and the audit must show that the target's type rules
//! typed every expression node written, and checked every assignment, output column
//! and row value. A builder or expression form that writes SQL around the type model
//! fails here.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use chrono::{NaiveDate, NaiveDateTime};

use super::audit::{capture, Log};
use crate::ctas::{HiveCtas, IcebergCtas, Unload};
use crate::dml::MergeSource;
use crate::dsl::{
    case_when, count_all, current_date, current_timestamp, days, param, raw, source, target,
};
use crate::expr::{Expr, TimeUnit};
use crate::prelude::*;
use crate::query::{JoinKind, Order, SnapshotRow};
use crate::recipes::{DailyRefresh, MissingDays};
use crate::{Result, Statement};

struct Ev {
    id: i64,
}

impl Ev {
    const ID: Col<Ev, i64> = Col::new("id");
    const USER_ID: Col<Ev, String> = Col::new("user_id");
    const TS: Col<Ev, NaiveDateTime> = Col::new("ts");
    const DAY: Col<Ev, NaiveDate> = Col::new("day");
    const LATENCY: Col<Ev, Option<i32>> = Col::new("latency");
    const SCORE: Col<Ev, f64> = Col::new("score");
}

impl IcebergTable for Ev {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            TableDef::builder("analytics", "ev")
                .column(Column::new("id", IcebergType::Long).required())
                .column(Column::new("user_id", IcebergType::String))
                .column(Column::new("ts", IcebergType::Timestamp))
                .column(Column::new("day", IcebergType::Date))
                .column(Column::new("latency", IcebergType::Int))
                .column(Column::new("score", IcebergType::Double))
                .column(Column::new("tags", IcebergType::list(IcebergType::String)))
                .partition(PartitionField::identity("day"))
                .location("s3://my-datalake/iceberg/ev/")
                .build()
                .expect("valid table")
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![
            Value::Long(self.id),
            Value::String("u".into()),
            Value::Timestamp(
                NaiveDate::from_ymd_opt(2026, 1, 1)
                    .and_then(|d| d.and_hms_opt(1, 2, 3))
                    .expect("valid"),
            ),
            Value::Date(NaiveDate::from_ymd_opt(2026, 1, 1).expect("valid")),
            Value::Int(5),
            Value::Double(1.5),
            Value::List(vec![Value::String("a".into())]),
        ]
    }
}

struct Summary;

impl Summary {
    const USER_ID: Col<Summary, String> = Col::new("user_id");
    const DT: Col<Summary, NaiveDate> = Col::new("dt");
}

impl IcebergTable for Summary {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            TableDef::builder("analytics", "summary")
                .column(Column::new("user_id", IcebergType::String))
                .column(Column::new("n", IcebergType::Long))
                .column(Column::new("dt", IcebergType::Date))
                .partition(PartitionField::identity("dt"))
                .location("s3://my-datalake/iceberg/summary/")
                .build()
                .expect("valid table")
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

fn day() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).expect("valid")
}

/// A filter with every expression form a condition can hold.
fn every_form() -> Cond<Ev> {
    let ts = day().and_hms_opt(0, 0, 0).expect("valid");
    Ev::USER_ID
        .eq("u-1")
        .and(Ev::TS.lt(current_timestamp() - days(7)))
        .and(Ev::DAY.le(current_date()))
        .and(Ev::TS.date_trunc(TimeUnit::Day).ge(ts))
        .and(Ev::LATENCY.is_null().or(Ev::LATENCY.between(1, 10)))
        .and(Ev::USER_ID.like("u-%"))
        .and(Ev::USER_ID.lower().regexp_like("^u-[0-9]+$"))
        .and(Ev::ID.is_in([1i64, 2, 3]))
        .and(Ev::ID.is_distinct_from(4i64))
        .and((-(Ev::SCORE * 1.0f64)).lt(0.5f64).not())
        .and(Ev::LATENCY.coalesce(0).cast::<i64>().gt(Ev::ID))
        .and(
            case_when(Ev::ID.gt(1i64), Ev::USER_ID)
                .otherwise("none")
                .ne("x"),
        )
        .and(raw::<bool>("strpos(user_id, 'u') = 1"))
}

/// Every statement kind, for `dialect`, each with the audit of its build.
fn build_all(dialect: Dialect) -> Vec<(&'static str, Result<Vec<Statement>>, Log)> {
    let one = |s: Result<Statement>| s.map(|s| vec![s]);
    let mut out = Vec::new();
    let mut run = |name: &'static str, f: &dyn Fn() -> Result<Vec<Statement>>| {
        let (r, log) = capture(f);
        out.push((name, r, log));
    };
    let rows = [Ev { id: 1 }, Ev { id: 2 }];
    let staged = TableName::new("analytics", "ev_staged");
    let summary_query = || {
        Ev::select()
            .column(Ev::USER_ID)
            .expr_as(count_all(), "n")
            .value_as(day(), "dt")
            .filter(every_form())
            .group_by(Ev::USER_ID)
    };
    let users = Ev::select()
        .column(Ev::ID)
        .column(Ev::TS)
        .expr_as(Ev::SCORE.avg(), "avg_score")
        .expr_as(Ev::LATENCY.max(), "max_latency")
        .filter(every_form())
        .group_by(Ev::ID)
        .group_by(Ev::TS)
        .order_by(Ev::ID, Order::Desc);

    run("select", &|| {
        one(Ev::select()
            .filter(every_form())
            .filter(Ev::USER_ID.ne(param("u-2")))
            .build_for(dialect))
    });
    run("select aggregates", &|| one(users.build_for(dialect)));
    run("select join", &|| {
        one(Ev::select()
            .column(Ev::ID)
            .join(JoinKind::Left, Ev::USER_ID, Summary::USER_ID)
            .build_for(dialect))
    });
    run("metadata", &|| {
        one(Ev::table_def()
            .name()
            .metadata::<SnapshotRow>()
            .filter(SnapshotRow::SNAPSHOT_ID.eq(5i64))
            .order_by(SnapshotRow::COMMITTED_AT, Order::Asc)
            .build_for(dialect))
    });
    run("insert values", &|| {
        one(Ev::insert(&rows).build_for(dialect))
    });
    run("insert select", &|| {
        one(Ev::insert_from(&staged)
            .filter(every_form())
            .build_for(dialect))
    });
    run("update", &|| {
        one(Ev::update()
            .set(Ev::TS, current_timestamp())
            .set(Ev::SCORE, Ev::SCORE * 2.0f64)
            .set_null(Ev::LATENCY)
            .filter(every_form())
            .build_for(dialect))
    });
    run("delete", &|| {
        one(Ev::delete().filter(every_form()).build_for(dialect))
    });
    run("merge table", &|| {
        one(Ev::merge_from(MergeSource::table(staged.clone()))
            .on_key(Ev::ID)
            .when_matched_and(target(Ev::SCORE).lt(source(Ev::SCORE)))
            .update(|u| {
                u.set(Ev::TS, current_timestamp())
                    .set(Ev::SCORE, source(Ev::SCORE))
            })
            .when_matched()
            .delete()
            .when_not_matched()
            .insert_all()
            .build_for(dialect))
    });
    run("merge rows", &|| {
        one(Ev::merge_from(MergeSource::rows(&rows))
            .on_key(Ev::ID)
            .dedup_source(Ev::TS)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert(|i| {
                i.value(Ev::ID, source(Ev::ID))
                    .value(Ev::TS, current_timestamp())
            })
            .build_for(dialect))
    });
    let query = Ev::select().filter(every_form());
    run("merge select", &|| {
        one(Ev::merge_from(MergeSource::select(&query))
            .on_key(Ev::ID)
            .null_safe_keys()
            .when_matched()
            .update_all()
            .build_for(dialect))
    });
    let out_query = Ev::select()
        .column(Ev::ID)
        .column(Ev::TS)
        .expr_as(current_timestamp(), "loaded_at")
        .filter(every_form());
    run("iceberg ctas", &|| {
        one(
            IcebergCtas::new(TableName::new("analytics", "c1"), &out_query)
                .location("s3://my-datalake/iceberg/c1/")
                .build_for(dialect),
        )
    });
    let hive_query = Ev::select()
        .column(Ev::ID)
        .column(Ev::TS)
        .filter(every_form());
    run("hive ctas", &|| {
        one(
            HiveCtas::new(TableName::new("analytics", "c2"), &hive_query)
                .external_location("s3://my-datalake/exports/c2/")
                .build_for(dialect),
        )
    });
    run("unload", &|| {
        one(Unload::new(&hive_query, "s3://my-datalake/exports/u/").build_for(dialect))
    });
    run("optimize", &|| {
        one(Ev::table_def()
            .optimize()
            .filter(Ev::DAY.eq(day()))
            .build_for(dialect))
    });
    let q = summary_query();
    run("daily refresh", &|| {
        DailyRefresh::new(Summary::DT, day(), &q).build_for(dialect)
    });
    run("missing days", &|| {
        one(MissingDays::new(Summary::table_def(), "dt", day(), day()).build_for(dialect))
    });
    out
}

/// The name of an expression form; a new form must be added here (and to
/// [`every_form`]).
fn form(e: &Expr) -> &'static str {
    match e {
        Expr::Column { .. } => "column",
        Expr::Literal { .. } => "literal",
        Expr::Param { .. } => "param",
        Expr::Binary { .. } => "binary",
        Expr::Not(_) => "not",
        Expr::Negate(_) => "negate",
        Expr::IsNull { .. } => "is null",
        Expr::InList { .. } => "in",
        Expr::Between { .. } => "between",
        Expr::Like { .. } => "like",
        Expr::Cast { .. } => "cast",
        Expr::Case { .. } => "case",
        Expr::Coalesce(_) => "coalesce",
        Expr::DateTrunc { .. } => "date_trunc",
        Expr::CurrentTimestamp => "current_timestamp",
        Expr::CurrentDate => "current_date",
        Expr::Interval { .. } => "interval",
        Expr::Aggregate { .. } => "aggregate",
        Expr::Call { .. } => "call",
        Expr::Function { .. } => "function",
        Expr::Window { .. } => "window",
        Expr::Raw(_) => "raw",
    }
}

const ALL_FORMS: &[&str] = &[
    "column",
    "literal",
    "param",
    "binary",
    "not",
    "negate",
    "is null",
    "in",
    "between",
    "like",
    "cast",
    "case",
    "coalesce",
    "date_trunc",
    "current_timestamp",
    "current_date",
    "interval",
    "aggregate",
    "function",
    "raw",
];

#[test]
fn athena_types_every_expression_every_builder_writes() {
    let mut forms = BTreeSet::new();
    for (name, built, log) in build_all(Dialect::Athena) {
        let statements = built.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!statements.is_empty(), "{name}");
        for (e, checked) in &log.rendered {
            assert!(
                *checked && log.typed.iter().any(|(t, _)| t == e),
                "{name}: `{e:?}` was written without being typed"
            );
            forms.insert(form(e));
        }
        let kinds: BTreeSet<&str> = log.checks.iter().map(|(k, _)| k.as_str()).collect();
        let expected: &[&str] = match name {
            "insert values" | "merge rows" => &["row value"],
            "insert select" | "update" | "merge table" | "merge select" | "daily refresh" => {
                &["assignment"]
            }
            "iceberg ctas" | "hive ctas" | "unload" => &["output"],
            "select join" => &["join keys"],
            _ => &[],
        };
        for k in expected {
            assert!(
                kinds.contains(k),
                "{name}: no `{k}` check in {:?}",
                log.checks
            );
        }
    }
    let all: BTreeSet<&str> = ALL_FORMS.iter().copied().collect();
    assert_eq!(
        forms, all,
        "every expression form is written by some builder"
    );
}

#[test]
fn assignments_are_checked_against_the_column_types() {
    let all = build_all(Dialect::Athena);
    let (_, built, update) = all.iter().find(|(n, ..)| *n == "update").expect("update");
    assert!(built.is_ok(), "{built:?}");
    let details: Vec<&str> = update
        .checks
        .iter()
        .filter(|(k, _)| k == "assignment")
        .map(|(_, d)| d.as_str())
        .collect();
    assert_eq!(
        details,
        [
            "ts timestamp(6) <- timestamp(3) with time zone",
            "score double <- double",
            "latency integer <- integer",
        ]
    );
}

#[test]
fn spark_builds_every_statement_without_trinos_refusals() {
    for (name, built, _) in build_all(Dialect::Spark) {
        if name == "missing days" || name == "hive ctas" || name == "unload" {
            continue;
        }
        built.unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
