//! Negative tests: every rule the DML builders enforce at build time.
//! (Rules enforced by the type system are `compile_fail` doc tests in `expr` and
//! `dml::merge`.)

mod dml_support;

use dml_support::{ts, McpEvent, Nested};
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::{current_timestamp, param, source};
use iceberg_sql::expr::{Interval, TimeUnit};
use iceberg_sql::prelude::*;
use iceberg_sql::Decimal;

fn staging() -> MergeSource<'static, McpEvent> {
    MergeSource::table(TableName::new("analytics", "mcp_events_staging"))
}

const NOT_A_COLUMN: Col<McpEvent, String> = Col::new("no_such_column");

#[test]
fn update_and_delete_need_where_or_all_rows() {
    let e = McpEvent::update()
        .set(McpEvent::STATUS, "x")
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert!(e.message().contains("without a WHERE"), "{e}");
    assert!(e.hint().unwrap().contains("all_rows"));
    assert!(McpEvent::update()
        .set(McpEvent::STATUS, "x")
        .all_rows()
        .build()
        .is_ok());
    let e = McpEvent::delete().build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    let both = McpEvent::delete()
        .all_rows()
        .filter(McpEvent::STATUS.eq("x"))
        .build()
        .unwrap_err();
    assert!(both.message().contains("both a filter and `.all_rows()`"));
}

/// An empty `NOT IN` list is `true`: a DELETE or UPDATE filtered by one (say, "every id
/// not in the ids to keep", with no ids) would change every row, which the builders
/// otherwise allow only with `.all_rows()`. An empty `IN` list changes no row and is
/// written as it is.
#[test]
fn a_filter_that_holds_for_every_row_needs_all_rows() {
    let keep: Vec<String> = Vec::new();
    let e = McpEvent::delete()
        .filter(McpEvent::EVENT_ID.not_in(keep.clone()))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert_eq!(
        e.message(),
        "DELETE's filter holds for every row (an empty NOT IN list is `true`), so it would change every row of the table"
    );
    assert!(e
        .hint()
        .unwrap()
        .contains("skip the statement when the list is empty"));
    let e = McpEvent::update()
        .set(McpEvent::STATUS, "archived")
        .filter(
            McpEvent::EVENT_ID
                .not_in(keep.clone())
                .or(McpEvent::LATENCY_MS.gt(5)),
        )
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    // Narrowed by another condition, or an empty IN list: some rows, as written.
    assert_eq!(
        McpEvent::delete()
            .filter(
                McpEvent::EVENT_ID
                    .not_in(keep.clone())
                    .and(McpEvent::LATENCY_MS.gt(5))
            )
            .build()
            .unwrap()
            .sql(),
        "DELETE FROM analytics.mcp_events\nWHERE true AND latency_ms > 5"
    );
    assert_eq!(
        McpEvent::delete()
            .filter(McpEvent::EVENT_ID.is_in(keep))
            .build()
            .unwrap()
            .sql(),
        "DELETE FROM analytics.mcp_events\nWHERE false"
    );
}

#[test]
fn update_needs_assignments_once_each() {
    let e = McpEvent::update()
        .filter(McpEvent::STATUS.eq("x"))
        .build()
        .unwrap_err();
    assert!(e.message().contains("at least one `.set"));
    let e = McpEvent::update()
        .set(McpEvent::STATUS, "a")
        .set(McpEvent::STATUS, "b")
        .filter(McpEvent::STATUS.eq("x"))
        .build()
        .unwrap_err();
    assert!(e.message().contains("sets column `status` twice"));
}

