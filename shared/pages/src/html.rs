//! Links and the document shell every page shares. Markup is written with maud, which escapes
//! every value it inserts; the only text inserted unescaped is this file's own stylesheet and
//! script.

use crate::model::Page;
use maud::{DOCTYPE, Markup, PreEscaped, html};

/// A link target that cannot run script: relative references, fragments and `http:`,
/// `https:` and `mailto:` URLs pass; anything else with a scheme becomes `#`.
pub fn safe_href(href: &str) -> &str {
    let t = href.trim_start();
    let scheme_end = t.find([':', '/', '?', '#']);
    match scheme_end {
        Some(i) if t[i..].starts_with(':') => {
            let scheme = t[..i].to_ascii_lowercase();
            if matches!(scheme.as_str(), "http" | "https" | "mailto") {
                href
            } else {
                "#"
            }
        }
        _ => href,
    }
}

/// A link with a safe target.
pub(crate) fn link(href: &str, text: Markup) -> Markup {
    html! { a href=(safe_href(href)) { (text) } }
}

/// The player link of a page, when it has a pattern: `{id}` replaced by the pairing number.
pub(crate) fn player_link(page: &Page, id: u32, text: Markup) -> Markup {
    match &page.player_href {
        Some(pattern) => link(&pattern.replace("{id}", &id.to_string()), text),
        None => text,
    }
}

/// The stylesheet: readable on a phone (wide tables scroll sideways inside their box, with a
/// shadow at the edge that has more, the name column stays in view), light and dark colour
/// schemes, and a plain print layout. The shadows are the box's backgrounds: the page's own
/// colour attached to the content (`local`) hides each one when that edge is reached.
pub(crate) const STYLE: &str = "\
:root{color-scheme:light dark;--line:#8884;--head:#8881;--muted:#777}\
*{box-sizing:border-box}\
body{font:16px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:80rem;padding:.75rem}\
header h1{font-size:1.35rem;margin:.1rem 0}\
header p{margin:0 0 .6rem;color:var(--muted)}\
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.25rem 0 .75rem}\
a{color:inherit}\
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%;\
background:linear-gradient(to right,Canvas 30%,#0000) left/2rem 100% no-repeat local,\
linear-gradient(to left,Canvas 30%,#0000) right/2rem 100% no-repeat local,\
radial-gradient(farthest-side at 0 50%,#0005,#0000) left/.8rem 100% no-repeat scroll,\
radial-gradient(farthest-side at 100% 50%,#0005,#0000) right/.8rem 100% no-repeat scroll Canvas}\
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0 0 1rem}\
th,td{padding:.3rem .5rem;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap;vertical-align:baseline}\
thead th{background:var(--head);font-weight:600}\
th.name,td.name,.byes th.bye,.byes td.bye{text-align:left;white-space:normal;min-width:9rem}\
td.res,th.res,td.c{text-align:center}\
td.place.shared{color:var(--muted)}\
tbody tr:nth-child(even){background:var(--head)}\
.crosstable td.name,.crosstable th.name{position:sticky;left:0;background:Canvas}\
.crosstable thead th.name,.crosstable tbody tr:nth-child(even) td.name{background-image:linear-gradient(var(--head),var(--head))}\
.crosstable th.round{text-align:left}\
.crosstable td.r{text-align:left;font-size:.92em}\
.crosstable .opp{text-decoration:none}\
.title{font-size:.8em;font-weight:600;margin-right:.25em}\
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0 0 1rem}\
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}\
h2{font-size:1.1rem;margin:1rem 0 .4rem}\
dl.event{display:flex;flex-wrap:wrap;gap:.1rem 1.25rem;margin:0 0 .5rem;font-size:.9rem}\
dl.event div{display:flex;gap:.35rem}dl.event dt{color:var(--muted)}dl.event dd{margin:0}\
dl.legend{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:0 0 1rem;font-size:.9rem}\
dl.legend dt{font-weight:600}dl.legend dd{margin:0}\
p.amended{border-left:3px solid #c80;padding:.3rem .6rem;background:var(--head)}\
ol.notes{font-size:.9rem;margin:.2rem 0 1rem}sup.fn a{text-decoration:none}\
.tournaments th,.tournaments td{text-align:left}.tournaments td.rounds,.tournaments td.players,.tournaments th.rounds,.tournaments th.players{text-align:right}\
td.up{color:#080}td.down{color:#b00}.muted{color:var(--muted)}\
footer{color:var(--muted);font-size:.85rem;margin-top:1rem}\
@media (max-width:40rem){body{font-size:15px;padding:.4rem}th,td{padding:.25rem .35rem}.opt{display:none}\
.pairings th.name,.pairings td.name{min-width:0}.pairings th.pts,.pairings td.pts{display:none}}\
@media print{\
:root{color-scheme:light}\
body{max-width:none;padding:0;font-size:9.5pt;color:#000;background:#fff}\
nav,.noprint{display:none}\
.scroll{overflow:visible}\
.crosstable td.name,.crosstable th.name{position:static}\
.crosstable tbody tr:nth-child(n) td.name,.crosstable thead tr th.name{background:none}\
.opt{display:table-cell}\
thead{display:table-header-group}\
tr{break-inside:avoid}\
tbody tr:nth-child(even),thead th{background:none}\
th,td{border-bottom:1px solid #999}\
a{text-decoration:none}\
}";

