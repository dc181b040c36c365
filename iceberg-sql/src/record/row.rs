//! Result rows: [`Row`] (owned text cells under shared column metadata) and
//! [`FromRow`], the one trait every result type decodes through.

use std::sync::Arc;

use super::cell::{parse_cell_as, NestedForm};
use super::sql_type::SqlType;
use super::type_name::{athena_column_type, nested_form};
use crate::error::{Error, ErrorKind, Result};
use crate::model::Column;
use crate::types::IcebergType;
use crate::value::Value;

/// One result column, as Athena describes it (`ResultSetMetadata.ColumnInfo`,
/// <https://docs.aws.amazon.com/athena/latest/APIReference/API_ColumnInfo.html>).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ColumnMeta {
    /// Column name.
    pub name: String,
    /// Athena's type name: `varchar`, `bigint`, `decimal` (or `decimal(38,9)`),
    /// `timestamp(6) with time zone`, `array(varchar)`, `json`, ... Empty when unknown.
    pub type_name: String,
    /// Whether the column may hold NULLs (`None` when Athena does not say).
    pub nullable: Option<bool>,
    /// `ColumnInfo.Precision` (a decimal's precision; a varchar's length).
    pub precision: Option<u32>,
    /// `ColumnInfo.Scale` (a decimal's scale).
    pub scale: Option<u32>,
}

impl ColumnMeta {
    /// A column `name` of Athena type `type_name`.
    pub fn new(name: impl Into<String>, type_name: impl Into<String>) -> Self {
        ColumnMeta {
            name: name.into(),
            type_name: type_name.into(),
            nullable: None,
            precision: None,
            scale: None,
        }
    }

    /// With `ColumnInfo.Nullable` (`NULLABLE` = `Some(true)`, `NOT_NULL` = `Some(false)`).
    pub fn with_nullable(mut self, nullable: Option<bool>) -> Self {
        self.nullable = nullable;
        self
    }

    /// With `ColumnInfo.Precision` and `ColumnInfo.Scale`.
    pub fn with_precision_scale(mut self, precision: Option<u32>, scale: Option<u32>) -> Self {
        self.precision = precision;
        self.scale = scale;
        self
    }
}

/// The columns of one result, shared by all its rows (behind an `Arc`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Columns {
    metas: Vec<ColumnMeta>,
    /// Each column's Iceberg type, parsed once from its type name.
    types: Vec<Option<IcebergType>>,
    /// How each column writes nested values, from its type name.
    forms: Vec<NestedForm>,
}

impl Columns {
    /// Columns from their metadata.
    pub fn new(metas: Vec<ColumnMeta>) -> Self {
        let types = metas
            .iter()
            .map(|m| athena_column_type(&m.type_name, m.precision, m.scale))
            .collect();
        let forms = metas.iter().map(|m| nested_form(&m.type_name)).collect();
        Columns {
            metas,
            types,
            forms,
        }
    }

    /// Columns known by name only (cells are decoded by the Rust target's type).
    pub fn untyped<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        Columns::new(
            names
                .into_iter()
                .map(|n| ColumnMeta::new(n, String::new()))
                .collect(),
        )
    }

    /// The columns in result order.
    pub fn as_slice(&self) -> &[ColumnMeta] {
        &self.metas
    }

    /// The column at `index`.
    pub fn get(&self, index: usize) -> Option<&ColumnMeta> {
        self.metas.get(index)
    }

    /// The Iceberg type of the column at `index`, when its type name is one (see
    /// [`ColumnMeta::type_name`]; `json`, `time`, `uuid` and unknown types are not).
    pub fn iceberg_type(&self, index: usize) -> Option<&IcebergType> {
        self.types.get(index).and_then(Option::as_ref)
    }

    /// The column names in result order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.metas.iter().map(|m| m.name.as_str())
    }

    /// The index of the column called `name`: an exact match, else the only match that
    /// ignores ASCII case (Athena lowercases names).
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.metas.iter().position(|m| m.name == name).or_else(|| {
            self.metas
                .iter()
                .position(|m| m.name.eq_ignore_ascii_case(name))
        })
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.metas.len()
    }

    /// Whether there are no columns.
    pub fn is_empty(&self) -> bool {
        self.metas.is_empty()
    }

    pub(crate) fn nested_form(&self, index: usize) -> NestedForm {
        self.forms.get(index).copied().unwrap_or_default()
    }
}

