//! The book in `docs/` builds with mdBook, every chapter of its summary is rendered, and every
//! relative link of the book and of the README reaches a file of the repository (a page moved
//! or renamed breaks this test, not a reader's click).

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// mdBook from PATH, else from cargo's own bin folder (where `.ci/run` installs it).
fn mdbook() -> PathBuf {
    let on_path = Command::new("mdbook").arg("--version").output();
    if on_path.is_ok_and(|o| o.status.success()) {
        return PathBuf::from("mdbook");
    }
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .expect("HOME or CARGO_HOME is set");
    let path = home.join("bin/mdbook");
    assert!(
        path.is_file(),
        "mdbook is not installed (`.ci/run` installs it: cargo install mdbook --locked \
         --no-default-features)"
    );
    path
}

/// The targets of the inline links `[text](target)` of a Markdown text.
fn links(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].trim().to_string());
        }
    }
    out
}

/// The relative links of `file` that name no existing file (anchors and web addresses aside).
fn broken_links(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let dir = file.parent().unwrap();
    links(&text)
        .into_iter()
        .filter(|l| !l.contains("://") && !l.starts_with('#') && !l.starts_with("mailto:"))
        .filter(|l| {
            let path = l.split('#').next().unwrap();
            !path.is_empty() && !dir.join(path).exists()
        })
        .map(|l| format!("{}: {l}", file.display()))
        .collect()
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn the_book_builds_and_renders_every_chapter() {
    let out = tempdir();
    let built = Command::new(mdbook())
        .arg("build")
        .arg(repo().join("docs"))
        .arg("--dest-dir")
        .arg(&out)
        .output()
        .expect("mdbook runs");
    assert!(
        built.status.success(),
        "mdbook build failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let summary = std::fs::read_to_string(repo().join("docs/src/SUMMARY.md")).unwrap();
    let chapters: Vec<String> = links(&summary);
    assert!(chapters.len() >= 10, "summary lists {chapters:?}");
    for chapter in &chapters {
        let page = out.join(chapter.replace(".md", ".html"));
        let html = std::fs::read_to_string(&page)
            .unwrap_or_else(|e| panic!("{chapter} was not rendered ({}): {e}", page.display()));
        assert!(html.contains("<h1"), "{chapter} has no heading");
    }
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn every_relative_link_of_the_book_and_the_readme_reaches_a_file() {
    let mut files = vec![repo().join("README.md"), repo().join("CONTRIBUTING.md")];
    markdown_files(&repo().join("docs/src"), &mut files);
    assert!(files.len() >= 12, "found only {files:?}");
    let broken: Vec<String> = files.iter().flat_map(|f| broken_links(f)).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_check_finds_a_missing_page() {
    let dir = tempdir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("there.md"), "# There\n").unwrap();
    let page = dir.join("page.md");
    std::fs::write(
        &page,
        "[ok](there.md#a) [web](https://example.org/x) [gone](missing.md) [top](#t)",
    )
    .unwrap();
    let broken = broken_links(&page);
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(broken[0].ends_with("missing.md"));
    std::fs::remove_dir_all(&dir).ok();
}

fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    std::env::temp_dir().join(format!(
        "arbiter-docs-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

/// The gRPC reference lists every method of every service under its service's heading, and
/// says "public read" of exactly the methods that need no token.
#[test]
fn the_grpc_reference_lists_every_method_and_who_may_call_it() {
    use prost::Message;
    let page = std::fs::read_to_string(repo().join("docs/src/reference/grpc.md")).unwrap();
    // Each `## `package.Service`` section's table rows: method -> its "who may call" cell.
    let mut sections: std::collections::BTreeMap<String, Vec<(String, String)>> =
        Default::default();
    let mut current = None;
    for line in page.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            current = Some(h.trim_matches('`').to_string());
            sections.entry(h.trim_matches('`').to_string()).or_default();
        } else if let (Some(service), Some(row)) = (&current, line.strip_prefix("| `")) {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let method = cells[0].trim_end_matches('`').to_string();
            let who = cells.get(2).copied().unwrap_or("").to_string();
            sections.get_mut(service).unwrap().push((method, who));
        }
    }
    let set = prost_types::FileDescriptorSet::decode(arbiter_proto::FILE_DESCRIPTOR_SET).unwrap();
    let mut problems = Vec::new();
    let mut methods = 0;
    for f in &set.file {
        for s in &f.service {
            let service = format!("{}.{}", f.package(), s.name());
            let Some(rows) = sections.get(&service) else {
                problems.push(format!("no section for {service}"));
                continue;
            };
            for m in &s.method {
                methods += 1;
                let path = format!("/{service}/{}", m.name());
                let public = arbiter_auth::layer::is_public_read(&path);
                match rows.iter().find(|(name, _)| name == m.name()) {
                    None => problems.push(format!("{service}: {} is not listed", m.name())),
                    Some((_, who)) if who.starts_with("public read") != public => problems.push(
                        format!("{path}: the page says {who:?}, public read is {public}"),
                    ),
                    Some(_) => {}
                }
            }
            for (name, _) in rows {
                if !s.method.iter().any(|m| m.name() == name) {
                    problems.push(format!("{service}: {name} is listed but does not exist"));
                }
            }
        }
    }
    assert!(
        methods >= 50,
        "only {methods} methods in the descriptor set"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
