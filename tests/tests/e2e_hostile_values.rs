//! End-to-end: hostile text in every column type that holds text (string, nullable
//! string, list<string>, map<string,string>, struct fields, a list of structs), written
//! through the builders in the Spark dialect (INSERT batches, UPDATE, DELETE, MERGE),
//! read back through the derive byte-exact, and the table intact afterwards (row count,
//! untouched rows, one snapshot per statement: nothing was injected).
//!
//! Athena's rendering is not run here: it doubles `'`, which Spark reads as two adjacent
//! literals (pinned by `engine_smoke::trino_style_doubled_quote_is_concatenation_in_spark`).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use iceberg_sql::dml::MergeSource;
use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;
use iceberg_sql_tests::engine::{Engine, QueryResult};

/// A nested struct type (not a table).
#[derive(IcebergTable, Debug, Clone, PartialEq)]
pub struct Note {
    pub title: String,
    pub body: Option<String>,
    pub tags: Vec<String>,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "hostile",
    name = "texts",
    location = "s3://hostile-bucket/iceberg/texts/",
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

/// NUL-free, byte-exact: quotes of every kind, backslashes in every position, statement
/// separators, comment markers, newlines, Spark/JDBC placeholders, unicode.
const HOSTILE: &[&str] = &[
    "it's",
    "''",
    "'",
    "\\",
    "ends with a backslash \\",
    "\\'",
    "\\\\'; DROP TABLE hostile.texts; --",
    "'); DELETE FROM hostile.texts WHERE ('1'='1",
    "a;b;;",
    "-- not a comment",
    "/* not a comment */ */ /*",
    "# hash",
    "line1\nline2\r\nline3\rtab\there",
    "C:\\path\\new (a backslash, then n)",
    "\\n \\t \\u0041 \\x41 \\0",
    "\"double\" `back` ´acute´",
    "${var} ${spark.sql.x} ? :p $1 %s {}",
    "100% _under_ LIKE%",
    "zürich ✓ 😀 日本語 עִבְרִית e\u{301} \u{202e}rtl\u{202c}",
    "\u{1}\u{7}\u{1b}[31m control \u{7f}",
    "",
    " ",
    "NULL",
    "null",
    "{\"json\": [1, \"two\", null]}",
    "map('k', 'v')",
    "named_struct('a', 1)",
    "x'00ff'",
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

fn read_all(engine: &Engine) -> Vec<Text> {
    let q = Text::select()
        .order_by(Text::ID, Order::Asc)
        .build_for(Dialect::Spark)
        .unwrap();
    decode(&engine.run(&q))
}

fn decode(r: &QueryResult) -> Vec<Text> {
    r.rows
        .iter()
        .map(|c| Text::from_row(&r.row(c)).expect("row decodes"))
        .collect()
}

#[track_caller]
fn assert_rows(got: &[Text], want: &[Text]) {
    assert_eq!(got.len(), want.len(), "row count");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g, w, "row id {}", w.id);
    }
}

fn snapshot_count(engine: &Engine) -> i64 {
    engine
        .run("SELECT count(*) FROM hostile.texts.snapshots")
        .scalar_i64()
}

