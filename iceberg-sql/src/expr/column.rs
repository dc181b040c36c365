//! [`Col`]: a typed handle on one column of one table.

use std::fmt;
use std::marker::PhantomData;

/// A column of table `T` holding Rust values of type `V`.
///
/// The derive emits one per field (`McpEvent::LATENCY_MS: Col<McpEvent, i64>`), so a
/// comparison with a value of the wrong type, or a column of another table, does not
/// compile. Its SQL methods (`eq`, `lt`, `is_in`, …) are those of
/// [`ExpressionMethods`](super::ExpressionMethods), in the prelude. (It has no
/// `PartialEq`, so `col.eq(value)` can only mean the SQL comparison.)
pub struct Col<T, V> {
    name: &'static str,
    _marker: PhantomData<fn() -> (T, V)>,
}

impl<T, V> Col<T, V> {
    /// The handle for column `name` (as stored in the table).
    pub const fn new(name: &'static str) -> Self {
        Col {
            name,
            _marker: PhantomData,
        }
    }

    /// The column's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<T, V> Clone for Col<T, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, V> Copy for Col<T, V> {}

impl<T, V> fmt::Debug for Col<T, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Col({})", self.name)
    }
}