#[test]
fn columns_must_exist_on_the_table() {
    let e = McpEvent::update()
        .set(NOT_A_COLUMN, "a")
        .filter(McpEvent::STATUS.eq("x"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownColumn);
    assert!(e
        .message()
        .contains("`no_such_column` is not a column of table `analytics.mcp_events`"));
    let e = McpEvent::delete()
        .filter(NOT_A_COLUMN.eq("x"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownColumn);
    let e = McpEvent::merge_from(staging())
        .on_key(NOT_A_COLUMN)
        .when_matched()
        .delete()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownColumn);
}

#[test]
fn parameters_only_where_athena_documents_them() {
    let e = McpEvent::update()
        .set(McpEvent::STATUS, "x")
        .filter(McpEvent::EVENT_ID.eq(param("evt-001")))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e
        .message()
        .starts_with("UPDATE statements cannot take `?` parameters"));
    let e = McpEvent::update()
        .set(McpEvent::STATUS, param("x"))
        .all_rows()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    let e = McpEvent::delete()
        .filter(McpEvent::EVENT_ID.eq(param("evt-001")))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.message().starts_with("DELETE"));
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .when_matched_and(source(McpEvent::STATUS).eq(param("deleted")))
        .delete()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.message().starts_with("MERGE"));
    // INSERT INTO ... SELECT ... WHERE ? is documented.
    let ok = McpEvent::insert_from(&TableName::new("analytics", "staging"))
        .filter(McpEvent::EVENT_ID.eq(param("evt-001")))
        .build()
        .unwrap();
    assert_eq!(ok.params(), ["'evt-001'"]);
    // Athena's ExecutionParameters entries are at most 1024 characters.
    let e = McpEvent::insert_from(&TableName::new("analytics", "staging"))
        .filter(McpEvent::EVENT_ID.eq(param("x".repeat(1100))))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert!(e.message().contains("1024"));
    // Counted in UTF-16 code units, as AWS's Java services count a length constraint:
    // 600 emoji (and two quotes) are 1202, over the limit though 602 code points.
    let e = McpEvent::insert_from(&TableName::new("analytics", "staging"))
        .filter(McpEvent::EVENT_ID.eq(param("\u{1F600}".repeat(600))))
        .build()
        .unwrap_err();
    assert_eq!(
        e.message(),
        "a parameter's literal text is 1202 characters (UTF-16 code units); Athena's ExecutionParameters entries hold at most 1024"
    );
    let ok = McpEvent::insert_from(&TableName::new("analytics", "staging"))
        .filter(McpEvent::EVENT_ID.eq(param("\u{1F600}".repeat(511))))
        .build()
        .unwrap();
    assert_eq!(ok.params()[0].encode_utf16().count(), 1024);
}

#[test]
fn aggregates_are_refused_in_row_positions() {
    let e = McpEvent::delete()
        .filter(McpEvent::LATENCY_MS.max().gt(5))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert!(e.message().contains("aggregate"));
}

#[test]
fn expression_values_are_checked_when_rendered() {
    let e = McpEvent::delete()
        .filter(McpEvent::EVENT_TS.lt(current_timestamp() - Interval::new(1, TimeUnit::Quarter)))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    let e = McpEvent::delete()
        .filter(McpEvent::LATENCY_MS.approx_percentile(1.5).gt(3))
        .build()
        .unwrap_err();
    // Refused as an aggregate before rendering.
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert!(McpEvent::LATENCY_MS
        .approx_percentile(1.5)
        .to_sql(Dialect::Athena)
        .is_err());
    // A decimal literal takes its column's type in SET: 1.234 does not fit decimal(10,2).
    let e = Nested::update()
        .set(Nested::AMOUNT, Decimal::parse("1.234").unwrap())
        .all_rows()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert!(Nested::update()
        .set(Nested::AMOUNT, Decimal::parse("1.2").unwrap())
        .all_rows()
        .build()
        .unwrap()
        .sql()
        .contains("amount = DECIMAL '1.20'"));
}

