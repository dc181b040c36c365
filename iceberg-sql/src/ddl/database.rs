//! Statements on a whole database: `CREATE DATABASE`, `DROP DATABASE`, `SHOW TABLES`,
//! and the query that lists its views with their definitions.
//!
//! Athena runs them through its Hive DDL parser
//! (<https://docs.aws.amazon.com/athena/latest/ug/create-database.html>,
//! <https://docs.aws.amazon.com/athena/latest/ug/drop-database.html>,
//! <https://docs.aws.amazon.com/athena/latest/ug/show-tables.html>); Spark has the same
//! statements for its namespaces, Trino calls a database a schema (`CREATE SCHEMA`,
//! `DROP SCHEMA`). Each target's rules decide the keyword, the clauses and what is
//! refused.

use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{DatabaseName, Location};
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `CREATE DATABASE [IF NOT EXISTS] db [COMMENT '…'] [LOCATION 's3://…/']`.
///
/// The location is where tables of the database without their own location would go
/// (this crate always gives tables one); the comment becomes the Glue database's
/// description.
///
/// ```
/// use iceberg_sql::prelude::*;
/// let db = DatabaseName::new("analytics");
/// assert_eq!(db.create_database().if_not_exists().build()?.sql(),
///            "CREATE DATABASE IF NOT EXISTS analytics");
/// let full = db.create_database()
///     .comment("MCP tool events")
///     .location("s3://my-datalake/iceberg/");
/// assert_eq!(full.build()?.sql(),
///            "CREATE DATABASE analytics\nCOMMENT 'MCP tool events'\nLOCATION 's3://my-datalake/iceberg/'");
/// assert_eq!(full.build_for(Dialect::Spark)?.sql(),
///            "CREATE DATABASE analytics\nCOMMENT 'MCP tool events'\nLOCATION 's3://my-datalake/iceberg/'");
/// assert_eq!(db.create_database().location("s3://my-datalake/iceberg/").build_for(Dialect::Trino)?.sql(),
///            "CREATE SCHEMA analytics\nWITH (location = 's3://my-datalake/iceberg/')");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct CreateDatabase<'a> {
    name: &'a DatabaseName,
    if_not_exists: bool,
    comment: Option<String>,
    location: Option<String>,
}

/// Builds `DROP DATABASE [IF EXISTS] db [CASCADE]`.
///
/// Without `cascade()` the engine refuses to drop a database that still has tables.
/// With it, Athena drops every table of the database **and deletes their data**
/// (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-additional-operations.html>);
/// Trino's Iceberg connector does the same (`DROP SCHEMA … CASCADE`); Spark's Iceberg
/// catalog cannot, and S3 Tables deletes only an empty namespace, so CASCADE is refused
/// for those two targets.
///
/// ```
/// use iceberg_sql::prelude::*;
/// let db = DatabaseName::new("scratch");
/// assert_eq!(db.drop_database().if_exists().build()?.sql(), "DROP DATABASE IF EXISTS scratch");
/// assert_eq!(db.drop_database().cascade().build()?.sql(), "DROP DATABASE scratch CASCADE");
/// assert_eq!(db.drop_database().cascade().build_for(Dialect::Spark).unwrap_err().kind(),
///            ErrorKind::Unsupported);
/// assert_eq!(db.drop_database().cascade().build_for(Dialect::Trino)?.sql(),
///            "DROP SCHEMA scratch CASCADE");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct DropDatabase<'a> {
    name: &'a DatabaseName,
    if_exists: bool,
    cascade: bool,
}

