//! Bounded rendering of the pages and JSON documents of the HTTP port.
//!
//! - At most [`HttpLimits::render_slots`] documents are built at once; other requests wait
//!   for a slot (a page of a 10,000-player event takes a core for a while; the rest of the
//!   server, `/healthz` included, keeps the others).
//! - A document of a tournament asked for without a token (the same for every anonymous
//!   client; not one with its own tie-break list) is built once per stream version and kept ([`HttpLimits::page_cache_bytes`] in
//!   all, the oldest dropped first): the clients asking for it at the same time wait for the
//!   one build, and every response shares the same bytes, so a crowd of clients that do not
//!   read holds one copy of the page, not one each.
//!
//! The event stream (`/t/{id}/events`) and `/healthz` pass untouched.

use arbiter_auth::{Principal, Role};
use arbiter_service_kit::http::HttpLimits;
use arbiter_service_kit::store::{TournamentStore, stream_of};
use axum::body::{Body, Bytes};
use axum::extract::{FromRequestParts, MatchedPath, RawPathParams, Request};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::{OnceCell, Semaphore};

/// A document as it was answered.
struct Kept {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Kept {
    fn response(&self) -> Response {
        let mut r = (self.status, Body::from(self.body.clone())).into_response();
        *r.headers_mut() = self.headers.clone();
        r
    }
}

/// Entries kept at most, whatever their size (small answers, e.g. 404s of unknown ids).
const MAX_ENTRIES: usize = 4096;

#[derive(Default)]
struct Entries {
    cells: HashMap<String, Arc<OnceCell<Kept>>>,
    /// Built entries, oldest first, with their size.
    order: VecDeque<(String, usize)>,
    bytes: usize,
}

/// The rendering bounds of one HTTP router.
pub struct PageCache {
    store: Arc<TournamentStore>,
    slots: Semaphore,
    max_bytes: usize,
    entries: Mutex<Entries>,
}

impl PageCache {
    pub fn new(store: Arc<TournamentStore>, limits: &HttpLimits) -> Arc<PageCache> {
        Arc::new(PageCache {
            store,
            slots: Semaphore::new(limits.render_slots.max(1)),
            max_bytes: limits.page_cache_bytes,
            entries: Mutex::new(Entries::default()),
        })
    }

    fn cell(&self, key: &str) -> Arc<OnceCell<Kept>> {
        let mut e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        e.cells.entry(key.to_string()).or_default().clone()
    }

    /// Accounts a built entry, dropping the oldest over the bounds (or the entry itself when
    /// it is larger than the whole cache).
    fn built(&self, key: String, size: usize) {
        let mut e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if size > self.max_bytes {
            e.cells.remove(&key);
            return;
        }
        e.bytes += size;
        e.order.push_back((key, size));
        while e.bytes > self.max_bytes || e.order.len() > MAX_ENTRIES {
            let Some((old, n)) = e.order.pop_front() else {
                break;
            };
            e.bytes -= n;
            e.cells.remove(&old);
        }
    }

    /// The number of documents kept and their bytes (for tests and benches).
    pub fn kept(&self) -> (usize, usize) {
        let e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        (e.order.len(), e.bytes)
    }
}

async fn build(cache: &PageCache, req: Request, next: Next) -> Result<Kept, Response> {
    let _slot = cache.slots.acquire().await;
    let response = next.run(req).await;
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.map_err(|e| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            axum::Json(serde_json::json!({ "error": format!("building the document: {e}") })),
        )
            .into_response()
    })?;
    Ok(Kept {
        status: parts.status,
        headers: parts.headers,
        body,
    })
}

/// The middleware (see the module documentation).
pub async fn bounded(
    axum::extract::State(cache): axum::extract::State<Arc<PageCache>>,
    req: Request,
    next: Next,
) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string());
    let Some(route) = route else {
        return next.run(req).await;
    };
    if route == "/healthz" || route.ends_with("/events") {
        return next.run(req).await;
    }
    let anonymous = req
        .extensions()
        .get::<Principal>()
        .is_none_or(|p| p.role == Role::Public);
    let (mut parts, body) = req.into_parts();
    let id = RawPathParams::from_request_parts(&mut parts, &())
        .await
        .ok()
        .and_then(|p| {
            p.iter()
                .find(|(k, _)| *k == "id")
                .map(|(_, v)| v.to_string())
        });
    let req = Request::from_parts(parts, body);
    // A requested tie-break list makes each query its own document: keeping them would fill
    // the cache with what one client chose and push the common pages out.
    let own_list = req.uri().query().is_some_and(|q| {
        q.split('&')
            .any(|kv| kv.starts_with("tiebreaks=") && kv.len() > 10)
    });
    let version = match (&id, req.method() == Method::GET && anonymous && !own_list) {
        (Some(id), true) => match stream_of(id) {
            Ok(stream) => cache.store.log().last_version(&stream).await.ok(),
            Err(_) => None,
        },
        _ => None,
    };
    let Some(version) = version else {
        // Not kept: built in a slot all the same.
        let _slot = cache.slots.acquire().await;
        return next.run(req).await;
    };
    let key = format!(
        "{version} {}",
        req.uri()
            .path_and_query()
            .map_or(req.uri().path(), |p| p.as_str())
    );
    let cell = cache.cell(&key);
    let mut ran = false;
    let kept = cell
        .get_or_try_init(|| {
            ran = true;
            build(&cache, req, next)
        })
        .await;
    match kept {
        Ok(k) => {
            if ran {
                cache.built(key, k.body.len() + 256);
            }
            k.response()
        }
        Err(r) => r,
    }
}

/// `router` with its documents built within `limits` (see the module documentation).
pub fn layer(
    router: axum::Router,
    store: Arc<TournamentStore>,
    limits: &HttpLimits,
) -> (axum::Router, Arc<PageCache>) {
    let cache = PageCache::new(store, limits);
    (
        router.layer(axum::middleware::from_fn_with_state(cache.clone(), bounded)),
        cache,
    )
}
