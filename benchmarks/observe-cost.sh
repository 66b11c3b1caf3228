#!/usr/bin/env bash
# What observability costs on the spawn path (ObserveBench), measured so that a shared, busy
# machine can still answer: ROUNDS paired rounds, each running every variant in its own JVM
# (1 fork, 3 x 1 s warm-up, 4 x 1 s measurement, -prof gc) back to back, the order rotated from
# round to round; per round, each variant's median iteration is divided by the baseline's
# ("before": the spawn path as it was before names and the dump, rebuilt in the benchmark).
# Prints, per variant, the median of those ratios with its quartiles, and B/task.
#
#   benchmarks/observe-cost.sh [ROUNDS] [VARIANTS...]     (default: 12 before unnamedScope namedScope namedWork captureOn)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
rounds="${1:-12}"
shift || true
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(before unnamedScope namedScope namedWork captureOn)
out="benchmarks/results/observe-cost"
mkdir -p "$out"
rm -f "$out"/*.json
mvn -B -q -pl benchmarks -am -DskipTests package
echo "load before: $(uptime | sed 's/.*load average: //')"
n=${#variants[@]}
for r in $(seq 1 "$rounds"); do
  for k in $(seq 0 $((n - 1))); do
    v=${variants[$(( (k + r) % n ))]}
    # JMH allows one run per machine (/tmp/jmh.lock): wait for another one to end
    while java -jar benchmarks/target/benchmarks.jar "ObserveBench.$v\$" -f 1 -wi 3 -i 4 -prof gc \
        -rf json -rff "$out/r$r-$v.json" > "$out/r$r-$v.log" 2>&1; \
        grep -q "Unable to acquire the JMH lock" "$out/r$r-$v.log"; do
      sleep 30
    done
  done
done
echo "load after: $(uptime | sed 's/.*load average: //')"
python3 - "$out" <<'PY'
import collections, glob, json, os, re, statistics, sys
out = sys.argv[1]
med, alloc = collections.defaultdict(dict), collections.defaultdict(list)
for f in glob.glob(os.path.join(out, 'r*-*.json')):
    r, v = re.match(r'r(\d+)-(\w+)\.json', os.path.basename(f)).groups()
    d = json.load(open(f))
    n = 1000  # ObserveBench's n: the score is per invocation of n tasks
    raw = [x for fork in d[0]['primaryMetric']['rawData'] for x in fork]
    med[int(r)][v] = statistics.median(raw) / n
    alloc[v].append(d[0]['secondaryMetrics']['gc.alloc.rate.norm']['score'] / n)
print('| variant | ns/task (median of rounds) | ratio to before: median (quartiles) | B/task |')
print('|---|---|---|---|')
for v in sorted(alloc, key=lambda v: (v != 'before', v)):
    ns = statistics.median(m[v] for m in med.values() if v in m)
    rs = [m[v] / m['before'] for m in med.values() if v in m and 'before' in m]
    q = statistics.quantiles(rs, n=4) if len(rs) > 1 else [rs[0]] * 3
    print('| %s | %.1f | %.3f (%.2f-%.2f) | %.1f |' % (v, ns, statistics.median(rs), q[0], q[2], statistics.median(alloc[v])))
PY
