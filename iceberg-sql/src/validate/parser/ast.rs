//! The tree the parser builds: plain enums and structs holding exactly the expression,
//! type and statement forms our targets' grammars give meaning to (what the renderers
//! write and what the validator's checks accept). Leaves carry the byte span of their
//! token, so a later check can point at them.

/// Byte offsets into the statement text, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// A name as written: `status`, `"order"`, `` `date` `` (the value without quotes, a
/// doubled quote as one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ident {
    pub(crate) value: String,
    /// The quote character of a quoted name.
    pub(crate) quote: Option<char>,
    pub(crate) span: Span,
}

/// A literal value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Literal {
    pub(crate) value: LiteralValue,
    /// The literal's token (a typed literal's string token).
    pub(crate) span: Span,
}

impl Literal {
    /// The value of a `'…'` string literal.
    pub(crate) fn single_quoted(&self) -> Option<&str> {
        match &self.value {
            LiteralValue::String {
                form: StringForm::Single,
                value,
            } => Some(value),
            _ => None,
        }
    }
}

/// The forms of a literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LiteralValue {
    /// An unsigned number as written (`12`, `1.5`, `1E-40`); `long` for Spark's `5L`.
    Number {
        text: String,
        long: bool,
    },
    /// A string literal's value.
    String {
        form: StringForm,
        value: String,
    },
    Boolean(bool),
    Null,
    /// `DATE '…'`, `TIMESTAMP '…'`, `DECIMAL '…'`, `REAL '…'`: a type name, then a
    /// string (its span is the literal's).
    Typed {
        ty: DataType,
        value: String,
    },
}

/// How a string literal is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StringForm {
    /// `'…'`.
    Single,
    /// `"…"` (Spark).
    Double,
    /// `N'…'`.
    National,
    /// `X'…'`: the value is the hex digits as written.
    Hex,
    /// Trino `U&'…'`: the value has its escapes decoded.
    Unicode,
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnaryOp {
    Not,
    Minus,
    Plus,
    /// `~` (Spark)
    BitNot,
}

