//! The untyped expression tree ([`Expr`]) and its renderer.
//!
//! Builders never construct [`Expr`] by hand: the typed layer ([`super::SqlExpr`],
//! [`super::Col`] methods) does, and the compiler checks operand types there. This
//! module only knows how to write a tree through a [`SqlWriter`], which picks quoting
//! and literal escaping for the statement's grammar.

use std::fmt::Write as _;

use crate::error::{Error, ErrorKind, Result};
use crate::render::SqlWriter;
use crate::types::IcebergType;
use crate::value::Value;

/// Which relation a column reference belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The statement's only table: rendered unqualified (`status`).
    Table,
    /// The MERGE source, rendered `source.status`.
    Source,
    /// The MERGE target, rendered `target.status`.
    Target,
}

impl Scope {
    /// The alias a MERGE statement gives this relation (`None` for [`Scope::Table`]).
    pub fn alias(self) -> Option<&'static str> {
        match self {
            Scope::Table => None,
            Scope::Source => Some("source"),
            Scope::Target => Some("target"),
        }
    }
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `AND`
    And,
    /// `OR`
    Or,
    /// `=`
    Eq,
    /// `<>`
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    LtEq,
    /// `>`
    Gt,
    /// `>=`
    GtEq,
    /// `IS DISTINCT FROM`
    IsDistinctFrom,
    /// `IS NOT DISTINCT FROM`
    IsNotDistinctFrom,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Multiply,
    /// `/`
    Divide,
    /// `%`
    Modulo,
}

impl BinaryOp {
    fn sql(self) -> &'static str {
        match self {
            BinaryOp::And => " AND ",
            BinaryOp::Or => " OR ",
            BinaryOp::Eq => " = ",
            BinaryOp::NotEq => " <> ",
            BinaryOp::Lt => " < ",
            BinaryOp::LtEq => " <= ",
            BinaryOp::Gt => " > ",
            BinaryOp::GtEq => " >= ",
            BinaryOp::IsDistinctFrom => " IS DISTINCT FROM ",
            BinaryOp::IsNotDistinctFrom => " IS NOT DISTINCT FROM ",
            BinaryOp::Plus => " + ",
            BinaryOp::Minus => " - ",
            BinaryOp::Multiply => " * ",
            BinaryOp::Divide => " / ",
            BinaryOp::Modulo => " % ",
        }
    }

    fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq
            | BinaryOp::NotEq
            | BinaryOp::Lt
            | BinaryOp::LtEq
            | BinaryOp::Gt
            | BinaryOp::GtEq
            | BinaryOp::IsDistinctFrom
            | BinaryOp::IsNotDistinctFrom => PREC_CMP,
            BinaryOp::Plus | BinaryOp::Minus => 5,
            BinaryOp::Multiply | BinaryOp::Divide | BinaryOp::Modulo => 6,
        }
    }
}

/// A unit of time for intervals and `date_trunc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// year
    Year,
    /// quarter (`date_trunc` only)
    Quarter,
    /// month
    Month,
    /// week (`date_trunc` only)
    Week,
    /// day
    Day,
    /// hour
    Hour,
    /// minute
    Minute,
    /// second
    Second,
}

impl TimeUnit {
    pub(crate) fn keyword(self) -> &'static str {
        match self {
            TimeUnit::Year => "YEAR",
            TimeUnit::Quarter => "QUARTER",
            TimeUnit::Month => "MONTH",
            TimeUnit::Week => "WEEK",
            TimeUnit::Day => "DAY",
            TimeUnit::Hour => "HOUR",
            TimeUnit::Minute => "MINUTE",
            TimeUnit::Second => "SECOND",
        }
    }

    fn lower(self) -> &'static str {
        match self {
            TimeUnit::Year => "year",
            TimeUnit::Quarter => "quarter",
            TimeUnit::Month => "month",
            TimeUnit::Week => "week",
            TimeUnit::Day => "day",
            TimeUnit::Hour => "hour",
            TimeUnit::Minute => "minute",
            TimeUnit::Second => "second",
        }
    }
}

/// A scalar function of the typed API ([`super::ExpressionMethods`]), written with
/// Trino's name on every target (Spark has each under the same name). Each is typed by
/// Trino's signature (see its variant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Function {
    /// `lower(string) → varchar` (<https://trino.io/docs/current/functions/string.html#lower>).
    Lower,
    /// `upper(string) → varchar` (<https://trino.io/docs/current/functions/string.html#upper>).
    Upper,
    /// `trim(string) → varchar` (<https://trino.io/docs/current/functions/string.html#trim>).
    Trim,
    /// `length(string) → bigint` (<https://trino.io/docs/current/functions/string.html#length>).
    Length,
    /// `substr(string, start, length) → varchar`, `start` and `length` bigints, 1-based
    /// (<https://trino.io/docs/current/functions/string.html#substr>).
    Substr,
    /// `concat(string1, ..., stringN) → varchar`
    /// (<https://trino.io/docs/current/functions/string.html#concat>).
    Concat,
    /// `replace(string, search, replace) → varchar`
    /// (<https://trino.io/docs/current/functions/string.html#replace>).
    Replace,
    /// `regexp_like(string, pattern) → boolean`
    /// (<https://trino.io/docs/current/functions/regexp.html#regexp_like>).
    RegexpLike,
    /// `is_nan(x) → boolean`: whether a `real` or `double` is NaN, NULL for NULL
    /// (<https://trino.io/docs/current/functions/math.html#is_nan>). Spark's
    /// `isnan` answers false for NULL, so Spark gets
    /// `CASE WHEN x IS NULL THEN NULL ELSE isnan(x) END`.
    IsNan,
    /// `row_number() → bigint`, over a window only
    /// (<https://trino.io/docs/current/functions/window.html#row_number>).
    RowNumber,
    /// `rank() → bigint`, over a window only
    /// (<https://trino.io/docs/current/functions/window.html#rank>).
    Rank,
    /// `dense_rank() → bigint`, over a window only
    /// (<https://trino.io/docs/current/functions/window.html#dense_rank>).
    DenseRank,
    /// `lag(x, offset) → [same as x]`, over a window only
    /// (<https://trino.io/docs/current/functions/window.html#lag>).
    Lag,
    /// `lead(x, offset) → [same as x]`, over a window only
    /// (<https://trino.io/docs/current/functions/window.html#lead>).
    Lead,
}

