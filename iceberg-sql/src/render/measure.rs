//! Rendering measured on its own, for benchmarks (feature `bench-hooks`):
//! `text_without_validation`.
//!
//! No [`Statement`](crate::Statement) ever exists without validation: inside the
//! closure every `finish()` keeps its text and returns an error instead of a statement.
//! Without the feature, `finish()` always validates.
//!
//! The harness costs little next to a statement, so that rendering can be set beside
//! a query builder that pays nothing of the kind: per statement, two thread-local flag
//! writes, one text moved into a slot (no copy, no list to grow) and one boxed refusal
//! whose message is a `&'static str` (no text allocated).

#[cfg(feature = "bench-hooks")]
use std::cell::{Cell, RefCell};

use crate::error::Error;
#[cfg(feature = "bench-hooks")]
use crate::error::ErrorKind;

#[cfg(feature = "bench-hooks")]
thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static TEXT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f` with every statement's validation replaced by a refusal that keeps its
/// text, and returns the text of the last statement rendered on this thread meanwhile.
/// Benchmarks use it to time rendering without the validator; the builders' results
/// inside `f` are errors.
#[cfg(feature = "bench-hooks")]
#[doc(hidden)]
pub fn text_without_validation(f: impl FnOnce()) -> Option<String> {
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
    TEXT.with(|t| t.borrow_mut().take())
}

/// Inside `text_without_validation`: keeps `sql` and returns the refusal `finish()`
/// returns instead of a statement. Outside: gives `sql` back.
#[cfg(feature = "bench-hooks")]
pub(super) fn keep_if_measuring(sql: String) -> Result<String, Error> {
    if !ACTIVE.with(Cell::get) {
        return Ok(sql);
    }
    TEXT.with(|t| *t.borrow_mut() = Some(sql));
    Err(Error::from_static(
        ErrorKind::Unsupported,
        "rendered without validation (benchmark measurement): no statement is returned",
    ))
}

/// Without the feature `bench-hooks`, nothing is measured: gives `sql` back.
#[cfg(not(feature = "bench-hooks"))]
#[inline(always)]
pub(super) fn keep_if_measuring(sql: String) -> Result<String, Error> {
    Ok(sql)
}

/// What [`text_without_validation`] itself costs per statement, without rendering: the
/// same flag writes, an (empty) text kept and the boxed refusal made and dropped.
/// Benchmarks count it in the same run and set rendering alone, less this, beside a
/// query builder that returns its text directly.
#[cfg(feature = "bench-hooks")]
#[doc(hidden)]
pub fn measurement_overhead() -> Option<String> {
    text_without_validation(|| {
        let _ = keep_if_measuring(String::new());
    })
}
