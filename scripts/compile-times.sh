#!/usr/bin/env bash
# Compile time of a small app using iceberg-sql (with the derive) beside the same app
# written with sea-query (+ its derive + chrono):
#   * cold `cargo build` (dev profile) in a fresh target directory of its own;
#   * incremental rebuild after touching the app's main.rs (median of 3).
# Prints CPU (user+sys) and wall seconds, and the ratios ours / sea-query.
#
#   ./scripts/compile-times.sh [--timings] [--tables N]
#
# --timings: also keep cargo's HTML report. --tables N: N more record types, each
# with the same statements in both apps (INSERT, UPDATE, DELETE, SELECT; ours also a
# MERGE, which sea-query has no builder for): what an app with many tables pays for
# the builders' generic code.
#
# CPU time is the stable measure on a shared machine; wall time depends on the load.
#
# The app takes iceberg-sql as a git dependency on a commit of this repository
# (ICEBERG_SQL_REV, default HEAD: commit what you measure), not as a path dependency:
# cargo builds path dependencies incrementally with 256 codegen units, which a user who
# gets the crate from crates.io never pays (sea-query comes from crates.io). Measured
# 2026-12-02: the path form cost 8% more CPU cold.
set -euo pipefail
repo="${ICEBERG_SQL_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"   # ICEBERG_SQL_REPO: another clone
rev=$(git -C "$repo" rev-parse "${ICEBERG_SQL_REV:-HEAD}")
work="${COMPILE_TIMES_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/compile-times.XXXXXX")}"
timings=()
tables=0
while [ $# -gt 0 ]; do
    case "$1" in
        --timings) timings=(--timings) ;;
        --tables) tables="$2"; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

mkdir -p "$work/ours/src" "$work/sea/src"
cat >"$work/ours/Cargo.toml" <<TOML
[package]
name = "app-ours"
version = "0.1.0"
edition = "2021"
[dependencies]
iceberg-sql = { git = "file://$repo", rev = "$rev" }
chrono = { version = "0.4", default-features = false, features = ["std"] }
[workspace]
TOML
cat >"$work/ours/src/main.rs" <<'RS'
use iceberg_sql::prelude::*;

#[derive(IcebergTable, Debug, Clone)]
#[iceberg(database = "analytics", name = "mcp_events",
          location = "s3://my-datalake/iceberg/mcp_events/",
          partition(day(event_ts), bucket(16, user_id)))]
pub struct McpEvent {
    pub event_id: String,
    pub user_id: String,
    pub event_ts: chrono::NaiveDateTime,
    pub payload: Option<String>,
    pub latency_ms: i64,
}

fn main() -> Result<(), Error> {
    let row = McpEvent {
        event_id: "evt-1".into(),
        user_id: "u".into(),
        event_ts: chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap().and_hms_opt(12, 0, 0).unwrap(),
        payload: None,
        latency_ms: 150,
    };
    println!("{}", McpEvent::insert(&[row]).build()?);
    println!("{}", McpEvent::update().set(McpEvent::LATENCY_MS, 320)
        .filter(McpEvent::EVENT_ID.eq("evt-1")).build()?);
    Ok(())
}
RS
cat >"$work/sea/Cargo.toml" <<'TOML'
[package]
name = "app-sea"
version = "0.1.0"
edition = "2021"
[dependencies]
sea-query = { version = "1", features = ["with-chrono"] }
chrono = { version = "0.4", default-features = false, features = ["std"] }
[workspace]
TOML
cat >"$work/sea/src/main.rs" <<'RS'
use sea_query::{Expr, ExprTrait, Iden, PostgresQueryBuilder, Query};

#[derive(Iden)]
enum McpEvents { Table, EventId, UserId, EventTs, Payload, LatencyMs }

fn main() {
    let ts = chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap().and_hms_opt(12, 0, 0).unwrap();
    let q = Query::insert()
        .into_table(McpEvents::Table)
        .columns([McpEvents::EventId, McpEvents::UserId, McpEvents::EventTs, McpEvents::Payload, McpEvents::LatencyMs])
        .values_panic(["evt-1".into(), "u".into(), ts.into(), Option::<String>::None.into(), 150i64.into()])
        .to_string(PostgresQueryBuilder);
    println!("{q}");
    let u = Query::update().table(McpEvents::Table).values([(McpEvents::LatencyMs, 320i64.into())])
        .and_where(Expr::col(McpEvents::EventId).eq("evt-1")).to_string(PostgresQueryBuilder);
    println!("{u}");
}
RS

# The --tables record types: one module per table in each app, called from main.
if [ "$tables" -gt 0 ]; then
    for i in $(seq 1 "$tables"); do
        cat >>"$work/ours/src/main.rs" <<RS
