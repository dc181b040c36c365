//! What UPDATE, DELETE and INSERT … SELECT share: the table they write (the record
//! type's own, or a copy with the same columns) and their WHERE filter.
//!
//! None of it is generic over the record type: it holds the type's table definition,
//! so these checks (and the builders' own bodies, written the same way) compile once,
//! however many record types an application has.

use super::check_filter;
use crate::dialect::typing::{Checked, TypeScope};
use crate::dialect::{Dialect, DialectRules};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::Expr;
use crate::model::{TableDef, TableName};
use crate::render::SqlWriter;
use crate::statement::StatementKind;

/// The table a DML statement writes and its WHERE filter (AND of every condition).
#[derive(Clone)]
pub(crate) struct Target {
    /// The record type's table definition.
    def: &'static TableDef,
    table: Option<TableName>,
    filter: Option<Expr>,
    all_rows: bool,
}

// By hand: the record type's definition is not part of the statement described.
impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("table", &self.table)
            .field("filter", &self.filter)
            .field("all_rows", &self.all_rows)
            .finish()
    }
}

/// `Clone` and `Debug` for a builder generic over a record type it never holds, from
/// its fields and its `_record: PhantomData` (`#[derive]` would ask `T: Clone + Debug`).
macro_rules! builder_traits {
    ($name:ident { $($field:ident),* $(,)? }) => {
        impl<T> Clone for $name<T> {
            fn clone(&self) -> Self {
                $name { $($field: self.$field.clone(),)* _record: std::marker::PhantomData }
            }
        }

        impl<T> std::fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name))
                    $(.field(stringify!($field), &self.$field))*
                    .finish()
            }
        }
    };
}

pub(crate) use builder_traits;

impl Target {
    /// The table of `def` (the record type's), no filter.
    pub(crate) fn of(def: &'static TableDef) -> Self {
        Target {
            def,
            table: None,
            filter: None,
            all_rows: false,
        }
    }

