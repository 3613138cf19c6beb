//! KIF files (Kakinoki's format): the board diagram with both hands read into a position,
//! and a line written as a KIF game from it, with KIF's variations (変化).
//!
//! No maintained Rust crate reads KIF board diagrams, so this module does, for what a mate
//! problem needs: the header lines `key：value` (only `手合割`, the hands and the side to
//! move mean anything to the position; all are kept in [`Record::headers`]), the 9x9 diagram
//! (`|` rows, ` ・` for an empty square, `v` for a White piece), and the moves of the main
//! line (`２四歩(25)`, `同　金(32)`, `５二銀打`, `２三歩成(24)`, `１二角不成(34)`), each
//! checked for legality. `後手の持駒：残り全部` (or the attacker's side) gives that side
//! every piece of the game that is neither on the board nor in the other hand: the
//! convention of mate problems. A KI2 file (`.ki2`) is read for its diagram and header
//! only: its moves (`▲２六歩`) name no origin square and are left alone. Variations after
//! the main line are not read: a problem's solution is its main line.
//!
//! ```
//! use shogi_core::{Move, Position, Relax, Shogi};
//! use shogi_record::kif;
//!
//! // The attacker, to move, may have no king.
//! let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
//! let problem = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
//! let mate = [Move::from_usi::<Shogi>("G*5b").unwrap()];
//! let text = kif::write(&problem, &mate);
//! assert!(text.contains("５二金打"));
//! let back = kif::read(&text, false).unwrap();
//! assert_eq!((back.position.to_sfen(), back.moves), (problem.to_sfen(), mate.to_vec()));
//! ```

use crate::{into_position, quoted, Error, Record};
use shogi_core::{Color, Hand, Move, Piece, PieceKind, Position, Setup, Shogi, Square};

const DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The one-character name of a kind on a diagram.
fn diagram_name(kind: PieceKind) -> char {
    use PieceKind::*;
    match kind {
        Pawn => '歩',
        Lance => '香',
        Knight => '桂',
        Silver => '銀',
        Gold => '金',
        Bishop => '角',
        Rook => '飛',
        King => '玉',
        ProPawn => 'と',
        ProLance => '杏',
        ProKnight => '圭',
        ProSilver => '全',
        Horse => '馬',
        Dragon => '龍',
    }
}

fn kind_of_diagram_char(c: char) -> Option<PieceKind> {
    let c = match c {
        '王' => '玉',
        '竜' => '龍',
        c => c,
    };
    PieceKind::ALL.into_iter().find(|&k| diagram_name(k) == c)
}

/// The name of a kind in a move: promoted lance, knight and silver take two characters.
fn move_name(kind: PieceKind) -> String {
    match kind {
        PieceKind::ProLance => "成香".into(),
        PieceKind::ProKnight => "成桂".into(),
        PieceKind::ProSilver => "成銀".into(),
        k => diagram_name(k).to_string(),
    }
}

/// `十八`, `二`, `` (for one) → a count; `None` if it is no count.
fn kanji_count(text: &str) -> Option<u8> {
    let digit = |c: char| NUMERALS.iter().position(|&n| n == c).map(|i| i as u8 + 1);
    let chars: Vec<char> = text.chars().collect();
    match chars.as_slice() {
        [] => Some(1),
        ['十'] => Some(10),
        ['十', d] => Some(10 + digit(*d)?),
        [d] => digit(*d),
        _ => None,
    }
}

fn kanji_number(n: u8) -> String {
    match n {
        0 | 1 => String::new(),
        2..=9 => NUMERALS[n as usize - 1].to_string(),
        10 => "十".into(),
        _ => format!("十{}", NUMERALS[(n as usize - 11).min(8)]),
    }
}

/// A hand as KIF writes it: `飛　角二　歩十八`, or `なし`.
fn hand_text(hand: &Hand) -> String {
    let parts: Vec<String> = PieceKind::HAND
        .iter()
        .rev()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| format!("{}{}", diagram_name(k), kanji_number(hand.count(k))))
        .collect();
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

/// What a hand line says.
enum HandSpec {
    Given(Hand),
    /// `残り全部`: every piece not on the board and not in the other hand.
    Rest,
}

