//! `#[derive(IcebergTable)]` for `iceberg-sql`. Work in progress: see issue 3.
