#![deny(missing_docs)]
// Without the default `std` feature the crate needs neither `std` nor an allocator: positions,
// move generation and perft work on the stack; SFEN and USI text and the errors that carry
// text need `std`.
#![cfg_attr(not(feature = "std"), no_std)]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod attacks;
mod bitboard;
mod choice;
mod color;
mod game;
mod geometry;
mod hand;
mod magic;
mod movegen;
mod moveset;
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
pub use moveset::MoveSet;
#[cfg(feature = "std")]
pub use mv::{IllegalMove, UsiError};
pub use mv::{Move, MoveUsi};
pub use piece::{Piece, PieceKind};
pub use position::Position;
pub use setup::{IllegalPosition, Relax, Setup};
pub use sfen::MAX_HAND_COUNT;
#[cfg(feature = "std")]
pub use sfen::{sfen_ranks, AnyPosition, SfenError};
pub use square::{Square, SquareUsi};
pub use validate::PositionErrors;
