#!/usr/bin/env bash
# scripts/regressions.sh [commit]   (default a0afc6d)
#
# Shows that each exactly-once case in iceberg-sql-athena/tests/regressions.rs fails at
# `commit` and passes on this checkout. It makes a temporary worktree of `commit` under
# TMPDIR, puts this checkout's iceberg-sql-test-server crate and the tests' shared
# helpers (tests/common/) into it (the old executor talks to the new server over
# the Athena protocol), copies the case file in, runs it there and here, and prints one
# line per case. Exits non-zero if a case passes at `commit`, fails here, or a build
# fails. Both runs share CARGO_TARGET_DIR (default: this checkout's target/), so the
# dependencies build once; the old tree builds with its own Cargo.lock. Run by hand; it
# is not part of scripts/test.sh.
set -euo pipefail

old=${1:-a0afc6d}
root=$(git rev-parse --show-toplevel)
old_short=$(git -C "$root" rev-parse --short "$old^{commit}")
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iceberg-sql-regressions.XXXXXX")
wt=$tmp/$old_short
cleanup() {
    git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

git -C "$root" worktree add --quiet --detach "$wt" "$old_short"
rm -rf "$wt/iceberg-sql-test-server"
cp -R "$root/iceberg-sql-test-server" "$wt/iceberg-sql-test-server"
rm -rf "$wt/iceberg-sql-athena/tests/common"
cp -R "$root/iceberg-sql-athena/tests/common" "$wt/iceberg-sql-athena/tests/common"
cp "$root/iceberg-sql-athena/tests/regressions.rs" "$wt/iceberg-sql-athena/tests/regressions.rs"

# run <dir> <log>: the case file's tests in <dir>; the log holds cargo's output.
run() {
    (cd "$1" && cargo test -p iceberg-sql-athena --features staged-load --test regressions -- --test-threads=2) \
        >"$2" 2>&1 || true
    if ! grep -q '^test result:' "$2"; then
        echo "regressions: the case file did not build or run in $1 (last lines of $2):" >&2
        tail -n 30 "$2" >&2
        exit 1
    fi
}

# result <log> <test>: ok or FAILED.
result() {
    sed -n "s/^test \([a-z_]*::\)\{0,1\}$2 \.\.\. \(ok\|FAILED\)$/\2/p" "$1" | head -n 1
}

# why <log> <test>: the first line of the test's panic message.
why() {
    awk -v t="$2" -v q="'" '
        /^thread / && /panicked at/ && index($0, t q) { grab = 1; next }
        grab && NF { print; exit }
    ' "$1" | cut -c 1-160
}

started=$(date +%s)
old_log=$tmp/old.log
new_log=$tmp/new.log
run "$wt" "$old_log"
run "$root" "$new_log"

status=0
for t in $(sed -n 's/^test \([a-z_]*::\)\{0,1\}\(case_[0-9]*_[a-z0-9_]*\) \.\.\. .*/\2/p' "$new_log" | sort -t_ -k2,2n); do
    n=${t#case_}
    n=${n%%_*}
    at_old=$(result "$old_log" "$t")
    at_new=$(result "$new_log" "$t")
    if [ "$at_old" = FAILED ] && [ "$at_new" = ok ]; then
        echo "case $n: fails at $old_short ($(why "$old_log" "$t")), passes at HEAD"
    else
        status=1
        echo "case $n: NOT A REGRESSION PROOF: ${at_old:-missing} at $old_short, ${at_new:-missing} at HEAD ($t)"
        [ "$at_new" = FAILED ] && echo "    at HEAD: $(why "$new_log" "$t")"
    fi
done
echo "regressions: $(($(date +%s) - started)) s (builds and both runs)"
exit $status
