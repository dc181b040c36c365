//! Expressions: the hand list, corruptions, everything the renderers write, limits
//! and errors.

use super::*;

/// Expressions every grammar reads: each node of our AST.
pub(super) const BOTH_GRAMMARS: &[&str] = &[
    "status",
    "t.status",
    "db.t.status",
    "12",
    "1.5",
    "1E-40",
    ".5",
    "'it''s'",
    "N'x'",
    "X'0aff'",
    "true",
    "FALSE",
    "NULL",
    "?",
    "(a)",
    "((a + 1))",
    "NOT a",
    "NOT NOT a",
    "-a",
    "-(a)",
    "- -1",
    "+a",
    "a + b * c - d / e % f",
    "(a + b) * c",
    "a - b - c",
    "a OR b AND c",
    "a AND b OR c AND d",
    "NOT a AND b",
    "NOT a = b",
    "a = 1 AND b <> 2 OR c < 3 AND d <= 4 AND e > 5 AND f >= 6",
    "a != b",
    "a IS NULL",
    "a IS NOT NULL",
    "a + 1 IS NULL",
    "a IS DISTINCT FROM b",
    "a IS NOT DISTINCT FROM b + 1",
    "a IN (1, 2, 3)",
    "a NOT IN ('x')",
    "a BETWEEN 1 AND 2",
    "a NOT BETWEEN b - 1 AND b + 1",
    "a BETWEEN 1 AND 2 AND b",
    "a LIKE 'x%'",
    "a NOT LIKE 'x%' ESCAPE '!'",
    "CASE WHEN a THEN 1 ELSE 2 END",
    "CASE WHEN a = 1 THEN 'x' WHEN a = 2 THEN 'y' END",
    "CASE a WHEN 1 THEN 'x' ELSE 'z' END",
    "CAST(a AS bigint)",
    "CAST(a AS decimal(10,2))",
    "CAST(a AS varchar(10))",
    "CAST(a AS double)",
    "TRY_CAST(a AS integer)",
    "count(*)",
    "count(DISTINCT a)",
    "sum(a) FILTER (WHERE b > 1)",
    "coalesce(a, b, 0)",
    "f()",
    "db.f(a)",
    "current_date",
    "current_timestamp",
    "date_trunc('day', ts)",
    "DATE '2026-10-01'",
    "TIMESTAMP '2026-10-01 00:00:00.000000'",
    "ts AT TIME ZONE 'UTC'",
    "a + ts AT TIME ZONE 'UTC'",
    "INTERVAL '3' DAY",
    "ts - INTERVAL '1' HOUR",
    "EXTRACT(YEAR FROM ts)",
    "transform(xs, x -> x + 1)",
    "transform_values(m, (k, v) -> v * 2)",
    "a[1]",
    "a[1][2]",
    "f(x)[1]",
    "ceil(a)",
    "floor(a / 2)",
    "trim(a)",
    "a || b",
    "a || b || c",
];

/// Expressions only Trino's grammar reads.
pub(super) const TRINO_ONLY: &[&str] = &[
    "\"order\"",
    "\"quoted\"(a)",
    "\"a\"\"b\"",
    "U&'\\0041b'",
    "ARRAY[1, 2]",
    "ARRAY[]",
    "ARRAY[ARRAY[1], ARRAY[2]][1]",
    "ROW(1, 'a')",
    "MAP(ARRAY['a'], ARRAY[1])",
    "CAST(ROW(1, 'a') AS row(a integer, \"b c\" varchar))",
    "CAST(x AS array(map(varchar, row(a bigint))))",
    "CAST(x AS timestamp(6))",
    "CAST(x AS timestamp(6) with time zone)",
    "CAST(x AS JSON)",
    "DECIMAL '1.50'",
    "REAL '1.5'",
    "BIGINT '-9223372036854775808'",
    "TIMESTAMP '2026-10-01 00:00:00.000000 UTC'",
    "CAST(nan() AS real)",
    "a[1].b",
    "(x).b",
    "CAST(ROW(1) AS row(b integer)).b",
    "a.b.c.d",
    "a = b OR c",
    "interval",
];

