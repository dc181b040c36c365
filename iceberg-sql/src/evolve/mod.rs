//! Schema evolution: from the live table to the desired one, in legal steps.
//!
//! [`evolve`] compares the live definition (parsed from `SHOW CREATE TABLE` /
//! `DESCRIBE` output with [`parse_show_create_table`] / [`parse_describe`], or built by
//! hand) with the desired one (usually `T::table_def()` from the derive) and returns
//! either an [`EvolutionPlan`] (ordered statements, each marked breaking or not) or one
//! error that lists **every** change Athena cannot make in place, each with its way out.
//!
//! What is planned, in this order:
//!
//! 1. renames (from [`Column::renamed_from`](crate::Column)): breaking;
//! 2. legal type promotions (`int -> bigint`, `float -> double`, decimal precision up
//!    with the same scale): breaking (readers see a new type);
//! 3. new columns, in one `ADD COLUMNS`: not breaking;
//! 4. drops, only with [`EvolveOptions::allow_drops`]: breaking;
//! 5. changed table properties, in one `SET TBLPROPERTIES`: not breaking;
//!
//! What is refused (Athena cannot do it in place): any other type change (narrowing,
//! scale change, int -> string, nested type changes), a partition spec change, a
//! location change, a drop that was not allowed, dropping a partition source column,
//! and (where nullability is declared, i.e. Spark) making a column required or adding a
//! required column. Column order and comments are not compared.

#[cfg(feature = "arrow")]
mod from_schema;
mod parse;
mod readers;
#[cfg(feature = "arrow")]
#[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
pub use from_schema::{evolve_from_schema, schema_target};

pub use parse::{parse_describe, parse_show_create_table};
pub use readers::{ReadAs, Reader, ReaderBreak};

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::alter::{illegal_type_change, is_legal_promotion, render, AlterOp};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{Column, PartitionField, TableDef, TableName, TableProperties};
use crate::statement::Statement;
use crate::types::IcebergType;

/// How [`evolve`] plans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct EvolveOptions {
    allow_drops: bool,
    check_nullability: Option<bool>,
    properties: bool,
}

impl Default for EvolveOptions {
    fn default() -> Self {
        EvolveOptions {
            allow_drops: false,
            check_nullability: None,
            properties: true,
        }
    }
}

impl EvolveOptions {
    /// No drops, properties synced, nullability compared where the target declares it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Lets the plan drop live columns the desired definition no longer has. Without
    /// it, such columns are refused (listed in the error).
    pub fn allow_drops(mut self) -> Self {
        self.allow_drops = true;
        self
    }

    /// Whether to compare nullability. Default: only for targets whose DDL declares
    /// `NOT NULL` (Spark); Athena DDL cannot declare it, so Athena's live output shows
    /// every column nullable and "required" is a contract of the typed API there.
    pub fn check_nullability(mut self, check: bool) -> Self {
        self.check_nullability = Some(check);
        self
    }

    /// Whether to set table properties that differ (default: yes).
    pub fn sync_properties(mut self, sync: bool) -> Self {
        self.properties = sync;
        self
    }
}

