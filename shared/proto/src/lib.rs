//! Generated protobuf and gRPC code for the event schema and the services (built from
//! `../../proto` by protox and tonic-prost-build; no system `protoc` is needed).
//!
//! - [`events::v1`]: the log's schema: [`events::v1::Event`] (one `oneof` over every event a
//!   tournament can have) and [`events::v1::Envelope`] (an event with its place in the log).
//! - [`common::v1`]: command header/result and small shared values.
//! - One module per service with its messages, client and server:
//!   [`registration::v1`], [`round_director::v1`], [`pairing_worker::v1`], [`reporting::v1`],
//!   [`rating_worker::v1`], [`screening::v1`].
//! - [`convert`]: conversions between these messages and `arbiter-core` domain types.
//!
//! Module paths mirror the proto packages (`arbiter.events.v1` is `events::v1`).

#![allow(clippy::large_enum_variant, clippy::doc_lazy_continuation)]

pub mod events {
    pub mod v1 {
        tonic::include_proto!("arbiter.events.v1");
    }
}

pub mod common {
    pub mod v1 {
        tonic::include_proto!("arbiter.common.v1");
    }
}

pub mod registration {
    pub mod v1 {
        tonic::include_proto!("arbiter.registration.v1");
    }
}

pub mod round_director {
    pub mod v1 {
        tonic::include_proto!("arbiter.round_director.v1");
    }
}

pub mod pairing_worker {
    pub mod v1 {
        tonic::include_proto!("arbiter.pairing_worker.v1");
    }
}

pub mod reporting {
    pub mod v1 {
        tonic::include_proto!("arbiter.reporting.v1");
    }
}

pub mod rating_worker {
    pub mod v1 {
        tonic::include_proto!("arbiter.rating_worker.v1");
    }
}

pub mod screening {
    pub mod v1 {
        tonic::include_proto!("arbiter.screening.v1");
    }
}

pub mod convert;
pub mod refusal;
pub mod text;

/// The encoded `FileDescriptorSet` of every .proto file (for gRPC reflection and log tools).
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/arbiter_descriptor.bin"));

pub use refusal::{field_of, refusal};

/// The `domain` of the google.rpc `ErrorInfo` every refusal carries; its `reason` codes are
/// listed in the API reference.
pub const ERROR_DOMAIN: &str = "arbiter";

/// The code's name as google.rpc.Code spells it (`INVALID_ARGUMENT`).
pub fn code_name(code: tonic::Code) -> &'static str {
    match code {
        tonic::Code::Ok => "OK",
        tonic::Code::Cancelled => "CANCELLED",
        tonic::Code::Unknown => "UNKNOWN",
        tonic::Code::InvalidArgument => "INVALID_ARGUMENT",
        tonic::Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        tonic::Code::NotFound => "NOT_FOUND",
        tonic::Code::AlreadyExists => "ALREADY_EXISTS",
        tonic::Code::PermissionDenied => "PERMISSION_DENIED",
        tonic::Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        tonic::Code::FailedPrecondition => "FAILED_PRECONDITION",
        tonic::Code::Aborted => "ABORTED",
        tonic::Code::OutOfRange => "OUT_OF_RANGE",
        tonic::Code::Unimplemented => "UNIMPLEMENTED",
        tonic::Code::Internal => "INTERNAL",
        tonic::Code::Unavailable => "UNAVAILABLE",
        tonic::Code::DataLoss => "DATA_LOSS",
        tonic::Code::Unauthenticated => "UNAUTHENTICATED",
    }
}
