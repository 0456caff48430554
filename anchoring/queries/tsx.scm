; TSX is TypeScript plus JSX: same definition node types.
; inherits: typescript
