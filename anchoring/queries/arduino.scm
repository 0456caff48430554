; Arduino sketches (.ino): the grammar is C++ with Arduino's extra types and
; keywords, and keeps C++'s node types, so every C++ pattern applies as is:
; setup()/loop(), helper functions, classes and their methods, macros.
; `ISR(TIMER1_COMPA_vect) { ... }` parses as a function named `ISR` (its
; vector is a parameter's type), so two ISRs in one sketch share that name.
; inherits: cpp
