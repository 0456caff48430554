; Solidity: contracts, interfaces, libraries and their members.

(contract_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(library_declaration name: (identifier) @name) @definition.module
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(event_definition name: (identifier) @name) @definition.event
(modifier_definition name: (identifier) @name) @definition.function
(function_definition name: (identifier) @name) @definition.function
(constructor_definition "constructor" @name) @definition.constructor

; Cyclomatic complexity decision points.
(if_statement) @branch
(for_statement) @branch
(while_statement) @branch
(do_while_statement) @branch
(catch_clause) @branch
(ternary_expression) @branch
(binary_expression operator: ["&&" "||"]) @branch