/// Infix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    Or,
    And,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    Plus,
    Minus,
    Multiply,
    Divide,
    Modulo,
    /// `||`
    Concat,
    /// `&` (Spark)
    BitAnd,
    /// `|` (Spark)
    BitOr,
    /// `^` (Spark)
    BitXor,
    /// `<=>`: equal, or both NULL (Spark)
    NullSafeEq,
}

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    /// `a`, `t.a`, `db.t.a`: a column or a qualified name (one or more parts).
    Name(Vec<Ident>),
    Literal(Literal),
    /// `?`
    Placeholder(Span),
    /// `(x)`
    Nested(Box<Expr>),
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    Binary {
        left: Box<Expr>,
        op: BinaryOp,
        right: Box<Expr>,
    },
    /// `x IS [NOT] NULL`
    IsNull {
        expr: Box<Expr>,
        negated: bool,
    },
    /// `x IS [NOT] DISTINCT FROM y`
    IsDistinctFrom {
        left: Box<Expr>,
        right: Box<Expr>,
        negated: bool,
    },
    /// `x [NOT] IN (a, b, …)`
    InList {
        expr: Box<Expr>,
        list: Vec<Expr>,
        negated: bool,
    },
    /// `x [NOT] BETWEEN low AND high`
    Between {
        expr: Box<Expr>,
        low: Box<Expr>,
        high: Box<Expr>,
        negated: bool,
    },
    /// `x [NOT] LIKE pattern [ESCAPE e]`
    Like {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        escape: Option<Box<Expr>>,
        negated: bool,
    },
    /// `CASE [operand] WHEN … THEN … [ELSE …] END`
    Case {
        operand: Option<Box<Expr>>,
        branches: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    /// `CAST(x AS T)`, `TRY_CAST(x AS T)`
    Cast {
        expr: Box<Expr>,
        ty: DataType,
        try_cast: bool,
    },
    Function(Function),
    /// `ARRAY[a, b]` (Trino)
    Array(Vec<Expr>),
    /// `a[i]`
    Subscript {
        expr: Box<Expr>,
        index: Box<Expr>,
    },
    /// `(x).field`, `f(x).field`, `a[1].field`: a field of a value that is not a name.
    Field {
        expr: Box<Expr>,
        field: Ident,
    },
    /// `x AT TIME ZONE zone`
    AtTimeZone {
        expr: Box<Expr>,
        zone: Box<Expr>,
    },
    /// `INTERVAL '1' DAY` (the unit in upper case)
    /// `INTERVAL [+|-] '…' unit [TO unit]` (the units in upper case)
    Interval {
        value: Box<Expr>,
        unit: String,
        to: Option<String>,
    },
    /// `EXTRACT(field FROM x)` (the field in upper case)
    Extract {
        field: String,
        expr: Box<Expr>,
    },
    /// `(SELECT …)` as a value
    Subquery(Box<Query>),
    /// `x [NOT] IN (SELECT …)`
    InSubquery {
        expr: Box<Expr>,
        query: Box<Query>,
        negated: bool,
    },
    /// `[NOT] EXISTS (SELECT …)`
    Exists {
        query: Box<Query>,
        negated: bool,
    },
    /// `x -> body`, `(k, v) -> body`
    Lambda {
        params: Vec<Ident>,
        /// Whether the parameters are written in parentheses.
        parenthesized: bool,
        body: Box<Expr>,
    },
    /// `x IS [NOT] TRUE|FALSE|UNKNOWN` (Spark; `value` is `None` for `UNKNOWN`)
    IsBool {
        expr: Box<Expr>,
        value: Option<bool>,
        negated: bool,
    },
    /// `x [NOT] ILIKE pattern [ESCAPE e]` (Spark)
    ILike {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        escape: Option<Box<Expr>>,
        negated: bool,
    },
    /// `x [NOT] RLIKE|REGEXP pattern` (Spark; `regexp` when written `REGEXP`)
    RLike {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        negated: bool,
        regexp: bool,
    },
    /// `x = ANY|SOME|ALL (query)` (Trino; `op` is a comparison)
    Quantified {
        left: Box<Expr>,
        op: BinaryOp,
        quantifier: Quantifier,
        query: Box<Query>,
    },
    /// `(a, b, …)`: a row value of two or more fields (Trino's and Spark's
    /// `rowConstructor`; `ROW(a, b)` is a call)
    Row(Vec<Expr>),
    /// `value AS name`: a named field of Spark's `struct(…)` (its `namedExpression`)
    Named {
        expr: Box<Expr>,
        name: Ident,
    },
    /// `position(needle IN haystack)` (both grammars' `position`)
    Position {
        needle: Box<Expr>,
        haystack: Box<Expr>,
    },
    /// `substring(x FROM start [FOR length])` (both grammars' `substring`; Spark's may
    /// write `,` for `FOR`)
    Substring {
        expr: Box<Expr>,
        from: Box<Expr>,
        length: Option<Box<Expr>>,
    },
    /// `trim([BOTH|LEADING|TRAILING] chars FROM x)` (both grammars' `trim`)
    Trim {
        side: Option<TrimSide>,
        chars: Box<Expr>,
        expr: Box<Expr>,
    },
    /// `overlay(x PLACING y FROM start [FOR length])` (Spark's `overlay`)
    Overlay {
        expr: Box<Expr>,
        placing: Box<Expr>,
        from: Box<Expr>,
        length: Option<Box<Expr>>,
    },
    /// `GROUPING SETS (…)`, `ROLLUP (…)`, `CUBE (…)` as an item of `GROUP BY`: each set
    /// a parenthesized list (perhaps empty) or one expression.
    Grouping {
        kind: GroupingKind,
        sets: Vec<Vec<Expr>>,
    },
}

/// The kinds of grouping element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GroupingKind {
    Sets,
    Rollup,
    Cube,
}

/// Which side `trim(… FROM x)` trims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TrimSide {
    Both,
    Leading,
    Trailing,
}

/// The quantifier of a comparison with a subquery's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quantifier {
    All,
    Any,
    Some,
}

/// `name(args) [FILTER (WHERE cond)]`, or a niladic `current_date`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Function {
    pub(crate) name: Vec<Ident>,
    pub(crate) args: FunctionArgs,
    /// `FILTER (WHERE …)` after an aggregate.
    pub(crate) filter: Option<Box<Expr>>,
    /// `OVER (…)` after a window function.
    pub(crate) over: Option<Box<Window>>,
    /// How the call orders its input, when written (boxed: rare, and every
    /// expression is as large as a call).
    pub(crate) ordering: Option<Box<CallOrdering>>,
}

