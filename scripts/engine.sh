#!/usr/bin/env bash
# Real Iceberg engine for the end-to-end tests: Spark 3.5.9 + Iceberg 1.10.2 (PyPI),
# Java 17, Iceberg JDBC catalog on SQLite (Debian's xerial sqlite-jdbc).
#
#   source scripts/engine.sh        # installs what is missing (idempotent), then exports
#                                   #   ICEBERG_ENGINE_PYTHON, ICEBERG_ENGINE_SERVER,
#                                   #   ICEBERG_ENGINE_WAREHOUSE (fresh temp dir per run),
#                                   #   ICEBERG_ENGINE_JARS (':'-separated jar paths),
#                                   #   ICEBERG_ENGINE_CATALOG_DB (SQLite file, in the temp dir)
#   bash scripts/engine.sh          # install only, print the exports
#
# Safe to `source`: it does not change shell options and never calls `exit` when sourced;
# on failure it returns non-zero and leaves the ICEBERG_ENGINE_* variables unset.
# The engine venv lives in ${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/engine/<version>.

ICEBERG_ENGINE_VERSION_TAG="spark-3.5.9-iceberg-1.10.2-deps1.0.2"
# 1.0.2, NOT 1.0.3: 1.0.3's iceberg-spark-runtime jar lacks the shaded Jackson classes
# (NoClassDefFoundError .../shaded/com/fasterxml/jackson/core/JsonFactoryBuilder).
ICEBERG_ENGINE_PIP_PKGS=("pyspark==3.5.9" "snowpark-connect-deps-iceberg==1.0.2")

_iceberg_engine_log() { echo "[engine] $*" >&2; }

_iceberg_engine_apt_install() {
    # Install Debian packages (root only; CI and dev machines run as root).
    local sudo_cmd=""
    if [ "$(id -u)" != "0" ]; then
        if command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo -n"; else
            _iceberg_engine_log "need root to apt-get install $*"; return 1; fi
    fi
    if [ -z "${_ICEBERG_ENGINE_APT_UPDATED:-}" ]; then
        $sudo_cmd apt-get update -qq >&2 || return 1
        _ICEBERG_ENGINE_APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "$@" >&2
}

