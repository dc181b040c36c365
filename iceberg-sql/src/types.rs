//! Iceberg data types and the rules for declaring them (Iceberg spec, "Schemas and Data
//! Types": <https://iceberg.apache.org/spec/#schemas-and-data-types>). How a grammar
//! spells a type is the grammar's decision ([`Grammar`](crate::Grammar), which adds
//! [`IcebergType::to_sql`]).

use crate::error::{Error, ErrorKind, Result};
use crate::ident::{check_name, NameRole};

/// Largest decimal precision Athena and Iceberg accept (Trino's `Decimals.MAX_PRECISION`).
pub const MAX_DECIMAL_PRECISION: u8 = 38;

/// An Iceberg data type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IcebergType {
    /// `boolean`
    Boolean,
    /// 32-bit signed integer (`int` in DDL, `integer` in DML).
    Int,
    /// 64-bit signed integer (`bigint`).
    Long,
    /// 32-bit float (`float` in DDL, `real` in DML).
    Float,
    /// 64-bit float (`double`).
    Double,
    /// Fixed-point decimal; precision at most 38, scale at most precision.
    Decimal {
        /// Total number of digits.
        precision: u8,
        /// Digits after the point.
        scale: u8,
    },
    /// Calendar date.
    Date,
    /// Timestamp without time zone, microsecond precision (`timestamp(6)` in DML).
    Timestamp,
    /// Timestamp with time zone. Athena can read it but cannot declare it in DDL.
    TimestampTz,
    /// UTF-8 string (`string` in DDL, `varchar` in DML).
    String,
    /// Bytes (`binary` in DDL, `varbinary` in DML).
    Binary,
    /// `array<T>`
    List(Box<IcebergType>),
    /// `map<K, V>`
    Map(Box<IcebergType>, Box<IcebergType>),
    /// `struct<a: T, ...>`
    Struct(Vec<StructField>),
}

/// A named field of a struct type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StructField {
    /// Field name (`[a-z0-9_]`).
    pub name: String,
    /// Field type.
    pub ty: IcebergType,
}

impl StructField {
    /// A field `name` of type `ty`.
    pub fn new(name: impl Into<String>, ty: IcebergType) -> Self {
        StructField {
            name: name.into(),
            ty,
        }
    }
}

impl IcebergType {
    /// `decimal(precision, scale)`; checked when the table is validated.
    pub fn decimal(precision: u8, scale: u8) -> Self {
        IcebergType::Decimal { precision, scale }
    }

    /// `array<element>`
    pub fn list(element: IcebergType) -> Self {
        IcebergType::List(Box::new(element))
    }

    /// `map<key, value>`
    pub fn map(key: IcebergType, value: IcebergType) -> Self {
        IcebergType::Map(Box::new(key), Box::new(value))
    }

    /// `struct<...>` from `(name, type)` pairs.
    pub fn structure<N: Into<String>>(fields: impl IntoIterator<Item = (N, IcebergType)>) -> Self {
        IcebergType::Struct(
            fields
                .into_iter()
                .map(|(n, t)| StructField::new(n, t))
                .collect(),
        )
    }

    /// `self == other`, decided inline where both are the same type without
    /// parameters (a literal's type against its column's, on every value a statement
    /// writes); the derived equality, a call, for the rest.
    #[inline]
    pub(crate) fn same_as(&self, other: &IcebergType) -> bool {
        use IcebergType as T;
        let parameterless = !matches!(
            self,
            T::Decimal { .. } | T::List(_) | T::Map(..) | T::Struct(_)
        );
        if std::mem::discriminant(self) != std::mem::discriminant(other) {
            return false;
        }
        parameterless || self == other
    }

    /// True for every type except list, map and struct.
    pub fn is_primitive(&self) -> bool {
        !matches!(
            self,
            IcebergType::List(_) | IcebergType::Map(..) | IcebergType::Struct(_)
        )
    }

    /// Iceberg's own name for the type (`long`, `timestamptz`, ...), for messages.
    pub fn iceberg_name(&self) -> String {
        match self {
            IcebergType::Boolean => "boolean".into(),
            IcebergType::Int => "int".into(),
            IcebergType::Long => "long".into(),
            IcebergType::Float => "float".into(),
            IcebergType::Double => "double".into(),
            IcebergType::Decimal { precision, scale } => format!("decimal({precision},{scale})"),
            IcebergType::Date => "date".into(),
            IcebergType::Timestamp => "timestamp".into(),
            IcebergType::TimestampTz => "timestamptz".into(),
            IcebergType::String => "string".into(),
            IcebergType::Binary => "binary".into(),
            IcebergType::List(e) => format!("list<{}>", e.iceberg_name()),
            IcebergType::Map(k, v) => format!("map<{}, {}>", k.iceberg_name(), v.iceberg_name()),
            IcebergType::Struct(fs) => {
                let inner: Vec<String> = fs
                    .iter()
                    .map(|f| format!("{}: {}", f.name, f.ty.iceberg_name()))
                    .collect();
                format!("struct<{}>", inner.join(", "))
            }
        }
    }

    /// Checks that Athena can declare this type in DDL, at any depth. `path` names the
    /// column (e.g. `loc.lat`) for the message.
    pub fn check_declarable(&self, path: &str) -> Result<()> {
        self.check(path, true)
    }

