; C definitions (cpp.scm inherits this file, so only node types that exist
; in both grammars belong here). Prototypes are not symbols; definitions are.

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    ; a name a macro makes: `int FUNC_NAME(_update)(hash_state *s)` (the signature tells them apart)
    (function_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

; typedef struct { ... } name_t;  /  typedef int myint;
(type_definition type: (struct_specifier body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier body: (_)) declarator: (type_identifier) @name) @definition.union
(type_definition type: (enum_specifier body: (_)) declarator: (type_identifier) @name) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type

(preproc_function_def name: (identifier) @name) @definition.macro

; Cyclomatic complexity decision points.
(if_statement) @branch
(for_statement) @branch
(while_statement) @branch
(do_statement) @branch
(case_statement value: (_)) @branch
(conditional_expression) @branch
(binary_expression operator: ["&&" "||"]) @branch