_iceberg_engine_install() {
    local root="${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/engine/$ICEBERG_ENGINE_VERSION_TAG"
    local venv="$root/venv"

    # 1. Java (17 is what we test with; any `java` on PATH is accepted).
    if ! command -v java >/dev/null 2>&1; then
        _iceberg_engine_log "java missing: installing openjdk-17-jre-headless"
        _iceberg_engine_apt_install openjdk-17-jre-headless || return 1
    fi

    # 2. SQLite JDBC driver for the Iceberg JdbcCatalog (Debian's xerial build; its native
    #    library ships separately in -jni).
    if ! dpkg -s libxerial-sqlite-jdbc-java >/dev/null 2>&1 \
        || ! dpkg -s libxerial-sqlite-jdbc-jni >/dev/null 2>&1; then
        _iceberg_engine_log "installing libxerial-sqlite-jdbc-java + -jni"
        _iceberg_engine_apt_install libxerial-sqlite-jdbc-java libxerial-sqlite-jdbc-jni || return 1
    fi
    local sqlite_jar
    sqlite_jar="$(dpkg -L libxerial-sqlite-jdbc-java | grep -E '/sqlite-jdbc[^/]*\.jar$' | head -n1)"
    if [ -z "$sqlite_jar" ] || [ ! -f "$sqlite_jar" ]; then
        _iceberg_engine_log "sqlite-jdbc jar not found in libxerial-sqlite-jdbc-java"; return 1
    fi
    local sqlite_native_dir
    sqlite_native_dir="$(dirname "$(dpkg -L libxerial-sqlite-jdbc-jni | grep -E '/libsqlitejdbc\.so$' | head -n1)")"

    # 3. Python venv with pyspark + the Iceberg Spark runtime jar. A marker file makes a
    #    half-finished install retry from scratch; flock serializes concurrent installers.
    mkdir -p "$root" || return 1
    (
        if command -v flock >/dev/null 2>&1; then flock -w 900 9 || exit 1; fi
        if [ -f "$root/.installed" ] && "$venv/bin/python" -c 'import pyspark, snowpark_connect_deps_iceberg' 2>/dev/null; then
            exit 0
        fi
        _iceberg_engine_log "installing ${ICEBERG_ENGINE_PIP_PKGS[*]} into $venv (first run: ~1-2 min)"
        rm -rf "$venv" "$root/.installed"
        python3 -m venv "$venv" >&2 || exit 1
        "$venv/bin/pip" install --quiet "${ICEBERG_ENGINE_PIP_PKGS[@]}" >&2 || exit 1
        # Scala 2.13 jars are unused (pyspark 3.5 is Scala 2.12): drop them to save ~47 MB.
        find "$venv" -path '*snowpark_connect_deps_iceberg*' -name '*_2.13-*.jar' -delete 2>/dev/null
        touch "$root/.installed"
    ) 9>"$root/.lock" || { _iceberg_engine_log "venv install failed"; return 1; }

    local runtime_jar
    runtime_jar="$(find "$venv" -path '*snowpark_connect_deps_iceberg*' -name 'iceberg-spark-runtime-3.5_2.12-*.jar' | head -n1)"
    if [ -z "$runtime_jar" ]; then _iceberg_engine_log "iceberg-spark-runtime jar not found"; return 1; fi

    local here
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    local run_dir
    run_dir="$(mktemp -d "${TMPDIR:-/tmp}/iceberg-sql-engine.XXXXXX")" || return 1

    export ICEBERG_ENGINE_PYTHON="$venv/bin/python"
    export ICEBERG_ENGINE_SERVER="$here/tests/engine/iceberg_sql_server.py"
    export ICEBERG_ENGINE_WAREHOUSE="$run_dir/warehouse"
    export ICEBERG_ENGINE_CATALOG_DB="$run_dir/catalog.db"
    export ICEBERG_ENGINE_JARS="$runtime_jar:$sqlite_jar"
    export ICEBERG_ENGINE_SQLITE_NATIVE_DIR="$sqlite_native_dir"
    mkdir -p "$ICEBERG_ENGINE_WAREHOUSE"
}

_iceberg_engine_main() {
    local t0=$SECONDS
    unset ICEBERG_ENGINE_PYTHON ICEBERG_ENGINE_SERVER ICEBERG_ENGINE_WAREHOUSE \
          ICEBERG_ENGINE_CATALOG_DB ICEBERG_ENGINE_JARS ICEBERG_ENGINE_SQLITE_NATIVE_DIR
    if _iceberg_engine_install; then
        _iceberg_engine_log "ready in $((SECONDS - t0)) s (warehouse $ICEBERG_ENGINE_WAREHOUSE)"
        return 0
    fi
    unset ICEBERG_ENGINE_PYTHON ICEBERG_ENGINE_SERVER ICEBERG_ENGINE_WAREHOUSE \
          ICEBERG_ENGINE_CATALOG_DB ICEBERG_ENGINE_JARS ICEBERG_ENGINE_SQLITE_NATIVE_DIR
    _iceberg_engine_log "engine NOT available"
    return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # Executed, not sourced: install and print the exports.
    _iceberg_engine_main || exit 1
    for v in ICEBERG_ENGINE_PYTHON ICEBERG_ENGINE_SERVER ICEBERG_ENGINE_WAREHOUSE \
             ICEBERG_ENGINE_CATALOG_DB ICEBERG_ENGINE_JARS ICEBERG_ENGINE_SQLITE_NATIVE_DIR; do
        printf 'export %s=%q\n' "$v" "${!v}"
    done
else
    _iceberg_engine_main
fi
