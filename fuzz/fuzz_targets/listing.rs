//! The compact listing reader: every line of any bytes is an item or an error, and each
//! solution read holds the cells its header promised.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nonoenum::{ListingItem, read_listing};

fuzz_target!(|bytes: &[u8]| {
    let mut listing = read_listing(bytes);
    while let Some(item) = listing.next() {
        if let Ok(ListingItem::Solution(solution)) = item {
            let header = listing.header().expect("a solution after a header");
            assert_eq!(solution.cells().len(), header.rows * header.cols);
            let _ = solution.rows();
        }
    }
});
