; Dart definitions. The grammar splits a function into sibling signature
; and body nodes, so both are captured as @definition (the range runs from
; the signature to the end of the body). Abstract members have no body.

(class_definition name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.mixin
(enum_declaration name: (identifier) @name) @definition.enum
(extension_declaration name: (identifier) @name) @definition.extension
(type_alias (type_identifier) @name) @definition.type

(_
  (method_signature
    [(function_signature name: (identifier) @name)
     (getter_signature name: (identifier) @name)
     (setter_signature name: (identifier) @name)
     (constructor_signature name: (identifier) @name)
     (factory_constructor_signature (identifier) @name)]) @definition.function
  .
  (function_body) @definition.function)

(_
  (function_signature name: (identifier) @name) @definition.function
  .
  (function_body) @definition.function)

(declaration
  [(function_signature name: (identifier) @name)
   (getter_signature name: (identifier) @name)
   (setter_signature name: (identifier) @name)
   (constructor_signature name: (identifier) @name)]) @definition.function

; Cyclomatic complexity decision points.
(if_statement) @branch
(for_statement) @branch
(while_statement) @branch
(do_statement) @branch
(switch_statement_case) @branch
(switch_expression_case) @branch
(catch_clause) @branch
(conditional_expression) @branch
(logical_and_operator) @branch
(logical_or_operator) @branch
