; JSON: top-level keys and the keys one level below them.

(document (object (pair key: (string (string_content) @name)) @definition.key))

(document (object (pair value: (object
  (pair key: (string (string_content) @name)) @definition.key))))
