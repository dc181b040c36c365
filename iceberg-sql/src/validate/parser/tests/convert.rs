//! sqlparser's trees as ours (test-only): what the differential tests compare.

use sqlparser::ast as sp;
use sqlparser::tokenizer::Location;

use super::super::ast::*;

/// Why sqlparser's tree has no counterpart in ours.
#[derive(Debug)]
pub(super) enum Miss {
    /// A node our AST does not have.
    Outside(String),
    /// sqlparser's own node for what our parser reads as the call `name(…)`
    /// (`ceil(x)` is `Expr::Ceil` there).
    Call(&'static str),
}

pub(super) type Conv<T> = Result<T, Miss>;

/// Converts sqlparser's tree of the text `sql`, whose expression starts at byte
/// `base`, to ours.
pub(super) struct Converter<'a> {
    pub(super) sql: &'a str,
    pub(super) base: usize,
}

/// The byte offset of sqlparser's location `l` in `sql`.
fn offset(sql: &str, l: Location) -> usize {
    let mut line = 1;
    let mut column = 1;
    for (i, c) in sql.char_indices() {
        if line == l.line && column == l.column {
            return i;
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    sql.len()
}

pub(super) fn outside<T>(what: impl std::fmt::Debug) -> Conv<T> {
    Err(Miss::Outside(format!("{what:?}")))
}

impl Converter<'_> {
    fn span(&self, s: sqlparser::tokenizer::Span) -> Span {
        Span {
            start: offset(self.sql, s.start) - self.base,
            end: offset(self.sql, s.end) - self.base,
        }
    }

    fn ident(&self, i: &sp::Ident) -> Ident {
        Ident {
            value: i.value.clone(),
            quote: i.quote_style,
            span: self.span(i.span),
        }
    }

    fn name(&self, n: &sp::ObjectName) -> Conv<Vec<Ident>> {
        n.0.iter()
            .map(|p| match p {
                sp::ObjectNamePart::Identifier(i) => Ok(self.ident(i)),
                other => outside(other),
            })
            .collect()
    }

    fn boxed(&self, e: &sp::Expr) -> Conv<Box<Expr>> {
        self.expr(e).map(Box::new)
    }

    fn exprs(&self, es: &[sp::Expr]) -> Conv<Vec<Expr>> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn literal(&self, v: &sp::ValueWithSpan) -> Conv<Expr> {
        let string = |form, value: &String| LiteralValue::String {
            form,
            value: value.clone(),
        };
        let value = match &v.value {
            sp::Value::Number(text, long) => LiteralValue::Number {
                text: text.clone(),
                long: *long,
            },
            sp::Value::SingleQuotedString(s) => string(StringForm::Single, s),
            sp::Value::DoubleQuotedString(s) => string(StringForm::Double, s),
            sp::Value::NationalStringLiteral(s) => string(StringForm::National, s),
            sp::Value::HexStringLiteral(s) => string(StringForm::Hex, s),
            sp::Value::UnicodeStringLiteral(s) => string(StringForm::Unicode, s),
            sp::Value::Boolean(b) => LiteralValue::Boolean(*b),
            sp::Value::Null => LiteralValue::Null,
            sp::Value::Placeholder(p) if p == "?" => {
                return Ok(Expr::Placeholder(self.span(v.span)))
            }
            other => return outside(other),
        };
        Ok(Expr::Literal(Literal {
            value,
            span: self.span(v.span),
        }))
    }

    fn binary_op(op: &sp::BinaryOperator) -> Conv<BinaryOp> {
        use sp::BinaryOperator as B;
        Ok(match op {
            B::Or => BinaryOp::Or,
            B::And => BinaryOp::And,
            B::Eq => BinaryOp::Eq,
            B::NotEq => BinaryOp::NotEq,
            B::Lt => BinaryOp::Lt,
            B::LtEq => BinaryOp::LtEq,
            B::Gt => BinaryOp::Gt,
            B::GtEq => BinaryOp::GtEq,
            B::Plus => BinaryOp::Plus,
            B::Minus => BinaryOp::Minus,
            B::Multiply => BinaryOp::Multiply,
            B::Divide => BinaryOp::Divide,
            B::Modulo => BinaryOp::Modulo,
            B::StringConcat => BinaryOp::Concat,
            B::BitwiseAnd => BinaryOp::BitAnd,
            B::BitwiseOr => BinaryOp::BitOr,
            B::BitwiseXor => BinaryOp::BitXor,
            B::Spaceship => BinaryOp::NullSafeEq,
            other => return outside(other),
        })
    }

    pub(super) fn expr(&self, e: &sp::Expr) -> Conv<Expr> {
        use sp::Expr as E;
        Ok(match e {
            E::Identifier(i) => Expr::Name(vec![self.ident(i)]),
            E::CompoundIdentifier(parts) => {
                Expr::Name(parts.iter().map(|i| self.ident(i)).collect())
            }
            E::Value(v) => self.literal(v)?,
            E::TypedString(sp::TypedString {
                data_type,
                value,
                uses_odbc_syntax: false,
            }) => {
                let sp::Value::SingleQuotedString(s) = &value.value else {
                    return outside(value);
                };
                Expr::Literal(Literal {
                    value: LiteralValue::Typed {
                        ty: self.ty(data_type)?,
                        value: s.clone(),
                    },
                    span: self.span(value.span),
                })
            }
            E::Nested(x) => Expr::Nested(self.boxed(x)?),
            E::UnaryOp { op, expr } => Expr::Unary {
                op: match op {
                    sp::UnaryOperator::Not => UnaryOp::Not,
                    sp::UnaryOperator::Minus => UnaryOp::Minus,
                    sp::UnaryOperator::Plus => UnaryOp::Plus,
                    sp::UnaryOperator::BitwiseNot => UnaryOp::BitNot,
                    other => return outside(other),
                },
                expr: self.boxed(expr)?,
            },
            E::BinaryOp { left, op, right } => Expr::Binary {
                left: self.boxed(left)?,
                op: Self::binary_op(op)?,
                right: self.boxed(right)?,
            },
            E::IsNull(x) | E::IsNotNull(x) => Expr::IsNull {
                expr: self.boxed(x)?,
                negated: matches!(e, E::IsNotNull(_)),
            },
            E::IsDistinctFrom(a, b) | E::IsNotDistinctFrom(a, b) => Expr::IsDistinctFrom {
                left: self.boxed(a)?,
                right: self.boxed(b)?,
                negated: matches!(e, E::IsNotDistinctFrom(..)),
            },
            E::In {
                expr,
                target: sp::InTarget::List(list),
                negated,
                global: false,
            } => Expr::InList {
                expr: self.boxed(expr)?,
                list: self.exprs(list)?,
                negated: *negated,
            },
            E::Between {
                expr,
                negated,
                low,
                high,
            } => Expr::Between {
                expr: self.boxed(expr)?,
                low: self.boxed(low)?,
                high: self.boxed(high)?,
                negated: *negated,
            },
            E::Like {
                negated,
                any: false,
                expr,
                pattern,
                escape_char,
            } => Expr::Like {
                expr: self.boxed(expr)?,
                pattern: self.boxed(pattern)?,
                escape: escape_char.as_deref().map(|x| self.boxed(x)).transpose()?,
                negated: *negated,
            },
            E::Case {
                operand,
                conditions,
                else_result,
                ..
            } => Expr::Case {
                operand: operand.as_deref().map(|x| self.boxed(x)).transpose()?,
                branches: conditions
                    .iter()
                    .map(|w| Ok((self.expr(&w.condition)?, self.expr(&w.result)?)))
                    .collect::<Conv<_>>()?,
                otherwise: else_result.as_deref().map(|x| self.boxed(x)).transpose()?,
            },
            E::Cast {
                kind: kind @ (sp::CastKind::Cast | sp::CastKind::TryCast),
                expr,
                data_type,
                format: None,
            } => Expr::Cast {
                expr: self.boxed(expr)?,
                ty: self.ty(data_type)?,
                try_cast: *kind == sp::CastKind::TryCast,
            },
            E::Function(f) => Expr::Function(self.function(f)?),
            E::Array(sp::Array { elem, named: true }) => Expr::Array(self.exprs(elem)?),
            E::CompoundFieldAccess { root, access_chain } => {
                let mut x = self.expr(root)?;
                for a in access_chain {
                    x = match a {
                        sp::AccessExpr::Subscript(sp::Subscript::Index { index }) => {
                            Expr::Subscript {
                                expr: Box::new(x),
                                index: self.boxed(index)?,
                            }
                        }
                        sp::AccessExpr::Dot(sp::Expr::Identifier(i)) => Expr::Field {
                            expr: Box::new(x),
                            field: self.ident(i),
                        },
                        other => return outside(other),
                    };
                }
                x
            }
            E::AtTimeZone {
                timestamp,
                time_zone,
            } => Expr::AtTimeZone {
                expr: self.boxed(timestamp)?,
                zone: self.boxed(time_zone)?,
            },
            E::Interval(sp::Interval {
                value,
                leading_field: Some(unit),
                leading_precision: None,
                last_field,
                fractional_seconds_precision: None,
            }) => Expr::Interval {
                value: self.boxed(value)?,
                unit: unit.to_string().to_ascii_uppercase(),
                to: last_field
                    .as_ref()
                    .map(|f| f.to_string().to_ascii_uppercase()),
            },
            E::Extract {
                field,
                syntax: sp::ExtractSyntax::From,
                expr,
            } => Expr::Extract {
                field: field.to_string().to_ascii_uppercase(),
                expr: self.boxed(expr)?,
            },
            E::Lambda(sp::LambdaFunction {
                params,
                body,
                syntax: sp::LambdaSyntax::Arrow,
            }) => {
                let (ps, parenthesized) = match params {
                    sp::OneOrManyWithParens::One(p) => (std::slice::from_ref(p), false),
                    sp::OneOrManyWithParens::Many(ps) => (ps.as_slice(), true),
                };
                let params = ps
                    .iter()
                    .map(|p| match p.data_type {
                        None => Ok(self.ident(&p.name)),
                        Some(_) => outside(p),
                    })
                    .collect::<Conv<_>>()?;
                Expr::Lambda {
                    params,
                    parenthesized,
                    body: self.boxed(body)?,
                }
            }
            E::Subquery(q) => Expr::Subquery(Box::new(self.query(q)?)),
            E::In {
                expr,
                target: sp::InTarget::Subquery(q),
                negated,
                global: false,
            } => Expr::InSubquery {
                expr: self.boxed(expr)?,
                query: Box::new(self.query(q)?),
                negated: *negated,
            },
            E::Exists { subquery, negated } => Expr::Exists {
                query: Box::new(self.query(subquery)?),
                negated: *negated,
            },
            E::IsTrue(x)
            | E::IsNotTrue(x)
            | E::IsFalse(x)
            | E::IsNotFalse(x)
            | E::IsUnknown(x)
            | E::IsNotUnknown(x) => Expr::IsBool {
                expr: self.boxed(x)?,
                value: match e {
                    E::IsTrue(_) | E::IsNotTrue(_) => Some(true),
                    E::IsFalse(_) | E::IsNotFalse(_) => Some(false),
                    _ => None,
                },
                negated: matches!(e, E::IsNotTrue(_) | E::IsNotFalse(_) | E::IsNotUnknown(_)),
            },
            E::ILike {
                negated,
                any: false,
                expr,
                pattern,
                escape_char,
            } => Expr::ILike {
                expr: self.boxed(expr)?,
                pattern: self.boxed(pattern)?,
                escape: escape_char.as_deref().map(|x| self.boxed(x)).transpose()?,
                negated: *negated,
            },
            E::RLike {
                negated,
                expr,
                pattern,
                regexp,
            } => Expr::RLike {
                expr: self.boxed(expr)?,
                pattern: self.boxed(pattern)?,
                negated: *negated,
                regexp: *regexp,
            },
            E::AnyOp {
                left,
                compare_op,
                right,
                is_some,
            } => match right.as_ref() {
                sp::Expr::Subquery(q) => Expr::Quantified {
                    left: self.boxed(left)?,
                    op: Self::binary_op(compare_op)?,
                    quantifier: if *is_some {
                        Quantifier::Some
                    } else {
                        Quantifier::Any
                    },
                    query: Box::new(self.query(q)?),
                },
                other => return outside(other),
            },
            E::AllOp {
                left,
                compare_op,
                right,
            } => match right.as_ref() {
                sp::Expr::Subquery(q) => Expr::Quantified {
                    left: self.boxed(left)?,
                    op: Self::binary_op(compare_op)?,
                    quantifier: Quantifier::All,
                    query: Box::new(self.query(q)?),
                },
                other => return outside(other),
            },
            E::Tuple(fields) if fields.len() > 1 => Expr::Row(self.exprs(fields)?),
            E::Position { expr, r#in } => Expr::Position {
                needle: self.boxed(expr)?,
                haystack: self.boxed(r#in)?,
            },
            E::Substring {
                expr,
                substring_from: Some(from),
                substring_for,
                special: false,
                shorthand: false,
            } => Expr::Substring {
                expr: self.boxed(expr)?,
                from: self.boxed(from)?,
                length: substring_for
                    .as_deref()
                    .map(|x| self.boxed(x))
                    .transpose()?,
            },
            E::Trim {
                expr,
                trim_where,
                trim_what: Some(what),
                trim_characters: None,
            } => Expr::Trim {
                side: trim_where.map(|w| match w {
                    sp::TrimWhereField::Both => TrimSide::Both,
                    sp::TrimWhereField::Leading => TrimSide::Leading,
                    sp::TrimWhereField::Trailing => TrimSide::Trailing,
                }),
                chars: self.boxed(what)?,
                expr: self.boxed(expr)?,
            },
            E::Overlay {
                expr,
                overlay_what,
                overlay_from,
                overlay_for,
            } => Expr::Overlay {
                expr: self.boxed(expr)?,
                placing: self.boxed(overlay_what)?,
                from: self.boxed(overlay_from)?,
                length: overlay_for.as_deref().map(|x| self.boxed(x)).transpose()?,
            },
            // `ceil(x TO DAY)` is a form of neither grammar.
            E::Ceil {
                field: sp::CeilFloorKind::DateTimeField(f),
                ..
            }
            | E::Floor {
                field: sp::CeilFloorKind::DateTimeField(f),
                ..
            } if *f != sp::DateTimeField::NoDateTime => return outside(e),
            E::Ceil { .. } => return Err(Miss::Call("ceil")),
            E::Floor { .. } => return Err(Miss::Call("floor")),
            // `substring(x, 1, 2)` (and sqlparser's other readings) are plain calls.
            E::Substring { .. } => return Err(Miss::Call("substring")),
            // `trim(BOTH x)` is a form of neither grammar (they write FROM after it).
            E::Trim {
                trim_where: Some(_),
                ..
            } => return outside(e),
            E::Trim { .. } => return Err(Miss::Call("trim")),
            E::GroupingSets(sets) | E::Rollup(sets) | E::Cube(sets) => Expr::Grouping {
                kind: match e {
                    E::GroupingSets(_) => GroupingKind::Sets,
                    E::Rollup(_) => GroupingKind::Rollup,
                    _ => GroupingKind::Cube,
                },
                sets: sets
                    .iter()
                    .map(|set| self.exprs(set))
                    .collect::<Conv<_>>()?,
            },
            // Spark's `struct(a, b)` is an ordinary function in Spark's grammar.
            E::Struct { fields, .. } if fields.is_empty() => return Err(Miss::Call("struct")),
            other => return outside(other),
        })
    }

    pub(super) fn query(&self, q: &sp::Query) -> Conv<Query> {
        let plain = q.locks.is_empty()
            && q.for_clause.is_none()
            && q.settings.is_none()
            && q.format_clause.is_none()
            && q.pipe_operators.is_empty();
        if !plain {
            return outside(q);
        }
        let with = match &q.with {
            None => Vec::new(),
            Some(w) if !w.recursive => w
                .cte_tables
                .iter()
                .map(|c| match c {
                    sp::Cte {
                        alias,
                        query,
                        from: None,
                        materialized: None,
                        ..
                    } if alias.columns.is_empty() => Ok(Cte {
                        name: self.ident(&alias.name),
                        query: self.query(query)?,
                    }),
                    other => outside(other),
                })
                .collect::<Conv<_>>()?,
            Some(w) => return outside(w),
        };
        let body = self.set_expr(&q.body)?;
        let order_by = match &q.order_by {
            None => Vec::new(),
            Some(sp::OrderBy {
                kind: sp::OrderByKind::Expressions(items),
                interpolate: None,
            }) => items
                .iter()
                .map(|o| self.order_by_item(o))
                .collect::<Conv<_>>()?,
            Some(other) => return outside(other),
        };
        let (limit, offset) = match &q.limit_clause {
            None => (None, None),
            Some(sp::LimitClause::LimitOffset {
                limit,
                offset,
                limit_by,
            }) if limit_by.is_empty() => (
                match limit {
                    Some(l) => Some(self.expr(l)?),
                    // sqlparser keeps no trace of `LIMIT ALL`, which ours reads as a name.
                    None if self.sql.to_ascii_lowercase().contains("limit all") => {
                        return outside(&q.limit_clause)
                    }
                    None => None,
                },
                match offset {
                    None => None,
                    Some(o) => Some(Offset {
                        value: self.expr(&o.value)?,
                        rows: match o.rows {
                            sp::OffsetRows::None => OffsetRows::None,
                            sp::OffsetRows::Row => OffsetRows::Row,
                            sp::OffsetRows::Rows => OffsetRows::Rows,
                        },
                    }),
                },
            ),
            Some(other) => return outside(other),
        };
        let fetch = match &q.fetch {
            None => None,
            Some(sp::Fetch {
                with_ties,
                percent: false,
                quantity,
            }) => Some(Fetch {
                quantity: quantity.as_ref().map(|n| self.expr(n)).transpose()?,
                with_ties: *with_ties,
            }),
            Some(other) => return outside(other),
        };
        Ok(Query {
            with,
            body,
            order_by,
            limit,
            offset,
            fetch,
        })
    }

    /// A query's body: a `SELECT`, or set operations on them (left-deep chains are
    /// converted in a loop down their left operands).
    fn set_expr(&self, e: &sp::SetExpr) -> Conv<SetExpr> {
        let mut spine = Vec::new();
        let mut leftmost = e;
        while let sp::SetExpr::SetOperation {
            left,
            op,
            set_quantifier,
            right,
        } = leftmost
        {
            spine.push((op, set_quantifier, right));
            leftmost = left;
        }
        let sp::SetExpr::Select(s) = leftmost else {
            return outside(leftmost);
        };
        let mut out = SetExpr::Select(Box::new(self.select(s)?));
        for (op, quantifier, right) in spine.into_iter().rev() {
            let op = match op {
                sp::SetOperator::Union => SetOperator::Union,
                sp::SetOperator::Except => SetOperator::Except,
                sp::SetOperator::Intersect => SetOperator::Intersect,
                other => return outside(other),
            };
            let quantifier = match quantifier {
                sp::SetQuantifier::None => SetQuantifier::None,
                sp::SetQuantifier::All => SetQuantifier::All,
                sp::SetQuantifier::Distinct => SetQuantifier::Distinct,
                other => return outside(other),
            };
            out = SetExpr::Operation {
                left: Box::new(out),
                op,
                quantifier,
                right: Box::new(self.set_expr(right)?),
            };
        }
        Ok(out)
    }

    fn order_by_item(&self, o: &sp::OrderByExpr) -> Conv<OrderByItem> {
        let asc = match o.options.sort {
            None => None,
            Some(sp::OrderBySort::Asc) => Some(true),
            Some(sp::OrderBySort::Desc) => Some(false),
            _ => return outside(o),
        };
        if o.with_fill.is_some() {
            return outside(o);
        }
        Ok(OrderByItem {
            expr: self.expr(&o.expr)?,
            asc,
            nulls_first: o.options.nulls_first,
        })
    }

    fn select(&self, s: &sp::Select) -> Conv<Select> {
        let plain = s.top.is_none()
            && s.into.is_none()
            && s.prewhere.is_none()
            && s.connect_by.is_empty()
            && s.distribute_by.is_empty()
            && s.sort_by.is_empty()
            && s.qualify.is_none()
            && s.value_table_mode.is_none()
            && s.exclude.is_none()
            && s.select_modifiers.is_none()
            && s.optimizer_hints.is_empty();
        if !plain {
            return outside(s);
        }
        let distinct = match &s.distinct {
            None => false,
            Some(sp::Distinct::Distinct) => true,
            Some(other) => return outside(other),
        };
        let plain_wildcard = |o: &sp::WildcardAdditionalOptions| {
            o.opt_ilike.is_none()
                && o.opt_exclude.is_none()
                && o.opt_except.is_none()
                && o.opt_replace.is_none()
                && o.opt_rename.is_none()
                && o.opt_alias.is_none()
        };
        let items = s
            .projection
            .iter()
            .map(|item| match item {
                sp::SelectItem::UnnamedExpr(e) => Ok(SelectItem::Expr {
                    expr: self.expr(e)?,
                    alias: None,
                }),
                sp::SelectItem::ExprWithAlias { expr, alias } => Ok(SelectItem::Expr {
                    expr: self.expr(expr)?,
                    alias: Some(self.ident(alias)),
                }),
                sp::SelectItem::Wildcard(o) if plain_wildcard(o) => {
                    Ok(SelectItem::Wildcard(self.span(o.wildcard_token.0.span)))
                }
                sp::SelectItem::QualifiedWildcard(
                    sp::SelectItemQualifiedWildcardKind::ObjectName(n),
                    o,
                ) if plain_wildcard(o) => Ok(SelectItem::QualifiedWildcard(self.name(n)?)),
                other => outside(other),
            })
            .collect::<Conv<_>>()?;
        let (from, pivot) = self.relations_and_pivot(&s.from, !s.lateral_views.is_empty())?;
        let group_by = match &s.group_by {
            sp::GroupByExpr::Expressions(exprs, modifiers) if modifiers.is_empty() => {
                self.exprs(exprs)?
            }
            other => return outside(other),
        };
        Ok(Select {
            distinct,
            items,
            from,
            selection: s.selection.as_ref().map(|e| self.expr(e)).transpose()?,
            group_by,
            having: s.having.as_ref().map(|e| self.expr(e)).transpose()?,
            cluster_by: self.exprs(&s.cluster_by)?,
            lateral_views: s
                .lateral_views
                .iter()
                .map(|v| {
                    let [sp::ObjectNamePart::Identifier(name)] = v.lateral_view_name.0.as_slice()
                    else {
                        return outside(&v.lateral_view_name);
                    };
                    Ok(LateralView {
                        outer: v.outer,
                        call: self.expr(&v.lateral_view)?,
                        name: self.ident(name),
                        columns: v.lateral_col_alias.iter().map(|c| self.ident(c)).collect(),
                    })
                })
                .collect::<Conv<_>>()?,
            pivot,
            windows: s
                .named_window
                .iter()
                .map(|sp::NamedWindowDefinition(name, w)| match w {
                    sp::NamedWindowExpr::WindowSpec(sp::WindowSpec {
                        window_name: None,
                        partition_by,
                        order_by,
                        window_frame,
                    }) => Ok((
                        self.ident(name),
                        self.window_spec(partition_by, order_by, window_frame.as_ref())?,
                    )),
                    other => outside(other),
                })
                .collect::<Conv<_>>()?,
        })
    }

    /// The FROM clause, and the `PIVOT` sqlparser reads on its last table factor (its
    /// `parse_pivot_table_factor`): that is where Spark's `fromClause` has it, over the
    /// whole clause, so it is ours there. A pivot anywhere else (before a join's
    /// condition, a comma or another pivot), with an alias, `DEFAULT ON NULL`, `ANY` or a
    /// subquery for its values, a column that is no plain name, or with `LATERAL VIEW`s
    /// (which sqlparser reads after it; Spark's AstBuilder refuses the two together) is
    /// outside our tree.
    fn relations_and_pivot(
        &self,
        from: &[sp::TableWithJoins],
        views: bool,
    ) -> Conv<(Vec<TableWithJoins>, Option<Box<Pivot>>)> {
        let mut from = from.to_vec();
        let last = from.last_mut().map(|t| match t.joins.last_mut() {
            Some(j) => &mut j.relation,
            None => &mut t.relation,
        });
        let mut pivot = None;
        if let Some(factor) = last {
            if let sp::TableFactor::Pivot {
                table,
                aggregate_functions,
                value_column,
                value_source: sp::PivotValueSource::List(values),
                default_on_null: None,
                alias: None,
            } = factor
            {
                if views {
                    return outside("a PIVOT with LATERAL VIEWs");
                }
                let table_end = sp::Spanned::span(table.as_ref()).end;
                let names = self.pivot_aggregate_names(offset(self.sql, table_end));
                let aggregates = aggregate_functions
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let mut e = self.expr(&a.expr)?;
                        // sqlparser keeps the aggregate's name without its span or
                        // quote (`Ident::new`): they are taken from the text.
                        if let (Expr::Function(f), Some(name)) = (&mut e, names.get(i)) {
                            if let [only] = f.name.as_mut_slice() {
                                *only = name.clone();
                            }
                        }
                        Ok((e, a.alias.as_ref().map(|a| self.ident(a))))
                    })
                    .collect::<Conv<_>>()?;
                let columns = value_column
                    .iter()
                    .map(|c| match c {
                        sp::Expr::Identifier(i) => Ok(self.ident(i)),
                        other => outside(other),
                    })
                    .collect::<Conv<_>>()?;
                let values = values
                    .iter()
                    .map(|v| Ok((self.expr(&v.expr)?, v.alias.as_ref().map(|a| self.ident(a)))))
                    .collect::<Conv<_>>()?;
                pivot = Some(Box::new(Pivot {
                    aggregates,
                    columns,
                    values,
                }));
                *factor = table.as_ref().clone();
            }
        }
        let from = from
            .iter()
            .map(|t| {
                Ok(TableWithJoins {
                    relation: self.factor(&t.relation)?,
                    joins: t.joins.iter().map(|j| self.join(j)).collect::<Conv<_>>()?,
                })
            })
            .collect::<Conv<Vec<_>>>()?;
        // A join's condition after the pivot: the pivot is not the clause's last.
        let condition_after = from.last().and_then(|t| t.joins.last()).is_some_and(|j| {
            matches!(
                j.constraint,
                JoinConstraint::On(_) | JoinConstraint::Using(_)
            )
        });
        if pivot.is_some() && condition_after {
            return outside("a PIVOT before a join's condition");
        }
        Ok((from, pivot))
    }

    /// The first word of each aggregate of the `PIVOT (` that follows byte `after`, as
    /// names: the tokens after its `(` and after each `,` at its level, up to `FOR`.
    fn pivot_aggregate_names(&self, after: usize) -> Vec<Ident> {
        use crate::validate::lexer::{lex, Kind, Symbol};
        let Ok(tokens) = lex(self.sql, super::super::Rules::SPARK.lexical) else {
            return Vec::new();
        };
        let tokens: Vec<_> = tokens
            .into_iter()
            .filter(|t| {
                !matches!(
                    t.kind,
                    Kind::Blank(_) | Kind::LineComment | Kind::BlockComment
                )
            })
            .collect();
        let Some(open) = tokens.windows(2).position(|w| {
            w[0].start >= after
                && matches!(w[0].kind, Kind::Word { quote: None, .. })
                && w[0].text(self.sql).eq_ignore_ascii_case("pivot")
                && w[1].kind == Kind::Symbol(Symbol::LParen)
        }) else {
            return Vec::new();
        };
        let mut names = Vec::new();
        let mut depth = 0usize;
        let mut starts = true;
        for t in &tokens[open + 2..] {
            if depth == 0 && starts {
                if let Kind::Word { quote, .. } = t.kind {
                    names.push(Ident {
                        value: t.value(self.sql).into_owned(),
                        quote: quote.map(char::from),
                        span: Span {
                            start: t.start - self.base,
                            end: t.end - self.base,
                        },
                    });
                }
            }
            starts = false;
            match t.kind {
                Kind::Symbol(Symbol::LParen | Symbol::LBracket) => depth += 1,
                Kind::Symbol(Symbol::RParen | Symbol::RBracket) if depth == 0 => break,
                Kind::Symbol(Symbol::RParen | Symbol::RBracket) => depth -= 1,
                Kind::Symbol(Symbol::Comma) if depth == 0 => starts = true,
                Kind::Word { quote: None, .. }
                    if depth == 0 && t.text(self.sql).eq_ignore_ascii_case("for") =>
                {
                    break
                }
                _ => {}
            }
        }
        names
    }

    /// `[AS] a (x, …)` as a name and its column names.
    fn alias_with_columns(
        &self,
        alias: &Option<sp::TableAlias>,
    ) -> Conv<(Option<Ident>, Vec<Ident>)> {
        match alias {
            None => Ok((None, Vec::new())),
            Some(a) if a.at.is_none() => Ok((
                Some(self.ident(&a.name)),
                a.columns
                    .iter()
                    .map(|c| match c.data_type {
                        None => Ok(self.ident(&c.name)),
                        Some(_) => outside(c),
                    })
                    .collect::<Conv<_>>()?,
            )),
            Some(other) => outside(other),
        }
    }

    fn alias(&self, a: &Option<sp::TableAlias>) -> Conv<Option<Ident>> {
        match a {
            None => Ok(None),
            Some(a) if a.columns.is_empty() && a.at.is_none() => Ok(Some(self.ident(&a.name))),
            Some(other) => outside(other),
        }
    }

    fn factor(&self, f: &sp::TableFactor) -> Conv<TableFactor> {
        match f {
            sp::TableFactor::Table {
                name,
                alias,
                args: None,
                with_hints,
                version,
                with_ordinality: false,
                partitions,
                json_path: None,
                sample,
                index_directives,
                inheritance: None,
            } if with_hints.is_empty() && partitions.is_empty() && index_directives.is_empty() => {
                let sample = match sample {
                    None => None,
                    Some(
                        sp::TableSampleKind::AfterTableAlias(s)
                        | sp::TableSampleKind::BeforeTableAlias(s),
                    ) => match &**s {
                        sp::TableSample {
                            modifier: sp::TableSampleModifier::TableSample,
                            name: Some(method),
                            quantity:
                                Some(sp::TableSampleQuantity {
                                    parenthesized: true,
                                    value,
                                    unit: None,
                                }),
                            seed: None,
                            bucket: None,
                            offset: None,
                        } => Some(Box::new(TableSample {
                            method: match method {
                                sp::TableSampleMethod::Bernoulli => SampleMethod::Bernoulli,
                                sp::TableSampleMethod::System => SampleMethod::System,
                                other => return outside(other),
                            },
                            percentage: self.expr(value)?,
                        })),
                        other => return outside(other),
                    },
                };
                Ok(TableFactor::Table {
                    sample,
                    name: self.name(name)?,
                    version: match version {
                        None => None,
                        Some(sp::TableVersion::VersionAsOf(e)) => {
                            Some(TableVersion::Version(self.expr(e)?))
                        }
                        Some(sp::TableVersion::TimestampAsOf(e)) => {
                            Some(TableVersion::Timestamp(self.expr(e)?))
                        }
                        Some(sp::TableVersion::ForSystemTimeAsOf(e)) => {
                            Some(TableVersion::SystemTime(self.expr(e)?))
                        }
                        Some(other) => return outside(other),
                    },
                    alias: self.alias(alias)?,
                })
            }
            sp::TableFactor::Derived {
                lateral: false,
                subquery,
                alias,
                sample: None,
            } if values_only(subquery).is_some() => {
                let rows = values_only(subquery)
                    .into_iter()
                    .flat_map(|v| &v.rows)
                    .map(|r| self.row(r))
                    .collect::<Conv<_>>()?;
                let (alias, columns) = self.alias_with_columns(alias)?;
                Ok(TableFactor::Values {
                    rows,
                    alias,
                    columns,
                })
            }
            sp::TableFactor::Derived {
                lateral,
                subquery,
                alias,
                sample: None,
            } => {
                let (alias, columns) = self.alias_with_columns(alias)?;
                Ok(TableFactor::Derived {
                    query: Box::new(self.query(subquery)?),
                    alias,
                    columns,
                    lateral: *lateral,
                })
            }
            sp::TableFactor::TableFunction { expr, alias } => Ok(TableFactor::TableFunction {
                call: self.boxed(expr)?,
                alias: self.alias(alias)?,
            }),
            // Trino's `UNNEST(…)` and Spark's table-valued functions: sqlparser reads a
            // table with arguments.
            sp::TableFactor::Table {
                name,
                alias,
                args:
                    Some(sp::TableFunctionArgs {
                        args,
                        settings: None,
                    }),
                with_hints,
                version: None,
                with_ordinality,
                partitions,
                json_path: None,
                sample: None,
                index_directives,
                inheritance: None,
            } if with_hints.is_empty() && partitions.is_empty() && index_directives.is_empty() => {
                let args = args
                    .iter()
                    .map(|a| match a {
                        sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(e)) => self.expr(e),
                        other => outside(other),
                    })
                    .collect::<Conv<_>>()?;
                let (alias, columns) = self.alias_with_columns(alias)?;
                Ok(TableFactor::TableValued {
                    name: self.name(name)?,
                    args,
                    ordinality: *with_ordinality,
                    alias,
                    columns,
                })
            }
            other => outside(other),
        }
    }

    fn join(&self, j: &sp::Join) -> Conv<Join> {
        use sp::JoinOperator as J;
        if j.global {
            return outside(j);
        }
        let (kind, constraint) = match &j.join_operator {
            J::Join(c) | J::Inner(c) => (JoinKind::Inner, c),
            J::Left(c) | J::LeftOuter(c) => (JoinKind::Left, c),
            J::Right(c) | J::RightOuter(c) => (JoinKind::Right, c),
            J::FullOuter(c) => (JoinKind::Full, c),
            J::CrossJoin(c) => (JoinKind::Cross, c),
            // Spark reads `SEMI JOIN` as `LEFT SEMI JOIN`, and so does ours.
            J::LeftSemi(c) | J::Semi(c) => (JoinKind::LeftSemi, c),
            J::LeftAnti(c) | J::Anti(c) => (JoinKind::LeftAnti, c),
            other => return outside(other),
        };
        let constraint = match constraint {
            sp::JoinConstraint::On(e) => JoinConstraint::On(self.expr(e)?),
            sp::JoinConstraint::Using(names) => JoinConstraint::Using(
                names
                    .iter()
                    .map(|n| match self.name(n)?.as_slice() {
                        [one] => Ok(one.clone()),
                        _ => outside(n),
                    })
                    .collect::<Conv<_>>()?,
            ),
            sp::JoinConstraint::None => JoinConstraint::None,
            sp::JoinConstraint::Natural => JoinConstraint::Natural,
            other => return outside(other),
        };
        Ok(Join {
            kind,
            relation: self.factor(&j.relation)?,
            constraint,
        })
    }

    fn window_spec(
        &self,
        partition_by: &[sp::Expr],
        order_by: &[sp::OrderByExpr],
        frame: Option<&sp::WindowFrame>,
    ) -> Conv<Window> {
        Ok(Window {
            partition_by: self.exprs(partition_by)?,
            order_by: order_by
                .iter()
                .map(|o| self.order_by_item(o))
                .collect::<Conv<_>>()?,
            frame: frame
                .map(|f| self.window_frame(f).map(Box::new))
                .transpose()?,
            name: None,
        })
    }

    fn function(&self, f: &sp::Function) -> Conv<Function> {
        let plain = matches!(f.parameters, sp::FunctionArguments::None)
            && !f.uses_odbc_syntax
            && f.null_treatment.is_none();
        if !plain {
            return outside(f);
        }
        let mut order_by = Vec::new();
        let args = match &f.args {
            sp::FunctionArguments::None => FunctionArgs::None,
            sp::FunctionArguments::List(l)
                if matches!(
                    l.clauses.as_slice(),
                    [] | [sp::FunctionArgumentClause::OrderBy(_)]
                ) =>
            {
                if let [sp::FunctionArgumentClause::OrderBy(items)] = l.clauses.as_slice() {
                    order_by = items
                        .iter()
                        .map(|o| self.order_by_item(o))
                        .collect::<Conv<_>>()?;
                }
                let distinct = match l.duplicate_treatment {
                    None => false,
                    Some(sp::DuplicateTreatment::Distinct) => true,
                    Some(other) => return outside(other),
                };
                match l.args.as_slice() {
                    [sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Wildcard)] if !distinct => {
                        FunctionArgs::Star
                    }
                    args => FunctionArgs::List {
                        distinct,
                        args: args
                            .iter()
                            .map(|a| match a {
                                sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(e)) => {
                                    self.expr(e)
                                }
                                other => outside(other),
                            })
                            .collect::<Conv<_>>()?,
                    },
                }
            }
            other => return outside(other),
        };
        let over = match &f.over {
            None => None,
            Some(sp::WindowType::WindowSpec(sp::WindowSpec {
                window_name: None,
                partition_by,
                order_by,
                window_frame,
            })) => Some(Box::new(self.window_spec(
                partition_by,
                order_by,
                window_frame.as_ref(),
            )?)),
            Some(sp::WindowType::NamedWindow(name)) => Some(Box::new(Window {
                partition_by: Vec::new(),
                order_by: Vec::new(),
                frame: None,
                name: Some(self.ident(name)),
            })),
            Some(other) => return outside(other),
        };
        Ok(Function {
            name: self.name(&f.name)?,
            args,
            filter: f.filter.as_deref().map(|x| self.boxed(x)).transpose()?,
            over,
            ordering: CallOrdering::of(
                order_by,
                f.within_group
                    .iter()
                    .map(|o| self.order_by_item(o))
                    .collect::<Conv<_>>()?,
            ),
        })
    }

    fn window_frame(&self, f: &sp::WindowFrame) -> Conv<WindowFrame> {
        Ok(WindowFrame {
            units: match f.units {
                sp::WindowFrameUnits::Rows => FrameUnits::Rows,
                sp::WindowFrameUnits::Range => FrameUnits::Range,
                sp::WindowFrameUnits::Groups => FrameUnits::Groups,
            },
            start: self.frame_bound(&f.start_bound)?,
            end: f
                .end_bound
                .as_ref()
                .map(|b| self.frame_bound(b))
                .transpose()?,
        })
    }

    fn frame_bound(&self, b: &sp::WindowFrameBound) -> Conv<FrameBound> {
        let offset = |e: &Option<Box<sp::Expr>>| e.as_deref().map(|x| self.boxed(x)).transpose();
        Ok(match b {
            sp::WindowFrameBound::CurrentRow => FrameBound::CurrentRow,
            sp::WindowFrameBound::Preceding(e) => FrameBound::Preceding(offset(e)?),
            sp::WindowFrameBound::Following(e) => FrameBound::Following(offset(e)?),
        })
    }

    pub(super) fn ty(&self, t: &sp::DataType) -> Conv<DataType> {
        use sp::DataType as T;
        // Which brackets a grammar takes is ours to check (see `DELIBERATE`).
        let check = Ok::<Brackets, Miss>;
        Ok(match t {
            T::Array(sp::ArrayElemTypeDef::Parenthesis(e)) => {
                DataType::Array(Box::new(self.ty(e)?), check(Brackets::Parentheses)?)
            }
            T::Array(sp::ArrayElemTypeDef::AngleBracket(e)) => {
                DataType::Array(Box::new(self.ty(e)?), check(Brackets::Angle)?)
            }
            T::Map(k, v, kind) => DataType::Map(
                Box::new(self.ty(k)?),
                Box::new(self.ty(v)?),
                check(match kind {
                    sp::MapBracketKind::Parentheses => Brackets::Parentheses,
                    sp::MapBracketKind::AngleBrackets => Brackets::Angle,
                    sp::MapBracketKind::ParenthesesNotNull => return outside(t),
                })?,
            ),
            T::Struct(fields, kind) => DataType::Row(
                fields
                    .iter()
                    .map(|f| match (&f.field_name, &f.options) {
                        (Some(n), None) => Ok(Field {
                            name: self.ident(n),
                            ty: self.ty(&f.field_type)?,
                        }),
                        _ => outside(f),
                    })
                    .collect::<Conv<_>>()?,
                check(match kind {
                    sp::StructBracketKind::Parentheses => Brackets::Parentheses,
                    sp::StructBracketKind::AngleBrackets => Brackets::Angle,
                })?,
            ),
            T::Array(_) | T::Tuple(_) | T::Nested(_) | T::Union(_) | T::Enum(..) => {
                return outside(t)
            }
            // Every other type prints as `NAME[(n, …)][ WITH[OUT] TIME ZONE]`.
            named => {
                named_type(&named.to_string()).ok_or_else(|| Miss::Outside(named.to_string()))?
            }
        })
    }
}

