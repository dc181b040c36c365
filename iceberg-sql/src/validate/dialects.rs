//! Our own sqlparser dialects: one for Athena (Hive DDL or Trino DML, chosen per
//! statement), one for Spark with Iceberg's SQL extensions.
//!
//! Both are written by hand (no `derive_dialect!`) and keep their own `TypeId`, so none
//! of sqlparser's `dialect_of!(… | GenericDialect)` branches for other engines apply.
//! The hooks that parse the Athena/Iceberg-only statement shapes live in
//! [`super::hooks`].

use sqlparser::ast::{DataType, Statement};
use sqlparser::dialect::Dialect as SqlDialect;
use sqlparser::parser::{Parser, ParserError};

use super::hooks;
use crate::dialect::Grammar;

/// Athena engine v3. One type for both of Athena's grammars: `ddl` switches the
/// statement hooks (Hive DDL shapes) and the data type hook (Trino `array(T)` types,
/// DML only). Quoting is checked after the parse (see `super::allow`), so both `"` and
/// backtick open a delimited identifier here and the checker can say which one the
/// statement's grammar wants.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AthenaDialect {
    /// `true` for [`Grammar::HiveDdl`], `false` for [`Grammar::TrinoDml`].
    pub(crate) ddl: bool,
}

impl SqlDialect for AthenaDialect {
    fn is_identifier_start(&self, ch: char) -> bool {
        ch.is_ascii_alphabetic() || ch == '_'
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        ch.is_ascii_alphanumeric() || ch == '_'
    }

    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        ch == '"' || ch == '`'
    }

    /// Aliases are names, never `'strings'`.
    fn supports_string_literal_column_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn supports_string_literal_table_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn identifier_quote_style(&self, _identifier: &str) -> Option<char> {
        Some(if self.ddl { '`' } else { '"' })
    }

    /// Trino: `'O''Reilly'`; a backslash is an ordinary character.
    fn supports_string_literal_backslash_escape(&self) -> bool {
        false
    }

    /// Trino `U&'\0041'` (otherwise it would parse as `U & '\0041'`).
    fn supports_unicode_string_literal(&self) -> bool {
        !self.ddl
    }

    /// `count(*) FILTER (WHERE …)`.
    fn supports_filter_during_aggregation(&self) -> bool {
        true
    }

    /// `ROLLUP`, `CUBE`, `GROUPING SETS`.
    fn supports_group_by_expr(&self) -> bool {
        true
    }

    /// `FOR TIMESTAMP|VERSION AS OF` (after the token pre-pass removes `FOR`).
    fn supports_table_versioning(&self) -> bool {
        true
    }

    /// Trino lambdas: `transform(xs, x -> x + 1)`.
    fn supports_lambda_functions(&self) -> bool {
        true
    }

    /// Hive `struct<a:int>` column types (DDL).
    fn supports_struct_literal(&self) -> bool {
        true
    }

    /// Hive `map<k,v>` column types (DDL).
    fn supports_map_literal_with_angle_brackets(&self) -> bool {
        true
    }

    /// `INTERVAL '7' DAY`, never a bare `INTERVAL '7'`.
    fn require_interval_qualifier(&self) -> bool {
        true
    }

    /// Parsed only so the allow-list can reject MySQL's `LIMIT a, b` with a clear message.
    fn supports_limit_comma(&self) -> bool {
        true
    }

    /// `MERGE … USING (VALUES (…), (…)) AS source (a, b)`.
    fn supports_values_as_table_factor(&self) -> bool {
        true
    }

    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
        let grammar = if self.ddl {
            Grammar::HiveDdl
        } else {
            Grammar::TrinoDml
        };
        hooks::parse_statement(parser, grammar)
    }

    fn parse_data_type(&self, parser: &mut Parser) -> Option<Result<DataType, ParserError>> {
        if self.ddl {
            None
        } else {
            hooks::trino_paren_type(parser)
        }
    }
}

/// Spark 3.5 with the Iceberg SQL extensions: backtick identifiers, backslash escapes in
/// string literals, Spark type names (`timestamp_ntz`, `struct<a: int>`), `USING iceberg`
/// tables, `CALL catalog.system.procedure(…)`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SparkDialect;

impl SqlDialect for SparkDialect {
    fn is_identifier_start(&self, ch: char) -> bool {
        ch.is_ascii_alphabetic() || ch == '_'
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        ch.is_ascii_alphanumeric() || ch == '_'
    }

    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        ch == '`'
    }

    /// Aliases are names, never `'strings'`.
    fn supports_string_literal_column_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn supports_string_literal_table_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn identifier_quote_style(&self, _identifier: &str) -> Option<char> {
        Some('`')
    }

    /// Spark: `'it\'s'`, `'a\\b'`.
    fn supports_string_literal_backslash_escape(&self) -> bool {
        true
    }

    fn supports_filter_during_aggregation(&self) -> bool {
        true
    }

    fn supports_group_by_expr(&self) -> bool {
        true
    }

    /// `[FOR] TIMESTAMP|VERSION AS OF`.
    fn supports_table_versioning(&self) -> bool {
        true
    }

    fn supports_lambda_functions(&self) -> bool {
        true
    }

    fn supports_struct_literal(&self) -> bool {
        true
    }

    fn supports_map_literal_with_angle_brackets(&self) -> bool {
        true
    }

    fn supports_create_table_using(&self) -> bool {
        true
    }

    /// `long` is `bigint`.
    fn supports_long_type_as_bigint(&self) -> bool {
        true
    }

    fn supports_values_as_table_factor(&self) -> bool {
        true
    }

    fn require_interval_qualifier(&self) -> bool {
        true
    }

    fn supports_limit_comma(&self) -> bool {
        true
    }

    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
        hooks::parse_statement(parser, Grammar::Spark)
    }
}
