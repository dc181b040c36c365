//! Text with control characters (a NUL, a tab, a newline, ESC, DEL, C1 controls) in
//! Trino-grammar DML (Athena's and Trino's): written as a Unicode string literal,
//! `U&'a\0009b'`, so the query text carries no raw control character, and Trino decodes
//! it to the same value (<https://trino.io/docs/current/language/types.html#varchar>).
//! Spark's rendering keeps them raw (its lexer reads any character but `'` and `\`).
//!
//! [`trino_value_checks`] are statements that return `true` on a Trino engine exactly
//! when each literal decodes to its text; Trino's grammar parses them here (with
//! `TRINO_GRAMMAR_PYTHON`), and a real Trino can run them as they are.

#[path = "dml_support/mod.rs"]
mod dml_support;
mod trino_grammar;

use dml_support::McpEvent;
use iceberg_sql::prelude::*;

/// Every control character (Unicode's Cc: U+0000-U+001F, U+007F-U+009F).
fn controls() -> Vec<char> {
    (0u32..0x20)
        .chain(0x7f..0xa0)
        .filter_map(char::from_u32)
        .collect()
}

/// Hostile texts around control characters: with quotes, backslashes (which escape in
/// `U&'…'`), something that looks like an escape, and non-ASCII text.
fn texts() -> Vec<String> {
    let mut out: Vec<String> = controls().iter().map(|c| format!("a{c}b")).collect();
    out.extend([
        "\0".to_string(),
        "it's\ta \\ backslash".to_string(),
        "\\0009 is not a tab\n".to_string(),
        "line1\r\nline2".to_string(),
        "\u{1b}[31mred\u{1b}[0m ✓ 😀".to_string(),
        "''\u{7f}''".to_string(),
    ]);
    out
}

/// The literal in `sql`, the one after `payload = `.
fn literal_of(sql: &str) -> &str {
    let start = sql.find("payload = ").expect("a payload filter") + "payload = ".len();
    &sql[start..]
}

/// `text` as Trino builds it from `chr()` and plain literals without control
/// characters: `concat('a', chr(9), 'b')`.
fn concat_form(text: &str) -> String {
    let mut parts = Vec::new();
    let mut plain = String::new();
    for c in text.chars() {
        if c.is_control() {
            if !plain.is_empty() {
                parts.push(format!("'{}'", plain.replace('\'', "''")));
                plain.clear();
            }
            parts.push(format!("chr({})", u32::from(c)));
        } else {
            plain.push(c);
        }
    }
    if !plain.is_empty() || parts.is_empty() {
        parts.push(format!("'{}'", plain.replace('\'', "''")));
    }
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        format!("concat({})", parts.join(", "))
    }
}

fn filter_on(text: &str, d: Dialect) -> Statement {
    McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .filter(McpEvent::PAYLOAD.eq(text))
        .build_for(d)
        .expect("text with control characters is a valid literal")
}

/// One statement per text: `true` on Trino when the literal we write decodes to it.
pub fn trino_value_checks() -> Vec<String> {
    texts()
        .iter()
        .map(|t| {
            let lit = literal_of(filter_on(t, Dialect::Athena).sql()).to_string();
            format!(
                "SELECT {lit} = {}, length({lit}) = {}",
                concat_form(t),
                t.chars().count()
            )
        })
        .collect()
}

#[test]
fn control_characters_are_written_as_unicode_escapes_in_trino_dml() {
    let s = filter_on("a\0b\tc\nit's \\ d", Dialect::Athena);
    assert_eq!(
        s.sql(),
        "SELECT event_id FROM analytics.mcp_events WHERE payload = U&'a\\0000b\\0009c\\000Ait''s \\\\ d'"
    );
    // The same in Trino's own target, in every statement that writes text.
    let s = filter_on("\u{9f}", Dialect::Trino);
    assert!(s.sql().ends_with("payload = U&'\\009F'"), "{}", s.sql());
    let mut row = McpEvent::example();
    row.payload = Some("tab\there".into());
    let insert = McpEvent::insert(&[row]).build().unwrap();
    assert!(
        insert.sql().contains("U&'tab\\0009here'"),
        "{}",
        insert.sql()
    );
    let update = McpEvent::update()
        .set(McpEvent::STATUS, "x\ny")
        .filter(McpEvent::EVENT_ID.eq("e1"))
        .build()
        .unwrap();
    assert!(
        update.sql().contains("status = U&'x\\000Ay'"),
        "{}",
        update.sql()
    );
    // Text without control characters keeps the plain form.
    let s = filter_on("it's ✓", Dialect::Athena);
    assert!(s.sql().ends_with("payload = 'it''s ✓'"), "{}", s.sql());
    // Spark reads raw control characters in its literals; its form is unchanged.
    let s = filter_on("a\tb", Dialect::Spark);
    assert!(s.sql().ends_with("payload = 'a\tb'"), "{}", s.sql());
}

