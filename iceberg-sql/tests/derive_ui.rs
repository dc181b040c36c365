//! Compile-fail tests for `#[derive(IcebergTable)]` and `#[derive(FromRow)]`
//! (`from_row_*.rs`): one file per class of error, with
//! the exact compiler output in the `.stderr` next to it. Regenerate with
//! `TRYBUILD=overwrite cargo test -p iceberg-sql --test derive_ui` and read the diff.
//! The messages come from rustc 1.95, the workspace's `rust-version`; another
//! compiler version may format them differently.

#[test]
fn derive_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
