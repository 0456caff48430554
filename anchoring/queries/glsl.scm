; GLSL definitions on top of c.scm (the grammar extends C, not C++, so only
; C node types are inherited): functions, structs, macros, plus interface
; blocks (`uniform Globals { ... } globals;`, `buffer`, `in`/`out` blocks),
; which are `block`s named by their block name, not their instance name;
; a `layout(...)` in front is inside the declaration, so part of the range.
; Prototypes and `subroutine` type declarations are not symbols.
; inherits: c

(declaration (identifier) @name . (field_declaration_list)) @definition.block
