#!/usr/bin/env bash
# Prints, as Markdown, what the Reactive Streams TCK run in tck-tests did: one row per verified
# class (TCK tests executed, passed, skipped, failed), then every distinct skip reason the TCK
# gave, with how many tests it covers.
#
# Usage (from the repository root):
#   mvn -B -pl tck-tests -am verify && tck-tests/report.sh
# Reads tck-tests/target/surefire-reports/TEST-*.xml (or the directory given as $1).
set -euo pipefail
dir="${1:-$(dirname "$0")/target/surefire-reports}"
if ! ls "$dir"/TEST-*.xml >/dev/null 2>&1; then
  echo "no Surefire reports in $dir: run 'mvn -B -pl tck-tests -am verify' first" >&2
  exit 1
fi
classes="$(dirname "$0")/target/test-classes"
python3 - "$dir" "$classes" <<'PY'
import collections, glob, os, re, sys
import xml.etree.ElementTree as ET

rows, reasons = [], collections.OrderedDict()
total = collections.Counter()
for path in sorted(glob.glob(os.path.join(sys.argv[1], "TEST-*.xml"))):
    suite = ET.parse(path).getroot()
    cases = list(suite.iter("testcase"))
    if not cases:
        continue
    fqcn = cases[0].get("classname", suite.get("name", "?"))
    if os.path.isdir(sys.argv[2]) and not os.path.exists(
            os.path.join(sys.argv[2], fqcn.replace(".", "/") + ".class")):
        print(f"(ignoring stale report of deleted class {fqcn})", file=sys.stderr)
        continue
    cls = fqcn.rsplit(".", 1)[-1]
    c = collections.Counter()
    for tc in cases:
        c["executed"] += 1
        skipped = tc.find("skipped")
        if skipped is not None:
            c["skipped"] += 1
            text = (skipped.get("message") or (skipped.text or "").strip()).splitlines()
            msg = text[0] if text else "(no message)"
            msg = re.sub(r"^org\.testng\.SkipException: ", "", msg)
            msg = re.sub(r"^org\.opentest4j\.TestAbortedException: Assumption failed: ", "", msg)
            msg = re.sub(r"nr: \d+ is higher", "nr: N is higher", msg)  # group "needs N elements"
            reasons.setdefault(msg, collections.Counter())[cls] += 1
        elif tc.find("failure") is not None or tc.find("error") is not None:
            c["failed"] += 1
        else:
            c["passed"] += 1
    rows.append((cls, c))
    total.update(c)

def kind(cls):
    flow = "Flow" if cls.startswith("Flow") else ""
    if cls.endswith("PublisherTest"):
        return flow + "PublisherVerification"
    if cls.endswith("BlackboxTest"):
        return flow + "SubscriberBlackboxVerification"
    if cls.endswith("WhiteboxTest"):
        return flow + "SubscriberWhiteboxVerification"
    return "JUnit 5, supplementary"

print("| verified class | verification | tests executed | passed | skipped | failed |")
print("|---|---|---:|---:|---:|---:|")
for cls, c in rows:
    print(f"| `{cls}` | {kind(cls)} | {c['executed']} | {c['passed']} | {c['skipped']} | {c['failed']} |")
print(f"| **total ({len(rows)} classes)** | | **{total['executed']}** | **{total['passed']}** "
      f"| **{total['skipped']}** | **{total['failed']}** |")
print()
print("| skip reason (the TCK's own words, or our explicit justification) | skipped tests | classes |")
print("|---|---:|---:|")
for msg, per in sorted(reasons.items(), key=lambda kv: -sum(kv[1].values())):
    print(f"| {msg.replace('|', '/')} | {sum(per.values())} | {len(per)} |")
PY