fn parse_hand(value: &str) -> Result<HandSpec, String> {
    let value = value.trim();
    if value == "残り全部" {
        return Ok(HandSpec::Rest);
    }
    let mut hand = Hand::default();
    if value == "なし" || value.is_empty() {
        return Ok(HandSpec::Given(hand));
    }
    for item in value.split(['　', ' ']).filter(|s| !s.is_empty()) {
        let mut chars = item.chars();
        let kind = chars
            .next()
            .and_then(kind_of_diagram_char)
            .filter(|k| PieceKind::HAND.contains(k))
            .ok_or_else(|| format!("{} is no piece in hand", quoted(item)))?;
        let n = kanji_count(chars.as_str())
            .ok_or_else(|| format!("{} is no count of pieces", quoted(item)))?;
        hand.0[kind.index()] = hand.0[kind.index()].saturating_add(n);
    }
    Ok(HandSpec::Given(hand))
}

/// The position of a handicap name of `手合割`.
fn handicap(name: &str) -> Option<&'static str> {
    Some(match name {
        "平手" => "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "香落ち" => "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "右香落ち" => "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "角落ち" => "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "飛車落ち" => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "飛香落ち" => "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "二枚落ち" => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "四枚落ち" => "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "六枚落ち" => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "八枚落ち" => "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "十枚落ち" => "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        _ => return None,
    })
}

/// The square of Japanese file `f` and rank `r` (1 to 9).
fn square(f: u8, r: u8) -> Option<Square> {
    if !(1..=9).contains(&f) || !(1..=9).contains(&r) {
        return None;
    }
    Square::new::<Shogi>(9 - f, r - 1)
}

/// Reads a KIF (or, with `ki2`, a KI2) file's text ([`crate::decode`] makes it of the
/// file's bytes). Errors name the line and what is wrong.
pub fn read(text: &str, ki2: bool) -> Result<Record, Error> {
    let mut headers = Vec::new();
    let mut setup: Option<Setup<Shogi>> = None;
    let mut hands: [Option<HandSpec>; 2] = [None, None];
    let mut rows: Vec<[Option<Piece>; 9]> = Vec::new();
    let mut side: Option<Color> = None;
    let mut move_lines: Vec<(usize, String)> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, raw) in lines.iter().enumerate() {
        let n = i + 1;
        let at = |e: String| Error::at(n, e);
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty()
            || trimmed.starts_with(['#', '*', '&'])
            || trimmed.starts_with("手数----")
        {
            continue;
        }
        if trimmed.starts_with("変化") {
            // Variations follow the main line: a problem's solution is the main line.
            break;
        }
        if let Some(rest) = trimmed.strip_prefix('+') {
            if rest.trim_end_matches('+').chars().all(|c| c == '-') {
                // The frame of the diagram.
                continue;
            }
        }
        if let Some(body) = line.strip_prefix('|') {
            rows.push(diagram_row(body).map_err(at)?);
            continue;
        }
        if trimmed.starts_with('９') || trimmed.starts_with('５') && rows.is_empty() {
            // The file numbers above the diagram.
            if trimmed.chars().all(|c| c == ' ' || DIGITS.contains(&c)) {
                if trimmed.chars().filter(|c| DIGITS.contains(c)).count() != 9 {
                    return Err(at(
                        "only 9x9 diagrams are read (Mini Shogi problems are SFEN only)".into(),
                    ));
                }
                continue;
            }
        }
        match trimmed {
            "後手番" | "上手番" => {
                side = Some(Color::White);
                continue;
            }
            "先手番" | "下手番" => {
                side = Some(Color::Black);
                continue;
            }
            _ => {}
        }
        if let Some((key, value)) = trimmed.split_once('：') {
            let value = value.trim_end_matches('　').trim();
            headers.push((key.trim().to_string(), value.to_string()));
            match key {
                "先手の持駒" | "下手の持駒" => {
                    hands[0] = Some(parse_hand(value).map_err(|e| at(format!("{key}: {e}")))?)
                }
                "後手の持駒" | "上手の持駒" => {
                    hands[1] = Some(parse_hand(value).map_err(|e| at(format!("{key}: {e}")))?)
                }
                "手合割" => {
                    let sfen = handicap(value).ok_or_else(|| {
                        at(format!("the handicap {} is not known", quoted(value)))
                    })?;
                    setup = Some(Setup::from_sfen(sfen).map_err(|e| at(e.to_string()))?);
                }
                "手番" => {
                    side = Some(match value {
                        "先手" | "下手" => Color::Black,
                        "後手" | "上手" => Color::White,
                        _ => return Err(at(format!("手番: {} is no side", quoted(value)))),
                    })
                }
                // Names, dates, events, comments on the problem: nothing for the search.
                _ => {}
            }
            continue;
        }
        if trimmed.starts_with("まで") {
            break;
        }
        if ki2 && trimmed.starts_with(['▲', '△', '☗', '☖']) {
            // KI2 moves name no origin square: only the diagram is read.
            continue;
        }
        if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
            move_lines.push((n, trimmed.to_string()));
            continue;
        }
        return Err(at(format!("not a line of KIF: {}", quoted(trimmed))));
    }
    let mut setup = match (setup, rows.len()) {
        (Some(_), 1..) => {
            return Err(Error::whole(
                "both a diagram and a handicap (手合割) are given",
            ))
        }
        (Some(s), 0) => s,
        (None, 9) => {
            let mut s = Setup::<Shogi>::empty();
            for (r, row) in rows.iter().enumerate() {
                for (c, piece) in row.iter().enumerate() {
                    if let (Some(p), Some(sq)) = (piece, square(9 - c as u8, r as u8 + 1)) {
                        s.put(sq, *p);
                    }
                }
            }
            s
        }
        (None, 0) => return Err(Error::whole("no board diagram and no handicap (手合割)")),
        (None, k) => return Err(Error::whole(format!("the diagram has {k} rows, not 9"))),
    };
    if let Some(side) = side {
        setup.set_side_to_move(side);
    } else if rows.len() == 9 {
        setup.set_side_to_move(Color::Black);
    }
    let mut rest_for = None;
    for (color, spec) in [Color::Black, Color::White].into_iter().zip(hands) {
        match spec {
            Some(HandSpec::Given(h)) => {
                for kind in PieceKind::HAND {
                    setup.set_hand(color, kind, h.count(kind));
                }
            }
            Some(HandSpec::Rest) if rest_for.is_some() => {
                return Err(Error::whole("both hands are 残り全部: one must be given"))
            }
            Some(HandSpec::Rest) => rest_for = Some(color),
            None => {}
        }
    }
    let position = into_position(setup, rest_for)?;
    let mut pos = position.clone();
    let mut moves = Vec::new();
    let mut last_to = None;
    for (n, text) in move_lines {
        match parse_move(&pos, &text, last_to).map_err(|e| Error::at(n, e))? {
            Some(mv) => {
                pos.play_unchecked(mv);
                last_to = Some(mv.to());
                moves.push(mv);
            }
            None => break,
        }
    }
    Ok(Record {
        position,
        moves,
        headers,
    })
}

