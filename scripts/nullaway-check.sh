#!/usr/bin/env bash
# Shows that the normal build fails on a nullness error: compiles a scratch copy of sender-core
# (with the parent pom and .mvn/jvm.config) to which one @NullMarked class is added that returns
# null from a method whose result is not @Nullable, and expects `mvn compile` to fail with
# NullAway's error for that line. Then compiles the same copy with the class fixed and expects
# success. Exits non-zero if either expectation fails.
# The run happens in a scratch directory, so it never touches the main build's target/ directories.
# Usage: scripts/nullaway-check.sh [extra mvn args, e.g. -o -Dmaven.repo.local=...]
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp pom.xml "$work/"
cp -r .mvn "$work/"
tar -cf - --exclude=target sender-core | tar -C "$work" -xf -
probe="$work/sender-core/src/main/java/dev/senders/NullAwayProbe.java"

cat > "$probe" <<'JAVA'
package dev.senders;

final class NullAwayProbe {
    private NullAwayProbe() {}

    static String name(boolean known) {
        return known ? "known" : null;
    }
}
JAVA

log="$work/compile.log"
if (cd "$work/sender-core" && mvn -B "$@" compile) > "$log" 2>&1; then
    echo "nullaway-check: FAILED: the build accepted a method that returns null without @Nullable"
    exit 1
fi
if ! grep -q 'NullAwayProbe.java:\[7,.*\[NullAway\] returning @Nullable expression from method with @NonNull return type' "$log"; then
    echo "nullaway-check: FAILED: the build failed, but not with NullAway's error for the probe:"
    grep -E 'ERROR' "$log" | head -20
    exit 1
fi

sed -i 's/    static String name(boolean known) {/    static @org.jspecify.annotations.Nullable String name(boolean known) {/' "$probe"
if ! (cd "$work/sender-core" && mvn -B "$@" compile) > "$log" 2>&1; then
    echo "nullaway-check: FAILED: the build rejected the probe once its result is @Nullable:"
    grep -E 'ERROR' "$log" | head -20
    exit 1
fi
echo "nullaway-check: OK (a nullness error fails the build; the annotated probe compiles)"
