//! deploy/ checked offline: every YAML file parses; the Kubernetes manifests pass
//! `kubernetes-validate --strict` (it bundles the Kubernetes OpenAPI schemas) and the compose
//! files `check-jsonschema --builtin-schema vendor.compose-spec` (it bundles the compose-spec
//! schema); the references between files hold (Service selectors, probe ports, Secrets and
//! ConfigMaps, volumes, the NATS cluster's routes); the commands name the binary's real
//! `arbiter serve --only` services and flags; the image runs the binary as a non-root user.
//!
//! The validators are PyPI packages (.ci/run installs them, pinned); a missing one fails the
//! test with the command to install it.

use crate::support::{bin, root};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const INSTALL: &str =
    "pip install kubernetes-validate==1.37.0 check-jsonschema==0.39.0 (see .ci/run)";

fn deploy() -> PathBuf {
    root().join("deploy")
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("yaml" | "yml")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Runs a validator; panics naming the missing tool and how to install it.
fn tool(program: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("validator {program} cannot run ({e}); install it: {INSTALL}"));
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Every document of every file, parsed by PyYAML (installed with kubernetes-validate), as
/// JSON values. A file that does not parse fails with the parser's message (file, line,
/// column).
fn parse_all(files: &[PathBuf]) -> BTreeMap<PathBuf, Vec<Value>> {
    const SCRIPT: &str = r#"
import json, sys, yaml
out = {}
for p in sys.argv[1:]:
    with open(p) as f:
        out[p] = [d for d in yaml.safe_load_all(f) if d is not None]
json.dump(out, sys.stdout)
"#;
    let mut args = vec!["-c", SCRIPT];
    args.extend(files.iter().map(|p| p.to_str().unwrap()));
    let out = Command::new("python3")
        .args(&args)
        .output()
        .unwrap_or_else(|e| {
            panic!("python3 cannot run ({e}); the YAML parser is PyYAML: {INSTALL}")
        });
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("No module named 'yaml'"),
        "python3 has no PyYAML; install it: {INSTALL}"
    );
    assert!(
        out.status.success(),
        "YAML under deploy/ does not parse:\n{err}"
    );
    let map: BTreeMap<String, Vec<Value>> =
        serde_json::from_slice(&out.stdout).expect("the parser's JSON");
    map.into_iter()
        .map(|(k, v)| (PathBuf::from(k), v))
        .collect()
}

fn k8s_dir() -> PathBuf {
    deploy().join("k8s")
}

/// The manifests (every file in deploy/k8s but the kustomization).
fn k8s_files() -> Vec<PathBuf> {
    yaml_files(&k8s_dir())
        .into_iter()
        .filter(|p| p.file_name().unwrap() != "kustomization.yaml")
        .collect()
}

fn k8s_objects() -> Vec<Value> {
    parse_all(&k8s_files()).into_values().flatten().collect()
}

fn compose_files() -> Vec<PathBuf> {
    yaml_files(&deploy().join("compose"))
}

fn s<'a>(v: &'a Value, path: &str) -> &'a str {
    v.pointer(path)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no string at {path} in {v}"))
}

fn arr<'a>(v: &'a Value, path: &str) -> &'a [Value] {
    v.pointer(path)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn id(o: &Value) -> String {
    format!("{}/{}", s(o, "/kind"), s(o, "/metadata/name"))
}

