//! What a pass over a parsed statement looks at.
//!
//! The allow-list, its `?`-in-WHERE scan and [`inspect`](super::inspect) each implement
//! [`AstPass`]; [`walk`](super::walk) runs them over the tree through `dyn AstPass`, so
//! the walk is compiled once.

use std::ops::ControlFlow;

use sqlparser::ast::{DataType, Expr, Ident, Query, Select, TableFactor, ValueWithSpan};

use crate::error::Error;

/// What a pass looks at, each node before its children; `Break` stops the walk.
pub(in crate::validate) trait AstPass {
    fn ident(&mut self, _ident: &Ident) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }

    fn value(&mut self, _value: &ValueWithSpan) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }

    fn expr(&mut self, _expr: &Expr) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }

    /// A type as written (in a CAST, a typed literal, a column definition); its inner
    /// types come after it.
    fn data_type(&mut self, _data_type: &DataType) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }

    fn query(&mut self, _query: &Query) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }

    fn select(&mut self, _select: &Select) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }

    fn table_factor(&mut self, _table_factor: &TableFactor) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }
}
