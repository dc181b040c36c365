//! The lexer against sqlparser's tokenizer, differentially: for every statement text
//! of the repository's test corpus (string literals of the validator's and the
//! integration tests' sources, the snapshot texts, the verdict fixture), the prefixes
//! of fixture statements, corrupted variants of them and random text, our tokens
//! converted to sqlparser's must equal sqlparser's own tokens (kind, value and span)
//! for each parser dialect the validator uses, or both must refuse the text with the
//! same message at the same position.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use sqlparser::tokenizer::Tokenizer;

use super::{lex, line_column, Kind, Rules};
use crate::dialect::{Dialect, Grammar};
use crate::statement::StatementKind;
use crate::validate::oracle::dialects::ParserDialect;
use crate::validate::oracle::tokens::{convert, location};

/// Each parser dialect the validator tokenizes with.
fn parsers() -> Vec<(&'static str, Box<dyn ParserDialect>)> {
    let parser = |d: Dialect, g: Grammar| d.rules().oracle().parser(g, StatementKind::Select);
    vec![
        ("Athena DDL", parser(Dialect::Athena, Grammar::HiveDdl)),
        ("Athena DML", parser(Dialect::Athena, Grammar::TrinoDml)),
        ("Trino", parser(Dialect::Trino, Grammar::TrinoDml)),
        ("Spark", parser(Dialect::Spark, Grammar::Spark)),
    ]
}

/// Compares the two tokenizers on `sql` with dialect `d`; the difference, if any.
fn differs(name: &str, d: &dyn ParserDialect, sql: &str) -> Option<String> {
    let theirs = Tokenizer::new(d, sql).tokenize_with_location();
    let ours = lex(sql, d.lexical_rules());
    match (theirs, ours) {
        (Ok(theirs), Ok(ours)) => {
            let ours = convert(sql, &ours);
            if ours == theirs {
                return None;
            }
            let i = ours
                .iter()
                .zip(&theirs)
                .position(|(a, b)| a != b)
                .unwrap_or(ours.len().min(theirs.len()));
            Some(format!(
                "{name}: {sql:?}: token {i}: ours {:?}, sqlparser's {:?}",
                ours.get(i),
                theirs.get(i)
            ))
        }
        (Err(theirs), Err(ours)) => {
            let at = location(sql, &ours);
            (theirs.message != ours.message || theirs.location != at).then(|| {
                format!(
                    "{name}: {sql:?}: ours refuses with {:?}{at}, sqlparser with {theirs}",
                    ours.message
                )
            })
        }
        (Ok(_), Err(ours)) => Some(format!(
            "{name}: {sql:?}: ours refuses ({}), sqlparser reads it",
            ours.message
        )),
        (Err(theirs), Ok(_)) => Some(format!(
            "{name}: {sql:?}: sqlparser refuses ({theirs}), ours reads it"
        )),
    }
}

