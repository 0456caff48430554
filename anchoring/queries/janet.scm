; Janet definitions. The grammar parses defn/defn-/varfn/defmacro into an
; `extra_defs` node (keyword, name, metadata, parameters, body); def, var and
; fn have nodes of their own; other forms are tuples matched by their head
; symbol. The whole form is the range (docstring and :tags inside it); `#`
; comments in front stay outside. A def/var bound to a `fn` is a function;
; other defs are skipped: `def` is also Janet's local binding, which the
; grammar cannot tell from a top-level one.

(extra_defs ["defn" "defn-" "varfn" "varfn-"] name: (symbol) @name) @definition.function
(extra_defs ["defmacro" "defmacro-"] name: (symbol) @name) @definition.macro
(def name: (symbol) @name value: (fn)) @definition.function
(var name: (symbol) @name value: (fn)) @definition.function
((tuple . (symbol) @_head . (symbol) @name . (fn)) @definition.function
 (#any-of? @_head "def-" "var-"))

; Cyclomatic complexity decision points.
(if) @branch
(while) @branch
((tuple . (symbol) @_head) @branch
 (#any-of? @_head "when" "unless" "if-not" "when-not" "if-let" "when-let" "if-with" "when-with"
  "and" "or" "each" "eachk" "eachp" "eachy" "for" "forv" "loop" "seq" "catseq" "tabseq" "generate" "repeat"))
; `(cond test expr ... default)`: each test (a `true` or keyword test is a
; default). A call test is counted by its head token: the call itself may be
; an `and` already counted (decision points are counted once per node).
((tuple . (symbol) @_head . ([(tuple . (_) @branch) (symbol) @branch (if) @branch] . (_))+)
 (#eq? @_head "cond"))
; `(case x value expr ... default)`: each value; the odd default pairs with nothing.
((tuple . (symbol) @_head . (_) . ((_) @branch . (_))+)
 (#eq? @_head "case"))
; `(match x pattern expr ...)`: each pattern but a bare symbol (`_` or a catch-all binding).
((tuple . (symbol) @_head . (_) . ([(number_literal) (keyword) (str_literal) (long_str_literal) (bool_literal)
                                     (nil_literal) (sqr_tuple) (tuple) (struct) (table) (array)] @branch . (_))+)
 (#eq? @_head "match"))
; `(try body ([err] handler))`: the handler is a catch.
((tuple . (symbol) @_head . (_) . (tuple . (sqr_tuple)) @branch)
 (#eq? @_head "try"))
