//! Compiles ../../proto/**/*.proto with protox (a pure-Rust protobuf compiler, so no system
//! `protoc` is needed) and generates the prost messages and tonic clients/servers.

use std::path::PathBuf;

const PROTO_FILES: &[&str] = &[
    "arbiter/events/v1/events.proto",
    "arbiter/common/v1/common.proto",
    "arbiter/registration/v1/registration.proto",
    "arbiter/round_director/v1/round_director.proto",
    "arbiter/pairing_worker/v1/pairing_worker.proto",
    "arbiter/reporting/v1/reporting.proto",
    "arbiter/rating_worker/v1/rating_worker.proto",
    "arbiter/screening/v1/screening.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("../../proto");
    let files: Vec<PathBuf> = PROTO_FILES.iter().map(|f| root.join(f)).collect();
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    println!("cargo:rerun-if-changed={}", root.display());

    let fds = protox::compile(&files, [&root])?;

    // The descriptor set, for gRPC server reflection and for tools that decode the log.
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("arbiter_descriptor.bin"),
        prost::Message::encode_to_vec(&fds),
    )?;

    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // Deterministic encoding and iteration order for proto maps.
        .btree_map(".")
        .compile_fds(fds)?;
    Ok(())
}