/// Every node of our AST, in the grammars that have it.
#[test]
fn hand_list_agrees_with_sqlparser() {
    for text in BOTH_GRAMMARS {
        for (d, r) in GRAMMARS {
            assert_reads(text, d, r);
        }
    }
    for text in TRINO_ONLY {
        assert_reads(text, Dialect::Athena, &Rules::TRINO);
    }
    let spark = [
        "`order`",
        "\"double quoted string\"",
        "'it\\'s'",
        "5L",
        "1.5D",
        "2BD",
        "array(1, 2)",
        "map('a', 1)",
        "named_struct('a', 1)",
        "struct(1, 2)",
        "CAST(x AS array<map<string, struct<a: bigint>>>)",
        "CAST(x AS struct<`b c`: int>)",
        "CAST(x AS struct<a int, b: string>)",
        "CAST(x AS timestamp_ntz)",
        "TIMESTAMP_NTZ '2026-10-01 00:00:00'",
        "TIMESTAMP '2026-10-01 00:00:00.000000Z'",
        "CAST('1.5' AS FLOAT)",
        "current_timestamp()",
        "date_from_unix_date(n)",
        "a = b = c",
        "a = b IS NULL",
        "a || b + c",
        "a == b",
        "div(a, b)",
        "collect_list(x)",
        "CAST(a)",
        "case",
        "NOT + a",
    ];
    for text in spark {
        assert_reads(text, Dialect::Spark, &Rules::SPARK);
    }
}

/// Text both parsers refuse.
#[test]
fn both_refuse() {
    for text in [
        "",
        "a +",
        "a AND",
        "(a",
        "a)",
        "CASE END",
        "CASE WHEN a THEN 1",
        "CAST(a AS)",
        "a IN ()",
        "a BETWEEN 1",
        "a IS",
        "'open",
        "a -- comment",
        "a /* c */ + 1",
        "1abc",
        "1e",
        "a = = b",
        "a AND AND b",
        "f(a,)",
        "a[1",
    ] {
        assert_agree_everywhere(text);
        for (_, rules) in GRAMMARS {
            assert!(parse_expr(text, rules).is_err(), "{text:?} parsed");
        }
    }
}

