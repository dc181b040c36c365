//! Athena's DML text, run verbatim on Trino 476 with Iceberg (Athena engine v3 is built on
//! Trino): INSERT batches of hostile text and nested values, UPDATE, DELETE, MERGE from
//! inline rows, time travel by version and by timestamp, and the `"db"."t$snapshots"`
//! metadata table decoded into `SnapshotRow`. Every statement is built by the crate with
//! `.build()` (the Athena target) except CREATE TABLE, whose Athena form is Hive DDL that
//! only Athena reads: it runs in its Trino-target form. Rows are read back through the
//! crate's SELECT (Athena text too) and compared with a model in Rust, exactly.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use iceberg_sql::dml::MergeSource;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{Order, Snapshot, SnapshotRow};
use iceberg_sql_tests::trino::{QueryResult, Trino};

/// A nested struct type (not a table).
#[derive(IcebergTable, Debug, Clone, PartialEq)]
pub struct Note {
    pub title: String,
    pub body: Option<String>,
    pub tags: Vec<String>,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "trino_hostile",
    name = "texts",
    location = "s3://trino-hostile/iceberg/texts/",
    partition(day, bucket(4, key))
)]
pub struct Text {
    pub id: i64,
    pub key: String,
    pub day: NaiveDate,
    pub body: Option<String>,
    pub words: Vec<String>,
    pub attrs: BTreeMap<String, String>,
    pub note: Note,
    pub notes: Vec<Note>,
    pub maybe_words: Option<Vec<Option<String>>>,
}

/// NUL-free, byte-exact: quotes of every kind, backslashes, statement separators, comment
/// markers, newlines, placeholders, unicode (combining marks, right-to-left overrides).
const HOSTILE: &[&str] = &[
    "it's",
    "''",
    "'",
    "\\",
    "ends with a backslash \\",
    "\\'",
    "\\\\'; DROP TABLE trino_hostile.texts; --",
    "'); DELETE FROM trino_hostile.texts WHERE ('1'='1",
    "a;b;;",
    "-- not a comment",
    "/* not a comment */ */ /*",
    "line1\nline2\r\nline3\rtab\there",
    "\"double\" `back` ´acute´",
    "${var} ? :p $1 %s {}",
    "100% _under_ LIKE%",
    "zürich ✓ 😀 日本語 עִבְרִית e\u{301} \u{202e}rtl\u{202c}",
    "\u{1}\u{7}\u{1b}[31m control \u{7f}",
    "",
    " ",
    "NULL",
    "{\"json\": [1, \"two\", null]}",
    "map(ARRAY['k'], ARRAY['v'])",
    "X'00ff'",
    "TIMESTAMP '2024-01-01 00:00:00'",
];

fn row(i: usize) -> Text {
    let s = |k: usize| HOSTILE[k % HOSTILE.len()].to_string();
    let mut attrs = BTreeMap::new();
    attrs.insert(s(i), s(i + 1));
    attrs.insert(format!("k{i}:{}", s(i + 2)), s(i + 3));
    Text {
        id: i as i64,
        key: s(i),
        day: NaiveDate::from_ymd_opt(2024, 1, 1 + (i % 3) as u32).unwrap(),
        body: if i % 7 == 6 { None } else { Some(s(i + 4)) },
        words: (0..i % 4).map(|j| s(i + 5 + j)).collect(),
        attrs,
        note: Note {
            title: s(i + 6),
            body: if i.is_multiple_of(5) {
                None
            } else {
                Some(s(i + 7))
            },
            tags: vec![s(i + 8), s(i + 9)],
        },
        notes: (0..i % 3)
            .map(|j| Note {
                title: s(i + 10 + j),
                body: Some(s(i + 11 + j)),
                tags: vec![s(i + 12 + j)],
            })
            .collect(),
        maybe_words: match i % 3 {
            0 => None,
            1 => Some(vec![Some(s(i + 13)), None]),
            _ => Some(vec![]),
        },
    }
}

fn decode<T: FromRow>(r: &QueryResult) -> Vec<T> {
    r.result_rows()
        .iter()
        .map(|row| T::from_row(row).unwrap_or_else(|e| panic!("row decodes: {e}\n{row:?}")))
        .collect()
}

fn read_all(trino: &Trino, as_of: Option<Snapshot>) -> Vec<Text> {
    let mut q = Text::select().order_by(Text::ID, Order::Asc);
    if let Some(s) = as_of {
        q = q.as_of(s);
    }
    decode(&trino.run(q.build().unwrap()))
}