/// The rows of a query that is only `VALUES (…), …`.
fn values_only(q: &sp::Query) -> Option<&sp::Values> {
    match q.body.as_ref() {
        sp::SetExpr::Values(v)
            if q.with.is_none()
                && q.order_by.is_none()
                && q.limit_clause.is_none()
                && q.fetch.is_none()
                && q.locks.is_empty()
                && q.for_clause.is_none()
                && q.settings.is_none()
                && q.format_clause.is_none()
                && q.pipe_operators.is_empty()
                && !v.explicit_row
                && !v.value_keyword =>
        {
            Some(v)
        }
        _ => None,
    }
}

/// `NAME[(n, …)][ WITH[OUT] TIME ZONE]` as our named type.
fn named_type(text: &str) -> Option<DataType> {
    let lower = text.to_ascii_lowercase();
    let (rest, time_zone) = if let Some(r) = lower.strip_suffix(" with time zone") {
        (r, TimeZone::With)
    } else if let Some(r) = lower.strip_suffix(" without time zone") {
        (r, TimeZone::Without)
    } else {
        (lower.as_str(), TimeZone::None)
    };
    let (name, params) = match rest.split_once('(') {
        Some((n, p)) => (
            n,
            p.strip_suffix(')')?
                .split(',')
                .map(|x| x.trim().parse().ok())
                .collect::<Option<Vec<u64>>>()?,
        ),
        None => (rest, Vec::new()),
    };
    let word = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    word.then(|| DataType::Named {
        name: name.to_string(),
        params,
        time_zone,
    })
}

