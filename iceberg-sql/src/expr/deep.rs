//! `Drop` and `Clone` for [`Expr`] trees of any depth.
//!
//! A chain of 100,000 `.and(…)` calls builds a tree 100,000 levels deep. Derived `Drop`
//! and `Clone` recurse once per level, which overflows the thread's stack and aborts
//! the process. Here a node's drop moves out each child whose own children are not all
//! leaves and drops it apart; what stays behind drops through the derived glue, two
//! levels at most. The subtrees moved out, and clones, recurse for the first
//! `RECURSION_LEVELS` (64) levels, like [`Expr::walk`] (no allocation), and go on with a
//! stack of their own below that. In the trees statements hold, most children have only
//! leaves below them, so a drop mostly costs a look at each child and grandchild.

use std::mem;

use super::ast::{Expr, RECURSION_LEVELS};

/// What a child moved out of its parent leaves behind: a leaf, which drops without
/// recursing.
const HOLE: Expr = Expr::CurrentDate;

impl Expr {
    /// True when the node has no children.
    #[inline]
    fn is_leaf(&self) -> bool {
        matches!(
            self,
            Expr::Column { .. }
                | Expr::Literal { .. }
                | Expr::Param { .. }
                | Expr::CurrentTimestamp
                | Expr::CurrentDate
                | Expr::Interval { .. }
        )
    }

