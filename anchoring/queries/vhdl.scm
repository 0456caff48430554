; VHDL definitions: entities and architectures (kind module; an
; architecture is named by its entity, `counter.rtl`, so the architectures
; of one entity stay apart), packages and package bodies (kind namespace,
; both named by the package, as a C++ header and source share a name),
; subprogram bodies and declarations (kind function), labelled processes
; (kind function: sequential code with its own complexity; an unlabelled
; process has no name and is not a symbol), protected types and bodies
; (kind class) and enum/record type declarations. `--` comments in front
; stay outside. Ports, signals, components, generate and block statements,
; configurations and contexts are not symbols.

(entity_declaration name: (identifier) @name) @definition.module
(architecture_body name: (identifier) @name entity: (_) @scope) @definition.module
(package_declaration name: (identifier) @name) @definition.namespace
(package_body package: (_) @name) @definition.namespace

(full_type_declaration name: (identifier) @name [(protected_type_declaration) (protected_type_body)]) @definition.class
(full_type_declaration name: (identifier) @name (enumeration_type_definition)) @definition.enum
(full_type_declaration name: (identifier) @name (record_type_definition)) @definition.record

(function_body designator: (_) @name) @definition.function
(procedure_body designator: (_) @name) @definition.function
(function_declaration designator: (_) @name) @definition.function
(procedure_declaration designator: (_) @name) @definition.function

(process_statement (label (identifier) @name)) @definition.function

; Cyclomatic complexity decision points: `if`/`elsif` clauses, `for` and
; `while` loops (a bare `loop` has no condition), case arms but `when
; others`, `exit`/`next ... when`. `and`/`or` count only in a condition
; (directly or inside one pair of parentheses): elsewhere they are gates
; on signals, not decisions.
(if) @branch
(elsif) @branch
(loop_statement [(for_loop) (while_loop)]) @branch
((case_statement_alternative (choices) @_choices) @branch
 (#not-match? @_choices "^[oO][tT][hH][eE][rR][sS]$"))
(exit_statement (conditional_expression)) @branch
(next_statement (conditional_expression)) @branch
(conditional_expression (logical_expression operator: ["and" "or"] @branch))
(conditional_expression
  (logical_expression (parenthesized_expression (logical_expression operator: ["and" "or"] @branch))))
