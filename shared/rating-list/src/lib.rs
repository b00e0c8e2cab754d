//! The FIDE rating-list registry: the public player list (text or XML, read by
//! [`arbiter_rating::list`]) kept in a sled database keyed by FIDE id, so that registration can
//! fill in a player's data from his FIDE id alone ([`RegistryEntry::fill`]).
//!
//! - [`Registry::import_file`] streams a list into the database with bounded memory: one record
//!   at a time from the reader, one insert per record, a flush every
//!   [`ImportOptions::flush_every`] records, a bounded page cache. Progress is reported every
//!   [`ImportOptions::progress_every`] records.
//! - A bad record does not stop the import: it is counted, and the first
//!   [`ImportOptions::keep_errors`] errors are kept with their line, column and field. A bad
//!   header, an I/O error or a list without a single valid record stops it (as does any bad
//!   record with [`ImportOptions::strict`]).
//! - An import writes a new tree and switches to it only when it has succeeded, so the
//!   previous list stays in use until then (and stays if the import fails). Trees left by an
//!   interrupted import are removed when the registry is opened.
//! - Values are a small versioned binary encoding ([`RegistryEntry::encode`]); keys are the
//!   FIDE id as 8 big-endian bytes (so the tree is in id order).

pub mod synthetic;

use arbiter_core::tournament::{Date as CoreDate, RatingKind, RegisterPlayer, Sex as CoreSex};
use arbiter_rating::list::{CategoryRating, ListError, ListRecord, TextListReader, XmlListReader};
use arbiter_rating::{Category, Federation, Sex, Title};
use std::cell::Cell;
use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::RwLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const META_TREE: &str = "registry.meta";
const LIST_TREE_PREFIX: &str = "registry.players.";
const CURRENT_KEY: &[u8] = b"current";
const INFO_KEY: &[u8] = b"info";
const ENCODING_VERSION: u8 = 1;
/// First byte of a name-index key in a list's tree: `n`, the folded name, 0, the FIDE id. A
/// player's own key is his FIDE id in 8 big-endian bytes, whose first byte is 0 for every id
/// FIDE gives, so the two never meet.
const NAME_INDEX: u8 = b'n';

/// The sled page cache of a registry (sled's default is 1 GiB).
pub const CACHE_BYTES: u64 = 32 << 20;

/// Why the registry failed.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The database could not be opened, read or written.
    #[error("rating registry storage: {0}")]
    Storage(String),
    /// The list file could not be opened.
    #[error("{path}: {source}")]
    Open {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The list stopped the import (header, I/O).
    #[error("{0}")]
    List(ListError),
    /// The input is not a list this registry reads.
    #[error("{0}")]
    Format(String),
    /// A stored entry does not decode.
    #[error("rating registry: entry of FIDE id {fide_id} is corrupt: {detail}")]
    Corrupt { fide_id: u64, detail: String },
}

fn storage(e: impl fmt::Display) -> RegistryError {
    RegistryError::Storage(e.to_string())
}

/// A player as the rating list gives him.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RegistryEntry {
    pub fide_id: u64,
    /// "Surname, Given names".
    pub name: String,
    pub federation: Option<Federation>,
    pub sex: Option<Sex>,
    pub title: Option<Title>,
    pub women_title: Option<Title>,
    pub birth_year: Option<u16>,
    pub standard: CategoryRating,
    pub rapid: CategoryRating,
    pub blitz: CategoryRating,
    pub inactive: bool,
}

impl From<&ListRecord> for RegistryEntry {
    fn from(r: &ListRecord) -> RegistryEntry {
        RegistryEntry {
            fide_id: r.fide_id,
            name: r.name.clone(),
            federation: r.federation,
            sex: r.sex.or(if r.woman_flag {
                Some(Sex::Female)
            } else {
                None
            }),
            title: r.title,
            women_title: r.women_title,
            birth_year: r.birth_year,
            standard: r.standard,
            rapid: r.rapid,
            blitz: r.blitz,
            inactive: r.inactive,
        }
    }
}

