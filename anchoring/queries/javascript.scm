; JavaScript definitions: the shared ECMAScript patterns plus what JavaScript spells its own way.
; inherits: shared/ecmascript

(class_declaration
  name: (identifier) @name) @definition.class

; Class fields whose value is a function: `x = () => ...`.
(field_definition
  property: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
