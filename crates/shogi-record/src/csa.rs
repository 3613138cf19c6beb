//! CSA files: the position (`PI`, the `P1`..`P9` rows, `P+`/`P-` pieces, `00` for the
//! hand, `P-00AL` for "the rest to White") and the moves read into a [`Record`], and a
//! position and a line written back.
//!
//! The position and the moves are read with the `csa` crate, which reports only "failed to
//! parse", reads a prefix of the text without saying where it stopped, and panics on a time
//! (`T`) too long for a `u64`. So every statement is first checked here, which names the
//! line of a bad one, and only the statements of the position and the moves reach the crate
//! (comments, the version, attributes, times and the game's end are ours to skip: CSA V3's
//! forms of them are not the crate's V2.2); its moves are then counted against ours, so
//! nothing is dropped unseen.
//!
//! ```
//! use shogi_core::{Move, Position, Relax, Shogi};
//! use shogi_record::csa;
//!
//! // The attacker, to move, may have no king.
//! let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
//! let problem = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
//! let mate = [Move::from_usi::<Shogi>("G*5b").unwrap()];
//! let text = csa::write(&problem, &mate);
//! assert!(text.contains("+0052KI"));
//! let back = csa::read(&text).unwrap();
//! assert_eq!((back.position.to_sfen(), back.moves), (problem.to_sfen(), mate.to_vec()));
//! ```

use crate::{into_position, quoted, Error, Record};
use csa::{Action, PieceType};
use shogi_core::{Color, Move, Piece, PieceKind, Position, Setup, Shogi, Square};

fn kind(t: PieceType) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match t {
        PieceType::Pawn => Pawn,
        PieceType::Lance => Lance,
        PieceType::Knight => Knight,
        PieceType::Silver => Silver,
        PieceType::Gold => Gold,
        PieceType::Bishop => Bishop,
        PieceType::Rook => Rook,
        PieceType::King => King,
        PieceType::ProPawn => ProPawn,
        PieceType::ProLance => ProLance,
        PieceType::ProKnight => ProKnight,
        PieceType::ProSilver => ProSilver,
        PieceType::Horse => Horse,
        PieceType::Dragon => Dragon,
        PieceType::All => return None,
    })
}

fn color(c: csa::Color) -> Color {
    match c {
        csa::Color::Black => Color::Black,
        csa::Color::White => Color::White,
    }
}

fn square(sq: csa::Square) -> Option<Square> {
    if !(1..=9).contains(&sq.file) || !(1..=9).contains(&sq.rank) {
        return None;
    }
    Square::new::<Shogi>(9 - sq.file, sq.rank - 1)
}

/// What one CSA statement is, for the checks before the crate sees the text.
enum Statement {
    /// Comments, the version, attributes, times, the end of the game: not for the crate.
    Skip,
    /// Names and the position: passed on. Its rank in the order the crate reads them:
    /// names, the board, pieces, the side to move.
    Position(u8),
    /// A move: passed on and counted.
    Move,
}