fn title_index(t: Option<Title>) -> u8 {
    t.and_then(|t| Title::ALL.iter().position(|x| *x == t))
        .map_or(0, |i| i as u8 + 1)
}

fn title_of_index(i: u8) -> Result<Option<Title>, String> {
    match i {
        0 => Ok(None),
        i => Title::ALL
            .get(usize::from(i) - 1)
            .copied()
            .map(Some)
            .ok_or_else(|| format!("title index {i}")),
    }
}

/// A small cursor over an encoded entry.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if self.0.len() < n {
            return Err(format!(
                "truncated ({} bytes left, {n} needed)",
                self.0.len()
            ));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

impl RegistryEntry {
    /// The figures of a rating kind.
    pub fn category(&self, kind: RatingKind) -> &CategoryRating {
        match kind {
            RatingKind::Standard => &self.standard,
            RatingKind::Rapid => &self.rapid,
            RatingKind::Blitz => &self.blitz,
        }
    }

    /// The one title a registration records: the higher of the open and the women's title in
    /// the order of the initial ranking (GM, IM, WGM, FM, WIM, CM, WFM, WCM).
    pub fn registration_title(&self) -> Option<Title> {
        [self.title, self.women_title]
            .into_iter()
            .flatten()
            .min_by_key(|t| Title::initial_ranking_position(Some(*t)))
    }

