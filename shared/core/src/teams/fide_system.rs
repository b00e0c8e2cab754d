//! The options of FIDE's Swiss Team Pairing System (handbook C.04.6) that an event fixes: its
//! colour model and whether the secondary score decides colours. The engine is arbiter-teams'.

/// The colour preferences of Art. 1.7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColourModel {
    /// Art. 1.7.1, the default: one strength of preference.
    TypeA,
    /// Art. 1.7.2: strong and mild preferences.
    TypeB,
    /// No colour preferences at all.
    None,
}

impl ColourModel {
    /// The name used in rule sets and on the command line: `a`, `b` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            ColourModel::TypeA => "a",
            ColourModel::TypeB => "b",
            ColourModel::None => "none",
        }
    }
}

/// The options of a C.04.6 event that the pairing reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FideTeamSystem {
    pub colours: ColourModel,
    /// Art. 1.2: whether the secondary score decides the first-team of a match (Art. 4.2.2).
    /// The default of Art. 1.2.2 is yes.
    pub secondary_for_colours: bool,
}

impl FideTeamSystem {
    /// Prefix of the rule sets that name this system.
    pub const PREFIX: &'static str = "fide-team";

    /// The rule set's name: `fide-team-a`, `fide-team-b`, `fide-team-none`, with
    /// `-primary-only` when the secondary score is not used for colours.
    pub fn rule_set(self) -> String {
        format!(
            "{}-{}{}",
            Self::PREFIX,
            self.colours.name(),
            if self.secondary_for_colours {
                ""
            } else {
                "-primary-only"
            }
        )
    }

    /// The TRF-2026 type code (record `192`): the colour model (`TYPEA`, `TYPEB`, nothing
    /// for no preferences), then the primary score and, when the secondary decides colours,
    /// the secondary, e.g. `FIDE_TEAM_TYPEB_MP_GP` or `FIDE_TEAM_GP`.
    pub fn type_code(self, primary: super::TeamScore) -> String {
        let model = match self.colours {
            ColourModel::TypeA => "_TYPEA",
            ColourModel::TypeB => "_TYPEB",
            ColourModel::None => "",
        };
        let (p, s) = match primary {
            super::TeamScore::MatchPoints => ("MP", "GP"),
            super::TeamScore::GamePoints => ("GP", "MP"),
        };
        if self.secondary_for_colours {
            format!("FIDE_TEAM{model}_{p}_{s}")
        } else {
            format!("FIDE_TEAM{model}_{p}")
        }
    }

    /// Reads a type code written by [`type_code`](Self::type_code) (without `_BAKU`): the
    /// system and the primary score. `FIDE_TEAM` alone is type A on match points, game points
    /// deciding colours (C.04.6 Art. 1.2.2 and 1.7).
    pub fn from_type_code(code: &str) -> Option<(FideTeamSystem, super::TeamScore)> {
        let rest = code.trim().strip_prefix("FIDE_TEAM")?;
        let (colours, rest) = if let Some(r) = rest.strip_prefix("_TYPEA") {
            (ColourModel::TypeA, r)
        } else if let Some(r) = rest.strip_prefix("_TYPEB") {
            (ColourModel::TypeB, r)
        } else if rest.is_empty() {
            (ColourModel::TypeA, "_MP_GP")
        } else {
            (ColourModel::None, rest)
        };
        let (primary, secondary) = match rest {
            "_MP_GP" => (super::TeamScore::MatchPoints, true),
            "_GP_MP" => (super::TeamScore::GamePoints, true),
            "_MP" => (super::TeamScore::MatchPoints, false),
            "_GP" => (super::TeamScore::GamePoints, false),
            _ => return None,
        };
        Some((
            FideTeamSystem {
                colours,
                secondary_for_colours: secondary,
            },
            primary,
        ))
    }

    /// Reads a rule set written by [`rule_set`](Self::rule_set); `None` for any other.
    pub fn parse(rule_set: &str) -> Option<FideTeamSystem> {
        let rest = rule_set.strip_prefix(Self::PREFIX)?.strip_prefix('-')?;
        let (model, secondary) = match rest.strip_suffix("-primary-only") {
            Some(m) => (m, false),
            None => (rest, true),
        };
        let colours = match model {
            "a" => ColourModel::TypeA,
            "b" => ColourModel::TypeB,
            "none" => ColourModel::None,
            _ => return None,
        };
        Some(FideTeamSystem {
            colours,
            secondary_for_colours: secondary,
        })
    }
}
