//! The statements our kinds render, field by field; every other statement is refused
//! (the top-level check names the expected statement first, so this refusal is what
//! [`inspect`](crate::validate::inspect) reports).

use std::ops::ControlFlow;

use sqlparser::ast::{
    AlterColumnOperation, AlterTable, AlterTableOperation, Assignment, AssignmentTarget, ColumnDef,
    ColumnOption, ColumnOptionDef, CreateTable, CreateTableOptions, CreateView, Delete, FromTable,
    HiveDistributionStyle, HiveFormat, HiveIOFormat, Insert, Merge, MergeAction, MergeClause,
    MergeInsertExpr, MergeInsertKind, MergeUpdateExpr, MergeUpdateKind, MySQLColumnPosition,
    RenameTableNameKind, ShowStatementFilter, ShowStatementFilterPosition, ShowStatementIn,
    ShowStatementOptions, Spanned, SqlOption, Statement, TableObject, Update, VacuumStatement,
    ViewColumnDef,
};
use sqlparser::tokenizer::Span;

use super::{Flow, Walk, BUILDER_WAY_OUT};

impl Walk<'_> {
    pub(super) fn statement(&mut self, stmt: &Statement) -> Flow {
        let at = || stmt.span();
        match stmt {
            Statement::Query(q) => self.query(q),
            Statement::Insert(i) => self.insert(i),
            Statement::Update(u) => self.update(u),
            Statement::Delete(d) => self.delete(d),
            Statement::Merge(m) => self.merge(m),
            Statement::CreateTable(ct) => self.create_table(ct),
            Statement::CreateView(v) => self.create_view(v),
            Statement::AlterTable(a) => self.alter_table(a),
            Statement::Drop {
                object_type: _,
                if_exists: _,
                names,
                // Flags without names; the top-level check says which a kind may have.
                cascade: _,
                restrict: _,
                purge: _,
                temporary: _,
                table,
            } => {
                self.object_names(names)?;
                self.refuse_if(table.is_some(), "`DROP … ON <table>`", BUILDER_WAY_OUT, at)
            }
            Statement::ShowCreate {
                obj_type: _,
                obj_name,
            } => self.object_name(obj_name),
            Statement::CreateDatabase {
                db_name,
                // Flags and plain strings (no names or literal nodes).
                if_not_exists: _,
                location: _,
                managed_location: _,
                or_replace: _,
                transient: _,
                clone,
                data_retention_time_in_days: _,
                max_data_extension_time_in_days: _,
                external_volume: _,
                catalog: _,
                replace_invalid_characters: _,
                default_ddl_collation: _,
                storage_serialization_policy: _,
                comment: _,
                default_charset: _,
                default_collation: _,
                catalog_sync: _,
                catalog_sync_namespace_mode: _,
                catalog_sync_namespace_flatten_delimiter: _,
                with_tags,
                with_contacts,
            } => {
                self.object_name(db_name)?;
                self.refuse_if(
                    clone.is_some() || with_tags.is_some() || with_contacts.is_some(),
                    "`CREATE DATABASE … CLONE | WITH TAG | WITH CONTACT`",
                    BUILDER_WAY_OUT,
                    at,
                )
            }
            // Athena: `UNLOAD (SELECT …) TO 's3://…' WITH (format = '…', …)`.
            Statement::Unload {
                query,
                // The query's text when it is given as a string: plain text.
                query_text: _,
                to,
                auth,
                with,
                options,
            } => {
                if let Some(q) = query {
                    self.query(q)?;
                }
                self.ident(to)?;
                self.refuse_if(
                    auth.is_some(),
                    "`UNLOAD … IAM_ROLE`",
                    "remove it; Athena runs UNLOAD with the caller's credentials",
                    to.span,
                )?;
                self.sql_options(with)?;
                self.refuse_if(
                    !options.is_empty(),
                    "Redshift UNLOAD options",
                    BUILDER_WAY_OUT,
                    to.span,
                )
            }
            // Athena: `OPTIMIZE t REWRITE DATA USING BIN_PACK [WHERE …]`.
            Statement::OptimizeTable {
                name,
                has_table_keyword: _,
                on_cluster,
                partition,
                include_final: _,
                deduplicate,
                predicate,
                zorder,
            } => {
                self.object_name(name)?;
                self.refuse_if(
                    on_cluster.is_some()
                        || partition.is_some()
                        || deduplicate.is_some()
                        || zorder.is_some(),
                    "`OPTIMIZE … ON CLUSTER | PARTITION | DEDUPLICATE | ZORDER`",
                    BUILDER_WAY_OUT,
                    at,
                )?;
                self.opt_expr(predicate.as_ref())
            }
            Statement::Vacuum(VacuumStatement {
                // Redshift flags: no names; the target refuses them.
                full: _,
                sort_only: _,
                delete_only: _,
                reindex: _,
                recluster: _,
                table_name,
                threshold,
                boost: _,
            }) => {
                self.opt_object_name(table_name.as_ref())?;
                self.refuse_if(
                    threshold.is_some(),
                    "`VACUUM … TO n PERCENT`",
                    BUILDER_WAY_OUT,
                    at,
                )
            }
            // Spark: `CALL catalog.system.procedure(arg => value, …)`.
            Statement::Call(f) => self.function(f),
            Statement::ShowTables {
                terse: _,
                history: _,
                extended: _,
                full: _,
                external: _,
                show_options,
            } => self.show_options(show_options),
            Statement::ExplainTable {
                describe_alias: _,
                hive_format: _,
                has_table_keyword: _,
                table_name,
            } => self.object_name(table_name),
            // Every other statement: none of our kinds renders it.
            Statement::Analyze { .. }
            | Statement::Set { .. }
            | Statement::Truncate { .. }
            | Statement::Msck { .. }
            | Statement::Install { .. }
            | Statement::Load { .. }
            | Statement::Directory { .. }
            | Statement::Case { .. }
            | Statement::If { .. }
            | Statement::While { .. }
            | Statement::Raise { .. }
            | Statement::Copy { .. }
            | Statement::CopyIntoSnowflake { .. }
            | Statement::Open { .. }
            | Statement::Close { .. }
            | Statement::CreateVirtualTable { .. }
            | Statement::CreateIndex { .. }
            | Statement::CreateRole { .. }
            | Statement::CreateSecret { .. }
            | Statement::CreateServer { .. }
            | Statement::CreateForeignTable { .. }
            | Statement::CreateForeignDataWrapper { .. }
            | Statement::CreateUserMapping { .. }
            | Statement::CreatePolicy { .. }
            | Statement::CreateRule { .. }
            | Statement::CreateConnector { .. }
            | Statement::CreateOperator { .. }
            | Statement::CreateOperatorFamily { .. }
            | Statement::CreateOperatorClass { .. }
            | Statement::CreateTextSearch { .. }
            | Statement::CreateAggregate { .. }
            | Statement::AlterSchema { .. }
            | Statement::AlterIndex { .. }
            | Statement::AlterView { .. }
            | Statement::AlterFunction { .. }
            | Statement::AlterType { .. }
            | Statement::AlterCollation { .. }
            | Statement::AlterOperator { .. }
            | Statement::AlterOperatorFamily { .. }
            | Statement::AlterOperatorClass { .. }
            | Statement::AlterTextSearch { .. }
            | Statement::AlterRole { .. }
            | Statement::AlterPolicy { .. }
            | Statement::AlterTrigger { .. }
            | Statement::AlterConnector { .. }
            | Statement::AlterSession { .. }
            | Statement::AttachDatabase { .. }
            | Statement::AttachDuckDBDatabase { .. }
            | Statement::DetachDuckDBDatabase { .. }
            | Statement::DropFunction { .. }
            | Statement::DropDomain { .. }
            | Statement::DropProcedure { .. }
            | Statement::DropSecret { .. }
            | Statement::DropPolicy { .. }
            | Statement::DropRule { .. }
            | Statement::DropConnector { .. }
            | Statement::Declare { .. }
            | Statement::CreateExtension { .. }
            | Statement::CreateCollation { .. }
            | Statement::DropExtension { .. }
            | Statement::DropOperator { .. }
            | Statement::DropOperatorFamily { .. }
            | Statement::DropOperatorClass { .. }
            | Statement::Fetch { .. }
            | Statement::Flush { .. }
            | Statement::Discard { .. }
            | Statement::ShowFunctions { .. }
            | Statement::ShowVariable { .. }
            | Statement::ShowStatus { .. }
            | Statement::ShowVariables { .. }
            | Statement::ShowColumns { .. }
            | Statement::ShowCatalogs { .. }
            | Statement::ShowDatabases { .. }
            | Statement::ShowProcessList { .. }
            | Statement::ShowSchemas { .. }
            | Statement::ShowCharset { .. }
            | Statement::ShowObjects { .. }
            | Statement::ShowViews { .. }
            | Statement::ShowCollation { .. }
            | Statement::Use { .. }
            | Statement::StartTransaction { .. }
            | Statement::Comment { .. }
            | Statement::Commit { .. }
            | Statement::Rollback { .. }
            | Statement::CreateSchema { .. }
            | Statement::CreateFunction { .. }
            | Statement::CreateTrigger { .. }
            | Statement::DropTrigger { .. }
            | Statement::CreateProcedure { .. }
            | Statement::CreateMacro { .. }
            | Statement::CreateStage { .. }
            | Statement::CreateFileFormat { .. }
            | Statement::CreateWarehouse { .. }
            | Statement::Assert { .. }
            | Statement::Grant { .. }
            | Statement::GrantRole { .. }
            | Statement::Deny { .. }
            | Statement::Revoke { .. }
            | Statement::RevokeRole { .. }
            | Statement::AlterDefaultPrivileges { .. }
            | Statement::Deallocate { .. }
            | Statement::Execute { .. }
            | Statement::Prepare { .. }
            | Statement::Kill { .. }
            | Statement::Explain { .. }
            | Statement::Savepoint { .. }
            | Statement::ReleaseSavepoint { .. }
            | Statement::Cache { .. }
            | Statement::UNCache { .. }
            | Statement::CreateSequence { .. }
            | Statement::CreateDomain { .. }
            | Statement::CreateType { .. }
            | Statement::Pragma { .. }
            | Statement::Lock { .. }
            | Statement::LockTables { .. }
            | Statement::UnlockTables
            | Statement::LISTEN { .. }
            | Statement::UNLISTEN { .. }
            | Statement::NOTIFY { .. }
            | Statement::LoadData { .. }
            | Statement::RenameTable { .. }
            | Statement::List { .. }
            | Statement::Put { .. }
            | Statement::Remove { .. }
            | Statement::RaisError { .. }
            | Statement::Throw { .. }
            | Statement::Print { .. }
            | Statement::WaitFor { .. }
            | Statement::Return { .. }
            | Statement::ExportData { .. }
            | Statement::CreateUser { .. }
            | Statement::AlterUser { .. }
            | Statement::Reset { .. }
            | Statement::RefreshMaterializedView { .. } => {
                self.refuse("this statement", BUILDER_WAY_OUT, at)
            }
        }
    }

    fn insert(&mut self, ins: &Insert) -> Flow {
        let Insert {
            insert_token,
            optimizer_hints,
            or,
            // Flags: no names; the top-level check decides which forms a kind has.
            ignore: _,
            into: _,
            table,
            table_alias,
            columns,
            by_name: _,
            overwrite: _,
            source,
            assignments,
            partitioned,
            after_columns,
            overriding,
            has_table_keyword: _,
            on,
            returning,
            output,
            replace_into: _,
            priority,
            insert_alias,
            settings,
            format_clause,
            multi_table_insert_type,
            multi_table_into_clauses,
            multi_table_when_clauses,
            multi_table_else_clause,
        } = ins;
        let at = insert_token.0.span;
        self.refuse_if(
            !optimizer_hints.is_empty() || or.is_some() || priority.is_some(),
            "`INSERT` hints, `OR <action>` or priority",
            BUILDER_WAY_OUT,
            at,
        )?;
        match table {
            TableObject::TableName(name) => self.object_name(name)?,
            TableObject::TableFunction(_) | TableObject::TableQuery(_) => {
                return self.refuse("`INSERT INTO FUNCTION | (query)`", BUILDER_WAY_OUT, at)
            }
        }
        self.refuse_if(
            table_alias.is_some(),
            "an INSERT target alias",
            BUILDER_WAY_OUT,
            at,
        )?;
        self.object_names(columns)?;
        if let Some(q) = source {
            self.query(q)?;
        }
        self.refuse_if(
            !assignments.is_empty()
                || partitioned.is_some()
                || !after_columns.is_empty()
                || overriding.is_some(),
            "`INSERT … SET`, `PARTITION (…)` or `OVERRIDING`",
            BUILDER_WAY_OUT,
            at,
        )?;
        self.refuse_if(
            on.is_some() || returning.is_some() || output.is_some(),
            "`ON CONFLICT`, `ON DUPLICATE KEY`, `RETURNING` or `OUTPUT`",
            BUILDER_WAY_OUT,
            at,
        )?;
        self.refuse_if(
            insert_alias.is_some()
                || settings.is_some()
                || format_clause.is_some()
                || multi_table_insert_type.is_some()
                || !multi_table_into_clauses.is_empty()
                || !multi_table_when_clauses.is_empty()
                || multi_table_else_clause.is_some(),
            "a multi-table INSERT, an INSERT alias, `SETTINGS` or `FORMAT`",
            BUILDER_WAY_OUT,
            at,
        )
    }

    fn update(&mut self, u: &Update) -> Flow {
        let Update {
            update_token,
            optimizer_hints,
            table,
            on_cluster,
            assignments,
            from,
            selection,
            returning,
            output,
            or,
            order_by,
            limit,
            settings,
        } = u;
        let at = update_token.0.span;
        self.optimizer_hints(optimizer_hints, at)?;
        self.table_with_joins(table)?;
        self.refuse_if(on_cluster.is_some(), "`ON CLUSTER`", BUILDER_WAY_OUT, at)?;
        self.assignments(assignments)?;
        self.refuse_if(
            from.is_some(),
            "`UPDATE … FROM`",
            "write `MERGE INTO t USING s ON … WHEN MATCHED THEN UPDATE SET …`",
            at,
        )?;
        self.opt_expr(selection.as_ref())?;
        self.refuse_if(
            returning.is_some()
                || output.is_some()
                || or.is_some()
                || !order_by.is_empty()
                || limit.is_some()
                || settings.is_some(),
            "`RETURNING`, `OUTPUT`, `OR <action>`, `ORDER BY`, `LIMIT` or `SETTINGS` in an UPDATE",
            BUILDER_WAY_OUT,
            at,
        )
    }

    fn assignments(&mut self, assignments: &[Assignment]) -> Flow {
        for Assignment { target, value } in assignments {
            match target {
                AssignmentTarget::ColumnName(name) => self.object_name(name)?,
                AssignmentTarget::Tuple(names) => {
                    let at = names.first().map_or(Span::empty(), Spanned::span);
                    return self.refuse(
                        "a tuple assignment `SET (a, b) = …`",
                        "assign each column: `SET a = …, b = …`",
                        at,
                    );
                }
            }
            self.expr(value)?;
        }
        ControlFlow::Continue(())
    }

    fn delete(&mut self, d: &Delete) -> Flow {
        let Delete {
            delete_token,
            optimizer_hints,
            tables,
            from,
            on_cluster,
            using,
            selection,
            returning,
            output,
            order_by,
            limit,
            settings,
        } = d;
        let at = delete_token.0.span;
        self.refuse_if(
            !optimizer_hints.is_empty() || !tables.is_empty(),
            "an optimizer hint or `DELETE t FROM …`",
            BUILDER_WAY_OUT,
            at,
        )?;
        match from {
            FromTable::WithFromKeyword(tables) => {
                tables.iter().try_for_each(|t| self.table_with_joins(t))?
            }
            FromTable::WithoutKeyword(_) => {
                return self.refuse("`DELETE t` without FROM", "write `DELETE FROM t`", at)
            }
        }
        self.refuse_if(
            on_cluster.is_some() || using.is_some(),
            "`ON CLUSTER` or `USING` in a DELETE",
            BUILDER_WAY_OUT,
            at,
        )?;
        self.opt_expr(selection.as_ref())?;
        self.refuse_if(
            returning.is_some()
                || output.is_some()
                || !order_by.is_empty()
                || limit.is_some()
                || settings.is_some(),
            "`RETURNING`, `OUTPUT`, `ORDER BY`, `LIMIT` or `SETTINGS` in a DELETE",
            BUILDER_WAY_OUT,
            at,
        )
    }

    fn merge(&mut self, m: &Merge) -> Flow {
        let Merge {
            merge_token,
            optimizer_hints,
            // MERGE without INTO: the top-level check refuses it; no names.
            into: _,
            table,
            source,
            on,
            clauses,
            output,
        } = m;
        let at = merge_token.0.span;
        self.optimizer_hints(optimizer_hints, at)?;
        self.table_factor(table)?;
        self.table_factor(source)?;
        self.expr(on)?;
        for MergeClause {
            when_token,
            // WHEN [NOT] MATCHED [BY SOURCE|TARGET]: the top-level check decides.
            clause_kind: _,
            predicate,
            action,
        } in clauses
        {
            self.opt_expr(predicate.as_ref())?;
            let at = when_token.0.span;
            match action {
                MergeAction::Insert(MergeInsertExpr {
                    insert_token: _,
                    columns,
                    kind_token: _,
                    kind,
                    insert_predicate,
                }) => {
                    self.object_names(columns)?;
                    match kind {
                        MergeInsertKind::Values(v) => self.values(v)?,
                        // Spark: `INSERT *`.
                        MergeInsertKind::Wildcard => {}
                        MergeInsertKind::Row => {
                            return self.refuse("`INSERT ROW`", "write `INSERT (…) VALUES (…)`", at)
                        }
                    }
                    self.refuse_if(
                        insert_predicate.is_some(),
                        "`INSERT … WHERE`",
                        BUILDER_WAY_OUT,
                        at,
                    )?;
                }
                MergeAction::Update(MergeUpdateExpr {
                    update_token: _,
                    kind,
                    update_predicate,
                    delete_predicate,
                }) => {
                    match kind {
                        MergeUpdateKind::Set(assignments) => self.assignments(assignments)?,
                        // Spark: `UPDATE SET *` (the top-level check refuses it in Trino).
                        MergeUpdateKind::Wildcard => {}
                    }
                    self.refuse_if(
                        update_predicate.is_some() || delete_predicate.is_some(),
                        "`UPDATE … WHERE` / `DELETE WHERE`",
                        BUILDER_WAY_OUT,
                        at,
                    )?;
                }
                MergeAction::Delete { delete_token: _ } => {}
                MergeAction::DoNothing { .. } => {
                    return self.refuse("`DO NOTHING`", "leave out the WHEN clause", at)
                }
            }
        }
        self.refuse_if(output.is_some(), "`OUTPUT`", BUILDER_WAY_OUT, at)
    }

    fn create_table(&mut self, ct: &CreateTable) -> Flow {
        let CreateTable {
            // Flags: no names; the top-level check and the target decide which a kind has.
            or_replace: _,
            temporary: _,
            unlogged: _,
            external: _,
            dynamic: _,
            global: _,
            if_not_exists: _,
            transient: _,
            volatile: _,
            iceberg: _,
            snapshot: _,
            name,
            columns,
            constraints,
            hive_distribution,
            hive_formats,
            table_options,
            // Plain strings and keywords: no names or literal nodes.
            file_format: _,
            location: _,
            query,
            sqlite_table_options,
            like,
            clone,
            version,
            comment: _,
            on_commit: _,
            on_cluster,
            primary_key,
            order_by,
            partition_by,
            cluster_by,
            clustered_by,
            inherits,
            partition_of,
            for_values,
            copy_grants: _,
            enable_schema_evolution: _,
            change_tracking: _,
            data_retention_time_in_days: _,
            max_data_extension_time_in_days: _,
            default_ddl_collation: _,
            with_aggregation_policy,
            with_row_access_policy,
            with_storage_lifecycle_policy,
            with_tags,
            external_volume: _,
            with_connection,
            base_location: _,
            catalog: _,
            catalog_sync: _,
            storage_serialization_policy: _,
            target_lag: _,
            warehouse,
            refresh_mode: _,
            initialize: _,
            require_user: _,
            diststyle: _,
            distkey,
            sortkey,
            backup: _,
            multiset: _,
            fallback: _,
            with_data: _,
        } = ct;
        let at = || name.span();
        self.object_name(name)?;
        self.column_defs(columns)?;
        self.refuse_if(
            !constraints.is_empty(),
            "a table constraint",
            BUILDER_WAY_OUT,
            at,
        )?;
        match hive_distribution {
            HiveDistributionStyle::NONE => {}
            // Hive's `PARTITIONED BY (c type, …)`.
            HiveDistributionStyle::PARTITIONED { columns } => self.column_defs(columns)?,
            HiveDistributionStyle::SKEWED { .. } => {
                return self.refuse("`SKEWED BY`", BUILDER_WAY_OUT, at)
            }
        }
        if let Some(HiveFormat {
            row_format,
            serde_properties,
            storage,
            // A plain string.
            location: _,
        }) = hive_formats
        {
            self.refuse_if(
                row_format.is_some() || serde_properties.is_some(),
                "`ROW FORMAT` / `WITH SERDEPROPERTIES`",
                BUILDER_WAY_OUT,
                at,
            )?;
            match storage {
                None | Some(HiveIOFormat::FileFormat { format: _ }) => {}
                Some(HiveIOFormat::Using { format }) => self.ident(format)?,
                Some(HiveIOFormat::IOF { .. }) => {
                    return self.refuse(
                        "`STORED AS INPUTFORMAT … OUTPUTFORMAT …`",
                        BUILDER_WAY_OUT,
                        at,
                    )
                }
            }
        }
        self.table_options(table_options)?;
        if let Some(q) = query {
            self.query(q)?;
        }
        self.refuse_if(
            *sqlite_table_options != Default::default()
                || like.is_some()
                || clone.is_some()
                || version.is_some()
                || on_cluster.is_some()
                || primary_key.is_some()
                || order_by.is_some(),
            "a CREATE TABLE clause of another engine (LIKE, CLONE, ON CLUSTER, PRIMARY KEY, ORDER BY, …)", BUILDER_WAY_OUT,
            at,
        )?;
        // Iceberg partition transforms: `PARTITIONED BY (bucket(16, id), day(ts))`.
        self.opt_expr(partition_by.as_deref())?;
        self.refuse_if(
            cluster_by.is_some()
                || clustered_by.is_some()
                || inherits.is_some()
                || partition_of.is_some()
                || for_values.is_some()
                || with_aggregation_policy.is_some()
                || with_row_access_policy.is_some()
                || with_storage_lifecycle_policy.is_some()
                || with_tags.is_some()
                || with_connection.is_some()
                || warehouse.is_some()
                || distkey.is_some()
                || sortkey.is_some(),
            "a CREATE TABLE clause of another engine (CLUSTER BY, INHERITS, policies, tags, …)",
            BUILDER_WAY_OUT,
            at,
        )
    }

    fn table_options(&mut self, options: &CreateTableOptions) -> Flow {
        match options {
            CreateTableOptions::None => ControlFlow::Continue(()),
            // Trino `WITH (…)`, Hive `TBLPROPERTIES (…)`, and the forms the targets refuse.
            CreateTableOptions::With(o)
            | CreateTableOptions::Options(o)
            | CreateTableOptions::Plain(o)
            | CreateTableOptions::TableProperties(o) => self.sql_options(o),
        }
    }

    pub(super) fn sql_options(&mut self, options: &[SqlOption]) -> Flow {
        for option in options {
            match option {
                SqlOption::KeyValue { key, value } => {
                    self.object_name(key)?;
                    self.expr(value)?;
                }
                SqlOption::Ident(name) => self.object_name(name)?,
                // A plain string.
                SqlOption::Comment(_) => {}
                SqlOption::Clustered(_)
                | SqlOption::Partition { .. }
                | SqlOption::TableSpace(_)
                | SqlOption::NamedParenthesizedList(_) => {
                    return self.refuse("this table option", BUILDER_WAY_OUT, Span::empty())
                }
            }
        }
        ControlFlow::Continue(())
    }

    pub(super) fn column_def(&mut self, c: &ColumnDef) -> Flow {
        let ColumnDef {
            name,
            data_type,
            options,
        } = c;
        self.ident(name)?;
        self.data_type(data_type)?;
        for ColumnOptionDef { name, option } in options {
            self.opt_ident(name.as_ref())?;
            self.column_option(option, c.name.span)?;
        }
        ControlFlow::Continue(())
    }

    fn column_option(&mut self, option: &ColumnOption, at: Span) -> Flow {
        match option {
            // Plain strings and keywords.
            ColumnOption::Null | ColumnOption::NotNull | ColumnOption::Comment(_) => {
                ControlFlow::Continue(())
            }
            // Spark 3.4+: column DEFAULT values.
            ColumnOption::Default(e) => self.expr(e),
            ColumnOption::PrimaryKey(_)
            | ColumnOption::Unique(_)
            | ColumnOption::ForeignKey(_)
            | ColumnOption::Check(_) => self.refuse("a column constraint", BUILDER_WAY_OUT, at),
            ColumnOption::Materialized(_)
            | ColumnOption::Ephemeral(_)
            | ColumnOption::Alias(_)
            | ColumnOption::DialectSpecific(_)
            | ColumnOption::CharacterSet(_)
            | ColumnOption::Collation(_)
            | ColumnOption::OnUpdate(_)
            | ColumnOption::Generated { .. }
            | ColumnOption::Options(_)
            | ColumnOption::GenericOptions(_)
            | ColumnOption::Identity(_)
            | ColumnOption::OnConflict(_)
            | ColumnOption::Policy(_)
            | ColumnOption::Tags(_)
            | ColumnOption::Srid(_)
            | ColumnOption::Invisible => self.refuse("this column option", BUILDER_WAY_OUT, at),
        }
    }

    fn create_view(&mut self, v: &CreateView) -> Flow {
        let CreateView {
            // Flags and a plain string: no names; the top-level check refuses the ones
            // no target writes.
            or_alter: _,
            or_replace: _,
            materialized: _,
            secure: _,
            name,
            name_before_not_exists: _,
            columns,
            query,
            options,
            cluster_by,
            comment: _,
            with_no_schema_binding: _,
            if_not_exists: _,
            temporary: _,
            copy_grants: _,
            to,
            params,
        } = v;
        let at = || name.span();
        self.object_name(name)?;
        for ViewColumnDef {
            name,
            data_type,
            options,
        } in columns
        {
            self.ident(name)?;
            self.opt_data_type(data_type.as_ref())?;
            self.refuse_if(
                options.is_some(),
                "view column options",
                BUILDER_WAY_OUT,
                name.span,
            )?;
        }
        self.query(query)?;
        self.table_options(options)?;
        self.refuse_if(
            !cluster_by.is_empty() || to.is_some() || params.is_some(),
            "`CLUSTER BY`, `TO` or view parameters in CREATE VIEW",
            BUILDER_WAY_OUT,
            at,
        )
    }

    fn alter_table(&mut self, a: &AlterTable) -> Flow {
        let AlterTable {
            name,
            if_exists: _,
            only: _,
            operations,
            location,
            on_cluster,
            // Snowflake's ALTER ICEBERG|DYNAMIC TABLE: a keyword.
            table_type: _,
            end_token: _,
        } = a;
        let at = || name.span();
        self.object_name(name)?;
        for op in operations {
            self.alter_table_operation(op, name.span())?;
        }
        self.refuse_if(
            location.is_some() || on_cluster.is_some(),
            "`SET LOCATION` or `ON CLUSTER` in ALTER TABLE",
            BUILDER_WAY_OUT,
            at,
        )
    }

    fn alter_table_operation(&mut self, op: &AlterTableOperation, at: Span) -> Flow {
        match op {
            AlterTableOperation::AddColumn {
                column_keyword: _,
                if_not_exists: _,
                column_def,
                column_position,
            } => {
                self.column_def(column_def)?;
                self.column_position(column_position.as_ref())
            }
            AlterTableOperation::AlterColumn { column_name, op } => {
                self.ident(column_name)?;
                match op {
                    AlterColumnOperation::SetNotNull
                    | AlterColumnOperation::DropNotNull
                    | AlterColumnOperation::DropDefault => ControlFlow::Continue(()),
                    AlterColumnOperation::SetDefault { value } => self.expr(value),
                    AlterColumnOperation::SetDataType {
                        data_type,
                        using,
                        had_set: _,
                    } => {
                        self.data_type(data_type)?;
                        self.refuse_if(
                            using.is_some(),
                            "`SET DATA TYPE … USING`",
                            BUILDER_WAY_OUT,
                            at,
                        )
                    }
                    AlterColumnOperation::AddGenerated { .. }
                    | AlterColumnOperation::GenericOptions { .. } => {
                        self.refuse("this ALTER COLUMN operation", BUILDER_WAY_OUT, at)
                    }
                }
            }
            // Hive: `CHANGE COLUMN old new type [COMMENT '…']`.
            AlterTableOperation::ChangeColumn {
                old_name,
                new_name,
                data_type,
                options,
                column_position,
            } => {
                self.ident(old_name)?;
                self.ident(new_name)?;
                self.data_type(data_type)?;
                for o in options {
                    self.column_option(o, new_name.span)?;
                }
                self.column_position(column_position.as_ref())
            }
            AlterTableOperation::DropColumn {
                has_column_keyword: _,
                column_names,
                if_exists: _,
                drop_behavior: _,
            } => self.idents(column_names),
            AlterTableOperation::RenameColumn {
                old_column_name,
                new_column_name,
            } => {
                self.ident(old_column_name)?;
                self.ident(new_column_name)
            }
            AlterTableOperation::RenameTable { table_name } => match table_name {
                RenameTableNameKind::As(n) | RenameTableNameKind::To(n) => self.object_name(n),
            },
            // `UNSET TBLPROPERTIES ('k', …)`, read by our hook.
            AlterTableOperation::ResetOptions { options } => self.object_names(options),
            AlterTableOperation::SetTblProperties { table_properties } => {
                self.sql_options(table_properties)
            }
            // Every other operation: none of our kinds renders it.
            AlterTableOperation::AddConstraint { .. }
            | AlterTableOperation::AddProjection { .. }
            | AlterTableOperation::DropProjection { .. }
            | AlterTableOperation::MaterializeProjection { .. }
            | AlterTableOperation::ClearProjection { .. }
            | AlterTableOperation::DisableRowLevelSecurity
            | AlterTableOperation::DisableRule { .. }
            | AlterTableOperation::DisableTrigger { .. }
            | AlterTableOperation::DropConstraint { .. }
            | AlterTableOperation::AttachPartition { .. }
            | AlterTableOperation::AttachPartitionOf { .. }
            | AlterTableOperation::DetachPartition { .. }
            | AlterTableOperation::DetachPartitionOf { .. }
            | AlterTableOperation::FreezePartition { .. }
            | AlterTableOperation::UnfreezePartition { .. }
            | AlterTableOperation::DropPrimaryKey { .. }
            | AlterTableOperation::DropForeignKey { .. }
            | AlterTableOperation::DropIndex { .. }
            | AlterTableOperation::EnableAlwaysRule { .. }
            | AlterTableOperation::EnableAlwaysTrigger { .. }
            | AlterTableOperation::EnableReplicaRule { .. }
            | AlterTableOperation::EnableReplicaTrigger { .. }
            | AlterTableOperation::EnableRowLevelSecurity
            | AlterTableOperation::ForceRowLevelSecurity
            | AlterTableOperation::NoForceRowLevelSecurity
            | AlterTableOperation::EnableRule { .. }
            | AlterTableOperation::EnableTrigger { .. }
            | AlterTableOperation::RenamePartitions { .. }
            | AlterTableOperation::ReplicaIdentity { .. }
            | AlterTableOperation::AddPartitions { .. }
            | AlterTableOperation::DropPartitions { .. }
            | AlterTableOperation::ModifyColumn { .. }
            | AlterTableOperation::ModifyOrderBy { .. }
            | AlterTableOperation::RenameConstraint { .. }
            | AlterTableOperation::SwapWith { .. }
            | AlterTableOperation::SetLogged
            | AlterTableOperation::SetUnlogged
            | AlterTableOperation::OwnerTo { .. }
            | AlterTableOperation::ClusterBy { .. }
            | AlterTableOperation::DropClusteringKey
            | AlterTableOperation::AlterSortKey { .. }
            | AlterTableOperation::SuspendRecluster
            | AlterTableOperation::ResumeRecluster
            | AlterTableOperation::Refresh { .. }
            | AlterTableOperation::Suspend
            | AlterTableOperation::Resume
            | AlterTableOperation::Algorithm { .. }
            | AlterTableOperation::Lock { .. }
            | AlterTableOperation::AutoIncrement { .. }
            | AlterTableOperation::ValidateConstraint { .. }
            | AlterTableOperation::Inherit { .. }
            | AlterTableOperation::NoInherit { .. }
            | AlterTableOperation::SetOptionsParens { .. }
            | AlterTableOperation::GenericOptions { .. } => {
                self.refuse("this ALTER TABLE operation", BUILDER_WAY_OUT, at)
            }
        }
    }

    /// Spark: `ADD COLUMNS (c type FIRST | AFTER other)`.
    fn column_position(&mut self, position: Option<&MySQLColumnPosition>) -> Flow {
        match position {
            None | Some(MySQLColumnPosition::First) => ControlFlow::Continue(()),
            Some(MySQLColumnPosition::After(other)) => self.ident(other),
        }
    }

    fn show_options(&mut self, o: &ShowStatementOptions) -> Flow {
        let ShowStatementOptions {
            show_in,
            starts_with,
            limit,
            limit_from,
            filter_position,
        } = o;
        if let Some(ShowStatementIn {
            clause: _,
            parent_type: _,
            parent_name,
        }) = show_in
        {
            self.opt_object_name(parent_name.as_ref())?;
        }
        if let Some(v) = starts_with {
            self.value(v)?;
        }
        self.opt_expr(limit.as_ref())?;
        if let Some(v) = limit_from {
            self.value(v)?;
        }
        match filter_position {
            None => ControlFlow::Continue(()),
            Some(
                ShowStatementFilterPosition::Infix(f) | ShowStatementFilterPosition::Suffix(f),
            ) => {
                match f {
                    // Plain strings.
                    ShowStatementFilter::Like(_)
                    | ShowStatementFilter::ILike(_)
                    | ShowStatementFilter::NoKeyword(_) => ControlFlow::Continue(()),
                    ShowStatementFilter::Where(e) => self.expr(e),
                }
            }
        }
    }
}
