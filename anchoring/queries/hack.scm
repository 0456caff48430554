; Hack definitions. `<<Attributes>>` and modifiers belong to the node;
; `/** docblocks */` are siblings and stay outside. `__construct` is a
; constructor; XHP classes keep their `:ui:button` name. Only a braced
; `namespace N { }` is a symbol (`namespace N;` names the file, not a scope).

(namespace_declaration name: (_) @name body: (_)) @definition.namespace
(class_declaration name: (_) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(trait_declaration name: (identifier) @name) @definition.trait
(enum_declaration name: (identifier) @name) @definition.enum
(enum_class_declaration name: (identifier) @name) @definition.enum
(alias_declaration . (identifier) @name) @definition.type

((method_declaration name: (identifier) @name) @definition.constructor
 (#eq? @name "__construct"))
(method_declaration name: (identifier) @name) @definition.method
(function_declaration name: (identifier) @name) @definition.function

; Cyclomatic complexity decision points. One if_statement holds all its
; `elseif` arms: each condition is one branch. `default:` carries none.
(if_statement condition: (_) @branch)
(for_statement) @branch
(foreach_statement) @branch
(while_statement) @branch
(do_statement) @branch
(switch_case) @branch
(catch_clause) @branch
(ternary_expression) @branch
(binary_expression operator: ["&&" "||"]) @branch
