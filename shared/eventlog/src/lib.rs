//! The append-only, hash-chained event log: the EventLog trait with sled and NATS JetStream backends, snapshots and checkpoints.
