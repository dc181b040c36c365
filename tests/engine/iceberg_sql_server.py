#!/usr/bin/env python3
"""JSON-lines SQL server over a local Spark 3.5 + Iceberg 1.10 session (test-only).

Protocol (one JSON object per line, stdin -> stdout):

  request  {"sql": "SELECT 1"}                 optional "id": echoed back
           {"cmd": "ping"}                     liveness check
           {"cmd": "reset"}                    drop every namespace except `default`
  reply    {"ok": true, "columns": [...], "types": [...], "rows": [[cell, ...], ...]}
           {"ok": false, "error_class": "...", "error": "..."}

On start, after the Spark session is up, the server writes one line
{"ok": true, "ready": true, "startup_s": ...}; clients wait for it.

Cells are encoded losslessly, always as a JSON string or null:
  NULL -> null (never ""); strings byte-exact; integers/decimals/floats as decimal text
  (floats via Python repr, shortest round-trip; NaN/Infinity/-Infinity); booleans
  "true"/"false"; binary as lowercase hex; date "YYYY-MM-DD"; timestamps ISO-8601
  "YYYY-MM-DDTHH:MM:SS[.ffffff]" in UTC (session and JVM run in UTC; no offset suffix),
  except top-level Spark `timestamp` (Iceberg timestamptz) cells, written as Athena writes
  them: "YYYY-MM-DD HH:MM:SS[.ffffff] UTC";
  arrays/maps/structs as JSON text, whose scalars follow the same rules except that
  NULL is JSON null and integers/booleans are JSON numbers/booleans.

Configuration (environment; command-line flags override):
  ICEBERG_ENGINE_WAREHOUSE   --warehouse   warehouse dir for tables without LOCATION
  ICEBERG_ENGINE_CATALOG_DB  --catalog-db  SQLite file of the Iceberg JDBC catalog
                                           (default <warehouse>/../catalog.db)
  ICEBERG_ENGINE_JARS        --jars        ':'-separated: iceberg-spark-runtime + sqlite-jdbc
  ICEBERG_ENGINE_S3_ROOT     --s3-root     local dir that s3://bucket/key maps to
                                           (<s3-root>/bucket/key); default <warehouse>/../s3

The process exits when stdin closes; the JVM (a child started by pyspark) exits with it.
"""

import argparse
import base64  # noqa: F401  (kept for debugging binary cells)
import datetime
import decimal
import json
import math
import os
import re
import sys
import threading
import time
import traceback

# Protocol channel: keep a private copy of fd 1, then point fd 1 at stderr so that nothing
# else (py4j, the JVM child that inherits fd 1, stray prints) can corrupt the protocol.
_PROTO = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
os.dup2(2, 1)
sys.stdout = sys.stderr

os.environ["TZ"] = "UTC"
time.tzset()

S3_BUCKET_RE = re.compile(r"\bs3a?://([a-z0-9][a-z0-9.\-]{1,253})", re.IGNORECASE)


def log(msg):
    print(f"[iceberg_sql_server] {msg}", file=sys.stderr, flush=True)


