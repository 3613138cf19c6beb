//! The records `mate` and `pass-count` print for one position.

use serde::Serialize;
use shogi_core::Game;
use shogi_mate::{Defense, MateResult, PackedHand, PassResult, PassVerdict};

/// One line of `mate --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MateRecord {
    /// The input SFEN, as given.
    pub sfen: String,
    /// `shogi` or `mini`; empty for an invalid input.
    pub game: &'static str,
    /// `mate`, `no-mate`, `unknown`, or `invalid` for an input that is no position.
    pub verdict: &'static str,
    /// The length of the mating line in plies, for a mate.
    pub plies: Option<usize>,
    /// The mating line in USI: the attacker's checks and the defender's longest resistance
    /// found in the proof; empty unless mate.
    pub moves: Vec<String>,
    /// For a mate: `true` when the line was planned by minimax over the proofs (its length
    /// is at least the shortest mate's), `false` when it follows stored lengths (a legal
    /// mating line whose length bounds nothing); `null` otherwise.
    pub line_minimax: Option<bool>,
    /// With `--shortest`, the proved length of the shortest mate in plies; `null` without
    /// it, or when a search of the shortest ran out of nodes.
    pub shortest: Option<u32>,
    /// `true` when the node limit or a stop (USI's time limit, Python's Ctrl-C) ended a
    /// search before the answer was complete: the reason for `unknown`, or, with
    /// `--shortest`, a mate whose length was not proved the shortest.
    pub cut: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// The proof pieces of a mate, the disproof pieces of a no-mate, as a SFEN hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pieces: Option<String>,
    /// Why the input is no position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Table look-ups answered by the exact hand.
    pub exact_hits: u64,
    /// Table look-ups answered by a superior or inferior hand.
    pub superior_hits: u64,
    /// The share of the table in use at the end, to 6 decimals.
    pub table_fill: f64,
    /// Entries the table's garbage collections removed to make room.
    pub replaced: u64,
    /// Garbage collections of the table.
    pub collections: u64,
}

impl MateRecord {
    /// The record of a search of game `G` on `sfen`.
    pub fn new<G: Game>(sfen: &str, r: &MateResult) -> Self {
        MateRecord {
            sfen: sfen.to_string(),
            game: G::NAME,
            verdict: r.verdict.name(),
            plies: r.plies(),
            moves: r.moves.iter().map(|m| m.to_usi::<G>()).collect(),
            line_minimax: (r.verdict == shogi_mate::Verdict::Mate).then_some(r.line_minimax),
            shortest: r.shortest,
            cut: r.cut,
            nodes: r.stats.nodes,
            pieces: r.pieces.map(|h| PackedHand::new(&h).to_string()),
            error: None,
            exact_hits: r.stats.table.exact_hits,
            superior_hits: r.stats.table.superior_hits,
            table_fill: (r.stats.table_fill * 1e6).round() / 1e6,
            replaced: r.stats.table.replaced,
            collections: r.stats.table.collections,
        }
    }

    /// The record of an input that is no legal position.
    pub fn invalid(sfen: &str, error: &str) -> Self {
        MateRecord {
            sfen: sfen.to_string(),
            game: "",
            verdict: "invalid",
            plies: None,
            moves: Vec::new(),
            line_minimax: None,
            shortest: None,
            cut: false,
            nodes: 0,
            pieces: None,
            error: Some(error.to_string()),
            exact_hits: 0,
            superior_hits: 0,
            table_fill: 0.0,
            replaced: 0,
            collections: 0,
        }
    }

    /// The text line: `<verdict> <plies> <nodes> <sfen> <moves...>`, `-` for no plies.
    pub fn text(&self) -> String {
        let plies = self.plies.map_or("-".to_string(), |p| p.to_string());
        let mut s = format!("{} {plies} {} {}", self.verdict, self.nodes, self.sfen);
        for m in &self.moves {
            s.push(' ');
            s.push_str(m);
        }
        s
    }
}

/// One line of `pass-count --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PassRecord {
    /// The input SFEN, as given.
    pub sfen: String,
    /// `shogi` or `mini`; empty for an invalid input.
    pub game: &'static str,
    /// The defence set ([`Defense::name`]).
    pub defense: &'static str,
    /// `proved`, `pass-limit`, `unknown`, or `invalid` for an input that is no position.
    pub verdict: &'static str,
    /// The possible pass count, when proved.
    pub passes: Option<u32>,
    /// The attacker's first move of the proof in USI, when proved.
    #[serde(rename = "move")]
    pub first_move: Option<String>,
    /// Nodes searched, all counts together.
    pub nodes: u64,
    /// Why the input is no position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PassRecord {
    /// The record of a search of game `G` on `sfen` with the defence set `defense`.
    pub fn new<G: Game>(sfen: &str, defense: Defense, r: &PassResult) -> Self {
        let proved = r.verdict == PassVerdict::Proved;
        PassRecord {
            sfen: sfen.to_string(),
            game: G::NAME,
            defense: defense.name(),
            verdict: r.verdict.name(),
            passes: r.passes.filter(|_| proved),
            first_move: r.first_move.filter(|_| proved).map(|m| m.to_usi::<G>()),
            nodes: r.nodes,
            error: None,
        }
    }

    /// The record of an input that is no legal position.
    pub fn invalid(sfen: &str, defense: Defense, error: &str) -> Self {
        PassRecord {
            sfen: sfen.to_string(),
            game: "",
            defense: defense.name(),
            verdict: "invalid",
            passes: None,
            first_move: None,
            nodes: 0,
            error: Some(error.to_string()),
        }
    }

    /// The text line: `<verdict> <passes> <nodes> <sfen> <move>`, `-` for no count or move.
    pub fn text(&self) -> String {
        let passes = self.passes.map_or("-".into(), |n| n.to_string());
        let mv = self.first_move.as_deref().unwrap_or("-");
        format!(
            "{} {passes} {} {} {mv}",
            self.verdict, self.nodes, self.sfen
        )
    }
}

