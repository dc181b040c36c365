//! The layering of `iceberg-sql/src`, read from the source.
//!
//! Every production file of the crate (the modules `lib.rs` declares, recursively, minus
//! those under `#[cfg(test)]`) is read for the paths it names (`use crate::…`,
//! `crate::x::…`, `super::…`, a child module's `x::…`, a name it imported), each path is
//! resolved to the file that defines it (following `pub use` re-exports), and the arrows
//! between files are checked against [`LAYERS`]:
//!
//! * a lower layer never names a higher one;
//! * no import loop spans more than 2 files;
//! * `Grammar::` and `Dialect::` variants are named only by the grammar and target
//!   layers; everything else asks the target a question.
//!
//! What cannot be fixed yet is listed in [`KNOWN_UP`], [`KNOWN_LOOPS`] and
//! [`KNOWN_VARIANTS`], each entry with its reason. The lists only shrink: an entry that
//! no longer occurs fails the test too, so that it is deleted.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The layers of `src/`, from the bottom. A unit is a top-level module of `src/`
/// (`lib` is `lib.rs`, `prelude` its prelude), except under `dialect/`, `statement/`
/// and `validate/` ([`SPLIT`]), where each submodule is a unit of its own
/// (`dialect/grammar`) and `dialect`, `statement`, `validate` are their `mod.rs`;
/// `dialect/*` is every submodule of `dialect` not listed by name.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "core values and names",
        &["ident", "types", "value", "error"],
    ),
    ("table model", &["model"]),
    ("records and results", &["record"]),
    ("the engine's (Trino's) type system", &["engine"]),
    ("grammars", &["dialect/grammar"]),
    ("the statement tree", &["expr", "statement/kind"]),
    ("targets", &["dialect", "dialect/*", "render"]),
    ("validation", &["validate", "validate/*"]),
    ("Statement", &["statement", "statement_log"]),
    (
        "builders",
        &[
            "ddl",
            "dml",
            "alter",
            "ctas",
            "evolve",
            "load",
            "maintenance",
            "query",
            "recipes",
            "arrow",
        ],
    ),
    (
        "entry points",
        &["lib", "prelude", "dsl", "statement/entry"],
    ),
];

/// Arrows that run up and are not fixed yet: (file under `src/`, unit it names, why).
#[rustfmt::skip]
const KNOWN_UP: &[(&str, &str, &str)] = &[
    ("dialect/athena.rs", "query", "the time-travel and metadata-table specs live with the SELECT builder"),
    ("dialect/athena.rs", "validate/dialects", "each target's statement shapes live under validate/"),
    ("dialect/athena_s3_tables.rs", "validate/dialects", "each target's statement shapes live under validate/"),
    ("dialect/mod.rs", "maintenance", "the VACUUM retention spec lives with the VACUUM builder"),
    ("dialect/mod.rs", "query", "the time-travel and metadata-table specs live with the SELECT builder"),
    ("dialect/mod.rs", "validate/dialects", "each target's statement shapes live under validate/"),
    ("dialect/spark.rs", "query", "the metadata-table spec lives with the SELECT builder"),
    ("dialect/spark.rs", "validate/dialects", "each target's statement shapes live under validate/"),
    ("dialect/trino.rs", "maintenance", "the VACUUM retention spec lives with the VACUUM builder"),
    ("dialect/trino.rs", "validate/dialects", "each target's statement shapes live under validate/"),
    ("expr/ast.rs", "render", "expressions render themselves into SqlWriter"),
    ("expr/ast.rs", "validate/raw", "raw SQL fragments are read by the validator's reader"),
    ("expr/typed.rs", "dialect", "to_sql renders for a Dialect"),
    ("expr/typed.rs", "render", "to_sql renders through SqlWriter"),
];

/// Import loops of more than 2 files not fixed yet: (the files, sorted, joined by ` `;
/// why).
#[rustfmt::skip]
const KNOWN_LOOPS: &[(&str, &str)] = &[
    ("dialect/athena.rs dialect/athena_s3_tables.rs dialect/athena_types.rs dialect/mod.rs dialect/spark.rs dialect/spark_parity.rs dialect/trino.rs dialect/typing.rs render/writer.rs", "the writer holds a Dialect whose rules write into the writer"),
    ("expr/methods.rs expr/typed.rs expr/window.rs", "window functions are built from operands and offer the expression methods"),
    ("validate/check/alter.rs validate/check/create.rs validate/check/ddl.rs validate/check/mod.rs validate/check/pass.rs validate/check/top.rs validate/mod.rs validate/parser/cursor.rs validate/parser/mod.rs", "the checks of each statement kind call each other through the top-level dispatch"),
];

