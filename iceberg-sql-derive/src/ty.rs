//! What the macro can know about a field's type: the Iceberg type a Rust type maps to
//! (as far as syntax tells), and the type-override mini-language.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{GenericArgument, PathArguments, Type};

/// An Iceberg type as far as the macro can tell. `Unknown` is a user type (a nested
/// derived struct or an own `SqlType` impl): checked by rustc, not by us.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Boolean,
    Int,
    Long,
    Float,
    Double,
    /// `None`: a Rust `Decimal` whose precision must be declared.
    Decimal(Option<(u8, u8)>),
    Date,
    Timestamp,
    String,
    Binary,
    List(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    Struct(Vec<(String, Ty)>),
    Unknown,
}

impl Ty {
    pub fn name(&self) -> String {
        match self {
            Ty::Boolean => "boolean".into(),
            Ty::Int => "int".into(),
            Ty::Long => "long".into(),
            Ty::Float => "float".into(),
            Ty::Double => "double".into(),
            Ty::Decimal(None) => "decimal".into(),
            Ty::Decimal(Some((p, s))) => format!("decimal({p},{s})"),
            Ty::Date => "date".into(),
            Ty::Timestamp => "timestamp".into(),
            Ty::String => "string".into(),
            Ty::Binary => "binary".into(),
            Ty::List(e) => format!("list<{}>", e.name()),
            Ty::Map(k, v) => format!("map<{}, {}>", k.name(), v.name()),
            Ty::Struct(_) => "struct".into(),
            Ty::Unknown => "a user type".into(),
        }
    }

    /// The type in override syntax, with `decimal(10, 2)` for an undeclared decimal
    /// (for the "add #[iceberg(type = ...)]" hint).
    pub fn example(&self) -> String {
        match self {
            Ty::Decimal(None) => "decimal(10, 2)".into(),
            Ty::Decimal(Some((p, s))) => format!("decimal({p}, {s})"),
            Ty::Long => "bigint".into(),
            Ty::List(e) => format!("array<{}>", e.example()),
            Ty::Map(k, v) => format!("map<{}, {}>", k.example(), v.example()),
            Ty::Unknown | Ty::Struct(_) => "struct<...>".into(),
            t => t.name(),
        }
    }

    /// True when a `Decimal` without declared precision occurs anywhere.
    pub fn has_undeclared_decimal(&self) -> bool {
        match self {
            Ty::Decimal(None) => true,
            Ty::List(e) => e.has_undeclared_decimal(),
            Ty::Map(k, v) => k.has_undeclared_decimal() || v.has_undeclared_decimal(),
            Ty::Struct(fs) => fs.iter().any(|(_, t)| t.has_undeclared_decimal()),
            _ => false,
        }
    }

    /// Whether a declared type `decl` fits the Rust type's inferred `self`.
    pub fn accepts_override(&self, decl: &Ty) -> bool {
        match (self, decl) {
            (Ty::Unknown, _) => true,
            (Ty::Decimal(_), Ty::Decimal(_)) => true,
            (Ty::List(a), Ty::List(b)) => a.accepts_override(b),
            (Ty::Map(ak, av), Ty::Map(bk, bv)) => {
                ak.accepts_override(bk) && av.accepts_override(bv)
            }
            (a, b) => a == b,
        }
    }

