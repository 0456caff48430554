; PHP definitions. `#[Attributes]` and modifiers belong to the node;
; `/** docblocks */` are siblings and stay outside.

(namespace_definition name: (_) @name) @definition.namespace
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(method_declaration name: (name) @name) @definition.method
(function_definition name: (name) @name) @definition.function

; Cyclomatic complexity decision points.
(if_statement) @branch
(else_if_clause) @branch
(for_statement) @branch
(foreach_statement) @branch
(while_statement) @branch
(do_statement) @branch
(case_statement) @branch
(match_conditional_expression) @branch
(catch_clause) @branch
(conditional_expression) @branch
(binary_expression operator: ["&&" "||" "and" "or"]) @branch