    /// Fills what a registration left empty (name, rating and K of the tournament's rating
    /// kind, title, federation, birth year, sex) and sets the FIDE id; what the registration
    /// gives is kept. Returns the names of the fields filled.
    pub fn fill(&self, p: &mut RegisterPlayer, kind: RatingKind) -> Vec<&'static str> {
        let mut filled = Vec::new();
        if p.fide_id.is_none() {
            p.fide_id = Some(self.fide_id);
            filled.push("fide_id");
        }
        if p.name.trim().is_empty() && !self.name.is_empty() {
            p.name = self.name.clone();
            filled.push("name");
        }
        let c = self.category(kind);
        if p.rating == 0
            && let Some(r) = c.rating
        {
            p.rating = u32::from(r);
            filled.push("rating");
        }
        if p.k_factor == 0
            && let Some(k) = c.k.filter(|&k| k > 0)
        {
            p.k_factor = u32::from(k);
            filled.push("k_factor");
        }
        if p.title.is_none()
            && let Some(t) = self.registration_title()
        {
            p.title = Some(t);
            filled.push("title");
        }
        if p.federation.trim().is_empty()
            && let Some(f) = self.federation
        {
            p.federation = f.as_str().to_string();
            filled.push("federation");
        }
        if p.birth_date.is_none()
            && let Some(d) = self
                .birth_year
                .and_then(|y| CoreDate::new(i32::from(y), 0, 0).ok())
        {
            p.birth_date = Some(d);
            filled.push("birth_date");
        }
        if p.sex.is_none()
            && let Some(s) = self.sex
        {
            p.sex = Some(match s {
                Sex::Male => CoreSex::Male,
                Sex::Female => CoreSex::Female,
            });
            filled.push("sex");
        }
        filled
    }

    /// The stored form: version, flags, federation, sex, titles, birth year, three categories
    /// (presence bits, rating, games, K), name. Little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(32 + self.name.len());
        v.push(ENCODING_VERSION);
        v.push(u8::from(self.inactive));
        match self.federation {
            Some(f) => v.extend_from_slice(f.as_str().as_bytes()),
            None => v.extend_from_slice(&[0, 0, 0]),
        }
        v.push(self.sex.map_or(0, |s| s.code() as u8));
        v.push(title_index(self.title));
        v.push(title_index(self.women_title));
        v.extend_from_slice(&self.birth_year.unwrap_or(0).to_le_bytes());
        for c in [&self.standard, &self.rapid, &self.blitz] {
            let bits = u8::from(c.rating.is_some())
                | u8::from(c.games.is_some()) << 1
                | u8::from(c.k.is_some()) << 2;
            v.push(bits);
            v.extend_from_slice(&c.rating.unwrap_or(0).to_le_bytes());
            v.extend_from_slice(&c.games.unwrap_or(0).to_le_bytes());
            v.push(c.k.unwrap_or(0));
        }
        let name = self.name.as_bytes();
        let len = name.len().min(usize::from(u16::MAX));
        v.extend_from_slice(&(len as u16).to_le_bytes());
        v.extend_from_slice(&name[..len]);
        v
    }

    /// Reads [`Self::encode`]'s form.
    pub fn decode(fide_id: u64, bytes: &[u8]) -> Result<RegistryEntry, RegistryError> {
        let corrupt = |detail: String| RegistryError::Corrupt { fide_id, detail };
        let mut b = Bytes(bytes);
        let mut inner = || -> Result<RegistryEntry, String> {
            let version = b.u8()?;
            if version != ENCODING_VERSION {
                return Err(format!("unknown encoding version {version}"));
            }
            let flags = b.u8()?;
            let fed = b.take(3)?;
            let federation = if fed == [0, 0, 0] {
                None
            } else {
                let s = std::str::from_utf8(fed).map_err(|_| "federation not ASCII".to_string())?;
                Some(Federation::new(s).ok_or_else(|| format!("federation {s:?}"))?)
            };
            let sex = match b.u8()? {
                0 => None,
                b'M' => Some(Sex::Male),
                b'F' => Some(Sex::Female),
                x => return Err(format!("sex code {x}")),
            };
            let title = title_of_index(b.u8()?)?;
            let women_title = title_of_index(b.u8()?)?;
            let birth_year = Some(b.u16()?).filter(|&y| y > 0);
            let mut cats = [CategoryRating::default(); 3];
            for c in &mut cats {
                let bits = b.u8()?;
                let rating = b.u16()?;
                let games = b.u16()?;
                let k = b.u8()?;
                *c = CategoryRating {
                    rating: (bits & 1 != 0).then_some(rating),
                    games: (bits & 2 != 0).then_some(games),
                    k: (bits & 4 != 0).then_some(k),
                };
            }
            let len = usize::from(b.u16()?);
            let name = std::str::from_utf8(b.take(len)?)
                .map_err(|_| "name not UTF-8".to_string())?
                .to_string();
            if !b.0.is_empty() {
                return Err(format!("{} trailing bytes", b.0.len()));
            }
            Ok(RegistryEntry {
                fide_id,
                name,
                federation,
                sex,
                title,
                women_title,
                birth_year,
                standard: cats[0],
                rapid: cats[1],
                blitz: cats[2],
                inactive: flags & 1 != 0,
            })
        };
        inner().map_err(corrupt)
    }
}

fn show_category(f: &mut fmt::Formatter<'_>, label: &str, c: &CategoryRating) -> fmt::Result {
    write!(f, "{label:<11}")?;
    match c.rating {
        Some(r) => write!(f, "{r}")?,
        None => write!(f, "unrated")?,
    }
    let mut extra = Vec::new();
    if let Some(g) = c.games {
        extra.push(format!("games {g}"));
    }
    if let Some(k) = c.k {
        extra.push(format!("K {k}"));
    }
    if !extra.is_empty() {
        write!(f, " ({})", extra.join(", "))?;
    }
    writeln!(f)
}

