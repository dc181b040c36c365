#!/usr/bin/env bash
# The downstream-app check: a fresh crate outside the workspace, WITHOUT the workspace's
# Cargo.lock (so the newest compatible versions resolve, as a new user gets them), that
# depends on the crates by path and runs the executor's new-user example (derive a table,
# ensure_table_for, append_rows, fetch, Arrow) in async fns against the in-process
# Athena-protocol test server.
#
#   ./scripts/downstream.sh        (scripts/test.sh runs it; uses the shared CARGO_TARGET_DIR)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
app="$(mktemp -d "${TMPDIR:-/tmp}/iceberg-sql-downstream.XXXXXX")"
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/src"
cat > "$app/Cargo.toml" <<TOML
[package]
name = "downstream-app"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
iceberg-sql = { path = "$root/iceberg-sql" }
iceberg-sql-athena = { path = "$root/iceberg-sql-athena", features = ["arrow"] }
iceberg-sql-test-server = { path = "$root/iceberg-sql-test-server" }
tokio = { version = "1", features = ["macros", "rt-multi-thread", "time"] }
futures = "0.3"
chrono = { version = "0.4", default-features = false, features = ["std"] }

[workspace]
TOML
# The example is the app: its `main` awaits every entry point in async fns.
cp "$root/iceberg-sql-athena/examples/new_user.rs" "$app/src/main.rs"
cd "$app"
cargo generate-lockfile -q
echo "downstream.sh: resolved without the workspace lock file:"
grep -A1 -E '^name = "(http|aws-sdk-athena|aws-smithy-runtime|tokio|hyper)"$' Cargo.lock | grep version | sed 's/^/  /' || true
cargo run -q
echo "downstream.sh: the fresh app built and ran"