/// Builds `SHOW TABLES IN db` with an optional table-name filter: one result row per
/// table (and view), its name in the first column.
///
/// The filter is a pattern of name characters, `*` (any run of characters) and `|`
/// (either side), which Athena and Spark read the same way; Athena writes it as a bare
/// string, Spark after `LIKE`. Trino's filter is SQL `LIKE`: `*` becomes `%`, `_` is
/// escaped, and `|` is refused (LIKE has no alternatives).
///
/// ```
/// use iceberg_sql::prelude::*;
/// let db = DatabaseName::new("analytics");
/// assert_eq!(db.show_tables().build()?.sql(), "SHOW TABLES IN analytics");
/// assert_eq!(db.show_tables().like("mcp_*|audit_*").build()?.sql(),
///            "SHOW TABLES IN analytics 'mcp_*|audit_*'");
/// assert_eq!(db.show_tables().like("mcp_*").build_for(Dialect::Spark)?.sql(),
///            "SHOW TABLES IN analytics LIKE 'mcp_*'");
/// assert_eq!(db.show_tables().like("mcp_*").build_for(Dialect::Trino)?.sql(),
///            r"SHOW TABLES IN analytics LIKE 'mcp\_%' ESCAPE '\'");
/// assert_eq!(db.show_tables().like("mcp_%").build().unwrap_err().kind(), ErrorKind::InvalidValue);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct ShowTables<'a> {
    name: &'a DatabaseName,
    pattern: Option<String>,
}

impl DatabaseName {
    /// Starts a `CREATE DATABASE` for this database.
    pub fn create_database(&self) -> CreateDatabase<'_> {
        CreateDatabase {
            name: self,
            if_not_exists: false,
            comment: None,
            location: None,
        }
    }

    /// Starts a `DROP DATABASE` for this database.
    pub fn drop_database(&self) -> DropDatabase<'_> {
        DropDatabase {
            name: self,
            if_exists: false,
            cascade: false,
        }
    }

    /// Starts a `SHOW TABLES IN` this database.
    pub fn show_tables(&self) -> ShowTables<'_> {
        ShowTables {
            name: self,
            pattern: None,
        }
    }

    /// Starts the query that lists this database's views and their definitions.
    pub fn list_views(&self) -> ListViews<'_> {
        ListViews { name: self }
    }
}

/// Builds the query listing a database's views, each with its definition (the text of
/// its query), by name: `SELECT table_name, view_definition FROM
/// information_schema.views WHERE table_schema = 'db' ORDER BY table_name`.
///
/// `information_schema.views` is Trino's (its columns are `table_catalog`,
/// `table_schema`, `table_name`, `view_owner`, `view_definition`:
/// `InformationSchemaTable.java` in trino's `core/trino-main`), so Athena's and Trino's.
/// Spark has no `information_schema`: its target refuses the query. Each row reads
/// into [`evolve::Reader::view`](crate::evolve::Reader::view).
///
/// ```
/// use iceberg_sql::prelude::*;
/// assert_eq!(DatabaseName::new("analytics").list_views().build()?.sql(),
///     "SELECT table_name, view_definition FROM information_schema.views \
///      WHERE table_schema = 'analytics' ORDER BY table_name");
/// assert!(DatabaseName::new("analytics").list_views().build_for(Dialect::Spark).is_err());
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct ListViews<'a> {
    name: &'a DatabaseName,
}

impl ListViews<'_> {
    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.name.check()?;
        // `information_schema.views` is a Trino engine's (Athena's, Trino's:
        // `InformationSchemaTable`); a target whose queries are not Trino text has none.
        if dialect.grammar(StatementKind::Select) != Grammar::TrinoDml {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "listing views with their definitions on {}: it has no information_schema",
                    dialect.rules().name()
                ),
            )
            .with_hint("run SHOW VIEWS IN the database, then SHOW CREATE TABLE of each view"));
        }
        let mut w = SqlWriter::new(StatementKind::Select, dialect);
        w.push("SELECT table_name, view_definition FROM information_schema.views WHERE table_schema = ")
            .string(self.name.as_str())
            .push(" ORDER BY table_name");
        w.finish()
    }
}

