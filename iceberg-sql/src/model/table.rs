//! Tables, their names and columns.

use std::collections::HashSet;
use std::fmt;

use super::partition::{check_spec, SpecRules};
use super::{Location, PartitionField, TableProperties, TableProperty};
use crate::error::{Error, ErrorKind, Result};
use crate::ident::{check_name, NameRole};
use crate::types::IcebergType;
use iceberg_sql_rules::{CommentOf, CommentProblem, LocationHolds};

/// A table's qualified name: `database.table`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TableName {
    /// Database (Glue schema) name.
    pub database: String,
    /// Table name.
    pub table: String,
}

impl TableName {
    /// `database.table`; checked by [`TableName::check`] and every builder.
    pub fn new(database: impl Into<String>, table: impl Into<String>) -> Self {
        TableName {
            database: database.into(),
            table: table.into(),
        }
    }

    /// Checks both parts against Athena's name rules.
    pub fn check(&self) -> Result<()> {
        match (
            check_name(&self.database, NameRole::Database),
            check_name(&self.table, NameRole::Table),
        ) {
            (Ok(()), Ok(())) => Ok(()),
            (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
            (Err(d), Err(t)) => Error::check_all(vec![d, t]),
        }
    }
}

impl TableName {
    /// The database the table is in.
    ///
    /// ```
    /// use iceberg_sql::{DatabaseName, TableName};
    /// assert_eq!(TableName::new("analytics", "mcp_events").database_name(),
    ///            DatabaseName::new("analytics"));
    /// ```
    pub fn database_name(&self) -> DatabaseName {
        DatabaseName::new(self.database.clone())
    }
}

impl fmt::Display for TableName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.database, self.table)
    }
}

/// A database (Glue schema; a Spark namespace) name. Where the statements on a whole
/// database start: `create_database()`, `drop_database()`, `show_tables()`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DatabaseName(String);

impl DatabaseName {
    /// The database `name`; checked by [`DatabaseName::check`] and every builder.
    pub fn new(name: impl Into<String>) -> Self {
        DatabaseName(name.into())
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Checks the name against Athena's name rules.
    pub fn check(&self) -> Result<()> {
        check_name(&self.0, NameRole::Database)
    }
}

impl fmt::Display for DatabaseName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A column: name, type, nullability and an optional comment.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Column {
    /// Column name (`[a-z0-9_]`, at most 255 bytes).
    pub name: String,
    /// Iceberg type.
    pub ty: IcebergType,
    /// Whether the column may hold NULL. Athena DDL cannot declare NOT NULL, so on
    /// Athena this is enforced by the typed API; Spark declares it.
    pub nullable: bool,
    /// Column comment.
    pub comment: Option<String>,
    /// Earlier name of this column, used by schema evolution to plan a rename.
    pub renamed_from: Option<String>,
}

impl Column {
    /// A nullable column `name` of type `ty`.
    pub fn new(name: impl Into<String>, ty: IcebergType) -> Self {
        Column {
            name: name.into(),
            ty,
            nullable: true,
            comment: None,
            renamed_from: None,
        }
    }

    /// Marks the column NOT NULL.
    pub fn required(mut self) -> Self {
        self.nullable = false;
        self
    }

    /// Sets whether the column may hold NULL.
    pub fn nullable(mut self, nullable: bool) -> Self {
        self.nullable = nullable;
        self
    }

    /// Adds a comment.
    pub fn comment(mut self, comment: impl Into<String>) -> Self {
        self.comment = Some(comment.into());
        self
    }

    /// Records the column's earlier name (for schema evolution).
    pub fn renamed_from(mut self, old: impl Into<String>) -> Self {
        self.renamed_from = Some(old.into());
        self
    }
}

/// Comments and other DDL strings go through Athena's Hive lexer, whose escaping is
/// not documented for Athena: refuse what could end or bend the literal.
pub(crate) fn check_ddl_text(what: &str, text: &str) -> Result<()> {
    if let Some(c) = iceberg_sql_rules::ddl_text_problem(text) {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "{what} contains {c:?}; DDL string literals cannot hold quotes, backslashes or control characters"
            ),
        )
        .with_hint("remove the character from the text"));
    }
    Ok(())
}

/// Checks a comment: a DDL string ([`check_ddl_text`]) no longer than Glue stores for
/// what it describes (`iceberg_sql_rules::max_comment_chars`).
pub(crate) fn check_comment(what: &str, of: CommentOf, text: &str) -> Result<()> {
    match iceberg_sql_rules::comment_problem(of, text) {
        None => Ok(()),
        Some(CommentProblem::BadChar(_)) => check_ddl_text(what, text),
        Some(CommentProblem::TooLong { chars, max }) => Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "{what} is {chars} characters long; the Glue Data Catalog, where Athena keeps it, stores at most {max}"
            ),
        )
        .with_hint(format!("shorten it to {max} characters"))),
    }
}

