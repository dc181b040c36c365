//! Unit tests of the tests' oracle, the sqlparser pipeline (`oracle/`): its parse,
//! hooks, stack handling and walk, and the VALUES recognizer held to it (`values.rs`).
//! The corpus of accepted and rejected statement shapes lives in
//! `tests/validate_corpus.rs` and is held to both pipelines by `check/tests.rs`.

mod ast;
pub(super) mod expr_structure;
mod prefix;
pub(super) mod values;
mod walk;

/// The verdict corpus's reader, shared with the integration test that keeps it.
#[path = "../../../tests/fixtures/verdicts.rs"]
pub(in crate::validate) mod verdict_fixture;

/// The corpus's entries with the oracle's verdict on each, given now (the fixture
/// records the shipped validator's): what the differential tests hold our pipeline to.
pub(in crate::validate) fn oracle_entries() -> Vec<verdict_fixture::Entry> {
    let mut all = verdict_fixture::entries();
    for e in &mut all {
        e.verdict =
            verdict_fixture::verdict(oracle::validate_sql(&e.sql, e.kind, e.dialect, e.params));
    }
    all
}

use super::oracle::{end_location, hooks, lex, parse_tokens, split_location, Parsed, Stack};
use super::*;
use crate::dialect::Grammar;
use sqlparser::ast::Statement as SqlStatement;
use sqlparser::parser::ParserError;

/// The statement sqlparser read, for tests that look at the tree.
fn parse_statement(sql: &str, kind: StatementKind, dialect: Dialect) -> Result<SqlStatement> {
    with_parsed(sql, kind, dialect, |stmt| stmt.clone())
}

fn ok(sql: &str, kind: StatementKind, dialect: Dialect) {
    if let Err(e) = oracle::validate_sql(sql, kind, dialect, 0) {
        panic!("expected {sql:?} to pass, got:\n{e}");
    }
}

fn err(sql: &str, kind: StatementKind, dialect: Dialect) -> Error {
    match oracle::validate_sql(sql, kind, dialect, 0) {
        Ok(()) => panic!("expected {sql:?} to fail"),
        Err(e) => e,
    }
}

#[test]
fn location_is_parsed_out_of_sqlparser_messages() {
    let (msg, loc) = split_location("Expected: ), found: ( at Line: 3, Column: 14");
    assert_eq!(msg, "Expected: ), found: (");
    assert_eq!(
        loc,
        Some(SqlLocation {
            line: 3,
            column: 14
        })
    );
    let (msg, loc) = split_location("recursion limit exceeded");
    assert_eq!(msg, "recursion limit exceeded");
    assert_eq!(loc, None);
}

#[test]
fn end_location_points_after_the_last_character() {
    assert_eq!(
        end_location("SELECT\n  a,"),
        Some(SqlLocation { line: 2, column: 5 })
    );
}

#[test]
fn syntax_errors_carry_a_caret() {
    let e = err(
        "SELECT a\nFROM t t2 t3",
        StatementKind::Select,
        Dialect::Athena,
    );
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(
        e.location(),
        Some(&SqlLocation {
            line: 2,
            column: 11
        })
    );
    let shown = e.to_string();
    assert!(shown.contains("found `t3`"), "{shown}");
    assert!(
        shown.contains("2 | FROM t t2 t3\n  |           ^"),
        "{shown}"
    );
}

#[test]
fn hook_rejections_are_disallowed_syntax_with_position() {
    let e = err(
        "VACUUM analytics.mcp_events RETAIN 7 DAYS",
        StatementKind::Vacuum,
        Dialect::Athena,
    );
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert_eq!(
        e.location(),
        Some(&SqlLocation {
            line: 1,
            column: 29
        })
    );
    assert!(
        e.message()
            .starts_with("VACUUM takes no options in Athena, found `RETAIN`")
            && !e.message().contains(" at Line:"),
        "the refusal's message alone: {:?}",
        e.message()
    );
}

