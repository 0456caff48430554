; HCL (terraform.scm inherits this): blocks named by type and labels, e.g.
; `resource "aws_s3_bucket" "b"` -> resource.aws_s3_bucket.b; nested blocks
; qualify under their parent.

(block
  (identifier) @scope . (string_lit (template_literal) @scope)
  . (string_lit (template_literal) @name) . (block_start)) @definition.block
(block
  (identifier) @scope . (string_lit (template_literal) @name) . (block_start)) @definition.block
(block
  (identifier) @name . (block_start)) @definition.block

; Cyclomatic complexity decision points (conditional expressions).
(conditional) @branch
(for_expr) @branch
