//! Typed column handles and the expression DSL over them.

mod column;

pub use column::Col;
