"""Parses SQL statements with Trino's grammar (trino-query-parser).

Reads a JSON array of statements on stdin (JSON, so that a statement may hold any
character, NUL included, or be empty); prints one line per statement that does not parse
("<index>\t<error>") and exits 1 if there was any, else prints the count.
"""
import json
import sys

from trino_query_parser import parse_statement

statements = json.loads(sys.stdin.buffer.read().decode("utf-8"))
failures = 0
for i, sql in enumerate(statements):
    try:
        parse_statement(sql)
    except Exception as e:  # the grammar's TrinoSyntaxError, or any other refusal
        failures += 1
        message = " ".join(str(e).split())
        print(f"{i}\t{type(e).__name__}: {message[:300]}")
if failures:
    sys.exit(1)
print(f"parsed {len(statements)}")
