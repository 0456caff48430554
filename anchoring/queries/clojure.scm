; Clojure definitions: every definition is a list whose head symbol names the
; defining macro, matched by predicate. The whole list is the range, so a
; docstring and ^metadata inside it belong to the symbol; `;;` comments in
; front do not. @name is the symbol's `sym_name`, without its ^metadata.
; The `ns` form is the module (like Erlang's -module: it does not enclose the
; file). A `defmethod` is named by its multimethod with the dispatch value as
; facet (`area[:circle]`). Methods inside defrecord/deftype/defprotocol/
; extend-type/extend-protocol are methods of that container. Plain `def`s are
; variables, except when bound to a `fn`; a multi-arity defn is one symbol;
; `deftest` is a test. Not captured: `let`/`letfn` locals, anonymous fns,
; `reify`/`proxy` bodies. Known gap: forms discarded with `#_` and those in a
; `(comment ...)` block still yield their definitions.

((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.module
 (#eq? @_head "ns"))

((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.function
 (#any-of? @_head "defn" "defn-" "defmulti"))

((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.macro
 (#eq? @_head "defmacro"))

((list_lit
   . (sym_lit name: (sym_name) @_head)
   . (sym_lit name: (sym_name) @name)
   . [(kwd_lit) (sym_lit) (str_lit) (num_lit) (bool_lit) (nil_lit)] @facet) @definition.method
 (#eq? @_head "defmethod"))
; A vector dispatch value `[:a :b]` becomes the facet `:a.:b`; a computed one, none.
((list_lit
   . (sym_lit name: (sym_name) @_head)
   . (sym_lit name: (sym_name) @name)
   . (vec_lit (_)* @facet)) @definition.method
 (#eq? @_head "defmethod"))
((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.method
 (#eq? @_head "defmethod"))

((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.record
 (#eq? @_head "defrecord"))
((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.class
 (#eq? @_head "deftype"))
((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.protocol
 (#eq? @_head "defprotocol"))
((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.interface
 (#eq? @_head "definterface"))
; `(extend-type String Shape ...)` is String's impl of Shape; an
; `(extend-protocol Shape String ... Long ...)` spans several types, so it is
; named by its protocol alone.
((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name) . (sym_lit) @facet) @definition.impl
 (#eq? @_head "extend-type"))
((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.impl
 (#eq? @_head "extend-protocol"))

; Method bodies and signatures inside the containers above: `(area [this] ...)`
; or multi-arity `(area ([this] ...) ([this x] ...))`. Matched from the
; container, since the same shape is an ordinary call elsewhere.
((list_lit
   . (sym_lit name: (sym_name) @_head)
   (list_lit . (sym_lit name: (sym_name) @name) . [(vec_lit) (list_lit . (vec_lit))]) @definition.function)
 (#any-of? @_head "defrecord" "deftype" "defprotocol" "definterface" "extend-type" "extend-protocol"))

((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.test
 (#eq? @_head "deftest"))

; `(def f (fn ...))` is a function; any other def/defonce a variable.
((list_lit
   . (sym_lit name: (sym_name) @_head)
   . (sym_lit name: (sym_name) @name)
   . [(list_lit . (sym_lit name: (sym_name) @_fn)) (anon_fn_lit)]) @definition.function
 (#eq? @_head "def")
 (#any-of? @_fn "fn" "fn*"))
((list_lit . (sym_lit name: (sym_name) @_head) . (sym_lit name: (sym_name) @name)) @definition.variable
 (#any-of? @_head "def" "defonce"))

; Cyclomatic complexity decision points.
((list_lit . (sym_lit name: (sym_name) @_head)) @branch
 (#any-of? @_head "if" "if-not" "if-let" "if-some" "when" "when-not" "when-let" "when-some" "when-first"
  "and" "or" "loop" "doseq" "dotimes" "while" "for" "catch"))
; `(cond test expr ...)`: each test; an `:else` (any keyword) test is the default.
; A call test is counted by its head token: the call itself may be an `and`
; already counted (decision points are counted once per node).
; The pairs are matched from the head on, so a comment between them ends the count.
((list_lit . (sym_lit name: (sym_name) @_head) . ([(list_lit . (_) @branch) (sym_lit) @branch] . (_))+)
 (#eq? @_head "cond"))
; `(case x test expr ... default)`: each test; the odd default pairs with nothing.
((list_lit . (sym_lit name: (sym_name) @_head) . (_) . ((_) @branch . (_))+)
 (#any-of? @_head "case" "cond->" "cond->>"))