/// A condition is typed and written by recursion, one stack frame per level: a chain
/// of ANDs deep enough overflowed the stack (an abort, not an error). Up to
/// `MAX_EXPR_DEPTH` levels are written; a deeper expression is refused with the way
/// out, on the default 2 MiB test thread, however deep. Building, cloning and dropping
/// one of 100,000 levels does not overflow either (the derived `Drop` and `Clone` did).
#[test]
fn expressions_deeper_than_the_limit_are_refused_not_overflowed() {
    use iceberg_sql::expr::MAX_EXPR_DEPTH;
    // `id = 0 AND id <> 1 AND …`: n comparisons nest n + 1 levels (the columns and
    // literals are the last level).
    let chain = |n: usize| {
        let mut c = McpEvent::LATENCY_MS.eq(0);
        for i in 1..n as i64 {
            c = c.and(McpEvent::LATENCY_MS.ne(i));
        }
        c
    };
    for d in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        let ok = McpEvent::delete()
            .filter(chain(MAX_EXPR_DEPTH - 1))
            .build_for(d)
            .unwrap();
        assert!(ok.sql().ends_with(" AND latency_ms <> 254"), "{d:?}");
        for n in [MAX_EXPR_DEPTH, 10_000, 100_000] {
            let e = McpEvent::delete()
                .filter(chain(n))
                .build_for(d)
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Unsupported);
            assert_eq!(
                e.message(),
                format!(
                    "an expression nests {} levels deep (each AND/OR of a chain, and each .filter(...) call, is one level); at most 256 are checked and written",
                    n + 1
                )
            );
            assert_eq!(
                e.hint(),
                Some("combine many conditions with Cond::any_of(...) / Cond::all_of(...) (a balanced tree: 10,000 conditions nest 16 levels) instead of a chain of .or(...)/.and(...)/.filter(...) calls; for many values of one column use .is_in([...])")
            );
        }
        // One .filter(...) call per condition makes the same chain.
        let mut select = McpEvent::select().column(McpEvent::EVENT_ID);
        for i in 0..5_000 {
            select = select.filter(McpEvent::LATENCY_MS.ne(i));
        }
        assert_eq!(
            select.build_for(d).unwrap_err().kind(),
            ErrorKind::Unsupported
        );
    }
    assert!(chain(10_000).to_sql(Dialect::Athena).is_err());
    let deep = chain(100_000);
    let copy = deep.clone();
    assert_eq!(copy.expr().depth(), 100_001);
    drop(deep);
    assert!(copy.to_sql(Dialect::Spark).is_err());
    // The way out for many conditions: a balanced tree, 4,000 of them nest 14 levels.
    let pairs = |i: i64| McpEvent::LATENCY_MS.eq(i).and(McpEvent::USER_ID.ne("u"));
    for d in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        let any = Cond::any_of((0..4_000).map(pairs)).unwrap();
        assert_eq!(any.expr().depth(), 15);
        let delete = McpEvent::delete().filter(any).build_for(d).unwrap();
        assert!(
            delete
                .sql()
                .contains("WHERE latency_ms = 0 AND user_id <> 'u' OR "),
            "{d:?}"
        );
        assert!(
            delete
                .sql()
                .ends_with("latency_ms = 3999 AND user_id <> 'u'"),
            "{d:?}"
        );
        assert_eq!(delete.sql().matches(" OR ").count(), 3_999);
        let all = Cond::all_of((0..4_000).map(|i| McpEvent::LATENCY_MS.ne(i))).unwrap();
        let select = McpEvent::select()
            .column(McpEvent::EVENT_ID)
            .filter(all)
            .build_for(d)
            .unwrap();
        assert_eq!(select.sql().matches(" AND ").count(), 3_999);
    }
    // A long IN list is one level: the way out.
    let many = McpEvent::delete()
        .filter(McpEvent::LATENCY_MS.is_in((0..10_000).collect::<Vec<i64>>()))
        .build()
        .unwrap();
    assert!(many.sql().ends_with(", 9998, 9999)"));
}

