//! Client for the Trino 476 server that `scripts/trino.sh` starts (Athena engine v3 is
//! built on Trino): Athena's DML text runs on it verbatim.
//!
//! Trino's client protocol (https://trino.io/docs/current/develop/client-protocol.html):
//! `POST /v1/statement` with the SQL as the body and `X-Trino-User`, `X-Trino-Catalog`,
//! `X-Trino-Schema` headers; the answer is JSON with `columns`, `data` and a `nextUri`
//! to `GET` until there is none; a failed query carries `error.errorName` and
//! `error.message`. The server is on loopback only, so the client is HTTP/1.1 over
//! `std::net::TcpStream` (no HTTP crate with a blocking client is in the lock file).
//!
//! ```no_run
//! use iceberg_sql_tests::trino::Trino;
//!
//! let Some(trino) = Trino::get_or_skip("my_test") else { return };
//! let s = trino.schema("my_test");
//! trino.run(format!("CREATE TABLE {s}.t (id bigint)"));
//! ```
//!
//! Skip rule: without `TRINO_ENDPOINT`, [`Trino::get_or_skip`] prints `SKIP` and returns
//! `None`, unless `CI` is set, in which case it panics: on CI a missing Trino is a failure.
//!
//! Cells come back as text: `None` for NULL, a JSON string's content as is (Trino sends
//! varchar, decimal, date, time and timestamp values as strings, and a double NaN or
//! infinity as `"NaN"`, `"Infinity"`, `"-Infinity"`), other JSON (numbers, booleans,
//! arrays for ARRAY and ROW, objects for MAP) as compact JSON text.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

pub use crate::engine::QueryResult;

/// Exported by `scripts/trino.sh`'s `start_trino`.
pub const ENV_ENDPOINT: &str = "TRINO_ENDPOINT";
/// The Iceberg catalog's name (default `iceberg`).
pub const ENV_CATALOG: &str = "TRINO_CATALOG";

const QUERY_TIMEOUT: Duration = Duration::from_secs(300);

/// Why a statement did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrinoError {
    /// Trino refused or failed the query: `name` is its `errorName`
    /// (`SYNTAX_ERROR`, `TYPE_MISMATCH`, `NOT_SUPPORTED`, ...).
    Sql {
        name: String,
        message: String,
        sql: String,
    },
    /// The server did not answer as the protocol says.
    Protocol(String),
}

impl TrinoError {
    /// Trino's `errorName`, for [`TrinoError::Sql`].
    pub fn name(&self) -> Option<&str> {
        match self {
            TrinoError::Sql { name, .. } => Some(name),
            TrinoError::Protocol(_) => None,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            TrinoError::Sql { message, .. } => message,
            TrinoError::Protocol(m) => m,
        }
    }
}

impl fmt::Display for TrinoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrinoError::Sql { name, message, sql } => {
                let head: String = sql.chars().take(3000).collect();
                write!(
                    f,
                    "Trino refused the statement [{name}]: {message}\n--- SQL ({} bytes) ---\n{head}",
                    sql.len()
                )
            }
            TrinoError::Protocol(m) => write!(f, "Trino client failure: {m}"),
        }
    }
}

impl std::error::Error for TrinoError {}

/// The Trino server of this test run.
pub struct Trino {
    host: String,
    catalog: String,
    next_schema: AtomicUsize,
    run_id: String,
}

static TRINO: OnceLock<Trino> = OnceLock::new();

fn ci_is_set() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

