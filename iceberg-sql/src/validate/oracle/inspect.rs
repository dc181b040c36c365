//! [`inspect_oracle`]: what the oracle's pipeline reads from a statement (sqlparser's
//! tree with the oracle dialects' hooks and refusals, read by its walk); the tests hold
//! [`crate::validate::inspect`] to it.

use std::ops::ControlFlow;

use sqlparser::ast::{Ident, Value, ValueWithSpan};

use super::ast_pass::AstPass;
use super::walk;
use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::statement::StatementKind;
use crate::validate::{Inspection, Name};

/// [`crate::validate::inspect`] through the oracle's pipeline: sqlparser's tree with the
/// oracle dialects' hooks and refusals, read by its walk.
pub(crate) fn inspect_oracle(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
) -> Result<Inspection> {
    super::with_parsed(sql, kind, dialect, |stmt| {
        let mut collect = Collect::default();
        match walk::statement(stmt, sql, &mut collect) {
            ControlFlow::Continue(()) => Ok(collect.0),
            // Syntax none of our targets writes: there is nothing to read back.
            ControlFlow::Break(e) => Err(e),
        }
    })?
}

#[derive(Default)]
struct Collect(Inspection);

impl AstPass for Collect {
    fn value(&mut self, value: &ValueWithSpan) -> ControlFlow<Error> {
        if let Value::SingleQuotedString(s) | Value::UnicodeStringLiteral(s) = &value.value {
            self.0.strings.push(s.clone());
        }
        ControlFlow::Continue(())
    }

    fn ident(&mut self, ident: &Ident) -> ControlFlow<Error> {
        self.0.names.push(Name {
            value: ident.value.clone(),
            quote: ident.quote_style,
        });
        ControlFlow::Continue(())
    }
}
