#!/usr/bin/env bash
# Instructions per statement (callgrind) of the two validator pipelines on the
# per-statement benchmark's statements, in a release build of iceberg-sql's unit tests
# (where the pipeline on our own parser is compiled): the sqlparser pipeline that
# `build()` runs today ("old") and the one on our own lexer and parser ("new"). Each
# figure is (count for N+1000 calls - count for N calls) / 1000.
#
#   CARGO_TARGET_DIR=... ./scripts/validator-instructions.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bin=$(cargo test --release -p iceberg-sql --lib --no-run --message-format=json 2>/dev/null \
    | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
count() {   # kind pipeline n -> instructions
    VALIDATOR_INSTRUCTIONS="$1 $2 $3" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$bin" --ignored --exact validate::check::instructions::validator_instructions \
        --test-threads=1 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_call() {
    local a b
    a=$(count "$1" "$2" 10); b=$(count "$1" "$2" 1010)
    echo $(( (b - a) / 1000 ))
}
echo "| kind | sqlparser pipeline | our parser's pipeline | ours / sqlparser's |"
echo "|---|---:|---:|---:|"
for kind in CreateTable Insert Update Delete Merge Select; do
    o=$(per_call "$kind" old); n=$(per_call "$kind" new)
    echo "| $kind | $o | $n | **$(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.2f", a / b }')** |"
done
