//! CSA problem files, read with the `csa` crate: the position (`PI`, the `P1`..`P9` rows,
//! `P+`/`P-` pieces, `00` for the hand, `P-00AL` for "the rest to White") and the moves.
//!
//! The crate reports only "failed to parse", reads a prefix of the text without saying where
//! it stopped, and panics on a time (`T`) too long for a `u64`. So every statement is first
//! checked here, which names the line of a bad one, and only the statements of the position
//! and the moves reach the crate (comments, the version, attributes, times and the game's end
//! are ours to skip: CSA V3's forms of them are not the crate's V2.2); its moves are then
//! counted against ours, so nothing is dropped unseen.

use crate::kif::Problem;
use crate::quote::quoted;
use csa::{Action, PieceType};
use shogi_core::{Color, Move, Piece, PieceKind, Setup, Shogi, Square};

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
        Some(b'N') if matches!(b.get(1), Some(b'+' | b'-')) => Statement::Position(0),
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

/// Reads a CSA file's text. Errors name the line.
pub fn read(text: &str) -> Result<Problem, String> {
    let mut kept = String::new();
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
            let at = |e: String| format!("line {}: {e}", i + 1);
            match classify(part).map_err(at)? {
                Statement::Skip => {}
                Statement::Position(r) => {
                    if r < rank || r == 3 && rank == 3 || moves > 0 {
                        return Err(at(format!(
                            "{} is out of order (names, the board, pieces, the side to \
                             move, then the moves)",
                            quoted(part)
                        )));
                    }
                    rank = r;
                    kept.push_str(part);
                    kept.push('\n');
                }
                Statement::Move => {
                    if rank != 3 {
                        return Err(at("a move before the side to move (+ or -)".into()));
                    }
                    moves += 1;
                    kept.push_str(part);
                    kept.push('\n');
                }
            }
        }
    }
    let record = csa::parse_csa(&kept).map_err(|_| {
        "the csa crate could not read the position (the order of the lines: names, then \
         PI or P1..P9, then P+/P- lines, then + or - for the side to move, then the moves)"
            .to_string()
    })?;
    if record.moves.len() != moves {
        return Err(format!(
            "the csa crate read {} of the {moves} moves: a line before move {} is out of order",
            record.moves.len(),
            record.moves.len() + 1
        ));
    }
    let start = &record.start_pos;
    let mut setup = match &start.bulk {
        Some(grid) => {
            let mut s = Setup::<Shogi>::empty();
            for (r, row) in grid.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    if let Some((col, t)) = cell {
                        let k = kind(*t).ok_or("AL stands on no square")?;
                        let sq = Square::new::<Shogi>(c as u8, r as u8).ok_or("no square")?;
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
            .map_err(|e| e.to_string())?;
            for (sq, _) in &start.drop_pieces {
                let sq = square(*sq).ok_or("PI names a square off the board")?;
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
                    return Err("both sides are given the rest (00AL)".into())
                }
                None => rest_for = Some(col),
                Some(k) if PieceKind::HAND.contains(&k) => {
                    let n = setup.hand(col).count(k);
                    setup.set_hand(col, k, n.saturating_add(1));
                }
                Some(_) => return Err("only unpromoted pieces but the king go in hand".into()),
            }
        } else {
            let square = square(*sq).ok_or("a piece off the board")?;
            let k = kind(*t).ok_or("AL stands on no square")?;
            setup.put(square, Piece::new(col, k));
        }
    }
    setup.set_side_to_move(color(start.side_to_move));
    let position = crate::kif::into_problem(setup, rest_for)?;
    let mut pos = position.clone();
    let mut line = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let Action::Move(_, from, to, t) = m.action else {
            break;
        };
        let bad = || format!("move {}: {} is not legal here", i + 1, m.action);
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
    Ok(Problem {
        position,
        moves: line,
    })
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
            ("PI\n+7776FU\n", "before the side to move"),
        ] {
            let e = read(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