fn diagram_row(body: &str) -> Result<[Option<Piece>; 9], String> {
    let cells: String = body.chars().take_while(|&c| c != '|').collect();
    let chars: Vec<char> = cells.chars().collect();
    if chars.len() != 18 {
        return Err(format!(
            "a diagram row has 9 squares of two characters: {}",
            quoted(body)
        ));
    }
    let mut row = [None; 9];
    for (i, pair) in chars.chunks(2).enumerate() {
        let color = match pair[0] {
            ' ' | '+' | '^' => Color::Black,
            'v' | 'V' => Color::White,
            c => {
                return Err(format!(
                    "{} marks no side on a square",
                    quoted(&c.to_string())
                ))
            }
        };
        row[i] = match pair[1] {
            '・' => None,
            c => Some(Piece::new(
                color,
                kind_of_diagram_char(c)
                    .ok_or_else(|| format!("{} is no piece", quoted(&c.to_string())))?,
            )),
        };
    }
    Ok(row)
}

/// One move line: `Some(move)`, or `None` for the end of the game (`詰み`, `投了`, ...).
fn parse_move(
    pos: &Position<Shogi>,
    line: &str,
    last_to: Option<Square>,
) -> Result<Option<Move>, String> {
    let body = line
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start();
    // `同` may be followed by an ideographic space, which is whitespace: take it first.
    let (same, body) = match body.strip_prefix('同') {
        Some(r) => (true, r.trim_start_matches(['　', ' '])),
        None => (false, body),
    };
    // The move is one word; the time (`( 0:01/00:00:01)`) and comments follow it.
    let word = body.split_whitespace().next().unwrap_or("");
    // KIF's mark of a move that has variations (変化) ends the line, after the time if any.
    let word = word.strip_suffix('+').unwrap_or(word);
    const ENDINGS: [&str; 10] = [
        "詰み",
        "投了",
        "中断",
        "千日手",
        "持将棋",
        "切れ負け",
        "反則勝ち",
        "反則負け",
        "入玉勝ち",
        "不詰",
    ];
    if !same && ENDINGS.contains(&word) {
        return Ok(None);
    }
    let bad = || format!("{} is no KIF move", quoted(line.trim()));
    let mut chars: Vec<char> = word.chars().collect();
    let to = if same {
        last_to.ok_or_else(|| format!("{}: 同 with no move before", quoted(line.trim())))?
    } else {
        let f = chars
            .first()
            .and_then(|c| DIGITS.iter().position(|d| d == c));
        let r = chars
            .get(1)
            .and_then(|c| NUMERALS.iter().position(|d| d == c));
        let (Some(f), Some(r)) = (f, r) else {
            return Err(bad());
        };
        chars.drain(..2);
        square(f as u8 + 1, r as u8 + 1).ok_or_else(bad)?
    };
    let rest: String = chars.iter().collect();
    let (kind, rest) = if let Some(r) = rest.strip_prefix("成香") {
        (PieceKind::ProLance, r)
    } else if let Some(r) = rest.strip_prefix("成桂") {
        (PieceKind::ProKnight, r)
    } else if let Some(r) = rest.strip_prefix("成銀") {
        (PieceKind::ProSilver, r)
    } else {
        let mut it = rest.chars();
        let kind = it.next().and_then(kind_of_diagram_char).ok_or_else(bad)?;
        (kind, it.as_str())
    };
    let mv = if let Some(after) = rest.strip_prefix('打') {
        if !after.is_empty() {
            return Err(bad());
        }
        Move::Drop { kind, to }
    } else {
        let (promote, rest) = if let Some(r) = rest.strip_prefix("不成") {
            (false, r)
        } else if let Some(r) = rest.strip_prefix('成') {
            (true, r)
        } else {
            (false, rest)
        };
        let digits: Vec<u8> = rest
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .filter(|d| d.len() == 2)
            .and_then(|d| d.chars().map(|c| c.to_digit(10).map(|v| v as u8)).collect())
            .ok_or_else(bad)?;
        if digits == [0, 0] {
            Move::Drop { kind, to }
        } else {
            let from = square(digits[0], digits[1]).ok_or_else(bad)?;
            if pos.piece_at(from).map(|p| p.kind) != Some(kind) {
                return Err(format!(
                    "{}: no {} on {}{}",
                    quoted(line.trim()),
                    move_name(kind),
                    digits[0],
                    digits[1]
                ));
            }
            Move::Normal { from, to, promote }
        }
    };
    if !pos.is_legal(mv) {
        return Err(format!("{} is not legal here", quoted(line.trim())));
    }
    Ok(Some(mv))
}