    /// The `IcebergType` expression for a declared type.
    pub fn to_tokens(&self, krate: &TokenStream) -> TokenStream {
        let t = quote!(#krate::IcebergType);
        match self {
            Ty::Boolean => quote!(#t::Boolean),
            Ty::Int => quote!(#t::Int),
            Ty::Long => quote!(#t::Long),
            Ty::Float => quote!(#t::Float),
            Ty::Double => quote!(#t::Double),
            Ty::Decimal(Some((p, s))) => quote!(#t::decimal(#p, #s)),
            Ty::Decimal(None) => quote!(#t::decimal(38, 9)),
            Ty::Date => quote!(#t::Date),
            Ty::Timestamp => quote!(#t::Timestamp),
            Ty::String => quote!(#t::String),
            Ty::Binary => quote!(#t::Binary),
            Ty::List(e) => {
                let e = e.to_tokens(krate);
                quote!(#t::list(#e))
            }
            Ty::Map(k, v) => {
                let k = k.to_tokens(krate);
                let v = v.to_tokens(krate);
                quote!(#t::map(#k, #v))
            }
            Ty::Struct(fields) => {
                let fs = fields.iter().map(|(n, ty)| {
                    let ty = ty.to_tokens(krate);
                    quote!(#krate::StructField::new(#n, #ty))
                });
                quote!(#t::Struct(::std::vec![#(#fs),*]))
            }
            Ty::Unknown => quote!(#t::String),
        }
    }
}

/// A Rust type the macro refuses, with the fix.
pub struct Unsupported {
    pub what: String,
    pub fix: &'static str,
}

fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        Type::Group(g) => last_segment(&g.elem),
        Type::Paren(p) => last_segment(&p.elem),
        _ => None,
    }
}

fn generic_args(seg: &syn::PathSegment) -> Vec<&Type> {
    match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The Iceberg type of a Rust type (nullability ignored), or why it is refused and the
/// offending (sub)type.
pub fn infer(ty: &Type) -> Result<Ty, (Unsupported, TokenStream)> {
    let refuse = |what: &str, fix: &'static str| {
        Err((
            Unsupported {
                what: what.to_string(),
                fix,
            },
            quote!(#ty),
        ))
    };
    match ty {
        Type::Reference(r) => {
            return match &*r.elem {
                Type::Path(p) if p.path.is_ident("str") => refuse("&str", "use `String`"),
                Type::Slice(_) => refuse("a slice", "use `Vec<T>` (or `Vec<u8>` for binary)"),
                _ => refuse("a reference", "use an owned type"),
            };
        }
        Type::Tuple(t) if t.elems.is_empty() => {
            return refuse("()", "remove the field or use `bool`")
        }
        Type::Tuple(_) => {
            return refuse(
                "a tuple",
                "use a struct that derives `IcebergTable` (an Iceberg struct)",
            )
        }
        Type::Array(_) | Type::Slice(_) => {
            return refuse(
                "a fixed-size array",
                "use `Vec<T>` (or `Vec<u8>` for binary)",
            )
        }
        _ => {}
    }
    let Some(seg) = last_segment(ty) else {
        return Ok(Ty::Unknown);
    };
    let args = generic_args(seg);
    let name = seg.ident.to_string();
    Ok(match (name.as_str(), args.as_slice()) {
        ("Option", [inner]) => infer(inner)?,
        ("bool", []) => Ty::Boolean,
        ("i32", []) => Ty::Int,
        ("i64", []) => Ty::Long,
        ("f32", []) => Ty::Float,
        ("f64", []) => Ty::Double,
        ("String", []) => Ty::String,
        ("NaiveDate", []) => Ty::Date,
        ("NaiveDateTime", []) => Ty::Timestamp,
        ("DateTime", [tz]) => match last_segment(tz) {
            Some(s) if s.ident == "Utc" => Ty::Timestamp,
            _ => {
                return refuse(
                    "DateTime with a time zone other than Utc",
                    "use `DateTime<Utc>` or `NaiveDateTime`: Athena stores Iceberg `timestamp` without a zone",
                )
            }
        },
        ("Decimal", []) => Ty::Decimal(None),
        ("Vec", [inner]) if last_segment(inner).is_some_and(|s| s.ident == "u8") => Ty::Binary,
        ("Vec", [inner]) => Ty::List(Box::new(infer(inner)?)),
        ("HashMap" | "BTreeMap", [k, v]) => Ty::Map(Box::new(infer(k)?), Box::new(infer(v)?)),
        ("i8" | "i16" | "u8" | "u16", []) => {
            return refuse(&name, "use `i32`: Athena's Iceberg tables have no tinyint or smallint")
        }
        ("u32", []) => return refuse(&name, "use `i64`: u32 values do not fit Iceberg `int`"),
        ("u64" | "u128" | "i128" | "usize" | "isize", []) => {
            return refuse(
                &name,
                "use `i64` if the values fit, or `Decimal` with #[iceberg(type = \"decimal(38, 0)\")]",
            )
        }
        ("char", []) => return refuse(&name, "use `String`"),
        ("str", []) => return refuse(&name, "use `String`"),
        ("NaiveTime" | "Time" | "Duration" | "TimeDelta", []) => {
            return refuse(
                &name,
                "Athena's Iceberg tables have no time or interval type: store an `i64` (e.g. microseconds) or a `String`",
            )
        }
        ("OffsetDateTime" | "PrimitiveDateTime" | "Zoned" | "Timestamp", _) => {
            return refuse(&name, "use `chrono::NaiveDateTime` or `chrono::DateTime<Utc>`")
        }
        ("Uuid", []) => return refuse(&name, "Athena cannot declare `uuid` columns: store it as a `String`"),
        ("HashSet" | "BTreeSet" | "VecDeque", [_]) => return refuse(&name, "use `Vec<T>` (an Iceberg list)"),
        ("Box" | "Rc" | "Arc" | "Cow", _) => return refuse(&name, "use the inner type directly"),
        _ => Ty::Unknown,
    })
}

/// Parses a type override such as `decimal(10, 2)`, `array<string>`,
/// `map<string, bigint>` or `struct<a: int, b: string>` (Hive or Iceberg names), read by
/// the one type-name reader of `iceberg_sql_rules::type_name`.
pub fn parse_override(text: &str) -> Result<Ty, String> {
    let t = iceberg_sql_rules::type_name::parse(text).map_err(|e| e.to_string())?;
    override_type(&t)
}

fn override_type(t: &iceberg_sql_rules::type_name::TypeName) -> Result<Ty, String> {
    let word = t.name.as_str();
    let bare = |ty: Ty| {
        if t.numbers.is_empty() && t.params.is_empty() && t.fields.is_empty() {
            Ok(ty)
        } else {
            Err(format!("`{word}` takes no parameters"))
        }
    };
    let elements = |n: usize| {
        if t.params.len() == n {
            t.params
                .iter()
                .map(override_type)
                .collect::<Result<Vec<_>, _>>()
        } else {
            Err(format!(
                "`{word}` takes {n} element type(s), e.g. `map<string, bigint>`"
            ))
        }
    };
    match word {
        "boolean" => bare(Ty::Boolean),
        "int" | "integer" => bare(Ty::Int),
        "bigint" | "long" => bare(Ty::Long),
        "float" | "real" => bare(Ty::Float),
        "double" => bare(Ty::Double),
        "date" => bare(Ty::Date),
        "timestamp" if t.time_zone != Some(true) => bare(Ty::Timestamp),
        "string" => bare(Ty::String),
        "binary" => bare(Ty::Binary),
        "decimal" => match t.numbers[..] {
            [p, s] if p == 0 || p > 38 => {
                Err(format!("decimal({p}, {s}): the precision must be 1 to 38"))
            }
            [p, s] if s > p => Err(format!(
                "decimal({p}, {s}): the scale cannot exceed the precision"
            )),
            // Both at most 38 here.
            [p, s] => Ok(Ty::Decimal(Some((p as u8, s as u8)))),
            _ => Err("write the decimal's precision and scale: `decimal(10, 2)`".into()),
        },
        "array" | "list" => Ok(Ty::List(Box::new(elements(1)?.remove(0)))),
        "map" => {
            let mut kv = elements(2)?;
            let v = kv.remove(1);
            Ok(Ty::Map(Box::new(kv.remove(0)), Box::new(v)))
        }
        "struct" => t
            .fields
            .iter()
            .map(|f| match &f.name {
                Some(n) => Ok((n.clone(), override_type(&f.ty)?)),
                None => Err("each struct field needs a name: `struct<a: int>`".to_string()),
            })
            .collect::<Result<Vec<_>, _>>()
            .and_then(|fields| {
                if fields.is_empty() {
                    Err("a struct needs at least one field".into())
                } else {
                    Ok(Ty::Struct(fields))
                }
            }),
        "timestamptz" | "timestamp" => {
            Err("Athena cannot declare timestamptz columns; use `timestamp`".into())
        }
        "tinyint" | "smallint" => Err(format!("Athena's Iceberg tables have no {word}; use `int`")),
        "varchar" | "char" => Err(format!(
            "Athena's Iceberg tables have no {word}; use `string`"
        )),
        "time" | "uuid" | "fixed" => Err(format!(
            "Athena cannot declare {word} columns in Iceberg tables"
        )),
        _ => Err(format!("unknown type `{word}`")),
    }
}

/// Whether a partition transform accepts a source column of type `ty` (Iceberg spec,
/// same rules as `PartitionTransform::accepts`). `None` when the macro cannot tell.
pub fn transform_accepts(transform: &str, ty: &Ty) -> Option<bool> {
    use iceberg_sql_rules::TypeKind as K;
    let kind = match ty {
        Ty::Unknown => return None,
        Ty::Boolean => K::Boolean,
        Ty::Int => K::Int,
        Ty::Long => K::Long,
        Ty::Float => K::Float,
        Ty::Double => K::Double,
        Ty::Decimal(_) => K::Decimal,
        Ty::Date => K::Date,
        Ty::Timestamp => K::Timestamp,
        Ty::String => K::String,
        Ty::Binary => K::Binary,
        Ty::List(_) | Ty::Map(..) | Ty::Struct(_) => K::Nested,
    };
    let known = [
        "identity", "year", "month", "day", "hour", "bucket", "truncate",
    ];
    known
        .contains(&transform)
        .then(|| iceberg_sql_rules::transform_accepts(transform, kind))
}

/// The source types `transform` takes, for messages.
pub fn transform_takes(transform: &str) -> &'static str {
    iceberg_sql_rules::transform_takes(transform)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_parse() {
        assert_eq!(
            parse_override("decimal(10, 2)").unwrap(),
            Ty::Decimal(Some((10, 2)))
        );
        assert_eq!(
            parse_override("array<map<string,decimal(38,0)>>").unwrap(),
            Ty::List(Box::new(Ty::Map(
                Box::new(Ty::String),
                Box::new(Ty::Decimal(Some((38, 0))))
            )))
        );
        assert!(parse_override("decimal(39, 0)").is_err());
        assert!(parse_override("decimal(5, 6)").is_err());
        assert!(parse_override("timestamptz").is_err());
        assert!(parse_override("int extra").is_err());
    }

    #[test]
    fn rust_types_map() {
        let t = |s: &str| infer(&syn::parse_str::<Type>(s).unwrap()).ok();
        assert_eq!(t("Vec<u8>"), Some(Ty::Binary));
        assert_eq!(t("Option<Vec<i32>>"), Some(Ty::List(Box::new(Ty::Int))));
        assert_eq!(t("chrono::DateTime<chrono::Utc>"), Some(Ty::Timestamp));
        assert_eq!(t("Point"), Some(Ty::Unknown));
        assert!(t("u64").is_none());
        assert!(t("Vec<u16>").is_none());
        assert!(t("&'static str").is_none());
    }
}
