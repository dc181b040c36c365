//! Partition keys of rows, computed from the table's partition spec the way Iceberg
//! does (spec "Partition Transforms" and Appendix B "32-bit Hash Requirements"), so that
//! INSERT batches can be kept within Athena's 100-partitions-per-statement limit.

use chrono::{Datelike, NaiveDate};

use crate::error::{Error, ErrorKind, Result};
use crate::model::{PartitionTransform, TableDef};
use crate::value::Value;

/// One field of a partition key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum KeyPart {
    /// The source value was NULL.
    Null,
    /// An integer result (identity of int/long/date/timestamp, year/month/day/hour,
    /// bucket number, truncated int/long).
    Int(i64),
    /// A string result (identity or truncate of a string).
    Text(String),
    /// A binary result (identity or truncate of binary).
    Bytes(Vec<u8>),
    /// Anything else, by an exact canonical spelling (floats by bits, decimals by
    /// unscaled value and scale).
    Other(String),
}

/// A row's partition key: one part per partition field, in spec order.
pub type PartitionKey = Vec<KeyPart>;

/// Partition keys to `V`. The standard hasher (SipHash, randomly keyed): keys come from
/// the caller's rows, which may hold anyone's data, and a predictable hash would let
/// crafted values collide and make grouping quadratic; it costs a few milliseconds per
/// 100,000 rows.
pub(crate) type KeyMap<V> = std::collections::HashMap<PartitionKey, V>;

/// Iceberg's 32-bit hash: Murmur3 x86 32-bit with seed 0.
pub fn murmur3_32(data: &[u8]) -> i32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h: u32 = 0;
    let mut chunks = data.chunks_exact(4);
    for c in &mut chunks {
        let mut k = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let rem = chunks.remainder();
    if !rem.is_empty() {
        let mut k: u32 = 0;
        for (i, b) in rem.iter().enumerate() {
            k ^= u32::from(*b) << (8 * i);
        }
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
    }
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h as i32
}

/// Minimal two's-complement big-endian bytes of `v` (Java's `BigInteger.toByteArray`).
fn min_be_bytes(v: i128) -> Vec<u8> {
    let bytes = v.to_be_bytes();
    let mut start = 0;
    while start < bytes.len() - 1 {
        let b = bytes[start];
        let next_sign = bytes[start + 1] & 0x80;
        if (b == 0x00 && next_sign == 0) || (b == 0xff && next_sign != 0) {
            start += 1;
        } else {
            break;
        }
    }
    bytes[start..].to_vec()
}

fn epoch() -> NaiveDate {
    NaiveDate::from_ymd_opt(1970, 1, 1).expect("valid date")
}

fn days(d: &NaiveDate) -> i64 {
    (*d - epoch()).num_days()
}

/// The Iceberg bucket hash of a value (spec Appendix B), or `None` for NULL or a type
/// bucket() does not take.
pub fn iceberg_hash(value: &Value) -> Option<i32> {
    let long = |v: i64| murmur3_32(&v.to_le_bytes());
    Some(match value {
        Value::Int(i) => long(i64::from(*i)),
        Value::Long(i) => long(*i),
        Value::Date(d) => long(days(d)),
        Value::Timestamp(ts) => long(ts.and_utc().timestamp_micros()),
        Value::TimestampTz(ts) => long(ts.timestamp_micros()),
        Value::String(s) => murmur3_32(s.as_bytes()),
        Value::Binary(b) => murmur3_32(b),
        Value::Decimal(d) => murmur3_32(&min_be_bytes(d.unscaled())),
        _ => return None,
    })
}

fn unsupported(t: PartitionTransform, v: &Value) -> Error {
    Error::new(
        ErrorKind::InvalidPartition,
        format!(
            "cannot compute the {}() partition of a {} value",
            t.name(),
            v.kind_name()
        ),
    )
}