mod t$i {
    use iceberg_sql::prelude::*;
    #[derive(IcebergTable, Debug, Clone)]
    #[iceberg(database = "analytics", name = "events_$i", location = "s3://lake/events_$i/",
              partition(day(event_ts)))]
    pub struct Event$i {
        pub event_id: String,
        pub status: String,
        pub event_ts: chrono::NaiveDateTime,
        pub latency_ms: i64,
    }
    pub fn run(rows: &[Event$i]) -> Result<(), Error> {
        println!("{}", Event$i::insert(rows).build()?);
        println!("{}", Event$i::update().set(Event$i::STATUS, "retried")
            .filter(Event$i::EVENT_ID.eq("evt-1")).build()?);
        println!("{}", Event$i::delete().filter(Event$i::LATENCY_MS.gt(1000)).build()?);
        println!("{}", Event$i::select().column(Event$i::EVENT_ID)
            .filter(Event$i::STATUS.eq("ok")).build()?);
        println!("{}", Event$i::merge_from(MergeSource::rows(rows)).on_key(Event$i::EVENT_ID)
            .when_matched().update_all().when_not_matched().insert_all().build()?);
        Ok(())
    }
}
RS
        cat >>"$work/sea/src/main.rs" <<RS
mod t$i {
    use sea_query::{Expr, ExprTrait, Iden, PostgresQueryBuilder, Query};
    #[derive(Iden)]
    enum Events$i { Table, EventId, Status, EventTs, LatencyMs }
    pub fn run(rows: &[(String, String, chrono::NaiveDateTime, i64)]) {
        let mut q = Query::insert();
        q.into_table(Events$i::Table)
            .columns([Events$i::EventId, Events$i::Status, Events$i::EventTs, Events$i::LatencyMs]);
        for r in rows {
            q.values_panic([r.0.clone().into(), r.1.clone().into(), r.2.into(), r.3.into()]);
        }
        println!("{}", q.to_string(PostgresQueryBuilder));
        println!("{}", Query::update().table(Events$i::Table).values([(Events$i::Status, "retried".into())])
            .and_where(Expr::col(Events$i::EventId).eq("evt-1")).to_string(PostgresQueryBuilder));
        println!("{}", Query::delete().from_table(Events$i::Table)
            .and_where(Expr::col(Events$i::LatencyMs).gt(1000)).to_string(PostgresQueryBuilder));
        println!("{}", Query::select().column(Events$i::EventId).from(Events$i::Table)
            .and_where(Expr::col(Events$i::Status).eq("ok")).to_string(PostgresQueryBuilder));
    }
}
RS
    done
    # main calls each table's statements once.
    sed -i 's/^    Ok(())$/    run_tables()?;\n    Ok(())/' "$work/ours/src/main.rs"
    sed -i 's/^    println!("{u}");$/    println!("{u}");\n    run_tables();/' "$work/sea/src/main.rs"
    {
        echo 'fn run_tables() -> Result<(), Error> {'
        for i in $(seq 1 "$tables"); do echo "    t$i::run(&[])?;"; done
        echo '    Ok(())'
        echo '}'
    } >>"$work/ours/src/main.rs"
    {
        echo 'fn run_tables() {'
        for i in $(seq 1 "$tables"); do echo "    t$i::run(&[]);"; done
        echo '}'
    } >>"$work/sea/src/main.rs"
fi

# Prints "wall user+sys" seconds of one cargo command.
timed() {
    local TIMEFORMAT='%R %U %S' out
    out=$( { time "$@" >/dev/null 2>"$work/last.log"; } 2>&1 ) || { cat "$work/last.log" >&2; return 1; }
    awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' <<<"$out"
}

declare -A cold_wall cold_cpu inc_wall inc_cpu
for app in ours sea; do
    dir="$work/$app"
    (cd "$dir" && cargo fetch -q)   # downloads are not compile time
    export CARGO_TARGET_DIR="$dir/target"
    rm -rf "$CARGO_TARGET_DIR"
    read -r w c < <(cd "$dir" && timed cargo build "${timings[@]}")
    cold_wall[$app]=$w; cold_cpu[$app]=$c
    ws=(); cs=()
    for _ in 1 2 3; do
        touch "$dir/src/main.rs"
        read -r w c < <(cd "$dir" && timed cargo build)
        ws+=("$w"); cs+=("$c")
    done
    inc_wall[$app]=$(printf '%s\n' "${ws[@]}" | sort -n | sed -n 2p)
    inc_cpu[$app]=$(printf '%s\n' "${cs[@]}" | sort -n | sed -n 2p)
    echo "$app: cold ${cold_cpu[$app]} s CPU / ${cold_wall[$app]} s wall; incremental ${inc_cpu[$app]} s CPU / ${inc_wall[$app]} s wall" >&2
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "iceberg-sql at $rev" >&2
echo "| build (dev profile, $((tables + 1)) table(s), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)) | iceberg-sql + derive: CPU / wall | sea-query + derive + chrono: CPU / wall | ratio CPU / wall |"
echo "|---|---:|---:|---:|"
echo "| cold | ${cold_cpu[ours]} s / ${cold_wall[ours]} s | ${cold_cpu[sea]} s / ${cold_wall[sea]} s | $(ratio "${cold_cpu[ours]}" "${cold_cpu[sea]}") / $(ratio "${cold_wall[ours]}" "${cold_wall[sea]}") |"
echo "| incremental (touch main.rs, median of 3) | ${inc_cpu[ours]} s / ${inc_wall[ours]} s | ${inc_cpu[sea]} s / ${inc_wall[sea]} s | $(ratio "${inc_cpu[ours]}" "${inc_cpu[sea]}") / $(ratio "${inc_wall[ours]}" "${inc_wall[sea]}") |"
[ ${#timings[@]} -gt 0 ] && echo "cargo timings: $work/ours/target/cargo-timings/" >&2
echo "apps and target dirs: $work" >&2
