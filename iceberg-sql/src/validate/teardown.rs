//! Dropping parsed statements without deep recursion.
//!
//! sqlparser builds `a OR b OR c …` as a left-deep chain of `Expr::BinaryOp` without
//! touching its recursion counter, so a long chain (tens of thousands of terms fit in
//! 256 KiB) makes a tree tens of thousands of levels deep. Such text is parsed and
//! checked on the big stack (see `on_big_stack`); the compiler's drop glue recurses once
//! per level as well, so [`teardown`] detaches every operator chain and frees it
//! iteratively.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Statement, Value, VisitMut, VisitorMut};

/// Moves every `BinaryOp` out of the tree into a work list, leaving `NULL` behind.
struct Detach(Vec<Expr>);

impl VisitorMut for Detach {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if matches!(e, Expr::BinaryOp { .. }) {
            self.0.push(std::mem::replace(e, null()));
        }
        ControlFlow::Continue(())
    }
}

fn null() -> Expr {
    Expr::Value(Value::Null.with_empty_span())
}

/// Drops `stmt` with bounded stack use, however long its operator chains are.
pub(super) fn teardown(mut stmt: Statement) {
    let mut work = Detach(Vec::new());
    let _ = stmt.visit(&mut work);
    drop(stmt);
    while let Some(mut e) = work.0.pop() {
        if let Expr::BinaryOp { left, right, .. } = &mut e {
            for side in [left, right] {
                let mut child = std::mem::replace(side.as_mut(), null());
                // Detaches `child` itself (if it is an operator) and any chain inside it.
                let _ = child.visit(&mut work);
                drop(child);
            }
        }
        drop(e);
    }
}
