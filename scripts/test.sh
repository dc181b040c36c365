#!/usr/bin/env bash
# THE project test command:  ./scripts/test.sh [extra `cargo test` args, e.g. a test name filter]
#
# 1. installs/starts the services the tests need:
#      - the real Iceberg engine (scripts/engine.sh: Spark 3.5.9 + Iceberg 1.10.2, cached
#        under ${XDG_CACHE_HOME:-~/.cache}/iceberg-sql/engine after the first run);
#      - moto (scripts/moto.sh, if present: its start_moto exports MOTO_ENDPOINT);
#      - Trino 476 with Iceberg (scripts/trino.sh: start_trino exports TRINO_ENDPOINT),
#        which runs Athena's DML text verbatim;
#      - Trino's grammar (scripts/trino_grammar.sh: trino-query-parser, exports
#        TRINO_GRAMMAR_PYTHON), which re-parses the Trino target's statements;
# 2. runs `cargo test --workspace --no-fail-fast` (every crate, every test binary, doctests,
#    all of them even when one fails), logging every statement a `build()` returns;
# 3. has Trino's grammar and Spark's parser read every logged statement of their grammar
#    again (one check each in the summary);
# 4. builds and runs a fresh app outside the workspace without its lock file
#    (scripts/downstream.sh), as a new user resolves the dependencies, and again with the
#    crates' dependencies at their declared lower bounds;
# 5. packages every published crate (`cargo package --no-verify`);
# 6. prints one closing line: "summary: N passed, N failed, N skipped".
#
# Without CI set, a service that cannot be set up is a warning and its tests print SKIP.
# With CI set (CI=true), it is a failure.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ci_set() { case "${CI:-}" in ""|0|false|no) return 1 ;; *) return 0 ;; esac; }

problems=()
t_start=$SECONDS

# --- real Iceberg engine --------------------------------------------------------------
t0=$SECONDS
# shellcheck source=scripts/engine.sh
if source scripts/engine.sh; then
    echo "test.sh: engine ready ($((SECONDS - t0)) s): $ICEBERG_ENGINE_WAREHOUSE"
else
    problems+=("Iceberg engine could not be installed (scripts/engine.sh)")
    echo "test.sh: WARNING: Iceberg engine unavailable; engine tests will SKIP (or fail with CI set)" >&2
fi

# --- moto (Athena API mock), if the project has it ------------------------------------
if [ -f scripts/moto.sh ]; then
    t0=$SECONDS
    # shellcheck disable=SC1091
    if source scripts/moto.sh && declare -F start_moto >/dev/null && start_moto; then
        echo "test.sh: moto ready ($((SECONDS - t0)) s): ${MOTO_ENDPOINT:-?}"
    else
        problems+=("moto could not be started (scripts/moto.sh start_moto)")
        echo "test.sh: WARNING: moto unavailable; its tests will SKIP (or fail with CI set)" >&2
    fi
fi

# --- Trino 476 with Iceberg (Athena's engine), for the tests that run DML verbatim ------
t0=$SECONDS
# shellcheck source=scripts/trino.sh
if source scripts/trino.sh && start_trino; then
    echo "test.sh: Trino ready ($((SECONDS - t0)) s): $TRINO_ENDPOINT"
else
    problems+=("Trino could not be started (scripts/trino.sh start_trino)")
    echo "test.sh: WARNING: Trino unavailable; its tests will SKIP (or fail with CI set)" >&2
fi

# --- Trino's grammar (second parser for the Trino target) ------------------------------
t0=$SECONDS
# shellcheck source=scripts/trino_grammar.sh
if source scripts/trino_grammar.sh && ensure_trino_grammar; then
    echo "test.sh: Trino grammar ready ($((SECONDS - t0)) s)"
else
    problems+=("Trino grammar could not be installed (scripts/trino_grammar.sh)")
    echo "test.sh: WARNING: Trino grammar unavailable; its test will SKIP (or fail with CI set)" >&2
