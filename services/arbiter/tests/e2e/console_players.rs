//! The players screen of the console on an online event whose regulations ask every player for
//! the fair-play consent (E.04 Appendix I J), in a real browser against `arbiter serve`: the
//! event created in the console's form (refused first without the time-control periods an
//! online event needs); the
//! players imported from a TRF file (a damaged one refused with its line, nobody registered);
//! the consent form offers exactly the players without it and refuses one without the platform
//! account an online event needs; once every player has consented, round 1 is paired; a player
//! entered late from the form carries his first round and the score of the round he missed,
//! and is asked for his consent in turn. Every event the console caused names the signed-in
//! arbiter.

use crate::console::{CHIEF, fill, flash, shots, signed_in, submit, wait_for};
use crate::support::browser::{js, text};
use crate::support::*;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use serde_json::json;
use std::time::Duration;

const TID: &str = "console-online";
const REGS: &str = "Online Rapid 2026, v2";

/// The players of the consent form's list: "number. name" each.
async fn asked(b: &fantoccini::Client) -> Vec<String> {
    let v = js(
        b,
        "var s = document.getElementById('f-player'); return s ? Array.from(s.options).map(function (o) { return o.textContent; }) : [];",
    )
    .await;
    serde_json::from_value(v).unwrap()
}

/// Ticks every item the form asks for and records the consent of the player listed first.
async fn consent_first(b: &fantoccini::Client, account: &str) -> String {
    fill(b, "f-by", "Accepted, Self").await;
    fill(b, "f-account", account).await;
    js(
        b,
        "document.querySelectorAll('fieldset.consent input[name^=item-]').forEach(function (c) { c.checked = true; }); return null;",
    )
    .await;
    submit(b, "record-consent").await;
    flash(b).await
}

