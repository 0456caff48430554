; Elixir definitions: everything is a macro call, so keywords are matched by
; predicate. Each clause of a multi-clause function is its own symbol.

((call
   target: (identifier) @_keyword
   (arguments . (alias) @name)) @definition.module
 (#any-of? @_keyword "defmodule" "defprotocol"))

((call
   target: (identifier) @_keyword
   (arguments . (alias) @name)) @definition.impl
 (#eq? @_keyword "defimpl"))

((call
   target: (identifier) @_keyword
   (arguments
     .
     [(call target: (identifier) @name)
      (binary_operator left: (call target: (identifier) @name) operator: "when")
      (identifier) @name])) @definition.function
 (#any-of? @_keyword "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate"))

; Cyclomatic complexity decision points. `_ ->` and `true ->` are defaults.
((call target: (identifier) @_keyword) @branch
 (#any-of? @_keyword "if" "unless"))
((call
   target: (identifier) @_keyword
   (do_block (stab_clause left: (arguments) @_pattern) @branch))
 (#any-of? @_keyword "case" "cond" "receive" "with")
 (#not-match? @_pattern "^(_|true)$"))
(rescue_block) @branch
(catch_block) @branch
(binary_operator operator: ["and" "or" "&&" "||"]) @branch
