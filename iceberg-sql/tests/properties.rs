//! Property tests for the two places user text meets SQL: string literals and names.
//!
//! * Any Rust `String` written as a DML literal parses back, through our validator's
//!   parser, to a string literal equal to the input, in both grammars.
//! * Any name is either rejected, or rendered so that it parses back as exactly that
//!   one identifier, in every grammar that can quote it.

use iceberg_sql::prelude::*;
use iceberg_sql::validate::inspect;
use iceberg_sql::Grammar;
use proptest::prelude::*;

fn literal_round_trip(text: &str, dialect: Dialect) -> Result<String, String> {
    let grammar = dialect.grammar(StatementKind::Select);
    let mut sql = String::from("SELECT ");
    grammar.write_string(&mut sql, text);
    let read = inspect(&sql, StatementKind::Select, dialect).map_err(|e| e.to_string())?;
    match read.string_literals() {
        [one] => Ok(one.clone()),
        other => Err(format!(
            "expected one string literal, found {other:?} in {sql}"
        )),
    }
}

fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-z'\\\\;\"`\\-/*\n\r\t \u{2019}\u{0}${}]{0,40}",
        Just("${var} $${x} ${system:user.name}".to_string()),
        Just("'; DROP TABLE t; --".to_string()),
        Just("\\'".to_string()),
        Just("a''b\\\\'".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_string_round_trips_as_a_trino_literal(s in hostile()) {
        prop_assert_eq!(literal_round_trip(&s, Dialect::Athena), Ok(s));
    }

    #[test]
    fn any_string_round_trips_as_a_spark_literal(s in hostile()) {
        prop_assert_eq!(literal_round_trip(&s, Dialect::Spark), Ok(s));
    }

    #[test]
    fn any_name_is_rejected_or_parses_back_as_itself(name in prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9_$`\"' .\\-]{0,12}",
        proptest::sample::select(iceberg_sql::dialect::grammar::HIVE_DDL_RESERVED).prop_map(str::to_string),
        proptest::sample::select(iceberg_sql::dialect::grammar::TRINO_DML_RESERVED).prop_map(str::to_string),
        "[a-z0-9_]{1,300}",
    ]) {
        let table_name = TableName::new("db", name.clone());
        match table_name.drop_table().build() {
            Err(e) => prop_assert_eq!(e.kind(), ErrorKind::InvalidIdentifier, "{}", e),
            Ok(athena) => {
                for stmt in [athena, table_name.drop_table().build_for(Dialect::Spark).unwrap()] {
                    let read = inspect(stmt.sql(), StatementKind::DropTable, stmt.dialect()).unwrap();
                    let parts: Vec<&str> = read.names().iter().map(|n| n.value.as_str()).collect();
                    prop_assert_eq!(parts, vec!["db", name.as_str()], "{}", stmt.sql());
                }
                // The same name as a column, in DDL (Hive/Spark) and in a DML literal list.
                let t = TableDef::builder("db", "t")
                    .column(Column::new(name.clone(), IcebergType::Int))
                    .location("s3://bucket/t/")
                    .build()
                    .unwrap();
                for dialect in [Dialect::Athena, Dialect::Spark] {
                    let stmt = t.create_table().build_for(dialect).unwrap();
                    // db, t, the column, then property keys (single-quoted) and Spark's
                    // `USING iceberg`.
                    let read = inspect(stmt.sql(), StatementKind::CreateTable, dialect).unwrap();
                    let column = &read.names()[2];
                    prop_assert_eq!(&column.value, &name, "{}", stmt.sql());
                    prop_assert_ne!(column.quote, Some('\''), "{}", stmt.sql());
                }
                for grammar in [Grammar::TrinoDml, Grammar::HiveDdl, Grammar::Spark] {
                    prop_assert!(!grammar.quote_ident(&name).is_empty());
                }
            }
        }
    }
}
