; TOML: tables and array-of-tables elements, named by their (dotted) key;
; top-level pairs. A table's range runs up to the next table.

(table [(bare_key) (dotted_key) (quoted_key)] @name) @definition.table
(table_array_element [(bare_key) (dotted_key) (quoted_key)] @name) @definition.table
(document (pair [(bare_key) (dotted_key) (quoted_key)] @name) @definition.key)
