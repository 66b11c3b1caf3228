#!/usr/bin/env bash
# Sums every Surefire/Failsafe XML report under the repository and prints the totals, per module
# and overall, ending with the plain line "N passed, N failed, N skipped". A profile that builds in
# its own directory under target/ (target/reactor-3.7 for -Preactor-3.7) counts as its own row,
# "<module> [reactor-3.7]".
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import glob, os, xml.etree.ElementTree as ET
per = {}
reports = glob.glob('**/target/*-reports/TEST-*.xml', recursive=True) \
        + glob.glob('**/target/*/*-reports/TEST-*.xml', recursive=True)
for f in sorted(reports):
    mod, rest = f.split('/target/', 1)
    if rest.count('/') == 2:  # target/<profile build>/<x>-reports/TEST-*.xml
        mod = f"{mod} [{rest.split('/')[0]}]"
    r = ET.parse(f).getroot()
    t = per.setdefault(mod, [0, 0, 0, 0])
    t[0] += int(r.get('tests', 0)); t[1] += int(r.get('failures', 0))
    t[2] += int(r.get('errors', 0)); t[3] += int(r.get('skipped', 0))
tot = [sum(v[i] for v in per.values()) for i in range(4)]
for mod, (n, f, e, s) in per.items():
    print(f"  {mod:<30} tests run: {n:>5}, failures: {f}, errors: {e}, skipped: {s}")
n, f, e, s = tot
print(f"Surefire totals: tests run: {n}, failures: {f}, errors: {e}, skipped: {s}")
print(f"{n - f - e - s} passed, {f + e} failed, {s} skipped")
PY
