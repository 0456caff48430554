; WGSL definitions: functions (entry points included: `@vertex`,
; `@compute @workgroup_size(64)` and other attributes are inside the node,
; so part of the range), structs and type aliases. This grammar predates
; WGSL 1.0: `alias X = ...;`, module-scope `const` and `const_assert` parse
; as ERROR nodes (functions and structs around them still parse), so only
; the older `type X = ...;` alias is captured. Module-scope variables and
; constants are not symbols.

(function_declaration name: (identifier) @name) @definition.function
(struct_declaration name: (identifier) @name) @definition.struct
(type_alias_declaration . (identifier) @name) @definition.type

; Cyclomatic complexity decision points. An `else if` is an if_statement
; nested in the else; `loop` counts once (its `break if` is the loop's exit
; test, as a while's condition is); `default:` arms do not count.
(if_statement) @branch
(for_statement) @branch
(while_statement) @branch
(loop_statement) @branch
(switch_body "case") @branch
(binary_expression ["&&" "||"] @branch)