impl Function {
    /// The function's name as written.
    pub fn name(self) -> &'static str {
        match self {
            Function::Lower => "lower",
            Function::Upper => "upper",
            Function::Trim => "trim",
            Function::Length => "length",
            Function::Substr => "substr",
            Function::Concat => "concat",
            Function::Replace => "replace",
            Function::RegexpLike => "regexp_like",
            Function::IsNan => "is_nan",
            Function::RowNumber => "row_number",
            Function::Rank => "rank",
            Function::DenseRank => "dense_rank",
            Function::Lag => "lag",
            Function::Lead => "lead",
        }
    }

    /// Whether it is a window function, written only with `OVER (…)`.
    pub fn is_window(self) -> bool {
        matches!(
            self,
            Function::RowNumber
                | Function::Rank
                | Function::DenseRank
                | Function::Lag
                | Function::Lead
        )
    }
}

/// An aggregate function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Aggregate {
    /// `count(*)`
    CountAll,
    /// `count(x)`
    Count,
    /// `count(DISTINCT x)`
    CountDistinct,
    /// `sum(x)`
    Sum,
    /// `avg(x)`
    Avg,
    /// `min(x)`
    Min,
    /// `max(x)`
    Max,
    /// `approx_percentile(x, p)`, `0 <= p <= 1`.
    ApproxPercentile(f64),
}

/// An SQL expression: the small AST every typed expression lowers to.
///
/// Render one with [`Expr::render`]; inspect it with [`Expr::walk`]. Column names are
/// the table's stored names, literals carry their Iceberg type (so `NULL` and numbers
/// render with exactly that type).
///
/// A tree of any depth can be built, walked, cloned and dropped (a chain of 100,000
/// `.and(…)` calls is 100,000 levels): `Drop` and `Clone` go on iteratively below 64
/// levels. Rendering refuses more than [`MAX_EXPR_DEPTH`] levels; `==` and `{:?}`
/// recurse once per level, so keep them to trees the crate would write. Because `Expr`
/// implements `Drop`, a `match` on an owned `Expr` cannot move its fields out: match a
/// reference and `std::mem::take` what you need.
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub enum Expr {
    /// A column reference.
    Column {
        /// Which relation it belongs to.
        scope: Scope,
        /// The stored column name.
        name: &'static str,
    },
    /// A literal of type `ty`.
    Literal {
        /// The value (may be NULL).
        value: Value,
        /// Its type.
        ty: IcebergType,
    },
    /// A `?` placeholder; `value` becomes its `ExecutionParameters` entry (as literal
    /// text of type `ty`).
    Param {
        /// The bound value.
        value: Value,
        /// Its type.
        ty: IcebergType,
    },
    /// `left op right`
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left and right operands, in one allocation (comparisons and ANDs are
        /// most of the nodes a statement builds). Built by [`Expr::binary`].
        operands: Box<[Expr; 2]>,
    },
    /// `NOT (x)`
    Not(Box<Expr>),
    /// `-(x)`
    Negate(Box<Expr>),
    /// `x IS [NOT] NULL`
    IsNull {
        /// Operand.
        expr: Box<Expr>,
        /// `IS NOT NULL`.
        negated: bool,
    },
    /// `x [NOT] IN (a, b, ...)`; an empty list renders as `false` (`true` negated).
    InList {
        /// Operand.
        expr: Box<Expr>,
        /// Candidates.
        list: Vec<Expr>,
        /// `NOT IN`.
        negated: bool,
    },
    /// `x [NOT] BETWEEN low AND high`
    Between {
        /// Operand.
        expr: Box<Expr>,
        /// Lower bound (inclusive).
        low: Box<Expr>,
        /// Upper bound (inclusive).
        high: Box<Expr>,
        /// `NOT BETWEEN`.
        negated: bool,
    },
    /// `x [NOT] LIKE pattern [ESCAPE 'c']`, with Athena's meaning on every target: `%`
    /// matches any run of characters, `_` one character, and without an escape every
    /// other character (`\` too) only itself.
    Like {
        /// Operand.
        expr: Box<Expr>,
        /// Pattern (`%`, `_` wildcards).
        pattern: Box<Expr>,
        /// `NOT LIKE`.
        negated: bool,
        /// The `ESCAPE` character: before `%`, `_` or itself it makes that character
        /// literal (anywhere else it fails the query, on every target).
        escape: Option<char>,
    },
    /// `CAST(x AS ty)`
    Cast {
        /// Operand.
        expr: Box<Expr>,
        /// Target type (spelled per grammar: `timestamp(6)` on Athena).
        ty: IcebergType,
    },
    /// `CASE WHEN c THEN v ... [ELSE e] END`
    Case {
        /// `(condition, result)` pairs, in order.
        branches: Vec<(Expr, Expr)>,
        /// `ELSE` result.
        otherwise: Option<Box<Expr>>,
    },
    /// `coalesce(a, b, ...)`
    Coalesce(Vec<Expr>),
    /// `date_trunc('unit', x)`
    DateTrunc {
        /// Truncation unit.
        unit: TimeUnit,
        /// Operand.
        expr: Box<Expr>,
    },
    /// `current_timestamp` (Spark: `current_timestamp()`)
    CurrentTimestamp,
    /// `current_date` (Spark: `current_date()`)
    CurrentDate,
    /// `INTERVAL 'n' UNIT`
    Interval {
        /// Amount.
        amount: u32,
        /// Unit (year, month, day, hour, minute, second).
        unit: TimeUnit,
    },
    /// `name(arg, …)`: a function a target's type rules write where that engine's own
    /// operator or CAST would mean something other than Athena's (Spark's `div` for
    /// Trino's integer `/`). The typed API never builds one.
    Call {
        /// The function's name, written as it is.
        name: &'static str,
        /// Its arguments.
        args: Vec<Expr>,
    },
    /// `func(arg, …)`: a scalar function of the typed API.
    Function {
        /// The function.
        func: Function,
        /// Its arguments.
        args: Vec<Expr>,
    },
    /// `func OVER (PARTITION BY … ORDER BY …)`: a window function or an aggregate over
    /// a window.
    Window {
        /// A window [`Expr::Function`] or an [`Expr::Aggregate`].
        func: Box<Expr>,
        /// `PARTITION BY` keys.
        partition_by: Vec<Expr>,
        /// `ORDER BY` keys, `true` for descending; NULLs last in both directions on
        /// every target.
        order_by: Vec<(Expr, bool)>,
        /// `ROWS|RANGE BETWEEN … AND …`, when written.
        frame: Option<Frame>,
    },
    /// Text the DSL lacks, with the type its caller declares ([`crate::dsl::raw`]).
    Raw(Box<RawExpr>),
    /// An aggregate call, optionally `FILTER (WHERE cond)`.
    Aggregate {
        /// The function.
        func: Aggregate,
        /// Its argument (none for `count(*)`).
        arg: Option<Box<Expr>>,
        /// `FILTER (WHERE ...)`.
        filter: Option<Box<Expr>>,
    },
}

