#!/usr/bin/env bash
# Instruction counts per statement (callgrind), stable where wall time is noisy:
# `build()` (render + validate), a bare sqlparser parse of the same text (GenericDialect),
# rendering alone, and sea-query, per statement kind. Each figure is
# (count for N+1000 calls - count for N calls) / 1000, so the setup cancels out.
#
#   CARGO_TARGET_DIR=... ./scripts/bench-instructions.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo bench -p iceberg-sql-benches --bench statements --no-run 2>/dev/null
bin=$(ls -t "${CARGO_TARGET_DIR:-target}"/release/deps/statements-* | grep -v '\.d$' | head -1)
count() {   # kind variant n -> instructions
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --instr "$1" "$2" "$3" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_call() {
    local a b
    a=$(count "$1" "$2" 10); b=$(count "$1" "$2" 1010)
    echo $(( (b - a) / 1000 ))
}
# The render-only variant's own measurement (flag writes, the text kept, a boxed
# refusal), which a builder that returns its text does not pay: counted once, set
# beside sea-query as "render − harness".
h=$(per_call update harness)
echo "measurement harness alone: $h instructions per call"
echo
echo "| kind | build() | sqlparser parse | build / parse | render only | render − harness | sea-query | render / sea-query | (render − harness) / sea-query |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for kind in create_table insert update delete merge select; do
    b=$(per_call "$kind" build); p=$(per_call "$kind" parse); r=$(per_call "$kind" render)
    case $kind in
        insert|update|delete) s=$(per_call "$kind" sea)
            sea="$s | $(awk -v a="$r" -v b="$s" 'BEGIN { printf "%.2f", a / b }') | $(awk -v a="$((r - h))" -v b="$s" 'BEGIN { printf "%.2f", a / b }')" ;;
        *) sea="— | — | —" ;;
    esac
    echo "| $kind | $b | $p | **$(awk -v a="$b" -v b="$p" 'BEGIN { printf "%.2f", a / b }')** | $r | $((r - h)) | $sea |"
done
