; Common Lisp definitions. The grammar parses defun/defmacro/defgeneric/
; defmethod into a `defun` node (keyword, name, lambda list); other defining
; forms are plain lists matched by their head symbol. The whole form is the
; range (docstring and declarations inside it); `;` comments in front and a
; `#+feature` prefix stay outside. A method is named by its generic function
; with its qualifier and specializers as facet (`area[:around.circle]`, only
; the leading specialized parameters); a setf function is `name[setf]`.
; defvar/defparameter are variables, defconstant a constant; `defpackage`
; is the module (it does not enclose the file). Not captured: lambdas,
; flet/labels locals, slots, inline `(:method ...)` of a defgeneric.
; Lower-case heads only: the grammar does not recognise `DEFUN` either.

((defun
   (defun_header keyword: (defun_keyword) @_kw function_name: (sym_lit) @name)) @definition.function
 (#any-of? @_kw "defun" "cl:defun" "defgeneric" "cl:defgeneric"))
((defun
   (defun_header
     keyword: (defun_keyword) @_kw
     function_name: (package_lit package: (_) @scope symbol: (sym_lit) @name))) @definition.function
 (#any-of? @_kw "defun" "cl:defun" "defgeneric" "cl:defgeneric"))
((defun
   (defun_header
     keyword: (defun_keyword) @_kw
     function_name: (list_lit . (sym_lit) @facet . (sym_lit) @name))) @definition.function
 (#any-of? @_kw "defun" "cl:defun" "defgeneric" "cl:defgeneric")
 (#eq? @facet "setf"))

((defun
   (defun_header keyword: (defun_keyword) @_kw function_name: (sym_lit) @name)) @definition.macro
 (#any-of? @_kw "defmacro" "cl:defmacro"))

((defun
   (defun_header
     keyword: (defun_keyword) @_kw
     function_name: (sym_lit) @name
     specifier: (kwd_lit)? @facet
     lambda_list: (list_lit . (list_lit . (sym_lit) . (sym_lit) @facet)+))) @definition.method
 (#any-of? @_kw "defmethod" "cl:defmethod"))
((defun
   (defun_header
     keyword: (defun_keyword) @_kw
     function_name: (sym_lit) @name
     specifier: (kwd_lit)? @facet)) @definition.method
 (#any-of? @_kw "defmethod" "cl:defmethod"))
((defun
   (defun_header
     keyword: (defun_keyword) @_kw
     function_name: (list_lit . (sym_lit) @facet . (sym_lit) @name))) @definition.method
 (#any-of? @_kw "defmethod" "cl:defmethod")
 (#eq? @facet "setf"))

((list_lit . (sym_lit) @_head . [(sym_lit) @name (list_lit . (sym_lit) @name)]) @definition.macro
 (#any-of? @_head "define-compiler-macro" "define-modify-macro" "define-symbol-macro"))
((list_lit . (sym_lit) @_head . (sym_lit) @name) @definition.class
 (#any-of? @_head "defclass" "define-condition"))
; `(defstruct point x y)` or `(defstruct (point (:include base)) x y)`.
((list_lit . (sym_lit) @_head . [(sym_lit) @name (list_lit . (sym_lit) @name)]) @definition.struct
 (#eq? @_head "defstruct"))
((list_lit . (sym_lit) @_head . (sym_lit) @name) @definition.type
 (#eq? @_head "deftype"))
((list_lit . (sym_lit) @_head . [(sym_lit) @name (kwd_lit (kwd_symbol) @name) (str_lit) @name]) @definition.module
 (#any-of? @_head "defpackage" "uiop:define-package"))
((list_lit . (sym_lit) @_head . (sym_lit) @name) @definition.variable
 (#any-of? @_head "defvar" "defparameter"))
((list_lit . (sym_lit) @_head . (sym_lit) @name) @definition.constant
 (#eq? @_head "defconstant"))

; Cyclomatic complexity decision points.
((list_lit . (sym_lit) @_head) @branch
 (#any-of? @_head "if" "when" "unless" "and" "or" "dolist" "dotimes" "do" "do*"))
(loop_macro) @branch
(condition_clause) @branch
; Each clause of cond and of the case family except the `t`/`otherwise` default.
((list_lit . (sym_lit) @_head (list_lit . (_) @_test) @branch)
 (#eq? @_head "cond")
 (#not-match? @_test "^(t|otherwise)$"))
((list_lit . (sym_lit) @_head . (_) (list_lit . (_) @_test) @branch)
 (#any-of? @_head "case" "ecase" "ccase" "typecase" "etypecase" "ctypecase")
 (#not-match? @_test "^(t|otherwise)$"))
; handler-case: each clause after the form is a catch; handler-bind: each binding.
((list_lit . (sym_lit) @_head . (_) (list_lit) @branch)
 (#eq? @_head "handler-case"))
((list_lit . (sym_lit) @_head . (list_lit (list_lit) @branch))
 (#eq? @_head "handler-bind"))
