; OCaml definitions. A `let` binding is a function when it takes
; parameters or is bound to `fun`/`function`; plain values are skipped. Each binding of a
; `let rec f ... and g ...` is a definition of its own (the binding, not the whole `let`).

(value_definition
  (let_binding pattern: (value_name) @name (parameter)) @definition.function)
(value_definition
  (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)]) @definition.function)

(type_definition (type_binding name: (_) @name)) @definition.type
(module_definition (module_binding (module_name) @name)) @definition.module
(module_type_definition (module_type_name) @name) @definition.interface
(class_definition (class_binding (class_name) @name)) @definition.class
(method_definition (method_name) @name) @definition.method
(value_specification (value_name) @name) @definition.function

; Cyclomatic complexity decision points. A `try ... with` counts once.
(if_expression) @branch
(for_expression) @branch
(while_expression) @branch
(try_expression) @branch
((match_expression (match_case pattern: (_) @_pattern) @branch)
 (#not-eq? @_pattern "_"))
((function_expression (match_case pattern: (_) @_pattern) @branch)
 (#not-eq? @_pattern "_"))
(and_operator) @branch
(or_operator) @branch