/// How a call orders its input: one of the two is written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CallOrdering {
    /// `ORDER BY …` after the arguments, inside the parentheses (Trino's
    /// `functionCall`: `array_agg(x ORDER BY y)`).
    pub(crate) order_by: Vec<OrderByItem>,
    /// `WITHIN GROUP (ORDER BY …)` after the call (Spark's `functionCall`, Trino's
    /// `listagg`).
    pub(crate) within_group: Vec<OrderByItem>,
}

impl CallOrdering {
    /// `None` when neither is written.
    pub(crate) fn of(
        order_by: Vec<OrderByItem>,
        within_group: Vec<OrderByItem>,
    ) -> Option<Box<CallOrdering>> {
        (!order_by.is_empty() || !within_group.is_empty()).then(|| {
            Box::new(CallOrdering {
                order_by,
                within_group,
            })
        })
    }
}

/// `OVER ([PARTITION BY …] [ORDER BY …] [frame])`, or `OVER name` (a window of the
/// `SELECT`'s `WINDOW` clause). Not yet read: `OVER (name …)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Window {
    pub(crate) partition_by: Vec<Expr>,
    pub(crate) order_by: Vec<OrderByItem>,
    /// `ROWS|RANGE|GROUPS [BETWEEN] …`
    pub(crate) frame: Option<Box<WindowFrame>>,
    /// `OVER name`: the lists are empty.
    pub(crate) name: Option<Ident>,
}

/// A window's frame: `ROWS|RANGE|GROUPS start` or `… BETWEEN start AND end` (Trino's
/// `frameExtent`, Spark's `windowFrame`, which has no `GROUPS`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WindowFrame {
    pub(crate) units: FrameUnits,
    pub(crate) start: FrameBound,
    /// The bound after `AND`, when written with `BETWEEN`.
    pub(crate) end: Option<FrameBound>,
}

/// What a frame counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FrameUnits {
    Rows,
    Range,
    Groups,
}

/// One end of a frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FrameBound {
    /// `CURRENT ROW`
    CurrentRow,
    /// `n PRECEDING`, or `UNBOUNDED PRECEDING` (`None`).
    Preceding(Option<Box<Expr>>),
    /// `n FOLLOWING`, or `UNBOUNDED FOLLOWING` (`None`).
    Following(Option<Box<Expr>>),
}

/// A function's arguments. Not yet read: named arguments (`name => value`) outside
/// `CALL` and `EXECUTE`, `IGNORE NULLS`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FunctionArgs {
    /// No parentheses: `current_date`, `current_timestamp`.
    None,
    /// `count(*)`
    Star,
    /// `f(a, b)`, `count(DISTINCT x)`
    List { distinct: bool, args: Vec<Expr> },
}

/// A data type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DataType {
    /// A type named by a word, with its numeric parameters: `integer`, `varchar(10)`,
    /// `decimal(10,2)`, `timestamp(6) with time zone`. The name is lower case.
    Named {
        name: String,
        params: Vec<u64>,
        time_zone: TimeZone,
    },
    /// `array(T)` / `array<T>`
    Array(Box<DataType>, Brackets),
    /// `map(K, V)` / `map<K, V>`
    Map(Box<DataType>, Box<DataType>, Brackets),
    /// `row(a T, …)` / `struct<a: T, …>` / `struct<a T>`
    Row(Vec<Field>, Brackets),
}

/// A field of a `row(…)` or `struct<…>` type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field {
    pub(crate) name: Ident,
    pub(crate) ty: DataType,
}

/// Which brackets hold a type's parameters: Trino `array(T)`, Hive/Spark `array<T>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Brackets {
    Parentheses,
    Angle,
}

/// A `timestamp`/`time` type's zone clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeZone {
    None,
    With,
    Without,
}

/// `[WITH …] body [ORDER BY …] [OFFSET n] [LIMIT n | FETCH …]` (Trino), `… [LIMIT n]
/// [OFFSET n]` (Spark). Not yet read (a later milestone): `VALUES`,
/// `TABLESAMPLE`, `GROUPING SETS`, `ROLLUP`, `CUBE`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Query {
    pub(crate) with: Vec<Cte>,
    pub(crate) body: SetExpr,
    pub(crate) order_by: Vec<OrderByItem>,
    pub(crate) limit: Option<Expr>,
    /// `OFFSET n [ROW|ROWS]`
    pub(crate) offset: Option<Offset>,
    /// `FETCH FIRST|NEXT [n] ROW|ROWS ONLY|WITH TIES` (Trino)
    pub(crate) fetch: Option<Fetch>,
}

