//! Expressions, function calls, window specifications and data types.

use std::ops::ControlFlow;

use sqlparser::ast::{
    AccessExpr, Array, ArrayElemTypeDef, CaseWhen, CastFormat, CeilFloorKind, ColumnDef, DataType,
    DateTimeField, EnumMember, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArgumentClause, FunctionArgumentList, FunctionArguments, InTarget, Interval,
    LambdaFunction, LambdaFunctionParameter, ListAggOnOverflow, OneOrManyWithParens, Spanned,
    StructField, Subscript, TypeModifier, TypedString, UnionField, WindowFrame, WindowFrameBound,
    WindowSpec, WindowType,
};

use super::{lift, Flow, Walk};

impl Walk<'_> {
    /// Walks `root` in pre-order. sqlparser builds operator and postfix chains
    /// (`a OR b OR …`, `x IS NULL IS NULL …`, `a LIKE b LIKE …`) in a loop, so the tree
    /// is as deep as the chain is long (tens of thousands of levels within Athena's size
    /// limit): their first operand is walked by this loop and the others are queued,
    /// instead of one recursion per level.
    pub(super) fn expr(&mut self, root: &Expr) -> Flow {
        let mut queued: Vec<&Expr> = Vec::new();
        let mut next = Some(root);
        while let Some(e) = next.take().or_else(|| queued.pop()) {
            lift(self.pass.expr(e))?;
            self.expr_children(e, &mut next, &mut queued)?;
        }
        ControlFlow::Continue(())
    }

    /// Walks the children of `expr` (its hook has run); for a chain link, sets `next`
    /// to its first operand and queues the others (last first, so they pop in order).
    fn expr_children<'e>(
        &mut self,
        expr: &'e Expr,
        next: &mut Option<&'e Expr>,
        queued: &mut Vec<&'e Expr>,
    ) -> Flow {
        let span = || expr.span();
        let mut chain = |first: &'e Expr, rest: &[&'e Expr]| {
            queued.extend(rest.iter().rev());
            *next = Some(first);
            ControlFlow::Continue(())
        };
        match expr {
            Expr::Identifier(i) => self.ident(i),
            Expr::CompoundIdentifier(parts) => self.idents(parts),
            Expr::CompoundFieldAccess { root, access_chain } => {
                self.expr(root)?;
                for access in access_chain {
                    match access {
                        AccessExpr::Dot(e) => self.expr(e)?,
                        AccessExpr::Subscript(s) => self.subscript(s)?,
                    }
                }
                ControlFlow::Continue(())
            }
            Expr::IsFalse(e)
            | Expr::IsNotFalse(e)
            | Expr::IsTrue(e)
            | Expr::IsNotTrue(e)
            | Expr::IsNull(e)
            | Expr::IsNotNull(e)
            | Expr::IsUnknown(e)
            | Expr::IsNotUnknown(e)
            | Expr::Nested(e) => chain(e, &[]),
            Expr::IsDistinctFrom(a, b) | Expr::IsNotDistinctFrom(a, b) => chain(a, &[b]),
            // Trino: `x IS [NOT] JSON [VALUE|ARRAY|OBJECT|SCALAR] [WITH|WITHOUT UNIQUE KEYS]`.
            Expr::IsJson {
                expr,
                kind: _,
                unique_keys: _,
                negated: _,
            } => self.expr(expr),
            Expr::In {
                expr,
                target,
                negated: _,
                global,
            } => {
                self.refuse_if(*global, "`GLOBAL IN`", "write `IN`", span)?;
                self.expr(expr)?;
                match target {
                    InTarget::List(list) => self.exprs(list),
                    InTarget::Subquery(q) => self.query(q),
                    InTarget::Unnest(_) => self.refuse("`IN UNNEST(…)`", "test membership with contains(arr, x) in Trino, array_contains(arr, x) in Spark", span),
                    InTarget::Table { .. } => self.refuse("`IN <table>`", "write `IN (SELECT c FROM t)`", span),
                }
            }
            Expr::Between {
                expr,
                negated: _,
                low,
                high,
            } => chain(expr, &[low, high]),
            // Operators hold no names; which ones a grammar has is the parser's matter.
            Expr::BinaryOp { left, op: _, right } => chain(left, &[right]),
            Expr::Like {
                negated: _,
                any,
                expr,
                pattern,
                escape_char,
            }
            | Expr::ILike {
                negated: _,
                any,
                expr,
                pattern,
                escape_char,
            } => {
                self.refuse_if(*any, "`LIKE ANY (…)`", "write OR-ed LIKEs: `x LIKE 'a%' OR x LIKE 'b%'`", span)?;
                match escape_char {
                    Some(escape) => chain(expr, &[pattern, escape]),
                    None => chain(expr, &[pattern]),
                }
            }
            Expr::SimilarTo {
                negated: _,
                expr,
                pattern,
                escape_char,
            } => match escape_char {
                Some(escape) => chain(expr, &[pattern, escape]),
                None => chain(expr, &[pattern]),
            },
            Expr::RLike {
                negated: _,
                expr,
                pattern,
                regexp: _,
            } => chain(expr, &[pattern]),
            // `x = ANY (subquery)`, `x > ALL (subquery)`: Trino and Spark.
            Expr::AnyOp {
                left,
                compare_op: _,
                right,
                is_some: _,
            }
            | Expr::AllOp {
                left,
                compare_op: _,
                right,
            } => chain(left, &[right]),
            Expr::UnaryOp { op: _, expr } => chain(expr, &[]),
            Expr::Cast {
                kind: _,
                expr,
                data_type,
                format,
            } => {
                self.expr(expr)?;
                self.data_type(data_type)?;
                match format {
                    None => ControlFlow::Continue(()),
                    Some(CastFormat::Value(v)) => self.value(v),
                    Some(CastFormat::ValueAtTimeZone(v, tz)) => {
                        self.value(v)?;
                        self.value(tz)
                    }
                }
            }
            Expr::AtTimeZone {
                timestamp,
                time_zone,
            } => chain(timestamp, &[time_zone]),
            Expr::Extract {
                field,
                syntax: _,
                expr,
            } => {
                self.date_time_field(field)?;
                self.expr(expr)
            }
            Expr::Ceil { expr, field } | Expr::Floor { expr, field } => {
                self.expr(expr)?;
                match field {
                    CeilFloorKind::DateTimeField(f) => self.date_time_field(f),
                    CeilFloorKind::Scale(v) => self.value(v),
                }
            }
            Expr::Position { expr, r#in } => {
                self.expr(expr)?;
                self.expr(r#in)
            }
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                special: _,
                shorthand: _,
            } => {
                self.expr(expr)?;
                self.opt_expr(substring_from.as_deref())?;
                self.opt_expr(substring_for.as_deref())
            }
            Expr::Trim {
                trim_where: _,
                trim_what,
                expr,
                trim_characters,
            } => {
                self.opt_expr(trim_what.as_deref())?;
                self.expr(expr)?;
                self.exprs(trim_characters.as_deref().unwrap_or_default())
            }
            // Spark: `overlay(x PLACING y FROM n [FOR m])`.
            Expr::Overlay {
                expr,
                overlay_what,
                overlay_from,
                overlay_for,
            } => {
                self.expr(expr)?;
                self.expr(overlay_what)?;
                self.expr(overlay_from)?;
                self.opt_expr(overlay_for.as_deref())
            }
            Expr::Value(v) => self.value(v),
            Expr::TypedString(TypedString {
                data_type,
                value,
                uses_odbc_syntax,
            }) => {
                self.refuse_if(*uses_odbc_syntax, "an ODBC escape `{d '…'}`", "write the typed literal: `DATE '…'`, `TIME '…'` or `TIMESTAMP '…'`", span)?;
                self.data_type(data_type)?;
                self.value(value)
            }
            Expr::Function(f) => self.function(f),
            Expr::Case {
                case_token: _,
                end_token: _,
                operand,
                conditions,
                else_result,
            } => {
                self.opt_expr(operand.as_deref())?;
                for CaseWhen { condition, result } in conditions {
                    self.expr(condition)?;
                    self.expr(result)?;
                }
                self.opt_expr(else_result.as_deref())
            }
            Expr::Exists {
                subquery,
                negated: _,
            }
            | Expr::Subquery(subquery) => self.query(subquery),
            Expr::GroupingSets(sets) | Expr::Cube(sets) | Expr::Rollup(sets) => {
                sets.iter().try_for_each(|set| self.exprs(set))
            }
            Expr::Tuple(items) => self.exprs(items),
            // Spark's `struct(…)`; the Checker refuses it in Trino.
            Expr::Struct { values, fields } => {
                self.exprs(values)?;
                self.struct_fields(fields)
            }
            // `value AS name` inside Spark's `struct(…)`.
            Expr::Named { expr, name } => {
                self.expr(expr)?;
                self.ident(name)
            }
            Expr::Array(Array { elem, named: _ }) => self.exprs(elem),
            Expr::Interval(Interval {
                value,
                leading_field,
                leading_precision: _,
                last_field,
                fractional_seconds_precision: _,
            }) => {
                self.expr(value)?;
                if let Some(f) = leading_field {
                    self.date_time_field(f)?;
                }
                match last_field {
                    Some(f) => self.date_time_field(f),
                    None => ControlFlow::Continue(()),
                }
            }
            // `count(*)`-like arguments and `t.*` where sqlparser reads them as expressions.
            Expr::Wildcard(_) => ControlFlow::Continue(()),
            Expr::QualifiedWildcard(name, _) => self.object_name(name),
            // Trino and Spark lambdas: `x -> x + 1`, `(x, y) -> x + y`.
            Expr::Lambda(LambdaFunction {
                params,
                body,
                syntax: _,
            }) => {
                match params {
                    OneOrManyWithParens::One(p) => self.lambda_param(p)?,
                    OneOrManyWithParens::Many(ps) => {
                        ps.iter().try_for_each(|p| self.lambda_param(p))?
                    }
                }
                self.expr(body)
            }
            Expr::JsonAccess { .. } => self.refuse("a JSON path access (`a:b`, `a->'b'`)", "read JSON with the target's JSON functions (json_extract_scalar(a, '$.b') in Trino, get_json_object(a, '$.b') in Spark)", span),
            Expr::IsNormalized { .. } => self.refuse("`IS NORMALIZED`", "compare `normalize(x) = x` in Trino (Spark SQL has no Unicode normalization function)", span),
            Expr::Convert { .. } => self.refuse("`CONVERT(…)`", "write `CAST(x AS type)`", span),
            Expr::Collate { .. } => self.refuse("`COLLATE`", "compare `lower(x) = lower(y)`, or write the expression without a collation", span),
            Expr::Prefixed { .. } => self.refuse("a character set introducer (`_utf8'…'`)", "write a plain `'…'` literal", span),
            Expr::Dictionary(_) => self.refuse("a `{key: value}` dictionary", "build a map with `MAP(ARRAY[k, …], ARRAY[v, …])` in Trino, `map(k, v, …)` in Spark", span),
            Expr::Map(_) => self.refuse("a `MAP {…}` literal", "build a map with `MAP(ARRAY[k, …], ARRAY[v, …])` in Trino, `map(k, v, …)` in Spark", span),
            Expr::MatchAgainst { .. } => self.refuse("`MATCH (…) AGAINST (…)`", "search with `x LIKE '%word%'` or `regexp_like(x, 'pattern')`", span),
            Expr::OuterJoin(_) => self.refuse("an Oracle outer join `(+)`", "write `LEFT JOIN … ON` or `RIGHT JOIN … ON`", span),
            Expr::Prior(_) => self.refuse("`PRIOR`", "walk the hierarchy with `WITH RECURSIVE` in Trino", span),
            Expr::MemberOf(_) => self.refuse("`MEMBER OF`", "test membership with contains(arr, x) in Trino, array_contains(arr, x) in Spark", span),
        }
    }

    fn subscript(&mut self, s: &Subscript) -> Flow {
        match s {
            Subscript::Index { index } => self.expr(index),
            Subscript::Slice {
                lower_bound,
                upper_bound,
                stride,
            } => {
                self.opt_expr(lower_bound.as_ref())?;
                self.opt_expr(upper_bound.as_ref())?;
                self.opt_expr(stride.as_ref())
            }
        }
    }

    fn lambda_param(&mut self, p: &LambdaFunctionParameter) -> Flow {
        let LambdaFunctionParameter { name, data_type } = p;
        self.ident(name)?;
        self.opt_data_type(data_type.as_ref())
    }

    /// Fields of `EXTRACT`, `INTERVAL` and date `CEIL`/`FLOOR`: keywords, except a
    /// custom one, which is a name.
    fn date_time_field(&mut self, f: &DateTimeField) -> Flow {
        match f {
            DateTimeField::Week(Some(i)) | DateTimeField::Custom(i) => self.ident(i),
            DateTimeField::Week(None)
            | DateTimeField::Year
            | DateTimeField::Years
            | DateTimeField::Month
            | DateTimeField::Months
            | DateTimeField::Weeks
            | DateTimeField::Day
            | DateTimeField::DayOfWeek
            | DateTimeField::DayOfYear
            | DateTimeField::Days
            | DateTimeField::Date
            | DateTimeField::Datetime
            | DateTimeField::Hour
            | DateTimeField::Hours
            | DateTimeField::Minute
            | DateTimeField::Minutes
            | DateTimeField::Second
            | DateTimeField::Seconds
            | DateTimeField::Century
            | DateTimeField::Decade
            | DateTimeField::Dow
            | DateTimeField::Doy
            | DateTimeField::Epoch
            | DateTimeField::Isodow
            | DateTimeField::Isoyear
            | DateTimeField::IsoWeek
            | DateTimeField::Julian
            | DateTimeField::Microsecond
            | DateTimeField::Microseconds
            | DateTimeField::Millenium
            | DateTimeField::Millennium
            | DateTimeField::Millisecond
            | DateTimeField::Milliseconds
            | DateTimeField::Nanosecond
            | DateTimeField::Nanoseconds
            | DateTimeField::Quarter
            | DateTimeField::Time
            | DateTimeField::Timezone
            | DateTimeField::TimezoneAbbr
            | DateTimeField::TimezoneHour
            | DateTimeField::TimezoneMinute
            | DateTimeField::TimezoneRegion
            | DateTimeField::NoDateTime => ControlFlow::Continue(()),
        }
    }

    pub(super) fn function(&mut self, f: &Function) -> Flow {
        let Function {
            name,
            uses_odbc_syntax,
            parameters,
            args,
            within_group,
            filter,
            null_treatment: _,
            over,
        } = f;
        let span = || f.span();
        self.object_name(name)?;
        self.refuse_if(
            *uses_odbc_syntax,
            "an ODBC escape `{fn …}`",
            "write the plain call `f(…)`",
            span,
        )?;
        // ClickHouse's parametric aggregates `f(params)(args)`.
        self.refuse_if(
            !matches!(parameters, FunctionArguments::None),
            "a parametric aggregate `f(…)(…)`", "pass every argument in one list, e.g. `approx_percentile(x, 0.5)` in Trino, `percentile_approx(x, 0.5)` in Spark",
            span,
        )?;
        match args {
            FunctionArguments::None => {}
            FunctionArguments::Subquery(_) => {
                return self.refuse(
                    "a subquery as the whole argument list `f(SELECT …)`",
                    "parenthesise the scalar subquery: `f((SELECT …))`",
                    span,
                )
            }
            FunctionArguments::List(list) => self.function_argument_list(list)?,
        }
        // `listagg(x, ',') WITHIN GROUP (ORDER BY …)`: Trino.
        self.order_by_exprs(within_group)?;
        self.opt_expr(filter.as_deref())?;
        match over {
            None => ControlFlow::Continue(()),
            Some(WindowType::NamedWindow(w)) => self.ident(w),
            Some(WindowType::WindowSpec(spec)) => self.window_spec(spec),
        }
    }

    fn function_argument_list(&mut self, list: &FunctionArgumentList) -> Flow {
        let FunctionArgumentList {
            duplicate_treatment: _,
            args,
            clauses,
        } = list;
        self.function_args(args)?;
        for clause in clauses {
            match clause {
                FunctionArgumentClause::IgnoreOrRespectNulls(_) => {}
                // `array_agg(x ORDER BY y)`: Trino.
                FunctionArgumentClause::OrderBy(order) => self.order_by_exprs(order)?,
                // `listagg(…) ON OVERFLOW TRUNCATE '…'`: Trino.
                FunctionArgumentClause::OnOverflow(ListAggOnOverflow::Error) => {}
                FunctionArgumentClause::OnOverflow(ListAggOnOverflow::Truncate {
                    filler,
                    with_count: _,
                }) => self.opt_expr(filler.as_deref())?,
                // `json_object(… ABSENT ON NULL RETURNING varchar)`: Trino.
                FunctionArgumentClause::JsonNullClause(_)
                | FunctionArgumentClause::JsonReturningClause(_) => {}
                FunctionArgumentClause::Where(e)
                | FunctionArgumentClause::Limit(e)
                | FunctionArgumentClause::Having(sqlparser::ast::HavingBound(_, e)) => {
                    return self.refuse(
                        "a `WHERE`, `LIMIT` or `HAVING` clause inside a function call", "filter an aggregate with `FILTER (WHERE …)` after the call, or filter rows in a subquery",
                        e.span(),
                    )
                }
                FunctionArgumentClause::Separator(v) => {
                    return self.refuse("`SEPARATOR` inside a function call", "write `listagg(x, ',') WITHIN GROUP (ORDER BY …)` in Trino, `array_join(collect_list(x), ',')` in Spark", v.span)
                }
            }
        }
        ControlFlow::Continue(())
    }

    pub(super) fn function_args(&mut self, args: &[FunctionArg]) -> Flow {
        for arg in args {
            match arg {
                // Spark's `CALL catalog.system.proc(table => 'db.t')`.
                FunctionArg::Named {
                    name,
                    arg,
                    operator: _,
                } => {
                    self.ident(name)?;
                    self.function_arg_expr(arg)?;
                }
                FunctionArg::ExprNamed {
                    name,
                    arg,
                    operator: _,
                } => {
                    self.expr(name)?;
                    self.function_arg_expr(arg)?;
                }
                FunctionArg::Unnamed(arg) => self.function_arg_expr(arg)?,
            }
        }
        ControlFlow::Continue(())
    }

    fn function_arg_expr(&mut self, arg: &FunctionArgExpr) -> Flow {
        match arg {
            FunctionArgExpr::Expr(e) => self.expr(e),
            FunctionArgExpr::QualifiedWildcard(name) => self.object_name(name),
            FunctionArgExpr::Wildcard => ControlFlow::Continue(()),
            FunctionArgExpr::WildcardWithOptions(o) => self.refuse(
                "`*` with options inside a function call",
                "list the columns you want",
                o.wildcard_token.0.span,
            ),
        }
    }

    pub(super) fn window_spec(&mut self, spec: &WindowSpec) -> Flow {
        let WindowSpec {
            window_name,
            partition_by,
            order_by,
            window_frame,
        } = spec;
        self.opt_ident(window_name.as_ref())?;
        self.exprs(partition_by)?;
        self.order_by_exprs(order_by)?;
        if let Some(WindowFrame {
            units: _,
            start_bound,
            end_bound,
        }) = window_frame
        {
            self.frame_bound(start_bound)?;
            if let Some(b) = end_bound {
                self.frame_bound(b)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn frame_bound(&mut self, b: &WindowFrameBound) -> Flow {
        match b {
            WindowFrameBound::CurrentRow => ControlFlow::Continue(()),
            WindowFrameBound::Preceding(e) | WindowFrameBound::Following(e) => {
                self.opt_expr(e.as_deref())
            }
        }
    }

    pub(super) fn opt_data_type(&mut self, t: Option<&DataType>) -> Flow {
        t.map_or(ControlFlow::Continue(()), |t| self.data_type(t))
    }

    /// A type: its field names and custom type names are names (quoting is checked);
    /// which types a statement may spell is the Checker's matter.
    pub(super) fn data_type(&mut self, t: &DataType) -> Flow {
        lift(self.pass.data_type(t))?;
        match t {
            DataType::Table(columns) => self.column_defs(columns.as_deref().unwrap_or_default()),
            DataType::NamedTable { name, columns } => {
                self.object_name(name)?;
                self.column_defs(columns)
            }
            DataType::Zerofill(inner)
            | DataType::Nullable(inner)
            | DataType::LowCardinality(inner) => self.data_type(inner),
            DataType::Collate(inner, name) => {
                self.data_type(inner)?;
                self.object_name(name)
            }
            DataType::Custom(name, modifiers) => {
                self.object_name(name)?;
                for m in modifiers {
                    match m {
                        TypeModifier::Identifier(i) => self.ident(i)?,
                        TypeModifier::Number(..) | TypeModifier::String(_) => {}
                    }
                }
                ControlFlow::Continue(())
            }
            DataType::Array(elem) => match elem {
                ArrayElemTypeDef::None => ControlFlow::Continue(()),
                ArrayElemTypeDef::AngleBracket(t)
                | ArrayElemTypeDef::SquareBracket(t, _)
                | ArrayElemTypeDef::Parenthesis(t)
                | ArrayElemTypeDef::ParenthesisNotNull(t)
                | ArrayElemTypeDef::Qualified(t, _) => self.data_type(t),
            },
            DataType::Map(k, v, _) => {
                self.data_type(k)?;
                self.data_type(v)
            }
            DataType::Tuple(fields) | DataType::Struct(fields, _) => self.struct_fields(fields),
            DataType::Nested(columns) | DataType::Object(columns) => self.column_defs(columns),
            DataType::Enum(members, _) => {
                for m in members {
                    match m {
                        EnumMember::Name(_) => {}
                        EnumMember::NamedValue(_, e) => self.expr(e)?,
                    }
                }
                ControlFlow::Continue(())
            }
            DataType::Union(fields) => {
                for UnionField {
                    field_name,
                    field_type,
                } in fields
                {
                    self.ident(field_name)?;
                    self.data_type(field_type)?;
                }
                ControlFlow::Continue(())
            }
            // Types without names inside.
            DataType::Character(_)
            | DataType::Char(_)
            | DataType::CharacterVarying(_)
            | DataType::CharVarying(_)
            | DataType::Varchar(_)
            | DataType::Nvarchar(_)
            | DataType::Uuid
            | DataType::CharacterLargeObject(_)
            | DataType::CharLargeObject(_)
            | DataType::Clob(_)
            | DataType::Binary(_)
            | DataType::Varbinary(_)
            | DataType::Blob(_)
            | DataType::TinyBlob
            | DataType::MediumBlob
            | DataType::LongBlob
            | DataType::Bytes(_)
            | DataType::Numeric(_)
            | DataType::Decimal(_)
            | DataType::DecimalUnsigned(_)
            | DataType::BigNumeric(_)
            | DataType::BigDecimal(_)
            | DataType::Dec(_)
            | DataType::DecUnsigned(_)
            | DataType::Float(_)
            | DataType::FloatUnsigned(_)
            | DataType::TinyInt(_)
            | DataType::TinyIntUnsigned(_)
            | DataType::UTinyInt
            | DataType::Int2(_)
            | DataType::Int2Unsigned(_)
            | DataType::SmallInt(_)
            | DataType::SmallIntUnsigned(_)
            | DataType::USmallInt
            | DataType::MediumInt(_)
            | DataType::MediumIntUnsigned(_)
            | DataType::Int(_)
            | DataType::Int4(_)
            | DataType::Int8(_)
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::Int128
            | DataType::Int256
            | DataType::Integer(_)
            | DataType::IntUnsigned(_)
            | DataType::Int4Unsigned(_)
            | DataType::IntegerUnsigned(_)
            | DataType::HugeInt
            | DataType::UHugeInt
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::UInt128
            | DataType::UInt256
            | DataType::BigInt(_)
            | DataType::BigIntUnsigned(_)
            | DataType::UBigInt
            | DataType::Int8Unsigned(_)
            | DataType::Signed
            | DataType::SignedInteger
            | DataType::Unsigned
            | DataType::UnsignedInteger
            | DataType::Float4
            | DataType::Float32
            | DataType::Float64
            | DataType::Real
            | DataType::RealUnsigned
            | DataType::Float8
            | DataType::Double(_)
            | DataType::DoubleUnsigned(_)
            | DataType::DoublePrecision
            | DataType::DoublePrecisionUnsigned
            | DataType::Bool
            | DataType::Boolean
            | DataType::Date
            | DataType::Date32
            | DataType::Time(..)
            | DataType::Datetime(_)
            | DataType::Datetime64(..)
            | DataType::Timestamp(..)
            | DataType::TimestampNtz(_)
            | DataType::Interval { .. }
            | DataType::JSON
            | DataType::JSONB
            | DataType::Regclass
            | DataType::Text
            | DataType::TinyText
            | DataType::MediumText
            | DataType::LongText
            | DataType::String(_)
            | DataType::FixedString(_)
            | DataType::Bytea
            | DataType::Bit(_)
            | DataType::BitVarying(_)
            | DataType::VarBit(_)
            | DataType::Set(_)
            | DataType::Unspecified
            | DataType::Trigger
            | DataType::AnyType
            | DataType::GeometricType(_)
            | DataType::TsVector
            | DataType::TsQuery => ControlFlow::Continue(()),
        }
    }

    fn struct_fields(&mut self, fields: &[StructField]) -> Flow {
        for StructField {
            field_name,
            field_type,
            options,
        } in fields
        {
            self.opt_ident(field_name.as_ref())?;
            self.data_type(field_type)?;
            if let Some(options) = options {
                self.sql_options(options)?;
            }
        }
        ControlFlow::Continue(())
    }

    pub(super) fn column_defs(&mut self, columns: &[ColumnDef]) -> Flow {
        columns.iter().try_for_each(|c| self.column_def(c))
    }
}
