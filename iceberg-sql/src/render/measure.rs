//! Rendering measured on its own, for benchmarks: [`texts_without_validation`].
//!
//! No [`Statement`](crate::Statement) ever exists without validation: inside the
//! closure every `finish()` keeps its text and returns an error instead of a statement.

use std::cell::{Cell, RefCell};

use crate::error::{Error, ErrorKind};

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static TEXTS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with every statement's validation replaced by a refusal that keeps its
/// text, and returns the texts rendered on this thread meanwhile. Benchmarks use it to
/// time rendering without the validator; the builders' results inside `f` are errors.
#[doc(hidden)]
pub fn texts_without_validation(f: impl FnOnce()) -> Vec<String> {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            ACTIVE.with(|a| a.set(false));
        }
    }
    ACTIVE.with(|a| a.set(true));
    let reset = Reset;
    f();
    drop(reset);
    TEXTS.with(|t| std::mem::take(&mut *t.borrow_mut()))
}

/// Inside [`texts_without_validation`]: keeps `sql` and returns the refusal `finish()`
/// returns instead of a statement. Outside: gives `sql` back.
pub(super) fn keep_if_measuring(sql: String) -> Result<String, Error> {
    if !ACTIVE.with(Cell::get) {
        return Ok(sql);
    }
    TEXTS.with(|t| t.borrow_mut().push(sql));
    Err(Error::new(
        ErrorKind::Unsupported,
        "rendered without validation (benchmark measurement): no statement is returned",
    ))
}