/// Runs [`differs`] for every parser dialect over `texts`; panics listing the first
/// differences.
fn assert_same<'a>(texts: impl IntoIterator<Item = &'a str>) -> usize {
    let parsers = parsers();
    let mut diffs = Vec::new();
    let mut n = 0;
    for sql in texts {
        n += 1;
        for (name, d) in &parsers {
            if let Some(diff) = differs(name, d.as_ref(), sql) {
                diffs.push(diff);
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "{} differences, the first:\n{}",
        diffs.len(),
        diffs[..diffs.len().min(20)].join("\n")
    );
    n
}

/// The rules table agrees with the sqlparser dialect methods that decide tokens, and
/// the methods the lexer assumes at their defaults are there.
#[test]
fn rules_agree_with_the_parser_dialects() {
    for (name, d) in parsers() {
        let rules: &Rules = d.lexical_rules();
        for c in (0u8..128)
            .map(char::from)
            .chain(['é', 'ß', '\u{a0}', '\u{3000}'])
        {
            assert_eq!(
                d.is_delimited_identifier_start(c),
                rules.name_quotes.contains(&(c as u8)) && c.is_ascii(),
                "{name}: {c:?} quotes names"
            );
            assert_eq!(
                d.is_identifier_start(c),
                c.is_ascii_alphabetic() || c == '_',
                "{name}: {c:?} starts a name"
            );
            assert_eq!(
                d.is_identifier_part(c),
                c.is_ascii_alphanumeric() || c == '_',
                "{name}: {c:?} continues a name"
            );
            assert!(!d.is_custom_operator_part(c), "{name}: {c:?}");
            assert!(!d.is_nested_delimited_identifier_start(c), "{name}: {c:?}");
        }
        assert_eq!(
            d.supports_string_literal_backslash_escape(),
            rules.backslash_escapes,
            "{name}"
        );
        assert_eq!(
            d.supports_unicode_string_literal(),
            rules.unicode_strings,
            "{name}"
        );
        let defaults = [
            d.supports_literal_prefix_in_qualified_name(),
            d.supports_quote_delimited_string(),
            d.supports_string_escape_constant(),
            d.supports_triple_quoted_string(),
            d.supports_tuple_element_access(),
            d.supports_numeric_prefix(),
            d.supports_numeric_literal_underscores(),
            d.requires_single_line_comment_whitespace(),
            d.supports_geometric_types(),
            d.supports_pipe_operator(),
            d.supports_tilde_like_match_operator(),
            d.supports_hash_comment(),
            d.supports_dollar_placeholder(),
            d.supports_dollar_as_money_prefix(),
            d.supports_nested_comments(),
            d.supports_unterminated_block_comments(),
            d.ignores_wildcard_escapes(),
            d.supports_copy_from_stdin_data(),
            d.supports_multiline_comment_hints(),
        ];
        assert_eq!(defaults, [false; 19], "{name}");
        assert!(d.supports_national_string_literal(), "{name}");
        assert!(d.supports_non_decimal_integer_literals(), "{name}");
    }
}

/// The corpus: string literals of test sources, snapshot texts, fixture statements.
fn corpus() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts = BTreeSet::new();
    let mut rust_files = Vec::new();
    collect_files(&root.join("src/validate"), "rs", &mut rust_files);
    collect_files(&root.join("tests"), "rs", &mut rust_files);
    assert!(rust_files.len() > 20, "test sources: {}", rust_files.len());
    for f in rust_files {
        let src = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        texts.extend(string_literals(&src));
    }
    let mut snaps = Vec::new();
    collect_files(&root.join("tests/snapshots"), "snap", &mut snaps);
    assert!(snaps.len() > 50, "snapshots: {}", snaps.len());
    for f in snaps {
        let src = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        let body = src.splitn(3, "---\n").nth(2).unwrap_or("");
        texts.insert(body.to_string());
        texts.extend(body.lines().map(str::to_string));
    }
    texts.extend(fixture_statements());
    texts
}

/// The statements of the verdict fixture.
fn fixture_statements() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/validate_verdicts.txt");
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut out = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in src.lines() {
        if line.starts_with("#### ") {
            current = Some(Vec::new());
        } else if line.starts_with("=> ") {
            if let Some(lines) = current.take() {
                out.push(lines.join("\n"));
            }
        } else if let Some(lines) = current.as_mut() {
            lines.push(line);
        }
    }
    assert!(out.len() > 200, "fixture statements: {}", out.len());
    out
}

fn collect_files(dir: &Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// The string literals (`"…"` with their escapes resolved, `r#"…"#`) of Rust source
/// `src`, skipping `//` comments and character literals. Approximate, which is fine:
/// any text is a valid input for the comparison.
fn string_literals(src: &str) -> Vec<String> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i += b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .unwrap_or(b.len() - i);
            }
            b'\'' => {
                i += if b.get(i + 1) == Some(&b'\\') {
                    2 + b[i + 2..].iter().position(|&c| c == b'\'').unwrap_or(0) + 1
                } else if b.get(i + 2) == Some(&b'\'') {
                    3
                } else {
                    1
                };
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                let open = i + 1 + hashes;
                if b.get(open) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                match src[open + 1..].find(&close) {
                    Some(p) => {
                        out.push(src[open + 1..open + 1 + p].to_string());
                        i = open + 1 + p + close.len();
                    }
                    None => break,
                }
            }
            b'"' => {
                let (s, end) = cooked_string(src, i + 1);
                out.push(s);
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// A `"…"` literal's value from `from` (after its quote) and the offset after it.
fn cooked_string(src: &str, from: usize) -> (String, usize) {
    let mut s = String::new();
    let mut chars = src[from..].char_indices().peekable();
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return (s, from + k + 1),
            '\\' => match chars.next().map(|(_, c)| c) {
                Some('n') => s.push('\n'),
                Some('t') => s.push('\t'),
                Some('r') => s.push('\r'),
                Some('0') => s.push('\0'),
                Some('\n') => {
                    while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
                        chars.next();
                    }
                }
                Some('u') => {
                    let mut hex = String::new();
                    for (_, c) in chars.by_ref() {
                        if c == '}' {
                            break;
                        }
                        if c != '{' {
                            hex.push(c);
                        }
                    }
                    s.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
                }
                Some('x') => {
                    let hex: String = chars.by_ref().take(2).map(|(_, c)| c).collect();
                    s.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
                }
                Some(c) => s.push(c),
                None => {}
            },
            c => s.push(c),
        }
    }
    (s, src.len())
}

