//! Our own parser: recursive descent over the lexer's tokens (`super::lexer`), building
//! the small tree of [`ast`] that holds exactly the forms our targets' grammars give
//! meaning to.
//!
//! The validator's parser (`super::check` runs it on every statement `build()`
//! returns). It reads expressions, data types, queries, and every statement kind
//! our builders write, in the grammar each is checked in (`Dialect::grammar`): the DML
//! (`INSERT`, `UPDATE`, `DELETE`, `MERGE`); `CREATE TABLE` (Hive's with
//! `PARTITIONED BY`, `LOCATION` and `TBLPROPERTIES`, Spark's with `USING` and its CTAS,
//! Trino's with `WITH (…)` and its CTAS) and the staging tables (Hive's `CREATE
//! EXTERNAL TABLE … STORED AS`, Spark's `CREATE TEMPORARY VIEW … USING`); `ALTER
//! TABLE` in each grammar's forms (`ddl`), Trino's `ALTER TABLE … EXECUTE`; `DROP`,
//! `CREATE DATABASE|SCHEMA`, `CREATE VIEW`, `SHOW TABLES`, `SHOW CREATE TABLE`,
//! `DESCRIBE`; Athena's `OPTIMIZE`, `VACUUM` and `UNLOAD`, and Spark's `CALL`. The
//! crate's integration tests hold it to the validator's verdicts on the corpus
//! `tests/fixtures/validate_verdicts.txt` (`tests/validate_verdicts.rs`), and, with the
//! `sqlparser` feature, to sqlparser's own reading of every statement it accepts
//! (`tests/sqlparser_reading.rs`).
//!
//! Text nests at most as deep as the validator's `RECURSION_LIMIT` allows, refused past
//! it with the same error kind and hint (`NESTING_HINT`); operator chains are read in a
//! loop and freed link by link (`ast`). A parse runs on the caller's stack within the
//! budget of `super::stack`, or, past it, again on a big stack (`read`): no text
//! overflows a 2 MiB thread in an unoptimised build (`tests/validate_hostile.rs`).
//!
//! What differs between grammars is a small table, [`Rules`], not a test of the
//! dialect: type brackets (`array(T)` or `array<T>`), how tightly `||` binds, whether
//! `ARRAY[…]`, comparison chains, and Spark's bit operators (`&`, `|`, `^`, `~`) and
//! `<=>` exist, which words are reserved, whether `UPDATE` and `DELETE` take an alias,
//! which DDL forms exist, the order of `OFFSET` and `LIMIT`,
//! whether `FETCH FIRST` exists, which predicates and window frames exist (Spark's
//! `IS [NOT] TRUE|FALSE|UNKNOWN`, `ILIKE`, `RLIKE`/`REGEXP` and `WITHIN GROUP` after
//! any call and `overlay(x PLACING …)`; Trino's `GROUPS` frames,
//! quantified comparisons `x = ANY|SOME|ALL (query)`, `ORDER BY` inside a call and
//! `listagg(…) WITHIN GROUP`; in both, `position(a IN b)`, `substring(x FROM a FOR b)`
//! and `trim(BOTH c FROM x)`), which relations exist (Trino's `TABLE(f(…))` and
//! `UNNEST(a, …) [WITH ORDINALITY]`, Spark's table-valued functions `f(a, …)`,
//! `LATERAL VIEW` and `PIVOT`).
//!
//! Spark's `PIVOT (…)` is read where its `fromClause` has it, after the relations,
//! joins and views of the FROM clause (`FROM relation (',' relation)* lateralView*
//! pivotClause?`, SqlBaseParser.g4 of Spark 3.5; later grammars also take one after
//! each relation, `relationExtension`), over all of them; sqlparser reads one right
//! after a table factor. So ours refuses what sqlparser reads but Spark's grammar
//! does not (a pivot before a comma, a join, a join's condition or another pivot, an
//! alias after it, `DEFAULT ON NULL`, `ANY` or a subquery for the values, a qualified
//! pivot column, `LATERAL VIEW` with it, which Spark's AstBuilder refuses) and reads what
//! Spark's grammar reads and sqlparser does not (any expression as an aggregate, a pivot
//! after a join's condition).
//!
//! Where a parse fails at another engine's form (PostgreSQL's `RETURNING`, SQL Server's
//! `TOP`, Spark's `INSERT OVERWRITE` in Trino's grammar, a Hive form Athena's DDL lacks),
//! the syntax error carries the way out as its hint: one table, [`foreign`], looked up
//! by the tokens at the failure wherever the cursor builds the error.
//!
//! Refused because the grammar lacks them, though sqlparser reads them: `SIMILAR TO` and `ceil(x TO unit)` (neither
//! grammar); in Trino's, `IS [NOT] TRUE|FALSE|UNKNOWN`, `ILIKE`/`RLIKE`, `overlay`,
//! `substring(x FROM a, b)` and `WITHIN GROUP` after calls other than `listagg`; in
//! Spark's, `GROUPS` frames, quantified comparisons, `ORDER BY` inside a call and
//! `ARRAY[…]`.
//!
//! Not read yet (refused, though sqlparser reads them; our builders write none of them):
//!
//! * expressions: `IS JSON`, `CAST(… FORMAT …)`, typed lambda parameters, slices
//!   `a[1:2]`, named arguments (`name => v`) outside `CALL` and `EXECUTE`,
//!   `IGNORE|RESPECT NULLS`, `ON OVERFLOW`, JSON function clauses, `OVER (name …)`,
//!   `t.*` as an argument, Spark's `DIV`, `::` and `!`; in Athena's `OPTIMIZE … WHERE`
//!   (read in Hive's grammar), Hive's `&`, `|`, `^`, `~` and `<=>`
//!   (`Rules::bit_operators` is Spark's alone: Hive binds `^` tighter than `*`);
//! * queries: a parenthesized query as an operand of `UNION`/`EXCEPT`/`INTERSECT`,
//!   `TABLE t` as a query, `VALUES` as a query (read only after `INSERT` and as a
//!   relation in parentheses, `(VALUES …) AS t (a, b)`), Spark's `TABLESAMPLE (…)`, a
//!   sample of a subquery or of `UNNEST(…)`, named arguments of Spark's table-valued
//!   functions, column aliases `t (a, b)` on tables (read on subqueries and `VALUES`),
//!   `SELECT ALL`, `WITH RECURSIVE`; Spark's `UNPIVOT`, a pivot's multi-alias
//!   `AS (a, b)`;
//! * DML: `INSERT OVERWRITE`, `INSERT INTO TABLE`, a parenthesized query after `INSERT`,
//!   rows without parentheses (`VALUES 1, 2`), `UPDATE … FROM`, `DELETE … USING`, a join
//!   as a `MERGE`'s source;
//! * CTAS: Trino's `IF NOT EXISTS`, column aliases, `COMMENT` and a parenthesized query;
//!   Spark's CTAS with columns (its AstBuilder refuses one);
//! * DDL: `CREATE OR REPLACE TABLE`, Hive's typed partition columns
//!   (`PARTITIONED BY (a int)`), `CLUSTERED BY`, `ROW FORMAT`, `WITH DBPROPERTIES`;
//!   column positions (`FIRST`, `AFTER c`), partition evolution (`ADD|DROP|REPLACE
//!   PARTITION FIELD`), Trino's `ADD COLUMN IF NOT EXISTS` and column properties, Spark's
//!   other `ALTER COLUMN` changes (`COMMENT`, `SET|DROP NOT NULL`); `RESTRICT`,
//!   `DESCRIBE EXTENDED`, `DESC`, `SHOW CREATE TABLE … AS SERDE`; views in Hive's
//!   grammar (Athena's views are Trino's).

