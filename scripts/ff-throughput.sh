#!/usr/bin/env bash
# What senders.scope.fire-and-forget costs the example WebFlux app under a real HTTP client
# (ApacheBench, `ab`, from Debian's apache2-utils, installed when missing; it speaks HTTP/1.0, and
# Reactor Netty closes each of its connections after the answer, so every request is a new
# connection, as for a client without a pool), two measurements and, on request, a profile:
#
#   1. throughput: FF_APPS times, one fresh app per mode (off, report, track; FF_MODES), each its
#      own JVM on a free loopback port, with audit.mode=subscribe (FF_AUDIT): POST /orders/{id}
#      ends in a plain Flux.from(write).subscribe() (SubscribeAuditor), the fire-and-forget the
#      hooks find, with no write delay. Fresh JVMs each time, because one app's figures differ
#      from the next JVM's of the same mode by more than the modes differ (the JIT's choices).
#      Each app is warmed up (FF_WARMUP requests: its requests/s still grow for tens of
#      thousands); then ROUNDS rounds, the modes in turn within each round (so the machine's load
#      drifts over all of them alike), each `ab -n REQUESTS -c 50` on its app, after its previous
#      writes have drained (GET /audit/stats). Prints requests/s per mode and round, the median
#      per mode over every app and round, and report/off and track/off as the ratio of the
#      medians and as the median of the rounds' ratios (the goal: track at most 3 % lower). Also
#      the app's CPU time (user + system, from /proc) per request, over the ab run and the
#      writes' drain: less exposed to the machine's other load than requests/s, which need idle
#      cores.
#   2. shutdown time with no fire-and-forget of the app's own: audit.mode=scope, load on
#      GET /audit/stats only, so the only subscriptions are Reactor Netty's and Spring's. Per round
#      and mode (off, track, alternating): start the app, warm up, start `ab` in the background,
#      send SIGTERM in the middle of its load and time SIGTERM to process exit. Prints the times and
#      the medians per mode (the goal: equal), and fails if the track app's shutdown log reports any
#      subscription found (none of Reactor Netty's or Spring's may be).
#   3. (FF_PROFILE=1: JFR; FF_PROFILE=perf: Linux perf) where the track app's threads spend their
#      time: one app in track (audit.mode=subscribe), warmed up, then JFR's execution samples every
#      1 ms (by jcmd) over `ab -m POST -n REQUESTS -c 50`, or perf at 999 Hz with call graphs over
#      2 s of it (-XX:+PreserveFramePointer, methods named by jcmd Compiler.perfmap); prints, for
#      the Reactor Netty event-loop threads and for all the app's threads, the share of samples in
#      the site walk (StackWalker), in the rest of the hook and the found work (the tracker, the
#      adapter's hook, the work), and in the pass-throughs the hook puts on every subscribe (their
#      own frames). JFR samples threads running Java code only: the walk's part inside the JVM is
#      in perf's figure, not in JFR's.
#
# Fails when `ab` reports a failed or non-2xx request in a throughput round. Times on a shared
# machine are noisy: compare modes within one run only. Nothing listens beyond 127.0.0.1; the
# apps are stopped (by their process ids) and the temporary directory removed on exit.
#
# Usage: scripts/ff-throughput.sh [extra mvn args, e.g. -Dmaven.repo.local=...]
#   FF_APPS (3), FF_ROUNDS (3), FF_REQUESTS (20000), FF_WARMUP (100000), FF_SHUTDOWN_ROUNDS (5):
#   the sizes.
#   FF_SKIP_INSTALL=1: the caller already installed the modules; otherwise the published modules
#   the app needs are installed first (tests skipped).
#   FF_MODES ("off report track": off first) and FF_AUDIT (subscribe): the throughput measurement's
#   modes and audit.mode; FF_AUDIT=scope, where no subscription of the app's is fire and forget,
#   measures what the hook costs the subscriptions it lets through.
#   FF_SKIP=shutdown, FF_SKIP=throughput or FF_SKIP=throughput,shutdown: skip those measurements.
#   FF_PROFILE=1: also the profile (3.).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "ff-throughput: FAILED: $*" >&2; exit 1; }
step() { echo "ff-throughput: $*"; }
mvn_args=("$@")
# shellcheck source=scripts/example-app.sh
. scripts/example-app.sh

