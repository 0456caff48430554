; TypeScript definitions: the shared ECMAScript patterns plus TypeScript's own (tsx.scm inherits
; this file).
; inherits: shared/ecmascript

(class_declaration
  name: (type_identifier) @name) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(interface_declaration
  name: (type_identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(internal_module
  name: (_) @name) @definition.namespace

(module
  name: (_) @name) @definition.module

(abstract_method_signature
  name: (_) @name) @definition.method

(method_signature
  name: (_) @name) @definition.method

; Class fields whose value is a function: `x = () => ...`.
(public_field_definition
  name: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