pub(crate) mod ast;
mod cursor;
mod ddl;
mod expr;
pub(crate) mod foreign;
mod query;
mod statement;
mod types;

use super::lexer;
use crate::dialect::Grammar;
use crate::error::Result;
pub(crate) use ast::{DataType, Statement};
use cursor::Cursor;

/// The syntax rules of one grammar that the parser needs beyond the lexer's.
#[derive(Debug)]
pub(crate) struct Rules {
    /// The grammar these rules read (the other engines' forms it refuses with a hint,
    /// [`foreign`], are listed by grammar).
    pub(crate) grammar: Grammar,
    /// How the text is split into tokens.
    pub(crate) lexical: &'static lexer::Rules,
    /// The grammar's name in messages.
    pub(crate) name: &'static str,
    /// How compound types are written: Trino `array(T)`, `row(a T)`; Hive and Spark
    /// `array<T>`, `struct<a:T>`.
    pub(crate) type_brackets: ast::Brackets,
    /// Whether a `struct<…>` field's `:` may be left out (Spark's `complexColType` has
    /// `COLON?`; Hive's `columnNameColonType` requires it).
    pub(crate) optional_field_colon: bool,
    /// Whether a join may leave out `ON …` (Spark's `joinCriteria?`; Trino's
    /// `joinType JOIN relation joinCriteria` requires it except for `CROSS JOIN`).
    pub(crate) optional_join_criteria: bool,
    /// Whether time travel may be written without `FOR` (`VERSION AS OF 1`: Spark's
    /// `temporalClause` has `FOR?`; Trino's `queryPeriod` starts with `FOR`).
    pub(crate) optional_for_in_time_travel: bool,
    /// The words a statement of this grammar quotes as names (`Grammar::is_reserved`):
    /// where one of them is also a clause word (`WHERE`, `LIMIT`, …), it is no table
    /// name unquoted (sqlparser's `is_table_factor`, as the validator's dialects set it).
    pub(crate) quoted_words: fn(&str) -> bool,
    /// Whether `||` binds as tightly as `+` and `-` (Spark: `valueExpression` in
    /// SqlBaseParser.g4) or less (Trino: the `concatenation` alternative comes after
    /// the additive one in SqlBase.g4).
    pub(crate) concat_with_plus: bool,
    /// Whether a comparison may be the left operand of another (`a = b = c`: Spark's
    /// `comparison` is left-recursive; Trino's `predicate` follows a value expression).
    pub(crate) chained_comparisons: bool,
    /// Whether `==` is `=` (Spark's `expr1 == expr2`, sql-ref-operators; Hive's lexer,
    /// `EQUAL : '=' | '=='` in HiveLexer.g4, which reads Athena's OPTIMIZE condition).
    pub(crate) double_equals: bool,
    /// Whether `&`, `|`, `^`, prefix `~` and the null-safe comparison `<=>` are
    /// operators (Spark's `valueExpression` and `comparisonOperator` in
    /// SqlBaseParser.g4). Trino has none of them: it calls `bitwise_and(x, y)` and
    /// writes `IS NOT DISTINCT FROM`. Hive's grammar has them with `^` above `*`, not
    /// read yet.
    pub(crate) bit_operators: bool,
    /// Whether `ARRAY[a, b]` constructs an array (Trino; Spark calls `array(a, b)`).
    pub(crate) array_brackets: bool,
    /// Whether `1.5D`, `2BD`, `5S`, `1Y`, `1F` are typed numbers (Spark).
    pub(crate) number_suffixes: bool,
    /// Whether `struct(a, b)` builds a struct (Spark's function; Trino builds a row
    /// with `ROW(…)` and has no `struct`, which sqlparser reads as BigQuery's
    /// `STRUCT(…)` literal, never a call).
    pub(crate) struct_calls: bool,
    /// A word that is a name only quoted (`None`: every word not taken by the grammar's
    /// expression syntax may be a name).
    pub(crate) reserved: Option<fn(&str) -> bool>,
    /// Whether `UPDATE` and `DELETE` take an alias after the table (Spark's
    /// `tableAlias`; Trino's `UPDATE qualifiedName SET`, `DELETE FROM qualifiedName`).
    pub(crate) dml_alias: bool,
    /// Whether a `SET` target may be qualified (`SET t.a = 1`: Spark's
    /// `multipartIdentifier`; Trino's `updateAssignment` is one `identifier`).
    pub(crate) qualified_assignment: bool,
    /// Whether a `MERGE`'s `INSERT` must list its columns (Spark's `notMatchedAction`;
    /// Trino's `mergeCase` makes the list optional).
    pub(crate) merge_insert_columns: bool,
    /// Whether a `MERGE`'s `WHEN MATCHED` clauses come before its `WHEN NOT MATCHED`
    /// ones, and only the last of each kind may leave out its condition (Spark's
    /// `matchedClause* notMatchedClause*` and its AstBuilder's `visitMergeIntoTable`;
    /// Trino's `mergeCase+` takes them in any order).
    pub(crate) merge_clause_order: bool,
    /// Whether Athena's `OPTIMIZE … REWRITE DATA USING BIN_PACK` and `VACUUM` are
    /// statements (its DDL; Spark writes Iceberg's procedures with `CALL`).
    pub(crate) athena_maintenance: bool,
    /// Whether Athena's `UNLOAD (query) TO '…' WITH (…)` is a statement (its extension
    /// of the Trino grammar its DML is written in; Trino and Spark have none).
    pub(crate) athena_unload: bool,
    /// Which forms the statements on tables, views and databases take (`CREATE`,
    /// `ALTER`, `DROP`, `SHOW`, `DESCRIBE`): their grammars differ in nearly every
    /// clause, so the table names the grammar rather than each clause.
    pub(crate) ddl: DdlForms,
    /// Whether `CALL procedure(…)` is read (Spark's `CALL multipartIdentifier (callArgument,
    /// …)`, how Iceberg's maintenance procedures run there).
    pub(crate) spark_call: bool,
    /// Whether a window frame may count `GROUPS` (Trino's `frameExtent`; Spark's
    /// `windowFrame` has `RANGE` and `ROWS` only).
    pub(crate) groups_frames: bool,
    /// Whether `IS [NOT] TRUE|FALSE|UNKNOWN`, `[NOT] ILIKE` and `[NOT] RLIKE|REGEXP` are
    /// predicates (Spark's `predicate` in SqlBaseParser.g4; Trino's has none of them).
    pub(crate) spark_predicates: bool,
    /// Whether a comparison may take `ANY|SOME|ALL (query)` as its right operand
    /// (Trino's `quantifiedComparison`; Spark's `comparison` has no quantifier).
    pub(crate) quantified_comparisons: bool,
    /// Whether a call may order its arguments inside its parentheses
    /// (`array_agg(x ORDER BY y)`: Trino's `functionCall`; Spark's has no such clause).
    pub(crate) order_in_calls: bool,
    /// Which calls `WITHIN GROUP (ORDER BY …)` may follow: any (Spark's
    /// `functionCall`), or only `listagg(…)`, which then requires it (Trino's
    /// `listagg`).
    pub(crate) within_group_any_call: bool,
    /// Whether `overlay(x PLACING y FROM n [FOR m])` is a form (Spark's `overlay`;
    /// Trino has no such form or function).
    pub(crate) overlay: bool,
    /// Whether `substring(x FROM a, b)` may write `,` for `FOR` (Spark's `substring`
    /// takes `FOR | COMMA`; Trino's takes the word only).
    pub(crate) substring_commas: bool,
    /// Whether `OFFSET` comes before `LIMIT` and takes `ROW|ROWS` (Trino's
    /// `queryNoWith`: `(OFFSET rowCount (ROW | ROWS)?)? (LIMIT … | FETCH …)?`), or
    /// after it, bare (Spark's `queryOrganization`: `(LIMIT …)? (OFFSET expression)?`).
    pub(crate) offset_before_limit: bool,
    /// Whether `FETCH FIRST|NEXT [n] ROW|ROWS ONLY|WITH TIES` ends a query (Trino's
    /// `queryNoWith`; Spark has no `FETCH`).
    pub(crate) fetch_first: bool,
    /// Whether a `MERGE` takes Spark's `WHEN NOT MATCHED BY SOURCE|TARGET`, `UPDATE SET *`
    /// and `INSERT *` (SqlBaseParser.g4 `notMatchedBySourceClause`, `matchedAction`,
    /// `notMatchedAction`; Trino's `mergeCase` has none).
    pub(crate) merge_spark_forms: bool,
    /// Whether `[LEFT] SEMI JOIN` and `[LEFT] ANTI JOIN` exist (Spark's `joinType`;
    /// Trino's has `INNER`, `LEFT`, `RIGHT` and `FULL` only).
    pub(crate) semi_anti_joins: bool,
    /// Whether `TABLESAMPLE BERNOULLI|SYSTEM (p)` samples a table (Trino's
    /// `sampledRelation`; Spark's `sample` is `TABLESAMPLE '(' sampleMethod? ')'`).
    pub(crate) sample_methods: bool,
    /// Whether `FOR SYSTEM_TIME AS OF t` is time travel (Spark's `temporalClause`: `FOR?
    /// (SYSTEM_TIME | TIMESTAMP) AS OF`; sqlparser reads it only with `FOR`).
    pub(crate) system_time: bool,
    /// Whether `CLUSTER BY a, …` ends a query (Spark's `queryOrganization`).
    pub(crate) cluster_by: bool,
    /// Whether `TABLE(f(…))` is a relation (Trino's `relationPrimary`; Spark calls a
    /// table-valued function by its name, `FROM f(…)`).
    pub(crate) table_function: bool,
    /// Whether `UNNEST(a, …) [WITH ORDINALITY]` is a relation (Trino's `relationPrimary`,
    /// SqlBase.g4; Spark flattens arrays with `LATERAL VIEW explode(…)`).
    pub(crate) unnest: bool,
    /// Whether `f(a, …)` after `FROM` is a table function's rows (Spark's
    /// `functionTable`, SqlBaseParser.g4; Trino's `relationPrimary` has only `UNNEST(…)`
    /// and `TABLE(f(…))`).
    pub(crate) table_valued: bool,
    /// Whether `LATERAL VIEW [OUTER] f(…) name …` may follow the relations (Spark's
    /// `fromClause`, SqlBaseParser.g4).
    pub(crate) lateral_view: bool,
    /// Whether `PIVOT (… FOR … IN (…))` may end the FROM clause (Spark's `fromClause`,
    /// SqlBaseParser.g4; Trino has no `PIVOT`).
    pub(crate) pivot: bool,
}

