; Kotlin definitions. Annotations and modifiers belong to the node; KDoc
; comments stay outside. Extension functions qualify by their receiver type
; via @scope (`Foo.ext`); an unnamed companion object is transparent.

(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body)) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.object
(companion_object (type_identifier) @name) @definition.object

(function_declaration
  receiver: (receiver_type (user_type (type_identifier) @scope))
  (simple_identifier) @name) @definition.function
(function_declaration (simple_identifier) @name) @definition.function

(secondary_constructor "constructor" @name) @definition.constructor
(type_alias (type_identifier) @name) @definition.type

; Cyclomatic complexity decision points.
(if_expression) @branch
(for_statement) @branch
(while_statement) @branch
(do_while_statement) @branch
(when_entry (when_condition)) @branch
(catch_block) @branch
(conjunction_expression) @branch
(disjunction_expression) @branch