/// One result row: the result's columns (shared) and one text cell per column, as
/// Athena returns them. A NULL is `None`, never `""`.
///
/// ```
/// use std::sync::Arc;
/// use iceberg_sql::record::{ColumnMeta, Columns, FromRow, Row};
///
/// let columns = Arc::new(Columns::new(vec![
///     ColumnMeta::new("tool_name", "varchar"),
///     ColumnMeta::new("n", "bigint"),
///     ColumnMeta::new("payload", "varchar"),
/// ]));
/// let row = Row::new(columns, vec![Some("fetch".into()), Some("3".into()), None]);
///
/// // By name, into any SqlType:
/// assert_eq!(row.try_get::<i64>("n")?, 3);
/// assert_eq!(row.try_get::<Option<String>>("payload")?, None);
/// assert!(row.try_get::<String>("payload").is_err()); // NULL is not ""
/// // By position, into a tuple:
/// let (tool, n, payload) = <(String, i64, Option<String>)>::from_row(&row)?;
/// assert_eq!((tool.as_str(), n, payload), ("fetch", 3, None));
/// // Dynamically, by the column's type:
/// assert_eq!(row.value("n")?, iceberg_sql::Value::Long(3));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    columns: Arc<Columns>,
    cells: Vec<Option<String>>,
}

fn missing_column(name: &str) -> Error {
    Error::new(
        ErrorKind::Decode,
        format!("column `{name}` is not in the result"),
    )
    .with_hint("select it (or read the columns the query returns)")
}

/// Prefixes a decode error with its column: `column `n`: ...` (a nested path such as
/// `[2].lat` joins the column name).
fn at_column(e: Error, name: &str) -> Error {
    let msg = e.message();
    let message = match msg.strip_prefix("at `").and_then(|m| m.split_once("`: ")) {
        Some((path, tail)) => format!("column `{name}{path}`: {tail}"),
        None => format!("column `{name}`: {msg}"),
    };
    let mut out = Error::new(ErrorKind::Decode, message);
    if let Some(h) = e.hint() {
        out = out.with_hint(h.to_string());
    }
    out
}

fn null_into<T: SqlType>(row: &Row, index: usize) -> Result<T> {
    T::from_value(Value::Null).map_err(|e| {
        at_column(e, &row.column_name(index))
            .with_hint("a NULL is never read as \"\" or 0: decode it into an Option")
    })
}

impl Row {
    /// A row of `cells` under `columns`. Missing trailing cells read as NULL.
    pub fn new(columns: Arc<Columns>, cells: Vec<Option<String>>) -> Self {
        Row { columns, cells }
    }

    /// A row of `cells` under untyped column `names` ([`Columns::untyped`]); handy in
    /// tests.
    pub fn untyped<S: Into<String>>(
        names: impl IntoIterator<Item = S>,
        cells: Vec<Option<String>>,
    ) -> Self {
        Row::new(Arc::new(Columns::untyped(names)), cells)
    }

    /// The result's columns.
    pub fn columns(&self) -> &Columns {
        &self.columns
    }

    /// The shared column list (cheap to clone).
    pub fn columns_arc(&self) -> &Arc<Columns> {
        &self.columns
    }

    /// The cells in column order (`None` = NULL).
    pub fn cells(&self) -> &[Option<String>] {
        &self.cells
    }

    /// The cells, consuming the row.
    pub fn into_cells(self) -> Vec<Option<String>> {
        self.cells
    }

