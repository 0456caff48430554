; Makefiles: rules named by their targets (recipe included), and
; multi-line `define` variables.

(rule (targets) @name) @definition.target
(define_directive name: (_) @name) @definition.variable

; Cyclomatic complexity decision points.
(conditional) @branch
