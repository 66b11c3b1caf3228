#!/usr/bin/env bash
# Runs the dev.senders.task tests once more under a JDK with virtual threads (21+, newest first),
# asserting that task bodies run on virtual threads there (TaskVirtualThreadsTest, enabled by
# -Dtask.expectVirtualThreads=true). The code is still compiled with --release 17.
# Prints a skip line and exits 0 when no such JDK is installed under /usr/lib/jvm.
# Usage: scripts/task-tests-jdk25.sh [extra mvn args, e.g. -o]
set -euo pipefail
cd "$(dirname "$0")/.."

jdk=""
for dir in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    dir="${dir%/}"
    [ -x "$dir/bin/java" ] && [ -x "$dir/bin/javac" ] || continue
    feature=$("$dir/bin/java" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1)
    if [ -n "$feature" ] && [ "$feature" -ge 21 ]; then
        jdk="$dir"
        break
    fi
done

if [ -z "$jdk" ]; then
    echo "task-tests-jdk25: SKIPPED (no JDK >= 21 under /usr/lib/jvm)"
    exit 0
fi

echo "task-tests-jdk25: running the task tests under $jdk (java.specification.version $feature)"
JAVA_HOME="$jdk" PATH="$jdk/bin:$PATH" mvn -B -q "$@" -pl sender-core verify \
    -Dtest='dev.senders.task.*Test' -Dsurefire.failIfNoSpecifiedTests=false \
    -Dtask.expectVirtualThreads=true
echo "task-tests-jdk25: OK"