#[test]
fn empty_text_is_not_a_statement() {
    let e = err("  ", StatementKind::Select, Dialect::Athena);
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(e.message().contains("found none"));
}

#[test]
fn a_trailing_semicolon_is_one_statement() {
    ok("SELECT 1;", StatementKind::Select, Dialect::Athena);
}

#[test]
fn size_limit_comes_first() {
    let sql = format!("SELECT '{}'", "x".repeat(MAX_QUERY_BYTES));
    let e = err(&sql, StatementKind::Select, Dialect::Athena);
    assert_eq!(e.kind(), ErrorKind::QueryTooLong);
}

#[test]
fn spark_number_suffixes_are_glued_back() {
    let stmt = parse_statement(
        "SELECT 5L, 1.5D, 2BD",
        StatementKind::Select,
        Dialect::Spark,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let text = format!("{stmt}");
    assert!(
        text.contains("5L") && text.contains("1.5D") && text.contains("2BD"),
        "{text}"
    );
    // Not glued when separated: `5 L` is a number with an alias.
    let stmt = parse_statement("SELECT 5 L", StatementKind::Select, Dialect::Spark)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stmt.to_string(), "SELECT 5 AS L");
}

#[test]
fn quoted_for_is_not_time_travel() {
    // A column named "timestamp" followed by AS of-alias is not touched by the pre-pass.
    ok(
        "SELECT \"for\", \"timestamp\" AS ts FROM db.t",
        StatementKind::Select,
        Dialect::Athena,
    );
}

/// `CAST(ROW(CAST(ROW(…) AS row(…)), 'x') AS row(a row(…), b varchar))`, `depth` levels.
fn nested_trino_row(depth: usize) -> String {
    let mut v = "1.5E0".to_string();
    let mut t = "double".to_string();
    for _ in 0..depth {
        v = format!("CAST(ROW({v}, 'x') AS row(a {t}, b varchar))");
        t = format!("row(a {t}, b varchar)");
    }
    v
}

/// Text nested as deep as the builders write it: Trino struct and array literals with
/// their types, Spark struct literals, Hive DDL types (kind, dialect).
pub(in crate::validate) fn deep_nesting_inputs() -> Vec<(String, StatementKind, Dialect)> {
    let row = nested_trino_row(12);
    let mut arr = "ARRAY[1]".to_string();
    let mut arr_t = "array(integer)".to_string();
    for _ in 0..12 {
        arr = format!("ARRAY[{arr}]");
        arr_t = format!("array({arr_t})");
    }
    let trino = format!("INSERT INTO db.t (a, b) VALUES ({row}, CAST({arr} AS {arr_t}))");
    let mut v = "1.5D".to_string();
    for _ in 0..12 {
        v = format!("named_struct('a', {v}, 'b', array(map('k', 'v')))");
    }
    let spark = format!("INSERT INTO db.t (a) VALUES ({v})");
    let mut t = "string".to_string();
    for i in 0..12 {
        t = if i % 2 == 0 {
            format!("struct<a:{t},b:int>")
        } else {
            format!("array<map<string,{t}>>")
        };
    }
    let hive = format!(
        "CREATE TABLE db.t (c {t}) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')"
    );
    vec![
        (trino, StatementKind::Insert, Dialect::Athena),
        (spark, StatementKind::Insert, Dialect::Spark),
        (hive, StatementKind::CreateTable, Dialect::Athena),
    ]
}

#[test]
fn deep_nesting_trino_struct_spark_struct_and_hive_ddl_types_pass() {
    for (sql, kind, dialect) in deep_nesting_inputs() {
        ok(&sql, kind, dialect);
    }
}

#[test]
fn nesting_beyond_the_limit_is_an_error_not_a_crash() {
    for depth in [40usize, 100, 1000, 20_000] {
        let sql = format!("SELECT {}1{}", "(".repeat(depth), ")".repeat(depth));
        let r = oracle::validate_sql(&sql, StatementKind::Select, Dialect::Athena, 0);
        if depth <= 40 {
            assert!(r.is_ok(), "depth {depth}: {r:?}");
        } else if let Err(e) = r {
            assert_eq!(e.kind(), ErrorKind::Syntax, "depth {depth}");
        }
    }
}

