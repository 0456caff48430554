; Zig definitions. Types are `const Name = struct {...}` declarations, so
; the container keyword decides the kind (union before enum: `union(enum)`); functions inside them qualify as
; `Point.init`.

(Decl (FnProto function: (IDENTIFIER) @name)) @definition.function

(Decl (VarDecl variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType "struct")))))) @definition.struct
(Decl (VarDecl variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType "union")))))) @definition.union
(Decl (VarDecl variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType "enum")))))) @definition.enum
(Decl (VarDecl variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType "opaque")))))) @definition.type

(TestDecl [(STRINGLITERALSINGLE) (IDENTIFIER)] @name) @definition.test

; Cyclomatic complexity decision points.
(IfStatement) @branch
(IfExpr) @branch
(WhileStatement) @branch
(WhileExpr) @branch
(ForStatement) @branch
(ForExpr) @branch
(SwitchProng (SwitchCase (SwitchItem))) @branch
(BinaryExpr ["and" "or"] @branch)
(BitwiseOp "catch") @branch
