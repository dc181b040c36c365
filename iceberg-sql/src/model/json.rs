//! `TableDef` as JSON (feature `serde`): a table's schema kept next to the code.
//!
//! The shape is documented on the `Serialize` impl (visible on `TableDef`).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Column, PartitionField, PartitionTransform, TableDef};
use crate::error::{Error, ErrorKind, Result};
use crate::types::IcebergType;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableJson {
    database: String,
    name: String,
    columns: Vec<ColumnJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    partition: Vec<PartitionJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    location: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    properties: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ColumnJson {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    #[serde(default, skip_serializing_if = "is_false")]
    required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    renamed_from: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PartitionJson {
    source: String,
    transform: String,
}

fn is_false(b: &bool) -> bool {
    !b
}

fn transform_name(t: PartitionTransform) -> String {
    match t {
        PartitionTransform::Bucket(n) => format!("bucket[{n}]"),
        PartitionTransform::Truncate(w) => format!("truncate[{w}]"),
        other => other.name().to_string(),
    }
}

fn parse_transform(text: &str) -> Result<PartitionTransform> {
    let bad = || {
        Error::new(
            ErrorKind::InvalidPartition,
            format!("`{text}` is not a partition transform"),
        )
        .with_hint("use identity, year, month, day, hour, bucket[N] or truncate[W]")
    };
    let arg = |prefix: &str| -> Option<u32> {
        text.strip_prefix(prefix)?
            .strip_suffix(']')?
            .trim()
            .parse()
            .ok()
    };
    Ok(match text {
        "identity" => PartitionTransform::Identity,
        "year" => PartitionTransform::Year,
        "month" => PartitionTransform::Month,
        "day" => PartitionTransform::Day,
        "hour" => PartitionTransform::Hour,
        t if t.starts_with("bucket[") => {
            PartitionTransform::Bucket(arg("bucket[").ok_or_else(bad)?)
        }
        t if t.starts_with("truncate[") => {
            PartitionTransform::Truncate(arg("truncate[").ok_or_else(bad)?)
        }
        _ => return Err(bad()),
    })
}

impl From<&TableDef> for TableJson {
    fn from(def: &TableDef) -> Self {
        TableJson {
            database: def.name().database.clone(),
            name: def.name().table.clone(),
            columns: def
                .columns()
                .iter()
                .map(|c| ColumnJson {
                    name: c.name.clone(),
                    ty: c.ty.iceberg_name(),
                    required: !c.nullable,
                    comment: c.comment.clone(),
                    renamed_from: c.renamed_from.clone(),
                })
                .collect(),
            partition: def
                .partition_spec()
                .iter()
                .map(|p| PartitionJson {
                    source: p.source.clone(),
                    transform: transform_name(p.transform),
                })
                .collect(),
            location: def.location().map(|l| l.as_str().to_string()),
            properties: def
                .properties()
                .iter()
                .map(|p| (p.key().to_string(), p.value()))
                .collect(),
            comment: def.comment().map(str::to_string),
        }
    }
}

impl TableJson {
    fn into_def(self) -> Result<TableDef> {
        let mut b = TableDef::builder(self.database, self.name);
        for c in self.columns {
            let ty: IcebergType = c.ty.parse().map_err(|e: Error| {
                Error::new(e.kind(), format!("column `{}`: {}", c.name, e.message()))
            })?;
            let mut col = Column::new(c.name, ty).nullable(!c.required);
            if let Some(comment) = c.comment {
                col = col.comment(comment);
            }
            if let Some(old) = c.renamed_from {
                col = col.renamed_from(old);
            }
            b = b.column(col);
        }
        for p in self.partition {
            b = b.partition(PartitionField::new(
                p.source,
                parse_transform(&p.transform)?,
            ));
        }
        for (k, v) in self.properties {
            b = b.property_str(k, v);
        }
        if let Some(l) = self.location {
            b = b.location(l);
        }
        if let Some(c) = self.comment {
            b = b.comment(c);
        }
        b.build()
    }
}

/// `TableDef` as JSON (feature `serde`): a table's schema kept next to the code.
///
/// The shape is stable and small; every field is checked again when read (a JSON file
/// cannot produce a definition `TableDef::builder` would refuse):
///
/// ```json
/// {
///   "database": "analytics",
///   "name": "mcp_events",
///   "columns": [
///     {"name": "event_id", "type": "string", "required": true},
///     {"name": "event_ts", "type": "timestamp", "required": true},
///     {"name": "tags", "type": "list<string>"},
///     {"name": "cost", "type": "decimal(10,2)", "comment": "USD", "renamed_from": "price"}
///   ],
///   "partition": [
///     {"source": "event_ts", "transform": "day"},
///     {"source": "event_id", "transform": "bucket[16]"}
///   ],
///   "location": "s3://my-datalake/iceberg/mcp_events/",
///   "properties": {"format": "parquet", "write_compression": "snappy"},
///   "comment": "MCP tool calls"
/// }
/// ```
///
/// * `type`: Iceberg's type names (`boolean int long float double decimal(p,s) date
///   timestamp timestamptz string binary list<T> map<K, V> struct<a: T, ...>`), as
///   [`IcebergType::iceberg_name`] writes them;
/// * `required` (default `false`), `comment` and `renamed_from` are optional;
/// * `transform`: the Iceberg spec's transform names (`identity`, `year`, `month`,
///   `day`, `hour`, `bucket[N]`, `truncate[W]`,
///   <https://iceberg.apache.org/spec/#partition-transforms>);
/// * `partition`, `location`, `properties` (Athena's property names, as in
///   `TBLPROPERTIES`) and `comment` may be left out. Unknown fields are refused.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for TableDef {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        TableJson::from(self).serialize(serializer)
    }
}

/// The JSON shape of the `Serialize` impl; the definition is checked like
/// `TableDef::builder(..).build()`.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for TableDef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        TableJson::deserialize(deserializer)?
            .into_def()
            .map_err(serde::de::Error::custom)
    }
}
