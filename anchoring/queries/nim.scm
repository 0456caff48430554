; Nim definitions: proc/func/converter/iterator (function), method, template
; and macro (macro), with or without a body (forward and `importc`
; declarations too), and the types of a `type` section: objects (struct, also
; `ref object`), enums, concepts (interface), the rest (type). Pragmas `{.x.}`
; are inside the node; `##` docs before a definition stay out.
;
; This grammar leaves a comment that follows a body (even at column 0, often the
; next definition's `##` doc) inside the body's statement list. So a routine is
; captured with each statement of its body that is not a comment (`^#`), and the
; largest of those matches wins: the range ends at the last real statement
; (unless the comment sinks deeper, into the last statement's own block).
; Object and enum types end at their last field the same way.

(proc_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name (exported_symbol (accent_quoted) @name)]
  body: (statement_list (_) @definition.function)
  (#not-match? @definition.function "^#")) @definition.function
(func_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name (exported_symbol (accent_quoted) @name)]
  body: (statement_list (_) @definition.function)
  (#not-match? @definition.function "^#")) @definition.function
(converter_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name)]
  body: (statement_list (_) @definition.function)
  (#not-match? @definition.function "^#")) @definition.function
(iterator_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name)]
  body: (statement_list (_) @definition.function)
  (#not-match? @definition.function "^#")) @definition.function
(method_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name (exported_symbol (accent_quoted) @name)]
  body: (statement_list (_) @definition.method)
  (#not-match? @definition.method "^#")) @definition.method
(template_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name (exported_symbol (accent_quoted) @name)]
  body: (statement_list (_) @definition.macro)
  (#not-match? @definition.macro "^#")) @definition.macro
(macro_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name)]
  body: (statement_list (_) @definition.macro)
  (#not-match? @definition.macro "^#")) @definition.macro

; Declarations without a body (forward, `importc`): the whole node. `!body`
; keeps this from matching a routine above (the larger match would win).
(proc_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name (exported_symbol (accent_quoted) @name)]
  !body) @definition.function
(func_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name (exported_symbol (accent_quoted) @name)]
  !body) @definition.function
(iterator_declaration name: [(identifier) @name (exported_symbol (identifier) @name)] !body) @definition.function
(method_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name (exported_symbol (accent_quoted) @name)]
  !body) @definition.method

; Types, each declaration of a `type` section on its own. Objects and enums end
; at their last field (see above); an object with no fields (`F = object`,
; `G = ref object of F`) is its header.
(type_declaration
  (type_symbol_declaration name: [(identifier) @name (exported_symbol (identifier) @name)])
  [(object_declaration (field_declaration_list (_) @definition.struct))
   (ref_type (object_declaration (field_declaration_list (_) @definition.struct)))]
  (#not-match? @definition.struct "^#")) @definition.struct
(type_declaration
  (type_symbol_declaration name: [(identifier) @name (exported_symbol (identifier) @name)]) @definition.struct
  [(object_declaration inherits: (_)? @definition.struct)
   (ref_type (object_declaration inherits: (_)? @definition.struct))])
(type_declaration
  (type_symbol_declaration name: [(identifier) @name (exported_symbol (identifier) @name)])
  (enum_declaration (enum_field_declaration) @definition.enum)) @definition.enum
(type_declaration
  (type_symbol_declaration name: [(identifier) @name (exported_symbol (identifier) @name)])
  (concept_declaration body: (statement_list (_) @definition.interface))
  (#not-match? @definition.interface "^#")) @definition.interface
; Aliases, distinct types, tuples, procedure types, `ref T` / `ptr T`.
(type_declaration
  (type_symbol_declaration name: [(identifier) @name (exported_symbol (identifier) @name)])
  [(type_expression) (distinct_type) (pointer_type) (ref_type (type_expression))]) @definition.type

; Cyclomatic complexity decision points. `when` is decided at compile time.
(if) @branch
(if alternative: (elif_branch) @branch)
(case alternative: [(of_branch) (elif_branch)] @branch)
(for) @branch
(while) @branch
(except_branch) @branch
(infix_expression operator: ["and" "or"]) @branch
