; Gleam definitions: functions (with or without a body), custom types, type
; aliases, and functions bound by `let f = fn(...) { ... }`. `@attributes` such
; as `@external(...)` and `@deprecated(...)` are sibling nodes, so they stay
; outside the range (as Rust's); so do `///` doc comments. Constants are skipped.

(function name: (identifier) @name) @definition.function
(let pattern: (identifier) @name value: (anonymous_function)) @definition.function
(type_definition (type_name name: (type_identifier) @name)) @definition.type
(type_alias (type_name name: (type_identifier) @name)) @definition.type

; Cyclomatic complexity decision points: case clauses but the catch-all
; (`_`, or `_, _` for several subjects), guards, `&&` and `||`.
((case_clause patterns: (_) @_pattern) @branch
 (#not-match? @_pattern "^_(\\s*,\\s*_)*$"))
(case_clause_guard) @branch
(binary_expression operator: ["&&" "||"]) @branch
