; Nix definitions are attribute bindings (in attrsets and `let` blocks). A
; binding whose value is a function (`toFlags = attrs: ...;`,
; `f = { a, b }: ...;`) is a `function`. One whose value is a non-empty
; attrset (plain, `rec`, under `with lib;` or `let ... in`), a call whose
; last argument is an attrset or a function (`stdenv.mkDerivation rec {...}`,
; `mkIf cond {...}`, `mkOption {...}`, `callPackage ./x { }`,
; `mkDerivation (finalAttrs: {...})`), or a '' string (a build phase's
; script) is a `property`. Scalars, lists, empty sets (`default = { };`) and
; other calls are too small to be symbols. The range is the whole binding,
; `name = ... ;`. A dotted path `services.foo.bar = ...` is named `bar` and
; qualified through its path (@scope). `property` is a transparent kind for
; complexity: an `if` in an attribute counts for the function around it.

(binding
  attrpath: (attrpath ((_) @scope ".")* . [(identifier) (string_expression)] @name .)
  expression: (function_expression)) @definition.function

(binding
  attrpath: (attrpath ((_) @scope ".")* . [(identifier) (string_expression)] @name .)
  expression: [
    (attrset_expression (binding_set))
    (rec_attrset_expression (binding_set))
    (let_attrset_expression)
    (with_expression body: [(attrset_expression) (rec_attrset_expression)])
    (let_expression body: [(attrset_expression) (rec_attrset_expression)])
    (apply_expression argument: [
      (attrset_expression)
      (rec_attrset_expression)
      (parenthesized_expression (function_expression))])
    (indented_string_expression)
  ]) @definition.property

; Cyclomatic complexity decision points.
(if_expression) @branch
(binary_expression operator: ["&&" "||" "->"] @branch)
