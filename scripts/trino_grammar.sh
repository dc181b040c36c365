#!/usr/bin/env bash
# Trino's own SQL grammar as a second parser for the Trino target's statements:
# trino-query-parser (PyPI; Trino's ANTLR grammar, SqlBase.g4 of Trino 422).
#
#   source scripts/trino_grammar.sh && ensure_trino_grammar   # exports TRINO_GRAMMAR_PYTHON
#
# The venv is cached under ${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/trino-grammar.
# scripts/trino_parse.py is the driver the tests run with that interpreter.

TRINO_GRAMMAR_VERSION="${TRINO_GRAMMAR_VERSION:-0.422.7}"

ensure_trino_grammar() {
    local cache="${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/trino-grammar"
    local venv="$cache/venv"
    mkdir -p "$cache" || return 1
    if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('trino-query-parser') != '$TRINO_GRAMMAR_VERSION')" 2>/dev/null; then
        echo "trino_grammar.sh: installing trino-query-parser==$TRINO_GRAMMAR_VERSION into $venv" >&2
        rm -rf "$venv"
        python3 -m venv "$venv" || return 1
        "$venv/bin/pip" install -q --disable-pip-version-check "trino-query-parser==$TRINO_GRAMMAR_VERSION" || return 1
    fi
    export TRINO_GRAMMAR_PYTHON="$venv/bin/python"
}
