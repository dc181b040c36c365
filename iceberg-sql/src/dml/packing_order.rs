//! The order in which a batched INSERT takes its rows when it groups them by
//! partition: partitions in order of first appearance, rows in input order within
//! each.
//!
//! Rows of a partition can be anywhere in the input, so taking them together without
//! reading the input again needs a record, per row, of where it goes. This one holds
//! each partition's rows as stretches of consecutive rows, each written as the gap
//! from the partition's previous row to the stretch's first and, when it has more than
//! one row, its length, in LEB128 (7 bits a byte). Input sorted by partition is one
//! stretch per partition, nothing per row; rows of partitions taking turns are a
//! stretch each, one byte while a partition's rows are less than 64 rows apart, two
//! while less than 8,192 apart, never more than the four of a plain `u32` index below
//! 2^27 rows. When the rows of `p` partitions take turns, any record of which
//! partition each row is in needs `log2(p)` bits a row; this one takes
//! `(log2(p) + 1) / 7` bytes rounded up (two for 448 partitions, where the least is
//! 1.1 bytes).

use crate::error::{Error, ErrorKind, Result};

/// Rows grouped by partition (see [`PackingOrder::new`]).
#[derive(Debug, Default)]
pub(super) struct PackingOrder {
    /// Each partition's stretches ([`Stretch`]), in row order; partitions back to back.
    stretches: Vec<u8>,
    /// Where each partition's stretches end in `stretches`, ascending.
    ends: Vec<usize>,
}

/// Consecutive rows of one partition: `gap` from the partition's previous row (from 0
/// for its first) to the first of them, and how many.
#[derive(Debug, Clone, Copy, Default)]
struct Stretch {
    gap: usize,
    len: usize,
}

impl Stretch {
    /// The first number written: the gap, and in its lowest bit whether a length
    /// follows.
    fn head(self) -> usize {
        self.gap << 1 | usize::from(self.len > 1)
    }

    fn encoded_len(self) -> usize {
        encoded_len(self.head())
            + if self.len > 1 {
                encoded_len(self.len - 1)
            } else {
                0
            }
    }

    fn encode(self, out: &mut [u8], at: &mut usize) {
        encode(self.head(), out, at);
        if self.len > 1 {
            encode(self.len - 1, out, at);
        }
    }
}

/// One partition's rows while the order is built.
#[derive(Debug, Default)]
struct Partition {
    /// Its bytes (first pass), then where its next byte goes (second pass).
    bytes: usize,
    /// Its last row so far.
    last: Option<usize>,
    /// The stretch that ends at `last`, not yet written (`len` 0: none).
    open: Stretch,
}

impl Partition {
    /// Row `r`, after every row taken before, joins the partition; the stretch it
    /// closes, if any.
    fn take(&mut self, r: usize) -> Option<Stretch> {
        if self.last.is_some_and(|last| last + 1 == r) {
            self.open.len += 1;
            self.last = Some(r);
            return None;
        }
        let closed = self.close();
        self.open = Stretch {
            gap: r - self.last.unwrap_or(0),
            len: 1,
        };
        self.last = Some(r);
        closed
    }

    /// The open stretch, if any, now closed.
    fn close(&mut self) -> Option<Stretch> {
        let open = std::mem::take(&mut self.open);
        (open.len > 0).then_some(open)
    }

    /// Writes `stretch` at the partition's next byte of `out`; false, writing
    /// nothing, when it would pass `end`, where the next partition's bytes start.
    fn write(&mut self, stretch: Stretch, out: &mut [u8], end: usize) -> bool {
        if self.bytes + stretch.encoded_len() > end {
            return false;
        }
        stretch.encode(out, &mut self.bytes);
        true
    }
}

impl PackingOrder {
    /// The order of `rows` rows. `partition_of(r)` numbers row `r`'s partition in
    /// order of first appearance. It is asked twice per row: a first pass counts the
    /// bytes each partition's stretches take, a second writes them into the
    /// partition's place (a stable counting sort). A row is taken by one visit only,
    /// so no row can be in two places; a `partition_of` that answers differently the
    /// second time is refused when it would overfill or underfill a partition's bytes,
    /// never read.
    pub(super) fn new(
        rows: usize,
        mut partition_of: impl FnMut(usize) -> Result<u32>,
    ) -> Result<PackingOrder> {
        let mut partitions: Vec<Partition> = Vec::new();
        for r in 0..rows {
            let p = partition_of(r)? as usize;
            if p == partitions.len() {
                partitions.push(Partition::default());
            }
            let partition = &mut partitions[p];
            if let Some(closed) = partition.take(r) {
                partition.bytes += closed.encoded_len();
            }
        }
        let mut ends = Vec::with_capacity(partitions.len());
        let mut end = 0;
        for partition in &mut partitions {
            if let Some(closed) = partition.close() {
                partition.bytes += closed.encoded_len();
            }
            let start = end;
            end += partition.bytes;
            ends.push(end);
            *partition = Partition {
                bytes: start,
                ..Partition::default()
            };
        }
        let mut stretches = vec![0u8; end];
        for r in 0..rows {
            let p = partition_of(r)? as usize;
            let Some(partition) = partitions.get_mut(p) else {
                return Err(changed(format_args!("row {r}")));
            };
            if let Some(closed) = partition.take(r) {
                if !partition.write(closed, &mut stretches, ends[p]) {
                    return Err(changed(format_args!("row {r}")));
                }
            }
        }
        for (partition, &end) in partitions.iter_mut().zip(&ends) {
            let fits = match partition.close() {
                Some(closed) => partition.write(closed, &mut stretches, end),
                None => true,
            };
            // A partition left short would read its unwritten bytes as rows.
            if !fits || partition.bytes != end {
                return Err(changed(format_args!("the rows")));
            }
        }
        Ok(PackingOrder { stretches, ends })
    }

