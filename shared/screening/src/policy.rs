//! Thresholds as a versioned policy table (docs/src/benchmarks.md): the seed values live in
//! `policy/<version>.json`; every result records the version it was judged under.

use crate::stats::{Indicators, field_size_threshold};
use serde::{Deserialize, Serialize};

/// The shipped policy table.
pub const SHIPPED: &str = include_str!("../policy/seed001-2022.json");

/// Thresholds, z-scores in hundredths.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    pub version: String,
    pub source: String,
    /// 2.00: the customary "significant" z (Regan notes II).
    pub significance: i32,
    /// Quick-test Watch rule: a match indicator and a value indicator at this level...
    pub watch_indicator: i32,
    /// ...over at least this many counted decisions.
    pub min_counted_decisions: u64,
    /// Intrusive action: at least this, rising with the field (odds ≥ this × players).
    pub intrusive_floor: i32,
    pub intrusive_odds_per_player: u32,
    pub pre_identified: i32,
    pub private_follow_up: i32,
    pub referral: i32,
    pub support_with_evidence: i32,
    /// Official FIDE thresholds, shown as context only.
    pub official_online: i32,
    pub official_otb: i32,
    /// Honest performances may raise Watch at most this often (per mille).
    pub nominal_false_watch_per_mille: u32,
    /// Honest performances may reach the significance level on the combined indicator at most
    /// this often (per mille): the one in a thousand.
    pub nominal_false_significant_per_mille: u32,
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
    IntrusiveActionJustified,
    PrivateFollowUp,
    ReferralRecommended,
}

impl FlagLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            FlagLevel::None => "none",
            FlagLevel::Watch => "watch",
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
    /// The baseline bucket is provisional: Watch at most.
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

    /// The flag level, on the published (rounded) values.
    pub fn flag(&self, z: &Indicators, cx: &Context) -> FlagLevel {
        if cx.counted < self.min_counted_decisions {
            return FlagLevel::None;
        }
        let w = self.watch_indicator;
        let watch = (z.z_mm >= w || z.z_t3 >= w) && (z.z_asd >= w || z.z_ev >= w);
        // A quick test only ever justifies discreet actions (Regan notes IV.4).
        if cx.tier == Tier::Quick || cx.provisional {
            return if watch {
                FlagLevel::Watch
            } else {
                FlagLevel::None
            };
        }
        let c = z.z_combined;
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
        if watch || c >= self.significance {
            FlagLevel::Watch
        } else {
            FlagLevel::None
        }
    }
}