/// Typing and writing count the levels as they recurse (no pass of their own), on every
/// path a value takes: an UPDATE's SET value, a MERGE condition, and a filter on a
/// `timestamptz` column, whose comparisons are rewritten (copied) before typing.
#[test]
fn deep_values_are_refused_on_every_path() {
    use chrono::{DateTime, Utc};
    use iceberg_sql::expr::MAX_EXPR_DEPTH;

    // A `timestamptz` column (added by schema evolution: Athena cannot declare one).
    struct Seen;
    impl Seen {
        const ID: Col<Seen, i64> = Col::new("id");
        const SEEN: Col<Seen, DateTime<Utc>> = Col::new("seen");
    }
    impl IcebergTable for Seen {
        fn table_def() -> &'static TableDef {
            static D: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
            D.get_or_init(|| {
                TableDef::builder("lake", "seen")
                    .column(Column::new("id", IcebergType::Long).required())
                    .column(Column::new("seen", IcebergType::TimestampTz))
                    .location("s3://lake/seen/")
                    .build()
                    .unwrap()
            })
        }
        fn to_values(&self) -> Vec<Value> {
            vec![]
        }
    }

    let too_deep = |e: iceberg_sql::Error, levels: usize| {
        assert_eq!(e.kind(), ErrorKind::Unsupported, "{e}");
        assert!(
            e.message()
                .starts_with(&format!("an expression nests {levels} levels deep")),
            "{e}"
        );
        assert!(e.hint().unwrap().contains("Cond::any_of"), "{e}");
    };
    // `CAST(CAST(latency_ms AS bigint) AS bigint)…`: n casts nest n + 1 levels.
    let nested = |n: usize| {
        let mut v = McpEvent::LATENCY_MS.sql_expr();
        for _ in 0..n {
            v = v.cast::<i64>();
        }
        v
    };
    // A chain of n comparisons of the timestamptz column with a timestamp literal.
    let noon = ts(2026, 1, 1, 12).and_utc();
    let seen_chain = |n: usize| {
        let mut c = Seen::ID.eq(0);
        for _ in 1..n {
            c = c.and(Seen::SEEN.lt(noon));
        }
        c
    };
    for d in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        let update = |n: usize| {
            McpEvent::update()
                .set(McpEvent::LATENCY_MS, nested(n))
                .all_rows()
                .build_for(d)
        };
        // (Text nesting past 128 brackets is refused by the validator's parser.)
        if let Err(e) = update(100) {
            panic!("{d:?}: {e}")
        }
        for n in [MAX_EXPR_DEPTH, 10_000] {
            too_deep(update(n).unwrap_err(), n + 1);
        }
        // Within the depth limit but past what the validator's parser reads: refused
        // with the same way out.
        let e = update(200).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Syntax, "{e}");
        assert!(
            e.message()
                .contains("nests deeper than the parser's limit of 128 levels"),
            "{e}"
        );
        assert!(e.hint().unwrap().contains("Cond::all_of"), "{e}");

        let merge = |n: usize| {
            let mut c = source(McpEvent::STATUS).eq("x");
            for _ in 1..n {
                c = c.and(source(McpEvent::STATUS).ne("y"));
            }
            McpEvent::merge_from(staging())
                .on_key(McpEvent::EVENT_ID)
                .when_matched_and(c)
                .delete()
                .build_for(d)
        };
        assert!(merge(MAX_EXPR_DEPTH - 1).is_ok(), "{d:?}");
        too_deep(merge(10_000).unwrap_err(), 10_001);

        let delete = |n: usize| Seen::delete().filter(seen_chain(n)).build_for(d);
        let ok = delete(MAX_EXPR_DEPTH - 1).unwrap();
        // The rewrite ran: the literal is the same instant, with its zone.
        let zoned = match d {
            Dialect::Spark => "seen < TIMESTAMP '2026-01-01 12:00:00.000000Z'",
            _ => "seen < TIMESTAMP '2026-01-01 12:00:00.000000 UTC'",
        };
        assert_eq!(ok.sql().matches(zoned).count(), 254, "{d:?}: {}", ok.sql());
        too_deep(delete(10_000).unwrap_err(), 10_001);
    }
}

#[test]
fn insert_rows_are_checked_and_named() {
    let none: [McpEvent; 0] = [];
    assert_eq!(
        McpEvent::insert(&none).build().unwrap_err().kind(),
        ErrorKind::InvalidValue
    );
    assert!(McpEvent::insert(&none).batches().unwrap().is_empty());

    // A NULL in a NOT NULL column names row and column.
    let bad = Nested {
        values: vec![Value::Null; 8],
    };
    let good = Nested {
        values: vec![
            Value::Long(1),
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
        ],
    };
    let rows = [good.clone(), bad];
    let e = Nested::insert(&rows).batches().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert_eq!(
        e.message(),
        "row 1: column `id` is NOT NULL but the value is NULL"
    );

    // Wrong number of values.
    let short = Nested {
        values: vec![Value::Long(1)],
    };
    let e = Nested::insert(&[good.clone(), good.clone(), short])
        .build()
        .unwrap_err();
    assert!(
        e.message().starts_with("row 2: 1 values for the 8 columns"),
        "{e}"
    );

    // Wrong value kind.
    let mut wrong = good.clone();
    wrong.values[0] = Value::from("seven");
    let e = Nested::insert(&[wrong]).build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert!(
        e.message()
            .starts_with("row 0, column `id`: a string value"),
        "{e}"
    );
}

