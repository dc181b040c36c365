//! Type rules: what a target's engine makes of the values a statement writes.
//!
//! A builder never writes an expression on its own. It hands every expression (a
//! filter, a SET value, a projected column, a CTAS output) to its target's rules
//! (`DialectRules::check_*`), which type it as that engine would and answer with a
//! [`Checked`] value: the expression, and the conversion the target writes around it
//! where the intent is unambiguous (`CAST(current_timestamp AS timestamp(6))` into an
//! Iceberg `timestamp` column on Athena). Where the engine would refuse the statement
//! at run time, or run it with another meaning, the rules refuse it here, saying which
//! side to convert and how.
//!
//! Athena's rules (Trino's, strict about coercions and precision) are the default
//! (`athena_types.rs`); Spark's are lenient and only pass values through.
//!
//! Everything here is target-independent: the scope column references resolve in, the
//! checked value and how it is written, and (in tests) the audit of what was typed.

use crate::engine::types::{EngineType, TableFormat};
use crate::error::Result;
use crate::expr::{BinaryOp, Expr, Scope};
use crate::model::Column;
use crate::render::SqlWriter;
use crate::types::IcebergType;
use crate::value::Value;

/// The relations a statement's column references resolve in, with their types.
#[derive(Debug, Clone, Default)]
pub(crate) struct TypeScope<'a> {
    /// The statement's table: unqualified columns, and in a MERGE the target row.
    table: &'a [Column],
    /// A MERGE source whose columns are not the table's own (a SELECT), by name.
    source: Option<Vec<(String, EngineType)>>,
    /// Tables joined in a SELECT (their columns are referenced unqualified).
    joined: Vec<&'a [Column]>,
}

impl<'a> TypeScope<'a> {
    /// The columns of one table (a MERGE source with the same columns included).
    pub(crate) fn table(columns: &'a [Column]) -> Self {
        TypeScope {
            table: columns,
            source: None,
            joined: Vec::new(),
        }
    }

    /// A MERGE whose source rows have these types instead of the table's own.
    pub(crate) fn with_source(mut self, source: Vec<(String, EngineType)>) -> Self {
        self.source = Some(source);
        self
    }

    /// Adds a joined table.
    pub(crate) fn join(mut self, columns: &'a [Column]) -> Self {
        self.joined.push(columns);
        self
    }

    /// The Iceberg column `name` of the statement's table or a joined one.
    pub(crate) fn iceberg_column(&self, scope: Scope, name: &str) -> Option<&'a IcebergType> {
        if scope == Scope::Source && self.source.is_some() {
            return None;
        }
        let find = |cols: &'a [Column]| cols.iter().find(|c| c.name == name).map(|c| &c.ty);
        find(self.table).or_else(|| self.joined.iter().find_map(|cols| find(cols)))
    }

    /// The engine type of column `name` as referenced from `scope`.
    pub(crate) fn column_type(&self, scope: Scope, name: &str) -> Option<EngineType> {
        if let (Scope::Source, Some(source)) = (scope, &self.source) {
            return source
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, t)| t.clone());
        }
        let ty = self.iceberg_column(scope, name)?;
        EngineType::of_column(ty, TableFormat::Iceberg).ok()
    }
}

/// Where an assignment happens: Trino words its refusal per statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AssignIn {
    /// `INSERT INTO t (cols) VALUES …` or `… SELECT …`.
    Insert,
    /// `UPDATE t SET …`.
    Update,
    /// A MERGE `WHEN` clause (0-based over all clauses, as Trino counts them): its
    /// `UPDATE SET` or `INSERT` values.
    Merge {
        /// The clause's index.
        case: usize,
    },
}

/// What a checked value writes: an expression, or a column of the statement's table
/// named at run time (a default projection).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Written {
    /// An expression.
    Expr(Expr),
    /// An unqualified column of the statement's table.
    Column(String),
}

/// A value the target's type rules checked: what to write, and the conversion written
/// around it (`CAST(x AS <type>)`), if the rules added one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Checked {
    written: Written,
    /// Its type as the engine sees it, where the target's rules know it.
    ty: Option<EngineType>,
    /// The type the rules convert it to.
    convert_to: Option<EngineType>,
}

impl Checked {
    /// `written` as it is, of type `ty` (if known).
    pub(crate) fn plain(written: Written, ty: Option<EngineType>) -> Self {
        Checked {
            written,
            ty,
            convert_to: None,
        }
    }

    /// `CAST(written AS to)`.
    pub(crate) fn converted(written: Written, ty: Option<EngineType>, to: EngineType) -> Self {
        Checked {
            written,
            ty,
            convert_to: Some(to),
        }
    }

