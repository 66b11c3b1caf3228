#!/usr/bin/env python3
"""Grades a jcstress results directory and writes its tables (used by stress/run-jcstress.sh).

    jcstress_report.py <results-dir> <mode> [--update-docs] [--read-only] [--jc-status N] [--elapsed S]

Reads <results-dir>/console.log (jcstress -v output), selected.txt (the tests the run selected)
and run.txt (how the run was made: command, commit, CPUs, flags; older directories without it
are described from their summary.md and console.log). Prints one line per test, writes
<results-dir>/summary.md (unless --read-only), and with --update-docs merges the run into docs/results/jcstress-<mode>.md:
rows of the tests this run covered replace their old rows, every other test keeps its row, and
tests of the suite (the @JCStressTest classes under stress/src/main/java) never run in this mode
are listed as such. Exit status: 0 only if every selected test ran to a verdict without a
failure; 1 otherwise (a forbidden outcome, an error, no samples, a run that hung or did not
finish).

A console.log without jcstress's final summary ("RUN RESULTS:") is an unfinished run: its tests
are graded from the per-JVM results printed so far, a test that observed a forbidden outcome is
FAIL, every other test that printed results is INCOMPLETE, the rest NOT RUN. INCOMPLETE and
NOT RUN rows replace only rows that were not run before, so an unfinished run never overwrites a
finished one's verdict.
"""
import os
import re
import subprocess
import sys

FLAGS = {
    "ci": "-m quick -sc false -iters 1 -time {time} -jvmArgs '-XX:+UnlockDiagnosticVMOptions -XX:-TieredCompilation"
          " -XX:+StressLCM -XX:+StressGCM -XX:+StressIGVN -XX:+StressCCP'",
    "quick": "-m quick -sc false -iters 1 -time {time}",
    "full": "-m default -sc false",
    "exhaustive": "-m default",
}
DEFAULT_REGEX = r"dev\.senders\.stress\..*"
NOT_RUN = "not run in this mode"
BAD = ("FAIL", "ERROR", "NO SAMPLES", "INCOMPLETE")

HEAD = re.compile(r"^\.*\s*\[([A-Z ]+)\]\s+(\S+)\s*$")
ROW = re.compile(r"^\s*(.+?)\s+([\d,]+)\s+([\d.]+%)\s+(Acceptable|Forbidden|Interesting|Unknown)\b\s*(.*)$")


def read_props(path):
    props = {}
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                props[k.strip()] = v
    return props


def parse_console(path):
    """(final, forks, settings): the final summary's tests (None if the run did not finish),
    the per-JVM results summed per test, and jcstress's printed settings."""
    final, forks, settings = None, {}, {}
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("RUN RESULTS:"):
                final, cur = {}, None
                continue
            m = HEAD.match(line)
            if m:
                status, name = m.group(1).strip(), m.group(2)
                if final is not None:  # jcstress lists a failed test twice: keep the last copy
                    cur = final[name] = {"status": status, "rows": {}, "forks": 1}
                else:
                    cur = forks.setdefault(name, {"status": "OK", "rows": {}, "forks": 0})
                    cur["forks"] += 1
                    if status != "OK":
                        cur["status"] = status
                continue
            m = ROW.match(line)
            if m and cur is not None:
                rid, n, exp = m.group(1).strip(), int(m.group(2).replace(",", "")), m.group(4)
                old = cur["rows"].get(rid)
                cur["rows"][rid] = (old[0] + n if old else n, exp, m.group(5).strip())
                continue
            if final is None:
                m = re.match(r'^\s+(Test preset mode|Hardware CPUs in use|Test selection|Time per iteration):\s*"?(.*?)"?\s*$', line)
                if m:
                    settings[m.group(1)] = m.group(2)
    return final, forks, settings


def grade(t, finished):
    observed = sorted(((rid, n, exp, desc) for rid, (n, exp, desc) in t["rows"].items() if n > 0))
    seen = "; ".join(f"{rid} ×{n:,}" + (" FORBIDDEN: " + desc if exp == "Forbidden" else "")
                     for rid, n, exp, desc in observed)
    if t["status"] == "ERROR":
        return "ERROR", seen
    if any(o[2] == "Forbidden" for o in observed) or t["status"] == "FAILED":
        return "FAIL", seen
    if not finished:
        return "INCOMPLETE", f"{seen} (in {t['forks']} JVM runs before the run stopped)" if seen else ""
    if not observed:
        return "NO SAMPLES", seen
    return "PASS", seen


def suite_names(root, out):
    src = os.path.join(root, "stress", "src", "main", "java", "dev", "senders", "stress")
    names = set()
    for d, _, files in os.walk(src):
        for fn in files:
            if fn.endswith(".java") and "@JCStressTest" in open(os.path.join(d, fn), errors="replace").read():
                names.add(fn[:-5])
    if not names and os.path.exists(os.path.join(out, "suite.txt")):
        names = {l.strip().rsplit(".", 1)[-1] for l in open(os.path.join(out, "suite.txt")) if l.strip()}
    return sorted(names)


