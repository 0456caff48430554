; TypeScript definitions (tsx.scm inherits this file).

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

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

(method_definition
  name: (_) @name) @definition.method

(abstract_method_signature
  name: (_) @name) @definition.method

(method_signature
  name: (_) @name) @definition.method

; Class fields whose value is a function: `x = () => ...`.
(public_field_definition
  name: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; `const x = (...) => ...` / `var x = function ...`: the whole statement.
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

; `a.b = function ...`: named by the property, `a` is the scope.
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (_) @scope
      property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)])) @definition.function

;   `load = function ...` (plain identifier target).
(expression_statement
  (assignment_expression
    left: (identifier) @name
    right: [(arrow_function) (function_expression) (generator_function)])) @definition.function

; Class expressions bound the same ways: `const A = class {}`, `a.B = class {}`.
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class))) @definition.class

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class))) @definition.class

(expression_statement
  (assignment_expression
    left: (member_expression
      object: (_) @scope
      property: (property_identifier) @name)
    right: (class))) @definition.class

; Object literal members holding functions: `{ key: () => ... }`.
(pair
  key: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; Cyclomatic complexity decision points.
(if_statement) @branch
(for_statement) @branch
(for_in_statement) @branch
(while_statement) @branch
(do_statement) @branch
(switch_case) @branch
(catch_clause) @branch
(ternary_expression) @branch
(binary_expression operator: ["&&" "||"]) @branch
