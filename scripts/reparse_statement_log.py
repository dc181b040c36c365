"""Reads every statement the test suite's `build()` calls returned again, with parsers
independent of ours.

    reparse_statement_log.py trino <log dir>   # run with Trino's grammar installed
    reparse_statement_log.py spark <log dir>   # run with pyspark (scripts/engine.sh)

The log (`ICEBERG_SQL_STATEMENT_LOG`, feature `statement-log` of iceberg-sql) holds one
JSON line per statement: dialect, grammar, kind, sql. `trino` parses, with Trino's own
grammar (trino-query-parser, SqlBase.g4), every distinct statement written in Trino
grammar (Athena's and Trino's DML) except UNLOAD (Athena's own statement); `spark`
parses every distinct Spark statement with the parser of a Spark session configured as
the test engine's (Iceberg's SQL extensions, ANSI mode). Prints one line per statement
refused ("<dialect> <kind>: <error>" and the text) and exits 1 if there was any, else
prints "<mode>: parsed N distinct statements" (and how many were longer than
REPARSE_MAX_BYTES, default 16384, and not read).
"""
import glob
import json
import os
import sys


# Statements longer than this are not read again by Trino's grammar (the big INSERT
# batches: its ANTLR parser in Python takes seconds each; their rows are the VALUES
# recognizer's, whose differential tests cover them). The count skipped is printed.
# Spark's parser reads every statement.
MAX_BYTES = int(os.environ.get("REPARSE_MAX_BYTES", "16384"))


def load(log_dir, keep, max_bytes):
    seen = set()
    out = []
    skipped = 0
    for path in sorted(glob.glob(os.path.join(log_dir, "*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                try:
                    s = json.loads(line)
                except json.JSONDecodeError:
                    # The last line of a test process that died while writing it.
                    print(f"skipped a line cut short in {path}", file=sys.stderr)
                    continue
                key = (s["dialect"], s["kind"], s["sql"])
                if key in seen or not keep(s):
                    continue
                seen.add(key)
                if max_bytes is not None and len(s["sql"].encode("utf-8")) > max_bytes:
                    skipped += 1
                    continue
                out.append(s)
    return out, skipped


# Where the report goes: stdout, or for `spark` the copy of it the engine server's module
# keeps (importing it points fd 1 at stderr, to keep the JVM's output off its protocol).
OUT = sys.stdout


def say(text):
    OUT.write(text + "\n")
    OUT.flush()


def trino_parser():
    from trino_query_parser import parse_statement

    return parse_statement


def spark_parser(log_dir):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "tests", "engine"))
    import argparse

    import iceberg_sql_server
    from iceberg_sql_server import build_session

    global OUT
    OUT = iceberg_sql_server._PROTO

    base = os.path.join(log_dir, "spark-session")
    args = argparse.Namespace(
        warehouse=os.path.join(base, "warehouse"),
        catalog_db=os.path.join(base, "catalog.db"),
        jars=os.environ.get("ICEBERG_ENGINE_JARS", ""),
        s3_root=os.path.join(base, "s3"),
        sqlite_native_dir=os.environ.get("ICEBERG_ENGINE_SQLITE_NATIVE_DIR"),
    )
    spark = build_session(args)
    parser = spark._jsparkSession.sessionState().sqlParser()
    return parser.parsePlan


def main():
    mode, log_dir = sys.argv[1], sys.argv[2]
    if mode == "trino":
        statements, skipped = load(
            log_dir, lambda s: s["grammar"] == "TrinoDml" and s["kind"] != "Unload", MAX_BYTES
        )
        parse = trino_parser()
    elif mode == "spark":
        statements, skipped = load(log_dir, lambda s: s["dialect"] == "Spark", None)
        parse = spark_parser(log_dir)
    else:
        raise ValueError(f"unknown mode {mode!r}: trino or spark")
    # The check can fail: the parser refuses text that is not SQL.
    try:
        parse("SELECT (1")
    except Exception:  # noqa: BLE001
        pass
    else:
        say(f"{mode}: the parser accepted `SELECT (1`; it checks nothing")
        os._exit(2)
    if not statements:
        say(f"{mode}: the log in {log_dir} holds no statement to read")
        os._exit(2)
    failures = 0
    for s in statements:
        try:
            parse(s["sql"])
        except Exception as e:  # the parser's syntax error, or any other refusal
            failures += 1
            message = " ".join(str(e).split())
            say(f"{s['dialect']} {s['kind']}: {type(e).__name__}: {message[:400]}")
            say(f"  in: {s['sql'][:2000]}")
    if failures:
        say(f"{mode}: {failures} of {len(statements)} distinct statements refused")
        os._exit(1)
    not_read = f" ({skipped} longer than {MAX_BYTES} bytes not read)" if skipped else ""
    say(f"{mode}: parsed {len(statements)} distinct statements{not_read}")


if __name__ == "__main__":
    # The parse trees of long AND chains and nested CASTs (the depth tests' statements)
    # are deeper than Python's default recursion limit: parse on a thread with a big
    # stack and a high limit.
    import threading

    sys.setrecursionlimit(200_000)
    threading.stack_size(1 << 30)
    def run():
        # An exception on a thread does not set the exit status: set it here.
        try:
            main()
        except BaseException:  # noqa: BLE001
            import traceback

            traceback.print_exc()
            sys.stdout.flush()
            os._exit(3)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
