"""pyarrow beside our staging writer: the same rows written as Parquet.

Run by scripts/staging-bench.sh after the Rust bench (benches/benches/staging.rs),
which leaves its staged files in DIR/lanes-1 and prints RESULT lines. This script reads
those files (untimed) into one Arrow table, so pyarrow writes exactly the rows our
writer wrote, in the same staged form (the timestamp column as its exact text), with
the same codec (snappy) and row groups (131,072 rows), and each writer's defaults
otherwise. It also writes the table's own form (the timestamp as timestamp[us], what
awswrangler writes). Then it prints one table with both sides.

    python staging_bench.py --dir DIR --results RESULTS_FILE [--rounds R]
"""

import argparse
import glob
import os
import statistics
import time

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROW_GROUP_ROWS = 131072


def write_rounds(table, path, rounds):
    times = []
    for _ in range(rounds):
        if os.path.exists(path):
            os.remove(path)
        start = time.perf_counter()
        pq.write_table(table, path, compression="snappy", row_group_size=ROW_GROUP_ROWS)
        times.append(time.perf_counter() - start)
    back = pq.read_table(path)
    assert back.equals(table), "pyarrow read back what it wrote"
    return statistics.median(times), os.path.getsize(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()

    ours = {}
    with open(a.results) as f:
        for line in f:
            if line.startswith("RESULT "):
                kv = dict(p.split("=", 1) for p in line.split()[1:])
                ours[kv["name"]] = kv

    files = sorted(glob.glob(os.path.join(a.dir, "lanes-1", "**", "*.parquet"), recursive=True))
    staged = pa.concat_tables([pq.read_table(f) for f in files]).combine_chunks()
    rows = staged.num_rows
    # The rows' size in Arrow (the same rows, whoever writes them): the denominator
    # of every MB/s below.
    arrow_mb = staged.nbytes / 1e6
    table_form = staged.set_column(
        staged.schema.get_field_index("event_ts"),
        "event_ts",
        pc.cast(staged["event_ts"], pa.timestamp("us")),
    )

    out = os.path.join(a.dir, "pyarrow")
    os.makedirs(out, exist_ok=True)
    py_staged = write_rounds(staged, os.path.join(out, "staged.parquet"), a.rounds)
    py_table = write_rounds(table_form, os.path.join(out, "table.parquet"), a.rounds)

    print()
    print(
        f"{rows:,} rows, {arrow_mb:.1f} MB in Arrow (staged form); snappy, row groups of "
        f"{ROW_GROUP_ROWS:,} rows; median of {a.rounds} rounds; pyarrow {pa.__version__}"
    )
    print()
    print("| writer | s | rows/s | MB/s (Arrow size) | Parquet MB | vs pyarrow (staged form) |")
    print("|---|---|---|---|---|---|")
    base = py_staged[0]

    def line(name, seconds, parquet_bytes):
        print(
            f"| {name} | {seconds:.3f} | {rows / seconds:,.0f} | {arrow_mb / seconds:,.1f} | "
            f"{parquet_bytes / 1e6:.1f} | {base / seconds:.2f}x |"
        )

    for key, kv in sorted(ours.items()):
        if not key.startswith("ours-lanes-"):
            continue
        assert int(kv["rows"]) == rows, "both sides wrote the same rows"
        lanes = key.removeprefix("ours-lanes-")
        line(
            f"iceberg-sql StagingWriter, {lanes} lane(s), {kv['files']} file(s)",
            float(kv["seconds"]),
            int(kv["bytes"]),
        )
    line("pyarrow write_table, staged form", *py_staged)
    line("pyarrow write_table, table form (timestamp[us])", *py_table)
    if "to_arrow" in ours:
        s = float(ours["to_arrow"]["seconds"])
        print()
        print(
            f"Before the writer: {rows:,} McpEvent structs into Arrow record batches "
            f"(records_to_batch) {s:.3f} s, {rows / s:,.0f} rows/s."
        )


if __name__ == "__main__":
    main()
