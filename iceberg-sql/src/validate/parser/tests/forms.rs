//! Expression forms read since the first milestone (window frames, …): each against
//! sqlparser's tree in the grammars that have it, corrupted, and refused where the
//! grammar lacks it.

use super::*;

/// Where ours refuses on purpose, in these forms, what sqlparser reads into our nodes:
/// a phrase of our error, and why (see [`DELIBERATE`]).
pub(super) const DELIBERATE_FORMS: &[(&str, &str)] = &[
    (
        "a frame in GROUPS is Trino's",
        "Spark's `windowFrame` counts `RANGE` or `ROWS` (SqlBaseParser.g4); Trino's \
         `frameExtent` has `GROUPS` too; sqlparser reads all three in every dialect",
    ),
    (
        "`IS [NOT] TRUE|FALSE|UNKNOWN` is Spark's",
        "Trino's `predicate` has `IS [NOT] NULL` and `IS [NOT] DISTINCT FROM` only \
         (SqlBase.g4); Spark's has `IS [NOT] TRUE|FALSE|UNKNOWN` too; sqlparser reads it \
         in every dialect",
    ),
    (
        "quantified comparisons (`x = ANY (SELECT …)`) are not in this grammar",
        "Spark's `comparison` has no quantifier (SqlBaseParser.g4); Trino's \
         `quantifiedComparison` takes `ALL|SOME|ANY (query)`; sqlparser reads it in every \
         dialect",
    ),
    (
        "`ORDER BY` inside a call's parentheses is not in this grammar",
        "Spark's `functionCall` orders only in `WITHIN GROUP (…)` after the call \
         (SqlBaseParser.g4); Trino's `functionCall` has `ORDER BY` before its `)`, but its \
         `listagg` does not; sqlparser reads it in every call",
    ),
    (
        "`WITHIN GROUP` follows only `listagg(…)` in Trino's grammar",
        "Trino's `functionCall` has no `WITHIN GROUP`; its `listagg` alternative has \
         (SqlBase.g4); sqlparser reads it after any call",
    ),
    (
        "Trino's `listagg(x, ',')` is followed by `WITHIN GROUP",
        "Trino's `listagg` alternative requires `WITHIN GROUP (ORDER BY …)` (SqlBase.g4); \
         sqlparser reads a plain call",
    ),
    (
        "`overlay(x PLACING …)` is Spark's",
        "Trino's grammar has no `overlay` form (SqlBase.g4 `primaryExpression`); Spark's \
         has; sqlparser reads it in every dialect",
    ),
    (
        "Trino's `substring(x FROM start FOR length)` takes `FOR`, not a comma",
        "Trino's `substring` takes `FOR` (SqlBase.g4); Spark's takes `FOR | COMMA`; \
         sqlparser reads either",
    ),
];

/// `text` reads in both grammars, into sqlparser's tree, and its corruptions are judged
/// alike.
fn reads_everywhere(text: &str) {
    for (d, r) in GRAMMARS {
        reads_in(text, d, r);
    }
}

fn reads_in(text: &str, dialect: Dialect, rules: &'static Rules) {
    assert_reads(text, dialect, rules);
    for variant in corruptions(text, rules) {
        assert_agree(&variant, dialect, rules);
    }
}

#[test]
fn window_frames_agree_with_sqlparser() {
    for text in [
        "sum(x) OVER (ORDER BY y ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)",
        "sum(x) OVER (PARTITION BY a ORDER BY b DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
        "sum(x) OVER (ORDER BY y ROWS UNBOUNDED PRECEDING)",
        "sum(x) OVER (ORDER BY y ROWS CURRENT ROW)",
        "sum(x) OVER (ORDER BY y RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)",
        "sum(x) OVER (ORDER BY y ROWS BETWEEN 2 + 1 PRECEDING AND ? FOLLOWING)",
        "sum(x) OVER (ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING)",
        "avg(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND CURRENT ROW)",
    ] {
        reads_everywhere(text);
    }
    let groups = "sum(x) OVER (ORDER BY y GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW)";
    reads_in(groups, Dialect::Athena, &Rules::TRINO);
    let e = parse_expr(groups, &Rules::SPARK).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax, "{e}");
    assert!(e.to_string().contains(DELIBERATE_FORMS[0].0), "{e}");
    assert!(matches!(theirs(groups, Dialect::Spark), Ok(Ok(_))));
    // The tree: each bound where it was written.
    let tree = parse_expr(
        "sum(x) OVER (ORDER BY y ROWS BETWEEN UNBOUNDED PRECEDING AND 2 FOLLOWING)",
        &Rules::TRINO,
    )
    .unwrap();
    let Expr::Function(Function {
        over: Some(window), ..
    }) = &tree
    else {
        panic!("no window")
    };
    let Window {
        frame: Some(frame), ..
    } = window.as_ref()
    else {
        panic!("no frame")
    };
    assert_eq!(frame.units, FrameUnits::Rows);
    assert_eq!(frame.start, FrameBound::Preceding(None));
    assert!(matches!(frame.end, Some(FrameBound::Following(Some(_)))));
    // Both refuse a bound without its direction, a frame without a bound, `BETWEEN`
    // without `AND`.
    for text in [
        "sum(x) OVER (ORDER BY y ROWS 1)",
        "sum(x) OVER (ORDER BY y ROWS)",
        "sum(x) OVER (ORDER BY y ROWS BETWEEN 1 PRECEDING)",
        "sum(x) OVER (ORDER BY y ROWS BETWEEN UNBOUNDED AND CURRENT ROW)",
        "sum(x) OVER (ROWS CURRENT)",
    ] {
        for (d, r) in GRAMMARS {
            assert!(parse_expr(text, r).is_err(), "{text}");
            assert_agree(text, d, r);
        }
    }
}

