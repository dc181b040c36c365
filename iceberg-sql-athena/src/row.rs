//! Result rows and decoding them into user types.
//!
//! Athena returns every value as text; a SQL NULL is a datum without a value and is
//! kept apart from the empty string: [`Row::get`] gives `Some(None)` for NULL and
//! `Some(Some(""))` for `''`.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::DecodeError;

/// One result column (`ResultSetMetadata.ColumnInfo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnMeta {
    /// Column name.
    pub name: String,
    /// Athena type name (`varchar`, `bigint`, `timestamp`, `array(varchar)`, ...).
    pub type_name: String,
    /// Whether the column may hold NULLs (`None` when Athena does not know).
    pub nullable: Option<bool>,
}

/// The columns of one result, shared by all its rows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Columns {
    columns: Vec<ColumnMeta>,
    names: Vec<String>,
}

impl Columns {
    /// Wraps column metadata.
    pub fn new(columns: Vec<ColumnMeta>) -> Self {
        let names = columns.iter().map(|c| c.name.clone()).collect();
        Columns { columns, names }
    }

    /// The column names in result order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The columns in result order.
    pub fn as_slice(&self) -> &[ColumnMeta] {
        &self.columns
    }

    /// The index of the column called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|c| c == name)
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// Whether there are no columns.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }
}

/// One data row: the result's columns and one optional text cell per column.
///
/// ```
/// use iceberg_sql_athena::{ColumnMeta, Columns, FromRow, Row, DecodeError};
/// use std::sync::Arc;
///
/// let cols = Arc::new(Columns::new(vec![
///     ColumnMeta { name: "tool_name".into(), type_name: "varchar".into(), nullable: None },
///     ColumnMeta { name: "n".into(), type_name: "bigint".into(), nullable: None },
///     ColumnMeta { name: "payload".into(), type_name: "varchar".into(), nullable: None },
/// ]));
/// let row = Row::new(cols, vec![Some("fetch".into()), Some("3".into()), None]);
///
/// struct Count { tool: String, n: i64, payload: Option<String> }
/// impl FromRow for Count {
///     fn from_row(row: &Row) -> Result<Self, DecodeError> {
///         Ok(Count { tool: row.try_get("tool_name")?, n: row.try_get("n")?, payload: row.try_get("payload")? })
///     }
/// }
/// let c = Count::from_row(&row)?;
/// assert_eq!((c.tool.as_str(), c.n, c.payload), ("fetch", 3, None));
/// assert_eq!(row.get("payload"), Some(None));     // NULL
/// assert!(row.try_get::<String>("payload").is_err()); // NULL is not ""
/// # Ok::<(), DecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    columns: Arc<Columns>,
    cells: Vec<Option<String>>,
}

impl Row {
    /// A row of `cells` under `columns`. Missing trailing cells read as NULL.
    pub fn new(columns: Arc<Columns>, cells: Vec<Option<String>>) -> Self {
        Row { columns, cells }
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
        self.columns.index_of(name).map(|i| self.get_at(i))
    }

    /// The cell at `index` (`None` = NULL or out of range).
    pub fn get_at(&self, index: usize) -> Option<&str> {
        self.cells.get(index).and_then(|c| c.as_deref())
    }

    /// This row as the core crate's borrowed [`iceberg_sql::Row`], which
    /// [`iceberg_sql::IcebergTable::from_row`] (the derive) decodes.
    pub fn as_record(&self) -> iceberg_sql::Row<'_> {
        iceberg_sql::Row::new(self.columns.names(), &self.cells)
    }

    /// Decodes column `name` into `T`.
    pub fn try_get<T: FromCell>(&self, name: &str) -> Result<T, DecodeError> {
        let Some(i) = self.columns.index_of(name) else {
            return Err(DecodeError::MissingColumn {
                column: name.to_string(),
            });
        };
        T::from_cell(name, self.get_at(i))
    }

    /// Moves the cell of column `name` out of the row and decodes it into `T` (no copy
    /// for `String` fields; the cell reads as NULL afterwards). For
    /// [`FromRow::from_row_owned`] implementations.
    pub fn take<T: FromCell>(&mut self, name: &str) -> Result<T, DecodeError> {
        let Some(i) = self.columns.index_of(name) else {
            return Err(DecodeError::MissingColumn {
                column: name.to_string(),
            });
        };
        let cell = self.cells.get_mut(i).and_then(Option::take);
        T::from_owned_cell(name, cell)
    }

    /// Decodes the cell at `index` into `T` (`column` names it in errors).
    pub fn try_get_at<T: FromCell>(&self, index: usize, column: &str) -> Result<T, DecodeError> {
        if index >= self.columns.len() && index >= self.cells.len() {
            return Err(DecodeError::MissingColumn {
                column: column.to_string(),
            });
        }
        T::from_cell(column, self.get_at(index))
    }
}

