//! Client for the real Iceberg engine (Spark 3.5 + Iceberg 1.10) used by end-to-end tests.
//!
//! The engine is `tests/engine/iceberg_sql_server.py`, a JSON-lines server that
//! `scripts/engine.sh` installs. One server (one JVM) is spawned per test binary, on first
//! use, and shared by all tests of that binary; statements are serialized by a mutex, so
//! tests may run in parallel as long as each uses its own namespace ([`Engine::namespace`]).
//!
//! ```no_run
//! use iceberg_sql_tests::engine::Engine;
//!
//! let Some(engine) = Engine::get_or_skip("my_test") else { return };
//! let ns = engine.namespace("my_test");
//! engine.run(format!("CREATE TABLE {} (id bigint) USING iceberg", ns.table("t")));
//! engine.run(format!("INSERT INTO {} VALUES (1), (NULL)", ns.table("t")));
//! let r = engine.run(format!("SELECT id FROM {} ORDER BY id", ns.table("t")));
//! assert_eq!(r.rows, vec![vec![None], vec![Some("1".to_string())]]);
//! ```
//!
//! Skip rule: when the `ICEBERG_ENGINE_*` variables are missing, [`Engine::get_or_skip`]
//! prints `SKIP` and returns `None` (the test passes) unless `CI` is set, in which case it
//! panics: on CI a missing engine is a failure.
//!
//! The server exits when its stdin closes, i.e. when the test binary exits (the `static`
//! client is never dropped, but the OS closes the pipe), and it also watches its parent
//! pid, so no JVM is left behind even if a statement is still running.

use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Environment variables exported by `scripts/engine.sh`.
pub const ENV_PYTHON: &str = "ICEBERG_ENGINE_PYTHON";
pub const ENV_SERVER: &str = "ICEBERG_ENGINE_SERVER";
pub const ENV_WAREHOUSE: &str = "ICEBERG_ENGINE_WAREHOUSE";
pub const ENV_JARS: &str = "ICEBERG_ENGINE_JARS";
/// Optional: per-statement timeout in seconds (default 600).
pub const ENV_TIMEOUT: &str = "ICEBERG_ENGINE_TIMEOUT_SECS";

const STARTUP_TIMEOUT: Duration = Duration::from_secs(300);

/// The result of one statement. Cells are `None` for SQL NULL and `Some(text)` otherwise
/// (an empty string stays `Some("")`). See the server's docstring for the text encoding
/// of each type (decimals keep their scale, binary is hex, timestamps are ISO-8601 UTC,
/// arrays/maps/structs are JSON text).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueryResult {
    pub columns: Vec<String>,
    /// Spark type names, e.g. `bigint`, `decimal(10,2)`, `array<string>`.
    pub types: Vec<String>,
    pub rows: Vec<Vec<Option<String>>>,
}

impl QueryResult {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Rows as `Option<&str>`, handy for `assert_eq!` against literals.
    pub fn rows_str(&self) -> Vec<Vec<Option<&str>>> {
        self.rows
            .iter()
            .map(|r| r.iter().map(|c| c.as_deref()).collect())
            .collect()
    }

    /// One row of this result as the crate's result row (columns by name only: the
    /// engine's Spark type names are not Athena's, so cells decode by the target type).
    pub fn row(&self, cells: &[Option<String>]) -> iceberg_sql::record::Row {
        iceberg_sql::record::Row::untyped(self.columns.iter().cloned(), cells.to_vec())
    }

    /// Every row of this result as the crate's result rows, sharing one column list.
    pub fn result_rows(&self) -> Vec<iceberg_sql::record::Row> {
        let columns = std::sync::Arc::new(iceberg_sql::record::Columns::untyped(
            self.columns.iter().cloned(),
        ));
        self.rows
            .iter()
            .map(|cells| iceberg_sql::record::Row::new(columns.clone(), cells.clone()))
            .collect()
    }