/// A raw expression ([`crate::dsl::raw`]): its text as written, the type its caller
/// declares, and what our parser read in it (the columns it reads, as column nodes, so
/// that the statement's checks see them).
#[derive(Debug, Clone, PartialEq)]
pub struct RawExpr {
    pub(crate) sql: String,
    pub(crate) ty: IcebergType,
    /// Column nodes read outside every aggregate call.
    pub(crate) plain: Vec<Expr>,
    /// Column nodes read inside an aggregate call.
    pub(crate) aggregated: Vec<Expr>,
    pub(crate) aggregates: bool,
    pub(crate) window: bool,
    /// Whether the text is one operand that needs no parentheses (a call, a name …).
    pub(crate) atom: bool,
    /// Why the text is refused, reported when the statement is built.
    pub(crate) problem: Option<Error>,
}

impl RawExpr {
    /// `sql` of type `ty`, as our parser reads it in Trino's grammar (a refusal is kept
    /// and reported when the statement is built).
    pub(crate) fn read(sql: &str, ty: IcebergType) -> RawExpr {
        let mut raw = RawExpr {
            sql: sql.to_string(),
            ty,
            plain: Vec::new(),
            aggregated: Vec::new(),
            aggregates: false,
            window: false,
            atom: false,
            problem: None,
        };
        match crate::validate::raw::read_raw(sql, crate::dialect::Grammar::TrinoDml) {
            Ok(r) => {
                raw.plain = r
                    .plain
                    .into_iter()
                    .map(|n| Expr::column(intern(n)))
                    .collect();
                raw.aggregated = r
                    .aggregated
                    .into_iter()
                    .map(|n| Expr::column(intern(n)))
                    .collect();
                raw.aggregates = r.aggregates;
                raw.window = r.window;
                raw.atom = r.atom;
            }
            Err(e) => raw.problem = Some(e),
        }
        raw
    }

    /// The text as written.
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// The type its caller declared.
    pub fn ty(&self) -> &IcebergType {
        &self.ty
    }
}

/// The one `'static` copy of a column name a raw expression reads (column nodes hold
/// `&'static str`): each distinct name is kept once for the life of the process.
fn intern(name: String) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(n) = names.get(name.as_str()) {
        return n;
    }
    let leaked: &'static str = Box::leak(name.into_boxed_str());
    names.insert(leaked);
    leaked
}

/// What a window frame counts: rows, or values of the (one) sort key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameUnits {
    /// `ROWS`: physical rows before and after the current one.
    Rows,
    /// `RANGE`: rows whose sort key is within an offset of the current row's.
    Range,
}

/// One end of a window frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameBound {
    /// `UNBOUNDED PRECEDING`: the partition's first row.
    UnboundedPreceding,
    /// `n PRECEDING`
    Preceding(u64),
    /// `CURRENT ROW`
    CurrentRow,
    /// `n FOLLOWING`
    Following(u64),
    /// `UNBOUNDED FOLLOWING`: the partition's last row.
    UnboundedFollowing,
}

impl FrameBound {
    fn write(self, w: &mut SqlWriter) {
        match self {
            FrameBound::UnboundedPreceding => w.push("UNBOUNDED PRECEDING"),
            FrameBound::Preceding(n) => w.push(&n.to_string()).push(" PRECEDING"),
            FrameBound::CurrentRow => w.push("CURRENT ROW"),
            FrameBound::Following(n) => w.push(&n.to_string()).push(" FOLLOWING"),
            FrameBound::UnboundedFollowing => w.push("UNBOUNDED FOLLOWING"),
        };
    }

    fn has_offset(self) -> bool {
        matches!(self, FrameBound::Preceding(_) | FrameBound::Following(_))
    }
}

/// A window frame, `ROWS|RANGE BETWEEN start AND end`
/// (<https://trino.io/docs/current/sql/select.html#window-clause>).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Frame {
    /// What it counts.
    pub units: FrameUnits,
    /// Its first row.
    pub start: FrameBound,
    /// Its last row.
    pub end: FrameBound,
}

impl Frame {
    fn write(self, w: &mut SqlWriter) {
        w.push(match self.units {
            FrameUnits::Rows => "ROWS BETWEEN ",
            FrameUnits::Range => "RANGE BETWEEN ",
        });
        self.start.write(w);
        w.push(" AND ");
        self.end.write(w);
    }

    /// The rules both engines share: Trino's (`ExpressionAnalyzer.analyzeWindow` in
    /// trinodb/trino, core/trino-main/src/main/java/io/trino/sql/analyzer/), which
    /// Spark's `SpecifiedWindowFrame` checks agree with; a frame only on an aggregate
    /// (Spark refuses one on a ranking or offset function, whose result Trino computes
    /// without it); a `RANGE` offset with exactly one sort key.
    pub(crate) fn check(self, func: &Expr, sort_keys: usize) -> Result<()> {
        use FrameBound as B;
        let invalid = |m: &str| {
            Err(
                Error::new(ErrorKind::DisallowedSyntax, m.to_string()).with_hint(
                    "a frame runs from its start to its end in the sort order: \
                 e.g. ROWS BETWEEN 2 PRECEDING AND CURRENT ROW",
                ),
            )
        };
        match (self.start, self.end) {
            (B::UnboundedFollowing, _) => {
                return invalid("Window frame start cannot be UNBOUNDED FOLLOWING")
            }
            (_, B::UnboundedPreceding) => {
                return invalid("Window frame end cannot be UNBOUNDED PRECEDING")
            }
            (B::CurrentRow, B::Preceding(_)) => {
                return invalid("Window frame starting from CURRENT ROW cannot end with PRECEDING")
            }
            (B::Following(_), B::Preceding(_)) => {
                return invalid("Window frame starting from FOLLOWING cannot end with PRECEDING")
            }
            (B::Following(_), B::CurrentRow) => {
                return invalid("Window frame starting from FOLLOWING cannot end with CURRENT ROW")
            }
            _ => {}
        }
        if !matches!(func, Expr::Aggregate { .. }) {
            return Err(Error::new(
                ErrorKind::DisallowedSyntax,
                "a window frame applies to an aggregate over a window, not to a ranking or \
                 offset function (Spark refuses one there; Trino computes them without it)",
            )
            .with_hint(
                "drop the frame, or aggregate over the framed window (sum, avg, min, max, count)",
            ));
        }
        if self.units == FrameUnits::Range
            && (self.start.has_offset() || self.end.has_offset())
            && sort_keys != 1
        {
            return Err(Error::new(
                ErrorKind::DisallowedSyntax,
                format!(
                    "Window frame of type RANGE PRECEDING or FOLLOWING requires single sort item in ORDER BY (actual: {sort_keys})"
                ),
            )
            .with_hint("order the window by one numeric key, or count ROWS instead"));
        }
        Ok(())
    }

