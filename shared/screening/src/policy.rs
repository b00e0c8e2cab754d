//! The levels as a versioned policy table (docs/src/rules/fair-play.md): the values live in
//! `policy/<version>.json`; every result records the version it was judged under, and a new
//! table is a new version, so a recorded flag never changes meaning.
//!
//! Each level states the rate at which clean play reaches it by chance (the one-sided normal
//! tail of its z, which a test recomputes) and the rate a calibration on held-out clean
//! performances must not exceed for the level to be trusted.

use crate::stats::{Indicators, field_size_threshold};
use serde::{Deserialize, Serialize};

/// The shipped policy table.
pub const SHIPPED: &str = include_str!("../policy/levels-2026.json");

/// Thresholds: z-scores in hundredths, nominal rates per 100,000, bars per mille.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    pub version: String,
    pub source: String,
    /// No level is raised on fewer counted decisions.
    pub min_counted_decisions: u64,
    /// Watch: combined z at least this (2.00, the customary "significant" z of Regan's notes
    /// II), from either test. A quick test raises nothing higher (notes IV.4).
    pub watch: i32,
    pub watch_nominal_per_100k: u32,
    /// Watch may be trusted when held-out clean performances reach it at most this often.
    pub watch_bar_per_mille: u32,
    /// Flag: a full test's combined z at least this (2.75); the level at which discreet action
    /// may be considered.
    pub flag: i32,
    pub flag_nominal_per_100k: u32,
    pub flag_bar_per_mille: u32,
    /// Intrusive action: at least this, rising with the field (odds ≥ this × players).
    pub intrusive_floor: i32,
    pub intrusive_odds_per_player: u32,
    pub pre_identified: i32,
    pub private_follow_up: i32,
    pub referral: i32,
    pub support_with_evidence: i32,
    /// Official FIDE thresholds (FIDE's own test, no other evidence), shown as context only:
    /// nothing arbiter computes is ever said publicly, at any z.
    pub official_online: i32,
    pub official_otb: i32,
}

impl Policy {
    pub fn shipped() -> Policy {
        serde_json::from_str(SHIPPED).expect("the shipped policy parses (checked by a test)")
    }
}

/// Which test produced the indicators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    Quick,
    Full,
}

/// Advisory flag levels (Regan's notes III), lowest first. None of them is a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagLevel {
    None,
    Watch,
    Flag,
    IntrusiveActionJustified,
    PrivateFollowUp,
    ReferralRecommended,
}

impl FlagLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            FlagLevel::None => "none",
            FlagLevel::Watch => "watch",
            FlagLevel::Flag => "flag",
            FlagLevel::IntrusiveActionJustified => "intrusive_action_justified",
            FlagLevel::PrivateFollowUp => "private_follow_up",
            FlagLevel::ReferralRecommended => "referral_recommended",
        }
    }
}

/// What the policy needs besides the indicators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    pub tier: Tier,
    pub counted: u64,
    /// Players in the event (field-size rule).
    pub field_size: u32,
    /// Singled out before round 1 (Regan notes IV.3).
    pub pre_identified: bool,
    /// Physical or observational evidence recorded.
    pub observational_evidence: bool,
    /// The baseline is provisional (not calibrated, or the player's band too thin): Watch at
    /// most.
    pub provisional: bool,
}

impl Policy {
    /// The intrusive threshold for a field of `players`.
    pub fn intrusive_threshold(&self, players: u32) -> i32 {
        field_size_threshold(
            players,
            self.intrusive_odds_per_player,
            self.intrusive_floor,
        )
    }