/// Texts sqlparser once misread and the validator now refuses as Trino's and Spark's
/// grammars do (`x NOT NULL`, a `FILTER` without `(WHERE …)`, `s.?`): both parsers refuse
/// them.
#[test]
fn both_refuse_what_sqlparser_misread() {
    let cases: [(&str, Dialect, &'static Rules); 5] = [
        ("a NOT NULL", Dialect::Spark, &Rules::SPARK),
        ("a NOT NULL", Dialect::Athena, &Rules::TRINO),
        ("count(x) FILTER", Dialect::Athena, &Rules::TRINO),
        ("count(x) FILTER (", Dialect::Spark, &Rules::SPARK),
        ("s.? + 1", Dialect::Athena, &Rules::TRINO),
    ];
    for (text, dialect, rules) in cases {
        let t = theirs(text, dialect);
        assert!(t.is_err(), "the validator should refuse {text:?}: {t:?}");
        let e = parse_expr(text, rules).expect_err(text);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{text:?}: {e}");
    }
}

/// What ours refuses on purpose although sqlparser reads it into our nodes (see
/// [`DELIBERATE`]): sqlparser's tree converts, ours is an error.
#[test]
fn deliberate_differences() {
    let cases: [(&str, Dialect, &'static Rules, usize); 12] = [
        ("a = b = c", Dialect::Athena, &Rules::TRINO, 0),
        ("a IS NULL IS NULL", Dialect::Athena, &Rules::TRINO, 0),
        ("a IS NULL IS NULL", Dialect::Spark, &Rules::SPARK, 0),
        ("a = b IS NULL", Dialect::Athena, &Rules::TRINO, 0),
        ("a LIKE b LIKE c", Dialect::Spark, &Rules::SPARK, 0),
        ("a = NOT b", Dialect::Athena, &Rules::TRINO, 1),
        ("a = NOT b", Dialect::Spark, &Rules::SPARK, 1),
        (
            "CAST(x AS array<integer>)",
            Dialect::Athena,
            &Rules::TRINO,
            2,
        ),
        (
            "CAST(x AS decimal(10, +2))",
            Dialect::Spark,
            &Rules::SPARK,
            3,
        ),
        ("INTERVAL a DAY", Dialect::Spark, &Rules::SPARK, 4),
        ("ARRAY[1]", Dialect::Spark, &Rules::SPARK, 5),
        ("a = AND (b)", Dialect::Athena, &Rules::TRINO, 6),
    ];
    let mut seen = vec![false; DELIBERATE.len()];
    for (text, dialect, rules, why) in cases {
        let t = theirs(text, dialect);
        assert!(
            matches!(t, Ok(Ok(_))),
            "sqlparser should read {text:?}: {t:?}"
        );
        let e = parse_expr(text, rules).expect_err(text);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{text:?}: {e}");
        assert!(e.to_string().contains(DELIBERATE[why].0), "{text:?}: {e}");
        seen[why] = true;
    }
    assert!(
        seen.iter().all(|&s| s),
        "every listed difference has a case"
    );
    // `||` against `+` in Trino and `*` in Spark: the trees differ, ours follows each
    // grammar (Trino's `concatenation` is below the additive alternative in SqlBase.g4;
    // Spark's `CONCAT_PIPE` is one of the additive operators in SqlBaseParser.g4).
    let ours = parse_expr("a || b + c", &Rules::TRINO).unwrap();
    let Expr::Binary {
        op: BinaryOp::Concat,
        right,
        ..
    } = &ours
    else {
        panic!("{ours:?}")
    };
    assert!(
        matches!(
            **right,
            Expr::Binary {
                op: BinaryOp::Plus,
                ..
            }
        ),
        "{ours:?}"
    );
    // In Spark `||` binds as `+` does, less than `*`; sqlparser gives it `*`'s power.
    let ours = parse_expr("a || b * c", &Rules::SPARK).unwrap();
    let Expr::Binary {
        op: BinaryOp::Concat,
        right,
        ..
    } = &ours
    else {
        panic!("{ours:?}")
    };
    assert!(
        matches!(
            **right,
            Expr::Binary {
                op: BinaryOp::Multiply,
                ..
            }
        ),
        "{ours:?}"
    );
    assert!(compare("a || b * c", Dialect::Spark, &Rules::SPARK).is_err());
}

/// Spark's bit operators and `<=>` (SqlBaseParser.g4 `valueExpression`, tightest first:
/// unary `- + ~`; `* / % DIV`; `+ - ||`; shifts; `&`; `^`; `|`; the comparisons with
/// `<=>`): each tree exactly, and sqlparser's, but where its power for `~` differs.
#[test]
fn spark_bit_operators_bind_as_its_grammar() {
    let cases = [
        ("1 | 2 & 3", "(1 | (2 & 3))"),
        ("1 & 2 | 3", "((1 & 2) | 3)"),
        ("1 | 2 ^ 3 & 4", "(1 | (2 ^ (3 & 4)))"),
        ("1 ^ 2 | 3 ^ 4", "((1 ^ 2) | (3 ^ 4))"),
        ("1 & 2 & 3", "((1 & 2) & 3)"),
        ("1 + 2 & 3", "((1 + 2) & 3)"),
        ("1 & 2 + 3", "(1 & (2 + 3))"),
        ("1 * 2 ^ 3", "((1 * 2) ^ 3)"),
        ("a || b & c", "((a || b) & c)"),
        ("a & b = c", "((a & b) = c)"),
        ("a = b | c", "(a = (b | c))"),
        ("a <=> b AND c", "((a <=> b) AND c)"),
        ("a OR b <=> c", "(a OR (b <=> c))"),
        ("a <=> b = c", "((a <=> b) = c)"),
        ("a == b <=> c", "((a = b) <=> c)"),
        ("a <=> b | c", "(a <=> (b | c))"),
        ("NOT a <=> b", "(NOT (a <=> b))"),
        ("a & b IS NULL", "((a & b) IS NULL)"),
        ("~a", "(~ a)"),
        ("~a & b", "((~ a) & b)"),
        ("~a + b", "((~ a) + b)"),
        ("- ~a", "(- (~ a))"),
        ("~ -1", "(~ (- 1))"),
        ("~ ~a", "(~ (~ a))"),
        // A tree difference: sqlparser reads `~`'s operand at the power of `+`, so
        // `~(a * b)` and `~(a || b)`; Spark's `arithmeticUnary` binds tighter than every
        // binary operator, as `-` does in both.
        ("~a * b", "((~ a) * b)"),
        ("~a || b", "((~ a) || b)"),
        ("~a % 2 = 1", "(((~ a) % 2) = 1)"),
    ];
    for (text, tree) in cases {
        let ours = parse_expr(text, &Rules::SPARK).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(grouped(&ours), tree, "{text}");
        let unary_over_tighter =
            text.starts_with('~') && ["*", "||", "%"].iter().any(|op| text.contains(op));
        if unary_over_tighter {
            let theirs = compare(text, Dialect::Spark, &Rules::SPARK);
            assert!(
                theirs
                    .as_ref()
                    .is_err_and(|e| e.starts_with("trees differ")),
                "sqlparser now reads {text:?} as Spark does: {theirs:?}"
            );
        } else {
            assert_reads(text, Dialect::Spark, &Rules::SPARK);
        }
    }
    // Trino has no such operators (its functions `bitwise_and(x, y)`, …, and `IS NOT
    // DISTINCT FROM`): refused at parse time with the form to write; the validator's
    // walk refuses them after sqlparser's parse.
    for text in [
        "a & b",
        "a | b",
        "a ^ b",
        "~a",
        "a <=> b",
        "-a & b",
        "f(a | b)",
        "a = ~b",
        "a <=> ANY (SELECT 1)",
    ] {
        let e = parse_expr(text, &Rules::TRINO).expect_err(text);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{text}: {e}");
        assert!(e.to_string().contains("is Spark's"), "{text}: {e}");
        assert_agree(text, Dialect::Athena, &Rules::TRINO);
        parse_expr(text, &Rules::HIVE_DDL).expect_err(text);
    }
    let e = parse_expr("a <=> b", &Rules::TRINO).unwrap_err();
    assert!(e.to_string().contains("IS NOT DISTINCT FROM"), "{e}");
    let e = parse_expr("a | b", &Rules::TRINO).unwrap_err();
    assert!(e.to_string().contains("bitwise_and(x, y)"), "{e}");
    // `||` is one token only unspaced (Spark's `CONCAT_PIPE`): `| |` is two `|`.
    for text in [
        "a | | b",
        "a & & b",
        "a ^ ^ b",
        "a <=> <=> b",
        "~",
        "a ~ b",
        "a &",
    ] {
        parse_expr(text, &Rules::SPARK).expect_err(text);
        assert_agree(text, Dialect::Spark, &Rules::SPARK);
    }
}

/// `e`'s operators, each operation in parentheses: `(1 | (2 & 3))`.
fn grouped(e: &Expr) -> String {
    match e {
        Expr::Name(parts) => parts
            .iter()
            .map(|p| p.value.as_str())
            .collect::<Vec<_>>()
            .join("."),
        Expr::Literal(Literal {
            value: LiteralValue::Number { text, .. },
            ..
        }) => text.clone(),
        Expr::Unary { op, expr } => {
            let op = match op {
                UnaryOp::Not => "NOT",
                UnaryOp::Minus => "-",
                UnaryOp::Plus => "+",
                UnaryOp::BitNot => "~",
            };
            format!("({op} {})", grouped(expr))
        }
        Expr::Binary { left, op, right } => {
            let op = match op {
                BinaryOp::Or => "OR",
                BinaryOp::And => "AND",
                BinaryOp::Eq => "=",
                BinaryOp::NotEq => "<>",
                BinaryOp::Lt => "<",
                BinaryOp::LtEq => "<=",
                BinaryOp::Gt => ">",
                BinaryOp::GtEq => ">=",
                BinaryOp::Plus => "+",
                BinaryOp::Minus => "-",
                BinaryOp::Multiply => "*",
                BinaryOp::Divide => "/",
                BinaryOp::Modulo => "%",
                BinaryOp::Concat => "||",
                BinaryOp::BitAnd => "&",
                BinaryOp::BitOr => "|",
                BinaryOp::BitXor => "^",
                BinaryOp::NullSafeEq => "<=>",
            };
            format!("({} {op} {})", grouped(left), grouped(right))
        }
        Expr::IsNull { expr, negated } => {
            let not = if *negated { "NOT " } else { "" };
            format!("({} IS {not}NULL)", grouped(expr))
        }
        other => panic!("no shape for {other:?}"),
    }
}

/// Hand-written inputs and everything the renderers write, corrupted: both parsers
/// agree on each variant.
#[test]
fn corrupted_inputs_agree() {
    let mut inputs: Vec<(String, Dialect, &'static Rules)> = Vec::new();
    for (d, r) in GRAMMARS {
        for text in [
            "a = 1 AND (b IS NULL OR c IN ('x', 'y'))",
            "CASE WHEN a BETWEEN 1 AND 2 THEN CAST(b AS bigint) ELSE -c END",
            "coalesce(sum(a) FILTER (WHERE b LIKE 'x%' ESCAPE '!'), 0) * 2",
            "date_trunc('day', ts) >= TIMESTAMP '2026-10-01 00:00:00.000000' - INTERVAL '1' DAY",
            "transform(xs, x -> x[1] + 1) IS NOT DISTINCT FROM a.b.c",
            "EXTRACT(YEAR FROM ts AT TIME ZONE 'UTC') NOT BETWEEN 1 AND count(DISTINCT y)",
        ] {
            inputs.push((text.to_string(), d, r));
        }
        for e in rendered_dsl() {
            inputs.push((render(&e, d), d, r));
        }
    }
    // Spark's bit operators and `<=>`, in both grammars (Trino's refuses them).
    for (d, r) in GRAMMARS {
        inputs.push(("a | b ^ ~c & d <=> e + 1 AND (f & 1) = 1".to_string(), d, r));
    }
    let mut checked = 0;
    for (input, dialect, rules) in &inputs {
        for variant in corruptions(input, rules) {
            assert_agree(&variant, *dialect, rules);
            checked += 1;
        }
    }
    assert!(checked > 5_000, "{checked} variants");
}

/// `e` as the crate writes it for `dialect`.
fn render(e: &Dsl, dialect: Dialect) -> String {
    let mut w = SqlWriter::new(StatementKind::Select, dialect);
    e.render(&mut w)
        .unwrap_or_else(|err| panic!("{e:?}: {err}"));
    w.as_str().to_string()
}

/// Every literal form and expression node of the crate's expression tree.
fn rendered_dsl() -> Vec<Dsl> {
    use chrono::{NaiveDate, TimeZone as _, Utc};
    let date = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let ts = date.and_hms_micro_opt(12, 30, 5, 123_456).unwrap();
    let values: Vec<(Value, IcebergType)> = vec![
        (Value::Null, IcebergType::Long),
        (Value::Boolean(true), IcebergType::Boolean),
        (Value::Int(-5), IcebergType::Int),
        (Value::Int(i32::MIN), IcebergType::Int),
        (Value::Long(i64::MIN), IcebergType::Long),
        (Value::Long(42), IcebergType::Long),
        (Value::Float(1.5), IcebergType::Float),
        (Value::Double(-2.5e-10), IcebergType::Double),
        (Value::Double(f64::NAN), IcebergType::Double),
        (Value::Float(f32::NEG_INFINITY), IcebergType::Float),
        (
            Value::Decimal(Decimal::new(-12345, 2)),
            IcebergType::Decimal {
                precision: 10,
                scale: 2,
            },
        ),
        (Value::Date(date), IcebergType::Date),
        (Value::Timestamp(ts), IcebergType::Timestamp),
        (
            Value::TimestampTz(Utc.from_utc_datetime(&ts)),
            IcebergType::TimestampTz,
        ),
        (
            Value::String("it's \\ {x} ${y}".into()),
            IcebergType::String,
        ),
        (Value::Binary(vec![0, 1, 254]), IcebergType::Binary),
        (Value::List(vec![]), IcebergType::list(IcebergType::Int)),
        (
            Value::List(vec![Value::Int(1), Value::Null]),
            IcebergType::list(IcebergType::Int),
        ),
        (
            Value::Map(vec![]),
            IcebergType::map(IcebergType::String, IcebergType::Long),
        ),
        (
            Value::Map(vec![(Value::String("k".into()), Value::Long(1))]),
            IcebergType::map(IcebergType::String, IcebergType::Long),
        ),
        (
            Value::Struct(vec![
                Value::Int(1),
                Value::List(vec![Value::String("x".into())]),
            ]),
            IcebergType::structure([
                ("a", IcebergType::Int),
                ("order", IcebergType::list(IcebergType::String)),
            ]),
        ),
        (
            Value::Null,
            IcebergType::structure([("b c", IcebergType::TimestampTz)]),
        ),
    ];
    let col = || Box::new(Dsl::column("latency_ms"));
    let mut exprs: Vec<Dsl> = values
        .iter()
        .map(|(v, t)| Dsl::literal(v.clone(), t.clone()))
        .collect();
    exprs.extend([
        Dsl::Cast {
            expr: col(),
            ty: IcebergType::TimestampTz,
        },
        Dsl::Negate(col()),
        Dsl::Not(Box::new(Dsl::IsNull {
            expr: col(),
            negated: true,
        })),
        Dsl::Like {
            expr: Box::new(Dsl::column("status")),
            pattern: Box::new(Dsl::literal(
                Value::String("a!%".into()),
                IcebergType::String,
            )),
            negated: true,
            escape: Some('!'),
        },
        Dsl::Like {
            expr: Box::new(Dsl::column("status")),
            pattern: Box::new(Dsl::column("payload")),
            negated: false,
            escape: None,
        },
        Dsl::Case {
            branches: vec![(
                Dsl::IsNull {
                    expr: col(),
                    negated: false,
                },
                Dsl::literal(Value::Long(0), IcebergType::Long),
            )],
            otherwise: Some(col()),
        },
        Dsl::Coalesce(vec![
            Dsl::column("payload"),
            Dsl::literal(Value::String(String::new()), IcebergType::String),
        ]),
        Dsl::DateTrunc {
            unit: crate::expr::TimeUnit::Month,
            expr: Box::new(Dsl::column("ts")),
        },
        Dsl::CurrentTimestamp,
        Dsl::CurrentDate,
        Dsl::Interval {
            amount: 7,
            unit: crate::expr::TimeUnit::Day,
        },
        Dsl::Call {
            name: "div",
            args: vec![Dsl::column("a"), Dsl::column("b")],
        },
        Dsl::Aggregate {
            func: crate::expr::Aggregate::CountAll,
            arg: None,
            filter: None,
        },
        Dsl::Aggregate {
            func: crate::expr::Aggregate::CountDistinct,
            arg: Some(col()),
            filter: Some(Box::new(Dsl::IsNull {
                expr: col(),
                negated: true,
            })),
        },
        Dsl::Aggregate {
            func: crate::expr::Aggregate::ApproxPercentile(1e-45),
            arg: Some(col()),
            filter: None,
        },
        Dsl::Aggregate {
            func: crate::expr::Aggregate::ApproxPercentile(0.5),
            arg: Some(col()),
            filter: None,
        },
    ]);
    exprs
}

/// Every literal and expression form the crate's renderers write, in each grammar.
#[test]
fn rendered_expressions_agree() {
    for (dialect, rules) in GRAMMARS {
        for e in rendered_dsl() {
            let text = render(&e, dialect);
            parse_expr(&text, rules).unwrap_or_else(|err| panic!("{text}: {err}"));
            assert_reads(&text, dialect, rules);
        }
    }
}

#[test]
fn long_chains_cost_no_stack() {
    for op in [" OR ", " AND ", " + ", " || "] {
        let text = vec!["a"; 10_000].join(op);
        let mut e = parse_expr(&text, &Rules::TRINO).unwrap();
        // Left-deep: walk down the left operands.
        let mut links = 0;
        while let Expr::Binary { left, .. } = &mut e {
            let next = std::mem::replace(left.as_mut(), Expr::Placeholder(Span::default()));
            e = next;
            links += 1;
        }
        assert_eq!(links, 9_999, "{op}");
    }
    parse_expr("a IS NULL = true", &Rules::SPARK)
        .expect_err("a predicate is not a comparison's left operand");
}

#[test]
fn nesting_is_limited_with_the_validators_hint() {
    let nested = |n: usize| format!("{}a{}", "(".repeat(n), ")".repeat(n));
    parse_expr(&nested(100), &Rules::TRINO).unwrap();
    // sqlparser, as the validator runs it, reads and refuses the same two.
    assert_reads(&nested(100), Dialect::Athena, &Rules::TRINO);
    assert!(theirs(&nested(200), Dialect::Athena).is_err());
    let e = parse_expr(&nested(200), &Rules::TRINO).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(e.to_string().contains("limit of 128 levels"), "{e}");
    assert_eq!(e.hint(), Some(crate::validate::NESTING_HINT));
    let casts = format!("{}a{}", "CAST(".repeat(200), " AS bigint)".repeat(200));
    assert!(parse_expr(&casts, &Rules::TRINO).is_err());
    let negations = format!("{}a", "NOT ".repeat(300));
    assert!(parse_expr(&negations, &Rules::TRINO).is_err());
    // Each failed keyword form is tried once: `case-case-…-c` (Spark, where `case` may
    // be a name) is read in linear time, not in 2^n ways.
    let start = std::time::Instant::now();
    let cases = format!("{}c", "case-".repeat(40));
    let e = parse_expr(&cases, &Rules::SPARK).unwrap();
    assert!(
        matches!(
            e,
            Expr::Binary {
                op: BinaryOp::Minus,
                ..
            }
        ),
        "{e:?}"
    );
    let try_casts = format!("{}c", "try_cast-".repeat(40));
    parse_expr(&try_casts, &Rules::TRINO).unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn errors_point_at_the_token() {
    let e = parse_expr("a +\n  FROM", &Rules::TRINO).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(
        e.location(),
        Some(&crate::error::SqlLocation { line: 2, column: 3 })
    );
    assert!(
        e.to_string().contains(
            "Trino grammar does not parse: expected an expression, found the reserved word `FROM`"
        ),
        "{e}"
    );
    let e = parse_expr("f(a", &Rules::SPARK).unwrap_err();
    assert!(
        e.to_string()
            .contains("expected `)`, found the end of the text"),
        "{e}"
    );
    assert_eq!(
        e.location(),
        Some(&crate::error::SqlLocation { line: 1, column: 4 })
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, rng_seed: super::SOUP_SEED, .. ProptestConfig::default() })]

    /// The validator's structure generators (`validate/tests/expr_structure.rs`),
    /// rendered into a DELETE's WHERE in each dialect: both parsers read the condition
    /// into the same tree.
    #[test]
    fn generated_conditions_agree(c in crate::validate::tests::expr_structure::cond(), spark in any::<bool>()) {
        use crate::statement::{Filter, TableStatements};
        use crate::validate::tests::expr_structure::McpEvent;
        let (d, rules): (Dialect, &'static Rules) =
            if spark { (Dialect::Spark, &Rules::SPARK) } else { (Dialect::Athena, &Rules::TRINO) };
        let stmt = McpEvent::delete().filter(c).build_for(d).unwrap();
        let sql = stmt.sql();
        let at = sql.find("WHERE ").unwrap() + "WHERE ".len();
        let text = &sql[at..];
        prop_assert!(compare(text, d, rules).is_ok(), "{}", compare(text, d, rules).unwrap_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, rng_seed: super::SOUP_SEED, .. ProptestConfig::default() })]

    /// Literals of every type as the crate writes them (hostile strings, NaN and the
    /// infinities, extreme integers, nested lists, maps and structs, NULLs), generated
    /// by the VALUES tests' strategies: both parsers read each into the same tree.
    #[test]
    fn generated_literals_agree(
        (value, ty) in (0..crate::validate::tests::values::columns().len()).prop_flat_map(|i| {
            let ty = crate::validate::tests::values::columns()[i].1.clone();
            crate::validate::tests::values::value_of(&ty).prop_map(move |v| (v, ty.clone()))
        }),
        spark in any::<bool>(),
    ) {
        let (d, rules): (Dialect, &'static Rules) =
            if spark { (Dialect::Spark, &Rules::SPARK) } else { (Dialect::Athena, &Rules::TRINO) };
        let text = render(&Dsl::literal(value, ty), d);
        prop_assert!(parse_expr(&text, rules).is_ok(), "{}: {:?}", text, parse_expr(&text, rules));
        prop_assert!(compare(&text, d, rules).is_ok(), "{}", compare(&text, d, rules).unwrap_err());
    }
}

/// The forms the module documentation lists as not read yet are refused, each in the
/// grammars that have it.
#[test]
fn not_yet_read_is_refused() {
    let both = [
        "a SIMILAR TO 'x'",
        "ceil(ts TO DAY)",
        "transform(xs, (x int) -> x)",
        "a[1:2]",
        "f(name => 1)",
        "first_value(x) IGNORE NULLS OVER (ORDER BY y)",
        "count(t.*)",
        "a DIV b",
        "a::int",
        "?1",
        "$name",
    ];
    for text in both {
        for (_, rules) in GRAMMARS {
            let e = parse_expr(text, rules).expect_err(text);
            assert_eq!(e.kind(), ErrorKind::Syntax, "{text}: {e}");
        }
    }
    let e = parse_expr("a IS JSON", &Rules::TRINO).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    parse_expr("!a", &Rules::SPARK).expect_err("!a");
    for sql in [
        "VALUES (1)",
        "SELECT * FROM t AS x (a, b)",
        "SELECT ALL a FROM t",
        "WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r",
    ] {
        for (_, rules) in GRAMMARS {
            let e = parse_query(sql, rules).expect_err(sql);
            assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
        }
    }
    // `UNNEST(…) WITH ORDINALITY` is Trino's (Spark reads `unnest(arr)` as a table-valued
    // function's call, with no `WITH ORDINALITY`).
    let sql = "SELECT * FROM UNNEST(arr) WITH ORDINALITY";
    let e = parse_query(sql, &Rules::SPARK).expect_err(sql);
    assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
}

/// Words and symbols for token soups (no `||` and no `~`: their powers are deliberately
/// not sqlparser's, see `deliberate_differences` and
/// `spark_bit_operators_bind_as_its_grammar`).
const SOUP: &[&str] = &[
    "a",
    "b",
    "t.c",
    "f",
    "(",
    ")",
    ",",
    "=",
    "<",
    "<=>",
    "&",
    "|",
    "^",
    "+",
    "-",
    "*",
    "/",
    "'x'",
    "1",
    "2.5",
    "?",
    "[",
    "]",
    ".",
    "AND",
    "OR",
    "NOT",
    "IS",
    "NULL",
    "IN",
    "LIKE",
    "ESCAPE",
    "BETWEEN",
    "DISTINCT",
    "FROM",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "CAST",
    "TRY_CAST",
    "AS",
    "bigint",
    "ARRAY",
    "INTERVAL",
    "DAY",
    "DATE",
    "TIMESTAMP",
    "AT",
    "TIME",
    "ZONE",
    "EXTRACT",
    "YEAR",
    "->",
    "true",
    "count",
    "*",
    "FILTER",
    "WHERE",
    "OVER",
    "current_date",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, rng_seed: super::SOUP_SEED, .. ProptestConfig::default() })]

    /// Random token soups: both parsers agree on each (and ours never panics).
    #[test]
    fn token_soups_agree(
        picks in proptest::collection::vec(0..SOUP.len(), 1..10),
        spark in any::<bool>(),
    ) {
        let text = picks.iter().map(|&i| SOUP[i]).collect::<Vec<_>>().join(" ");
        let (d, rules): (Dialect, &'static Rules) =
            if spark { (Dialect::Spark, &Rules::SPARK) } else { (Dialect::Athena, &Rules::TRINO) };
        prop_assert!(compare(&text, d, rules).is_ok(), "{}", compare(&text, d, rules).unwrap_err());
    }
}

/// Where a keyword's form and the word as a name both fail, the error is the reading
/// that got further: in Spark `NOT . interval` fails at the reserved word after the dot
/// (a token soup found the error at the dot, which matched no deliberate difference).
#[test]
fn the_further_failure_is_reported() {
    let e = parse_expr("NOT . INTERVAL", &Rules::SPARK).unwrap_err();
    assert!(
        e.to_string().contains("found the reserved word `INTERVAL`"),
        "{e}"
    );
    assert_eq!(
        compare("NOT . INTERVAL", Dialect::Spark, &Rules::SPARK),
        Ok(())
    );
}
