//! Reserved words of the grammars: a name that is one of these must be quoted.
//!
//! Every name a statement writes is looked up, so each list is written once, as a
//! macro argument that makes both the public list and a [`WordSet`] over it: tables
//! built at compile time reject a name no word of its length and first letter could
//! be, and otherwise point at the words sharing its first letter, compared by length
//! first (tens of instructions, where a `match` on strings compares against every
//! word in turn).

/// A sorted list of lower-case words, with where each first letter's words start.
pub(crate) struct WordSet {
    words: &'static [&'static str],
    /// `starts[i]..starts[i + 1]`: the words starting with letter `b'a' + i`.
    starts: [u16; 27],
    /// Bit `i` of `first_letters[n]`: some word of `n` bytes starts with `b'a' + i`.
    /// Most names are not reserved, and most are rejected by this one test.
    first_letters: [u32; MAX_LEN + 1],
}

/// The longest word a [`WordSet`] holds.
const MAX_LEN: usize = 32;

impl WordSet {
    /// Indexes `words`; refuses to compile unless they are sorted, unique and made of
    /// `[a-z_]` starting with a letter.
    pub(crate) const fn new(words: &'static [&'static str]) -> WordSet {
        let mut starts = [0u16; 27];
        let mut first_letters = [0u32; MAX_LEN + 1];
        let mut i = 0;
        while i < words.len() {
            let w = words[i].as_bytes();
            assert!(
                !w.is_empty() && w[0].is_ascii_lowercase(),
                "word must start a-z"
            );
            assert!(w.len() <= MAX_LEN, "word too long");
            first_letters[w.len()] |= 1 << (w[0] - b'a');
            let mut j = 0;
            while j < w.len() {
                assert!(
                    w[j].is_ascii_lowercase() || w[j] == b'_',
                    "word must be [a-z_]"
                );
                j += 1;
            }
            if i > 0 {
                assert!(
                    less(words[i - 1].as_bytes(), w),
                    "words must be sorted, unique"
                );
            }
            i += 1;
        }
        // starts[l] = number of words whose first letter is before `b'a' + l`.
        let mut l = 0;
        while l < 27 {
            let mut n = 0;
            while n < words.len() && (words[n].as_bytes()[0] - b'a') < l as u8 {
                n += 1;
            }
            starts[l] = n as u16;
            l += 1;
        }
        WordSet {
            words,
            starts,
            first_letters,
        }
    }

    /// Whether `word` is one of the words (an exact, case-sensitive match).
    #[inline]
    pub(crate) fn contains(&self, word: &str) -> bool {
        let Some(&first) = word.as_bytes().first() else {
            return false;
        };
        if !self.may_hold(first, word.len()) {
            return false;
        }
        let letter = usize::from(first - b'a');
        let same_letter =
            &self.words[usize::from(self.starts[letter])..usize::from(self.starts[letter + 1])];
        same_letter
            .iter()
            .any(|w| w.len() == word.len() && *w == word)
    }
}

impl WordSet {
    /// False when no word is `len` bytes long and starts with `first` (a lower-case
    /// letter): most names are settled by this one test.
    #[inline]
    fn may_hold(&self, first: u8, len: usize) -> bool {
        let letter = first.wrapping_sub(b'a');
        letter < 26 && len <= MAX_LEN && self.first_letters[len] & (1 << letter) != 0
    }
}

/// `a < b`, bytewise, in a const context.
const fn less(a: &[u8], b: &[u8]) -> bool {
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// At most this many lists go into one [`union`].
const MAX_LISTS: usize = 4;

/// The smallest word at the heads of sorted `lists` (`at`: each list's head), with
/// every head equal to it moved past; `None` when every list is used up.
const fn next_of_union(
    lists: &[&'static [&'static str]],
    at: &mut [usize; MAX_LISTS],
) -> Option<&'static str> {
    assert!(lists.len() <= MAX_LISTS, "too many lists");
    let mut min: Option<&'static str> = None;
    let mut l = 0;
    while l < lists.len() {
        if at[l] < lists[l].len() {
            let w = lists[l][at[l]];
            min = match min {
                Some(m) if !less(w.as_bytes(), m.as_bytes()) => Some(m),
                _ => Some(w),
            };
        }
        l += 1;
    }
    let Some(m) = min else {
        return None;
    };
    l = 0;
    while l < lists.len() {
        if at[l] < lists[l].len() {
            let w = lists[l][at[l]].as_bytes();
            if !less(w, m.as_bytes()) && !less(m.as_bytes(), w) {
                at[l] += 1;
            }
        }
        l += 1;
    }
    Some(m)
}

/// How many distinct words sorted `lists` hold together (the `N` of [`union`]).
pub(crate) const fn union_len(lists: &[&'static [&'static str]]) -> usize {
    let mut at = [0; MAX_LISTS];
    let mut n = 0;
    while next_of_union(lists, &mut at).is_some() {
        n += 1;
    }
    n
}

