//! Data types in each grammar, against sqlparser's casts and Hive DDL columns.

use super::*;

/// Types as the crate's grammars spell them, read back by ours as sqlparser reads them
/// (in a CAST) and into the structure written.
#[test]
fn rendered_types_agree() {
    let types = [
        IcebergType::Boolean,
        IcebergType::Int,
        IcebergType::Long,
        IcebergType::Float,
        IcebergType::Double,
        IcebergType::Decimal {
            precision: 38,
            scale: 0,
        },
        IcebergType::Date,
        IcebergType::Timestamp,
        IcebergType::TimestampTz,
        IcebergType::String,
        IcebergType::Binary,
        IcebergType::list(IcebergType::list(IcebergType::Int)),
        IcebergType::map(
            IcebergType::String,
            IcebergType::structure([("x", IcebergType::Long)]),
        ),
        IcebergType::structure([
            ("select", IcebergType::Date),
            (
                "m",
                IcebergType::map(IcebergType::Int, IcebergType::list(IcebergType::Double)),
            ),
        ]),
    ];
    for (dialect, rules) in GRAMMARS {
        let grammar = dialect.grammar(StatementKind::Select);
        for t in &types {
            let mut text = String::new();
            grammar.write_type(&mut text, t);
            parse_type(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_agree(&format!("CAST(x AS {text})"), dialect, rules);
        }
    }
    // Hive DDL spelling (`struct<a:int>`, `map<k,v>`), and `>>` closing two brackets.
    let t = parse_type(
        "array<struct<a:int,`b c`:map<string,array<bigint>>>>",
        &Rules::HIVE_DDL,
    )
    .unwrap();
    let DataType::Array(inner, Brackets::Angle) = &t else {
        panic!("{t:?}")
    };
    let DataType::Row(fields, Brackets::Angle) = inner.as_ref() else {
        panic!("{t:?}")
    };
    assert_eq!(fields.len(), 2);
    assert_eq!(fields[1].name.value, "b c");
    assert_eq!(fields[1].name.quote, Some('`'));
    assert_eq!(
        fields[0].ty,
        DataType::Named {
            name: "int".into(),
            params: vec![],
            time_zone: TimeZone::None
        }
    );
    for bad in [
        "array<int",
        "map<string>",
        "struct<a int>",
        "\"int\"",
        "decimal(10,",
        "array(int)",
    ] {
        let e = parse_type(bad, &Rules::HIVE_DDL).expect_err(bad);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{bad}: {e}");
    }
}

/// What sqlparser made of the column type `ty` in Athena's Hive DDL (`CREATE TABLE`).
fn theirs_hive_type(ty: &str) -> Result<Conv<DataType>, String> {
    let sql = format!(
        "CREATE TABLE t (c {ty}) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type' = 'ICEBERG')"
    );
    let base = "CREATE TABLE t (c ".len();
    with_parsed(
        &sql,
        StatementKind::CreateTable,
        Dialect::Athena,
        |stmt| match stmt {
            sp::Statement::CreateTable(ct) if ct.columns.len() == 1 => {
                Converter { sql: &sql, base }.ty(&ct.columns[0].data_type)
            }
            other => outside(other),
        },
    )
    .map_err(|e| e.to_string())
}

/// Hive DDL types: ours reads what sqlparser reads in a `CREATE TABLE` column, into the
/// same tree; both refuse the broken ones.
#[test]
fn hive_types_agree_with_sqlparser() {
    let good = [
        "int",
        "bigint",
        "string",
        "decimal(10,2)",
        "timestamp",
        "array<int>",
        "map<string,bigint>",
        "struct<a:int,`b c`:array<string>>",
        "array<array<int>>",
        "map<string,map<string,int>>",
        "struct<a:struct<b:int>>",
    ];
    for ty in good {
        let ours = parse_type(ty, &Rules::HIVE_DDL).unwrap_or_else(|e| panic!("{ty}: {e}"));
        match theirs_hive_type(ty) {
            Ok(Ok(t)) => assert_eq!(t, ours, "{ty}"),
            other => panic!("{ty}: sqlparser {other:?}"),
        }
    }
    for bad in [
        "array<int",
        "map<string>",
        "decimal(10,",
        "array<>",
        "int int",
    ] {
        assert!(parse_type(bad, &Rules::HIVE_DDL).is_err(), "{bad}");
        assert!(
            !matches!(theirs_hive_type(bad), Ok(Ok(_))),
            "{bad}: sqlparser reads it"
        );
    }
    // Deliberately different: Hive's `columnNameColonType` (HiveParser.g) requires the
    // colon that sqlparser lets go (Spark's grammar has it optional, and so does ours
    // for Spark).
    assert!(matches!(theirs_hive_type("struct<a int>"), Ok(Ok(_))));
    let e = parse_type("struct<a int>", &Rules::HIVE_DDL).unwrap_err();
    assert!(
        e.to_string()
            .contains("expected `:` between a struct field's name and type"),
        "{e}"
    );
}
