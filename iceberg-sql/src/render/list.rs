//! Lists: items written one after the other with a separator (`a, b, c`), for the
//! writer and for text built beside it (literals, predicates).

use super::SqlWriter;
use crate::dialect::grammar::{separated, Sink};
use crate::error::Result;

impl Sink for SqlWriter {
    fn push_text(&mut self, text: &str) {
        self.push(text);
    }
}

impl SqlWriter {
    /// Writes every item of `items` with `item`, separated by `sep`.
    pub fn list<I: IntoIterator>(
        &mut self,
        items: I,
        sep: &str,
        item: impl FnMut(&mut Self, I::Item) -> Result<()>,
    ) -> Result<&mut Self> {
        separated(self, items, sep, item)?;
        Ok(self)
    }

    /// Writes every item of `items` with `item`, separated by `, `.
    pub fn comma_list<I: IntoIterator>(
        &mut self,
        items: I,
        mut item: impl FnMut(&mut Self, I::Item),
    ) -> &mut Self {
        for (i, x) in items.into_iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            item(self, x);
        }
        self
    }

    /// As [`SqlWriter::comma_list`], for items whose writing can fail (literals,
    /// expressions, DDL strings).
    pub fn try_comma_list<I: IntoIterator>(
        &mut self,
        items: I,
        item: impl FnMut(&mut Self, I::Item) -> Result<()>,
    ) -> Result<&mut Self> {
        separated(self, items, ", ", item)?;
        Ok(self)
    }

    /// `a, b, c`: names, each quoted as the grammar requires.
    pub fn idents<'n>(&mut self, names: impl IntoIterator<Item = &'n str>) -> &mut Self {
        self.comma_list(names, |w, n| {
            w.ident(n);
        })
    }
}