/// Every word of sorted `lists`, once each, sorted: one [`WordSet`] answers for all of
/// them in one lookup. Does not compile unless `N` is [`union_len`] of the lists.
pub(crate) const fn union<const N: usize>(lists: &[&'static [&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut at = [0; MAX_LISTS];
    let mut n = 0;
    while let Some(w) = next_of_union(lists, &mut at) {
        assert!(n < N, "N is less than the union's length");
        out[n] = w;
        n += 1;
    }
    assert!(n == N, "N is more than the union's length");
    out
}

macro_rules! reserved_words {
    ($(#[$doc:meta])* $list:ident, $is:ident, [$($word:literal),* $(,)?]) => {
        $(#[$doc])*
        pub const $list: &[&str] = &[$($word),*];

        /// Whether `word` (lower case) is in the list above.
        // The renderer looks DML names up in a union of lists; tests use each list's own.
        #[cfg_attr(not(test), allow(dead_code))]
        pub(super) fn $is(word: &str) -> bool {
            const SET: WordSet = WordSet::new($list);
            SET.contains(word)
        }
    };
}

reserved_words!(
    /// Words reserved by Athena's Hive DDL parser: the DDL list of AWS's "Reserved keywords"
    /// (<https://docs.aws.amazon.com/athena/latest/ug/reserved-words.html>).
    HIVE_DDL_RESERVED,
    is_hive_ddl_reserved,
    [
        "all",
        "alter",
        "and",
        "array",
        "as",
        "authorization",
        "between",
        "bigint",
        "binary",
        "boolean",
        "both",
        "by",
        "case",
        "cashe",
        "cast",
        "char",
        "column",
        "commit",
        "conf",
        "constraint",
        "create",
        "cross",
        "cube",
        "current",
        "current_date",
        "current_timestamp",
        "cursor",
        "database",
        "date",
        "dayofweek",
        "decimal",
        "delete",
        "describe",
        "distinct",
        "div",
        "double",
        "drop",
        "else",
        "end",
        "exchange",
        "exists",
        "extended",
        "external",
        "extract",
        "false",
        "fetch",
        "float",
        "floor",
        "following",
        "for",
        "foreign",
        "from",
        "full",
        "function",
        "grant",
        "group",
        "grouping",
        "having",
        "if",
        "import",
        "in",
        "inner",
        "insert",
        "int",
        "integer",
        "intersect",
        "interval",
        "into",
        "is",
        "join",
        "lateral",
        "left",
        "less",
        "like",
        "local",
        "macro",
        "map",
        "more",
        "none",
        "not",
        "null",
        "numeric",
        "of",
        "on",
        "only",
        "or",
        "order",
        "out",
        "outer",
        "over",
        "partialscan",
        "partition",
        "percent",
        "preceding",
        "precision",
        "preserve",
        "primary",
        "procedure",
        "range",
        "reads",
        "reduce",
        "references",
        "regexp",
        "revoke",
        "right",
        "rlike",
        "rollback",
        "rollup",
        "row",
        "rows",
        "select",
        "set",
        "smallint",
        "start",
        "table",
        "tablesample",
        "then",
        "time",
        "timestamp",
        "to",
        "transform",
        "trigger",
        "true",
        "truncate",
        "unbounded",
        "union",
        "uniquejoin",
        "update",
        "user",
        "using",
        "utc_timestamp",
        "values",
        "varchar",
        "views",
        "when",
        "where",
        "window",
        "with",
    ]
);

// Athena's DML grammar is Trino's. Three readings of its reserved words exist and none
// is complete, so a name is quoted in DML when any of them reserves it:
//
// * Trino release 417's grammar (`core/trino-parser/src/main/antlr4/io/trino/sql/parser/SqlBase.g4`):
//   every keyword token not listed in its `nonReserved` rule, plus `SKIP`, which the
//   grammar uses as a literal token only (`docs/src/main/sphinx/language/reserved.rst`
//   of the same release lists exactly these 81).
// * Trino's current reserved list (`docs/src/main/sphinx/language/reserved.md`, master):
//   adds `AUTO`, `JSON_TABLE` and `PRIMARY`, and does not reserve `EXECUTE`.
// * AWS's published list for SELECT statements
//   (<https://docs.aws.amazon.com/athena/latest/ug/reserved-words.html>): adds `FIRST`,
//   `LAST`, `OF` and `JSON_TABLE`, and lacks `CURRENT_ROLE`, which Trino reserves (an
//   unquoted `current_role` column fails to parse there).
//
// Each word is written once below; the lists are unions of these parts, built at
// compile time.

/// Trino's `CURRENT_*` primaries that are values written without parentheses (SqlBase.g4's
/// `primaryExpression`: `CURRENT_USER`, `CURRENT_CATALOG`, `CURRENT_SCHEMA`, `CURRENT_PATH`).
/// Reserved on every reading.
pub(crate) const TRINO_CURRENT_VALUES: &[&str] = &[
    "current_catalog",
    "current_path",
    "current_schema",
    "current_user",
];

/// Trino's date and time values (SqlBase.g4's `specialDateTimeFunction`), written without
/// parentheses or, as calls, with a precision (`current_timestamp(3)`). Reserved on every
/// reading.
pub(crate) const TRINO_DATE_TIME_VALUES: &[&str] = &[
    "current_date",
    "current_time",
    "current_timestamp",
    "localtime",
    "localtimestamp",
];

/// The other words both Trino 417 and AWS's list reserve.
#[rustfmt::skip]
const TRINO_AND_AWS_KEYWORDS: &[&str] = &[
    "alter", "and", "as", "between", "by", "case", "cast", "constraint", "create", "cross",
    "cube", "deallocate", "delete", "describe", "distinct", "drop", "else", "end", "escape",
    "except", "execute", "exists", "extract", "false", "for", "from", "full", "group",
    "grouping", "having", "in", "inner", "insert", "intersect", "into", "is", "join",
    "json_array", "json_exists", "json_object", "json_query", "json_value", "left", "like",
    "listagg", "natural", "normalize", "not", "null", "on", "or", "order", "outer", "prepare",
    "recursive", "right", "rollup", "select", "skip", "table", "then", "trim", "true",
    "uescape", "union", "unnest", "using", "values", "when", "where", "with",
];

/// Words AWS's list reserves and Trino 417's grammar does not.
const AWS_ONLY: &[&str] = &["first", "json_table", "last", "of"];

/// Words Trino 417's grammar reserves and AWS's list lacks.
const TRINO_417_ONLY: &[&str] = &["current_role"];

/// Words Trino reserves after release 417 (current master's reserved list).
pub(crate) const TRINO_LATER_RESERVED: &[&str] = &["auto", "json_table", "primary"];

const BOTH_LISTS: [&[&str]; 3] = [
    TRINO_AND_AWS_KEYWORDS,
    TRINO_CURRENT_VALUES,
    TRINO_DATE_TIME_VALUES,
];
const BOTH: [&str; union_len(&BOTH_LISTS)] = union(&BOTH_LISTS);

const AWS_LISTS: [&[&str]; 2] = [&BOTH, AWS_ONLY];
const AWS_WORDS: [&str; union_len(&AWS_LISTS)] = union(&AWS_LISTS);

const TRINO_417_LISTS: [&[&str]; 2] = [&BOTH, TRINO_417_ONLY];
const TRINO_417_WORDS: [&str; union_len(&TRINO_417_LISTS)] = union(&TRINO_417_LISTS);

/// Words reserved by Athena's Trino parser: the SELECT/DML list of AWS's "Reserved keywords"
/// (<https://docs.aws.amazon.com/athena/latest/ug/reserved-words.html>), lower case, sorted.
pub const TRINO_DML_RESERVED: &[&str] = &AWS_WORDS;

/// Reserved words of Trino release 417's SQL grammar, lower case, sorted.
pub(crate) const TRINO_417_RESERVED: &[&str] = &TRINO_417_WORDS;

const DML_LISTS: [&[&str]; 3] = [TRINO_DML_RESERVED, TRINO_417_RESERVED, TRINO_LATER_RESERVED];
const DML_WORDS: [&str; union_len(&DML_LISTS)] = union(&DML_LISTS);

/// Every word any reading of Athena's DML grammar reserves: AWS's list, Trino 417's and
/// later Trino's, lower case, sorted.
pub(crate) const DML_RESERVED: &[&str] = &DML_WORDS;

/// Whether `word` (lower case) is in [`TRINO_DML_RESERVED`].
// The renderer looks DML names up in a union of lists; tests use this list's own.
#[cfg_attr(not(test), allow(dead_code))]
pub(super) fn is_trino_dml_reserved(word: &str) -> bool {
    const SET: WordSet = WordSet::new(TRINO_DML_RESERVED);
    SET.contains(word)
}

/// True when `word` (any case) must be double-quoted as an identifier in Athena DML on
/// at least one reading (Trino 417, current Trino, AWS's list).
pub(crate) fn is_reserved_in_dml(word: &str) -> bool {
    const SET: WordSet = WordSet::new(DML_RESERVED);
    let first = word.as_bytes().first().map_or(0, u8::to_ascii_lowercase);
    if !SET.may_hold(first, word.len()) {
        return false;
    }
    // Lowercased on the stack: the validator asks for every unquoted name of every
    // statement. A word longer than the buffer, or not ASCII, is no reserved word.
    let mut buf = [0u8; MAX_LEN];
    let Some(lower) = buf.get_mut(..word.len()) else {
        return false;
    };
    lower.copy_from_slice(word.as_bytes());
    lower.make_ascii_lowercase();
    std::str::from_utf8(lower).is_ok_and(|w| SET.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every list, with the indexed lookup built from it.
    fn sets() -> [(&'static [&'static str], WordSet); 2] {
        [
            (HIVE_DDL_RESERVED, WordSet::new(HIVE_DDL_RESERVED)),
            (TRINO_DML_RESERVED, WordSet::new(TRINO_DML_RESERVED)),
        ]
    }

    /// The indexed lookup answers as a plain search of its list, for every listed word,
    /// its neighbours (one byte more or less, another case) and every word of the
    /// statements in the insta snapshots.
    #[test]
    fn lookup_answers_as_the_list_does() {
        let mut probes: Vec<String> = ["", "_x", "1x", "zzz", "a", "z", "{", "`", "event_id"]
            .map(String::from)
            .to_vec();
        for list in [HIVE_DDL_RESERVED, TRINO_DML_RESERVED] {
            for w in list {
                probes.extend([
                    w.to_string(),
                    format!("{w}x"),
                    w[..w.len() - 1].to_string(),
                    w.to_uppercase(),
                ]);
            }
        }
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots");
        let mut snapshot_words = 0;
        for entry in std::fs::read_dir(dir).expect("the snapshot folder") {
            let text = std::fs::read_to_string(entry.expect("a snapshot").path())
                .expect("a snapshot's text");
            for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if !word.is_empty() {
                    probes.push(word.to_ascii_lowercase());
                    snapshot_words += 1;
                }
            }
        }
        assert!(
            snapshot_words > 1000,
            "{snapshot_words} words in the snapshots"
        );
        for (list, set) in sets() {
            for p in &probes {
                assert_eq!(set.contains(p), list.contains(&p.as_str()), "{p:?}");
            }
        }
    }

    /// `is_reserved_in_dml` finds every word of every reading, in any case, and nothing
    /// else.
    #[test]
    fn every_reserved_word_is_found_in_any_case() {
        for w in TRINO_417_RESERVED
            .iter()
            .chain(TRINO_LATER_RESERVED)
            .chain(TRINO_DML_RESERVED)
        {
            assert!(is_reserved_in_dml(w), "{w}");
            assert!(is_reserved_in_dml(&w.to_ascii_uppercase()), "{w}");
            assert!(!is_reserved_in_dml(&format!("{w}x")), "{w}x");
        }
        assert!(!is_reserved_in_dml("event_id"));
        assert!(!is_reserved_in_dml("sélect"));
        assert!(!is_reserved_in_dml(&"select".repeat(10)));
        assert!(!is_reserved_in_dml(""));
    }

    #[test]
    fn the_readings_have_their_published_lengths() {
        assert_eq!(TRINO_417_RESERVED.len(), 81);
        assert_eq!(TRINO_DML_RESERVED.len(), 84);
        assert_eq!(DML_RESERVED.len(), 87);
    }

    /// Where AWS's published list and Trino's grammar disagree.
    #[test]
    fn aws_list_differs_from_trino_417() {
        use std::collections::BTreeSet;
        let trino: BTreeSet<_> = TRINO_417_RESERVED.iter().copied().collect();
        let aws: BTreeSet<_> = TRINO_DML_RESERVED.iter().copied().collect();
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
        // Current Trino no longer reserves `execute`; it stays quoted, as 417 reserves it.
        assert!(trino.contains("execute") && is_reserved_in_dml("execute"));
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
            "localtimestamp",
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

    #[test]
    fn union_is_every_word_once_sorted() {
        let lists: [&[&str]; 3] = [&["all", "any", "some"], &["and", "any"], &[]];
        const LISTS: [&[&str]; 3] = [&["all", "any", "some"], &["and", "any"], &[]];
        const N: usize = union_len(&LISTS);
        const U: [&str; N] = union(&LISTS);
        assert_eq!(U, ["all", "and", "any", "some"]);
        let mut expected: Vec<&str> = lists.iter().flat_map(|l| l.iter().copied()).collect();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(U.to_vec(), expected);
    }

    #[test]
    fn letter_ranges_cover_the_list_in_order() {
        for (list, set) in sets() {
            assert_eq!(set.starts[0], 0);
            assert_eq!(usize::from(set.starts[26]), list.len());
            for (i, w) in list.iter().enumerate() {
                let letter = usize::from(w.as_bytes()[0] - b'a');
                assert_ne!(set.first_letters[w.len()] & (1 << letter), 0, "{w}");
                assert!(
                    usize::from(set.starts[letter]) <= i && i < usize::from(set.starts[letter + 1])
                );
            }
        }
    }
}
