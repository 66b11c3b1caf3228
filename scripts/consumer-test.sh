#!/usr/bin/env bash
# The "add it to your build" check, done the way a new user meets the library:
#   1. installs the published modules (senders-bom, the parent pom, sender-core, reactor-adapter,
#      rxjava-adapter, senders-test and the starter it needs) into the local repository, unless SENDERS_CONSUMER_SKIP_INSTALL=1 says the
#      caller already ran `mvn install` (.ci/run does);
#   2. builds it/consumer, a fresh project that imports senders-bom and depends on reactor-adapter,
#      OFFLINE (mvn -o), runs its tests (JUnit with senders-test's extension, AuditsTest: both
#      must pass) and its spawn-and-join program (the README's) on the class path;
#   3. checks what was installed: each published module's jar has a module-info.class, its
#      -sources.jar the sources (module-info.java included) and its -javadoc.jar the API pages
#      (`jar tf`), and senders-bom's pom manages every published module;
#   4. builds the same project as a named module (it/consumer/modular/module-info.java, which
#      `requires dev.senders.reactor`) offline, and runs it on the module path (java -p ... -m ...);
#   5. proves that a module-path consumer cannot reach dev.senders.internal: the consumer plus
#      it/consumer/internal/.../ReachInternal.java must fail to compile with javac's "does not
#      export" error, while the same source compiles on the class path (the control: the failure
#      comes from the module boundary, not from a missing class).
# It also checks that README.md shows it/consumer's program verbatim.
#
# Usage: scripts/consumer-test.sh [extra mvn args]
#   The local repository is Maven's (default ~/.m2/repository); to use another, pass
#   -Dmaven.repo.local=/path, or set MAVEN_REPO_LOCAL=/path. Every mvn call here uses the same
#   arguments. Example, with a private repository seeded so that offline builds find the plugins:
#     cp -r ~/.m2/repository /tmp/senders-m2 && scripts/consumer-test.sh -Dmaven.repo.local=/tmp/senders-m2
# Exits non-zero on the first failed check, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."

mvn_args=("$@")
if [ -n "${MAVEN_REPO_LOCAL:-}" ]; then
    mvn_args+=("-Dmaven.repo.local=$MAVEN_REPO_LOCAL")
fi
java_tool="${JAVA_HOME:+$JAVA_HOME/bin/}java"
jar_tool="${JAVA_HOME:+$JAVA_HOME/bin/}jar"