/// A complete table definition: name, columns, partition spec, properties, location.
///
/// Build one with [`TableDef::builder`], which checks everything and reports every
/// problem at once:
///
/// ```
/// use iceberg_sql::prelude::*;
/// let err = TableDef::builder("analytics", "t")
///     .column(Column::new("name", IcebergType::String))
///     .partition(PartitionField::new("name", PartitionTransform::Day))
///     .location("s3://bucket")
///     .build()
///     .unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidPartition);
/// assert_eq!(err.others()[0].kind(), ErrorKind::InvalidLocation);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct TableDef {
    name: TableName,
    columns: Vec<Column>,
    partition_spec: Vec<PartitionField>,
    properties: TableProperties,
    location: Option<Location>,
    comment: Option<String>,
    /// Whether `name` passed [`TableName::check`] (a function of `name`): the builders
    /// then write it without checking it again for every statement.
    name_checked: bool,
    /// Whether a column is a `timestamptz` (a function of `columns`): where none is,
    /// the type rules rewrite no comparison, and every statement's typing knows it at once.
    has_tz_column: bool,
}

impl fmt::Debug for TableDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableDef")
            .field("name", &self.name)
            .field("columns", &self.columns)
            .field("partition_spec", &self.partition_spec)
            .field("properties", &self.properties)
            .field("location", &self.location)
            .field("comment", &self.comment)
            .finish()
    }
}

impl TableDef {
    /// Starts a definition of `database.table`.
    pub fn builder(database: impl Into<String>, table: impl Into<String>) -> TableDefBuilder {
        TableDefBuilder {
            name: TableName::new(database, table),
            columns: Vec::new(),
            partition_spec: Vec::new(),
            properties: TableProperties::new(),
            raw_properties: Vec::new(),
            location: None,
            comment: None,
        }
    }

    /// The qualified name.
    pub fn name(&self) -> &TableName {
        &self.name
    }

    /// Columns, in table order.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The column called `name`, if any.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// The partition spec, in order.
    pub fn partition_spec(&self) -> &[PartitionField] {
        &self.partition_spec
    }

    /// Table properties.
    pub fn properties(&self) -> &TableProperties {
        &self.properties
    }

    /// The S3 location, if set (Athena's CREATE TABLE requires one).
    pub fn location(&self) -> Option<&Location> {
        self.location.as_ref()
    }

    /// Table comment, if any.
    pub fn comment(&self) -> Option<&str> {
        self.comment.as_deref()
    }

    /// The same table under another name (e.g. a staging copy).
    pub fn renamed(&self, database: impl Into<String>, table: impl Into<String>) -> TableDef {
        let name = TableName::new(database, table);
        TableDef {
            name_checked: name.check().is_ok(),
            name,
            ..self.clone()
        }
    }

    /// True when the name passed [`TableName::check`]: always for a definition from
    /// [`TableDefBuilder::build`]; for one from [`TableDef::renamed`], when the new
    /// name did.
    pub(crate) fn name_is_checked(&self) -> bool {
        self.name_checked
    }

    /// True when a column is a `timestamptz`.
    pub(crate) fn has_tz_column(&self) -> bool {
        self.has_tz_column
    }

    /// The same table at another location.
    pub fn with_location(&self, location: Location) -> TableDef {
        TableDef {
            location: Some(location),
            ..self.clone()
        }
    }

    /// The same table with `columns` (checked by the caller).
    #[cfg(feature = "arrow")]
    pub(crate) fn with_columns(&self, columns: Vec<Column>) -> TableDef {
        TableDef {
            has_tz_column: any_tz_column(&columns),
            columns,
            ..self.clone()
        }
    }

    /// The partition-field names Iceberg would refuse when it creates this table (see
    /// `check_spec`); [`TableDef::check`] covers the rest of the spec.
    pub(crate) fn check_new_partition_names(&self) -> Vec<Error> {
        let names: Vec<&str> = self.columns.iter().map(|c| c.name.as_str()).collect();
        check_spec(&self.partition_spec, &names, SpecRules::NewTableNames)
    }

