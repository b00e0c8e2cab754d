//! Generated protobuf and gRPC code for the event schema and the services (built from ../../proto without a system protoc).
