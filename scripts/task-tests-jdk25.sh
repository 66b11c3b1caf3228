#!/usr/bin/env bash
# Runs the dev.senders.task tests once more under a JDK with virtual threads (21+, newest first,
# e.g. /usr/lib/jvm/temurin-25-jdk-amd64), with -Dtask.expectVirtualThreads=true, which enables
# TaskVirtualThreadsTest: task bodies must run on virtual threads there. Then the starter's
# TaskExecutorTrackingTest (its virtual-thread executor case needs JDK 21+) and the example app's
# shutdown-under-load tests with -Dexamples.virtualThreads=true (spring.threads.virtual.enabled=true):
# AsyncShutdownLoadTest, whose @Async work runs on Spring Boot's virtual-thread executor, and
# FireAndForgetLoadTest, the plain subscribe() path in each senders.scope.fire-and-forget mode. The sources are still
# compiled with --release 17 (the parent pom's setting), so this also checks that a JDK 25 builds
# the Java 17 code.
#
# The runs happen in scratch copies (sender-core and the parent pom; the whole project for the
# example), so they never touch the main build's target/ directories or surefire reports
# (scripts/test-totals.sh is unaffected).
# Prints a skip line and exits 0 when no JDK >= 21 is installed under /usr/lib/jvm.
# Usage: scripts/task-tests-jdk25.sh [extra mvn args, e.g. -o]
set -euo pipefail
cd "$(dirname "$0")/.."

jdk="" feature=""
for dir in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    dir="${dir%/}"
    [ -x "$dir/bin/java" ] && [ -x "$dir/bin/javac" ] || continue
    f=$("$dir/bin/java" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1)
    if [ -n "$f" ] && [ "$f" -ge 21 ]; then
        jdk="$dir" feature="$f"
        break
    fi
done

if [ -z "$jdk" ]; then
    echo "task-tests-jdk25: SKIPPED (no JDK >= 21 under /usr/lib/jvm)"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp pom.xml "$work/"
cp -r .mvn "$work/"  # the javac exports that Error Prone (NullAway, in the normal build) needs
tar -cf - --exclude=target sender-core | tar -C "$work" -xf -
# the whole project for the example app's reactor build (nothing is installed)
mkdir "$work/project"
tar -cf - --exclude=target --exclude=.git --exclude=results . | tar -C "$work/project" -xf -

echo "task-tests-jdk25: running the task tests under $jdk (Java $feature)"
status=0
# -Werror is the JDK 17 build's rule; a newer javac adds lints of its own (this-escape), reported by
# that build's policy, not here: this run checks behaviour on virtual threads.
(cd "$work/sender-core" && JAVA_HOME="$jdk" PATH="$jdk/bin:$PATH" mvn -B -q "$@" verify \
    -Dmaven.compiler.failOnWarning=false -Dmaven.javadoc.skip=true \
    -Dtest='dev.senders.task.*Test' -Dsurefire.failIfNoSpecifiedTests=false \
    -Dtask.expectVirtualThreads=true) || status=$?

python3 - "$work/sender-core/target/surefire-reports" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
n = f = s = 0
for p in glob.glob(sys.argv[1] + '/TEST-*.xml'):
    r = ET.parse(p).getroot()
    n += int(r.get('tests', 0)); f += int(r.get('failures', 0)) + int(r.get('errors', 0)); s += int(r.get('skipped', 0))
print(f"task-tests-jdk25: tests run: {n}, failed: {f}, skipped: {s}")
PY

echo "task-tests-jdk25: Spring's executor in the scope, the example's shutdown under load (@Async, fire-and-forget), on virtual threads; nested crossings on this JDK's default stack"
(cd "$work/project" && JAVA_HOME="$jdk" PATH="$jdk/bin:$PATH" mvn -B -q "$@" verify \
    -pl reactor-adapter,rxjava-adapter,senders-spring-boot-starter,examples -am \
    -Dmaven.compiler.failOnWarning=false -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
    -Dtest='TaskExecutorTrackingTest,AsyncShutdownLoadTest,FireAndForgetLoadTest,NestedCrossingsStackSafetyTest' -Dsurefire.failIfNoSpecifiedTests=false \
    -Dexamples.virtualThreads=true) || status=$?
python3 - "$work/project" <<'PY' || status=1
import glob, sys, xml.etree.ElementTree as ET
n = f = s = 0
for m in ("reactor-adapter", "rxjava-adapter", "senders-spring-boot-starter", "examples"):
    for p in glob.glob(f"{sys.argv[1]}/{m}/target/surefire-reports/TEST-*.xml"):
        r = ET.parse(p).getroot()
        n += int(r.get('tests', 0)); f += int(r.get('failures', 0)) + int(r.get('errors', 0)); s += int(r.get('skipped', 0))
print(f"task-tests-jdk25: TaskExecutorTrackingTest, AsyncShutdownLoadTest, FireAndForgetLoadTest, NestedCrossingsStackSafetyTest: tests run: {n}, failed: {f}, skipped: {s}")
if n == 0:
    sys.exit(1)
PY

if [ "$status" -ne 0 ]; then
    echo "task-tests-jdk25: FAILED"
    exit "$status"
fi
echo "task-tests-jdk25: OK"
