; YAML: top-level keys, and the keys one level below them (services.web,
; jobs.build), so config reviews can anchor to a block. Deeper keys are
; left to line anchoring.

(document (block_node (block_mapping
  (block_mapping_pair key: (_) @name) @definition.key)))

(document (block_node (block_mapping (block_mapping_pair
  value: (block_node (block_mapping
    (block_mapping_pair key: (_) @name) @definition.key))))))
