#![deny(missing_docs)]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod attacks;
mod bitboard;
mod choice;
mod color;
mod game;
mod hand;
mod movegen;
mod mv;
mod piece;
mod position;
mod setup;
mod sfen;
mod square;
pub mod tables;
mod validate;

pub use attacks::{attacks, bishop_attacks, lance_attacks, rook_attacks, step_attacks};
pub use bitboard::Bitboard;
pub use color::Color;
pub use game::{Game, GameKind, Material, MiniShogi, Shogi};
pub use hand::Hand;
pub use movegen::{MoveList, PawnDropRule, Rules, MAX_MOVES};
pub use mv::{IllegalMove, Move, MoveUsi, UsiError};
pub use piece::{Piece, PieceKind};
pub use position::Position;
pub use setup::{IllegalPosition, Relax, Setup};
pub use sfen::{sfen_ranks, AnyPosition, SfenError, MAX_HAND_COUNT};
pub use square::{Square, SquareUsi};
pub use validate::PositionErrors;
