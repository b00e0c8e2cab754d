//! tracing and OpenTelemetry set-up shared by every service.
