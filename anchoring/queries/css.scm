; CSS (scss.scm inherits this): rule sets named by their selector list,
; at-rule blocks named by their query.

(rule_set (selectors) @name) @definition.rule
(media_statement [(feature_query) (keyword_query) (binary_query) (selector_query) (unary_query) (parenthesized_query)] @name) @definition.media
(supports_statement [(feature_query) (binary_query) (selector_query) (parenthesized_query)] @name) @definition.media
(keyframes_statement (keyframes_name) @name) @definition.keyframes