/// `name AS (query)` in a `WITH`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cte {
    pub(crate) name: Ident,
    pub(crate) query: Query,
}

/// `SELECT [DISTINCT] items [FROM …] [WHERE …] [GROUP BY …] [HAVING …]`
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Select {
    pub(crate) distinct: bool,
    pub(crate) items: Vec<SelectItem>,
    pub(crate) from: Vec<TableWithJoins>,
    pub(crate) selection: Option<Expr>,
    pub(crate) group_by: Vec<Expr>,
    pub(crate) having: Option<Expr>,
    /// Spark's `CLUSTER BY a, b` (read where sqlparser reads it, after `GROUP BY`).
    pub(crate) cluster_by: Vec<Expr>,
    /// `WINDOW name AS (…), …` after `HAVING` (Trino's `querySpecification`, Spark's
    /// `windowClause`).
    pub(crate) windows: Vec<(Ident, Window)>,
    /// Spark's `LATERAL VIEW [OUTER] f(…) name [AS] c, …` after the relations.
    pub(crate) lateral_views: Vec<LateralView>,
    /// Spark's `PIVOT (…)`, the last clause of its `fromClause` (boxed: rare).
    pub(crate) pivot: Option<Box<Pivot>>,
}

/// Spark's `PIVOT (agg [[AS] a], … FOR column IN (value [[AS] v], …))` or `FOR (c, …)`
/// (`pivotClause`, `pivotColumn`, `pivotValue`, SqlBaseParser.g4): the FROM clause's
/// rows turned into one column per value and aggregate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pivot {
    /// The aggregates, each with its alias if written (`namedExpressionSeq`).
    pub(crate) aggregates: Vec<(Expr, Option<Ident>)>,
    /// The pivot column, or the columns in parentheses.
    pub(crate) columns: Vec<Ident>,
    /// The values, each with its alias if written.
    pub(crate) values: Vec<(Expr, Option<Ident>)>,
}

/// Spark's `LATERAL VIEW [OUTER] f(a, …) name [[AS] c, …]` (`lateralView`,
/// SqlBaseParser.g4): a generator's rows joined to each row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LateralView {
    pub(crate) outer: bool,
    /// The generator's call.
    pub(crate) call: Expr,
    pub(crate) name: Ident,
    pub(crate) columns: Vec<Ident>,
}

/// One item of a select list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SelectItem {
    /// `expr [[AS] alias]`
    Expr { expr: Expr, alias: Option<Ident> },
    /// `*` (its token)
    Wildcard(Span),
    /// `t.*`
    QualifiedWildcard(Vec<Ident>),
}

/// A relation and the joins after it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TableWithJoins {
    pub(crate) relation: TableFactor,
    pub(crate) joins: Vec<Join>,
}

/// A relation in `FROM`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TableFactor {
    /// `db.t [FOR VERSION|TIMESTAMP AS OF …] [[AS] alias] [TABLESAMPLE …]`
    Table {
        name: Vec<Ident>,
        version: Option<TableVersion>,
        alias: Option<Ident>,
        sample: Option<Box<TableSample>>,
    },
    /// `[LATERAL] (query) [[AS] alias]`
    Derived {
        query: Box<Query>,
        alias: Option<Ident>,
        /// `(…) AS t (a, b)`: the query's columns renamed.
        columns: Vec<Ident>,
        /// `LATERAL`: the query may name the relations before it (Trino's
        /// `LATERAL '(' query ')'`, Spark's `LATERAL? relationPrimary`).
        lateral: bool,
    },
    /// `(VALUES (a, b), …) [[AS] alias [(x, y)]]`: rows as a relation, its columns named
    /// after the alias.
    Values {
        rows: Vec<Vec<Expr>>,
        alias: Option<Ident>,
        columns: Vec<Ident>,
    },
    /// Trino's `TABLE(f(…)) [[AS] alias]`: a table function's rows (`call` is a call).
    TableFunction {
        call: Box<Expr>,
        alias: Option<Ident>,
    },
    /// A table function called by name, `f(a, …) [[AS] alias [(x, …)]]`: Trino's
    /// `UNNEST(a, …) [WITH ORDINALITY]` (`name` is the word `UNNEST` as written) and
    /// Spark's table-valued functions (`functionTable`). sqlparser reads both as a table
    /// named `f` with arguments.
    TableValued {
        name: Vec<Ident>,
        args: Vec<Expr>,
        /// Trino's `WITH ORDINALITY` after `UNNEST(…)`.
        ordinality: bool,
        alias: Option<Ident>,
        columns: Vec<Ident>,
    },
}

