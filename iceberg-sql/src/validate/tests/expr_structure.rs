//! Property test: random typed expression trees render to SQL that the validator's
//! parser reads back with the same structure (operator precedence and grouping kept),
//! in both dialects.

use std::sync::OnceLock;

use proptest::prelude::*;
use sqlparser::ast::{
    BinaryOperator, Expr as P, InTarget, Statement as PStatement, UnaryOperator, Value as PValue,
};

use super::parse_statement;
use crate::expr::{BinaryOp, Col, Cond, Expr, ExpressionMethods, SqlExpr};
use crate::record::IcebergTable;
use crate::statement::{Filter, TableStatements};
use crate::{Column, Dialect, IcebergType, StatementKind, TableDef, Value};

/// The columns the generated expressions read.
pub(in crate::validate) struct McpEvent;

impl McpEvent {
    pub(in crate::validate) const EVENT_ID: Col<McpEvent, String> = Col::new("event_id");
    pub(in crate::validate) const PAYLOAD: Col<McpEvent, Option<String>> = Col::new("payload");
    pub(in crate::validate) const STATUS: Col<McpEvent, String> = Col::new("status");
    pub(in crate::validate) const LATENCY_MS: Col<McpEvent, i64> = Col::new("latency_ms");
}

impl IcebergTable for McpEvent {
    fn table_def() -> &'static TableDef {
        static DEF: OnceLock<TableDef> = OnceLock::new();
        DEF.get_or_init(|| {
            TableDef::builder("analytics", "mcp_events")
                .column(Column::new("event_id", IcebergType::String))
                .column(Column::new("payload", IcebergType::String))
                .column(Column::new("status", IcebergType::String))
                .column(Column::new("latency_ms", IcebergType::Long))
                .build()
                .expect("a valid table")
        })
    }
    fn to_values(&self) -> Vec<Value> {
        Vec::new()
    }
}

fn int_expr() -> impl Strategy<Value = SqlExpr<McpEvent, i64>> {
    let leaf = prop_oneof![
        Just(McpEvent::LATENCY_MS.sql_expr()),
        (0i64..100).prop_map(|n| McpEvent::LATENCY_MS.sql_expr() * n),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a + b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a - b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a * b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a / b),
            (inner.clone(), inner).prop_map(|(a, b)| a % b),
        ]
    })
}

fn word() -> impl Strategy<Value = String> {
    "[a-z']{0,5}"
}

pub(in crate::validate) fn cond() -> impl Strategy<Value = Cond<McpEvent>> {
    let leaf = prop_oneof![
        (int_expr(), int_expr()).prop_map(|(a, b)| a.eq(b)),
        (int_expr(), int_expr()).prop_map(|(a, b)| a.lt(b)),
        (int_expr(), int_expr()).prop_map(|(a, b)| a.ge(b)),
        (int_expr(), 0i64..9, 10i64..99).prop_map(|(a, l, h)| a.between(l, h)),
        word().prop_map(|w| McpEvent::STATUS.ne(w)),
        word().prop_map(|w| McpEvent::STATUS.like(w)),
        word().prop_map(|w| McpEvent::STATUS.is_distinct_from(w)),
        prop::collection::vec(word(), 1..3).prop_map(|ws| McpEvent::EVENT_ID.is_in(ws)),
        Just(McpEvent::PAYLOAD.is_null()),
        Just(McpEvent::PAYLOAD.is_not_null()),
    ];
    leaf.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.and(b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.or(b)),
            inner.prop_map(|a| a.not()),
        ]
    })
}

fn op(o: BinaryOp) -> &'static str {
    match o {
        BinaryOp::And => "AND",
        BinaryOp::Or => "OR",
        BinaryOp::Eq => "=",
        BinaryOp::NotEq => "<>",
        BinaryOp::Lt => "<",
        BinaryOp::LtEq => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::GtEq => ">=",
        BinaryOp::IsDistinctFrom => "IS DISTINCT FROM",
        BinaryOp::IsNotDistinctFrom => "IS NOT DISTINCT FROM",
        BinaryOp::Plus => "+",
        BinaryOp::Minus => "-",
        BinaryOp::Multiply => "*",
        BinaryOp::Divide => "/",
        BinaryOp::Modulo => "%",
    }
}

