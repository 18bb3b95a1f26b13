#!/usr/bin/env bash
# Runs the parts of a `nonoenum split` folder with GNU parallel, on this machine or on many
# hosts, then merges their results with `nonoenum merge`.
#
# Usage: scripts/run-gnu-parallel.sh [OPTIONS] DIR
#
#   --mode count|list   what each part runs (default: count); `list` merges every solution
#   --jobs N            jobs at once on each host (default: one per core)
#   --threads N         nonoenum threads per job (default: 1, as GNU parallel runs one job per core)
#   --sshlogin LOGIN    run jobs on these hosts (repeatable; GNU parallel's syntax, `:` is this
#                       machine). DIR must be at the same absolute path on every host (a shared
#                       file system), and nonoenum at the same path (see NONOENUM).
#   --resume-failed     run again only the jobs that failed or never ran, per DIR/joblog
#   --no-merge          run the parts, do not merge
#
# Environment: NONOENUM, the nonoenum binary (default: `nonoenum` on PATH, else the release
# build of this repository).
#
# Each job writes DIR/results/part-NNN.json through a temporary file and a rename, so a killed job
# leaves no half-written result. GNU parallel records every job in DIR/joblog; after a failure,
# the same command with --resume-failed runs only what is missing. The exit status is 0 when
# every part ran and the merge succeeded.
set -euo pipefail

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }

mode=count jobs= threads=1 resume= merge=1 dir=
sshlogins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) mode=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    --threads) threads=${2:?}; shift 2 ;;
    --sshlogin) sshlogins+=(--sshlogin "${2:?}"); shift 2 ;;
    --resume-failed) resume=--resume-failed; shift ;;
    --no-merge) merge=; shift ;;
    -h|--help) usage 0 ;;
    -*) echo "run-gnu-parallel: unknown option $1" >&2; usage ;;
    *) [ -z "$dir" ] || usage; dir=$1; shift ;;
  esac
done
[ -n "$dir" ] || usage
case "$mode" in count|list) ;; *) echo "run-gnu-parallel: --mode is count or list" >&2; exit 2 ;; esac
command -v parallel >/dev/null || { echo "run-gnu-parallel: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
[ -f "$dir/manifest.json" ] || { echo "run-gnu-parallel: $dir/manifest.json: not a split folder" >&2; exit 2; }

if [ -z "${NONOENUM:-}" ]; then
  if command -v nonoenum >/dev/null; then NONOENUM=$(command -v nonoenum)
  else NONOENUM="$(cd "$(dirname "$0")/.." && pwd)/target/release/nonoenum"; fi
fi
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/results"

# One job per part file; `{/.}` is its name without folder and extension. Exit code 1 (a subtree
# of the part has no solution) is a complete run too; merge checks every result line anyway.
job="$(printf %q "$NONOENUM") $mode --to jsonl --quiet --threads $threads {} > $(printf %q "$dir")/results/{/.}.json.tmp; [ \$? -le 1 ] && mv $(printf %q "$dir")/results/{/.}.json.tmp $(printf %q "$dir")/results/{/.}.json"
status=0
find "$dir" -maxdepth 1 \( -name 'part-*.txt' -o -name 'part-*.g' \) | sort |
  parallel ${jobs:+--jobs "$jobs"} "${sshlogins[@]}" --joblog "$dir/joblog" $resume "$job" || status=$?
if [ "$status" -ne 0 ]; then
  echo "run-gnu-parallel: $status job(s) failed (see $dir/joblog); run again with --resume-failed" >&2
fi
if [ -n "$merge" ]; then
  list=; [ "$mode" = list ] && list=--list
  "$NONOENUM" merge $list "$dir" || exit 1
fi
[ "$status" -eq 0 ] || exit 1
