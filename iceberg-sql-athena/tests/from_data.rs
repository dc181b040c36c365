//! Tables from data against the in-process test server: a table defined from an Arrow
//! schema, and Arrow record batches appended with the tokens and digests of the typed
//! append, each row once (the server's ledger).
mod common;

use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, LargeStringArray, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use common::ev::{config, ev_def, keys, rows, server};
use iceberg_sql_athena::{AppendOptions, AthenaExecutor};
use iceberg_sql_test_server::ServerConfig;

fn ev_schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("event_id", DataType::LargeUtf8, false),
        Field::new("n", DataType::Int64, true),
    ]))
}

/// `rows(30)` as two record batches of 18 and 12 rows.
fn ev_batches() -> Vec<RecordBatch> {
    let all = rows(30);
    [&all[..18], &all[18..]]
        .iter()
        .map(|part| {
            RecordBatch::try_new(
                ev_schema(),
                vec![
                    Arc::new(LargeStringArray::from_iter_values(
                        part.iter().map(|r| r.event_id.clone()),
                    )) as ArrayRef,
                    Arc::new(Int64Array::from_iter_values(part.iter().map(|r| r.n))),
                ],
            )
            .unwrap()
        })
        .collect()
}

#[tokio::test]
async fn a_table_from_a_schema_is_created_and_batches_append_each_row_once() {
    let s = server(ServerConfig::new()).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let table = iceberg_sql::arrow::table_builder("analytics", "ev", &ev_schema())
        .unwrap()
        .location("s3://lake/ev/")
        .build()
        .unwrap();
    assert_eq!(table, ev_def("ev"));
    let create = table.create_table().if_not_exists().build().unwrap();
    assert_eq!(
        create.sql(),
        "CREATE TABLE IF NOT EXISTS analytics.ev (\n  event_id string,\n  n bigint\n)\n\
         LOCATION 's3://lake/ev/'\nTBLPROPERTIES (\n  'table_type'='ICEBERG'\n)"
    );

    let options = AppendOptions::new("from-data").max_batch_bytes(120);
    let report = ex
        .append_record_batches(&table, &ev_batches(), options.clone(), |_| {})
        .await
        .unwrap();
    assert!(report.is_complete());
    assert!(report.batches.len() > 2, "{} batches", report.batches.len());
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.duplicates(), vec![]);
    assert_eq!(ledger.missing(&keys(&rows(30))), vec![]);
    assert_eq!(ledger.rows_committed(), 30);

    // A second run with the same load id writes nothing again.
    ex.append_record_batches(&table, &ev_batches(), options, |_| {})
        .await
        .unwrap();
    s.settle();
    assert_eq!(s.ledger().rows_committed(), 30);
    assert_eq!(s.ledger().duplicates(), vec![]);
}