impl fmt::Display for RegistryEntry {
    /// One field per line, as `arbiter ratings show` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |o: Option<String>| o.unwrap_or_else(|| "-".into());
        writeln!(f, "{:<11}{}", "FIDE id", self.fide_id)?;
        writeln!(f, "{:<11}{}", "name", self.name)?;
        writeln!(
            f,
            "{:<11}{}",
            "federation",
            opt(self.federation.map(|x| x.to_string()))
        )?;
        writeln!(
            f,
            "{:<11}{}",
            "sex",
            opt(self.sex.map(|s| s.code().to_string()))
        )?;
        let titles: Vec<&str> = [self.title, self.women_title]
            .into_iter()
            .flatten()
            .map(Title::code)
            .collect();
        writeln!(
            f,
            "{:<11}{}",
            "title",
            if titles.is_empty() {
                "-".to_string()
            } else {
                titles.join(", ")
            }
        )?;
        writeln!(
            f,
            "{:<11}{}",
            "birth year",
            opt(self.birth_year.map(|y| y.to_string()))
        )?;
        show_category(f, "standard", &self.standard)?;
        show_category(f, "rapid", &self.rapid)?;
        show_category(f, "blitz", &self.blitz)?;
        if self.inactive {
            writeln!(f, "{:<11}inactive", "status")?;
        }
        Ok(())
    }
}

/// The two list formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFormat {
    /// Fixed-width text (`players_list_foa.txt`, `standard_rating_list.txt`, ...).
    Text,
    /// XML (`players_list_xml.xml`, ...).
    Xml,
}

impl ListFormat {
    pub fn name(self) -> &'static str {
        match self {
            ListFormat::Text => "text",
            ListFormat::Xml => "xml",
        }
    }
}

/// How to import.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// `None`: detected from the content (XML starts with `<`).
    pub format: Option<ListFormat>,
    /// The category of a per-category list's rating column (standard for the combined list).
    pub category: Category,
    /// Records written between two flushes to disk.
    pub flush_every: u64,
    /// How many record errors are kept (all are counted).
    pub keep_errors: usize,
    /// Records between two progress reports.
    pub progress_every: u64,
    /// A single bad record fails the import (the list in use stays).
    pub strict: bool,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            format: None,
            category: Category::Standard,
            flush_every: 100_000,
            keep_errors: 100,
            progress_every: 100_000,
            strict: false,
        }
    }
}

/// Where an import is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub records: u64,
    pub errors: u64,
    /// Bytes of the list read so far.
    pub bytes: u64,
    /// The list's size, when known.
    pub total_bytes: Option<u64>,
    pub elapsed: Duration,
}

impl Progress {
    /// Percent of the list read, when its size is known.
    pub fn percent(&self) -> Option<u64> {
        self.total_bytes
            .filter(|&t| t > 0)
            .map(|t| (self.bytes.min(t) * 100) / t)
    }
}

/// What an import did.
#[derive(Debug)]
pub struct ImportReport {
    pub format: ListFormat,
    /// Records written (a FIDE id listed twice is written twice; the later one stands).
    pub records: u64,
    /// Distinct FIDE ids now in the registry.
    pub players: u64,
    /// Records that could not be read.
    pub errors: u64,
    /// The first errors, with line, column and field.
    pub first_errors: Vec<ListError>,
    pub bytes: u64,
    pub elapsed: Duration,
}

/// What is known about the list in use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListInfo {
    /// The file (or source) it was imported from.
    pub source: String,
    pub format: String,
    pub category: String,
    pub players: u64,
    pub errors: u64,
    /// When the import finished, milliseconds since the Unix epoch.
    pub imported_unix_ms: i64,
}

impl ListInfo {
    fn encode(&self) -> Vec<u8> {
        let clean = |s: &str| s.replace(['\n', '\r'], " ");
        format!(
            "{}\n{}\n{}\n{}\n{}\n{}",
            clean(&self.source),
            self.format,
            self.category,
            self.players,
            self.errors,
            self.imported_unix_ms
        )
        .into_bytes()
    }

    fn decode(b: &[u8]) -> Option<ListInfo> {
        let s = std::str::from_utf8(b).ok()?;
        let mut it = s.split('\n');
        Some(ListInfo {
            source: it.next()?.to_string(),
            format: it.next()?.to_string(),
            category: it.next()?.to_string(),
            players: it.next()?.parse().ok()?,
            errors: it.next()?.parse().ok()?,
            imported_unix_ms: it.next()?.parse().ok()?,
        })
    }
}

