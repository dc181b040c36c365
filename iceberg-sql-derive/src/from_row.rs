//! `#[derive(FromRow)]`: a projection struct (the result of any SELECT) decoded by
//! column name, or a tuple struct decoded by position.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Fields};

use crate::attr::{self, Derive, Errors};
use crate::check;

/// The whole derive. Never panics.
pub fn derive(input: DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let container = attr::parse_container(&input.attrs, Derive::FromRow, &mut errors);
    let fields = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(_) | Fields::Unnamed(_) => Some(&s.fields),
            Fields::Unit => None,
        },
        _ => None,
    };
    let Some(fields) = fields else {
        errors.push(
            input.ident.span(),
            "#[derive(FromRow)] needs a struct with fields: named fields read columns by name, tuple fields by position",
        );
        errors.into_result()?;
        unreachable!("an error was pushed");
    };
    if !input.generics.params.is_empty() {
        errors.push(
            input.generics.span(),
            "#[derive(FromRow)] does not support generic structs: each field reads one column as its own type",
        );
    }
    let by_name = matches!(fields, Fields::Named(_));
    let rename_all = match &container.rename_all {
        None => None,
        Some(r) if r.value == "snake_case" || r.value == "lowercase" => Some(r.value.as_str()),
        Some(r) => {
            errors.push(
                r.span,
                format!(
                    "rename_all = \"{}\": use \"snake_case\" or \"lowercase\" (Athena lowercases column names)",
                    r.value
                ),
            );
            None
        }
    };

    struct Field<'a> {
        member: syn::Member,
        ty: &'a syn::Type,
        column: String,
        skip: bool,
    }
    let mut list = Vec::new();
    let mut seen: Vec<(String, Span)> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let attrs = attr::parse_field(&f.attrs, Derive::FromRow, &mut errors);
        let member = match &f.ident {
            Some(id) => syn::Member::Named(id.clone()),
            None => syn::Member::Unnamed(syn::Index::from(i)),
        };
        if !by_name {
            if let Some(r) = &attrs.rename {
                errors.push(
                    r.span,
                    "`rename` needs a named field; tuple struct fields read columns by position",
                );
            }
        }
        let rust_name = f
            .ident
            .as_ref()
            .map(|id| id.to_string().trim_start_matches("r#").to_string())
            .unwrap_or_default();
        let column = match (&attrs.rename, rename_all) {
            (Some(r), _) => r.value.clone(),
            (None, Some("snake_case")) => check::snake_case(&rust_name),
            (None, Some(_)) => rust_name.to_lowercase(),
            (None, None) => rust_name,
        };
        let skip = attrs.skip.is_some();
        if by_name && !skip {
            let span = attrs.rename.as_ref().map_or(f.span(), |r| r.span);
            let folded = column.to_lowercase();
            if seen.iter().any(|(c, _)| *c == folded) {
                errors.push(
                    span,
                    format!("two fields read column `{folded}` (names match ignoring case); rename one with #[iceberg(rename = \"...\")]"),
                );
            } else {
                seen.push((folded, span));
            }
        }
        if !by_name && skip {
            if let Some(s) = attrs.skip {
                errors.push(
                    s,
                    "`skip` needs a named field; a tuple struct reads every column by position",
                );
            }
        }
        list.push(Field {
            member,
            ty: &f.ty,
            column,
            skip,
        });
    }
    if list.iter().all(|f| f.skip) {
        errors.push(
            input.ident.span(),
            "#[derive(FromRow)] needs at least one field that reads a column",
        );
    }
    errors.into_result()?;

    let name = &input.ident;
    let krate = match &container.krate {
        Some(p) => quote!(#p),
        None => quote!(::iceberg_sql),
    };
    let k = quote!(__iceberg_sql);
    let read: Vec<&Field> = list.iter().filter(|f| !f.skip).collect();
    let n = read.len();
    let vars: Vec<_> = (0..n).map(|i| format_ident!("__c{}", i)).collect();
    let decode = |owned: bool| -> Vec<TokenStream> {
        read.iter()
            .zip(&vars)
            .enumerate()
            .map(|(i, (f, v))| {
                let t = f.ty;
                let c = &f.column;
                let call = match (owned, by_name) {
                    (false, true) => quote_spanned!(t.span()=> row.try_get::<#t>(#c)),
                    (true, true) => quote_spanned!(t.span()=> row.take::<#t>(#c)),
                    (false, false) => quote_spanned!(t.span()=> row.try_get_at::<#t>(#i)),
                    (true, false) => quote_spanned!(t.span()=> row.take_at::<#t>(#i)),
                };
                quote!(let #v = #k::record::__private::keep(#call, &mut __errors);)
            })
            .collect()
    };
    let borrowed = decode(false);
    let owned = decode(true);
    let mut next = vars.iter();
    let init: Vec<TokenStream> = list
        .iter()
        .map(|f| {
            let m = &f.member;
            if f.skip {
                quote!(#m: ::core::default::Default::default())
            } else {
                let v = next.next().expect("one variable per read field");
                quote!(#m: #v)
            }
        })
        .collect();
    let arity = if by_name {
        quote!()
    } else {
        quote!(#k::record::__private::arity(&row, #n)?;)
    };
    let expected = if by_name {
        let cols = read.iter().map(|f| {
            let t = f.ty;
            let c = &f.column;
            quote_spanned! {t.span()=>
                #k::Column::new(#c, <#t as #k::SqlType>::iceberg_type())
                    .nullable(<#t as #k::SqlType>::NULLABLE)
            }
        });
        quote!(::core::option::Option::Some(::std::vec![#(#cols),*]))
    } else {
        quote!(::core::option::Option::None)
    };
    Ok(quote! {
        #[doc(hidden)]
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            use #krate as #k;
            #[automatically_derived]
            impl #k::FromRow for #name {
                fn from_row(row: &#k::Row) -> #k::Result<Self> {
                    #arity
                    let mut __errors = ::std::vec::Vec::new();
                    #(#borrowed)*
                    let (#(::core::option::Option::Some(#vars),)*) = (#(#vars,)*) else {
                        return ::core::result::Result::Err(#k::record::__private::combine(__errors));
                    };
                    ::core::result::Result::Ok(#name { #(#init),* })
                }
                fn from_row_owned(mut row: #k::Row) -> #k::Result<Self> {
                    #arity
                    let mut __errors = ::std::vec::Vec::new();
                    #(#owned)*
                    let (#(::core::option::Option::Some(#vars),)*) = (#(#vars,)*) else {
                        return ::core::result::Result::Err(#k::record::__private::combine(__errors));
                    };
                    ::core::result::Result::Ok(#name { #(#init),* })
                }
                fn expected_columns() -> ::core::option::Option<::std::vec::Vec<#k::Column>> {
                    #expected
                }
            }
        };
    })
}
