#!/usr/bin/env bash
# Measures the same JMH benchmarks on two commits, in one command: the working tree's benchmarks
# jar and the one built from BASE (a commit, in a temporary git worktree), run alternately, one
# fork each per round, so that both see the same machine state.
#
#   benchmarks/compare.sh BASE REGEX [ROUNDS] [-- extra JMH options]
#
#   BASE     a commit (for example the one before a change: HEAD~3, or a hash)
#   REGEX    the JMH selection, e.g. 'InlineBench.(scope|reactorSpawn|rxSpawn)$'
#   ROUNDS   how many alternations (default 3); each runs 1 fork, 2 x 1 s warm-up, 3 x 1 s
#            measurement on each jar, the base first in odd rounds and the working tree first in
#            even ones
#   COMPARE_WARMUP, COMPARE_ITERATIONS  warm-up and measurement iterations per fork (default 2
#            and 3): rows still warming up after 2 s measure the JIT's progress as much as the
#            code (docs/benchmarks.md, "Checking a change for regressions")
#   COMPARE_JAVA  the java that runs both jars (default: java on the PATH; both are built with
#            the build's JDK), e.g. COMPARE_JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
#
# Prints one line per benchmark: the mean of the rounds' scores on BASE and on the working tree,
# their ratio (working tree / base), the median of the rounds' own ratios, the spread of the
# rounds, and the ratio of the two sides' fastest iterations (for rows whose iterations are
# bimodal: docs/benchmarks.md). Results (JMH
# JSON per run) go to benchmarks/results/compare-<timestamp>/. Use it on an idle machine: a ratio
# within the rounds' spread is noise.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
base="$1" regex="$2" rounds="${3:-3}"
shift $(( $# >= 3 ? 3 : 2 ))
[ "${1:-}" = "--" ] && shift
extra=("$@")

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="benchmarks/results/compare-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$out"
wt="$(mktemp -d)"
trap 'git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT

git worktree add -q --detach "$wt" "$base"
echo "== building the benchmarks at $base and in the working tree"
(cd "$wt" && mvn -B -q -pl benchmarks -am -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true package)
mvn -B -q -pl benchmarks -am -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true package
cp "$wt/benchmarks/target/benchmarks.jar" "$out/base.jar"
cp benchmarks/target/benchmarks.jar "$out/head.jar"
git -C "$wt" rev-parse HEAD > "$out/base-commit.txt"
git rev-parse HEAD > "$out/head-commit.txt"

for r in $(seq 1 "$rounds"); do
    order="base head"
    [ $((r % 2)) -eq 0 ] && order="head base" # which side runs first alternates: no side always follows the other
    for side in $order; do
        echo "== round $r: $side"
        "${COMPARE_JAVA:-java}" -jar "$out/$side.jar" "$regex" -f 1 -wi "${COMPARE_WARMUP:-2}" -w 1s -r 1s -i "${COMPARE_ITERATIONS:-3}" -prof gc \
            -rf json -rff "$out/$side-$r.json" "${extra[@]}" > "$out/$side-$r.log"
    done
done

python3 - "$out" "$rounds" <<'PY'
import json, sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
scores = {}
for side in ("base", "head"):
    for r in range(1, rounds + 1):
        for b in json.load(open(f"{out}/{side}-{r}.json")):
            key = b["benchmark"].split(".")[-2] + "." + b["benchmark"].split(".")[-1]
            if b.get("params"):
                key += "(" + ",".join(f"{k}={v}" for k, v in b["params"].items()) + ")"
            scores.setdefault(key, {}).setdefault(side, []).append(
                (b["primaryMetric"]["score"], b["primaryMetric"]["scoreUnit"],
                 b.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score"),
                 min(x for fork in b["primaryMetric"]["rawData"] for x in fork)))
print(f"{'benchmark':50} {'base':>12} {'head':>12} {'ratio':>7} {'median':>7} {'spread':>7} {'fastest':>7} {'B/op base':>10} {'B/op head':>10}")
for key, s in sorted(scores.items()):
    b = [x[0] for x in s.get("base", [])]; h = [x[0] for x in s.get("head", [])]
    if not b or not h:
        continue
    unit = s["head"][0][1]
    mb, mh = statistics.mean(b), statistics.mean(h)
    spread = (max(b + h) - min(b + h)) / min(mb, mh)
    ab = s["base"][0][2]; ah = s["head"][0][2]
    fastest = min(x[3] for x in s["head"]) / min(x[3] for x in s["base"])
    median = statistics.median(y / x for x, y in zip(b, h))  # of each round's own ratio
    print(f"{key:50} {mb:10.1f}{unit[:2]:>2} {mh:10.1f}{unit[:2]:>2} {mh / mb:7.2f} {median:7.2f} {spread:7.2f} {fastest:7.2f} "
          f"{(ab or 0):10.1f} {(ah or 0):10.1f}")
PY
echo "(results: $out)"
