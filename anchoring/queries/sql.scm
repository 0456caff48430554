; SQL: schema objects created by DDL statements, named by their reference.

(create_table (object_reference name: (identifier) @name)) @definition.table
(create_view (object_reference name: (identifier) @name)) @definition.view
(create_materialized_view (object_reference name: (identifier) @name)) @definition.view
(create_function (object_reference name: (identifier) @name)) @definition.function
(create_index column: (identifier) @name) @definition.index
(create_type (object_reference name: (identifier) @name)) @definition.type
