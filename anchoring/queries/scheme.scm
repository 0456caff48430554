; Scheme definitions (R7RS/R6RS, plus Guile's define*/define-public): a list
; whose head symbol is the defining form, matched by predicate. The whole list
; is the range; `;` comments in front stay outside. Racket inherits this file,
; so it uses only the node types both grammars share (list, symbol).
; `(define (f x) ...)` and `(define f (lambda ...))` are functions, an inner
; define of a function a nested one (`outer.inner`); a define of a value is
; skipped, since the grammar cannot tell a top-level one from a local.
; A library `(define-library (my lib) ...)` is a module named `my.lib`; so is
; Guile's `(define-module (my lib) ...)`, though it does not enclose the file.
; Known gap: a `#;`-commented datum still yields its definitions.

((list . (symbol) @_head . (list . (symbol) @name)) @definition.function
 (#any-of? @_head "define" "define*" "define-public" "define-inline" "define-integrable"))
; Curried `(define ((adder n) x) ...)`.
((list . (symbol) @_head . (list . (list . (symbol) @name))) @definition.function
 (#any-of? @_head "define" "define-public"))
((list . (symbol) @_head . (symbol) @name . (list . (symbol) @_lambda)) @definition.function
 (#any-of? @_head "define" "define-public")
 (#any-of? @_lambda "lambda" "λ" "case-lambda" "lambda*" "opt-lambda"))

; `(define-syntax name (syntax-rules ...))`, and Racket's `(define-syntax (name stx) ...)`.
((list . (symbol) @_head . [(symbol) @name (list . (symbol) @name)]) @definition.macro
 (#any-of? @_head "define-syntax" "define-syntax-rule" "define-macro" "define-simple-macro"
  "define-syntax-parser" "define-syntax-parse-rule" "defmacro"))

; R7RS names the record type by a symbol, R6RS may by a list `(point make-point point?)`.
((list . (symbol) @_head . [(symbol) @name (list . (symbol) @name)]) @definition.record
 (#eq? @_head "define-record-type"))

(((list . (symbol) @_head . (list . (_) @name .)) @definition.module)
 (#any-of? @_head "define-library" "library" "define-module"))
(((list . (symbol) @_head . (list . (_) @scope . (_) @name .)) @definition.module)
 (#any-of? @_head "define-library" "library" "define-module"))
; (Names of four parts and more keep their last three.)
(((list . (symbol) @_head . (list (_) @scope . (_) @scope . (_) @name .)) @definition.module)
 (#any-of? @_head "define-library" "library" "define-module"))

; Cyclomatic complexity decision points.
((list . (symbol) @_head) @branch
 (#any-of? @_head "if" "when" "unless" "and" "or" "do"))
; A named let is a loop.
((list . (symbol) @_head . (symbol)) @branch
 (#eq? @_head "let"))
; Each clause of cond/case/guard except `else`.
((list . (symbol) @_head (list . (_) @_test) @branch)
 (#eq? @_head "cond")
 (#not-eq? @_test "else"))
((list . (symbol) @_head . (_) (list . (_) @_test) @branch)
 (#eq? @_head "case")
 (#not-eq? @_test "else"))
((list . (symbol) @_head . (list . (symbol) (list . (_) @_test) @branch))
 (#eq? @_head "guard")
 (#not-eq? @_test "else"))
