//! The tests that run the `nonoenum` binary, one test binary for all (each module a subject):
//! `cargo test -p nonoenum-cli --test cli MODULE::` runs one subject.

mod common;

mod bad_input;
mod checkpoint;
mod color;
mod compact;
mod count_exact;
mod count_per_cell;
mod doc_examples;
mod error_messages;
mod faults;
mod formats_cli;
mod general;
mod input_size;
mod limits;
mod ordered;
mod output_targets;
mod progress;
mod random_clues;
mod scale;
mod split_merge;
mod stopped_split_make;
mod surface;
