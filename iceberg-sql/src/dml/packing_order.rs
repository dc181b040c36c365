//! The order in which a batched INSERT takes its rows when it groups them by
//! partition: partitions in order of first appearance, rows in input order within
//! each.
//!
//! Rows of a partition can be anywhere in the input, so taking them together without
//! reading the input again needs a record, per row, of where it goes. This one holds
//! each partition's row indices as the gaps between them, in LEB128 (7 bits a byte):
//! one byte a row while a partition's rows are less than 128 rows apart (input sorted
//! or clustered by partition, or fewer than 128 partitions taking turns), two while
//! they are less than 16,384 apart, never more than the four of a plain `u32` index
//! below 2^28 rows. When the rows of `p` partitions take turns, any record of which
//! partition each row is in needs `log2(p)` bits a row; this one takes `log2(p) / 7`
//! bytes rounded up (two for 448 partitions, where the least is 1.1 bytes).

use crate::error::{Error, ErrorKind, Result};

/// Rows grouped by partition (see [`PackingOrder::new`]).
#[derive(Debug, Default)]
pub(super) struct PackingOrder {
    /// Each partition's row indices, ascending, as LEB128 gaps from the partition's
    /// previous row (the first from 0); partitions back to back.
    gaps: Vec<u8>,
    /// Where each partition's gaps end in `gaps`, ascending.
    ends: Vec<usize>,
}

/// Where a reader of a [`PackingOrder`] is.
#[derive(Debug, Default)]
pub(super) struct Cursor {
    partition: usize,
    /// The next byte of `gaps` to read.
    at: usize,
    /// The last row taken from this partition; `None` at its start.
    previous: Option<usize>,
}

impl PackingOrder {
    /// The order of `rows` rows. `partition_of(r)` numbers row `r`'s partition in
    /// order of first appearance. It is asked twice per row: a first pass counts the
    /// bytes each partition's gaps take, a second writes each row's gap into its
    /// partition's place (a stable counting sort). A row is written by one visit only,
    /// so no row can be in two places; a `partition_of` that answers differently the
    /// second time is refused when it would overfill or underfill a partition's bytes,
    /// never read.
    pub(super) fn new(
        rows: usize,
        mut partition_of: impl FnMut(usize) -> Result<u32>,
    ) -> Result<PackingOrder> {
        // Per partition: its bytes (then where its next gap goes) and its last row.
        let mut fill: Vec<(usize, Option<usize>)> = Vec::new();
        for r in 0..rows {
            let p = partition_of(r)? as usize;
            if p == fill.len() {
                fill.push((0, None));
            }
            let (bytes, previous) = &mut fill[p];
            *bytes += encoded_len(r - previous.unwrap_or(0));
            *previous = Some(r);
        }
        let mut ends = Vec::with_capacity(fill.len());
        let mut end = 0;
        for (bytes, previous) in &mut fill {
            let start = end;
            end += *bytes;
            ends.push(end);
            (*bytes, *previous) = (start, None);
        }
        let mut gaps = vec![0u8; end];
        for r in 0..rows {
            let p = partition_of(r)? as usize;
            let Some((next, previous)) = fill.get_mut(p) else {
                return Err(changed(format_args!("row {r}")));
            };
            let gap = r - previous.unwrap_or(0);
            if *next + encoded_len(gap) > ends[p] {
                return Err(changed(format_args!("row {r}")));
            }
            encode(gap, &mut gaps, next);
            *previous = Some(r);
        }
        // A partition left short would read its unwritten bytes as rows.
        if fill.iter().zip(&ends).any(|((next, _), end)| next != end) {
            return Err(changed(format_args!("the rows")));
        }
        Ok(PackingOrder { gaps, ends })
    }

    /// Whether there is no order (no rows, or rows not grouped).
    pub(super) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The heap this order holds, in bytes.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        self.gaps.capacity() + self.ends.capacity() * std::mem::size_of::<usize>()
    }
}

impl Cursor {
    /// The next row of `order` and whether it starts its partition; `None` after the
    /// last.
    pub(super) fn next(&mut self, order: &PackingOrder) -> Option<(usize, bool)> {
        while self.at == *order.ends.get(self.partition)? {
            self.partition += 1;
            self.previous = None;
        }
        let gap = decode(&order.gaps, &mut self.at);
        let starts = self.previous.is_none();
        let row = self.previous.map_or(gap, |p| p + gap);
        self.previous = Some(row);
        Some((row, starts))
    }
}

fn changed(what: std::fmt::Arguments<'_>) -> Error {
    Error::new(
        ErrorKind::InvalidPartition,
        format!("{what}: a partition changed between two calls of `to_values()`"),
    )
    .with_hint("make `IcebergTable::to_values` return the same values on every call")
}

/// Bytes of `v` in LEB128.
fn encoded_len(v: usize) -> usize {
    (usize::BITS - (v | 1).leading_zeros()).div_ceil(7) as usize
}

/// Writes `v` in LEB128 at `*at` (room counted by [`encoded_len`]), moving `*at` past it.
fn encode(mut v: usize, out: &mut [u8], at: &mut usize) {
    while v >= 0x80 {
        out[*at] = (v as u8) | 0x80;
        v >>= 7;
        *at += 1;
    }
    out[*at] = v as u8;
    *at += 1;
}

