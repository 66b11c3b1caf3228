#!/usr/bin/env bash
# Builds the benchmarks, runs JMH (+ the retained-heap Footprint measurement) and renders
# docs/benchmarks.md.   Usage: benchmarks/run.sh [quick|full]   (default: quick)
#
# quick (< 5 min on 2 cores): 1 fork, 2 x 1 s warm-up, 3 x 1 s measurement (4 for the pool
#   group, the noisiest: three threads on two cores); N = 1,000 everywhere, plus N = 100,000 for the inline group; contention only at
#   N = 100,000 (at 1,000 the two-thread hand-off dominates); outstanding churn only at
#   100,000 outstanding; Footprint: 1,000,000 outstanding, 3 repeats.
# full: 3 forks, 5 x 1 s warm-up, 5 x 1 s measurement, every benchmark at both sizes
#   (N = 1,000 and 100,000; outstanding 1,000 and 100,000); Footprint: 5 repeats.
set -euo pipefail
mode="${1:-quick}"
case "$mode" in quick|full) ;; *) echo "usage: $0 [quick|full]" >&2; exit 2 ;; esac

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
results="benchmarks/results"
mkdir -p "$results"
jar="benchmarks/target/benchmarks.jar"
out="$results/$mode.json"
cmds="$results/$mode-commands.txt"
: > "$cmds"

run() {   # echo the exact command into the commands file, then run it
    echo "$*" >> "$cmds"
    "$@"
}

load_before="$(uptime | sed 's/.*load average: //')"
run mvn -B -q -pl benchmarks -am -DskipTests package

jmh=(java -jar "$jar" -rf json -prof gc)
if [ "$mode" = quick ]; then
    opts=(-f 1 -wi 2 -w 1s -r 1s); iters=3
    parts=(
        "InlineBench -p n=1000,100000"
        "PooledBench -p n=1000 -i 4"
        "NestBench|SpawnFutureBench|AdapterBench|LetAsyncScopeBench|ScopeLifecycleBench -p n=1000"
        "ContentionBench -p n=100000"
        "OutstandingBench -p outstanding=100000"
    )
    fp=(1000000 3)
else
    opts=(-f 3 -wi 5 -w 1s -r 1s); iters=5
    parts=("Bench")
    fp=(1000000 5)
fi

files=()
i=0
for part in "${parts[@]}"; do
    read -r regex rest <<< "$part"
    f="$results/$mode-part$i.json"
    case " $rest " in *" -i "*) it=() ;; *) it=(-i "$iters") ;; esac
    # shellcheck disable=SC2086
    run "${jmh[@]}" -rff "$f" "${opts[@]}" "${it[@]}" "$regex" $rest
    files+=("$f")
    i=$((i + 1))
done
# one JSON for the whole run
python3 -c 'import json,sys; print(json.dumps([r for f in sys.argv[2:] for r in json.load(open(f))], indent=1), file=open(sys.argv[1], "w"))' "$out" "${files[@]}"
rm -f "${files[@]}"
echo "merged into $out" 

run java -XX:+UseSerialGC -Xms2g -Xmx2g -cp "$jar" dev.senders.bench.Footprint "${fp[@]}" "$results/$mode-footprint.json"
load_after="$(uptime | sed 's/.*load average: //')"

python3 benchmarks/render.py "$mode" "$out" "$results/$mode-footprint.json" "$cmds" \
    "$load_before" "$load_after" docs/benchmarks.md
