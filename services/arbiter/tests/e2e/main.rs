//! The end-to-end tests of `arbiter`: one test binary (one link of the binary's dependencies
//! instead of one per file), each file a module, sharing the support modules below. They start
//! the real `arbiter` binary on free loopback ports with fresh data folders.

mod cluster;
mod common;
mod load;
mod support;

// One token key set for the process (see `load`).
use support::token;

mod api_clients;
mod auth;
mod berger;
mod check;
mod client_cli;
mod console;
mod console_events;
mod console_oidc;
mod console_players;
mod crosscheck;
mod deploy_files;
mod docs_book;
mod e2e_distributed;
mod e2e_edge;
mod e2e_embedded;
mod e2e_faults;
mod e2e_pairing_workers;
mod generate;
mod knockout;
mod legacy_trf;
mod load_soak;
mod metrics_endpoint;
mod one_standings;
mod online_events;
mod other_systems;
mod other_systems_served;
mod player_identity;
mod rate;
mod ratings;
mod replay_audit;
mod round_robin;
mod screen;
mod screening_service;
mod serve_host;
mod service_load;
mod standings;
mod teams;
mod traces_distributed;
mod trf_round_trip;
mod web_pages;