    /// The cell of column `name`: `None` if there is no such column, `Some(None)` for
    /// NULL, `Some(Some(text))` otherwise.
    pub fn get(&self, name: &str) -> Option<Option<&str>> {
        self.columns.index_of(name).and_then(|i| self.get_at(i))
    }

    /// The cell at `index`: `None` past the last column, `Some(None)` for NULL.
    pub fn get_at(&self, index: usize) -> Option<Option<&str>> {
        (index < self.columns.len().max(self.cells.len()))
            .then(|| self.cells.get(index).and_then(|c| c.as_deref()))
    }

    fn index(&self, name: &str) -> Result<usize> {
        self.columns
            .index_of(name)
            .ok_or_else(|| missing_column(name))
    }

    fn column_name(&self, index: usize) -> String {
        self.columns
            .get(index)
            .map_or_else(|| format!("#{index}"), |m| m.name.clone())
    }

    fn check_index(&self, index: usize) -> Result<()> {
        if self.get_at(index).is_some() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::Decode,
                format!(
                    "column #{index} is not in the result, which has {} columns",
                    self.columns.len()
                ),
            ))
        }
    }

    /// Decodes column `name` into `T`, reading the text as `T`'s Iceberg type; errors
    /// name the column.
    pub fn try_get<T: SqlType>(&self, name: &str) -> Result<T> {
        let i = self.index(name)?;
        self.decode_at(i, &T::iceberg_type())
    }

    /// Decodes the cell at `index` into `T`.
    pub fn try_get_at<T: SqlType>(&self, index: usize) -> Result<T> {
        self.check_index(index)?;
        self.decode_at(index, &T::iceberg_type())
    }

    /// Moves the cell of column `name` out and decodes it (no copy for `String`); the
    /// cell reads as NULL afterwards. For [`FromRow::from_row_owned`].
    pub fn take<T: SqlType>(&mut self, name: &str) -> Result<T> {
        let i = self.index(name)?;
        self.take_decode_at(i, &T::iceberg_type())
    }

    /// [`take`](Self::take) by position.
    pub fn take_at<T: SqlType>(&mut self, index: usize) -> Result<T> {
        self.check_index(index)?;
        self.take_decode_at(index, &T::iceberg_type())
    }

    /// The value of column `name`, decoded by the column's own type (dynamic
    /// reading). A column whose type is not an Iceberg type (`json`, `time`, `uuid`, or
    /// no type at all) reads as its text.
    pub fn value(&self, name: &str) -> Result<Value> {
        let i = self.index(name)?;
        self.value_at(i)
    }

    /// [`value`](Self::value) by position.
    pub fn value_at(&self, index: usize) -> Result<Value> {
        self.check_index(index)?;
        let ty = self
            .columns
            .iceberg_type(index)
            .cloned()
            .unwrap_or(IcebergType::String);
        match self.get_at(index).flatten() {
            None => Ok(Value::Null),
            Some(text) => parse_cell_as(text, &ty, self.columns.nested_form(index))
                .map_err(|e| at_column(e, &self.column_name(index))),
        }
    }

    /// Every value of the row, decoded by the columns' types ([`value`](Self::value)).
    pub fn values(&self) -> Result<Vec<Value>> {
        (0..self.columns.len()).map(|i| self.value_at(i)).collect()
    }

    /// Decodes the cell at `index` as Iceberg type `ty` into `T`.
    pub(crate) fn decode_at<T: SqlType>(&self, index: usize, ty: &IcebergType) -> Result<T> {
        match self.get_at(index).flatten() {
            None => null_into(self, index),
            Some(text) => T::from_cell(text, ty, self.columns.nested_form(index))
                .map_err(|e| at_column(e, &self.column_name(index))),
        }
    }

    fn take_decode_at<T: SqlType>(&mut self, index: usize, ty: &IcebergType) -> Result<T> {
        match self.cells.get_mut(index).and_then(Option::take) {
            None => null_into(self, index),
            Some(text) => T::from_owned_cell(text, ty, self.columns.nested_form(index))
                .map_err(|e| at_column(e, &self.column_name(index))),
        }
    }
}

