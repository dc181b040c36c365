//! How a statement becomes text.
//!
//! ```text
//! builder ──describes──▶ SqlWriter ◀──asks── DialectRules (target: clauses, refusals)
//!   │                      │
//!   │ checks meaning       └─ Grammar (the kind's parser: names, types, literals)
//!   ▼                      ▼
//! build_for(dialect) ── finish() ──▶ validate (size, parse, shapes) ──▶ Statement
//! ```
//!
//! A builder checks what the statement means against the typed model, then writes it
//! into a [`SqlWriter`] for one target [`Dialect`](crate::Dialect). Everything a target
//! decides (which clause, which procedure, what it refuses) comes from its rules in
//! [`crate::dialect`]; every name, type and literal is spelled by the grammar the target
//! parses that kind of statement with. [`SqlWriter::finish`] hands the text to the
//! validator, and only then is there a [`Statement`](crate::Statement).

mod list;
mod measure;
mod writer;

pub(crate) use crate::dialect::grammar::separated;
#[cfg(feature = "bench-hooks")]
#[doc(hidden)]
pub use measure::{measurement_overhead, text_without_validation};
pub use writer::SqlWriter;