    /// Whether a `RANGE` offset is written (the sort key must then be numeric).
    pub(crate) fn range_offset(self) -> bool {
        self.units == FrameUnits::Range && (self.start.has_offset() || self.end.has_offset())
    }
}

const PREC_CMP: u8 = 4;
const PREC_ARITH: u8 = 5;
const PREC_ATOM: u8 = 8;

/// The most levels an expression may nest; a chain `a AND b AND …` (or several
/// `.filter(…)` calls) is one level per operator. Typing and writing an expression
/// recurse once per level, a few KiB of stack each in an unoptimised build: 256 levels
/// stay well within the 2 MiB of a spawned thread, where about 450 overflowed it.
pub const MAX_EXPR_DEPTH: usize = 256;

/// How many levels [`Expr::walk`], [`Expr::depth`] and an expression's `Drop` and
/// `Clone` recurse before they go on iteratively: a few hundred bytes of stack per level
/// in an unoptimised build.
pub(super) const RECURSION_LEVELS: usize = 64;

/// Longest text Athena accepts in one `ExecutionParameters` entry, in UTF-16 code units
/// (`iceberg_sql_rules::aws_length`).
pub const MAX_PARAM_CHARS: usize = 1024;

impl Expr {
    /// A literal of type `ty`.
    pub fn literal(value: Value, ty: IcebergType) -> Expr {
        Expr::Literal { value, ty }
    }

    /// `current AND next` (just `next` when there is no current condition): how
    /// several filters become one WHERE clause.
    pub(crate) fn and_then(current: Option<Expr>, next: Expr) -> Option<Expr> {
        Some(match current {
            None => next,
            Some(c) => Expr::binary(BinaryOp::And, c, next),
        })
    }

    /// `left op right`.
    pub fn binary(op: BinaryOp, left: Expr, right: Expr) -> Expr {
        Expr::Binary {
            op,
            operands: Box::new([left, right]),
        }
    }

    /// A column of the statement's table.
    pub fn column(name: &'static str) -> Expr {
        Expr::Column {
            scope: Scope::Table,
            name,
        }
    }

    fn precedence(&self) -> u8 {
        match self {
            Expr::Binary { op, .. } => op.precedence(),
            Expr::Not(_) => 3,
            Expr::IsNull { .. }
            | Expr::InList { .. }
            | Expr::Between { .. }
            | Expr::Like { .. } => PREC_CMP,
            // Raw text other than one operand goes in parentheses wherever an operand
            // is expected.
            Expr::Raw(r) if !r.atom => 0,
            // An empty IN list renders as a bare boolean.
            _ => PREC_ATOM,
        }
    }

    /// How many levels the expression nests (1 for a column or a literal). Any depth
    /// can be measured: below `RECURSION_LEVELS` (64) the count recurses (no allocation),
    /// deeper it goes on with a stack of its own.
    pub fn depth(&self) -> usize {
        self.depth_from(0)
    }

    fn depth_from(&self, level: usize) -> usize {
        if level == RECURSION_LEVELS {
            return self.depth_iteratively();
        }
        let mut deepest = 0;
        self.for_each_child(|c| deepest = deepest.max(c.depth_from(level + 1)));
        deepest + 1
    }

    fn depth_iteratively(&self) -> usize {
        let mut deepest = 0;
        let mut pending = vec![(self, 1)];
        while let Some((e, d)) = pending.pop() {
            deepest = deepest.max(d);
            e.for_each_child(|c| pending.push((c, d + 1)));
        }
        deepest
    }

