#![deny(missing_docs)]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod combin;
mod count;
mod error;
pub mod filters;
mod material;
mod sampler;
mod table;
mod u256;

pub use count::{count, type_placements};
pub use error::{MaterialError, RankError};
pub use material::{
    class_code, king_placements, kings_k_canonical, material_from_spec, piece_types, PieceType,
    TYPE_ORDER,
};
pub use sampler::{uniform_below, Sampler};
pub use table::{HandClass, RankTable};
pub use u256::U256;

use num_bigint::BigUint;
use shogi_core::{Game, Position};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The rank table of the full material of game `G`, built once per process and shared.
///
/// Each call takes a lock: in a hot loop keep the returned reference.
pub fn full_table<G: Game>() -> &'static RankTable<G> {
    type Tables = Mutex<HashMap<TypeId, &'static (dyn Any + Send + Sync)>>;
    static TABLES: OnceLock<Tables> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    let mut guard = tables.lock().unwrap_or_else(|e| e.into_inner());
    let table: &'static (dyn Any + Send + Sync) = *guard
        .entry(TypeId::of::<G>())
        .or_insert_with(|| Box::leak(Box::new(RankTable::<G>::full())));
    table
        .downcast_ref::<RankTable<G>>()
        .expect("the tables are keyed by their game's type")
}

/// The rank of a position in the full-material `P_K` of its game (docs/METHOD.md §4.1).
pub fn rank<G: Game>(pos: &Position<G>) -> Result<BigUint, RankError> {
    full_table::<G>().rank(pos)
}

/// The position of a rank in the full-material `P_K` of game `G` (docs/METHOD.md §4.1).
pub fn unrank<G: Game>(r: &BigUint) -> Result<Position<G>, RankError> {
    full_table::<G>().unrank(r)
}

/// Sample `index` of seed `seed`, uniform over the full-material `P_K` of game `G` (see
/// [`Sampler`] for the generator).
pub fn sample<G: Game>(seed: u64, index: u64) -> Position<G> {
    Sampler::new(full_table::<G>(), seed).sample(index)
}
