; CMake: function() and macro() definitions, named by their first argument.

(function_def (function_command (argument_list . (argument) @name))) @definition.function
(macro_def (macro_command (argument_list . (argument) @name))) @definition.macro

; Cyclomatic complexity decision points.
(if_command) @branch
(elseif_command) @branch
(foreach_loop) @branch
(while_loop) @branch