def reply(obj):
    _PROTO.write(json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n")
    _PROTO.flush()


# ---------------------------------------------------------------- value encoding


def _float_text(v):
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(v)


def _ts_text(v):
    if v.tzinfo is not None:
        v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return v.isoformat()


def encode_scalar(v):
    """Top-level cell: str or None."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _float_text(v)
    if isinstance(v, decimal.Decimal):
        # Plain notation with the scale kept, as Athena prints decimals: '1.50', and
        # '0.000000001' where str() would give '1E-9'.
        return format(v, "f")
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    if isinstance(v, datetime.datetime):
        return _ts_text(v)
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, datetime.timedelta):
        return str(v)
    return json.dumps(encode_nested(v), ensure_ascii=False, allow_nan=False)


def encode_nested(v):
    """Value inside an array/map/struct: a JSON-able value."""
    from pyspark.sql import Row

    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, Row):
        return {k: encode_nested(x) for k, x in v.asDict(recursive=False).items()}
    if isinstance(v, dict):
        return {encode_scalar(k): encode_nested(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [encode_nested(x) for x in v]
    return encode_scalar(v)


# ---------------------------------------------------------------- spark session


def build_session(args):
    from pyspark.sql import SparkSession

    jars = [j for j in args.jars.split(":") if j]
    if not jars:
        raise SystemExit("no jars: set ICEBERG_ENGINE_JARS (source scripts/engine.sh)")
    os.makedirs(args.warehouse, exist_ok=True)
    os.makedirs(args.s3_root, exist_ok=True)
    # C1-only JIT + serial GC: ~40-50% faster test runs on 2 cores (reference measurements).
    jvm_flags = os.environ.get(
        "ICEBERG_ENGINE_JVM_FLAGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
    )
    java_opts = f"-Duser.timezone=UTC {jvm_flags}"
    if args.sqlite_native_dir:
        java_opts += (
            f" -Dorg.sqlite.lib.path={args.sqlite_native_dir} -Dorg.sqlite.lib.name=libsqlitejdbc.so"
        )
    # Loopback only: otherwise Spark binds its driver/block manager to the first
    # non-loopback interface ("hostname resolves to a loopback address; using 192.0.2.x").
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["SPARK_LOCAL_HOSTNAME"] = "localhost"
    cat = "spark.sql.catalog.local"
    b = (
        SparkSession.builder.appName("iceberg-sql-tests")
        .master("local[2]")
        .config("spark.jars", ",".join(jars))
        .config("spark.driver.extraClassPath", ":".join(jars))
        .config("spark.driver.extraJavaOptions", java_opts)
        .config("spark.executor.extraJavaOptions", java_opts)
        .config("spark.driver.memory", "2g")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.ansi.enabled", "true")
        .config("spark.sql.ansi.doubleQuotedIdentifiers", "true")
        .config("spark.sql.catalogImplementation", "in-memory")
        # spark.sql.variable.substitute stays at its default (true), as on Glue and EMR:
        # Spark replaces ${var} even inside string literals, so the Spark renderer writes
        # `$\{` and the hostile-value tests prove it (raw `${x}` would become "").
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        )
        .config(cat, "org.apache.iceberg.spark.SparkCatalog")
        .config(f"{cat}.type", "jdbc")
        .config(f"{cat}.uri", f"jdbc:sqlite:{args.catalog_db}")
        .config(f"{cat}.jdbc.schema-version", "V1")
        # SQLite: WAL so that a connection holding a read transaction does not block commits
        # from another one (else SQLITE_BUSY after CALL rewrite_data_files), plus a longer
        # busy timeout for genuinely concurrent writers.
        .config(f"{cat}.jdbc.journal_mode", "WAL")
        .config(f"{cat}.jdbc.busy_timeout", "30000")
        .config(f"{cat}.warehouse", "file://" + os.path.abspath(args.warehouse))
        .config(f"{cat}.table-default.format-version", "2")
        .config(f"{cat}.cache-enabled", "false")
        .config("spark.sql.defaultCatalog", "local")
    )
    # s3://bucket/key -> <s3_root>/bucket/key on the local filesystem (see README):
    # Hadoop's ViewFileSystemOverloadScheme takes over the s3/s3a schemes; each bucket gets a
    # mount table whose linkFallback is a local directory. Mount tables are keyed by bucket,
    # so buckets are registered lazily (register_buckets) before a statement that names them.
    for scheme in ("s3", "s3a"):
        b = b.config(
            f"spark.hadoop.fs.{scheme}.impl",
            "org.apache.hadoop.fs.viewfs.ViewFileSystemOverloadScheme",
        )
        # Used only for a bucket that was never registered (empty mount table): fail loudly
        # (ClassNotFoundException naming this) instead of writing to /<key> on the host.
        b = b.config(
            f"spark.hadoop.fs.viewfs.overload.scheme.target.{scheme}.impl",
            "iceberg_sql_tests.S3BucketNotMappedByIcebergSqlServer",
        )
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    return spark


class S3Mapper:
    """Pre-creates (and caches in Hadoop's FileSystem cache) one view file system per bucket."""

    def __init__(self, spark, root):
        self.spark = spark
        self.root = os.path.abspath(root)
        self.known = set()

    def register_buckets(self, sql):
        for m in S3_BUCKET_RE.finditer(sql):
            bucket = m.group(1).lower()
            scheme = m.group(0).split(":", 1)[0].lower()
            key = (scheme, bucket)
            if key in self.known:
                continue
            self.register(scheme, bucket)
            self.known.add(key)

    def register_from_catalog(self, catalog_db):
        """Maps the buckets of tables already in the catalog (a server restarted on an
        existing catalog.db): without this, loading such a table fails, after ~90 s of
        Iceberg retries, with ClassNotFoundException S3BucketNotMappedByIcebergSqlServer."""
        if not os.path.exists(catalog_db):
            return
        import sqlite3

        try:
            con = sqlite3.connect(f"file:{catalog_db}?mode=ro", uri=True)
            try:
                rows = con.execute(
                    "SELECT metadata_location, previous_metadata_location FROM iceberg_tables"
                ).fetchall()
            finally:
                con.close()
        except sqlite3.Error as e:
            log(f"could not scan {catalog_db} for s3 buckets: {e}")
            return
        self.register_buckets(" ".join(str(x) for row in rows for x in row if x))

    def register(self, scheme, bucket):
        jvm = self.spark.sparkContext._jvm
        local_dir = os.path.join(self.root, bucket)
        os.makedirs(local_dir, exist_ok=True)
        conf = self.spark.sparkContext._jsc.hadoopConfiguration()
        # Global hadoop conf: the catalog's HadoopFileIO copies it when a table is loaded, and
        # the FileSystem cache (scheme, authority, user) returns the instance created here.
        conf.set(f"fs.viewfs.mounttable.{bucket}.linkFallback", "file://" + local_dir)
        uri = jvm.java.net.URI(f"{scheme}://{bucket}/")
        jvm.org.apache.hadoop.fs.FileSystem.get(uri, conf)
        log(f"mapped {scheme}://{bucket}/ -> {local_dir}")


# ---------------------------------------------------------------- request handling


def _strip_frames(text):
    """Drops Java stack frames ("\tat ...", "... N more") from an exception message."""
    keep = [
        ln
        for ln in text.splitlines()
        if not ln.lstrip().startswith("at ") and not re.match(r"\s*\.\.\. \d+ more", ln)
    ]
    return "\n".join(keep).strip()


def error_reply(e):
    from pyspark.errors import PySparkException

    error_class = type(e).__name__
    msg = str(e)
    if isinstance(e, PySparkException):
        try:
            error_class = e.getErrorClass() or error_class
        except Exception:  # noqa: BLE001
            pass
    else:
        try:
            from py4j.protocol import Py4JJavaError

            if isinstance(e, Py4JJavaError):
                # Walk the Java cause chain: report the innermost Spark error class (e.g.
                # ARITHMETIC_OVERFLOW inside "Job aborted due to stage failure") or else the
                # outer exception's class name, and messages without stack frames.
                jexc = e.java_exception
                chain = [jexc]
                while chain[-1].getCause() is not None and len(chain) < 10:
                    chain.append(chain[-1].getCause())
                error_class = jexc.getClass().getName()
                for x in reversed(chain):
                    try:
                        cls = x.getErrorClass()
                    except Exception:  # noqa: BLE001  (not a SparkThrowable)
                        cls = None
                    if cls:
                        error_class = cls
                        break
                msg = _strip_frames(jexc.toString())
                if len(chain) > 1:
                    msg += "\nCaused by: " + _strip_frames(chain[-1].toString())
        except Exception:  # noqa: BLE001
            pass
    return {"ok": False, "error_class": error_class, "error": msg}


def run_sql(spark, mapper, sql):
    mapper.register_buckets(sql)
    df = spark.sql(sql)
    fields = df.schema.fields
    rows = df.collect()
    return {
        "ok": True,
        "columns": [f.name for f in fields],
        "types": [f.dataType.simpleString() for f in fields],
        "rows": [
            [encode_cell(v, f.dataType.simpleString()) for v, f in zip(row, fields)]
            for row in rows
        ],
    }


def encode_cell(v, type_name):
    """Top-level cell. Spark's `timestamp` is Iceberg timestamptz: write it the way Athena
    returns a `timestamp with time zone` cell (`2026-10-01 12:00:00.123456 UTC`), so that
    the same decoders read both engines' rows."""
    if type_name == "timestamp" and isinstance(v, datetime.datetime):
        return _ts_text(v).replace("T", " ") + " UTC"
    return encode_scalar(v)


def reset(spark):
    dropped = []
    for r in spark.sql("SHOW NAMESPACES").collect():
        ns = r[0]
        if ns != "default":
            spark.sql(f"DROP NAMESPACE IF EXISTS `{ns}` CASCADE")
            dropped.append(ns)
    return {"ok": True, "columns": ["dropped"], "types": ["string"], "rows": [[d] for d in dropped]}


def watch_parent():
    """Exit if the parent (the Rust test binary) dies, even while a statement is running.

    Our own exit closes the JVM's stdin, and pyspark's gateway JVM exits on that.
    """
    parent = os.getppid()

    def loop():
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                log("parent process gone; exiting")
                os._exit(3)

    threading.Thread(target=loop, name="parent-watch", daemon=True).start()


def main():
    watch_parent()
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--warehouse", default=os.environ.get("ICEBERG_ENGINE_WAREHOUSE"))
    p.add_argument("--catalog-db", default=os.environ.get("ICEBERG_ENGINE_CATALOG_DB"))
    p.add_argument("--jars", default=os.environ.get("ICEBERG_ENGINE_JARS", ""))
    p.add_argument("--s3-root", default=os.environ.get("ICEBERG_ENGINE_S3_ROOT"))
    p.add_argument(
        "--sqlite-native-dir", default=os.environ.get("ICEBERG_ENGINE_SQLITE_NATIVE_DIR")
    )
    args = p.parse_args()
    if not args.warehouse:
        raise SystemExit("set ICEBERG_ENGINE_WAREHOUSE or --warehouse")
    base = os.path.dirname(os.path.abspath(args.warehouse.rstrip("/")))
    args.catalog_db = args.catalog_db or os.path.join(base, "catalog.db")
    args.s3_root = args.s3_root or os.path.join(base, "s3")
    del here

    t0 = time.monotonic()
    spark = build_session(args)
    mapper = S3Mapper(spark, args.s3_root)
    mapper.register_from_catalog(args.catalog_db)
    # Touch the catalog once so the first real statement does not pay for it.
    spark.sql("SHOW NAMESPACES").collect()
    reply({"ok": True, "ready": True, "startup_s": round(time.monotonic() - t0, 3)})
    log(f"ready in {time.monotonic() - t0:.1f} s; warehouse {args.warehouse}")

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        rid = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            if "sql" in req:
                resp = run_sql(spark, mapper, req["sql"])
            elif req.get("cmd") == "ping":
                resp = {"ok": True, "columns": [], "types": [], "rows": []}
            elif req.get("cmd") == "reset":
                resp = reset(spark)
            else:
                resp = {"ok": False, "error_class": "BAD_REQUEST", "error": f"unknown request: {line[:200]}"}
        except json.JSONDecodeError as e:
            resp = {"ok": False, "error_class": "BAD_REQUEST", "error": f"invalid JSON: {e}"}
        except Exception as e:  # noqa: BLE001
            try:
                resp = error_reply(e)
            except Exception:  # noqa: BLE001
                resp = {"ok": False, "error_class": type(e).__name__, "error": traceback.format_exc()}
        if rid is not None:
            resp["id"] = rid
        reply(resp)
    log("stdin closed; stopping")
    try:
        spark.stop()
    except Exception:  # noqa: BLE001
        pass


if __name__ == "__main__":
    main()