    /// Refuses an expression that nests deeper than [`MAX_EXPR_DEPTH`] levels (one
    /// pass over it: for a recursion that does not count its own levels).
    pub(crate) fn check_depth(&self) -> Result<()> {
        let depth = self.depth();
        if depth <= MAX_EXPR_DEPTH {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "an expression nests {depth} levels deep (each AND/OR of a chain, and each .filter(...) call, is one level); at most {MAX_EXPR_DEPTH} are checked and written"
            ),
        )
        .with_hint(
            "combine many conditions with Cond::any_of(...) / Cond::all_of(...) (a balanced tree: 10,000 conditions nest 16 levels) instead of a chain of .or(...)/.and(...)/.filter(...) calls; for many values of one column use .is_in([...])",
        ))
    }

    /// Refuses the node at `level` (1 for the root) of a recursion over an expression
    /// when it is past [`MAX_EXPR_DEPTH`]. Typing and writing count their levels as they
    /// recurse, so that an expression within the limit costs no pass of its own; the
    /// recursion's entry reports the whole depth through [`Expr::depth_reported`].
    #[inline]
    pub(crate) fn enter_level(level: usize) -> Result<()> {
        if level <= MAX_EXPR_DEPTH {
            Ok(())
        } else {
            Err(Error::from_static(
                ErrorKind::Unsupported,
                "an expression nests too deep",
            ))
        }
    }

    /// `result` of a recursion over this expression that counts its levels (see
    /// [`Expr::enter_level`]): a failure of an expression deeper than the limit is
    /// reported as its depth, with the way out.
    pub(crate) fn depth_reported<T>(&self, result: Result<T>) -> Result<T> {
        result.map_err(|e| self.check_depth().err().unwrap_or(e))
    }

    /// True when the condition holds for every row whatever the data: an empty
    /// `NOT IN` list (written `true`), and ANDs and ORs that are always true by it.
    /// A computed list that comes out empty must not turn a DELETE or UPDATE of some
    /// rows into one of every row.
    pub(crate) fn is_always_true(&self) -> bool {
        // `levels` bounds the recursion: an expression deeper than the limit is
        // refused when it is typed, whatever this answers.
        fn holds(e: &Expr, levels: usize) -> bool {
            let Some(levels) = levels.checked_sub(1) else {
                return false;
            };
            match e {
                Expr::InList { list, negated, .. } => list.is_empty() && *negated,
                Expr::Binary {
                    op: BinaryOp::And,
                    operands,
                } => operands.iter().all(|e| holds(e, levels)),
                Expr::Binary {
                    op: BinaryOp::Or,
                    operands,
                } => operands.iter().any(|e| holds(e, levels)),
                _ => false,
            }
        }
        holds(self, MAX_EXPR_DEPTH)
    }

    /// Calls `f` on each direct child of this node, in rendering order.
    /// Generic over `f` so that each caller's closure is inlined (the walks run on
    /// every expression of every statement).
    pub(super) fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        match self {
            Expr::Binary { operands, .. } => operands.iter().for_each(f),
            Expr::Not(e) | Expr::Negate(e) => f(e),
            Expr::IsNull { expr, .. } | Expr::Cast { expr, .. } | Expr::DateTrunc { expr, .. } => {
                f(expr)
            }
            Expr::InList { expr, list, .. } => {
                f(expr);
                list.iter().for_each(&mut f);
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                f(expr);
                f(low);
                f(high);
            }
            Expr::Like { expr, pattern, .. } => {
                f(expr);
                f(pattern);
            }
            Expr::Case {
                branches,
                otherwise,
            } => {
                for (c, v) in branches {
                    f(c);
                    f(v);
                }
                if let Some(o) = otherwise {
                    f(o);
                }
            }
            Expr::Coalesce(args) | Expr::Call { args, .. } | Expr::Function { args, .. } => {
                args.iter().for_each(&mut f)
            }
            Expr::Raw(r) => r.plain.iter().chain(&r.aggregated).for_each(f),
            Expr::Window {
                func,
                partition_by,
                order_by,
                ..
            } => {
                f(func);
                partition_by.iter().for_each(&mut f);
                order_by.iter().for_each(|(o, _)| f(o));
            }
            Expr::Aggregate { arg, filter, .. } => {
                if let Some(a) = arg {
                    f(a);
                }
                if let Some(c) = filter {
                    f(c);
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

    /// Calls `f` on this node and every node below it, parents first. A long chain of
    /// operators is as safe to walk as a short one: below `RECURSION_LEVELS` (64) the walk
    /// recurses (no allocation, the common case), deeper it goes on with a stack of
    /// its own.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        self.walk_from(0, f);
    }

    fn walk_from<'a>(&'a self, level: usize, f: &mut dyn FnMut(&'a Expr)) {
        if level == RECURSION_LEVELS {
            return self.walk_iteratively(f);
        }
        f(self);
        self.for_each_child(|c| c.walk_from(level + 1, f));
    }

    fn walk_iteratively<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        let mut pending = vec![self];
        let mut children = Vec::new();
        while let Some(e) = pending.pop() {
            f(e);
            e.for_each_child(|c| children.push(c));
            pending.extend(children.drain(..).rev());
        }
    }

    /// True when the expression holds a `?` placeholder.
    pub fn contains_param(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e, Expr::Param { .. }));
        found
    }

    /// True when the expression holds an aggregate call.
    pub fn contains_aggregate(&self) -> bool {
        // An aggregate over a window is no aggregation of the query's rows.
        let mut pending = vec![self];
        while let Some(e) = pending.pop() {
            match e {
                Expr::Aggregate { .. } => return true,
                Expr::Raw(r) if r.aggregates => return true,
                Expr::Window {
                    partition_by,
                    order_by,
                    func,
                    ..
                } => {
                    func.for_each_child(|c| pending.push(c));
                    pending.extend(partition_by);
                    pending.extend(order_by.iter().map(|(o, _)| o));
                }
                _ => e.for_each_child(|c| pending.push(c)),
            }
        }
        false
    }

    /// True when it holds a window function or an aggregate over a window.
    pub(crate) fn contains_window(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| {
            found |= matches!(e, Expr::Window { .. }) || matches!(e, Expr::Raw(r) if r.window)
        });
        found
    }

    /// True when an aggregate call holds another aggregate in its argument or its
    /// `FILTER`: Trino refuses the first ("Cannot nest aggregations inside aggregation",
    /// `AggregationAnalyzer`), Spark both (`NESTED_AGGREGATE_FUNCTION`, "FILTER
    /// expression contains aggregate").
    pub(crate) fn nests_aggregates(&self) -> bool {
        let mut nested = false;
        self.walk(&mut |e| {
            if let Expr::Aggregate { arg, filter, .. } = e {
                nested |= arg.as_deref().is_some_and(Expr::contains_aggregate)
                    || filter.as_deref().is_some_and(Expr::contains_aggregate);
            }
        });
        nested
    }

    /// The first column this expression reads outside every aggregate call and outside
    /// every expression of `keys`: in a query that aggregates, what is neither
    /// aggregated nor grouped (Trino: "... must be an aggregate expression or appear in
    /// GROUP BY clause").
    pub(crate) fn ungrouped_column(&self, keys: &[Expr]) -> Option<&'static str> {
        // A stack of its own: expressions may be thousands of levels deep.
        let mut pending = vec![self];
        while let Some(e) = pending.pop() {
            if keys.contains(e) {
                continue;
            }
            match e {
                Expr::Aggregate { .. } => {}
                Expr::Raw(r) => pending.extend(&r.plain),
                Expr::Column { name, .. } => return Some(name),
                _ => e.for_each_child(|c| pending.push(c)),
            }
        }
        None
    }

    /// Every column reference, in rendering order.
    pub fn columns(&self) -> Vec<(Scope, &'static str)> {
        let mut v = Vec::new();
        self.walk(&mut |e| {
            if let Expr::Column { scope, name } = e {
                v.push((*scope, *name));
            }
        });
        v
    }

    /// Writes the expression through `w` (quoting and literals per the writer's
    /// grammar). Placeholders are registered with the writer in order; callers for
    /// statement kinds that take no parameters must refuse [`Expr::contains_param`]
    /// first (the DML builders do).
    /// An expression deeper than [`MAX_EXPR_DEPTH`] is refused.
    pub fn render(&self, w: &mut SqlWriter) -> Result<()> {
        // A literal (the usual SET or VALUES value) has no depth and no parentheses.
        if let Expr::Literal { value, ty } = self {
            crate::dialect::typing::audit::rendered(self);
            w.literal(value, ty)?;
            return Ok(());
        }
        self.depth_reported(self.render_min(w, 0, 1))
    }

    /// Writes the node at `level` (1 for the root), in parentheses when it binds less
    /// tightly than `min`.
    fn is_nan_literal(&self) -> bool {
        match self {
            Expr::Literal { value, .. } | Expr::Param { value, .. } => {
                matches!(value, crate::value::Value::Double(x) if x.is_nan())
                    || matches!(value, crate::value::Value::Float(x) if x.is_nan())
            }
            _ => false,
        }
    }

    /// [`Self::render_min`] for an operand of a comparison, IN list or BETWEEN: a literal
    /// is written as the comparison reads it (`SqlWriter::compared_literal`).
    fn render_compared(&self, w: &mut SqlWriter, min: u8, level: usize) -> Result<()> {
        match self {
            Expr::Literal { value, ty } => {
                Expr::enter_level(level)?;
                crate::dialect::typing::audit::rendered(self);
                w.compared_literal(value, ty)?;
                Ok(())
            }
            Expr::Param { value, ty } => {
                Expr::enter_level(level)?;
                crate::dialect::typing::audit::rendered(self);
                write_param(w, value, ty, true)
            }
            _ => self.render_min(w, min, level),
        }
    }

    fn render_min(&self, w: &mut SqlWriter, min: u8, level: usize) -> Result<()> {
        Expr::enter_level(level)?;
        if self.precedence() < min {
            w.push_char('(');
            self.render_inner(w, level)?;
            w.push_char(')');
            Ok(())
        } else {
            self.render_inner(w, level)
        }
    }

    fn render_inner(&self, w: &mut SqlWriter, level: usize) -> Result<()> {
        crate::dialect::typing::audit::rendered(self);
        let next = level + 1;
        match self {
            Expr::Column { scope, name } => {
                if let Some(alias) = scope.alias() {
                    w.ident(alias).push_char('.');
                }
                w.ident(name);
            }
            Expr::Literal { value, ty } => {
                w.literal(value, ty)?;
            }
            Expr::Param { value, ty } => write_param(w, value, ty, false)?,
            Expr::Binary { op, operands } => {
                let [left, right] = &**operands;
                let p = op.precedence();
                if p == PREC_CMP && (left.is_nan_literal() || right.is_nan_literal()) {
                    return Err(nan_comparison());
                }
                let (lmin, rmin) = match op {
                    // Associative: `a AND b AND c` needs no parentheses either way.
                    BinaryOp::And | BinaryOp::Or => (p, p),
                    // Comparisons do not chain: both sides must bind tighter.
                    _ if p == PREC_CMP => (PREC_ARITH, PREC_ARITH),
                    _ => (p, p + 1),
                };
                if p == PREC_CMP {
                    left.render_compared(w, lmin, next)?;
                    w.push(op.sql());
                    right.render_compared(w, rmin, next)?;
                } else {
                    left.render_min(w, lmin, next)?;
                    w.push(op.sql());
                    right.render_min(w, rmin, next)?;
                }
            }
            Expr::Not(e) => {
                w.push("NOT ");
                e.render_min(w, PREC_ATOM, next)?;
            }
            Expr::Negate(e) => {
                // Always parenthesised: `-` before a negative literal would be `--`.
                w.push("-(");
                e.render_min(w, 0, next)?;
                w.push_char(')');
            }
            Expr::IsNull { expr, negated } => {
                expr.render_min(w, PREC_ARITH, next)?;
                w.push(if *negated { " IS NOT NULL" } else { " IS NULL" });
            }
            Expr::InList {
                expr,
                list,
                negated,
            } => {
                if list.is_empty() {
                    w.push(if *negated { "true" } else { "false" });
                    return Ok(());
                }
                if expr.is_nan_literal() || list.iter().any(Expr::is_nan_literal) {
                    return Err(nan_comparison());
                }
                expr.render_compared(w, PREC_ARITH, next)?;
                w.push(if *negated { " NOT IN (" } else { " IN (" });
                w.try_comma_list(list, |w, e| e.render_compared(w, 0, next))?;
                w.push_char(')');
            }
            Expr::Between {
                expr,
                low,
                high,
                negated,
            } => {
                if [expr, low, high].iter().any(|e| e.is_nan_literal()) {
                    return Err(nan_comparison());
                }
                expr.render_compared(w, PREC_ARITH, next)?;
                w.push(if *negated {
                    " NOT BETWEEN "
                } else {
                    " BETWEEN "
                });
                low.render_compared(w, PREC_ARITH, next)?;
                w.push(" AND ");
                high.render_compared(w, PREC_ARITH, next)?;
            }
            Expr::Like {
                expr,
                pattern,
                negated,
                escape,
            } => {
                expr.render_min(w, PREC_ARITH, next)?;
                w.push(if *negated { " NOT LIKE " } else { " LIKE " });
                match escape {
                    Some(c) => {
                        check_like_escape(pattern, *c)?;
                        pattern.render_min(w, PREC_ARITH, next)?;
                        w.push(" ESCAPE ").string(c.encode_utf8(&mut [0; 4]));
                    }
                    None => write_unescaped_pattern(pattern, w, next)?,
                }
            }
            Expr::Cast { expr, ty } => {
                w.push("CAST(");
                expr.render_min(w, 0, next)?;
                w.push(" AS ").ty(ty).push_char(')');
            }
            Expr::Case {
                branches,
                otherwise,
            } => {
                w.push("CASE");
                for (c, v) in branches {
                    w.push(" WHEN ");
                    c.render_min(w, 0, next)?;
                    w.push(" THEN ");
                    v.render_min(w, 0, next)?;
                }
                if let Some(o) = otherwise {
                    w.push(" ELSE ");
                    o.render_min(w, 0, next)?;
                }
                w.push(" END");
            }
            Expr::Coalesce(args) => {
                w.push("coalesce(");
                w.try_comma_list(args, |w, a| a.render_min(w, 0, next))?;
                w.push_char(')');
            }
            Expr::Call { name, args } => {
                w.push(name).push_char('(');
                w.try_comma_list(args, |w, a| a.render_min(w, 0, next))?;
                w.push_char(')');
            }
            Expr::Function {
                func: Function::IsNan,
                args,
            } if w.grammar() == crate::dialect::Grammar::Spark && args.len() == 1 => {
                // Spark's `isnan(NULL)` is false; Trino's `is_nan(NULL)` is NULL.
                w.push("CASE WHEN ");
                args[0].render_min(w, PREC_ARITH, next)?;
                w.push(" IS NULL THEN NULL ELSE isnan(");
                args[0].render_min(w, 0, next)?;
                w.push(") END");
            }
            Expr::Function { func, args } => {
                w.push(func.name()).push_char('(');
                w.try_comma_list(args, |w, a| a.render_min(w, 0, next))?;
                w.push_char(')');
            }
            Expr::Window {
                func,
                partition_by,
                order_by,
                frame,
            } => {
                if let Some(frame) = frame {
                    frame.check(func, order_by.len())?;
                }
                func.render_min(w, 0, next)?;
                w.push(" OVER (");
                if !partition_by.is_empty() {
                    w.push("PARTITION BY ");
                    w.try_comma_list(partition_by, |w, p| p.render_min(w, 0, next))?;
                }
                if !order_by.is_empty() {
                    if !partition_by.is_empty() {
                        w.push_char(' ');
                    }
                    w.push("ORDER BY ");
                    w.try_comma_list(order_by, |w, (o, descending)| {
                        o.render_min(w, 0, next)?;
                        w.push(if *descending { " DESC" } else { " ASC" });
                        if w.rules().sorts_nulls_first(*descending) {
                            w.push(" NULLS LAST");
                        }
                        Ok(())
                    })?;
                }
                if let Some(frame) = frame {
                    if !partition_by.is_empty() || !order_by.is_empty() {
                        w.push_char(' ');
                    }
                    frame.write(w);
                }
                w.push_char(')');
            }
            Expr::DateTrunc { unit, expr } => {
                w.push("date_trunc(").string(unit.lower()).push(", ");
                expr.render_min(w, 0, next)?;
                w.push_char(')');
            }
            Expr::Raw(r) => {
                if let Some(problem) = &r.problem {
                    return Err(problem.clone());
                }
                // Read at construction in Trino's grammar; another grammar reads it
                // again.
                let grammar = w.grammar();
                if grammar != crate::dialect::Grammar::TrinoDml {
                    let there = crate::validate::raw::read_raw(&r.sql, grammar)?;
                    let names = |nodes: &[Expr]| -> Vec<String> {
                        nodes
                            .iter()
                            .flat_map(|n| n.columns())
                            .map(|(_, n)| n.to_string())
                            .collect()
                    };
                    if there.plain != names(&r.plain) || there.aggregated != names(&r.aggregated) {
                        return Err(Error::new(
                            ErrorKind::DisallowedSyntax,
                            format!(
                                "raw expression `{}` reads other columns in {} than in Trino's grammar",
                                r.sql,
                                grammar.name()
                            ),
                        )
                        .with_hint(
                            "write names unquoted (a double-quoted name is a string in Spark), \
                             or keep the raw expression to one target",
                        ));
                    }
                }
                w.push(&r.sql);
            }
            Expr::CurrentTimestamp => {
                let now = w.grammar().current_timestamp();
                w.push(now);
            }
            Expr::CurrentDate => {
                let today = w.grammar().current_date();
                w.push(today);
            }
            Expr::Interval { amount, unit } => {
                if matches!(unit, TimeUnit::Quarter | TimeUnit::Week) {
                    return Err(Error::new(
                        ErrorKind::Unsupported,
                        format!(
                            "INTERVAL ... {} is not an interval unit in Athena; use months or days",
                            unit.keyword()
                        ),
                    ));
                }
                let mut n = String::with_capacity(12);
                let _ = write!(n, "INTERVAL '{amount}' {}", unit.keyword());
                w.push(&n);
            }
            Expr::Aggregate { func, arg, filter } => {
                let name = match func {
                    Aggregate::CountAll | Aggregate::Count | Aggregate::CountDistinct => "count(",
                    Aggregate::Sum => "sum(",
                    Aggregate::Avg => "avg(",
                    Aggregate::Min => "min(",
                    Aggregate::Max => "max(",
                    Aggregate::ApproxPercentile(_) => "approx_percentile(",
                };
                w.push(name);
                if *func == Aggregate::CountDistinct {
                    w.push("DISTINCT ");
                }
                match arg {
                    Some(a) => a.render_min(w, 0, next)?,
                    None => {
                        w.push_char('*');
                    }
                }
                if let Aggregate::ApproxPercentile(p) = func {
                    if !(0.0..=1.0).contains(p) {
                        return Err(Error::new(
                            ErrorKind::InvalidValue,
                            format!("approx_percentile percentage {p} is outside 0..=1"),
                        ));
                    }
                    let mut n = String::with_capacity(24);
                    // `{}` of an f64 never uses an exponent: a plain decimal literal.
                    let _ = write!(n, "{p}");
                    if !n.contains('.') {
                        n.push_str(".0");
                    }
                    // A decimal literal has at most 38 digits in Trino and Spark (more
                    // fail the statement): a smaller percentage is written as a double
                    // literal, `1E-40`, which both read as the same double.
                    if n.len() > "0.".len() + 38 {
                        n = format!("{p:e}").replace('e', "E");
                    }
                    w.push(", ").push(&n);
                }
                w.push_char(')');
                if let Some(c) = filter {
                    w.push(" FILTER (WHERE ");
                    c.render_min(w, 0, next)?;
                    w.push_char(')');
                }
            }
        }
        Ok(())
    }
}

