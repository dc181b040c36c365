//! Property tests: INSERT batching (size limit, every row exactly once and in order,
//! partition budget) and hostile strings in every value position.

mod dml_support;

use std::collections::HashSet;

use dml_support::{McpEvent, Nested};
use iceberg_sql::dml::partition::KeyMaker;
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::{param, source};
use iceberg_sql::prelude::*;
use iceberg_sql::validate::{inspect, validate_sql};
use iceberg_sql::Decimal;
use proptest::prelude::*;

// ---------------------------------------------------------------- strategies

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-z'\\\\;\\-/*\n\u{2019}\"`%_ ]{0,24}",
        Just(String::new()),
        Just("'; DROP TABLE x; --".to_string()),
        Just("\\'".to_string()),
    ]
}

fn opt<T: std::fmt::Debug + Clone>(
    s: impl Strategy<Value = T>,
) -> impl Strategy<Value = Option<T>> {
    prop_oneof![1 => Just(None), 3 => s.prop_map(Some)]
}

fn nested_row() -> impl Strategy<Value = Nested> {
    (
        any::<i64>(),
        opt(text()),
        opt(prop::collection::vec(opt(text()), 0..4)),
        opt(prop::collection::btree_map(text(), any::<i32>(), 0..3)),
        opt((-1.0e6f64..1.0e6, text())),
        opt(-9_999_999_999i64..9_999_999_999),
        opt(1i32..3_000_000),
        opt(prop::collection::vec(any::<u8>(), 0..8)),
    )
        .prop_map(|(id, name, tags, attrs, loc, amount, day, raw)| {
            let null = |v: Option<Value>| v.unwrap_or(Value::Null);
            Nested {
                values: vec![
                    Value::Long(id),
                    null(name.map(Value::String)),
                    null(tags.map(|t| {
                        Value::List(t.into_iter().map(|s| null(s.map(Value::String))).collect())
                    })),
                    null(attrs.map(|m| {
                        Value::Map(
                            m.into_iter()
                                .map(|(k, v)| (Value::String(k), Value::Int(v)))
                                .collect(),
                        )
                    })),
                    null(loc.map(|(lat, label)| {
                        Value::Struct(vec![Value::Double(lat), Value::String(label)])
                    })),
                    null(amount.map(|u| Value::Decimal(Decimal::new(i128::from(u), 2)))),
                    null(day.map(|d| {
                        Value::Date(
                            chrono::NaiveDate::from_num_days_from_ce_opt(d).expect("date in range"),
                        )
                    })),
                    null(raw.map(Value::Binary)),
                ],
            }
        })
}

fn dialect() -> impl Strategy<Value = Dialect> {
    prop_oneof![Just(Dialect::Athena), Just(Dialect::Spark)]
}

// ---------------------------------------------------------------- helpers

/// The `(...)` text of one row, as a one-row INSERT renders it.
fn row_text(row: &Nested, d: Dialect) -> String {
    let sql = Nested::insert(std::slice::from_ref(row))
        .build_for(d)
        .unwrap()
        .into_sql();
    let at = sql.find(")\nVALUES\n  ").unwrap() + ")\nVALUES\n  ".len();
    sql[at..].to_string()
}

/// Every single-quoted string literal in `sql` (after unescaping), via the validator's
/// parser.
fn string_literals(sql: &str, kind: StatementKind, d: Dialect) -> Vec<String> {
    inspect(sql, kind, d)
        .unwrap_or_else(|e| panic!("{e}\n{sql}"))
        .string_literals()
        .to_vec()
}

