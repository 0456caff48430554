; fish definitions: `function name ... end`, its options (`--description`,
; `--on-event`, ...) on the first line being part of the node. A function
; defined inside another is its own symbol. `alias` (a one-line wrapper
; command) is not a definition here.

(function_definition name: (_) @name) @definition.function

; Cyclomatic complexity decision points. A `case '*'` arm is the default
; (the pattern is quoted or escaped so that it does not glob); each `and`,
; `or`, `&&` or `||` is one conditional_execution node.
(if_statement) @branch
(else_if_clause) @branch
(for_statement) @branch
(while_statement) @branch
((case_clause . (_) @_value) @branch
 (#not-match? @_value "^(\\*|'\\*'|\"\\*\"|\\\\\\*)$"))
(conditional_execution) @branch