/// Writes a LIKE pattern without an `ESCAPE` clause so that the target reads it as
/// Athena does, where no character escapes. A target whose LIKE has an escape character
/// anyway ([`DialectRules::like_default_escape`](crate::dialect::DialectRules), Spark's
/// `\`) gets each occurrence of it doubled, which its LIKE reads as that character
/// itself: in the text of a literal or parameter, or around any other pattern by
/// `replace(pattern, '\\', '\\\\')` when the query runs. (`level` is the pattern's, as
/// in [`Expr::render_min`].)
fn write_unescaped_pattern(pattern: &Expr, w: &mut SqlWriter, level: usize) -> Result<()> {
    let Some(escape) = w.rules().like_default_escape() else {
        return pattern.render_min(w, PREC_ARITH, level);
    };
    let mut one = [0; 4];
    let one: &str = escape.encode_utf8(&mut one);
    let two = one.repeat(2);
    match pattern {
        Expr::Literal {
            value: Value::String(text),
            ty,
        }
        | Expr::Param {
            value: Value::String(text),
            ty,
        } if text.contains(escape) => {
            let value = Value::String(text.replace(escape, &two));
            let ty = ty.clone();
            let doubled = match pattern {
                Expr::Literal { .. } => Expr::Literal { value, ty },
                _ => Expr::Param { value, ty },
            };
            doubled.render_min(w, PREC_ARITH, level)
        }
        // Without the escape character (or NULL) the text means the same on every target.
        Expr::Literal { .. } | Expr::Param { .. } => pattern.render_min(w, PREC_ARITH, level),
        _ => {
            w.push("replace(");
            pattern.render_min(w, 0, level)?;
            w.push(", ")
                .string(one)
                .push(", ")
                .string(&two)
                .push_char(')');
            Ok(())
        }
    }
}