/// Decodes the cell of `column` (by its name) as the column's declared type into `T`:
/// what a table record's decoder does. Every error names the column.
pub fn decode_column<T: SqlType>(row: &Row, column: &Column) -> Result<T> {
    let i = row.index(&column.name)?;
    row.decode_at(i, &column.ty)
}

/// [`decode_column`], moving the cell out of the row.
pub fn take_column<T: SqlType>(row: &mut Row, column: &Column) -> Result<T> {
    let i = row.index(&column.name)?;
    row.take_decode_at(i, &column.ty)
}

/// A value built from one result row: the one decoding trait of the crate.
///
/// Implemented by `#[derive(IcebergTable)]` (table records, by column name and the
/// table's declared types), `#[derive(FromRow)]` (projection structs for any SELECT, by
/// field name), tuples (by position: the result must have exactly as many columns),
/// [`Row`] itself, the metadata-table rows ([`crate::query::metadata`]) and, with the
/// `serde` feature, any `serde::Deserialize` type through
/// `record::serde::Serde`.
///
/// ```
/// use iceberg_sql::record::{FromRow, Row};
///
/// struct Count { tool: String, n: i64 }
/// impl FromRow for Count {
///     fn from_row(row: &Row) -> iceberg_sql::Result<Self> {
///         Ok(Count { tool: row.try_get("tool_name")?, n: row.try_get("n")? })
///     }
/// }
/// let row = Row::untyped(["tool_name", "n"], vec![Some("fetch".into()), Some("3".into())]);
/// let c = Count::from_row(&row)?;
/// assert_eq!((c.tool.as_str(), c.n), ("fetch", 3));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub trait FromRow: Sized {
    /// Decodes `row`; errors name the column.
    fn from_row(row: &Row) -> Result<Self>;

    /// Decodes a row the caller no longer needs (moves strings instead of copying
    /// them where the implementation uses [`Row::take`]).
    fn from_row_owned(row: Row) -> Result<Self> {
        Self::from_row(&row)
    }

    /// The columns this type reads by name, with the Iceberg types it reads them as,
    /// when it reads by name (derived types, metadata rows): lets a caller check a
    /// SELECT's columns before running it. `None` for positional and dynamic types.
    fn expected_columns() -> Option<Vec<Column>> {
        None
    }
}

impl FromRow for Row {
    fn from_row(row: &Row) -> Result<Self> {
        Ok(row.clone())
    }
    fn from_row_owned(row: Row) -> Result<Self> {
        Ok(row)
    }
}

pub(crate) fn check_arity(row: &Row, n: usize) -> Result<()> {
    let have = row.columns.len().max(row.cells.len());
    if have == n {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::Decode,
            format!("the result has {have} columns; a tuple of {n} reads exactly {n}, by position"),
        )
        .with_hint("select exactly the tuple's columns, or decode into a struct by name"))
    }
}

macro_rules! tuple_from_row {
    ($($n:literal => ($($t:ident $i:tt),+);)+) => {$(
        /// By position; the result must have exactly this many columns.
        impl<$($t: SqlType),+> FromRow for ($($t,)+) {
            fn from_row(row: &Row) -> Result<Self> {
                check_arity(row, $n)?;
                Ok(($(row.try_get_at::<$t>($i)?,)+))
            }
            fn from_row_owned(mut row: Row) -> Result<Self> {
                check_arity(&row, $n)?;
                Ok(($(row.take_at::<$t>($i)?,)+))
            }
        }
    )+};
}

tuple_from_row! {
    1 => (A 0);
    2 => (A 0, B 1);
    3 => (A 0, B 1, C 2);
    4 => (A 0, B 1, C 2, D 3);
    5 => (A 0, B 1, C 2, D 3, E 4);
    6 => (A 0, B 1, C 2, D 3, E 4, F 5);
    7 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6);
    8 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
    9 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
    10 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
    11 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
    12 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);
}