/// Fully parenthesised structure of our tree.
fn ours(e: &Expr) -> String {
    match e {
        Expr::Column { name, .. } => name.to_string(),
        Expr::Literal { value, .. } => match value {
            Value::Long(n) => n.to_string(),
            Value::String(s) => format!("'{s}'"),
            v => panic!("unexpected literal {v:?}"),
        },
        // AND and OR are associative: compare chains as flat lists.
        Expr::Binary {
            op: o @ (BinaryOp::And | BinaryOp::Or),
            ..
        } => {
            let mut items = Vec::new();
            flatten_ours(e, *o, &mut items);
            format!("({} {})", op(*o), items.join(", "))
        }
        Expr::Binary { op: o, operands } => {
            let [left, right] = &**operands;
            format!("({} {} {})", ours(left), op(*o), ours(right))
        }
        Expr::Not(x) => format!("(NOT {})", ours(x)),
        Expr::IsNull { expr, negated } => {
            format!(
                "({} IS {}NULL)",
                ours(expr),
                if *negated { "NOT " } else { "" }
            )
        }
        Expr::InList { expr, list, .. } => format!(
            "({} IN [{}])",
            ours(expr),
            list.iter().map(ours).collect::<Vec<_>>().join(", ")
        ),
        Expr::Between {
            expr, low, high, ..
        } => {
            format!("({} BETWEEN {} AND {})", ours(expr), ours(low), ours(high))
        }
        Expr::Like { expr, pattern, .. } => format!("({} LIKE {})", ours(expr), ours(pattern)),
        other => panic!("not generated: {other:?}"),
    }
}

fn flatten_ours(e: &Expr, o: BinaryOp, out: &mut Vec<String>) {
    match e {
        Expr::Binary { op: x, operands } if *x == o => {
            for side in operands.iter() {
                flatten_ours(side, o, out);
            }
        }
        other => out.push(ours(other)),
    }
}

fn flatten_theirs(e: &P, o: &BinaryOperator, out: &mut Vec<String>) {
    match e {
        P::Nested(x) => flatten_theirs(x, o, out),
        P::BinaryOp { left, op, right } if op == o => {
            flatten_theirs(left, o, out);
            flatten_theirs(right, o, out);
        }
        other => out.push(theirs(other)),
    }
}

/// Fully parenthesised structure of what the parser read.
fn theirs(e: &P) -> String {
    match e {
        P::Nested(x) => theirs(x),
        P::Identifier(i) => i.value.clone(),
        P::Value(v) => match &v.value {
            PValue::Number(n, _) => n.clone(),
            PValue::SingleQuotedString(s) => format!("'{s}'"),
            other => panic!("unexpected value {other:?}"),
        },
        P::BinaryOp {
            op: o @ (BinaryOperator::And | BinaryOperator::Or),
            ..
        } => {
            let mut items = Vec::new();
            flatten_theirs(e, o, &mut items);
            format!("({} {})", o, items.join(", "))
        }
        P::BinaryOp { left, op, right } => format!("({} {} {})", theirs(left), op, theirs(right)),
        P::UnaryOp {
            op: UnaryOperator::Not,
            expr,
        } => format!("(NOT {})", theirs(expr)),
        P::IsNull(x) => format!("({} IS NULL)", theirs(x)),
        P::IsNotNull(x) => format!("({} IS NOT NULL)", theirs(x)),
        P::IsDistinctFrom(a, b) => format!("({} IS DISTINCT FROM {})", theirs(a), theirs(b)),
        P::In {
            expr,
            target: InTarget::List(list),
            ..
        } => format!(
            "({} IN [{}])",
            theirs(expr),
            list.iter().map(theirs).collect::<Vec<_>>().join(", ")
        ),
        P::Between {
            expr, low, high, ..
        } => format!(
            "({} BETWEEN {} AND {})",
            theirs(expr),
            theirs(low),
            theirs(high)
        ),
        P::Like { expr, pattern, .. } => format!("({} LIKE {})", theirs(expr), theirs(pattern)),
        other => panic!("unexpected parsed expression {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, .. ProptestConfig::default() })]

    #[test]
    fn rendered_expressions_keep_their_structure(c in cond(), spark in any::<bool>()) {
        // Spark writes `/` and `%` of integers in another form (`div(a, b)`, a guarded
        // divisor) that means Athena's; `dialect::spark_parity` and its tests cover it.
        let divides = {
            let mut found = false;
            c.expr().walk(&mut |e| {
                found |= matches!(e, Expr::Binary { op: BinaryOp::Divide | BinaryOp::Modulo, .. })
            });
            found
        };
        let d = if spark && !divides { Dialect::Spark } else { Dialect::Athena };
        let expected = ours(c.expr());
        let stmt = McpEvent::delete().filter(c).build_for(d).unwrap();
        let parsed = parse_statement(stmt.sql(), StatementKind::Delete, d).unwrap();
        let PStatement::Delete(del) = parsed else { panic!("not a DELETE") };
        let got = theirs(del.selection.as_ref().expect("WHERE"));
        prop_assert_eq!(got, expected, "{}", stmt.sql());
    }
}
