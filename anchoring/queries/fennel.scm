; Fennel definitions: named `fn`/`lambda`/`λ` forms, functions bound by
; local/var/global or `set` to a table field, and `macro`. The whole form is
; the range (docstring inside it); `;;` comments in front stay outside.
; `(fn M.f [] ...)` qualifies by its table via @scope (`M.f`), as in Lua.
; Not captured: anonymous fns, functions in table literals, `macros` tables.

(fn name: (symbol) @name) @definition.function
(lambda name: (symbol) @name) @definition.function
; `(fn a.b.c [])` names c in a.b; written out since a quantified @scope
; next to anchors does not match reliably.
(fn name: (multi_symbol . (symbol) @scope . (symbol) @scope . (symbol) @name .)) @definition.function
(fn name: (multi_symbol (symbol) @scope . (symbol) @name .)) @definition.function
(lambda name: (multi_symbol (symbol) @scope . (symbol) @name .)) @definition.function

(local (binding (symbol) @name) . [(fn) (lambda)]) @definition.function
(var (binding (symbol) @name) . [(fn) (lambda)]) @definition.function
(global (binding (symbol) @name) . [(fn) (lambda)]) @definition.function
(set (assignment (multi_symbol (symbol) @scope . (symbol) @name .)) . [(fn) (lambda)]) @definition.function

((list . (symbol) @_head . (symbol) @name) @definition.macro
 (#eq? @_head "macro"))

; Cyclomatic complexity decision points.
(each) @branch
(for) @branch
(icollect) @branch
(collect) @branch
(accumulate) @branch
((list . (symbol) @_head) @branch
 (#any-of? @_head "when" "and" "or" "while" "fcollect" "faccumulate"))
; `(if c1 a c2 b else)`: each condition pairs with its branch; the odd else
; pairs with nothing. A call condition is counted by its head token: the call
; itself may be an `and` already counted (decision points are counted once per node).
((list . (symbol) @_head
   . ([(list . (_) @branch) (symbol) @branch (multi_symbol) @branch (boolean) @branch (nil) @branch
       (let) @branch (match) @branch] . (_))+)
 (#eq? @_head "if"))
; match/case arms: each pattern but a bare symbol (`_` or a catch-all binding).
(match . (_) . ([(number) (string) (nil) (boolean) (sequential_table_pattern) (table_pattern)
                 (where_pattern) (guard_pattern) (multi_value_pattern) (list)] @branch . (_))+)
((list . (symbol) @_head . (_) . ([(number) (string) (nil) (boolean) (sequential_table) (table) (list)] @branch . (_))+)
 (#any-of? @_head "case" "match"))
