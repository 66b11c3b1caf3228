# Sourced, not run: starting the example WebFlux app (dev.senders.examples.webflux.AuditApplication)
# as its own process on loopback, for the scripts that drive it with a real client
# (scripts/dashboard-check.sh, scripts/ff-throughput.sh).
#
# The sourcing script defines fail() (prints its message and exits non-zero) and step() (prints a
# progress line), and runs from the repository root.
#
#   example_app_tmp                         makes the temporary directory $work and the list $pids
#                                           of processes to stop; on exit they are stopped (by
#                                           process id) and the directory removed
#   apt_install <package> <log>             installs a Debian package with apt-get, or fails
#   example_app_install <log> [mvn args]    installs the published modules the app uses (tests skipped)
#   example_app_build <classpath-file> <log> [mvn args]
#                                           compiles the app and writes its class path
#                                           (EXAMPLE_APP_PROFILES=-Pprometheus adds Maven profiles)
#   free_port                               prints a free loopback port
#   example_app_start <classpath-file> <port> <log> [app args]
#                                           starts the app in the background on 127.0.0.1:<port>;
#                                           its process id is in EXAMPLE_APP_PID
#   await_up <what> <url> <pid> <log> <seconds>
#                                           waits until <url> answers 2xx, or fails naming <what>

example_app_tmp() {
    work=$(mktemp -d)
    pids=()
    trap example_app_cleanup EXIT
}

example_app_cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}

apt_install() {
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1") \
        >"$2" 2>&1 || { tail -20 "$2" >&2; fail "apt-get install $1"; }
}

example_app_install() {
    local log="$1"
    shift
    mvn -B -q install -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
        -pl senders-spring-boot-starter -am "$@" >"$log" 2>&1 \
        || { tail -50 "$log" >&2; fail "mvn install of the starter and its modules"; }
}

example_app_build() {
    local classpath="$1" log="$2"
    shift 2
    # shellcheck disable=SC2086 # EXAMPLE_APP_PROFILES is a list of Maven options
    mvn -B -q -pl examples ${EXAMPLE_APP_PROFILES:-} -DskipTests compile dependency:build-classpath \
        -Dmdep.outputFile="$classpath" "$@" >"$log" 2>&1 \
        || { tail -50 "$log" >&2; fail "building the example app ${EXAMPLE_APP_PROFILES:-}"; }
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# example_app_start <classpath file> <port> <log> [app arguments]: starts the app in the background
# (EXAMPLE_APP_PID); EXAMPLE_APP_JVM_OPTS (words) go to the JVM
example_app_start() {
    local classpath="$1" port="$2" log="$3"
    shift 3
    # shellcheck disable=SC2086 # JVM options, split into words
    "${JAVA_HOME:+$JAVA_HOME/bin/}java" -Xmx512m ${EXAMPLE_APP_JVM_OPTS:-} -cp "examples/target/classes:$(cat "$classpath")" \
        dev.senders.examples.webflux.AuditApplication \
        --server.address=127.0.0.1 --server.port="$port" "$@" \
        >"$log" 2>&1 &
    EXAMPLE_APP_PID=$!
}

await_up() {  # await_up <what> <url> <pid> <log> <seconds>: until <url> answers 2xx, or fail
    local deadline=$((SECONDS + $5))
    until curl -sf "$2" >/dev/null 2>&1; do
        kill -0 "$3" 2>/dev/null || { tail -50 "$4" >&2; fail "$1 exited at startup"; }
        [ "$SECONDS" -lt "$deadline" ] || { tail -50 "$4" >&2; fail "$1 did not answer $2 within $5 s"; }
        sleep 0.5
    done
}
