//! `LIKE` means Athena's LIKE on every target: `%` any run, `_` one character, every
//! other character (`\` too) only itself; `ESCAPE 'c'` only when asked for. Spark's LIKE
//! reads `\` as an escape, so its text doubles each `\` of a pattern. Exact statements,
//! through the validator, for every target.

mod dml_support;

use dml_support::McpEvent;
use iceberg_sql::dsl::param;
use iceberg_sql::prelude::*;

const ALL: [Dialect; 4] = [
    Dialect::Athena,
    Dialect::AthenaS3Tables,
    Dialect::Trino,
    Dialect::Spark,
];

/// The WHERE clause of `SELECT event_id FROM … WHERE cond`, built for `d`.
fn where_clause(cond: Cond<McpEvent>, d: Dialect) -> Result<String, iceberg_sql::Error> {
    let stmt = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .filter(cond)
        .build_for(d)?;
    let sql = stmt.sql();
    let at = sql.find(" WHERE ").expect("a WHERE clause");
    let mut text = sql[at + " WHERE ".len()..].to_string();
    if !stmt.params().is_empty() {
        text.push_str(" -- params: ");
        text.push_str(&stmt.params().join(" | "));
    }
    Ok(text)
}

/// The clause on Athena's engine (Athena, S3 Tables, Trino: all alike) and on Spark.
#[track_caller]
fn assert_where(cond: impl Fn() -> Cond<McpEvent>, trino: &str, spark: &str) {
    for d in ALL {
        let want = if d == Dialect::Spark { spark } else { trino };
        assert_eq!(where_clause(cond(), d).unwrap(), want, "{d:?}");
    }
}

#[test]
fn a_pattern_without_backslash_is_written_as_given() {
    assert_where(
        || McpEvent::TOOL_NAME.like("query_%"),
        "tool_name LIKE 'query_%'",
        "tool_name LIKE 'query_%'",
    );
    assert_where(
        || McpEvent::TOOL_NAME.not_like("%it's%"),
        "tool_name NOT LIKE '%it''s%'",
        r"tool_name NOT LIKE '%it\'s%'",
    );
}

#[test]
fn spark_doubles_each_backslash_of_a_literal_pattern() {
    // The pattern text `C:\%`: `C:\` then any run, on Athena's reading. Spark's literal
    // `'C:\\\\%'` is the text `C:\\%`, which its LIKE reads as `C:\` then any run.
    assert_where(
        || McpEvent::TOOL_NAME.like(r"C:\%"),
        r"tool_name LIKE 'C:\%'",
        r"tool_name LIKE 'C:\\\\%'",
    );
    assert_where(
        || McpEvent::TOOL_NAME.not_like(r"a\_b\\c\"),
        r"tool_name NOT LIKE 'a\_b\\c\'",
        r"tool_name NOT LIKE 'a\\\\_b\\\\\\\\c\\\\'",
    );
}

#[test]
fn spark_doubles_each_backslash_of_a_parameter_pattern() {
    assert_where(
        || McpEvent::TOOL_NAME.like(param(r"x\%")),
        r"tool_name LIKE ? -- params: 'x\%'",
        r"tool_name LIKE ? -- params: 'x\\\\%'",
    );
    assert_where(
        || McpEvent::TOOL_NAME.like(param("x%")),
        "tool_name LIKE ? -- params: 'x%'",
        "tool_name LIKE ? -- params: 'x%'",
    );
}

#[test]
fn spark_doubles_the_backslashes_of_any_other_pattern_when_the_query_runs() {
    assert_where(
        || McpEvent::TOOL_NAME.like(McpEvent::STATUS),
        "tool_name LIKE status",
        r"tool_name LIKE replace(status, '\\', '\\\\')",
    );
    assert_where(
        || {
            McpEvent::PAYLOAD
                .coalesce("")
                .not_like(McpEvent::STATUS.coalesce(r"\"))
        },
        r"coalesce(payload, '') NOT LIKE coalesce(status, '\')",
        r"coalesce(payload, '') NOT LIKE replace(coalesce(status, '\\'), '\\', '\\\\')",
    );
}

#[test]
fn an_explicit_escape_is_written_alike_for_every_target() {
    // With ESCAPE, `\` is an ordinary character on Spark too: nothing is doubled.
    assert_where(
        || McpEvent::TOOL_NAME.like_escape(r"100!%\%", '!'),
        r"tool_name LIKE '100!%\%' ESCAPE '!'",
        r"tool_name LIKE '100!%\\%' ESCAPE '!'",
    );
    assert_where(
        || McpEvent::TOOL_NAME.not_like_escape(McpEvent::STATUS, '\\'),
        r"tool_name NOT LIKE status ESCAPE '\'",
        r"tool_name NOT LIKE status ESCAPE '\\'",
    );
    assert_where(
        || McpEvent::TOOL_NAME.like_escape("a''_", '\''),
        "tool_name LIKE 'a''''_' ESCAPE ''''",
        r"tool_name LIKE 'a\'\'_' ESCAPE '\''",
    );
}

#[test]
fn a_literal_pattern_the_engines_would_fail_is_refused() {
    for d in ALL {
        for (pattern, at) in [("50!", "at its end"), ("a!b", "before `b`")] {
            let e = where_clause(McpEvent::TOOL_NAME.like_escape(pattern, '!'), d).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidValue, "{d:?}");
            assert_eq!(
                e.message(),
                format!(
                    "LIKE pattern {pattern:?} has its ESCAPE character `!` {at}; it may only \
                     precede `%`, `_` or itself, and the engine fails the query otherwise"
                ),
                "{d:?}"
            );
            assert_eq!(e.hint(), Some("write `!!` for a literal `!`"));
        }
        let e = where_clause(McpEvent::TOOL_NAME.like_escape("a", '😀'), d).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert!(e.message().contains("one UTF-16 unit"), "{e}");
        // Escaped wildcards and a doubled escape are fine.
        assert!(where_clause(McpEvent::TOOL_NAME.like_escape("!%!_!!", '!'), d).is_ok());
    }
}
