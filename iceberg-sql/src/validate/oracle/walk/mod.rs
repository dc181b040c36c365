//! Our own walk over a parsed statement: an allow-list of the AST shapes the SQL of our
//! targets (Athena's Hive DDL and Trino DML, Trino, Spark SQL) can contain.
//!
//! The walk calls the [`AstPass`] hooks on each node before its children, fields in
//! declaration order (the order sqlparser's derived `Visit` used; names and literals
//! come out in text order). Every enum it meets is matched with all its variants, so a
//! sqlparser upgrade that adds one fails to compile here until someone decides about
//! it; a variant none of our targets writes (other engines' syntax) is refused with
//! [`ErrorKind::DisallowedSyntax`] at the node. Structs are destructured with every
//! field named: each is walked, or refused when set, or skipped with the reason.
//!
//! The walk is dialect-neutral: what one target accepts and another does not is
//! decided by the passes (the `Checker` in `allow.rs`), which see each node before the
//! walk looks inside it, so their more precise refusals come first.
//!
//! * [`statement`]: the statement kinds we render (`statement.rs`);
//! * queries, table expressions, joins (`query.rs`);
//! * expressions, functions, types (`expr.rs`).

mod expr;
mod query;
mod statement;

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, Ident, ObjectName, ObjectNamePart, OptimizerHint, Statement, ValueWithSpan,
};
use sqlparser::tokenizer::Span;

use super::ast_pass::AstPass;
use super::to_location;
use crate::error::{Error, ErrorKind};
use crate::validate::located;

/// What every walk step returns: `Break` carries the first refusal, boxed so that the
/// walk's stack frames stay small (operator chains make the tree as deep as the chain
/// is long; see `expr.rs`).
type Flow = ControlFlow<Box<Error>>;

/// Runs `pass` over `stmt` and everything under it; `sql` is the statement's text (for
/// the position of a refusal).
pub(in crate::validate) fn statement(
    stmt: &Statement,
    sql: &str,
    pass: &mut dyn AstPass,
) -> ControlFlow<Error> {
    unbox(Walk { pass, sql }.statement(stmt))
}

/// Runs `pass` over `expr` and everything under it.
pub(in crate::validate) fn expr(
    expr: &Expr,
    sql: &str,
    pass: &mut dyn AstPass,
) -> ControlFlow<Error> {
    unbox(Walk { pass, sql }.expr(expr))
}

fn unbox(flow: Flow) -> ControlFlow<Error> {
    match flow {
        ControlFlow::Continue(()) => ControlFlow::Continue(()),
        ControlFlow::Break(e) => ControlFlow::Break(*e),
    }
}

/// A pass hook's answer as a walk step.
fn lift(flow: ControlFlow<Error>) -> Flow {
    match flow {
        ControlFlow::Continue(()) => ControlFlow::Continue(()),
        ControlFlow::Break(e) => ControlFlow::Break(Box::new(e)),
    }
}

/// Where a refusal points: a span, or a closure computing it (`Spanned::span` walks
/// the node's children, so it is computed only for a refusal).
trait At {
    fn span(self) -> Span;
}

impl At for Span {
    fn span(self) -> Span {
        self
    }
}

impl<F: FnOnce() -> Span> At for F {
    fn span(self) -> Span {
        self()
    }
}

/// The way out of a statement-level form of another engine: the statements this crate
/// supports each have a builder that writes every target's form.
const BUILDER_WAY_OUT: &str =
    "build the statement with the crate's builder for its kind, which writes each target's form";

/// One walk: the pass it feeds and the text it reports refusals against.
struct Walk<'a> {
    pass: &'a mut dyn AstPass,
    sql: &'a str,
}

impl Walk<'_> {
    /// The walk's own refusal: `found` (what the text has, e.g. "a `LATERAL` table
    /// function") is syntax of other engines, none of our targets writes it; `fix` is the
    /// way out in the targets' SQL (e.g. "write `CAST(x AS type)`"). `found` comes first:
    /// callers match refusals by the message's first words.
    fn refuse<T>(&self, found: &str, fix: &str, at: impl At) -> ControlFlow<Box<Error>, T> {
        let span = at.span();
        let msg = crate::validate::unwritten_form(found, fix);
        let loc = located(self.sql, to_location(span.start));
        ControlFlow::Break(Box::new(
            Error::new(ErrorKind::DisallowedSyntax, msg).with_sql(self.sql, loc),
        ))
    }

    /// Refuses `found` at `span` when `present`, for clauses of other engines that a
    /// node of ours leaves empty; `fix` as in [`Walk::refuse`].
    fn refuse_if(&self, present: bool, found: &str, fix: &str, at: impl At) -> Flow {
        if present {
            self.refuse(found, fix, at)
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Optimizer hints (`/*+ … */`, MySQL and Oracle syntax): no target of ours has them.
    fn optimizer_hints(&self, hints: &[OptimizerHint], at: impl At) -> Flow {
        self.refuse_if(
            !hints.is_empty(),
            "an optimizer hint",
            "remove the hint",
            at,
        )
    }

    fn ident(&mut self, ident: &Ident) -> Flow {
        lift(self.pass.ident(ident))
    }

    fn idents(&mut self, idents: &[Ident]) -> Flow {
        idents.iter().try_for_each(|i| self.ident(i))
    }

    fn opt_ident(&mut self, ident: Option<&Ident>) -> Flow {
        ident.map_or(ControlFlow::Continue(()), |i| self.ident(i))
    }

    fn value(&mut self, value: &ValueWithSpan) -> Flow {
        lift(self.pass.value(value))
    }

    /// A dotted name: each part an identifier.
    fn object_name(&mut self, name: &ObjectName) -> Flow {
        for part in &name.0 {
            match part {
                ObjectNamePart::Identifier(i) => self.ident(i)?,
                ObjectNamePart::Function(f) => {
                    return self.refuse(
                        "a name computed by a function (`IDENTIFIER(…)`)",
                        "write the name itself",
                        f.name.span,
                    )
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn object_names(&mut self, names: &[ObjectName]) -> Flow {
        names.iter().try_for_each(|n| self.object_name(n))
    }

    fn opt_object_name(&mut self, name: Option<&ObjectName>) -> Flow {
        name.map_or(ControlFlow::Continue(()), |n| self.object_name(n))
    }

    fn exprs(&mut self, exprs: &[Expr]) -> Flow {
        exprs.iter().try_for_each(|e| self.expr(e))
    }

    fn opt_expr(&mut self, expr: Option<&Expr>) -> Flow {
        expr.map_or(ControlFlow::Continue(()), |e| self.expr(e))
    }
}
