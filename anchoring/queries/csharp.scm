; C# definitions. Attributes `[...]` and modifiers belong to the node;
; `///` doc comments are siblings and stay outside.

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(delegate_declaration name: (identifier) @name) @definition.type
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function
(property_declaration name: (identifier) @name) @definition.property
(event_declaration name: (identifier) @name) @definition.property

; Cyclomatic complexity decision points. Each case label's pattern is one
; branch; `default:` and `_ =>` carry none.
(if_statement) @branch
(for_statement) @branch
(foreach_statement) @branch
(while_statement) @branch
(do_statement) @branch
(catch_clause) @branch
(conditional_expression) @branch
(binary_expression operator: ["&&" "||"]) @branch
(switch_section
  [(constant_pattern) (declaration_pattern) (recursive_pattern) (type_pattern)
   (relational_pattern) (and_pattern) (or_pattern) (negated_pattern) (var_pattern)
   (parenthesized_pattern) (list_pattern)] @branch)
(switch_expression_arm
  .
  [(constant_pattern) (declaration_pattern) (recursive_pattern) (type_pattern)
   (relational_pattern) (and_pattern) (or_pattern) (negated_pattern) (var_pattern)
   (parenthesized_pattern) (list_pattern)]) @branch