/// Reads a LEB128 number written by [`encode`] at `*at`, moving `*at` past it.
fn decode(bytes: &[u8], at: &mut usize) -> usize {
    let mut v = 0;
    let mut shift = 0;
    loop {
        let b = bytes[*at];
        *at += 1;
        v |= usize::from(b & 0x7f) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of `order`, with whether it starts its partition.
    fn read(order: &PackingOrder) -> Vec<(usize, bool)> {
        let mut cursor = Cursor::default();
        std::iter::from_fn(|| cursor.next(order)).collect()
    }

    /// The same order by a stable sort on first-appearance partition numbers.
    fn by_sorting(partitions: &[u32]) -> Vec<(usize, bool)> {
        let mut rows: Vec<usize> = (0..partitions.len()).collect();
        rows.sort_by_key(|&r| partitions[r]);
        rows.iter()
            .enumerate()
            .map(|(i, &r)| (r, i == 0 || partitions[rows[i - 1]] != partitions[r]))
            .collect()
    }

    /// A cheap deterministic sequence (xorshift).
    fn numbers(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed | 1;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// First-appearance numbering of `keys`.
    fn numbered(keys: impl IntoIterator<Item = u64>) -> Vec<u32> {
        let mut seen = std::collections::HashMap::new();
        keys.into_iter()
            .map(|k| {
                let n = seen.len() as u32;
                *seen.entry(k).or_insert(n)
            })
            .collect()
    }

    #[test]
    fn leb128_round_trips_at_every_width() {
        for v in [
            0,
            1,
            127,
            128,
            16_383,
            16_384,
            2_097_151,
            2_097_152,
            usize::MAX,
        ] {
            let mut out = vec![0u8; encoded_len(v)];
            let mut at = 0;
            encode(v, &mut out, &mut at);
            assert_eq!(at, out.len(), "{v}");
            let mut at = 0;
            assert_eq!(decode(&out, &mut at), v);
            assert_eq!(at, out.len());
        }
        assert_eq!(
            [0, 127, 128, 16_383, 16_384].map(encoded_len),
            [1, 1, 2, 2, 3]
        );
    }

    #[test]
    fn the_order_is_a_stable_sort_by_partition_for_any_layout() {
        let mut next = numbers(7);
        let layouts: Vec<(&str, Vec<u32>)> = vec![
            ("one row", vec![0]),
            ("one partition", vec![0; 1000]),
            ("sorted", numbered((0..5000).map(|i| i / 700))),
            ("taking turns", numbered((0..5000).map(|i| i % 3))),
            // Gaps across the one-, two- and three-byte widths.
            (
                "far apart",
                numbered((0..40_000).map(|i| u64::from(i % 20_000 == 0))),
            ),
            ("random, few", numbered((0..20_000).map(|_| next() % 5))),
            ("random, many", numbered((0..20_000).map(|_| next() % 3000))),
            ("all different", numbered(0..3000)),
        ];
        for (name, partitions) in layouts {
            let order = PackingOrder::new(partitions.len(), |r| Ok(partitions[r])).unwrap();
            assert_eq!(read(&order), by_sorting(&partitions), "{name}");
        }
    }

    #[test]
    fn the_order_holds_about_one_byte_a_row_when_partitions_are_close() {
        let rows = 100_000;
        let sorted = numbered((0..rows as u64).map(|i| i / 1000));
        let order = PackingOrder::new(rows, |r| Ok(sorted[r])).unwrap();
        assert!(order.heap_bytes() < rows + 1000, "{}", order.heap_bytes());
        // 448 partitions taking turns: gaps of 448, two bytes each.
        let turns = numbered((0..rows as u64).map(|i| i % 448));
        let order = PackingOrder::new(rows, |r| Ok(turns[r])).unwrap();
        assert!(
            order.heap_bytes() <= 2 * rows + 448 * 8,
            "{}",
            order.heap_bytes()
        );
    }

    #[test]
    fn a_partition_that_changes_between_passes_is_refused_not_read() {
        // Row 2 moves from partition 0 to 1 on the second call: partition 1 overfills.
        let mut calls = 0;
        let err = PackingOrder::new(3, |r| {
            calls += 1;
            Ok(if r == 2 && calls > 3 {
                1
            } else {
                u32::from(r == 1)
            })
        })
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidPartition);
        assert!(err.message().starts_with("row 2:"), "{err}");
        // A new partition the first pass never saw.
        let mut calls = 0;
        let err = PackingOrder::new(2, |_| {
            calls += 1;
            Ok(u32::from(calls > 2))
        })
        .unwrap_err();
        assert!(err.message().starts_with("row 0:"), "{err}");
        // Row 100 joins partition 0 on the second call: partition 0's bytes still
        // match (gaps 0, 100, 100 instead of 0, 200) and partition 1 is left short.
        let mut calls = 0;
        let err = PackingOrder::new(201, |r| {
            calls += 1;
            let second = calls > 201;
            Ok(match r {
                0 | 200 => 0,
                100 if second => 0,
                _ => 1,
            })
        })
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidPartition);
        assert!(err.message().starts_with("the rows:"), "{err}");
    }
}
