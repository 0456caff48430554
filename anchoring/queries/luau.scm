; Luau definitions on top of lua.scm (the grammar keeps Lua's node types for
; functions, tables and statements): functions as in Lua, plus type aliases
; (`export type Point = {...}`, `type Fn<T> = ...`; `export` is inside the
; node, so part of the range). Attributes (`@native`) and type functions are
; not parsed by this grammar (ERROR nodes), so they cannot be captured.
; inherits: lua

(type_definition name: [(identifier) @name (generic_type . (identifier) @name)]) @definition.type

; Cyclomatic complexity decision points on top of Lua's: the if-expression.
(if_expression) @branch
(elseif_clause) @branch
