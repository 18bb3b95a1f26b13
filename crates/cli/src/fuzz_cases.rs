//! The case count of the property-based fuzzing of the tool's readers (pictures, checkpoints,
//! manifests): `NONOENUM_FUZZ_CASES`, as in the library's `tests/fuzz_parsers.rs`.

use proptest::prelude::ProptestConfig;

/// `NONOENUM_FUZZ_CASES` cases, or `default` (what the suite runs).
pub(crate) fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("NONOENUM_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(cases)
}

/// Bytes with a few random edits: inserted, deleted or replaced runs of bytes, biased towards
/// digits, separators and quotes.
pub(crate) fn edited(seed: Vec<u8>) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let byte = prop_oneof![
        Just(b'0'),
        Just(b'9'),
        Just(b' '),
        Just(b'\n'),
        Just(b'"'),
        Just(b','),
        Just(b'-'),
        Just(0xc3),
        any::<u8>()
    ];
    let edit = (
        any::<usize>(),
        0usize..4,
        proptest::collection::vec(byte, 0..4),
    );
    proptest::collection::vec(edit, 1..5).prop_map(move |edits| {
        let mut bytes = seed.clone();
        for (at, delete, insert) in edits {
            let at = at % (bytes.len() + 1);
            let end = (at + delete).min(bytes.len());
            let _ = bytes.splice(at..end, insert);
        }
        bytes
    })
}

/// One of `seeds`, edited as [`edited`] does.
pub(crate) fn edited_one_of(
    seeds: Vec<Vec<u8>>,
) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::strategy::Strategy;
    proptest::sample::select(seeds).prop_flat_map(edited)
}