/// What one step of a plan changes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// New columns (nullable, appended).
    AddColumns(Vec<String>),
    /// A dropped column.
    DropColumn(String),
    /// A renamed column.
    RenameColumn {
        /// Old name.
        from: String,
        /// New name.
        to: String,
    },
    /// A legal type promotion.
    WidenColumn {
        /// The column.
        column: String,
        /// Its old type.
        from: IcebergType,
        /// Its new type.
        to: IcebergType,
    },
    /// Changed table properties.
    SetProperties(TableProperties),
    /// A view replaced by its query reading a renamed column by its new name, as the
    /// old one (see [`EvolutionPlan::check_readers`]).
    ReplaceView {
        /// The view.
        view: TableName,
        /// The column's new name.
        column: String,
        /// The name the view's column keeps (the column's old name).
        read_as: String,
    },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::AddColumns(c) => write!(f, "add columns {}", c.join(", ")),
            Change::DropColumn(c) => write!(f, "drop column {c}"),
            Change::RenameColumn { from, to } => write!(f, "rename column {from} to {to}"),
            Change::WidenColumn { column, from, to } => write!(
                f,
                "widen column {column} from {} to {}",
                from.iceberg_name(),
                to.iceberg_name()
            ),
            Change::SetProperties(p) => {
                let v: Vec<String> = p.iter().map(|p| p.to_string()).collect();
                write!(f, "set properties {}", v.join(", "))
            }
            Change::ReplaceView {
                view,
                column,
                read_as,
            } => write!(f, "replace view {view}, reading {column} as {read_as}"),
        }
    }
}

/// One statement of a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct EvolutionStep {
    /// What it changes.
    pub change: Change,
    /// Whether readers written against the old schema may break (drop, rename, type
    /// change, partition change).
    pub breaking: bool,
    /// The validated statement.
    pub statement: Statement,
    /// The readers this step breaks, filled by [`EvolutionPlan::check_readers`].
    pub readers: Vec<ReaderBreak>,
}

/// Ordered, legal statements that turn the live table into the desired one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EvolutionPlan {
    /// The steps, in the order they must run (one API call each).
    pub steps: Vec<EvolutionStep>,
}

impl EvolutionPlan {
    /// True when live and desired already agree.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// True when any step is breaking.
    pub fn is_breaking(&self) -> bool {
        self.steps.iter().any(|s| s.breaking)
    }

    /// The statements, in order.
    pub fn statements(&self) -> impl Iterator<Item = &Statement> {
        self.steps.iter().map(|s| &s.statement)
    }
}

impl fmt::Display for EvolutionPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "{}. [{}] {}\n   {}",
                i + 1,
                if s.breaking { "breaking" } else { "safe" },
                s.change,
                s.statement.sql()
            )?;
            for b in &s.readers {
                write!(f, "\n   breaks {b}")?;
            }
        }
        Ok(())
    }
}

fn rebuild_hint(live: &TableDef) -> String {
    format!(
        "rebuild by CTAS into a new table with the desired definition \
         (CREATE TABLE {n}_v2 WITH (table_type = 'ICEBERG', is_external = false, location = '...', \
         partitioning = ARRAY[...]) AS SELECT ... FROM {n}; see iceberg_sql::ctas), then drop the old \
         table and ALTER TABLE {n}_v2 RENAME TO {t}",
        n = live.name(),
        t = live.name().table
    )
}

/// Plans the legal Athena statements that turn `live` into `desired`, or returns one
/// error listing every change that cannot be made in place (see the module docs).
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::evolve::{evolve, EvolveOptions};
/// let live = TableDef::builder("analytics", "mcp_events")
///     .column(Column::new("event_id", IcebergType::String))
///     .column(Column::new("payload", IcebergType::String))
///     .column(Column::new("retry_count", IcebergType::Int))
///     .location("s3://my-datalake/iceberg/mcp_events/").build()?;
/// let desired = TableDef::builder("analytics", "mcp_events")
///     .column(Column::new("event_id", IcebergType::String))
///     .column(Column::new("tool_payload", IcebergType::String).renamed_from("payload"))
///     .column(Column::new("retry_count", IcebergType::Long))
///     .column(Column::new("error_code", IcebergType::String))
///     .location("s3://my-datalake/iceberg/mcp_events/").build()?;
/// let plan = evolve(&live, &desired, EvolveOptions::new())?;
/// let sql: Vec<&str> = plan.statements().map(|s| s.sql()).collect();
/// assert_eq!(sql, [
///     "ALTER TABLE analytics.mcp_events CHANGE COLUMN payload tool_payload string",
///     "ALTER TABLE analytics.mcp_events CHANGE COLUMN retry_count retry_count bigint",
///     "ALTER TABLE analytics.mcp_events ADD COLUMNS (error_code string)",
/// ]);
/// assert!(plan.steps[0].breaking && plan.steps[1].breaking && !plan.steps[2].breaking);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn evolve(
    live: &TableDef,
    desired: &TableDef,
    options: EvolveOptions,
) -> Result<EvolutionPlan> {
    evolve_for(live, desired, options, Dialect::default())
}