    /// Index of a column by name (exact match).
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// All cells of one column. Panics if the column does not exist.
    pub fn column(&self, name: &str) -> Vec<Option<&str>> {
        let i = self
            .column_index(name)
            .unwrap_or_else(|| panic!("no column {name:?} in {:?}", self.columns));
        self.rows.iter().map(|r| r[i].as_deref()).collect()
    }

    /// Rows as maps from column name to cell.
    pub fn records(&self) -> Vec<HashMap<&str, Option<&str>>> {
        self.rows
            .iter()
            .map(|r| {
                self.columns
                    .iter()
                    .map(String::as_str)
                    .zip(r.iter().map(|c| c.as_deref()))
                    .collect()
            })
            .collect()
    }

    /// The single cell of a one-row, one-column result. Panics otherwise.
    pub fn scalar(&self) -> Option<&str> {
        assert!(
            self.rows.len() == 1 && self.rows[0].len() == 1,
            "expected exactly one cell, got columns {:?} rows {:?}",
            self.columns,
            self.rows
        );
        self.rows[0][0].as_deref()
    }

    /// [`scalar`](Self::scalar) parsed as an integer (e.g. `SELECT count(*) ...`).
    pub fn scalar_i64(&self) -> i64 {
        let s = self.scalar().expect("scalar is NULL");
        s.parse()
            .unwrap_or_else(|e| panic!("scalar {s:?} is not an integer: {e}"))
    }
}

/// Why a statement did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The engine rejected the statement. `class` is Spark's error class
    /// (`TABLE_OR_VIEW_NOT_FOUND`, `PARSE_SYNTAX_ERROR`, ...) or a Java exception class name.
    Sql {
        class: String,
        message: String,
        sql: String,
    },
    /// The server is gone, timed out, or spoke nonsense. The engine is unusable afterwards.
    Engine(String),
}

impl EngineError {
    /// Spark's error class, for [`EngineError::Sql`].
    pub fn class(&self) -> Option<&str> {
        match self {
            EngineError::Sql { class, .. } => Some(class),
            EngineError::Engine(_) => None,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            EngineError::Sql { message, .. } => message,
            EngineError::Engine(m) => m,
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Sql {
                class,
                message,
                sql,
            } => {
                // Statements can be ~256 KiB and Spark echoes them in parse errors: keep the
                // Display readable (the full text stays in the fields).
                write!(
                    f,
                    "engine rejected statement [{class}]: {}\n--- SQL ({} bytes) ---\n{}",
                    abbreviate_message(message),
                    sql.len(),
                    abbreviate(sql, 2000)
                )
            }
            EngineError::Engine(m) => write!(f, "engine failure: {m}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The first `max` bytes of `s` (on a char boundary), with a marker if cut.
fn abbreviate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n[... {} more bytes]", &s[..end], s.len() - end)
}

/// A long engine message cut down to its head plus the lines around Spark's caret line
/// (`----^^^`), which points at the error position inside an echoed statement.
fn abbreviate_message(message: &str) -> String {
    const MAX: usize = 6000;
    if message.len() <= MAX {
        return message.to_string();
    }
    let lines: Vec<&str> = message.lines().collect();
    let caret = lines
        .iter()
        .position(|l| l.contains("^^^") && l.trim_start().starts_with(['-', '^']));
    let mut out = abbreviate(message, 1500);
    if let Some(i) = caret {
        out.push_str("\n[... around the error position ...]\n");
        for l in &lines[i.saturating_sub(2)..(i + 2).min(lines.len())] {
            out.push_str(&abbreviate(l, 1000));
            out.push('\n');
        }
    }
    out
}

/// A namespace (database) created for one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Namespace {
    pub name: String,
}

impl Namespace {
    /// `ns.table`, unquoted (names we generate are `[a-z0-9_]`).
    pub fn table(&self, table: &str) -> String {
        format!("{}.{}", self.name, table)
    }
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

struct Conn {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    dead: Option<String>,
    log: PathBuf,
}

/// Handle to the shared engine of this test binary.
pub struct Engine {
    conn: Mutex<Conn>,
    dir: PathBuf,
    timeout: Duration,
    next_ns: AtomicUsize,
    startup: Duration,
}

static ENGINE: OnceLock<Result<Engine, String>> = OnceLock::new();

fn ci_is_set() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

fn missing_env() -> Vec<&'static str> {
    [ENV_PYTHON, ENV_SERVER, ENV_WAREHOUSE, ENV_JARS]
        .into_iter()
        .filter(|v| std::env::var_os(v).is_none_or(|x| x.is_empty()))
        .collect()
}

impl Engine {
    /// The shared engine, or `None` (after printing `SKIP <test>`) when the engine is not
    /// configured. Panics when `CI` is set and the engine is not configured, and whenever
    /// a configured engine fails to start.
    pub fn get_or_skip(test: &str) -> Option<&'static Engine> {
        let missing = missing_env();
        if !missing.is_empty() {
            if ci_is_set() {
                panic!(
                    "CI is set but the Iceberg engine is not configured (missing {}): \
                     run the tests through ./scripts/test.sh",
                    missing.join(", ")
                );
            }
            eprintln!(
                "SKIP {test}: Iceberg engine not configured (missing {}); \
                 run ./scripts/test.sh or `source scripts/engine.sh`",
                missing.join(", ")
            );
            return None;
        }
        match ENGINE.get_or_init(Engine::spawn) {
            Ok(e) => Some(e),
            Err(msg) => panic!("the Iceberg engine failed to start: {msg}"),
        }
    }

    /// Like [`get_or_skip`](Self::get_or_skip) but panics instead of skipping.
    pub fn get() -> &'static Engine {
        Engine::get_or_skip("Engine::get").expect("the Iceberg engine is not configured")
    }

