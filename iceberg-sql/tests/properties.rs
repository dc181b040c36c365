//! Property tests for the two places user text meets SQL: string literals and names.
//!
//! * Any Rust `String` written as a DML literal parses back, through our validator's
//!   parser, to a string literal equal to the input, in both grammars.
//! * Any name is either rejected, or rendered so that it parses back as exactly that
//!   one identifier, in every grammar that can quote it.

use std::ops::ControlFlow;

use iceberg_sql::prelude::*;
use iceberg_sql::validate::parse_statement;
use iceberg_sql::Grammar;
use proptest::prelude::*;
use sqlparser::ast::{self, Visit, Visitor};

/// Collects every string literal and every identifier the parser saw.
#[derive(Default)]
struct Collect {
    strings: Vec<String>,
}

impl Visitor for Collect {
    type Break = ();
    fn pre_visit_expr(&mut self, expr: &ast::Expr) -> ControlFlow<()> {
        if let ast::Expr::Value(v) = expr {
            if let ast::Value::SingleQuotedString(s) = &v.value {
                self.strings.push(s.clone());
            }
        }
        ControlFlow::Continue(())
    }
}

fn literal_round_trip(text: &str, dialect: Dialect) -> Result<String, String> {
    let grammar = dialect.grammar(StatementKind::Select);
    let mut sql = String::from("SELECT ");
    grammar.write_string(&mut sql, text);
    let stmt = parse_statement(&sql, StatementKind::Select, dialect).map_err(|e| e.to_string())?;
    let mut c = Collect::default();
    let _ = stmt.visit(&mut c);
    match c.strings.as_slice() {
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
        match DropTable::new(&table_name).build() {
            Err(e) => prop_assert_eq!(e.kind(), ErrorKind::InvalidIdentifier, "{}", e),
            Ok(athena) => {
                for stmt in [athena, DropTable::new(&table_name).build_for(Dialect::Spark).unwrap()] {
                    let ast = parse_statement(stmt.sql(), StatementKind::DropTable, stmt.dialect()).unwrap();
                    let ast::Statement::Drop { names, .. } = ast else {
                        panic!("not a DROP: {}", stmt.sql())
                    };
                    prop_assert_eq!(names.len(), 1);
                    let parts: Vec<String> = names[0].0.iter()
                        .map(|p| p.as_ident().map(|i| i.value.clone()).unwrap_or_default())
                        .collect();
                    prop_assert_eq!(parts, vec!["db".to_string(), name.clone()], "{}", stmt.sql());
                }
                // The same name as a column, in DDL (Hive/Spark) and in a DML literal list.
                let t = TableDef::builder("db", "t")
                    .column(Column::new(name.clone(), IcebergType::Int))
                    .location("s3://bucket/t/")
                    .build()
                    .unwrap();
                for dialect in [Dialect::Athena, Dialect::Spark] {
                    let stmt = t.create_table().build_for(dialect).unwrap();
                    let ast = parse_statement(stmt.sql(), StatementKind::CreateTable, dialect).unwrap();
                    let ast::Statement::CreateTable(ct) = ast else { panic!("not a CREATE") };
                    prop_assert_eq!(ct.columns.len(), 1);
                    prop_assert_eq!(&ct.columns[0].name.value, &name, "{}", stmt.sql());
                }
                for grammar in [Grammar::TrinoDml, Grammar::HiveDdl, Grammar::Spark] {
                    prop_assert!(!grammar.quote_ident(&name).is_empty());
                }
            }
        }
    }
}