/// Refuses a literal LIKE pattern that fails on every target with `ESCAPE 'c'`: one
/// with `c` before a character other than `%`, `_` and `c`, or at its end (Trino's
/// `LikePattern`, Spark's `StringUtils.escapeLikeRegex`), or an escape character that is
/// two UTF-16 units (both engines take a one-character string of Java's `char`s).
fn check_like_escape(pattern: &Expr, escape: char) -> Result<()> {
    if escape.len_utf16() != 1 {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("LIKE ... ESCAPE '{escape}': Trino and Spark take an escape character of one UTF-16 unit, and `{escape}` is two"),
        )
        .with_hint("escape with a character of the Basic Multilingual Plane, e.g. '!'"));
    }
    let (Expr::Literal {
        value: Value::String(text),
        ..
    }
    | Expr::Param {
        value: Value::String(text),
        ..
    }) = pattern
    else {
        return Ok(());
    };
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != escape {
            continue;
        }
        match chars.next() {
            Some(n) if n == '%' || n == '_' || n == escape => {}
            next => {
                let what = match next {
                    Some(n) => format!("before `{n}`"),
                    None => "at its end".to_string(),
                };
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("LIKE pattern {text:?} has its ESCAPE character `{escape}` {what}; it may only precede `%`, `_` or itself, and the engine fails the query otherwise"),
                )
                .with_hint(format!("write `{escape}{escape}` for a literal `{escape}`")));
            }
        }
    }
    Ok(())
}

