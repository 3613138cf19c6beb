//! CSA files as `check-tsume` and `mate --file` read them: any bytes, UTF-8 or Shift_JIS,
//! are refused with an error naming a line of the text, or read into a record that writes
//! back, as KIF and as CSA, to the same record (fuzz/src/records.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shogi_count_fuzz::records::csa(data));
