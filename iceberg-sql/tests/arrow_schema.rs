//! Feature `arrow`: table columns from Arrow schemas (every type of the mapping both
//! ways, the large variants, nullability, field ids, and every refusal with its path
//! and cast).
#![cfg(feature = "arrow")]

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, LargeListArray, LargeStringArray, RecordBatch};
use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit, UnionFields, UnionMode};
use iceberg_sql::arrow::{
    batch_to_values, column, columns, data_type, iceberg_type, table_builder, table_schema,
    FIELD_ID_KEY,
};
use iceberg_sql::{Column, ErrorKind, IcebergType as T, Value};

fn every_type() -> Vec<T> {
    vec![
        T::Boolean,
        T::Int,
        T::Long,
        T::Float,
        T::Double,
        T::decimal(38, 9),
        T::decimal(1, 0),
        T::Date,
        T::Timestamp,
        T::TimestampTz,
        T::String,
        T::Binary,
        T::list(T::Long),
        T::map(T::String, T::list(T::Double)),
        T::structure([("a", T::Int), ("b", T::structure([("c", T::String)]))]),
    ]
}

#[test]
fn every_iceberg_type_comes_back_from_its_arrow_type() {
    for ty in every_type() {
        let f = Field::new("c", data_type(&ty), true);
        assert_eq!(iceberg_type(&f, "c").unwrap(), ty, "{}", ty.iceberg_name());
    }
}

#[test]
fn arrow_primitives_map_to_the_iceberg_types() {
    let cases = [
        (DataType::Boolean, T::Boolean),
        (DataType::Int32, T::Int),
        (DataType::Int64, T::Long),
        (DataType::Float32, T::Float),
        (DataType::Float64, T::Double),
        (DataType::Decimal128(10, 2), T::decimal(10, 2)),
        (DataType::Date32, T::Date),
        (
            DataType::Timestamp(TimeUnit::Microsecond, None),
            T::Timestamp,
        ),
        (
            DataType::Timestamp(TimeUnit::Microsecond, Some("Europe/Paris".into())),
            T::TimestampTz,
        ),
        (DataType::Utf8, T::String),
        (DataType::LargeUtf8, T::String),
        (DataType::Binary, T::Binary),
        (DataType::LargeBinary, T::Binary),
        (
            DataType::LargeList(Arc::new(Field::new("item", DataType::Int32, false))),
            T::list(T::Int),
        ),
    ];
    for (dt, want) in cases {
        let f = Field::new("c", dt.clone(), true);
        assert_eq!(iceberg_type(&f, "c").unwrap(), want, "{dt}");
    }
}

#[test]
fn a_schema_becomes_a_table_and_back() {
    let table_columns = vec![
        Column::new("id", T::Long).required(),
        Column::new("name", T::String),
        Column::new("amount", T::decimal(12, 2)),
        Column::new("at", T::Timestamp).required(),
        Column::new("attrs", T::map(T::String, T::String)),
        Column::new(
            "loc",
            T::structure([("lat", T::Double), ("tags", T::list(T::String))]),
        ),
    ];
    let schema = iceberg_sql::arrow::schema(&table_columns);
    let table = table_builder("analytics", "events", &schema)
        .unwrap()
        .location("s3://lake/events/")
        .build()
        .unwrap();
    assert_eq!(table.columns(), table_columns.as_slice());
    assert_eq!(table_schema(&table), schema);
}

#[test]
fn nullability_is_the_fields_at_the_top_and_nullable_below() {
    let inner = Fields::from(vec![Field::new("x", DataType::Int32, false)]);
    let c = column(&Field::new("s", DataType::Struct(inner), false)).unwrap();
    assert!(!c.nullable);
    assert_eq!(c.ty, T::structure([("x", T::Int)]));
    assert!(
        column(&Field::new("n", DataType::Int32, true))
            .unwrap()
            .nullable
    );
}

#[test]
fn field_ids_must_be_integers_and_distinct() {
    let with_id = |name: &str, id: &str| {
        Field::new(name, DataType::Int64, true)
            .with_metadata(HashMap::from([(FIELD_ID_KEY.to_string(), id.to_string())]))
    };
    assert!(columns(&Schema::new(vec![with_id("a", "1"), with_id("b", "2")])).is_ok());
    let err = columns(&Schema::new(vec![with_id("a", "1"), with_id("b", "1")])).unwrap_err();
    assert_eq!(err.message(), "fields `a` and `b` have the same field id 1");
    let err = columns(&Schema::new(vec![with_id("a", "x")])).unwrap_err();
    assert!(
        err.message()
            .starts_with("field `a`: PARQUET:field_id `x` is not an integer"),
        "{err}"
    );
}

