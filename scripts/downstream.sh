#!/usr/bin/env bash
# A new user's app, checked outside the workspace:  ./scripts/downstream.sh [--minimal-versions]
#
# Copies scripts/downstream/ (an app that derives a table, builds every statement kind
# and runs ensure_table_for, append_rows and a fetch in async fns, one of them spawned
# on tokio, against the athena crate's offline test double, feature `test-server`) to a
# fresh temporary directory outside this repository, depending on the crates by path,
# and runs its tests with the workspace's declared rust-version. There is no lock file:
# cargo resolves the newest versions the crates allow, as it does for a new user (the
# workspace's Cargo.lock pins older ones, which every other test uses).
#
# --minimal-versions: resolve each dependency this repository's crates declare to the
# lowest version their manifests allow (nightly cargo's -Z direct-minimal-versions; the
# build itself uses the declared toolchain), so a lower bound we cannot build with fails
# here. Dependencies of dependencies resolve to their newest: with -Z minimal-versions
# they resolve low too, and sqlparser 0.64.0, which declares log "0.4", does not build
# with log 0.4.0 (its `log::debug!` imports need a later 0.4). That tree shares little
# with the newest one, so it is a cold build.
#
# CARGO_TARGET_DIR is shared with the caller's (the app's profile below matches the
# workspace's), so a second run rebuilds only the app and the crates of this repository.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
minimal=0
for a in "$@"; do
    case "$a" in
        --minimal-versions) minimal=1 ;;
        *) echo "downstream.sh: unknown option $a" >&2; exit 2 ;;
    esac
done

# The declared rust-version, and its toolchain when rustup has it (CI must have it).
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$repo/Cargo.toml")
toolchain=()
if command -v rustup >/dev/null && rustup run "$msrv" rustc --version >/dev/null 2>&1; then
    toolchain=("+$msrv")
else
    case "${CI:-}" in ""|0|false|no) ;; *)
        echo "downstream.sh: the declared rust-version $msrv is not installed (rustup toolchain install $msrv)" >&2
        exit 1 ;;
    esac
    echo "downstream.sh: WARNING: rust-version $msrv is not installed; building with $(rustc --version)" >&2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/iceberg-sql-downstream.XXXXXX")"
case "$work/" in "$repo"/*)
    echo "downstream.sh: $work is inside the repository; set TMPDIR elsewhere" >&2; exit 1 ;;
esac
trap 'rm -rf "$work"' EXIT
if [ "$minimal" -eq 0 ]; then
    app="$work"
    cp -r "$repo/scripts/downstream/." "$app/"
    sed "s#@REPO@#$repo#g" "$app/Cargo.toml.in" >"$app/Cargo.toml"
    cat >>"$app/Cargo.toml" <<'TOML'

[workspace]

# The workspace's dev profile, so that dependencies already built there are reused.
[profile.dev.package."*"]
debug = false

[profile.dev]
debug = "line-tables-only"
TOML
else
    # -Z direct-minimal-versions lowers the dependencies of workspace members only, so the
    # app joins a copy of this workspace (the committed and working-tree files git tracks):
    # then the crates' own dependencies are direct and resolve to their lower bounds.
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) |
        tar -xf - -C "$work"
    app="$work/downstream-app"
    mkdir "$app"
    cp -r "$repo/scripts/downstream/." "$app/"
    sed "s#@REPO@#$work#g" "$app/Cargo.toml.in" >"$app/Cargo.toml"
    sed -i 's#^members = \[#members = ["downstream-app", #' "$work/Cargo.toml"
    rm -f "$work/Cargo.lock"
fi
rm "$app/Cargo.toml.in"

cd "$app"
t0=$SECONDS
if [ "$minimal" -eq 1 ]; then
    cargo +nightly generate-lockfile -Z direct-minimal-versions
else
    cargo "${toolchain[@]}" generate-lockfile
fi
lock="$app/Cargo.lock"
[ "$minimal" -eq 1 ] && lock="$work/Cargo.lock"
for crate in http aws-sdk-athena aws-smithy-runtime tokio; do
    grep -A1 "^name = \"$crate\"$" "$lock" | sed -n 's/^version = "\(.*\)"/downstream.sh: resolved '"$crate"' \1/p'
done
cargo "${toolchain[@]}" test --locked
echo "downstream.sh: the app built and its tests passed ($((SECONDS - t0)) s, $(cargo "${toolchain[@]}" --version))"