/// Counts the bytes read through it.
struct Counting<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// The format of a list from its first bytes (after a byte-order mark and blanks).
fn detect(head: &[u8]) -> Result<ListFormat, RegistryError> {
    if head.starts_with(b"PK\x03\x04") {
        return Err(RegistryError::Format(
            "the file is a ZIP archive: extract the list (.txt or .xml) first".into(),
        ));
    }
    if head.starts_with(&[0x1f, 0x8b]) {
        return Err(RegistryError::Format(
            "the file is gzip-compressed: decompress it first".into(),
        ));
    }
    let h = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    match h.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'<') => Ok(ListFormat::Xml),
        _ => Ok(ListFormat::Text),
    }
}

/// The FIDE-id-keyed player registry (see the module documentation). Cheap to share: lookups
/// take `&self`.
pub struct Registry {
    db: sled::Db,
    meta: sled::Tree,
    players: RwLock<Option<sled::Tree>>,
    /// The folder (`None`: a temporary registry).
    path: Option<PathBuf>,
}

fn key(fide_id: u64) -> [u8; 8] {
    fide_id.to_be_bytes()
}

/// A name as the index compares it: lower case, single spaces.
fn folded(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn name_key(name: &str, fide_id: u64) -> Vec<u8> {
    let f = folded(name);
    let mut k = Vec::with_capacity(f.len() + 10);
    k.push(NAME_INDEX);
    k.extend_from_slice(f.as_bytes());
    k.push(0);
    k.extend_from_slice(&key(fide_id));
    k
}

impl Registry {
    /// Opens (or creates) the registry in the folder `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Registry, RegistryError> {
        let path = path.as_ref();
        let db = sled::Config::new()
            .path(path)
            .cache_capacity(CACHE_BYTES)
            .open()
            .map_err(|e| {
                RegistryError::Storage(format!(
                    "cannot open {}: {e} (is another process using it?)",
                    path.display()
                ))
            })?;
        let mut registry = Registry::in_db(db)?;
        registry.path = Some(path.to_path_buf());
        Ok(registry)
    }

    /// Flushes and closes the registry, returning once its files are released, so the folder
    /// can be opened again by this process. Dropping a registry releases them too, but a moment
    /// later: sled's background writes still hold its file lock after the last handle is gone,
    /// so this waits on that lock itself.
    pub fn close(self) -> Result<(), RegistryError> {
        self.db.flush().map_err(storage)?;
        let Registry {
            db,
            meta,
            players,
            path,
        } = self;
        drop((meta, players, db));
        let Some(path) = path else { return Ok(()) };
        let file = path.join("db");
        let released = std::fs::File::open(&file).and_then(|f| {
            f.lock()?;
            f.unlock()
        });
        released
            .map_err(|e| RegistryError::Storage(format!("cannot close {}: {e}", file.display())))
    }

    /// A registry in a temporary folder, removed on drop (for tests).
    pub fn temporary() -> Result<Registry, RegistryError> {
        let db = sled::Config::new()
            .temporary(true)
            .cache_capacity(CACHE_BYTES)
            .open()
            .map_err(storage)?;
        Registry::in_db(db)
    }

    fn in_db(db: sled::Db) -> Result<Registry, RegistryError> {
        let meta = db.open_tree(META_TREE).map_err(storage)?;
        let current = meta.get(CURRENT_KEY).map_err(storage)?;
        // Trees of an interrupted import are not in use: drop them.
        for name in db.tree_names() {
            if name.starts_with(LIST_TREE_PREFIX.as_bytes())
                && current.as_deref() != Some(name.as_ref())
            {
                db.drop_tree(&name).map_err(storage)?;
            }
        }
        let players = match current {
            Some(name) => Some(db.open_tree(name).map_err(storage)?),
            None => None,
        };
        Ok(Registry {
            db,
            meta,
            players: RwLock::new(players),
            path: None,
        })
    }

    fn tree(&self) -> Option<sled::Tree> {
        self.players.read().expect("registry lock").clone()
    }

    /// The player with this FIDE id, if the list has him.
    pub fn get(&self, fide_id: u64) -> Result<Option<RegistryEntry>, RegistryError> {
        let Some(tree) = self.tree() else {
            return Ok(None);
        };
        match tree.get(key(fide_id)).map_err(storage)? {
            None => Ok(None),
            Some(v) => RegistryEntry::decode(fide_id, &v).map(Some),
        }
    }

    /// Fills a registration from the list when it names a FIDE id the list has (see
    /// [`RegistryEntry::fill`]). `None`: no FIDE id, or not in the list.
    pub fn complete(
        &self,
        p: &mut RegisterPlayer,
        kind: RatingKind,
    ) -> Result<Option<Vec<&'static str>>, RegistryError> {
        let Some(id) = p.fide_id else {
            return Ok(None);
        };
        Ok(self.get(id)?.map(|e| e.fill(p, kind)))
    }

    /// Up to `limit` players for what an arbiter types: a FIDE id, or the start of a name as
    /// the list writes it ("Surname, Given"; case and spacing do not matter), in name order.
    /// Lists imported before the name index existed answer only by FIDE id until imported
    /// again.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<RegistryEntry>, RegistryError> {
        let q = query.trim();
        if q.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        if let Ok(id) = q.parse::<u64>() {
            return Ok(self.get(id)?.into_iter().collect());
        }
        let Some(tree) = self.tree() else {
            return Ok(Vec::new());
        };
        let mut prefix = vec![NAME_INDEX];
        prefix.extend_from_slice(folded(q).as_bytes());
        let mut found = Vec::new();
        for item in tree.scan_prefix(&prefix).take(limit) {
            let (k, _) = item.map_err(storage)?;
            let id = k
                .get(k.len().saturating_sub(8)..)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map(u64::from_be_bytes)
                .ok_or_else(|| storage("a name-index key without its FIDE id"))?;
            if let Some(e) = self.get(id)? {
                found.push(e);
            }
        }
        Ok(found)
    }

    /// Players in the list in use (as counted by its import).
    pub fn len(&self) -> u64 {
        if self.tree().is_none() {
            return 0;
        }
        self.info().ok().flatten().map_or(0, |i| i.players)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// About the list in use.
    pub fn info(&self) -> Result<Option<ListInfo>, RegistryError> {
        Ok(self
            .meta
            .get(INFO_KEY)
            .map_err(storage)?
            .and_then(|v| ListInfo::decode(&v)))
    }

    /// Imports the list in the file `path` (see [`Registry::import`]).
    pub fn import_file(
        &self,
        path: impl AsRef<Path>,
        options: &ImportOptions,
        progress: impl FnMut(&Progress),
    ) -> Result<ImportReport, RegistryError> {
        let path = path.as_ref();
        let open = |source| RegistryError::Open {
            path: path.display().to_string(),
            source,
        };
        let file = std::fs::File::open(path).map_err(open)?;
        let size = file.metadata().ok().map(|m| m.len());
        self.import(file, size, &path.display().to_string(), options, progress)
    }

    /// Imports a list read from `reader` (`total_bytes`, when known, for progress), replacing
    /// the list in use once every record has been read. `source` is recorded in
    /// [`ListInfo`].
    pub fn import(
        &self,
        reader: impl Read,
        total_bytes: Option<u64>,
        source: &str,
        options: &ImportOptions,
        mut progress: impl FnMut(&Progress),
    ) -> Result<ImportReport, RegistryError> {
        let started = Instant::now();
        let count = Rc::new(Cell::new(0u64));
        let mut input = BufReader::with_capacity(
            1 << 16,
            Counting {
                inner: reader,
                count: count.clone(),
            },
        );
        let head = input
            .fill_buf()
            .map_err(|source| RegistryError::List(ListError::Io { line: 1, source }))?;
        let format = match options.format {
            Some(f) => f,
            None => detect(head)?,
        };
        let records: Box<dyn Iterator<Item = Result<ListRecord, ListError>>> = match format {
            ListFormat::Text => {
                Box::new(TextListReader::new(input, options.category).map_err(RegistryError::List)?)
            }
            ListFormat::Xml => Box::new(XmlListReader::new(input, options.category)),
        };

        let name = format!(
            "{LIST_TREE_PREFIX}{}",
            self.db.generate_id().map_err(storage)?
        );
        let tree = self.db.open_tree(&name).map_err(storage)?;
        let fail = |e: RegistryError| -> RegistryError {
            let _ = self.db.drop_tree(&name);
            e
        };
        let flush_every = options.flush_every.max(1);
        let every = options.progress_every.max(1);
        let mut players = 0u64;
        let (mut written, mut errors) = (0u64, 0u64);
        let mut first_errors = Vec::new();
        let report = |written: u64, errors: u64| Progress {
            records: written,
            errors,
            bytes: count.get(),
            total_bytes,
            elapsed: started.elapsed(),
        };
        for item in records {
            match item {
                Ok(rec) => {
                    let entry = RegistryEntry::from(&rec);
                    // One insert per record: sled's batches keep what they wrote in memory
                    // (3 GB for a million records, against 0.1 GB this way); the tree is not
                    // in use until the import succeeds, so nothing needs their atomicity.
                    let previous = tree
                        .insert(key(entry.fide_id), entry.encode())
                        .map_err(|e| fail(storage(e)))?;
                    // The name index: the later record of an id listed twice replaces the
                    // earlier one's name too.
                    if let Some(old) = &previous
                        && let Ok(old) = RegistryEntry::decode(entry.fide_id, old)
                        && old.name != entry.name
                    {
                        tree.remove(name_key(&old.name, entry.fide_id))
                            .map_err(|e| fail(storage(e)))?;
                    }
                    tree.insert(name_key(&entry.name, entry.fide_id), &[])
                        .map_err(|e| fail(storage(e)))?;
                    players += u64::from(previous.is_none());
                    written += 1;
                    if written.is_multiple_of(flush_every) {
                        tree.flush().map_err(|e| fail(storage(e)))?;
                    }
                    if written.is_multiple_of(every) {
                        progress(&report(written, errors));
                    }
                }
                Err(e) if e.is_fatal() => return Err(fail(RegistryError::List(e))),
                Err(e) => {
                    errors += 1;
                    if first_errors.len() < options.keep_errors {
                        first_errors.push(e);
                    }
                }
            }
        }
        if options.strict && errors > 0 {
            let first = first_errors
                .first()
                .map_or_else(String::new, |e| format!("; the first: {e}"));
            return Err(fail(RegistryError::Format(format!(
                "{errors} records could not be read{first}"
            ))));
        }
        if written == 0 {
            let why = match first_errors.first() {
                Some(e) => format!("no player could be read ({errors} errors; the first: {e})"),
                None => "the list has no players".to_string(),
            };
            return Err(fail(RegistryError::Format(why)));
        }
        tree.flush().map_err(|e| fail(storage(e)))?;
        let info = ListInfo {
            source: source.to_string(),
            format: format.name().to_string(),
            category: options.category.name().to_string(),
            players,
            errors,
            imported_unix_ms: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64),
        };
        // Switch to the new list, then drop the old one.
        let mut meta = sled::Batch::default();
        meta.insert(CURRENT_KEY, name.as_bytes());
        meta.insert(INFO_KEY, info.encode());
        self.meta.apply_batch(meta).map_err(|e| fail(storage(e)))?;
        self.db.flush().map_err(storage)?;
        let old = self.players.write().expect("registry lock").replace(tree);
        if let Some(old) = old {
            let old_name = old.name();
            drop(old);
            if let Err(e) = self.db.drop_tree(&old_name) {
                tracing::warn!(error = %e, "cannot drop the previous list's tree");
            }
        }
        progress(&report(written, errors));
        Ok(ImportReport {
            format,
            records: written,
            players,
            errors,
            first_errors,
            bytes: count.get(),
            elapsed: started.elapsed(),
        })
    }

    /// Flushes the database to disk.
    pub fn flush(&self) -> Result<(), RegistryError> {
        self.db.flush().map(|_| ()).map_err(storage)
    }

    /// Bytes the database takes on disk.
    pub fn size_on_disk(&self) -> Result<u64, RegistryError> {
        self.db.size_on_disk().map_err(storage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> RegistryEntry {
        RegistryEntry {
            fide_id: 1503014,
            name: "Núñez, José".into(),
            federation: Federation::new("ESP"),
            sex: Some(Sex::Female),
            title: Some(Title::IM),
            women_title: Some(Title::WGM),
            birth_year: Some(1990),
            standard: CategoryRating {
                rating: Some(2450),
                games: Some(0),
                k: Some(10),
            },
            rapid: CategoryRating {
                rating: None,
                games: Some(7),
                k: None,
            },
            blitz: CategoryRating::default(),
            inactive: true,
        }
    }

    #[test]
    fn entries_round_trip_and_corruption_is_reported() {
        let e = entry();
        let bytes = e.encode();
        assert_eq!(RegistryEntry::decode(e.fide_id, &bytes).unwrap(), e);
        let plain = RegistryEntry {
            fide_id: 7,
            ..RegistryEntry::default()
        };
        assert_eq!(RegistryEntry::decode(7, &plain.encode()).unwrap(), plain);
        for cut in [0, 1, 5, bytes.len() - 1] {
            let err = RegistryEntry::decode(e.fide_id, &bytes[..cut]).unwrap_err();
            assert!(
                matches!(
                    err,
                    RegistryError::Corrupt {
                        fide_id: 1503014,
                        ..
                    }
                ),
                "{err}"
            );
        }
        let mut bad = bytes.clone();
        bad[0] = 9;
        assert!(
            RegistryEntry::decode(1, &bad)
                .unwrap_err()
                .to_string()
                .contains("unknown encoding version 9")
        );
    }

    #[test]
    fn fill_keeps_what_registration_gives() {
        let e = entry();
        let mut p = RegisterPlayer {
            fide_id: Some(e.fide_id),
            rating: 2400,
            ..RegisterPlayer::default()
        };
        let filled = e.fill(&mut p, RatingKind::Standard);
        assert_eq!(
            filled,
            vec![
                "name",
                "k_factor",
                "title",
                "federation",
                "birth_date",
                "sex"
            ]
        );
        assert_eq!(p.name, "Núñez, José");
        assert_eq!(p.rating, 2400, "given rating kept");
        assert_eq!(p.k_factor, 10);
        // IM ranks above WGM in the initial ranking order.
        assert_eq!(p.title, Some(Title::IM));
        assert_eq!(p.federation, "ESP");
        assert_eq!(p.birth_date.unwrap().year(), 1990);
        assert_eq!(p.sex, Some(CoreSex::Female));
        // Rapid: unrated in the list, so nothing to fill there.
        let mut q = RegisterPlayer::default();
        let filled = e.fill(&mut q, RatingKind::Rapid);
        assert!(!filled.contains(&"rating") && q.rating == 0, "{filled:?}");
        assert_eq!(q.fide_id, Some(1503014));
    }

    #[test]
    fn formats_are_detected() {
        assert_eq!(detect(b"\xEF\xBB\xBF  <?xml").unwrap(), ListFormat::Xml);
        assert_eq!(detect(b"ID Number  Name").unwrap(), ListFormat::Text);
        assert!(
            detect(b"PK\x03\x04rest")
                .unwrap_err()
                .to_string()
                .contains("ZIP")
        );
    }
}