#[test]
fn no_raw_control_character_reaches_trino_dml_and_each_literal_decodes_to_its_text() {
    for t in texts() {
        for d in [Dialect::Athena, Dialect::Trino] {
            let s = filter_on(&t, d);
            assert!(
                !s.sql().chars().any(char::is_control),
                "{d:?}: a raw control character in {:?}",
                s.sql()
            );
            // Decoded by Trino's rules for U&'…' (the default escape `\`: `\\` is a
            // backslash, `\XXXX` a code point; `''` a quote).
            let lit = literal_of(s.sql());
            let body = lit
                .strip_prefix("U&'")
                .and_then(|b| b.strip_suffix('\''))
                .unwrap_or_else(|| panic!("{d:?}: not a Unicode literal: {lit}"));
            let mut decoded = String::new();
            let mut chars = body.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if chars.peek() == Some(&'\\') => {
                        chars.next();
                        decoded.push('\\');
                    }
                    '\\' => {
                        let hex: String = chars.by_ref().take(4).collect();
                        let code = u32::from_str_radix(&hex, 16).expect("four hex digits");
                        decoded.push(char::from_u32(code).expect("a code point"));
                    }
                    '\'' => {
                        assert_eq!(chars.next(), Some('\''), "a lone quote in {lit}");
                        decoded.push('\'');
                    }
                    c => decoded.push(c),
                }
            }
            assert_eq!(decoded, t, "{d:?}: {lit}");
        }
    }
}

#[test]
fn trinos_grammar_parses_the_unicode_literals_and_their_value_checks() {
    let Some(python) = trino_grammar::python() else {
        return;
    };
    let checks = trino_value_checks();
    let texts: Vec<&str> = checks.iter().map(String::as_str).collect();
    trino_grammar::assert_grammar_parses(&python, &texts);
}

/// The value checks on a running Trino (`TRINO_ENDPOINT=http://127.0.0.1:<port>`, as
/// `scripts/trino.sh`'s `start_trino` exports it): every check returns `true, true`.
/// Without an endpoint the test prints SKIP, unless CI is set and the project has
/// `scripts/trino.sh`.
#[test]
fn on_trino_each_unicode_literal_decodes_to_its_text() {
    let Some(endpoint) = std::env::var("TRINO_ENDPOINT")
        .ok()
        .filter(|e| !e.is_empty())
    else {
        let ci =
            std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false" | "no"));
        let has_trino =
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/trino.sh"))
                .exists();
        assert!(
            !(ci && has_trino),
            "CI is set but TRINO_ENDPOINT is not (scripts/trino.sh: start_trino)"
        );
        eprintln!("SKIP: TRINO_ENDPOINT not set");
        return;
    };
    for check in trino_value_checks() {
        let rows = trino_http::query(&endpoint, &check);
        assert_eq!(
            rows,
            vec![vec![
                serde_json::Value::Bool(true),
                serde_json::Value::Bool(true)
            ]],
            "{check}"
        );
    }
}

/// A minimal client of Trino's HTTP protocol (`POST /v1/statement`, then `nextUri`
/// until the query ends: <https://trino.io/docs/current/develop/client-protocol.html>),
/// over loopback HTTP/1.0 so that answers are neither chunked nor kept alive.
mod trino_http {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    fn request(method: &str, url: &str, body: &str) -> serde_json::Value {
        let rest = url.strip_prefix("http://").expect("an http:// URL");
        let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let path = if path.is_empty() { "/" } else { path };
        let mut stream = TcpStream::connect(host).expect("connect to Trino");
        write!(
            stream,
            "{method} {path} HTTP/1.0\r\nHost: {host}\r\nX-Trino-User: iceberg-sql\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .expect("send");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).expect("read the answer");
        let answer = String::from_utf8(answer).expect("utf-8");
        let (head, json) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
        assert!(
            head.starts_with("HTTP/1.1 200") || head.starts_with("HTTP/1.0 200"),
            "{head}\n{json}"
        );
        serde_json::from_str(json).expect("JSON")
    }

    /// The rows of `sql`; panics with Trino's error if it fails.
    pub fn query(endpoint: &str, sql: &str) -> Vec<Vec<serde_json::Value>> {
        let mut page = request("POST", &format!("{endpoint}/v1/statement"), sql);
        let mut rows = Vec::new();
        loop {
            if let Some(e) = page.get("error") {
                panic!("Trino refused {sql:?}: {e}");
            }
            if let Some(data) = page.get("data").and_then(|d| d.as_array()) {
                rows.extend(data.iter().map(|r| r.as_array().expect("a row").clone()));
            }
            match page.get("nextUri").and_then(|u| u.as_str()) {
                Some(next) => page = request("GET", next, ""),
                None => return rows,
            }
        }
    }
}
