//! The kinds of node of the one df-pn search that serves the mate and the possible pass
//! count (docs/METHOD.md §13): the attacker to move, the defender in check, and the
//! defender after a quiet move, each with the passes the defender may still be given.
//!
//! With no pass left a node is a node of the mate search, keyed as its position alone, so
//! that the pass count's search of "pc ≤ 0" is the mate search itself, node for node.

use crate::keys::extend_path;
use shogi_core::Square;

/// The defender moves considered besides the pass after a quiet attacker move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Defense {
    /// None: the threatmate search.
    #[default]
    None,
    /// Captures of the piece the attacker just moved.
    Takeback,
    /// Every legal move: the brinkmate search.
    All,
}

impl Defense {
    /// The three sets, smallest first.
    pub const ALL: [Defense; 3] = [Defense::None, Defense::Takeback, Defense::All];

    /// The name on the command line and in output: `none`, `takeback`, `all`.
    pub const fn name(self) -> &'static str {
        match self {
            Defense::None => "none",
            Defense::Takeback => "takeback",
            Defense::All => "all",
        }
    }
}

/// What kind of position a node is, beyond the position itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The attacker to move (an OR node).
    Attack,
    /// The defender to move, in check.
    Evade,
    /// The defender to move after the attacker's quiet move to `to`: it may pass, or play
    /// a move of the defence set.
    Quiet { to: Square },
}

/// A node of the search: its kind and the passes still allowed, to prove "pc ≤ bound".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub kind: Kind,
    pub bound: u32,
}

impl Node {
    /// A node of the mate search: the attacker to move (`or_node`) or the defender in check,
    /// no pass allowed.
    #[inline]
    pub const fn mate(or_node: bool) -> Node {
        Node {
            kind: if or_node { Kind::Attack } else { Kind::Evade },
            bound: 0,
        }
    }

    /// Whether the attacker is to move.
    #[inline]
    pub fn is_or(self) -> bool {
        self.kind == Kind::Attack
    }

    /// Whether results are kept for exact hands: with passes allowed, proof and disproof
    /// pieces are not worked out (their rules, docs/METHOD.md §12, are about checks and
    /// replies), and a node's own hand stands for them. The table still answers by
    /// superiority, which holds for the pass count too: more pieces for the attacker are
    /// more moves for it and fewer for the defender, passes and takebacks unchanged.
    #[inline]
    pub fn exact(self) -> bool {
        self.bound > 0
    }

    /// The key of this node in a position with key `key` (a table key or a full key): the
    /// key itself for a node of the mate search, else mixed with the kind and the bound
    /// (and, for takeback, the square the attacker moved to, which decides what the
    /// defence set holds), and odd as table keys are.
    #[inline]
    pub fn key(self, key: u64, defense: Defense) -> u64 {
        if self.bound == 0 {
            return key;
        }
        let tag = match self.kind {
            Kind::Attack => 1u64,
            Kind::Evade => 2,
            Kind::Quiet { to } if defense == Defense::Takeback => {
                3 + ((to.index() as u64 + 1) << 2)
            }
            Kind::Quiet { .. } => 3,
        };
        extend_path(key, tag | (self.bound as u64) << 16) | 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Shogi;

    #[test]
    fn a_mate_node_is_keyed_as_its_position() {
        assert_eq!(Node::mate(true).key(0x1235, Defense::All), 0x1235);
        assert_eq!(Node::mate(false).key(0x1234, Defense::None), 0x1234);
        assert!(Node::mate(true).is_or() && !Node::mate(false).is_or());
        assert!(!Node::mate(true).exact());
    }

    #[test]
    fn bounds_kinds_and_takeback_squares_key_apart() {
        let sq = |usi: &str| Square::from_usi::<Shogi>(usi).unwrap();
        let attack = |bound| Node {
            kind: Kind::Attack,
            bound,
        };
        let quiet = |to| Node {
            kind: Kind::Quiet { to: sq(to) },
            bound: 1,
        };
        let k = 0x9999;
        let keys = [
            attack(1).key(k, Defense::None),
            attack(2).key(k, Defense::None),
            quiet("5e").key(k, Defense::None),
            quiet("5e").key(k, Defense::Takeback),
            quiet("4e").key(k, Defense::Takeback),
        ];
        for (i, a) in keys.iter().enumerate() {
            assert_eq!(a & 1, 1);
            assert!(keys[i + 1..].iter().all(|b| a != b), "{keys:?}");
        }
        // The square only matters for takeback.
        assert_eq!(
            quiet("5e").key(k, Defense::All),
            quiet("4e").key(k, Defense::All)
        );
        assert!(attack(1).exact());
        assert_eq!(Defense::ALL.map(Defense::name), ["none", "takeback", "all"]);
    }
}