    /// The level, on the published (rounded) values. A quick test or a provisional baseline
    /// raises Watch at most; Flag and above need the full test.
    pub fn flag(&self, z: &Indicators, cx: &Context) -> FlagLevel {
        if cx.counted < self.min_counted_decisions {
            return FlagLevel::None;
        }
        let c = z.z_combined;
        let watch = if c >= self.watch {
            FlagLevel::Watch
        } else {
            FlagLevel::None
        };
        if cx.tier == Tier::Quick || cx.provisional {
            return watch;
        }
        if (cx.observational_evidence && c >= self.support_with_evidence)
            || (!cx.observational_evidence && c >= self.referral)
        {
            return FlagLevel::ReferralRecommended;
        }
        if !cx.observational_evidence && c >= self.private_follow_up {
            return FlagLevel::PrivateFollowUp;
        }
        if c >= self.intrusive_threshold(cx.field_size)
            || (cx.pre_identified && c >= self.pre_identified)
        {
            return FlagLevel::IntrusiveActionJustified;
        }
        if c >= self.flag {
            FlagLevel::Flag
        } else {
            watch
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::normal_tail;

    fn at(z: i32) -> Indicators {
        Indicators {
            z_mm: 0,
            z_ev: 0,
            z_t3: 0,
            z_asd: 0,
            z_combined: z,
            z_strength: None,
            z_assistance: None,
        }
    }

    fn cx(tier: Tier, counted: u64, provisional: bool) -> Context {
        Context {
            tier,
            counted,
            field_size: 100,
            pre_identified: false,
            observational_evidence: false,
            provisional,
        }
    }

    /// The stated rates are the normal tails of the levels, and the levels rise in the order
    /// the notes give them.
    #[test]
    fn the_shipped_table_states_its_levels_rates() {
        let p = Policy::shipped();
        for (z, per_100k) in [
            (p.watch, p.watch_nominal_per_100k),
            (p.flag, p.flag_nominal_per_100k),
        ] {
            let tail = normal_tail(f64::from(z) / 100.0) * 100_000.0;
            assert_eq!(per_100k, tail.round() as u32, "z {z}");
        }
        // 2.00: 22.75 per mille; 2.75: 2.98 per mille.
        assert_eq!(
            (p.watch_nominal_per_100k, p.flag_nominal_per_100k),
            (2275, 298)
        );
        // Each bar leaves room above the nominal rate for a baseline's error, never below it.
        assert!(p.watch_bar_per_mille * 100 >= p.watch_nominal_per_100k);
        assert!(p.flag_bar_per_mille * 100 >= p.flag_nominal_per_100k);
        let order = [
            p.watch,
            p.flag,
            p.intrusive_floor,
            p.private_follow_up,
            p.referral,
        ];
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        // FIDE's thresholds for its own test stand apart, far above anything that flags.
        assert!(p.flag < p.official_online && p.official_online < p.official_otb);
    }

    #[test]
    fn a_flag_needs_the_full_test_and_a_calibrated_baseline() {
        let p = Policy::shipped();
        let level = |z, c| p.flag(&at(z), &c);
        // Quick test: Watch from 2.00, and never higher.
        assert_eq!(level(199, cx(Tier::Quick, 60, false)), FlagLevel::None);
        assert_eq!(level(200, cx(Tier::Quick, 60, false)), FlagLevel::Watch);
        assert_eq!(level(600, cx(Tier::Quick, 60, false)), FlagLevel::Watch);
        // Full test: Flag from 2.75, intrusive from 3.00 in a field of 100.
        assert_eq!(level(274, cx(Tier::Full, 60, false)), FlagLevel::Watch);
        assert_eq!(level(275, cx(Tier::Full, 60, false)), FlagLevel::Flag);
        assert_eq!(
            level(300, cx(Tier::Full, 60, false)),
            FlagLevel::IntrusiveActionJustified
        );
        assert_eq!(
            level(450, cx(Tier::Full, 60, false)),
            FlagLevel::ReferralRecommended
        );
        // A provisional baseline: Watch at most, whatever the test.
        assert_eq!(level(600, cx(Tier::Full, 60, true)), FlagLevel::Watch);
        // Too few counted decisions: nothing.
        assert_eq!(level(600, cx(Tier::Full, 59, false)), FlagLevel::None);
    }

    #[test]
    fn an_unknown_field_in_a_table_is_refused() {
        let text = SHIPPED.replacen('{', "{\"watch_indicator\": 200,", 1);
        let e = serde_json::from_str::<Policy>(&text).expect_err("unknown field");
        assert!(e.to_string().contains("watch_indicator"), "{e}");
    }
}
