//! Words Athena's DML grammar (Trino's) reserves: an identifier spelled like one must be
//! double-quoted in SELECT, INSERT, UPDATE, DELETE, MERGE, CTAS and UNLOAD.
//!
//! Three readings exist and none is complete, so a word is treated as reserved when any
//! of them reserves it ([`is_reserved_in_dml`]):
//!
//! * Trino release 417's grammar (`core/trino-parser/src/main/antlr4/io/trino/sql/parser/SqlBase.g4`):
//!   every keyword token not listed in its `nonReserved` rule, plus `SKIP`, which the
//!   grammar uses as a literal token only (`docs/src/main/sphinx/language/reserved.rst`
//!   of the same release lists exactly these 81).
//! * Trino's current reserved list (`docs/src/main/sphinx/language/reserved.md`, master):
//!   adds `AUTO`, `JSON_TABLE` and `PRIMARY`, no longer reserves `EXECUTE`.
//! * AWS's published list for SELECT statements
//!   (<https://docs.aws.amazon.com/athena/latest/ug/reserved-words.html>): adds `FIRST`,
//!   `LAST`, `OF` and `JSON_TABLE`, and lacks `CURRENT_ROLE`, which Trino reserves (an
//!   unquoted `current_role` column fails to parse there).

/// Reserved words of Trino release 417's SQL grammar, lower case, sorted.
#[rustfmt::skip]
pub(crate) const TRINO_417_RESERVED: &[&str] = &[
    "alter", "and", "as", "between", "by", "case", "cast", "constraint", "create", "cross",
    "cube", "current_catalog", "current_date", "current_path", "current_role",
    "current_schema", "current_time", "current_timestamp", "current_user", "deallocate",
    "delete", "describe", "distinct", "drop", "else", "end", "escape", "except", "execute",
    "exists", "extract", "false", "for", "from", "full", "group", "grouping", "having", "in",
    "inner", "insert", "intersect", "into", "is", "join", "json_array", "json_exists",
    "json_object", "json_query", "json_value", "left", "like", "listagg", "localtime",
    "localtimestamp", "natural", "normalize", "not", "null", "on", "or", "order", "outer",
    "prepare", "recursive", "right", "rollup", "select", "skip", "table", "then", "trim",
    "true", "uescape", "union", "unnest", "using", "values", "when", "where", "with",
];

/// Words Trino reserves after release 417 (current master's reserved list).
pub(crate) const TRINO_LATER_RESERVED: &[&str] = &["auto", "json_table", "primary"];

/// Words reserved in release 417 that current master no longer reserves.
pub(crate) const TRINO_LATER_UNRESERVED: &[&str] = &["execute"];

/// AWS's list of reserved keywords in SQL SELECT statements, lower case, sorted.
#[rustfmt::skip]
pub(crate) const AWS_DML_RESERVED: &[&str] = &[
    "alter", "and", "as", "between", "by", "case", "cast", "constraint", "create", "cross",
    "cube", "current_catalog", "current_date", "current_path", "current_schema",
    "current_time", "current_timestamp", "current_user", "deallocate", "delete", "describe",
    "distinct", "drop", "else", "end", "escape", "except", "execute", "exists", "extract",
    "false", "first", "for", "from", "full", "group", "grouping", "having", "in", "inner",
    "insert", "intersect", "into", "is", "join", "json_array", "json_exists", "json_object",
    "json_query", "json_table", "json_value", "last", "left", "like", "listagg", "localtime",
    "localtimestamp", "natural", "normalize", "not", "null", "of", "on", "or", "order",
    "outer", "prepare", "recursive", "right", "rollup", "select", "skip", "table", "then",
    "trim", "true", "uescape", "union", "unnest", "using", "values", "when", "where", "with",
];

/// For each first letter `a` to `z`, bit `n` is set when a word of the three lists
/// starts with it and is `n` bytes long (every word is lowercase ASCII, shorter than 32
/// bytes: a longer one fails the build here).
const DML_RESERVED_SHAPES: [u32; 26] = {
    let mut shapes = [0u32; 26];
    let lists: [&[&str]; 3] = [TRINO_417_RESERVED, TRINO_LATER_RESERVED, AWS_DML_RESERVED];
    let mut l = 0;
    while l < lists.len() {
        let mut i = 0;
        while i < lists[l].len() {
            let w = lists[l][i].as_bytes();
            shapes[(w[0] - b'a') as usize] |= 1 << w.len();
            i += 1;
        }
        l += 1;
    }
    shapes
};

/// FNV-1a of a word's bytes (computed at build time for the lists, at run time for a name).
const fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h = 0x811c_9dc5u32;
    let mut i = 0;
    while i < bytes.len() {
        h = (h ^ bytes[i] as u32).wrapping_mul(0x0100_0193);
        i += 1;
    }
    h
}