#[test]
fn exempt_quoting_only_where_documented() {
    // 'key' quoting is fine in TBLPROPERTIES …
    ok(
        "ALTER TABLE db.t SET TBLPROPERTIES ('write_compression'='zstd')",
        StatementKind::AlterTable,
        Dialect::Athena,
    );
    // … but a property key must be quoted.
    let e = err(
        "ALTER TABLE db.t SET TBLPROPERTIES (write_compression='zstd')",
        StatementKind::AlterTable,
        Dialect::Athena,
    );
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert!(e.message().contains("single-quoted"), "{e}");
}

#[test]
fn wide_expressions_pass() {
    let ors: Vec<String> = (0..3000).map(|i| format!("a = {i}")).collect();
    ok(
        &format!("SELECT * FROM db.t WHERE {}", ors.join(" OR ")),
        StatementKind::Select,
        Dialect::Athena,
    );
    let items: Vec<String> = (0..5000).map(|i| format!("'k{i}'")).collect();
    ok(
        &format!("DELETE FROM db.t WHERE k IN ({})", items.join(", ")),
        StatementKind::Delete,
        Dialect::Athena,
    );
}

#[test]
fn grammar_names_are_distinct() {
    let names = [Grammar::HiveDdl, Grammar::TrinoDml, Grammar::Spark].map(Grammar::name);
    assert_ne!(names[0], names[1]);
    assert_ne!(names[1], names[2]);
}

