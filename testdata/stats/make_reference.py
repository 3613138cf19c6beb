#!/usr/bin/env python3
"""Reference values for crates/shogi-estimate/tests/integration/stats_reference.rs.

Computes, independently of the Rust code, the statistics of the estimate (docs/METHOD.md §8):
the reachable fraction and its standard error, the 3σ normal interval, the Wilson score
interval at z = 3, the number of reachable positions with mirror images identified and
distinct, and the z-score of a stage rate against the paper's.

- Closed forms are evaluated with mpmath at 50 significant digits, from exact integer
  counts, then rounded once to the nearest f64 (Python's float).
- The Wilson interval is mpmath's closed form, checked against statsmodels'
  proportion_confint(method="wilson") with alpha = 2 (1 - Φ(3)), the two-sided level whose
  critical value is z = 3 (statsmodels works in f64 and recovers z as 3.0000000000000004,
  so its values are printed as comments and the constants are mpmath's).
- The z-score comes from statsmodels' proportions_ztest with prop_var set to the paper's
  rate (the standard error under the null hypothesis), and is checked against mpmath.
- The variance of the mirror-distinct count is computed from its definition, the variance
  of a variable that is 0, 1 or 2 for each sample (two-pass: sum of squared deviations),
  not from E[X^2] - E[X]^2 as the Rust code does.
- positions_exact is floor(|P_K| r / n) in exact integer arithmetic.

Prints the values as Rust constants (the shortest decimal that reads back as the nearest f64).
Run: python3 testdata/stats/make_reference.py (see README.md beside this file).
"""

import mpmath
import scipy
import statsmodels
from mpmath import mp, mpf, sqrt
from scipy.stats import norm
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

mp.dps = 50
Z = mpf(3)
# 2 (1 - Φ(3)), written with the survival function to avoid cancellation in 1 - Φ(3).
ALPHA = 2 * norm.sf(3)

SHOGI_PK = 80880932079767835177773204009328769812438521503800714936366945233084532
MINI_PK = 16014219505238849250


def f(x):
    """The nearest f64, as the shortest literal that reads back as it."""
    return repr(float(x))


def normal(k, n):
    p = mpf(k) / n
    sigma = sqrt(p * (1 - p) / n)
    return p, sigma, p - Z * sigma, p + Z * sigma


def wilson_closed(k, n):
    p = mpf(k) / n
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * sqrt(p * (1 - p) / n + z2 / (4 * mpf(n) ** 2)) / (1 + z2 / n)
    # For k = 0 centre and half are equal: chop the 1e-52 that 50 digits leave of their
    # difference to the exact 0.
    lo = mpmath.chop(centre - half, tol=mpf(10) ** -40)
    return max(lo, mpf(0)), min(centre + half, mpf(1))


def wilson_statsmodels(k, n):
    lo, hi = proportion_confint(k, n, alpha=ALPHA, method="wilson")
    return lo, hi


def distinct(r, s, n):
    """Mean and standard error of X in {0, 1, 2}: 0 for n - r samples, 1 for the s
    symmetric reachable ones, 2 for the other r - s."""
    counts = {0: n - r, 1: s, 2: r - s}
    mean = sum(mpf(x) * c for x, c in counts.items()) / n
    var = sum((x - mean) ** 2 * c for x, c in counts.items()) / n
    return mean, sqrt(var / n)


