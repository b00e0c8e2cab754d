//! The local cluster of `deploy/local/cluster.sh` (a 3-node nats-server JetStream cluster and
//! one `arbiter serve --only` process per service), driven from a test through the script
//! itself, so the script users run is the one CI runs.

#![allow(dead_code)]

use crate::support::{bin, root};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct LocalCluster {
    dir: PathBuf,
    env: BTreeMap<String, String>,
    /// The environment given at start, given again to restarted processes.
    process_env: Vec<(String, String)>,
    running: bool,
}

/// What one run of the script printed, and whether it exited 0.
pub struct ScriptRun {
    pub ok: bool,
    pub output: String,
}

fn script(args: &[&str]) -> ScriptRun {
    script_with_env(args, &[])
}

/// The script with extra environment variables, which its processes inherit.
fn script_with_env(args: &[&str], env: &[(&str, &str)]) -> ScriptRun {
    let path = root().join("deploy/local/cluster.sh");
    let out = Command::new("bash")
        .arg(&path)
        .args(args)
        .envs(env.iter().copied())
        .env("ARBITER_BIN", bin())
        .env("ARBITER_TOKEN_KEYS", &crate::support::token::auth().path)
        .env(
            "ARBITER_HEAD_SIGNING_QUIET_MS",
            crate::support::QUIET_SIGNING_OFF,
        )
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", path.display()));
    ScriptRun {
        ok: out.status.success(),
        output: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

impl LocalCluster {
    /// `cluster.sh start DIR --services ...` (one pairing worker, `pairing-worker-1`).
    pub fn start(dir: &Path, services: &[&str]) -> LocalCluster {
        LocalCluster::start_with_env(dir, services, &[])
    }

    /// [`LocalCluster::start`] with environment variables for every process (e.g. the OTLP
    /// endpoint).
    pub fn start_with_env(dir: &Path, services: &[&str], env: &[(&str, &str)]) -> LocalCluster {
        let d = dir.to_str().expect("a UTF-8 path");
        let list = services.join(",");
        let run = script_with_env(&["start", d, "--services", &list], env);
        let mut c = LocalCluster {
            dir: dir.to_path_buf(),
            env: BTreeMap::new(),
            process_env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            running: true,
        };
        assert!(run.ok, "cluster.sh start failed:\n{}", run.output);
        c.read_env();
        c
    }

    fn read_env(&mut self) {
        let path = self.dir.join("cluster.env");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        self.env = text
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
    }

    fn var(&self, key: &str) -> String {
        self.env
            .get(key)
            .unwrap_or_else(|| panic!("no {key} in cluster.env: {:?}", self.env))
            .clone()
    }

    /// The NATS client URLs, comma-separated (as `--nats` takes them).
    pub fn nats_urls(&self) -> String {
        self.var("NATS_URLS")
    }

    /// The gRPC address of process `name` (e.g. `round-director`, `pairing-worker-1`).
    pub fn grpc(&self, name: &str) -> String {
        self.var(&format!(
            "ARBITER_{}_GRPC",
            name.to_uppercase().replace('-', "_")
        ))
    }

    /// SIGKILL one process (`cluster.sh kill`): no shutdown, no final checkpoint.
    pub fn kill9(&self, name: &str) {
        let run = script(&["kill", self.dir.to_str().unwrap(), name]);
        assert!(run.ok, "cluster.sh kill {name}:\n{}", run.output);
    }

    /// Starts a killed process again on its ports and data (`cluster.sh restart`).
    pub fn restart(&mut self, name: &str) {
        let env: Vec<(&str, &str)> = self
            .process_env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let run = script_with_env(&["restart", self.dir.to_str().unwrap(), name], &env);
        assert!(run.ok, "cluster.sh restart {name}:\n{}", run.output);
        self.read_env();
    }

    /// Process `name`'s log so far.
    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join("logs").join(format!("{name}.log")))
            .unwrap_or_default()
    }

    /// `cluster.sh stop`: SIGTERM to every service, then the NATS nodes.
    pub fn stop(&mut self) -> ScriptRun {
        self.running = false;
        script(&["stop", self.dir.to_str().unwrap()])
    }
}

impl Drop for LocalCluster {
    fn drop(&mut self) {
        if self.running {
            let _ = self.stop();
        }
    }
}
