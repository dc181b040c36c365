//! Queries: WITH, set operations, SELECT, VALUES, FROM with joins and table
//! expressions, GROUP BY, ORDER BY, LIMIT/OFFSET/FETCH.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Cte, Distinct, ExprWithAlias, Fetch, GroupByExpr, GroupByWithModifier, Join, JoinConstraint,
    JoinOperator, LateralView, LimitClause, NamedWindowDefinition, NamedWindowExpr, Offset,
    OrderBy, OrderByExpr, OrderByKind, PivotValueSource, Query, Select, SelectItem,
    SelectItemQualifiedWildcardKind, SetExpr, Spanned, TableAlias, TableAliasColumnDef,
    TableFactor, TableFunctionArgs, TableSample, TableSampleBucket, TableSampleKind,
    TableSampleQuantity, TableSampleSeed, TableVersion, TableWithJoins, Values,
    WildcardAdditionalOptions, With,
};

use super::{lift, Flow, Walk};

impl Walk<'_> {
    pub(super) fn query(&mut self, q: &Query) -> Flow {
        lift(self.pass.query(q))?;
        let Query {
            with,
            body,
            order_by,
            limit_clause,
            fetch,
            locks,
            for_clause,
            settings,
            format_clause,
            pipe_operators,
        } = q;
        if let Some(With {
            with_token: _,
            // Trino has WITH RECURSIVE; Spark 3.5 does not (the Checker refuses it there).
            recursive: _,
            cte_tables,
        }) = with
        {
            for cte in cte_tables {
                self.cte(cte)?;
            }
        }
        self.set_expr(body)?;
        if let Some(order_by) = order_by {
            self.order_by(order_by)?;
        }
        if let Some(limit) = limit_clause {
            self.limit_clause(limit)?;
        }
        // `FETCH FIRST n ROWS ONLY`: Trino (the Checker refuses it in Spark).
        if let Some(Fetch {
            with_ties: _,
            percent: _,
            quantity,
        }) = fetch
        {
            self.opt_expr(quantity.as_ref())?;
        }
        let span = || q.span();
        self.refuse_if(
            !locks.is_empty(),
            "`FOR UPDATE`/`FOR SHARE`",
            "remove it; Iceberg commits are optimistic and have no row locks",
            span,
        )?;
        self.refuse_if(
            for_clause.is_some(),
            "`FOR XML`/`FOR JSON`",
            "build JSON with `CAST(… AS JSON)` in Trino or `to_json(…)` in Spark",
            span,
        )?;
        self.refuse_if(
            settings.is_some(),
            "`SETTINGS`",
            "remove it; engine settings belong to the session or workgroup, not the query",
            span,
        )?;
        self.refuse_if(
            format_clause.is_some(),
            "`FORMAT`",
            "remove it; to write files in a format, use UNLOAD … WITH (format = …)",
            span,
        )?;
        self.refuse_if(
            !pipe_operators.is_empty(),
            "a pipe operator `|>`",
            "write a plain `SELECT … FROM … WHERE …`",
            span,
        )
    }

    fn cte(&mut self, cte: &Cte) -> Flow {
        let Cte {
            alias,
            query,
            from,
            materialized,
            closing_paren_token: _,
        } = cte;
        self.table_alias(alias)?;
        self.query(query)?;
        if let Some(from) = from {
            return self.refuse(
                "`FROM` after a common table expression",
                "select from the CTE in the main query: `WITH c AS (…) SELECT … FROM c`",
                from.span,
            );
        }
        self.refuse_if(
            materialized.is_some(),
            "`AS [NOT] MATERIALIZED`",
            "write `c AS (…)` without `[NOT] MATERIALIZED`",
            alias.name.span,
        )
    }

    fn set_expr(&mut self, body: &SetExpr) -> Flow {
        match body {
            SetExpr::Select(s) => self.select(s),
            SetExpr::Query(q) => self.query(q),
            SetExpr::SetOperation {
                left,
                op: _,
                set_quantifier: _,
                right,
            } => {
                self.set_expr(left)?;
                self.set_expr(right)
            }
            SetExpr::Values(v) => self.values(v),
            // `TABLE t`: Trino and Spark. Its name parts are plain strings here, not
            // identifiers, so they carry no quoting to check.
            SetExpr::Table(_) => ControlFlow::Continue(()),
            SetExpr::Insert(_) | SetExpr::Update(_) | SetExpr::Delete(_) | SetExpr::Merge(_) => {
                self.refuse(
                    "a data-changing statement inside a query",
                    "run the INSERT, UPDATE, DELETE or MERGE as its own statement",
                    body.span(),
                )
            }
        }
    }

    pub(super) fn values(&mut self, v: &Values) -> Flow {
        let Values {
            explicit_row,
            // Whether it was spelt VALUES or VALUE: no names.
            value_keyword: _,
            rows,
        } = v;
        for row in rows {
            self.refuse_if(
                *explicit_row,
                "`VALUES ROW(…)`",
                "write `VALUES (…), (…)`",
                row.opening_token.0.span,
            )?;
            self.exprs(&row.content)?;
        }
        ControlFlow::Continue(())
    }

    fn select(&mut self, s: &Select) -> Flow {
        lift(self.pass.select(s))?;
        let Select {
            select_token,
            optimizer_hints,
            distinct,
            select_modifiers,
            top,
            top_before_distinct: _,
            projection,
            exclude,
            into,
            from,
            lateral_views,
            prewhere,
            selection,
            connect_by,
            group_by,
            cluster_by,
            distribute_by,
            sort_by,
            having,
            named_window,
            qualify,
            window_before_qualify: _,
            value_table_mode,
            flavor,
        } = s;
        let at = select_token.0.span;
        self.optimizer_hints(optimizer_hints, at)?;
        match distinct {
            None | Some(Distinct::All) | Some(Distinct::Distinct) => {}
            Some(Distinct::On(_)) => return self.refuse("`DISTINCT ON (…)`", "keep one row per key with `row_number() OVER (PARTITION BY … ORDER BY …) = 1` in a subquery", at),
        }
        self.refuse_if(
            select_modifiers.is_some(),
            "a MySQL SELECT modifier",
            "remove the modifier",
            at,
        )?;
        self.refuse_if(
            top.is_some(),
            "`SELECT TOP n`",
            "write `LIMIT n` at the end of the query",
            at,
        )?;
        for item in projection {
            self.select_item(item)?;
        }
        self.refuse_if(
            exclude.is_some(),
            "`EXCLUDE (…)`",
            "list the columns you want",
            at,
        )?;
        self.refuse_if(
            into.is_some(),
            "`SELECT … INTO`",
            "write `CREATE TABLE … AS SELECT …` or `INSERT INTO t SELECT …`",
            at,
        )?;
        for t in from {
            self.table_with_joins(t)?;
        }
        // Spark's `LATERAL VIEW [OUTER] explode(a) t AS c` (the Checker refuses it in Trino).
        for LateralView {
            lateral_view,
            lateral_view_name,
            lateral_col_alias,
            outer: _,
        } in lateral_views
        {
            self.expr(lateral_view)?;
            self.object_name(lateral_view_name)?;
            self.idents(lateral_col_alias)?;
        }
        self.refuse_if(prewhere.is_some(), "`PREWHERE`", "write `WHERE`", at)?;
        self.opt_expr(selection.as_ref())?;
        self.refuse_if(
            !connect_by.is_empty(),
            "`CONNECT BY`",
            "walk the hierarchy with `WITH RECURSIVE` in Trino",
            at,
        )?;
        self.group_by(group_by)?;
        // Spark's CLUSTER BY / DISTRIBUTE BY / SORT BY (the Checker refuses them in Trino).
        self.exprs(cluster_by)?;
        self.exprs(distribute_by)?;
        self.order_by_exprs(sort_by)?;
        self.opt_expr(having.as_ref())?;
        for NamedWindowDefinition(name, window) in named_window {
            self.ident(name)?;
            match window {
                NamedWindowExpr::NamedWindow(other) => self.ident(other)?,
                NamedWindowExpr::WindowSpec(spec) => self.window_spec(spec)?,
            }
        }
        self.refuse_if(
            qualify.is_some(),
            "`QUALIFY`",
            "compute the window function in a subquery and filter it in the outer query's `WHERE`",
            at,
        )?;
        self.refuse_if(
            value_table_mode.is_some(),
            "`SELECT AS STRUCT|VALUE`",
            "build the row with `ROW(a, b)` in Trino, `struct(a, b)` in Spark",
            at,
        )?;
        self.refuse_if(
            !matches!(flavor, sqlparser::ast::SelectFlavor::Standard),
            "`FROM … SELECT`",
            "write `SELECT … FROM …`",
            at,
        )
    }

    fn select_item(&mut self, item: &SelectItem) -> Flow {
        match item {
            SelectItem::UnnamedExpr(e) => self.expr(e),
            SelectItem::ExprWithAlias { expr, alias } => {
                self.expr(expr)?;
                self.ident(alias)
            }
            // Spark: `SELECT explode(m) AS (k, v)`.
            SelectItem::ExprWithAliases { expr, aliases } => {
                self.expr(expr)?;
                self.idents(aliases)
            }
            SelectItem::QualifiedWildcard(kind, options) => {
                match kind {
                    SelectItemQualifiedWildcardKind::ObjectName(name) => self.object_name(name)?,
                    SelectItemQualifiedWildcardKind::Expr(e) => self.expr(e)?,
                }
                self.wildcard_options(options)
            }
            SelectItem::Wildcard(options) => self.wildcard_options(options),
        }
    }

    fn wildcard_options(&mut self, o: &WildcardAdditionalOptions) -> Flow {
        let WildcardAdditionalOptions {
            wildcard_token,
            opt_ilike,
            opt_exclude,
            opt_except,
            opt_replace,
            opt_rename,
            opt_alias,
        } = o;
        self.refuse_if(
            opt_ilike.is_some()
                || opt_exclude.is_some()
                || opt_except.is_some()
                || opt_replace.is_some()
                || opt_rename.is_some()
                || opt_alias.is_some(),
            "`*` with ILIKE/EXCLUDE/EXCEPT/REPLACE/RENAME/AS",
            "list the columns you want",
            wildcard_token.0.span,
        )
    }

    pub(super) fn table_with_joins(&mut self, t: &TableWithJoins) -> Flow {
        let TableWithJoins { relation, joins } = t;
        self.table_factor(relation)?;
        joins.iter().try_for_each(|j| self.join(j))
    }

    fn join(&mut self, j: &Join) -> Flow {
        let Join {
            relation,
            global,
            join_operator,
        } = j;
        self.table_factor(relation)?;
        let at = || relation.span();
        self.refuse_if(*global, "`GLOBAL JOIN`", "write `JOIN`", at)?;
        match join_operator {
            JoinOperator::Join(c)
            | JoinOperator::Inner(c)
            | JoinOperator::Left(c)
            | JoinOperator::LeftOuter(c)
            | JoinOperator::Right(c)
            | JoinOperator::RightOuter(c)
            | JoinOperator::FullOuter(c)
            | JoinOperator::CrossJoin(c)
            // Spark: [LEFT] SEMI JOIN, [LEFT] ANTI JOIN.
            | JoinOperator::Semi(c)
            | JoinOperator::LeftSemi(c)
            | JoinOperator::Anti(c)
            | JoinOperator::LeftAnti(c) => self.join_constraint(c, at),
            JoinOperator::RightSemi(_) | JoinOperator::RightAnti(_) => {
                self.refuse("`RIGHT SEMI`/`RIGHT ANTI JOIN`", "swap the sides, or write `WHERE [NOT] EXISTS (SELECT …)`", at)
            }
            JoinOperator::CrossApply | JoinOperator::OuterApply => {
                self.refuse("`CROSS APPLY`/`OUTER APPLY`", "write `CROSS JOIN LATERAL (SELECT …)` or `LEFT JOIN LATERAL (SELECT …) ON true`", at)
            }
            JoinOperator::AsOf { .. } => self.refuse("`ASOF JOIN`", "join on the key and `t.ts >= u.ts`, and keep the nearest row with `row_number() OVER (PARTITION BY … ORDER BY u.ts DESC) = 1` in a subquery", at),
            JoinOperator::StraightJoin(_) => self.refuse("`STRAIGHT_JOIN`", "write `JOIN`", at),
            JoinOperator::ArrayJoin | JoinOperator::LeftArrayJoin | JoinOperator::InnerArrayJoin => {
                self.refuse("`ARRAY JOIN`", "write `CROSS JOIN UNNEST(arr) AS u (x)` in Trino, `LATERAL VIEW explode(arr) u AS x` in Spark", at)
            }
        }
    }

    fn join_constraint(&mut self, c: &JoinConstraint, at: impl super::At) -> Flow {
        match c {
            JoinConstraint::On(e) => self.expr(e),
            JoinConstraint::Using(names) => self.object_names(names),
            JoinConstraint::UsingAlias(..) => self.refuse(
                "`USING (…) AS alias`",
                "write `USING (…)` without the alias",
                at,
            ),
            // NATURAL JOIN: Trino and Spark.
            JoinConstraint::Natural | JoinConstraint::None => ControlFlow::Continue(()),
        }
    }

    pub(super) fn table_factor(&mut self, tf: &TableFactor) -> Flow {
        lift(self.pass.table_factor(tf))?;
        let at = || tf.span();
        match tf {
            TableFactor::Table {
                name,
                alias,
                args,
                with_hints,
                version,
                // Trino: `UNNEST(…) WITH ORDINALITY`.
                with_ordinality: _,
                partitions,
                json_path,
                sample,
                index_directives,
                inheritance,
            } => {
                self.object_name(name)?;
                self.opt_table_alias(alias.as_ref())?;
                if let Some(TableFunctionArgs { args, settings }) = args {
                    self.function_args(args)?;
                    self.refuse_if(settings.is_some(), "`SETTINGS` in table arguments", "remove it; engine settings belong to the session or workgroup, not the query", at)?;
                }
                self.refuse_if(!with_hints.is_empty(), "table hints `WITH (…)`", "remove the hints", at)?;
                match version {
                    None => {}
                    Some(
                        TableVersion::ForSystemTimeAsOf(e)
                        | TableVersion::TimestampAsOf(e)
                        | TableVersion::VersionAsOf(e),
                    ) => self.expr(e)?,
                    Some(TableVersion::Function(_) | TableVersion::Changes { .. }) => {
                        return self.refuse("this time-travel form", "write `FOR TIMESTAMP AS OF …` / `FOR VERSION AS OF …` in Trino, `TIMESTAMP AS OF …` / `VERSION AS OF …` in Spark", at)
                    }
                }
                self.refuse_if(!partitions.is_empty(), "`PARTITION (…)` after a table", "filter on the partition columns in `WHERE`", at)?;
                self.refuse_if(json_path.is_some(), "a JSON path after a table", "read JSON with the target's JSON functions (json_extract_scalar(a, '$.b') in Trino, get_json_object(a, '$.b') in Spark)", at)?;
                self.table_sample(sample.as_ref())?;
                self.refuse_if(!index_directives.is_empty(), "index hints", "remove the hints", at)?;
                self.refuse_if(inheritance.is_some(), "`ONLY t` / `t *`", "name the table alone", at)
            }
            TableFactor::Derived {
                // `LATERAL (SELECT …)`: Trino and Spark.
                lateral: _,
                subquery,
                alias,
                sample,
            } => {
                self.query(subquery)?;
                self.opt_table_alias(alias.as_ref())?;
                self.table_sample(sample.as_ref())
            }
            // `TABLE(f(…))`: Trino's table functions.
            TableFactor::TableFunction { expr, alias } => {
                self.expr(expr)?;
                self.opt_table_alias(alias.as_ref())
            }
            // Trino: `CROSS JOIN UNNEST(a) [WITH ORDINALITY] AS t (x)`.
            TableFactor::UNNEST {
                alias,
                array_exprs,
                with_offset,
                with_offset_alias,
                with_ordinality: _,
            } => {
                self.opt_table_alias(alias.as_ref())?;
                self.exprs(array_exprs)?;
                self.refuse_if(*with_offset, "`UNNEST … WITH OFFSET`", "write `UNNEST(arr) WITH ORDINALITY` in Trino, `posexplode(arr)` in Spark", at)?;
                self.opt_ident(with_offset_alias.as_ref())
            }
            TableFactor::NestedJoin {
                table_with_joins,
                alias,
            } => {
                self.table_with_joins(table_with_joins)?;
                self.opt_table_alias(alias.as_ref())
            }
            // Spark's PIVOT / UNPIVOT (the Checker refuses them in Trino).
            TableFactor::Pivot {
                table,
                aggregate_functions,
                value_column,
                value_source,
                default_on_null,
                alias,
            } => {
                self.table_factor(table)?;
                self.exprs_with_alias(aggregate_functions)?;
                self.exprs(value_column)?;
                match value_source {
                    PivotValueSource::List(values) => self.exprs_with_alias(values)?,
                    PivotValueSource::Any(order) => self.order_by_exprs(order)?,
                    PivotValueSource::Subquery(q) => self.query(q)?,
                }
                self.opt_expr(default_on_null.as_ref())?;
                self.opt_table_alias(alias.as_ref())
            }
            TableFactor::Unpivot {
                table,
                value,
                name,
                columns,
                null_inclusion: _,
                alias,
            } => {
                self.table_factor(table)?;
                self.expr(value)?;
                self.ident(name)?;
                self.exprs_with_alias(columns)?;
                self.opt_table_alias(alias.as_ref())
            }
            TableFactor::Function { .. } => self.refuse("a `LATERAL` table function", "write `CROSS JOIN UNNEST(…)` in Trino, `LATERAL VIEW explode(…)` in Spark", at),
            TableFactor::JsonTable { .. } | TableFactor::OpenJsonTable { .. } => {
                self.refuse("`JSON_TABLE`/`OPENJSON`", "read JSON with the target's JSON functions (json_extract_scalar(a, '$.b') in Trino, get_json_object(a, '$.b') in Spark)", at)
            }
            TableFactor::UnpivotExpr { .. } => self.refuse("this UNPIVOT form", "write `UNPIVOT (v FOR name IN (a, b))` in Spark, `CROSS JOIN UNNEST(ARRAY['a', 'b'], ARRAY[a, b]) AS u (name, v)` in Trino", at),
            TableFactor::MatchRecognize { .. } => self.refuse("`MATCH_RECOGNIZE`", "compare neighbouring rows with `lag(…)`/`lead(…)` window functions in a subquery", at),
            TableFactor::XmlTable { .. } => self.refuse("`XMLTABLE`", "extract the values with `regexp_extract(…)`, or parse the XML before loading", at),
            TableFactor::SemanticView { .. } => self.refuse("`SEMANTIC_VIEW`", "query the underlying tables", at),
        }
    }

    fn exprs_with_alias(&mut self, items: &[ExprWithAlias]) -> Flow {
        for ExprWithAlias { expr, alias } in items {
            self.expr(expr)?;
            self.opt_ident(alias.as_ref())?;
        }
        ControlFlow::Continue(())
    }

    /// `TABLESAMPLE BERNOULLI (10)`: Trino and Spark.
    fn table_sample(&mut self, sample: Option<&TableSampleKind>) -> Flow {
        let Some(TableSampleKind::BeforeTableAlias(s) | TableSampleKind::AfterTableAlias(s)) =
            sample
        else {
            return ControlFlow::Continue(());
        };
        let TableSample {
            modifier: _,
            name: _,
            quantity,
            seed,
            bucket,
            offset,
        } = &**s;
        if let Some(TableSampleQuantity {
            parenthesized: _,
            value,
            unit: _,
        }) = quantity
        {
            self.expr(value)?;
        }
        if let Some(TableSampleSeed { modifier: _, value }) = seed {
            self.value(value)?;
        }
        // Spark: `TABLESAMPLE (BUCKET x OUT OF y)`.
        if let Some(TableSampleBucket { bucket, total, on }) = bucket {
            self.value(bucket)?;
            self.value(total)?;
            self.opt_expr(on.as_ref())?;
        }
        self.opt_expr(offset.as_ref())
    }

    fn opt_table_alias(&mut self, alias: Option<&TableAlias>) -> Flow {
        alias.map_or(ControlFlow::Continue(()), |a| self.table_alias(a))
    }

    fn table_alias(&mut self, alias: &TableAlias) -> Flow {
        let TableAlias {
            explicit: _,
            name,
            columns,
            at,
        } = alias;
        self.ident(name)?;
        for TableAliasColumnDef { name, data_type } in columns {
            self.ident(name)?;
            self.opt_data_type(data_type.as_ref())?;
        }
        match at {
            Some(at) => self.refuse(
                "`AT` in a table alias",
                "remove `AT (…)` from the alias",
                at.span,
            ),
            None => ControlFlow::Continue(()),
        }
    }

    fn group_by(&mut self, g: &GroupByExpr) -> Flow {
        let modifiers = match g {
            // Spark 3.4+: GROUP BY ALL.
            GroupByExpr::All(modifiers) => modifiers,
            GroupByExpr::Expressions(exprs, modifiers) => {
                self.exprs(exprs)?;
                modifiers
            }
        };
        for m in modifiers {
            match m {
                // Spark: GROUP BY a, b WITH ROLLUP | WITH CUBE | GROUPING SETS (…).
                GroupByWithModifier::Rollup | GroupByWithModifier::Cube => {}
                GroupByWithModifier::GroupingSets(e) => self.expr(e)?,
                GroupByWithModifier::Totals => {
                    return self.refuse(
                        "`WITH TOTALS`",
                        "write `GROUP BY ROLLUP (…)` or `GROUP BY GROUPING SETS (…)`",
                        sqlparser::tokenizer::Span::empty(),
                    )
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn order_by(&mut self, o: &OrderBy) -> Flow {
        let OrderBy { kind, interpolate } = o;
        match kind {
            OrderByKind::Expressions(exprs) => self.order_by_exprs(exprs)?,
            OrderByKind::All(_) => {
                return self.refuse(
                    "`ORDER BY ALL`",
                    "list the sort columns: `ORDER BY a, b`",
                    sqlparser::tokenizer::Span::empty(),
                )
            }
        }
        match interpolate {
            Some(_) => self.refuse(
                "`INTERPOLATE`",
                "build the missing keys with `sequence(…)` and LEFT JOIN the data to them",
                sqlparser::tokenizer::Span::empty(),
            ),
            None => ControlFlow::Continue(()),
        }
    }

    pub(super) fn order_by_exprs(&mut self, exprs: &[OrderByExpr]) -> Flow {
        for OrderByExpr {
            expr,
            // ASC/DESC, NULLS FIRST/LAST.
            options: _,
            with_fill,
        } in exprs
        {
            self.expr(expr)?;
            self.refuse_if(
                with_fill.is_some(),
                "`WITH FILL`",
                "build the missing keys with `sequence(…)` and LEFT JOIN the data to them",
                expr.span(),
            )?;
        }
        ControlFlow::Continue(())
    }

    fn limit_clause(&mut self, l: &LimitClause) -> Flow {
        match l {
            LimitClause::LimitOffset {
                limit,
                offset,
                limit_by,
            } => {
                self.opt_expr(limit.as_ref())?;
                if let Some(Offset { value, rows: _ }) = offset {
                    self.expr(value)?;
                }
                // ClickHouse's `LIMIT n BY x` (the Checker names it).
                self.exprs(limit_by)
            }
            // MySQL's `LIMIT a, b` (the Checker names it).
            LimitClause::OffsetCommaLimit { offset, limit } => {
                self.expr(offset)?;
                self.expr(limit)
            }
        }
    }
}