// ---------------------------------------------------------------- batching

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn batches_respect_the_limit_and_keep_every_row_once_in_order(
        rows in prop::collection::vec(nested_row(), 0..30),
        max_bytes in 600usize..6_000,
        max_parts in opt(1usize..4),
        d in dialect(),
    ) {
        let texts: Vec<String> = rows.iter().map(|r| row_text(r, d)).collect();
        let mut ins = Nested::insert(&rows).max_bytes(max_bytes);
        if let Some(n) = max_parts {
            ins = ins.max_partitions(n);
        }
        let batches = match ins.batches_for(d) {
            Ok(b) => b,
            Err(e) => {
                // Only a row too large for any statement may fail, and it is named.
                prop_assert_eq!(e.kind(), ErrorKind::QueryTooLong);
                let i: usize = e.message()
                    .strip_prefix("row ").unwrap()
                    .split(' ').next().unwrap().parse().unwrap();
                let header = Nested::insert(std::slice::from_ref(&rows[i])).build_for(d).unwrap()
                    .sql().len() - texts[i].len();
                prop_assert!(header + texts[i].len() > max_bytes);
                // and every earlier row fits on its own
                for t in &texts[..i] {
                    prop_assert!(header + t.len() <= max_bytes);
                }
                return Ok(());
            }
        };
        if rows.is_empty() {
            prop_assert!(batches.is_empty());
            return Ok(());
        }
        let keys = KeyMaker::new(Nested::table_def()).unwrap();
        let mut next = 0usize;
        for b in &batches {
            let sql = b.sql();
            prop_assert!(sql.len() <= max_bytes, "{} > {}", sql.len(), max_bytes);
            let at = sql.find(")\nVALUES\n  ").unwrap() + ")\nVALUES\n  ".len();
            let mut rest = &sql[at..];
            let first = next;
            loop {
                prop_assert!(next < texts.len(), "more rows in batches than given");
                prop_assert!(rest.starts_with(texts[next].as_str()), "row {} not next", next);
                rest = &rest[texts[next].len()..];
                next += 1;
                if rest.is_empty() {
                    break;
                }
                rest = rest.strip_prefix(",\n  ").expect("row separator");
            }
            if let Some(n) = max_parts {
                let distinct: HashSet<_> = rows[first..next]
                    .iter()
                    .map(|r| keys.key(&r.values).unwrap())
                    .collect();
                prop_assert!(distinct.len() <= n);
            }
        }
        prop_assert_eq!(next, rows.len());
    }

    #[test]
    fn any_string_survives_every_value_position(s in text(), d in dialect()) {
        check_everywhere(&s, d);
    }

    /// An INSERT's rows are checked by a recognizer of the VALUES grammar in
    /// `build_for`; whatever it passes, the full validator passes too.
    #[test]
    fn the_full_validator_accepts_the_rows_the_recognizer_passed(
        rows in prop::collection::vec(nested_row(), 1..6),
        d in dialect(),
    ) {
        let built = Nested::insert(&rows).build_for(d).unwrap();
        let full = validate_sql(built.sql(), StatementKind::Insert, d, 0);
        prop_assert!(full.is_ok(), "{:?}\n{}", full, built.sql());
    }
}

// ---------------------------------------------------------------- hostile strings

const HOSTILE: &[&str] = &[
    "'",
    "''",
    "\\",
    "\\'",
    "'\\",
    "a'; DELETE FROM analytics.mcp_events; --",
    ";",
    "--",
    "-- comment",
    "/*",
    "*/",
    "/* unclosed",
    "line\nbreak\r\n",
    "nul\0byte",
    "\u{2019}smart quote\u{2019}",
    "\u{2018}\u{201c}\u{201d}",
    "tab\tand\u{7f}",
    "?",
    "\"double\"",
    "`back`",
    "${var}",
    "%_",
];