fn classify(s: &str) -> Result<Statement, String> {
    let b = s.as_bytes();
    let piece = |t: &[u8]| {
        t.len() == 2
            && [
                "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
                "AL",
            ]
            .contains(&std::str::from_utf8(t).unwrap_or(""))
    };
    Ok(match b.first() {
        None | Some(b'\'') | Some(b'V') | Some(b'$') | Some(b'%') => Statement::Skip,
        Some(b'T') => {
            // Seconds, with a fraction in CSA V3.
            let t = &s[1..];
            if t.is_empty() || t.len() > 12 || !t.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return Err(format!("{} is no time", quoted(s)));
            }
            Statement::Skip
        }
        Some(b'N') if matches!(b.get(1), Some(b'+' | b'-')) => {
            // A name is the one free text passed on to the crate: a carriage return in it
            // would start a statement there that was never checked (a date the crate
            // panics on, found by the fuzzer).
            if s.chars().any(char::is_control) {
                return Err(format!("{} has a control character", quoted(s)));
            }
            Statement::Position(0)
        }
        Some(b'P') => {
            let ok = match b.get(1) {
                Some(b'I') => b[2..].chunks(4).all(|c| {
                    c.len() == 4 && c[..2].iter().all(u8::is_ascii_digit) && piece(&c[2..])
                }),
                Some(b'1'..=b'9') => {
                    let cells = &b[2..];
                    cells.len() == 27
                        && cells
                            .chunks(3)
                            .all(|c| c == b" * " || (matches!(c[0], b'+' | b'-') && piece(&c[1..])))
                }
                Some(b'+' | b'-') => b[2..].chunks(4).all(|c| {
                    c.len() == 4 && c[..2].iter().all(u8::is_ascii_digit) && piece(&c[2..])
                }),
                _ => false,
            };
            if !ok {
                return Err(format!("{} is no CSA position line", quoted(s)));
            }
            Statement::Position(if matches!(b[1], b'+' | b'-') { 2 } else { 1 })
        }
        Some(b'+' | b'-') if b.len() == 1 => Statement::Position(3),
        Some(b'+' | b'-') => {
            if b.len() != 7 || !b[1..5].iter().all(u8::is_ascii_digit) || !piece(&b[5..]) {
                return Err(format!("{} is no CSA move", quoted(s)));
            }
            Statement::Move
        }
        Some(b'/') => return Err("more than one game in the file: one problem a file".into()),
        _ => return Err(format!("not a statement of CSA: {}", quoted(s))),
    })
}

