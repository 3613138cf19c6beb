//! KIF and CSA records of Shogi mate problems: [`kif`] (Kakinoki's format, which ShogiGUI,
//! Shogidokoro, ShogiHome and Kifu for Windows read and write) and [`csa`] (the Computer
//! Shogi Association's), each read into a [`Record`] (the starting position, the moves the
//! file records after it, each checked legal, and its header lines) and written back.
//!
//! ```
//! use shogi_record::{decode, kif};
//!
//! let text = decode("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n".as_bytes()).unwrap();
//! let record = kif::read(&text, false).unwrap();
//! assert_eq!(record.declared_length(), Some(2));
//! let again = kif::read(&kif::write(&record.position, &record.moves), false).unwrap();
//! assert_eq!(again.moves, record.moves);
//! ```
//!
//! Files are bytes from anywhere: [`decode`] takes UTF-8 (with or without a byte-order
//! mark) or Shift_JIS (CP932), and [`encode_for`] writes `.kif` in Shift_JIS and anything
//! else in UTF-8, as KIF's convention has it (`.kifu` is UTF-8). A file that cannot be
//! read is an [`Error`] naming the line and what is wrong, never a panic: the readers have
//! fuzz targets (`fuzz/fuzz_targets/kif.rs` and `csa.rs`, which also check that what is
//! read writes back to the same record), run from the workspace by `cargo xtask fuzz
//! --target kif` (libFuzzer through cargo-fuzz; `--in-process` on a stable toolchain
//! without it; fuzz/README.md).
//!
//! Only Shogi (9x9) is read: Mini Shogi has no diagram that GUIs agree on. The hand written
//! as "the rest" (KIF's `残り全部`, CSA's `00AL`) is every piece of the game that is on
//! neither the board nor the other hand, the convention of mate problems; the side to move
//! is the attacker and may have no king.

#![forbid(unsafe_code)]

pub mod csa;
pub mod kif;

use shogi_core::{Color, Game, Hand, Move, PieceKind, Position, Relax, Setup, Shogi};
use std::fmt;

/// A record read from a KIF or CSA file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position of the diagram (or of the handicap), hands as the file gives them.
    pub position: Position<Shogi>,
    /// The moves of the main line, each checked legal after the ones before it; the end of
    /// the game (KIF's `詰み`, CSA's `%TSUMI`) is not a move. For a mate problem, its
    /// recorded solution.
    pub moves: Vec<Move>,
    /// The header lines, in the file's order: KIF's `key：value` lines (`作者`, `手合割`,
    /// `先手の持駒`, ...), CSA's `$KEY:value` attributes and `N+`/`N-` names (the key
    /// `N+` or `N-`).
    pub headers: Vec<(String, String)>,
}

impl Record {
    /// The length the record declares for its mate: the plies of its recorded solution,
    /// `None` when it records none.
    pub fn declared_length(&self) -> Option<usize> {
        (!self.moves.is_empty()).then_some(self.moves.len())
    }

    /// The value of the first header line named `key`.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a file could not be read: what is wrong, and the line where it shows (1 for the
/// first line) when it is one line's fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    line: Option<usize>,
    message: String,
}

impl Error {
    /// An error of line `line`.
    fn at(line: usize, message: impl Into<String>) -> Self {
        Error {
            line: Some(line),
            message: message.into(),
        }
    }

    /// An error of the file as a whole.
    fn whole(message: impl Into<String>) -> Self {
        Error {
            line: None,
            message: message.into(),
        }
    }

    /// The line where the error shows, from 1; `None` for an error of the whole file (no
    /// diagram, an illegal position).
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// What is wrong, without the line.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(n) => write!(f, "line {n}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

/// The text of a KIF or CSA file: UTF-8 when it is (a byte-order mark dropped), else
/// Shift_JIS; an error when it is neither.
pub fn decode(bytes: &[u8]) -> Result<String, Error> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(text.to_string());
    }
    let (text, _, bad) = encoding_rs::SHIFT_JIS.decode(bytes);
    if bad {
        return Err(Error::whole("the file is neither UTF-8 nor Shift_JIS text"));
    }
    Ok(text.into_owned())
}

