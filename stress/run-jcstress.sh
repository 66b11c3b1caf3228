#!/usr/bin/env bash
# Runs the jcstress suite (stress/src/main/java/dev/senders/stress) and grades it.
#
#   stress/run-jcstress.sh [quick|full|exhaustive] [test-regex] [--update-docs] [--rebuild]
#
#   quick  (default) about 18 minutes for the whole suite on 2 CPUs (a JVM fork per test and
#          configuration dominates): jcstress "quick" preset without split per-actor
#          compilation, 1 iteration of QUICK_TIME_MS (default 100) ms per JVM configuration.
#   full   the jcstress "default" preset (5 iterations of 1 s in every JVM flag configuration:
#          interpreter, C1, C2, and the C2 stress flags) without split per-actor compilation:
#          the run whose table docs/reliability.md keeps. About 2 minutes per test on 2 CPUs.
#   exhaustive  the "default" preset with split per-actor compilation too (every actor in every
#          compiler on its own): about 13 minutes per test on 2 CPUs, 6+ hours for the suite.
#   test-regex   jcstress -t selector (default: every test in dev.senders.stress).
#   --update-docs  merge this run's results into the table in docs/reliability.md (between
#                  the <!-- jcstress-<mode>:begin/end --> markers): rows of the tests this run
#                  covered are replaced, the other rows keep the run they came from, so a suite
#                  too long for one sitting can be run in pieces (by regex) and still end in one
#                  table that says, per test, which run and commit produced it.
#   --rebuild      rebuild stress/target/jcstress.jar even if it looks up to date.
#
# Results go to stress/results/<mode>-<UTC timestamp>/ (console.log, jcstress HTML report,
# summary.md). Exit status: 0 only if every selected test ran, produced samples and observed no
# FORBIDDEN outcome; 1 if a test failed (forbidden outcome), errored, ran no samples, or the run
# hung past STRESS_TIMEOUT seconds (default: quick 2400, full 21600); 2 on a usage error.
# Tests with more actors than the machine has CPUs are not run by jcstress: they are listed as
# SKIPPED (not a failure) so that a 2-CPU machine still grades everything it can run.
# STRESS_PATCH_CLASSES=dir puts a directory of compiled classes in front of the jar (forks
# included), to try a fix of a library class against the tests without rebuilding.
set -uo pipefail

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

mode=quick
regex='dev\.senders\.stress\..*'
update_docs=0
rebuild=0
positional=()
for arg in "$@"; do
  case "$arg" in
    --update-docs) update_docs=1 ;;
    --rebuild) rebuild=1 ;;
    -h|--help) usage ;;
    -*) echo "unknown option: $arg" >&2; usage ;;
    *) positional+=("$arg") ;;
  esac
