#![deny(missing_docs)]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod combin;
mod count;
mod cumulative;
mod error;
pub mod filters;
mod material;
mod placement;
mod sampler;
mod table;
mod u256;

pub use count::{count, type_placements};
pub use error::{MaterialError, RankError};
pub use material::{
    class_code, king_placements, kings_k_canonical, material_from_spec, piece_types, PieceType,
    TYPE_ORDER,
};
pub use placement::{Core, CoreTable, KingSet, PlacementSampler, PlacementTable};
pub use sampler::{uniform_below, Sampler};
pub use table::{HandClass, RankTable};
pub use u256::U256;

use num_bigint::BigUint;
use shogi_core::{Game, Material, Position};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// One value of type `T` per process, made by `make` on first use and shared: the tables of
/// the full material of each game.
fn shared<T: Any + Send + Sync>(make: impl FnOnce() -> T) -> &'static T {
    type Tables = Mutex<HashMap<TypeId, &'static (dyn Any + Send + Sync)>>;
    static TABLES: OnceLock<Tables> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    let mut guard = tables.lock().unwrap_or_else(|e| e.into_inner());
    let value: &'static (dyn Any + Send + Sync) = *guard
        .entry(TypeId::of::<T>())
        .or_insert_with(|| Box::leak(Box::new(make())));
    value
        .downcast_ref::<T>()
        .expect("the tables are keyed by their type")
}

/// The rank table of the full material of game `G`, built once per process and shared.
///
/// Each call takes a lock: in a hot loop keep the returned reference.
pub fn full_table<G: Game>() -> &'static RankTable<G> {
    shared(RankTable::<G>::full)
}

/// The placement-legal subspace of the full material of game `G` (docs/METHOD.md §10.2), built
/// once per process (under a second for Shogi) and shared.
///
/// Each call takes a lock: in a hot loop keep the returned reference.
pub fn full_placement_table<G: Game>() -> &'static PlacementTable<G> {
    shared(PlacementTable::<G>::full)
}

/// `|S|`, the number of positions of the candidate space `P_K` of a material of game `G`
/// that pass the piece-placement filter (docs/METHOD.md §10.2).
///
/// The full material's count comes from the shared [`full_placement_table`], so that asking
/// for it (an estimate does, before its run and for its report) builds no table beyond that
/// one.
pub fn count_placement_legal<G: Game>(material: &Material) -> Result<BigUint, MaterialError> {
    if *material == G::MATERIAL {
        return Ok(full_placement_table::<G>().count());
    }
    Ok(PlacementTable::<G>::new(material)?.count())
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
