; Fortran (free form) definitions: modules, submodules, programs and block
; data units (kind module), derived types, F2023 enumeration types, named
; interface blocks (a generic name or an explicit interface), functions,
; subroutines and separate module procedures. A unit runs from its opening
; statement to its `end ...` line; prefixes such as `pure`/`elemental`/
; `recursive real` are inside it, `!>` doc comments in front stay outside.
; Procedures after `contains` qualify through their unit
; (`geometry.norm`, `geometry.reset.inner`). Prototypes inside an interface
; block are symbols too (abstract interfaces are procedure types people
; review); inside a named interface they are its methods. Type-bound
; `procedure :: x => y` bindings are one-liners and not symbols.

(module (module_statement (name) @name)) @definition.module
(submodule (submodule_statement (name) @name)) @definition.module
(program (program_statement (name) @name)) @definition.module
(block_data (block_data_statement (name) @name)) @definition.module

(derived_type_definition (derived_type_statement (type_name) @name)) @definition.type
(enumeration_type (enumeration_type_statement (type_name) @name)) @definition.enum
(interface (interface_statement (name) @name)) @definition.interface

(function (function_statement name: (name) @name)) @definition.function
(subroutine (subroutine_statement name: (name) @name)) @definition.function
(module_procedure (module_procedure_statement name: (name) @name)) @definition.function

; Cyclomatic complexity decision points. `case default` / `class default`
; arms are the fall-through and do not count.
(if_statement) @branch
(elseif_clause) @branch
(do_loop_statement) @branch
(do_label_statement) @branch
(arithmetic_if_statement) @branch
(where_statement) @branch
; A bare `elsewhere` is the else of a `where`; one with a mask decides.
(elsewhere_clause (parenthesized_expression)) @branch
(forall_statement) @branch
(case_statement (case_value_range_list)) @branch
(type_statement type: (_)) @branch
(rank_statement (case_value_range_list)) @branch
(logical_expression operator: ["\\.and\\." "\\.or\\."]) @branch
