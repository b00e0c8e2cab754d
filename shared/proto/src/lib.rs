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
//! - [`recorded`]: a command's payload read as the event it is recorded as.
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
pub mod recorded;
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

impl common::v1::Decimal {
    /// Points as the services count them, in tenths of a point (scale 1).
    pub fn tenths(tenths: impl Into<i64>) -> Self {
        Self {
            units: tenths.into(),
            scale: 1,
        }
    }

    /// As the rules print it: `units / 10^scale` with `scale` decimals ("23.50").
    pub fn text(&self) -> String {
        let scale = self.scale.min(18);
        if scale == 0 {
            return self.units.to_string();
        }
        let p = 10u64.pow(scale);
        let sign = if self.units < 0 { "-" } else { "" };
        let a = self.units.unsigned_abs();
        format!("{sign}{}.{:0w$}", a / p, a % p, w = scale as usize)
    }

    /// Without trailing zero decimals, as a table shows points ("5", "5.5").
    pub fn short(&self) -> String {
        let t = self.text();
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t
        }
    }
}

/// Points given as a `Decimal` (a standings row's `score`), in the tenths the services count
/// in; absent is 0. Points are whole tenths in every scoring system the services run.
pub fn tenths(d: Option<&common::v1::Decimal>) -> i32 {
    let Some(d) = d else { return 0 };
    let v = match d.scale {
        0 => d.units.saturating_mul(10),
        s => d.units / 10i64.pow(s.min(18) - 1),
    };
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

#[cfg(test)]
mod decimal_tests {
    use super::common::v1::Decimal;

    #[test]
    fn decimals_print_as_the_rules_write_them() {
        let d = |units, scale| Decimal { units, scale };
        assert_eq!(
            [d(2350, 2), d(-5, 1), d(7, 0), d(5, 3)].map(|d| d.text()),
            ["23.50", "-0.5", "7", "0.005"]
        );
        assert_eq!(
            [
                Decimal::tenths(50),
                Decimal::tenths(55),
                Decimal::tenths(0),
                d(-150, 2)
            ]
            .map(|d| d.short()),
            ["5", "5.5", "0", "-1.5"]
        );
    }
}
