; Pascal / Delphi / Free Pascal definitions: class, object, record,
; interface, helper and enum type declarations (with their `[Attribute]`
; lines, which the grammar puts inside the declaration; `{ }` / `//` doc
; comments in front stay outside), routines, and the method declarations of
; a type body. A unit or program is the whole file and is not a symbol.
; A method body `procedure TFoo.Bar;` in the implementation section is a
; sibling of the type, so it qualifies through @scope (`TFoo.Bar`, generic
; arguments dropped: `TList<T>.TNode.Dump` is `TList.TNode.Dump`); nested
; local routines qualify through their routine (`Outer.Inner`). A routine's
; range is its header through the `end` of its body, local declarations
; included.

; Type declarations: the generic `TList<T>` is named `TList`. A class needs
; its `end`: the forward `TFoo = class;` and the one-line `EFoo =
; class(Exception);` are not definitions anyone reviews, and the forward one
; would be a second `TFoo`.
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)]
  type: (declClass (kRecord) (kEnd))) @definition.record
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)]
  type: (declClass (kEnd))) @definition.class
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)]
  type: (declIntf)) @definition.interface
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)]
  type: (declHelper)) @definition.extension
(declType name: (identifier) @name type: (type (declEnum))) @definition.enum

; Routine bodies. Constructors first: the same node also matches the
; general patterns below, and the earlier pattern wins.
(defProc header: (declProc (kConstructor) name: (genericDot lhs: (_) @scope rhs: (identifier) @name))) @definition.constructor
(defProc header: (declProc name: (genericDot lhs: (_) @scope rhs: (identifier) @name))) @definition.method
(defProc header: (declProc name: (identifier) @name)) @definition.function

; Declarations without a body: methods in a type body (a `function` in a
; class-like type becomes a method), interface-section and `forward`
; headers. A body's own header is the same @name node, and the larger
; definition (the body) wins.
(declProc (kConstructor) name: (identifier) @name) @definition.constructor
(declProc name: (identifier) @name) @definition.function

; Cyclomatic complexity decision points. `case ... else` and a `try ...
; except` handler's `else` are defaults; a bare `except` block (no `on`
; handlers) catches everything and counts once.
(if) @branch
(ifElse) @branch
(for) @branch
(foreach) @branch
(while) @branch
(repeat) @branch
(caseCase) @branch
(exceptionHandler) @branch
(try (kExcept) . (statements) @branch)
(exprBinary operator: [(kAnd) (kOr)]) @branch
