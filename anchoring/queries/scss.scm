; SCSS: CSS plus mixins and functions.
; inherits: css

(mixin_statement name: (_) @name) @definition.mixin
(function_statement name: (_) @name) @definition.function

; Cyclomatic complexity decision points.
(if_statement) @branch
(else_if_clause) @branch
(each_statement) @branch
(for_statement) @branch
(while_statement) @branch