#[test]
fn a_row_too_large_for_any_statement_is_named() {
    let mut rows: Vec<McpEvent> = (0..10).map(McpEvent::nth).collect();
    rows[7].payload = Some("x".repeat(300_000));
    let e = McpEvent::insert(&rows).batches().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::QueryTooLong);
    assert!(e.message().starts_with("row 7 alone renders to"), "{e}");
    // With a lower limit, a smaller row is already too large.
    rows[7].payload = Some("x".repeat(2_000));
    let e = McpEvent::insert(&rows)
        .max_bytes(1_000)
        .batches()
        .unwrap_err();
    assert!(e.message().starts_with("row 7 alone"), "{e}");
    assert!(e.message().contains("1000 bytes"));
    let hint = "shorten the row's values, or load large values from S3 with INSERT ... SELECT";
    assert_eq!(e.hint(), Some(hint));
    // `build()` of that row alone gives the same way out: `batches()` cannot split one row.
    let e = McpEvent::insert(&rows[7..8])
        .max_bytes(1_000)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::QueryTooLong);
    assert_eq!(e.hint(), Some(hint));
}

#[test]
fn build_refuses_what_only_batches_can_do() {
    let rows: Vec<McpEvent> = (0..3000).map(McpEvent::nth).collect();
    let e = McpEvent::insert(&rows)
        .any_partitions()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::QueryTooLong);
    assert!(e.hint().unwrap().contains("batches()"));
    // On Athena these rows also exceed the 100 partitions one INSERT may write.
    let e = McpEvent::insert(&rows).build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    assert!(e.hint().unwrap().contains("batches()"));
    let rows: Vec<McpEvent> = (0..50).map(McpEvent::nth).collect();
    let e = McpEvent::insert(&rows)
        .max_partitions(3)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
}