#[test]
fn unsupported_types_are_refused_with_their_path_and_cast() {
    let uuid =
        Field::new("u", DataType::FixedSizeBinary(16), true).with_metadata(HashMap::from([(
            "ARROW:extension:name".to_string(),
            "arrow.uuid".to_string(),
        )]));
    let union = DataType::Union(UnionFields::empty(), UnionMode::Dense);
    let cases: Vec<(Field, &str, &str)> = vec![
        (
            Field::new("n", DataType::UInt64, true),
            "field `n`: UInt64",
            "Int64",
        ),
        (
            Field::new("n", DataType::UInt32, true),
            "field `n`: UInt32",
            "Int64",
        ),
        (
            Field::new("n", DataType::Int16, true),
            "field `n`: Int16",
            "Int32",
        ),
        (
            Field::new("n", DataType::Float16, true),
            "field `n`: Float16",
            "Float32",
        ),
        (
            Field::new("d", DataType::Date64, true),
            "field `d`: Date64",
            "Date32",
        ),
        (
            Field::new("ts", DataType::Timestamp(TimeUnit::Nanosecond, None), true),
            "field `ts`: Timestamp(ns) is Iceberg v3's timestamp_ns",
            "Timestamp(Microsecond, None)",
        ),
        (
            Field::new(
                "ts",
                DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
                true,
            ),
            "field `ts`: Timestamp(ms, \"UTC\") is not microseconds",
            "Timestamp(Microsecond, Some(\"UTC\"))",
        ),
        (
            Field::new("t", DataType::Time64(TimeUnit::Microsecond), true),
            "field `t`: Time64(µs) is a time of day (Iceberg's time), which Athena DDL cannot declare",
            "Int64 (microseconds since midnight) or Utf8",
        ),
        (
            Field::new("t", DataType::Time64(TimeUnit::Nanosecond), true),
            "field `t`: Time64(ns) is a time of day (Iceberg's time)",
            "Int64 (microseconds since midnight) or Utf8",
        ),
        (
            Field::new("t", DataType::Time32(TimeUnit::Millisecond), true),
            "field `t`: Time32(ms) is a time of day (Iceberg's time)",
            "Int64 (microseconds since midnight) or Utf8",
        ),
        (
            uuid,
            "field `u`: FixedSizeBinary(16) tagged arrow.uuid is Iceberg's uuid",
            "Utf8",
        ),
        (
            Field::new("f", DataType::FixedSizeBinary(16), true),
            "field `f`: FixedSizeBinary(16) is Iceberg's fixed(16)",
            "Binary",
        ),
        (
            Field::new_dictionary("k", DataType::Int32, DataType::Utf8, true),
            "field `k`: a dictionary-encoded column",
            "Utf8",
        ),
        (
            Field::new("v", union, true),
            "field `v`: Union",
            "cast the column",
        ),
        (
            Field::new(
                "s",
                DataType::Struct(Fields::from(vec![Field::new(
                    "tags",
                    DataType::new_list(DataType::UInt64, true),
                    true,
                )])),
                true,
            ),
            "field `s.tags[]`: UInt64",
            "Int64",
        ),
    ];
    for (f, message, cast) in cases {
        let err = column(&f).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidType);
        assert!(err.message().starts_with(message), "{err}");
        assert!(err.hint().unwrap_or_default().contains(cast), "{err}");
    }
}

#[test]
fn every_refused_field_of_a_schema_is_listed() {
    let schema = Schema::new(vec![
        Field::new("ok", DataType::Int32, true),
        Field::new("a", DataType::UInt64, true),
        Field::new("b", DataType::Timestamp(TimeUnit::Nanosecond, None), true),
    ]);
    let err = columns(&schema).unwrap_err();
    assert!(err.message().starts_with("field `a`: UInt64"), "{err}");
    assert!(
        err.others()[0]
            .message()
            .starts_with("field `b`: Timestamp(ns)"),
        "{err}"
    );
    assert_eq!(err.others().len(), 1);
}

#[test]
fn large_arrays_read_as_their_iceberg_values() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("s", DataType::LargeUtf8, true),
        Field::new(
            "l",
            DataType::LargeList(Arc::new(Field::new("item", DataType::LargeUtf8, true))),
            true,
        ),
    ]));
    let list = LargeListArray::new(
        Arc::new(Field::new("item", DataType::LargeUtf8, true)),
        arrow_buffer::OffsetBuffer::new(vec![0i64, 2, 2].into()),
        Arc::new(LargeStringArray::from(vec![Some("x"), None])),
        Some(vec![true, false].into()),
    );
    let batch = RecordBatch::try_new(
        schema,
        vec![
            Arc::new(LargeStringArray::from(vec![Some("a"), None])) as ArrayRef,
            Arc::new(list),
        ],
    )
    .unwrap();
    assert_eq!(
        batch_to_values(&batch).unwrap(),
        vec![
            vec![
                Value::String("a".into()),
                Value::List(vec!["x".into(), Value::Null])
            ],
            vec![Value::Null, Value::Null],
        ]
    );
}

