; D definitions. Attributes, storage classes and template parameters belong
; to the node (`@safe pure int f(T)(...)`); ddoc comments stay outside. The
; module declaration is not a symbol (it names the file, not a scope anyone
; comments on). Constructors, postblits and destructors are all named `this`
; (the grammar has no node spelling `~this`).
; A plain `template` is a type, a `mixin template` a mixin; `unittest`
; blocks are tests named `unittest`.

(function_declaration (identifier) @name . [(parameters) (template_parameters)]) @definition.function
(constructor (this) @name) @definition.constructor
(postblit . (this) @name) @definition.constructor
; `function`, so that a destructor in an aggregate is a method and a module's
; `static ~this()` a function.
(destructor (this) @name) @definition.function

(class_declaration (identifier) @name) @definition.class
(struct_declaration (identifier) @name) @definition.struct
(union_declaration (identifier) @name) @definition.union
(interface_declaration (identifier) @name) @definition.interface
(enum_declaration (identifier) @name) @definition.enum
(mixin_template_declaration (template_declaration (identifier) @name)) @definition.mixin
(template_declaration (identifier) @name) @definition.type
(alias_declaration (alias_initializer . (identifier) @name)) @definition.type
(unittest_declaration (unittest) @name) @definition.test

; Cyclomatic complexity decision points. `default:` carries none; `static if`
; and `version` are compile-time and not counted.
(if_statement) @branch
(for_statement) @branch
(foreach_statement) @branch
(while_statement) @branch
(do_statement) @branch
(case_statement (case)) @branch
(catch_statement) @branch
(ternary_expression) @branch
(logical_and_expression) @branch
(logical_or_expression) @branch