/// Subscribes to the server-sent events named in `data-events`/`data-names` and, on each, fetches
/// the page again and swaps in its `#live` element, its header and footer (whose subtitle and
/// links follow the data) and its title. Without it (or without EventSource) the page is
/// complete as served. The subscription is closed when the page is left (`pagehide`) and opened
/// again if the browser brings the page back from its cache: a browser keeps only a few
/// connections per server, and streams of pages no longer shown would otherwise hold them until
/// the server ends them.
pub(crate) const LIVE_SCRIPT: &str = "\
(function(){var s=document.currentScript;if(!s||!window.EventSource||!window.fetch||!window.DOMParser)return;\
var u=s.getAttribute('data-events'),n=(s.getAttribute('data-names')||'message').split(',');\
var busy=false,again=false;\
function put(f,o){if(f&&o)o.replaceWith(document.importNode(f,true))}\
function reload(){if(busy){again=true;return}busy=true;\
fetch(location.href,{cache:'no-store',headers:{Accept:'text/html'}}).then(function(r){return r.ok?r.text():null}).then(function(t){\
if(!t)return;var d=new DOMParser().parseFromString(t,'text/html');put(d.getElementById('live'),document.getElementById('live'));\
put(d.querySelector('body>header'),document.querySelector('body>header'));put(d.querySelector('body>footer'),document.querySelector('body>footer'));\
if(d.title)document.title=d.title}).catch(function(){}).then(function(){busy=false;if(again){again=false;reload()}})}\
var es=null;function listen(){es=new EventSource(u);for(var i=0;i<n.length;i++){if(n[i])es.addEventListener(n[i],reload)}}listen();\
addEventListener('pagehide',function(){if(es){es.close();es=null}});\
addEventListener('pageshow',function(e){if(e.persisted&&!es){listen();reload()}})})();";

/// A complete document: head with the stylesheet, header (title, subtitle, navigation), the
/// page's `main` (id `live`), footer, and the live script when the page has an events URL.
pub(crate) fn document(page: &Page, class: &str, subtitle: &str, main: Markup) -> String {
    let lang = page.lang.as_deref().unwrap_or("en");
    let title = match (page.title.is_empty(), subtitle.is_empty()) {
        (_, true) => page.title.clone(),
        (true, false) => subtitle.to_string(),
        (false, false) => format!("{subtitle} \u{2013} {}", page.title),
    };
    let facts = page.facts.iter().filter(|(_, v)| !v.trim().is_empty());
    let live = page.live.as_ref().map(|live| {
        let names: Vec<&str> = live
            .events
            .iter()
            .map(|e| e.trim())
            .filter(|e| !e.is_empty() && !e.contains(','))
            .collect();
        let names = if names.is_empty() {
            "message".to_string()
        } else {
            names.join(",")
        };
        (live.url.as_str(), names)
    });
    html! {
        (DOCTYPE)
        html lang=(lang) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body class=(class) {
                header {
                    @if !page.title.is_empty() { h1 { (page.title) } }
                    @if !subtitle.is_empty() { p.sub { (subtitle) } }
                    @let facts: Vec<_> = facts.collect();
                    @if !facts.is_empty() {
                        dl.event {
                            @for (k, v) in facts { div { dt { (k) } dd { (v) } } }
                        }
                    }
                    @if !page.nav.is_empty() {
                        nav { @for l in &page.nav { (link(&l.href, html! { (l.label) })) } }
                    }
                }
                main id="live" { (main) }
                @if let Some(f) = &page.footer { footer { (f) } }
                @if let Some((url, names)) = &live {
                    script data-events=(url) data-names=(names) { (PreEscaped(LIVE_SCRIPT)) }
                }
            }
        }
    }
    .into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs_cannot_run_script() {
        assert_eq!(safe_href("/t/1/players/3"), "/t/1/players/3");
        assert_eq!(safe_href("players/3?x=a:b"), "players/3?x=a:b");
        assert_eq!(safe_href("https://example.org/a"), "https://example.org/a");
        assert_eq!(safe_href("JavaScript:alert(1)"), "#");
        assert_eq!(safe_href(" data:text/html,x"), "#");
        assert_eq!(safe_href("#p3"), "#p3");
    }

    #[test]
    fn the_script_has_no_closing_tag_inside() {
        assert!(!LIVE_SCRIPT.to_ascii_lowercase().contains("</script"));
        assert!(!STYLE.to_ascii_lowercase().contains("</style"));
    }
}
