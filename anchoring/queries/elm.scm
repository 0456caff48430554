; Elm definitions: top-level values and functions, functions bound in a
; `let` (those taking parameters or bound to a lambda; plain local values are
; skipped), ports, custom types and type aliases. A type annotation joins the
; declaration right after it (`update : Msg -> Model -> Model` belongs to
; `update`), so the range starts at the annotation; `{-| -}` docs stay out.
; The `module ... exposing` header is not a symbol.

(file
  (type_annotation name: (lower_case_identifier) @_annotated) @definition.function
  .
  (value_declaration
    (function_declaration_left . (lower_case_identifier) @name)) @definition.function
  (#eq? @_annotated @name))

(file
  (value_declaration
    (function_declaration_left . (lower_case_identifier) @name)) @definition.function)

(let_in_expr
  (type_annotation name: (lower_case_identifier) @_annotated) @definition.function
  .
  (value_declaration
    (function_declaration_left . (lower_case_identifier) @name (_))) @definition.function
  (#eq? @_annotated @name))

(value_declaration
  (function_declaration_left . (lower_case_identifier) @name (_))) @definition.function
(value_declaration
  (function_declaration_left . (lower_case_identifier) @name)
  body: (anonymous_function_expr)) @definition.function

(port_annotation name: (lower_case_identifier) @name) @definition.function
(type_declaration name: (upper_case_identifier) @name) @definition.type
(type_alias_declaration name: (upper_case_identifier) @name) @definition.type

; Cyclomatic complexity decision points: each `if` of an `if ... else if ...`
; chain, case branches but the `_` catch-all, `&&` and `||`.
(if_else_expr "if" @branch)
((case_of_branch pattern: (_) @_pattern) @branch
 (#not-eq? @_pattern "_"))
((operator_identifier) @branch
 (#any-of? @branch "&&" "||"))
