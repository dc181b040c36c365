//! Shared helpers for the workspace-level tests.

pub mod engine;
pub mod trino;
