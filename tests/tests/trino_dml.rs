//! Athena's DML text, run verbatim on Trino 476 with Iceberg (Athena engine v3 is built on
//! Trino): INSERT batches of hostile text and nested values, extreme numbers, dates,
//! timestamps, decimals, NaN and infinities and NULLs, UPDATE, DELETE, MERGE from inline
//! rows (also with NULL-safe keys, a de-duplicated source and a conditional DELETE),
//! time travel by version and by timestamp, and the `"db"."t$snapshots"` metadata table
//! decoded into `SnapshotRow`. Every statement is built by the crate with
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

/// A nested struct type (not a table).
#[derive(IcebergTable, Debug, Clone, PartialEq)]
pub struct Point {
    pub lat: f64,
    pub tag: Option<String>,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "trino_types",
    name = "every_type",
    location = "s3://trino-types/iceberg/every_type/"
)]
pub struct EveryType {
    pub id: i64,
    pub k: Option<String>,
    pub b: bool,
    pub i: i32,
    pub f: f32,
    pub d: f64,
    #[iceberg(type = "decimal(38, 9)")]
    pub dec: iceberg_sql::Decimal,
    pub day: NaiveDate,
    pub at: chrono::NaiveDateTime,
    pub s: String,
    pub note: Option<String>,
    pub bin: Vec<u8>,
    pub tags: Vec<Option<String>>,
    pub counts: BTreeMap<String, i64>,
    pub place: Point,
    pub places: Option<Vec<Point>>,
}

fn extremes() -> Vec<EveryType> {
    use iceberg_sql::Decimal;
    let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
    let base = EveryType {
        id: 0,
        k: None,
        b: true,
        i: 0,
        f: 0.0,
        d: 0.0,
        dec: Decimal::parse("0").unwrap(),
        day: day(1970, 1, 1),
        at: day(1970, 1, 1).and_hms_opt(0, 0, 0).unwrap(),
        s: String::new(),
        note: None,
        bin: vec![],
        tags: vec![],
        counts: BTreeMap::new(),
        place: Point {
            lat: 0.0,
            tag: None,
        },
        places: None,
    };
    let mut rows = Vec::new();
    let values: [(i32, f32, f64, &str); 6] = [
        (
            i32::MIN,
            f32::MIN_POSITIVE,
            f64::INFINITY,
            "-99999999999999999999999999999.999999999",
        ),
        (
            i32::MAX,
            f32::MAX,
            f64::NEG_INFINITY,
            "99999999999999999999999999999.999999999",
        ),
        (-1, -0.25, f64::NAN, "0.000000001"),
        (1, f32::INFINITY, -1e300, "-0.000000001"),
        (2, f32::NAN, 5e-324, "12345678901234567890.500000000"),
        (3, 1.5, f64::MAX, "-1.000000000"),
    ];
    let days = [
        day(1, 1, 1),
        day(9999, 12, 31),
        day(1969, 12, 31),
        day(2024, 2, 29),
        day(1582, 10, 15),
        day(2038, 1, 19),
    ];
    for (n, ((i, f, d, dec), dd)) in values.into_iter().zip(days).enumerate() {
        let mut r = base.clone();
        r.id = n as i64;
        r.k = (n % 3 != 0).then(|| HOSTILE[n].to_string());
        r.b = n % 2 == 0;
        r.i = i;
        r.f = f;
        r.d = d;
        r.dec = Decimal::parse(dec).unwrap();
        r.day = dd;
        r.at = dd
            .and_hms_micro_opt(23, 59, 59, 999_999 - n as u32)
            .unwrap();
        r.s = HOSTILE[n + 10].to_string();
        r.note = (n % 2 == 1).then(|| HOSTILE[n + 3].to_string());
        r.bin = (0..n as u8 * 3).map(|x| x.wrapping_mul(97)).collect();
        r.tags = vec![Some(HOSTILE[n].into()), None];
        r.counts = BTreeMap::from([(HOSTILE[n + 1].to_string(), i64::MIN + n as i64)]);
        r.place = Point {
            lat: d,
            tag: r.k.clone(),
        };
        r.places = (n % 2 == 0).then(|| {
            vec![Point {
                lat: -0.5,
                tag: None,
            }]
        });
        rows.push(r);
    }
    rows
}

/// Compares rows where NaN equals NaN (the model's floats).
fn same(a: &[EveryType], b: &[EveryType]) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

