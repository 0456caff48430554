; Lua definitions. `function M.f()` / `function M:f()` qualify by their
; table via @scope; `local f = function` spans the whole statement.

(function_declaration name: (identifier) @name) @definition.function
(function_declaration
  name: (dot_index_expression table: (_) @scope field: (identifier) @name)) @definition.function
(function_declaration
  name: (method_index_expression table: (_) @scope method: (identifier) @name)) @definition.method

(variable_declaration
  (assignment_statement
    (variable_list name: (identifier) @name)
    (expression_list value: (function_definition)))) @definition.function
(assignment_statement
  (variable_list name: (identifier) @name)
  (expression_list value: (function_definition))) @definition.function
(assignment_statement
  (variable_list name: (dot_index_expression table: (_) @scope field: (identifier) @name))
  (expression_list value: (function_definition))) @definition.function

; Cyclomatic complexity decision points.
(if_statement) @branch
(elseif_statement) @branch
(for_statement) @branch
(while_statement) @branch
(repeat_statement) @branch
(binary_expression ["and" "or"] @branch)
