//! Expressions, by precedence climbing.
//!
//! Binding powers, loosest first (Trino's `booleanExpression` / `predicate` /
//! `valueExpression` in SqlBase.g4, Spark's SqlBaseParser.g4):
//!
//! | power | operators |
//! |---|---|
//! | 5 | `OR` |
//! | 10 | `AND` |
//! | 15 | prefix `NOT` |
//! | 17 | `IS [NOT] NULL`, `IS [NOT] DISTINCT FROM`, `[NOT] IN`, `[NOT] BETWEEN`, `[NOT] LIKE` |
//! | 20 | `=`, `<>`, `!=`, `<`, `<=`, `>`, `>=` (and `==`, `<=>` in Spark) |
//! | 21 | `\|` (Spark) |
//! | 22 | `^` (Spark) |
//! | 23 | `&` (Spark) |
//! | 25 | `\|\|` (Trino) |
//! | 30 | `+`, `-` (and `\|\|` in Spark) |
//! | 40 | `*`, `/`, `%` (prefix `-`, `+` and Spark's `~` read their operand at this power) |
//! | 41 | `AT TIME ZONE` |
//! | 50 | `a[i]`, `(x).field` |
//!
//! Spark's shifts (`<<`, `>>`, `>>>`, between `+` and `&` in its `valueExpression`) are
//! not read: sqlparser reads none of them in the validator's Spark dialect either.
//!
//! A binary chain (`a OR b OR …`, `a + b + …`) is read in the loop of
//! [`Cursor::expr_bp`], so it costs no stack however long it is. Predicates do not
//! chain: their left operand is a value expression in both grammars (`a IS NULL IS
//! NULL` does not parse), and in Trino a comparison's left operand is one too.
//!
//! A keyword that starts a form of its own (`CASE`, `CAST`, `NOT`) is read as that
//! form first; where the form does not parse and the grammar does not reserve the word,
//! it is read again as a name, as sqlparser does (each failed form is tried once). A
//! form refused on purpose (`x NOT NULL`) is final: no other reading escapes it.

use super::ast::{
    BinaryOp, Expr, Function, FunctionArgs, Ident, Literal, LiteralValue, StringForm, TimeZone,
    UnaryOp,
};
use super::ast::{CallOrdering, OrderByItem, Quantifier, TrimSide};

/// What follows the word of a special form and its `(`.
enum Special {
    /// The form, read to its `)`.
    Form(Expr),
    /// No form: a plain call's arguments.
    Args(Vec<Expr>),
}
use super::cursor::{span, Cursor};
use super::DataType;
use crate::dialect::grammar::{TRINO_CURRENT_VALUES, TRINO_DATE_TIME_VALUES};
use crate::error::Result;
use crate::validate::lexer::{Kind, StrForm, Symbol, Token};

const OR: u8 = 5;
const AND: u8 = 10;
const NOT: u8 = 15;
const PREDICATE: u8 = 17;
const COMPARISON: u8 = 20;
const BIT_OR: u8 = 21;
const BIT_XOR: u8 = 22;
const BIT_AND: u8 = 23;
const CONCAT_TRINO: u8 = 25;
const ADDITIVE: u8 = 30;
const MULTIPLICATIVE: u8 = 40;
const AT_TIME_ZONE: u8 = 41;
const POSTFIX: u8 = 50;

/// The infix or postfix operator at the cursor.
#[derive(Clone, Copy)]
enum Infix {
    Binary(BinaryOp),
    /// `IS …`, `[NOT] IN|BETWEEN|LIKE`.
    Predicate,
    AtTimeZone,
    Subscript,
    Field,
    /// `x NOT NULL`: refused with its fix.
    NotNull,
    /// Spark's `&`, `|`, `^` or `<=>` in a grammar without them: refused with its fix.
    SparkOnly,
}

/// Spark's typed number suffixes (`5S` smallint, `1Y` tinyint, `1.5D` double, `1.5F`
/// float, `2BD` decimal); `L` is the lexer's.
const SPARK_NUMBER_SUFFIXES: &[&str] = &["S", "Y", "D", "F", "BD"];

/// The type names a typed literal (`DATE '…'`) may start with: sqlparser's reading,
/// which takes only the types it knows (Trino's grammar takes any name and fails unknown
/// ones when it analyses the statement).
const TYPED_LITERAL_TYPES: &[&str] = &[
    "date",
    "time",
    "timestamp",
    "timestamp_ntz",
    "decimal",
    "real",
    "double",
    "float",
    "bigint",
    "integer",
    "int",
    "smallint",
    "tinyint",
    "boolean",
    "varchar",
    "char",
    "varbinary",
    "json",
];

/// The words that start an expression form of their own (`CASE …`, `CAST(…)`); where
/// the form does not parse, a word the grammar does not reserve is a name (`INTERVAL`
/// and `EXISTS`, reserved by sqlparser in every dialect, are read apart).
const KEYWORD_FORMS: &[&str] = &["NOT", "CASE", "CAST", "TRY_CAST", "EXTRACT", "ARRAY"];

/// Reserved words that are also functions called with parentheses (Trino's `trim(x)`,
/// `normalize(x)` and `grouping(a, b)`, which SqlBase.g4 gives their own syntax;
/// Spark's `struct(…)`).
const RESERVED_FUNCTIONS: &[&str] = &["trim", "normalize", "struct", "grouping"];

/// Values written without parentheses besides [`DATE_TIME_CALLS`] (Trino's `CURRENT_*`
/// primaries; Spark's `currentLike`).
const CURRENT_VALUES: &[&str] = TRINO_CURRENT_VALUES;

/// The date and time values (Trino's `specialDateTimeFunction`), written without
/// parentheses or, as calls, with them (`current_timestamp(3)`; the precision is checked
/// after the parse).
const DATE_TIME_CALLS: &[&str] = TRINO_DATE_TIME_VALUES;