/// The KIF text of `problem` with `line` (a mating line from it): the diagram, the moves,
/// and `詰み`.
pub fn write(problem: &Position<Shogi>, line: &[Move]) -> String {
    write_with_variations(problem, line, &[])
}

/// [`write()`], with `variations` as KIF's 変化 after the main line: each a ply of `line`
/// (from 1) and the moves played instead from the position before it, in the order given.
pub fn write_with_variations(
    problem: &Position<Shogi>,
    line: &[Move],
    variations: &[(usize, Vec<Move>)],
) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "# KIF written by shogi-record {}: a mate problem and its solution\n",
        env!("CARGO_PKG_VERSION")
    ));
    out.push_str(&format!(
        "後手の持駒：{}\n",
        hand_text(problem.hand(Color::White))
    ));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for r in 1..=9u8 {
        out.push('|');
        for f in (1..=9u8).rev() {
            match square(f, r).and_then(|sq| problem.piece_at(sq)) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(diagram_name(p.kind));
                }
            }
        }
        out.push('|');
        out.push(NUMERALS[r as usize - 1]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!(
        "先手の持駒：{}\n",
        hand_text(problem.hand(Color::Black))
    ));
    if problem.side_to_move() == Color::White {
        out.push_str("後手番\n");
    }
    out.push_str("手数----指手---------消費時間--\n");
    let branches: Vec<usize> = variations.iter().map(|v| v.0).collect();
    moves_text(&mut out, problem, None, 1, line, &branches);
    out.push_str(&format!("まで{}手で詰み\n", line.len()));
    // Each variation after the main line, as KIF's 変化 sections: numbered from its ply,
    // played from the main line's position before that ply.
    for (k, (ply, moves)) in variations.iter().enumerate() {
        let mut pos = problem.clone();
        for &mv in &line[..ply - 1] {
            pos.play_unchecked(mv);
        }
        let last_to = ply.checked_sub(2).map(|i| line[i].to());
        out.push_str(&format!("\n変化：{ply}手\n"));
        // A later variation from the same ply branches from this one: KIF marks it.
        let more = variations[k + 1..].iter().any(|v| v.0 == *ply);
        let marks = if more { vec![*ply] } else { Vec::new() };
        moves_text(&mut out, &pos, last_to, *ply, moves, &marks);
    }
    out
}

