#!/bin/sh
# Runs one libFuzzer target for SECONDS with a stable toolchain (what `cargo fuzz run` does,
# without nightly or AddressSanitizer): fuzz/run.sh parse|givens|listing SECONDS [ARGS...].
# The corpus grows in fuzz/corpus/TARGET, crashes land in fuzz/artifacts/TARGET.
set -eu
target=$1
seconds=$2
shift 2
cd "$(dirname "$0")"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions \
-Coverflow-checks"
# With --target, the flags reach the fuzzed code and not the build scripts.
triple=$(rustc -vV | sed -n 's/^host: //p')
cargo build --release --target "$triple" --bin "$target"
mkdir -p "corpus/$target" "artifacts/$target"
# Seeds: the bundled puzzles and bad inputs for the puzzle reader, hand-made files otherwise.
case $target in
parse) seeds="../puzzles ../tests/bad-input" ;;
*) seeds="seeds/$target" ;;
esac
# shellcheck disable=SC2086
exec ./target/"$triple"/release/"$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="artifacts/$target/" "$@" "corpus/$target" $seeds
