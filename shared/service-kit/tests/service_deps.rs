//! No service crate depends on another service crate: what they share lives in shared/ (this
//! crate above all), so that each service builds, tests and deploys on its own. Only the
//! `arbiter` binary, which composes them, may name them. Every dependency table counts
//! (normal, dev, build, and per-target ones).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item, TableLike};

/// The folder of the crate allowed to depend on services.
const COMPOSER: &str = "arbiter";
const TABLES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

fn services_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../services")
}

fn parse(path: &Path) -> DocumentMut {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("{} is not valid TOML: {e}", path.display()))
}

/// Every services/*/Cargo.toml: folder name -> manifest.
fn service_manifests() -> BTreeMap<String, DocumentMut> {
    let dir = services_dir();
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path().join("Cargo.toml");
        if path.is_file() {
            let folder = path.parent().unwrap().file_name().unwrap();
            out.insert(folder.to_string_lossy().into_owned(), parse(&path));
        }
    }
    out
}

fn package_name(manifest: &DocumentMut) -> Option<&str> {
    manifest.get("package")?.get("name")?.as_str()
}

/// The dependency tables of a manifest, named as in the file (`target.'cfg(unix)'.dependencies`).
fn dependency_tables(manifest: &DocumentMut) -> Vec<(String, &dyn TableLike)> {
    let mut scopes: Vec<(String, &Item)> = vec![(String::new(), manifest.as_item())];
    if let Some(targets) = manifest.get("target").and_then(Item::as_table_like) {
        for (cfg, t) in targets.iter() {
            scopes.push((format!("target.'{cfg}'."), t));
        }
    }
    let mut out = Vec::new();
    for (prefix, scope) in scopes {
        for name in TABLES {
            if let Some(table) = scope.get(name).and_then(Item::as_table_like) {
                out.push((format!("{prefix}{name}"), table));
            }
        }
    }
    out
}

/// `table.key` entries of `manifest` that name one of `services` (by key, or by the
/// `package = "..."` of a renamed dependency).
fn offending(manifest: &DocumentMut, services: &BTreeMap<&str, &str>) -> Vec<String> {
    let mut out = Vec::new();
    for (table, deps) in dependency_tables(manifest) {
        for (key, spec) in deps.iter() {
            let package = spec.get("package").and_then(Item::as_str).unwrap_or(key);
            if let Some(folder) = services.get(package) {
                out.push(format!(
                    "[{table}] {key} is the service crate {package} (services/{folder})"
                ));
            }
        }
    }
    out
}

#[test]
fn no_service_crate_depends_on_another_service_crate() {
    let manifests = service_manifests();
    let services: BTreeMap<&str, &str> = manifests
        .iter()
        .filter_map(|(folder, m)| Some((package_name(m)?, folder.as_str())))
        .collect();
    // The five services and the binary: a wrong path would make the check vacuous.
    assert!(
        services.len() >= 6,
        "found only {services:?} under {}",
        services_dir().display()
    );
    let mut problems = Vec::new();
    for (folder, manifest) in &manifests {
        if folder == COMPOSER {
            continue;
        }
        for p in offending(manifest, &services) {
            problems.push(format!("services/{folder}/Cargo.toml: {p}"));
        }
    }
    assert!(
        problems.is_empty(),
        "a service crate depends on another service crate (move what it needs to a shared crate \
         such as shared/service-kit):\n{}",
        problems.join("\n")
    );
}

/// The check finds a service dependency wherever a manifest can declare one.
#[test]
fn the_check_finds_every_kind_of_declaration() {
    let services = BTreeMap::from([("arbiter-reporting", "reporting")]);
    let manifest: DocumentMut = r#"
        [package]
        name = "arbiter-x"
        [dependencies]
        arbiter-core.workspace = true
        [dev-dependencies]
        arbiter-reporting = { workspace = true }
        [target.'cfg(unix)'.build-dependencies]
        views = { package = "arbiter-reporting", path = "../reporting" }
    "#
    .parse()
    .unwrap();
    let found = offending(&manifest, &services);
    assert_eq!(
        found,
        [
            "[dev-dependencies] arbiter-reporting is the service crate arbiter-reporting (services/reporting)",
            "[target.'cfg(unix)'.build-dependencies] views is the service crate arbiter-reporting (services/reporting)",
        ]
    );
}