/// Files outside the grammar and target layers that name a `Grammar::`/`Dialect::`
/// variant: (file, why).
#[rustfmt::skip]
const KNOWN_VARIANTS: &[(&str, &str)] = &[
    ("ctas/mod.rs", "Hive CTAS and UNLOAD grammars chosen by the builder"),
    ("ddl/database.rs", "SHOW TABLES patterns spelled in the Trino grammar"),
    ("dml/merge.rs", "MERGE source names spelled in the Trino grammar"),
    ("evolve/parse.rs", "a live definition is read as Athena writes it"),
    ("evolve/readers.rs", "a live definition is read as Athena writes it"),
    ("expr/ast.rs", "raw fragments are read in the Trino and Spark grammars"),
    ("validate/check/alter.rs", "the validator's checks switch on the grammar"),
    ("validate/check/create.rs", "the validator's checks switch on the grammar"),
    ("validate/check/ddl.rs", "the validator's checks switch on the grammar"),
    ("validate/check/mod.rs", "the validator's checks switch on the grammar"),
    ("validate/check/pass.rs", "the validator's checks switch on the grammar"),
    ("validate/ddl_rules.rs", "the validator's DDL rules switch on the grammar"),
    ("validate/dialects/mod.rs", "the targets' shapes name the grammar of each kind"),
    ("validate/literals.rs", "the literal rules switch on the grammar"),
    ("validate/parser/foreign.rs", "the parser's switches are written per grammar"),
    ("validate/parser/mod.rs", "the parser's switches are written per grammar"),
    ("validate/parser/query.rs", "the parser's switches are written per grammar"),
    ("validate/parser/statement.rs", "the parser's switches are written per grammar"),
    ("validate/sqlparser_reading.rs", "sqlparser's stock dialect is chosen per grammar"),
    ("validate/prepass.rs", "the token checks switch on the grammar"),
    ("validate/values.rs", "the INSERT rows' recognizer switches on the grammar"),
];