    /// Whether there is no order (no rows, or rows not grouped).
    pub(super) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The heap this order holds, in bytes.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        self.stretches.capacity() + self.ends.capacity() * std::mem::size_of::<usize>()
    }
}

/// Where a reader of a [`PackingOrder`] is.
#[derive(Debug, Default)]
pub(super) struct Cursor {
    partition: usize,
    /// The next byte of `stretches` to read.
    at: usize,
    /// The last row taken from this partition; `None` at its start.
    previous: Option<usize>,
    /// Rows of the current stretch still to take after `previous`.
    left: usize,
}

impl Cursor {
    /// The next row of `order` and whether it starts its partition; `None` after the
    /// last.
    pub(super) fn next(&mut self, order: &PackingOrder) -> Option<(usize, bool)> {
        if let (Some(previous), 1..) = (self.previous, self.left) {
            self.left -= 1;
            self.previous = Some(previous + 1);
            return Some((previous + 1, false));
        }
        while self.at == *order.ends.get(self.partition)? {
            self.partition += 1;
            self.previous = None;
        }
        let head = decode(&order.stretches, &mut self.at);
        if head & 1 == 1 {
            self.left = decode(&order.stretches, &mut self.at);
        }
        let starts = self.previous.is_none();
        let row = self.previous.unwrap_or(0) + (head >> 1);
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
    fn sorted_input_holds_nothing_per_row_and_taking_turns_two_bytes() {
        let rows = 100_000;
        // 100 partitions of 1,000 rows each, one after the other: one stretch each.
        let sorted = numbered((0..rows as u64).map(|i| i / 1000));
        let order = PackingOrder::new(rows, |r| Ok(sorted[r])).unwrap();
        assert!(
            order.heap_bytes() <= 100 * (5 + 8),
            "{}",
            order.heap_bytes()
        );
        // 448 partitions taking turns: gaps of 448, two bytes each.
        let turns = numbered((0..rows as u64).map(|i| i % 448));
        let order = PackingOrder::new(rows, |r| Ok(turns[r])).unwrap();
        assert!(
            order.heap_bytes() <= 2 * rows + 448 * 8,
            "{}",
            order.heap_bytes()
        );
    }

    /// The error of an order whose rows are in `first` partitions on the first call
    /// and in `second` on the second.
    fn refused(first: &[u32], second: &[u32]) -> Error {
        let mut calls = 0;
        PackingOrder::new(first.len(), |r| {
            calls += 1;
            Ok(if calls > first.len() {
                second[r]
            } else {
                first[r]
            })
        })
        .unwrap_err()
    }

    #[test]
    fn a_partition_that_changes_between_passes_is_refused_not_read() {
        // A partition the first pass never saw.
        let err = refused(&[0, 0], &[1, 1]);
        assert_eq!(err.kind(), ErrorKind::InvalidPartition);
        assert!(err.message().starts_with("row 0:"), "{err}");
        // Rows 0 and 1 were partition 0 (one stretch, 2 bytes); the second time
        // partition 0 is rows 0, 150 and 200, and row 200 closes a stretch that needs
        // more bytes than are left.
        let first: Vec<u32> = (0..201).map(|r| u32::from(r > 1)).collect();
        let second: Vec<u32> = (0..201)
            .map(|r| u32::from(!matches!(r, 0 | 150 | 200)))
            .collect();
        let err = refused(&first, &second);
        assert!(err.message().starts_with("row 200:"), "{err}");
        // Row 200 moves from partition 0 (rows 0 and 200, 3 bytes) to the end of
        // partition 1's stretch (rows 1 to 199 then 1 to 200, 3 bytes either way):
        // partition 0 is left short.
        let first: Vec<u32> = (0..201).map(|r| u32::from(r % 200 != 0)).collect();
        let second: Vec<u32> = (0..201).map(|r| u32::from(r != 0)).collect();
        let err = refused(&first, &second);
        assert!(err.message().starts_with("the rows:"), "{err}");
        // Rows 0 and 1 swap partitions: each still in exactly one place.
        let mut calls = 0;
        let order = PackingOrder::new(2, |r| {
            calls += 1;
            Ok(u32::from((r == 1) == (calls <= 2)))
        })
        .unwrap();
        assert_eq!(read(&order), [(1, true), (0, true)]);
    }
}
