; C++ definitions on top of c.scm (inherited below). Out-of-class member
; definitions `ns::Foo::bar` capture each qualifier as @scope, giving
; `ns.Foo.bar`; they are methods since the scope is usually a class.
; inherits: c

; Member functions defined in a class body, operators, destructors.
(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
  ]) @definition.function

(function_definition
  declarator: [
    (function_declarator declarator: [
        (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
      ])
    (pointer_declarator declarator: (function_declarator declarator: [
        (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
      ]))
    (reference_declarator (function_declarator declarator: [
        (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
      ]))
  ]) @definition.method

; Templates: the `template <...>` line belongs to the definition, as Python
; decorators do; the larger node wins over the inner one.
(template_declaration
  (function_definition
    declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
  ])) @definition.function

(template_declaration
  (function_definition
    declarator: [
    (function_declarator declarator: [
        (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
      ])
    (pointer_declarator declarator: (function_declarator declarator: [
        (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
      ]))
    (reference_declarator (function_declarator declarator: [
        (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: (qualified_identifier scope: (_) @scope name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
      ]))
  ])) @definition.method

; A specialization `template <> class caster<bool>` is named `caster`: its arguments are
; its signature, as parameters are an overload's.
(template_declaration (class_specifier
  name: [(type_identifier) @name (template_type name: (type_identifier) @name)] body: (_))) @definition.class
(template_declaration (struct_specifier
  name: [(type_identifier) @name (template_type name: (type_identifier) @name)] body: (_))) @definition.struct

; Member declarations inside a class body (the bulk of a header).
(field_declaration_list
  [
    (field_declaration declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
  ])
    (declaration declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
  ])
  ] @definition.function)

(class_specifier name: [(type_identifier) (qualified_identifier)] @name body: (_)) @definition.class
(class_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.struct

(namespace_definition name: (_) @name) @definition.namespace

(alias_declaration name: (type_identifier) @name) @definition.type

(concept_definition name: (identifier) @name) @definition.type

; Cyclomatic complexity decision points (C ones are inherited).
(for_range_loop) @branch
(catch_clause) @branch