/// As [`evolve`], with the statements (and the nullability default) for `dialect`.
pub fn evolve_for(
    live: &TableDef,
    desired: &TableDef,
    options: EvolveOptions,
    dialect: Dialect,
) -> Result<EvolutionPlan> {
    let name = live.name();
    let check_null = options
        .check_nullability
        .unwrap_or(dialect.rules().declares_not_null());
    let mut refusals: Vec<Error> = Vec::new();

    if let (Some(a), Some(b)) = (live.location(), desired.location()) {
        if a != b {
            refusals.push(
                Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "the location of `{name}` would change from {a} to {b}; Athena has no ALTER TABLE SET LOCATION for Iceberg tables"
                    ),
                )
                .with_hint(format!(
                    "keep the live location in the definition, or {}",
                    rebuild_hint(live)
                )),
            );
        }
    }

    // Match desired columns to live ones: by name, else by `renamed_from`.
    let mut matched_live: HashSet<&str> = HashSet::new();
    let mut renames = Vec::new();
    let mut widens = Vec::new();
    let mut adds: Vec<Column> = Vec::new();
    for d in desired.columns() {
        let (l, renamed) = match live.column(&d.name) {
            Some(l) => (Some(l), false),
            None => match d.renamed_from.as_deref().and_then(|old| live.column(old)) {
                Some(l) if desired.column(&l.name).is_none() => (Some(l), true),
                _ => (None, false),
            },
        };
        let Some(l) = l else {
            if check_null && !d.nullable {
                refusals.push(
                    Error::new(
                        ErrorKind::Unsupported,
                        format!(
                            "new column `{}` of `{name}` is required; Iceberg cannot add a required column to a table with data",
                            d.name
                        ),
                    )
                    .with_hint("add it as nullable (Option<T> in the record), backfill with UPDATE, or rebuild by CTAS"),
                );
            }
            let mut c = d.clone();
            c.nullable = true;
            c.renamed_from = None;
            adds.push(c);
            continue;
        };
        matched_live.insert(l.name.as_str());
        if renamed {
            renames.push((l.name.clone(), d.name.clone(), l.ty.clone()));
        }
        if l.ty != d.ty {
            if is_legal_promotion(&l.ty, &d.ty) {
                widens.push((d.name.clone(), l.ty.clone(), d.ty.clone()));
            } else {
                refusals.push(illegal_type_change(name, &d.name, &l.ty, &d.ty).with_hint(
                    format!(
                        "add a new column of type {new}, UPDATE it from CAST({c} AS ...), drop `{c}` and rename \
                         the new column (not atomic); or {}",
                        rebuild_hint(live),
                        new = d.ty.iceberg_name(),
                        c = d.name
                    ),
                ));
            }
        }
        if check_null && l.nullable && !d.nullable {
            refusals.push(
                Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "column `{}` of `{name}` would become required; Iceberg cannot tighten nullability in place",
                        d.name
                    ),
                )
                .with_hint(format!(
                    "keep the column nullable (Option<T>), or {}",
                    rebuild_hint(live)
                )),
            );
        }
    }

    // Live columns nobody matched are drops.
    let sources: HashMap<&str, &PartitionField> = live
        .partition_spec()
        .iter()
        .map(|p| (p.source.as_str(), p))
        .collect();
    let mut drops = Vec::new();
    for l in live.columns() {
        if matched_live.contains(l.name.as_str()) {
            continue;
        }
        if let Some(p) = sources.get(l.name.as_str()) {
            refusals.push(
                Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "column `{}` of `{name}` is gone from the desired definition, but it is the source of partition field `{p}` and cannot be dropped",
                        l.name
                    ),
                )
                .with_hint(rebuild_hint(live)),
            );
        } else if options.allow_drops {
            drops.push(l.name.clone());
        } else {
            refusals.push(
                Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "column `{}` of `{name}` is not in the desired definition, and drops are not allowed",
                        l.name
                    ),
                )
                .with_hint(
                    "keep the field in the record, mark a rename with renamed_from, or plan with \
                     EvolveOptions::new().allow_drops() (a drop is breaking)",
                ),
            );
        }
    }

    // Partition spec.
    let live_spec = live.partition_spec();
    let want_spec: Vec<PartitionField> = desired
        .partition_spec()
        .iter()
        .map(|p| {
            // A partition on a renamed column refers to it by its new name.
            let mut p = p.clone();
            if let Some((from, _, _)) = renames.iter().find(|(_, to, _)| *to == p.source) {
                p.source = from.clone();
            }
            p
        })
        .collect();
    // Compared as sets: Spark's SHOW CREATE TABLE prints bucket fields apart from the
    // others (`CLUSTERED BY`), so the live order is not always known; a reorder alone is
    // not something a user can ask for anyway.
    let same_fields =
        live_spec.len() == want_spec.len() && want_spec.iter().all(|w| live_spec.contains(w));
    if !same_fields {
        let show = |s: &[PartitionField]| {
            if s.is_empty() {
                "(unpartitioned)".to_string()
            } else {
                s.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        refusals.push(
            Error::new(
                ErrorKind::Unsupported,
                format!(
                    "the partition spec of `{name}` would change from {} to {}; Athena has no partition evolution",
                    show(live_spec),
                    show(desired.partition_spec())
                ),
            )
            .with_hint(rebuild_hint(live)),
        );
    }

    Error::check_all(refusals)?;

    let mut plan_ops: Vec<(Change, bool, AlterOp)> = Vec::new();
    for (from, to, ty) in renames {
        plan_ops.push((
            Change::RenameColumn {
                from: from.clone(),
                to: to.clone(),
            },
            true,
            AlterOp::Rename { from, to, ty },
        ));
    }
    for (column, from, to) in widens {
        plan_ops.push((
            Change::WidenColumn {
                column: column.clone(),
                from,
                to: to.clone(),
            },
            true,
            AlterOp::Widen { column, to },
        ));
    }
    // One statement adds as many columns as the target allows (Athena: all of them).
    let per_add = dialect
        .rules()
        .columns_per_add()
        .unwrap_or(usize::MAX)
        .max(1);
    for group in adds.chunks(per_add) {
        plan_ops.push((
            Change::AddColumns(group.iter().map(|c| c.name.clone()).collect()),
            false,
            AlterOp::AddColumns(group.to_vec()),
        ));
    }
    for d in drops {
        plan_ops.push((Change::DropColumn(d.clone()), true, AlterOp::DropColumn(d)));
    }
    if options.properties {
        let changed: TableProperties = desired
            .properties()
            .iter()
            .filter(|p| !live.properties().iter().any(|q| q == *p))
            .copied()
            .collect();
        if !changed.is_empty() {
            plan_ops.push((
                Change::SetProperties(changed.clone()),
                false,
                AlterOp::SetProperties {
                    format: desired.properties().format(),
                    properties: changed,
                },
            ));
        }
    }

    let mut steps = Vec::with_capacity(plan_ops.len());
    for (change, breaking, op) in plan_ops {
        let statement = render(name, &op, dialect)?;
        steps.push(EvolutionStep {
            change,
            breaking,
            statement,
            readers: Vec::new(),
        });
    }
    Ok(EvolutionPlan { steps })
}
