; Scala definitions (Scala 2 and 3). A `val f = (x) => ...` binding a
; lambda counts as a function, like JS arrow constants.

(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.object
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(given_definition name: (identifier) @name) @definition.object
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(type_definition name: (type_identifier) @name) @definition.type
(val_definition pattern: (identifier) @name value: (lambda_expression)) @definition.function

; Cyclomatic complexity decision points. Only `match` arms count (not the
; cases of a catch handler, which count once as the catch), and never `_`.
(if_expression) @branch
(for_expression) @branch
(while_expression) @branch
(do_while_expression) @branch
(catch_clause) @branch
((match_expression body: (case_block (case_clause pattern: (_) @_pattern) @branch))
  (#not-eq? @_pattern "_"))
((infix_expression operator: (operator_identifier) @_op) @branch
  (#any-of? @_op "&&" "||"))
