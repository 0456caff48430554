; Verilog / SystemVerilog definitions: modules, interfaces and programs
; (their `(* attribute *)` lines are inside the header, so inside the range;
; `//` comments in front stay outside), packages (kind namespace), classes,
; interface classes, struct/union/enum typedefs, functions and tasks (both
; kind function), class constructors (`new`) and extern/pure method
; prototypes. A class method's range is its `class_method` node, so
; `virtual`/`static`/`extern`/`pure virtual` qualifiers are inside it.
; Functions in a module, package or interface qualify through it
; (`counter.add`). Always/initial blocks, generate blocks, ports, nets,
; parameters, modports, covergroups and assertions are not symbols.

(module_declaration (module_header (simple_identifier) @name)) @definition.module
(interface_declaration
  [(interface_ansi_header (interface_identifier (simple_identifier) @name))
   (interface_nonansi_header (interface_identifier (simple_identifier) @name))]) @definition.interface
(program_declaration
  [(program_ansi_header (program_identifier (simple_identifier) @name))
   (program_nonansi_header (program_identifier (simple_identifier) @name))]) @definition.module
(package_declaration (package_identifier (simple_identifier) @name)) @definition.namespace

(class_declaration (class_identifier (simple_identifier) @name)) @definition.class
(interface_class_declaration (class_identifier (simple_identifier) @name)) @definition.interface

(type_declaration (data_type (struct_union "struct")) (simple_identifier) @name) @definition.struct
(type_declaration (data_type (struct_union "union")) (simple_identifier) @name) @definition.union
(type_declaration (data_type "enum") (simple_identifier) @name) @definition.enum

; Out-of-class bodies `function void Foo::bar();`: the grammar does not
; know the `Foo::` class scope and leaves `:: bar` in an ERROR node after a
; function_identifier `Foo`. Read the real name from there (same range as
; the general pattern further down, so this earlier pattern wins and the
; method is not named `Foo`).
(function_declaration
  (function_body_declaration
    (function_identifier (function_identifier (simple_identifier) @scope))
    .
    (ERROR "::" (class_identifier (simple_identifier) @name)))) @definition.method
(task_declaration
  (task_body_declaration
    (task_identifier (task_identifier (simple_identifier) @scope))
    .
    (ERROR "::" (class_identifier (simple_identifier) @name)))) @definition.method
; `function Foo::new();` parses as a function returning the type `Foo::new`
; with an empty (missing) name.
((function_declaration
   (function_body_declaration
     (function_data_type_or_implicit1
       (data_type_or_void
         (data_type
           (class_type
             (class_identifier (simple_identifier) @scope)
             .
             "::"
             .
             (class_identifier (simple_identifier) @name) .))))
     .
     (function_identifier))) @definition.constructor
 (#eq? @name "new"))

; Methods: the class_method node holds the qualifiers; it wins over the
; inner declaration (same @name, larger definition).
(class_method (class_constructor_declaration "new" @name)) @definition.constructor
(class_method
  [(function_declaration (function_body_declaration (function_identifier (function_identifier (simple_identifier) @name))))
   (task_declaration (task_body_declaration (task_identifier (task_identifier (simple_identifier) @name))))
   (function_prototype (function_identifier (function_identifier (simple_identifier) @name)))
   (task_prototype (task_identifier (task_identifier (simple_identifier) @name)))]) @definition.function
(interface_class_method
  (function_prototype (function_identifier (function_identifier (simple_identifier) @name)))) @definition.function

; The `#match?` drops the empty (missing) name of a misparsed `Foo::new`.
((function_declaration
   (function_body_declaration (function_identifier (function_identifier (simple_identifier) @name)))) @definition.function
 (#match? @name "."))
(task_declaration
  (task_body_declaration (task_identifier (task_identifier (simple_identifier) @name)))) @definition.function

; Cyclomatic complexity decision points. `if`/`else if` is one
; conditional_statement each; `default` case arms and `forever` (no
; condition) do not count.
(conditional_statement) @branch
(case_item (case_item_expression)) @branch
(case_inside_item (open_range_list)) @branch
(loop_statement ["for" "foreach" "while" "repeat"]) @branch
(conditional_expression) @branch
(expression ["&&" "||"]) @branch