fi

if ci_set && [ ${#problems[@]} -gt 0 ]; then
    printf 'test.sh: CI is set and a service is missing: %s\n' "${problems[@]}" >&2
fi

# --- statement log ---------------------------------------------------------------------
# The tests crate turns on iceberg-sql's `statement-log` feature: every statement a
# `build()` returns during the run is logged here, and read again after the tests by
# parsers independent of ours (below).
statement_log="$(mktemp -d "${TMPDIR:-/tmp}/iceberg-sql-statements.XXXXXX")"
export ICEBERG_SQL_STATEMENT_LOG="$statement_log"

# --- cargo test -----------------------------------------------------------------------
# Engine tests share one engine per test binary; the Rust client serializes statements,
# so the default test threads are fine.
log="$(mktemp "${TMPDIR:-/tmp}/iceberg-sql-test.XXXXXX.log")"
t0=$SECONDS
# The executor's optional `arrow`, `serde` and `test-server` features are on, so that
# their methods' doc tests, tests, the offline-test example (`test_server`) and the
# new-user example (tests/new_user.rs) run too; the bench crate only builds its baselines.
scope=(--workspace --exclude iceberg-sql-benches --features iceberg-sql-athena/arrow,iceberg-sql-athena/serde,iceberg-sql-athena/test-server)
for a in "$@"; do   # `-p crate` narrows the run (with --workspace cargo would run everything)
    case "$a" in -p|--package|--package=*|-p?*) scope=() ;; --) break ;; esac
done
cargo test "${scope[@]}" --no-fail-fast "$@" 2>&1 | tee "$log"
cargo_rc=${PIPESTATUS[0]}
t_cargo=$((SECONDS - t0))

# --- every statement the tests built, read again ---------------------------------------
# Trino's own grammar reads each distinct Trino-grammar statement (Athena's and Trino's
# DML), Spark's parser each Spark statement (scripts/reparse_statement_log.py). Each
# reader is one check in the summary. Runs narrowed to one crate (`-p`) build no log.
reparse_passed=0
reparse_failed=0
if [ ${#scope[@]} -gt 0 ] && { [ $# -eq 0 ] || compgen -G "$statement_log/*.jsonl" >/dev/null; }; then
    t0=$SECONDS
    declare -A reparse_pid=()
    for mode in trino spark; do   # the two readers run side by side
        case "$mode" in
            trino) py="${TRINO_GRAMMAR_PYTHON:-}" ;;
            spark) py="${ICEBERG_ENGINE_PYTHON:-}" ;;
        esac
        if [ -z "$py" ]; then
            echo "test.sh: statements not read again by $mode's parser (it is not set up)"
            continue
        fi
        "$py" scripts/reparse_statement_log.py "$mode" "$statement_log" \
            >"$statement_log/$mode.out" 2>"$statement_log/$mode.err" &
        reparse_pid[$mode]=$!
    done
    for mode in "${!reparse_pid[@]}"; do
        if wait "${reparse_pid[$mode]}"; then
            reparse_passed=$((reparse_passed + 1))
            echo "test.sh: $(tail -n 1 "$statement_log/$mode.out") ($((SECONDS - t0)) s)"
        else
            reparse_failed=$((reparse_failed + 1))
            echo "test.sh: FAILED: statements the crate returned that $mode's parser refuses:" >&2
            head -c 20000 "$statement_log/$mode.out" >&2
            tail -n 20 "$statement_log/$mode.err" >&2
        fi
    done
fi

