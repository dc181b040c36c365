//! What the type model saw while statements were built, for the test that walks every
//! builder's output through it: every expression node typed, every node rendered, every
//! assignment and output checked. Recording happens only in this crate's own tests,
//! inside `capture`; elsewhere the hooks are empty.

#[cfg(test)]
pub(crate) use recording::*;

#[cfg(not(test))]
mod silent {
    use crate::engine::types::EngineType;
    use crate::expr::Expr;

    #[inline(always)]
    pub(crate) fn typed(_e: &Expr, _ty: &EngineType) {}
    #[inline(always)]
    pub(crate) fn typed_by(_e: &Expr, _ty: impl FnOnce() -> crate::error::Result<EngineType>) {}
    #[inline(always)]
    pub(crate) fn rendered(_e: &Expr) {}
    /// Marks the writing of a checked value (nothing outside tests).
    pub(crate) struct Writing;
    #[inline(always)]
    pub(crate) fn checked_write() -> Writing {
        Writing
    }
    #[inline(always)]
    pub(crate) fn check(_what: &str, _detail: impl FnOnce() -> String) {}
}
#[cfg(not(test))]
pub(crate) use silent::*;

#[cfg(test)]
mod recording {
    use std::cell::{Cell, RefCell};

    use crate::engine::types::EngineType;
    use crate::expr::Expr;

    /// What one capture saw.
    #[derive(Debug, Default)]
    pub(crate) struct Log {
        /// Every expression node typed, with its type.
        pub typed: Vec<(Expr, EngineType)>,
        /// Every expression node rendered, and whether it was written as part of a
        /// value the type rules checked.
        pub rendered: Vec<(Expr, bool)>,
        /// Every assignment, output column and row value checked: (what, detail).
        pub checks: Vec<(String, String)>,
    }

    thread_local! {
        static LOG: RefCell<Option<Log>> = const { RefCell::new(None) };
        static IN_CHECKED: Cell<usize> = const { Cell::new(0) };
    }

    fn with(f: impl FnOnce(&mut Log)) {
        LOG.with(|l| {
            if let Some(log) = l.borrow_mut().as_mut() {
                f(log);
            }
        });
    }

    pub(crate) fn typed(e: &Expr, ty: &EngineType) {
        with(|l| l.typed.push((e.clone(), ty.clone())));
    }

    /// As [`typed`], for a node whose type the rules did not need to work out (a
    /// literal stored as written): worked out here, in tests only.
    pub(crate) fn typed_by(e: &Expr, ty: impl FnOnce() -> crate::error::Result<EngineType>) {
        with(|l| {
            if let Ok(ty) = ty() {
                l.typed.push((e.clone(), ty));
            }
        });
    }

    pub(crate) fn rendered(e: &Expr) {
        let checked = IN_CHECKED.with(Cell::get) > 0;
        with(|l| l.rendered.push((e.clone(), checked)));
    }

    /// Marks the writing of a checked value until dropped.
    pub(crate) struct Writing;

    impl Drop for Writing {
        fn drop(&mut self) {
            IN_CHECKED.with(|c| c.set(c.get().saturating_sub(1)));
        }
    }

    pub(crate) fn checked_write() -> Writing {
        IN_CHECKED.with(|c| c.set(c.get() + 1));
        Writing
    }

    pub(crate) fn check(what: &str, detail: impl FnOnce() -> String) {
        with(|l| l.checks.push((what.to_string(), detail())));
    }

    /// Runs `f` with recording on, and returns what it recorded.
    pub(crate) fn capture<R>(f: impl FnOnce() -> R) -> (R, Log) {
        LOG.with(|l| *l.borrow_mut() = Some(Log::default()));
        let r = f();
        let log = LOG.with(|l| l.borrow_mut().take()).unwrap_or_default();
        (r, log)
    }
}
