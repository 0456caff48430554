; Erlang: functions (each declaration with its clauses), records, the
; module attribute.

(fun_decl (function_clause name: (atom) @name)) @definition.function
(record_decl name: (atom) @name) @definition.record
(module_attribute name: (atom) @name) @definition.module

; Cyclomatic complexity decision points. `_ ->` and `true ->` are defaults.
((cr_clause pat: (_) @_pattern) @branch
 (#not-eq? @_pattern "_"))
((if_clause guard: (_) @_guard) @branch
 (#not-eq? @_guard "true"))
(catch_clause) @branch
(binary_op_expr ["andalso" "orelse"] @branch)
