//! `rust_decimal::Decimal` fields (feature `decimal`): declared precision, exact round
//! trip through Athena-style cells, and a clear error for values rust_decimal cannot hold.
#![cfg(feature = "decimal")]

use iceberg_sql::prelude::*;
use iceberg_sql::record::{format_cell, parse_cell};
use rust_decimal::Decimal;

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(database = "shop", location = "s3://shop-lake/orders/")]
pub struct Order {
    pub id: i64,
    #[iceberg(type = "decimal(10, 2)")]
    pub price: Decimal,
    #[iceberg(type = "decimal(38, 10)")]
    pub discount: Option<Decimal>,
}

fn round_trip(order: &Order) -> Order {
    let def = Order::table_def();
    let columns: Vec<String> = def.columns().iter().map(|c| c.name.clone()).collect();
    let cells: Vec<Option<String>> = order
        .to_values()
        .iter()
        .zip(def.columns())
        .map(|(v, c)| format_cell(v, &c.ty))
        .collect();
    Order::from_row(&Row::untyped(columns.clone(), cells.clone())).expect("decodes")
}

#[test]
fn the_declared_type_is_used() {
    let sql = Order::table_def().create_table().build().unwrap();
    assert!(
        sql.sql()
            .contains("price decimal(10,2),\n  discount decimal(38,10)"),
        "{sql}"
    );
}

#[test]
fn values_round_trip_exactly() {
    for (price, discount) in [
        ("12.50", Some("0.0000000001")),
        ("-0.01", None),
        ("99999999.99", Some("-12345678901234567.1234567891")),
    ] {
        let order = Order {
            id: 1,
            price: price.parse().unwrap(),
            discount: discount.map(|d| d.parse().unwrap()),
        };
        let back = round_trip(&order);
        assert_eq!(back, order);
        assert_eq!(back.price.to_string(), price);
    }
}

#[test]
fn a_value_too_wide_for_rust_decimal_is_a_decode_error() {
    let columns = vec![
        "id".to_string(),
        "price".to_string(),
        "discount".to_string(),
    ];
    // 38 digits: legal for decimal(38, 10), beyond rust_decimal's 96-bit mantissa.
    let cells = vec![
        Some("1".to_string()),
        Some("1.00".to_string()),
        Some("1234567890123456789012345678.0123456789".to_string()),
    ];
    let e = Order::from_row(&Row::untyped(columns.clone(), cells.clone())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Decode);
    assert!(e.to_string().contains("discount"), "{e}");
    assert!(
        e.to_string().contains("does not fit rust_decimal::Decimal"),
        "{e}"
    );
    // The literal for a written value still has the column's exact type.
    let v = Decimal::new(1250, 2);
    assert_eq!(
        parse_cell("12.50", &IcebergType::decimal(10, 2)).unwrap(),
        iceberg_sql::SqlType::to_value(&v)
    );
}