#[test]
fn spark_predicates_agree_with_sqlparser() {
    for text in [
        "a IS TRUE",
        "a IS NOT FALSE AND b IS UNKNOWN",
        "a IS NOT UNKNOWN OR (b + 1) IS TRUE",
        "f(a) IS FALSE",
        "a ILIKE 'x%'",
        "a NOT ILIKE b || '%' ESCAPE '!'",
        "a RLIKE '^x.*'",
        "a NOT REGEXP 'x' AND b RLIKE c",
        "a = 1 IS TRUE",
        "a ILIKE 'x' OR b",
    ] {
        reads_in(text, Dialect::Spark, &Rules::SPARK);
    }
    let tree = parse_expr("a IS NOT UNKNOWN", &Rules::SPARK).unwrap();
    assert!(
        matches!(
            tree,
            Expr::IsBool {
                value: None,
                negated: true,
                ..
            }
        ),
        "{tree:?}"
    );
    let tree = parse_expr("a REGEXP 'x'", &Rules::SPARK).unwrap();
    assert!(matches!(tree, Expr::RLike { regexp: true, .. }), "{tree:?}");
    // Trino's grammar has none of them: sqlparser reads `IS TRUE`, ours refuses it on
    // purpose; `ILIKE`, `RLIKE`, `REGEXP` are no operators there (the validator refuses
    // them after sqlparser's parse).
    for text in ["a IS TRUE", "a IS NOT UNKNOWN"] {
        let e = parse_expr(text, &Rules::TRINO).unwrap_err();
        assert!(e.to_string().contains(DELIBERATE_FORMS[1].0), "{e}");
        assert_agree(text, Dialect::Athena, &Rules::TRINO);
    }
    for text in ["a ILIKE 'x'", "a RLIKE 'x'", "a NOT REGEXP 'x'"] {
        assert!(parse_expr(text, &Rules::TRINO).is_err(), "{text}");
        assert_agree(text, Dialect::Athena, &Rules::TRINO);
    }
    // A predicate is no operand of another, nor of arithmetic without parentheses;
    // `LIKE ANY (…)` is refused as the validator refuses it.
    for text in [
        "a IS TRUE IS NULL",
        "a IS NULL IS TRUE",
        "a ILIKE 'x' = b",
        "a RLIKE b RLIKE c",
        "a IS TRUE + 1",
        "a IS",
        "a ILIKE",
        "a NOT RLIKE",
        "a ILIKE ANY ('x', 'y')",
        "a LIKE ANY ('x', 'y')",
    ] {
        assert_agree(text, Dialect::Spark, &Rules::SPARK);
        let sql = format!("SELECT 0 WHERE {text}");
        let ours = crate::validate::check::validate(&sql, StatementKind::Select, Dialect::Spark, 0);
        assert!(ours.is_err(), "{text}");
    }
}