/// Builds a value from one result row. Implement it by hand (see [`Row`]) or derive it.
pub trait FromRow: Sized {
    /// Decodes `row`.
    fn from_row(row: &Row) -> Result<Self, DecodeError>;

    /// Decodes a row the caller no longer needs; the executor's streams call this.
    /// Override it with [`Row::take`] to move strings instead of copying them.
    fn from_row_owned(row: Row) -> Result<Self, DecodeError> {
        Self::from_row(&row)
    }
}

impl FromRow for Row {
    fn from_row(row: &Row) -> Result<Self, DecodeError> {
        Ok(row.clone())
    }
    fn from_row_owned(row: Row) -> Result<Self, DecodeError> {
        Ok(row)
    }
}

impl FromRow for Vec<Option<String>> {
    fn from_row(row: &Row) -> Result<Self, DecodeError> {
        Ok(row.cells.clone())
    }
    fn from_row_owned(row: Row) -> Result<Self, DecodeError> {
        Ok(row.cells)
    }
}

impl FromRow for HashMap<String, Option<String>> {
    fn from_row(row: &Row) -> Result<Self, DecodeError> {
        Ok(row
            .columns
            .as_slice()
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.clone(), row.get_at(i).map(str::to_string)))
            .collect())
    }
}

/// Builds a value from one cell's text (`None` = NULL).
pub trait FromCell: Sized {
    /// Decodes the cell of `column`.
    fn from_cell(column: &str, cell: Option<&str>) -> Result<Self, DecodeError>;

    /// Decodes an owned cell (moves the text where the type can keep it).
    fn from_owned_cell(column: &str, cell: Option<String>) -> Result<Self, DecodeError> {
        Self::from_cell(column, cell.as_deref())
    }
}

fn required<'a>(column: &str, cell: Option<&'a str>) -> Result<&'a str, DecodeError> {
    cell.ok_or_else(|| DecodeError::UnexpectedNull {
        column: column.to_string(),
    })
}

fn parse_error(column: &str, value: &str, expected: &'static str) -> DecodeError {
    let mut end = value.len().min(100);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    DecodeError::Parse {
        column: column.to_string(),
        value: value[..end].to_string(),
        expected,
    }
}

impl<T: FromCell> FromCell for Option<T> {
    fn from_cell(column: &str, cell: Option<&str>) -> Result<Self, DecodeError> {
        match cell {
            None => Ok(None),
            Some(_) => T::from_cell(column, cell).map(Some),
        }
    }
    fn from_owned_cell(column: &str, cell: Option<String>) -> Result<Self, DecodeError> {
        match cell {
            None => Ok(None),
            Some(s) => T::from_owned_cell(column, Some(s)).map(Some),
        }
    }
}

impl FromCell for String {
    fn from_cell(column: &str, cell: Option<&str>) -> Result<Self, DecodeError> {
        required(column, cell).map(str::to_string)
    }
    fn from_owned_cell(column: &str, cell: Option<String>) -> Result<Self, DecodeError> {
        cell.ok_or_else(|| DecodeError::UnexpectedNull {
            column: column.to_string(),
        })
    }
}

impl FromCell for bool {
    fn from_cell(column: &str, cell: Option<&str>) -> Result<Self, DecodeError> {
        let s = required(column, cell)?;
        match s {
            "true" | "TRUE" | "True" => Ok(true),
            "false" | "FALSE" | "False" => Ok(false),
            _ => Err(parse_error(column, s, "bool")),
        }
    }
}

macro_rules! from_cell_parse {
    ($($t:ty),*) => {$(
        impl FromCell for $t {
            fn from_cell(column: &str, cell: Option<&str>) -> Result<Self, DecodeError> {
                let s = required(column, cell)?;
                s.parse::<$t>().map_err(|_| parse_error(column, s, stringify!($t)))
            }
        }
    )*};
}

from_cell_parse!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, f32, f64);