    /// The record type's table definition.
    pub(crate) fn def(&self) -> &'static TableDef {
        self.def
    }

    /// Writes another table with the record type's columns.
    pub(crate) fn set_table(&mut self, name: TableName) {
        self.table = Some(name);
    }

    /// Adds a WHERE condition.
    pub(crate) fn filter(&mut self, cond: Expr) {
        self.filter = Expr::and_then(self.filter.take(), cond);
    }

    /// Every row is meant (instead of a filter).
    pub(crate) fn all_rows(&mut self) {
        self.all_rows = true;
    }

    /// The table written: the one given to [`Target::set_table`], else the record
    /// type's own.
    pub(crate) fn table(&self) -> &TableName {
        self.table.as_ref().unwrap_or(self.def.name())
    }

    /// The table name's check and, with `whole_table_guard`, the WHERE-or-`all_rows()`
    /// rule (UPDATE, DELETE): the problems found so far.
    pub(crate) fn check_table(&self, kind: StatementKind, whole_table_guard: bool) -> Vec<Error> {
        let def = self.def;
        let name = match &self.table {
            Some(other) => Some(other),
            // The record type's own name passed the same check when its definition was built.
            None if def.name_is_checked() => None,
            None => Some(def.name()),
        };
        let mut errors = name
            .and_then(|n| n.check().err())
            .map(Error::into_vec)
            .unwrap_or_default();
        if whole_table_guard {
            if let Err(e) = self.check_where(kind) {
                errors.push(e);
            }
        }
        errors
    }

    /// The filter's checks (columns of the table, parameters, no aggregates).
    pub(crate) fn check_filter(
        &self,
        dialect: Dialect,
        kind: StatementKind,
        errors: &mut Vec<Error>,
    ) {
        check_filter(dialect, kind, self.def, self.filter.as_ref(), errors);
    }

    fn check_where(&self, kind: StatementKind) -> Result<()> {
        match (&self.filter, self.all_rows) {
            (None, false) => Err(Error::new(
                ErrorKind::DisallowedSyntax,
                format!(
                    "{} without a WHERE clause would change every row of the table",
                    kind.name()
                ),
            )
            .with_hint("add `.filter(...)`, or call `.all_rows()` if every row is meant")),
            (Some(f), false) if f.is_always_true() => Err(Error::new(
                ErrorKind::DisallowedSyntax,
                format!(
                    "{}'s filter holds for every row (an empty NOT IN list is `true`), so it would change every row of the table",
                    kind.name()
                ),
            )
            .with_hint(
                "skip the statement when the list is empty, or call `.all_rows()` (without the filter) if every row is meant",
            )),
            (Some(_), true) => Err(Error::new(
                ErrorKind::DisallowedSyntax,
                format!(
                    "{} has both a filter and `.all_rows()`; say one or the other",
                    kind.name()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The filter as the target's type rules check it (`None` without a filter).
    pub(crate) fn check_filter_types(
        &self,
        rules: &dyn DialectRules,
        scope: &TypeScope<'_>,
    ) -> Result<Option<Checked<'_>>> {
        self.filter
            .as_ref()
            .map(|f| rules.check_condition(scope, f, "WHERE clause"))
            .transpose()
    }

    /// `\nWHERE <filter>`, when there is one.
    pub(crate) fn write_where(w: &mut SqlWriter, filter: Option<&Checked>) -> Result<()> {
        if let Some(f) = filter {
            w.push("\nWHERE ");
            f.write(w)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use crate::prelude::*;

    /// A definition whose name never passed the check: a rename to a bad name.
    struct Renamed;
    impl Renamed {
        const ID: Col<Renamed, String> = Col::new("id");
    }
    impl IcebergTable for Renamed {
        fn table_def() -> &'static TableDef {
            static DEF: OnceLock<TableDef> = OnceLock::new();
            DEF.get_or_init(|| {
                TableDef::builder("analytics", "good")
                    .column(Column::new("id", IcebergType::String))
                    .build()
                    .expect("a valid definition")
                    .renamed("analytics", "Bad")
            })
        }
        fn to_values(&self) -> Vec<Value> {
            Vec::new()
        }
    }

    #[test]
    fn the_checked_flag_follows_the_name() {
        let def = TableDef::builder("analytics", "good")
            .column(Column::new("id", IcebergType::String))
            .build()
            .expect("a valid definition");
        assert!(def.name_is_checked());
        assert!(def.renamed("analytics", "staging").name_is_checked());
        assert!(!def.renamed("analytics", "Bad").name_is_checked());
        assert!(!def.renamed("", "t").name_is_checked());
        let location = Location::parse("s3://bucket/t/").expect("a location");
        assert!(!def
            .renamed("analytics", "Bad")
            .with_location(location)
            .name_is_checked());
        // Debug shows the definition, not the flags.
        assert!(!format!("{def:?}").contains("checked"));
        assert!(!format!("{def:?}").contains("has_tz"));
    }

    /// A definition's scope is the scope of its columns: the flag it keeps is the one
    /// the columns give.
    #[test]
    fn a_definitions_type_scope_is_its_columns() {
        use crate::dialect::typing::TypeScope;
        for ty in [
            IcebergType::TimestampTz,
            IcebergType::Timestamp,
            IcebergType::String,
        ] {
            let def = TableDef::builder("analytics", "t")
                .column(Column::new("id", IcebergType::String))
                .column(Column::new("at", ty.clone()))
                .build()
                .expect("a valid definition");
            assert_eq!(def.has_tz_column(), ty == IcebergType::TimestampTz);
            for d in [&def, &def.renamed("analytics", "u")] {
                assert_eq!(
                    format!("{:?}", TypeScope::of_def(d)),
                    format!("{:?}", TypeScope::table(d.columns()))
                );
            }
        }
    }

    /// A definition whose name is unchecked is checked by every builder, as before.
    #[test]
    fn an_unchecked_own_name_is_still_refused() {
        let update = Renamed::update()
            .set(Renamed::ID, "x")
            .filter(Renamed::ID.eq("y"))
            .build()
            .expect_err("the name `Bad` is refused");
        assert_eq!(update.kind(), ErrorKind::InvalidIdentifier);
        assert!(update.message().contains("`Bad`"), "{update}");
        let delete = Renamed::delete()
            .filter(Renamed::ID.eq("y"))
            .build()
            .expect_err("the name `Bad` is refused");
        assert_eq!(delete.kind(), ErrorKind::InvalidIdentifier);
    }
}