impl Trino {
    /// The server, or `None` (after printing `SKIP <test>`) when `TRINO_ENDPOINT` is not
    /// set. Panics when `CI` is set and it is not.
    pub fn get_or_skip(test: &str) -> Option<&'static Trino> {
        let endpoint = std::env::var(ENV_ENDPOINT).unwrap_or_default();
        if endpoint.is_empty() {
            if ci_is_set() {
                panic!(
                    "CI is set but Trino is not configured (missing {ENV_ENDPOINT}): \
                     run the tests through ./scripts/test.sh"
                );
            }
            eprintln!(
                "SKIP {test}: Trino not configured (missing {ENV_ENDPOINT}); \
                 run ./scripts/test.sh or `source scripts/trino.sh && start_trino`"
            );
            return None;
        }
        Some(TRINO.get_or_init(|| {
            let host = endpoint
                .strip_prefix("http://")
                .unwrap_or(&endpoint)
                .trim_end_matches('/')
                .to_string();
            let catalog = std::env::var(ENV_CATALOG)
                .ok()
                .filter(|c| !c.is_empty())
                .unwrap_or_else(|| "iceberg".into());
            // Schemas of one test binary never collide with another's (one server per run).
            let exe = std::env::current_exe()
                .ok()
                .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .unwrap_or_default();
            let run_id = format!("{:x}", fnv(exe.as_bytes()) ^ u64::from(std::process::id()));
            Trino {
                host,
                catalog,
                next_schema: AtomicUsize::new(0),
                run_id: run_id[..6.min(run_id.len())].to_string(),
            }
        }))
    }

    /// The Iceberg catalog's name.
    pub fn catalog(&self) -> &str {
        &self.catalog
    }

    /// Runs one statement in the Iceberg catalog (no default schema: name tables as
    /// `db.t`, as the crate renders them).
    pub fn sql<S: AsRef<str>>(&self, sql: S) -> Result<QueryResult, TrinoError> {
        self.sql_with(sql.as_ref(), &[])
    }

    /// [`sql`](Self::sql) with session properties (`X-Trino-Session: k=v`).
    pub fn sql_with(&self, sql: &str, session: &[(&str, &str)]) -> Result<QueryResult, TrinoError> {
        let mut headers = vec![
            ("X-Trino-User".to_string(), "iceberg-sql-tests".to_string()),
            ("X-Trino-Catalog".to_string(), self.catalog.clone()),
            ("X-Trino-Time-Zone".to_string(), "UTC".to_string()),
            // Without it Trino rounds timestamps to milliseconds in the answer.
            (
                "X-Trino-Client-Capabilities".to_string(),
                "PARAMETRIC_DATETIME".to_string(),
            ),
        ];
        for (k, v) in session {
            headers.push(("X-Trino-Session".to_string(), format!("{k}={v}")));
        }
        let deadline = Instant::now() + QUERY_TIMEOUT;
        let mut reply = json(self.http(
            &self.host,
            "POST",
            "/v1/statement",
            &headers,
            sql.as_bytes(),
        )?)?;
        let mut out = QueryResult::default();
        let mut signatures: Vec<Value> = Vec::new();
        loop {
            if let Some(err) = reply.get("error").filter(|e| !e.is_null()) {
                return Err(TrinoError::Sql {
                    name: err["errorName"].as_str().unwrap_or("?").to_string(),
                    message: err["message"].as_str().unwrap_or("?").to_string(),
                    sql: sql.to_string(),
                });
            }
            if out.columns.is_empty() {
                if let Some(cols) = reply.get("columns").and_then(Value::as_array) {
                    signatures = cols.iter().map(|c| c["typeSignature"].clone()).collect();
                    out.columns = cols
                        .iter()
                        .map(|c| c["name"].as_str().unwrap_or("").to_string())
                        .collect();
                    out.types = cols
                        .iter()
                        .map(|c| c["type"].as_str().unwrap_or("").to_string())
                        .collect();
                }
            }
            if let Some(rows) = reply.get("data").and_then(Value::as_array) {
                for row in rows {
                    let cells = row.as_array().map(Vec::as_slice).unwrap_or_default();
                    out.rows.push(
                        cells
                            .iter()
                            .enumerate()
                            .map(|(i, v)| cell(v, signatures.get(i)))
                            .collect(),
                    );
                }
            }
            let Some(next) = reply.get("nextUri").and_then(Value::as_str) else {
                return Ok(out);
            };
            if Instant::now() > deadline {
                return Err(TrinoError::Protocol(format!(
                    "query still running after {QUERY_TIMEOUT:?}: {}",
                    sql.chars().take(200).collect::<String>()
                )));
            }
            let path = next
                .strip_prefix("http://")
                .and_then(|rest| rest.find('/').map(|i| &rest[i..]))
                .unwrap_or(next)
                .to_string();
            reply = json(self.http(&self.host, "GET", &path, &[], b"")?)?;
        }
    }

    /// Runs the statement and panics with the SQL and Trino's message if it fails.
    #[track_caller]
    pub fn run<S: AsRef<str>>(&self, statement: S) -> QueryResult {
        match self.sql(statement.as_ref()) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }

    /// Runs the statement and returns Trino's refusal; panics if it succeeds.
    #[track_caller]
    pub fn expect_err<S: AsRef<str>>(&self, statement: S) -> TrinoError {
        let sql = statement.as_ref();
        match self.sql(sql) {
            Ok(r) => panic!("Trino unexpectedly ran ({r:?}):\n{sql}"),
            Err(e @ TrinoError::Protocol(_)) => panic!("{e}"),
            Err(e) => e,
        }
    }

    /// A fresh schema for one test: `<prefix>_<run>_<n>` (`[a-z0-9_]`).
    #[track_caller]
    pub fn schema(&self, prefix: &str) -> String {
        let p: String = prefix
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .take(60)
            .collect();
        let n = self.next_schema.fetch_add(1, Ordering::Relaxed);
        let name = format!("{p}_{}_{n}", self.run_id);
        self.run(format!("CREATE SCHEMA {name}"));
        name
    }

    /// `CREATE SCHEMA IF NOT EXISTS`, for statements that name a fixed database.
    #[track_caller]
    pub fn ensure_schema(&self, name: &str) {
        self.run(format!("CREATE SCHEMA IF NOT EXISTS {name}"));
    }

    /// Creates an S3 bucket on the moto server Trino stores table files in (`MOTO_ENDPOINT`),
    /// for the tables whose location is `s3://<bucket>/...`. Panics if it cannot.
    #[track_caller]
    pub fn ensure_bucket(&self, bucket: &str) {
        if let Err(e) = self.http(&moto_host(), "PUT", &format!("/{bucket}"), &[], b"") {
            panic!("cannot create bucket {bucket}: {e}");
        }
    }

    /// Writes `s3://<bucket>/<key>` on moto's S3 (an object no table references).
    /// `Content-Type: application/octet-stream`: moto reads the body of a request sent
    /// as a form or text type as form fields and stores an empty object.
    #[track_caller]
    pub fn put_object(&self, bucket: &str, key: &str, body: &[u8]) {
        let headers = [(
            "Content-Type".to_string(),
            "application/octet-stream".to_string(),
        )];
        if let Err(e) = self.http(
            &moto_host(),
            "PUT",
            &format!("/{bucket}/{key}"),
            &headers,
            body,
        ) {
            panic!("cannot write s3://{bucket}/{key}: {e}");
        }
    }

    /// The keys under `s3://<bucket>/<prefix>` on moto's S3 (ListObjectsV2, sorted, at
    /// most 1,000: one page).
    #[track_caller]
    pub fn list_objects(&self, bucket: &str, prefix: &str) -> Vec<String> {
        let path = format!("/{bucket}?list-type=2&max-keys=1000&prefix={prefix}");
        let xml = match self.http(&moto_host(), "GET", &path, &[], b"") {
            Ok(xml) => xml,
            Err(e) => panic!("cannot list s3://{bucket}/{prefix}: {e}"),
        };
        assert!(
            !xml.contains("<IsTruncated>true</IsTruncated>"),
            "more than one page under s3://{bucket}/{prefix}"
        );
        let mut keys: Vec<String> = xml
            .split("<Key>")
            .skip(1)
            .filter_map(|s| s.split_once("</Key>").map(|(k, _)| k.to_string()))
            .collect();
        keys.sort();
        keys
    }

    fn http(
        &self,
        host: &str,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        body: &[u8],
    ) -> Result<String, TrinoError> {
        let fail = |what: &str, e: &dyn fmt::Display| {
            TrinoError::Protocol(format!("{what} {method} http://{host}{path}: {e}"))
        };
        let mut stream = TcpStream::connect(host).map_err(|e| fail("connect for", &e))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .map_err(|e| fail("timeout for", &e))?;
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if !body.is_empty()
            && !headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            req.push_str("Content-Type: text/plain; charset=utf-8\r\n");
        }
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        stream
            .write_all(req.as_bytes())
            .and_then(|()| stream.write_all(body))
            .map_err(|e| fail("send", &e))?;
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader
            .read_line(&mut status)
            .map_err(|e| fail("read status of", &e))?;
        let code: u16 = status
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| fail("bad status line from", &status.trim()))?;
        let mut chunked = false;
        let mut length: Option<usize> = None;
        loop {
            let mut line = String::new();
            reader
                .read_line(&mut line)
                .map_err(|e| fail("read headers of", &e))?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
                if k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked") {
                    chunked = true;
                } else if k == "content-length" {
                    length = v.parse().ok();
                }
            }
        }
        let mut data = Vec::new();
        if chunked {
            loop {
                let mut size = String::new();
                reader
                    .read_line(&mut size)
                    .map_err(|e| fail("read chunk of", &e))?;
                let n = usize::from_str_radix(size.trim().split(';').next().unwrap_or(""), 16)
                    .map_err(|e| fail("bad chunk size from", &e))?;
                if n == 0 {
                    break;
                }
                let start = data.len();
                data.resize(start + n, 0);
                reader
                    .read_exact(&mut data[start..])
                    .map_err(|e| fail("read chunk of", &e))?;
                let mut crlf = [0u8; 2];
                reader
                    .read_exact(&mut crlf)
                    .map_err(|e| fail("read chunk of", &e))?;
            }
        } else if let Some(n) = length {
            data.resize(n, 0);
            reader
                .read_exact(&mut data)
                .map_err(|e| fail("read body of", &e))?;
        } else {
            reader
                .read_to_end(&mut data)
                .map_err(|e| fail("read body of", &e))?;
        }
        let text = String::from_utf8_lossy(&data).into_owned();
        if code != 200 {
            return Err(fail(&format!("HTTP {code} for"), &text));
        }
        Ok(text)
    }
}