#[test]
fn hostile_text_round_trips_byte_exact_in_every_text_type() {
    let Some(engine) =
        Engine::get_or_skip("hostile_text_round_trips_byte_exact_in_every_text_type")
    else {
        return;
    };
    let spark = Dialect::Spark;
    engine.run("CREATE NAMESPACE IF NOT EXISTS hostile");
    let def = Text::table_def();
    engine.run(def.create_table().build_for(spark).unwrap());

    // Every hostile value appears in every column, through two or more INSERT batches.
    let mut model: Vec<Text> = (0..2 * HOSTILE.len()).map(row).collect();
    let batches = Text::insert(&model)
        .max_bytes(8 * 1024)
        .batches_for(spark)
        .unwrap();
    assert!(batches.len() >= 2, "{} batches", batches.len());
    for b in &batches {
        engine.run(b);
    }
    assert_rows(&read_all(engine), &model);
    let mut snaps = batches.len() as i64;
    assert_eq!(snapshot_count(engine), snaps);

    // Lookups by hostile value hit exactly the rows holding it (the literal is exact).
    for (k, h) in HOSTILE.iter().enumerate() {
        let q = Text::select()
            .filter(Text::KEY.eq(*h))
            .order_by(Text::ID, Order::Asc)
            .build_for(spark)
            .unwrap();
        let ids: Vec<i64> = decode(&engine.run(&q)).iter().map(|t| t.id).collect();
        let want: Vec<i64> = model.iter().filter(|t| t.key == *h).map(|t| t.id).collect();
        assert_eq!(ids, want, "lookup of HOSTILE[{k}] {h:?}");
    }

    // UPDATE: write hostile values with a hostile filter; only the targeted rows change.
    let victim = HOSTILE[6]; // "\\'; DROP TABLE ...; --"
    let new_body = HOSTILE[7];
    engine.run(
        Text::update()
            .set(Text::BODY, new_body)
            .set(Text::KEY, HOSTILE[12])
            .filter(Text::KEY.eq(victim))
            .build_for(spark)
            .unwrap(),
    );
    let mut hit = 0;
    for t in model.iter_mut().filter(|t| t.key == victim) {
        t.body = Some(new_body.to_string());
        t.key = HOSTILE[12].to_string();
        hit += 1;
    }
    assert!(hit >= 2);
    snaps += 1;
    assert_rows(&read_all(engine), &model);

    // DELETE by a hostile value (a lone quote): exactly its rows go.
    engine.run(
        Text::delete()
            .filter(Text::KEY.eq(HOSTILE[2]))
            .build_for(spark)
            .unwrap(),
    );
    let before = model.len();
    model.retain(|t| t.key != HOSTILE[2]);
    assert_eq!(before - model.len(), 2);
    snaps += 1;
    assert_rows(&read_all(engine), &model);

    // MERGE from a staging table whose rows carry hostile values and hostile keys.
    let staging = def
        .renamed("hostile", "texts_staging")
        .with_location(Location::parse("s3://hostile-bucket/iceberg/texts_staging/").unwrap());
    engine.run(staging.create_table().build_for(spark).unwrap());
    let mut src: Vec<Text> = Vec::new();
    for (j, t) in model.iter().take(6).enumerate() {
        let mut u = row(t.id as usize + 17);
        u.id = t.id;
        u.key = format!("{}{}", t.key, HOSTILE[j]);
        src.push(u);
    }
    for j in 0..4 {
        let mut n = row(1000 + j);
        n.id = 1000 + j as i64;
        src.push(n);
    }
    engine.run(
        Text::insert(&src)
            .into_table(staging.name().clone())
            .build_for(spark)
            .unwrap(),
    );
    engine.run(
        Text::merge_from(MergeSource::table(staging.name().clone()))
            .on_key(Text::ID)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build_for(spark)
            .unwrap(),
    );
    for s in &src {
        match model.iter_mut().find(|t| t.id == s.id) {
            Some(t) => *t = s.clone(),
            None => model.push(s.clone()),
        }
    }
    model.sort_by_key(|t| t.id);
    snaps += 1;
    assert_rows(&read_all(engine), &model);

    // The table is intact: nothing was dropped or injected, one snapshot per statement,
    // and the namespace still holds exactly our two tables.
    assert_eq!(snapshot_count(engine), snaps);
    assert_eq!(
        engine
            .run("SELECT count(*) FROM hostile.texts")
            .scalar_i64(),
        model.len() as i64
    );
    let tables = engine.run("SHOW TABLES IN hostile");
    let mut names: Vec<&str> = tables.column("tableName").into_iter().flatten().collect();
    names.sort();
    assert_eq!(names, ["texts", "texts_staging"]);
}