    /// The value's type as the engine sees it, after any conversion (`None` where the
    /// target's rules do not type values).
    pub(crate) fn ty(&self) -> Option<&EngineType> {
        self.convert_to.as_ref().or(self.ty.as_ref())
    }

    /// The type written around the value, if any.
    pub(crate) fn conversion(&self) -> Option<&EngineType> {
        self.convert_to.as_ref()
    }

    /// The expression written, when it is one.
    pub(crate) fn expr(&self) -> Option<&Expr> {
        match &self.written {
            Written::Expr(e) => Some(e),
            Written::Column(_) => None,
        }
    }

    /// Writes the value (and its conversion).
    pub(crate) fn write(&self, w: &mut SqlWriter) -> Result<()> {
        let _written = audit::checked_write();
        if self.convert_to.is_some() {
            w.push("CAST(");
        }
        match &self.written {
            Written::Expr(e) => e.render(w)?,
            Written::Column(name) => {
                w.ident(name);
            }
        }
        if let Some(to) = &self.convert_to {
            w.push(" AS ");
            write_engine_type(w, to);
            w.push_char(')');
        }
        Ok(())
    }
}

/// Writes an engine type in Trino's syntax, quoting row field names as the statement's
/// grammar requires (`row("from" integer)`).
pub(crate) fn write_engine_type(w: &mut SqlWriter, ty: &EngineType) {
    match ty {
        EngineType::Array(e) => {
            w.push("array(");
            write_engine_type(w, e);
            w.push_char(')');
        }
        EngineType::Map(k, v) => {
            w.push("map(");
            write_engine_type(w, k);
            w.push(", ");
            write_engine_type(w, v);
            w.push_char(')');
        }
        EngineType::Row(fields) => {
            w.push("row(");
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    w.push(", ");
                }
                if let Some(n) = &f.name {
                    w.ident(n).push_char(' ');
                }
                write_engine_type(w, &f.ty);
            }
            w.push_char(')');
        }
        other => {
            w.push(&other.to_string());
        }
    }
}

/// Rewrites what every target reads the same way before it is typed: a timestamp
/// literal compared with a `timestamptz` column (a `DateTime<Utc>` value written as the
/// UTC wall clock) becomes a `timestamptz` literal of the same instant, so that the
/// comparison does not depend on the session time zone.
pub(crate) fn normalize(scope: &TypeScope<'_>, expr: &Expr) -> Expr {
    normalized(scope, expr.clone())
}

/// As [`normalize`], of an expression the caller gives up (no copy).
pub(crate) fn normalized(scope: &TypeScope<'_>, mut expr: Expr) -> Expr {
    normalize_in_place(scope, &mut expr);
    expr
}

fn normalize_in_place(scope: &TypeScope<'_>, e: &mut Expr) {
    let is_tz_column = |x: &Expr| match x {
        Expr::Column { scope: s, name } => {
            matches!(
                scope.iceberg_column(*s, name),
                Some(IcebergType::TimestampTz)
            )
        }
        _ => false,
    };
    let to_tz = |x: &mut Expr| {
        if let Expr::Literal {
            value: Value::Timestamp(ts),
            ty: IcebergType::Timestamp,
        } = x
        {
            *x = Expr::Literal {
                value: Value::TimestampTz(ts.and_utc()),
                ty: IcebergType::TimestampTz,
            };
        }
    };
    match e {
        Expr::Binary { op, left, right } => {
            let comparison = !matches!(
                op,
                BinaryOp::And
                    | BinaryOp::Or
                    | BinaryOp::Plus
                    | BinaryOp::Minus
                    | BinaryOp::Multiply
                    | BinaryOp::Divide
                    | BinaryOp::Modulo
            );
            if comparison && is_tz_column(left) {
                to_tz(right);
            }
            if comparison && is_tz_column(right) {
                to_tz(left);
            }
            normalize_in_place(scope, left);
            normalize_in_place(scope, right);
        }
        Expr::Between {
            expr, low, high, ..
        } => {
            if is_tz_column(expr) {
                to_tz(low);
                to_tz(high);
            }
            normalize_in_place(scope, expr);
            normalize_in_place(scope, low);
            normalize_in_place(scope, high);
        }
        Expr::InList { expr, list, .. } => {
            if is_tz_column(expr) {
                list.iter_mut().for_each(to_tz);
            }
            normalize_in_place(scope, expr);
            list.iter_mut().for_each(|x| normalize_in_place(scope, x));
        }
        Expr::Not(x) | Expr::Negate(x) => normalize_in_place(scope, x),
        Expr::IsNull { expr, .. } | Expr::Cast { expr, .. } | Expr::DateTrunc { expr, .. } => {
            normalize_in_place(scope, expr)
        }
        Expr::Like { expr, pattern, .. } => {
            normalize_in_place(scope, expr);
            normalize_in_place(scope, pattern);
        }
        Expr::Case {
            branches,
            otherwise,
        } => {
            for (c, v) in branches {
                normalize_in_place(scope, c);
                normalize_in_place(scope, v);
            }
            if let Some(o) = otherwise {
                normalize_in_place(scope, o);
            }
        }
        Expr::Coalesce(args) => args.iter_mut().for_each(|x| normalize_in_place(scope, x)),
        Expr::Aggregate { arg, filter, .. } => {
            if let Some(a) = arg {
                normalize_in_place(scope, a);
            }
            if let Some(f) = filter {
                normalize_in_place(scope, f);
            }
        }
        Expr::Column { .. }
        | Expr::Literal { .. }
        | Expr::Param { .. }
        | Expr::CurrentTimestamp
        | Expr::CurrentDate
        | Expr::Interval { .. } => {}
    }
}