#[test]
fn extreme_values_and_merge_forms_through_athena_dml_verbatim_on_trino() {
    let Some(trino) =
        Trino::get_or_skip("extreme_values_and_merge_forms_through_athena_dml_verbatim_on_trino")
    else {
        return;
    };
    trino.ensure_bucket("trino-types");
    trino.ensure_schema("trino_types");
    let def = EveryType::table_def();
    trino.run(format!("DROP TABLE IF EXISTS {}", def.name()));
    trino.run(def.create_table().build_for(Dialect::Trino).unwrap());
    let read = || -> Vec<EveryType> {
        decode(
            &trino.run(
                EveryType::select()
                    .order_by(EveryType::ID, Order::Asc)
                    .build()
                    .unwrap(),
            ),
        )
    };

    let mut model = extremes();
    trino.run(EveryType::insert(&model).build().unwrap());
    let got = read();
    assert!(
        same(&got, &model),
        "read back:\n{got:#?}\nexpected:\n{model:#?}"
    );

    // `is_nan()` finds the NaN rows of a real and of a double column (a comparison with
    // NaN matches none), and its negation the others.
    let ids = |filter: Cond<EveryType>| -> Vec<i64> {
        let q = EveryType::select()
            .column(EveryType::ID)
            .filter(filter)
            .order_by(EveryType::ID, Order::Asc)
            .build()
            .unwrap();
        assert!(q.sql().contains("is_nan("), "{q}");
        trino
            .run(&q)
            .rows
            .iter()
            .map(|r| r[0].as_deref().unwrap().parse().unwrap())
            .collect()
    };
    let where_nan = |nan: &dyn Fn(&EveryType) -> bool| -> Vec<i64> {
        model.iter().filter(|r| nan(r)).map(|r| r.id).collect()
    };
    assert_eq!(ids(EveryType::D.is_nan()), where_nan(&|r| r.d.is_nan()));
    assert_eq!(ids(EveryType::F.is_nan()), where_nan(&|r| r.f.is_nan()));
    assert_eq!(
        ids(EveryType::D.is_nan().not()),
        where_nan(&|r| !r.d.is_nan())
    );
    assert_eq!(where_nan(&|r| r.d.is_nan()).len(), 1);

    // MERGE with NULL-safe keys on a nullable key, a de-duplicated source (two source
    // rows per key: the greater `at` wins), every clause kind: a conditional DELETE, an
    // UPDATE, an INSERT.
    let mut src = Vec::new();
    for r in &model {
        let mut older = r.clone();
        older.s = "older".into();
        older.at -= chrono::Duration::seconds(1);
        let mut newer = r.clone();
        newer.s = format!("newer {}", HOSTILE[r.id as usize]);
        newer.i = r.i.wrapping_add(1);
        src.push(older);
        src.push(newer);
    }
    let mut fresh = model[1].clone();
    fresh.id = 100;
    fresh.k = Some("fresh key".into());
    src.push(fresh.clone());
    let merge = EveryType::merge_from(MergeSource::rows(&src))
        .on_key(EveryType::K)
        .null_safe_keys()
        .dedup_source(EveryType::AT)
        .when_matched_and(iceberg_sql::dsl::source(EveryType::ID).eq(4i64))
        .delete()
        .when_matched()
        .update_all()
        .when_not_matched()
        .insert_all()
        .build()
        .unwrap();
    let sql = merge.sql().to_string();
    assert!(sql.contains("IS NOT DISTINCT FROM"), "{sql}");
    // Source rows with a NULL key: ids 0 and 3 share the NULL key, so the dedup keeps
    // one of them per key (the greater `at`): model rows 0 and 3 both match it.
    match trino.sql(&sql) {
        Ok(_) => {
            let newest_null = src
                .iter()
                .filter(|s| s.k.is_none())
                .max_by_key(|s| s.at)
                .unwrap()
                .clone();
            let mut expected = Vec::new();
            for r in &model {
                let hit = if r.k.is_none() {
                    Some(newest_null.clone())
                } else {
                    src.iter()
                        .filter(|s| s.k == r.k)
                        .max_by_key(|s| s.at)
                        .cloned()
                };
                match hit {
                    Some(s) if s.id == 4 => {}
                    Some(s) => expected.push(s),
                    None => expected.push(r.clone()),
                }
            }
            expected.push(fresh);
            expected.sort_by_key(|r| r.id);
            model = expected;
            let got = read();
            assert!(
                same(&got, &model),
                "after MERGE:\n{got:#?}\nexpected:\n{model:#?}"
            );
        }
        Err(e) => panic!("{e}"),
    }
}