/// The comparison sees a difference: Spark's rules read `"a"` as a string, Trino's as a
/// name; `'a\\'` is unterminated with backslash escapes only.
#[test]
fn the_comparison_can_fail() {
    let spark = Dialect::Spark
        .rules()
        .oracle()
        .parser(Grammar::Spark, StatementKind::Select);
    let trino = Dialect::Trino
        .rules()
        .oracle()
        .parser(Grammar::TrinoDml, StatementKind::Select);
    for (d, wrong, sql) in [
        (spark.as_ref(), &Rules::TRINO, "SELECT \"a\""),
        (trino.as_ref(), &Rules::SPARK, "SELECT 'a\\'"),
        (trino.as_ref(), &Rules::HIVE_DDL, "SELECT U&'a'"),
    ] {
        let theirs = Tokenizer::new(d, sql).tokenize_with_location();
        let ours = lex(sql, wrong).map(|t| convert(sql, &t));
        assert_ne!(format!("{theirs:?}"), format!("{ours:?}"), "{sql}");
        assert!(differs("right rules", d, sql).is_none(), "{sql}");
    }
}

#[test]
fn the_corpus_tokenizes_alike() {
    let corpus = corpus();
    assert!(corpus.len() > 2_000, "corpus texts: {}", corpus.len());
    let n = assert_same(corpus.iter().map(String::as_str));
    assert_eq!(n, corpus.len());
}

/// Every prefix of one fixture statement in 15 (a string, quoted name or comment cut
/// off anywhere), in each grammar; a long statement is cut at about 300 places.
#[test]
fn every_prefix_of_fixture_statements_tokenizes_alike() {
    let statements = fixture_statements();
    let mut prefixes = Vec::new();
    for s in statements.iter().step_by(15) {
        let step = s.len() / 300 + 1;
        for (k, (at, _)) in s.char_indices().enumerate() {
            if k % step == 0 {
                prefixes.push(&s[..at]);
            }
        }
        prefixes.push(s);
    }
    assert!(prefixes.len() > 10_000, "prefixes: {}", prefixes.len());
    assert_same(prefixes);
}

/// Stray and unusual text put into fixture statements: quotes, comments, escapes,
/// non-ASCII letters and white space, symbols, number forms, typed strings.
const STRAYS: &[&str] = &[
    "'",
    "\"",
    "`",
    "''",
    "\"\"",
    "``",
    "--",
    "-- c\n",
    "/*",
    "/* c */",
    "*/",
    "\\",
    "\\'",
    "\\\"",
    "'\\'",
    "'a\\'b'",
    "'\\\\'",
    "\"a\\\"b\"",
    "é",
    "ß",
    "名",
    "\u{a0}",
    "\u{3000}",
    "\u{2028}",
    "\u{b}",
    "\u{c}",
    "\r",
    "\r\n",
    "\t",
    "$",
    "$1",
    "$$",
    "$$a$b$$",
    "$t$x$t$",
    "$t$x",
    "$é",
    "@",
    "@@x",
    "@>",
    "#",
    "#>>",
    "#-",
    "?",
    "?12",
    "?٣",
    "1.",
    ".5",
    "1e5",
    "1e",
    "1E+5",
    "1e-",
    ".e5",
    "1_000",
    "._x",
    "t._x",
    "0x1F",
    "0X",
    "0b",
    "0b101",
    "0o7",
    "0o",
    "00x1",
    "5L",
    "5l",
    "1.5BD",
    "1.5D",
    "2Y",
    "1.5.5",
    "U&'\\0041'",
    "u&'x'",
    "U&'",
    "U&'\\'",
    "U&'\\+01F600'",
    "U&'\\zz'",
    "U&'\\D800'",
    "U&'a''b'",
    "U&x",
    "X'1F'",
    "x'",
    "X'\\'",
    "N'x'",
    "n'\\''",
    "N",
    "::",
    ":=",
    "=>",
    "==",
    "!=",
    "<>",
    "<=>",
    "<<",
    ">>",
    "<@",
    "->",
    "->>",
    "||",
    "||/",
    "|/",
    "!!",
    "!~",
    "!~*",
    "&&",
    "^@",
    "~*",
    "{",
    "}",
    "[",
    "]",
    ";",
    "\u{0}",
    "\u{7f}",
    "🦀",
];