fn live() -> iceberg_sql::TableDef {
    iceberg_sql::TableDef::builder("analytics", "events")
        .column(Column::new("id", T::Long).required())
        .column(Column::new("n", T::Int))
        .column(Column::new("ratio", T::Float))
        .column(Column::new("amount", T::decimal(10, 2)))
        .column(Column::new("note", T::String))
        .location("s3://lake/events/")
        .build()
        .unwrap()
}

fn plan_sql(fields: Vec<Field>) -> iceberg_sql::Result<Vec<String>> {
    let plan = iceberg_sql::evolve::evolve_from_schema(
        &live(),
        &Schema::new(fields),
        iceberg_sql::Dialect::Athena,
    )?;
    Ok(plan.statements().map(|s| s.sql().to_string()).collect())
}

fn same_fields() -> Vec<Field> {
    iceberg_sql::arrow::table_schema(&live())
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect()
}

#[test]
fn the_same_schema_plans_nothing_and_a_missing_nullable_field_is_kept() {
    assert!(plan_sql(same_fields()).unwrap().is_empty());
    let fewer: Vec<Field> = same_fields().into_iter().take(1).collect();
    assert!(plan_sql(fewer).unwrap().is_empty());
}

#[test]
fn new_fields_become_one_add_columns() {
    let mut fields = same_fields();
    fields.push(Field::new("source", DataType::Utf8, false));
    fields.push(Field::new(
        "tags",
        DataType::new_list(DataType::Utf8, true),
        true,
    ));
    assert_eq!(
        plan_sql(fields).unwrap(),
        ["ALTER TABLE analytics.events ADD COLUMNS (source string, tags array<string>)"]
    );
}

#[test]
fn legal_widenings_become_type_changes() {
    let fields = vec![
        Field::new("id", DataType::Int64, false),
        Field::new("n", DataType::Int64, true),
        Field::new("ratio", DataType::Float64, true),
        Field::new("amount", DataType::Decimal128(14, 2), true),
    ];
    assert_eq!(
        plan_sql(fields).unwrap(),
        [
            "ALTER TABLE analytics.events CHANGE COLUMN n n bigint",
            "ALTER TABLE analytics.events CHANGE COLUMN ratio ratio double",
            "ALTER TABLE analytics.events CHANGE COLUMN amount amount decimal(14,2)",
        ]
    );
}

#[test]
fn narrowing_other_type_changes_and_a_dropped_required_field_are_refused() {
    let err = plan_sql(vec![
        Field::new("id", DataType::Int32, false),
        Field::new("note", DataType::Int64, true),
        Field::new("amount", DataType::Decimal128(10, 3), true),
    ])
    .unwrap_err();
    let all: Vec<String> = std::iter::once(&err)
        .chain(err.others())
        .map(|e| e.message().to_string())
        .collect();
    assert_eq!(all.len(), 3, "{all:#?}");
    assert!(
        all.iter()
            .any(|m| m.contains("`id`") && m.contains("long") && m.contains("int")),
        "{all:#?}"
    );
    assert!(all.iter().any(|m| m.contains("`note`")), "{all:#?}");
    assert!(all.iter().any(|m| m.contains("`amount`")), "{all:#?}");
    assert!(err.hint().is_some(), "{err}");

    let err = plan_sql(vec![Field::new("n", DataType::Int32, true)]).unwrap_err();
    assert_eq!(
        err.message(),
        "column `id` of `analytics.events` is required, and the incoming records have no field `id`"
    );
    assert_eq!(
        err.hint(),
        Some("add the field `id` to the records, or make the column nullable")
    );
}

#[test]
fn batch_rows_follow_the_table_order_with_null_for_a_missing_nullable_column() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("note", DataType::LargeUtf8, true),
        Field::new("id", DataType::Int64, false),
    ]));
    let batch = RecordBatch::try_new(
        schema,
        vec![
            Arc::new(LargeStringArray::from(vec![Some("x")])) as ArrayRef,
            Arc::new(arrow_array::Int64Array::from(vec![7])),
        ],
    )
    .unwrap();
    assert_eq!(
        iceberg_sql::arrow::table_rows(&batch, &live()).unwrap(),
        vec![vec![
            Value::Long(7),
            Value::Null,
            Value::Null,
            Value::Null,
            "x".into()
        ]]
    );
    let extra = RecordBatch::try_new(
        Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("new_field", DataType::Int64, true),
        ])),
        vec![
            Arc::new(arrow_array::Int64Array::from(vec![1])) as ArrayRef,
            Arc::new(arrow_array::Int64Array::from(vec![2])),
        ],
    )
    .unwrap();
    let err = iceberg_sql::arrow::table_rows(&extra, &live()).unwrap_err();
    assert_eq!(
        err.message(),
        "the batch has a field `new_field` that `analytics.events` lacks"
    );
}