    /// Calls `f` on each direct child of this node, in rendering order, for change.
    pub(crate) fn for_each_child_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        match self {
            Expr::Binary { operands, .. } => operands.iter_mut().for_each(f),
            Expr::Not(e) | Expr::Negate(e) => f(e),
            Expr::IsNull { expr, .. } | Expr::Cast { expr, .. } | Expr::DateTrunc { expr, .. } => {
                f(expr)
            }
            Expr::InList { expr, list, .. } => {
                f(expr);
                list.iter_mut().for_each(f);
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                f(expr);
                f(low);
                f(high);
            }
            Expr::Like { expr, pattern, .. } => {
                f(expr);
                f(pattern);
            }
            Expr::Case {
                branches,
                otherwise,
            } => {
                for (c, v) in branches {
                    f(c);
                    f(v);
                }
                if let Some(o) = otherwise {
                    f(o);
                }
            }
            Expr::Coalesce(args) | Expr::Call { args, .. } | Expr::Function { args, .. } => {
                args.iter_mut().for_each(f)
            }
            Expr::Window {
                func,
                partition_by,
                order_by,
                ..
            } => {
                f(func);
                partition_by.iter_mut().for_each(&mut f);
                order_by.iter_mut().for_each(|(o, _)| f(o));
            }
            Expr::Aggregate { arg, filter, .. } => {
                if let Some(a) = arg {
                    f(a);
                }
                if let Some(c) = filter {
                    f(c);
                }
            }
            // A raw expression's column nodes only say what its text reads: no rewrite
            // of them would change the text.
            Expr::Raw(_) => {}
            Expr::Column { .. }
            | Expr::Literal { .. }
            | Expr::Param { .. }
            | Expr::CurrentTimestamp
            | Expr::CurrentDate
            | Expr::Interval { .. } => {}
        }
    }

    /// True when a child of this node has children of its own: below this node, the
    /// derived drop would recurse more than two levels.
    #[inline]
    fn is_tall(&self) -> bool {
        if let Expr::Binary { operands, .. } = self {
            return !operands.iter().all(Expr::is_leaf);
        }
        let mut tall = false;
        self.for_each_child(|c| tall |= !c.is_leaf());
        tall
    }

    /// Moves out each tall child (see [`Expr::is_tall`]), leaving [`HOLE`] in its place,
    /// and hands it to `f`: what stays behind drops with at most two levels of recursion.
    #[inline]
    fn detach_tall_children(&mut self, mut f: impl FnMut(Expr)) {
        self.for_each_child_mut(|c| {
            if c.is_tall() {
                f(mem::replace(c, HOLE));
            }
        });
    }

    /// A copy of this node whose children are `f` of this node's children, called in
    /// rendering order (the order of [`Expr::for_each_child`]).
    fn map_children(&self, mut f: impl FnMut(&Expr) -> Expr) -> Expr {
        match self {
            // Its children are column nodes, leaves.
            Expr::Raw(r) => Expr::Raw(r.clone()),
            Expr::Column { scope, name } => Expr::Column {
                scope: *scope,
                name,
            },
            Expr::Literal { value, ty } => Expr::Literal {
                value: value.clone(),
                ty: ty.clone(),
            },
            Expr::Param { value, ty } => Expr::Param {
                value: value.clone(),
                ty: ty.clone(),
            },
            Expr::Binary { op, operands } => {
                let [left, right] = &**operands;
                Expr::binary(*op, f(left), f(right))
            }
            Expr::Not(e) => Expr::Not(Box::new(f(e))),
            Expr::Negate(e) => Expr::Negate(Box::new(f(e))),
            Expr::IsNull { expr, negated } => Expr::IsNull {
                expr: Box::new(f(expr)),
                negated: *negated,
            },
            Expr::InList {
                expr,
                list,
                negated,
            } => Expr::InList {
                expr: Box::new(f(expr)),
                list: list.iter().map(&mut f).collect(),
                negated: *negated,
            },
            Expr::Between {
                expr,
                low,
                high,
                negated,
            } => Expr::Between {
                expr: Box::new(f(expr)),
                low: Box::new(f(low)),
                high: Box::new(f(high)),
                negated: *negated,
            },
            Expr::Like {
                expr,
                pattern,
                negated,
                escape,
            } => Expr::Like {
                expr: Box::new(f(expr)),
                pattern: Box::new(f(pattern)),
                negated: *negated,
                escape: *escape,
            },
            Expr::Cast { expr, ty } => Expr::Cast {
                expr: Box::new(f(expr)),
                ty: ty.clone(),
            },
            Expr::Case {
                branches,
                otherwise,
            } => Expr::Case {
                branches: branches.iter().map(|(c, v)| (f(c), f(v))).collect(),
                otherwise: otherwise.as_deref().map(|o| Box::new(f(o))),
            },
            Expr::Coalesce(args) => Expr::Coalesce(args.iter().map(f).collect()),
            Expr::Call { name, args } => Expr::Call {
                name,
                args: args.iter().map(f).collect(),
            },
            Expr::Function { func, args } => Expr::Function {
                func: *func,
                args: args.iter().map(f).collect(),
            },
            Expr::Window {
                func,
                partition_by,
                order_by,
                frame,
            } => Expr::Window {
                func: Box::new(f(func)),
                partition_by: partition_by.iter().map(&mut f).collect(),
                order_by: order_by.iter().map(|(o, d)| (f(o), *d)).collect(),
                frame: *frame,
            },
            Expr::DateTrunc { unit, expr } => Expr::DateTrunc {
                unit: *unit,
                expr: Box::new(f(expr)),
            },
            Expr::CurrentTimestamp => Expr::CurrentTimestamp,
            Expr::CurrentDate => Expr::CurrentDate,
            Expr::Interval { amount, unit } => Expr::Interval {
                amount: *amount,
                unit: *unit,
            },
            Expr::Aggregate { func, arg, filter } => Expr::Aggregate {
                func: *func,
                arg: arg.as_deref().map(|a| Box::new(f(a))),
                filter: filter.as_deref().map(|c| Box::new(f(c))),
            },
        }
    }
}

impl Drop for Expr {
    #[inline]
    fn drop(&mut self) {
        // Most nodes are leaves, and most of the rest have no tall child: both drop
        // through the derived glue, a level or two of recursion.
        match self {
            // The most common inner node, checked without a walk of its children.
            Expr::Binary { operands, .. } if !operands.iter().any(Expr::is_tall) => {}
            e if e.is_leaf() => {}
            e => e.detach_tall_children(|sub| drop_at(sub, 1)),
        }
    }
}

/// Drops a subtree moved out `level` levels below the node being dropped.
fn drop_at(mut e: Expr, level: usize) {
    if level == RECURSION_LEVELS {
        return drop_iteratively(e);
    }
    e.detach_tall_children(|sub| drop_at(sub, level + 1));
    // `e` drops here without a tall child.
}

fn drop_iteratively(e: Expr) {
    let mut pending = vec![e];
    while let Some(mut e) = pending.pop() {
        e.detach_tall_children(|sub| pending.push(sub));
    }
}

impl Clone for Expr {
    fn clone(&self) -> Expr {
        clone_at(self, 0)
    }
}

fn clone_at(e: &Expr, level: usize) -> Expr {
    if level == RECURSION_LEVELS {
        return clone_iteratively(e);
    }
    e.map_children(|c| clone_at(c, level + 1))
}