/// Statements.
impl Converter<'_> {
    pub(super) fn statement(&self, s: &sp::Statement) -> Conv<Statement> {
        match s {
            sp::Statement::Query(q) => Ok(Statement::Query(Box::new(self.query(q)?))),
            sp::Statement::Insert(i) => self.insert(i).map(Statement::Insert),
            sp::Statement::Update(u) => self.update(u).map(Statement::Update),
            sp::Statement::Delete(d) => self.delete(d).map(Statement::Delete),
            sp::Statement::Merge(m) => self.merge(m).map(Statement::Merge),
            sp::Statement::OptimizeTable {
                name,
                has_table_keyword: false,
                on_cluster: None,
                partition: None,
                include_final: false,
                deduplicate: None,
                predicate,
                zorder: None,
            } if self.is_alter() => self.trino_execute(name, "optimize", predicate.as_ref()),
            sp::Statement::OptimizeTable {
                name,
                has_table_keyword: false,
                on_cluster: None,
                partition: None,
                include_final: false,
                deduplicate: None,
                predicate,
                zorder: None,
            } => Ok(Statement::Optimize {
                table: self.name(name)?,
                predicate: predicate.as_ref().map(|e| self.expr(e)).transpose()?,
            }),
            sp::Statement::Vacuum(sp::VacuumStatement {
                full: false,
                sort_only: false,
                delete_only: false,
                reindex: false,
                recluster: false,
                table_name: Some(name),
                threshold: None,
                boost: false,
            }) if self.is_alter() => self.trino_execute(name, "expire_snapshots", None),
            sp::Statement::Vacuum(sp::VacuumStatement {
                full: false,
                sort_only: false,
                delete_only: false,
                reindex: false,
                recluster: false,
                table_name: Some(name),
                threshold: None,
                boost: false,
            }) => Ok(Statement::Vacuum {
                table: self.name(name)?,
            }),
            sp::Statement::Unload {
                query: Some(query),
                query_text: None,
                to,
                auth: None,
                with,
                options,
            } if to.quote_style == Some('\'') && options.is_empty() => Ok(Statement::Unload {
                query: Box::new(self.query(query)?),
                to: Literal {
                    value: LiteralValue::String {
                        form: StringForm::Single,
                        value: to.value.clone(),
                    },
                    span: self.span(to.span),
                },
                with: self.properties(with)?,
            }),
            sp::Statement::CreateTable(c)
                if !c.columns.is_empty()
                    || c.hive_formats.is_some()
                    || c.partition_by.is_some()
                    || c.query.is_none() =>
            {
                self.create_table(c)
            }
            sp::Statement::CreateTable(c) => self.create_table_as(c),
            sp::Statement::AlterTable(a) => self.alter_table(a),
            sp::Statement::Call(f) => self.call(f),
            other => self.ddl(other),
        }
    }

    /// The statements on tables, views and databases whose sqlparser nodes mean what
    /// ours do (the hooks map `CREATE TABLE` and `ALTER TABLE` onto nodes of other
    /// meanings, which are not converted).
    fn ddl(&self, s: &sp::Statement) -> Conv<Statement> {
        match s {
            sp::Statement::Drop {
                object_type,
                if_exists,
                names,
                cascade,
                restrict: false,
                purge,
                temporary: false,
                table: None,
            } => {
                let [name] = names.as_slice() else {
                    return outside(names);
                };
                let name = self.name(name)?;
                let object = match object_type {
                    sp::ObjectType::Table => DropObject::Table,
                    sp::ObjectType::View => DropObject::View,
                    // The Trino hook reads `DROP SCHEMA` as a DROP DATABASE.
                    sp::ObjectType::Database | sp::ObjectType::Schema => {
                        if self.word_before("SCHEMA", &name) {
                            DropObject::Schema
                        } else {
                            DropObject::Database
                        }
                    }
                    other => return outside(other),
                };
                Ok(Statement::Drop {
                    object,
                    if_exists: *if_exists,
                    name,
                    purge: *purge,
                    cascade: *cascade,
                })
            }
            sp::Statement::ShowCreate {
                obj_type: sp::ShowCreateObject::Table,
                obj_name,
            } => Ok(Statement::ShowCreateTable {
                table: self.name(obj_name)?,
            }),
            sp::Statement::ExplainTable {
                describe_alias: sp::DescribeAlias::Describe,
                hive_format,
                has_table_keyword: false,
                table_name,
            } => Ok(Statement::Describe {
                formatted: match hive_format {
                    None => false,
                    Some(sp::HiveDescribeFormat::Formatted) => true,
                    Some(other) => return outside(other),
                },
                table: self.name(table_name)?,
            }),
            sp::Statement::ShowTables {
                terse: false,
                history: false,
                extended: false,
                full: false,
                external: false,
                show_options:
                    sp::ShowStatementOptions {
                        show_in,
                        starts_with: None,
                        limit: None,
                        limit_from: None,
                        filter_position,
                    },
            } => {
                let database = match show_in {
                    None => None,
                    Some(sp::ShowStatementIn {
                        clause: sp::ShowStatementInClause::IN,
                        parent_type: None,
                        parent_name: Some(name),
                    }) => Some(self.name(name)?),
                    Some(other) => return outside(other),
                };
                let (pattern, like) = match filter_position {
                    None => (None, false),
                    Some(sp::ShowStatementFilterPosition::Suffix(
                        sp::ShowStatementFilter::NoKeyword(p),
                    )) => (Some(p), false),
                    Some(sp::ShowStatementFilterPosition::Suffix(
                        sp::ShowStatementFilter::Like(p),
                    )) => (Some(p), true),
                    Some(other) => return outside(other),
                };
                // The Trino hook keeps no `ESCAPE`; sqlparser keeps no string's span.
                if self.sql.to_ascii_uppercase().contains("ESCAPE") {
                    return outside("ESCAPE");
                }
                let after = database
                    .as_ref()
                    .and_then(|d| d.last())
                    .map_or(0, |i| i.span.end);
                let pattern = match pattern {
                    Some(p) => Some(self.string_after(after, p)?),
                    None => None,
                };
                Ok(Statement::ShowTables {
                    database,
                    pattern,
                    like,
                    escape: None,
                })
            }
            sp::Statement::CreateView(v) => {
                let plain = !v.or_alter
                    && !v.materialized
                    && !v.secure
                    && !v.name_before_not_exists
                    && v.columns.is_empty()
                    && v.options == sp::CreateTableOptions::None
                    && v.cluster_by.is_empty()
                    && v.comment.is_none()
                    && !v.with_no_schema_binding
                    && !v.if_not_exists
                    && !v.temporary
                    && !v.copy_grants
                    && v.to.is_none()
                    && v.params.is_none();
                if !plain {
                    return outside(v);
                }
                Ok(Statement::CreateView {
                    or_replace: v.or_replace,
                    name: self.name(&v.name)?,
                    query: Box::new(self.query(&v.query)?),
                })
            }
            sp::Statement::CreateDatabase {
                db_name,
                if_not_exists,
                location,
                comment,
                ..
            } => {
                if *s
                    != crate::validate::oracle::hooks::create_database_statement(
                        db_name.clone(),
                        *if_not_exists,
                        comment.clone(),
                        location.clone(),
                    )
                {
                    return outside(s);
                }
                let name = self.name(db_name)?;
                let schema = self.word_before("SCHEMA", &name);
                // Trino's `WITH (location = '…')` is read as a location by its hook.
                if schema && location.is_some() {
                    return outside("CREATE SCHEMA … WITH (…)");
                }
                let after = name.last().map_or(0, |i| i.span.end);
                Ok(Statement::CreateDatabase {
                    schema,
                    if_not_exists: *if_not_exists,
                    comment: match comment {
                        Some(c) => Some(self.string_after(after, c)?),
                        None => None,
                    },
                    location: match location {
                        Some(l) => Some(self.string_after(after, l)?),
                        None => None,
                    },
                    name,
                    with: Vec::new(),
                })
            }
            other => outside(other),
        }
    }

    /// `CREATE [EXTERNAL] TABLE`, `CREATE TEMPORARY VIEW`, as the hooks map them: every
    /// other field as a plain CREATE TABLE of that name has it. The clauses come in
    /// Hive's order (sqlparser keeps none; `compare_trees` orders ours alike).
    fn create_table(&self, c: &sp::CreateTable) -> Conv<Statement> {
        use sqlparser::ast::helpers::stmt_create_table::CreateTableBuilder;
        let plain = CreateTableBuilder::new(c.name.clone())
            .if_not_exists(c.if_not_exists)
            .external(c.external)
            .temporary(c.temporary)
            .columns(c.columns.clone())
            .partition_by(c.partition_by.clone())
            .hive_formats(c.hive_formats.clone())
            .table_options(c.table_options.clone())
            .comment_after_column_def(c.comment.clone())
            .query(c.query.clone())
            .build();
        if plain != *c {
            return outside(c);
        }
        let name = self.name(&c.name)?;
        let object = match (c.external, c.temporary) {
            (false, false) => CreateObject::Table,
            (true, false) => CreateObject::ExternalTable,
            (false, true) => CreateObject::TemporaryView,
            _ => return outside(c),
        };
        let columns = c
            .columns
            .iter()
            .map(|col| self.column_def(col))
            .collect::<Conv<Vec<_>>>()?;
        let after = columns
            .last()
            .map(|col| {
                col.comment
                    .as_ref()
                    .map_or(col.name.span.end, |c| c.span.end)
            })
            .or_else(|| name.last().map(|i| i.span.end))
            .unwrap_or(0);
        // The Trino hook keeps no table COMMENT: a `COMMENT` word beyond the columns'
        // has no counterpart in sqlparser's tree.
        let comment_words = self
            .sql
            .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
            .filter(|w| w.eq_ignore_ascii_case("COMMENT"))
            .count();
        let column_comments = columns.iter().filter(|col| col.comment.is_some()).count();
        if c.comment.is_none() && comment_words > column_comments {
            return outside("a table COMMENT the hook does not keep");
        }
        let mut clauses = Vec::new();
        let mut options = Vec::new();
        if let Some(comment) = &c.comment {
            let sp::CommentDef::WithoutEq(text) = comment else {
                return outside(comment);
            };
            clauses.push(TableClause::Comment(self.string_after(after, text)?));
        }
        if let Some(partition_by) = &c.partition_by {
            let sp::Expr::Tuple(fields) = partition_by.as_ref() else {
                return outside(partition_by);
            };
            clauses.push(TableClause::PartitionedBy(self.exprs(fields)?));
        }
        if let Some(formats) = &c.hive_formats {
            if formats.row_format.is_some() || formats.serde_properties.is_some() {
                return outside(formats);
            }
            match &formats.storage {
                None => {}
                Some(sp::HiveIOFormat::Using { format }) => {
                    clauses.push(TableClause::Using(self.ident(format)));
                }
                Some(sp::HiveIOFormat::FileFormat {
                    format: sp::FileFormat::PARQUET,
                }) => clauses.push(TableClause::StoredAs(self.word_after(after, "PARQUET")?)),
                Some(other) => return outside(other),
            }
            match (&formats.location, object) {
                (None, _) => {}
                (Some(path), CreateObject::TemporaryView) => {
                    options.push((
                        self.word_after(after, "path")?,
                        self.string_after(after, path)?,
                    ));
                }
                (Some(location), _) => {
                    clauses.push(TableClause::Location(self.string_after(after, location)?));
                }
            }
        }
        match &c.table_options {
            sp::CreateTableOptions::None => {}
            sp::CreateTableOptions::TableProperties(props) => {
                clauses.push(TableClause::TblProperties(self.string_pairs(props)?));
            }
            sp::CreateTableOptions::With(props) => {
                clauses.push(TableClause::With(self.properties(props)?));
            }
            other => return outside(other),
        }
        if !options.is_empty() {
            clauses.push(TableClause::Options(options));
        }
        let query = match &c.query {
            Some(q) => Some(Box::new(self.query(q)?)),
            None => None,
        };
        Ok(Statement::CreateTable(CreateTable {
            object,
            if_not_exists: c.if_not_exists,
            name,
            columns,
            clauses,
            query,
        }))
    }

    /// `name type [NOT NULL] [COMMENT '…']`.
    fn column_def(&self, c: &sp::ColumnDef) -> Conv<ColumnDef> {
        let name = self.ident(&c.name);
        let mut not_null = false;
        let mut comment = None;
        for o in &c.options {
            match (&o.name, &o.option) {
                (None, sp::ColumnOption::NotNull) if !not_null => not_null = true,
                (None, sp::ColumnOption::Comment(text)) if comment.is_none() => {
                    comment = Some(self.string_after(name.span.end, text)?);
                }
                _ => return outside(o),
            }
        }
        Ok(ColumnDef {
            name,
            ty: self.ty(&c.data_type)?,
            not_null,
            comment,
        })
    }

    /// `'k'='v', …` of `TBLPROPERTIES`.
    fn string_pairs(&self, props: &[sp::SqlOption]) -> Conv<Vec<(Literal, Literal)>> {
        props
            .iter()
            .map(|o| match o {
                sp::SqlOption::KeyValue { key, value } => {
                    let key = match key.0.as_slice() {
                        [sp::ObjectNamePart::Identifier(i)] if i.quote_style == Some('\'') => {
                            Literal {
                                value: LiteralValue::String {
                                    form: StringForm::Single,
                                    value: i.value.clone(),
                                },
                                span: self.span(i.span),
                            }
                        }
                        _ => return outside(key),
                    };
                    match &self.expr(value)? {
                        Expr::Literal(
                            v @ Literal {
                                value: LiteralValue::String { .. },
                                ..
                            },
                        ) => Ok((key, v.clone())),
                        _ => outside(value),
                    }
                }
                other => outside(other),
            })
            .collect()
    }

    /// `ALTER TABLE t action`, as the hooks map each action.
    fn alter_table(&self, a: &sp::AlterTable) -> Conv<Statement> {
        if a.if_exists
            || a.only
            || a.location.is_some()
            || a.on_cluster.is_some()
            || a.table_type.is_some()
        {
            return outside(a);
        }
        let table = self.name(&a.name)?;
        fn add(o: &sp::AlterTableOperation) -> Option<(bool, &sp::ColumnDef)> {
            match o {
                sp::AlterTableOperation::AddColumn {
                    column_keyword,
                    if_not_exists: false,
                    column_def,
                    column_position: None,
                } => Some((*column_keyword, column_def)),
                _ => None,
            }
        }
        let action = match a.operations.as_slice() {
            ops if !ops.is_empty() && ops.iter().all(|o| add(o).is_some_and(|(k, _)| !k)) => {
                AlterAction::AddColumns(
                    ops.iter()
                        .filter_map(add)
                        .map(|(_, c)| self.column_def(c))
                        .collect::<Conv<_>>()?,
                )
            }
            [one] => match one {
                sp::AlterTableOperation::AddColumn {
                    column_keyword: true,
                    if_not_exists: false,
                    column_def,
                    column_position: None,
                } => AlterAction::AddColumn(self.column_def(column_def)?),
                sp::AlterTableOperation::DropColumn {
                    has_column_keyword: true,
                    column_names,
                    if_exists: false,
                    drop_behavior: None,
                } => match column_names.as_slice() {
                    [c] => AlterAction::DropColumn(self.ident(c)),
                    _ => return outside(one),
                },
                sp::AlterTableOperation::ChangeColumn {
                    old_name,
                    new_name,
                    data_type,
                    options,
                    column_position: None,
                } => {
                    let new = self.ident(new_name);
                    let comment = match options.as_slice() {
                        [] => None,
                        [sp::ColumnOption::Comment(text)] => {
                            Some(self.string_after(new.span.end, text)?)
                        }
                        _ => return outside(one),
                    };
                    AlterAction::ChangeColumn {
                        old: self.ident(old_name),
                        new,
                        ty: self.ty(data_type)?,
                        comment,
                    }
                }
                sp::AlterTableOperation::RenameColumn {
                    old_column_name,
                    new_column_name,
                } => AlterAction::RenameColumn {
                    old: self.ident(old_column_name),
                    new: self.ident(new_column_name),
                },
                sp::AlterTableOperation::AlterColumn {
                    column_name,
                    op:
                        sp::AlterColumnOperation::SetDataType {
                            data_type,
                            using: None,
                            ..
                        },
                } => AlterAction::AlterColumnType {
                    column: self.ident(column_name),
                    ty: self.ty(data_type)?,
                },
                sp::AlterTableOperation::RenameTable {
                    table_name: sp::RenameTableNameKind::To(to),
                } => AlterAction::RenameTo(self.name(to)?),
                sp::AlterTableOperation::SetTblProperties { table_properties } => {
                    AlterAction::SetTblProperties(self.string_pairs(table_properties)?)
                }
                sp::AlterTableOperation::ResetOptions { options } => {
                    AlterAction::UnsetTblProperties(
                        options
                            .iter()
                            .map(|o| match o.0.as_slice() {
                                [sp::ObjectNamePart::Identifier(i)]
                                    if i.quote_style == Some('\'') =>
                                {
                                    Ok(Literal {
                                        value: LiteralValue::String {
                                            form: StringForm::Single,
                                            value: i.value.clone(),
                                        },
                                        span: self.span(i.span),
                                    })
                                }
                                _ => outside(o),
                            })
                            .collect::<Conv<_>>()?,
                    )
                }
                other => return outside(other),
            },
            other => return outside(other),
        };
        Ok(Statement::AlterTable { table, action })
    }

    /// The word `word` (any case, unquoted) that comes first after byte `after`, as
    /// written.
    fn word_after(&self, after: usize, word: &str) -> Conv<Ident> {
        let rest = self.sql.get(after..).unwrap_or("");
        let lower = rest.to_ascii_lowercase();
        let target = word.to_ascii_lowercase();
        let mut from = 0;
        while let Some(at) = lower[from..].find(&target) {
            let start = from + at;
            let end = start + target.len();
            let bounded =
                |i: Option<u8>| i.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == b'_'));
            let before = start.checked_sub(1).map(|i| lower.as_bytes()[i]);
            if bounded(before) && bounded(lower.as_bytes().get(end).copied()) {
                return Ok(Ident {
                    value: rest[start..end].to_string(),
                    quote: None,
                    span: Span {
                        start: after + start,
                        end: after + end,
                    },
                });
            }
            from = end;
        }
        outside(format!("no word {word} after {after}"))
    }

    /// Whether the statement is an `ALTER TABLE` (Trino's hook maps `ALTER TABLE …
    /// EXECUTE` onto sqlparser's OPTIMIZE and VACUUM).
    fn is_alter(&self) -> bool {
        self.sql
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("ALTER"))
    }

    /// Trino's `ALTER TABLE t EXECUTE procedure [WHERE p]`: the hook keeps neither the
    /// procedure's name nor its arguments, so only a call without arguments converts.
    fn trino_execute(
        &self,
        table: &sp::ObjectName,
        procedure: &str,
        predicate: Option<&sp::Expr>,
    ) -> Conv<Statement> {
        let table = self.name(table)?;
        let after = table.last().map_or(0, |i| i.span.end);
        let procedure = self.word_after(after, procedure)?;
        if self.sql[procedure.span.end..].trim_start().starts_with('(') {
            return outside("the arguments of a Trino table procedure");
        }
        Ok(Statement::AlterTable {
            table,
            action: AlterAction::Execute {
                procedure,
                args: Vec::new(),
                predicate: predicate.map(|p| self.expr(p)).transpose()?,
            },
        })
    }

    /// Whether the unquoted word `word` comes before the name `name` in the text.
    fn word_before(&self, word: &str, name: &[Ident]) -> bool {
        let start = name.first().map_or(0, |i| i.span.start);
        self.sql[..start]
            .split_whitespace()
            .any(|w| w.eq_ignore_ascii_case(word))
    }

    /// The `'…'` string of value `value` that comes first after byte `after` (sqlparser
    /// keeps no span of the strings of these statements).
    fn string_after(&self, after: usize, value: &str) -> Conv<Literal> {
        // Written with quotes doubled (a backslash escape is not looked for).
        let quoted = format!("'{}'", value.replace('\'', "''"));
        self.sql
            .get(after..)
            .and_then(|rest| rest.find(&quoted))
            .map(|at| Literal {
                value: LiteralValue::String {
                    form: StringForm::Single,
                    value: value.to_string(),
                },
                span: Span {
                    start: after + at,
                    end: after + at + quoted.len(),
                },
            })
            .ok_or_else(|| Miss::Outside(format!("no string {value:?} after {after}")))
    }

    /// `CREATE TABLE t [WITH (…)] AS query`: every other field as a plain CREATE TABLE
    /// of that name has it.
    fn create_table_as(&self, c: &sp::CreateTable) -> Conv<Statement> {
        use sqlparser::ast::helpers::stmt_create_table::CreateTableBuilder;
        let mut rest = c.clone();
        rest.query = None;
        rest.table_options = sp::CreateTableOptions::None;
        rest.with_data = None;
        let data = match &c.with_data {
            None => None,
            Some(sp::WithData {
                data,
                statistics: None,
            }) => Some(*data),
            Some(other) => return outside(other),
        };
        let (true, Some(query)) = (
            rest == CreateTableBuilder::new(c.name.clone()).build(),
            &c.query,
        ) else {
            return outside(c);
        };
        let with = match &c.table_options {
            sp::CreateTableOptions::None => Vec::new(),
            sp::CreateTableOptions::With(options) => self.properties(options)?,
            other => return outside(other),
        };
        Ok(Statement::CreateTableAs {
            table: self.name(&c.name)?,
            with,
            query: Box::new(self.query(query)?),
            data,
        })
    }

    /// `CALL name(args)`: a plain call whose arguments are values or `name => value`.
    fn call(&self, f: &sp::Function) -> Conv<Statement> {
        let plain = matches!(f.parameters, sp::FunctionArguments::None)
            && !f.uses_odbc_syntax
            && f.within_group.is_empty()
            && f.null_treatment.is_none()
            && f.filter.is_none()
            && f.over.is_none();
        let args = match &f.args {
            sp::FunctionArguments::List(l)
                if plain && l.clauses.is_empty() && l.duplicate_treatment.is_none() =>
            {
                l.args
                    .iter()
                    .map(|a| match a {
                        sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(e)) => {
                            Ok((None, self.expr(e)?))
                        }
                        sp::FunctionArg::Named {
                            name,
                            arg: sp::FunctionArgExpr::Expr(e),
                            operator: sp::FunctionArgOperator::RightArrow,
                        } => Ok((Some(self.ident(name)), self.expr(e)?)),
                        other => outside(other),
                    })
                    .collect::<Conv<_>>()?
            }
            other => return outside(other),
        };
        Ok(Statement::Call {
            procedure: self.name(&f.name)?,
            args,
        })
    }

    fn properties(&self, options: &[sp::SqlOption]) -> Conv<Vec<Property>> {
        options
            .iter()
            .map(|o| match o {
                sp::SqlOption::KeyValue { key, value } => match self.name(key)?.as_slice() {
                    [name] => Ok(Property {
                        name: name.clone(),
                        value: self.expr(value)?,
                    }),
                    _ => outside(key),
                },
                other => outside(other),
            })
            .collect()
    }

    /// Names each of one part (`INSERT (a, b)`).
    fn simple_names(&self, names: &[sp::ObjectName]) -> Conv<Vec<Ident>> {
        names
            .iter()
            .map(|n| match self.name(n)?.as_slice() {
                [one] => Ok(one.clone()),
                _ => outside(n),
            })
            .collect()
    }

    fn row(&self, r: &sp::Parens<Vec<sp::Expr>>) -> Conv<Vec<Expr>> {
        self.exprs(&r.content)
    }

    fn insert(&self, i: &sp::Insert) -> Conv<Insert> {
        let plain = i.optimizer_hints.is_empty()
            && i.or.is_none()
            && !i.ignore
            && i.into
            && i.table_alias.is_none()
            && !i.by_name
            && !i.overwrite
            && i.assignments.is_empty()
            && i.partitioned.is_none()
            && i.after_columns.is_empty()
            && i.overriding.is_none()
            && !i.has_table_keyword
            && i.on.is_none()
            && i.returning.is_none()
            && i.output.is_none()
            && !i.replace_into
            && i.priority.is_none()
            && i.insert_alias.is_none()
            && i.settings.is_none()
            && i.format_clause.is_none();
        let (true, sp::TableObject::TableName(table), Some(source)) = (plain, &i.table, &i.source)
        else {
            return outside(i);
        };
        let source = match values_only(source) {
            Some(v) => {
                InsertSource::Values(v.rows.iter().map(|r| self.row(r)).collect::<Conv<_>>()?)
            }
            None => InsertSource::Query(Box::new(self.query(source)?)),
        };
        Ok(Insert {
            table: self.name(table)?,
            columns: self.simple_names(&i.columns)?,
            source,
        })
    }

    fn assignments(&self, a: &[sp::Assignment]) -> Conv<Vec<Assignment>> {
        a.iter()
            .map(|a| match &a.target {
                sp::AssignmentTarget::ColumnName(n) => Ok(Assignment {
                    column: self.name(n)?,
                    value: self.expr(&a.value)?,
                }),
                other => outside(other),
            })
            .collect()
    }

    /// A DML statement's table: a name and an alias, nothing joined.
    fn dml_table(&self, t: &sp::TableWithJoins) -> Conv<(Vec<Ident>, Option<Ident>)> {
        match self.factor(&t.relation)? {
            TableFactor::Table {
                name,
                version: None,
                alias,
                sample: None,
            } if t.joins.is_empty() => Ok((name, alias)),
            _ => outside(t),
        }
    }

    fn update(&self, u: &sp::Update) -> Conv<Update> {
        let plain = u.optimizer_hints.is_empty()
            && u.on_cluster.is_none()
            && u.from.is_none()
            && u.returning.is_none()
            && u.output.is_none()
            && u.or.is_none()
            && u.order_by.is_empty()
            && u.limit.is_none()
            && u.settings.is_none();
        if !plain {
            return outside(u);
        }
        let (table, alias) = self.dml_table(&u.table)?;
        Ok(Update {
            table,
            alias,
            assignments: self.assignments(&u.assignments)?,
            selection: u.selection.as_ref().map(|e| self.expr(e)).transpose()?,
        })
    }

    fn delete(&self, d: &sp::Delete) -> Conv<Delete> {
        let plain = d.optimizer_hints.is_empty()
            && d.tables.is_empty()
            && d.on_cluster.is_none()
            && d.using.is_none()
            && d.returning.is_none()
            && d.output.is_none()
            && d.order_by.is_empty()
            && d.limit.is_none()
            && d.settings.is_none();
        let (true, sp::FromTable::WithFromKeyword(tables)) = (plain, &d.from) else {
            return outside(d);
        };
        let [t] = tables.as_slice() else {
            return outside(d);
        };
        let (table, alias) = self.dml_table(t)?;
        Ok(Delete {
            table,
            alias,
            selection: d.selection.as_ref().map(|e| self.expr(e)).transpose()?,
        })
    }

    fn merge(&self, m: &sp::Merge) -> Conv<Merge> {
        if !m.optimizer_hints.is_empty() || !m.into || m.output.is_some() {
            return outside(m);
        }
        let TableFactor::Table {
            name: table,
            version: None,
            alias,
            sample: None,
        } = self.factor(&m.table)?
        else {
            return outside(&m.table);
        };
        let clauses = m
            .clauses
            .iter()
            .map(|c| {
                let (matched, by) = match c.clause_kind {
                    sp::MergeClauseKind::Matched => (true, NotMatchedBy::Unsaid),
                    sp::MergeClauseKind::NotMatched => (false, NotMatchedBy::Unsaid),
                    sp::MergeClauseKind::NotMatchedBySource => (false, NotMatchedBy::Source),
                    sp::MergeClauseKind::NotMatchedByTarget => (false, NotMatchedBy::Target),
                };
                let action = match &c.action {
                    sp::MergeAction::Update(sp::MergeUpdateExpr {
                        kind: sp::MergeUpdateKind::Set(a),
                        update_predicate: None,
                        delete_predicate: None,
                        ..
                    }) => MergeAction::Update(self.assignments(a)?),
                    sp::MergeAction::Update(sp::MergeUpdateExpr {
                        kind: sp::MergeUpdateKind::Wildcard,
                        update_predicate: None,
                        delete_predicate: None,
                        ..
                    }) => MergeAction::UpdateAll,
                    sp::MergeAction::Insert(sp::MergeInsertExpr {
                        columns,
                        kind: sp::MergeInsertKind::Wildcard,
                        insert_predicate: None,
                        ..
                    }) if columns.is_empty() => MergeAction::InsertAll,
                    sp::MergeAction::Delete { .. } => MergeAction::Delete,
                    sp::MergeAction::Insert(sp::MergeInsertExpr {
                        columns,
                        kind: sp::MergeInsertKind::Values(v),
                        insert_predicate: None,
                        ..
                    }) if !v.explicit_row && !v.value_keyword => match v.rows.as_slice() {
                        [row] => MergeAction::Insert {
                            columns: self.simple_names(columns)?,
                            values: self.row(row)?,
                        },
                        _ => return outside(v),
                    },
                    other => return outside(other),
                };
                Ok(MergeClause {
                    matched,
                    condition: c.predicate.as_ref().map(|e| self.expr(e)).transpose()?,
                    action,
                    by,
                })
            })
            .collect::<Conv<_>>()?;
        Ok(Merge {
            table,
            alias,
            source: self.factor(&m.source)?,
            on: self.expr(&m.on)?,
            clauses,
        })
    }
}
