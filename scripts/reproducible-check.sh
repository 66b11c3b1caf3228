#!/usr/bin/env bash
# Reproducible builds: builds the published modules twice from the same commit, in two fresh
# copies of it (git archive HEAD, in two different directories), and compares every jar they make
# (the jar, -sources.jar, -javadoc.jar and sender-core's test kit) and every CycloneDX SBOM byte for
# byte. Any difference fails, listing the entries that differ. Before that,
# maven-artifact-plugin's check-buildplan fails on a plugin version known not to build
# reproducibly, or a missing project.build.outputTimestamp.
# What makes the builds equal: project.build.outputTimestamp (root pom and senders-bom) fixes every
# archive entry's time and order; javadoc runs with -notimestamp.
# Tests are skipped (CI's main build tested this commit); the copies are removed on exit.
#
# Usage: scripts/reproducible-check.sh [extra mvn args]   (e.g. -Dmaven.repo.local=/path)
#   SENDERS_REPRODUCIBLE_REFERENCE=dir: a clean checkout of the same commit whose published
#   modules are already built (with -Prelease, for the SBOMs) is the first build, so that only
#   one copy is built (.ci/run: the clone itself, after scripts/release-check.sh built it). Its
#   jars must have been made from the commit's poms: maven-jar-plugin keeps a jar that is newer
#   than the classes, so a tree built before a pom change needs a clean build first.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "reproducible-check: FAILED: $*" >&2; exit 1; }
step() { echo "reproducible-check: $*"; }
mvn_args=("$@")
published=senders-bom,sender-core,reactor-adapter,rxjava-adapter,senders-spring-boot-starter,senders-test

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
commit=$(git rev-parse HEAD)

mvn -B -q artifact:check-buildplan -pl "$published" -am "${mvn_args[@]}" >"$work/buildplan.log" 2>&1 \
    || { cat "$work/buildplan.log" >&2; fail "maven-artifact-plugin check-buildplan"; }
step "check-buildplan: no plugin known to break reproducibility; outputTimestamp set"

first="$work/first"
copies=(first second)
if [ -n "${SENDERS_REPRODUCIBLE_REFERENCE:-}" ]; then
    first=$(cd "$SENDERS_REPRODUCIBLE_REFERENCE" && pwd)
    [ "$(git -C "$first" rev-parse HEAD)" = "$commit" ] || fail "$first is not at $commit"
    [ -z "$(git -C "$first" status --porcelain --untracked-files=no -- pom.xml .mvn ${published//,/ })" ] \
        || fail "$first has uncommitted changes in the published modules: its build is not the commit's"
    copies=(second)
    step "first build: $first (SENDERS_REPRODUCIBLE_REFERENCE)"
fi
for copy in "${copies[@]}"; do
    mkdir "$work/$copy"
    git archive "$commit" | tar -x -C "$work/$copy"
    (cd "$work/$copy" && mvn -B -Prelease package -DskipTests -pl "$published" -am "${mvn_args[@]}") \
        >"$work/$copy.log" 2>&1 || { grep -E 'ERROR' "$work/$copy.log" | head -30 >&2; fail "the $copy build"; }
    step "built $commit in $work/$copy"
done

python3 - "$first" "$work/second" "${published//,/ }" <<'PY' || fail "the two builds differ (above)"
import hashlib, pathlib, sys, zipfile
first, second, modules = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3].split()
compared, differ = 0, []
for module in modules:
    files = sorted(p.name for p in (first / module / "target").glob("*")
                   if p.suffix == ".jar" or p.name.endswith(("-cyclonedx.json", "-cyclonedx.xml")))
    if not files and module != "senders-bom":
        differ.append(f"{module}: no jar was built")
    for name in files:
        a, b = first / module / "target" / name, second / module / "target" / name
        compared += 1
        if not b.is_file():
            differ.append(f"{module}/{name}: only the first build made it")
        elif a.read_bytes() != b.read_bytes():
            detail = ""
            if name.endswith(".jar"):
                za, zb = zipfile.ZipFile(a), zipfile.ZipFile(b)
                ia = {i.filename: (i.date_time, hashlib.sha256(za.read(i)).hexdigest()) for i in za.infolist()}
                ib = {i.filename: (i.date_time, hashlib.sha256(zb.read(i)).hexdigest()) for i in zb.infolist()}
                names = [n for n in sorted(set(ia) | set(ib)) if ia.get(n) != ib.get(n)]
                order = [i.filename for i in za.infolist()] != [i.filename for i in zb.infolist()]
                detail = f": entries {names[:10]}" + (" and the entry order" if order else "")
            differ.append(f"{module}/{name} differs{detail}")
for d in differ:
    print(f"reproducible-check: FAILED: {d}", file=sys.stderr)
if not differ:
    print(f"reproducible-check: {compared} files (jars and SBOMs of {len(modules)} modules) identical in both builds")
sys.exit(1 if differ else 0)
PY
step "OK"
