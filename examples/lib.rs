//! Nothing but the home of the workspace's quickstart (`quickstart.rs`):
//! `cargo run --example quickstart` from the workspace root.
