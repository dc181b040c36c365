//! Data types: a word with numeric parameters (`varchar(10)`, `decimal(10,2)`,
//! `timestamp(6) with time zone`), or a compound type in the grammar's brackets
//! (Trino `array(T)`, `map(K, V)`, `row(a T)`; Hive and Spark `array<T>`, `map<K,V>`,
//! `struct<a:T>`).

use super::ast::{Brackets, DataType, Field, TimeZone};
use super::cursor::Cursor;
use crate::error::Result;
use crate::validate::lexer::{Kind, Symbol};

impl Cursor<'_> {
    /// A data type.
    pub(super) fn data_type(&mut self) -> Result<DataType> {
        self.enter()?;
        let t = self.data_type_inner()?;
        self.leave();
        Ok(t)
    }

    fn data_type_inner(&mut self) -> Result<DataType> {
        let Some(t) = self.peek(0).copied() else {
            return Err(self.expected("a type"));
        };
        if !matches!(t.kind, Kind::Word { quote: None, .. }) {
            return Err(self.expected("a type name (a word, never quoted)"));
        }
        let name = self.text(&t).to_ascii_lowercase();
        let brackets = self.rules.type_brackets;
        let compound = match brackets {
            Brackets::Parentheses => self.is_symbol(1, Symbol::LParen),
            Brackets::Angle => self.is_symbol(1, Symbol::Lt),
        };
        let row_word = match brackets {
            Brackets::Parentheses => "row",
            Brackets::Angle => "struct",
        };
        if brackets == Brackets::Parentheses
            && self.is_symbol(1, Symbol::Lt)
            && matches!(name.as_str(), "array" | "map" | "row" | "struct")
        {
            return Err(self.error_at(
                t.start,
                &format!(
                    "`{name}<…>`: Trino writes compound types in parentheses, `array(T)`, \
                     `map(K, V)`, `row(a T)`"
                ),
            ));
        }
        if compound && (name == "array" || name == "map" || name == row_word) {
            self.next();
            self.next();
            let ty = if name == "array" {
                DataType::Array(Box::new(self.data_type()?), brackets)
            } else if name == "map" {
                let k = self.data_type()?;
                self.expect_symbol(Symbol::Comma, ",")?;
                let v = self.data_type()?;
                DataType::Map(Box::new(k), Box::new(v), brackets)
            } else {
                let fields = self.comma_separated(|c| c.field(brackets))?;
                DataType::Row(fields, brackets)
            };
            self.close(brackets)?;
            return Ok(ty);
        }
        self.next();
        let mut params = Vec::new();
        if self.eat_symbol(Symbol::LParen) {
            params = self.comma_separated(|c| match c.peek(0).copied() {
                Some(n) if n.kind == (Kind::Number { long: false }) => {
                    let v = c.text(&n).parse::<u64>().map_err(|_| {
                        c.error_at(n.start, "a type parameter is a whole number, `10`")
                    })?;
                    c.next();
                    Ok(v)
                }
                _ => Err(c.expected("a type parameter (a whole number)")),
            })?;
            self.expect_symbol(Symbol::RParen, ")")?;
        }
        let mut time_zone = TimeZone::None;
        if name == "timestamp" || name == "time" {
            let with = self.is_word(0, "WITH");
            if (with || self.is_word(0, "WITHOUT"))
                && self.is_word(1, "TIME")
                && self.is_word(2, "ZONE")
            {
                self.next();
                self.next();
                self.next();
                time_zone = if with {
                    TimeZone::With
                } else {
                    TimeZone::Without
                };
            }
        }
        Ok(DataType::Named {
            name,
            params,
            time_zone,
        })
    }

    /// A field of a row or struct type: `a T` (Trino), `a:T` / `a: T` (Hive, Spark; Spark
    /// also `a T`).
    fn field(&mut self, brackets: Brackets) -> Result<Field> {
        let name = self.ident()?;
        if brackets == Brackets::Angle
            && !self.eat_symbol(Symbol::Colon)
            && !self.rules.optional_field_colon
        {
            return Err(self.expected("`:` between a struct field's name and type"));
        }
        let ty = self.data_type()?;
        Ok(Field { name, ty })
    }

    /// The closing bracket of a compound type; a `>>` closes two angle brackets.
    fn close(&mut self, brackets: Brackets) -> Result<()> {
        match brackets {
            Brackets::Parentheses => self.expect_symbol(Symbol::RParen, ")").map(drop),
            Brackets::Angle if self.is_symbol(0, Symbol::ShiftRight) => {
                self.split_first_char(Symbol::Gt);
                Ok(())
            }
            Brackets::Angle => self.expect_symbol(Symbol::Gt, ">").map(drop),
        }
    }
}
