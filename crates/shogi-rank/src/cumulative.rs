//! Finding which of many consecutive ranges of a 256-bit interval holds a number: the hand
//! classes of the rank table and of the placement-legal subspace.

use crate::u256::U256;

/// `log2` of the largest number of buckets of the jump table (4 bytes each; 1 MiB at
/// most). With 2^18 buckets a uniform Shogi rank walks past 0.08 class boundaries on
/// average (1.2 with 2^16, 4.6 with 2^14).
const BUCKET_BITS: u32 = 18;

/// Consecutive ranges `[offsets[i], offsets[i + 1])` covering `[0, total)`, with a jump
/// table on the high bits of a number: the ranges are very unequal in size, and a uniform
/// number nearly always falls in a bucket that lies inside one range. This replaces a
/// binary search over up to 106,875 offsets.
#[derive(Clone, Debug)]
pub(crate) struct Cumulative {
    /// The start of each range, then `total` (a sentinel for `find`).
    offsets: Vec<U256>,
    /// `r >> shift` is the bucket of `r`.
    shift: u32,
    /// `first[b]`: the range holding the smallest number of bucket `b`.
    first: Vec<u32>,
}

impl Cumulative {
    /// The ranges of these sizes, in order. Panics if the sum exceeds 256 bits, naming
    /// `what`.
    pub(crate) fn new(sizes: impl IntoIterator<Item = U256>, what: &str) -> Cumulative {
        let mut offsets = Vec::new();
        let mut total = U256::ZERO;
        for size in sizes {
            offsets.push(total);
            total = total
                .checked_add(size)
                .unwrap_or_else(|| panic!("{what} exceeds 256 bits"));
        }
        let ranges = offsets.len();
        offsets.push(total);
        // About four buckets per range, at most 2^BUCKET_BITS.
        let bucket_bits = (usize::BITS - ranges.leading_zeros() + 2).min(BUCKET_BITS);
        let last = total.checked_sub(U256::ONE).unwrap_or(U256::ZERO);
        let shift = last.bits().saturating_sub(bucket_bits);
        let buckets = last.shr_low_u64(shift) as usize + 1;
        let mut first = Vec::with_capacity(buckets);
        let mut i = 0;
        for b in 0..buckets {
            let start = U256::from(b as u64).shl(shift);
            while i + 1 < ranges && offsets[i + 1] <= start {
                i += 1;
            }
            first.push(i as u32);
        }
        Cumulative {
            offsets,
            shift,
            first,
        }
    }

    /// The sum of the sizes.
    #[inline]
    pub(crate) fn total(&self) -> U256 {
        self.offsets[self.offsets.len() - 1]
    }

    /// The number of ranges.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The start of range `i` (`i <= len()`, where `len()` gives the total).
    #[inline]
    pub(crate) fn offset(&self, i: usize) -> U256 {
        self.offsets[i]
    }

    /// The size of range `i` (`i < len()`).
    pub(crate) fn size(&self, i: usize) -> U256 {
        self.offsets[i + 1]
            .checked_sub(self.offsets[i])
            .expect("offsets ascend")
    }

    /// The index of the range holding `r` (`r < total()`; the last range for larger `r`).
    #[inline]
    pub(crate) fn find(&self, r: U256) -> usize {
        let last = self.len() - 1;
        if r >= self.total() {
            return last;
        }
        let mut i = self.first[r.shr_low_u64(self.shift) as usize] as usize;
        while self.offsets[i + 1] <= r {
            i += 1;
        }
        i
    }
}
