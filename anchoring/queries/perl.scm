; Perl: packages and subs (named, and methods via `method` in newer Perls).

(package_statement name: (_) @name) @definition.module
(subroutine_declaration_statement name: (bareword) @name) @definition.function
(method_declaration_statement name: (bareword) @name) @definition.method

; Cyclomatic complexity decision points.
(conditional_statement) @branch
(elsif) @branch
(for_statement) @branch
(cstyle_for_statement) @branch
(loop_statement) @branch
(conditional_expression) @branch
(binary_expression operator: ["&&" "||" "and" "or"]) @branch
