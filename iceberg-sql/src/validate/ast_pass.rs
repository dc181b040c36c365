//! One visitor type for every pass over a parsed statement.
//!
//! sqlparser's derived `Visit` impls are generic over the visitor type, so each visitor
//! type compiles its own copy of the code that walks the whole AST (about 300 KB of
//! machine code in a debug build). The allow-list, its `?`-in-WHERE scan and
//! [`inspect`](super::inspect) each need a pass; they implement [`AstPass`] and run
//! through the one [`Visitor`], [`Pass`], so that code is compiled once.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Ident, Query, Select, TableFactor, ValueWithSpan, Visit, Visitor};

use crate::error::Error;

/// What a pass looks at, each node before its children; `Break` stops the walk.
pub(super) trait AstPass {
    fn ident(&mut self, _ident: &Ident) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }

    fn value(&mut self, _value: &ValueWithSpan) -> ControlFlow<Error> {
        ControlFlow::Continue(())
    }

    fn expr(&mut self, _expr: &Expr) -> ControlFlow<Error> {
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

/// Runs `pass` over `node` and everything under it, in text order.
pub(super) fn run<N: Visit + ?Sized>(node: &N, pass: &mut dyn AstPass) -> ControlFlow<Error> {
    node.visit(&mut Pass(pass))
}

/// The one visitor type: forwards to the pass it carries.
struct Pass<'a>(&'a mut dyn AstPass);

impl Visitor for Pass<'_> {
    type Break = Error;

    fn pre_visit_ident(&mut self, ident: &Ident) -> ControlFlow<Error> {
        self.0.ident(ident)
    }

    fn pre_visit_value(&mut self, value: &ValueWithSpan) -> ControlFlow<Error> {
        self.0.value(value)
    }

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<Error> {
        self.0.expr(expr)
    }

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<Error> {
        self.0.query(query)
    }

    fn pre_visit_select(&mut self, select: &Select) -> ControlFlow<Error> {
        self.0.select(select)
    }

    fn pre_visit_table_factor(&mut self, table_factor: &TableFactor) -> ControlFlow<Error> {
        self.0.table_factor(table_factor)
    }
}