impl Cursor<'_> {
    /// An expression.
    pub(super) fn expr(&mut self) -> Result<Expr> {
        self.expr_bp(0)
    }

    /// One literal token (a number, a string, `?`) as an expression.
    pub(super) fn literal_value(&mut self) -> Result<Expr> {
        match self.peek(0).map(|t| t.kind) {
            Some(Kind::Number { .. } | Kind::Str { .. } | Kind::Placeholder) => {
                self.prefix(POSTFIX)
            }
            _ => Err(self.expected("a literal value")),
        }
    }

    /// An expression whose operators bind tighter than `min`.
    fn expr_bp(&mut self, min: u8) -> Result<Expr> {
        self.enter()?;
        let start = self.peek(0).map_or(self.sql.len(), |t| t.start);
        let left = self.prefix(min)?;
        let e = self.infix_loop(left, min, start)?;
        self.leave();
        Ok(e)
    }

    /// The operators after `left` (which starts at `start`) that bind tighter than
    /// `min`, applied in turn.
    fn infix_loop(&mut self, mut left: Expr, min: u8, start: usize) -> Result<Expr> {
        while let Some((op, power)) = self.infix() {
            if power <= min {
                break;
            }
            if matches!(op, Infix::Subscript | Infix::Field) && operator_result(&left) {
                // Trino's grammar (`primaryExpression '[' valueExpression ']'`,
                // `primaryExpression '.' identifier`) and sqlparser take no predicate
                // or operator's result as the base (`a IS NULL.x`): refused, not read
                // as `(a IS NULL).x`.
                return Err(self.refuse_at(
                    start,
                    "a field or subscript of an operator's result without parentheses",
                ));
            }
            left = self.infix_expr(left, op, power)?;
        }
        Ok(left)
    }

    /// The operator at the cursor and its binding power.
    fn infix(&self) -> Option<(Infix, u8)> {
        let t = self.peek(0)?;
        let binary = |op| Some((Infix::Binary(op), power_of(op, self.rules.concat_with_plus)));
        match t.kind {
            Kind::Symbol(s) => match s {
                Symbol::Eq => binary(BinaryOp::Eq),
                Symbol::DoubleEq if self.rules.double_equals => binary(BinaryOp::Eq),
                Symbol::Neq => binary(BinaryOp::NotEq),
                Symbol::Lt => binary(BinaryOp::Lt),
                Symbol::LtEq => binary(BinaryOp::LtEq),
                Symbol::Gt => binary(BinaryOp::Gt),
                Symbol::GtEq => binary(BinaryOp::GtEq),
                Symbol::Plus => binary(BinaryOp::Plus),
                Symbol::Minus => binary(BinaryOp::Minus),
                Symbol::Mul => binary(BinaryOp::Multiply),
                Symbol::Div => binary(BinaryOp::Divide),
                Symbol::Mod => binary(BinaryOp::Modulo),
                Symbol::StringConcat => binary(BinaryOp::Concat),
                Symbol::Ampersand if self.rules.bit_operators => binary(BinaryOp::BitAnd),
                Symbol::Pipe if self.rules.bit_operators => binary(BinaryOp::BitOr),
                Symbol::Caret if self.rules.bit_operators => binary(BinaryOp::BitXor),
                Symbol::Spaceship if self.rules.bit_operators => binary(BinaryOp::NullSafeEq),
                // Nothing else in the grammar takes these after an operand.
                Symbol::Ampersand | Symbol::Pipe | Symbol::Caret | Symbol::Spaceship => {
                    Some((Infix::SparkOnly, POSTFIX))
                }
                Symbol::LBracket => Some((Infix::Subscript, POSTFIX)),
                Symbol::Period => Some((Infix::Field, POSTFIX)),
                _ => None,
            },
            Kind::Word { quote: None, .. } => {
                let w = self.text(t);
                if w.eq_ignore_ascii_case("OR") {
                    binary(BinaryOp::Or)
                } else if w.eq_ignore_ascii_case("AND") {
                    binary(BinaryOp::And)
                } else if ["IS", "IN", "BETWEEN", "LIKE"]
                    .iter()
                    .any(|k| w.eq_ignore_ascii_case(k))
                    || (w.eq_ignore_ascii_case("NOT")
                        && (self.is_word(1, "IN")
                            || self.is_word(1, "BETWEEN")
                            || self.is_word(1, "LIKE")))
                    || self.spark_pattern_at(0)
                    || (w.eq_ignore_ascii_case("NOT") && self.spark_pattern_at(1))
                {
                    Some((Infix::Predicate, PREDICATE))
                } else if w.eq_ignore_ascii_case("NOT") && self.is_word(1, "NULL") {
                    Some((Infix::NotNull, PREDICATE))
                } else if w.eq_ignore_ascii_case("AT")
                    && self.is_word(1, "TIME")
                    && self.is_word(2, "ZONE")
                {
                    Some((Infix::AtTimeZone, AT_TIME_ZONE))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The operator at the cursor applied to `left`.
    fn infix_expr(&mut self, left: Expr, op: Infix, power: u8) -> Result<Expr> {
        let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
        match op {
            Infix::Binary(op) => {
                self.next();
                if power == COMPARISON {
                    self.check_predicate_operand(&left, at)?;
                    if let Some(quantifier) = self.quantifier_with_query() {
                        return self.quantified(left, op, quantifier);
                    }
                    self.no_quantifier()?;
                }
                let right = self.expr_bp(power)?;
                Ok(Expr::Binary {
                    left: Box::new(left),
                    op,
                    right: Box::new(right),
                })
            }
            Infix::Predicate => {
                self.check_predicate_operand(&left, at)?;
                self.predicate(left)
            }
            Infix::AtTimeZone => {
                self.next();
                self.next();
                self.next();
                let zone = self.expr_bp(AT_TIME_ZONE)?;
                Ok(Expr::AtTimeZone {
                    expr: Box::new(left),
                    zone: Box::new(zone),
                })
            }
            Infix::Subscript => {
                self.next();
                let index_at = self.peek(0).map_or(self.sql.len(), |t| t.start);
                let index = self.expr()?;
                // Neither grammar takes a predicate as an index (`m['k' < a]`:
                // `valueExpression` in Trino's, sqlparser reads none either).
                if predicate_index(&index) {
                    return Err(
                        self.refuse_at(index_at, "a predicate as a subscript without parentheses")
                    );
                }
                self.expect_symbol(Symbol::RBracket, "]")?;
                Ok(Expr::Subscript {
                    expr: Box::new(left),
                    index: Box::new(index),
                })
            }
            Infix::NotNull => Err(self.refuse_at(
                at,
                "`x NOT NULL` is neither Trino's nor Spark's: write `x IS NOT NULL`",
            )),
            Infix::SparkOnly => Err(self.spark_only_operator(at)),
            Infix::Field => {
                self.next();
                let field = self.ident()?;
                Ok(Expr::Field {
                    expr: Box::new(left),
                    field,
                })
            }
        }
    }

    /// The refusal of Spark's operator at `at` (`&`, `|`, `^`, `~` or `<=>`) in a
    /// grammar without it, with the form that grammar writes instead.
    fn spark_only_operator(&mut self, at: usize) -> crate::error::Error {
        let op = self.peek(0).map_or("", |t| t.text(self.sql));
        let message = if op == "<=>" {
            "`<=>` is Spark's null-safe equality: Athena and Trino write \
             `a IS NOT DISTINCT FROM b`"
                .to_string()
        } else {
            format!(
                "`{op}` is Spark's bitwise operator: Athena and Trino call bitwise_and(x, y), \
                 bitwise_or, bitwise_xor or bitwise_not"
            )
        };
        self.refuse_at(at, &message)
    }

    /// Refuses `ALL`, `ANY` or `SOME` starting a comparison's right operand but for a
    /// quantified comparison the grammar has (read before): sqlparser reads `x = ANY
    /// (…)` as a comparison with a subquery (and refuses it when the parenthesis holds
    /// no query), where this parser would take `ANY (…)` for a call or `any` for a name
    /// (Spark reserves no such word, and its `comparison` has no quantifier).
    fn no_quantifier(&mut self) -> Result<()> {
        let quantifier = ["ALL", "ANY", "SOME"].iter().any(|q| self.is_word(0, q))
            && !self.is_symbol(1, Symbol::Period)
            && !self.is_symbol(1, Symbol::Arrow);
        let message = if self.rules.quantified_comparisons {
            "a comparison with ALL, ANY or SOME takes a subquery: `x = ANY (SELECT …)`"
        } else {
            "quantified comparisons (`x = ANY (SELECT …)`) are not in this grammar: write \
             `x IN (SELECT …)` or `EXISTS (SELECT …)`"
        };
        match self.peek(0) {
            Some(t) if quantifier => {
                let at = t.start;
                Err(self.refuse_at(at, message))
            }
            _ => Ok(()),
        }
    }

    /// Refuses `left` as the left operand of a comparison or predicate where the
    /// grammar does not chain them (`at`: the operator).
    fn check_predicate_operand(&mut self, left: &Expr, at: usize) -> Result<()> {
        let predicate = matches!(
            left,
            Expr::IsNull { .. }
                | Expr::IsDistinctFrom { .. }
                | Expr::InList { .. }
                | Expr::Between { .. }
                | Expr::Like { .. }
                | Expr::IsBool { .. }
                | Expr::ILike { .. }
                | Expr::RLike { .. }
        );
        let comparison = matches!(left, Expr::Quantified { .. })
            || matches!(
                left,
                Expr::Binary {
                    op: BinaryOp::Eq
                        | BinaryOp::NotEq
                        | BinaryOp::Lt
                        | BinaryOp::LtEq
                        | BinaryOp::Gt
                        | BinaryOp::GtEq
                        | BinaryOp::NullSafeEq,
                    ..
                }
            );
        if predicate || (comparison && !self.rules.chained_comparisons) {
            return Err(self.refuse_at(
                at,
                "a comparison or predicate (IS, IN, BETWEEN, LIKE) cannot follow another \
                 without parentheses: write `(a = b) = c`",
            ));
        }
        Ok(())
    }

    /// `IS …`, `[NOT] IN (…)`, `[NOT] BETWEEN … AND …`, `[NOT] LIKE … [ESCAPE …]` after
    /// `left`.
    fn predicate(&mut self, left: Expr) -> Result<Expr> {
        let left = Box::new(left);
        if self.eat_word("IS") {
            let negated = self.eat_word("NOT");
            if self.eat_word("NULL") {
                return Ok(Expr::IsNull {
                    expr: left,
                    negated,
                });
            }
            if let Some(value) = self.boolean_after_is()? {
                return Ok(Expr::IsBool {
                    expr: left,
                    value,
                    negated,
                });
            }
            if self.eat_word("DISTINCT") {
                self.expect_word("FROM")?;
                let right = self.expr_bp(COMPARISON)?;
                return Ok(Expr::IsDistinctFrom {
                    left,
                    right: Box::new(right),
                    negated,
                });
            }
            return Err(self.expected("`NULL` or `DISTINCT FROM` after IS"));
        }
        let negated = self.eat_word("NOT");
        if self.spark_pattern_at(0) {
            return self.spark_pattern(left, negated);
        }
        if self.eat_word("IN") {
            self.expect_symbol(Symbol::LParen, "(")?;
            if self.query_at(0) {
                let query = Box::new(self.query()?);
                self.expect_symbol(Symbol::RParen, ")")?;
                return Ok(Expr::InSubquery {
                    expr: left,
                    query,
                    negated,
                });
            }
            let list = self.comma_separated(|c| c.expr())?;
            self.expect_symbol(Symbol::RParen, ")")?;
            return Ok(Expr::InList {
                expr: left,
                list,
                negated,
            });
        }
        if self.eat_word("BETWEEN") {
            let low = self.expr_bp(COMPARISON)?;
            self.expect_word("AND")?;
            let high = self.expr_bp(COMPARISON)?;
            return Ok(Expr::Between {
                expr: left,
                low: Box::new(low),
                high: Box::new(high),
                negated,
            });
        }
        self.expect_word("LIKE")?;
        self.no_like_quantifier()?;
        let pattern = self.expr_bp(COMPARISON)?;
        let escape = if self.eat_word("ESCAPE") {
            Some(Box::new(self.expr_bp(COMPARISON)?))
        } else {
            None
        };
        Ok(Expr::Like {
            expr: left,
            pattern: Box::new(pattern),
            escape,
            negated,
        })
    }

    /// `item (, item)*`.
    pub(super) fn comma_separated<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut items = vec![item(self)?];
        while self.eat_symbol(Symbol::Comma) {
            items.push(item(self)?);
        }
        Ok(items)
    }

    /// The start of an expression (`min`: the power of the operator it is an operand
    /// of).
    fn prefix(&mut self, min: u8) -> Result<Expr> {
        let Some(t) = self.peek(0).copied() else {
            return Err(self.expected("an expression"));
        };
        match t.kind {
            Kind::Number { long } => self.number(t, long),
            Kind::Str { form, .. } => {
                self.next();
                Ok(Expr::Literal(Literal {
                    value: LiteralValue::String {
                        form: string_form(form),
                        value: self.value(&t).into_owned(),
                    },
                    span: span(&t),
                }))
            }
            Kind::Placeholder if self.text(&t) == "?" => {
                self.next();
                Ok(Expr::Placeholder(span(&t)))
            }
            Kind::Placeholder => Err(self.error_at(
                t.start,
                &format!(
                    "the placeholder `{}`: our targets take only `?`",
                    self.text(&t)
                ),
            )),
            Kind::Symbol(Symbol::Minus | Symbol::Plus) => {
                self.next();
                let op = if t.kind == Kind::Symbol(Symbol::Minus) {
                    UnaryOp::Minus
                } else {
                    UnaryOp::Plus
                };
                let expr = self.expr_bp(MULTIPLICATIVE)?;
                Ok(Expr::Unary {
                    op,
                    expr: Box::new(expr),
                })
            }
            Kind::Symbol(Symbol::Tilde) if self.rules.bit_operators => {
                self.next();
                // As tight as the sign (Spark's `arithmeticUnary`): `~a * b` is `(~a) * b`.
                let expr = self.expr_bp(MULTIPLICATIVE)?;
                Ok(Expr::Unary {
                    op: UnaryOp::BitNot,
                    expr: Box::new(expr),
                })
            }
            Kind::Symbol(Symbol::Tilde) => Err(self.spark_only_operator(t.start)),
            Kind::Symbol(Symbol::LParen) => self.parenthesized(),
            Kind::Word { quote: Some(_), .. } => self.name_lambda_or_call(),
            Kind::Word { quote: None, .. } => self.word(t, min),
            _ => Err(self.expected("an expression")),
        }
    }

    /// A number literal, with Spark's type suffix glued on.
    fn number(&mut self, t: Token, long: bool) -> Result<Expr> {
        self.next();
        let mut text = self.value(&t).into_owned();
        let mut end = t.end;
        if long && !self.rules.number_suffixes {
            return Err(self.error_at(
                t.start,
                &format!("`{}`: a number with a type suffix is Spark syntax; write a plain number or a CAST", self.text(&t)),
            ));
        }
        if let Some(next) = self.peek(0).copied() {
            let runs_on = matches!(
                next.kind,
                Kind::Word { quote: None, .. } | Kind::Number { .. }
            ) && next.start == t.end;
            let suffix = self.rules.number_suffixes
                && !long
                && matches!(next.kind, Kind::Word { .. })
                && SPARK_NUMBER_SUFFIXES
                    .iter()
                    .any(|s| self.text(&next).eq_ignore_ascii_case(s));
            if runs_on && suffix {
                self.next();
                text.push_str(self.text(&next));
                end = next.end;
            } else if runs_on {
                return Err(self.error_at(
                    t.start,
                    &format!(
                        "a number directly followed by letters or digits: `{}{}`; a name \
                         cannot start with a digit (quote it), a number ends before a letter \
                         (write a space or an operator after it), and an exponent has digits \
                         (`1e5`)",
                        self.text(&t),
                        self.text(&next)
                    ),
                ));
            }
        }
        Ok(Expr::Literal(Literal {
            value: LiteralValue::Number { text, long },
            span: super::ast::Span {
                start: t.start,
                end,
            },
        }))
    }

    /// `(x)`, or a lambda's parameter list `(a, b) -> …`.
    fn parenthesized(&mut self) -> Result<Expr> {
        if self.lambda_params_follow() {
            self.next();
            let params = self.comma_separated(|c| c.ident())?;
            self.expect_symbol(Symbol::RParen, ")")?;
            return self.lambda_body(params, true);
        }
        self.next();
        if self.query_at(0) {
            let query = self.query()?;
            self.expect_symbol(Symbol::RParen, ")")?;
            return Ok(Expr::Subquery(Box::new(query)));
        }
        let inner = self.expr()?;
        if self.is_symbol(0, Symbol::Comma) {
            return self.row_value(inner);
        }
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(Expr::Nested(Box::new(inner)))
    }

    /// Whether `(name, …) ->` is at the cursor.
    fn lambda_params_follow(&self) -> bool {
        let mut n = 1;
        loop {
            if !self
                .peek(n)
                .is_some_and(|t| matches!(t.kind, Kind::Word { .. }))
            {
                return false;
            }
            n += 1;
            if self.is_symbol(n, Symbol::Comma) {
                n += 1;
                continue;
            }
            return self.is_symbol(n, Symbol::RParen) && self.is_symbol(n + 1, Symbol::Arrow);
        }
    }

    fn lambda_body(&mut self, params: Vec<super::ast::Ident>, parenthesized: bool) -> Result<Expr> {
        self.expect_symbol(Symbol::Arrow, "->")?;
        let body = self.expr()?;
        Ok(Expr::Lambda {
            params,
            parenthesized,
            body: Box::new(body),
        })
    }

    /// An expression starting with the unquoted word `t`.
    fn word(&mut self, t: Token, min: u8) -> Result<Expr> {
        let w = self.text(&t);
        let is = |kw: &str| w.eq_ignore_ascii_case(kw);
        let literal = |value| {
            Ok(Expr::Literal(Literal {
                value,
                span: span(&t),
            }))
        };
        if is("NULL") {
            self.next();
            return literal(LiteralValue::Null);
        }
        if is("TRUE") || is("FALSE") {
            self.next();
            return literal(LiteralValue::Boolean(is("TRUE")));
        }
        if is("NOT") && min > NOT {
            return Err(self.refuse_at(
                t.start,
                "NOT inside a comparison or arithmetic: parenthesise the condition, `a = (NOT b)`",
            ));
        }
        if KEYWORD_FORMS.iter().any(|k| is(k)) {
            return self.keyword_form_or_name(t);
        }
        if is("EXISTS") {
            self.next();
            return self.exists(false);
        }
        if is("INTERVAL") && self.interval_follows() {
            return self.interval();
        }
        // Not `current_user.a`: a field of such a value is no form any target writes
        // (the date and time values are read so as before).
        let date_time = DATE_TIME_CALLS.iter().any(|f| is(f));
        let current = CURRENT_VALUES.iter().any(|f| is(f));
        if (date_time || (current && !self.is_symbol(1, Symbol::Period)))
            && !self.is_symbol(1, Symbol::LParen)
        {
            self.next();
            return Ok(Expr::Function(Function {
                name: vec![self.ident_of(&t)],
                args: FunctionArgs::None,
                filter: None,
                over: None,
                ordering: None,
            }));
        }
        // A type name before a string: `DATE '2026-10-01'`, `DECIMAL '1.50'`.
        if let Some(s) = self.peek(1).copied() {
            if TYPED_LITERAL_TYPES.iter().any(|ty| is(ty))
                && matches!(
                    s.kind,
                    Kind::Str {
                        form: StrForm::Single,
                        ..
                    }
                )
            {
                self.next();
                self.next();
                let ty = DataType::Named {
                    name: w.to_ascii_lowercase(),
                    params: Vec::new(),
                    time_zone: TimeZone::None,
                };
                return Ok(Expr::Literal(Literal {
                    value: LiteralValue::Typed {
                        ty,
                        value: self.value(&s).into_owned(),
                    },
                    span: span(&s),
                }));
            }
        }
        // `current_timestamp(p)`: a call (its precision is checked after the parse).
        if self.reserved(&t)
            && !((RESERVED_FUNCTIONS.iter().any(|f| is(f))
                || DATE_TIME_CALLS.iter().any(|f| is(f))
                || (self.trino_listagg() && is("listagg")))
                && self.is_symbol(1, Symbol::LParen))
        {
            return Err(self.error_at(
                t.start,
                &format!(
                    "expected an expression, found the reserved word `{w}` (quote it to use it \
                     as a name)"
                ),
            ));
        }
        self.name_lambda_or_call()
    }

    /// The form a keyword starts (`NOT x`, `CASE …`, `CAST(…)`), or, where that fails
    /// and the grammar does not reserve the word, the word as a name or call
    /// (`SELECT case FROM t` in Spark): sqlparser's reading (`parse_prefix`), and the
    /// reading of Spark's ANTLR grammar, whose keywords are names where nothing else
    /// parses.
    fn keyword_form_or_name(&mut self, t: Token) -> Result<Expr> {
        let start = self.checkpoint();
        let failed = match self.failed_form(start) {
            Some(e) => e,
            None => match self.keyword_form(t) {
                Ok(Some(e)) => return Ok(e),
                Ok(None) => return self.name_lambda_or_call(),
                Err(e) if self.final_error() => return Err(e),
                Err(e) => {
                    self.rewind(start);
                    self.record_failed_form(start, e.clone());
                    e
                }
            },
        };
        if self.reserved(&t) {
            return Err(failed);
        }
        match self.name_lambda_or_call() {
            Ok(e) => Ok(e),
            Err(e) if self.final_error() => Err(e),
            // Both readings failed: the one that read further says what is wrong
            // (`NOT . interval` in Spark: the reserved word after the dot, not the dot).
            Err(e) if further(&e, &failed) => Err(e),
            Err(_) => Err(failed),
        }
    }

    /// The form the keyword `t` starts; `None` when what follows it starts none.
    fn keyword_form(&mut self, t: Token) -> Result<Option<Expr>> {
        let w = self.text(&t);
        let is = |kw: &str| w.eq_ignore_ascii_case(kw);
        if is("NOT") {
            self.next();
            // sqlparser reads `NOT [1]` as NOT of a bare array literal, which no target
            // has: the validator does not read the `not` of `not[1]` as a name either.
            if self.is_symbol(0, Symbol::LBracket) {
                return Err(self.refuse_at(
                    t.start,
                    "`NOT [` starts a bare array literal, which no target has: Spark builds \
                     arrays with `array(…)`, Trino with `ARRAY[…]`",
                ));
            }
            // sqlparser reads `NOT EXISTS (…)` as one node.
            if self.is_word(0, "EXISTS") && self.is_symbol(1, Symbol::LParen) {
                self.next();
                return self.exists(true).map(Some);
            }
            let expr = self.expr_bp(NOT)?;
            return Ok(Some(Expr::Unary {
                op: UnaryOp::Not,
                expr: Box::new(expr),
            }));
        }
        if is("CASE") {
            return self.case().map(Some);
        }
        if is("CAST") || is("TRY_CAST") {
            return self.cast(is("TRY_CAST")).map(Some);
        }
        if is("EXTRACT") && self.is_symbol(1, Symbol::LParen) {
            return self.extract().map(Some);
        }
        if is("ARRAY") && !self.rules.array_brackets && self.is_symbol(1, Symbol::LBracket) {
            return Err(self.refuse_at(
                t.start,
                "`ARRAY[…]` is Trino's array constructor: Spark builds arrays with `array(…)`",
            ));
        }
        if is("ARRAY") && self.rules.array_brackets && self.is_symbol(1, Symbol::LBracket) {
            self.next();
            self.next();
            let items = if self.is_symbol(0, Symbol::RBracket) {
                Vec::new()
            } else {
                self.comma_separated(|c| c.expr())?
            };
            self.expect_symbol(Symbol::RBracket, "]")?;
            return Ok(Some(Expr::Array(items)));
        }
        Ok(None)
    }

    /// A lambda `x -> …` when `->` follows the word at the cursor, else
    /// [`Self::name_or_call`].
    fn name_lambda_or_call(&mut self) -> Result<Expr> {
        if self.is_symbol(1, Symbol::Arrow) {
            let param = self.ident()?;
            return self.lambda_body(vec![param], false);
        }
        self.name_or_call()
    }

    /// `a`, `t.a`, or a call `f(…)`, `db.f(…)`.
    pub(super) fn name_or_call(&mut self) -> Result<Expr> {
        // `word()` lets a reserved function word through only before `(`.
        let listagg = self.trino_listagg();
        let call = self.is_symbol(1, Symbol::LParen);
        let mut name = vec![self.ident_allowing(|w| {
            RESERVED_FUNCTIONS.contains(&w)
                || (call && DATE_TIME_CALLS.contains(&w))
                || (listagg && w == "listagg")
        })?];
        while self.is_symbol(0, Symbol::Period)
            && self
                .peek(1)
                .is_some_and(|t| matches!(t.kind, Kind::Word { .. }))
        {
            self.next();
            name.push(self.ident()?);
        }
        if !self.is_symbol(0, Symbol::LParen) {
            return Ok(Expr::Name(name));
        }
        let bare = |w: &str| {
            matches!(name.as_slice(), [Ident { value, quote: None, .. }]
                if value.eq_ignore_ascii_case(w))
        };
        if bare("struct") && !self.rules.struct_calls {
            let at = name[0].span.start;
            return Err(self.error_at(
                at,
                "`struct(…)` is Spark's: Trino builds a row with CAST(ROW(…) AS row(name \
                 type, …))",
            ));
        }
        // sqlparser reads `trim(…)` and `struct(…)` as forms of their own that take at
        // least one argument: the validator refuses `trim()` too.
        if (bare("trim") || bare("struct")) && self.is_symbol(1, Symbol::RParen) {
            self.next();
            return Err(self.expected("an expression"));
        }
        self.next();
        let args = if self.eat_symbol(Symbol::Mul) {
            FunctionArgs::Star
        } else if self.is_symbol(0, Symbol::RParen) {
            FunctionArgs::List {
                distinct: false,
                args: Vec::new(),
            }
        } else {
            let distinct = self.eat_word("DISTINCT");
            if self.is_word(0, "ALL") && !self.is_symbol(1, Symbol::Comma) {
                return Err(self.expected("an argument (`ALL` inside a call is not read)"));
            }
            let special = ["position", "substring", "trim", "overlay"]
                .into_iter()
                .find(|w| bare(w))
                .filter(|_| !distinct);
            let args = if bare("struct") {
                self.comma_separated(|c| c.struct_field())?
            } else if let Some(form) = special {
                match self.special_form(form)? {
                    Special::Form(e) => return Ok(e),
                    Special::Args(args) => args,
                }
            } else {
                self.comma_separated(|c| c.expr())?
            };
            FunctionArgs::List { distinct, args }
        };
        let order_by = self.order_in_call(bare("listagg"))?;
        self.expect_symbol(Symbol::RParen, ")")?;
        let within_group = self.within_group(bare("listagg"))?;
        let filter = if self.is_word(0, "FILTER") && self.is_symbol(1, Symbol::LParen) {
            self.next();
            self.next();
            if !self.eat_word("WHERE") {
                return Err(self.expected("`WHERE` in `FILTER (WHERE …)`"));
            }
            let cond = self.expr()?;
            self.expect_symbol(Symbol::RParen, ")")?;
            Some(Box::new(cond))
        } else {
            None
        };
        let over = if self.eat_word("OVER") {
            Some(Box::new(self.window()?))
        } else {
            None
        };
        Ok(Expr::Function(Function {
            name,
            args,
            filter,
            over,
            ordering: CallOrdering::of(order_by, within_group),
        }))
    }

    /// `(query)` after `EXISTS`.
    fn exists(&mut self, negated: bool) -> Result<Expr> {
        self.expect_symbol(Symbol::LParen, "(")?;
        let query = Box::new(self.query()?);
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(Expr::Exists { query, negated })
    }

    /// `CASE [operand] WHEN … THEN … [ELSE …] END`.
    fn case(&mut self) -> Result<Expr> {
        self.next();
        let operand = if self.is_word(0, "WHEN") {
            None
        } else {
            Some(Box::new(self.expr()?))
        };
        let mut branches = Vec::new();
        while self.eat_word("WHEN") {
            let condition = self.expr()?;
            self.expect_word("THEN")?;
            let result = self.expr()?;
            branches.push((condition, result));
        }
        if branches.is_empty() {
            return Err(self.expected("`WHEN`"));
        }
        let otherwise = if self.eat_word("ELSE") {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect_word("END")?;
        Ok(Expr::Case {
            operand,
            branches,
            otherwise,
        })
    }

    /// `CAST(x AS T)`, `TRY_CAST(x AS T)`.
    fn cast(&mut self, try_cast: bool) -> Result<Expr> {
        self.next();
        self.expect_symbol(Symbol::LParen, "(")?;
        let expr = self.expr()?;
        self.expect_word("AS")?;
        let ty = self.data_type()?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(Expr::Cast {
            expr: Box::new(expr),
            ty,
            try_cast,
        })
    }

    /// Whether the amount of an interval follows `INTERVAL`: in Trino a string, signed
    /// or not (otherwise `interval` is a name: Trino does not reserve it); in Spark
    /// always.
    fn interval_follows(&self) -> bool {
        let string = |n| {
            self.peek(n).is_some_and(|t| {
                matches!(
                    t.kind,
                    Kind::Str {
                        form: StrForm::Single,
                        ..
                    }
                )
            })
        };
        let signed = self.is_symbol(1, Symbol::Plus) || self.is_symbol(1, Symbol::Minus);
        self.rules.number_suffixes || string(1) || (signed && string(2))
    }

    /// `INTERVAL [+|-] '1' DAY`: a string (Spark: or a number), then a unit.
    fn interval(&mut self) -> Result<Expr> {
        self.next();
        let sign = match self.peek(0).map(|t| t.kind) {
            Some(Kind::Symbol(Symbol::Plus)) => Some(UnaryOp::Plus),
            Some(Kind::Symbol(Symbol::Minus)) => Some(UnaryOp::Minus),
            _ => None,
        };
        if sign.is_some() {
            self.next();
        }
        let amount = match self.peek(0).map(|t| t.kind) {
            Some(Kind::Str {
                form: StrForm::Single,
                ..
            }) => self.prefix(POSTFIX)?,
            Some(Kind::Number { .. }) if self.rules.number_suffixes => self.prefix(POSTFIX)?,
            _ => return Err(self.expected("the interval's amount as a string, `'1'`")),
        };
        let value = match sign {
            Some(op) => Expr::Unary {
                op,
                expr: Box::new(amount),
            },
            None => amount,
        };
        let unit = self.unit(
            INTERVAL_UNITS,
            "an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND)",
        )?;
        // A range, `'1-2' YEAR TO MONTH` (Trino's and Spark's `interval`); which
        // ranges exist is checked after the parse.
        let to = if self.is_word(0, "TO") {
            self.next();
            Some(self.unit(
                INTERVAL_UNITS,
                "the interval's last unit (MONTH, …, SECOND)",
            )?)
        } else {
            None
        };
        Ok(Expr::Interval {
            value: Box::new(value),
            unit,
            to,
        })
    }

    /// `EXTRACT(field FROM x)`.
    fn extract(&mut self) -> Result<Expr> {
        self.next();
        self.next();
        let field = self.unit(EXTRACT_FIELDS, "a field to extract (YEAR, MONTH, DAY, …)")?;
        self.expect_word("FROM")?;
        let expr = self.expr()?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(Expr::Extract {
            field,
            expr: Box::new(expr),
        })
    }

    /// One of `units` (any case), in upper case.
    fn unit(&mut self, units: &[&str], what: &str) -> Result<String> {
        match units.iter().find(|u| self.is_word(0, u)) {
            Some(u) => {
                self.next();
                Ok(u.to_string())
            }
            None => Err(self.expected(what)),
        }
    }
}

// ---- more expression forms --------------------------------------------------------------

impl Cursor<'_> {
    /// Whether Spark's `ILIKE`, `RLIKE` or `REGEXP` is the `n`th token, in a grammar
    /// that has them as predicates.
    fn spark_pattern_at(&self, n: usize) -> bool {
        self.rules.spark_predicates
            && ["ILIKE", "RLIKE", "REGEXP"]
                .iter()
                .any(|k| self.is_word(n, k))
    }

    /// `ILIKE pattern [ESCAPE e]` or `RLIKE|REGEXP pattern` after `left [NOT]` (Spark's
    /// `predicate`; the pattern is a value expression, as `LIKE`'s).
    fn spark_pattern(&mut self, left: Box<Expr>, negated: bool) -> Result<Expr> {
        if self.eat_word("ILIKE") {
            self.no_like_quantifier()?;
            let pattern = Box::new(self.expr_bp(COMPARISON)?);
            let escape = if self.eat_word("ESCAPE") {
                Some(Box::new(self.expr_bp(COMPARISON)?))
            } else {
                None
            };
            return Ok(Expr::ILike {
                expr: left,
                pattern,
                escape,
                negated,
            });
        }
        let regexp = self.is_word(0, "REGEXP");
        self.next();
        let pattern = Box::new(self.expr_bp(COMPARISON)?);
        Ok(Expr::RLike {
            expr: left,
            pattern,
            negated,
            regexp,
        })
    }

    /// `TRUE`, `FALSE` or `UNKNOWN` after `IS [NOT]` (`Some(None)` for `UNKNOWN`), where
    /// the grammar has them (Spark's `predicate`); refused in Trino's, whose `predicate`
    /// has only `IS [NOT] NULL` and `IS [NOT] DISTINCT FROM`.
    fn boolean_after_is(&mut self) -> Result<Option<Option<bool>>> {
        let value = if self.is_word(0, "TRUE") {
            Some(true)
        } else if self.is_word(0, "FALSE") {
            Some(false)
        } else if self.is_word(0, "UNKNOWN") {
            None
        } else {
            return Ok(None);
        };
        if !self.rules.spark_predicates {
            let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
            return Err(self.refuse_at(
                at,
                "`IS [NOT] TRUE|FALSE|UNKNOWN` is Spark's: Trino's grammar has `IS [NOT] NULL` \
                 and `IS [NOT] DISTINCT FROM`; compare with `= true` or use coalesce",
            ));
        }
        self.next();
        Ok(Some(value))
    }

    /// The fields after the first of a row value `(a, b, …)`, at the first `,`.
    fn row_value(&mut self, first: Expr) -> Result<Expr> {
        let mut fields = vec![first];
        while self.eat_symbol(Symbol::Comma) {
            fields.push(self.expr()?);
        }
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(Expr::Row(fields))
    }

    /// A field of Spark's `struct(…)`: `value [AS name]` (its `namedExpression`; sqlparser
    /// reads the name after `AS` only).
    fn struct_field(&mut self) -> Result<Expr> {
        let expr = self.expr()?;
        if !self.eat_word("AS") {
            return Ok(expr);
        }
        let name = self.ident()?;
        Ok(Expr::Named {
            expr: Box::new(expr),
            name,
        })
    }

    /// After `position(`, `substring(`, `trim(` or `overlay(`: the form of its own the
    /// grammar gives the word (`position(a IN b)`, `substring(x FROM a FOR b)`,
    /// `trim(BOTH c FROM x)`, Spark's `overlay(x PLACING y FROM a FOR b)`), read to its
    /// `)`; or, where none follows, the arguments of a plain call. The first operand
    /// is read once, at a power that stops before `IN`, then continued as an argument.
    fn special_form(&mut self, form: &str) -> Result<Special> {
        let start = self.peek(0).map_or(self.sql.len(), |t| t.start);
        if form == "trim" {
            let side = [
                ("BOTH", TrimSide::Both),
                ("LEADING", TrimSide::Leading),
                ("TRAILING", TrimSide::Trailing),
            ]
            .into_iter()
            .find(|(w, _)| self.is_word(0, w))
            .map(|(_, s)| s);
            if side.is_some() {
                self.next();
            }
            // sqlparser takes no `trim(FROM x)` or `trim(BOTH FROM x)`, which both
            // grammars have: refused with it.
            let chars = self.expr()?;
            if side.is_some() || self.is_word(0, "FROM") {
                self.expect_word("FROM")?;
                let expr = self.expr()?;
                self.expect_symbol(Symbol::RParen, ")")?;
                return Ok(Special::Form(Expr::Trim {
                    side,
                    chars: Box::new(chars),
                    expr: Box::new(expr),
                }));
            }
            return self.rest_of_args(chars).map(Special::Args);
        }
        let first = self.expr_bp(COMPARISON)?;
        if form == "position" && self.eat_word("IN") {
            let haystack = self.expr()?;
            self.expect_symbol(Symbol::RParen, ")")?;
            return Ok(Special::Form(Expr::Position {
                needle: Box::new(first),
                haystack: Box::new(haystack),
            }));
        }
        let first = self.infix_loop(first, 0, start)?;
        if form == "substring" && self.eat_word("FROM") {
            let from = self.expr()?;
            let length = if self.eat_word("FOR")
                || (self.rules.substring_commas && self.eat_symbol(Symbol::Comma))
            {
                Some(Box::new(self.expr()?))
            } else {
                None
            };
            if self.is_symbol(0, Symbol::Comma) {
                let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
                return Err(self.refuse_at(
                    at,
                    "Trino's `substring(x FROM start FOR length)` takes `FOR`, not a comma",
                ));
            }
            self.expect_symbol(Symbol::RParen, ")")?;
            return Ok(Special::Form(Expr::Substring {
                expr: Box::new(first),
                from: Box::new(from),
                length,
            }));
        }
        if form == "overlay" && self.is_word(0, "PLACING") {
            if !self.rules.overlay {
                let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
                return Err(self.refuse_at(
                    at,
                    "`overlay(x PLACING …)` is Spark's: Trino has no overlay; write \
                     concat(substr(…), …)",
                ));
            }
            self.next();
            let placing = self.expr()?;
            self.expect_word("FROM")?;
            let from = self.expr()?;
            let length = if self.eat_word("FOR") {
                Some(Box::new(self.expr()?))
            } else {
                None
            };
            self.expect_symbol(Symbol::RParen, ")")?;
            return Ok(Special::Form(Expr::Overlay {
                expr: Box::new(first),
                placing: Box::new(placing),
                from: Box::new(from),
                length,
            }));
        }
        self.rest_of_args(first).map(Special::Args)
    }

    /// The arguments of a call after its first, `first`.
    fn rest_of_args(&mut self, first: Expr) -> Result<Vec<Expr>> {
        let mut args = vec![first];
        while self.eat_symbol(Symbol::Comma) {
            args.push(self.expr()?);
        }
        Ok(args)
    }

    /// Whether `listagg(…) WITHIN GROUP (…)` is a form of its own, the one call
    /// `WITHIN GROUP` follows (Trino's `listagg`, whose word it reserves).
    fn trino_listagg(&self) -> bool {
        self.rules.order_in_calls && !self.rules.within_group_any_call
    }

    /// `ORDER BY …` before a call's `)`, where the grammar has it (Trino's
    /// `functionCall`; its `listagg` orders in `WITHIN GROUP` only).
    fn order_in_call(&mut self, listagg: bool) -> Result<Vec<OrderByItem>> {
        if !(self.is_word(0, "ORDER") && self.is_word(1, "BY")) {
            return Ok(Vec::new());
        }
        if !self.rules.order_in_calls || (listagg && self.trino_listagg()) {
            let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
            return Err(self.refuse_at(
                at,
                "`ORDER BY` inside a call's parentheses is not in this grammar: order an \
                 aggregate's input with `WITHIN GROUP (ORDER BY …)` after the call",
            ));
        }
        self.next();
        self.next();
        self.comma_separated(|c| c.order_by_item())
    }

    /// `WITHIN GROUP (ORDER BY …)` after a call's `)`: after any call in Spark's
    /// grammar; in Trino's after `listagg(…)` only, which requires it.
    fn within_group(&mut self, listagg: bool) -> Result<Vec<OrderByItem>> {
        let trino_listagg = listagg && self.trino_listagg();
        let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
        if !self.is_word(0, "WITHIN") || !self.is_word(1, "GROUP") {
            if trino_listagg {
                return Err(self.refuse_at(
                    at,
                    "Trino's `listagg(x, ',')` is followed by `WITHIN GROUP (ORDER BY …)`",
                ));
            }
            return Ok(Vec::new());
        }
        if !self.rules.within_group_any_call && !trino_listagg {
            return Err(self.refuse_at(
                at,
                "`WITHIN GROUP` follows only `listagg(…)` in Trino's grammar",
            ));
        }
        self.next();
        self.next();
        self.expect_symbol(Symbol::LParen, "(")?;
        if !self.eat_words(&["ORDER", "BY"]) {
            return Err(self.expected("`ORDER BY` in `WITHIN GROUP (ORDER BY …)`"));
        }
        let items = self.comma_separated(|c| c.order_by_item())?;
        self.expect_symbol(Symbol::RParen, ")")?;
        Ok(items)
    }

    /// The quantifier of `ANY|SOME|ALL (SELECT …)` at the cursor, where the grammar has
    /// quantified comparisons (Trino's `comparisonQuantifier '(' query ')'`).
    fn quantifier_with_query(&self) -> Option<Quantifier> {
        if !self.rules.quantified_comparisons
            || !self.is_symbol(1, Symbol::LParen)
            || !self.query_at(2)
        {
            return None;
        }
        [
            ("ALL", Quantifier::All),
            ("ANY", Quantifier::Any),
            ("SOME", Quantifier::Some),
        ]
        .into_iter()
        .find(|(w, _)| self.is_word(0, w))
        .map(|(_, q)| q)
    }

    /// `ANY|SOME|ALL (query)` after `left op`: the subquery is the whole right operand
    /// (sqlparser reads `x = ANY (SELECT …) + 1` with the sum as the operand, a form
    /// Trino's grammar lacks: refused).
    fn quantified(&mut self, left: Expr, op: BinaryOp, quantifier: Quantifier) -> Result<Expr> {
        self.next();
        self.next();
        let query = Box::new(self.query()?);
        self.expect_symbol(Symbol::RParen, ")")?;
        if let Some(t) = self.peek(0).copied() {
            if self.infix().is_some_and(|(_, power)| power > COMPARISON) {
                return Err(self.refuse_at(
                    t.start,
                    "a quantified comparison's subquery is its whole right operand: \
                     parenthesise the comparison",
                ));
            }
        }
        Ok(Expr::Quantified {
            left: Box::new(left),
            op,
            quantifier,
            query,
        })
    }

    /// Refuses `ANY (…)` after `LIKE` or `ILIKE`: Spark's `LIKE ANY (…)`, which
    /// sqlparser reads (`SOME` and `ALL` it reads as calls) and no target's grammar
    /// has; this parser would read `any (…)` as a call where the grammar reserves no
    /// such word.
    fn no_like_quantifier(&mut self) -> Result<()> {
        if self.is_word(0, "ANY") && self.is_symbol(1, Symbol::LParen) {
            let at = self.peek(0).map_or(self.sql.len(), |t| t.start);
            return Err(self.refuse_at(
                at,
                "`LIKE ANY (…)` is not accepted: write OR-ed LIKEs, `x LIKE 'a%' OR x LIKE 'b%'`",
            ));
        }
        Ok(())
    }
}

const INTERVAL_UNITS: &[&str] = &["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"];

/// Trino's `EXTRACT` fields (`extract` in the functions docs).
const EXTRACT_FIELDS: &[&str] = &[
    "YEAR",
    "QUARTER",
    "MONTH",
    "WEEK",
    "DAY",
    "DAY_OF_MONTH",
    "DAY_OF_WEEK",
    "DOW",
    "DAY_OF_YEAR",
    "DOY",
    "YEAR_OF_WEEK",
    "YOW",
    "HOUR",
    "MINUTE",
    "SECOND",
    "TIMEZONE_HOUR",
    "TIMEZONE_MINUTE",
];

/// Whether `e` is built by an operator or predicate (never a base of `.x` or `[i]`).
fn operator_result(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Binary { .. }
            | Expr::Unary { .. }
            | Expr::IsNull { .. }
            | Expr::IsDistinctFrom { .. }
            | Expr::InList { .. }
            | Expr::InSubquery { .. }
            | Expr::Between { .. }
            | Expr::Like { .. }
            | Expr::AtTimeZone { .. }
            | Expr::Lambda { .. }
            | Expr::Exists { .. }
            | Expr::IsBool { .. }
            | Expr::ILike { .. }
            | Expr::RLike { .. }
            | Expr::Quantified { .. }
    )
}

/// Whether `e` is a predicate (a comparison, `AND`, `OR`, `NOT`, `IS`, `IN`, `BETWEEN`,
/// `LIKE`), which no subscript takes as its index.
fn predicate_index(e: &Expr) -> bool {
    match e {
        Expr::Binary { op, .. } => matches!(
            op,
            BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Eq
                | BinaryOp::NotEq
                | BinaryOp::Lt
                | BinaryOp::LtEq
                | BinaryOp::Gt
                | BinaryOp::GtEq
                | BinaryOp::NullSafeEq
        ),
        Expr::Unary {
            op: UnaryOp::Not, ..
        } => true,
        Expr::IsNull { .. }
        | Expr::IsDistinctFrom { .. }
        | Expr::InList { .. }
        | Expr::InSubquery { .. }
        | Expr::Between { .. }
        | Expr::Like { .. }
        | Expr::Lambda { .. }
        | Expr::Exists { .. }
        | Expr::IsBool { .. }
        | Expr::ILike { .. }
        | Expr::RLike { .. }
        | Expr::Quantified { .. } => true,
        _ => false,
    }
}

fn power_of(op: BinaryOp, concat_with_plus: bool) -> u8 {
    match op {
        BinaryOp::Or => OR,
        BinaryOp::And => AND,
        BinaryOp::Eq
        | BinaryOp::NotEq
        | BinaryOp::Lt
        | BinaryOp::LtEq
        | BinaryOp::Gt
        | BinaryOp::GtEq
        | BinaryOp::NullSafeEq => COMPARISON,
        BinaryOp::BitOr => BIT_OR,
        BinaryOp::BitXor => BIT_XOR,
        BinaryOp::BitAnd => BIT_AND,
        BinaryOp::Concat if concat_with_plus => ADDITIVE,
        BinaryOp::Concat => CONCAT_TRINO,
        BinaryOp::Plus | BinaryOp::Minus => ADDITIVE,
        BinaryOp::Multiply | BinaryOp::Divide | BinaryOp::Modulo => MULTIPLICATIVE,
    }
}

fn string_form(form: StrForm) -> StringForm {
    match form {
        StrForm::Single => StringForm::Single,
        StrForm::Double => StringForm::Double,
        StrForm::National => StringForm::National,
        StrForm::Hex => StringForm::Hex,
        StrForm::Unicode => StringForm::Unicode,
    }
}

/// Whether error `a` stands later in the text than error `b`.
fn further(a: &crate::error::Error, b: &crate::error::Error) -> bool {
    let at = |e: &crate::error::Error| e.location().map(|l| (l.line, l.column));
    at(a) > at(b)
}
