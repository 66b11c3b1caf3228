#!/usr/bin/env bash
# Runs the jcstress suite (stress/src/main/java/dev/senders/stress) and grades it.
#
#   stress/run-jcstress.sh [ci|quick|full|exhaustive] [test-regex] [--update-docs] [--rebuild]
#   stress/run-jcstress.sh render <results-dir> [ci|quick|full|exhaustive] [--update-docs]
#
#   ci     what .ci/run runs on every change: quick's settings in one JVM configuration, C2 with
#          its scheduling stress flags (StressLCM/GCM/IGVN/CCP, a random seed per fork: the
#          configuration that reorders the most), with and without biased locking (jcstress adds
#          that pair itself). A quarter of quick's JVM forks: about 7 minutes for the suite on
#          2 CPUs. The interpreter and C1 configurations run in quick and above.
#   quick  (default) about 25 minutes for the whole suite on 2 CPUs (a JVM fork per test and
#          configuration dominates): jcstress "quick" preset without split per-actor
#          compilation, 1 iteration of QUICK_TIME_MS (default 100) ms per JVM configuration.
#   full   the jcstress "default" preset (5 iterations of 1 s in every JVM flag configuration:
#          interpreter, C1, C2, and the C2 stress flags) without split per-actor compilation.
#          About 2 minutes per test on 2 CPUs.
#   exhaustive  the "default" preset with split per-actor compilation too (every actor in every
#          compiler on its own): about 13 minutes per test on 2 CPUs, 6+ hours for the suite.
#   test-regex   jcstress -t selector (default: every test in dev.senders.stress).
#   --update-docs  merge the results into docs/results/jcstress-<mode>.md: rows of the tests the
#                  run covered are replaced, the other tests keep theirs (or "not run in this
#                  mode"), so a suite too long for one sitting can be run in pieces (by regex)
#                  and still end in one table of the whole suite that says which command and
#                  commit produced each row.
#   --rebuild      rebuild stress/target/jcstress.jar even if it looks up to date.
#   render <results-dir>  grade a results directory already made (a CI run's, say) without
#                  running anything (the directory is only read): prints the table and, with
#                  --update-docs, merges it as above. The mode defaults to the directory name's
#                  prefix. A run that did not finish (no final summary in console.log) is graded
#                  from the JVM runs it printed and reported INCOMPLETE (exit 1); its rows never
#                  replace a finished run's. STRESS_COMMIT=<sha> names the commit of a directory
#                  made before run.txt recorded it.
#
# Results go to stress/results/<mode>-<UTC timestamp>/ (console.log, jcstress HTML report,
# run.txt, summary.md). Exit status: 0 only if every selected test ran, produced samples and observed no
# FORBIDDEN outcome; 1 if a test failed (forbidden outcome), errored, ran no samples, or the run
# hung past STRESS_TIMEOUT seconds (default: ci 1800, quick 3600, full 14400, exhaustive 43200); 2 on a usage error.
# Tests with more actors than the machine has CPUs are not run by jcstress: they are listed as
# SKIPPED (not a failure) so that a 2-CPU machine still grades everything it can run.
# STRESS_PATCH_CLASSES=dir puts a directory of compiled classes in front of the jar (forks
# included), to try a fix of a library class against the tests without rebuilding.
set -uo pipefail

usage() { sed -n '2,/^set -uo pipefail/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2; }

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
root=$(cd "$(dirname "$0")/.." && pwd)

if [ "${positional[0]:-}" = render ]; then
  [ ${#positional[@]} -ge 2 ] && [ ${#positional[@]} -le 3 ] || usage
  dir=${positional[1]}
  [ -d "$dir" ] || { echo "no results directory $dir" >&2; exit 2; }
  mode=${positional[2]:-$(basename "$dir" | sed 's/-.*//')}
  case "$mode" in ci|quick|full|exhaustive) ;; *) echo "unknown mode: $mode (ci|quick|full|exhaustive)" >&2; usage ;; esac
  exec python3 "$root/stress/jcstress_report.py" "$dir" "$mode" --read-only $([ $update_docs = 1 ] && echo --update-docs)
fi
if [ ${#positional[@]} -ge 1 ]; then mode=${positional[0]}; fi
if [ ${#positional[@]} -ge 2 ]; then regex=${positional[1]}; fi
if [ ${#positional[@]} -ge 3 ]; then usage; fi

case "$mode" in
  ci)
    jc_flags=(-m quick -sc false -iters 1 -time "${QUICK_TIME_MS:-100}"
              -jvmArgs "-XX:+UnlockDiagnosticVMOptions -XX:-TieredCompilation -XX:+StressLCM -XX:+StressGCM -XX:+StressIGVN -XX:+StressCCP")
    timeout_s=${STRESS_TIMEOUT:-1800} ;;
  quick)
    jc_flags=(-m quick -sc false -iters 1 -time "${QUICK_TIME_MS:-100}")
    timeout_s=${STRESS_TIMEOUT:-3600} ;;
  full)
    jc_flags=(-m default -sc false)
    timeout_s=${STRESS_TIMEOUT:-14400} ;;
  exhaustive)
    jc_flags=(-m default)
    timeout_s=${STRESS_TIMEOUT:-43200} ;;
  *) echo "unknown mode: $mode (ci|quick|full|exhaustive)" >&2; usage ;;
esac

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

# How the run was made, for the results file (stress/jcstress_report.py).
{
  if [ "$regex" = 'dev\.senders\.stress\..*' ]; then echo "command=stress/run-jcstress.sh $mode"
  else echo "command=stress/run-jcstress.sh $mode '$regex'"; fi
  echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$([ -n "$(git status --porcelain -- stress sender-core reactor-adapter rxjava-adapter senders-test 2>/dev/null)" ] && echo ' (with local changes)')"
  echo "cpus=$(nproc)"
  echo "flags=${jc_flags[*]}"
} > "$out/run.txt"

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

python3 stress/jcstress_report.py "$out" "$mode" --jc-status "$jc_status" --elapsed "$elapsed" \
  $([ $update_docs = 1 ] && echo --update-docs)
