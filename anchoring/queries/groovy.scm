; Groovy definitions. The pack's Groovy grammar is a loose, keyword-free one:
; every statement is a `command` of `unit`s and `block`s, so keywords are
; matched by predicate and a definition is always the whole `command` (its
; modifiers included; an annotation on the line above is a command of its
; own and stays outside). A class's name sits either right after its keyword
; (`class A extends B {`) or first inside its body block (`class A {`).
; Methods need a return type, `def` or a modifier in front of `name(...) {`,
; which tells them from DSL calls taking a closure (`stage('x') { }`); a
; constructor is a `Name(...) {` in the body of the class of that Name.
; Not captured: closures bound to variables, bodiless methods outside
; interfaces. A class whose `{` opens on the next line is split by the grammar
; into two commands: the class is then its header line only and its methods
; are top-level functions. `?:` is not parsed, so ternaries are not branches.

; Constructors first: with a modifier they also match the method pattern
; below, and for one definition range the earlier pattern wins.
(command
  (unit . (identifier) @_keyword .)
  .
  (block
    .
    (unit . (identifier) @_class .)
    [(command (block . (unit . (func . (identifier) @name)) . "{") .)
     (end_command (block . (unit . (func . (identifier) @name)) . "{") .)] @definition.constructor)
  (#match? @_keyword "^(class|enum)$")
  (#eq? @_class @name))
(command
  (unit . (identifier) @_keyword .)
  .
  (unit . (identifier) @_class .)
  (block
    [(command (block . (unit . (func . (identifier) @name)) . "{") .)
     (end_command (block . (unit . (func . (identifier) @name)) . "{") .)] @definition.constructor)
  (#match? @_keyword "^(class|enum)$")
  (#eq? @_class @name))

; Types: `class A {` and `class A extends B implements C {`.
((command
   (unit . (identifier) @_keyword .)
   .
   [(unit . (identifier) @name .) (block . (unit . (identifier) @name .))]) @definition.class
 (#eq? @_keyword "class"))
((command
   (unit . (identifier) @_keyword .)
   .
   [(unit . (identifier) @name .) (block . (unit . (identifier) @name .))]) @definition.interface
 (#eq? @_keyword "interface"))
((command
   (unit . (identifier) @_keyword .)
   .
   [(unit . (identifier) @name .) (block . (unit . (identifier) @name .))]) @definition.trait
 (#eq? @_keyword "trait"))
((command
   (unit . (identifier) @_keyword .)
   .
   [(unit . (identifier) @name .) (block . (unit . (identifier) @name .))]) @definition.enum
 (#eq? @_keyword "enum"))
; `@interface Name {` (an annotation type): `@interface` parses as an annotation.
((command
   (decorate (identifier) @_keyword)
   .
   [(unit . (identifier) @name .) (block . (unit . (identifier) @name .))]) @definition.annotation
 (#eq? @_keyword "interface"))

; Methods and script functions: `<type|def|modifier> name(...) {`. The word
; before the name must look like a type or modifier (a lower-case word there is
; a command call: `return foo(x) { }`, `println bar(y) { }`); a generic or array
; return type (`List<T>`, `String[]`) is a unit with a generics_class or a list.
([(command
    [(unit (identifier) @_type .) (unit (generics_class) .) (list)]
    .
    (block . (unit . (func . (identifier) @name)) . "{"))
  (end_command
    [(unit (identifier) @_type .) (unit (generics_class) .) (list)]
    .
    (block . (unit . (func . (identifier) @name)) . "{"))] @definition.function
 (#match? @_type "^(def|void|boolean|byte|char|short|int|long|float|double|public|private|protected|static|final|abstract|synchronized|native|strictfp|default|[A-Z][A-Za-z0-9_]*)$"))
; `Type name(...) throws E {`: the body block starts with the exception type.
([(command
    [(unit (identifier) @_type .) (unit (generics_class) .) (list)]
    .
    (unit . (func . (identifier) @name))
    .
    (unit . (identifier) @_throws .)
    .
    (block))
  (end_command
    [(unit (identifier) @_type .) (unit (generics_class) .) (list)]
    .
    (unit . (func . (identifier) @name))
    .
    (unit . (identifier) @_throws .)
    .
    (block))] @definition.function
 (#eq? @_throws "throws")
 (#match? @_type "^(def|void|boolean|byte|char|short|int|long|float|double|public|private|protected|static|final|abstract|synchronized|native|strictfp|default|[A-Z][A-Za-z0-9_]*)$"))
; Spock feature methods are named by a string: `def "adds two numbers"() {`
; (the grammar turns the parameter list into an ERROR node).
([(command (unit) . (block . (string) @name . (ERROR "(") . "{"))
  (end_command (unit) . (block . (string) @name . (ERROR "(") . "{"))] @definition.function)

; Bodiless method declarations of an interface or an annotation type.
((command
   [(unit . (identifier) @_keyword .) (decorate (identifier) @_keyword)]
   (block
     [(command (unit) . (unit . (func . (identifier) @name)) .)
      (end_command (unit) . (unit . (func . (identifier) @name)) .)] @definition.method))
 (#eq? @_keyword "interface"))

; Cyclomatic complexity decision points. Keywords are plain identifiers here;
; `&&`/`||` are two operator tokens each (counted at the first). The grammar
; does not parse `?:`, so ternaries are not counted.
((identifier) @branch
 (#match? @branch "^(if|for|while|case|catch)$"))
(_ (operators "&") @branch . (operators "&"))
(_ (operators "|") @branch . (operators "|"))
