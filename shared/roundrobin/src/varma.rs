//! Varma tables: the restricted drawing of lots of C.05 §5.2–5.3 and its Annex 2, which controls
//! when players of one federation meet in a round robin of 9 to 24 players. The groups are the
//! annex's data (they cannot be derived); the procedure is its steps 1–4:
//!
//! 1. each group's numbers are in one large envelope;
//! 2. drawing order: the federation with the most players first, equal numbers by FIDE code,
//!    players of one federation by name;
//! 3. a federation's first player chooses a large envelope holding at least as many numbers as
//!    his federation has players and draws a number; his compatriots draw from the same one;
//! 4. the next federation draws the same way, until everyone has a number.
//!
//! The choices themselves (which envelope, which number) are the lots: [`varma_draw`] asks a
//! caller-supplied source for each one, so an arbiter's recorded draw and an auditable random
//! source run the same procedure.

use std::collections::BTreeMap;

/// The four groups of one Varma table: (name, Berger numbers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarmaTable {
    /// The even table size (an odd field uses the table of n + 1; its highest number rests).
    pub table_size: u32,
    pub groups: [(char, &'static [u32]); 4],
}

/// C.05 Annex 2, by table size (Arbiters' Manual 2023 "ANEXO II TABLAS VARMA", the Spanish Arbiters' Manual "Anexo 2": the same numbers).
const TABLES: [(u32, [&[u32]; 4]); 8] = [
    (10, [&[3, 4, 8], &[5, 7, 9], &[1, 6], &[2, 10]]),
    (12, [&[4, 5, 9, 10], &[1, 2, 7], &[6, 8, 12], &[3, 11]]),
    (
        14,
        [&[4, 5, 6, 11, 12], &[1, 2, 8, 9], &[7, 10, 13], &[3, 14]],
    ),
    (
        16,
        [
            &[5, 6, 7, 12, 13, 14],
            &[1, 2, 3, 9, 10],
            &[8, 11, 15],
            &[4, 16],
        ],
    ),
    (
        18,
        [
            &[5, 6, 7, 8, 14, 15, 16],
            &[1, 2, 3, 10, 11, 12],
            &[9, 13, 17],
            &[4, 18],
        ],
    ),
    (
        20,
        [
            &[6, 7, 8, 9, 15, 16, 17, 18],
            &[1, 2, 3, 11, 12, 13, 14],
            &[5, 10, 19],
            &[4, 20],
        ],
    ),
    (
        22,
        [
            &[6, 7, 8, 9, 10, 17, 18, 19, 20],
            &[1, 2, 3, 4, 12, 13, 14, 15],
            &[11, 16, 21],
            &[5, 22],
        ],
    ),
    (
        24,
        [
            &[6, 7, 8, 9, 10, 11, 19, 20, 21, 22],
            &[1, 2, 3, 4, 13, 14, 15, 16, 17],
            &[12, 18, 23],
            &[5, 24],
        ],
    ),
];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VarmaError {
    #[error("the Varma tables are for 9 to 24 players (C.05 §5.3), not {0}")]
    Players(u32),
    #[error(
        "federation {federation:?} has {players} players but no envelope holds that many numbers any more (largest: {largest}); the annex gives no rule for this: draw its players without restriction"
    )]
    FederationTooLarge {
        federation: String,
        players: usize,
        largest: usize,
    },
    #[error("the lot source chose option {chosen} of {options}")]
    BadLot { chosen: usize, options: usize },
}

/// The Varma table for a field of `players`.
pub fn varma_table(players: u32) -> Result<VarmaTable, VarmaError> {
    if !(9..=24).contains(&players) {
        return Err(VarmaError::Players(players));
    }
    let size = players + players % 2;
    let (_, g) = TABLES
        .iter()
        .find(|(s, _)| *s == size)
        .ok_or(VarmaError::Players(players))?;
    Ok(VarmaTable {
        table_size: size,
        groups: [('A', g[0]), ('B', g[1]), ('C', g[2]), ('D', g[3])],
    })
}