def describe_run(out, mode, root, settings):
    """The run's group: command, commit, CPUs, flags (from run.txt, else summary.md and console.log)."""
    props = read_props(os.path.join(out, "run.txt"))
    if props:
        return {k: props.get(k, "?") for k in ("command", "commit", "cpus", "flags")}
    info = {"command": None, "commit": os.environ.get("STRESS_COMMIT", "unknown"), "cpus": "?", "flags": None}
    summary = os.path.join(out, "summary.md")
    if os.path.exists(summary):  # written by the script before run.txt existed
        m = re.search(r"`(stress/run-jcstress\.sh [^`]*)`, commit `([^`]+)`, (\d+) CPUs, jcstress flags `([^`]+)`",
                      open(summary).read())
        if m:
            info.update(command=m.group(1), commit=m.group(2), cpus=m.group(3), flags=m.group(4))
    regex = settings.get("Test selection", DEFAULT_REGEX)
    if info["command"] is None:
        info["command"] = f"stress/run-jcstress.sh {mode}" + ("" if regex == DEFAULT_REGEX else f" '{regex}'")
    if info["cpus"] == "?":
        info["cpus"] = settings.get("Hardware CPUs in use", "?")
    if info["flags"] is None:
        time = re.sub(r"\D", "", settings.get("Time per iteration", "100")) or "100"
        info["flags"] = FLAGS[mode].format(time=time)
    info["command"] = re.sub(r" 'dev\\\.senders\\\.stress\\\.\.\*'$", "", info["command"])
    return info


def cell(s):
    return s.replace("|", "\\|")


def uncell(s):
    return s.replace("\\|", "|")