version=$(python3 -c "
import xml.etree.ElementTree as ET
ns = {'m': 'http://maven.apache.org/POM/4.0.0'}
print(ET.parse('pom.xml').getroot().find('m:version', ns).text)")
published=(sender-core reactor-adapter rxjava-adapter senders-test)
declare -A module=([sender-core]=dev.senders.core [reactor-adapter]=dev.senders.reactor
                   [rxjava-adapter]=dev.senders.rxjava3 [senders-test]=dev.senders.test)
declare -A api=([sender-core]=dev/senders/Sender [reactor-adapter]=dev/senders/reactor/ReactorSenders
                [rxjava-adapter]=dev/senders/rxjava3/RxSenders [senders-test]=dev/senders/test/SendersExtension)

fail() { echo "consumer-test: FAILED: $*" >&2; exit 1; }
step() { echo "consumer-test: $*"; }

# ---- the README shows the consumer's program verbatim (from its first import on)
python3 - <<'PY' || fail "README.md does not show it/consumer's SpawnAndJoin.java verbatim (from its first import on)"
src = open('it/consumer/src/main/java/dev/senders/consumer/SpawnAndJoin.java').read()
raise SystemExit(0 if src[src.index('import '):] in open('README.md').read() else 1)
PY

# ---- 1. install
if [ "${SENDERS_CONSUMER_SKIP_INSTALL:-0}" != 1 ]; then
    step "installing senders $version (mvn install -DskipTests of the published modules)"
    mvn -B -q install -DskipTests -pl senders-bom,sender-core,reactor-adapter,rxjava-adapter,senders-test -am \
        "${mvn_args[@]}" || fail "mvn install of the published modules"
fi

# ---- the consumer, in a scratch copy (the repository's it/consumer stays as it is)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
consumer="$work/consumer"
cp -r it/consumer "$consumer"
main="$consumer/src/main/java"

build() {  # build <log> <goals...>: an offline build of the scratch consumer, from an empty target/
    local log="$1"; shift
    rm -rf "$consumer/target"
    (cd "$consumer" && mvn -B -o "$@" -Dsenders.version="$version" "${mvn_args[@]}") >"$log" 2>&1
}
deps() {  # the dependencies Maven resolved: target/consumer.jar's manifest Class-Path, ':'-joined
    python3 - "$consumer/target/consumer.jar" <<'PY'
import sys, zipfile
mf = zipfile.ZipFile(sys.argv[1]).read('META-INF/MANIFEST.MF').decode().replace('\r\n', '\n')
mf = mf.replace('\n ', '')  # manifest continuation lines
cp = next(l for l in mf.split('\n') if l.startswith('Class-Path: '))[len('Class-Path: '):]
print(':'.join(cp.split()))
PY
}
expect_run() {  # expect_run <what> <java args...>: runs the program and checks what it prints
    local out
    out=$("$java_tool" "${@:2}" 2>&1) || { echo "$out" >&2; fail "$1: the program did not run"; }
    grep -qx 'joined: 10 of 10 audits ran' <<<"$out" || { echo "$out" >&2; fail "$1: unexpected output"; }
    step "$1: $out"
}

# ---- 2. class path
build "$work/classpath.log" package \
    || { cat "$work/classpath.log" >&2; fail "offline class-path build of it/consumer"; }
cp_deps=$(deps)
adapter_jar=$(tr ':' '\n' <<<"$cp_deps" | grep "/dev/senders/reactor-adapter/$version/reactor-adapter-$version.jar$") \
    || fail "reactor-adapter $version was not resolved through senders-bom: $cp_deps"
grep -q '/io/projectreactor/reactor-core/' <<<"$cp_deps" || fail "reactor-core was not resolved: $cp_deps"
repo="${adapter_jar%/dev/senders/reactor-adapter/*}"
expect_run "class path" -cp "$consumer/target/consumer.jar:$cp_deps" dev.senders.consumer.SpawnAndJoin
report="$consumer/target/surefire-reports/TEST-dev.senders.consumer.AuditsTest.xml"
[ -f "$report" ] || fail "the consumer's test AuditsTest (with senders-test) did not run: no $report"
python3 - "$report" <<'PY' || fail "the consumer's test AuditsTest did not pass 2 tests: $(head -c 2000 "$report")"
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot()
raise SystemExit(0 if (s.get('tests'), s.get('failures'), s.get('errors'), s.get('skipped')) == ('2', '0', '0', '0') else 1)
PY
step "class path: the consumer's AuditsTest (senders-test's extension, virtual time) passed 2 tests"

# ---- 3. what was installed (in the repository the consumer resolved from)
bom="$repo/dev/senders/senders-bom/$version/senders-bom-$version.pom"
[ -f "$bom" ] || fail "senders-bom is not installed: $bom"
for m in "${published[@]}" senders-spring-boot-starter; do
    grep -q "<artifactId>$m</artifactId>" "$bom" || fail "senders-bom does not manage $m"
done
for m in "${published[@]}"; do
    dir="$repo/dev/senders/$m/$version"
    for kind in "" -sources -javadoc; do
        [ -f "$dir/$m-$version$kind.jar" ] || fail "$m-$version$kind.jar is not installed in $dir"
    done
    "$jar_tool" tf "$dir/$m-$version.jar" | grep -qx 'module-info.class' \
        || fail "$m-$version.jar has no module-info.class"
    sources=$("$jar_tool" tf "$dir/$m-$version-sources.jar")
    for f in module-info.java "${api[$m]}.java"; do
        grep -qx "$f" <<<"$sources" || fail "$m-$version-sources.jar has no $f"
    done
    javadoc=$("$jar_tool" tf "$dir/$m-$version-javadoc.jar")
    for page in index.html "${module[$m]}/module-summary.html" "${module[$m]}/${api[$m]}.html"; do
        grep -qx "$page" <<<"$javadoc" || fail "$m-$version-javadoc.jar has no $page"
    done
    step "$m $version: jar with module-info.class; -sources.jar: $(grep -c '\.java$' <<<"$sources") sources; -javadoc.jar: $(grep -c '\.html$' <<<"$javadoc") pages"
done

# ---- 5, the control: on the class path, dev.senders.internal is reachable (nothing is enforced)
cp -r it/consumer/internal/. "$main/"
build "$work/classpath-internal.log" compile \
    || { cat "$work/classpath-internal.log" >&2; fail "control: ReachInternal should compile on the class path"; }
rm "$main/dev/senders/consumer/ReachInternal.java"

# ---- 4. module path
cp it/consumer/modular/module-info.java "$main/"
build "$work/modulepath.log" package -DskipTests \
    || { cat "$work/modulepath.log" >&2; fail "offline module-path build of it/consumer"; }
"$jar_tool" tf "$consumer/target/consumer.jar" | grep -qx module-info.class \
    || fail "the modular consumer's jar has no module-info.class"
expect_run "module path" -p "$consumer/target/consumer.jar:$(deps)" \
    -m dev.senders.consumer/dev.senders.consumer.SpawnAndJoin

# ---- 5. on the module path, dev.senders.internal is out of reach
cp -r it/consumer/internal/. "$main/"
if build "$work/modulepath-internal.log" compile -DskipTests; then
    fail "a module-path consumer compiled against dev.senders.internal (sender-core must not export it to it)"
fi
denied='package dev.senders.internal is declared in module dev.senders.core, which does not export it to module dev.senders.consumer'
grep -qF "$denied" "$work/modulepath-internal.log" \
    || { cat "$work/modulepath-internal.log" >&2; fail "the module-path compile failed, but not with javac's 'does not export' error"; }
step "module path: dev.senders.internal is out of reach (javac: $denied)"

step "OK"