    fn spawn() -> Result<Engine, String> {
        let env = |k: &str| std::env::var(k).unwrap_or_default();
        let python = env(ENV_PYTHON);
        let server = env(ENV_SERVER);
        // One private directory per server (test binary): its own warehouse, SQLite
        // catalog and s3 root, so test binaries never see each other's tables.
        let exe = std::env::current_exe()
            .ok()
            .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "tests".into());
        let dir = Path::new(&env(ENV_WAREHOUSE)).join(format!("{exe}-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let log = dir.join("server.log");
        let log_file = std::fs::File::create(&log)
            .map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let timeout = Duration::from_secs(
            std::env::var(ENV_TIMEOUT)
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(600),
        );

        let t0 = Instant::now();
        let mut child = Command::new(&python)
            .arg(&server)
            .env(ENV_WAREHOUSE, dir.join("warehouse"))
            .env("ICEBERG_ENGINE_CATALOG_DB", dir.join("catalog.db"))
            .env("ICEBERG_ENGINE_S3_ROOT", dir.join("s3"))
            .env("PYTHONUNBUFFERED", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log_file))
            .spawn()
            .map_err(|e| format!("cannot spawn {python} {server}: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("iceberg-engine-reader".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let eof = line.is_err();
                    if tx.send(line).is_err() || eof {
                        return;
                    }
                }
            })
            .map_err(|e| format!("cannot start reader thread: {e}"))?;
        let mut conn = Conn {
            child,
            stdin,
            lines: rx,
            dead: None,
            log,
        };
        let ready = conn
            .read_reply(STARTUP_TIMEOUT)
            .map_err(|e| format!("Iceberg engine did not start: {e}\n{}", conn.log_tail()))?;
        if ready.get("ready").and_then(Value::as_bool) != Some(true) {
            return Err(format!(
                "unexpected first line from the engine: {ready}\n{}",
                conn.log_tail()
            ));
        }
        let startup = t0.elapsed();
        eprintln!(
            "[engine] started in {:.1} s ({})",
            startup.as_secs_f64(),
            dir.display()
        );
        Ok(Engine {
            conn: Mutex::new(conn),
            dir,
            timeout,
            next_ns: AtomicUsize::new(0),
            startup,
        })
    }

    /// Time the server took to start (JVM + Spark session), for reporting.
    pub fn startup_time(&self) -> Duration {
        self.startup
    }

    /// This server's private directory (warehouse, catalog.db, s3 root, server.log).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Local directory that `s3://bucket/key` is stored in: `<dir>/s3/bucket/key`.
    pub fn s3_root(&self) -> PathBuf {
        self.dir.join("s3")
    }

    /// Runs one SQL statement (Spark SQL with Iceberg extensions; ANSI mode with
    /// double-quoted identifiers, so Athena-style DML runs verbatim).
    pub fn sql<S: AsRef<str>>(&self, sql: S) -> Result<QueryResult, EngineError> {
        let sql = sql.as_ref();
        let reply = self.request(&serde_json::json!({ "sql": sql }))?;
        decode(reply, sql)
    }

    /// Same as [`sql`](Self::sql); reads well with built statements: `engine.exec(&stmt)`.
    pub fn exec<S: AsRef<str>>(&self, statement: S) -> Result<QueryResult, EngineError> {
        self.sql(statement)
    }

    /// Runs the statement and panics with the SQL and the engine's message if it fails.
    #[track_caller]
    pub fn run<S: AsRef<str>>(&self, statement: S) -> QueryResult {
        match self.sql(statement.as_ref()) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }

    /// Runs statements in order, stopping at the first failure.
    pub fn exec_all<I, S>(&self, statements: I) -> Result<Vec<QueryResult>, EngineError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        statements.into_iter().map(|s| self.sql(s)).collect()
    }

    /// Runs the statement and returns its error; panics if it succeeds.
    #[track_caller]
    pub fn expect_err<S: AsRef<str>>(&self, statement: S) -> EngineError {
        let sql = statement.as_ref();
        match self.sql(sql) {
            Ok(r) => panic!("statement unexpectedly succeeded ({r:?}):\n{sql}"),
            Err(e @ EngineError::Engine(_)) => panic!("{e}"),
            Err(e) => e,
        }
    }

    /// Creates a fresh namespace for one test: `<prefix>_<n>` (prefix sanitized to
    /// `[a-z0-9_]`). Panics if it cannot be created.
    #[track_caller]
    pub fn namespace(&self, prefix: &str) -> Namespace {
        let mut p: String = prefix
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        if p.is_empty() || p.starts_with(|c: char| c.is_ascii_digit()) {
            p.insert_str(0, "ns_");
        }
        p.truncate(100);
        let n = self.next_ns.fetch_add(1, Ordering::Relaxed);
        let name = format!("{p}_{n}");
        self.run(format!("CREATE NAMESPACE {name}"));
        Namespace { name }
    }

    /// `CREATE NAMESPACE IF NOT EXISTS <name>`, for statements that name a fixed database
    /// (e.g. built from a `TableDef` with `database = "analytics"`).
    #[track_caller]
    pub fn ensure_namespace(&self, name: &str) -> Namespace {
        self.run(format!("CREATE NAMESPACE IF NOT EXISTS {name}"));
        Namespace {
            name: name.to_string(),
        }
    }

    /// Drops every namespace except `default` (CASCADE). Returns the dropped names.
    pub fn reset(&self) -> Result<Vec<String>, EngineError> {
        let r = decode(
            self.request(&serde_json::json!({ "cmd": "reset" }))?,
            "<reset>",
        )?;
        Ok(r.rows
            .into_iter()
            .filter_map(|mut row| row.pop().flatten())
            .collect())
    }

    fn request(&self, req: &Value) -> Result<Value, EngineError> {
        let mut conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(why) = &conn.dead {
            return Err(EngineError::Engine(format!("engine is down: {why}")));
        }
        let mut line = serde_json::to_string(req).expect("request serializes");
        line.push('\n');
        let res = match conn
            .stdin
            .write_all(line.as_bytes())
            .and_then(|_| conn.stdin.flush())
        {
            Ok(()) => conn.read_reply(self.timeout),
            Err(e) => Err(format!("cannot write to the engine: {e}")),
        };
        res.map_err(|why| {
            let msg = format!("{why}\n{}", conn.log_tail());
            conn.dead = Some(why);
            let _ = conn.child.kill();
            let _ = conn.child.wait();
            EngineError::Engine(msg)
        })
    }
}