/// Time travel: `FOR VERSION AS OF 123`, `FOR TIMESTAMP AS OF TIMESTAMP '…'` (Spark:
/// `FOR` may be left out).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TableVersion {
    Version(Expr),
    Timestamp(Expr),
    /// Spark's `FOR SYSTEM_TIME AS OF t` (`temporalClause`), written with `FOR`.
    SystemTime(Expr),
}

/// `[kind] JOIN relation [ON condition | USING (columns)]`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Join {
    pub(crate) kind: JoinKind,
    pub(crate) relation: TableFactor,
    pub(crate) constraint: JoinConstraint,
}

/// How a join matches rows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JoinConstraint {
    /// `ON condition`
    On(Expr),
    /// `USING (a, b)`
    Using(Vec<Ident>),
    /// None: `CROSS JOIN`, or a Spark join without criteria.
    None,
    /// `NATURAL`: on the columns of the same name.
    Natural,
}

/// The kinds of join (`JOIN` is `INNER JOIN`, `LEFT OUTER JOIN` is `LEFT JOIN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JoinKind {
    Inner,
    Left,
    Right,
    Full,
    Cross,
    /// Spark's `[LEFT] SEMI JOIN`.
    LeftSemi,
    /// Spark's `[LEFT] ANTI JOIN`.
    LeftAnti,
}

/// `expr [ASC|DESC] [NULLS FIRST|LAST]`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OrderByItem {
    pub(crate) expr: Expr,
    /// `Some(true)` for `ASC`, `Some(false)` for `DESC`.
    pub(crate) asc: Option<bool>,
    pub(crate) nulls_first: Option<bool>,
}

impl Expr {
    /// The first operand of a node whose tree can be as deep as a chain is long
    /// (`a AND b AND …`, `x IS NULL IS NULL …`), detached from it.
    fn take_first_operand(&mut self) -> Option<Expr> {
        match self {
            Expr::Binary { left: e, .. }
            | Expr::IsNull { expr: e, .. }
            | Expr::IsDistinctFrom { left: e, .. }
            | Expr::InList { expr: e, .. }
            | Expr::InSubquery { expr: e, .. }
            | Expr::Between { expr: e, .. }
            | Expr::Like { expr: e, .. }
            | Expr::AtTimeZone { expr: e, .. }
            | Expr::Subscript { expr: e, .. }
            | Expr::Field { expr: e, .. }
            | Expr::IsBool { expr: e, .. }
            | Expr::ILike { expr: e, .. }
            | Expr::RLike { expr: e, .. }
            | Expr::Quantified { left: e, .. } => Some(std::mem::replace(
                &mut **e,
                Expr::Placeholder(Span::default()),
            )),
            _ => None,
        }
    }
}

/// Left-deep chains are freed one link at a time: the compiler's drop glue would
/// recurse once per link (10,000 `OR`s fit in a statement).
impl Drop for Expr {
    fn drop(&mut self) {
        let mut next = self.take_first_operand();
        while let Some(mut e) = next {
            next = e.take_first_operand();
        }
    }
}