    /// Checks that the type is well formed (decimal bounds, struct field names, map keys)
    /// at any depth; with `creatable`, also that Athena DDL can declare it.
    pub fn check(&self, path: &str, creatable: bool) -> Result<()> {
        match self {
            IcebergType::Decimal { precision, scale } => {
                if *precision == 0 || *precision > MAX_DECIMAL_PRECISION {
                    return Err(Error::new(
                        ErrorKind::InvalidType,
                        format!(
                            "column `{path}`: decimal({precision},{scale}) has precision {precision}; \
                             Athena allows 1 to {MAX_DECIMAL_PRECISION}"
                        ),
                    )
                    .with_hint("use decimal(38, s) at most, or store the value as a string"));
                }
                if scale > precision {
                    return Err(Error::new(
                        ErrorKind::InvalidType,
                        format!(
                            "column `{path}`: decimal({precision},{scale}) has a scale larger than its precision"
                        ),
                    )
                    .with_hint("the scale must be between 0 and the precision"));
                }
                Ok(())
            }
            IcebergType::TimestampTz if creatable => Err(Error::new(
                ErrorKind::InvalidType,
                format!(
                    "column `{path}`: timestamptz cannot be declared in Athena DDL \
                     (Athena reads it, but only creates `timestamp` columns)"
                ),
            )
            .with_hint("declare the column as `timestamp` and store UTC values")),
            IcebergType::List(e) => e.check(&format!("{path}[]"), creatable),
            IcebergType::Map(k, v) => {
                if !k.is_primitive() {
                    return Err(Error::new(
                        ErrorKind::InvalidType,
                        format!(
                            "column `{path}`: map keys must be a primitive type, not {}",
                            k.iceberg_name()
                        ),
                    ));
                }
                k.check(&format!("{path}.key"), creatable)?;
                v.check(&format!("{path}.value"), creatable)
            }
            IcebergType::Struct(fields) => {
                if fields.is_empty() {
                    return Err(Error::new(
                        ErrorKind::InvalidType,
                        format!("column `{path}`: a struct needs at least one field"),
                    ));
                }
                let mut seen = std::collections::HashSet::new();
                for f in fields {
                    let p = format!("{path}.{}", f.name);
                    check_name(&f.name, NameRole::Column).map_err(|e| {
                        Error::new(e.kind(), format!("struct field `{p}`: {}", e.message()))
                    })?;
                    if !seen.insert(f.name.as_str()) {
                        return Err(Error::new(
                            ErrorKind::InvalidType,
                            format!("column `{path}`: struct field `{}` appears twice", f.name),
                        ));
                    }
                    f.ty.check(&p, creatable)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The length of the type string the Glue Data Catalog stores for a column of this
    /// type (`Column.Type`), in its shortest spelling: Hive names, `struct<a:int,b:string>`
    /// without spaces, as Iceberg's own Glue catalog writes it (apache/iceberg,
    /// `aws/src/main/java/org/apache/iceberg/aws/glue/IcebergToGlueConverter.java`,
    /// `toTypeString`). No writer stores a shorter one.
    pub(crate) fn glue_type_chars(&self) -> usize {
        let digits = |n: u8| n.to_string().len();
        match self {
            IcebergType::Boolean => "boolean".len(),
            IcebergType::Int => "int".len(),
            IcebergType::Long => "bigint".len(),
            IcebergType::Float => "float".len(),
            IcebergType::Double => "double".len(),
            IcebergType::Decimal { precision, scale } => {
                "decimal(,)".len() + digits(*precision) + digits(*scale)
            }
            IcebergType::Date => "date".len(),
            IcebergType::Timestamp | IcebergType::TimestampTz => "timestamp".len(),
            IcebergType::String => "string".len(),
            IcebergType::Binary => "binary".len(),
            IcebergType::List(e) => "array<>".len() + e.glue_type_chars(),
            IcebergType::Map(k, v) => "map<,>".len() + k.glue_type_chars() + v.glue_type_chars(),
            IcebergType::Struct(fields) => {
                let commas = fields.len().saturating_sub(1);
                "struct<>".len()
                    + commas
                    + fields
                        .iter()
                        .map(|f| {
                            iceberg_sql_rules::aws_length(&f.name) + 1 + f.ty.glue_type_chars()
                        })
                        .sum::<usize>()
            }
        }
    }

    /// Checks that the Glue Data Catalog can store this type for column `column`: at most
    /// [`iceberg_sql_rules::MAX_GLUE_COLUMN_TYPE_CHARS`] characters in its shortest
    /// spelling. A wider struct fails CREATE TABLE or ADD COLUMNS in Glue.
    pub(crate) fn check_glue_type_length(&self, column: &str) -> Result<()> {
        let chars = self.glue_type_chars();
        let max = iceberg_sql_rules::MAX_GLUE_COLUMN_TYPE_CHARS;
        if chars <= max {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::InvalidType,
            format!(
                "column `{column}`: its type is {chars} characters long as the Glue Data Catalog \
                 stores it (`struct<name:type,...>`); Glue stores at most {max} per column"
            ),
        )
        .with_hint(
            "split the struct's fields over several columns, shorten the field names, or store \
             the nested value as a JSON string",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_precision_is_limited() {
        let e = IcebergType::decimal(39, 0)
            .check_declarable("amount")
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidType);
        assert!(e.message().contains("decimal(39,0)"));
        assert!(IcebergType::decimal(38, 10).check_declarable("a").is_ok());
        assert!(IcebergType::decimal(5, 6).check_declarable("a").is_err());
    }
}