/// A 1,024-bit filter of the three lists' words by [`fnv1a`]: a name whose bit is clear
/// is no reserved word; one whose bit is set is searched for.
const DML_RESERVED_HASHES: [u64; 16] = {
    let mut bits = [0u64; 16];
    let lists: [&[&str]; 3] = [TRINO_417_RESERVED, TRINO_LATER_RESERVED, AWS_DML_RESERVED];
    let mut l = 0;
    while l < lists.len() {
        let mut i = 0;
        while i < lists[l].len() {
            let h = fnv1a(lists[l][i].as_bytes()) as usize % 1024;
            bits[h / 64] |= 1 << (h % 64);
            i += 1;
        }
        l += 1;
    }
    bits
};

/// True when `word` (any case) must be double-quoted as an identifier in Athena DML on
/// at least one reading (Trino 417, current Trino, AWS's list).
pub(crate) fn is_reserved_in_dml(word: &str) -> bool {
    // Most names share no (first letter, length) with any reserved word: settled
    // without a search (the validator asks for every unquoted name of every statement).
    let first = word.as_bytes().first().map_or(0, u8::to_ascii_lowercase);
    let shape = match first {
        b'a'..=b'z' if word.len() < 32 => 1u32 << word.len(),
        _ => return false,
    };
    if DML_RESERVED_SHAPES[usize::from(first - b'a')] & shape == 0 {
        return false;
    }
    // Lowercased on the stack: the validator asks for every unquoted name of every
    // statement. A word longer than the buffer, or not ASCII, is no reserved word.
    let mut buf = [0u8; 24];
    let Some(lower) = buf.get_mut(..word.len()) else {
        return false;
    };
    lower.copy_from_slice(word.as_bytes());
    lower.make_ascii_lowercase();
    let hash = fnv1a(lower) as usize % 1024;
    if DML_RESERVED_HASHES[hash / 64] & (1 << (hash % 64)) == 0 {
        return false;
    }
    let Ok(w) = std::str::from_utf8(lower) else {
        return false;
    };
    TRINO_417_RESERVED.binary_search(&w).is_ok()
        || TRINO_LATER_RESERVED.contains(&w)
        || AWS_DML_RESERVED.binary_search(&w).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The stack buffer of `is_reserved_in_dml` holds every reserved word, in any case.
    #[test]
    fn every_reserved_word_is_found_in_any_case() {
        for w in TRINO_417_RESERVED
            .iter()
            .chain(TRINO_LATER_RESERVED)
            .chain(AWS_DML_RESERVED)
        {
            assert!(is_reserved_in_dml(w), "{w}");
            assert!(is_reserved_in_dml(&w.to_ascii_uppercase()), "{w}");
        }
        assert!(!is_reserved_in_dml("event_id"));
        assert!(!is_reserved_in_dml("sélect"));
        assert!(!is_reserved_in_dml(&"select".repeat(10)));
    }

    fn set(words: &[&'static str]) -> BTreeSet<&'static str> {
        words.iter().copied().collect()
    }

    #[test]
    fn lists_are_sorted_lower_case_and_unique() {
        for list in [TRINO_417_RESERVED, AWS_DML_RESERVED] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            assert!(list
                .iter()
                .all(|w| w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
        }
        assert_eq!(TRINO_417_RESERVED.len(), 81);
        assert_eq!(AWS_DML_RESERVED.len(), 84);
    }

    /// Where AWS's published list and Trino's grammar disagree.
    #[test]
    fn aws_list_differs_from_trino_417() {
        let trino = set(TRINO_417_RESERVED);
        let aws = set(AWS_DML_RESERVED);
        assert_eq!(
            aws.difference(&trino).copied().collect::<Vec<_>>(),
            ["first", "json_table", "last", "of"]
        );
        assert_eq!(
            trino.difference(&aws).copied().collect::<Vec<_>>(),
            ["current_role"]
        );
        for w in TRINO_LATER_RESERVED {
            assert!(!trino.contains(w), "{w}");
        }
        for w in TRINO_LATER_UNRESERVED {
            assert!(trino.contains(w), "{w}");
        }
    }

    /// Every word the renderer quotes in DML (`TRINO_DML_RESERVED`) is reserved on some
    /// reading: quoting never hides a typo in the list.
    #[test]
    fn quoted_words_are_reserved_somewhere() {
        for w in crate::dialect::grammar::TRINO_DML_RESERVED {
            assert!(is_reserved_in_dml(w), "{w}");
        }
    }

    #[test]
    fn any_reading_reserves() {
        for w in [
            "current_role",
            "CURRENT_ROLE",
            "first",
            "skip",
            "auto",
            "primary",
            "table",
        ] {
            assert!(is_reserved_in_dml(w), "{w}");
        }
        // Non-reserved in every reading: Trino's grammar parses them unquoted.
        for w in [
            "limit",
            "interval",
            "all",
            "date",
            "timestamp",
            "user",
            "partition",
            "row",
            "map",
        ] {
            assert!(!is_reserved_in_dml(w), "{w}");
        }
    }
}