/// `text` encoded as the file name asks: Shift_JIS for `.kif` (any case), UTF-8
/// otherwise. Characters Shift_JIS lacks become HTML character references, as
/// `encoding_rs` writes them; the text [`kif::write`] writes has none.
pub fn encode_for(path: &std::path::Path, text: &str) -> Vec<u8> {
    let sjis = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("kif"));
    if sjis {
        encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
    } else {
        text.as_bytes().to_vec()
    }
}

/// Characters of a field shown in an error before it is cut.
const SHOWN: usize = 40;

/// `text` between backquotes, cut to its first [`SHOWN`] characters when longer, so that
/// a megabyte line does not come back whole in a message.
fn quoted(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(SHOWN).collect();
    if chars.next().is_some() {
        format!("`{head}…` ({} bytes)", text.len())
    } else {
        format!("`{head}`")
    }
}

/// Every piece of the game that is neither on the board of `setup` nor in `other`'s hand.
fn rest_of<G: Game>(setup: &Setup<G>, other: Color) -> Result<Hand, String> {
    let mut without = setup.clone();
    for kind in PieceKind::HAND {
        without.set_hand(!other, kind, 0);
    }
    let used = without.material();
    let mut hand = Hand::default();
    for kind in PieceKind::HAND {
        let total = G::MATERIAL.get(kind);
        hand.0[kind.index()] = total.checked_sub(used.get(kind)).ok_or_else(|| {
            format!(
                "more pieces of kind {} than the game has, so no rest",
                kind.letter()
            )
        })?;
    }
    Ok(hand)
}

/// The position of a file's setup, with the rest of the pieces given to `rest_for` (the
/// side whose hand the file writes as "the rest"), if any; the attacker may lack a king.
fn into_position(
    mut setup: Setup<Shogi>,
    rest_for: Option<Color>,
) -> Result<Position<Shogi>, Error> {
    if let Some(color) = rest_for {
        let rest = rest_of(&setup, !color).map_err(Error::whole)?;
        for kind in PieceKind::HAND {
            setup.set_hand(color, kind, rest.count(kind));
        }
    }
    setup
        .into_position(Relax::ATTACKER_WITHOUT_KING)
        .map_err(|e| Error::whole(format!("the position is not legal: {}", e.reason())))
}

/// What the tests of both formats write and read back.
#[cfg(test)]
pub(crate) mod fixture {
    use shogi_core::{Move, Position, Shogi};

    /// A mate problem of the README (White to move, a drop and a promotion in its line)
    /// and a line from it.
    pub fn problem() -> (Position<Shogi>, Vec<Move>) {
        let pos = Position::<Shogi>::from_sfen(
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        )
        .unwrap();
        let line = [
            "B*5g", "4h5h", "6h6i", "5h5i", "5g6h+", "5i4h", "6h5g", "4h5i", "7i6h",
        ]
        .iter()
        .map(|m| Move::from_usi::<Shogi>(m).unwrap())
        .collect();
        (pos, line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_utf8_or_shift_jis_and_errors_name_their_line() {
        assert_eq!(decode("\u{feff}歩".as_bytes()).unwrap(), "歩");
        let sjis = encode_for(std::path::Path::new("a.KIF"), "後手番");
        assert_ne!(sjis, "後手番".as_bytes());
        assert_eq!(decode(&sjis).unwrap(), "後手番");
        assert_eq!(
            encode_for(std::path::Path::new("a.kifu"), "歩"),
            "歩".as_bytes()
        );
        let e = decode(b"\xff\xff\xff").unwrap_err();
        assert_eq!((e.line(), e.to_string().contains("neither")), (None, true));
        let e = Error::at(7, "no piece");
        assert_eq!((e.line(), e.message()), (Some(7), "no piece"));
        assert_eq!(e.to_string(), "line 7: no piece");
        assert_eq!(quoted("abc"), "`abc`");
        assert!(quoted(&"x".repeat(1000)).ends_with("(1000 bytes)"));
    }
}
