//! `cargo run --example quickstart` from the workspace root (the README's first command)
//! builds the core crate and its own dependencies, nothing more: what it compiles is the
//! default members' normal and build dependencies, with their features unified.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn cargo(args: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(&root)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Package names in `cargo tree` output (`--prefix none --format {p}` lines: `name vX`).
fn names(tree: &str) -> BTreeSet<String> {
    tree.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn quickstart_builds_only_the_core_crate() {
    let metadata = cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]);
    let metadata: serde_json::Value = serde_json::from_str(&metadata).expect("cargo metadata");
    let examples: Vec<&str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| {
            p["targets"].as_array().expect("targets").iter().any(|t| {
                t["name"] == "quickstart" && t["kind"].as_array().expect("kind")[0] == "example"
            })
        })
        .map(|p| p["id"].as_str().expect("id"))
        .collect();
    assert_eq!(
        examples.len(),
        1,
        "one package holds the quickstart: {examples:?}"
    );
    let defaults = metadata["workspace_default_members"]
        .as_array()
        .expect("default members");
    assert!(
        defaults.iter().any(|d| d == examples[0]),
        "`cargo run --example quickstart` finds it at the root only in a default member"
    );

    // What the root's default members build, and what the core crate with its default
    // features needs.
    let root = names(&cargo(&[
        "tree",
        "--offline",
        "--locked",
        "-e",
        "normal,build",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]));
    let core = names(&cargo(&[
        "tree",
        "--offline",
        "--locked",
        "-p",
        "iceberg-sql",
        "-e",
        "normal,build",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]));
    let extra: Vec<&String> = root
        .difference(&core)
        .filter(|n| *n != "iceberg-sql-examples")
        .collect();
    assert!(
        extra.is_empty(),
        "the quickstart would also build {extra:?}"
    );
}