/// One finding of `check-tsume --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlawRecord {
    /// `alternative-mate`, `shorter-mate`, `no-mate`, `pieces-left`, `equal-variation`,
    /// `longer-variation`, or the tolerated `last-move-alternative` and `unlimited`.
    pub kind: &'static str,
    /// Whether it makes the problem flawed (`false` for the tolerated kinds).
    pub flaw: bool,
    /// The ply of the main line where it shows, from 1 (0: the problem as a whole).
    pub ply: u32,
    /// The moves that show it in USI, played from the position before that ply.
    pub moves: Vec<String>,
    /// For `pieces-left`, the pieces left in the attacker's hand, as a SFEN hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pieces: Option<String>,
}

/// One line of `check-tsume --json`: the report of docs/METHOD.md §11.7 on one problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TsumeRecord {
    /// The problem's position as SFEN.
    pub sfen: String,
    /// `shogi` or `mini`; empty for an invalid input.
    pub game: &'static str,
    /// `sound`, `flawed`, `no-mate`, `unknown`, or `invalid` for an input that is no
    /// problem.
    pub verdict: &'static str,
    /// The proved length under the conventions, in plies; `null` unless proved.
    pub length: Option<u32>,
    /// The declared length (`--declared`, or the length of the file's recorded solution).
    pub declared: Option<u32>,
    /// The main line in USI.
    pub main_line: Vec<String>,
    /// The findings, by ply.
    pub flaws: Vec<FlawRecord>,
    /// Questions a limit left undecided.
    pub undecided: u32,
    /// Nodes searched, all questions together.
    pub nodes: u64,
    /// Why the input is no problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl TsumeRecord {
    /// The record of the report `r` on the problem `sfen` of game `G`.
    pub fn new<G: Game>(sfen: &str, r: &shogi_mate::Report) -> Self {
        let usi = |moves: &[shogi_core::Move]| moves.iter().map(|m| m.to_usi::<G>()).collect();
        TsumeRecord {
            sfen: sfen.to_string(),
            game: G::NAME,
            verdict: r.verdict.name(),
            length: r.length,
            declared: r.declared,
            main_line: usi(&r.main_line),
            flaws: r
                .flaws
                .iter()
                .map(|f| FlawRecord {
                    kind: f.kind.name(),
                    flaw: f.kind.is_flaw(),
                    ply: f.ply,
                    moves: usi(&f.moves),
                    pieces: f.pieces.as_ref().map(|h| PackedHand::new(h).to_string()),
                })
                .collect(),
            undecided: r.undecided,
            nodes: r.nodes,
            error: None,
        }
    }

    /// The record of an input that is no problem.
    pub fn invalid(sfen: &str, error: &str) -> Self {
        TsumeRecord {
            sfen: sfen.to_string(),
            game: "",
            verdict: "invalid",
            length: None,
            declared: None,
            main_line: Vec::new(),
            flaws: Vec::new(),
            undecided: 0,
            nodes: 0,
            error: Some(error.to_string()),
        }
    }

    /// The text line: `<verdict> <length> <declared> <nodes> <sfen>`, `-` for what is
    /// missing, then `line <moves...>` for a mate and `flaw <kind>@<ply> <moves...>` (or
    /// `tolerated ...`) for each finding, the moves joined by commas.
    pub fn text(&self) -> String {
        let n = |v: Option<u32>| v.map_or("-".to_string(), |p| p.to_string());
        let mut s = format!(
            "{} {} {} {} {}",
            self.verdict,
            n(self.length),
            n(self.declared),
            self.nodes,
            self.sfen
        );
        if !self.main_line.is_empty() {
            s.push_str(" line ");
            s.push_str(&self.main_line.join(" "));
        }
        for f in &self.flaws {
            let what = if f.flaw { "flaw" } else { "tolerated" };
            s.push_str(&format!(" {what} {}@{}", f.kind, f.ply));
            if let Some(p) = &f.pieces {
                s.push_str(&format!(" pieces {p}"));
            } else if !f.moves.is_empty() {
                s.push(' ');
                s.push_str(&f.moves.join(","));
            }
        }
        s
    }
}