    /// Checks the whole definition and returns every problem at once: names, duplicate
    /// columns, types, partition fields against their source columns, properties and
    /// comments.
    pub fn check(&self) -> Result<()> {
        let mut errors = Vec::new();
        if let Err(e) = self.name.check() {
            errors.extend(e.into_vec());
        }
        if self.columns.is_empty() {
            errors.push(Error::new(
                ErrorKind::InvalidTable,
                format!("table `{}` has no columns", self.name),
            ));
        }
        let mut seen = HashSet::new();
        for c in &self.columns {
            if let Err(e) = check_name(&c.name, NameRole::Column) {
                errors.push(e);
            }
            if !seen.insert(c.name.as_str()) {
                errors.push(Error::new(
                    ErrorKind::InvalidTable,
                    format!("table `{}` has two columns named `{}`", self.name, c.name),
                ));
            }
            if let Err(e) = c.ty.check(&c.name, false) {
                errors.push(e);
            }
            if let Some(comment) = &c.comment {
                if let Err(e) = check_comment(
                    &format!("comment of column `{}`", c.name),
                    CommentOf::Column,
                    comment,
                ) {
                    errors.push(e);
                }
            }
        }
        for p in &self.partition_spec {
            match self.column(&p.source) {
                None => errors.push(
                    Error::new(
                        ErrorKind::InvalidPartition,
                        format!("partition `{p}` names no column of table `{}`", self.name),
                    )
                    .with_hint("partition columns must also be declared as columns"),
                ),
                Some(c) => {
                    if let Err(e) = p.check(&c.ty) {
                        errors.push(e);
                    }
                }
            }
        }
        let names: Vec<&str> = self.columns.iter().map(|c| c.name.as_str()).collect();
        errors.extend(check_spec(&self.partition_spec, &names, SpecRules::Shape));
        if let Err(e) = self.properties.check() {
            errors.extend(e.into_vec());
        }
        if let Some(comment) = &self.comment {
            if let Err(e) = check_comment("table comment", CommentOf::Table, comment) {
                errors.push(e);
            }
        }
        Error::check_all(errors)
    }
}

/// Builds a [`TableDef`]; `build()` checks it.
#[derive(Debug, Clone)]
#[must_use]
pub struct TableDefBuilder {
    name: TableName,
    columns: Vec<Column>,
    partition_spec: Vec<PartitionField>,
    properties: TableProperties,
    raw_properties: Vec<(String, String)>,
    location: Option<String>,
    comment: Option<String>,
}

impl TableDefBuilder {
    /// Appends a column.
    pub fn column(mut self, column: Column) -> Self {
        self.columns.push(column);
        self
    }

    /// Appends several columns.
    pub fn columns(mut self, columns: impl IntoIterator<Item = Column>) -> Self {
        self.columns.extend(columns);
        self
    }

    /// Appends a partition field.
    pub fn partition(mut self, field: PartitionField) -> Self {
        self.partition_spec.push(field);
        self
    }

    /// Sets a typed property.
    pub fn property(mut self, property: TableProperty) -> Self {
        self.properties.set(property);
        self
    }

    /// Sets a property from its Athena key and value text; checked by `build()`.
    pub fn property_str(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.raw_properties.push((key.into(), value.into()));
        self
    }

    /// Sets the S3 location; checked by `build()`.
    pub fn location(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }

    /// Sets a table comment (rendered in Spark; Athena documents no table comment for
    /// Iceberg tables, so it is not rendered there).
    pub fn comment(mut self, comment: impl Into<String>) -> Self {
        self.comment = Some(comment.into());
        self
    }

    /// Checks and returns the definition, or every problem found.
    pub fn build(self) -> Result<TableDef> {
        let mut errors = Vec::new();
        let mut properties = self.properties;
        for (k, v) in &self.raw_properties {
            match TableProperty::parse(k, v) {
                Ok(p) => {
                    properties.set(p);
                }
                Err(e) => errors.push(e),
            }
        }
        let location = match self.location.as_deref().map(|l| {
            let location = Location::parse(l)?;
            location.check_key_length("table location", LocationHolds::IcebergTable)?;
            Ok(location)
        }) {
            None => None,
            Some(Ok(l)) => Some(l),
            Some(Err(e)) => {
                errors.push(e);
                None
            }
        };
        let mut def = TableDef {
            name: self.name,
            columns: self.columns,
            partition_spec: self.partition_spec,
            properties,
            location,
            comment: self.comment,
            name_checked: false,
            has_tz_column: false,
        };
        def.has_tz_column = any_tz_column(&def.columns);
        if let Err(e) = def.check() {
            // Definition problems first, then the property/location parse problems.
            let mut all = e.into_vec();
            all.append(&mut errors);
            errors = all;
        }
        Error::check_all(errors)?;
        // `check` above found no problem, the name's included.
        def.name_checked = true;
        Ok(def)
    }
}

/// Whether a column is a `timestamptz`.
pub(crate) fn any_tz_column(columns: &[Column]) -> bool {
    columns
        .iter()
        .any(|c| matches!(c.ty, IcebergType::TimestampTz))
}