/// For each group, the Berger rounds in which two of its numbers meet (sorted, one entry per
/// pair), for the arbiter to see what the table gives (the annex states no design goal).
pub fn same_group_meetings(t: &VarmaTable) -> Vec<(char, Vec<u32>)> {
    let rounds = crate::berger(t.table_size).unwrap_or_default();
    t.groups
        .iter()
        .map(|&(name, numbers)| {
            let mut met: Vec<u32> = rounds
                .iter()
                .enumerate()
                .flat_map(|(i, r)| {
                    r.games
                        .iter()
                        .filter(|(w, b)| numbers.contains(w) && numbers.contains(b))
                        .map(move |_| i as u32 + 1)
                })
                .collect();
            met.sort_unstable();
            (name, met)
        })
        .collect()
}

/// A player of the draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    /// FIDE federation code.
    pub federation: String,
}

/// Step 2: the entrants' indices in drawing order (most players per federation first, equal
/// counts by federation code, then by name; equal names keep their order).
pub fn drawing_order(entrants: &[Entrant]) -> Vec<usize> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for e in entrants {
        *count.entry(e.federation.as_str()).or_default() += 1;
    }
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&entrants[a], &entrants[b]);
        count[y.federation.as_str()]
            .cmp(&count[x.federation.as_str()])
            .then_with(|| x.federation.cmp(&y.federation))
            .then_with(|| x.name.cmp(&y.name))
    });
    order
}

/// The federations in drawing order, each with its players' indices in drawing order.
fn federations_in_drawing_order(entrants: &[Entrant]) -> Vec<(&str, Vec<usize>)> {
    let mut out: Vec<(&str, Vec<usize>)> = Vec::new();
    for j in drawing_order(entrants) {
        let federation = entrants[j].federation.as_str();
        match out.last_mut() {
            Some((f, members)) if *f == federation => members.push(j),
            _ => out.push((federation, vec![j])),
        }
    }
    out
}

/// One choice the draw asks its lot source for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lot<'a> {
    /// A federation's first player chooses one of these envelopes (groups holding enough
    /// numbers for his federation).
    Envelope {
        federation: &'a str,
        options: Vec<char>,
    },
    /// A player draws one of the numbers left in his federation's envelope.
    Number {
        player: &'a str,
        group: char,
        options: Vec<u32>,
    },
    /// An unrestricted draw ([`crate::lots::unrestricted_draw`]): a player draws one of the
    /// numbers left.
    Open { player: &'a str, options: Vec<u32> },
}

impl Lot<'_> {
    /// How many options the choice offers.
    pub fn options(&self) -> usize {
        match self {
            Lot::Envelope { options, .. } => options.len(),
            Lot::Number { options, .. } | Lot::Open { options, .. } => options.len(),
        }
    }
}

/// Steps 3–4: every entrant's pairing number (in the order of `entrants`). `lot` answers each
/// choice with the index of the option taken. An odd field draws from the table of n + 1
/// without its highest number (the rest).
pub fn varma_draw(
    entrants: &[Entrant],
    mut lot: impl FnMut(&Lot<'_>) -> usize,
) -> Result<Vec<u32>, VarmaError> {
    let n = entrants.len() as u32;
    let table = varma_table(n)?;
    let bye = (n % 2 == 1).then_some(table.table_size);
    let mut left: Vec<(char, Vec<u32>)> = table
        .groups
        .iter()
        .map(|&(g, nums)| {
            (
                g,
                nums.iter().copied().filter(|&x| Some(x) != bye).collect(),
            )
        })
        .collect();
    let mut take = |l: Lot<'_>| -> Result<usize, VarmaError> {
        let chosen = lot(&l);
        if chosen < l.options() {
            Ok(chosen)
        } else {
            Err(VarmaError::BadLot {
                chosen,
                options: l.options(),
            })
        }
    };
    let mut numbers = vec![0u32; entrants.len()];
    for (federation, members) in federations_in_drawing_order(entrants) {
        let options: Vec<char> = left
            .iter()
            .filter(|(_, nums)| nums.len() >= members.len())
            .map(|(g, _)| *g)
            .collect();
        if options.is_empty() {
            return Err(VarmaError::FederationTooLarge {
                federation: federation.to_string(),
                players: members.len(),
                largest: left.iter().map(|(_, v)| v.len()).max().unwrap_or(0),
            });
        }
        let group = options[take(Lot::Envelope {
            federation,
            options: options.clone(),
        })?];
        let envelope = &mut left
            .iter_mut()
            .find(|(g, _)| *g == group)
            .expect("chosen")
            .1;
        for &j in &members {
            let k = take(Lot::Number {
                player: &entrants[j].name,
                group,
                options: envelope.clone(),
            })?;
            numbers[j] = envelope.remove(k);
        }
    }
    Ok(numbers)
}