#[test]
fn insert_select_rules() {
    let same = McpEvent::table_def().name().clone();
    let e = McpEvent::insert_from(&same).build().unwrap_err();
    assert!(e.message().contains("SELECT FROM the same table"));
    let e = McpEvent::insert_from(&TableName::new("analytics", "s"))
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::PAYLOAD)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert!(e.message().contains("column `session_id` is NOT NULL"));
    let e = McpEvent::insert_from(&TableName::new("analytics", "s"))
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::EVENT_ID)
        .build()
        .unwrap_err();
    assert!(e.all().any(|e| e.message().contains("twice")));
    let e = McpEvent::insert_from(&TableName::new("Analytics", "s"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
}

#[test]
fn merge_needs_keys_and_clauses() {
    let e = McpEvent::merge_from(staging())
        .when_matched()
        .delete()
        .build()
        .unwrap_err();
    assert!(e.message().contains("at least one key column"));
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .build()
        .unwrap_err();
    assert!(e.message().contains("at least one WHEN clause"));
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .delete()
        .build()
        .unwrap_err();
    assert!(e.message().contains("given twice"));
}

#[test]
fn merge_rejects_clauses_after_an_unconditional_one_of_the_same_kind() {
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .update_all()
        .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
        .delete()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert_eq!(
        e.message(),
        "clause 2 (WHEN MATCHED) can never run: clause 1 is an unconditional WHEN MATCHED and matches first"
    );
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .when_not_matched()
        .insert_all()
        .when_matched()
        .delete()
        .when_not_matched_and(source(McpEvent::STATUS).eq("x"))
        .insert_all()
        .build()
        .unwrap_err();
    assert!(e
        .message()
        .starts_with("clause 3 (WHEN NOT MATCHED) can never run: clause 1"));
    // Different kinds do not shadow each other; conditional before unconditional is fine.
    assert!(McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .when_not_matched()
        .insert_all()
        .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
        .delete()
        .when_matched()
        .update_all()
        .build()
        .is_ok());
}

#[test]
fn merge_actions_are_checked() {
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .update(|u| u)
        .build()
        .unwrap_err();
    assert!(e
        .message()
        .contains("UPDATE SET needs at least one assignment"));
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .update(|u| u.set(McpEvent::STATUS, "a").set(McpEvent::STATUS, "b"))
        .build()
        .unwrap_err();
    assert!(e.message().contains("column `status` twice"));
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .when_not_matched()
        .insert(|i| i.value(McpEvent::EVENT_ID, source(McpEvent::EVENT_ID)))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert!(e
        .message()
        .contains("column `session_id` is NOT NULL but the INSERT gives it no value"));
    let e = McpEvent::merge_from(staging())
        .on_key(McpEvent::EVENT_ID)
        .when_not_matched()
        .insert(|i| i)
        .build()
        .unwrap_err();
    assert!(e.message().contains("INSERT needs at least one value"));
}

/// Inline MERGE rows carry their keys: a NULL key never matches with `=` (re-running
/// the upsert inserts the row again), and two rows with one key fail the MERGE or are
/// both inserted. Both are refused unless the keys match NULL-safely or the source is
/// de-duplicated.
#[test]
fn inline_merge_rows_need_distinct_non_null_keys() {
    let twice = [McpEvent::example(), McpEvent::nth(3), McpEvent::example()];
    let upsert = |rows: &[McpEvent]| {
        McpEvent::merge_from(MergeSource::rows(rows))
            .on_key(McpEvent::EVENT_ID)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build()
    };
    let e = upsert(&twice).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert_eq!(
        e.message(),
        "inline rows 0 and 2 have the same key; a target row may match only one source row (Athena fails the MERGE), and without one both rows would be inserted"
    );
    assert!(e.hint().unwrap().contains(".dedup_source(order_by)"));
    assert!(upsert(&twice[..2]).is_ok());
    assert!(McpEvent::merge_from(MergeSource::rows(&twice))
        .on_key(McpEvent::EVENT_ID)
        .dedup_source(McpEvent::EVENT_TS)
        .when_matched()
        .update_all()
        .build()
        .is_ok());
    // Identical rows have the same compound key too.
    assert!(McpEvent::merge_from(MergeSource::rows(&twice))
        .on_key(McpEvent::EVENT_ID)
        .on_key(McpEvent::STATUS)
        .when_matched()
        .delete()
        .build()
        .is_err());

    let row = |name: Option<&str>| Nested {
        values: vec![
            Value::Long(1),
            name.map_or(Value::Null, |n| Value::String(n.into())),
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
        ],
    };
    let nameless = [row(Some("a")), row(None)];
    let by_name = || {
        Nested::merge_from(MergeSource::rows(&nameless))
            .on_key(Nested::NAME)
            .when_not_matched()
            .insert_all()
    };
    let e = by_name().build().unwrap_err();
    assert_eq!(
        e.message(),
        "inline row 1: key column `name` is NULL; `target.name = source.name` never matches NULL, so the row would be inserted again on every run and never update a target row"
    );
    assert_eq!(
        e.hint(),
        Some("call .null_safe_keys() to match NULL keys (IS NOT DISTINCT FROM), or give the row a key")
    );
    assert!(by_name()
        .null_safe_keys()
        .build()
        .unwrap()
        .sql()
        .contains("ON target.name IS NOT DISTINCT FROM source.name"));
    // NULL-safe, two NULL keys are one key.
    let e = Nested::merge_from(MergeSource::rows(&[row(None), row(None)]))
        .on_key(Nested::NAME)
        .null_safe_keys()
        .when_not_matched()
        .insert_all()
        .build()
        .unwrap_err();
    assert!(
        e.message()
            .starts_with("inline rows 0 and 1 have the same key"),
        "{e}"
    );
}

/// A source query that produces a column twice makes `source.c` ambiguous; it is
/// refused instead of failing on the engine.
#[test]
fn a_merge_source_query_names_each_column_once() {
    let mut q = McpEvent::select().column(McpEvent::EVENT_ID);
    for c in McpEvent::table_def().columns() {
        q = q.column(Col::<McpEvent, Option<String>>::new(Box::leak(
            c.name.clone().into_boxed_str(),
        )));
    }
    let e = McpEvent::merge_from(MergeSource::select(&q))
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .update_all()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable);
    assert_eq!(
        e.message(),
        "the MERGE source query produces `event_id` twice; `source.event_id` would be ambiguous (Athena: \"Column 'source.event_id' is ambiguous\")"
    );
}

