//! A strict reader for the HTML the pages write, for tests: every element closed in order
//! (void elements excepted), attributes quoted, no stray `<` or `&` in text, known character
//! references only. Anything else is an error, so a page that parses is also well formed.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Element(Element),
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Element {
    pub name: String,
    pub attrs: BTreeMap<String, String>,
    pub children: Vec<Node>,
}

const VOID: [&str; 6] = ["meta", "link", "br", "img", "input", "hr"];
const RAW: [&str; 2] = ["script", "style"];

fn decode(s: &str, at: usize) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let end = tail
            .find(';')
            .ok_or_else(|| format!("byte {at}: '&' without ';'"))?;
        let name = &tail[1..end];
        let c = match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "#39" | "apos" => '\'',
            n if n.starts_with("#x") => u32::from_str_radix(&n[2..], 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("byte {at}: bad reference &{n};"))?,
            n if n.starts_with('#') => n[1..]
                .parse::<u32>()
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("byte {at}: bad reference &{n};"))?,
            n => return Err(format!("byte {at}: unknown reference &{n};")),
        };
        out.push(c);
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Parses a whole document; the root element is returned (`html`).
pub fn parse(doc: &str) -> Result<Element, String> {
    let mut stack: Vec<Element> = vec![Element {
        name: "#document".into(),
        ..Default::default()
    }];
    let b = doc.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            let end = doc[i..].find('<').map_or(doc.len(), |k| i + k);
            let text = &doc[i..end];
            if text.contains('>') {
                return Err(format!("byte {i}: '>' in text {text:?}"));
            }
            let t = decode(text, i)?;
            if !t.is_empty() {
                stack.last_mut().unwrap().children.push(Node::Text(t));
            }
            i = end;
            continue;
        }
        if doc[i..].starts_with("<!--") {
            let end = doc[i..]
                .find("-->")
                .ok_or_else(|| format!("byte {i}: comment not closed"))?;
            i += end + 3;
            continue;
        }
        if doc[i..].starts_with("<!") {
            let end = doc[i..]
                .find('>')
                .ok_or_else(|| format!("byte {i}: declaration not closed"))?;
            let decl = &doc[i..i + end + 1];
            if !decl.eq_ignore_ascii_case("<!DOCTYPE html>") {
                return Err(format!("byte {i}: unexpected declaration {decl}"));
            }
            i += end + 1;
            continue;
        }
        if doc[i..].starts_with("</") {
            let end = doc[i..]
                .find('>')
                .ok_or_else(|| format!("byte {i}: end tag not closed"))?;
            let name = doc[i + 2..i + end].trim().to_ascii_lowercase();
            let top = stack
                .pop()
                .ok_or_else(|| format!("byte {i}: stray </{name}>"))?;
            if top.name != name {
                return Err(format!("byte {i}: </{name}> closes <{}>", top.name));
            }
            stack
                .last_mut()
                .ok_or_else(|| format!("byte {i}: </{name}> at top level"))?
                .children
                .push(Node::Element(top));
            i += end + 1;
            continue;
        }
        // Start tag.
        let mut j = i + 1;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
            j += 1;
        }
        let name = doc[i + 1..j].to_ascii_lowercase();
        if name.is_empty() {
            return Err(format!("byte {i}: '<' not starting a tag"));
        }
        let mut el = Element {
            name: name.clone(),
            ..Default::default()
        };
        let mut self_closing = false;
        loop {
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j >= b.len() {
                return Err(format!("byte {i}: <{name} not closed"));
            }
            if b[j] == b'>' {
                j += 1;
                break;
            }
            if doc[j..].starts_with("/>") {
                self_closing = true;
                j += 2;
                break;
            }
            let a0 = j;
            while j < b.len() && !b[j].is_ascii_whitespace() && !matches!(b[j], b'=' | b'>' | b'/')
            {
                j += 1;
            }
            let an = doc[a0..j].to_ascii_lowercase();
            if an.is_empty() {
                return Err(format!("byte {j}: bad attribute in <{name}>"));
            }
            let mut value = String::new();
            if j < b.len() && b[j] == b'=' {
                j += 1;
                if j >= b.len() || !matches!(b[j], b'"' | b'\'') {
                    return Err(format!("byte {j}: unquoted value of {an} in <{name}>"));
                }
                let q = b[j] as char;
                let end = doc[j + 1..]
                    .find(q)
                    .ok_or_else(|| format!("byte {j}: value of {an} not closed"))?;
                let raw = &doc[j + 1..j + 1 + end];
                if raw.contains('<') {
                    return Err(format!("byte {j}: '<' in the value of {an}"));
                }
                value = decode(raw, j)?;
                j += end + 2;
            }
            if el.attrs.insert(an.clone(), value).is_some() {
                return Err(format!("byte {a0}: attribute {an} twice in <{name}>"));
            }
        }
        i = j;
        if VOID.contains(&name.as_str()) || self_closing {
            stack.last_mut().unwrap().children.push(Node::Element(el));
            continue;
        }
        if RAW.contains(&name.as_str()) {
            let close = format!("</{name}>");
            let end = doc[i..]
                .find(&close)
                .ok_or_else(|| format!("byte {i}: <{name}> not closed"))?;
            let content = &doc[i..i + end];
            if !content.is_empty() {
                el.children.push(Node::Text(content.to_string()));
            }
            stack.last_mut().unwrap().children.push(Node::Element(el));
            i += end + close.len();
            continue;
        }
        stack.push(el);
    }
    if stack.len() != 1 {
        return Err(format!(
            "elements not closed: {:?}",
            stack.iter().skip(1).map(|e| &e.name).collect::<Vec<_>>()
        ));
    }
    let doc_el = stack.pop().unwrap();
    let mut roots = doc_el.children.into_iter().filter_map(|n| match n {
        Node::Element(e) => Some(e),
        Node::Text(t) if t.trim().is_empty() => None,
        Node::Text(t) => Some(Element {
            name: format!("#stray-text {t:?}"),
            ..Default::default()
        }),
    });
    let root = roots.next().ok_or("no root element")?;
    if root.name != "html" {
        return Err(format!("root element is {}", root.name));
    }
    if let Some(extra) = roots.next() {
        return Err(format!("content after </html>: {}", extra.name));
    }
    Ok(root)
}