def split_row(line):
    return [uncell(c.strip()) for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def render(mode, names, rows, groups, with_missing):
    """Markdown: the suite's totals, the groups that produced the rows, one row per test."""
    used = []
    for n in names:
        if n in rows and rows[n][2] is not None and rows[n][2] not in used:
            used.append(rows[n][2])
    used.sort(key=lambda g: groups.index(g) if g in groups else len(groups))
    label = {g: str(i + 1) for i, g in enumerate(used)}
    verdicts = [rows[n][0] if n in rows else NOT_RUN for n in names]
    count = lambda pred: sum(1 for v in verdicts if pred(v))
    intro = [
        "<!-- Written by stress/run-jcstress.sh (--update-docs, or render): edit the script, not this file. -->",
        "",
        "What each test catches and how to run it: [reliability.md](../reliability.md#jcstress-the-races). "
        f"To refresh this file: `stress/run-jcstress.sh {mode} [test-regex] --update-docs`, or "
        f"`stress/run-jcstress.sh render stress/results/{mode}-<timestamp> --update-docs` for a run already made; "
        "the rows of the tests a run covers replace their old rows.",
        "",
    ]
    out = [f"# jcstress results: {mode} mode", ""] + (intro if with_missing else []) + [
        f"{len(names)} tests: {count(lambda v: v == 'PASS')} passed, {count(lambda v: v == 'FAIL')} failed, "
        f"{count(lambda v: v in ('ERROR', 'NO SAMPLES'))} errored or without samples, "
        f"{count(lambda v: v.startswith('SKIPPED'))} skipped (more actors than CPUs)"
        + (f", {count(lambda v: v in ('INCOMPLETE', 'NOT RUN'))} left unfinished by their run"
           if count(lambda v: v in ('INCOMPLETE', 'NOT RUN')) else "")
        + (f", {count(lambda v: v == NOT_RUN)} not run in this mode." if with_missing else "."),
        "",
        "Produced by:",
        "",
        "| Group | Command | Commit | CPUs | jcstress flags | Tests |",
        "|---|---|---|---|---|---|",
    ]
    for g in used:
        command, commit, cpus, flags, note = g
        n = sum(1 for t in names if t in rows and rows[t][2] == g)
        out.append(f"| {label[g]} | `{cell(command)}`{' ' + note if note else ''} | `{commit}` | {cpus} | `{flags}` | {n} |")
    out += ["", "| Test | Verdict | Outcomes observed (result ×samples) | Group |", "|---|---|---|---|"]
    for n in names:
        if n in rows:
            v, o, g = rows[n]
            vv = f"**{v}**" if v in BAD or v == "NOT RUN" else v
            out.append(f"| `{n}` | {vv} | {cell(o)} | {label.get(g, '')} |")
        elif with_missing:
            out.append(f"| `{n}` | {NOT_RUN} |  |  |")
    return "\n".join(out) + "\n"


def read_doc(path):
    """(rows, groups) of a results file this script wrote."""
    rows, groups, by_label = {}, [], {}
    if not os.path.exists(path):
        return rows, groups
    for line in open(path):
        if not line.startswith("| "):
            continue
        c = split_row(line)
        if len(c) == 6 and c[0].isdigit():
            m = re.match(r"^`(.*)`(?: (.*))?$", c[1])
            g = (m.group(1), c[2].strip("`"), c[3], c[4].strip("`"), m.group(2) or "")
            by_label[c[0]] = g
            groups.append(g)
        elif len(c) == 4 and c[0].startswith("`") and c[1] != NOT_RUN:
            rows[c[0].strip("`")] = (c[1].strip("*"), c[2], by_label.get(c[3]))
    return rows, groups


def main(argv):
    args = list(argv)
    update = "--update-docs" in args
    read_only = "--read-only" in args
    args = [a for a in args if a not in ("--update-docs", "--read-only")]
    jc_status = elapsed = None
    for opt in ("--jc-status", "--elapsed"):
        if opt in args:
            i = args.index(opt)
            val = int(args[i + 1])
            del args[i:i + 2]
            if opt == "--jc-status":
                jc_status = val
            else:
                elapsed = val
    out, mode = args[0], args[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    console = os.path.join(out, "console.log")
    if not os.path.exists(console):
        print(f"{out} has no console.log: not a results directory of stress/run-jcstress.sh", file=sys.stderr)
        return 2

    final, forks, settings = parse_console(console)
    finished = final is not None
    tests = final if finished else forks
    sel_file = os.path.join(out, "selected.txt")
    selected = [l.strip() for l in open(sel_file) if l.strip()] if os.path.exists(sel_file) else sorted(tests)

    results = []
    for name in selected:
        short = name.rsplit(".", 1)[-1]
        t = tests.get(name)
        if t is None:
            results.append((short, "SKIPPED (more actors than CPUs)" if finished else "NOT RUN", ""))
        else:
            results.append((short, *grade(t, finished)))

    hung = jc_status in (124, 137)
    ran = [r for r in results if r[1] in ("PASS", "FAIL", "NO SAMPLES", "ERROR")]
    bad = [r for r in results if r[1] in BAD or r[1] == "NOT RUN"]
    info = describe_run(out, mode, root, settings)
    note = "" if finished else "(stopped before jcstress's final summary)"
    group = (info["command"], info["commit"], info["cpus"], info["flags"], note)

    w = max([len(r[0]) for r in results] + [4])
    print()
    print(f"{'TEST':<{w}}  {'VERDICT':<10}  OUTCOMES OBSERVED (result ×samples)")
    for short, verdict, seen in results:
        print(f"{short:<{w}}  {verdict:<10}  {seen}")
    print()
    summary = (f"{len(ran)} ran, {sum(r[1] == 'PASS' for r in results)} passed, "
               f"{sum(r[1] == 'FAIL' for r in results)} failed, {sum(r[1] == 'ERROR' for r in results)} errors, "
               f"{sum(r[1] == 'NO SAMPLES' for r in results)} without samples, "
               f"{sum(r[1].startswith('SKIPPED') for r in results)} skipped"
               + (f"; unfinished run: {sum(r[1] == 'INCOMPLETE' for r in results)} tests with results so far, "
                  f"{sum(r[1] == 'NOT RUN' for r in results)} not reached" if not finished else "")
               + (f"; {elapsed} s" if elapsed is not None else ""))
    print(f"jcstress {mode}: {summary}")
    if hung:
        print(f"jcstress HUNG: killed after the time limit (exit {jc_status}); see {console}")
    elif not finished:
        print(f"INCOMPLETE: {console} has no final summary (RUN RESULTS:): the run did not finish; "
              "tests are graded from the JVM runs it printed")
    elif jc_status not in (None, 0) and not bad:
        print(f"jcstress exited with {jc_status}; see {console}")

    this_rows = {s: (v, o, group) for s, v, o in results}
    if not read_only:
        open(os.path.join(out, "summary.md"), "w").write(render(mode, [r[0] for r in results], this_rows, [group], with_missing=False))

    if update:
        doc = os.path.join(root, "docs", "results", f"jcstress-{mode}.md")
        rows, groups = read_doc(doc)
        for s, (v, o, g) in this_rows.items():
            definite = v not in ("INCOMPLETE", "NOT RUN")
            if definite or s not in rows or rows[s][0] in ("INCOMPLETE", "NOT RUN"):
                rows[s] = (v, o, g)
        groups = [g for g in groups if g != group] + [group]
        os.makedirs(os.path.dirname(doc), exist_ok=True)
        open(doc, "w").write(render(mode, suite_names(root, out), rows, groups, with_missing=True))
        print(f"updated {os.path.relpath(doc, os.getcwd())}")

    status_bad = bad or hung or not finished or not ran or (jc_status not in (None, 0))
    return 1 if status_bad else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