/// Applies one partition transform to one value.
pub fn transform(t: PartitionTransform, v: &Value) -> Result<KeyPart> {
    use PartitionTransform as P;
    if matches!(v, Value::Null) {
        return Ok(KeyPart::Null);
    }
    // (year, month0, days, micros) of a date/time value.
    let time = |v: &Value| -> Option<(i64, i64, i64, Option<i64>)> {
        match v {
            Value::Date(d) => Some((i64::from(d.year()), i64::from(d.month0()), days(d), None)),
            Value::Timestamp(ts) => Some((
                i64::from(ts.year()),
                i64::from(ts.month0()),
                days(&ts.date()),
                Some(ts.and_utc().timestamp_micros()),
            )),
            Value::TimestampTz(ts) => {
                let n = ts.naive_utc();
                Some((
                    i64::from(n.year()),
                    i64::from(n.month0()),
                    days(&n.date()),
                    Some(ts.timestamp_micros()),
                ))
            }
            _ => None,
        }
    };
    Ok(match t {
        P::Identity => match v {
            Value::Boolean(b) => KeyPart::Int(i64::from(*b)),
            Value::Int(i) => KeyPart::Int(i64::from(*i)),
            Value::Long(i) => KeyPart::Int(*i),
            Value::Date(d) => KeyPart::Int(days(d)),
            Value::Timestamp(ts) => KeyPart::Int(ts.and_utc().timestamp_micros()),
            Value::TimestampTz(ts) => KeyPart::Int(ts.timestamp_micros()),
            Value::String(s) => KeyPart::Text(s.clone()),
            Value::Binary(b) => KeyPart::Bytes(b.clone()),
            Value::Float(f) => KeyPart::Other(format!("f{}", f.to_bits())),
            Value::Double(f) => KeyPart::Other(format!("d{}", f.to_bits())),
            Value::Decimal(d) => KeyPart::Other(format!("{}e-{}", d.unscaled(), d.scale())),
            _ => return Err(unsupported(t, v)),
        },
        P::Year => match time(v) {
            Some((y, ..)) => KeyPart::Int(y - 1970),
            None => return Err(unsupported(t, v)),
        },
        P::Month => match time(v) {
            Some((y, m, ..)) => KeyPart::Int((y - 1970) * 12 + m),
            None => return Err(unsupported(t, v)),
        },
        // Only the day count (the general `time` above also finds year and micros).
        P::Day => match v {
            Value::Date(d) => KeyPart::Int(days(d)),
            Value::Timestamp(ts) => KeyPart::Int(days(&ts.date())),
            Value::TimestampTz(ts) => KeyPart::Int(days(&ts.naive_utc().date())),
            _ => return Err(unsupported(t, v)),
        },
        P::Hour => match time(v) {
            Some((_, _, _, Some(us))) => KeyPart::Int(us.div_euclid(3_600_000_000)),
            _ => return Err(unsupported(t, v)),
        },
        P::Bucket(n) => match iceberg_hash(v) {
            Some(h) if n > 0 => KeyPart::Int(i64::from((h & i32::MAX) % n as i32)),
            _ => return Err(unsupported(t, v)),
        },
        P::Truncate(w) => {
            let w64 = i64::from(w);
            match v {
                Value::Int(i) => KeyPart::Int(i64::from(*i) - i64::from(*i).rem_euclid(w64)),
                Value::Long(i) => KeyPart::Int(i - i.rem_euclid(w64)),
                Value::String(s) => KeyPart::Text(s.chars().take(w as usize).collect()),
                Value::Binary(b) => KeyPart::Bytes(b.iter().take(w as usize).copied().collect()),
                Value::Decimal(d) => {
                    let u = d.unscaled();
                    let t = u - u.rem_euclid(i128::from(w));
                    KeyPart::Other(format!("{t}e-{}", d.scale()))
                }
                _ => return Err(unsupported(t, v)),
            }
        }
    })
}

/// Computes partition keys for rows of one table: the source column of every
/// partition field is looked up once.
pub struct KeyMaker {
    fields: Vec<(usize, PartitionTransform)>,
}

impl KeyMaker {
    /// For `def`'s partition spec (errors when a field names no column).
    pub fn new(def: &TableDef) -> Result<KeyMaker> {
        let mut fields = Vec::with_capacity(def.partition_spec().len());
        for p in def.partition_spec() {
            let Some(i) = def.columns().iter().position(|c| c.name == p.source) else {
                return Err(Error::new(
                    ErrorKind::InvalidPartition,
                    format!("partition `{p}` names no column of table `{}`", def.name()),
                ));
            };
            fields.push((i, p.transform));
        }
        Ok(KeyMaker { fields })
    }

    /// True when the table is unpartitioned (every row has the same, empty key).
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The key of a row given its values in column order.
    // Used by the tests and benchmarks; the batcher reuses one key (`key_into`).
    #[cfg_attr(not(feature = "bench-hooks"), allow(dead_code))]
    pub fn key(&self, values: &[Value]) -> Result<PartitionKey> {
        let mut key = Vec::with_capacity(self.fields.len());
        self.key_into(values, &mut key)?;
        Ok(key)
    }

    /// As [`KeyMaker::key`], into `key` (cleared first), so that one buffer serves
    /// every row.
    pub fn key_into(&self, values: &[Value], key: &mut PartitionKey) -> Result<()> {
        key.clear();
        for (i, t) in &self.fields {
            key.push(transform(*t, values.get(*i).unwrap_or(&Value::Null))?);
        }
        Ok(())
    }
}

