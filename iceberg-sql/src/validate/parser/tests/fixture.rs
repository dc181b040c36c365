//! The validator's verdict corpus (`tests/fixtures/validate_verdicts.txt`) through our
//! parser: every statement the validator accepts is read, in the grammar its dialect
//! gives its kind, into a statement of that kind; every statement it refuses as a
//! syntax error is refused, except the differences listed in [`CHECKS_NOT_SYNTAX`] and
//! [`STRICTER`]. The statements on tables, views and databases, corrupted, are held to
//! the validator's verdict the same way.

use super::*;
use crate::dialect::Grammar;

pub(super) use crate::validate::tests::oracle_entries as entries;
pub(super) use crate::validate::tests::verdict_fixture::Entry;

/// Whether `s` is a statement of `kind`.
pub(super) fn is_of_kind(s: &Statement, kind: StatementKind) -> bool {
    use StatementKind as K;
    match s {
        Statement::Query(_) => kind == K::Select,
        Statement::Insert(_) => kind == K::Insert,
        Statement::Update(_) => kind == K::Update,
        Statement::Delete(_) => kind == K::Delete,
        Statement::Merge(_) => kind == K::Merge,
        Statement::Optimize { .. } => kind == K::Optimize,
        Statement::Vacuum { .. } => kind == K::Vacuum,
        Statement::Unload { .. } => kind == K::Unload,
        // Spark runs Iceberg's maintenance as procedures.
        Statement::Call { .. } => matches!(kind, K::Optimize | K::Vacuum),
        Statement::CreateTableAs { .. } => kind == K::CreateTableAs,
        Statement::CreateTable(c) => match c.object {
            CreateObject::Table if c.query.is_some() => kind == K::CreateTableAs,
            CreateObject::Table => kind == K::CreateTable,
            CreateObject::ExternalTable | CreateObject::TemporaryView => {
                kind == K::CreateStagingTable
            }
        },
        // Trino runs Iceberg's maintenance as table procedures.
        Statement::AlterTable {
            action: AlterAction::Execute { .. },
            ..
        } => matches!(kind, K::Optimize | K::Vacuum),
        Statement::AlterTable { .. } => kind == K::AlterTable,
        Statement::Drop { object, .. } => match object {
            DropObject::Table => matches!(kind, K::DropTable | K::DropStagingTable),
            DropObject::View => matches!(kind, K::DropView | K::DropStagingTable),
            DropObject::Database | DropObject::Schema => kind == K::DropDatabase,
        },
        Statement::CreateDatabase { .. } => kind == K::CreateDatabase,
        Statement::CreateView { .. } => kind == K::CreateView,
        Statement::ShowTables { .. } => kind == K::ShowTables,
        Statement::ShowCreateTable { .. } => kind == K::ShowCreateTable,
        Statement::Describe { .. } => kind == K::Describe,
    }
}

/// Where ours reads what the validator refuses as a syntax error: a phrase of the
/// validator's message, and why. sqlparser's hooks check these while parsing; on our
/// tree they are checks of the allow-list (`validate::check`), not grammar.
pub(super) const CHECKS_NOT_SYNTAX: &[(&str, &str, Dialect, StatementKind)] = &[
    (
        "PARQUET (staged files are Parquet)",
        "Hive's grammar reads any `STORED AS` format; that a staging table's files are \
         Parquet is a check",
        Dialect::Athena,
        StatementKind::CreateStagingTable,
    ),
    (
        "Expected: OPTIONS",
        "Spark's `CREATE TEMPORARY VIEW … USING` takes `OPTIONS` optionally \
         (SqlBaseParser.g4 `createTempViewUsing`); that a staging view names its path is a \
         check",
        Dialect::Spark,
        StatementKind::CreateStagingTable,
    ),
    (
        "path 's3://…' (the only option)",
        "Spark's `OPTIONS` takes any keys (`propertyList`); that `path` is the one a \
         staging view has is a check",
        Dialect::Spark,
        StatementKind::CreateStagingTable,
    ),
    (
        "the staging path as a single-quoted string",
        "Spark's `OPTIONS` entries are `key [=] value` (`property: key=propertyKey \
         (EQ? value=propertyValue)?`); the validator's hook reads no `=`",
        Dialect::Spark,
        StatementKind::CreateStagingTable,
    ),
    (
        "the schema location as a single-quoted string",
        "a property's value is an expression in Trino's grammar (`property: identifier EQ \
         expression`); that the location is a string is a check",
        Dialect::Trino,
        StatementKind::CreateDatabase,
    ),
    (
        "Expected: a value for",
        "a table procedure's argument is an expression in Trino's grammar (`callArgument: \
         identifier '=>' expression`); that it is a literal is a check",
        Dialect::Trino,
        StatementKind::Vacuum,
    ),
];

