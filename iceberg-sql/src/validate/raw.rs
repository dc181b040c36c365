//! Reading the text of a raw expression (`dsl::raw`): our parser reads it as exactly
//! one expression of a grammar, and the reading says which columns it reads and
//! whether it aggregates or holds a window function.

use super::lexer::{self, Kind, Symbol};
use super::parser::ast::{Expr, FrameBound, FunctionArgs, Ident, Window};
use super::parser::{parse_expr_tokens, Rules};
use crate::dialect::Grammar;
use crate::engine::functions::TRINO_AGGREGATES;
use crate::error::{Error, ErrorKind, Result};

/// What a raw expression's text reads.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct RawReading {
    /// Columns read outside every aggregate call, by name (unquoted names folded to
    /// lower case, as the engines fold them), in text order.
    pub(crate) plain: Vec<String>,
    /// Columns read inside an aggregate call.
    pub(crate) aggregated: Vec<String>,
    /// Whether it calls an aggregate function (without `OVER`).
    pub(crate) aggregates: bool,
    /// Whether it holds a window (`OVER (…)`).
    pub(crate) window: bool,
    /// Whether it is one operand that needs no parentheses around it (a name, a
    /// literal, a call, a CASE, a CAST, a parenthesized expression …).
    pub(crate) atom: bool,
}

fn refused(sql: &str, what: &str, hint: &str) -> Error {
    Error::new(
        ErrorKind::DisallowedSyntax,
        format!("raw expression `{sql}`: {what}"),
    )
    .with_hint(hint.to_string())
}

/// Reads `sql` as exactly one expression of `grammar`: no comment, no `;`, no `?`
/// placeholder, no subquery, and column references by their name alone.
pub(crate) fn read_raw(sql: &str, grammar: Grammar) -> Result<RawReading> {
    let rules = Rules::of(grammar);
    let tokens = lexer::lex(sql, rules.lexical).map_err(|e| {
        refused(
            sql,
            &format!("{} at byte {}", e.message, e.at),
            "write the expression as the target's grammar reads it",
        )
    })?;
    for t in &tokens {
        let problem = match t.kind {
            Kind::LineComment | Kind::BlockComment => "it holds a comment",
            Kind::Symbol(Symbol::SemiColon) => "it holds a `;` (a statement separator)",
            Kind::Placeholder => "it holds a parameter placeholder",
            _ => continue,
        };
        return Err(refused(
            sql,
            problem,
            "a raw expression is one expression only; bind values through the DSL",
        ));
    }
    let expr = parse_expr_tokens(sql, &tokens, rules).map_err(|e| {
        Error::new(
            ErrorKind::DisallowedSyntax,
            format!(
                "raw expression `{sql}` is not one expression: {}",
                e.message()
            ),
        )
        .with_hint("write one expression of the target's grammar")
    })?;
    let mut reading = RawReading {
        atom: matches!(
            expr,
            Expr::Name(_)
                | Expr::Literal(_)
                | Expr::Nested(_)
                | Expr::Case { .. }
                | Expr::Cast { .. }
                | Expr::Function(_)
                | Expr::Array(_)
                | Expr::Row(_)
                | Expr::Extract { .. }
                | Expr::Position { .. }
                | Expr::Substring { .. }
                | Expr::Trim { .. }
        ),
        ..RawReading::default()
    };
    let mut walk = Walk {
        sql,
        reading: &mut reading,
        lambda: Vec::new(),
    };
    walk.expr(&expr, false)?;
    Ok(reading)
}

struct Walk<'r> {
    sql: &'r str,
    reading: &'r mut RawReading,
    /// Lambda parameters in scope.
    lambda: Vec<String>,
}

fn folded(i: &Ident) -> String {
    if i.quote.is_some() {
        i.value.clone()
    } else {
        i.value.to_ascii_lowercase()
    }
}