impl Conn {
    fn read_reply(&mut self, timeout: Duration) -> Result<Value, String> {
        match self.lines.recv_timeout(timeout) {
            Ok(Ok(line)) => serde_json::from_str(&line)
                .map_err(|e| format!("bad reply from the engine ({e}): {line:?}")),
            Ok(Err(e)) => Err(format!("cannot read from the engine: {e}")),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "no reply from the engine within {} s",
                timeout.as_secs()
            )),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.try_wait().ok().flatten();
                Err(format!("the engine exited ({status:?})"))
            }
        }
    }

    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(40)..].join("\n");
        format!("--- last lines of {} ---\n{tail}", self.log.display())
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        // Only reached if an Engine is dropped (the shared static one never is): make sure
        // the server does not outlive us.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn decode(reply: Value, sql: &str) -> Result<QueryResult, EngineError> {
    let bad = |what: &str| EngineError::Engine(format!("malformed reply ({what}): {reply}"));
    match reply.get("ok").and_then(Value::as_bool) {
        Some(true) => {}
        Some(false) => {
            let s = |k: &str| {
                reply
                    .get(k)
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            return Err(EngineError::Sql {
                class: s("error_class"),
                message: s("error"),
                sql: sql.to_string(),
            });
        }
        None => return Err(bad("no ok")),
    }
    let strings = |k: &str| -> Result<Vec<String>, EngineError> {
        reply
            .get(k)
            .and_then(Value::as_array)
            .ok_or_else(|| bad(k))?
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| bad(k)))
            .collect()
    };
    let columns = strings("columns")?;
    let types = strings("types")?;
    let rows = reply
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("rows"))?
        .iter()
        .map(|row| {
            row.as_array()
                .ok_or_else(|| bad("row"))?
                .iter()
                .map(|cell| match cell {
                    Value::Null => Ok(None),
                    Value::String(s) => Ok(Some(s.clone())),
                    _ => Err(bad("cell")),
                })
                .collect()
        })
        .collect::<Result<Vec<Vec<Option<String>>>, EngineError>>()?;
    Ok(QueryResult {
        columns,
        types,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_errors_are_abbreviated_around_the_caret() {
        let row = "  ('evt', CAST(NULL AS varchar), 1),\n".repeat(5000);
        let message = format!(
            "[DATATYPE_MISSING_SIZE] VARCHAR needs a length.\n== SQL ==\nINSERT INTO t VALUES\n{row}\
             ----------^^^\n{row}"
        );
        let e = EngineError::Sql {
            class: "DATATYPE_MISSING_SIZE".into(),
            message,
            sql: format!("INSERT INTO t VALUES\n{row}{row}"),
        };
        let shown = e.to_string();
        assert!(shown.len() < 8000, "{}", shown.len());
        assert!(shown.contains("----------^^^"));
        assert!(shown.starts_with("engine rejected statement [DATATYPE_MISSING_SIZE]"));
        let sql_len = match &e {
            EngineError::Sql { sql, .. } => sql.len(),
            EngineError::Engine(_) => unreachable!(),
        };
        assert!(shown.contains(&format!("--- SQL ({sql_len} bytes) ---")));
        assert_eq!(abbreviate("short", 10), "short");
        assert_eq!(abbreviate("héllo", 2), "h\n[... 5 more bytes]");
    }
}