#[test]
fn merge_sources_are_checked() {
    let none: [McpEvent; 0] = [];
    let e = McpEvent::merge_from(MergeSource::rows(&none))
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .delete()
        .build()
        .unwrap_err();
    assert!(e.message().contains("needs at least one row"));
    let mut bad = McpEvent::example();
    bad.event_ts = chrono::NaiveDate::from_ymd_opt(10000, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap();
    let e = McpEvent::merge_from(MergeSource::rows(std::slice::from_ref(&bad)))
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .delete()
        .build()
        .unwrap_err();
    assert!(
        e.message().starts_with("source row 0, column `event_ts`"),
        "{e}"
    );
    let not_select = McpEvent::delete().all_rows().build().unwrap();
    let e = McpEvent::merge_from(MergeSource::query(&not_select))
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .delete()
        .build()
        .unwrap_err();
    assert!(e.message().contains("must be a SELECT, not DELETE"));
    let e = McpEvent::merge_from(MergeSource::table(TableName::new("analytics", "Staging")))
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .delete()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
}

#[test]
fn delete_cutoff_literal() {
    // The example DELETE, with its exact cutoff.
    let sql = McpEvent::delete()
        .filter(
            McpEvent::USER_ID
                .eq("user-123")
                .and(McpEvent::EVENT_TS.lt(ts(2026, 9, 1, 0))),
        )
        .build()
        .unwrap();
    assert!(sql
        .sql()
        .ends_with("event_ts < TIMESTAMP '2026-09-01 00:00:00.000000'"));
}

#[test]
fn timestamps_finer_than_a_microsecond_are_refused_where_they_are_written() {
    use chrono::Timelike;
    let nanos = ts(2026, 10, 1, 12).with_nanosecond(123_456_789).unwrap();
    let micros = ts(2026, 10, 1, 12).with_nanosecond(123_456_000).unwrap();
    let expect = |e: Error| {
        assert_eq!(e.kind(), ErrorKind::InvalidValue, "{e}");
        assert!(
            e.message().ends_with(
                "timestamp 2026-10-01 12:00:00.123456789 has digits below a microsecond, \
                 which Iceberg does not keep"
            ),
            "{e}"
        );
        assert!(e.hint().unwrap_or("").contains("trunc_subsecs(6)"), "{e}");
    };
    let mut row = McpEvent::example();
    row.event_ts = nanos;
    for dialect in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        expect(
            McpEvent::insert(std::slice::from_ref(&row))
                .build_for(dialect)
                .unwrap_err(),
        );
        expect(
            McpEvent::insert(std::slice::from_ref(&row))
                .batches_for(dialect)
                .unwrap_err(),
        );
        expect(
            McpEvent::update()
                .set(McpEvent::EVENT_TS, nanos)
                .filter(McpEvent::EVENT_ID.eq("evt-0"))
                .build_for(dialect)
                .unwrap_err(),
        );
    }
    // In a filter, Trino compares a nine-digit literal as timestamp(9), where every
    // stored value is exact; Spark's timestamps hold microseconds, so Spark refuses it.
    for dialect in [Dialect::Athena, Dialect::Trino] {
        let sql = McpEvent::delete()
            .filter(McpEvent::EVENT_TS.lt(nanos))
            .build_for(dialect)
            .unwrap();
        assert!(
            sql.sql()
                .ends_with("event_ts < TIMESTAMP '2026-10-01 12:00:00.123456789'"),
            "{sql}"
        );
    }
    expect(
        McpEvent::delete()
            .filter(McpEvent::EVENT_TS.eq(nanos))
            .build_for(Dialect::Spark)
            .unwrap_err(),
    );
    // Microseconds are written as they are.
    row.event_ts = micros;
    let sql = McpEvent::insert(&[row]).build().unwrap();
    assert!(
        sql.sql().contains("TIMESTAMP '2026-10-01 12:00:00.123456'"),
        "{sql}"
    );
}

