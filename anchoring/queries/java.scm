; Java definitions. Annotations and modifiers belong to the node, so ranges
; include them; Javadoc comments are siblings and stay outside.

(class_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(record_declaration
  name: (identifier) @name) @definition.record

(annotation_type_declaration
  name: (identifier) @name) @definition.annotation

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.constructor

(compact_constructor_declaration
  name: (identifier) @name) @definition.constructor

(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

; Cyclomatic complexity decision points.
(if_statement) @branch
(for_statement) @branch
(enhanced_for_statement) @branch
(while_statement) @branch
(do_statement) @branch
(switch_label (_)) @branch
(catch_clause) @branch
(ternary_expression) @branch
(binary_expression operator: ["&&" "||"]) @branch
