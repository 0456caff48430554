; ISPC definitions on top of c.scm (the grammar extends C, not C++, so only
; C node types are inherited). `export`, `task`, `uniform`/`varying` and
; other qualifiers sit inside the function_definition, hence in the range.
; A function template's `template <...>` line belongs to it (the larger node
; wins, as in cpp.scm); an explicit specialization `twice<float>` is named
; `twice`. Operator overloads are named by their operator (`*`), since the
; grammar keeps `operator` and the symbol as two separate tokens.
; inherits: c

; `float& f()`: C has no references.
(function_definition
  declarator: (reference_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @definition.function

(template_declaration
  (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator
        declarator: [(identifier) @name (template_function name: (identifier) @name)]))
      (reference_declarator declarator: (function_declarator
        declarator: [(identifier) @name (template_function name: (identifier) @name)]))
    ])) @definition.function

(function_definition declarator: (overload_declarator operator: _ @name)) @definition.function
(template_declaration
  (function_definition declarator: (overload_declarator operator: _ @name))) @definition.function

; Cyclomatic complexity decision points (C ones are inherited; `cif`, `cfor`,
; `cwhile` and `cdo` parse as the plain if/for/while/do statements).
(foreach_statement) @branch
(foreach_instance_statement) @branch
