; Bash definitions: functions, in both `f() {}` and `function f {}` forms.

(function_definition name: (word) @name) @definition.function

; Cyclomatic complexity decision points. `*)` is the default case arm.
(if_statement) @branch
(elif_clause) @branch
(for_statement) @branch
(c_style_for_statement) @branch
(while_statement) @branch
((case_item . value: (_) @_value) @branch
  (#not-eq? @_value "*"))
(list ["&&" "||"] @branch)
(binary_expression ["&&" "||"] @branch)
