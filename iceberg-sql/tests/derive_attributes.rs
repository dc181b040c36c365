//! Attributes that the other derive tests do not use: the crate path override,
//! `rename_all`, `renamed_from`, comments, the default table name, and a struct type
//! that is not a table.

#![allow(non_snake_case)]

mod reexport {
    pub use iceberg_sql as sql;
}

use iceberg_sql::prelude::*;

#[derive(reexport::sql::IcebergTable, Debug, PartialEq)]
#[iceberg(
    crate = "crate::reexport::sql",
    database = "crm",
    location = "s3://crm-lake/customer_accounts/",
    rename_all = "snake_case",
    comment = "one row per account",
    partition(
        truncate(4, accountName),
        identity(region),
        year(openedOn),
        day(lastSeen)
    ),
    properties(
        format = "orc",
        write_compression = "zlib",
        vacuum_min_snapshots_to_keep = 5
    )
)]
pub struct CustomerAccount {
    pub accountName: String,
    #[iceberg(renamed_from = "geo", comment = "ISO region")]
    pub region: String,
    pub openedOn: chrono::NaiveDate,
    #[iceberg(rename = "balance_eur", type = "decimal(18, 2)")]
    pub balance: Option<iceberg_sql::Decimal>,
    /// An alias: the macro cannot read it, `SqlType::KIND` checks `day()` at compile time.
    pub lastSeen: Option<Seen>,
}

type Seen = chrono::NaiveDateTime;

#[test]
fn attributes_reach_the_table_def() {
    let def = CustomerAccount::table_def();
    assert_eq!(def.name().to_string(), "crm.customer_account");
    let names: Vec<&str> = def.columns().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "account_name",
            "region",
            "opened_on",
            "balance_eur",
            "last_seen"
        ]
    );
    let region = def.column("region").unwrap();
    assert_eq!(region.renamed_from.as_deref(), Some("geo"));
    assert_eq!(region.comment.as_deref(), Some("ISO region"));
    assert_eq!(def.comment(), Some("one row per account"));
    assert_eq!(
        def.column("balance_eur").unwrap().ty,
        IcebergType::decimal(18, 2)
    );
    assert_eq!(
        def.partition_spec(),
        [
            PartitionField::new("account_name", PartitionTransform::Truncate(4)),
            PartitionField::identity("region"),
            PartitionField::new("opened_on", PartitionTransform::Year),
            PartitionField::new("last_seen", PartitionTransform::Day),
        ]
    );
    assert_eq!(def.properties().format(), FileFormat::Orc);
    assert_eq!(CustomerAccount::ACCOUNT_NAME.name(), "account_name");
    assert_eq!(CustomerAccount::BALANCE.name(), "balance_eur");
    let sql = def.create_table().build().unwrap();
    insta::assert_snapshot!("derive_attributes_athena", sql.sql());
}