#[test]
fn quantified_comparisons_agree_with_sqlparser() {
    for text in [
        "a = ANY (SELECT b FROM t)",
        "a <> ALL (SELECT b FROM t WHERE c = 1) AND d",
        "a >= SOME (WITH x AS (SELECT 1 AS b) SELECT b FROM x)",
        "(a + 1) < ALL (SELECT b FROM t) OR c = ANY (SELECT d FROM u)",
    ] {
        reads_in(text, Dialect::Athena, &Rules::TRINO);
        let e = parse_expr(text, &Rules::SPARK).unwrap_err();
        assert!(e.to_string().contains(DELIBERATE_FORMS[2].0), "{e}");
        assert_agree(text, Dialect::Spark, &Rules::SPARK);
    }
    let tree = parse_expr("a <= SOME (SELECT b FROM t)", &Rules::TRINO).unwrap();
    assert!(
        matches!(
            tree,
            Expr::Quantified {
                op: BinaryOp::LtEq,
                quantifier: Quantifier::Some,
                ..
            }
        ),
        "{tree:?}"
    );
    // The subquery is the whole operand; a quantified comparison chains with no other
    // comparison or predicate in Trino's grammar; a list is no subquery.
    for text in [
        "a = ANY (SELECT b FROM t) + 1",
        "a = ANY (SELECT b FROM t) || 'x'",
        "a = ANY (SELECT b FROM t) = c",
        "a = ANY (SELECT b FROM t) IS NULL",
        "a = ANY (1, 2)",
        "a = ANY (SELECT b FROM t",
        "a = ALL (SELECT)",
    ] {
        assert!(parse_expr(text, &Rules::TRINO).is_err(), "{text}");
        assert_agree(text, Dialect::Athena, &Rules::TRINO);
    }
}

#[test]
fn row_values_agree_with_sqlparser() {
    for text in [
        "(a, b) IN ((1, 2), (3, 4))",
        "(a, b) = (1, 'x')",
        "(1, (2, 3)) IS NULL",
        "f((a, b + 1), c)",
        "ROW(1, 'a') = (1, 'a')",
        "(a, b) IN (SELECT c, d FROM t)",
    ] {
        reads_everywhere(text);
    }
    let tree = parse_expr("(a, b, c)", &Rules::TRINO).unwrap();
    assert!(
        matches!(&tree, Expr::Row(fields) if fields.len() == 3),
        "{tree:?}"
    );
    // One field is a parenthesised value; an empty or open list is refused by both.
    assert!(matches!(
        parse_expr("(a)", &Rules::TRINO).unwrap(),
        Expr::Nested(_)
    ));
    for text in ["(a, )", "(, a)", "(a, b", "()", "(a, b) ->"] {
        for (d, r) in GRAMMARS {
            assert!(parse_expr(text, r).is_err(), "{text}");
            assert_agree(text, d, r);
        }
    }
}

#[test]
fn ordered_calls_agree_with_sqlparser() {
    for text in [
        "listagg(x, ',') WITHIN GROUP (ORDER BY x)",
        "listagg(DISTINCT x, ', ') WITHIN GROUP (ORDER BY x DESC NULLS FIRST, y) FILTER (WHERE x > 1)",
    ] {
        reads_everywhere(text);
    }
    for text in [
        "array_agg(x ORDER BY y)",
        "array_agg(DISTINCT x ORDER BY y DESC, z) FILTER (WHERE x IS NOT NULL)",
        "sum(x ORDER BY y) OVER (PARTITION BY z)",
    ] {
        reads_in(text, Dialect::Athena, &Rules::TRINO);
        let e = parse_expr(text, &Rules::SPARK).unwrap_err();
        assert!(e.to_string().contains(DELIBERATE_FORMS[3].0), "{e}");
        assert_agree(text, Dialect::Spark, &Rules::SPARK);
    }
    let spark = "percentile_cont(0.5) WITHIN GROUP (ORDER BY x)";
    reads_in(spark, Dialect::Spark, &Rules::SPARK);
    let e = parse_expr(spark, &Rules::TRINO).unwrap_err();
    assert!(e.to_string().contains(DELIBERATE_FORMS[4].0), "{e}");
    assert_agree(spark, Dialect::Athena, &Rules::TRINO);
    for text in [
        "listagg(x, ',')",
        "listagg(x ORDER BY x) WITHIN GROUP (ORDER BY x)",
    ] {
        assert!(parse_expr(text, &Rules::TRINO).is_err(), "{text}");
        assert_agree(text, Dialect::Athena, &Rules::TRINO);
    }
    let tree = parse_expr("array_agg(x ORDER BY y DESC)", &Rules::TRINO).unwrap();
    let Expr::Function(f) = &tree else {
        panic!("{tree:?}")
    };
    let o = f.ordering.as_deref().expect("ordered");
    assert_eq!(o.order_by.len(), 1);
    assert_eq!(o.order_by[0].asc, Some(false));
    assert!(o.within_group.is_empty());
    for text in [
        "listagg(x, ',') WITHIN GROUP (x)",
        "listagg(x, ',') WITHIN GROUP ORDER BY x",
        "listagg(x, ',') WITHIN (ORDER BY x)",
        "array_agg(x ORDER BY)",
    ] {
        for (d, r) in GRAMMARS {
            assert!(parse_expr(text, r).is_err(), "{text}");
            assert_agree(text, d, r);
        }
    }
}

