; Objective-C on top of c.scm (inherited below). An @implementation is
; emitted as an `impl` symbol named by its class so methods qualify as
; `Foo.bar`; a method is named by the first part of its selector.
; inherits: c

(class_interface . (identifier) @name) @definition.class
(class_implementation . (identifier) @name) @definition.impl
(protocol_declaration . (identifier) @name) @definition.protocol
(method_declaration (method_type) . (identifier) @name) @definition.method
(method_definition (method_type) . (identifier) @name) @definition.method
(method_definition . (identifier) @name) @definition.method

; Cyclomatic complexity decision points (C ones are inherited).
(catch_clause) @branch