/// moto's `host:port` from `MOTO_ENDPOINT`; panics when it is not set.
#[track_caller]
fn moto_host() -> String {
    let endpoint = std::env::var("MOTO_ENDPOINT").unwrap_or_default();
    let host = endpoint.strip_prefix("http://").unwrap_or(&endpoint);
    if host.is_empty() {
        panic!("MOTO_ENDPOINT is not set: Trino's table files live on moto's S3 (scripts/moto.sh)");
    }
    host.trim_end_matches('/').to_string()
}

fn json(text: String) -> Result<Value, TrinoError> {
    serde_json::from_str(&text)
        .map_err(|e| TrinoError::Protocol(format!("Trino answered with bad JSON ({e}): {text}")))
}

fn cell(v: &Value, signature: Option<&Value>) -> Option<String> {
    let raw = signature.and_then(|s| s["rawType"].as_str());
    match v {
        Value::Null => None,
        // varbinary travels as base64; the crate's decoders read hex.
        Value::String(s) if raw == Some("varbinary") => Some(base64_to_hex(s)),
        Value::String(s) => Some(s.clone()),
        other => Some(named(other, signature).to_string()),
    }
}

fn base64_to_hex(s: &str) -> String {
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = String::new();
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        bits = (bits << 6) | u32::from(v);
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push_str(&format!("{:02x}", (bits >> n) & 0xff));
        }
    }
    out
}

/// Trino sends a ROW as a JSON array; its column's `typeSignature` names the fields.
/// Rows become JSON objects (at any depth), as the crate's decoders read structs.
fn named(v: &Value, signature: Option<&Value>) -> Value {
    let Some(sig) = signature else {
        return v.clone();
    };
    let args: Vec<&Value> = sig["arguments"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let arg_type = |i: usize| args.get(i).map(|a| &a["value"]);
    match (sig["rawType"].as_str(), v) {
        (Some("row"), Value::Array(items)) => Value::Object(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    let field = arg_type(i);
                    let name = field
                        .and_then(|f| f["fieldName"]["name"].as_str())
                        .map_or_else(|| format!("field{i}"), str::to_string);
                    (name, named(item, field.map(|f| &f["typeSignature"])))
                })
                .collect(),
        ),
        (Some("array"), Value::Array(items)) => {
            Value::Array(items.iter().map(|x| named(x, arg_type(0))).collect())
        }
        (Some("map"), Value::Object(entries)) => Value::Object(
            entries
                .iter()
                .map(|(k, x)| (k.clone(), named(x, arg_type(1))))
                .collect(),
        ),
        _ => v.clone(),
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}
