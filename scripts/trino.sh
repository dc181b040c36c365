#!/usr/bin/env bash
# Trino 476 with its Iceberg connector, the engine Athena engine v3 is built on, for the
# tests that run Athena's DML verbatim (tests/tests/trino_*.rs).
#
#   source scripts/trino.sh && start_trino   # exports TRINO_ENDPOINT=http://127.0.0.1:<port>
#                                            #   and TRINO_CATALOG (the Iceberg catalog's name)
#   bash scripts/trino.sh                    # fetch and unpack only
#
# Fetch: `mvn dependency:get io.trino:trino-server:476:tar.gz` (Maven Central; 476 is the
# newest release published there, about 820 MB), unpacked once into
# ${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/trino/trino-server-476 with only the iceberg
# plugin (Trino loads every folder under plugin/; removing the unused ones is supported,
# https://trino.io/docs/current/installation/plugins.html, and shortens the start).
# Java: Trino 476 needs Java 24 or later (https://trino.io/docs/current/release/release-476.html);
# TRINO_JAVA_HOME, else the Temurin 25 JDK under /usr/lib/jvm, else any JDK >= 24 there.
#
# Catalog: Glue, served by the moto server the suite already runs (start_moto first:
# MOTO_ENDPOINT), as Athena reads Iceberg tables through the Glue Data Catalog
# (https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg.html):
# `iceberg.catalog.type=glue` with `hive.metastore.glue.endpoint-url`
# (https://trino.io/docs/476/object-storage/metastores.html),
# and the tables' files on the same server's S3, native S3 file system, path-style.
# A schema created without a location goes under s3://iceberg-sql-warehouse/, a bucket
# start_trino creates. moto answers Glue only with its glue extra (pyparsing) installed,
# which scripts/moto.sh does.
#
# Server: single node, coordinator schedules work on itself, 127.0.0.1 only, a free port,
# heap 2 GiB (2 cores, 24 GiB machine shared with cargo and Spark), UTC. Started by
# start_trino, ready when GET /v1/info answers "starting":false, stopped when the
# sourcing shell exits (an EXIT trap set before is kept and still runs) or by stop_trino.
# Cold setup on this project's 2-core machines, measured: fetch about 15 s (820 MB from
# Maven Central), unpack and first start 23 s; warm start (cached) about 12 s.
# Safe to source under `set -u`; it does not change the caller's shell options.

TRINO_VERSION=476

_trino_log() { echo "[trino] $*" >&2; }

_trino_java_home() {
    if [ -n "${TRINO_JAVA_HOME:-}" ]; then echo "$TRINO_JAVA_HOME"; return 0; fi
    local d v
    for d in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
        [ -x "$d/bin/java" ] || continue
        v="$("$d/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = //p')"
        case "$v" in 2[4-9]|[3-9][0-9]) echo "$d"; return 0 ;; esac
    done
    return 1
}

_trino_install() {
    local cache="${XDG_CACHE_HOME:-$HOME/.cache}/iceberg-sql/trino"
    TRINO_HOME="$cache/trino-server-$TRINO_VERSION"
    mkdir -p "$cache" || return 1
    (
        if command -v flock >/dev/null 2>&1; then flock -w 900 9 || exit 1; fi
        [ -f "$TRINO_HOME/.installed" ] && exit 0
        local tgz="$HOME/.m2/repository/io/trino/trino-server/$TRINO_VERSION/trino-server-$TRINO_VERSION.tar.gz"
        if [ ! -f "$tgz" ]; then
            command -v mvn >/dev/null 2>&1 || { _trino_log "mvn is missing"; exit 1; }
            _trino_log "fetching io.trino:trino-server:$TRINO_VERSION:tar.gz (~820 MB) from Maven Central"
            mvn -B -q dependency:get -Dtransitive=false \
                "-Dartifact=io.trino:trino-server:$TRINO_VERSION:tar.gz" >&2 || exit 1
        fi
        _trino_log "unpacking into $TRINO_HOME"
        rm -rf "$TRINO_HOME"
        # Plugins share jars as hard links inside the tarball: unpack all, then drop the
        # plugin folders not used (the iceberg folder keeps its own links).
        tar -xzf "$tgz" -C "$cache" >&2 || exit 1
        find "$TRINO_HOME/plugin" -mindepth 1 -maxdepth 1 -type d ! -name iceberg -exec rm -rf {} + || exit 1
        touch "$TRINO_HOME/.installed"
    ) 9>"$cache/.lock" || { _trino_log "install failed"; return 1; }
}

_trino_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

stop_trino() {
    local pid="${TRINO_PID:-}"
    [ -n "$pid" ] || return 0
    TRINO_PID=""
    kill "$pid" 2>/dev/null || return 0
    local _i
    for _i in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
}

_trino_on_exit() {
    stop_trino
    [ -n "${TRINO_RUN_DIR:-}" ] && [ -z "${TRINO_KEEP:-}" ] && rm -rf "$TRINO_RUN_DIR"
    if [ -n "${_TRINO_PREV_EXIT_TRAP:-}" ]; then
        eval "set -- ${_TRINO_PREV_EXIT_TRAP#trap -- }"
        eval "$1"
    fi
}

