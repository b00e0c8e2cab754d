//! The rating changes of the event so far (FIDE B.02) and the norm preview (B.01), as the
//! rating worker computes them from the results recorded.

use super::*;
use arbiter_proto::rating_worker::v1 as rw;

/// What the ratings screen shows.
pub struct RatingsView<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub names: &'a std::collections::HashMap<u32, String>,
    pub ratings: Result<rw::EventRatings, String>,
    pub norms: Result<rw::Norms, String>,
}

/// Tenths of a rating point, signed: "+7.5", "-12.0", "0.0".
fn change(tenths: i32) -> String {
    let sign = match tenths.signum() {
        1 => "+",
        -1 => "-",
        _ => "",
    };
    let a = tenths.unsigned_abs();
    format!("{sign}{}.{}", a / 10, a % 10)
}

/// Thousandths of a point: "2.35".
fn milli(m: i32) -> String {
    // Rounded to hundredths (half up) before splitting, so 0.999 is "1.00".
    let h = (m.unsigned_abs() + 5) / 10;
    let sign = if m < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", h / 100, h % 100)
}

fn norm_title(t: i32) -> &'static str {
    match pb::NormTitle::try_from(t).unwrap_or(pb::NormTitle::Unspecified) {
        pb::NormTitle::Gm => "GM",
        pb::NormTitle::Im => "IM",
        pb::NormTitle::Wgm => "WGM",
        pb::NormTitle::Wim => "WIM",
        pb::NormTitle::Unspecified => "",
    }
}

pub fn ratings(s: &Session, v: &RatingsView) -> Markup {
    let name = |pn: u32| v.names.get(&pn).cloned().unwrap_or_default();
    page(
        s.lang,
        &format!("{} · {}", t(s, "ratings"), v.name),
        Some(s),
        Some((v.id, v.name)),
        None,
        html! {
            @match &v.ratings {
                Err(e) => { h1 { (t(s, "ratings")) } p.flash.refused role="alert" { (e) } }
                Ok(r) => {
                    h1 { (ta(s, "ratings-through", &[("round", r.through_round.into())])) }
                    p.hint { (t(s, "ratings-hint")) }
                    div.scroll { table id="rating-changes" {
                        thead { tr {
                            th.num { (t(s, "no")) } th { (t(s, "name")) } th.num { (t(s, "rating")) }
                            th.num { "K" } th.num { (t(s, "games")) } th.num { (t(s, "pts")) }
                            th.num abbr=(t(s, "expected-score")) { "We" } th.num { (t(s, "change")) }
                            th.num abbr=(t(s, "performance")) { "Rp" }
                        } }
                        tbody { @for c in &r.changes {
                            tr data-player=(c.player_id) {
                                td.num { (c.player_id) }
                                td.name { (name(c.player_id)) }
                                td.num { @if c.rating_before > 0 { (c.rating_before) } }
                                td.num { @if c.k_factor > 0 { (c.k_factor) } }
                                td.num { (c.games) }
                                td.num { (points(c.score)) }
                                td.num { (milli(c.expected_milli)) }
                                td.num.change { (change(c.change_tenths)) }
                                td.num { @if c.performance > 0 { (c.performance) } }
                            }
                        } }
                    } }
                }
            }
            h2 { (t(s, "norms")) }
            @match &v.norms {
                Err(e) => p.flash.refused role="alert" { (e) },
                Ok(n) => {
                    @let achieved: Vec<&pb::NormResult> = n.norms.iter().filter(|x| x.achieved).collect();
                    @if achieved.is_empty() {
                        p id="no-norm" { (t(s, "no-norm-yet")) }
                    } @else {
                        (norm_table(s, "norms-achieved", &achieved, &name))
                    }
                    @if !n.norms.is_empty() {
                        details id="all-norm-checks" {
                            summary { (t(s, "every-norm-check")) }
                            (norm_table(s, "norm-checks", &n.norms.iter().collect::<Vec<_>>(), &name))
                        }
                    }
                }
            }
        },
    )
}

fn norm_table(
    s: &Session,
    id: &str,
    rows: &[&pb::NormResult],
    name: &dyn Fn(u32) -> String,
) -> Markup {
    html! {
        div.scroll { table id=(id) {
            thead { tr {
                th.num { (t(s, "no")) } th { (t(s, "name")) } th { (t(s, "title")) }
                th.num { (t(s, "games")) } th.num { (t(s, "pts")) } th.num abbr=(t(s, "average-opponent-rating")) { "Ra" }
                th.num abbr=(t(s, "performance")) { "Rp" } th.num { (t(s, "titled-opponents")) }
                th.num { (t(s, "federations")) } th { (t(s, "why")) }
            } }
            tbody { @for n in rows {
                tr.achieved[n.achieved] {
                    td.num { (n.player_id) }
                    td.name { (name(n.player_id)) }
                    td { (norm_title(n.title)) }
                    td.num { (n.games) }
                    td.num { (points(n.score)) }
                    td.num { (n.average_opponent_rating) }
                    td.num { (n.performance) }
                    td.num { (n.titled_opponents) }
                    td.num { (n.opponent_federations) }
                    td.name { (n.explanation) }
                }
            } }
        } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_and_expectancies_as_written() {
        assert_eq!(change(75), "+7.5");
        assert_eq!(change(-120), "-12.0");
        assert_eq!(change(-5), "-0.5");
        assert_eq!(change(0), "0.0");
        assert_eq!(milli(2354), "2.35");
        assert_eq!(milli(2356), "2.36");
        assert_eq!(milli(999), "1.00");
        assert_eq!(milli(40), "0.04");
    }
}
