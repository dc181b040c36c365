//! Parsing `#[iceberg(...)]` attributes. Every problem becomes a spanned `syn::Error`
//! in a shared list; parsing goes on after an error so that all are reported at once.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned as _;
use syn::{Ident, LitInt, LitStr, Token};

/// Collected errors (serde's `Ctxt`, without the drop bomb: `into_result` consumes it).
#[derive(Default)]
pub struct Errors(Vec<syn::Error>);

impl Errors {
    pub fn push(&mut self, span: Span, msg: impl std::fmt::Display) {
        self.0.push(syn::Error::new(span, msg));
    }
    pub fn spanned(&mut self, tokens: impl quote::ToTokens, msg: impl std::fmt::Display) {
        self.0.push(syn::Error::new_spanned(tokens, msg));
    }
    pub fn add(&mut self, e: syn::Error) {
        self.0.push(e);
    }
    pub fn into_result(self) -> syn::Result<()> {
        let mut it = self.0.into_iter();
        match it.next() {
            None => Ok(()),
            Some(mut first) => {
                for e in it {
                    first.combine(e);
                }
                Err(first)
            }
        }
    }
}

/// Which derive reads the attributes: both read `#[iceberg(...)]`, `FromRow` only the
/// keys about result rows (the others are refused with the way to the table derive).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    IcebergTable,
    FromRow,
}

impl Derive {
    fn container_keys(self) -> &'static str {
        match self {
            Derive::IcebergTable => {
                "database, name, location, partition(...), properties(...), comment, rename_all, crate"
            }
            Derive::FromRow => "rename_all, crate",
        }
    }
    fn field_keys(self) -> &'static str {
        match self {
            Derive::IcebergTable => "rename, comment, type, skip, renamed_from",
            Derive::FromRow => "rename, skip",
        }
    }
    /// How an unknown key's error names the derive.
    fn unknown(self) -> &'static str {
        match self {
            Derive::IcebergTable => "",
            Derive::FromRow => " for #[derive(FromRow)]",
        }
    }
}

/// A value with the span of its literal.
#[derive(Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

#[derive(Default)]
pub struct ContainerAttrs {
    pub database: Option<Spanned<String>>,
    pub name: Option<Spanned<String>>,
    pub location: Option<Spanned<String>>,
    pub partition: Vec<PartitionSpec>,
    pub properties: Vec<(Spanned<String>, Spanned<String>)>,
    pub comment: Option<Spanned<String>>,
    pub rename_all: Option<Spanned<String>>,
    pub krate: Option<syn::Path>,
}

#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Option<Spanned<String>>,
    pub comment: Option<Spanned<String>>,
    pub ty: Option<Spanned<String>>,
    pub skip: Option<Span>,
    pub renamed_from: Option<Spanned<String>>,
}

/// One partition field: `day(ts)`, `bucket(16, id)`, `truncate(4, name)`, `id`.
pub struct PartitionSpec {
    /// `identity` for a bare name.
    pub transform: String,
    pub transform_span: Span,
    pub arg: Option<LitInt>,
    pub field: Ident,
}

impl Parse for PartitionSpec {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let head: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        if !input.peek(syn::token::Paren) {
            return Ok(PartitionSpec {
                transform: "identity".into(),
                transform_span: head.span(),
                arg: None,
                field: head,
            });
        }
        let content;
        syn::parenthesized!(content in input);
        let result = Self::transform(head, &content);
        // Consume what is left either way, so syn adds no second error for it.
        let _ = content.parse::<proc_macro2::TokenStream>();
        result
    }
}

impl PartitionSpec {
    fn transform(head: Ident, content: ParseStream) -> syn::Result<Self> {
        let name = head.to_string();
        let (arg, field) = match name.as_str() {
            "year" | "month" | "day" | "hour" | "identity" => (None, content.parse::<Ident>()?),
            "bucket" | "truncate" => {
                if content.peek(Ident) {
                    return Err(content.error(format!(
                        "`{name}` takes the number first, as Athena DDL does: `{name}(16, column)`"
                    )));
                }
                let n: LitInt = content.parse()?;
                content.parse::<Token![,]>()?;
                (Some(n), content.parse::<Ident>()?)
            }
            "years" | "months" | "days" | "hours" => {
                return Err(syn::Error::new(
                    head.span(),
                    format!(
                        "unknown partition transform `{name}`; Athena writes `{}`",
                        name.trim_end_matches('s')
                    ),
                ))
            }
            _ => {
                return Err(syn::Error::new(
                    head.span(),
                    format!(
                        "unknown partition transform `{name}`; expected year, month, day, hour, bucket(N, col), truncate(W, col) or a bare column name (identity)"
                    ),
                ))
            }
        };
        if !content.is_empty() {
            return Err(content.error("unexpected tokens in the partition transform"));
        }
        Ok(PartitionSpec {
            transform: name,
            transform_span: head.span(),
            arg,
            field,
        })
    }
}

/// A property value: a string, integer or boolean literal.
fn property_value(input: ParseStream) -> syn::Result<Spanned<String>> {
    let lit: syn::Lit = input.parse()?;
    let value = match &lit {
        syn::Lit::Str(s) => s.value(),
        syn::Lit::Int(i) => i.base10_digits().to_string(),
        syn::Lit::Bool(b) => b.value.to_string(),
        _ => {
            return Err(syn::Error::new(
                lit.span(),
                "expected a string, integer or boolean",
            ))
        }
    };
    Ok(Spanned {
        value,
        span: lit.span(),
    })
}

pub fn string(meta: &syn::meta::ParseNestedMeta) -> syn::Result<Spanned<String>> {
    let lit: LitStr = meta.value()?.parse()?;
    Ok(Spanned {
        value: lit.value(),
        span: lit.span(),
    })
}

