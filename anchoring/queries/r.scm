; R: functions are values bound with `<-`, `<<-`, `=` (or `->`); the whole
; assignment is the definition.

(binary_operator
  lhs: [(identifier) (string)] @name
  operator: ["<-" "<<-" "="]
  rhs: (function_definition)) @definition.function
(binary_operator
  lhs: (function_definition)
  operator: ["->" "->>"]
  rhs: (identifier) @name) @definition.function

; Cyclomatic complexity decision points.
(if_statement) @branch
(for_statement) @branch
(while_statement) @branch
(binary_operator operator: ["&&" "||"]) @branch