# --- a new user's app, outside the workspace ------------------------------------------
# scripts/downstream.sh: a fresh crate without this Cargo.lock (the newest versions the
# crates allow), on the declared rust-version, against the offline test double; then the
# same with the crates' own dependencies at their declared lower bounds
# (--minimal-versions). Two checks in the summary. Both share CARGO_TARGET_DIR, so a warm
# run rebuilds only the app and this repository's crates.
if [ ${#scope[@]} -gt 0 ] && [ $# -eq 0 ]; then
    for mode in newest minimal; do
        t0=$SECONDS
        args=()
        [ "$mode" = minimal ] && args=(--minimal-versions)
        out="$statement_log/downstream-$mode.out"
        if ./scripts/downstream.sh "${args[@]}" >"$out" 2>&1; then
            reparse_passed=$((reparse_passed + 1))
            echo "$(tail -n 1 "$out") [$mode versions]"
        else
            reparse_failed=$((reparse_failed + 1))
            echo "test.sh: FAILED: the downstream app, $mode versions (scripts/downstream.sh ${args[*]}, $((SECONDS - t0)) s):" >&2
            grep -E '^(error|warning: unused)|^test .* FAILED|panicked|downstream.sh' "$out" | head -c 20000 >&2
            tail -n 40 "$out" >&2
        fi
    done
fi

# --- the published crates package ----------------------------------------------------
# `cargo package` of every published crate (license files, READMEs, docs.rs metadata, a
# version on every dependency), without the verifying build: one check in the summary.
if [ ${#scope[@]} -gt 0 ] && [ $# -eq 0 ]; then
    published=(-p iceberg-sql-rules -p iceberg-sql -p iceberg-sql-derive -p iceberg-sql-test-server -p iceberg-sql-athena)
    if cargo package --no-verify --allow-dirty "${published[@]}" >"$statement_log/package.out" 2>&1; then
        reparse_passed=$((reparse_passed + 1))
        echo "test.sh: cargo package: $(grep -c '^ *Packaged' "$statement_log/package.out") published crates packaged"
    else
        reparse_failed=$((reparse_failed + 1))
        echo "test.sh: FAILED: cargo package of the published crates:" >&2
        tail -n 40 "$statement_log/package.out" >&2
    fi
fi

# --- summary --------------------------------------------------------------------------
read -r passed failed ignored < <(
    grep -E '^test result: ' "$log" | awk '
        { for (i = 1; i <= NF; i++) {
              if ($(i+1) ~ /^passed/)  p += $i
              if ($(i+1) ~ /^failed/)  f += $i
              if ($(i+1) ~ /^ignored/) g += $i } }
        END { printf "%d %d %d\n", p, f, g }')
rm -f "$log"

passed=$((passed + reparse_passed))
failed=$((failed + reparse_failed))
rc=$cargo_rc
if [ "$reparse_failed" -gt 0 ]; then rc=1; fi
if ci_set && [ ${#problems[@]} -gt 0 ]; then rc=1; fi
if [ "$cargo_rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    # a build error or a crashed test binary: count it as a failure in the summary line
    failed=1
fi
if [ "$rc" -eq 0 ] && [ -n "${ICEBERG_ENGINE_WAREHOUSE:-}" ]; then
    rm -rf "$(dirname "$ICEBERG_ENGINE_WAREHOUSE")"   # keep it (server.log) on failure
elif [ -n "${ICEBERG_ENGINE_WAREHOUSE:-}" ]; then
    echo "test.sh: engine files and server logs kept in $(dirname "$ICEBERG_ENGINE_WAREHOUSE")"
fi
if [ "$rc" -eq 0 ]; then
    rm -rf "$statement_log"
else
    echo "test.sh: statement log kept in $statement_log"
fi
for p in "${problems[@]}"; do echo "test.sh: missing service: $p"; done
echo "test.sh: cargo test took ${t_cargo} s, total $((SECONDS - t_start)) s; exit $rc"
summary="summary: $passed passed, $failed failed, $ignored skipped"
echo "$summary"
if [ -n "${ICEBERG_SQL_SUMMARY_FILE:-}" ]; then echo "$summary" >"$ICEBERG_SQL_SUMMARY_FILE"; fi
exit "$rc"
