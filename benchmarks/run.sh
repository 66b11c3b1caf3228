#!/usr/bin/env bash
# Builds the benchmarks, runs JMH (-prof gc) and Footprint, and renders the targets table of
# docs/benchmarks.md (benchmarks/render.py).   Usage: benchmarks/run.sh [quick|full|smoke]   (default: quick)
#
# quick: the rows of the targets table only, at the sizes the targets name (n = 1,000 tasks;
#   outstanding 1, 1,000 and 100,000). 1 fork, 2 x 1 s warm-up, 3 x 1 s measurement; 3 forks for
#   the spawn rows (inline, pool, shared), whose targets sit near 1.0x where one fork moves a row
#   by +-10 %, and 4 measurements for the pool and shared rows, the noisiest (three busy threads
#   on two cores); the starter's rows 2 forks of 4 x 2 s warm-up (its observed rows run
#   Micrometer's paths in the interpreter for seconds: shorter, their first iterations are
#   several times the others), and the round trips 8 x 1 s of warm-up (still being compiled in
#   their first 2 s: those iterations are up to twice the later ones). Footprint (1,000,000
#   outstanding, 3 repeats) and the -Xmx64m fit: about 30 minutes on 2 idle cores for both
#   JDKs, build included.
# full: every benchmark class but ObserveBench (benchmarks/observe-cost.sh measures it) at every
#   size, 3 forks, 5 x 1 s warm-up, 5 x 1 s measurement (about 2 hours); Footprint 5 repeats.
# smoke: quick's benchmarks, no warm-up, one 200 ms iteration each, Footprint once (about 2
#   minutes): checks that everything runs and renders; its figures mean nothing.
#
# Every JMH part runs twice: on the default JDK, then on the newest JDK 21+ under /usr/lib/jvm
# (BENCH_JDK2=/path/to/jdk picks another); Footprint runs on the default JDK.
#
# Output in benchmarks/results/ (ignored by git): <mode>.json (JMH, all parts merged),
# <mode>-jdk<N>.json (the same on JDK N), <mode>-footprint.json, <mode>-fits64m.json,
# <mode>-commands.txt (the exact commands), <mode>-load.txt; then render.py writes the committed
# docs/results/benchmarks-<mode>.md. Re-render without re-running:
#   python3 benchmarks/render.py <mode>
set -euo pipefail
mode="${1:-quick}"
case "$mode" in quick|full|smoke) ;; *) echo "usage: $0 [quick|full|smoke]" >&2; exit 2 ;; esac

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
results="benchmarks/results"
mkdir -p "$results"
jar="benchmarks/target/benchmarks.jar"
cmds="$results/$mode-commands.txt"
: > "$cmds"

record() {   # the command, as it can be pasted into a shell, into the commands file
    local a out=()
    for a in "$@"; do
        if [[ "$a" =~ ^[A-Za-z0-9_./=,:@%+-]+$ ]]; then out+=("$a"); else out+=("'${a//\'/\'\\\'\'}'"); fi
    done
    echo "${out[*]}" >> "$cmds"
}

run() {   # record the exact command, then run it
    record "$@"
    "$@"
}

jmh() {   # run JMH; JMH allows one run per machine (/tmp/jmh.lock): wait for another one to end
    record "$@"
    local log
    log="$(mktemp)"
    until "$@" 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" -eq 0 ]; do
        if grep -q "Unable to acquire the JMH lock" "$log"; then
            echo "another JMH run holds the lock; retrying in 30 s" >&2
            sleep 30
        else
            rm -f "$log"
            return 1
        fi
    done
    rm -f "$log"
}

uptime | sed 's/.*load average: //' > "$results/$mode-load.txt"
run mvn -B -q -pl benchmarks -am -DskipTests package

base=(java -jar "$jar" -rf json -prof gc)
if [ "$mode" = full ]; then
    opts=(-f 3 -wi 5 -w 1s -r 1s -i 5)
    parts=("Bench -e ObserveBench")
    repeats=5