#[test]
fn corrupted_statements_tokenize_alike() {
    let statements = fixture_statements();
    let mut texts = Vec::new();
    for s in statements.iter().step_by(40) {
        let boundaries: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
        // A few places per statement: the start, the end and evenly between, each with
        // up to 40 characters of the statement on either side.
        for k in 0..=4 {
            let b = k * (boundaries.len() - 1) / 4;
            let (from, at) = (boundaries[b.saturating_sub(40)], boundaries[b]);
            let to = boundaries[(b + 40).min(boundaries.len() - 1)];
            for stray in STRAYS {
                texts.push(format!("{}{stray}{}", &s[from..at], &s[at..to]));
            }
        }
    }
    for stray in STRAYS {
        texts.push((*stray).to_string());
        texts.push(format!(
            "SELECT {stray} FROM t WHERE a = 'x{stray}y' AND \"b{stray}\" = 1"
        ));
        texts.push(format!("SELECT a.{stray} FROM t"));
    }
    assert!(texts.len() > 20_000, "corrupted texts: {}", texts.len());
    assert_same(texts.iter().map(String::as_str));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// Text from SQL's characters and the ones the lexer treats specially.
    #[test]
    fn random_sql_like_text_tokenizes_alike(
        sql in "([a-zA-Z_0-9 .,;()'\"`\\\\$@#?:=<>!|&^~*/%+\\-\\[\\]{}\n\r\t]|é|\u{a0}|\u{3000}|名){0,40}"
    ) {
        assert_same([sql.as_str()]);
    }

    /// Any text at all.
    #[test]
    fn random_text_tokenizes_alike(sql in any::<String>()) {
        assert_same([sql.as_str()]);
    }
}

/// Text built to be slow: each must come back (tokens or an error) quickly.
#[test]
fn hostile_text_returns_quickly() {
    let cases = [
        "(".repeat(100_000),
        "'".repeat(1 << 20),
        "\"".repeat(1 << 20),
        "`".repeat(1 << 20) + "x",
        "/*".repeat(100_000),
        "$$".repeat(100_000) + "$",
        format!("$t${}", "$t".repeat(100_000)),
        "U&'\\".repeat(50_000),
        "é".repeat(200_000),
        "\\'".repeat(200_000),
        "0x".repeat(100_000),
    ];
    for text in &cases {
        let started = Instant::now();
        for (_, d) in parsers() {
            let _ = lex(text, d.lexical_rules());
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}…: {:?}",
            &text[..10],
            started.elapsed()
        );
    }
}

/// What a future parser reads from a token: its kind, span and value.
#[test]
fn tokens_are_kinds_and_spans_with_decoded_values() {
    let sql = "SELECT \"a\"\"b\", 'it''s', 5L, U&'\\0041' FROM t";
    let tokens = lex(sql, &Rules::TRINO).unwrap_or_else(|e| panic!("{e:?}"));
    let values: Vec<_> = tokens
        .iter()
        .filter(|t| !matches!(t.kind, Kind::Blank(_)))
        .map(|t| t.value(sql).into_owned())
        .collect();
    assert_eq!(
        values,
        ["SELECT", "a\"b", ",", "it's", ",", "5", ",", "A", "FROM", "t"]
    );
    let spark = r"SELECT 'it\'s', `a``b`, x'1F'";
    let tokens = lex(spark, &Rules::SPARK).unwrap_or_else(|e| panic!("{e:?}"));
    let values: Vec<_> = tokens
        .iter()
        .filter(|t| !matches!(t.kind, Kind::Blank(_)))
        .map(|t| t.value(spark).into_owned())
        .collect();
    assert_eq!(values, ["SELECT", "it's", ",", "a`b", ",", "1F"]);
    assert_eq!(line_column("ab\ncé d", 7), (2, 4));
}

/// The conversion's keyword lookup finds what sqlparser's finds, for every keyword in
/// any case and for words that are none.
#[test]
fn keywords_are_found_as_sqlparser_finds_them() {
    use sqlparser::keywords::ALL_KEYWORDS;
    use sqlparser::tokenizer::Token as SqlToken;
    let mut words: Vec<String> = Vec::new();
    for k in ALL_KEYWORDS {
        words.push(k.to_string());
        words.push(k.to_ascii_lowercase());
        words.push(format!("{k}S"));
        words.push(k[..k.len() - 1].to_string());
    }
    words.extend(["_", "x", "é", "SELECTX", &"A".repeat(40)].map(String::from));
    for w in &words {
        let ours = convert(w, &lex(w, &Rules::TRINO).unwrap_or_default());
        let theirs = SqlToken::make_word(w, None);
        if w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !w.is_empty() {
            assert_eq!(ours.first().map(|t| &t.token), Some(&theirs), "{w}");
        }
    }
}