fn snapshots(trino: &Trino) -> Vec<SnapshotRow> {
    let q = Text::metadata::<SnapshotRow>()
        .order_by(SnapshotRow::COMMITTED_AT, Order::Asc)
        .build()
        .unwrap();
    assert!(q.sql().contains("\"texts$snapshots\""), "{q}");
    decode(&trino.run(&q))
}

#[test]
fn hostile_rows_through_athena_dml_verbatim_on_trino() {
    let Some(trino) = Trino::get_or_skip("hostile_rows_through_athena_dml_verbatim_on_trino")
    else {
        return;
    };
    trino.ensure_bucket("trino-hostile");
    trino.ensure_schema("trino_hostile");
    let def = Text::table_def();
    trino.run(format!("DROP TABLE IF EXISTS {}", def.name()));
    trino.run(def.create_table().build_for(Dialect::Trino).unwrap());

    // INSERT batches (Athena text), small enough for several statements.
    let mut model: Vec<Text> = (0..72).map(row).collect();
    let batches = Text::insert(&model).max_bytes(8 * 1024).batches().unwrap();
    assert!(batches.len() >= 3, "{} batches", batches.len());
    for b in &batches {
        trino.run(b);
    }
    assert_eq!(read_all(trino, None), model);
    let loaded = snapshots(trino).pop().expect("a snapshot after the load");
    let loaded_rows = model.clone();

    // UPDATE: the rows whose key is `it's` get a hostile body.
    trino.run(
        Text::update()
            .set(Text::BODY, HOSTILE[6])
            .filter(Text::KEY.eq(HOSTILE[0]))
            .build()
            .unwrap(),
    );
    let mut hit = 0;
    for t in model.iter_mut().filter(|t| t.key == HOSTILE[0]) {
        t.body = Some(HOSTILE[6].into());
        hit += 1;
    }
    assert!(hit >= 2, "{hit}");
    assert_eq!(read_all(trino, None), model);

    // DELETE: the rows whose key is a lone quote, and those without a body.
    trino.run(
        Text::delete()
            .filter(Text::KEY.eq(HOSTILE[2]).or(Text::BODY.is_null()))
            .build()
            .unwrap(),
    );
    let before = model.len();
    model.retain(|t| !(t.key == HOSTILE[2] || t.body.is_none()));
    assert!(before - model.len() >= 10, "{before} -> {}", model.len());
    assert_eq!(read_all(trino, None), model);
    let deleted = snapshots(trino).pop().expect("a snapshot after the DELETE");
    let deleted_rows = model.clone();

    // MERGE from inline rows: some ids exist (updated), some are new (inserted).
    let src: Vec<Text> = (60..90)
        .map(|i| {
            let mut t = row(i + 5);
            t.id = i as i64;
            t
        })
        .collect();
    trino.run(
        Text::merge_from(MergeSource::rows(&src))
            .on_key(Text::ID)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build()
            .unwrap(),
    );
    for s in &src {
        match model.iter_mut().find(|t| t.id == s.id) {
            Some(t) => *t = s.clone(),
            None => model.push(s.clone()),
        }
    }
    model.sort_by_key(|t| t.id);
    assert_eq!(read_all(trino, None), model);

    // One snapshot per statement, nothing injected; Trino's CREATE TABLE commits the
    // first, empty one.
    let snaps = snapshots(trino);
    let ops: Vec<(Option<&str>, Option<&str>)> = snaps
        .iter()
        .map(|s| {
            let added = s.summary.as_ref().and_then(|m| m.get("added-records"));
            (s.operation.as_deref(), added.map(String::as_str))
        })
        .collect();
    assert_eq!(snaps.len(), 1 + batches.len() + 3, "{ops:?}");
    assert_eq!(ops[0], (Some("append"), None));
    let added: usize = ops[1..=batches.len()]
        .iter()
        .map(|(op, n)| {
            assert_eq!(*op, Some("append"));
            n.and_then(|n| n.parse::<usize>().ok()).unwrap_or(0)
        })
        .sum();
    assert_eq!(added, 72);
    assert_eq!(
        ops[batches.len() + 1..]
            .iter()
            .map(|o| o.0)
            .collect::<Vec<_>>(),
        [Some("overwrite"), Some("delete"), Some("overwrite")]
    );
    for w in snaps.windows(2) {
        assert_eq!(w[1].parent_id, Some(w[0].snapshot_id));
    }

    // Time travel, Athena's spelling, by version and by timestamp.
    for (snap, rows) in [(&loaded, &loaded_rows), (&deleted, &deleted_rows)] {
        assert_eq!(
            &read_all(trino, Some(Snapshot::Version(snap.snapshot_id))),
            rows
        );
        assert_eq!(
            &read_all(trino, Some(Snapshot::Timestamp(snap.committed_at))),
            rows
        );
    }
}