/// The forms of the statements on tables, views and databases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DdlForms {
    /// Athena's Hive DDL: `CREATE [EXTERNAL] TABLE … PARTITIONED BY … LOCATION …
    /// TBLPROPERTIES (…)`, `ALTER TABLE … ADD COLUMNS | CHANGE COLUMN | [UN]SET
    /// TBLPROPERTIES`, `CREATE DATABASE`, `SHOW TABLES IN db 'regex'`.
    Hive,
    /// Trino's: `CREATE TABLE … WITH (…)` and its CTAS, `ALTER TABLE … SET PROPERTIES`,
    /// `CREATE SCHEMA`, views, `SHOW TABLES … LIKE … ESCAPE …`.
    Trino,
    /// Spark's: `CREATE TABLE … USING iceberg …` and its CTAS, `CREATE TEMPORARY VIEW …
    /// USING`, `ALTER TABLE … ALTER COLUMN … TYPE`, views, `SHOW TABLES … [LIKE] '…'`.
    Spark,
}

impl Rules {
    /// The Rules `grammar` is read with.
    pub(crate) fn of(grammar: Grammar) -> &'static Rules {
        match grammar {
            Grammar::HiveDdl => &Rules::HIVE_DDL,
            Grammar::TrinoDml => &Rules::TRINO,
            Grammar::Spark => &Rules::SPARK,
        }
    }

    /// Athena's Hive DDL (partition transforms, column types).
    pub(crate) const HIVE_DDL: Rules = Rules {
        grammar: Grammar::HiveDdl,
        lexical: &lexer::Rules::HIVE_DDL,
        name: "Athena DDL (Hive grammar)",
        type_brackets: ast::Brackets::Angle,
        optional_field_colon: false,
        optional_join_criteria: false,
        optional_for_in_time_travel: false,
        quoted_words: |w| crate::dialect::Grammar::HiveDdl.is_reserved(w),
        concat_with_plus: false,
        chained_comparisons: false,
        double_equals: true,
        bit_operators: false,
        array_brackets: false,
        number_suffixes: false,
        struct_calls: false,
        reserved: None,
        dml_alias: false,
        qualified_assignment: false,
        merge_insert_columns: false,
        merge_clause_order: false,
        athena_maintenance: true,
        athena_unload: false,
        ddl: DdlForms::Hive,
        spark_call: false,
        groups_frames: false,
        spark_predicates: false,
        quantified_comparisons: false,
        order_in_calls: false,
        within_group_any_call: false,
        overlay: false,
        substring_commas: false,
        offset_before_limit: false,
        fetch_first: false,
        merge_spark_forms: false,
        semi_anti_joins: false,
        sample_methods: false,
        system_time: false,
        cluster_by: false,
        table_function: false,
        unnest: false,
        table_valued: false,
        lateral_view: false,
        pivot: false,
    };

    /// Trino's grammar (Athena DML, Trino, S3 Tables).
    pub(crate) const TRINO: Rules = Rules {
        grammar: Grammar::TrinoDml,
        lexical: &lexer::Rules::TRINO,
        name: "Trino grammar",
        type_brackets: ast::Brackets::Parentheses,
        optional_field_colon: false,
        optional_join_criteria: false,
        optional_for_in_time_travel: false,
        quoted_words: |w| crate::dialect::Grammar::TrinoDml.is_reserved(w),
        concat_with_plus: false,
        chained_comparisons: false,
        double_equals: false,
        bit_operators: false,
        array_brackets: true,
        number_suffixes: false,
        struct_calls: false,
        reserved: Some(crate::dialect::grammar::is_reserved_in_dml),
        dml_alias: false,
        qualified_assignment: false,
        merge_insert_columns: false,
        merge_clause_order: false,
        athena_maintenance: false,
        athena_unload: true,
        ddl: DdlForms::Trino,
        spark_call: false,
        groups_frames: true,
        spark_predicates: false,
        quantified_comparisons: true,
        order_in_calls: true,
        within_group_any_call: false,
        overlay: false,
        substring_commas: false,
        offset_before_limit: true,
        fetch_first: true,
        merge_spark_forms: false,
        semi_anti_joins: false,
        sample_methods: true,
        system_time: false,
        cluster_by: false,
        table_function: true,
        unnest: true,
        table_valued: false,
        lateral_view: false,
        pivot: false,
    };

    /// Spark SQL.
    pub(crate) const SPARK: Rules = Rules {
        grammar: Grammar::Spark,
        lexical: &lexer::Rules::SPARK,
        name: "Spark SQL",
        type_brackets: ast::Brackets::Angle,
        optional_field_colon: true,
        optional_join_criteria: true,
        optional_for_in_time_travel: true,
        quoted_words: |w| crate::dialect::Grammar::Spark.is_reserved(w),
        concat_with_plus: true,
        chained_comparisons: true,
        double_equals: true,
        bit_operators: true,
        array_brackets: false,
        number_suffixes: true,
        struct_calls: true,
        reserved: Some(spark_reserved),
        dml_alias: true,
        qualified_assignment: true,
        merge_insert_columns: true,
        merge_clause_order: true,
        athena_maintenance: false,
        athena_unload: false,
        ddl: DdlForms::Spark,
        spark_call: true,
        groups_frames: false,
        spark_predicates: true,
        quantified_comparisons: false,
        order_in_calls: false,
        within_group_any_call: true,
        overlay: true,
        substring_commas: true,
        offset_before_limit: false,
        fetch_first: false,
        merge_spark_forms: true,
        semi_anti_joins: true,
        sample_methods: false,
        system_time: true,
        cluster_by: true,
        table_function: false,
        unnest: false,
        table_valued: true,
        lateral_view: true,
        pivot: true,
    };
}

