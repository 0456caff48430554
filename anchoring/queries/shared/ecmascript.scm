; Definitions JavaScript and TypeScript share (same node types in both grammars).
; javascript.scm and typescript.scm inherit this file and add what differs: how a class
; names itself (identifier vs type_identifier), class fields, TypeScript's declarations.

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

(method_definition
  name: (_) @name) @definition.method

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
