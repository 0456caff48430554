; Ada definitions: package specs and bodies (kind module, both named by the
; package; a child `Parent.Child` qualifies through @scope), subprogram
; bodies, specs, expression functions and null procedures (kind function;
; the spec and the body of one subprogram are two symbols of one name, and
; overloads are symbols of one name too), tagged and extension types (kind
; class), plain records, enums, interfaces, task and protected types and
; protected bodies (kind class: their entries and operations are methods),
; task bodies (kind function: the task's own sequential code). A `generic`
; formal part and `with Pre => ...` aspects are inside the definition; `--`
; comments in front stay outside. A `separate (P)` subunit qualifies
; through its parent (`P.Sep`). Private type views (`type T is private;`),
; subtypes, objects, exceptions, renamings, generic instances and
; `is separate` stubs are not symbols.

; Packages. The generic formal part belongs to the package (larger wins).
(generic_package_declaration
  (package_declaration name: [(identifier) @name (selected_component prefix: (_) @scope selector_name: (_) @name)])) @definition.module
(package_declaration name: [(identifier) @name (selected_component prefix: (_) @scope selector_name: (_) @name)]) @definition.module
(package_body name: [(identifier) @name (selected_component prefix: (_) @scope selector_name: (_) @name)]) @definition.module
(subunit parent_unit_name: (_) @scope (package_body name: (identifier) @name)) @definition.module

; Subprograms: `function "+"` is named `+`.
(subunit parent_unit_name: (_) @scope
  (subprogram_body [(procedure_specification name: (identifier) @name) (function_specification name: (identifier) @name)])) @definition.function
(subprogram_body
  [(procedure_specification name: [(identifier) (string_literal)] @name)
   (function_specification name: [(identifier) (string_literal)] @name)]) @definition.function
(subprogram_body
  [(procedure_specification name: (selected_component prefix: (_) @scope selector_name: (_) @name))
   (function_specification name: (selected_component prefix: (_) @scope selector_name: (_) @name))]) @definition.function
(generic_subprogram_declaration
  [(procedure_specification name: (_) @name) (function_specification name: (_) @name)]) @definition.function
(subprogram_declaration
  [(procedure_specification name: (_) @name) (function_specification name: (_) @name)]) @definition.function
(expression_function_declaration (function_specification name: (_) @name)) @definition.function
(null_procedure_declaration (procedure_specification name: (_) @name)) @definition.function
(entry_declaration entry_name: (identifier) @name) @definition.function
(entry_body . (identifier) @name) @definition.function

; Types. Tagged records and type extensions are Ada's classes.
(full_type_declaration . (identifier) @name (record_type_definition "tagged")) @definition.class
(full_type_declaration . (identifier) @name (derived_type_definition (record_extension_part))) @definition.class
(full_type_declaration . (identifier) @name (record_type_definition)) @definition.record
(full_type_declaration . (identifier) @name (enumeration_type_definition)) @definition.enum
(full_type_declaration . (identifier) @name (interface_type_definition)) @definition.interface
(task_type_declaration . (identifier) @name) @definition.class
(single_task_declaration . (identifier) @name) @definition.class
(protected_type_declaration . (identifier) @name) @definition.class
(single_protected_declaration . (identifier) @name) @definition.class
(task_body . (identifier) @name) @definition.function
(protected_body . (identifier) @name) @definition.class

; Cyclomatic complexity decision points: `if`/`elsif` (statements and
; expressions), `for`/`while` loops (a bare `loop` has no condition), case
; arms but `when others`, `exit when`, exception handlers, and each
; `and`/`or` (`and then`/`or else` included: one token each).
(if_statement) @branch
(elsif_statement_item) @branch
(if_expression) @branch
(elsif_expression_item) @branch
(loop_statement (iteration_scheme)) @branch
((case_statement_alternative (discrete_choice_list) @_choices) @branch
 (#not-match? @_choices "^[oO][tT][hH][eE][rR][sS]$"))
((case_expression_alternative (discrete_choice_list) @_choices) @branch
 (#not-match? @_choices "^[oO][tT][hH][eE][rR][sS]$"))
(exit_statement condition: (_)) @branch
(exception_handler) @branch
(expression ["and" "or"] @branch)