/// Why recorded numbers cannot be the result of the restricted draw.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VarmaCheckError {
    #[error(transparent)]
    Table(#[from] VarmaError),
    #[error("{given} numbers for {players} players")]
    Count { given: usize, players: usize },
    #[error("number {number} (player {player:?}) is not in the table's numbers 1..={max}")]
    OutOfRange {
        player: String,
        number: u32,
        max: u32,
    },
    #[error("number {number} is given to both {first:?} and {second:?}")]
    Twice {
        number: u32,
        first: String,
        second: String,
    },
    #[error(
        "the players of federation {federation:?} drew from one envelope (C.05 Annex 2 step 3), but their numbers {numbers:?} are in groups {groups:?}"
    )]
    NotOneEnvelope {
        federation: String,
        numbers: Vec<u32>,
        groups: Vec<char>,
    },
    #[error(
        "federation {federation:?} drew from envelope {group} at its turn, when it no longer held {players} numbers (C.05 Annex 2 steps 2-3: the larger federations draw first)"
    )]
    EnvelopeTooSmall {
        federation: String,
        group: char,
        players: usize,
    },
}

/// Whether `numbers` (each entrant's pairing number, in the order of `entrants`) can be the
/// result of the restricted draw: a permutation of the table's numbers (without the rest of
/// an odd field), each federation's numbers from one group, and that group still holding
/// enough numbers at the federation's turn in the drawing order. For a draw made in the hall
/// with envelopes and recorded by the arbiter.
pub fn check_varma_draw(entrants: &[Entrant], numbers: &[u32]) -> Result<(), VarmaCheckError> {
    let n = entrants.len();
    if numbers.len() != n {
        return Err(VarmaCheckError::Count {
            given: numbers.len(),
            players: n,
        });
    }
    let table = varma_table(n as u32)?;
    let mut owner: Vec<Option<usize>> = vec![None; n + 1];
    for (i, &x) in numbers.iter().enumerate() {
        if x == 0 || x as usize > n {
            return Err(VarmaCheckError::OutOfRange {
                player: entrants[i].name.clone(),
                number: x,
                max: n as u32,
            });
        }
        if let Some(j) = owner[x as usize] {
            return Err(VarmaCheckError::Twice {
                number: x,
                first: entrants[j].name.clone(),
                second: entrants[i].name.clone(),
            });
        }
        owner[x as usize] = Some(i);
    }
    let group_of = |x: u32| {
        table
            .groups
            .iter()
            .find(|(_, nums)| nums.contains(&x))
            .map(|(g, _)| *g)
    };
    let bye = (n % 2 == 1).then_some(table.table_size);
    let mut left: Vec<(char, usize)> = table
        .groups
        .iter()
        .map(|&(g, nums)| (g, nums.iter().filter(|&&x| Some(x) != bye).count()))
        .collect();
    for (federation, members) in federations_in_drawing_order(entrants) {
        let mut fed_numbers: Vec<u32> = members.iter().map(|&j| numbers[j]).collect();
        fed_numbers.sort_unstable();
        let mut groups: Vec<char> = fed_numbers.iter().filter_map(|&x| group_of(x)).collect();
        groups.dedup();
        groups.sort_unstable();
        groups.dedup();
        if groups.len() != 1 {
            return Err(VarmaCheckError::NotOneEnvelope {
                federation: federation.to_string(),
                numbers: fed_numbers,
                groups,
            });
        }
        let slot = left
            .iter_mut()
            .find(|(g, _)| *g == groups[0])
            .expect("every number is in a group");
        // The envelope must have held enough numbers when the federation chose it.
        if slot.1 < members.len() {
            return Err(VarmaCheckError::EnvelopeTooSmall {
                federation: federation.to_string(),
                group: groups[0],
                players: members.len(),
            });
        }
        slot.1 -= members.len();
    }
    Ok(())
}