/// Consumes whatever follows an unknown key, so parsing can go on.
pub fn skip_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

pub fn set<T>(slot: &mut Option<T>, value: T, key: &str, span: Span, errors: &mut Errors) {
    if slot.is_some() {
        errors.push(span, format!("duplicate #[iceberg] attribute `{key}`"));
    } else {
        *slot = Some(value);
    }
}

pub fn key_of(meta: &syn::meta::ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_else(|| {
            quote::ToTokens::to_token_stream(&meta.path)
                .to_string()
                .replace(' ', "")
        })
}

pub fn parse_container(
    attrs: &[syn::Attribute],
    derive: Derive,
    errors: &mut Errors,
) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("iceberg")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = key_of(&meta);
            let span = meta.path.span();
            let table_key = matches!(
                key.as_str(),
                "database" | "name" | "location" | "partition" | "properties" | "comment"
            );
            if derive == Derive::FromRow && table_key {
                errors.push(
                    span,
                    format!(
                        "`{key}` describes a table; #[derive(FromRow)] only reads result rows. \
                         Use #[derive(IcebergTable)] for a table (it implements FromRow too)"
                    ),
                );
                return skip_value(&meta);
            }
            match key.as_str() {
                "database" => set(&mut out.database, string(&meta)?, &key, span, errors),
                "name" => set(&mut out.name, string(&meta)?, &key, span, errors),
                "location" => set(&mut out.location, string(&meta)?, &key, span, errors),
                "comment" => set(&mut out.comment, string(&meta)?, &key, span, errors),
                "rename_all" => set(&mut out.rename_all, string(&meta)?, &key, span, errors),
                "crate" => {
                    let s = string(&meta)?;
                    match syn::parse_str::<syn::Path>(&s.value) {
                        Ok(p) => set(&mut out.krate, p, &key, span, errors),
                        Err(_) => errors.push(s.span, format!("`{}` is not a path", s.value)),
                    }
                }
                "partition" => {
                    if !out.partition.is_empty() {
                        errors.push(span, "duplicate #[iceberg] attribute `partition`");
                    }
                    let content;
                    syn::parenthesized!(content in meta.input);
                    // Parse item by item so one bad transform does not hide the others.
                    while !content.is_empty() {
                        match content.parse::<PartitionSpec>() {
                            Ok(p) => out.partition.push(p),
                            Err(e) => {
                                errors.add(e);
                                while !content.is_empty() && !content.peek(Token![,]) {
                                    content.parse::<proc_macro2::TokenTree>()?;
                                }
                            }
                        }
                        if content.is_empty() {
                            break;
                        }
                        content.parse::<Token![,]>()?;
                    }
                }
                "properties" => {
                    meta.parse_nested_meta(|p| {
                        let k = key_of(&p);
                        let kspan = p.path.span();
                        let v = property_value(p.value()?)?;
                        out.properties.push((
                            Spanned {
                                value: k,
                                span: kspan,
                            },
                            v,
                        ));
                        Ok(())
                    })?;
                }
                _ => {
                    errors.push(
                        span,
                        format!(
                            "unknown #[iceberg] attribute `{key}`{}; expected one of: {}",
                            derive.unknown(),
                            derive.container_keys()
                        ),
                    );
                    skip_value(&meta)?;
                }
            }
            Ok(())
        });
        if let Err(e) = result {
            errors.add(e);
        }
    }
    out
}

pub fn parse_field(attrs: &[syn::Attribute], derive: Derive, errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("iceberg")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = key_of(&meta);
            let span = meta.path.span();
            let column_key = matches!(key.as_str(), "type" | "comment" | "renamed_from");
            if derive == Derive::FromRow && column_key {
                errors.push(
                    span,
                    format!(
                        "`{key}` describes a table column; #[derive(FromRow)] reads each cell as the field's Rust type (expected one of: {})",
                        derive.field_keys()
                    ),
                );
                return skip_value(&meta);
            }
            match key.as_str() {
                "rename" => set(&mut out.rename, string(&meta)?, &key, span, errors),
                "comment" => set(&mut out.comment, string(&meta)?, &key, span, errors),
                "type" => set(&mut out.ty, string(&meta)?, &key, span, errors),
                "renamed_from" => set(&mut out.renamed_from, string(&meta)?, &key, span, errors),
                "skip" => set(&mut out.skip, span, &key, span, errors),
                _ => {
                    errors.push(
                        span,
                        match derive {
                            Derive::IcebergTable => format!(
                                "unknown #[iceberg] field attribute `{key}`; expected one of: {}",
                                derive.field_keys()
                            ),
                            Derive::FromRow => format!(
                                "unknown #[iceberg] attribute `{key}` for #[derive(FromRow)]; expected one of: {}",
                                derive.field_keys()
                            ),
                        },
                    );
                    skip_value(&meta)?;
                }
            }
            Ok(())
        });
        if let Err(e) = result {
            errors.add(e);
        }
    }
    out
}

/// `bucket(16, x)` -> 16, checked to be 1 to 2147483647.
pub fn partition_number(spec: &PartitionSpec, errors: &mut Errors) -> u32 {
    let Some(lit) = &spec.arg else { return 0 };
    match lit.base10_parse::<u32>() {
        Ok(0) => {
            errors.push(
                lit.span(),
                format!("`{}` needs a number of at least 1", spec.transform),
            );
            1
        }
        // Iceberg reads the number as a Java `int`.
        Ok(n) if i32::try_from(n).is_ok() => n,
        _ => {
            errors.push(
                lit.span(),
                format!(
                    "`{}` needs a number from 1 to 2147483647 (a 32-bit integer)",
                    spec.transform
                ),
            );
            1
        }
    }
}
