; Tcl definitions: `proc`s, and the classes and methods of TclOO
; (`oo::class create`, `oo::define`), [incr Tcl] (`itcl::class`) and snit
; (`snit::type`, `snit::widget`), which the grammar parses as plain commands,
; so they are matched by their words.
; `proc geo::area` is named `geo.area` (a fully qualified `::geo::area`
; keeps its leading `::` as a leading dot: the generic name cleaning does
; not strip it). `namespace eval` blocks are not symbols, so a proc inside
; one keeps its own name: a namespace is a scope, not what comments are
; about. TclOO constructors and destructors are named by their keyword.

(procedure name: (simple_word) @name) @definition.function

((command
   name: (simple_word) @_keyword
   arguments: (word_list . (simple_word) @_create . (simple_word) @name . (braced_word) .)) @definition.class
 (#eq? @_keyword "oo::class")
 (#eq? @_create "create"))
((command
   name: (simple_word) @_keyword
   arguments: (word_list . (simple_word) @name . (braced_word) .)) @definition.class
 (#any-of? @_keyword "oo::define" "itcl::class" "snit::type" "snit::widget" "snit::widgetadaptor"))

; `method name {args} {body}` (a class body's, an itcl method's with a body,
; a snit `typemethod`); `oo::define Foo method name {args} {body}` qualifies
; by its class.
((command
   name: (simple_word) @_keyword
   arguments: (word_list . (simple_word) @name . (_) . (braced_word) .)) @definition.method
 (#any-of? @_keyword "method" "typemethod"))
((command
   name: (simple_word) @_keyword
   arguments: (word_list . (simple_word) @scope . (simple_word) @_method . (simple_word) @name . (_) . (braced_word) .)) @definition.method
 (#eq? @_keyword "oo::define")
 (#eq? @_method "method"))
((command
   name: (simple_word) @name
   arguments: (word_list . (_) . (braced_word) .)) @definition.constructor
 (#eq? @name "constructor"))
((command
   name: (simple_word) @name
   arguments: (word_list . (braced_word) .)) @definition.method
 (#eq? @name "destructor"))

; Cyclomatic complexity decision points. `for` and `switch` are plain
; commands to this grammar (a switch counts once: its arms are not nodes);
; each `on` handler of a `try` counts, as a catch clause does (the grammar
; knows no `trap` handler).
(if) @branch
(elseif) @branch
(foreach) @branch
(while) @branch
((command name: (simple_word) @_keyword) @branch
 (#any-of? @_keyword "for" "switch"))
(try "on" @branch)
(catch) @branch
(ternary_expr) @branch
(binop_expr ["&&" "||"] @branch)
