"""Parses SQL statements with Trino's grammar (trino-query-parser).

Reads statements separated by NUL bytes on stdin; prints one line per statement that
does not parse ("<index>\t<error>") and exits 1 if there was any, else prints the count.
"""
import sys

from trino_query_parser import parse_statement

statements = [s for s in sys.stdin.read().split("\0") if s.strip()]
failures = 0
for i, sql in enumerate(statements):
    try:
        parse_statement(sql)
    except Exception as e:  # the grammar's TrinoSyntaxError, or any other refusal
        failures += 1
        print(f"{i}\t{type(e).__name__}: {str(e)[:300]}")
if failures:
    sys.exit(1)
print(f"parsed {len(statements)}")
