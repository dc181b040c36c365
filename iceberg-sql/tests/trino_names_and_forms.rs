//! The validator against Trino's own parser, on names, strings, comments and separators,
//! and the statement forms the builders write.
//!
//! The same differential check as `trino_literals.rs` (machinery in `trino_grammar/`),
//! for the targets that write Trino grammar (Trino, and Athena's DML): every text we
//! accept, Trino's grammar accepts too; and the texts Trino's grammar accepts but Trino
//! refuses when it builds the tree ([`BEYOND_THE_GRAMMAR`]), we refuse ourselves.
//!
//! The corpus:
//!
//! * names: quoted with doubled quotes, empty, unicode, digits first, reserved words
//!   quoted and not, qualified by 1 to 5 parts, catalog-qualified tables, metadata
//!   tables (`"t$snapshots"`);
//! * string literals: doubled quotes, `U&'…'` with escapes and `UESCAPE`, newlines,
//!   NUL, very long;
//! * comments and separators: `--`, `/* */` (nested, unterminated), `;` before and
//!   after, two statements, a byte-order mark and whitespace Trino's lexer does not
//!   know;
//! * the statement forms the builders write for Trino and Athena (time travel,
//!   metadata tables, MERGE, `ALTER TABLE … EXECUTE`, CTAS `WITH (…)`, …), each
//!   truncated at every token boundary and with each word dropped in turn.
//!
//! Athena's own statements (UNLOAD, its Hive DDL, `VACUUM`, `OPTIMIZE … REWRITE DATA`)
//! are not Trino grammar and are not in the corpus.

mod trino_grammar;

use iceberg_sql::validate::validate_sql;
use iceberg_sql::{Dialect, Grammar, StatementKind};
use trino_grammar::{Case, TRINO_TARGETS};

use StatementKind::{
    AlterTable, CreateDatabase, CreateTable, CreateTableAs, CreateView, Delete, Describe,
    DropDatabase, DropTable, DropView, Insert, Merge, Optimize, Select, ShowCreateTable,
    ShowTables, Update, Vacuum,
};

/// Names where a column stands (in the select list, as an alias, in WHERE).
fn column_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "c",
        "\"c\"",
        "\"a\"\"b\"",
        "\"\"\"\"",
        "\"\"",
        "\"a\"\"",
        "\"a\" \"b\"",
        "\"a\"b",
        "\"C d\"",
        "\"a.b\"",
        "\"\u{e9}\"",
        "\"\u{65e5}\u{672c}\"",
        "\"\u{1F600}\"",
        "\u{e9}",
        "\u{131}",
        "\u{17f}",
        "\u{df}",
        "\u{fb01}",
        "\"1c\"",
        "1c",
        "1_c",
        "_",
        "_1",
        "c$",
        "$c",
        "\"$c\"",
        "\"a\nb\"",
        "\"a\0b\"",
        "\"a\\b\"",
        "`c`",
        "`a``b`",
        "[c]",
        "U&\"c\"",
        // Words Trino reserves, and words it does not.
        "select",
        "\"select\"",
        "from",
        "\"from\"",
        "table",
        "\"table\"",
        "values",
        "date",
        "\"date\"",
        "interval",
        "timestamp",
        "version",
        "year",
        "user",
        "current_user",
        "\"current_user\"",
        "system_time",
        "filter",
        "window",
        "row",
        "rows",
        "first",
        "limit",
        "offset",
        "fetch",
        "merge",
        "matched",
        "execute",
        "snapshot",
        "position",
        "nfd",
        "normalize",
        "extract",
        "trim",
        "\"trim\"",
        "json_table",
        "listagg",
        "skip",
        "uescape",
        "\"uescape\"",
        // Qualified column references.
        "t.c",
        "db.t.c",
        "cat.db.t.c",
        "a.b.c.d.e",
        "\"db\".\"t\".\"c\"",
        "t.\"c\"",
        "t.select",
        "t.\"select\"",
        "t. c",
        "t .c",
        "t..c",
        ".c",
        "t.",
        "t.*",
        "t.1c",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    names.push(format!("\"{}\"", "n".repeat(300)));
    names.push("n".repeat(300));
    names
}