else
    if [ "$mode" = quick ]; then
        opts=(-f 1 -wi 2 -w 1s -r 1s -i 3); spawn=(-f 3); pool=(-f 3 -i 4); starter=(-f 2 -wi 4 -w 2s); warm=(-wi 8); repeats=3
    else
        opts=(-f 1 -wi 0 -r 200ms -i 1); spawn=(); pool=(); starter=(); warm=(); repeats=1
    fi
    # regex, then its own options (a part's -i replaces the default)
    parts=(
        "InlineBench.(floor|scope|reactor|rxjava|reactorSpawn|reactorSpawnSimple|rxSpawn|rxSpawnSimple|reactorAsync|reactorSpawnAsync|rxjavaAsync|rxSpawnAsync)$ -p n=1000 ${spawn[*]}"
        "PooledBench.(reactor|rxjava|reactorSpawn|rxSpawn)$ -p n=1000 ${pool[*]}"
        "StarterSpawnBench.(starterPlain|starterContext|starterObservation|starterBoth|starterBoot|composite|compositeObserved|compositeObservedKeyed)$ -p n=1000 ${starter[*]}"
        "RoundTripBench -p n=1000 ${warm[*]}"
        "NestBench -p n=1000"
        "ContentionBench.(reactor|rxjava|reactorSpawn|rxSpawn)$ -p n=1000 ${pool[*]}"
        "ScopeLifecycleBench.(countingCreateCloseJoin|createCloseJoin|compositeCreateDispose)$"
        "OutstandingBench -p outstanding=1,1000,100000 -p tracker=floor,scope,floorStoppable,countingScope,reactor"
        "FireAndForgetBench -p n=1000 -p hooks=off,track"
    )
fi

# every JMH part on one JDK ($1: its java), merged into one JSON ($2)
run_parts() {
    local java="$1" out="$2" files=() i=0 part regex rest f part_opts
    for part in "${parts[@]}"; do
        read -r regex rest <<< "$part"
        f="${out%.json}-part$i.json"
        part_opts=()
        set -- "${opts[@]}"
        while [ $# -gt 0 ]; do
            case " $rest " in *" $1 "*) ;; *) part_opts+=("$1" "$2") ;; esac
            shift 2
        done
        # shellcheck disable=SC2086
        jmh "$java" "${base[@]:1}" -rff "$f" "${part_opts[@]}" "$regex" $rest
        files+=("$f")
        i=$((i + 1))
    done
    python3 -c 'import json,sys; print(json.dumps([r for f in sys.argv[2:] for r in json.load(open(f))], indent=1), file=open(sys.argv[1], "w"))' \
        "$out" "${files[@]}"
    rm -f "${files[@]}"
}

# the newest JDK 21+ under /usr/lib/jvm (or BENCH_JDK2=/path/to/jdk): the targets table shows both
newest_jdk() {
    local best="" best_v=0 d v
    if [ -n "${BENCH_JDK2:-}" ]; then echo "$BENCH_JDK2/bin/java"; return; fi
    for d in /usr/lib/jvm/*/; do
        [ -x "$d/bin/java" ] || continue
        v="$("$d/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
        case "$v" in ''|*[!0-9]*) continue ;; esac
        if [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ]; then best="$d/bin/java"; best_v="$v"; fi
    done
    echo "$best"
}

rm -f "$results/$mode"-jdk*.json
run_parts java "$results/$mode.json"
jdk2="$(newest_jdk)"
if [ -n "$jdk2" ]; then
    v2="$("$jdk2" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
    run_parts "$jdk2" "$results/$mode-jdk$v2.json"
else
    echo "no JDK 21+ found under /usr/lib/jvm (BENCH_JDK2 names one): the table shows the default JDK only" >&2
fi

# retained bytes per outstanding operation; then whether 10^6 stop-aware ones fit in 64 MiB
run java -XX:+UseSerialGC -Xms2g -Xmx2g -cp "$jar" dev.senders.bench.Footprint 1000000 "$repeats" \
    "$results/$mode-footprint.json"
run java -XX:+UseSerialGC -Xmx64m -cp "$jar" dev.senders.bench.Footprint 1000000 1 \
    "$results/$mode-fits64m.json" countingScope,reactor
uptime | sed 's/.*load average: //' >> "$results/$mode-load.txt"

python3 benchmarks/render.py "$mode"