/// Where ours refuses what the validator accepts: a phrase of the SQL, and why (the
/// expression-level differences are `DELIBERATE`'s).
pub(super) const STRICTER: &[(&str, &str, Dialect, StatementKind)] = &[
    (
        "SHOW TABLES IN IN ",
        SHOW_TABLES_PATTERN,
        Dialect::Athena,
        StatementKind::ShowTables,
    ),
    (
        "SHOW TABLES IN AND ",
        SHOW_TABLES_PATTERN,
        Dialect::AthenaS3Tables,
        StatementKind::ShowTables,
    ),
];

/// Whether `sql` is of a [`STRICTER`] class: a listed text, or, wherever generated text
/// writes it, a bare word after Hive's `SHOW TABLES IN database`.
fn stricter(sql: &str, dialect: Dialect, kind: StatementKind) -> bool {
    let w: Vec<&str> = sql.split_whitespace().collect();
    let word_as_pattern = dialect.grammar(kind) == Grammar::HiveDdl
        && w.len() >= 5
        && w[0].eq_ignore_ascii_case("SHOW")
        && w[1].eq_ignore_ascii_case("TABLES")
        && (w[2].eq_ignore_ascii_case("IN") || w[2].eq_ignore_ascii_case("FROM"))
        && !w[4].starts_with('\'');
    word_as_pattern || STRICTER.iter().any(|(p, ..)| sql.contains(p))
}

const SHOW_TABLES_PATTERN: &str = "Hive's `SHOW TABLES [IN database_name] \
    ['regular_expression']` takes its pattern as a string (Athena's SHOW TABLES page); \
    sqlparser reads a word after the database's name as one too";

/// Accepted entries in forms the module documentation lists as not read yet: a phrase
/// of the entry's SQL, and the list's item. Each is still refused (an entry that reads
/// fails the test, so the list shrinks as forms are read).
const NOT_READ_YET: &[(&str, &str)] = &[
    ("SIMILAR TO", "`SIMILAR TO`"),
    (
        "ceil(x TO DAY)",
        "`ceil(x TO unit)`, which neither grammar has (check/tests.rs `DELIBERATE`)",
    ),
];

/// Every entry the validator accepts, ours reads as a statement of the entry's kind;
/// every entry it refuses as a syntax error, ours refuses ([`compare_verdict`]); but
/// the accepted forms listed as not read yet, which ours refuses.
#[test]
fn the_verdict_corpus_agrees() {
    let entries = entries();
    assert!(entries.len() > 1800, "entries: {}", entries.len());
    let mut failures = Vec::new();
    let mut not_yet_seen = vec![false; NOT_READ_YET.len()];
    let (mut accepted, mut refused) = (0, 0);
    for e in &entries {
        let rules = Rules::of(e.dialect.grammar(e.kind));
        let not_yet = NOT_READ_YET
            .iter()
            .position(|(phrase, _)| e.sql.contains(phrase));
        if e.verdict == "accept" {
            accepted += 1;
        } else if e.verdict.starts_with("refuse Syntax ") {
            refused += 1;
        }
        let outcome = match not_yet {
            Some(i) if e.verdict == "accept" => {
                not_yet_seen[i] = true;
                match parse_statement(&e.sql, rules) {
                    Err(_) => Ok(()),
                    Ok(s) => Err(format!(
                        "{:?}: read, though listed as not read yet ({}): {s:?}",
                        e.sql, NOT_READ_YET[i].1
                    )),
                }
            }
            _ => compare_verdict(&e.sql, e.dialect, e.kind),
        };
        if let Err(f) = outcome {
            failures.push(f);
        }
    }
    assert!(
        accepted > 800 && refused > 400,
        "{accepted} accepted, {refused} refused"
    );
    assert!(
        failures.is_empty(),
        "{} entries disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for (seen, (phrase, _)) in not_yet_seen.iter().zip(NOT_READ_YET) {
        assert!(
            seen,
            "no accepted entry refused as not read yet has {phrase:?}"
        );
    }
}

