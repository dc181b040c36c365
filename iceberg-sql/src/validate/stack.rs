//! How much of the caller's stack a parse may use.
//!
//! Our parser (`parser/`) parses by recursive descent, and in an unoptimised build each
//! level of nesting takes kilobytes of stack. We do not grow the stack on demand
//! (sqlparser's `recursive-protection` does, through `stacker` and its C build script,
//! at a large compile-time cost). Instead a parse runs on the caller's stack with a
//! [`StackBudget`], checked where the parser opens each level of nesting: once the
//! parse has gone [`PARSE_STACK_BUDGET`] bytes below where it started it fails, and the
//! failure is sticky, so no branch of the parser can recover from it and return a
//! different tree. The text is then parsed again on a big stack, without a budget, to
//! the same recursion limit: the budget costs time, never a verdict. Operator chains are
//! read in a loop (measured: at its recursion limit a parse takes up to about 1.2 MiB,
//! nested `CASE`s).

use std::cell::Cell;

/// How far below its start a parse on the caller's stack may go: a quarter of the 2 MiB
/// Rust gives a spawned thread, leaving room for the check and drop of the tree (at most
/// about 1.8 KiB per level) and for what the caller already uses.
pub(super) const PARSE_STACK_BUDGET: usize = 640 << 10;

/// The stack budget of one parse. Inactive (no limit) unless [`StackBudget::start_here`]
/// was called.
#[derive(Debug, Default)]
pub(crate) struct StackBudget {
    /// Where the parse started; `None` on the big stack.
    start: Cell<Option<usize>>,
    /// Set once the parse went past the budget; stays set.
    exceeded: Cell<bool>,
}

impl StackBudget {
    /// Measures from the caller's current stack position.
    pub(super) fn start_here(&self) {
        self.start.set(Some(stack_position()));
    }

    /// Whether the stack is [`PARSE_STACK_BUDGET`] bytes past where the parse started,
    /// now or at any point before.
    pub(super) fn spent(&self) -> bool {
        let Some(start) = self.start.get() else {
            return false;
        };
        if self.exceeded.get() || start.abs_diff(stack_position()) > PARSE_STACK_BUDGET {
            self.exceeded.set(true);
        }
        self.exceeded.get()
    }
}

/// An address on the current stack frame (stacks grow down on every platform Rust
/// supports well, but only the distance is used).
#[inline(never)]
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}
