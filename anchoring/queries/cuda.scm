; CUDA definitions: the grammar extends C++ and keeps its node types, so
; every C++ pattern applies as is. Kernels (`__global__`), device and host
; functions are plain function_definitions whose execution-space qualifiers
; (and a `__launch_bounds__(...)`) sit inside the node, so they are part of
; the range; `kernel<<<grid, block>>>(...)` launches are calls, not symbols.
; inherits: cpp