#[test]
fn trino_paren_types_map_onto_parenthesised_nodes() {
    use sqlparser::ast::{
        ArrayElemTypeDef, DataType, Expr, MapBracketKind, SelectItem, SetExpr, StructBracketKind,
    };
    let stmt = parse_statement(
        "SELECT CAST(x AS row(a array(varchar), b map(varchar, row(c double))))",
        StatementKind::Select,
        Dialect::Athena,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let SqlStatement::Query(q) = stmt else {
        panic!("not a query")
    };
    let SetExpr::Select(s) = q.body.as_ref() else {
        panic!("not a select")
    };
    let SelectItem::UnnamedExpr(Expr::Cast { data_type, .. }) = &s.projection[0] else {
        panic!("not a cast")
    };
    let DataType::Struct(fields, StructBracketKind::Parentheses) = data_type else {
        panic!("{data_type:?}")
    };
    assert_eq!(fields.len(), 2);
    assert!(matches!(
        fields[0].field_type,
        DataType::Array(ArrayElemTypeDef::Parenthesis(_))
    ));
    assert!(matches!(
        fields[1].field_type,
        DataType::Map(_, _, MapBracketKind::Parentheses)
    ));
}

#[test]
fn paren_types_are_dml_only() {
    // In Athena DDL, `array(string)` is not a type.
    let e = err(
        "ALTER TABLE db.t ADD COLUMNS (a array(string))",
        StatementKind::AlterTable,
        Dialect::Athena,
    );
    assert_eq!(e.kind(), ErrorKind::Syntax);
}

#[test]
fn dml_targets_are_table_names() {
    let e = err(
        "DELETE FROM db.t FOR VERSION AS OF 5 WHERE a = 1",
        StatementKind::Delete,
        Dialect::Athena,
    );
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    let e = err(
        "MERGE INTO db.t FOR VERSION AS OF 5 AS target USING db.s AS source ON (target.k = source.k) WHEN MATCHED THEN DELETE",
        StatementKind::Merge,
        Dialect::Athena,
    );
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
}

#[test]
fn spark_accepts_both_time_travel_spellings() {
    ok(
        "SELECT * FROM db.t VERSION AS OF 5",
        StatementKind::Select,
        Dialect::Spark,
    );
    ok(
        "SELECT * FROM db.t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00'",
        StatementKind::Select,
        Dialect::Spark,
    );
}

#[test]
fn long_operator_chains_are_dropped_without_overflow() {
    // 30,000 chained ORs: a tree that deep overflows the default drop glue on a 2 MiB
    // test thread (in unoptimised builds); it is parsed, checked and dropped on the
    // big stack. (The longest chains that fit in 256 KiB have their own test.)
    let ors = vec!["a"; 30_000].join(" OR ");
    let sql = format!("SELECT * FROM db.t WHERE {ors}");
    assert!(sql.len() <= MAX_QUERY_BYTES);
    ok(&sql, StatementKind::Select, Dialect::Athena);
    let sums = vec!["1"; 5_000].join("+");
    ok(
        &format!("SELECT {sums} AS s"),
        StatementKind::Select,
        Dialect::Spark,
    );
}

#[test]
fn long_operator_chain_with_a_parse_error_is_an_error_not_a_crash() {
    let ors = vec!["a"; 30_000].join(" OR ");
    let e = err(
        &format!("SELECT * FROM db.t WHERE {ors} OR"),
        StatementKind::Select,
        Dialect::Athena,
    );
    assert_eq!(e.kind(), ErrorKind::Syntax);
    let e = parse_statement(
        &format!("SELECT * FROM db.t WHERE {ors} AND"),
        StatementKind::Select,
        Dialect::Athena,
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
}

#[test]
fn big_stack_runs_the_closure_once() {
    let mut calls = 0;
    let r = on_big_stack(|| {
        calls += 1;
        7
    });
    assert_eq!((r, calls), (7, 1));
}

const ATHENA_WORDS: prepass::Target = prepass::Target {
    engine: "Athena",
    system_time_refusal: "Athena engine v2 syntax, removed in engine v3",
};

#[test]
fn signs_are_not_counted_as_operator_chains() {
    let deep = |sql: &str| {
        let tokens = lexer::lex(sql, &lexer::Rules::TRINO).unwrap_or_else(|e| panic!("{e:?}"));
        prepass::run(sql, &tokens, Grammar::TrinoDml, &ATHENA_WORDS)
            .unwrap_or_else(|e| panic!("{e:?}"))
    };
    let rows = vec!["(-1, -2.5)"; 3_000].join(", ");
    assert!(!deep(&format!("INSERT INTO db.t (a, b) VALUES {rows}")));
    let ors = vec!["a - 1 > 0"; 1_500].join(" OR ");
    assert!(deep(&format!("SELECT * FROM db.t WHERE {ors}")));
}

#[test]
fn a_refusal_counts_only_for_the_error_it_raised() {
    use hooks::{Hooks, Refusals};
    use sqlparser::tokenizer::Location;
    let refusals = Refusals::default();
    let h = Hooks {
        grammar: Grammar::HiveDdl,
        refusals: &refusals,
    };
    let refused = h
        .refuse::<()>("not here", Location { line: 1, column: 8 })
        .unwrap_err();
    // An error from elsewhere (a branch the parser abandoned) is not the refusal.
    let other = ParserError::ParserError("Expected: ), found: (".into());
    assert!(refusals.take_for(&other).is_none());
    let r = refusals.take_for(&refused).expect("the refusal");
    assert_eq!(r.message, "not here");
    assert_eq!((r.location.line, r.location.column), (1, 8));
    assert!(refusals.take_for(&refused).is_none(), "taken once");
}

/// Runs `f` on a thread with a 2 MiB stack (Rust's default for spawned threads), as a
/// caller's thread might be, whatever `RUST_MIN_STACK` the test harness has.
pub(in crate::validate) fn on_2_mib_thread(f: impl FnOnce() + Send) {
    std::thread::scope(|s| {
        let t = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn_scoped(s, f)
            .unwrap_or_else(|e| panic!("{e}"));
        if let Err(p) = t.join() {
            std::panic::resume_unwind(p);
        }
    });
}

/// Text nesting far past the limit, each level one parser recursion: parentheses,
/// nested arrays, CASE, prefix operators, nested types, subqueries, lambdas (Athena
/// SELECT), Hive DDL types, Spark struct literals (kind, dialect).
pub(in crate::validate) fn hostile_nesting_inputs() -> Vec<(String, StatementKind, Dialect)> {
    let n = |s: &str, k: usize| s.repeat(k);
    let athena = [
        format!("SELECT {}1{}", n("(", 100_000), n(")", 100_000)),
        format!("SELECT {}1{}", n("ARRAY[", 10_000), n("]", 10_000)),
        format!(
            "SELECT {}1{}",
            n("CASE WHEN a THEN ", 10_000),
            n(" END", 10_000)
        ),
        format!("SELECT {}a", n("NOT ", 50_000)),
        format!("SELECT {}1", n("- ", 100_000)),
        format!(
            "SELECT CAST(x AS {}integer{})",
            n("row(a ", 20_000),
            n(")", 20_000)
        ),
        format!(
            "SELECT * FROM {}db.t{}",
            n("(SELECT * FROM ", 10_000),
            n(")", 10_000)
        ),
        format!("SELECT transform(a, {}1)", n("x -> ", 40_000)),
    ];
    let ddl = format!(
        "CREATE TABLE db.t (c {}int{}) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        n("struct<a:", 20_000),
        n(">", 20_000)
    );
    let spark = format!(
        "SELECT {}1{}",
        n("named_struct('a', ", 10_000),
        n(")", 10_000)
    );
    let mut all: Vec<_> = athena
        .into_iter()
        .map(|sql| (sql, StatementKind::Select, Dialect::Athena))
        .collect();
    all.push((ddl, StatementKind::CreateTable, Dialect::Athena));
    all.push((spark, StatementKind::Select, Dialect::Spark));
    all
}

#[test]
fn hostile_nesting_is_an_error_not_a_crash() {
    let inputs = hostile_nesting_inputs();
    on_2_mib_thread(|| {
        for (sql, kind, dialect) in &inputs {
            assert!(sql.len() <= MAX_QUERY_BYTES, "{}", &sql[..40]);
            let e = err(sql, *kind, *dialect);
            assert_eq!(e.kind(), ErrorKind::Syntax, "{}: {e}", &sql[..40]);
            if *kind == StatementKind::Select && *dialect == Dialect::Athena {
                assert!(
                    crate::validate::oracle::inspect::inspect_oracle(sql, *kind, *dialect).is_err()
                );
            }
        }
    });
}

/// The longest chains that fit the size limit: a sum, and an `IS NULL` chain.
pub(in crate::validate) fn longest_chains() -> (String, String) {
    let sums = format!("SELECT 1{}", "+1".repeat((MAX_QUERY_BYTES - 10) / 2));
    let nulls = format!("SELECT a{}", " IS NULL".repeat((MAX_QUERY_BYTES - 10) / 8));
    (sums, nulls)
}

#[test]
fn the_longest_chains_that_fit_the_size_limit_are_checked_without_overflow() {
    let (sums, nulls) = longest_chains();
    on_2_mib_thread(|| {
        ok(&sums, StatementKind::Select, Dialect::Athena);
        // Not Trino grammar (one predicate per value), refused at its top; the tree, as
        // deep as the chain is long, is still dropped without overflow.
        let e = err(&nulls, StatementKind::Select, Dialect::Athena);
        assert!(e.message().starts_with("IS [NOT] NULL stands where"), "{e}");
    });
}

#[test]
fn long_postfix_chains_are_checked_and_dropped_without_overflow() {
    // `IS NULL`, `::` and `COLLATE` chains are built in a loop, like `OR` chains: the
    // tree is as deep as the chain is long.
    let is_null = format!("SELECT a{}", " IS NULL".repeat(30_000));
    let casts = format!("SELECT a{}", "::int".repeat(40_000));
    on_2_mib_thread(|| {
        // Trino's and Spark's grammars have one predicate per value (`a IS NULL IS NULL`
        // does not parse): refused, and the refusal does not recurse through the chain.
        for d in [Dialect::Athena, Dialect::Spark] {
            let e = err(&is_null, StatementKind::Select, d);
            assert!(e.message().starts_with("IS [NOT] NULL stands where"), "{e}");
            assert_eq!(e.location().map(|l| (l.line, l.column)), Some((1, 8)));
        }
        let e = err(&casts, StatementKind::Select, Dialect::Athena);
        assert_eq!(e.kind(), ErrorKind::DisallowedSyntax, "{e}");
        assert!(e.message().contains("`::` cast"), "{e}");
    });
}

#[test]
fn nesting_the_prepass_keeps_on_the_callers_stack_parses_within_the_budget() {
    // Text at the pre-pass's nesting bound is not flagged and parses on the caller's
    // stack within its budget (no second parse); one level more is flagged.
    let d = prepass::DEEP_NESTING;
    let texts = [
        format!("SELECT {}1{}", "(".repeat(d), ")".repeat(d)),
        format!(
            "SELECT {}1{}",
            "CASE WHEN a THEN ".repeat(d),
            " END".repeat(d)
        ),
        format!("SELECT {}1{}", "ARRAY[".repeat(d), "]".repeat(d)),
        format!(
            "SELECT * FROM db.t WHERE {}NOT a = 1{}",
            "(".repeat(d),
            ")".repeat(d)
        ),
        // Nesting 4, and one more `(`.
        format!("SELECT ({})", nested_trino_row(2)),
    ];
    on_2_mib_thread(|| {
        for sql in &texts {
            let grammar = Dialect::Athena.grammar(StatementKind::Select);
            let target = Dialect::Athena.rules().oracle();
            let (tokens, deep) = lex(sql, StatementKind::Select, grammar, Dialect::Athena)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(!deep, "{sql}");
            let parsed = parse_tokens(
                sql,
                StatementKind::Select,
                grammar,
                target,
                tokens,
                Stack::Callers,
            );
            assert!(parsed.is_ok(), "{sql}");
            ok(sql, StatementKind::Select, Dialect::Athena);
            let deeper = format!("SELECT ({})", &sql["SELECT ".len()..]);
            let (_, deep) = lex(&deeper, StatementKind::Select, grammar, Dialect::Athena)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(deep, "{deeper}");
        }
    });
}

#[test]
fn a_parse_over_its_stack_budget_is_void_and_redone_on_the_big_stack() {
    // 30 levels of `NOT (`: not flagged by the pre-pass's bracket count, yet beyond
    // the caller's-stack budget in an unoptimised build. The parse on the big stack
    // reads `NOT` as the operator; a budget failure inside one of sqlparser's
    // speculative branches must not leave a different tree (`NOT(…)` as a function).
    let sql = format!(
        "SELECT * FROM db.t WHERE {}a = 1{}",
        "NOT (".repeat(3),
        ")".repeat(3)
    );
    let stmt = parse_statement(&sql, StatementKind::Select, Dialect::Athena)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!format!("{stmt:?}").contains("Function"), "{stmt:?}");
    let grammar = Dialect::Athena.grammar(StatementKind::Select);
    let target = Dialect::Athena.rules().oracle();
    let deep_not = format!("SELECT {}a", "NOT ".repeat(120));
    on_2_mib_thread(|| {
        let (tokens, deep) = lex(&deep_not, StatementKind::Select, grammar, Dialect::Athena)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!deep);
        let parsed = parse_tokens(
            &deep_not,
            StatementKind::Select,
            grammar,
            target,
            tokens,
            Stack::Callers,
        );
        // Optimised builds use far less stack per level and may stay within the budget.
        if cfg!(debug_assertions) {
            assert!(matches!(parsed, Err(Parsed::OverBudget)));
        }
        ok(&deep_not, StatementKind::Select, Dialect::Athena);
        let stmt = parse_statement(&deep_not, StatementKind::Select, Dialect::Athena)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format!("{stmt:?}").matches("op: Not").count(), 120);
    });
}