/// Reads a CSA file's text ([`crate::decode`] makes it of the file's bytes). Errors name
/// the line and what is wrong.
pub fn read(text: &str) -> Result<Record, Error> {
    let mut kept = String::new();
    let mut headers = Vec::new();
    // The line of each move, for the errors the moves' legality gives.
    let mut move_lines = Vec::new();
    let mut moves = 0;
    let mut rank = 0;
    for (i, line) in text.lines().enumerate() {
        // CSA puts several statements on a line with commas, except in comments.
        let parts: Vec<&str> = if line.starts_with('\'') {
            vec![line]
        } else {
            line.split(',').collect()
        };
        for part in parts {
            let mut part = part.trim_end().to_string();
            if part.starts_with('P') && part.as_bytes().get(1).is_some_and(u8::is_ascii_digit) {
                // A board row ends in ` * ` for an empty square: editors trim that space.
                while part.len() < 29 {
                    part.push(' ');
                }
            }
            let part = part.as_str();
            let at = |e: String| Error::at(i + 1, e);
            match classify(part).map_err(at)? {
                Statement::Skip => {
                    if let Some((key, value)) =
                        part.strip_prefix('$').and_then(|a| a.split_once(':'))
                    {
                        headers.push((key.to_string(), value.to_string()));
                    }
                }
                Statement::Position(r) => {
                    if r < rank || r == 3 && rank == 3 || moves > 0 {
                        return Err(at(format!(
                            "{} is out of order (names, the board, pieces, the side to \
                             move, then the moves)",
                            quoted(part)
                        )));
                    }
                    rank = r;
                    if r == 0 {
                        headers.push((part[..2].to_string(), part[2..].to_string()));
                    }
                    kept.push_str(part);
                    kept.push('\n');
                }
                Statement::Move => {
                    if rank != 3 {
                        return Err(at("a move before the side to move (+ or -)".into()));
                    }
                    moves += 1;
                    move_lines.push(i + 1);
                    kept.push_str(part);
                    kept.push('\n');
                }
            }
        }
    }
    let record = csa::parse_csa(&kept).map_err(|_| {
        Error::whole(
            "the csa crate could not read the position (the order of the lines: names, then \
             PI or P1..P9, then P+/P- lines, then + or - for the side to move, then the moves)",
        )
    })?;
    if record.moves.len() != moves {
        return Err(Error::whole(format!(
            "the csa crate read {} of the {moves} moves: a line before move {} is out of order",
            record.moves.len(),
            record.moves.len() + 1
        )));
    }
    let start = &record.start_pos;
    let mut setup = match &start.bulk {
        Some(grid) => {
            let mut s = Setup::<Shogi>::empty();
            for (r, row) in grid.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    if let Some((col, t)) = cell {
                        let k = kind(*t).ok_or_else(|| Error::whole("AL stands on no square"))?;
                        let sq = Square::new::<Shogi>(c as u8, r as u8)
                            .ok_or_else(|| Error::whole("a board row beyond the ninth"))?;
                        s.put(sq, Piece::new(color(*col), k));
                    }
                }
            }
            s
        }
        None if start.add_pieces.is_empty() || !start.drop_pieces.is_empty() => {
            // `PI`: the initial position, less the pieces listed after it.
            let mut s = Setup::<Shogi>::from_sfen(
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            )
            .map_err(|e| Error::whole(e.to_string()))?;
            for (sq, _) in &start.drop_pieces {
                let sq =
                    square(*sq).ok_or_else(|| Error::whole("PI names a square off the board"))?;
                s.take(sq);
            }
            s
        }
        None => Setup::<Shogi>::empty(),
    };
    let mut rest_for = None;
    for (col, sq, t) in &start.add_pieces {
        let col = color(*col);
        if sq.file == 0 && sq.rank == 0 {
            match kind(*t) {
                None if rest_for.is_some_and(|c| c != col) => {
                    return Err(Error::whole("both sides are given the rest (00AL)"))
                }
                None => rest_for = Some(col),
                Some(k) if PieceKind::HAND.contains(&k) => {
                    let n = setup.hand(col).count(k);
                    setup.set_hand(col, k, n.saturating_add(1));
                }
                Some(_) => {
                    return Err(Error::whole(
                        "only unpromoted pieces but the king go in hand",
                    ))
                }
            }
        } else {
            let square = square(*sq).ok_or_else(|| Error::whole("a piece off the board"))?;
            let k = kind(*t).ok_or_else(|| Error::whole("AL stands on no square"))?;
            setup.put(square, Piece::new(col, k));
        }
    }
    setup.set_side_to_move(color(start.side_to_move));
    let position = into_position(setup, rest_for)?;
    let mut pos = position.clone();
    let mut line = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let Action::Move(_, from, to, t) = m.action else {
            break;
        };
        let bad = || {
            Error::at(
                move_lines[i],
                format!("move {}: {} is not legal here", i + 1, m.action),
            )
        };
        let to = square(to).ok_or_else(bad)?;
        let after = kind(t).ok_or_else(bad)?;
        let mv = if from.file == 0 && from.rank == 0 {
            Move::Drop { kind: after, to }
        } else {
            let from = square(from).ok_or_else(bad)?;
            let before = pos.piece_at(from).ok_or_else(bad)?.kind;
            Move::Normal {
                from,
                to,
                promote: before != after,
            }
        };
        pos.play(mv).map_err(|_| bad())?;
        line.push(mv);
    }
    Ok(Record {
        position,
        moves: line,
        headers,
    })
}

/// A kind's two letters in CSA.
fn letters(kind: PieceKind) -> &'static str {
    use PieceKind::*;
    match kind {
        Pawn => "FU",
        Lance => "KY",
        Knight => "KE",
        Silver => "GI",
        Gold => "KI",
        Bishop => "KA",
        Rook => "HI",
        King => "OU",
        ProPawn => "TO",
        ProLance => "NY",
        ProKnight => "NK",
        ProSilver => "NG",
        Horse => "UM",
        Dragon => "RY",
    }
}

fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// The CSA text (V2.2) of `position` and `line`, moves played from it one after the
/// other, each legal: the board as `P1`..`P9` rows, each hand as a `P+`/`P-` line of
/// `00` pieces, the side to move, then the moves, each with the kind it has after it.
pub fn write(position: &Position<Shogi>, line: &[Move]) -> String {
    let mut out = format!(
        "V2.2\n'CSA written by shogi-record {}\n",
        env!("CARGO_PKG_VERSION")
    );
    for rank in 0..9u8 {
        out.push_str(&format!("P{}", rank + 1));
        for x in 0..9u8 {
            match Square::new::<Shogi>(x, rank).and_then(|sq| position.piece_at(sq)) {
                None => out.push_str(" * "),
                Some(p) => {
                    out.push(sign(p.color));
                    out.push_str(letters(p.kind));
                }
            }
        }
        out.push('\n');
    }
    for color in [Color::Black, Color::White] {
        let hand = position.hand(color);
        if PieceKind::HAND.iter().any(|&k| hand.count(k) > 0) {
            out.push('P');
            out.push(sign(color));
            for kind in PieceKind::HAND.into_iter().rev() {
                for _ in 0..hand.count(kind) {
                    out.push_str("00");
                    out.push_str(letters(kind));
                }
            }
            out.push('\n');
        }
    }
    out.push(sign(position.side_to_move()));
    out.push('\n');
    let mut pos = position.clone();
    for &mv in line {
        let (from, to, kind) = match mv {
            Move::Drop { kind, to } => ("00".to_string(), to, kind),
            Move::Normal { from, to, promote } => {
                let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                let kind = if promote {
                    kind.promoted().unwrap_or(kind)
                } else {
                    kind
                };
                let at = format!("{}{}", from.file::<Shogi>(), from.y::<Shogi>() + 1);
                (at, to, kind)
            }
        };
        out.push_str(&format!(
            "{}{from}{}{}{}\n",
            sign(pos.side_to_move()),
            to.file::<Shogi>(),
            to.y::<Shogi>() + 1,
            letters(kind)
        ));
        pos.play_unchecked(mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_with_the_rest_reads() {
        let text =
            "V2.2\n'a comment\nP1 *  *  *  *  *  *  * +TO * \nP2 *  *  *  *  * +HI * -GI * \n\
P3 *  *  *  *  *  * -OU-GI * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  * +KY * -FU * \n\
P6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \n\
P9 *  *  *  *  *  *  *  *  * \nP+00HI\nP-00AL\n+\n+0012HI\nT3\n";
        let p = read(text).unwrap();
        assert_eq!(
            p.position.to_sfen(),
            "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1"
        );
        assert_eq!(p.moves.len(), 1);
        assert_eq!(p.declared_length(), Some(1));
    }

    /// What is written reads back: position, hands, side to move, drops, promotions.
    #[test]
    fn a_written_record_reads_back() {
        let (pos, line) = crate::fixture::problem();
        let text = write(&pos, &line);
        assert!(
            text.contains("\n-0057KA\n") && text.contains("\n-5768UM\n"),
            "{text}"
        );
        assert!(text.contains("\nP-00KA00KI00FU\n"), "{text}");
        let back = read(&format!("N+黒\n$EVENT:test\n{text}")).unwrap();
        assert_eq!(
            back.position.to_sfen().rsplit_once(' ').unwrap().0,
            pos.to_sfen().rsplit_once(' ').unwrap().0
        );
        assert_eq!(back.moves, line);
        assert_eq!(back.header("N+"), Some("黒"));
        assert_eq!(back.header("EVENT"), Some("test"));
    }

    #[test]
    fn bad_files_say_which_line_and_never_panic() {
        for (text, want) in [
            ("PI\n+\nT99999999999999999999999\n", "line 3"),
            ("PI\n+\n+7776XX\n", "line 3"),
            ("PI\n+\n+7775FU\n", "move 1"),
            ("hello\n", "line 1"),
            ("P1 * \n", "line 1"),
            ("PI\n+\n/\n", "one problem a file"),
            ("+\nPI\n", "line 2: `PI` is out of order"),
            // The fuzzer's: a date the crate unwraps, hidden behind a carriage return.
            (
                "\nN+tN\r$@:0001/04/31/",
                "line 2: `N+tN\r$@:0001/04/31/` has a control",
            ),
            ("PI\n+7776FU\n", "before the side to move"),
        ] {
            let e = read(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        let e = read("PI\n+\n'a comment\n+7776FU\n-3334FU\n+7775FU\n").unwrap_err();
        assert_eq!(e.line(), Some(6), "{e}");
    }
}