/// Builds one statement per value position holding `s`, and checks that each is one
/// statement (the validator parsed it) whose string literals include `s` exactly.
fn check_everywhere(s: &str, d: Dialect) {
    let mut row = McpEvent::example();
    row.payload = Some(s.to_string());
    row.status = s.to_string();
    let rows = [row];
    let nested = [Nested {
        values: vec![
            Value::Long(1),
            Value::String(s.into()),
            Value::List(vec![Value::String(s.into())]),
            Value::Map(vec![(Value::String(s.into()), Value::Int(1))]),
            Value::Struct(vec![Value::Double(0.5), Value::String(s.into())]),
            Value::Null,
            Value::Null,
            Value::Null,
        ],
    }];
    let stmts: Vec<(&str, Statement)> = vec![
        (
            "insert values",
            McpEvent::insert(&rows).build_for(d).unwrap(),
        ),
        (
            "insert nested",
            Nested::insert(&nested).build_for(d).unwrap(),
        ),
        (
            "update set",
            McpEvent::update()
                .set(McpEvent::STATUS, s)
                .set(McpEvent::PAYLOAD, s)
                .filter(McpEvent::EVENT_ID.eq("evt-001"))
                .build_for(d)
                .unwrap(),
        ),
        (
            "update where",
            McpEvent::update()
                .set(McpEvent::STATUS, "x")
                .filter(McpEvent::PAYLOAD.eq(s).or(McpEvent::STATUS.is_in([s, "y"])))
                .build_for(d)
                .unwrap(),
        ),
        (
            "delete where",
            McpEvent::delete()
                .filter(
                    McpEvent::USER_ID
                        .like(s)
                        .and(McpEvent::STATUS.between(s, s)),
                )
                .build_for(d)
                .unwrap(),
        ),
        (
            "insert select where",
            McpEvent::insert_from(&TableName::new("analytics", "staging"))
                .filter(McpEvent::STATUS.ne(s))
                .build_for(d)
                .unwrap(),
        ),
        (
            "merge rows and clauses",
            McpEvent::merge_from(MergeSource::rows(&rows))
                .on_key(McpEvent::EVENT_ID)
                .when_matched_and(source(McpEvent::STATUS).eq(s))
                .delete()
                .when_matched()
                .update(|u| u.set(McpEvent::STATUS, s))
                .when_not_matched_and(source(McpEvent::PAYLOAD).coalesce(s).ne(s))
                .insert(|i| {
                    i.value(McpEvent::EVENT_ID, s)
                        .value(McpEvent::SESSION_ID, source(McpEvent::SESSION_ID))
                        .value(McpEvent::TOOL_NAME, source(McpEvent::TOOL_NAME))
                        .value(McpEvent::USER_ID, source(McpEvent::USER_ID))
                        .value(McpEvent::EVENT_TS, source(McpEvent::EVENT_TS))
                        .value(McpEvent::STATUS, s)
                        .value(McpEvent::LATENCY_MS, 1)
                })
                .build_for(d)
                .unwrap(),
        ),
    ];
    for (what, stmt) in stmts {
        let lits = string_literals(stmt.sql(), stmt.kind(), d);
        assert!(
            lits.iter().any(|l| l == s),
            "{what} ({d:?}): literal {s:?} not found in {lits:?}\n{}",
            stmt.sql()
        );
    }
    // As a parameter, the ExecutionParameters entry is one literal that parses back to s.
    let p = McpEvent::insert_from(&TableName::new("analytics", "staging"))
        .filter(McpEvent::STATUS.eq(param(s)))
        .build_for(d);
    match p {
        Ok(p) => {
            assert_eq!(p.params().len(), 1);
            let probe = format!("SELECT {}", p.params()[0]);
            assert_eq!(
                string_literals(&probe, StatementKind::Select, d),
                vec![s.to_string()],
                "param {s:?}"
            );
        }
        Err(e) => assert!(e.message().contains("1024"), "{e}"),
    }
}

#[test]
fn hostile_strings_in_every_value_position() {
    for d in [Dialect::Athena, Dialect::Spark] {
        for s in HOSTILE {
            check_everywhere(s, d);
        }
    }
}

#[test]
fn very_long_strings_fit_or_fail_loudly() {
    for d in [Dialect::Athena, Dialect::Spark] {
        // Long but within the limit: one statement, literal intact.
        let long: String = "a'b\\c\u{2019};--/*\n".repeat(4_000);
        let mut row = McpEvent::example();
        row.payload = Some(long.clone());
        let stmt = McpEvent::insert(std::slice::from_ref(&row))
            .build_for(d)
            .unwrap();
        assert!(string_literals(stmt.sql(), StatementKind::Insert, d).contains(&long));
        // Over the limit: an error naming the row, never a truncated literal.
        row.payload = Some("'".repeat(200_000));
        let e = McpEvent::insert(&[McpEvent::example(), row])
            .batches_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::QueryTooLong);
        assert!(e.message().starts_with("row 1 "));
    }
}

#[test]
fn partition_budget_splits_example_rows() {
    // 100 synthetic rows over 28 days x 16 buckets: batches of at most 5 partitions.
    let rows: Vec<McpEvent> = (0..100).map(McpEvent::nth).collect();
    let batches = McpEvent::insert(&rows)
        .max_partitions(5)
        .batches_with_rows()
        .unwrap();
    let keys = KeyMaker::new(McpEvent::table_def()).unwrap();
    let all: HashSet<_> = rows
        .iter()
        .map(|r| keys.key(&r.to_values()).unwrap())
        .collect();
    // Grouped by partition, each batch but the last holds exactly 5 partitions.
    assert_eq!(batches.len(), all.len().div_ceil(5));
    let mut seen = Vec::new();
    for (held, b) in &batches {
        assert_eq!(b.sql().matches("\n  ('evt-").count(), held.len());
        let distinct: HashSet<_> = held
            .iter()
            .map(|&i| keys.key(&rows[i].to_values()).unwrap())
            .collect();
        assert!(distinct.len() <= 5);
        seen.extend(held.iter().copied());
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..rows.len()).collect::<Vec<_>>());
}
