; Swift definitions. class/struct/enum/extension/actor share one node type
; told apart by their keyword; an extension is named by the extended type,
; so its members qualify as `Type.member`.

(class_declaration "struct" name: (type_identifier) @name) @definition.struct
(class_declaration "enum" name: (type_identifier) @name) @definition.enum
(class_declaration "extension" name: (user_type) @name) @definition.extension
(class_declaration "actor" name: (type_identifier) @name) @definition.class
(class_declaration name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.protocol

(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration "init" @name) @definition.constructor
(deinit_declaration "deinit" @name) @definition.method
(subscript_declaration "subscript" @name) @definition.method
(typealias_declaration name: (type_identifier) @name) @definition.type

; Cyclomatic complexity decision points.
(if_statement) @branch
(guard_statement) @branch
(for_statement) @branch
(while_statement) @branch
(repeat_while_statement) @branch
(switch_entry (switch_pattern)) @branch
(catch_block) @branch
(ternary_expression) @branch
(conjunction_expression) @branch
(disjunction_expression) @branch
