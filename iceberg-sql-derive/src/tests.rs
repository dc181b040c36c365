//! Unit tests: the expansion snapshot (diesel's approach: expand on `proc_macro2`
//! tokens, pretty-print with prettyplease, snapshot with insta). The rules themselves
//! are tested in `iceberg-sql-rules`.

use quote::quote;

use crate::expand_inner;

fn pretty(input: proc_macro2::TokenStream) -> String {
    let out = expand_inner(input);
    let file: syn2::File = syn2::parse2(out).expect("the expansion parses as a file");
    prettyplease::unparse(&file)
}

#[test]
fn expansion_of_a_representative_table() {
    let input = quote! {
        #[iceberg(
            database = "analytics",
            location = "s3://my-datalake/iceberg/mcp_events/",
            partition(day(event_ts), bucket(16, user_id)),
            properties(format = "parquet", write_compression = "snappy")
        )]
        pub struct McpEvent {
            pub event_id: String,
            pub user_id: String,
            pub event_ts: chrono::NaiveDateTime,
            #[iceberg(comment = "raw JSON")]
            pub payload: Option<String>,
            #[iceberg(type = "decimal(10, 2)", rename = "cost_eur")]
            pub cost: iceberg_sql::Decimal,
            #[iceberg(renamed_from = "latency")]
            pub latency_ms: i64,
            #[iceberg(skip)]
            pub cache: Vec<String>,
        }
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_info(&input.to_string());
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("expand_mcp_event", pretty(input)));
}

#[test]
fn expansion_of_a_nested_struct_type_with_crate_override() {
    let input = quote! {
        #[iceberg(crate = "my_app::sql")]
        pub struct Point {
            pub lat: f64,
            pub lon: f64,
        }
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_info(&input.to_string());
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("expand_point", pretty(input)));
}

#[test]
fn errors_are_compile_errors_not_panics() {
    let out = expand_inner(quote! {
        #[iceberg(database = "A", partition(day(nope)), properties(format = "csv"))]
        struct T { #[iceberg(what)] X: u64 }
    })
    .to_string();
    assert_eq!(out.matches("compile_error").count(), 6, "{out}");
}

#[test]
fn snake_case_of_type_names() {
    assert_eq!(crate::check::snake_case("McpEvent"), "mcp_event");
    assert_eq!(
        crate::check::snake_case("HTTPRequestLog"),
        "http_request_log"
    );
    assert_eq!(crate::check::snake_case("Event2Log"), "event2_log");
}

#[test]
fn comments_longer_than_glue_stores_are_compile_errors() {
    let column = "c".repeat(256);
    let table = "t".repeat(2049);
    let out = expand_inner(quote! {
        #[iceberg(database = "analytics", location = "s3://lake/t/", comment = #table)]
        struct T {
            #[iceberg(comment = #column)]
            x: i64,
            #[iceberg(comment = "fits")]
            y: i64,
        }
    })
    .to_string();
    assert_eq!(out.matches("compile_error").count(), 2, "{out}");
    assert!(
        out.contains("comment of field `x` is 256 characters long; the Glue Data Catalog, where Athena keeps it, stores at most 255"),
        "{out}"
    );
    assert!(
        out.contains("table comment is 2049 characters long; the Glue Data Catalog, where Athena keeps it, stores at most 2048"),
        "{out}"
    );
}