/// The window that de-duplicates a MERGE source orders by the given column, and Trino
/// orders only orderable types (`Type.isOrderable`): a map is not; an array or row is,
/// but fails the query at run time on a NULL element or field, which an Iceberg list or
/// struct may hold.
#[test]
fn merge_dedup_orders_only_by_an_orderable_column() {
    let merge = |by: &'static str| {
        Nested::merge_from(MergeSource::table(TableName::new("lake", "nested_updates")))
            .on_key(Nested::ID)
            .dedup_source(Col::<Nested, i64>::new(by))
            .when_matched()
            .update_all()
            .build()
    };
    let e = merge("attrs").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TypeMismatch);
    assert_eq!(
        e.message(),
        "MERGE's source de-duplication (dedup_source) orders by `attrs`, of type map(varchar, integer): \
         Type map(varchar, integer) is not orderable, and therefore cannot be used in ORDER BY"
    );
    assert_eq!(
        e.hint(),
        Some("order by a column of a number, text, date, timestamp or boolean type instead of `attrs`")
    );
    for (by, ty, what) in [
        (
            "tags",
            "array(varchar)",
            "arrays it orders reach a NULL element",
        ),
        ("loc", "row(", "rows it orders reach a NULL field"),
    ] {
        let e = merge(by).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TypeMismatch);
        assert!(
            e.message().starts_with(&format!(
                "MERGE's source de-duplication (dedup_source) orders by `{by}`, of type {ty}"
            )) && e.message().contains(what),
            "{e}"
        );
        assert!(
            e.hint().unwrap_or("").contains("a row's fields one by one"),
            "{e}"
        );
    }
    let sql = merge("day").unwrap();
    assert!(sql.sql().contains("ORDER BY day DESC"), "{}", sql.sql());
}

#[derive(Debug)]
struct Words {
    values: Vec<Value>,
}
impl Words {
    const OFFSET: Col<Words, i64> = Col::new("offset");
    const VIEW: Col<Words, String> = Col::new("view");
    const RETURNING: Col<Words, String> = Col::new("returning");
}
impl IcebergTable for Words {
    fn table_def() -> &'static TableDef {
        static DEF: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
        DEF.get_or_init(|| {
            TableDef::builder("local", "replace")
                .column(Column::new("offset", IcebergType::Long))
                .column(Column::new("view", IcebergType::String))
                .column(Column::new("returning", IcebergType::String))
                .location("s3://lake/words/")
                .build()
                .expect("valid table")
        })
    }
    fn to_values(&self) -> Vec<Value> {
        self.values.clone()
    }
}

/// Words in Trino's `nonReserved` rule (SqlBase.g4) are names unquoted in Trino's
/// grammar: columns `offset`, `view`, `returning`, a database `local`, a table
/// `replace`. The renderer leaves them bare and the validator reads them as names.
#[test]
fn trino_non_reserved_words_are_names() {
    let rows = [Words {
        values: vec![
            Value::Long(1),
            Value::String("v".into()),
            Value::String("r".into()),
        ],
    }];
    for d in [Dialect::Athena, Dialect::Trino] {
        let built = [
            Words::select()
                .column(Words::OFFSET)
                .column(Words::VIEW)
                .filter(Words::RETURNING.eq("r"))
                .build_for(d),
            Words::insert(&rows).build_for(d),
            Words::update()
                .set(Words::VIEW, "w")
                .filter(Words::OFFSET.eq(1))
                .build_for(d),
            Words::delete().filter(Words::OFFSET.eq(1)).build_for(d),
            Words::merge_from(MergeSource::rows(&rows))
                .on_key(Words::OFFSET)
                .when_matched()
                .update_all()
                .when_not_matched()
                .insert_all()
                .build_for(d),
        ];
        let sql: Vec<String> = built
            .into_iter()
            .map(|b| {
                b.map(|s| s.sql().to_string())
                    .unwrap_or_else(|e| panic!("{d:?}: {e}"))
            })
            .collect();
        assert_eq!(
            sql[0], "SELECT offset, view FROM local.replace WHERE returning = 'r'",
            "{d:?}"
        );
        assert_eq!(
            sql[1], "INSERT INTO local.replace (offset, view, returning)\nVALUES\n  (1, 'v', 'r')",
            "{d:?}"
        );
        assert_eq!(
            sql[2], "UPDATE local.replace\nSET view = 'w'\nWHERE offset = 1",
            "{d:?}"
        );
    }
}
