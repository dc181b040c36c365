#!/usr/bin/env bash
# moto (PyPI, 5.2.5) as a local Athena-protocol server for iceberg-sql-athena's tests.
#
#   source scripts/moto.sh && start_moto     # exports MOTO_ENDPOINT=http://127.0.0.1:<port>
#
# The venv (moto with its glue extra, which adds pyparsing, + flask + flask-cors, ~140 MB,
# ~25 s to install) is cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/moto. The server listens on 127.0.0.1
# only, on a free port, and is stopped when the sourcing shell exits (an EXIT trap
# that was set before start_moto is kept and still runs). stop_moto stops it earlier.
# Safe to source under `set -u`; it does not change the caller's shell options.

MOTO_VERSION="${MOTO_VERSION:-5.2.5}"

_moto_http_ok() { # url -> 0 if it answers 2xx
    if command -v curl >/dev/null 2>&1; then
        curl -fs -o /dev/null --max-time 2 "$1"
    else
        "$MOTO_VENV/bin/python" - "$1" <<'PY' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=2).read()
PY
    fi
}

stop_moto() {
    local pid="${MOTO_PID:-}"
    [ -n "$pid" ] || return 0
    MOTO_PID=""
    kill "$pid" 2>/dev/null || return 0
    local _i
    for _i in $(seq 1 30); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
}

_moto_on_exit() {
    stop_moto
    if [ -n "${_MOTO_PREV_EXIT_TRAP:-}" ]; then
        # `trap -p EXIT` printed: trap -- 'cmd' EXIT
        eval "set -- ${_MOTO_PREV_EXIT_TRAP#trap -- }"
        eval "$1"
    fi
}

start_moto() {
    local cache="${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/moto"
    MOTO_VENV="$cache/venv"
    mkdir -p "$cache" || return 1
    if ! "$MOTO_VENV/bin/python" -c "import importlib.metadata as m, sys; import pyparsing; sys.exit(m.version('moto') != '$MOTO_VERSION')" 2>/dev/null \
        || [ ! -x "$MOTO_VENV/bin/moto_server" ]; then
        echo "moto.sh: installing moto[glue]==$MOTO_VERSION flask flask-cors into $MOTO_VENV" >&2
        rm -rf "$MOTO_VENV"
        python3 -m venv "$MOTO_VENV" || return 1
        "$MOTO_VENV/bin/pip" install -q --disable-pip-version-check "moto[glue]==$MOTO_VERSION" flask flask-cors || return 1
    fi
    local port
    port="$("$MOTO_VENV/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')" || return 1
    MOTO_LOG="$cache/moto-$port.log"
    "$MOTO_VENV/bin/moto_server" -H 127.0.0.1 -p "$port" >"$MOTO_LOG" 2>&1 &
    MOTO_PID=$!
    if [ -z "${_MOTO_TRAP_SET:-}" ]; then
        _MOTO_PREV_EXIT_TRAP="$(trap -p EXIT)"
        trap _moto_on_exit EXIT
        _MOTO_TRAP_SET=1
    fi
    local _i
    for _i in $(seq 1 300); do   # up to 30 s (startup takes ~3 s while cargo compiles)
        if _moto_http_ok "http://127.0.0.1:$port/moto-api/data.json"; then
            export MOTO_ENDPOINT="http://127.0.0.1:$port"
            export AWS_EC2_METADATA_DISABLED=true
            return 0
        fi
        if ! kill -0 "$MOTO_PID" 2>/dev/null; then
            echo "moto.sh: moto_server exited; log:" >&2
            cat "$MOTO_LOG" >&2
            MOTO_PID=""
            return 1
        fi
        sleep 0.1
    done
    echo "moto.sh: moto_server did not answer on 127.0.0.1:$port within 30 s; log:" >&2
    cat "$MOTO_LOG" >&2
    stop_moto
    return 1
}
