; Go definitions. Methods are qualified by their receiver type via @scope
; (pointer and generic receivers included): `Recv.Method`.

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @scope
        (pointer_type (type_identifier) @scope)
        (generic_type type: (type_identifier) @scope)
        (pointer_type (generic_type type: (type_identifier) @scope))
      ]))
  name: (field_identifier) @name) @definition.method

; A type_declaration holding a single spec spans the whole declaration;
; specs inside a grouped `type ( ... )` get their own range. The larger
; definition wins when both match the same name.
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @definition.struct
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @definition.interface
(type_declaration . [(type_spec name: (type_identifier) @name) (type_alias name: (type_identifier) @name)] .) @definition.type

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

; Cyclomatic complexity decision points.
(if_statement) @branch
(for_statement) @branch
(expression_case) @branch
(type_case) @branch
(communication_case) @branch
(binary_expression operator: ["&&" "||"]) @branch
