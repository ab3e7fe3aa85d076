//! How strongly the engine plays: a Skill Level, an Elo, or a fixed node count.

use shakmaty_uci::{UciMessage, UciOptionConfig};

/// The nodes a move may search at each Elo below what the engine can limit itself to:
/// few nodes and Skill Level 0 play like a beginner.
const ELO_FLOOR: [(u32, u64); 5] = [(400, 1), (600, 20), (800, 100), (1000, 400), (1200, 1500)];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Stockfish's Skill Level, 0 (weakest) to 20.
    Level(u8),
    /// An Elo rating, by UCI_LimitStrength where the engine can play that weakly.
    Elo(u32),
    /// A fixed number of nodes on one thread: the same move every time (for tests).
    Nodes(u64),
    /// Full strength with this many threads and this much hash (MiB): for reviewing games.
    Full { threads: u16, hash_mb: u32 },
}

/// What to tell the engine for a strength, and the node limit of each search (if any).
pub struct Plan {
    pub options: Vec<UciMessage>,
    pub nodes: Option<u64>,
}

impl Strength {
    /// The options for this strength, given the options the engine offers.
    pub fn plan(self, offered: &[UciOptionConfig]) -> Plan {
        let set = |name: &str, value: String| UciMessage::SetOption {
            name: name.to_owned(),
            value: Some(value),
        };
        let spin = |name: &str| {
            offered.iter().find_map(|o| match o {
                UciOptionConfig::Spin {
                    name: n, min, max, ..
                } if n == name => Some((min.unwrap_or(i64::MIN), max.unwrap_or(i64::MAX))),
                _ => None,
            })
        };
        match self {
            Strength::Level(level) => {
                let level = i64::from(level.min(20));
                let options = spin("Skill Level")
                    .map(|(min, max)| vec![set("Skill Level", level.clamp(min, max).to_string())])
                    .unwrap_or_default();
                Plan {
                    options,
                    nodes: None,
                }
            }
            Strength::Elo(elo) => match spin("UCI_Elo") {
                Some((min, max)) if i64::from(elo) >= min => Plan {
                    options: vec![
                        set("UCI_LimitStrength", "true".into()),
                        set("UCI_Elo", i64::from(elo).min(max).to_string()),
                    ],
                    nodes: None,
                },
                // Below the engine's floor: the weakest skill and a node budget by Elo.
                _ => Plan {
                    options: spin("Skill Level")
                        .map(|_| vec![set("Skill Level", "0".into())])
                        .unwrap_or_default(),
                    nodes: Some(nodes_for_elo(elo)),
                },
            },
            Strength::Full { threads, hash_mb } => {
                let mut options = Vec::new();
                if let Some((min, max)) = spin("Threads") {
                    options.push(set(
                        "Threads",
                        i64::from(threads).clamp(min, max).to_string(),
                    ));
                }
                if let Some((min, max)) = spin("Hash") {
                    options.push(set("Hash", i64::from(hash_mb).clamp(min, max).to_string()));
                }
                Plan {
                    options,
                    nodes: None,
                }
            }
            Strength::Nodes(nodes) => Plan {
                options: spin("Threads")
                    .map(|_| vec![set("Threads", "1".into())])
                    .unwrap_or_default(),
                nodes: Some(nodes.max(1)),
            },
        }
    }

    /// How the player tags of a PGN name the engine's strength.
    pub fn describe(self) -> String {
        match self {
            Strength::Level(level) => format!("level {level}"),
            Strength::Elo(elo) => format!("Elo {elo}"),
            Strength::Nodes(nodes) => format!("{nodes} nodes"),
            Strength::Full { .. } => "full strength".into(),
        }
    }
}

/// The node budget of an Elo below what the engine limits itself to (the README's table).
pub fn nodes_for_elo(elo: u32) -> u64 {
    ELO_FLOOR
        .iter()
        .rev()
        .find(|(floor, _)| elo >= *floor)
        .map_or(ELO_FLOOR[0].1, |(_, nodes)| *nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stockfish_options() -> Vec<UciOptionConfig> {
        [
            "option name Threads type spin default 1 min 1 max 1024",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1320 min 1320 max 3190",
        ]
        .iter()
        .map(|line| match line.parse() {
            Ok(UciMessage::Option(option)) => option,
            other => panic!("{line}: {other:?}"),
        })
        .collect()
    }

    fn lines(plan: &Plan) -> Vec<String> {
        plan.options.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn an_elo_the_engine_can_play_uses_its_own_limit() {
        let plan = Strength::Elo(1600).plan(&stockfish_options());
        assert_eq!(
            lines(&plan),
            [
                "setoption name UCI_LimitStrength value true",
                "setoption name UCI_Elo value 1600"
            ]
        );
        assert_eq!(plan.nodes, None);
    }

    #[test]
    fn an_elo_below_the_engine_floor_falls_back_to_skill_and_nodes() {
        let plan = Strength::Elo(700).plan(&stockfish_options());
        assert_eq!(lines(&plan), ["setoption name Skill Level value 0"]);
        assert_eq!(plan.nodes, Some(20));
        assert!(nodes_for_elo(300) < nodes_for_elo(1100));
    }

    #[test]
    fn levels_and_nodes_set_what_the_engine_offers() {
        let plan = Strength::Level(25).plan(&stockfish_options());
        assert_eq!(lines(&plan), ["setoption name Skill Level value 20"]);
        let plan = Strength::Nodes(5000).plan(&stockfish_options());
        assert_eq!(lines(&plan), ["setoption name Threads value 1"]);
        assert_eq!(plan.nodes, Some(5000));
        // An engine without those options gets none.
        assert!(Strength::Level(3).plan(&[]).options.is_empty());
    }
}
