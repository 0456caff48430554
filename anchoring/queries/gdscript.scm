; GDScript: functions, inner classes, the script's class_name, signals.

(function_definition name: (name) @name) @definition.function
(constructor_definition "_init" @name) @definition.constructor
(class_definition name: (name) @name) @definition.class
(signal_statement name: (name) @name) @definition.signal

; Cyclomatic complexity decision points.
(if_statement) @branch
(elif_clause) @branch
(for_statement) @branch
(while_statement) @branch
((pattern_section . (_) @_pattern) @branch
 (#not-eq? @_pattern "_"))
(conditional_expression) @branch
(binary_operator ["and" "or" "&&" "||"] @branch)