/// A statement: a query, or one of the statements our builders write.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Statement {
    Query(Box<Query>),
    Insert(Insert),
    Update(Update),
    Delete(Delete),
    Merge(Merge),
    /// Athena's `OPTIMIZE t REWRITE DATA USING BIN_PACK [WHERE condition]`
    Optimize {
        table: Vec<Ident>,
        predicate: Option<Expr>,
    },
    /// Athena's `VACUUM t`
    Vacuum {
        table: Vec<Ident>,
    },
    /// Athena's `UNLOAD (query) TO 's3://…' [WITH (name = value, …)]`
    Unload {
        query: Box<Query>,
        /// The location, a `'…'` string.
        to: Literal,
        with: Vec<Property>,
    },
    /// Spark's `CALL catalog.system.procedure(name => value, …)` (Iceberg's procedures)
    Call {
        procedure: Vec<Ident>,
        /// Each argument, with its name when written `name => value`.
        args: Vec<(Option<Ident>, Expr)>,
    },
    /// Trino's `CREATE TABLE t [WITH (name = value, …)] AS query [WITH [NO] DATA]`
    CreateTableAs {
        table: Vec<Ident>,
        with: Vec<Property>,
        query: Box<Query>,
        /// `WITH DATA` (`Some(true)`) or `WITH NO DATA` (`Some(false)`) after the query.
        data: Option<bool>,
    },
    /// `CREATE TABLE` in each grammar (Spark's CTAS too), and a staged load's table.
    CreateTable(CreateTable),
    /// `ALTER TABLE t action`
    AlterTable {
        table: Vec<Ident>,
        action: AlterAction,
    },
    /// `DROP TABLE|VIEW|DATABASE|SCHEMA [IF EXISTS] name [PURGE] [CASCADE]`
    Drop {
        object: DropObject,
        if_exists: bool,
        name: Vec<Ident>,
        /// `PURGE` after a table (Spark).
        purge: bool,
        /// `CASCADE` after a database or schema.
        cascade: bool,
    },
    /// `CREATE DATABASE|SCHEMA [IF NOT EXISTS] name [COMMENT '…'] [LOCATION '…']`
    /// (Hive, Spark), `CREATE SCHEMA [IF NOT EXISTS] name [WITH (…)]` (Trino)
    CreateDatabase {
        /// Whether it is written `SCHEMA` rather than `DATABASE`.
        schema: bool,
        if_not_exists: bool,
        name: Vec<Ident>,
        comment: Option<Literal>,
        location: Option<Literal>,
        with: Vec<Property>,
    },
    /// `CREATE [OR REPLACE] VIEW name AS query`
    CreateView {
        or_replace: bool,
        name: Vec<Ident>,
        query: Box<Query>,
    },
    /// `SHOW TABLES [IN db] [[LIKE] 'pattern' [ESCAPE 'c']]`
    ShowTables {
        database: Option<Vec<Ident>>,
        pattern: Option<Literal>,
        /// Whether the pattern follows `LIKE` (Spark, Trino; Hive writes it bare).
        like: bool,
        escape: Option<Literal>,
    },
    /// `SHOW CREATE TABLE t`
    ShowCreateTable {
        table: Vec<Ident>,
    },
    /// `DESCRIBE [FORMATTED] t`
    Describe {
        formatted: bool,
        table: Vec<Ident>,
    },
}

/// What a `CREATE … TABLE|VIEW` with columns creates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CreateObject {
    /// `CREATE TABLE`
    Table,
    /// `CREATE EXTERNAL TABLE` (Hive: a staged load's Parquet files)
    ExternalTable,
    /// `CREATE TEMPORARY VIEW … USING …` (Spark: a staged load's Parquet files)
    TemporaryView,
}

/// `CREATE [EXTERNAL] TABLE [IF NOT EXISTS] t [(columns)] clause… [AS query]`, or
/// Spark's `CREATE TEMPORARY VIEW v (columns) USING parquet OPTIONS (…)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CreateTable {
    pub(crate) object: CreateObject,
    pub(crate) if_not_exists: bool,
    pub(crate) name: Vec<Ident>,
    pub(crate) columns: Vec<ColumnDef>,
    /// The clauses after the columns, in the order written.
    pub(crate) clauses: Vec<TableClause>,
    /// Spark's `AS query`.
    pub(crate) query: Option<Box<Query>>,
}

/// `name type [NOT NULL] [COMMENT '…']`: a column of a `CREATE TABLE` or of an
/// `ALTER TABLE … ADD`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ColumnDef {
    pub(crate) name: Ident,
    pub(crate) ty: DataType,
    pub(crate) not_null: bool,
    pub(crate) comment: Option<Literal>,
}

/// A clause of a `CREATE TABLE` after its columns.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TableClause {
    /// `USING iceberg` (Spark)
    Using(Ident),
    /// `COMMENT '…'`
    Comment(Literal),
    /// `PARTITIONED BY (day(ts), bucket(16, id), c)`: each field a name or a call of
    /// a transform on names and numbers.
    PartitionedBy(Vec<Expr>),
    /// `STORED AS PARQUET` (Hive)
    StoredAs(Ident),
    /// `LOCATION '…'`
    Location(Literal),
    /// `TBLPROPERTIES ('k'='v', …)` (Hive, Spark)
    TblProperties(Vec<(Literal, Literal)>),
    /// `WITH (name = value, …)` (Trino)
    With(Vec<Property>),
    /// `OPTIONS (key 'value', …)` (Spark)
    Options(Vec<(Ident, Literal)>),
}

