; inherits: scheme
; Racket: Scheme's definitions (inherited) plus define/contract, structs,
; classes, interfaces and submodules. `(define name% (class ...))` is a class
; whose define/public, define/private, ... are its methods. `module`,
; `module+` and `module*` enclose their definitions (`test.helper`).
; Known gap: a `#;`-commented datum still yields its definitions.

((list . (symbol) @_head . (list . (symbol) @name)) @definition.function
 (#any-of? @_head "define/contract" "define/match" "define/public" "define/private" "define/override"
  "define/augment" "define/pubment" "define/overment" "define/augride" "define/public-final"
  "define/override-final" "define/augment-final"))
((list . (symbol) @_head . (symbol) @name . (list . (symbol) @_lambda)) @definition.function
 (#any-of? @_head "define/contract" "define/public" "define/private" "define/override" "define/augment"
  "define/pubment" "define/overment" "define/augride" "define/public-final" "define/override-final"
  "define/augment-final")
 (#any-of? @_lambda "lambda" "λ" "case-lambda"))

; `(struct point (x y))`, `(struct point3 point (z))`, old `(define-struct (p3 point) (z))`.
((list . (symbol) @_head . [(symbol) @name (list . (symbol) @name)]) @definition.struct
 (#any-of? @_head "struct" "define-struct" "serializable-struct"))

((list . (symbol) @_head . (symbol) @name . (list . (symbol) @_class)) @definition.class
 (#eq? @_head "define")
 (#any-of? @_class "class" "class*" "mixin"))
((list . (symbol) @_head . (symbol) @name . (list . (symbol) @_class)) @definition.interface
 (#eq? @_head "define")
 (#any-of? @_class "interface" "interface*"))

((list . (symbol) @_head . (symbol) @name) @definition.module
 (#any-of? @_head "module" "module+" "module*"))

; Cyclomatic complexity decision points (Scheme's are inherited).
((list . (symbol) @_head) @branch
 (#match? @_head "^for\\*?(/[a-z-]+)?$"))
; Each clause of match/case-like forms except the catch-all `_`/`else`.
((list . (symbol) @_head . (_) (list . (_) @_pattern) @branch)
 (#any-of? @_head "match" "match*")
 (#not-match? @_pattern "^(_|else)$"))
; with-handlers: each [predicate handler] pair is a catch.
((list . (symbol) @_head . (list (list) @branch))
 (#any-of? @_head "with-handlers" "with-handlers*"))