/// Writes a parameter's literal as a `?` placeholder; `compared` for a comparison's
/// operand (`SqlWriter::compared_literal`).
fn write_param(w: &mut SqlWriter, value: &Value, ty: &IcebergType, compared: bool) -> Result<()> {
    let mut text = String::new();
    if compared {
        w.grammar().write_compared_literal(&mut text, value, ty)?;
    } else {
        w.grammar().write_literal(&mut text, value, ty)?;
    }
    // Counted as AWS checks a length constraint: characters outside the
    // Basic Multilingual Plane count twice.
    let length = iceberg_sql_rules::aws_length(&text);
    if length > MAX_PARAM_CHARS {
        return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!(
                            "a parameter's literal text is {length} characters (UTF-16 code units); Athena's ExecutionParameters entries hold at most {MAX_PARAM_CHARS}"
                        ),
                    )
                    .with_hint("inline the value as a literal instead of a parameter"));
    }
    w.placeholder(text);
    Ok(())
}

/// Refuses a comparison, IN list or BETWEEN with a NaN literal: in Trino NaN is unequal
/// to every value, itself included (IEEE 754; Trino's `DoubleOperators`), so `x = nan()`
/// matches no row and `x <> nan()` every row, silently.
fn nan_comparison() -> Error {
    Error::from_static(
        ErrorKind::InvalidValue,
        "a comparison with NaN: in Trino NaN is unequal to every value, so `= nan()` (or `IN (…, nan())`, `BETWEEN nan() AND …`) matches no row and `<> nan()` every row",
    )
    .with_hint("test for NaN with `.is_nan()` (Trino's is_nan(x), https://trino.io/docs/current/functions/math.html#is_nan) instead of comparing with f64::NAN / f32::NAN")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Left-deep (`.and` chains), right-deep and balanced trees of `levels` levels.
    fn shapes(levels: usize) -> Vec<Expr> {
        let leaf = |i: usize| {
            Expr::binary(
                BinaryOp::Eq,
                Expr::column("c"),
                Expr::literal(Value::Int(i as i32), IcebergType::Int),
            )
        };
        let and = |l: Expr, r: Expr| Expr::binary(BinaryOp::And, l, r);
        let (mut left, mut right) = (leaf(0), leaf(0));
        for i in 1..levels.saturating_sub(1) {
            left = and(left, leaf(i));
            right = and(leaf(i), right);
        }
        let mut level: Vec<Expr> = (0..1 << levels.min(12).saturating_sub(2))
            .map(leaf)
            .collect();
        while level.len() > 1 {
            let r = level.pop().expect("two");
            let l = level.pop().expect("two");
            level.insert(0, and(l, r));
        }
        vec![left, right, level.pop().expect("one")]
    }

    /// The recursive walk and depth, which hand over to the iterative ones at
    /// `RECURSION_LEVELS`, visit the same nodes in the same order and count the same
    /// depth as the iterative ones alone, on both sides of the hand-over.
    #[test]
    fn recursive_walk_and_depth_agree_with_the_iterative_ones() {
        for levels in [1, 2, 3, 63, 64, 65, 66, 130, 300] {
            for e in shapes(levels) {
                let mut recursive = Vec::new();
                e.walk(&mut |n| recursive.push(n as *const Expr));
                let mut iterative = Vec::new();
                e.walk_iteratively(&mut |n| iterative.push(n as *const Expr));
                assert_eq!(recursive, iterative, "{levels} levels");
                assert_eq!(e.depth(), e.depth_iteratively(), "{levels} levels");
            }
        }
        assert_eq!(shapes(300)[0].depth(), 300);
    }
}

#[cfg(test)]
mod nan_tests {
    use crate::prelude::*;

    struct Ev;
    const SCORE: Col<Ev, f64> = Col::new("score");
    const RATIO: Col<Ev, f32> = Col::new("ratio");

    #[test]
    fn comparison_with_nan_is_refused_with_is_nan_hint() {
        for c in [SCORE.eq(f64::NAN), SCORE.ne(f64::NAN), RATIO.eq(f32::NAN)] {
            let e = c.to_sql(Dialect::Athena).expect_err("NaN comparison");
            assert!(format!("{e:?}").contains("is_nan"), "{e:?}");
        }
        assert_eq!(
            SCORE.eq(1.5).to_sql(Dialect::Athena).expect("sql"),
            "score = 1.5E0"
        );
    }
    struct Ts;
    const AT: Col<Ts, chrono::NaiveDateTime> = Col::new("at");
    const SEEN: Col<Ts, chrono::DateTime<chrono::Utc>> = Col::new("seen");

    /// A timestamp with digits below a microsecond is compared as Trino types it
    /// (`timestamp(9)`); Spark, whose timestamps hold microseconds, refuses it; a write
    /// of it stays refused everywhere.
    #[test]
    fn sub_microsecond_timestamps_compare_at_nine_digits() {
        let v = chrono::NaiveDate::from_ymd_opt(2024, 1, 1)
            .and_then(|d| d.and_hms_nano_opt(0, 0, 0, 123_456_789))
            .expect("timestamp");
        assert_eq!(
            AT.lt(v).to_sql(Dialect::Athena).expect("sql"),
            "at < TIMESTAMP '2024-01-01 00:00:00.123456789'"
        );
        assert_eq!(
            AT.between(v, v).to_sql(Dialect::Trino).expect("sql"),
            "at BETWEEN TIMESTAMP '2024-01-01 00:00:00.123456789' AND TIMESTAMP '2024-01-01 00:00:00.123456789'"
        );
        assert_eq!(
            SEEN.ge(v.and_utc()).to_sql(Dialect::Athena).expect("sql"),
            "seen >= TIMESTAMP '2024-01-01 00:00:00.123456789'"
        );
        let e = AT.lt(v).to_sql(Dialect::Spark).expect_err("Spark");
        assert!(e.to_string().contains("below a microsecond"), "{e}");
    }
}
