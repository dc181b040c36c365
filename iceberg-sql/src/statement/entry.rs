//! [`TableStatements`]: the statements of a table, started from its Rust type.

use crate::dml::{Delete, Insert, InsertSelect, Merge, MergeSource, Update};
use crate::model::TableName;
use crate::query::{MetadataRow, Select};
use crate::record::IcebergTable;

/// Statements on the table itself start from its [`TableDef`](crate::TableDef)
/// (`create_table()`, `alter()`, `optimize()`, `vacuum()`) or, where only the name
/// matters, its [`TableName`] (`drop_table()`, `show_create_table()`,
/// `metadata::<SnapshotRow>()`).
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use std::sync::OnceLock;
/// # struct Ev;
/// # impl Ev { const ID: Col<Ev, i64> = Col::new("id"); }
/// # impl IcebergTable for Ev {
/// #     fn table_def() -> &'static TableDef {
/// #         static DEF: OnceLock<TableDef> = OnceLock::new();
/// #         DEF.get_or_init(|| TableDef::builder("analytics", "ev")
/// #             .column(Column::new("id", IcebergType::Long)).build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { unimplemented!() }
/// # }
/// assert_eq!(Ev::delete().filter(Ev::ID.eq(7)).build()?.sql(),
///            "DELETE FROM analytics.ev\nWHERE id = 7");
/// assert_eq!(Ev::select().column(Ev::ID).limit(1).build()?.sql(),
///            "SELECT id FROM analytics.ev LIMIT 1");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub trait TableStatements: IcebergTable {
    /// `INSERT INTO ... VALUES` for `rows` (see [`Insert`]).
    fn insert(rows: &[Self]) -> Insert<'_, Self> {
        Insert::new(rows)
    }

    /// `INSERT INTO ... SELECT ... FROM from`, copying rows of a table with the same
    /// columns (see [`InsertSelect`]).
    fn insert_from(from: &TableName) -> InsertSelect<Self> {
        InsertSelect::new(from)
    }

    /// `UPDATE ... SET ... WHERE` (see [`Update`]).
    fn update() -> Update<Self> {
        Update::new()
    }

    /// `DELETE FROM ... WHERE` (see [`Delete`]).
    fn delete() -> Delete<Self> {
        Delete::new()
    }

    /// `MERGE INTO ... USING source` (see [`Merge`]).
    fn merge_from(source: MergeSource<'_, Self>) -> Merge<'_, Self> {
        Merge::new(source)
    }

    /// `SELECT ... FROM` this table (see [`Select`]).
    fn select() -> Select<Self> {
        Select::table()
    }

    /// `SELECT ... FROM` metadata table `R::TABLE` of this table, as
    /// [`TableName::metadata`](crate::TableName::metadata) does, checked against the
    /// table's definition: a row type that names a column the metadata table lacks for
    /// this table (`PartitionRow`'s `partition` of an unpartitioned table) is refused
    /// when built.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::query::PartitionRow;
    /// # #[derive(Debug)] struct Plain;
    /// # impl IcebergTable for Plain {
    /// #     fn table_def() -> &'static TableDef {
    /// #         static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
    /// #         T.get_or_init(|| TableDef::builder("analytics", "plain")
    /// #             .column(Column::new("tool_name", IcebergType::String))
    /// #             .location("s3://my-datalake/iceberg/plain/").build().unwrap())
    /// #     }
    /// #     fn to_values(&self) -> Vec<Value> { vec![] }
    /// # }
    /// // `Plain` is unpartitioned: its `$partitions` has no `partition` column.
    /// let err = Plain::metadata::<PartitionRow>().build().unwrap_err();
    /// assert!(err.message().contains("unpartitioned"));
    /// let counts = Plain::metadata::<PartitionRow>()
    ///     .column(PartitionRow::RECORD_COUNT)
    ///     .column(PartitionRow::FILE_COUNT);
    /// assert_eq!(counts.build()?.sql(),
    ///     "SELECT record_count, file_count FROM \"analytics\".\"plain$partitions\"");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    fn metadata<R: MetadataRow>() -> Select<R> {
        Select::metadata_of(Self::table_def())
    }
}

impl<T: IcebergTable> TableStatements for T {}
