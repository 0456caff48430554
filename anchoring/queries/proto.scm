; Protocol Buffers: messages, enums, services and their rpcs.

(message (message_name) @name) @definition.message
(enum (enum_name) @name) @definition.enum
(service (service_name) @name) @definition.service
(rpc (rpc_name) @name) @definition.method