impl Element {
    /// The element's own and descendants' text, concatenated.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for c in &self.children {
            match c {
                Node::Text(t) => s.push_str(t),
                Node::Element(e) => s.push_str(&e.text()),
            }
        }
        s
    }

    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }

    pub fn has_class(&self, class: &str) -> bool {
        self.attr("class")
            .is_some_and(|c| c.split_whitespace().any(|x| x == class))
    }

    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// Every descendant (depth first) matching `pred`.
    pub fn find_all<'a>(&'a self, pred: &dyn Fn(&Element) -> bool) -> Vec<&'a Element> {
        let mut out = Vec::new();
        for e in self.elements() {
            if pred(e) {
                out.push(e);
            }
            out.extend(e.find_all(pred));
        }
        out
    }

    /// Descendants with this tag name.
    pub fn tags(&self, name: &str) -> Vec<&Element> {
        self.find_all(&|e| e.name == name)
    }

    /// The one descendant with this tag name and class (panics when not exactly one).
    pub fn one(&self, name: &str, class: &str) -> &Element {
        let v = self.find_all(&|e| e.name == name && (class.is_empty() || e.has_class(class)));
        assert_eq!(v.len(), 1, "one <{name} class={class:?}>");
        v[0]
    }

    /// Rows of the table's body, as lists of cells.
    pub fn body_rows(&self) -> Vec<Vec<&Element>> {
        self.one("tbody", "")
            .elements()
            .map(|tr| {
                assert_eq!(tr.name, "tr");
                tr.elements().collect()
            })
            .collect()
    }

    /// Header cell texts of the table.
    pub fn head_texts(&self) -> Vec<String> {
        self.one("thead", "")
            .tags("th")
            .into_iter()
            .map(|th| th.text())
            .collect()
    }
}

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file under tests/golden.
pub fn golden(rel: &str) -> PathBuf {
    root().join("tests/golden").join(rel)
}

/// Parses a golden TRF file.
pub fn trf(rel: &str) -> arbiter_trf::TrfFile {
    let bytes = std::fs::read(golden(rel)).unwrap();
    arbiter_trf::parse_bytes(&bytes).unwrap().file
}

/// A decimal written canonically ("38.50" and "38.5" compare equal).
pub fn canonical(s: &str) -> String {
    let t = s.trim();
    let c = if t.contains('.') {
        t.trim_end_matches('0').trim_end_matches('.')
    } else {
        t
    };
    if c.is_empty() || c == "-0" {
        "0".into()
    } else {
        c.to_string()
    }
}

/// A TSV golden table.
pub fn read_tsv(rel: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(golden(rel)).unwrap();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = lines
        .next()
        .unwrap()
        .split('\t')
        .map(String::from)
        .collect();
    (
        header,
        lines
            .map(|l| l.split('\t').map(String::from).collect())
            .collect(),
    )
}

#[test]
fn the_reader_rejects_what_it_should() {
    let ok = "<!DOCTYPE html><html><body><p class=\"a b\">x &amp; y</p><br></body></html>";
    let root = parse(ok).unwrap();
    assert_eq!(root.one("p", "b").text(), "x & y");
    for bad in [
        "<html><p></html>",
        "<html><p>a < b</p></html>",
        "<html><p>&nbsp;</p></html>",
        "<html><p x=1></p></html>",
        "<html></html><p></p>",
        "<html><b></i></html>",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
}
