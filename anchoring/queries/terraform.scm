; Terraform uses the HCL grammar.
; inherits: hcl
