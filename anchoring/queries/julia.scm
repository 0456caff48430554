; Julia: long and short-form functions, macros, structs, abstract types,
; modules.

(module_definition name: (identifier) @name) @definition.module
(function_definition (signature (call_expression . (identifier) @name))) @definition.function
(function_definition (signature (typed_expression (call_expression . (identifier) @name)))) @definition.function
(function_definition (signature (where_expression (call_expression . (identifier) @name)))) @definition.function
(assignment . (call_expression . (identifier) @name) (operator)) @definition.function
(macro_definition (signature (call_expression . (identifier) @name))) @definition.macro
(struct_definition (type_head [(identifier) @name (parametrized_type_expression . (identifier) @name)])) @definition.struct
(abstract_definition (type_head (identifier) @name)) @definition.type

; Cyclomatic complexity decision points.
(if_statement) @branch
(elseif_clause) @branch
(for_statement) @branch
(while_statement) @branch
(catch_clause) @branch
(ternary_expression) @branch
(binary_expression (operator) @_op (#any-of? @_op "&&" "||")) @branch