/// What an `ALTER TABLE` does.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum AlterAction {
    /// `ADD COLUMNS (a T, …)` (Hive, Spark)
    AddColumns(Vec<ColumnDef>),
    /// `ADD COLUMN a T` (Trino, Spark)
    AddColumn(ColumnDef),
    /// `DROP COLUMN a`
    DropColumn(Ident),
    /// `CHANGE [COLUMN] old new T [COMMENT '…']` (Hive)
    ChangeColumn {
        old: Ident,
        new: Ident,
        ty: DataType,
        comment: Option<Literal>,
    },
    /// `RENAME COLUMN old TO new` (Spark, Trino)
    RenameColumn { old: Ident, new: Ident },
    /// `ALTER [COLUMN] c TYPE T` (Spark), `ALTER COLUMN c SET DATA TYPE T` (Trino)
    AlterColumnType { column: Ident, ty: DataType },
    /// `RENAME TO t2`
    RenameTo(Vec<Ident>),
    /// `SET TBLPROPERTIES ('k'='v', …)` (Hive, Spark)
    SetTblProperties(Vec<(Literal, Literal)>),
    /// `UNSET TBLPROPERTIES ('k', …)` (Hive, Spark)
    UnsetTblProperties(Vec<Literal>),
    /// `ADD [IF NOT EXISTS] PARTITION (k = v, …) [LOCATION '…'] …` (Hive)
    AddPartitions {
        if_not_exists: bool,
        partitions: Vec<PartitionSpec>,
    },
    /// `ADD PARTITION FIELD f` (Spark with Iceberg's SQL extensions): a column or a
    /// transform, as in `PARTITIONED BY`
    AddPartitionField(Expr),
    /// `DROP PARTITION FIELD f` (Spark)
    DropPartitionField(Expr),
    /// `REPLACE PARTITION FIELD f WITH g` (Spark)
    ReplacePartitionField(Expr, Expr),
    /// `SET PROPERTIES name = value | DEFAULT, …` (Trino; `None` for `DEFAULT`)
    SetProperties(Vec<(Ident, Option<Expr>)>),
    /// `EXECUTE procedure[([name =>] value, …)] [WHERE condition]` (Trino's table
    /// procedures: `optimize`, `expire_snapshots`)
    Execute {
        procedure: Ident,
        args: Vec<(Option<Ident>, Expr)>,
        predicate: Option<Expr>,
    },
}

/// One partition of `ADD PARTITION`: its key values (literals) and its folder.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PartitionSpec {
    pub(crate) values: Vec<(Ident, Expr)>,
    pub(crate) location: Option<Literal>,
}

/// What a `DROP` drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DropObject {
    Table,
    View,
    Database,
    Schema,
}

/// `name = value` in a `WITH (…)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Property {
    pub(crate) name: Ident,
    pub(crate) value: Expr,
}

/// `INSERT INTO t [(a, b)] VALUES (…), … | query`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Insert {
    pub(crate) table: Vec<Ident>,
    pub(crate) columns: Vec<Ident>,
    pub(crate) source: InsertSource,
}

/// What an `INSERT` writes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum InsertSource {
    /// `VALUES (a, b), (c, d)`
    Values(Vec<Vec<Expr>>),
    Query(Box<Query>),
}

/// `column = value` in a `SET`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Assignment {
    /// One name in Trino; Spark's `multipartIdentifier` may qualify it.
    pub(crate) column: Vec<Ident>,
    pub(crate) value: Expr,
}

/// `UPDATE t [[AS] alias] SET a = x, … [WHERE condition]` (an alias in Spark only).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Update {
    pub(crate) table: Vec<Ident>,
    pub(crate) alias: Option<Ident>,
    pub(crate) assignments: Vec<Assignment>,
    pub(crate) selection: Option<Expr>,
}

/// `DELETE FROM t [[AS] alias] [WHERE condition]` (an alias in Spark only).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Delete {
    pub(crate) table: Vec<Ident>,
    pub(crate) alias: Option<Ident>,
    pub(crate) selection: Option<Expr>,
}

