//! The Figure 18 scatter plots as hand-written SVG.

use super::fit::means_by_plies;
use super::{game_title, GameRun, FIGURE_POINTS};
use shogi_estimate::grouped;
use std::fmt::Write as _;

/// A tick step of 1, 2 or 5 times a power of ten giving about `target` ticks up to `max`.
fn nice_step(max: f64, target: f64) -> f64 {
    let raw = (max / target).max(1e-12);
    let mag = 10f64.powf(raw.log10().floor());
    let m = raw / mag;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    (nice * mag).max(1.0)
}

/// The Figure 18 scatter plot as a standalone SVG: the first [`FIGURE_POINTS`] reachable
/// samples by index as dots (identical points drawn once, so the file stays small), the mean
/// expanded count per path length over every collected point as a line, axes with ticks.
pub(super) fn figure_svg(g: &GameRun) -> String {
    const W: f64 = 720.0;
    const H: f64 = 480.0;
    const LEFT: f64 = 80.0;
    const RIGHT: f64 = 24.0;
    const TOP: f64 = 56.0;
    const BOTTOM: f64 = 56.0;
    let all = &g.counters.figure;
    let points = &all[..all.len().min(FIGURE_POINTS)];
    let max_x = points.iter().map(|p| p.plies).max().unwrap_or(1).max(1) as f64;
    let max_y = points.iter().map(|p| p.expanded).max().unwrap_or(1).max(1) as f64;
    let step_x = nice_step(max_x, 8.0);
    let step_y = nice_step(max_y, 6.0);
    let top_x = (max_x / step_x).ceil() * step_x;
    let top_y = (max_y / step_y).ceil() * step_y;
    let px = |x: f64| LEFT + x / top_x * (W - LEFT - RIGHT);
    let py = |y: f64| H - BOTTOM - y / top_y * (H - TOP - BOTTOM);

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">Expanded nodes against path length, reachable {} samples</text>"#,
        W / 2.0,
        game_title(g.config.game)
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="40" text-anchor="middle" fill="#555">first {} reachable samples by index (seed {}, {} samples run); line: mean per path length over {}</text>"##,
        W / 2.0,
        grouped(points.len() as u64),
        g.config.seed,
        grouped(g.counters.samples),
        grouped(all.len() as u64)
    );
    // Grid and ticks.
    let mut x = 0.0;
    while x <= top_x + 1e-9 {
        let sx = px(x);
        let _ = writeln!(
            s,
            r##"<line x1="{sx:.1}" y1="{TOP}" x2="{sx:.1}" y2="{}" stroke="#eee"/><text x="{sx:.1}" y="{}" text-anchor="middle">{x}</text>"##,
            H - BOTTOM,
            H - BOTTOM + 18.0
        );
        x += step_x;
    }
    let mut y = 0.0;
    while y <= top_y + 1e-9 {
        let sy = py(y);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{sy:.1}" x2="{}" y2="{sy:.1}" stroke="#eee"/><text x="{}" y="{:.1}" text-anchor="end">{y}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            sy + 4.0
        );
        y += step_y;
    }
    let _ = writeln!(
        s,
        r##"<path d="M{LEFT} {TOP}V{}H{}" fill="none" stroke="#000"/>"##,
        H - BOTTOM,
        W - RIGHT
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">path length found (plies)</text>"#,
        (LEFT + W - RIGHT) / 2.0,
        H - 14.0
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(20 {}) rotate(-90)" text-anchor="middle">nodes expanded</text>"#,
        (TOP + H - BOTTOM) / 2.0
    );
    // Dots: zero-length round-capped segments in one path, each distinct point once (many
    // samples share a (plies, expanded) pair); the opacity shows where they pile up.
    let mut seen = std::collections::HashSet::new();
    let mut d = String::new();
    for p in points {
        if seen.insert((p.plies, p.expanded)) {
            let _ = write!(
                d,
                "M{:.1} {:.1}h0",
                px(f64::from(p.plies)),
                py(p.expanded as f64)
            );
        }
    }
    let _ = writeln!(
        s,
        r##"<path d="{d}" stroke="#1f77b4" stroke-opacity="0.35" stroke-width="4" stroke-linecap="round"/>"##
    );
    // The mean line, only where it stays inside the axes drawn for the dots.
    let means: Vec<(u32, f64)> = means_by_plies(all, 10)
        .into_iter()
        .filter(|&(x, y)| f64::from(x) <= top_x && y <= top_y)
        .collect();
    if means.len() >= 2 {
        let mut d = String::new();
        for (i, &(x, y)) in means.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1} {:.1}",
                if i == 0 { "M" } else { "L" },
                px(f64::from(x)),
                py(y)
            );
        }
        let _ = writeln!(
            s,
            r##"<path d="{d}" fill="none" stroke="#d62728" stroke-width="2"/>"##
        );
    }
    let _ = writeln!(
        s,
        r##"<g transform="translate({} {})"><circle cx="0" cy="0" r="3" fill="#1f77b4" fill-opacity="0.6"/><text x="8" y="4">one or more samples</text><line x1="-6" y1="18" x2="6" y2="18" stroke="#d62728" stroke-width="2"/><text x="8" y="22">mean per path length</text></g>"##,
        LEFT + 20.0,
        TOP + 14.0
    );
    let _ = writeln!(s, "</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(400.0, 8.0), 50.0);
        assert_eq!(nice_step(7.0, 8.0), 1.0);
        assert_eq!(nice_step(240.0, 6.0), 50.0);
    }
}