/// What the type model saw while statements were built, for the test that walks every
/// builder's output through it: every expression node typed, every node rendered, every
/// assignment and output checked. Recording happens only in this crate's own tests,
/// inside [`audit::capture`]; elsewhere the hooks are empty.
pub(crate) mod audit {
    #[cfg(test)]
    pub(crate) use recording::*;

    #[cfg(not(test))]
    mod silent {
        use crate::engine::types::EngineType;
        use crate::expr::Expr;

        #[inline(always)]
        pub(crate) fn typed(_e: &Expr, _ty: &EngineType) {}
        #[inline(always)]
        pub(crate) fn rendered(_e: &Expr) {}
        /// Marks the writing of a checked value (nothing outside tests).
        pub(crate) struct Writing;
        #[inline(always)]
        pub(crate) fn checked_write() -> Writing {
            Writing
        }
        #[inline(always)]
        pub(crate) fn check(_what: &str, _detail: impl FnOnce() -> String) {}
    }
    #[cfg(not(test))]
    pub(crate) use silent::*;

    #[cfg(test)]
    mod recording {
        use std::cell::{Cell, RefCell};

        use crate::engine::types::EngineType;
        use crate::expr::Expr;

        /// What one capture saw.
        #[derive(Debug, Default)]
        pub(crate) struct Log {
            /// Every expression node typed, with its type.
            pub typed: Vec<(Expr, EngineType)>,
            /// Every expression node rendered, and whether it was written as part of a
            /// value the type rules checked.
            pub rendered: Vec<(Expr, bool)>,
            /// Every assignment, output column and row value checked: (what, detail).
            pub checks: Vec<(String, String)>,
        }

        thread_local! {
            static LOG: RefCell<Option<Log>> = const { RefCell::new(None) };
            static IN_CHECKED: Cell<usize> = const { Cell::new(0) };
        }

        fn with(f: impl FnOnce(&mut Log)) {
            LOG.with(|l| {
                if let Some(log) = l.borrow_mut().as_mut() {
                    f(log);
                }
            });
        }

        pub(crate) fn typed(e: &Expr, ty: &EngineType) {
            with(|l| l.typed.push((e.clone(), ty.clone())));
        }

        pub(crate) fn rendered(e: &Expr) {
            let checked = IN_CHECKED.with(Cell::get) > 0;
            with(|l| l.rendered.push((e.clone(), checked)));
        }

        /// Marks the writing of a checked value until dropped.
        pub(crate) struct Writing;

        impl Drop for Writing {
            fn drop(&mut self) {
                IN_CHECKED.with(|c| c.set(c.get().saturating_sub(1)));
            }
        }

        pub(crate) fn checked_write() -> Writing {
            IN_CHECKED.with(|c| c.set(c.get() + 1));
            Writing
        }

        pub(crate) fn check(what: &str, detail: impl FnOnce() -> String) {
            with(|l| l.checks.push((what.to_string(), detail())));
        }

        /// Runs `f` with recording on, and returns what it recorded.
        pub(crate) fn capture<R>(f: impl FnOnce() -> R) -> (R, Log) {
            LOG.with(|l| *l.borrow_mut() = Some(Log::default()));
            let r = f();
            let log = LOG.with(|l| l.borrow_mut().take()).unwrap_or_default();
            (r, log)
        }
    }
}

#[cfg(test)]
mod walk_tests;