/// The distinct partitions that rows of one table fall into, by Iceberg's partition
/// transforms: what decides whether one `INSERT` stays within Athena's limit of
/// partitions per statement ([`ATHENA_MAX_PARTITIONS`](crate::dml::ATHENA_MAX_PARTITIONS)).
///
/// ```
/// use iceberg_sql::dml::PartitionCounter;
/// use iceberg_sql::prelude::*;
///
/// let def = TableDef::builder("analytics", "events")
///     .column(Column::new("id", IcebergType::Long))
///     .column(Column::new("kind", IcebergType::String))
///     .partition(PartitionField::identity("kind"))
///     .build()?;
/// let mut partitions = PartitionCounter::new(&def)?;
/// for kind in ["a", "b", "a"] {
///     partitions.add(&[Value::Long(1), Value::String(kind.into())])?;
/// }
/// assert_eq!(partitions.count(), 2);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub struct PartitionCounter {
    maker: KeyMaker,
    seen: std::collections::HashSet<PartitionKey>,
    key: PartitionKey,
}

impl PartitionCounter {
    /// For `def`'s partition spec (errors when a field names no column).
    pub fn new(def: &TableDef) -> Result<PartitionCounter> {
        Ok(PartitionCounter {
            maker: KeyMaker::new(def)?,
            seen: std::collections::HashSet::new(),
            key: PartitionKey::new(),
        })
    }

    /// True when the table is unpartitioned (every row is in its one partition).
    pub fn is_unpartitioned(&self) -> bool {
        self.maker.is_empty()
    }

    /// Counts the partition of a row given its values in column order; returns the
    /// distinct partitions seen so far.
    pub fn add(&mut self, values: &[Value]) -> Result<usize> {
        self.maker.key_into(values, &mut self.key)?;
        if !self.seen.contains(&self.key) {
            self.seen.insert(self.key.clone());
        }
        Ok(self.seen.len())
    }

    /// The distinct partitions seen so far.
    pub fn count(&self) -> usize {
        self.seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Decimal;
    use chrono::NaiveDate;

    #[test]
    fn hash_matches_the_iceberg_spec_vectors() {
        // Iceberg spec, Appendix B.
        assert_eq!(iceberg_hash(&Value::Int(34)), Some(2017239379));
        assert_eq!(iceberg_hash(&Value::Long(34)), Some(2017239379));
        assert_eq!(
            iceberg_hash(&Value::Decimal(Decimal::parse("14.20").unwrap())),
            Some(-500754589)
        );
        let d = NaiveDate::from_ymd_opt(2017, 11, 16).unwrap();
        assert_eq!(iceberg_hash(&Value::Date(d)), Some(-653330422));
        let ts = d.and_hms_opt(22, 31, 8).unwrap();
        assert_eq!(iceberg_hash(&Value::Timestamp(ts)), Some(-2047944441));
        assert_eq!(
            iceberg_hash(&Value::String("iceberg".into())),
            Some(1210000089)
        );
        assert_eq!(
            iceberg_hash(&Value::Binary(vec![0, 1, 2, 3])),
            Some(-188683207)
        );
    }

    #[test]
    fn transforms() {
        use PartitionTransform as P;
        let ts = NaiveDate::from_ymd_opt(2026, 10, 1)
            .unwrap()
            .and_hms_opt(12, 0, 0)
            .unwrap();
        let v = Value::Timestamp(ts);
        assert_eq!(transform(P::Year, &v).unwrap(), KeyPart::Int(56));
        assert_eq!(transform(P::Month, &v).unwrap(), KeyPart::Int(56 * 12 + 9));
        assert_eq!(
            transform(P::Day, &v).unwrap(),
            KeyPart::Int(days(&ts.date()))
        );
        assert_eq!(
            transform(P::Hour, &v).unwrap(),
            KeyPart::Int(days(&ts.date()) * 24 + 12)
        );
        let before = Value::Timestamp(
            NaiveDate::from_ymd_opt(1969, 12, 31)
                .unwrap()
                .and_hms_opt(23, 0, 0)
                .unwrap(),
        );
        assert_eq!(transform(P::Hour, &before).unwrap(), KeyPart::Int(-1));
        assert_eq!(transform(P::Day, &before).unwrap(), KeyPart::Int(-1));
        assert_eq!(
            transform(P::Truncate(10), &Value::Int(-1)).unwrap(),
            KeyPart::Int(-10)
        );
        assert_eq!(
            transform(P::Truncate(3), &Value::String("héllo".into())).unwrap(),
            KeyPart::Text("hél".into())
        );
        assert_eq!(
            transform(P::Bucket(16), &Value::Null).unwrap(),
            KeyPart::Null
        );
        // Iceberg's bucket(16, 34) = (2017239379 & MAX) % 16
        assert_eq!(
            transform(P::Bucket(16), &Value::Long(34)).unwrap(),
            KeyPart::Int(2017239379 % 16)
        );
        assert!(transform(P::Day, &Value::Long(3)).is_err());
    }
}