// ---------------------------------------------------------------------------------
// Reading the source.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The tokens of one file, with their lines; comments, strings, chars and numbers are
/// dropped.
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let n = b.len();
    let count_lines = |from: usize, to: usize| b[from..to].iter().filter(|&&c| c == b'\n').count();
    while i < n {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && i + 1 < n && b[i + 1] == b'/' {
            while i < n && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && i + 1 < n && b[i + 1] == b'*' {
            let start = i;
            let mut depth = 0;
            while i < n {
                if b[i] == b'/' && i + 1 < n && b[i + 1] == b'*' {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && i + 1 < n && b[i + 1] == b'/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            line += count_lines(start, i);
        } else if (c == b'r' || c == b'b') && raw_string_start(&b[i..]).is_some() {
            let (skip, hashes) = raw_string_start(&b[i..]).unwrap_or((0, 0));
            let start = i;
            i += skip;
            loop {
                if i >= n {
                    break;
                }
                if b[i] == b'"'
                    && b[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == b'#')
                        .count()
                        == hashes
                {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            line += count_lines(start, i);
        } else if c == b'"' || (c == b'b' && i + 1 < n && b[i + 1] == b'"') {
            let start = i;
            i += if c == b'b' { 2 } else { 1 };
            while i < n && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            line += count_lines(start, i.min(n));
        } else if c == b'\'' || (c == b'b' && i + 1 < n && b[i + 1] == b'\'') {
            let q = if c == b'b' { i + 1 } else { i };
            if q + 1 < n && b[q + 1] == b'\\' {
                // An escaped char: up to the closing quote.
                i = q + 2;
                while i < n && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
            } else if q + 2 < n && b[q + 2] == b'\'' {
                i = q + 3;
            } else if let Some(len) = text[q + 1..].chars().next().map(char::len_utf8) {
                if q + 1 + len < n && b[q + 1 + len] == b'\'' {
                    i = q + 2 + len;
                } else {
                    // A lifetime or label: the quote alone.
                    i = q + 1;
                }
            } else {
                i = q + 1;
            }
        } else if c == b'_' || c.is_ascii_alphabetic() {
            let start = i;
            while i < n && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            let mut word = &text[start..i];
            if word == "r" && i < n && b[i] == b'#' {
                let s = i + 1;
                i = s;
                while i < n && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                word = &text[s..i];
            }
            out.push((Tok::Ident(word.to_string()), line));
        } else if c.is_ascii_digit() {
            while i < n && (b[i] == b'_' || b[i] == b'.' || b[i].is_ascii_alphanumeric()) {
                if b[i] == b'.' && i + 1 < n && b[i + 1] == b'.' {
                    break;
                }
                i += 1;
            }
        } else if c == b':' && i + 1 < n && b[i + 1] == b':' {
            out.push((Tok::Path, line));
            i += 2;
        } else if c.is_ascii() {
            out.push((Tok::Punct(c as char), line));
            i += 1;
        } else {
            // Non-ASCII outside strings and comments: skip the character.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// `r"`, `r#"`, `br"`, `br##"`: the bytes up to and including the opening quote, and
/// the number of `#`.
fn raw_string_start(b: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    if b.first() == Some(&b'b') {
        i += 1;
    }
    if b.get(i) != Some(&b'r') {
        return None;
    }
    i += 1;
    let mut hashes = 0;
    while b.get(i) == Some(&b'#') {
        hashes += 1;
        i += 1;
    }
    (b.get(i) == Some(&b'"')).then_some((i + 1, hashes))
}

/// A path as written, in the module it was written in.
#[derive(Debug, Clone)]
struct RawPath {
    /// The module the path is written in (inline modules included).
    module: Vec<String>,
    segments: Vec<String>,
    line: usize,
}

/// What one file says.
#[derive(Debug, Default)]
struct FileFacts {
    /// `mod x;` declarations outside `#[cfg(test)]`: (module path, child name).
    child_files: Vec<(Vec<String>, String)>,
    /// Inline `mod x { … }` outside `#[cfg(test)]`.
    inline_modules: Vec<Vec<String>>,
    /// Every leaf of every `use` outside `#[cfg(test)]`: (name it binds, path, is it
    /// public (a re-export)).
    uses: Vec<(String, RawPath, bool)>,
    /// Paths in code, not in a `use`.
    paths: Vec<RawPath>,
    /// `Grammar::X` / `Dialect::X` with `X` a variant-like name: (text, line).
    variants: Vec<(String, usize)>,
}

fn is_ident(t: Option<&(Tok, usize)>, word: &str) -> bool {
    matches!(t, Some((Tok::Ident(w), _)) if w == word)
}

/// The index after the balanced group opening at `i` (`(`, `[` or `{`).
fn skip_group(toks: &[(Tok, usize)], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < toks.len() {
        match toks[i].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The index after the item starting at `i` (attributes included).
fn skip_item(toks: &[(Tok, usize)], mut i: usize) -> usize {
    while matches!(toks.get(i), Some((Tok::Punct('#'), _))) {
        i = skip_group(toks, i + 1);
    }
    let first = i;
    // `use`, `const`, `static`, `type`, `mod x;`: up to the `;` outside groups.
    let mut j = first;
    while matches!(&toks.get(j), Some((Tok::Ident(w), _)) if w == "pub") {
        j += 1;
        if matches!(toks.get(j), Some((Tok::Punct('('), _))) {
            j = skip_group(toks, j);
        }
    }
    let to_semicolon = ["use", "const", "static", "type", "extern"]
        .iter()
        .any(|w| is_ident(toks.get(j), w));
    while i < toks.len() {
        match toks[i].0 {
            Tok::Punct(';') => return i + 1,
            Tok::Punct('{') if !to_semicolon => return skip_group(toks, i),
            Tok::Punct('(' | '[' | '{') => i = skip_group(toks, i),
            // The end of an enclosing group: the item was an expression's last.
            Tok::Punct(')' | ']' | '}') => return i,
            _ => i += 1,
        }
    }
    i
}

/// Whether the attribute whose `[` is at `i` is `#[cfg(test)]`.
fn is_cfg_test(toks: &[(Tok, usize)], i: usize) -> bool {
    let want = [
        Tok::Punct('['),
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    toks.len() >= i + want.len() && toks[i..i + want.len()].iter().map(|t| &t.0).eq(want.iter())
}

/// Reads one use tree starting at `i` (after `use`), appending its leaves; returns the
/// index after it.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
    module: &[String],
    public: bool,
    out: &mut Vec<(String, RawPath, bool)>,
) -> usize {
    let mut segs = prefix.to_vec();
    loop {
        match toks.get(i) {
            Some((Tok::Path, _)) => i += 1,
            Some((Tok::Punct('$'), _)) => i += 1,
            Some((Tok::Punct('{'), _)) => {
                i += 1;
                loop {
                    match toks.get(i) {
                        Some((Tok::Punct('}'), _)) => return i + 1,
                        Some((Tok::Punct(','), _)) => i += 1,
                        None => return i,
                        _ => i = use_tree(toks, i, &segs, module, public, out),
                    }
                }
            }
            Some((Tok::Punct('*'), line)) => {
                out.push((
                    "*".into(),
                    RawPath {
                        module: module.to_vec(),
                        segments: segs,
                        line: *line,
                    },
                    public,
                ));
                return i + 1;
            }
            Some((Tok::Ident(w), line)) => {
                let line = *line;
                let w = w.clone();
                i += 1;
                if matches!(toks.get(i), Some((Tok::Path, _))) {
                    segs.push(w);
                    continue;
                }
                let mut name = w.clone();
                if w == "self" {
                    name = segs.last().cloned().unwrap_or_default();
                } else {
                    segs.push(w);
                }
                if is_ident(toks.get(i), "as") {
                    if let Some((Tok::Ident(alias), _)) = toks.get(i + 1) {
                        name = alias.clone();
                    }
                    i += 2;
                }
                out.push((
                    name,
                    RawPath {
                        module: module.to_vec(),
                        segments: segs,
                        line,
                    },
                    public,
                ));
                return i;
            }
            _ => return i,
        }
    }
}

fn read_file(text: &str, module: &[String]) -> FileFacts {
    let toks = tokens(text);
    let mut facts = FileFacts::default();
    // Inline modules open here: (module path, brace depth inside them).
    let mut stack: Vec<(Vec<String>, i32)> = vec![(module.to_vec(), 0)];
    let mut depth = 0i32;
    let mut i = 0;
    while i < toks.len() {
        let here = stack.last().map(|s| s.0.clone()).unwrap_or_default();
        match &toks[i].0 {
            Tok::Punct('#') => {
                let mut j = i + 1;
                if matches!(toks.get(j), Some((Tok::Punct('!'), _))) {
                    j += 1;
                }
                if is_cfg_test(&toks, j) {
                    i = skip_item(&toks, skip_group(&toks, j));
                } else {
                    i = skip_group(&toks, j);
                }
                continue;
            }
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                if stack.len() > 1 && stack.last().is_some_and(|s| s.1 == depth) {
                    stack.pop();
                }
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some((Tok::Ident(name), _)) = toks.get(i + 1) {
                    match toks.get(i + 2) {
                        Some((Tok::Punct(';'), _)) => {
                            facts.child_files.push((here.clone(), name.clone()));
                        }
                        Some((Tok::Punct('{'), _)) => {
                            let mut m = here.clone();
                            m.push(name.clone());
                            facts.inline_modules.push(m.clone());
                            stack.push((m, depth));
                            depth += 1;
                            i += 3;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            Tok::Ident(w) if w == "use" => {
                let mut k = i;
                let mut public = false;
                while k > 0 {
                    k -= 1;
                    match &toks[k].0 {
                        Tok::Ident(p) if p == "pub" => public = true,
                        Tok::Ident(p) if p == "crate" || p == "super" || p == "in" => {}
                        Tok::Punct('(' | ')') => {}
                        _ => break,
                    }
                }
                let end = use_tree(&toks, i + 1, &[], &here, public, &mut facts.uses);
                i = end;
                continue;
            }
            Tok::Ident(w) => {
                let starts_path = matches!(toks.get(i + 1), Some((Tok::Path, _)))
                    && !matches!(i.checked_sub(1).map(|k| &toks[k].0), Some(Tok::Path));
                if starts_path {
                    let line = toks[i].1;
                    let mut segs = vec![w.clone()];
                    let mut j = i + 1;
                    while matches!(toks.get(j), Some((Tok::Path, _))) {
                        match toks.get(j + 1) {
                            Some((Tok::Ident(s), _)) => {
                                segs.push(s.clone());
                                j += 2;
                            }
                            _ => break,
                        }
                    }
                    if segs.len() >= 2 {
                        let variant = &segs[segs.len() - 1];
                        let owner = &segs[segs.len() - 2];
                        let variant_like = variant.starts_with(|c: char| c.is_ascii_uppercase())
                            && variant.chars().any(|c| c.is_ascii_lowercase());
                        if (owner == "Grammar" || owner == "Dialect") && variant_like {
                            facts.variants.push((format!("{owner}::{variant}"), line));
                        }
                    }
                    facts.paths.push(RawPath {
                        module: here.clone(),
                        segments: segs,
                        line,
                    });
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    facts
}

// ---------------------------------------------------------------------------------
// The crate's modules and the arrows between its files.

struct Crate {
    /// Module path to the file (relative to `src/`) that holds it.
    modules: BTreeMap<Vec<String>, String>,
    /// Per file, what it says.
    files: BTreeMap<String, FileFacts>,
    /// Per module, the names its public `use`s bind: name to (path, module it is in).
    reexports: BTreeMap<Vec<String>, BTreeMap<String, RawPath>>,
}

#[derive(Debug, Clone)]
struct Arrow {
    from: String,
    line: usize,
    from_unit: String,
    to: String,
    to_unit: String,
    path: String,
}

fn read_crate() -> Crate {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut krate = Crate {
        modules: BTreeMap::new(),
        files: BTreeMap::new(),
        reexports: BTreeMap::new(),
    };
    let mut todo = vec![(Vec::<String>::new(), "lib.rs".to_string())];
    while let Some((module, file)) = todo.pop() {
        if krate.files.contains_key(&file) {
            continue;
        }
        let text = std::fs::read_to_string(src.join(&file))
            .unwrap_or_else(|e| panic!("reading src/{file}: {e}"));
        let facts = read_file(&text, &module);
        krate.modules.insert(module.clone(), file.clone());
        for m in &facts.inline_modules {
            krate.modules.insert(m.clone(), file.clone());
        }
        // Where this file's child modules live.
        let dir = if file == "lib.rs" || file.ends_with("/mod.rs") {
            Path::new(&file)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default()
        } else {
            PathBuf::from(file.trim_end_matches(".rs"))
        };
        for (parent, name) in &facts.child_files {
            if parent != &module {
                continue; // `mod x;` inside an inline module: not used in this crate.
            }
            let flat = dir.join(format!("{name}.rs"));
            let nested = dir.join(name).join("mod.rs");
            let child = if src.join(&flat).exists() {
                flat
            } else {
                nested
            };
            let mut m = module.clone();
            m.push(name.clone());
            todo.push((m, child.to_string_lossy().replace('\\', "/")));
        }
        for (name, path, public) in &facts.uses {
            if *public && name != "*" && name != "_" {
                krate
                    .reexports
                    .entry(path.module.clone())
                    .or_default()
                    .insert(name.clone(), path.clone());
            }
        }
        krate.files.insert(file, facts);
    }
    krate
}

impl Crate {
    /// The absolute module path a path written in `module` starts from, or `None` for
    /// a path outside the crate.
    fn absolute(
        &self,
        p: &RawPath,
        imports: &BTreeMap<String, RawPath>,
        depth: usize,
    ) -> Option<Vec<String>> {
        let mut segs = p.segments.clone();
        let mut base = p.module.clone();
        let first = segs.first()?.clone();
        match first.as_str() {
            "crate" => {
                segs.remove(0);
                Some(segs)
            }
            "self" | "super" => {
                while let Some(s) = segs.first() {
                    match s.as_str() {
                        "self" => {}
                        "super" => {
                            base.pop();
                        }
                        _ => break,
                    }
                    segs.remove(0);
                }
                base.extend(segs);
                Some(base)
            }
            _ => {
                let mut child = base.clone();
                child.push(first.clone());
                if self.modules.contains_key(&child) {
                    base.extend(segs);
                    return Some(base);
                }
                if depth < 8 {
                    if let Some(imported) = imports.get(&first) {
                        let mut target = self.absolute(imported, imports, depth + 1)?;
                        target.extend(segs.into_iter().skip(1));
                        return Some(target);
                    }
                }
                None
            }
        }
    }

    /// The module an absolute path lands in, re-exports followed.
    fn resolve(&self, mut path: Vec<String>) -> Vec<String> {
        for _ in 0..16 {
            let mut k = path.len();
            while k > 0 && !self.modules.contains_key(&path[..k]) {
                k -= 1;
            }
            let module = path[..k].to_vec();
            let Some(next) = path.get(k) else {
                return module;
            };
            let Some(target) = self.reexports.get(&module).and_then(|r| r.get(next)) else {
                return module;
            };
            let no_imports = BTreeMap::new();
            let Some(mut abs) = self.absolute(target, &no_imports, 0) else {
                return module;
            };
            if abs == path[..=k] {
                return module;
            }
            abs.extend(path[k + 1..].iter().cloned());
            path = abs;
        }
        path
    }

    fn arrows(&self) -> Vec<Arrow> {
        let mut out = Vec::new();
        for (file, facts) in &self.files {
            let imports: BTreeMap<String, RawPath> = facts
                .uses
                .iter()
                .filter(|(name, _, _)| name != "*")
                .map(|(name, p, _)| (name.clone(), p.clone()))
                .collect();
            // A module's `pub use` of its own descendant's item is its table of
            // contents (as `mod x;` is), not an arrow.
            let written = facts
                .uses
                .iter()
                .map(|(_, p, public)| (p, *public))
                .chain(facts.paths.iter().map(|p| (p, false)));
            for (p, public) in written {
                let Some(abs) = self.absolute(p, &imports, 0) else {
                    continue;
                };
                if public && abs.len() > p.module.len() && abs.starts_with(&p.module) {
                    continue;
                }
                let module = self.resolve(abs);
                let Some(to) = self.modules.get(&module) else {
                    continue;
                };
                let from_module = &p.module;
                if to == file {
                    continue;
                }
                out.push(Arrow {
                    from: file.clone(),
                    line: p.line,
                    from_unit: unit(from_module),
                    to: to.clone(),
                    to_unit: unit(&module),
                    path: p.segments.join("::"),
                });
            }
        }
        out
    }
}

/// The top-level modules whose submodules are units of their own.
const SPLIT: [&str; 3] = ["dialect", "statement", "validate"];

/// The unit of a module path (see [`LAYERS`]).
fn unit(module: &[String]) -> String {
    match module {
        [] => "lib".into(),
        [top, sub, ..] if SPLIT.contains(&top.as_str()) => format!("{top}/{sub}"),
        [top, ..] => top.clone(),
    }
}

/// The layer of a unit (index into [`LAYERS`]).
fn layer(unit: &str) -> Option<usize> {
    let exact = LAYERS.iter().position(|(_, units)| units.contains(&unit));
    exact.or_else(|| {
        let (top, _) = unit.split_once('/')?;
        let wild = format!("{top}/*");
        LAYERS
            .iter()
            .position(|(_, units)| units.contains(&wild.as_str()))
    })
}

/// Strongly connected components of a graph (Tarjan), each sorted.
fn components(
    nodes: &BTreeSet<String>,
    edges: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(ws) = s.edges.get(v) {
            for w in ws {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(lw));
                } else if s.on_stack.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(iw));
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            comp.sort();
            s.out.push(comp);
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in nodes {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// A simple cycle of more than 2 files inside a strongly connected component, as the
/// files visited (the first repeated at the end), if there is one.
fn long_cycle(comp: &[String], edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    let inside = |f: &String| comp.contains(f);
    let out = |f: &String| -> Vec<String> {
        edges
            .get(f)
            .map(|s| s.iter().filter(|t| inside(t)).cloned().collect())
            .unwrap_or_default()
    };
    // An arrow u -> v without v -> u, closed by the shortest way back from v to u.
    for u in comp {
        for v in out(u) {
            if out(&v).contains(u) {
                continue;
            }
            let mut prev: BTreeMap<String, String> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([v.clone()]);
            let mut seen = BTreeSet::from([v.clone()]);
            while let Some(x) = queue.pop_front() {
                if &x == u {
                    let mut back = vec![u.clone()];
                    let mut at = u.clone();
                    while at != v {
                        at = prev[&at].clone();
                        back.push(at.clone());
                    }
                    back.push(u.clone());
                    back.reverse();
                    return Some(back);
                }
                for y in out(&x) {
                    if seen.insert(y.clone()) {
                        prev.insert(y.clone(), x.clone());
                        queue.push_back(y);
                    }
                }
            }
        }
    }
    // All arrows in pairs: a cycle of the pairs, if they do not form a tree.
    fn dfs(
        x: &String,
        parent: Option<&String>,
        out: &dyn Fn(&String) -> Vec<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        path.push(x.clone());
        for y in out(x) {
            if Some(&y) == parent {
                continue;
            }
            if let Some(at) = path.iter().position(|p| p == &y) {
                let mut cycle = path[at..].to_vec();
                cycle.push(y);
                return Some(cycle);
            }
            if let Some(c) = dfs(&y, Some(x), out, path) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    dfs(&comp[0], None, &out, &mut Vec::new())
}

fn layer_name(unit: &str) -> &'static str {
    layer(unit).map_or("(no layer)", |l| LAYERS[l].0)
}

/// Fails with the unlisted findings and the listed entries that no longer occur.
fn report(what: &str, unlisted: Vec<String>, stale: Vec<String>) {
    let mut msg = String::new();
    if !unlisted.is_empty() {
        let _ = writeln!(msg, "{} {what} not in the known list:", unlisted.len());
        for u in &unlisted {
            let _ = writeln!(msg, "{u}");
        }
    }
    if !stale.is_empty() {
        let _ = writeln!(
            msg,
            "{} known {what} no longer occur; delete them from the list in tests/layers.rs:",
            stale.len()
        );
        for s in &stale {
            let _ = writeln!(msg, "  {s}");
        }
    }
    assert!(msg.is_empty(), "{msg}");
}

// ---------------------------------------------------------------------------------
// The checks.

#[test]
fn every_unit_has_a_layer() {
    let krate = read_crate();
    let mut missing = BTreeSet::new();
    for module in krate.modules.keys() {
        let u = unit(module);
        if layer(&u).is_none() {
            missing.insert(u);
        }
    }
    assert!(
        missing.is_empty(),
        "modules with no layer in tests/layers.rs's LAYERS (add each where it belongs): {missing:?}"
    );
    // The reading found the crate: the core files and the grammar's.
    for f in [
        "lib.rs",
        "types.rs",
        "dialect/mod.rs",
        "dialect/grammar/mod.rs",
        "validate/mod.rs",
    ] {
        assert!(krate.files.contains_key(f), "src/{f} not read");
    }
    assert!(
        !krate
            .files
            .keys()
            .any(|f| f.contains("/tests") || f.ends_with("tests.rs")),
        "test modules are read as production: {:?}",
        krate
            .files
            .keys()
            .filter(|f| f.contains("tests"))
            .collect::<Vec<_>>()
    );
}

#[test]
fn no_arrow_runs_up() {
    let krate = read_crate();
    let mut found: BTreeMap<(String, String), Vec<Arrow>> = BTreeMap::new();
    for a in krate.arrows() {
        let (Some(from), Some(to)) = (layer(&a.from_unit), layer(&a.to_unit)) else {
            continue;
        };
        if to > from {
            found
                .entry((a.from.clone(), a.to_unit.clone()))
                .or_default()
                .push(a);
        }
    }
    let mut unlisted = Vec::new();
    for ((file, to_unit), arrows) in &found {
        if KNOWN_UP.iter().any(|(f, u, _)| f == file && u == to_unit) {
            continue;
        }
        for a in arrows {
            unlisted.push(format!(
                "src/{}:{}: `{}` names {} ({}) from {} ({}): a lower layer never imports a higher one",
                a.from,
                a.line,
                a.path,
                a.to_unit,
                layer_name(&a.to_unit),
                a.from_unit,
                layer_name(&a.from_unit),
            ));
        }
    }
    let stale = KNOWN_UP
        .iter()
        .filter(|(f, u, _)| !found.contains_key(&(f.to_string(), u.to_string())))
        .map(|(f, u, why)| format!("({f:?}, {u:?}, {why:?})"))
        .collect();
    if std::env::var_os("LAYERS_LIST").is_some() {
        for ((f, u), arrows) in &found {
            eprintln!(
                "    ({f:?}, {u:?}, \"\"), // {} arrows, first line {}",
                arrows.len(),
                arrows[0].line
            );
        }
    }
    report("arrows up", unlisted, stale);
}

#[test]
fn no_import_loop_spans_more_than_two_files() {
    let krate = read_crate();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut first: BTreeMap<(String, String), Arrow> = BTreeMap::new();
    for a in krate.arrows() {
        let (Some(from), Some(to)) = (layer(&a.from_unit), layer(&a.to_unit)) else {
            continue;
        };
        // An arrow up is reported by `no_arrow_runs_up`; the loops here are the ones
        // within a layer.
        if to > from {
            continue;
        }
        edges
            .entry(a.from.clone())
            .or_default()
            .insert(a.to.clone());
        first.entry((a.from.clone(), a.to.clone())).or_insert(a);
    }
    let nodes: BTreeSet<String> = krate.files.keys().cloned().collect();
    // A component of more than 2 files holds a loop through more than 2 files unless
    // all its arrows come in pairs (a <-> b) that form a tree.
    let mut loops: Vec<(String, Vec<String>)> = Vec::new();
    for comp in components(&nodes, &edges) {
        if comp.len() <= 2 {
            continue;
        }
        if let Some(cycle) = long_cycle(&comp, &edges) {
            loops.push((comp.join(" "), cycle));
        }
    }
    let mut unlisted = Vec::new();
    for (key, cycle) in &loops {
        if KNOWN_LOOPS.iter().any(|(k, _)| k == key) {
            continue;
        }
        let mut text = format!(
            "a loop of {} files (no import loop spans more than 2 files: move what they share down, or into one of them), in the component {key}:",
            cycle.len() - 1
        );
        for pair in cycle.windows(2) {
            let a = &first[&(pair[0].clone(), pair[1].clone())];
            let _ = write!(
                text,
                "\n  src/{}:{}: `{}` -> src/{}",
                a.from, a.line, a.path, a.to
            );
        }
        unlisted.push(text);
    }
    let stale = KNOWN_LOOPS
        .iter()
        .filter(|(k, _)| !loops.iter().any(|(key, _)| key == k))
        .map(|(k, why)| format!("({k:?}, {why:?})"))
        .collect();
    report("import loops", unlisted, stale);
}

#[test]
fn variants_are_named_by_grammars_and_targets_only() {
    let krate = read_crate();
    let allowed: BTreeSet<usize> = ["dialect/grammar", "dialect"]
        .iter()
        .filter_map(|u| layer(u))
        .collect();
    let mut found: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for (file, facts) in &krate.files {
        for (variant, line) in &facts.variants {
            // The unit of the file itself (inline modules do not change it).
            let module = krate
                .modules
                .iter()
                .filter(|(_, f)| *f == file)
                .map(|(m, _)| m)
                .min_by_key(|m| m.len())
                .cloned()
                .unwrap_or_default();
            let l = layer(&unit(&module));
            if l.is_some_and(|l| allowed.contains(&l)) {
                continue;
            }
            found
                .entry((file.clone(), variant.clone()))
                .or_default()
                .push(*line);
        }
    }
    let mut unlisted = Vec::new();
    for ((file, variant), lines) in &found {
        if KNOWN_VARIANTS.iter().any(|(f, _)| f == file) {
            continue;
        }
        for line in lines {
            unlisted.push(format!(
                "src/{file}:{line}: `{variant}` outside the grammar and target layers: ask the target (a `Dialect` method, the grammar it reads a kind with) instead of naming it"
            ));
        }
    }
    let stale = KNOWN_VARIANTS
        .iter()
        .filter(|(f, _)| !found.keys().any(|(file, _)| file == f))
        .map(|(f, why)| format!("({f:?}, {why:?})"))
        .collect();
    report(
        "variants named outside the grammar and target layers",
        unlisted,
        stale,
    );
}
