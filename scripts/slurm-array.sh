#!/usr/bin/env bash
#SBATCH --job-name=nonoenum-part
#SBATCH --output=nonoenum-%A_%a.out
# Runs the parts of a `nonoenum split` folder as a Slurm job array, one task per part, and merges
# the results in a job that starts when every task has succeeded.
#
# Usage:
#   scripts/slurm-array.sh submit DIR [--mode count|list] [--missing] [-- SBATCH_OPTIONS...]
#       submits the array (tasks 1..number of parts) and the merge job; --missing submits only
#       the parts that have no complete result yet (a re-run after failures)
#   scripts/slurm-array.sh run DIR [--mode count|list]
#       one task: runs part number $SLURM_ARRAY_TASK_ID (what each array task does)
#   scripts/slurm-array.sh merge DIR [--mode count|list]
#       merges into DIR/merged.txt (what the merge job does)
#
# Environment: NONOENUM, the nonoenum binary (default: `nonoenum` on PATH, else the release
# build of this repository); THREADS, nonoenum threads per task (default: SLURM_CPUS_PER_TASK,
# else 1). DIR must be on a file system that every node sees. Results go to
# DIR/results/part-NNN.json through a temporary file and a rename.
set -euo pipefail

usage() { sed -n '4,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

action=${1:-}; dir=${2:-}
[ -n "$action" ] && [ -n "$dir" ] || usage
shift 2
mode=count missing= sbatch_options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) mode=${2:?}; shift 2 ;;
    --missing) missing=1; shift ;;
    --) shift; sbatch_options=("$@"); break ;;
    *) usage ;;
  esac
done
case "$mode" in count|list) ;; *) echo "slurm-array: --mode is count or list" >&2; exit 2 ;; esac
[ -f "$dir/manifest.json" ] || { echo "slurm-array: $dir/manifest.json: not a split folder" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
if [ -z "${NONOENUM:-}" ]; then
  if command -v nonoenum >/dev/null; then NONOENUM=$(command -v nonoenum)
  else NONOENUM="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)/target/release/nonoenum"; fi
fi
export NONOENUM
mapfile -t parts < <(find "$dir" -maxdepth 1 \( -name 'part-*.txt' -o -name 'part-*.g' \) | sort)

# Whether part file $1 has a complete result.
complete() {
  local name; name=$(basename "$1")
  local result="$dir/results/${name%.*}.json"
  [ -f "$result" ] && ! grep -q '"complete":false' "$result" && tail -n 1 "$result" | grep -q '"complete":true'
}

case "$action" in
  submit)
    indices=()
    for i in "${!parts[@]}"; do
      if [ -z "$missing" ] || ! complete "${parts[$i]}"; then indices+=($((i + 1))); fi
    done
    if [ ${#indices[@]} -eq 0 ]; then echo "slurm-array: every part has a complete result"; exit 0; fi
    array=$(IFS=,; echo "${indices[*]}")
    script=$(readlink -f "$0")
    job=$(sbatch --parsable --array="$array" "${sbatch_options[@]}" "$script" run "$dir" --mode "$mode")
    merge=$(sbatch --parsable --dependency="afterok:${job%%;*}" --job-name=nonoenum-merge \
      --output="$dir/merge-%j.out" "$script" merge "$dir" --mode "$mode")
    echo "submitted array job $job (${#indices[@]} parts) and merge job $merge; the total goes to $dir/merged.txt"
    ;;
  run)
    task=${SLURM_ARRAY_TASK_ID:?run is for a Slurm array task (SLURM_ARRAY_TASK_ID is not set)}
    part=${parts[$((task - 1))]:?no part number $task in $dir}
    name=$(basename "$part")
    result="$dir/results/${name%.*}.json"
    mkdir -p "$dir/results"
    # Exit code 1 (a subtree of the part has no solution) is a complete run too.
    status=0
    "$NONOENUM" "$mode" --to jsonl --quiet --threads "${THREADS:-${SLURM_CPUS_PER_TASK:-1}}" "$part" > "$result.tmp" || status=$?
    [ "$status" -le 1 ] || exit "$status"
    mv "$result.tmp" "$result"
    ;;
  merge)
    list=; [ "$mode" = list ] && list=--list
    "$NONOENUM" merge $list "$dir" > "$dir/merged.txt.tmp"
    mv "$dir/merged.txt.tmp" "$dir/merged.txt"
    ;;
  *) usage ;;
esac
