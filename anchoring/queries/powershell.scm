; PowerShell: functions, classes and their methods.

(function_statement (function_name) @name) @definition.function
(class_statement . (simple_name) @name) @definition.class
(class_method_definition (simple_name) @name) @definition.method
(enum_statement . (simple_name) @name) @definition.enum

; Cyclomatic complexity decision points.
(if_statement) @branch
(elseif_clause) @branch
(foreach_statement) @branch
(for_statement) @branch
(while_statement) @branch
(do_statement) @branch
(switch_clause) @branch
(catch_clause) @branch
(logical_expression ["-and" "-or"]) @branch
