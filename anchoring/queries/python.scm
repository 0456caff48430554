; Python definitions. A decorated_definition shares its @name node with the
; inner definition, so the larger (decorators included) range wins.

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(decorated_definition
  definition: (class_definition
    name: (identifier) @name)) @definition.class

(decorated_definition
  definition: (function_definition
    name: (identifier) @name)) @definition.function

; Cyclomatic complexity decision points.
(if_statement) @branch
(elif_clause) @branch
(for_statement) @branch
(while_statement) @branch
(except_clause) @branch
(conditional_expression) @branch
(boolean_operator) @branch
(case_clause (case_pattern (_))) @branch
(for_in_clause) @branch
(if_clause) @branch