/// What the binary may name of a service crate: how to start it (`register`, `register_with`),
/// its name, its start-up settings and the rating-list lookup registration is given. Anything
/// else a command needs belongs in a shared crate, where every service and the binary reach it
/// alike (interchange, standings, round-pairing, rating-list, service-kit).
const COMPOSITION_API: [&str; 5] = [
    "register",
    "register_with",
    "SERVICE",
    "Config",
    "PlayerDirectory",
];

/// The items of service crates that `source` names, as `crate::item` (the first segment after
/// the crate, each item of a `{...}` group), outside `//` comments.
fn named_service_items(source: &str, crates: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("");
        for krate in crates {
            let needle = format!("{krate}::");
            let mut rest = code;
            while let Some(at) = rest.find(&needle) {
                let before = rest[..at].chars().next_back();
                rest = &rest[at + needle.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue; // a longer identifier that ends with the crate's name
                }
                let items: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                    let end = group.find('}').unwrap_or(group.len());
                    group[..end].split(',').collect()
                } else {
                    vec![rest]
                };
                for item in items {
                    let item = item.trim();
                    let name: String = item
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push(format!("{krate}::{name}"));
                    }
                }
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_binary_names_services_only_to_compose_them() {
    let manifests = service_manifests();
    let crates: Vec<String> = manifests
        .iter()
        .filter(|(folder, _)| folder.as_str() != COMPOSER)
        .filter_map(|(_, m)| Some(package_name(m)?.replace('-', "_")))
        .collect();
    assert!(crates.len() >= 6, "found only {crates:?}");
    let mut files = Vec::new();
    rust_files(&services_dir().join(COMPOSER).join("src"), &mut files);
    assert!(files.len() > 10, "found only {files:?}");
    let mut used = 0;
    let mut problems = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        for item in named_service_items(&source, &crates) {
            used += 1;
            let name = item.rsplit("::").next().unwrap();
            if !COMPOSITION_API.contains(&name) {
                problems.push(format!("{}: {item}", file.display()));
            }
        }
    }
    // The binary does start the services: a scanner that finds nothing is broken.
    assert!(
        used >= crates.len(),
        "found only {used} uses of service crates"
    );
    assert!(
        problems.is_empty(),
        "the binary reaches into service internals (move what it needs to a shared crate):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scanner_finds_paths_and_groups_but_not_comments() {
    let crates = vec!["arbiter_reporting".to_string()];
    let source = "use arbiter_reporting::{register, trf_export::Dialect};\n\
                  let x = arbiter_reporting::players_json(a);\n\
                  // arbiter_reporting::views in a comment\n\
                  let y = my_arbiter_reporting::thing;\n";
    assert_eq!(
        named_service_items(source, &crates),
        [
            "arbiter_reporting::register",
            "arbiter_reporting::trf_export",
            "arbiter_reporting::players_json",
        ]
    );
}

/// The crates that are the rules and nothing else: values in, values out.
const DOMAIN_CRATES: [&str; 15] = [
    "core",
    "trf",
    "matching",
    "pairing",
    "tiebreak",
    "standings",
    "rating",
    "roundrobin",
    "knockout",
    "teams",
    "laws",
    "pages",
    "interchange",
    "round-pairing",
    "generator",
];

/// What doing I/O looks like in source: files, sockets, processes, an async runtime.
const IO_MARKERS: [&str; 6] = [
    "std::fs",
    "std::net",
    "std::process",
    "tokio",
    "File::open",
    "File::create",
];

#[test]
fn domain_crates_do_no_io() {
    let shared = services_dir().join("../shared");
    let mut problems = Vec::new();
    let mut scanned = 0;
    for krate in DOMAIN_CRATES {
        let mut files = Vec::new();
        rust_files(&shared.join(krate).join("src"), &mut files);
        assert!(!files.is_empty(), "shared/{krate}/src has no Rust file");
        for file in files {
            scanned += 1;
            let source = std::fs::read_to_string(&file).unwrap();
            for (n, line) in source.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for marker in IO_MARKERS.iter().filter(|m| code.contains(*m)) {
                    problems.push(format!("{}:{}: {marker}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(scanned > 50, "scanned only {scanned} files");
    assert!(
        problems.is_empty(),
        "a domain crate does I/O (move it to an infrastructure crate or the binary, or take \
         the data as a value):\n{}",
        problems.join("\n")
    );
}
