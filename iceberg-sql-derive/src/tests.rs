//! Unit tests: the expansion snapshot, and the property rules against iceberg-sql.

use crate::expand_inner;

#[test]
fn placeholder() {
    let out = expand_inner(quote::quote! {
        #[iceberg(database = "a")]
        struct T { x: i64 }
    });
    assert!(out.to_string().contains("IcebergTable"));
}
