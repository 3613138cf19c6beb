//! Magic bitboards: the slides of a piece along a set of directions, looked up in one
//! table by the occupancy of the squares that can block them (every square of a slide but
//! its last, which lies on the board's edge). That occupancy is folded from the `u128`
//! into a `u64`, the high word shifted left by one and ORed onto the low one, multiplied by
//! the square's magic number, and the product's top bits index the square's part of the
//! table. On the 9x9 board the high word holds file 7 but its first rank, and file 8
//! (bits 64 to 80); the blocking squares of a diagonal or a rank there are on file 7,
//! ranks 1 to 7, which land on bits 1 to 8, file 0's squares, never blocking squares of a
//! diagonal or a rank; a file's blocking squares are all in one word. Mini Shogi's 25
//! squares are all in the low word. [`table`] checks every occupancy of every square at
//! compile time, so a fold or a magic number that mixed up two occupancies with different
//! slides would not build.
//!
//! The magic numbers were found once by a random search (sparse random words, each
//! checked against every occupancy of its square) and are written down here; the tables
//! are built from the rays at compile time. Against the per-ray bit scans used before
//! (the "classical approach") and the byte-swapping ("Qugiy") variant for the slides
//! towards lower indices, this measured faster on the perft suite (docs/BENCHMARKS.md).

use crate::geometry::{DIRS, MAX_SQUARES};
use crate::Bitboard;

/// One square's entry: the squares that can block, its magic number, the shift that
/// keeps the index's bits and where its part of the table starts.
#[derive(Clone, Copy)]
pub(crate) struct Magic {
    mask: u128,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    const EMPTY: Magic = Magic {
        mask: 0,
        magic: 0,
        shift: 63,
        offset: 0,
    };

    /// The index in the table of the slides from this entry's square with occupancy `occ`.
    #[inline(always)]
    pub(crate) const fn index(&self, occ: Bitboard) -> usize {
        let o = occ.0 & self.mask;
        let folded = o as u64 | ((o >> 64) as u64) << 1;
        (folded.wrapping_mul(self.magic) >> self.shift) as usize + self.offset as usize
    }
}

/// The directions (indices into `DIRS`) of the bishop's slides.
pub(crate) const BISHOP: &[usize] = &[4, 5, 6, 7];
/// The directions of the rook's slides along its rank.
pub(crate) const RANK: &[usize] = &[2, 3];
/// The directions of the rook's slides along its file.
pub(crate) const FILE: &[usize] = &[0, 1];

/// The slides from `s` along `dirs` on a `w` x `h` board with occupancy `occ`, each up to
/// and including its first blocker; with `inner`, the squares that can block instead:
/// every square of each slide but its last.
const fn walk(w: i32, h: i32, s: usize, dirs: &[usize], occ: u128, inner: bool) -> u128 {
    let (x, y) = (s as i32 / h, s as i32 % h);
    let mut set = 0u128;
    let mut i = 0;
    while i < dirs.len() {
        let (dx, dy) = (DIRS[dirs[i]].0 as i32, DIRS[dirs[i]].1 as i32);
        let (mut cx, mut cy) = (x + dx, y + dy);
        while cx >= 0 && cy >= 0 && cx < w && cy < h {
            let bit = 1u128 << (cx * h + cy);
            let (nx, ny) = (cx + dx, cy + dy);
            let last = nx < 0 || ny < 0 || nx >= w || ny >= h;
            if !inner || !last {
                set |= bit;
            }
            if !inner && occ & bit != 0 {
                break;
            }
            cx = nx;
            cy = ny;
        }
        i += 1;
    }
    set
}

/// The magic numbers of a board and a set of directions.
const fn numbers(w: u8, dirs: &[usize]) -> &'static [u64] {
    match (w, dirs[0]) {
        (9, 4) => &SHOGI_BISHOP,
        (5, 4) => &MINI_BISHOP,
        (9, 2) => &SHOGI_RANK,
        (5, 2) => &MINI_RANK,
        (9, 0) => &SHOGI_FILE,
        (5, 0) => &MINI_FILE,
        _ => panic!("no magic numbers for this board"),
    }
}

/// The entries of every square of a `w` x `h` board for the slides along `dirs`, and the
/// length of the table they index.
pub(crate) const fn magics(w: u8, h: u8, dirs: &[usize]) -> ([Magic; MAX_SQUARES], usize) {
    let numbers = numbers(w, dirs);
    let mut m = [Magic::EMPTY; MAX_SQUARES];
    let mut offset = 0;
    let mut s = 0;
    while s < w as usize * h as usize {
        let mask = walk(w as i32, h as i32, s, dirs, 0, true);
        let bits = mask.count_ones();
        m[s] = Magic {
            mask,
            magic: numbers[s],
            shift: 64 - if bits == 0 { 1 } else { bits },
            offset: offset as u32,
        };
        offset += 1 << (64 - m[s].shift);
        s += 1;
    }
    (m, offset)
}