/// Table names, from one part to five, with catalogs and metadata tables.
const TABLES: &[&str] = &[
    "t",
    "db.t",
    "cat.db.t",
    "awsdatacatalog.db.t",
    "\"awsdatacatalog\".\"db\".\"t\"",
    "a.b.c.d",
    "a.b.c.d.e",
    "\"db\".\"t\"",
    "\"db.t\"",
    "db.\"t$snapshots\"",
    "\"db\".\"t$snapshots\"",
    "db.\"t$partitions\"",
    "db.\"t$files\"",
    "db.\"t$history\"",
    "db.\"t$manifests\"",
    "db.\"t$refs\"",
    "db.\"t$properties\"",
    "db.t$snapshots",
    "db.\"t\"$snapshots",
    "db.\"t\"\"x\"",
    "db.\"\"",
    "db.select",
    "db.\"select\"",
    "select.t",
    "db.table",
    "db.date",
    "db.1t",
    "1db.t",
    "db.`t`",
    "db..t",
    ".t",
    "db.",
    "db. t",
    "db.\"\u{e9}\"",
    "db.\u{e9}",
];

/// String literals where a value stands.
fn strings() -> Vec<String> {
    let mut s: Vec<String> = [
        "'a'",
        "''",
        "''''",
        "'it''s'",
        "'it's'",
        "'a''",
        "'a\nb'",
        "'a\r\nb'",
        "'a\0b'",
        "'a\tb'",
        "'\u{2028}'",
        "'\u{feff}'",
        "'--'",
        "'/*'",
        "'*/'",
        "';'",
        "'a' || 'b'",
        "'a''b''c'",
        "'\\'",
        "'\\''",
        "U&'\\0041'",
        "U&'\\+01F600'",
        "U&'a\\\\b'",
        "U&'\\'",
        "U&'\\004'",
        "U&'\\0041\\'",
        "U&'\\+0041'",
        "U&'\\+00004'",
        "U&'\\DC00'",
        "U&'it''s'",
        "U&'#0041' UESCAPE '#'",
        "U&'#0041' UESCAPE '##'",
        "U&'a' UESCAPE ''",
        "U&'a' UESCAPE '+'",
        "U&'a' UESCAPE 'A'",
        "U&'a' UESCAPE '\\'",
        "U&'a' UESCAPE '\"'",
        "U&'a' UESCAPE ' '",
        "U&'a' UESCAPE",
        "U&''",
        "U&'\u{e9}'",
        "U&'a\nb'",
        "u&'\\0041'",
        "E'a'",
        "e'\\n'",
        "N'a'",
        "n'a'",
        "X'00'",
        "R'a'",
        "$$a$$",
        "\"a\"",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    s.push(format!("'{}'", "x".repeat(100_000)));
    s.push(format!("'{}'", "''".repeat(10_000)));
    s
}

/// `SELECT 1` surrounded by comments, separators and unusual whitespace.
fn separated() -> Vec<String> {
    [
        "SELECT 1",
        "SELECT 1 -- note",
        "SELECT 1 --",
        "-- note\nSELECT 1",
        "SELECT 1 /* note */",
        "SELECT /* note */ 1",
        "/* note */ SELECT 1",
        "SELECT 1 /* a /* b */ c */",
        "SELECT 1 /* unterminated",
        "SELECT 1 */",
        "SELECT 1 /**/",
        "SELECT 1;",
        "SELECT 1 ;",
        "SELECT 1;;",
        "SELECT 1; ",
        ";SELECT 1",
        ";",
        "",
        " ",
        "SELECT 1; SELECT 2",
        "SELECT 1;SELECT 2;",
        "SELECT 1\n;",
        "\u{feff}SELECT 1",
        "SELECT\u{feff}1",
        "SELECT\u{a0}1",
        "SELECT\u{b}1",
        "SELECT\u{c}1",
        "SELECT\u{85}1",
        "SELECT\u{2028}1",
        "SELECT\u{3000}1",
        "SELECT\u{200b}1",
        "SELECT\t1",
        "SELECT\r\n1",
        "SELECT\r1",
        "\n\n SELECT 1 \n\n",
        "SELECT 1\0",
        "SELECT\u{0}1",
        "SELECT 1 \\",
        "SELECT 1 #",
        "SELECT 1 # note",
        "SELECT 1 // note",
        "SELECT 1 @",
        "SELECT c FROM db.t WHERE c = 'a' -- ' OR 1 = 1",
        "SELECT c FROM db.t WHERE c = 'a'; DROP TABLE db.t",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The statement forms the builders write for Trino and Athena (their Trino-grammar
/// part), with the kind each is validated as.
const FORMS: &[(StatementKind, &str)] = &[
    (Select, "SELECT user_id, tool_name FROM analytics.mcp_events WHERE event_ts >= TIMESTAMP '2026-09-01 00:00:00.000000'"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR VERSION AS OF 5789234567890123456"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR TIMESTAMP AS OF TIMESTAMP '2026-09-01 12:00:00 UTC'"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR VERSION AS OF 5789234567890123456 AS e WHERE e.status = 'ok'"),
    (Select, "SELECT event_id FROM analytics.mcp_events AS e FOR VERSION AS OF 5789234567890123456"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR VERSION AS OF -1"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR VERSION AS OF 'main'"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR TIMESTAMP AS OF CURRENT_TIMESTAMP - INTERVAL '1' DAY"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR SYSTEM_TIME AS OF TIMESTAMP '2026-09-01 12:00:00 UTC'"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR SYSTEM_VERSION AS OF 5"),
    (Select, "SELECT event_id FROM analytics.mcp_events VERSION AS OF 5"),
    (Select, "SELECT event_id FROM analytics.mcp_events FOR VERSION BETWEEN 1 AND 2"),
    (Select, "SELECT snapshot_id, committed_at FROM \"analytics\".\"mcp_events$snapshots\" ORDER BY committed_at DESC LIMIT 5"),
    (Select, "SELECT * FROM analytics.\"mcp_events$partitions\""),
    (Select, "SELECT a.event_id FROM analytics.mcp_events AS a JOIN analytics.mcp_events_staging AS b ON a.event_id = b.event_id"),
    (Select, "WITH recent AS (SELECT event_id FROM analytics.mcp_events) SELECT event_id FROM recent"),
    (Select, "SELECT tool_name, count(*) AS calls FROM analytics.mcp_events WHERE status = 'ok' GROUP BY tool_name HAVING count(*) > 1"),
    (Insert, "INSERT INTO analytics.mcp_events (event_id, status, latency_ms) VALUES ('evt-001', 'success', 150), ('evt-002', 'it''s', -1)"),
    (Insert, "INSERT INTO analytics.mcp_events (event_id) SELECT event_id FROM analytics.mcp_events_staging"),
    (Update, "UPDATE analytics.mcp_events SET status = 'retried', latency_ms = 1 WHERE event_id = 'evt-001'"),
    (Delete, "DELETE FROM analytics.mcp_events WHERE event_ts < TIMESTAMP '2026-09-01 00:00:00.000000'"),
    (Merge, "MERGE INTO analytics.mcp_events AS target USING analytics.mcp_events_staging AS source ON target.event_id = source.event_id WHEN MATCHED THEN UPDATE SET status = source.status WHEN NOT MATCHED THEN INSERT (event_id, status) VALUES (source.event_id, source.status)"),
    (Merge, "MERGE INTO analytics.mcp_events AS target USING (VALUES ('evt-001', 'success')) AS source (event_id, status) ON target.event_id = source.event_id WHEN NOT MATCHED THEN INSERT (event_id, status) VALUES (source.event_id, source.status)"),
    (Merge, "MERGE INTO analytics.mcp_events AS target USING analytics.mcp_events_staging AS source ON target.event_id = source.event_id WHEN MATCHED AND source.status = 'gone' THEN DELETE WHEN MATCHED THEN UPDATE SET status = source.status"),
    (Merge, "MERGE INTO analytics.mcp_events target USING analytics.mcp_events_staging source ON target.event_id = source.event_id WHEN NOT MATCHED THEN INSERT VALUES (source.event_id)"),
    (Merge, "MERGE INTO analytics.mcp_events AS target USING analytics.mcp_events_staging AS source ON target.event_id = source.event_id WHEN MATCHED THEN UPDATE SET target.status = source.status"),
    (Merge, "MERGE INTO analytics.mcp_events AS target USING analytics.mcp_events_staging AS source ON target.event_id = source.event_id WHEN NOT MATCHED BY SOURCE THEN DELETE"),
    (Merge, "MERGE INTO analytics.mcp_events AS target USING analytics.mcp_events_staging AS source ON target.event_id = source.event_id WHEN MATCHED THEN UPDATE SET *"),
    (Merge, "MERGE INTO analytics.mcp_events AS target USING analytics.mcp_events_staging AS source ON target.event_id = source.event_id WHEN NOT MATCHED THEN INSERT *"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH (format = 'PARQUET', location = 's3://my-datalake/iceberg/mcp_daily/', partitioning = ARRAY['day(event_ts)', 'bucket(user_id, 16)']) AS SELECT user_id, event_ts FROM analytics.mcp_events"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH (table_type = 'ICEBERG', is_external = false, location = 's3://my-datalake/iceberg/mcp_daily/', partitioning = ARRAY['day(event_ts)'], format = 'PARQUET') AS SELECT user_id, event_ts FROM analytics.mcp_events"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH (format = 'PARQUET') AS SELECT user_id FROM analytics.mcp_events WITH NO DATA"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH (format = DEFAULT) AS SELECT user_id FROM analytics.mcp_events"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH () AS SELECT user_id FROM analytics.mcp_events"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH (\"format\" = 'PARQUET') AS SELECT user_id FROM analytics.mcp_events"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH (format 'PARQUET') AS SELECT user_id FROM analytics.mcp_events"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH (format = 'PARQUET',) AS SELECT user_id FROM analytics.mcp_events"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily WITH ('format' = 'PARQUET') AS SELECT user_id FROM analytics.mcp_events"),
    (CreateTableAs, "CREATE TABLE analytics.mcp_daily AS SELECT user_id FROM analytics.mcp_events"),
    (CreateView, "CREATE OR REPLACE VIEW analytics.calls_per_tool AS SELECT tool_name, count(*) AS calls FROM analytics.mcp_events GROUP BY tool_name"),
    (DropView, "DROP VIEW IF EXISTS analytics.calls_per_tool"),
    // The Trino target writes these too (Athena writes them in Hive DDL).
    (CreateTable, "CREATE TABLE analytics.tool_stats (tool_name varchar NOT NULL, day date, calls integer) COMMENT 'calls per tool and day' WITH (format = 'PARQUET', partitioning = ARRAY['day'], location = 's3://my-datalake/iceberg/tool_stats/')"),
    (DropTable, "DROP TABLE analytics.mcp_events"),
    (AlterTable, "ALTER TABLE analytics.mcp_events ADD COLUMN region varchar"),
    (AlterTable, "ALTER TABLE analytics.mcp_events RENAME COLUMN payload TO body"),
    (AlterTable, "ALTER TABLE analytics.tool_stats ALTER COLUMN calls SET DATA TYPE bigint"),
    (AlterTable, "ALTER TABLE analytics.mcp_events SET PROPERTIES max_previous_versions = DEFAULT"),
    (AlterTable, "ALTER TABLE analytics.mcp_events RENAME TO analytics.mcp_events_v2"),
    (Optimize, "ALTER TABLE analytics.mcp_events EXECUTE optimize"),
    (Optimize, "ALTER TABLE analytics.tool_stats EXECUTE optimize WHERE day >= DATE '2026-09-01'"),
    (Optimize, "ALTER TABLE analytics.mcp_events EXECUTE optimize(file_size_threshold => '128MB')"),
    (Optimize, "ALTER TABLE analytics.mcp_events EXECUTE optimize()"),
    (Vacuum, "ALTER TABLE analytics.mcp_events EXECUTE expire_snapshots"),
    (Vacuum, "ALTER TABLE analytics.mcp_events EXECUTE expire_snapshots(retention_threshold => '7d', retain_last => 3)"),
    (Vacuum, "ALTER TABLE analytics.mcp_events EXECUTE expire_snapshots(retention_threshold = '7d')"),
    (Vacuum, "ALTER TABLE analytics.mcp_events EXECUTE expire_snapshots('7d')"),
    (ShowCreateTable, "SHOW CREATE TABLE analytics.mcp_events"),
    (Describe, "DESCRIBE analytics.mcp_events"),
    (CreateDatabase, "CREATE SCHEMA IF NOT EXISTS analytics WITH (location = 's3://my-datalake/iceberg/')"),
    (DropDatabase, "DROP SCHEMA analytics CASCADE"),
    (ShowTables, "SHOW TABLES IN analytics LIKE 'mcp\\_%' ESCAPE '\\'"),
    (Select, "SELECT count(c) FILTER (WHERE c IS NOT NULL) AS n, count(c) filter FROM db.t AS s WHERE s.c IS NOT NULL"),
    (Select, "SELECT c FROM (SELECT 1 AS c) filter (c)"),
];

/// The boundaries between the tokens of `sql`, roughly: where whitespace starts, and
/// on either side of punctuation (outside quotes).
fn token_boundaries(sql: &str) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut quote: Option<char> = None;
    for (i, c) in sql.char_indices() {
        match quote {
            Some(q) if c == q => {
                quote = None;
                cuts.push(i + c.len_utf8());
            }
            Some(_) => {}
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                cuts.push(i);
            }
            None if c.is_whitespace() || "(),.;=<>[]*+-".contains(c) => {
                cuts.push(i);
                cuts.push(i + c.len_utf8());
            }
            None => {}
        }
    }
    cuts.retain(|&i| i > 0 && i < sql.len());
    cuts.dedup();
    cuts
}

/// `sql` truncated at every token boundary, and with each word (a run between spaces)
/// dropped in turn.
fn corrupted(sql: &str) -> Vec<String> {
    let mut out: Vec<String> = token_boundaries(sql)
        .into_iter()
        .map(|i| sql[..i].to_string())
        .collect();
    let words: Vec<&str> = sql.split(' ').collect();
    for skip in 0..words.len() {
        let rest: Vec<&str> = words
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != skip)
            .map(|(_, w)| *w)
            .collect();
        out.push(rest.join(" "));
    }
    out
}

fn corpus() -> Vec<Case> {
    let case = |kind, sql: String| Case { kind, sql };
    let mut cases = Vec::new();
    for n in column_names() {
        cases.push(case(Select, format!("SELECT {n} FROM db.t")));
        cases.push(case(Select, format!("SELECT c AS {n} FROM db.t")));
        cases.push(case(Select, format!("SELECT c FROM db.t AS {n}")));
        cases.push(case(Select, format!("SELECT c FROM db.t WHERE {n} = 1")));
        cases.push(case(Update, format!("UPDATE db.t SET {n} = 1")));
        cases.push(case(Insert, format!("INSERT INTO db.t ({n}) VALUES (1)")));
    }
    for t in TABLES {
        cases.push(case(Select, format!("SELECT c FROM {t}")));
        cases.push(case(
            Select,
            format!("SELECT c FROM {t} FOR VERSION AS OF 1"),
        ));
        cases.push(case(Insert, format!("INSERT INTO {t} (c) VALUES (1)")));
        cases.push(case(Delete, format!("DELETE FROM {t} WHERE c = 1")));
        cases.push(case(
            Merge,
            format!("MERGE INTO {t} AS target USING db.s AS source ON target.c = source.c WHEN MATCHED THEN DELETE"),
        ));
        cases.push(case(Optimize, format!("ALTER TABLE {t} EXECUTE optimize")));
        cases.push(case(DropTable, format!("DROP TABLE {t}")));
    }
    for s in strings() {
        cases.push(case(Select, format!("SELECT {s}")));
        cases.push(case(Select, format!("SELECT c FROM db.t WHERE c = {s}")));
        cases.push(case(Insert, format!("INSERT INTO db.t (c) VALUES ({s})")));
        cases.push(case(Update, format!("UPDATE db.t SET c = {s} WHERE d = 1")));
    }
    for s in separated() {
        cases.push(case(Select, s.clone()));
        cases.push(case(
            Delete,
            s.replace("SELECT 1", "DELETE FROM db.t WHERE c = 1"),
        ));
    }
    for (kind, sql) in FORMS {
        cases.push(case(*kind, sql.to_string()));
        for bad in corrupted(sql) {
            cases.push(case(*kind, bad));
        }
    }
    // One case per text: the report is matched back by text.
    let mut seen = std::collections::HashSet::new();
    cases.retain(|c| seen.insert((c.kind, c.sql.clone())));
    cases
}

/// Text Trino's grammar accepts and Trino then refuses when it builds the syntax tree,
/// each with the rule and its source; our validator must refuse each.
const BEYOND_THE_GRAMMAR: &[(StatementKind, &str, &str)] = &[
    // io/trino/sql/parser/SqlParser.java (PostProcessor.exitQuotedIdentifier):
    // "Zero-length delimited identifier not allowed".
    (Select, "SELECT c FROM db.\"\"", "empty"),
    (Select, "SELECT c AS \"\" FROM db.t", "empty"),
    // PostProcessor.exitBackQuotedIdentifier: "backquoted identifiers are not supported;
    // use double quotes to quote identifiers".
    (Select, "SELECT `c` FROM db.t", "backtick"),
    // PostProcessor.exitDigitIdentifier: "identifiers must not start with a digit;
    // surround the identifier with double quotes".
    (Select, "SELECT 1c FROM db.t", "digit"),
    (Select, "SELECT c FROM db.t AS 1t", "digit"),
];

/// Every statement of the corpus our Trino-grammar targets accept, Trino's grammar
/// accepts; and each text of [`BEYOND_THE_GRAMMAR`] the grammar accepts.
#[test]
fn names_strings_comments_and_forms_we_accept_trino_parses() {
    let cases = corpus();
    assert!(cases.len() > 1_500, "{} cases", cases.len());
    let verdicts = trino_grammar::verdicts(&cases, &TRINO_TARGETS);
    // Both directions happen, for every kind of the corpus: it has texts we accept.
    assert!(verdicts.accepted.len() > 300, "{}", verdicts.accepted.len());
    assert!(verdicts.refused.len() > 300, "{}", verdicts.refused.len());
    for (kind, at_least) in [
        (Select, 50),
        (Insert, 10),
        (Update, 10),
        (Delete, 10),
        (Merge, 5),
        (CreateTableAs, 2),
        (Optimize, 3),
        (Vacuum, 2),
        (AlterTable, 3),
    ] {
        let n = verdicts
            .accepted
            .iter()
            .filter(|(_, sql)| cases.iter().any(|c| c.kind == kind && &c.sql == sql))
            .count();
        assert!(n >= at_least, "{n} accepted {kind:?} statements");
    }

    let Some(python) = trino_grammar::python() else {
        return;
    };
    trino_grammar::assert_accepted_parse(&python, &cases, &verdicts);
    let beyond: Vec<&str> = BEYOND_THE_GRAMMAR.iter().map(|(_, s, _)| *s).collect();
    trino_grammar::assert_grammar_parses(&python, &beyond);
}

/// Each text of [`BEYOND_THE_GRAMMAR`] is refused by every Trino-grammar target, with a
/// message that names the rule (this part needs no Python).
#[test]
fn names_trino_refuses_beyond_its_grammar_we_refuse() {
    trino_grammar::assert_refused_beyond_the_grammar(BEYOND_THE_GRAMMAR);
}

/// What the probe found accepted and Trino's grammar refuses, each refused now with a
/// message saying what to write instead (target, kind, text, words of the message).
const FOUND: &[(Dialect, StatementKind, &str, &str)] = &[
    // A keyword sqlparser takes for a name: Trino reserves it.
    (
        Dialect::Trino,
        Select,
        "SELECT select FROM db.t",
        "the reserved word `select` (quote it to use it as a name)",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT c FROM db.table",
        "the reserved word `table` (quote it to use it as a name)",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT a, AS b FROM db.t",
        "expected an expression, found the reserved word `AS` (quote it to use it as a name)",
    ),
    (
        Dialect::Trino,
        Select,
        "SELECT c FROM AS a",
        "expected a name, found the reserved word `AS` (quote it to use it as a name)",
    ),
    (
        Dialect::Athena,
        Merge,
        "MERGE INTO AS t USING db.s AS s ON t.c = s.c WHEN MATCHED THEN DELETE",
        "expected a name, found the reserved word `AS` (quote it to use it as a name)",
    ),
    (
        Dialect::Trino,
        Optimize,
        "ALTER TABLE db.select EXECUTE optimize",
        "expected a name, found the reserved word `select` (quote it to use it as a name)",
    ),
    (
        Dialect::Athena,
        Update,
        "UPDATE db.t SET values = 1",
        "expected a name, found the reserved word `values` (quote it to use it as a name)",
    ),
    // Separators.
    (Dialect::Trino, Select, "SELECT 1;", "takes no `;`"),
    (
        Dialect::Trino,
        Delete,
        "DELETE FROM db.t WHERE c = 1 ;",
        "takes no `;`",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT 1;;",
        "at most one `;`, after the statement",
    ),
    (
        Dialect::Athena,
        Select,
        ";SELECT 1",
        "at most one `;`, after the statement",
    ),
    (
        Dialect::Trino,
        Select,
        "SELECT\u{a0}1",
        "U+00A0 between words",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT c FROM\u{3000}db.t",
        "U+3000 between words",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT\u{b}1",
        "U+000B between words",
    ),
    // Statement forms.
    (
        Dialect::Trino,
        Insert,
        "INSERT INTO db.t (t.c) VALUES (1)",
        "expected `)`, found `.`",
    ),
    (
        Dialect::Athena,
        Update,
        "UPDATE db.t SET db.t.c = 1",
        "expected `=` (the column of a `SET` is one name in Trino), found `.`",
    ),
    (
        Dialect::Athena,
        Merge,
        "MERGE INTO db.t AS t USING db.s AS s ON t.c = s.c WHEN MATCHED THEN UPDATE SET t.c = s.c",
        "expected `=` (the column of a `SET` is one name in Trino), found `.`",
    ),
    (
        Dialect::Trino,
        Merge,
        "MERGE INTO db.t AS t USING db.s AS s ON t.c = s.c",
        "expected `WHEN [NOT] MATCHED` (a MERGE needs at least one), found the end of the text",
    ),
    (
        Dialect::Athena,
        Merge,
        "MERGE INTO db.t AS t USING db.s AS s ON t.c = s.c WHEN NOT MATCHED THEN INSERT *",
        "INSERT *",
    ),
    (
        Dialect::Trino,
        Select,
        "SELECT a.c FROM db.t AS a JOIN db.u AS b",
        "expected `ON` and the join condition, or `USING (…)`, found the end of the text",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT a.c FROM db.t AS a LEFT JOIN db.u",
        "expected `ON` and the join condition, or `USING (…)`, found the end of the text",
    ),
    (
        Dialect::Trino,
        CreateTableAs,
        "CREATE TABLE db.t2 WITH () AS SELECT c FROM db.t",
        "an empty WITH ()",
    ),
    (
        Dialect::Trino,
        CreateTableAs,
        "CREATE TABLE db.t2 WITH ('format' = 'PARQUET') AS SELECT c FROM db.t",
        "expected a name, found `'format'`",
    ),
    (
        Dialect::Athena,
        CreateTableAs,
        "CREATE TABLE db.t2 WITH () AS SELECT c FROM db.t",
        "an empty WITH ()",
    ),
    (
        Dialect::Athena,
        CreateTableAs,
        "CREATE TABLE db.t2 () AS SELECT c FROM db.t",
        "empty column list",
    ),
    // sqlparser reads `c NOT NULL` as `c IS NOT NULL`; Trino's grammar has only
    // `IS NOT NULL` (SqlBase.g4, `predicate`).
    (
        Dialect::Trino,
        Select,
        "SELECT c NOT NULL FROM db.t",
        "`x NOT NULL` is neither Trino's nor Spark's: write `x IS NOT NULL`",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT c FROM db.t WHERE c NOT NULL",
        "`x NOT NULL` is neither Trino's nor Spark's: write `x IS NOT NULL`",
    ),
    // sqlparser took `FILTER (` and dropped it when no WHERE followed: this read as
    // `SELECT count(c) FROM db.t`. Trino's grammar: `FILTER '(' WHERE … ')'`.
    (
        Dialect::Trino,
        Select,
        "SELECT count(c) FILTER ( FROM db.t",
        "expected `WHERE` in `FILTER (WHERE …)`, found `FROM`",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT c FROM db.t WHERE c IN (SELECT count(c) FILTER (n) FROM db.u)",
        "expected `WHERE` in `FILTER (WHERE …)`, found `n`",
    ),
    // sqlparser reads `s.?a` as the name `s."?"` aliased `a`.
    (
        Dialect::Trino,
        Select,
        "SELECT s.?a FROM db.t AS s",
        "a `?` parameter after `.`",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT s. ? FROM db.t AS s",
        "a `?` parameter after `.`",
    ),
];

/// Of [`FOUND`], the refusals of another engine's form: each hint says what Trino writes
/// instead (target, kind, text, words of the hint).
const FOUND_HINTS: &[(Dialect, StatementKind, &str, &str)] = &[
    (
        Dialect::Athena,
        Merge,
        "MERGE INTO db.t AS t USING db.s AS s ON t.c = s.c WHEN NOT MATCHED THEN INSERT *",
        "`INSERT *` is Spark's: Trino lists the columns and their values",
    ),
    (
        Dialect::Trino,
        CreateTableAs,
        "CREATE TABLE db.t2 WITH ('format' = 'PARQUET') AS SELECT c FROM db.t",
        "Trino's property names are names, not strings: `WITH (format = 'PARQUET')`",
    ),
];

/// What must still pass beside [`FOUND`]: reserved words quoted or naming functions,
/// white space inside strings, Athena's one final `;`, joins with criteria.
const STILL_ACCEPTED: &[(Dialect, StatementKind, &str)] = &[
    (
        Dialect::Trino,
        Select,
        "SELECT \"select\" FROM db.\"table\"",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT trim(c), current_user, current_date FROM db.t",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT listagg(c, ',') WITHIN GROUP (ORDER BY c) FROM db.t",
    ),
    (
        Dialect::Trino,
        Select,
        "SELECT u.x FROM db.t CROSS JOIN UNNEST(t.arr) AS u (x)",
    ),
    (
        Dialect::Trino,
        Select,
        "SELECT '\u{a0}\u{3000}' AS \"a\u{a0}b\"",
    ),
    (Dialect::Athena, Select, "SELECT 1;"),
    (Dialect::Athena, Select, "SELECT 1\t\r\n"),
    (
        Dialect::Trino,
        Select,
        "SELECT a.c FROM db.t AS a JOIN db.u AS b ON a.c = b.c",
    ),
    (
        Dialect::Trino,
        Select,
        "SELECT a.c FROM db.t AS a JOIN db.u AS b USING (c)",
    ),
    (Dialect::Athena, Update, "UPDATE db.t SET \"values\" = 1"),
    (
        Dialect::Trino,
        CreateTableAs,
        "CREATE TABLE db.t2 WITH (\"format\" = 'PARQUET') AS SELECT c FROM db.t",
    ),
    // `filter` is a name where no `( WHERE` follows; `IS NOT NULL` and a column's
    // `NOT NULL` read as before.
    (
        Dialect::Trino,
        Select,
        "SELECT count(c) filter FROM (SELECT 1 AS c) filter (c) WHERE c IS NOT NULL",
    ),
    (
        Dialect::Athena,
        Select,
        "SELECT count(c) FILTER (WHERE c NOT IN (1)) AS n, filter FROM db.t AS filter",
    ),
    (
        Dialect::Trino,
        CreateTable,
        "CREATE TABLE db.t (c integer NOT NULL, d varchar)",
    ),
];

#[test]
fn what_the_probe_found_is_refused_with_the_way_out() {
    let mut missed = Vec::new();
    for &(d, kind, sql, says) in FOUND {
        match validate_sql(sql, kind, d, 0) {
            Ok(()) => missed.push(format!("{d:?} accepts {sql:?}")),
            Err(e) if !e.message().contains(says) || e.location().is_none() => missed.push(
                format!("{d:?} refuses {sql:?} without saying {says:?} at a position: {e}"),
            ),
            Err(_) => {}
        }
    }
    for &(d, kind, sql, says) in FOUND_HINTS {
        assert!(
            FOUND
                .iter()
                .any(|&(fd, fk, fsql, _)| (fd, fk, fsql) == (d, kind, sql)),
            "{sql:?} is not in FOUND"
        );
        match validate_sql(sql, kind, d, 0) {
            Err(e) if e.hint().is_some_and(|h| h.contains(says)) => {}
            other => missed.push(format!("{d:?} {sql:?}: no hint saying {says:?}: {other:?}")),
        }
    }
    for &(d, kind, sql) in STILL_ACCEPTED {
        if let Err(e) = validate_sql(sql, kind, d, 0) {
            missed.push(format!("{d:?} refuses {sql:?}: {e}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// The words Trino's grammar file reserves (its keyword tokens less the `nonReserved`
/// rule, in the `SqlBase.g4` trino-query-parser ships) are all words we quote and refuse
/// as bare names; the words we reserve beyond it are the ones other readings of the
/// grammar reserve (AWS's list, later Trino releases), listed here.
#[test]
fn reserved_words_follow_the_grammar_file() {
    let Some(python) = trino_grammar::python() else {
        return;
    };
    let out = std::process::Command::new(&python)
        .args([
            "-c",
            "import os, trino_query_parser as p; print(os.path.join(os.path.dirname(p.__file__), 'SqlBase.g4'))",
        ])
        .output()
        .expect("the grammar's interpreter runs");
    let path = String::from_utf8(out.stdout)
        .expect("a path")
        .trim()
        .to_string();
    let g4 = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // Keyword tokens: `ABSENT: 'ABSENT';` (a token whose text is its own name).
    let keywords: std::collections::BTreeSet<String> = g4
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.trim().split_once(':')?;
            let word = rest.trim().strip_prefix('\'')?.strip_suffix("';")?;
            (word == name.trim()).then(|| word.to_ascii_lowercase())
        })
        .collect();
    let rule = g4
        .split("\nnonReserved")
        .nth(1)
        .and_then(|r| r.split(';').next())
        .expect("a nonReserved rule");
    let non_reserved: std::collections::BTreeSet<String> = rule
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
        .map(|w| w.to_ascii_lowercase())
        .collect();
    assert!(non_reserved.len() > 150, "{}", non_reserved.len());
    let grammar_reserved: Vec<&String> = keywords.difference(&non_reserved).collect();
    assert!(grammar_reserved.len() > 70, "{grammar_reserved:?}");
    let missing: Vec<&&String> = grammar_reserved
        .iter()
        .filter(|w| !Grammar::TrinoDml.is_reserved(w))
        .collect();
    assert!(
        missing.is_empty(),
        "reserved by {path}, not by us: {missing:?}"
    );
    // Beyond the file: AWS's list (`first`, `last`, `of`) and the words Trino's
    // reserved-words page marks ambiguous (`all`, `any`, `some`); `auto` and `primary`,
    // reserved by later releases, are no keywords of this file.
    let beyond: Vec<&String> = non_reserved
        .iter()
        .filter(|w| Grammar::TrinoDml.is_reserved(w))
        .collect();
    assert_eq!(
        beyond,
        ["all", "any", "first", "last", "of", "some"],
        "words we quote that {path} reads as names"
    );
}