apps="${FF_APPS:-3}"
rounds="${FF_ROUNDS:-3}"
requests="${FF_REQUESTS:-20000}"
warmup="${FF_WARMUP:-100000}"
shutdown_rounds="${FF_SHUTDOWN_ROUNDS:-5}"
audit="${FF_AUDIT:-subscribe}"
concurrency=50

if ! command -v ab >/dev/null; then
    command -v apt-get >/dev/null || fail "ab is not installed and apt-get is not available (install ApacheBench, Debian's apache2-utils)"
    step "installing Debian's apache2-utils (ab)"
    apt_install apache2-utils /tmp/ff-throughput-apt.log
fi
step "$(ab -V | head -1)"

example_app_tmp

if [ "${FF_SKIP_INSTALL:-0}" != 1 ]; then
    step "installing the modules the example app uses (tests skipped)"
    example_app_install "$work/install.log" "${mvn_args[@]}"
fi
example_app_build "$work/classpath.txt" "$work/build.log" "${mvn_args[@]}"

common=(--spring.main.banner-mode=off --logging.level.root=WARN --logging.level.dev.senders=INFO
        --audit.write-delay=0ms)

# rps <ab output file>: the requests per second ab measured; fails on a failed or non-2xx request
rps() {
    grep -q '^Complete requests:' "$1" || { cat "$1" >&2; fail "ab did not complete"; }
    local failed non2xx
    failed=$(sed -n 's/^Failed requests: *\([0-9]*\).*/\1/p' "$1")
    non2xx=$(sed -n 's/^Non-2xx responses: *\([0-9]*\).*/\1/p' "$1")
    [ "${failed:-0}" = 0 ] && [ "${non2xx:-0}" = 0 ] || { cat "$1" >&2; fail "ab saw failed or non-2xx requests"; }
    sed -n 's/^Requests per second: *\([0-9.]*\).*/\1/p' "$1"
}

# drained <app url>: waits until every accepted order's write has ended (written or stopped)
drained() {
    local deadline=$((SECONDS + 120)) stats
    while :; do
        stats=$(curl -sf "$1/audit/stats") || fail "$1/audit/stats did not answer"
        python3 -c 'import json,sys; s=json.loads(sys.argv[1]); sys.exit(0 if s["written"]+s["stopped"]>=s["accepted"] else 1)' \
            "$stats" && return 0
        [ "$SECONDS" -lt "$deadline" ] || fail "$1: the writes did not drain within 120 s: $stats"
        sleep 0.2
    done
}

# cpu_ticks <pid>: the process's user + system CPU time so far, in clock ticks
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
ticks=$(getconf CLK_TCK)

median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