done
if [ ${#positional[@]} -ge 1 ]; then mode=${positional[0]}; fi
if [ ${#positional[@]} -ge 2 ]; then regex=${positional[1]}; fi
if [ ${#positional[@]} -ge 3 ]; then usage; fi

case "$mode" in
  quick)
    jc_flags=(-m quick -sc false -iters 1 -time "${QUICK_TIME_MS:-100}")
    timeout_s=${STRESS_TIMEOUT:-2400} ;;
  full)
    jc_flags=(-m default -sc false)
    timeout_s=${STRESS_TIMEOUT:-14400} ;;
  exhaustive)
    jc_flags=(-m default)
    timeout_s=${STRESS_TIMEOUT:-43200} ;;
  *) echo "unknown mode: $mode (quick|full|exhaustive)" >&2; usage ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
jar=stress/target/jcstress.jar

# Build the jar if it is missing or older than any source it is made of.
if [ $rebuild = 1 ] || [ ! -f "$jar" ] \
   || [ -n "$(find stress/src sender-core/src reactor-adapter/src stress/pom.xml pom.xml -newer "$jar" -type f 2>/dev/null | head -1)" ]; then
  echo "== building $jar"
  mvn -B -q -pl stress -am -DskipTests package || { echo "build failed" >&2; exit 1; }
fi

stamp=$(date -u +%Y%m%d-%H%M%S)
out=stress/results/$mode-$stamp
mkdir -p "$out"
echo "== jcstress $mode: ${jc_flags[*]} -t '$regex' -> $out"

# The tests the selector matches (to report those jcstress skipped).
list_tests() { java -jar "$jar" -l -t "$1" 2>/dev/null | grep -E '^[a-zA-Z_$][a-zA-Z0-9_$.]*\.[A-Z][A-Za-z0-9_$]*$'; }
list_tests "$regex" > "$out/selected.txt"
list_tests 'dev\.senders\.stress\..*' > "$out/suite.txt"
if [ ! -s "$out/selected.txt" ]; then
  echo "no test matches '$regex'" >&2
  exit 1
fi

if [ -n "${STRESS_PATCH_CLASSES:-}" ]; then
  launch=(java -cp "$(cd "$STRESS_PATCH_CLASSES" && pwd):$root/$jar" org.openjdk.jcstress.Main)
  echo "== with patched classes from $STRESS_PATCH_CLASSES"
else
  launch=(java -jar "$root/$jar")
fi

start=$(date +%s)
# -v prints every test's outcome table; the HTML report and the result blob go under $out.
( cd "$out" && timeout -k 30 "$timeout_s" "${launch[@]}" "${jc_flags[@]}" -t "$regex" -v -r report ) \
  > "$out/console.log" 2>&1
jc_status=$?
elapsed=$(( $(date +%s) - start ))

export OUT="$out" MODE="$mode" REGEX="$regex" JC_STATUS="$jc_status" ELAPSED="$elapsed" \
       UPDATE_DOCS="$update_docs" FLAGS="${jc_flags[*]}" ROOT="$root"
python3 - <<'PY'
import os, re, subprocess, sys

out, mode = os.environ["OUT"], os.environ["MODE"]
jc_status, elapsed = int(os.environ["JC_STATUS"]), int(os.environ["ELAPSED"])
selected = [l.strip() for l in open(os.path.join(out, "selected.txt")) if l.strip()]
lines = open(os.path.join(out, "console.log"), errors="replace").read().splitlines()

# Only the final summary ("RUN RESULTS:") is graded: one block per test,
#   "...... [OK|FAILED|ERROR] fqcn", then "RESULT SAMPLES FREQ EXPECT DESCRIPTION" rows.
try:
    start = max(i for i, l in enumerate(lines) if l.startswith("RUN RESULTS:"))
except ValueError:
    start = None
head = re.compile(r"^\.*\s*\[([A-Z ]+)\]\s+(\S+)\s*$")
row = re.compile(r"^\s*(.+?)\s+([\d,]+)\s+([\d.]+%)\s+(Acceptable|Forbidden|Interesting|Unknown)\b\s*(.*)$")
tests = {}
cur = None
if start is not None:
    for l in lines[start:]:
        m = head.match(l)
        if m:
            cur = tests[m.group(2)] = {"status": m.group(1).strip(), "rows": []}  # a test may be listed twice
            continue
        m = row.match(l)
        if m and cur is not None:
            cur["rows"].append((m.group(1).strip(), int(m.group(2).replace(",", "")), m.group(4), m.group(5).strip()))

results = []
for name in selected:
    t = tests.get(name)
    short = name.rsplit(".", 1)[-1]
    if t is None:
        if start is None:
            verdict, seen = "NOT RUN (run aborted)", ""
        else:
            verdict, seen = "SKIPPED (more actors than CPUs)", ""
        results.append((short, verdict, seen))
        continue
    observed = [(rid, n, exp, desc) for rid, n, exp, desc in t["rows"] if n > 0]
    total = sum(n for _, n, _, _ in observed)
    forbidden = [o for o in observed if o[2] == "Forbidden"]
    seen = "; ".join(f"{rid} ×{n:,}" + (" FORBIDDEN: " + desc if exp == "Forbidden" else "")
                     for rid, n, exp, desc in observed)
    if t["status"] == "ERROR":
        verdict = "ERROR"
    elif forbidden or t["status"] == "FAILED":
        verdict = "FAIL"
    elif total == 0:
        verdict = "NO SAMPLES"
    else:
        verdict = "PASS"
    results.append((short, verdict, seen))

bad = [r for r in results if r[1] in ("FAIL", "ERROR", "NO SAMPLES") or r[1].startswith("NOT RUN")]
hung = jc_status in (124, 137)
ran = [r for r in results if r[1] in ("PASS", "FAIL", "NO SAMPLES", "ERROR")]
rev = subprocess.run(["git", "-C", os.environ["ROOT"], "rev-parse", "--short", "HEAD"],
                     capture_output=True, text=True).stdout.strip() or "?"
cpus = os.cpu_count()

# Console table.
w = max([len(r[0]) for r in results] + [4])
print()
print(f"{'TEST':<{w}}  {'VERDICT':<10}  OUTCOMES OBSERVED (result ×samples)")
for short, verdict, seen in results:
    print(f"{short:<{w}}  {verdict:<10}  {seen}")
print()
summary = (f"{len(ran)} ran, {sum(r[1] == 'PASS' for r in results)} passed, "
           f"{sum(r[1] == 'FAIL' for r in results)} failed, {sum(r[1] == 'ERROR' for r in results)} errors, "
           f"{sum(r[1] == 'NO SAMPLES' for r in results)} without samples, "
           f"{sum(r[1].startswith('SKIPPED') for r in results)} skipped; {elapsed} s")
print(f"jcstress {mode}: {summary}")
if hung:
    print(f"jcstress HUNG: killed after the time limit (exit {jc_status}); see {out}/console.log")
elif jc_status != 0 and not bad:
    print(f"jcstress exited with {jc_status}; see {out}/console.log")

# Markdown (summary.md, and docs/reliability.md with --update-docs). One line per run, one row
# per test naming the run that produced it, so runs of parts of the suite merge into one table.
def cell(s):
    return s.replace("|", "\\|")
run_id = os.path.basename(out).split("-", 1)[1]
run_line = (f"- `{run_id}`: `stress/run-jcstress.sh {mode} '{os.environ['REGEX']}'`, commit `{rev}`, "
            f"{cpus} CPUs, jcstress flags `{os.environ['FLAGS']}`: {summary}."
            + (" **The run hung and was killed.**" if hung else ""))
def row(s, v, o, rid):
    return f"| `{s}` | {'**' + v + '**' if v in ('FAIL', 'ERROR', 'NO SAMPLES') or v.startswith('NOT RUN') else v} | {cell(o)} | `{rid}` |"
HEAD = ["| Test | Verdict | Outcomes observed (result ×samples) | Run |", "|---|---|---|---|"]
def render(run_lines, rows, suite):
    names = [n.rsplit(".", 1)[-1] for n in suite]
    missing = [n for n in names if n not in rows]
    verdicts = [rows[n][0] for n in names if n in rows]
    used = {rows[n][2] for n in names if n in rows}
    total = (f"Whole suite: {len(names)} tests; {sum(v == 'PASS' for v in verdicts)} passed, "
             f"{sum(v == 'FAIL' for v in verdicts)} failed, {sum(v in ('ERROR', 'NO SAMPLES') or v.startswith('NOT RUN') for v in verdicts)} errored or without samples, "
             f"{sum(v.startswith('SKIPPED') for v in verdicts)} skipped (more actors than CPUs)"
             + (f"; not yet run in this mode: {', '.join('`' + m + '`' for m in missing)}" if missing else "") + ".")
    lines = [total, "", "Runs:", ""] + [l for rid, l in run_lines if rid in used] + [""] + HEAD
    lines += [row(n, *rows[n]) for n in names if n in rows]
    return "\n".join(lines) + "\n"
this_rows = {s: (v, o, run_id) for s, v, o in results}
suite = [l.strip() for l in open(os.path.join(out, "suite.txt")) if l.strip()]
open(os.path.join(out, "summary.md"), "w").write(render([(run_id, run_line)], this_rows, selected))

if os.environ["UPDATE_DOCS"] == "1":
    doc = os.path.join(os.environ["ROOT"], "docs", "reliability.md")
    begin, end = f"<!-- jcstress-{mode}:begin -->", f"<!-- jcstress-{mode}:end -->"
    text = open(doc).read() if os.path.exists(doc) else ""
    if begin in text and end in text:
        pre, rest = text.split(begin, 1)
        old, post = rest.split(end, 1)
        # Keep earlier runs' rows for the tests this run did not cover.
        rows, run_lines = {}, []
        rrow = re.compile(r"^\| `([^`]+)` \| \**([^|*]+?)\** \| (.*) \| `([^`]+)` \|$")
        for l in old.splitlines():
            m = re.match(r"^- `([^`]+)`: ", l)
            if m:
                run_lines.append((m.group(1), l))
                continue
            m = rrow.match(l)
            if m:
                rows[m.group(1)] = (m.group(2).strip(), m.group(3).replace("\\|", "|"), m.group(4))
        rows.update(this_rows)
        run_lines = [(rid, l) for rid, l in run_lines if rid != run_id] + [(run_id, run_line)]
        open(doc, "w").write(pre + begin + "\n" + render(run_lines, rows, suite) + end + post)
        print(f"updated {doc} ({mode} table)")
    else:
        print(f"{doc} has no {begin} ... {end} markers: not updated", file=sys.stderr)

sys.exit(1 if bad or hung or (jc_status != 0 and not bad) or not ran else 0)
PY
