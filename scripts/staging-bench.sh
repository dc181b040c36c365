#!/usr/bin/env bash
# The staging-writer benchmark, one command: our Parquet staging writer (release build,
# benches/benches/staging.rs) and pyarrow (scripts/staging_bench.py) writing the same
# rows, same codec, same row groups; prints one table.
#
#   CARGO_TARGET_DIR=... ./scripts/staging-bench.sh [--rows N] [--rounds R]
#
# pyarrow is installed from PyPI into the benchmark's own venv,
# ${XDG_CACHE_HOME:-~/.cache}/iceberg-sql/bench-venv (not used by the tests or CI).
# Files are written under ${STAGING_BENCH_DIR:-/dev/shm/iceberg-sql-staging-bench}
# (memory, so the disk does not take part) and deleted at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYARROW_VERSION="26.0.1"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/bench-venv"
if ! "$venv/bin/python" -c "import pyarrow, sys; sys.exit(pyarrow.__version__ != '$PYARROW_VERSION')" 2>/dev/null; then
    echo "staging-bench: installing pyarrow==$PYARROW_VERSION into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "pyarrow==$PYARROW_VERSION"
fi

rows=1000000 rounds=5
while [ $# -gt 0 ]; do
    case $1 in
        --rows) rows=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        *) echo "usage: $0 [--rows N] [--rounds R]" >&2; exit 2 ;;
    esac
done
dir="${STAGING_BENCH_DIR:-/dev/shm/iceberg-sql-staging-bench}"
results="$dir.results"
trap 'rm -rf "$dir" "$results"' EXIT
mkdir -p "$dir"

cargo bench -p iceberg-sql-benches --bench staging -- \
    --rows "$rows" --rounds "$rounds" --dir "$dir" | tee "$results"
"$venv/bin/python" scripts/staging_bench.py --dir "$dir" --results "$results" --rounds "$rounds"