# ---- 1. throughput
if [[ ",${FF_SKIP:-}," != *,throughput,* ]]; then
    read -r -a modes <<<"${FF_MODES:-off report track}"
    [ "${modes[0]}" = off ] || fail "FF_MODES must start with off (the ratios are against it): ${FF_MODES:-}"
    step "throughput: ab -m POST -n $requests -c $concurrency on POST /orders/{id} (audit.mode=$audit), $apps fresh apps per mode, $rounds rounds each, modes in turn"
    declare -A url app_pid results cpu
    for ((g = 1; g <= apps; g++)); do
        # a fresh JVM per mode: the same app's figures differ from one JVM to the next by more
        # than the modes do (the JIT's choices), so each mode is measured on several
        for mode in "${modes[@]}"; do
            port=$(free_port)
            example_app_start "$work/classpath.txt" "$port" "$work/app-$mode.log" "${common[@]}" \
                --audit.mode="$audit" --senders.scope.fire-and-forget="$mode" --audit.db-url="jdbc:h2:mem:ff-$mode-$g;DB_CLOSE_DELAY=-1"
            pids+=("$EXAMPLE_APP_PID")
            app_pid[$mode]=$EXAMPLE_APP_PID
            url[$mode]="http://127.0.0.1:$port"
            await_up "the example app ($mode)" "${url[$mode]}/audit/stats" "$EXAMPLE_APP_PID" "$work/app-$mode.log" 180
        done
        for mode in "${modes[@]}"; do
            grep -q "senders.scope.fire-and-forget=$mode" "$work/app-$mode.log" \
                || { cat "$work/app-$mode.log" >&2; fail "the $mode app's startup line does not name its mode"; }
            ab -q -m POST -n "$warmup" -c "$concurrency" "${url[$mode]}/orders/warmup" >"$work/ab.txt" 2>&1 || true
            rps "$work/ab.txt" >/dev/null
            drained "${url[$mode]}"
        done
        for ((r = 1; r <= rounds; r++)); do
            line="apps $g, round $r:"
            cpuline="apps $g, round $r:"
            for mode in "${modes[@]}"; do
                c0=$(cpu_ticks "${app_pid[$mode]}")
                ab -q -m POST -n "$requests" -c "$concurrency" "${url[$mode]}/orders/g$g-r$r" >"$work/ab.txt" 2>&1 || true
                v=$(rps "$work/ab.txt")
                drained "${url[$mode]}"
                c=$(( ($(cpu_ticks "${app_pid[$mode]}") - c0) * 1000000 / ticks / requests ))
                results[$mode]="${results[$mode]:-} $v"
                cpu[$mode]="${cpu[$mode]:-} $c"
                line="$line $mode $v"
                cpuline="$cpuline $mode $c"
            done
            step "$line requests/s"
            step "$cpuline µs of the app's CPU per request"
        done
        for mode in "${modes[@]}"; do
            kill "${app_pid[$mode]}" 2>/dev/null || true
            wait "${app_pid[$mode]}" 2>/dev/null || true
        done
        pids=()
    done
    declare -A med
    for mode in "${modes[@]}"; do
        # shellcheck disable=SC2086 # a list of numbers
        med[$mode]=$(median ${results[$mode]})
        step "throughput $mode: median $(printf '%.0f' "${med[$mode]}") requests/s (${results[$mode]# })"
    done
    for mode in "${modes[@]}"; do
        # shellcheck disable=SC2086 # a list of numbers
        step "cpu $mode: median $(median ${cpu[$mode]}) µs per request (${cpu[$mode]# })"
    done
    # each mode against off: the ratio of the medians, and the median of the rounds' own ratios
    # (a round's modes ran back to back, so its ratio is the least exposed to the load's drift)
    for mode in "${modes[@]:1}"; do
        step "throughput $mode/off: $(python3 - "${med[$mode]}" "${med[off]}" "${results[$mode]}" "${results[off]}" <<'PY'
import statistics, sys
m, o = float(sys.argv[1]), float(sys.argv[2])
per_round = [float(a) / float(b) for a, b in zip(sys.argv[3].split(), sys.argv[4].split())]
print(f"{m / o:.3f} (medians); {statistics.median(per_round):.3f} (median of the rounds' ratios: "
      + " ".join(f"{r:.2f}" for r in per_round) + ")")
PY
)"
        step "cpu $mode/off: $(python3 -c 'import statistics,sys; print(f"{statistics.median(float(x) for x in sys.argv[1].split()) / statistics.median(float(x) for x in sys.argv[2].split()):.3f} (medians)")' "${cpu[$mode]}" "${cpu[off]}")"
    done
fi