#[test]
fn spark_struct_fields_are_named() {
    // sqlparser's `STRUCT(…)` is a node of its own, which the converter leaves to our
    // call (`Miss::Call`): no tree to compare beneath another node, so no corruptions.
    for text in [
        "struct(1 AS a, 'b' AS b)",
        "STRUCT(x + 1 AS `y z`, c)",
        "struct(a AS b, 2 AS c)",
    ] {
        assert_reads(text, Dialect::Spark, &Rules::SPARK);
    }
    let tree = parse_expr("struct(1 AS a, c)", &Rules::SPARK).unwrap();
    let Expr::Function(Function {
        args: FunctionArgs::List { args, .. },
        ..
    }) = &tree
    else {
        panic!("{tree:?}")
    };
    assert!(
        matches!(&args[0], Expr::Named { name, .. } if name.value == "a"),
        "{tree:?}"
    );
    assert!(matches!(&args[1], Expr::Name(_)), "{tree:?}");
    // Only `struct(…)` names its fields; Trino has no `struct(…)`.
    for (text, d, r) in [
        ("f(1 AS a)", Dialect::Spark, &Rules::SPARK),
        ("struct(1 AS)", Dialect::Spark, &Rules::SPARK),
        ("struct(1 AS a, )", Dialect::Spark, &Rules::SPARK),
    ] {
        assert!(parse_expr(text, r).is_err(), "{text}");
        assert_agree(text, d, r);
    }
    // sqlparser reads it in Trino text too; the validator refuses it after the parse.
    assert!(parse_expr("struct(1 AS a)", &Rules::TRINO).is_err());
    assert!(validator_refuses("struct(1 AS a)", Dialect::Athena));
}

#[test]
fn string_forms_agree_with_sqlparser() {
    for text in [
        "position('a' IN x)",
        "position(a || 'b' IN upper(x)) > 0",
        "substring(x FROM 1 FOR 2)",
        "substring(x || y FROM a + 1)",
        "trim(BOTH 'x' FROM y)",
        "trim(LEADING ' ' FROM y) = trim(TRAILING '0' FROM z)",
        "trim('x' FROM y)",
        "position(a, b)",
    ] {
        reads_everywhere(text);
    }
    // Plain calls that sqlparser reads as nodes of their own, which the converter
    // leaves to our call (`Miss::Call`): no tree beneath another node, no corruptions.
    for text in ["substring(x, 1, 2)", "trim(y)"] {
        for (d, r) in GRAMMARS {
            assert_reads(text, d, r);
        }
    }
    let spark = [
        "overlay(x PLACING 'a' FROM 1)",
        "overlay(x PLACING y FROM 2 FOR 3)",
        "substring(x FROM 1, 2)",
    ];
    for text in spark {
        reads_in(text, Dialect::Spark, &Rules::SPARK);
    }
    for (text, marker) in [
        ("overlay(x PLACING 'a' FROM 1)", 6),
        ("substring(x FROM 1, 2)", 7),
    ] {
        let e = parse_expr(text, &Rules::TRINO).unwrap_err();
        assert!(e.to_string().contains(DELIBERATE_FORMS[marker].0), "{e}");
        assert_agree(text, Dialect::Athena, &Rules::TRINO);
    }
    let tree = parse_expr("trim(LEADING 'x' FROM y)", &Rules::TRINO).unwrap();
    assert!(
        matches!(
            &tree,
            Expr::Trim {
                side: Some(TrimSide::Leading),
                ..
            }
        ),
        "{tree:?}"
    );
    let tree = parse_expr("position(a = b, c)", &Rules::SPARK).unwrap();
    assert!(matches!(&tree, Expr::Function(_)), "{tree:?}");
    // Refused by both: no value before or after FROM, a side without FROM, a unit.
    for text in [
        "trim(FROM y)",
        "trim(BOTH FROM y)",
        "trim(BOTH y)",
        "position('a' IN)",
        "substring(x FROM)",
        "substring(x FROM 1 FOR)",
        "ceil(x TO DAY)",
        "floor(x TO MONTH)",
    ] {
        for (d, r) in GRAMMARS {
            assert!(parse_expr(text, r).is_err(), "{text}");
            assert_agree(text, d, r);
        }
    }
}