/// The table of the slides along `dirs` on a `w` x `h` board, `N` entries long (the length
/// [`magics`] gives). Compile-time evaluation fails if two occupancies with different slides
/// share an index.
pub(crate) const fn table<const N: usize>(w: u8, h: u8, dirs: &[usize]) -> [Bitboard; N] {
    let (m, len) = magics(w, h, dirs);
    assert!(
        len == N,
        "the table's length is not the one its entries index"
    );
    let mut t = [Bitboard(0); N];
    let mut filled = [false; N];
    let mut s = 0;
    while s < w as usize * h as usize {
        let mask = m[s].mask;
        // Every subset of the mask, by the carry-rippler.
        let mut sub = 0u128;
        loop {
            let slides = walk(w as i32, h as i32, s, dirs, sub, false);
            let i = m[s].index(Bitboard(sub));
            assert!(!filled[i] || t[i].0 == slides, "a magic number collides");
            t[i] = Bitboard(slides);
            filled[i] = true;
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        s += 1;
    }
    t
}

#[rustfmt::skip]
const SHOGI_BISHOP: [u64; 81] = [
    0x0020088210402482, 0x00210F120808480C, 0x001E02004003410C,
    0x0004008004020005, 0x000200B404000801, 0x0001844021002000,
    0xAC40408211220000, 0x4681000840A01080, 0x2000200A188004D0,
    0x2082008200304082, 0x050000A102040841, 0x005003012020A1A4,
    0x0011208040200108, 0x4095008040240000, 0x4140028050412800,
    0x0000041009016084, 0x044BE48004204010, 0x1000021104024008,
    0x0120600180811010, 0x0202400100800201, 0x00020001408000A4,
    0x1020200880140404, 0x8005200080100500, 0x4001001820049002,
    0x5A10800010020148, 0x2300220041201004, 0x0080480810180420,
    0x0120840002410020, 0x0C40C10E21002020, 0x4040510000082010,
    0x0602004000064804, 0x0081002000092402, 0x4020402000188010,
    0x0118104001280C84, 0x08008A1080020120, 0x004341211E410210,
    0x2800410808008008, 0x410200410A200C40, 0x41000A001028C022,
    0x0200040080000201, 0x0101001040006008, 0xA404004000881042,
    0x2880220420000402, 0x9C040018C8080C01, 0x0202000C02010201,
    0x0100820044000040, 0x0709C43100800080, 0x0800804022A00024,
    0x0100348800401001, 0x00401804420400B0, 0x012804302000810C,
    0x0401008014022004, 0x5100804480C1004C, 0x008180800440A00C,
    0x402890258300C400, 0x0428829009004008, 0x04008004010A4001,
    0x0800000220081410, 0x0500008020051006, 0x0208008008500800,
    0x0028082020802400, 0x02080240C8080400, 0x8080408180021100,
    0x8061001088842040, 0x142D200880044230, 0x2420004002900421,
    0x4902250190434220, 0x0440000002030412, 0xA062000600980804,
    0x000480908102A043, 0x018800804104202C, 0x8008128050030414,
    0x1010410880020430, 0x1084000A14084010, 0xC21421900820101A,
    0x4412000052628104, 0x0400022140142043, 0x010240303110480C,
    0x0100160047006804, 0x12003804A0200C04, 0x0008181040480084,
];

#[rustfmt::skip]
const MINI_BISHOP: [u64; 25] = [
    0x008C601080000120, 0x8085200000110120, 0x0180000100840042,
    0x1109210090008040, 0x9082400010008000, 0x04102050C0800004,
    0x4405280288000010, 0x0132190000000480, 0x000480610002E000,
    0x1802408804400480, 0x0100808040020020, 0x0300201450000000,
    0x008430402C008601, 0x08844C1000005800, 0x04A0100004000004,
    0x009338C080002084, 0x1058130010102004, 0x840C4002B0800012,
    0x2108262088001800, 0x4102080020080802, 0x2EA8400000006000,
    0x0004200581800000, 0x000094108A084090, 0x0810200300022040,
    0x8128080028120001,
];

#[rustfmt::skip]
const SHOGI_RANK: [u64; 81] = [
    0x0110008200822101, 0x0830940882001100, 0x4121002401002020,
    0xD000850300245002, 0x0448400900400808, 0x0402081010100108,
    0x0041040444201802, 0x0041400C0112C104, 0x0410044800440822,
    0x840010040085224B, 0x040A104140808280, 0x4240020400400842,
    0x0408440020801002, 0x0401008008802404, 0x8082018004102021,
    0x0850023040020424, 0x020810110C090806, 0x00105C2104040442,
    0x001C020222102101, 0x101024C860806300, 0x2000A00200883110,
    0x0404040200121002, 0x8210208080280920, 0xC1004020C8400188,
    0x00817122A0050208, 0x0490100010808807, 0x2180044922085101,
    0x0420480028842043, 0x2420080141084008, 0x3011004002890070,
    0x04090046108004C0, 0x4202089000500420, 0x7862405058202004,
    0x8842808847A04082, 0x014018200045810C, 0x0C11020200121A02,
    0x0060120228010011, 0x0403060808410040, 0x350C090047028480,
    0x1046004040004082, 0x048228802400E020, 0x21A204A008607808,
    0x0101000C1C202202, 0x0054900220411401, 0x08910411100C0101,
    0x9021820202014111, 0x9002008800801080, 0x2004004080244040,
    0x0400812040800140, 0x1504089040420412, 0x0080190140D00003,
    0x8840086084200044, 0x0480101A08010404, 0x3808082810004001,
    0x2820644300410801, 0x0C10020244018000, 0x0A06040400D04020,
    0x00C404024010A001, 0x0801006280101200, 0x0080204080618104,
    0x0020448008100082, 0x03024C2002022610, 0x0442400A00850100,
    0x4C40152C0404802A, 0x000202006C010040, 0x808108010012A041,
    0x0408108B00082004, 0x200600A040940820, 0x021E002009020808,
    0x0400808004040082, 0x021040080A008803, 0x0001121801040086,
    0x0848980244004011, 0x2003314800408021, 0x0110010200801043,
    0x0200204080804440, 0x20204A8100400801, 0x0401101020604082,
    0x044100200204C10C, 0x008028104181810C, 0x1248010C30020821,
];

#[rustfmt::skip]
const MINI_RANK: [u64; 25] = [
    0x8609008212000100, 0x0890403100020002, 0x2086400031100400,
    0x0824300000004000, 0x0092081042100480, 0x04A08004010B1050,
    0x10906CA000002208, 0x890CC00815200080, 0x204A204409800000,
    0x0882082100808000, 0x8205102000200000, 0x15008800000C2180,
    0x0140200028080008, 0x0160200000444480, 0x0058880412800800,
    0x42A00C1020200801, 0x2688080000010010, 0x6288060018400000,
    0x0044000000000010, 0x0249058002480002, 0x022050E000001101,
    0x8090500030092130, 0x00834044000100B2, 0x00641000230C0908,
    0x00120A0000208221,
];

#[rustfmt::skip]
const SHOGI_FILE: [u64; 81] = [
    0x0204001881400400, 0x2244008200400100, 0x0300220800008000,
    0x2040800400010500, 0x0900808800400210, 0x5102000002080980,
    0x2100000004080003, 0x1041004400410180, 0x0100000000004000,
    0x1006040020010000, 0x0004100080021412, 0x0001805812401800,
    0x0002804080080021, 0x0018100080912149, 0x0028800010061000,
    0x4082042920080580, 0x1025001240046100, 0x0801808000008000,
    0x801000404A001092, 0x0180004080009808, 0x0080C0C002A40080,
    0x0001081002600040, 0x0800024020012400, 0x0000044000034410,
    0x0400810200010080, 0x2100008000800000, 0x0400102000001008,
    0xE401800020004000, 0x2001A54820080220, 0x024018006000006A,
    0x6804001408006880, 0x6000048204010000, 0x8A00270502010020,
    0x00044888810000A8, 0x4020282504082002, 0x00050C00A0000002,
    0x0000002082100008, 0x5000304000100002, 0x228002B008300200,
    0x1110030422040000, 0x0002000400900000, 0x8000000001100024,
    0x0000000602100C84, 0x0020400018200001, 0xA000A00018100020,
    0x2402090000400808, 0x0010284000808800, 0x0210012200020400,
    0x00020028E1810209, 0x02008A4080024808, 0x0068080040A44082,
    0x0208004804002045, 0x8080003000061008, 0x0300000008004080,
    0x001B088004002004, 0x0920800180104804, 0x000011040401090C,
    0x0400820005080034, 0x0048001000040824, 0x0100800028000C44,
    0x0010800028000084, 0x00020008208A6104, 0x100000200A002034,
    0x0101190410001001, 0x51000001004C1441, 0x0700028000013000,
    0x2040202002048904, 0x5020A20201020020, 0x1102241040400002,
    0x0408000800000042, 0x8410100805080004, 0x4810100002490202,
    0x9953800800120180, 0x0800801000000000, 0x002040020040400B,
    0x0030204282000110, 0x98048100040020A8, 0x0888810A00000800,
    0x3A10802024001200, 0x008D005118004030, 0x0500804081000001,
];

#[rustfmt::skip]
const MINI_FILE: [u64; 25] = [
    0x5008200100008008, 0x5000465C23804E00, 0x3001AC5600200000,
    0x200200008A000020, 0x1015080300080000, 0x0120401402000840,
    0x1380A0C100400000, 0x1180080109080000, 0x0140020080040000,
    0x0480000020400008, 0xD00C0864B0100080, 0x0205480020040001,
    0x00CC280021005000, 0x2028000000000008, 0x00041001C0614000,
    0x0400240921000100, 0x04102050C0800004, 0x0002B00000280000,
    0x1361C04000406000, 0x0C00922008010014, 0x0020010009000800,
    0x00480100A0800100, 0x2001048602202110, 0x0800822020000001,
    0x2044049040640000,
];
