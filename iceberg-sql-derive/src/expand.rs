//! From a parsed, checked struct to the generated impls. No SQL is rendered here: the
//! output builds a `TableDef` at run time (once) and everything else works on it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, ContainerAttrs, Derive, Errors, FieldAttrs};
use crate::check;
use crate::ty::{self, Ty};

struct Field<'a> {
    ident: &'a Ident,
    ty: &'a Type,
    attrs: FieldAttrs,
    /// Column (or struct field) name.
    column: String,
    /// Inferred Iceberg type, or the override.
    iceberg: Ty,
    declared: Option<Ty>,
}

/// The whole derive: parse, check, generate. Never panics.
pub fn derive(input: DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let container = attr::parse_container(&input.attrs, Derive::IcebergTable, &mut errors);

    let named = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(f) => Some(f),
            _ => None,
        },
        _ => None,
    };
    let Some(named) = named else {
        errors.push(
            input.ident.span(),
            "#[derive(IcebergTable)] needs a struct with named fields (each field is a column)",
        );
        errors.into_result()?;
        unreachable!("an error was pushed");
    };
    if !input.generics.params.is_empty() {
        errors.push(
            input.generics.span(),
            "#[derive(IcebergTable)] does not support generic structs: a table has one fixed schema",
        );
    }

    let rename_all = match &container.rename_all {
        None => None,
        Some(r) if r.value == "snake_case" || r.value == "lowercase" => Some(r.value.as_str()),
        Some(r) => {
            errors.push(
                r.span,
                format!(
                    "rename_all = \"{}\" would make names Athena folds or rejects; use \"snake_case\" or \"lowercase\"",
                    r.value
                ),
            );
            None
        }
    };

    // Fields: names, types, overrides.
    let mut fields = Vec::new();
    for f in &named.named {
        let ident = f.ident.as_ref().expect("named fields");
        let attrs = attr::parse_field(&f.attrs, Derive::IcebergTable, &mut errors);
        let rust_name = ident.to_string().trim_start_matches("r#").to_string();
        let column = match (&attrs.rename, rename_all) {
            (Some(r), _) => r.value.clone(),
            (None, Some("snake_case")) => check::snake_case(&rust_name),
            (None, Some(_)) => rust_name.to_lowercase(),
            (None, None) => rust_name.clone(),
        };
        let declared = attrs
            .ty
            .as_ref()
            .and_then(|t| match ty::parse_override(&t.value) {
                Ok(d) => Some(d),
                Err(why) => {
                    errors.push(
                        t.span,
                        format!("field `{rust_name}`: bad type `{}`: {why}", t.value),
                    );
                    None
                }
            });
        let inferred = if attrs.skip.is_some() {
            Ty::Unknown
        } else {
            match ty::infer(&f.ty) {
                Ok(t) => t,
                Err((u, tokens)) => {
                    errors.spanned(
                        tokens,
                        format!(
                            "field `{rust_name}`: {} is not supported in Athena Iceberg tables; {}",
                            u.what, u.fix
                        ),
                    );
                    Ty::Unknown
                }
            }
        };
        if attrs.skip.is_none() {
            match &declared {
                Some(d) if !inferred.accepts_override(d) => errors.push(
                    attrs.ty.as_ref().map_or(f.ty.span(), |t| t.span),
                    format!(
                        "field `{rust_name}`: type `{}` does not fit the Rust type ({}); a type override can only declare a decimal's precision or restate the type",
                        d.name(),
                        inferred.name()
                    ),
                ),
                None if attrs.ty.is_none() && inferred.has_undeclared_decimal() => errors.spanned(
                    &f.ty,
                    format!(
                        "field `{rust_name}`: a Decimal needs a declared precision and scale; add #[iceberg(type = \"{}\")] (precision 1 to 38)",
                        inferred.example()
                    ),
                ),
                _ => {}
            }
        }
        let iceberg = declared.clone().unwrap_or(inferred);
        fields.push(Field {
            ident,
            ty: &f.ty,
            attrs,
            column,
            iceberg,
            declared,
        });
    }

    // Names Athena would mangle, and collisions.
    let mut seen: Vec<(String, &Ident)> = Vec::new();
    for f in fields.iter().filter(|f| f.attrs.skip.is_none()) {
        let span = f.attrs.rename.as_ref().map_or(f.ident.span(), |r| r.span);
        if let Err((why, suggestion)) = check::check_name(&f.column) {
            let short: String = f.column.chars().take(40).collect();
            let shown = if short.len() < f.column.len() {
                format!("{short}…")
            } else {
                short
            };
            let help = suggestion.map_or_else(
                || "; use a shorter name: #[iceberg(rename = \"...\")]".to_string(),
                |s| format!("; add #[iceberg(rename = \"{s}\")]"),
            );
            errors.push(span, format!("column name `{shown}` {why}{help}"));
        }
        let folded = f.column.to_lowercase();
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == folded) {
            errors.push(
                span,
                format!(
                    "field `{}` and field `{first}` both map to column `{folded}` (Athena lowercases names); rename one with #[iceberg(rename = \"...\")]",
                    f.ident
                ),
            );
        } else {
            seen.push((folded, f.ident));
        }
        if let Some(c) = &f.attrs.comment {
            if let Err(why) = check::check_comment(iceberg_sql_rules::CommentOf::Column, &c.value) {
                errors.push(c.span, format!("comment of field `{}` {why}", f.ident));
            }
        }
        if let Some(old) = &f.attrs.renamed_from {
            if let Err((why, _)) = check::check_name(&old.value) {
                errors.push(old.span, format!("renamed_from name `{}` {why}", old.value));
            }
            if old.value == f.column {
                errors.push(old.span, "renamed_from names the column's current name");
            }
        }
    }
    if fields.iter().all(|f| f.attrs.skip.is_some()) {
        errors.push(
            input.ident.span(),
            "a table needs at least one column (every field is skipped)",
        );
    }

    // Table-level attributes.
    let is_table = container.database.is_some();
    let struct_name = input.ident.to_string();
    let table_name = container
        .name
        .as_ref()
        .map_or_else(|| check::snake_case(&struct_name), |n| n.value.clone());
    if let Some(db) = &container.database {
        if let Err((why, s)) = check::check_name(&db.value) {
            let help = s.map_or(String::new(), |s| format!("; use `{s}`"));
            errors.push(db.span, format!("database name `{}` {why}{help}", db.value));
        }
        if let Err((why, s)) = check::check_name(&table_name) {
            let help = s.map_or(String::new(), |s| {
                format!("; add #[iceberg(name = \"{s}\")]")
            });
            let span = container
                .name
                .as_ref()
                .map_or(input.ident.span(), |n| n.span);
            errors.push(span, format!("table name `{table_name}` {why}{help}"));
        }
    } else {
        for (what, span) in [
            ("name", container.name.as_ref().map(|s| s.span)),
            ("location", container.location.as_ref().map(|s| s.span)),
        ]
        .into_iter()
        .chain(
            container
                .partition
                .first()
                .map(|p| ("partition", Some(p.transform_span))),
        )
        .chain(
            container
                .properties
                .first()
                .map(|p| ("properties", Some(p.0.span))),
        ) {
            if let Some(span) = span {
                errors.push(
                    span,
                    format!("`{what}` needs `database = \"...\"`: without a database the struct is only an Iceberg struct type, not a table"),
                );
            }
        }
    }
    if let Some(loc) = &container.location {
        if let Err(why) = check::check_location(&loc.value) {
            errors.push(loc.span, format!("table location `{}` {why}; use an S3 folder such as `s3://my-bucket/iceberg/my_table/`", loc.value));
        }
    }
    if let Some(c) = &container.comment {
        if let Err(why) = check::check_comment(iceberg_sql_rules::CommentOf::Table, &c.value) {
            errors.push(c.span, format!("table comment {why}"));
        }
    }

    // Partition spec.
    let mut partitions = Vec::new();
    // Each partition whose field is a column, with the column's name and the number.
    let mut placed: Vec<(&attr::PartitionSpec, String, u32)> = Vec::new();
    let mut deferred = Vec::new();
    for p in &container.partition {
        let n = attr::partition_number(p, &mut errors);
        let name = p.field.to_string();
        let target = fields
            .iter()
            .find(|f| *f.ident == name)
            .or_else(|| fields.iter().find(|f| f.column == name));
        match target {
            None => {
                let names: Vec<String> = fields
                    .iter()
                    .filter(|f| f.attrs.skip.is_none())
                    .map(|f| f.ident.to_string())
                    .collect();
                errors.push(
                    p.field.span(),
                    format!(
                        "partition on unknown field `{name}`; the fields are: {}",
                        names.join(", ")
                    ),
                );
            }
            Some(f) if f.attrs.skip.is_some() => errors.push(
                p.field.span(),
                format!("partition on field `{name}`, which is skipped (not a column)"),
            ),
            Some(f) => {
                if ty::transform_accepts(&p.transform, &f.iceberg) == Some(false) {
                    let shown = match &p.arg {
                        Some(a) => format!("{}({}, {name})", p.transform, a),
                        None if p.transform == "identity" => name.clone(),
                        None => format!("{}({name})", p.transform),
                    };
                    errors.push(
                        p.field.span(),
                        format!(
                            "partition `{shown}`: {} cannot be applied to field `{name}` of type {}; it takes {}",
                            if p.transform == "identity" { "identity partitioning".to_string() } else { format!("{}()", p.transform) },
                            f.iceberg.name(),
                            ty::transform_takes(&p.transform)
                        ),
                    );
                }
                if ty::transform_accepts(&p.transform, &f.iceberg).is_none() {
                    // A type the macro cannot read (an alias, an own type): checked by a
                    // const assertion on `SqlType::KIND`, at the same span.
                    let t = f.ty;
                    let transform = &p.transform;
                    let msg = format!(
                        "partition on field `{name}`: {} cannot be applied to its type `{}`; it takes {}",
                        if transform == "identity" { "identity partitioning".to_string() } else { format!("{transform}()") },
                        quote!(#t).to_string().replace(' ', ""),
                        ty::transform_takes(transform)
                    );
                    deferred.push(quote_spanned! {p.field.span()=>
                        const _: () = ::core::assert!(
                            <#t as __iceberg_sql::SqlType>::KIND.accepts(#transform),
                            #msg
                        );
                    });
                }
                partitions.push((f.column.clone(), p.transform.clone(), n));
                placed.push((p, f.column.clone(), n));
            }
        }
    }

    // The spec as a whole (duplicates, redundant time transforms, the names Iceberg gives
    // the fields): the same rule as at run time.
    let spec: Vec<check::SpecField<'_>> = placed
        .iter()
        .map(|(p, column, n)| check::SpecField {
            source: column,
            transform: &p.transform,
            arg: p.arg.as_ref().map(|_| *n),
        })
        .collect();
    let columns: Vec<&str> = fields
        .iter()
        .filter(|f| f.attrs.skip.is_none())
        .map(|f| f.column.as_str())
        .collect();
    for (i, problem) in check::check_partition_spec(&spec, &columns) {
        let (p, _, _) = &placed[i];
        let shown = |(p, _, _): &(&attr::PartitionSpec, String, u32)| match &p.arg {
            Some(a) => format!("{}({a}, {})", p.transform, p.field),
            None if p.transform == "identity" => p.field.to_string(),
            None => format!("{}({})", p.transform, p.field),
        };
        let this = shown(&placed[i]);
        match problem {
            check::SpecProblem::Twice(_) => {
                errors.push(p.field.span(), format!("partition `{this}` appears twice"))
            }
            check::SpecProblem::RedundantTime(j) => errors.push(
                p.transform_span,
                format!(
                    "partitions {} and {this} are redundant: Iceberg allows one time transform per column; keep the finest one you need",
                    shown(&placed[j])
                ),
            ),
            check::SpecProblem::NameTaken { name, other } => errors.push(
                p.transform_span,
                format!(
                    "partitions {} and {this} would both be named `{name}`; Iceberg names a partition field after its column and transform, not the number, and refuses a name twice; keep one width per column",
                    shown(&placed[other])
                ),
            ),
            check::SpecProblem::NameIsColumn(name) => errors.push(
                p.transform_span,
                format!(
                    "partition {this} would be named `{name}`, which is the name of a column; Iceberg refuses a partition field named like a column; rename that column"
                ),
            ),
        }
    }

    // Properties.
    let mut format = None;
    let mut compression = None;
    let mut seen_keys = Vec::new();
    for (k, v) in &container.properties {
        if seen_keys.contains(&k.value) {
            errors.push(k.span, format!("property `{}` is set twice", k.value));
        }
        seen_keys.push(k.value.clone());
        match check::check_property(&k.value, &v.value) {
            Ok(norm) => match k.value.as_str() {
                "format" => format = norm,
                "write_compression" => compression = norm.map(|c| (c, v.span)),
                _ => {}
            },
            Err(why) => {
                let span = if why.starts_with("unknown") || k.value == "table_type" {
                    k.span
                } else {
                    v.span
                };
                let why = if why.starts_with("unknown") {
                    why
                } else {
                    format!("property {why}")
                };
                errors.push(span, why);
            }
        }
    }
    if let Some((c, span)) = &compression {
        let f = format.as_deref().unwrap_or("parquet");
        let allowed = check::compressions(f);
        if !allowed.contains(&c.as_str()) {
            errors.push(
                *span,
                format!(
                    "property `write_compression` = {c} is not supported for {f} files; for {f} use one of: {}",
                    allowed.join(", ")
                ),
            );
        }
    }

    errors.into_result()?;
    Ok(generate(
        &input,
        &container,
        &fields,
        is_table,
        &table_name,
        &partitions,
        &deferred,
    ))
}