impl CreateDatabase<'_> {
    /// Adds `IF NOT EXISTS`: an existing database is left as it is.
    pub fn if_not_exists(mut self) -> Self {
        self.if_not_exists = true;
        self
    }

    /// Sets the database's comment (its Glue description).
    pub fn comment(mut self, comment: impl Into<String>) -> Self {
        self.comment = Some(comment.into());
        self
    }

    /// Sets the database's S3 folder.
    pub fn location(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let mut errors = Vec::new();
        if let Err(e) = self.name.check() {
            errors.extend(e.into_vec());
        }
        if let Some(comment) = &self.comment {
            if let Err(e) = crate::model::check_comment(
                "database comment",
                iceberg_sql_rules::CommentOf::Database,
                comment,
            ) {
                errors.push(e);
            }
        }
        let location = match self
            .location
            .as_deref()
            .map(|l| -> Result<Location> {
                let location = Location::parse_as("database location", l)?;
                check_database_location_length(&location)?;
                Ok(location)
            })
            .transpose()
        {
            Ok(l) => l,
            Err(e) => {
                errors.extend(e.into_vec());
                None
            }
        };
        Error::check_all(errors)?;
        let mut w = SqlWriter::new(StatementKind::CreateDatabase, dialect);
        let keyword = w.rules().database_keyword();
        w.push("CREATE ").push(keyword).push_char(' ');
        if self.if_not_exists {
            w.push("IF NOT EXISTS ");
        }
        w.ident(self.name.as_str());
        w.rules().write_create_database_clauses(
            &mut w,
            self.name,
            self.comment.as_deref(),
            location.as_ref(),
        )?;
        w.finish()
    }
}

impl DropDatabase<'_> {
    /// Adds `IF EXISTS`.
    pub fn if_exists(mut self) -> Self {
        self.if_exists = true;
        self
    }

    /// Adds `CASCADE`: drop the database's tables too (on Athena with their data).
    /// Refused for Spark, whose Iceberg catalog ignores it, and for Athena on S3 Tables,
    /// which deletes only an empty namespace.
    pub fn cascade(mut self) -> Self {
        self.cascade = true;
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.name.check()?;
        let mut w = SqlWriter::new(StatementKind::DropDatabase, dialect);
        if self.cascade {
            w.rules().check_drop_database_cascade(self.name)?;
        }
        let keyword = w.rules().database_keyword();
        w.push("DROP ").push(keyword).push_char(' ');
        if self.if_exists {
            w.push("IF EXISTS ");
        }
        w.ident(self.name.as_str());
        if self.cascade {
            w.push(" CASCADE");
        }
        w.finish()
    }
}

impl ShowTables<'_> {
    /// Lists only the tables whose names match `pattern`: name characters (`a-z`,
    /// `0-9`, `_`), `*` for any run of characters and `|` between alternatives.
    pub fn like(mut self, pattern: impl Into<String>) -> Self {
        self.pattern = Some(pattern.into());
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.name.check()?;
        if let Some(p) = &self.pattern {
            check_table_pattern(p)?;
        }
        let mut w = SqlWriter::new(StatementKind::ShowTables, dialect);
        w.push("SHOW TABLES IN ").ident(self.name.as_str());
        if let Some(p) = &self.pattern {
            w.rules().write_show_tables_pattern(&mut w, p)?;
        }
        w.finish()
    }
}

/// A `SHOW TABLES` pattern both engines read alike: `[a-z0-9_*|]`, 1 to 255 bytes.
/// Other regular-expression characters mean different things per engine and catalog
/// (Athena documents `.*` only for Hive metastores), so they are refused.
fn check_table_pattern(pattern: &str) -> Result<()> {
    let bad = pattern
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '*' | '|')));
    if pattern.is_empty() || pattern.len() > 255 || bad.is_some() {
        let why = match bad {
            Some(c) => format!("contains {c:?}"),
            None if pattern.is_empty() => "is empty".to_string(),
            None => format!("is {} bytes long (at most 255)", pattern.len()),
        };
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("SHOW TABLES pattern `{}` {why}", pattern.escape_debug()),
        )
        .with_hint(
            "use lower-case name characters, `*` for any run of characters and `|` between \
             alternatives, e.g. \"mcp_*|audit_*\"",
        ));
    }
    Ok(())
}

/// The Glue Data Catalog, where Athena keeps databases, stores a location of at most
/// [`iceberg_sql_rules::MAX_GLUE_DATABASE_LOCATION_CHARS`] characters, as written (with
/// its final `/`).
fn check_database_location_length(location: &Location) -> Result<()> {
    let chars = iceberg_sql_rules::aws_length(location.as_str());
    let max = iceberg_sql_rules::MAX_GLUE_DATABASE_LOCATION_CHARS;
    if chars <= max {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidLocation,
        format!(
            "database location `{location}` is {chars} characters long; the Glue Data Catalog, \
             where Athena keeps it, stores at most {max}"
        ),
    )
    .with_hint(format!(
        "use a folder whose URI is at most {max} characters, its final `/` included"
    )))
}
