; Rust definitions. `#[attributes]` and doc comments are sibling nodes, so
; they stay outside every range. An impl block is emitted as a symbol of
; kind `impl` named by its type (generics and paths dropped), so its
; functions qualify as `Type.fn` (or `Type[Trait].fn`) through the parent chain.

(function_item
  name: (identifier) @name) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

(struct_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(union_item
  name: (type_identifier) @name) @definition.union

(trait_item
  name: (type_identifier) @name) @definition.trait

(mod_item
  name: (identifier) @name) @definition.module

(type_item
  name: (type_identifier) @name) @definition.type

(const_item
  name: (identifier) @name) @definition.constant

(static_item
  name: (identifier) @name) @definition.constant

(macro_definition
  name: (identifier) @name) @definition.macro

; Trait impls carry the trait as a @facet: `impl Display for Foo` is `Foo[Display]`
; (so its `fmt` is `Foo[Display].fmt`, apart from the `fmt` of `impl Debug for Foo`).
; Specific type shapes first; the catch-all loses ties on the same node. `!trait`
; keeps inherent impls from matching the trait patterns' node twice.
(impl_item
  trait: [(type_identifier) @facet
          (scoped_type_identifier name: (type_identifier) @facet)
          (generic_type type: [(type_identifier) @facet (scoped_type_identifier name: (type_identifier) @facet)])]
  type: [(type_identifier) @name
         (generic_type type: (type_identifier) @name)
         (scoped_type_identifier name: (type_identifier) @name)
         (generic_type type: (scoped_type_identifier name: (type_identifier) @name))]) @definition.impl
(impl_item trait: (_) @facet type: (_) @name) @definition.impl
(impl_item !trait
  type: [(type_identifier) @name
         (generic_type type: (type_identifier) @name)
         (scoped_type_identifier name: (type_identifier) @name)
         (generic_type type: (scoped_type_identifier name: (type_identifier) @name))]) @definition.impl
(impl_item !trait type: (_) @name) @definition.impl

; Cyclomatic complexity decision points.
(if_expression) @branch
(while_expression) @branch
(for_expression) @branch
(match_arm pattern: (match_pattern (_))) @branch
(binary_expression operator: ["&&" "||"]) @branch
