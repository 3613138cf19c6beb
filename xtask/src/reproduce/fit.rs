//! The statistics drawn in Figure 18: the least-squares line and the mean per path length.

use shogi_estimate::FigurePoint;

/// Least-squares line `expanded = a + b * plies` through the points, and the correlation.
pub(super) fn linear_fit(points: &[FigurePoint]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mx = points.iter().map(|p| f64::from(p.plies)).sum::<f64>() / n;
    let my = points.iter().map(|p| p.expanded as f64).sum::<f64>() / n;
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for p in points {
        let (dx, dy) = (f64::from(p.plies) - mx, p.expanded as f64 - my);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    let b = sxy / sxx;
    Some((my - b * mx, b, sxy / (sxx * syy).sqrt()))
}

/// The mean expanded-node count per path length over `points`, for lengths with at least
/// `min_count` points (fewer would make the line jump on single outliers).
pub(super) fn means_by_plies(points: &[FigurePoint], min_count: u64) -> Vec<(u32, f64)> {
    let mut sums: Vec<(u64, u64)> = Vec::new();
    for p in points {
        let i = p.plies as usize;
        if sums.len() <= i {
            sums.resize(i + 1, (0, 0));
        }
        sums[i].0 += 1;
        sums[i].1 += p.expanded;
    }
    sums.iter()
        .enumerate()
        .filter(|(_, &(n, _))| n >= min_count)
        .map(|(i, &(n, s))| (i as u32, s as f64 / n as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_a_line() {
        let points: Vec<FigurePoint> = (1..50)
            .map(|i| FigurePoint {
                index: u64::from(i),
                plies: i,
                expanded: u64::from(3 * i + 2),
            })
            .collect();
        let (a, b, r) = linear_fit(&points).expect("a line");
        assert!((a - 2.0).abs() < 1e-9 && (b - 3.0).abs() < 1e-9 && (r - 1.0).abs() < 1e-12);
    }
}