#[tokio::test]
async fn record_batches_append_with_the_typed_appends_tokens_and_digests() {
    let typed_server = server(ServerConfig::new()).await;
    let typed = AthenaExecutor::new(typed_server.client(), config())
        .append_rows(
            &rows(30),
            AppendOptions::new("same").max_batch_bytes(120),
            |_| {},
        )
        .await
        .unwrap();
    let arrow_server = server(ServerConfig::new()).await;
    let arrow = AthenaExecutor::new(arrow_server.client(), config())
        .append_record_batches(
            &ev_def("ev"),
            &ev_batches(),
            AppendOptions::new("same").max_batch_bytes(120),
            |_| {},
        )
        .await
        .unwrap();
    let of = |r: &iceberg_sql_athena::AppendReport| {
        r.batches
            .iter()
            .map(|b| {
                (
                    b.rows.clone(),
                    b.client_request_token.clone(),
                    b.sql_sha256.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(of(&arrow), of(&typed));
}

#[tokio::test]
async fn a_batch_field_the_table_lacks_is_refused_before_anything_runs() {
    let s = server(ServerConfig::new()).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let wider = Arc::new(Schema::new(vec![
        Field::new("event_id", DataType::Utf8, false),
        Field::new("source", DataType::Utf8, true),
    ]));
    let batch = RecordBatch::try_new(
        wider,
        vec![
            Arc::new(arrow_array::StringArray::from(vec!["e-1"])) as ArrayRef,
            Arc::new(arrow_array::StringArray::from(vec!["kafka"])),
        ],
    )
    .unwrap();
    let err = ex
        .append_record_batches(&ev_def("ev"), &[batch], AppendOptions::new("x"), |_| {})
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("the batch has a field `source` that `analytics.ev` lacks"),
        "{err}"
    );
    assert!(s
        .bodies(iceberg_sql_test_server::Op::StartQueryExecution)
        .is_empty());
}

/// A table built from an Arrow schema of every kind of field goes to `ensure_table`: the
/// live definition is asked for, and the `CREATE TABLE` sent is the exact DDL of the
/// schema's Iceberg types.
#[tokio::test]
async fn ensure_table_creates_a_table_built_from_an_arrow_schema() {
    use arrow_schema::{Fields, TimeUnit};
    use iceberg_sql::prelude::*;
    use iceberg_sql_athena::EnsureOptions;
    use iceberg_sql_test_server::{Failure, Plan, ScriptedEngine};
    let schema = Schema::new(vec![
        Field::new("event_id", DataType::Utf8, false),
        Field::new("n", DataType::Int64, true),
        Field::new("ratio", DataType::Float64, true),
        Field::new("amount", DataType::Decimal128(12, 2), true),
        Field::new(
            "ts",
            DataType::Timestamp(TimeUnit::Microsecond, None),
            false,
        ),
        Field::new("day", DataType::Date32, true),
        Field::new("raw", DataType::Binary, true),
        Field::new(
            "tags",
            DataType::List(Arc::new(Field::new("element", DataType::Utf8, true))),
            true,
        ),
        Field::new(
            "attrs",
            DataType::Struct(Fields::from(vec![
                Field::new("key", DataType::Utf8, true),
                Field::new("weight", DataType::Int32, true),
            ])),
            true,
        ),
    ]);
    let table = iceberg_sql::arrow::table_builder("analytics", "wide", &schema)
        .unwrap()
        .partition(PartitionField::new("ts", PartitionTransform::Day))
        .location("s3://lake/wide/")
        .build()
        .unwrap();
    let engine = ScriptedEngine::new().on(
        |sql| sql.starts_with("SHOW CREATE TABLE"),
        |_| {
            Plan::fail(Failure::new(
                2,
                1110,
                false,
                "TABLE_NOT_FOUND: line 1:1: Table 'awsdatacatalog.analytics.wide' does not exist",
            ))
        },
    );
    let s = server(ServerConfig::new().engine(engine)).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let report = ex.ensure_table(&table, EnsureOptions::new()).await.unwrap();
    assert_eq!(report.changes(), 1, "{report}");
    let sent: Vec<String> = s
        .ledger()
        .executions
        .iter()
        .map(|e| e.sql.clone())
        .collect();
    assert_eq!(
        sent,
        [
            "SHOW CREATE TABLE analytics.wide".to_string(),
            "CREATE TABLE IF NOT EXISTS analytics.wide (\n  event_id string,\n  n bigint,\n  \
             ratio double,\n  amount decimal(12,2),\n  ts timestamp,\n  day date,\n  \
             raw binary,\n  tags array<string>,\n  attrs struct<key:string,weight:int>\n)\n\
             PARTITIONED BY (day(ts))\nLOCATION 's3://lake/wide/'\nTBLPROPERTIES (\n  \
             'table_type'='ICEBERG'\n)"
                .to_string(),
        ]
    );
    // And back: the table's Arrow schema is the one it was built from (a list's element
    // named `element`, as Iceberg's Parquet files name it).
    assert_eq!(iceberg_sql::arrow::table_schema(&table), schema);
}