# ---- 2. shutdown time with no fire-and-forget of the app's own
if [[ ",${FF_SKIP:-}," != *,shutdown,* ]]; then
    step "shutdown: SIGTERM to exit under ab -c $concurrency on GET /audit/stats (audit.mode=scope), $shutdown_rounds rounds, off and track in turn"
    declare -A times
    for ((r = 1; r <= shutdown_rounds; r++)); do
        line="round $r:"
        for mode in off track; do
            port=$(free_port)
            log="$work/shutdown-$mode-$r.log"
            example_app_start "$work/classpath.txt" "$port" "$log" "${common[@]}" \
                --audit.mode=scope --senders.scope.fire-and-forget="$mode" --audit.db-url="jdbc:h2:mem:sd;DB_CLOSE_DELAY=-1"
            app=$EXAMPLE_APP_PID
            pids+=("$app")
            await_up "the example app ($mode)" "http://127.0.0.1:$port/audit/stats" "$app" "$log" 180
            ab -q -n "$warmup" -c "$concurrency" "http://127.0.0.1:$port/audit/stats" >/dev/null 2>&1 || true
            ab -q -r -n 100000000 -c "$concurrency" "http://127.0.0.1:$port/audit/stats" >/dev/null 2>&1 &
            load=$!
            pids+=("$load")
            sleep 2                                  # the load runs for 2 s before the SIGTERM
            kill -0 "$load" 2>/dev/null || fail "ab on the $mode app ended before the SIGTERM"
            t0=$(date +%s%N)
            kill -TERM "$app"
            wait "$app" 2>/dev/null || true
            t1=$(date +%s%N)
            kill "$load" 2>/dev/null || true
            wait "$load" 2>/dev/null || true
            pids=("${pids[@]:0:${#pids[@]}-2}")
            ms=$(( (t1 - t0) / 1000000 ))
            grep -q "Shut down: scope 'audit'" "$log" || { tail -50 "$log" >&2; fail "the $mode app did not log its scope's shutdown"; }
            if [ "$mode" = track ]; then
                grep -q "fire-and-forget subscriptions (Reactor, TRACK, scope 'audit'): 0 found" "$log" \
                    || { grep "fire-and-forget" "$log" >&2; fail "with no fire-and-forget of the app's own, track found subscriptions (Reactor Netty's or Spring's?)"; }
            fi
            times[$mode]="${times[$mode]:-} $ms"
            line="$line $mode ${ms} ms"
        done
        step "$line"
    done
    for mode in off track; do
        # shellcheck disable=SC2086 # a list of numbers
        step "shutdown $mode: median $(median ${times[$mode]}) ms SIGTERM to exit (${times[$mode]# })"
    done
fi
# ---- 3. where the track app's request threads spend their time (FF_PROFILE=1: JFR; perf: Linux perf)
profile="${FF_PROFILE:-0}"
if [ "$profile" = 1 ] || [ "$profile" = perf ]; then
    if [ "$profile" = perf ]; then
        command -v perf >/dev/null || fail "FF_PROFILE=perf needs Linux perf (Debian's linux-perf)"
        export EXAMPLE_APP_JVM_OPTS="-XX:+PreserveFramePointer"
    fi
    port=$(free_port)
    log="$work/profile.log"
    example_app_start "$work/classpath.txt" "$port" "$log" "${common[@]}" \
        --audit.mode=subscribe --senders.scope.fire-and-forget=track --audit.db-url="jdbc:h2:mem:ff-profile;DB_CLOSE_DELAY=-1"
    app=$EXAMPLE_APP_PID
    pids+=("$app")
    await_up "the example app (track, profiled)" "http://127.0.0.1:$port/audit/stats" "$app" "$log" 180
    ab -q -m POST -n "$warmup" -c "$concurrency" "http://127.0.0.1:$port/orders/warmup" >"$work/ab.txt" 2>&1 || true
    rps "$work/ab.txt" >/dev/null
    drained "http://127.0.0.1:$port"
    if [ "$profile" = perf ]; then
        ab -q -m POST -n "$requests" -c "$concurrency" "http://127.0.0.1:$port/orders/p" >"$work/ab.txt" 2>&1 &
        abpid=$!
        sleep 0.5
        perf record -q -F 999 -g -p "$app" -o "$work/perf.data" -- sleep 2 >"$work/perf.log" 2>&1 \
            || { cat "$work/perf.log" >&2; fail "perf record on the track app"; }
        wait "$abpid" || true
        v=$(rps "$work/ab.txt")
        jcmd "$app" Compiler.perfmap >"$work/jcmd.log" 2>&1 || { cat "$work/jcmd.log" >&2; fail "jcmd Compiler.perfmap"; }
        step "profile: track, ab -m POST -n $requests -c $concurrency, $v requests/s, perf record -F 999 -g over 2 s of it"
        perf script -i "$work/perf.data" -F comm,ip,sym >"$work/samples.txt" 2>/dev/null || fail "perf script of the recording"
        rm -f "/tmp/perf-$app.map"
    else
        jcmd "$app" JFR.start name=ff settings=profile 'jdk.ExecutionSample#period=1ms' filename="$work/track.jfr" \
            >"$work/jcmd.log" 2>&1 || { cat "$work/jcmd.log" >&2; fail "jcmd JFR.start on the track app"; }
        ab -q -m POST -n "$requests" -c "$concurrency" "http://127.0.0.1:$port/orders/p" >"$work/ab.txt" 2>&1 || true
        v=$(rps "$work/ab.txt")
        jcmd "$app" JFR.stop name=ff >>"$work/jcmd.log" 2>&1 || { cat "$work/jcmd.log" >&2; fail "jcmd JFR.stop on the track app"; }
        step "profile: track, ab -m POST -n $requests -c $concurrency, $v requests/s under JFR (execution samples every 1 ms)"
        jfr print --json --stack-depth 64 --events jdk.ExecutionSample "$work/track.jfr" >"$work/samples.txt" \
            || fail "jfr print of the recording"
    fi
    # one classification for both profilers: each sample (its thread, its frames innermost first)
    # counts once, in the first part it matches
    python3 - "$profile" "$work/samples.txt" <<'PY'