def estimate(name, n, r, s, unknown, space):
    p, sigma, lo, hi = normal(r, n)
    wl, wh = wilson_closed(r, n)
    sl, sh = wilson_statsmodels(r, n)
    # statsmodels and the closed form must agree before either is trusted.
    assert abs(sl - float(wl)) <= 1e-12 * max(abs(float(wl)), 1e-300) + 1e-15, (name, sl, wl)
    assert abs(sh - float(wh)) <= 1e-12 * abs(float(wh)) + 1e-15, (name, sh, wh)
    mean, sigma_d = distinct(r, s, n)
    size = mpf(space)
    print(f"// {name}: n = {n}, reachable = {r}, symmetric_reachable = {s}, unknown = {unknown}")
    print(f"//   statsmodels Wilson: [{sl!r}, {sh!r}]")
    print(f"//   3σ interval of positions to 5 digits: [{float(lo * size):.4e}, {float(hi * size):.4e}]")
    fields = {
        "space": size,
        "p": p,
        "sigma": sigma,
        "p_normal_lo": lo,
        "p_normal_hi": hi,
        "p_wilson_lo": wl,
        "p_wilson_hi": wh,
        "positions": p * size,
        "positions_normal_lo": lo * size,
        "positions_normal_hi": hi * size,
        "positions_wilson_lo": wl * size,
        "positions_wilson_hi": wh * size,
        "positions_distinct": mean * size,
        "positions_distinct_normal_lo": (mean - Z * sigma_d) * size,
        "positions_distinct_normal_hi": (mean + Z * sigma_d) * size,
    }
    if unknown:
        fields["unknown_lo"] = p * size
        fields["unknown_hi"] = mpf(r + unknown) / n * size
    for k, v in fields.items():
        print(f"    {k}: {f(v)},")
    print(f'    positions_exact: "{space * r // n}",')
    print()


def small(k, n):
    p, sigma, lo, hi = normal(k, n)
    wl, wh = wilson_closed(k, n)
    sl, sh = wilson_statsmodels(k, n)
    nl, nh = proportion_confint(k, n, alpha=ALPHA, method="normal")
    assert abs(sl - float(wl)) <= 1e-15 and abs(sh - float(wh)) <= 1e-15, (k, n)
    print(f"// n = {n}, k = {k}: statsmodels normal (clipped to [0, 1]): [{nl!r}, {nh!r}]")
    print(f"// n = {n}, k = {k}: statsmodels Wilson: [{sl!r}, {sh!r}]")
    print(f"    ({k}, {n}, {f(p)}, {f(sigma)}, {f(lo)}, {f(hi)}, {f(wl)}, {f(wh)}),")


def z_case(k, n, k0, n0):
    p0 = mpf(k0) / n0
    z_mp = (mpf(k) / n - p0) / sqrt(p0 * (1 - p0) / n)
    z_sm, _ = proportions_ztest(k, n, value=float(p0), prop_var=float(p0))
    assert abs(z_sm - float(z_mp)) <= 1e-9 * abs(float(z_mp)), (z_sm, z_mp)
    print(f"    ({k}, {n}, {k0}, {n0}, {f(z_mp)}), // statsmodels: {z_sm!r}")


print(f"// mpmath {mpmath.__version__}, scipy {scipy.__version__}, statsmodels {statsmodels.__version__}")
print(f"// alpha = 2 (1 - Φ(3)) = {ALPHA!r}; norm.isf(alpha / 2) = {norm.isf(ALPHA / 2)!r}")
print()
# The paper's counts (Table 1). The paper does not give symmetric_reachable: the values here
# are made up, to exercise the mirror-distinct variance with both kinds of reachable sample.
estimate("Shogi, the paper's counts", 5_000_000_000, 40_491_613, 1_234, 0, SHOGI_PK)
estimate("Mini Shogi, the paper's counts", 100_000_000, 14_849_198, 123_456, 0, MINI_PK)
# A small run with undecided searches: the unknown bounds.
estimate("small with unknowns", 10, 3, 1, 2, MINI_PK)
print("// small n: (k, n, p, sigma, normal lo, normal hi, Wilson lo, Wilson hi)")
for k in (0, 10, 3):
    small(k, 10)
print()
print("// z-scores: (k, n, k0, n0, z)")
# A 30-million-sample Shogi run's reachable stage against the paper's, and a Mini Shogi
# check-filter stage below the paper's rate.
z_case(243_170, 354_000, 40_491_613, 58_981_117)
z_case(2_213_000, 7_780_000, 21_506_911, 77_795_825)
