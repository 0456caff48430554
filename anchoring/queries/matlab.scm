; MATLAB definitions: classdef classes (their attribute list is inside the
; node), functions (with or without a closing `end`; local and nested
; functions too, nested ones qualify through their parent) and, in a
; `methods` block, methods and bodiless method signatures. The `% help`
; text MATLAB puts *below* the function line is inside the range; `%`
; comments above a definition stay outside. A method named like its class
; is the constructor. Property accessors `function set.Balance(obj, v)`
; are named `set.Balance`, so they do not collide with each other.
; Properties, events, enumeration members and anonymous `@(x)` functions
; are not symbols. (MATLAB source is `.m`, which the registry gives to
; Objective-C; the fixture is `.mat` only because that is the extension
; mapped to matlab today.)

(class_definition name: (identifier) @name) @definition.class

; The constructor pattern starts at the class (to compare the names; this
; makes the query not range-safe, as cpp's is not), so it must come before
; the general function pattern: same range, earlier wins.
((class_definition
   name: (identifier) @_class
   (methods (function_definition name: (identifier) @name) @definition.constructor))
 (#eq? @_class @name))

(function_definition ["set." "get."] @scope name: (identifier) @name) @definition.function
(function_definition name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function

; Cyclomatic complexity decision points. `otherwise` is the default arm.
; Only the short-circuit `&&` / `||` count: `&` / `|` are element-wise
; array operators (they short-circuit only directly in an if/while
; condition, which the grammar does not mark).
(if_statement) @branch
(elseif_clause) @branch
(for_statement) @branch
(while_statement) @branch
(case_clause) @branch
(catch_clause) @branch
(boolean_operator) @branch