impl Walk<'_> {
    fn exprs(&mut self, es: &[Expr], inside: bool) -> Result<()> {
        es.iter().try_for_each(|e| self.expr(e, inside))
    }

    fn window(&mut self, w: &Window, inside: bool) -> Result<()> {
        self.exprs(&w.partition_by, inside)?;
        for o in &w.order_by {
            self.expr(&o.expr, inside)?;
        }
        if let Some(f) = &w.frame {
            for b in std::iter::once(&f.start).chain(&f.end) {
                if let FrameBound::Preceding(Some(e)) | FrameBound::Following(Some(e)) = b {
                    self.expr(e, inside)?;
                }
            }
        }
        if let Some(n) = &w.name {
            return Err(refused(
                self.sql,
                &format!(
                    "it names a window (`OVER {}`) the query does not define",
                    n.value
                ),
                "spell the window out: OVER (PARTITION BY … ORDER BY …)",
            ));
        }
        Ok(())
    }

    /// Walks `e`; `inside` says whether it is inside an aggregate call.
    fn expr(&mut self, e: &Expr, inside: bool) -> Result<()> {
        match e {
            Expr::Name(parts) => match parts.as_slice() {
                [one] => {
                    let name = folded(one);
                    if !self.lambda.contains(&name) {
                        if inside {
                            self.reading.aggregated.push(name);
                        } else {
                            self.reading.plain.push(name);
                        }
                    }
                    Ok(())
                }
                _ => Err(refused(
                    self.sql,
                    &format!(
                        "it reads the qualified name `{}`",
                        parts
                            .iter()
                            .map(|p| p.value.as_str())
                            .collect::<Vec<_>>()
                            .join(".")
                    ),
                    "name the column alone: the statement's columns are referenced unqualified",
                )),
            },
            Expr::Literal(_) | Expr::Placeholder(_) => Ok(()),
            Expr::Nested(x)
            | Expr::Unary { expr: x, .. }
            | Expr::IsNull { expr: x, .. }
            | Expr::IsBool { expr: x, .. }
            | Expr::Interval { value: x, .. }
            | Expr::Extract { expr: x, .. }
            | Expr::Cast { expr: x, .. }
            | Expr::Named { expr: x, .. }
            | Expr::Field { expr: x, .. } => self.expr(x, inside),
            Expr::Binary { left, right, .. }
            | Expr::IsDistinctFrom { left, right, .. }
            | Expr::AtTimeZone {
                expr: left,
                zone: right,
            }
            | Expr::Subscript {
                expr: left,
                index: right,
            }
            | Expr::Position {
                needle: left,
                haystack: right,
            }
            | Expr::Trim {
                chars: left,
                expr: right,
                ..
            }
            | Expr::RLike {
                expr: left,
                pattern: right,
                ..
            } => {
                self.expr(left, inside)?;
                self.expr(right, inside)
            }
            Expr::Like {
                expr,
                pattern,
                escape,
                ..
            }
            | Expr::ILike {
                expr,
                pattern,
                escape,
                ..
            } => {
                self.expr(expr, inside)?;
                self.expr(pattern, inside)?;
                escape.iter().try_for_each(|x| self.expr(x, inside))
            }
            Expr::InList { expr, list, .. } => {
                self.expr(expr, inside)?;
                self.exprs(list, inside)
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                self.expr(expr, inside)?;
                self.expr(low, inside)?;
                self.expr(high, inside)
            }
            Expr::Case {
                operand,
                branches,
                otherwise,
            } => {
                operand.iter().try_for_each(|x| self.expr(x, inside))?;
                for (when, then) in branches {
                    self.expr(when, inside)?;
                    self.expr(then, inside)?;
                }
                otherwise.iter().try_for_each(|x| self.expr(x, inside))
            }
            Expr::Array(items) | Expr::Row(items) => self.exprs(items, inside),
            Expr::Substring { expr, from, length } => {
                self.expr(expr, inside)?;
                self.expr(from, inside)?;
                length.iter().try_for_each(|x| self.expr(x, inside))
            }
            Expr::Overlay {
                expr,
                placing,
                from,
                length,
            } => {
                self.expr(expr, inside)?;
                self.expr(placing, inside)?;
                self.expr(from, inside)?;
                length.iter().try_for_each(|x| self.expr(x, inside))
            }
            Expr::Lambda { params, body, .. } => {
                let before = self.lambda.len();
                self.lambda.extend(params.iter().map(folded));
                let r = self.expr(body, inside);
                self.lambda.truncate(before);
                r
            }
            Expr::Function(f) => {
                let name = match f.name.as_slice() {
                    [one] => one.value.to_ascii_lowercase(),
                    _ => String::new(),
                };
                let aggregate = f.over.is_none()
                    && (f.filter.is_some() || TRINO_AGGREGATES.contains(&name.as_str()));
                if f.over.is_some() {
                    self.reading.window = true;
                }
                if aggregate {
                    self.reading.aggregates = true;
                }
                let within = inside || aggregate;
                if let FunctionArgs::List { args, .. } = &f.args {
                    self.exprs(args, within)?;
                }
                if let Some(o) = &f.ordering {
                    for item in o.order_by.iter().chain(&o.within_group) {
                        self.expr(&item.expr, within)?;
                    }
                }
                if let Some(filter) = &f.filter {
                    self.expr(filter, within)?;
                }
                if let Some(w) = &f.over {
                    self.window(w, inside)?;
                }
                Ok(())
            }
            Expr::Subquery(_)
            | Expr::InSubquery { .. }
            | Expr::Exists { .. }
            | Expr::Quantified { .. } => Err(refused(
                self.sql,
                "it holds a subquery",
                "build the subquery with the DSL (a CTE, a join), or keep raw text to one row's expression",
            )),
            Expr::Grouping { .. } => Err(refused(
                self.sql,
                "it holds a grouping element (GROUPING SETS, ROLLUP, CUBE)",
                "group with .group_by(...)",
            )),
        }
    }
}