/// Puts a TRF file's text in the import form and sends it; the flash shown.
async fn import(b: &fantoccini::Client, text: &str) -> String {
    b.execute(
        "document.getElementById('trf').value = arguments[0]; return null;",
        vec![json!(text)],
    )
    .await
    .expect("the TRF's text");
    submit(b, "import-trf").await;
    flash(b).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consent_and_a_late_entry_from_the_console() {
    let console = signed_in("arbiter-console-players").await;
    let (b, base, mut c) = (&console.b, console.base.clone(), console.c.clone());
    // An online event whose regulations ask for the consent, created in the form (its
    // conduct is fixed at creation).
    submit(&b, "new-tournament").await;
    wait_for(&b, "h1", "New tournament").await;
    fill(&b, "name", "Online Rapid").await;
    fill(&b, "id", TID).await;
    fill(&b, "rounds", "3").await;
    js(
        &b,
        "document.getElementById('format').value = 'online-unsupervised'; \
         document.getElementById('rating_kind').value = 'rapid'; \
         document.getElementById('require_consent').checked = true; return null;",
    )
    .await;
    // Online without periods: the service names what is missing.
    submit(&b, "create").await;
    let said = flash(&b).await;
    assert!(said.contains("conduct.periods"), "{said:?}");
    fill(&b, "periods", "15m+10s").await;
    fill(&b, "regulations", REGS).await;
    // The finer settings, read as `arbiter client create` reads its flags.
    fill(&b, "platform", "Lichess").await;
    fill(&b, "platform_features", "premove,berserk").await;
    fill(&b, "reconnection_window", "5m").await;
    fill(&b, "appeal_deadline", "30m").await;
    shots(&b, &shots_dir(), "new-online-tournament").await;
    submit(&b, "create").await;
    wait_for(&b, "h1", "Players").await;
    let players = format!("{base}/console/t/{TID}/players");
    b.goto(&players).await.unwrap();
    wait_for(&b, "h1", "Players").await;

    // The players come from a TRF file, through the reader `arbiter import` uses: a damaged
    // file is refused with its line and registers nobody; the whole file registers its
    // players in its order.
    let trf = std::fs::read_to_string(root().join("tests/golden/dutch-2025/t0036.trf")).unwrap();
    let in_file: Vec<String> = trf
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| l[14..47].trim().to_string())
        .collect();
    let said = import(&b, &trf.replacen("001    1 ", "001    X ", 1)).await;
    assert!(
        said.contains("nothing was registered") && said.contains("line 2"),
        "{said:?}"
    );
    assert_eq!(asked(&b).await, Vec::<String>::new());
    // The file chosen from disk as an arbiter does: the script reads it into the field.
    let path = root().join("tests/golden/dutch-2025/t0036.trf");
    b.find(fantoccini::Locator::Id("trf-pick"))
        .await
        .expect("the file field")
        .send_keys(path.canonicalize().unwrap().to_str().unwrap())
        .await
        .expect("choose the file");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while js(&b, "return document.getElementById('trf').value;").await != json!(trf) {
        assert!(
            std::time::Instant::now() < deadline,
            "the chosen file did not reach the form"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    submit(&b, "import-trf").await;
    assert_eq!(flash(&b).await, "", "the TRF import");
    let registered = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(TID),
        })
        .await
        .unwrap()
        .into_inner();
    let names: Vec<String> = registered
        .players
        .iter()
        .map(|p| p.player.as_ref().unwrap().name.clone())
        .collect();
    assert_eq!(names, in_file);
    let n = in_file.len();
    assert!(
        text(&b, "main").await.contains(REGS),
        "the screen names the regulations consented to"
    );
    let expected: Vec<String> = in_file
        .iter()
        .enumerate()
        .map(|(i, name)| format!("{}. {name}", i + 1))
        .collect();
    assert_eq!(asked(&b).await, expected);
    shots(&b, &shots_dir(), "players-consent").await;

    // Without the platform account an online event needs (E.04 9.3): refused, nothing recorded.
    let said = consent_first(&b, "").await;
    assert!(
        said.contains("consent.platform_account"),
        "{said:?}; page: {}",
        text(&b, "main").await
    );
    assert_eq!(asked(&b).await.len(), n);
    for i in 1..=n {
        let said = consent_first(&b, &format!("player{i}_online")).await;
        assert_eq!(said, "", "consent {i}");
    }
    // Everyone consented: the form is gone, the screen says why.
    assert!(asked(&b).await.is_empty());
    assert_eq!(
        text(&b, "#all-consented").await,
        "Every registered player has given the consent."
    );
    let list = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(TID),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(
        list.players
            .iter()
            .all(|p| p.status == reg::PlayerStatus::Active as i32),
        "{list:?}"
    );

    // Round 1 pairs them all; one more player enters late for round 2, his round 1 a half
    // point.
    b.goto(&format!("{base}/console/t/{TID}/round"))
        .await
        .unwrap();
    submit(&b, "start-round").await;
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while js(&b, "return !!document.getElementById('publish');").await != json!(true) {
        assert!(std::time::Instant::now() < deadline, "no proposal");
        tokio::time::sleep(Duration::from_millis(100)).await;
        b.refresh().await.unwrap();
    }
    submit(&b, "publish").await;
    assert_eq!(flash(&b).await, "", "publish");
    b.goto(&players).await.unwrap();
    wait_for(&b, "h1", "Players").await;
    assert_eq!(
        js(&b, "return document.getElementById('p-first').value;").await,
        json!("2"),
        "a late entry's first round defaults to the next one"
    );
    fill(&b, "p-name", "Late, Comer").await;
    fill(&b, "p-rating", "2010").await;
    js(
        &b,
        "document.getElementById('p-missed').value = 'half'; return null;",
    )
    .await;
    shots(&b, &shots_dir(), "players-late-entry").await;
    submit(&b, "add-player").await;
    assert_eq!(flash(&b).await, "", "late entry");
    // He takes his place by rating among the numbers (a late entry renumbers, C.04.2).
    let late_number = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(TID),
        })
        .await
        .unwrap()
        .into_inner()
        .players
        .iter()
        .find(|p| p.player.as_ref().is_some_and(|p| p.name == "Late, Comer"))
        .expect("registered")
        .pairing_number;
    assert_eq!(
        asked(&b).await,
        [format!("{late_number}. Late, Comer")],
        "asked for his consent"
    );

    // The log: the late entry as typed, every console event by the signed-in arbiter.
    let (mut late, mut consents) = (None, 0);
    for (actor, kind) in kinds_by_actor(&mut c, TID).await {
        match kind {
            pb::event::Kind::TournamentCreated(t) => {
                let conduct = t.conduct.expect("the conduct");
                assert_eq!(
                    (
                        conduct.reconnection_window_s,
                        conduct.appeal_deadline_minutes
                    ),
                    (300, 30)
                );
                let platform = conduct.platform.expect("the platform");
                assert_eq!(platform.name, "Lichess");
                assert_eq!(
                    platform.features,
                    [
                        pb::PlatformFeature::Premove as i32,
                        pb::PlatformFeature::Berserk as i32
                    ]
                );
            }
            pb::event::Kind::LateEntry(l) => late = Some((actor, l)),
            pb::event::Kind::FairPlayConsentRecorded(f) => {
                assert_eq!(actor, CHIEF);
                assert_eq!(f.regulations_version, REGS);
                assert_eq!(f.accepted_by, "Accepted, Self");
                assert_eq!(f.items.len(), 3, "{f:?}");
                consents += 1;
            }
            _ => {}
        }
    }
    assert_eq!(consents, n);
    let (actor, late) = late.expect("a late entry");
    assert_eq!(actor, CHIEF);
    assert_eq!(late.player.as_ref().unwrap().name, "Late, Comer");
    assert_eq!(late.first_round, 2);
    assert_eq!(late.missed_rounds, [pb::ResultCode::HalfBye as i32]);
}

fn shots_dir() -> std::path::PathBuf {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("console");
    std::fs::create_dir_all(&d).unwrap();
    d
}
