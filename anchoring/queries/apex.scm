; Apex definitions (classes, triggers). The grammar is Java's: annotations
; and modifiers belong to the node, ApexDoc comments are siblings and stay
; outside. A trigger is a function named by the trigger; a property is a
; field with a `{ get; set; }` accessor list (plain fields are not captured).

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(trigger_declaration name: (identifier) @name) @definition.function
(field_declaration
  declarator: (variable_declarator name: (identifier) @name)
  (accessor_list)) @definition.property

; Cyclomatic complexity decision points. Each `when` with values is one branch;
; `when else` carries none. SOQL's AND/OR are filters, not control flow.
(if_statement) @branch
(for_statement) @branch
(enhanced_for_statement) @branch
(while_statement) @branch
(do_statement) @branch
(catch_clause) @branch
(ternary_expression) @branch
(switch_label (_)) @branch
(binary_expression operator: ["&&" "||"]) @branch