/// Copies bottom-up: a node is built once copies of all its children are on `built`,
/// the last ones there, in rendering order.
fn clone_iteratively(root: &Expr) -> Expr {
    enum Step<'a> {
        Enter(&'a Expr),
        Build(&'a Expr),
    }
    let mut steps = vec![Step::Enter(root)];
    let mut children = Vec::new();
    let mut built: Vec<Expr> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Enter(e) => {
                steps.push(Step::Build(e));
                e.for_each_child(|c| children.push(c));
                steps.extend(children.drain(..).rev().map(Step::Enter));
            }
            Step::Build(e) => {
                let mut count = 0;
                e.for_each_child(|_| count += 1);
                let mut copies = built.split_off(built.len() - count).into_iter();
                // `copies` holds exactly one copy per child, so the fallback never runs.
                let copy = e.map_children(|_| copies.next().unwrap_or(HOLE));
                built.push(copy);
            }
        }
    }
    built.pop().unwrap_or(HOLE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::BinaryOp;
    use crate::types::IcebergType;
    use crate::value::Value;

    fn leaf(i: i32) -> Expr {
        Expr::binary(
            BinaryOp::Eq,
            Expr::column("c"),
            Expr::literal(Value::Int(i), IcebergType::Int),
        )
    }

    /// One node of every form with children, each child a small tree of its own.
    fn every_form() -> Vec<Expr> {
        let b = |i| Box::new(leaf(i));
        vec![
            Expr::Not(b(1)),
            Expr::Negate(b(2)),
            Expr::IsNull {
                expr: b(3),
                negated: true,
            },
            Expr::InList {
                expr: b(4),
                list: vec![leaf(5), Expr::column("d"), leaf(6)],
                negated: false,
            },
            Expr::Between {
                expr: b(7),
                low: b(8),
                high: b(9),
                negated: true,
            },
            Expr::Like {
                expr: b(10),
                pattern: b(11),
                negated: false,
                escape: Some('!'),
            },
            Expr::Cast {
                expr: b(12),
                ty: IcebergType::Long,
            },
            Expr::Case {
                branches: vec![(leaf(13), leaf(14)), (leaf(15), Expr::column("e"))],
                otherwise: Some(b(16)),
            },
            Expr::Coalesce(vec![leaf(17), leaf(18)]),
            Expr::DateTrunc {
                unit: crate::expr::TimeUnit::Day,
                expr: b(19),
            },
            Expr::Aggregate {
                func: crate::expr::Aggregate::Count,
                arg: Some(b(20)),
                filter: Some(b(21)),
            },
        ]
    }

    /// A tree of `levels` levels that passes through every form on its way down.
    fn deep(levels: usize) -> Expr {
        let forms = every_form();
        let mut e = leaf(0);
        for i in 1..levels {
            let mut node = forms[i % forms.len()].clone();
            // Hang the tree so far under the node's first child.
            let mut first = true;
            node.for_each_child_mut(|c| {
                if mem::take(&mut first) {
                    *c = mem::replace(&mut e, HOLE);
                }
            });
            e = node;
        }
        e
    }

    #[test]
    fn clones_are_equal_across_the_hand_over() {
        for e in every_form() {
            assert_eq!(e.clone(), e);
            assert_eq!(clone_iteratively(&e), e);
        }
        for levels in [1, 2, 63, 64, 65, 66, 130, 300] {
            let e = deep(levels);
            assert_eq!(e.depth(), levels + 1);
            assert_eq!(e.clone(), e, "{levels} levels");
            assert_eq!(clone_iteratively(&e), e, "{levels} levels");
        }
    }

    /// 100,000 levels built by `.and(…)`, cloned and dropped, on a thread with a small
    /// stack: the derived `Drop` and `Clone` overflowed it.
    #[test]
    fn a_very_deep_tree_clones_and_drops_on_a_small_stack() {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let mut e = leaf(0);
                for i in 1..100_000 {
                    e = Expr::binary(BinaryOp::And, e, leaf(i));
                }
                let copy = e.clone();
                assert_eq!(copy.depth(), 100_001);
                drop(copy);
                let mixed = deep(100_000);
                drop(mixed.clone());
                drop(mixed);
                drop(e);
            })
            .expect("a thread")
            .join()
            .expect("no overflow");
    }
}
