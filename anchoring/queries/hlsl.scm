; HLSL definitions on top of cpp.scm (the grammar extends C++). Attributes
; such as `[numthreads(8, 8, 1)]` sit inside the function_definition, so
; they are part of the range; the `: SV_Target` semantic is part of the
; declarator. Constant buffers (`cbuffer`/`tbuffer`) are `block`s named by
; the buffer.
; inherits: cpp

; The grammar only knows cbuffer_specifier inside function bodies: at the top
; level `cbuffer Name { ... }` parses as a function_definition whose type is
; the keyword, and `cbuffer Name : register(b0) { ... }` as a declaration
; followed by a bare compound_statement: both nodes are captured, so the
; range runs from the keyword to the closing brace.
(cbuffer_specifier name: (_) @name body: (_)) @definition.block
((function_definition
   type: (type_identifier) @_keyword
   declarator: (identifier) @name
   body: (compound_statement)) @definition.block
 (#any-of? @_keyword "cbuffer" "tbuffer"))
(translation_unit
  ((declaration
     type: (type_identifier) @_keyword
     declarator: (identifier) @name) @definition.block
   .
   (compound_statement) @definition.block)
  (#any-of? @_keyword "cbuffer" "tbuffer"))

; `interface IFoo { ... };` (Shader Model 5 dynamic linkage) parses the same
; way as a top-level cbuffer; its method prototypes are not symbols.
((function_definition
   type: (type_identifier) @_keyword
   declarator: (identifier) @name
   body: (compound_statement)) @definition.interface
 (#eq? @_keyword "interface"))