import json, sys
kind, path = sys.argv[1], sys.argv[2]
samples = []  # (thread, [frame, innermost first])
if kind == "perf":  # perf script: a line "comm", then one indented line per frame, then a blank line
    cur = None
    for line in open(path, errors="replace"):
        if not line.strip():
            cur = None
        elif not line.startswith((" ", "\t")):
            cur = (line.split()[0], [])
            samples.append(cur)
        elif cur is not None:
            cur[1].append(line.strip())
else:  # jfr print --json: execution samples of Java code only
    for e in json.load(open(path))["recording"]["events"]:
        v = e["values"]
        samples.append(((v.get("sampledThread") or {}).get("javaName", ""),
                        [f["method"]["type"]["name"].replace("/", ".") + "." + f["method"]["name"]
                         for f in (v.get("stackTrace") or {}).get("frames", [])]))
# markers: substrings of a frame; the walk's include the JVM's native frames (perf only); the
# pass-throughs' frames (and Operators.liftPublisher's, for other publisher shapes) are below the
# subscribed chain, so they count only as the innermost frame (self time)
walk = ("StackWalk", "StackStreamFactory")
found = ("dev.senders.scope.FireAndForgetTracker", "dev.senders.scope.internal.FireAndForget",
         "dev.senders.reactor.FireAndForgetSubscriber", "dev.senders.reactor.FireAndForget$Hook.lift",
         "dev.senders.reactor.FireAndForget$Hook.found", "dev.senders.rxjava3.FireAndForget")
passing = ("dev.senders.reactor.FireAndForget$Hook$", "reactor.core.publisher.FluxLift",
           "reactor.core.publisher.MonoLift", "reactor.core.publisher.ParallelLift",
           "reactor.core.publisher.ConnectableLift", "reactor.core.publisher.Operators$LiftFunction")
parts = [("the site walk (StackWalker" + (", the JVM's part included)" if kind == "perf" else ")"),
          lambda fs: any(m in f for f in fs for m in walk)),
         ("the rest of the hook and the found work", lambda fs: any(m in f for f in fs for m in found)),
         ("the pass-throughs' own frames", lambda fs: bool(fs) and any(m in fs[0] for m in passing))]
for what, pred in (("event-loop threads (reactor-http-*)", lambda t: t.startswith("reactor-http")),
                   ("all of the app's threads", lambda t: True)):
    chosen = [fs for t, fs in samples if pred(t)]
    if not chosen:
        sys.exit("ff-throughput: FAILED: no profile sample of the " + what)
    counts = [0] * len(parts)
    for fs in chosen:
        for i, (_, test) in enumerate(parts):
            if test(fs):
                counts[i] += 1
                break
    print(f"ff-throughput: profile: {len(chosen)} samples of {what}")
    for (name, _), c in zip(parts, counts):
        print(f"ff-throughput: profile:   {100.0 * c / len(chosen):5.2f} % in {name}")
PY
    kill "$app" 2>/dev/null || true
    wait "$app" 2>/dev/null || true
    pids=("${pids[@]:0:${#pids[@]}-1}")
fi
step "OK (figures from a shared machine are noisy: compare modes within one run)"
