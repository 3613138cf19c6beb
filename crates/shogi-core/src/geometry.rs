//! The geometry every board shares: the largest board, which sizes the arrays of both games,
//! and the eight directions that steps and slides are made of.

/// Largest board handled (9x9).
pub const MAX_SQUARES: usize = 81;
/// Largest board width handled.
pub const MAX_FILES: usize = 9;

/// The eight ray directions `(dx, dy)`, `y` growing downwards (towards Black's side).
pub(crate) const DIRS: [(i8, i8); 8] = [
    (0, -1),  // 0: up (Black's forward)
    (0, 1),   // 1: down (White's forward)
    (-1, 0),  // 2: left
    (1, 0),   // 3: right
    (-1, -1), // 4: up-left
    (1, -1),  // 5: up-right
    (-1, 1),  // 6: down-left
    (1, 1),   // 7: down-right
];
/// The direction of Black's forward step, the lance's slide.
pub(crate) const UP: usize = 0;