fn screaming(ident: &Ident) -> Ident {
    let s = ident.to_string();
    let s = s.trim_start_matches("r#");
    // `latency_ms` -> `LATENCY_MS`, and `accountName` -> `ACCOUNT_NAME`.
    let upper = check::snake_case(s).to_uppercase();
    format_ident!("{}", upper, span = ident.span())
}

fn generate(
    input: &DeriveInput,
    container: &ContainerAttrs,
    fields: &[Field<'_>],
    is_table: bool,
    table_name: &str,
    partitions: &[(String, String, u32)],
    deferred: &[TokenStream],
) -> TokenStream {
    let name = &input.ident;
    let name_str = name.to_string();
    let vis = &input.vis;
    let krate = match &container.krate {
        Some(p) => quote!(#p),
        None => quote!(::iceberg_sql),
    };
    let k = quote!(__iceberg_sql);
    let columns: Vec<&Field> = fields.iter().filter(|f| f.attrs.skip.is_none()).collect();

    // The Iceberg type of each column: the override, or the Rust type's.
    let col_type = |f: &Field| -> TokenStream {
        match &f.declared {
            Some(d) => d.to_tokens(&k),
            None => {
                let t = f.ty;
                quote_spanned!(t.span()=> <#t as #k::SqlType>::iceberg_type())
            }
        }
    };

    // impl SqlType (struct type).
    let n = columns.len();
    let struct_fields = columns.iter().map(|f| {
        let c = &f.column;
        let t = col_type(f);
        quote!(#k::StructField::new(#c, #t))
    });
    let to_value_items: Vec<TokenStream> = columns
        .iter()
        .map(|f| {
            let id = f.ident;
            let t = f.ty;
            quote_spanned!(t.span()=> <#t as #k::SqlType>::to_value(&self.#id))
        })
        .collect();
    let from_struct = fields.iter().map(|f| {
        let id = f.ident;
        if f.attrs.skip.is_some() {
            quote!(#id: ::core::default::Default::default())
        } else {
            let c = &f.column;
            let t = f.ty;
            quote!(#id: #k::record::__private::struct_field::<#t>(__it.next().unwrap_or(#k::Value::Null), #c)?)
        }
    });
    let sql_type = quote! {
        #[automatically_derived]
        impl #k::SqlType for #name {
            const KIND: #k::record::SqlKind = #k::record::SqlKind::Struct;
            fn iceberg_type() -> #k::IcebergType {
                #k::IcebergType::Struct(::std::vec![#(#struct_fields),*])
            }
            fn to_value(&self) -> #k::Value {
                #k::Value::Struct(::std::vec![#(#to_value_items),*])
            }
            fn from_value(value: #k::Value) -> #k::Result<Self> {
                let mut __it = #k::record::__private::struct_fields(value, #n, #name_str)?.into_iter();
                ::core::result::Result::Ok(#name { #(#from_struct),* })
            }
        }
    };

    let table_impl = if is_table {
        let db = &container.database.as_ref().expect("is_table").value;
        let cols = columns.iter().map(|f| {
            let c = &f.column;
            let t = f.ty;
            let ty = col_type(f);
            let mut e = quote! {
                #k::Column::new(#c, #ty).nullable(<#t as #k::SqlType>::NULLABLE)
            };
            if let Some(cm) = &f.attrs.comment {
                let v = &cm.value;
                e = quote!(#e.comment(#v));
            }
            if let Some(old) = &f.attrs.renamed_from {
                let v = &old.value;
                e = quote!(#e.renamed_from(#v));
            }
            quote!(.column(#e))
        });
        let parts = partitions.iter().map(|(col, tr, n)| {
            let t = match tr.as_str() {
                "identity" => quote!(Identity),
                "year" => quote!(Year),
                "month" => quote!(Month),
                "day" => quote!(Day),
                "hour" => quote!(Hour),
                "bucket" => quote!(Bucket(#n)),
                _ => quote!(Truncate(#n)),
            };
            quote!(.partition(#k::PartitionField::new(#col, #k::PartitionTransform::#t)))
        });
        let props = container.properties.iter().map(|(key, v)| {
            let key = &key.value;
            let v = &v.value;
            quote!(.property_str(#key, #v))
        });
        let loc = container.location.as_ref().map(|l| {
            let v = &l.value;
            quote!(.location(#v))
        });
        let comment = container.comment.as_ref().map(|c| {
            let v = &c.value;
            quote!(.comment(#v))
        });
        // Decode every column, then report every failure at once.
        let vars: Vec<_> = (0..columns.len())
            .map(|i| format_ident!("__c{}", i))
            .collect();
        let decode_each = |owned: bool| -> Vec<TokenStream> {
            columns
                .iter()
                .zip(&vars)
                .enumerate()
                .map(|(i, (f, v))| {
                    let t = f.ty;
                    let call = if owned {
                        quote!(#k::record::take_column::<#t>(&mut row, &__cols[#i]))
                    } else {
                        quote!(#k::record::decode_column::<#t>(row, &__cols[#i]))
                    };
                    quote! {
                        let #v = #k::record::__private::keep(#call, &mut __errors);
                    }
                })
                .collect()
        };
        let decode_borrowed = decode_each(false);
        let decode_owned = decode_each(true);
        let mut next = vars.iter();
        let init: Vec<TokenStream> = fields
            .iter()
            .map(|f| {
                let id = f.ident;
                if f.attrs.skip.is_some() {
                    quote!(#id: ::core::default::Default::default())
                } else {
                    let v = next.next().expect("one variable per column");
                    quote!(#id: #v)
                }
            })
            .collect();
        let panic_msg =
            format!("#[derive(IcebergTable)] on `{name_str}`: invalid table definition: {{}}");
        let consts = columns.iter().map(|f| {
            let c = &f.column;
            let t = f.ty;
            let cn = screaming(f.ident);
            let doc = format!("Column `{c}`.");
            quote! {
                #[doc = #doc]
                #[allow(dead_code)]
                #vis const #cn: #k::Col<Self, #t> = #k::Col::new(#c);
            }
        });
        quote! {
            #[automatically_derived]
            impl #k::IcebergTable for #name {
                fn table_def() -> &'static #k::TableDef {
                    static DEF: ::std::sync::LazyLock<#k::TableDef> = ::std::sync::LazyLock::new(|| {
                        #k::TableDef::builder(#db, #table_name)
                            #(#cols)*
                            #(#parts)*
                            #(#props)*
                            #loc
                            #comment
                            .build()
                            .unwrap_or_else(|e| ::core::panic!(#panic_msg, e))
                    });
                    &DEF
                }
                fn to_values(&self) -> ::std::vec::Vec<#k::Value> {
                    ::std::vec![#(#to_value_items),*]
                }
            }

            /// By column name, each cell read as the column's declared type; every
            /// column's error is reported at once.
            #[automatically_derived]
            impl #k::FromRow for #name {
                fn from_row(row: &#k::Row) -> #k::Result<Self> {
                    let __cols = <Self as #k::IcebergTable>::table_def().columns();
                    let mut __errors = ::std::vec::Vec::new();
                    #(#decode_borrowed)*
                    let (#(::core::option::Option::Some(#vars),)*) = (#(#vars,)*) else {
                        return ::core::result::Result::Err(#k::record::__private::combine(__errors));
                    };
                    ::core::result::Result::Ok(#name { #(#init),* })
                }
                fn from_row_owned(mut row: #k::Row) -> #k::Result<Self> {
                    let __cols = <Self as #k::IcebergTable>::table_def().columns();
                    let mut __errors = ::std::vec::Vec::new();
                    #(#decode_owned)*
                    let (#(::core::option::Option::Some(#vars),)*) = (#(#vars,)*) else {
                        return ::core::result::Result::Err(#k::record::__private::combine(__errors));
                    };
                    ::core::result::Result::Ok(#name { #(#init),* })
                }
                fn expected_columns() -> ::core::option::Option<::std::vec::Vec<#k::Column>> {
                    ::core::option::Option::Some(
                        <Self as #k::IcebergTable>::table_def().columns().to_vec(),
                    )
                }
            }

            impl #name {
                #(#consts)*
            }
        }
    } else {
        quote!()
    };

    quote! {
        #[doc(hidden)]
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            use #krate as #k;
            #sql_type
            #table_impl
            #(#deferred)*
        };
    }
}
