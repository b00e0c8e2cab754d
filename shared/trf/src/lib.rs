//! Read and write TRF16, the TRF(x)/TRF(bx) pairing-engine extensions and TRF-2026.
