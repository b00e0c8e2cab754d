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
