//! A fast path for the commonest expression prefixes: literals and plain column names.
//!
//! Before every expression sqlparser first tries to read a data type (for typed
//! literals such as `DATE '2026-10-01'`); for a string, a number or a column name that
//! attempt fails, and its failure formats an error message that is thrown away. This
//! hook answers those prefixes directly, with exactly the node sqlparser's own path
//! would build (`Expr::Value`, `Expr::Identifier`); every other prefix (keywords,
//! function calls, typed literals, lambdas) is left to sqlparser. Partition transforms
//! (`day(ts)`, `bucket(16, id)`) are read the same way. The `validate` tests compare
//! trees parsed with and without these fast paths.

use sqlparser::ast::{
    Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentList, FunctionArguments,
    ObjectName, Value,
};
use sqlparser::dialect::Dialect as SqlDialect;
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;

/// The prefix at the parser's position, if it is one the fast path reads the way
/// sqlparser does; `None` leaves it to sqlparser.
pub(in crate::validate) fn literal_or_name(
    dialect: &dyn SqlDialect,
    p: &mut Parser,
) -> Option<Result<Expr, ParserError>> {
    #[cfg(test)]
    if tests::OFF.with(std::cell::Cell::get) {
        return None;
    }
    let value = match &p.peek_token_ref().token {
        Token::SingleQuotedString(_)
        | Token::Number(..)
        | Token::HexStringLiteral(_)
        | Token::Placeholder(_) => true,
        Token::Word(w) => match w.keyword {
            Keyword::NULL => true,
            Keyword::TRUE | Keyword::FALSE => dialect.supports_boolean_literals(),
            // Not a keyword: a name, unless what follows makes it a call, a lambda
            // (`x -> …`, `x int -> …`) or a string introducer (`_utf8 'x'`).
            Keyword::NoKeyword if plain_name_follows(p) => {
                let t = p.next_token();
                return match t.token {
                    Token::Word(w) => Some(Ok(Expr::Identifier(w.into_ident(t.span)))),
                    _ => None,
                };
            }
            _ => return None,
        },
        _ => return None,
    };
    value.then(|| p.parse_value().map(Expr::Value))
}

/// A partition transform written `name(col)` or `name(n, col)` (followed by `,` or
/// `)`), read without sqlparser's general function-call parser, as the same
/// `Expr::Function` node; `None` (nothing consumed) for any other text.
pub(in crate::validate) fn partition_transform(p: &mut Parser) -> Option<Expr> {
    #[cfg(test)]
    if tests::OFF.with(std::cell::Cell::get) {
        return None;
    }
    let word = |n: usize| matches!(&p.peek_nth_token_ref(n).token, Token::Word(w) if w.quote_style.is_none());
    if !word(0) || p.peek_nth_token_ref(1).token != Token::LParen {
        return None;
    }
    let with_number = matches!(p.peek_nth_token_ref(2).token, Token::Number(_, false))
        && p.peek_nth_token_ref(3).token == Token::Comma;
    let col = if with_number { 4 } else { 2 };
    if !word(col)
        || p.peek_nth_token_ref(col + 1).token != Token::RParen
        || !matches!(
            p.peek_nth_token_ref(col + 2).token,
            Token::Comma | Token::RParen
        )
    {
        return None;
    }
    let name = p.next_token();
    p.advance_token(); // (
    let mut args = Vec::with_capacity(2);
    if with_number {
        let n = p.next_token();
        if let Token::Number(v, long) = n.token {
            args.push(Expr::Value(Value::Number(v, long).with_span(n.span)));
        }
        p.advance_token(); // ,
    }
    let c = p.next_token();
    p.advance_token(); // )
    let (Token::Word(name_word), Token::Word(col_word)) = (name.token, c.token) else {
        return None;
    };
    args.push(Expr::Identifier(col_word.into_ident(c.span)));
    Some(Expr::Function(Function {
        name: ObjectName::from(vec![name_word.into_ident(name.span)]),
        uses_odbc_syntax: false,
        parameters: FunctionArguments::None,
        args: FunctionArguments::List(FunctionArgumentList {
            duplicate_treatment: None,
            args: args
                .into_iter()
                .map(|e| FunctionArg::Unnamed(FunctionArgExpr::Expr(e)))
                .collect(),
            clauses: Vec::new(),
        }),
        within_group: Vec::new(),
        filter: None,
        null_treatment: None,
        over: None,
    }))
}

/// Whether the token after the current word ends a plain name.
fn plain_name_follows(p: &Parser) -> bool {
    match &p.peek_nth_token_ref(1).token {
        Token::Comma
        | Token::RParen
        | Token::RBracket
        | Token::Period
        | Token::Eq
        | Token::Neq
        | Token::Lt
        | Token::Gt
        | Token::LtEq
        | Token::GtEq
        | Token::Plus
        | Token::Minus
        | Token::Mul
        | Token::Div
        | Token::Mod
        | Token::StringConcat
        | Token::SemiColon
        | Token::EOF => true,
        Token::Word(_) => p.peek_nth_token_ref(2).token != Token::Arrow,
        _ => false,
    }
}

#[cfg(test)]
pub(in crate::validate) mod tests {
    use std::cell::Cell;

    thread_local! {
        /// Turns the fast path off, to compare trees with and without it.
        pub(in crate::validate) static OFF: Cell<bool> = const { Cell::new(false) };
    }
}
