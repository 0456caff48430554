; Starlark (Bazel/Buck BUILD and .bzl files). The grammar is Python's minus
; classes and exceptions, so python.scm cannot be inherited. Captured: `def`
; functions (macros, rule implementations, helpers); `name = rule(...)` (also
; repository_rule, aspect, symbolic macro, module_extension) as `rule`s and
; `name = provider(...)` as `type`s, the range being the whole assignment
; statement; and targets, i.e. call statements with a literal
; `name = "..."` argument (`cc_library(name = "core", ...)`), as `target`s
; named by that string. A target a macro declares with a literal name is
; nested in the macro (a comprehension in its arguments then counts for the
; target, not the macro); one built from a computed name
; (`name = name + "_lib"`) is no symbol.

(function_definition name: (identifier) @name) @definition.function

((expression_statement
   (assignment
     left: (identifier) @name
     right: (call function: (identifier) @_kind))) @definition.rule
 (#any-of? @_kind "rule" "repository_rule" "aspect" "macro" "module_extension"))

; `FooInfo, _new_fooinfo = provider(init = ...)` names the provider first.
((expression_statement
   (assignment
     left: [(identifier) @name (pattern_list . (identifier) @name)]
     right: (call function: (identifier) @_kind))) @definition.type
 (#eq? @_kind "provider"))

((expression_statement
   (call
     arguments: (argument_list
       (keyword_argument
         name: (identifier) @_key
         value: (string . (string_start) . (string_content) @name . (string_end)))))) @definition.target
 (#eq? @_key "name"))

; Cyclomatic complexity decision points.
(if_statement) @branch
(elif_clause) @branch
(for_statement) @branch
(while_statement) @branch
(conditional_expression) @branch
(boolean_operator) @branch
(case_clause (case_pattern (_))) @branch
(for_in_clause) @branch
(if_clause) @branch