/// The services `arbiter serve --only` accepts, as the binary's own help lists them.
fn serve_services() -> BTreeSet<String> {
    let help = crate::support::run(&["serve", "--help"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    // The flag's entry: its line and, in clap's long layout, the description lines below it
    // up to the next flag.
    let lines: Vec<&str> = help.stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("--only"))
        .expect("--only in arbiter serve --help");
    let entry: String = std::iter::once(lines[at])
        .chain(
            lines[at + 1..]
                .iter()
                .copied()
                .take_while(|l| !l.trim_start().starts_with('-')),
        )
        .collect::<Vec<_>>()
        .join(" ");
    let values = entry
        .split("[possible values: ")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .unwrap_or_else(|| panic!("no possible values in {entry:?}"));
    values.split(", ").map(str::to_string).collect()
}

/// Checks an `arbiter serve ...` argument list: every flag is the binary's (or coming), and
/// `--only` names a real service. Returns the `--only` value.
fn check_serve_args(
    args: &[String],
    services: &BTreeSet<String>,
    help: &str,
    at: &str,
) -> Option<String> {
    assert_eq!(
        args.first().map(String::as_str),
        Some("serve"),
        "{at}: {args:?}"
    );
    for a in args.iter().filter(|a| a.starts_with("--")) {
        let flag = a.split('=').next().unwrap();
        assert!(
            help.contains(&format!("{flag} ")),
            "{at}: arbiter serve has no flag {flag}"
        );
    }
    let only = args.iter().position(|a| a == "--only").map(|i| {
        args.get(i + 1)
            .unwrap_or_else(|| panic!("{at}: --only without a value"))
            .clone()
    });
    if let Some(o) = &only {
        assert!(
            services.contains(o),
            "{at}: --only {o} is not one of {services:?}"
        );
    }
    only
}

fn strings(v: &[Value]) -> Vec<String> {
    v.iter()
        .map(|x| match x {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

#[test]
fn every_yaml_file_under_deploy_parses() {
    let files = yaml_files(&deploy());
    let parsed = parse_all(&files);
    for f in &files {
        assert!(
            !parsed[f].is_empty(),
            "{} holds no YAML document",
            f.display()
        );
    }
    // The three groups the tests below check, none left out.
    for dir in ["k8s", "compose"] {
        assert!(
            files.iter().any(|f| f.starts_with(deploy().join(dir))),
            "no YAML in deploy/{dir}"
        );
    }
}

#[test]
fn kubernetes_manifests_pass_the_kubernetes_schemas() {
    let files = k8s_files();
    let objects = k8s_objects();
    let mut args = vec!["--strict", "-k", "1.32.0"];
    args.extend(files.iter().map(|p| p.to_str().unwrap()));
    let (ok, out) = tool("kubernetes-validate", &args);
    assert!(ok, "kubernetes-validate:\n{out}");
    // Every resource was checked against a schema, none skipped for want of one.
    let passed = out.matches(" passed for resource ").count();
    assert_eq!(passed, objects.len(), "kubernetes-validate:\n{out}");
}

#[test]
fn compose_files_pass_the_compose_specification() {
    let files = compose_files();
    assert!(files.len() >= 2, "{files:?}");
    let mut args = vec!["--builtin-schema", "vendor.compose-spec"];
    args.extend(files.iter().map(|p| p.to_str().unwrap()));
    let (ok, out) = tool("check-jsonschema", &args);
    assert!(ok, "check-jsonschema (compose-spec):\n{out}");
}

/// The validators do refuse a broken file (so a pass above means something).
#[test]
fn the_validators_refuse_broken_files() {
    let work = crate::support::TempDir::new("arbiter-deploy-broken").unwrap();
    let text = std::fs::read_to_string(k8s_dir().join("pairing-worker.yaml")).unwrap();
    let bad = work.path().join("k8s.yaml");
    std::fs::write(&bad, text.replacen("replicas: 2", "replicas: two", 1)).unwrap();
    let (ok, out) = tool(
        "kubernetes-validate",
        &["--strict", "-k", "1.32.0", bad.to_str().unwrap()],
    );
    assert!(!ok && out.contains("replicas"), "{out}");

    let text = std::fs::read_to_string(deploy().join("compose/all-in-one.yaml")).unwrap();
    let bad = work.path().join("compose.yaml");
    std::fs::write(
        &bad,
        text.replacen("restart: unless-stopped", "restart_policy: sometimes", 1),
    )
    .unwrap();
    let (ok, out) = tool(
        "check-jsonschema",
        &[
            "--builtin-schema",
            "vendor.compose-spec",
            bad.to_str().unwrap(),
        ],
    );
    assert!(!ok && out.contains("restart_policy"), "{out}");
}

#[test]
fn kubernetes_references_resolve() {
    let objects = k8s_objects();
    let by_kind =
        |kind: &str| -> Vec<&Value> { objects.iter().filter(|o| s(o, "/kind") == kind).collect() };
    let names = |kind: &str| -> BTreeSet<String> {
        by_kind(kind)
            .iter()
            .map(|o| s(o, "/metadata/name").to_string())
            .collect()
    };
    let config_maps: BTreeMap<String, &Value> = by_kind("ConfigMap")
        .into_iter()
        .map(|o| (s(o, "/metadata/name").to_string(), o))
        .collect();
    let secrets: BTreeMap<String, &Value> = by_kind("Secret")
        .into_iter()
        .map(|o| (s(o, "/metadata/name").to_string(), o))
        .collect();
    let claims = names("PersistentVolumeClaim");
    let workloads: Vec<&Value> = objects
        .iter()
        .filter(|o| matches!(s(o, "/kind"), "Deployment" | "StatefulSet"))
        .collect();
    assert!(!workloads.is_empty());
    for o in &objects {
        if s(o, "/kind") != "Namespace" {
            assert_eq!(s(o, "/metadata/namespace"), "arbiter", "{}", id(o));
        }
    }

    let secret_key = |name: &str, key: &str, at: &str| {
        let sec = secrets
            .get(name)
            .unwrap_or_else(|| panic!("{at}: no Secret {name}"));
        assert!(
            sec.pointer(&format!("/stringData/{key}")).is_some()
                || sec.pointer(&format!("/data/{key}")).is_some(),
            "{at}: Secret {name} has no key {key}"
        );
    };

    for w in &workloads {
        let at = id(w);
        let labels = w
            .pointer("/spec/template/metadata/labels")
            .unwrap()
            .as_object()
            .unwrap();
        for (k, v) in w
            .pointer("/spec/selector/matchLabels")
            .unwrap()
            .as_object()
            .unwrap()
        {
            assert_eq!(
                labels.get(k),
                Some(v),
                "{at}: selector {k}={v} not on its pods"
            );
        }
        let pod = w.pointer("/spec/template/spec").unwrap();
        let volumes: BTreeMap<String, &Value> = arr(pod, "/volumes")
            .iter()
            .map(|v| (s(v, "/name").to_string(), v))
            .collect();
        let templates: BTreeSet<String> = arr(w, "/spec/volumeClaimTemplates")
            .iter()
            .map(|t| s(t, "/metadata/name").to_string())
            .collect();
        for v in volumes.values() {
            if let Some(name) = v.pointer("/secret/secretName").and_then(Value::as_str) {
                assert!(secrets.contains_key(name), "{at}: no Secret {name}");
            }
            if let Some(name) = v.pointer("/configMap/name").and_then(Value::as_str) {
                assert!(config_maps.contains_key(name), "{at}: no ConfigMap {name}");
            }
            if let Some(name) = v
                .pointer("/persistentVolumeClaim/claimName")
                .and_then(Value::as_str)
            {
                assert!(
                    claims.contains(name),
                    "{at}: no PersistentVolumeClaim {name}"
                );
            }
        }
        for c in arr(pod, "/containers") {
            let at = format!("{at} container {}", s(c, "/name"));
            let ports: BTreeMap<String, i64> = arr(c, "/ports")
                .iter()
                .map(|p| {
                    (
                        s(p, "/name").to_string(),
                        p["containerPort"].as_i64().unwrap(),
                    )
                })
                .collect();
            let declared = |port: &Value, what: &str| match port {
                Value::Number(n) => assert!(
                    ports.values().any(|p| Some(*p) == n.as_i64()),
                    "{at}: {what} on port {n}, not a declared container port {ports:?}"
                ),
                Value::String(name) => assert!(
                    ports.contains_key(name),
                    "{at}: {what} on port {name}, not a declared container port {ports:?}"
                ),
                other => panic!("{at}: {what} port {other}"),
            };
            for probe in ["startupProbe", "readinessProbe", "livenessProbe"] {
                let p = c.get(probe).unwrap_or_else(|| panic!("{at}: no {probe}"));
                let port = p
                    .pointer("/grpc/port")
                    .or_else(|| p.pointer("/httpGet/port"))
                    .unwrap_or_else(|| panic!("{at}: {probe} is neither gRPC nor HTTP"));
                declared(port, probe);
            }
            for r in ["requests", "limits"] {
                for k in ["cpu", "memory"] {
                    assert!(
                        c.pointer(&format!("/resources/{r}/{k}")).is_some(),
                        "{at}: no resources.{r}.{k}"
                    );
                }
            }
            for e in arr(c, "/env") {
                if let Some(r) = e.pointer("/valueFrom/configMapKeyRef") {
                    let (name, key) = (s(r, "/name"), s(r, "/key"));
                    let cm = config_maps
                        .get(name)
                        .unwrap_or_else(|| panic!("{at}: no ConfigMap {name}"));
                    assert!(
                        cm.pointer(&format!("/data/{key}")).is_some(),
                        "{at}: ConfigMap {name} has no {key}"
                    );
                }
                if let Some(r) = e.pointer("/valueFrom/secretKeyRef") {
                    secret_key(s(r, "/name"), s(r, "/key"), &at);
                }
            }
            for m in arr(c, "/volumeMounts") {
                let name = s(m, "/name");
                assert!(
                    volumes.contains_key(name) || templates.contains(name),
                    "{at}: mounts volume {name}, which the pod does not have"
                );
                if let (Some(v), Some(sub)) =
                    (volumes.get(name), m.get("subPath").and_then(Value::as_str))
                    && let Some(sec) = v.pointer("/secret/secretName").and_then(Value::as_str)
                {
                    secret_key(sec, sub, &at);
                }
            }
        }
    }

    // Every Service selects the pods of a workload, on ports those pods declare.
    for svc in by_kind("Service") {
        let at = id(svc);
        let sel = svc
            .pointer("/spec/selector")
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("{at}: no selector"));
        let target = workloads
            .iter()
            .find(|w| {
                let labels = w
                    .pointer("/spec/template/metadata/labels")
                    .unwrap()
                    .as_object()
                    .unwrap();
                sel.iter().all(|(k, v)| labels.get(k) == Some(v))
            })
            .unwrap_or_else(|| {
                panic!("{at}: selector {sel:?} matches no Deployment or StatefulSet")
            });
        let pod_ports: BTreeSet<String> = arr(target, "/spec/template/spec/containers")
            .iter()
            .flat_map(|c| arr(c, "/ports").iter().map(|p| s(p, "/name").to_string()))
            .collect();
        for p in arr(svc, "/spec/ports") {
            let t = s(p, "/targetPort");
            assert!(
                pod_ports.contains(t),
                "{at}: targetPort {t} not among {}'s ports {pod_ports:?}",
                id(target)
            );
        }
    }

    // The NATS StatefulSet: three nodes behind a headless Service, every node routed and
    // every node given to the services.
    let nats = by_kind("StatefulSet")
        .into_iter()
        .find(|o| s(o, "/metadata/name") == "nats")
        .expect("StatefulSet nats");
    let replicas = nats["spec"]["replicas"].as_i64().unwrap();
    assert_eq!(replicas, 3);
    let headless = s(nats, "/spec/serviceName");
    let svc = by_kind("Service")
        .into_iter()
        .find(|o| s(o, "/metadata/name") == headless)
        .expect("the headless Service");
    assert_eq!(s(svc, "/spec/clusterIP"), "None", "{headless} is headless");
    let conf = s(config_maps["nats-config"], "/data/nats.conf");
    let urls = s(config_maps["arbiter-config"], "/data/NATS_URLS");
    for i in 0..replicas {
        let host = format!("nats-{i}.{headless}");
        assert!(
            conf.contains(&format!("nats://{host}:6222")),
            "route to {host}:\n{conf}"
        );
        assert!(
            urls.contains(&format!("nats://{host}:4222")),
            "{host} in NATS_URLS {urls}"
        );
    }
    assert!(conf.contains("jetstream"), "{conf}");

    // One Deployment per service, each running that service.
    let services = serve_services();
    let help = crate::support::run(&["serve", "--help"]).stdout;
    let config = &config_maps["arbiter-config"];
    let mut seen = BTreeSet::new();
    for d in by_kind("Deployment") {
        let at = id(d);
        let c = &arr(d, "/spec/template/spec/containers")[0];
        let args = strings(arr(c, "/args"));
        let only = check_serve_args(&args, &services, &help, &at)
            .unwrap_or_else(|| panic!("{at}: no --only"));
        assert_eq!(only, s(d, "/metadata/name"), "{at} runs {only}");
        let replicas = d["spec"]["replicas"].as_i64().unwrap();
        assert_eq!(
            replicas,
            if only == "pairing-worker" { 2 } else { 1 },
            "{at}"
        );
        // The files the environment names are where the Secrets are mounted.
        let mounts: Vec<String> = arr(c, "/volumeMounts")
            .iter()
            .map(|m| match m.get("subPath").and_then(Value::as_str) {
                Some(sub) if !s(m, "/mountPath").ends_with(sub) => {
                    format!("{}/{sub}", s(m, "/mountPath"))
                }
                _ => s(m, "/mountPath").to_string(),
            })
            .collect();
        for e in arr(c, "/env") {
            let var = s(e, "/name");
            if !matches!(var, "ARBITER_TOKEN_KEYS" | "ARBITER_SIGNING_KEY") {
                continue;
            }
            let key = s(e, "/valueFrom/configMapKeyRef/key");
            let file = s(config, &format!("/data/{key}"));
            assert!(
                mounts
                    .iter()
                    .any(|m| file == m || file.starts_with(&format!("{m}/"))),
                "{at}: {var}={file} is not under a mount {mounts:?}"
            );
        }
        seen.insert(only);
    }
    assert_eq!(seen, services, "one Deployment per service");

    // The kustomization lists exactly the manifests.
    let k = parse_all(&[k8s_dir().join("kustomization.yaml")])
        .into_values()
        .next()
        .unwrap();
    let listed: BTreeSet<String> = strings(arr(&k[0], "/resources")).into_iter().collect();
    let present: BTreeSet<String> = k8s_files()
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, present, "kustomization.yaml resources");
}

#[test]
fn compose_references_resolve() {
    let services = serve_services();
    let help = crate::support::run(&["serve", "--help"]).stdout;
    let parsed = parse_all(&compose_files());
    let mut distributed_seen = BTreeSet::new();
    for (file, docs) in &parsed {
        let at_file = file.file_name().unwrap().to_string_lossy().to_string();
        let doc = &docs[0];
        let top = |k: &str| -> BTreeSet<String> {
            doc.get(k)
                .and_then(Value::as_object)
                .map_or_else(BTreeSet::new, |m| m.keys().cloned().collect())
        };
        let (volumes, secrets) = (top("volumes"), top("secrets"));
        let svcs = doc["services"].as_object().unwrap();
        let mut onlys = Vec::new();
        for (name, svc) in svcs {
            let at = format!("{at_file}: service {name}");
            for d in svc
                .get("depends_on")
                .and_then(Value::as_object)
                .map(|m| m.keys().collect())
                .unwrap_or_else(Vec::new)
            {
                assert!(svcs.contains_key(d), "{at}: depends on {d}, not a service");
            }
            for sec in arr(svc, "/secrets") {
                let src = sec
                    .get("source")
                    .and_then(Value::as_str)
                    .or(sec.as_str())
                    .unwrap();
                assert!(secrets.contains(src), "{at}: secret {src} not declared");
            }
            for v in strings(arr(svc, "/volumes")) {
                let source = v.split(':').next().unwrap();
                assert!(
                    volumes.contains(source),
                    "{at}: volume {source} not declared"
                );
            }
            let health = strings(arr(svc, "/healthcheck/test"));
            let image = s(svc, "/image");
            if image.starts_with("nats:") {
                let args = strings(arr(svc, "/command"));
                let routes =
                    &args[args.iter().position(|a| a == "--routes").expect("--routes") + 1];
                for other in svcs.keys().filter(|k| k.starts_with("nats-") && *k != name) {
                    assert!(
                        routes.contains(&format!("nats://{other}:6222")),
                        "{at}: no route to {other}"
                    );
                }
                assert!(
                    args.contains(&"--jetstream".to_string()),
                    "{at}: JetStream off"
                );
                assert!(!health.is_empty(), "{at}: no healthcheck");
                continue;
            }
            assert!(image.starts_with("arbiter"), "{at}: image {image}");
            let args = strings(arr(svc, "/command"));
            let only = check_serve_args(&args, &services, &help, &at);
            if let Some(i) = args.iter().position(|a| a == "--nats") {
                for url in args[i + 1].split(',') {
                    let host = url.trim_start_matches("nats://").split(':').next().unwrap();
                    assert!(
                        svcs.contains_key(host),
                        "{at}: --nats names {host}, not a service"
                    );
                }
            }
            // A healthcheck runs the image's binary with one of its real commands.
            if !health.is_empty() {
                assert_eq!(
                    health[..2],
                    ["CMD", "/usr/local/bin/arbiter"],
                    "{at}: {health:?}"
                );
                let words: Vec<&str> = health[2..]
                    .iter()
                    .map(String::as_str)
                    .filter(|w| !w.starts_with("--") && !w.starts_with("http"))
                    .collect();
                let mut probe = words.clone();
                probe.push("--help");
                let r = crate::support::run(&probe);
                assert_eq!(
                    r.code,
                    0,
                    "{at}: `arbiter {}` is not a command: {}",
                    words.join(" "),
                    r.stderr
                );
            }
            if let Some(o) = only {
                let n = svc
                    .pointer("/deploy/replicas")
                    .and_then(Value::as_i64)
                    .unwrap_or(1);
                if o == "pairing-worker" {
                    assert_eq!(n, 2, "{at}: two pairing workers");
                }
                onlys.push(o);
            } else {
                assert!(
                    !health.is_empty(),
                    "{at}: the all-in-one server has no healthcheck"
                );
            }
        }
        if !onlys.is_empty() {
            let nats: Vec<_> = svcs.keys().filter(|k| k.starts_with("nats-")).collect();
            assert_eq!(nats.len(), 3, "{at_file}: a 3-node NATS cluster");
            distributed_seen.extend(onlys);
        }
    }
    assert_eq!(distributed_seen, services, "one container per service");
}

#[test]
fn the_image_runs_the_one_binary_as_a_non_root_user() {
    let path = deploy().join("container/Dockerfile");
    let text = std::fs::read_to_string(&path).unwrap();
    // Instructions with their continuation lines joined, comments dropped.
    let joined = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
        .replace("\\\n", " ");
    let stages: Vec<&str> = joined.split("\nFROM ").collect();
    assert!(
        stages.len() >= 2,
        "{}: a build stage and a runtime stage",
        path.display()
    );
    assert!(
        stages[..stages.len() - 1]
            .iter()
            .any(|s| s.contains("cargo build --release --locked -p arbiter")),
        "{}: the build stage builds the arbiter binary",
        path.display()
    );
    let last = stages.last().unwrap();
    let instr = |name: &str| -> Vec<&str> {
        last.lines()
            .filter_map(|l| l.trim().strip_prefix(name).map(str::trim))
            .collect()
    };
    let user = instr("USER ");
    assert_eq!(user.len(), 1, "final stage USER: {user:?}");
    let uid = user[0].split(':').next().unwrap();
    assert!(!matches!(uid, "0" | "root"), "the image runs as {uid}");
    let entry = instr("ENTRYPOINT ");
    assert_eq!(entry.len(), 1, "final stage ENTRYPOINT: {entry:?}");
    let entry: Vec<String> = serde_json::from_str(entry[0]).expect("ENTRYPOINT in exec form");
    assert_eq!(entry.len(), 1, "{entry:?}");
    // The entry point is the binary the stage copies in, and nothing else is copied but data.
    let copies = instr("COPY ");
    assert!(
        copies
            .iter()
            .any(|c| c.ends_with(&format!(" {}", entry[0]))),
        "{} is not copied into the final stage: {copies:?}",
        entry[0]
    );
    assert!(!instr("VOLUME ").is_empty(), "a data volume");
    // The screening engine: Debian's stockfish from a stage that installs it, found by the
    // service through STOCKFISH_PATH.
    assert!(
        stages[..stages.len() - 1]
            .iter()
            .any(|s| s.contains("apt-get install") && s.contains(" stockfish")),
        "{}: a stage installs Debian's stockfish",
        path.display()
    );
    assert!(
        copies
            .iter()
            .any(|c| c.contains("--from=") && c.ends_with(" /usr/games/stockfish")),
        "the engine is not copied into the final stage: {copies:?}"
    );
    assert!(
        instr("ENV ").contains(&"STOCKFISH_PATH=/usr/games/stockfish"),
        "the final stage sets STOCKFISH_PATH"
    );
    let cmd: Vec<String> = serde_json::from_str(instr("CMD ")[0]).expect("CMD in exec form");
    check_serve_args(
        &cmd,
        &serve_services(),
        &crate::support::run(&["serve", "--help"]).stdout,
        "Dockerfile CMD",
    );

    let ignore =
        std::fs::read_to_string(deploy().join("container/Dockerfile.dockerignore")).unwrap();
    assert!(
        ignore.lines().any(|l| l.trim() == "target/"),
        "the build context leaves target/ out"
    );
    assert!(bin().is_file());
}

#[test]
fn the_local_cluster_script_is_valid_bash_and_refuses_bad_arguments() {
    let script = deploy().join("local/cluster.sh");
    let out = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = |args: &[&str]| {
        Command::new("bash")
            .arg(&script)
            .args(args)
            .env("ARBITER_BIN", bin())
            .output()
            .unwrap()
    };
    let work = crate::support::TempDir::new("arbiter-cluster-args").unwrap();
    let dir = work.path().join("c");
    let out = run(&[
        "start",
        dir.to_str().unwrap(),
        "--services",
        "registration,scheduler",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown service 'scheduler'"), "{err}");
    assert!(!dir.exists(), "nothing started for a bad service name");
    let out = run(&["stop", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no cluster"));
}