/// The KIF lines of `moves` from `pos`, numbered from `first`, with KIF's `+` on the plies
/// in `branches` (a 変化 follows from there), and `詰み` after them.
fn moves_text(
    out: &mut String,
    pos: &Position<Shogi>,
    mut last_to: Option<Square>,
    first: usize,
    moves: &[Move],
    branches: &[usize],
) {
    let mut pos = pos.clone();
    for (i, &mv) in moves.iter().enumerate() {
        let ply = first + i;
        let mark = if branches.contains(&ply) { "+" } else { "" };
        out.push_str(&format!(
            "{ply:>4} {}{mark}\n",
            move_text(&pos, mv, last_to)
        ));
        last_to = Some(mv.to());
        pos.play_unchecked(mv);
    }
    out.push_str(&format!("{:>4} 詰み\n", first + moves.len()));
}

/// One move in KIF: destination (or `同　`), piece, `成`/`不成`/`打`, origin.
fn move_text(pos: &Position<Shogi>, mv: Move, last_to: Option<Square>) -> String {
    let to = mv.to();
    let dest = if last_to == Some(to) {
        "同　".to_string()
    } else {
        format!(
            "{}{}",
            DIGITS[to.file::<Shogi>() as usize - 1],
            NUMERALS[to.y::<Shogi>() as usize]
        )
    };
    match mv {
        Move::Drop { kind, .. } => format!("{dest}{}打", move_name(kind)),
        Move::Normal { from, promote, .. } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let suffix = if promote {
                "成"
            } else if pos.is_legal(Move::Normal {
                from,
                to,
                promote: true,
            }) {
                "不成"
            } else {
                ""
            };
            format!(
                "{dest}{}{suffix}({}{})",
                move_name(kind),
                from.file::<Shogi>(),
                from.y::<Shogi>() + 1
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decode, encode_for};
    use shogi_core::Relax;

    #[test]
    fn a_written_game_reads_back() {
        let (pos, line) = crate::fixture::problem();
        let text = write(&pos, &line);
        let back = read(&text, false).unwrap();
        assert_eq!(
            back.position.to_sfen().rsplit_once(' ').unwrap().0,
            pos.to_sfen().rsplit_once(' ').unwrap().0
        );
        assert_eq!(back.moves, line);
        let sjis = encode_for(std::path::Path::new("x.kif"), &text);
        assert_ne!(sjis, text.as_bytes());
        assert_eq!(decode(&sjis).unwrap(), text);
    }

    /// Variations follow the main line and are not read back: the record is the main
    /// line; the header lines are kept in order.
    #[test]
    fn variations_are_written_after_the_main_line() {
        let pos = Position::<Shogi>::from_sfen_with(
            "4k4/9/4P4/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1",
            Relax::ATTACKER_WITHOUT_KING,
        )
        .unwrap();
        let usi = |m: &str| Move::from_usi::<Shogi>(m).unwrap();
        let line = [usi("G*5b")];
        let other = vec![usi("G*4b"), usi("5a4b")];
        let text = write_with_variations(&pos, &line, &[(1, other)]);
        assert!(text.contains("変化：1手"), "{text}");
        assert!(text.contains("   1 ４二金打\n   2 同　玉(51)\n"), "{text}");
        let back = read(&format!("作者：誰か\n{text}"), false).unwrap();
        assert_eq!(back.moves, line);
        assert_eq!(back.declared_length(), Some(1));
        assert_eq!(back.header("作者"), Some("誰か"));
        assert_eq!(back.headers[1].0, "後手の持駒");
    }

    #[test]
    fn the_rest_goes_to_the_side_that_says_so() {
        let text =
            "後手の持駒：残り全部\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・ ・ ・ ・ ・ と ・|一\n| ・ ・ ・ ・ ・ 飛 ・v銀 ・|二\n| ・ ・ ・ ・ ・ ・v玉v銀 ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ 香 ・v歩 ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n\
+---------------------------+\n先手の持駒：飛\n";
        let p = read(text, false).unwrap();
        assert_eq!(
            p.position.to_sfen(),
            "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1"
        );
    }

    #[test]
    fn bad_files_say_which_line() {
        for (text, want) in [
            ("後手の持駒：猫\n", "line 1"),
            ("hello\n", "line 1: not a line of KIF: `hello`"),
            ("手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n", "line 3"),
            ("手合割：平手\n   1 ５五角打\n", "line 2"),
            ("先手の持駒：なし\n", "no board diagram"),
            ("|・・|一\n", "line 1"),
        ] {
            let e = read(text, false).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        assert!(decode(b"\xff\xff\xff").is_err());
        let e = read("手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n", false).unwrap_err();
        assert_eq!(e.line(), Some(3));
        assert!(e.message().contains("no 歩 on 77"), "{e}");
    }
}