start_trino() {
    local t0=$SECONDS
    unset TRINO_ENDPOINT TRINO_CATALOG
    _trino_install || return 1
    local java_home
    java_home="$(_trino_java_home)" || { _trino_log "no JDK 24 or later found (set TRINO_JAVA_HOME)"; return 1; }
    local port
    port="$(_trino_free_port)" || return 1
    TRINO_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/iceberg-sql-trino.XXXXXX")" || return 1
    local etc="$TRINO_RUN_DIR/etc"
    mkdir -p "$etc/catalog" "$TRINO_RUN_DIR/data"
    cat >"$etc/node.properties" <<EOF
node.environment=test
node.id=iceberg-sql-tests
node.data-dir=$TRINO_RUN_DIR/data
EOF
    cat >"$etc/config.properties" <<EOF
coordinator=true
node-scheduler.include-coordinator=true
http-server.http.port=$port
discovery.uri=http://127.0.0.1:$port
query.max-memory=1GB
query.max-memory-per-node=1GB
task.concurrency=2
task.max-worker-threads=4
EOF
    cat >"$etc/jvm.config" <<EOF
-server
-Xmx2G
-XX:+UseG1GC
-XX:+ExplicitGCInvokesConcurrent
-XX:+ExitOnOutOfMemoryError
-XX:-OmitStackTraceInFastThrow
-XX:ReservedCodeCacheSize=256M
-XX:TieredStopAtLevel=1
-Djdk.attach.allowAttachSelf=true
-Duser.timezone=UTC
-Dfile.encoding=UTF-8
EOF
    cat >"$etc/log.properties" <<EOF
io.trino=WARN
io.trino.server.Server=INFO
EOF
    if [ -z "${MOTO_ENDPOINT:-}" ]; then
        _trino_log "MOTO_ENDPOINT is not set: start_moto first (Glue and S3 are moto's)"
        return 1
    fi
    curl -fs --max-time 10 -X PUT "$MOTO_ENDPOINT/iceberg-sql-warehouse" >/dev/null \
        || { _trino_log "cannot create the warehouse bucket on $MOTO_ENDPOINT"; return 1; }
    # Retention floors lowered for the maintenance tests: the crate's Trino target keeps
    # Trino's 7-day default, tests that pass a shorter threshold set the session property.
    cat >"$etc/catalog/iceberg.properties" <<EOF
connector.name=iceberg
iceberg.catalog.type=glue
hive.metastore.glue.region=us-east-1
hive.metastore.glue.endpoint-url=$MOTO_ENDPOINT
hive.metastore.glue.aws-access-key=testing
hive.metastore.glue.aws-secret-key=testing
hive.metastore.glue.default-warehouse-dir=s3://iceberg-sql-warehouse/
iceberg.expire-snapshots.min-retention=0s
iceberg.remove-orphan-files.min-retention=0s
fs.native-s3.enabled=true
s3.endpoint=$MOTO_ENDPOINT
s3.region=us-east-1
s3.path-style-access=true
s3.aws-access-key=testing
s3.aws-secret-key=testing
EOF
    TRINO_LOG="$TRINO_RUN_DIR/launcher.log"
    JAVA_HOME="$java_home" PATH="$java_home/bin:$PATH" \
        "$TRINO_HOME/bin/launcher" run --etc-dir "$etc" --data-dir "$TRINO_RUN_DIR/data" \
        -Dhttp-server.http.host=127.0.0.1 -Dnode.internal-address=127.0.0.1 \
        >"$TRINO_LOG" 2>&1 &
    TRINO_PID=$!
    if [ -z "${_TRINO_TRAP_SET:-}" ]; then
        _TRINO_PREV_EXIT_TRAP="$(trap -p EXIT)"
        trap _trino_on_exit EXIT
        _TRINO_TRAP_SET=1
    fi
    local _i info
    for _i in $(seq 1 300); do   # up to 300 s
        info="$(curl -fs --max-time 2 "http://127.0.0.1:$port/v1/info" 2>/dev/null || true)"
        case "$info" in
            *'"starting":false'*)
                export TRINO_ENDPOINT="http://127.0.0.1:$port"
                export TRINO_CATALOG=iceberg
                _trino_log "ready in $((SECONDS - t0)) s on $TRINO_ENDPOINT (files in $TRINO_RUN_DIR)"
                return 0 ;;
        esac
        if ! kill -0 "$TRINO_PID" 2>/dev/null; then
            _trino_log "the server exited; log:"; tail -n 60 "$TRINO_LOG" >&2
            TRINO_PID=""
            return 1
        fi
        sleep 1
    done
    _trino_log "no answer on 127.0.0.1:$port within 300 s; log:"; tail -n 60 "$TRINO_LOG" >&2
    stop_trino
    return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    _trino_install && _trino_java_home >/dev/null && echo "Trino $TRINO_VERSION installed in $TRINO_HOME"
fi