/// `MERGE INTO t [[AS] alias] USING relation ON condition WHEN … THEN …`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Merge {
    pub(crate) table: Vec<Ident>,
    pub(crate) alias: Option<Ident>,
    pub(crate) source: TableFactor,
    pub(crate) on: Expr,
    pub(crate) clauses: Vec<MergeClause>,
}

/// `WHEN [NOT] MATCHED [BY SOURCE|TARGET] [AND condition] THEN action`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MergeClause {
    pub(crate) matched: bool,
    pub(crate) condition: Option<Expr>,
    pub(crate) action: MergeAction,
    /// Spark's `BY SOURCE` or `BY TARGET` after `NOT MATCHED`.
    pub(crate) by: NotMatchedBy,
}

/// What a `WHEN NOT MATCHED` clause says it matches by (Spark's `notMatchedClause` and
/// `notMatchedBySourceClause`; `BY TARGET` is the plain clause, written out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotMatchedBy {
    Unsaid,
    Source,
    Target,
}

/// What a `MERGE` clause does to a row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum MergeAction {
    /// `UPDATE SET a = x, …`
    Update(Vec<Assignment>),
    /// `DELETE`
    Delete,
    /// `INSERT [(a, b)] VALUES (x, y)`
    Insert {
        columns: Vec<Ident>,
        values: Vec<Expr>,
    },
    /// Spark's `UPDATE SET *`: every column from the source's column of that name.
    UpdateAll,
    /// Spark's `INSERT *`.
    InsertAll,
}

/// A query's body: a `SELECT`, or set operations on them. A chain of operators is
/// left-deep (`a UNION b UNION c` is `(a UNION b) UNION c`), `INTERSECT` binding
/// tighter than `UNION` and `EXCEPT` (Trino's `queryTerm` in SqlBase.g4, Spark's in
/// SqlBaseParser.g4); it is freed link by link, as expression chains are.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SetExpr {
    Select(Box<Select>),
    /// `left op [ALL|DISTINCT] right`
    Operation {
        left: Box<SetExpr>,
        op: SetOperator,
        quantifier: SetQuantifier,
        right: Box<SetExpr>,
    },
}

/// The set operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SetOperator {
    Union,
    Except,
    Intersect,
}

/// `ALL` or `DISTINCT` after a set operator, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SetQuantifier {
    None,
    All,
    Distinct,
}

impl Drop for SetExpr {
    fn drop(&mut self) {
        let mut next = self.take_left();
        while let Some(mut e) = next {
            next = e.take_left();
        }
    }
}

impl SetExpr {
    /// The left operand of an operation, detached from it.
    fn take_left(&mut self) -> Option<SetExpr> {
        match self {
            SetExpr::Operation { left, .. } => Some(std::mem::replace(
                &mut **left,
                SetExpr::Select(Box::default()),
            )),
            SetExpr::Select(_) => None,
        }
    }

    /// The `SELECT`s of the body, in text order.
    pub(crate) fn selects(&self) -> Vec<&Select> {
        let mut out = Vec::new();
        // Left spines are walked in a loop, right operands kept on a work list: no
        // recursion however long the chain.
        let mut todo = vec![self];
        while let Some(mut e) = todo.pop() {
            let mut rights = Vec::new();
            loop {
                match e {
                    SetExpr::Select(s) => {
                        out.push(&**s);
                        break;
                    }
                    SetExpr::Operation { left, right, .. } => {
                        rights.push(&**right);
                        e = left;
                    }
                }
            }
            // The right operands nearest the leftmost SELECT come first in the text.
            todo.extend(rights);
        }
        out
    }
}

/// `OFFSET n [ROW|ROWS]`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Offset {
    pub(crate) value: Expr,
    pub(crate) rows: OffsetRows,
}

/// The word after an `OFFSET`'s count (Trino's `(ROW | ROWS)?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OffsetRows {
    None,
    Row,
    Rows,
}

/// `FETCH FIRST|NEXT [n] ROW|ROWS ONLY|WITH TIES` (Trino)
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fetch {
    pub(crate) quantity: Option<Expr>,
    pub(crate) with_ties: bool,
}

/// `TABLESAMPLE BERNOULLI|SYSTEM (percentage)` after a table (Trino's `sampledRelation`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TableSample {
    pub(crate) method: SampleMethod,
    pub(crate) percentage: Expr,
}

/// How Trino samples a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SampleMethod {
    Bernoulli,
    System,
}