/// The words never a name unquoted in Spark text: Spark's default mode reserves none
/// of its keywords, but the validator reads these four as sqlparser does in every
/// dialect (`RESERVED_FOR_IDENTIFIER`), so the two readings accept the same names.
fn spark_reserved(word: &str) -> bool {
    ["exists", "interval", "struct", "trim"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
}

/// Parses `tokens`, the tokens of `sql` by `rules.lexical` (some may be dropped, such
/// as the `;`s around the statement), as exactly one statement: the caller lexes once
/// and checks the tokens first.
pub(crate) fn parse_statement_tokens(
    sql: &str,
    tokens: &[lexer::Token],
    rules: &'static Rules,
) -> Result<Statement> {
    read_tokens(sql, tokens, rules, |c| {
        // The statement is a level of its own, as in sqlparser's `parse_statement`: text
        // nests as deep in both before it is refused.
        c.enter()?;
        let s = c.statement()?;
        c.expect_end("statement")?;
        Ok(s)
    })
}

/// Parses `tokens`, the tokens of `sql` by `rules.lexical`, as exactly one expression
/// (a raw expression of the DSL).
pub(crate) fn parse_expr_tokens(
    sql: &str,
    tokens: &[lexer::Token],
    rules: &'static Rules,
) -> Result<ast::Expr> {
    read_tokens(sql, tokens, rules, |c| {
        let e = c.expr()?;
        c.expect_end("expression")?;
        Ok(e)
    })
}

/// Runs `parse` over `tokens`, the tokens of `sql` by `rules.lexical`, on the caller's stack within the budget of
/// `super::stack`; a parse that went past it (text nesting deeply: each level takes
/// several KiB of stack in an unoptimised build) is void and redone from the start on
/// a thread with a big stack (`super::on_big_stack`), to the same recursion limit
/// (`super::RECURSION_LIMIT`): the budget costs time, never a verdict. The tree is as
/// deep as the text nests (operator chains are freed link by link, see `ast`), so it is
/// dropped on the caller's stack.
fn read_tokens<T: Send>(
    sql: &str,
    tokens: &[lexer::Token],
    rules: &'static Rules,
    parse: impl Fn(&mut Cursor<'_>) -> Result<T> + Sync,
) -> Result<T> {
    let mut c = Cursor::over(sql, tokens, rules)?;
    c.budget.start_here();
    let parsed = parse(&mut c);
    if !c.budget.spent() {
        return parsed;
    }
    drop(parsed);
    super::on_big_stack(|| parse(&mut Cursor::over(sql, tokens, rules)?))
}