/// Each listed difference, on an example: the validator refuses it as a syntax error
/// with that phrase and ours reads it ([`CHECKS_NOT_SYNTAX`]), or the validator accepts
/// it and ours refuses ([`STRICTER`]).
#[test]
fn listed_verdict_differences_hold() {
    let checks = [
        "CREATE EXTERNAL TABLE db.s (a int) STORED AS ORC LOCATION 's3://b/s/'",
        "CREATE TEMPORARY VIEW s (a int) USING parquet",
        "CREATE TEMPORARY VIEW s (a int) USING parquet OPTIONS (p 's3://b/s/')",
        "CREATE TEMPORARY VIEW s (a int) USING parquet OPTIONS (path = 's3://b/s/')",
        "CREATE SCHEMA a WITH (location = + 's3://b/a/')",
        "ALTER TABLE a.t EXECUTE expire_snapshots(retain_last => + 3)",
    ];
    for ((phrase, _, dialect, kind), sql) in CHECKS_NOT_SYNTAX.iter().zip(checks) {
        let e = crate::validate::oracle::validate_sql(sql, *kind, *dialect, 0).expect_err(sql);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
        assert!(e.to_string().contains(phrase), "{sql}: {e}");
        let rules = Rules::of(dialect.grammar(*kind));
        let ours = parse_statement(sql, rules).unwrap_or_else(|e| panic!("{sql}: {e}"));
        assert!(is_of_kind(&ours, *kind), "{sql}: {ours:?}");
    }
    assert_eq!(checks.len(), CHECKS_NOT_SYNTAX.len());
    let stricter = [
        "SHOW TABLES IN IN analytics",
        "SHOW TABLES IN AND analytics",
    ];
    for ((phrase, _, dialect, kind), sql) in STRICTER.iter().zip(stricter) {
        assert!(sql.contains(phrase), "{sql}");
        crate::validate::oracle::validate_sql(sql, *kind, *dialect, 0)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        let e = parse_statement(sql, Rules::of(dialect.grammar(*kind))).expect_err(sql);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
    }
    assert_eq!(stricter.len(), STRICTER.len());
}

/// The statements on tables, views and databases.
pub(super) const DDL_KINDS: &[StatementKind] = &[
    StatementKind::CreateTable,
    StatementKind::DropTable,
    StatementKind::AlterTable,
    StatementKind::ShowCreateTable,
    StatementKind::CreateDatabase,
    StatementKind::DropDatabase,
    StatementKind::ShowTables,
    StatementKind::Describe,
    StatementKind::CreateView,
    StatementKind::DropView,
    StatementKind::CreateStagingTable,
    StatementKind::DropStagingTable,
];

/// `Ok` when ours agrees with the validator's verdict on `sql` (a `kind` in `dialect`):
/// what it accepts, ours reads as a statement of that kind; what it refuses as a
/// syntax error, ours refuses. Listed exceptions: [`CHECKS_NOT_SYNTAX`], [`STRICTER`]
/// and `DELIBERATE`. What it refuses otherwise (an allow-list refusal), ours may read.
pub(super) fn compare_verdict(
    sql: &str,
    dialect: Dialect,
    kind: StatementKind,
) -> Result<(), String> {
    let rules = Rules::of(dialect.grammar(kind));
    let ours = parse_statement(sql, rules);
    let theirs =
        crate::validate::oracle::validate_sql(sql, kind, dialect, sql.matches('?').count());
    let at = format!("{sql:?} ({dialect:?} {kind:?})");
    match (&theirs, &ours) {
        (Ok(()), Ok(s)) if is_of_kind(s, kind) => Ok(()),
        (Ok(()), Ok(s)) => Err(format!("{at}: read as another kind of statement: {s:?}")),
        (Ok(()), Err(e)) if deliberate(e) || stricter(sql, dialect, kind) => Ok(()),
        (Ok(()), Err(e)) => Err(format!("{at}: the validator accepts, ours refuses: {e}")),
        (Err(t), Ok(s))
            if t.kind() == ErrorKind::Syntax
                && !CHECKS_NOT_SYNTAX
                    .iter()
                    .any(|(p, ..)| t.to_string().contains(p)) =>
        {
            Err(format!(
                "{at}: the validator refuses ({t}), ours reads {s:?}"
            ))
        }
        (Err(_), Err(e))
            if !matches!(e.kind(), ErrorKind::Syntax | ErrorKind::DisallowedSyntax) =>
        {
            Err(format!("{at}: unexpected error kind {e}"))
        }
        (Err(_), _) => Ok(()),
    }
}

