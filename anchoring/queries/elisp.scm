; Emacs Lisp definitions. The grammar has nodes for defun/defsubst
; (function_definition), defmacro (macro_definition) and special forms
; (defvar, defconst, if, cond, ...); cl-lib, EIEIO and mode definitions are
; plain lists matched by their head symbol. The whole form is the range
; (docstring, `interactive` and `declare` inside it); `;;;###autoload` and
; other comments in front stay outside. A cl-defmethod is named by its
; generic function with its qualifier and leading specializers as facet
; (`foo-area[:around.foo-circle]`). defvar/defcustom/defvar-local are
; variables, defconst a constant. A mode definition is a function (it defines
; the mode command). Not captured: defalias, defface, defgroup, lambdas.

(function_definition name: (symbol) @name) @definition.function
(macro_definition name: (symbol) @name) @definition.macro

((list . (symbol) @_head . (symbol) @name) @definition.function
 (#any-of? @_head "cl-defun" "cl-defsubst" "define-inline" "cl-defgeneric"
  "define-derived-mode" "define-minor-mode" "define-globalized-minor-mode"))
((list . (symbol) @_head . (symbol) @name) @definition.macro
 (#eq? @_head "cl-defmacro"))

((list
   . (symbol) @_head
   . (symbol) @name
   . (symbol)? @facet
   . (list . (list . (symbol) . (symbol) @facet)+)) @definition.method
 (#eq? @_head "cl-defmethod"))
((list . (symbol) @_head . (symbol) @name) @definition.method
 (#eq? @_head "cl-defmethod"))

; `(cl-defstruct point x y)` or `(cl-defstruct (point (:constructor make)) x y)`.
((list . (symbol) @_head . [(symbol) @name (list . (symbol) @name)]) @definition.struct
 (#eq? @_head "cl-defstruct"))
((list . (symbol) @_head . (symbol) @name) @definition.class
 (#eq? @_head "defclass"))
((list . (symbol) @_head . (symbol) @name) @definition.test
 (#eq? @_head "ert-deftest"))

(special_form "defvar" . (symbol) @name) @definition.variable
(special_form "defconst" . (symbol) @name) @definition.constant
((list . (symbol) @_head . (symbol) @name) @definition.variable
 (#any-of? @_head "defcustom" "defvar-local"))

; Cyclomatic complexity decision points.
(special_form ["if" "and" "or" "while"]) @branch
((list . (symbol) @_head) @branch
 (#any-of? @_head "when" "unless" "if-let" "if-let*" "when-let" "when-let*" "and-let*" "while-let"
  "dolist" "dotimes" "cl-dolist" "cl-dotimes" "cl-loop" "seq-doseq"))
; Each clause of cond/pcase/cl-case except the `t`/`_`/`otherwise` default.
((special_form "cond" (list . (_) @_test) @branch)
 (#not-eq? @_test "t"))
((list . (symbol) @_head . (_) (list . (_) @_pattern) @branch)
 (#any-of? @_head "pcase" "pcase-exhaustive" "cl-case" "cl-ecase" "cl-typecase" "cl-etypecase")
 (#not-match? @_pattern "^(_|t|otherwise)$"))
; condition-case: each handler after the variable and the body form is a catch.
(special_form "condition-case" . (symbol) . (_) (list) @branch)
