; Odin definitions: procedures (with a body, or `---` in a foreign block),
; nested procedures, structs, enums, unions and distinct types. `@(attributes)`
; and `#tags` are inside the node. `Handler :: proc(x: int) -> bool` (no body)
; names a procedure type: a type. Proc groups (`proc{a, b}`), constants and
; `f := proc() {...}` locals are skipped.

(procedure_declaration (identifier) @name (procedure (block))) @definition.function
(procedure_declaration (identifier) @name (procedure (uninitialized))) @definition.function
; Any other procedure_declaration: same range as the two above, which come first and win.
(procedure_declaration (identifier) @name) @definition.type

(struct_declaration . (identifier) @name) @definition.struct
(enum_declaration . (identifier) @name) @definition.enum
(union_declaration . (identifier) @name) @definition.union
(const_declaration . (identifier) @name . (distinct_type)) @definition.type

; Cyclomatic complexity decision points. `when` is decided at compile time; a
; `case:` with no condition is the default.
(if_statement) @branch
(else_if_clause) @branch
(for_statement) @branch
(switch_case condition: (_)) @branch
(ternary_expression) @branch
(binary_expression operator: ["&&" "||"]) @branch