/// Whether ours and sqlparser read `sql` (a `kind` in `dialect`) into the same tree,
/// where sqlparser's converts to ours (`Ok(true)`) or not (`Ok(false)`).
pub(super) fn compare_trees(
    sql: &str,
    dialect: Dialect,
    kind: StatementKind,
) -> Result<bool, String> {
    let ours = parse_statement(sql, Rules::of(dialect.grammar(kind))).map(in_hive_order);
    match (statement::theirs_statement(sql, kind, dialect), ours) {
        (Ok(Ok(t)), Ok(o)) if t != o => Err(format!(
            "trees differ for {sql:?} ({dialect:?} {kind:?}):\n theirs {t:?}\n ours   {o:?}"
        )),
        (Ok(Ok(_)), Ok(_)) => Ok(true),
        _ => Ok(false),
    }
}

/// `s` with a `CREATE TABLE`'s clauses in Hive's order: sqlparser keeps none (Spark
/// takes them in any order, with the same meaning).
fn in_hive_order(mut s: Statement) -> Statement {
    if let Statement::CreateTable(c) = &mut s {
        c.clauses.sort_by_key(|c| match c {
            TableClause::Comment(_) => 0,
            TableClause::PartitionedBy(_) => 1,
            TableClause::Using(_) => 2,
            TableClause::StoredAs(_) => 3,
            TableClause::Location(_) => 4,
            TableClause::TblProperties(_) => 5,
            TableClause::With(_) => 6,
            TableClause::Options(_) => 7,
        });
    }
    s
}

/// The kinds whose sqlparser trees convert to ours (for `CREATE TABLE`, `ALTER TABLE`
/// and the staging tables, from the nodes the hooks map them onto).
const TREE_KINDS: &[StatementKind] = &[
    StatementKind::CreateTable,
    StatementKind::AlterTable,
    StatementKind::CreateStagingTable,
    StatementKind::DropTable,
    StatementKind::DropDatabase,
    StatementKind::ShowCreateTable,
    StatementKind::Describe,
    StatementKind::ShowTables,
    StatementKind::CreateView,
    StatementKind::DropView,
    StatementKind::CreateDatabase,
    StatementKind::DropStagingTable,
];

/// The statements on tables, views and databases the corpus holds as accepted (the
/// builders' output, a few of each dialect and kind; Trino's `ALTER TABLE … EXECUTE`
/// too), and their corruptions: ours
/// agrees with the validator's verdict on each, and reads the tree sqlparser reads
/// where that converts to ours (each of [`TREE_KINDS`] at least once).
#[test]
fn ddl_corruptions_agree_with_the_validator() {
    let entries = entries();
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut trees_of = std::collections::HashSet::new();
    let all = [
        Dialect::Athena,
        Dialect::AthenaS3Tables,
        Dialect::Spark,
        Dialect::Trino,
    ];
    // Trino's maintenance is an `ALTER TABLE … EXECUTE` too.
    let pairs = DDL_KINDS
        .iter()
        .flat_map(|k| all.iter().map(move |d| (k, *d)))
        .chain([
            (&StatementKind::Optimize, Dialect::Trino),
            (&StatementKind::Vacuum, Dialect::Trino),
        ]);
    for (kind, dialect) in pairs {
        {
            let mut of_kind: Vec<&Entry> = entries
                .iter()
                .filter(|e| e.kind == *kind && e.dialect == dialect && e.verdict == "accept")
                .collect();
            // The longest have the most clauses; one short one besides.
            of_kind.sort_by_key(|e| std::cmp::Reverse(e.sql.len()));
            let short = of_kind.last().copied();
            of_kind.truncate(2);
            of_kind.extend(short);
            of_kind.dedup_by_key(|e| e.sql.as_str());
            for e in of_kind {
                let rules = Rules::of(dialect.grammar(*kind));
                checked += 1;
                match compare_trees(&e.sql, dialect, *kind) {
                    Ok(true) => {
                        trees_of.insert(format!("{kind:?}"));
                    }
                    Ok(false) => {}
                    Err(f) => failures.push(f),
                }
                let variants = std::iter::once(e.sql.clone()).chain(corruptions(&e.sql, rules));
                for v in variants {
                    let outcome = compare_verdict(&v, dialect, *kind)
                        .and_then(|()| compare_trees(&v, dialect, *kind).map(|_| ()));
                    if let Err(f) = outcome {
                        failures.push(f);
                    }
                }
            }
        }
    }
    assert!(checked > 50, "{checked} statements");
    assert!(
        failures.is_empty(),
        "{} disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for kind in TREE_KINDS {
        assert!(
            trees_of.contains(&format!("{kind:?}")),
            "no tree of {kind:?} compared"
        );
    }
}
