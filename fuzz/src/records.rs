//! The checks of the `kif` and `csa` targets: the readers of `shogi-record` on a file's
//! bytes, as `check-tsume` and `mate --file` read them.
//!
//! A reader may refuse the bytes, with an error naming a line of the text or none; it must
//! never panic. What it reads must write back, as KIF and as CSA, to text that reads to the
//! same record: the same position (all but the move number, which neither format holds) and
//! the same moves. The KIF text, encoded for a `.kif` file (Shift_JIS), decodes to itself.

use shogi_core::{Position, Shogi};
use shogi_record::{csa, decode, encode_for, kif, Error, Record};

/// The `kif` target: the bytes read as a KIF file and as a KI2 file.
pub fn kif(data: &[u8]) {
    let Ok(text) = decode(data) else { return };
    for ki2 in [false, true] {
        match kif::read(&text, ki2) {
            Ok(record) => writes_back(&record),
            Err(e) => names_a_line(&e, &text),
        }
    }
}

/// The `csa` target: the bytes read as a CSA file.
pub fn csa(data: &[u8]) {
    let Ok(text) = decode(data) else { return };
    match csa::read(&text) {
        Ok(record) => writes_back(&record),
        Err(e) => names_a_line(&e, &text),
    }
}

/// An error's line is one of the text's, and it says what is wrong.
fn names_a_line(e: &Error, text: &str) {
    if let Some(n) = e.line() {
        assert!(
            n >= 1 && n <= text.lines().count(),
            "line {n} of {}: {e}",
            text.lines().count()
        );
    }
    assert!(!e.message().is_empty());
}

/// `record` written as KIF and as CSA reads back to itself.
fn writes_back(record: &Record) {
    let text = kif::write(&record.position, &record.moves);
    let again = kif::read(&text, false)
        .unwrap_or_else(|e| panic!("the KIF written does not read: {e}\n{text}"));
    same(record, &again, "KIF", &text);
    let sjis = encode_for(std::path::Path::new("problem.kif"), &text);
    assert_eq!(decode(&sjis).as_ref(), Ok(&text), "Shift_JIS");
    let text = csa::write(&record.position, &record.moves);
    let again =
        csa::read(&text).unwrap_or_else(|e| panic!("the CSA written does not read: {e}\n{text}"));
    same(record, &again, "CSA", &text);
}

fn same(a: &Record, b: &Record, format: &str, text: &str) {
    assert_eq!(
        without_move_number(&a.position),
        without_move_number(&b.position),
        "{format} position\n{text}"
    );
    assert_eq!(a.moves, b.moves, "{format} moves\n{text}");
}

fn without_move_number(p: &Position<Shogi>) -> String {
    let sfen = p.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(s, _)| s.to_string())
}
