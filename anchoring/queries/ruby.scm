; Ruby definitions. `class << self` has no name, so its methods qualify
; directly under the enclosing class. `class A::B` is named `A.B`.

(module name: (_) @name) @definition.module
(class name: (_) @name) @definition.class
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

; Cyclomatic complexity decision points.
(if) @branch
(elsif) @branch
(unless) @branch
(if_modifier) @branch
(unless_modifier) @branch
(while) @branch
(until) @branch
(while_modifier) @branch
(until_modifier) @branch
(for) @branch
(when) @branch
(in_clause) @branch
(rescue) @branch
(rescue_modifier) @branch
(conditional) @branch
(binary operator: ["&&" "||" "and" "or"]) @branch
