; Haskell definitions. A type signature joins the clause right after it
; (like a decorator); further clauses of the same function are their own
; symbols with the same name. Signatures in a class body are its methods.

(_
  (signature name: (variable) @_signature) @definition.function
  .
  [(function name: (variable) @name) (bind name: (variable) @name)] @definition.function
  (#eq? @_signature @name))

(function name: (variable) @name) @definition.function
(bind name: (variable) @name) @definition.function
(class_declarations (signature name: (variable) @name) @definition.function)

(data_type name: (name) @name) @definition.type
(newtype name: (name) @name) @definition.type
(type_synomym name: (name) @name) @definition.type
(type_family name: (name) @name) @definition.type
(class name: (name) @name) @definition.class
(instance name: (name) @name) @definition.impl

; Cyclomatic complexity decision points.
(conditional) @branch
((alternative pattern: (_) @_pattern) @branch
 (#not-eq? @_pattern "_"))
((guards (boolean) @branch)
 (#not-eq? @branch "otherwise"))
((infix operator: (operator) @_op) @branch
 (#any-of? @_op "&&" "||"))
