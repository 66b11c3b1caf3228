#!/usr/bin/env python3
"""Evaluates every query of a Grafana dashboard through a real Prometheus while an app is under load.

Used by scripts/dashboard-check.sh, which starts the example app and Prometheus on loopback. This
helper
  1. drives load: POST /orders/{id} and POST /orders/{id}/async on the app, from a few threads,
     until the queries are checked (bounded: at most --load-seconds and --requests requests);
  2. resolves the dashboard's template variables (label_values(...) queries) through Prometheus'
     /api/v1/series and checks that each lists the expected value (the app's application tag, the
     scrape target's instance, the scope's name);
  3. evaluates every panel target through /api/v1/query with the variables substituted
     ($__rate_interval as --rate-interval): each must return at least one series, and every series
     must carry each label whose variable the query uses (application, instance, scope) with the
     expected value, and every label its legend shows ({{label}}) non-empty.
Queries are retried until they all pass or --timeout seconds have passed (a rate needs two
scrapes, named work must have ended once). A query over a meter that the starter's code does not
define yet (OPTIONAL below, looked up in --source) may return nothing; it is reported as such.

Exits 0 when every query passed, 1 otherwise, naming each failure.
"""
import argparse
import json
import pathlib
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

# Prometheus series name -> the Micrometer meter name that must appear in the starter's source
# for the query over it to be required. Meters that another change is adding.
OPTIONAL = {
    "senders_fire_and_forget_active": "senders.fire_and_forget.active",
    "senders_fire_and_forget_found_total": "senders.fire_and_forget.found",
}


def get_json(url, params=None, timeout=10):
    if params:
        url += "?" + urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.load(r)


class Load(threading.Thread):
    """POSTs orders (plain and @Async), 10 ms apart, until done, the deadline or the budget."""

    def __init__(self, app, deadline, budget, done, counter, lock, statuses):
        super().__init__(daemon=True)
        self.app, self.deadline, self.budget, self.done = app, deadline, budget, done
        self.counter, self.lock, self.statuses = counter, lock, statuses

    def run(self):
        while time.monotonic() < self.deadline and not self.done.wait(0.01):
            with self.lock:
                n = self.counter[0]
                if n >= self.budget:
                    return
                self.counter[0] += 1
            path = f"/orders/{n}" if n % 2 == 0 else f"/orders/{n}/async"
            req = urllib.request.Request(self.app + path, method="POST", data=b"")
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    status = r.status
            except urllib.error.HTTPError as e:
                status = e.code
            except OSError:
                status = "io-error"
            with self.lock:
                self.statuses[status] = self.statuses.get(status, 0) + 1


def substitute(expr, values, rate_interval):
    expr = expr.replace("$__rate_interval", rate_interval)
    for name, value in values.items():
        expr = expr.replace("${" + name + "}", value).replace("$" + name, value)
    return expr


def resolve_variables(prom, dash, expected):
    """label_values(...) variables, in order: each must list its expected value."""
    values, problems = {}, []
    for var in dash["templating"]["list"]:
        if var.get("type") != "query":
            continue
        name = var["name"]
        definition = var["query"]["query"] if isinstance(var.get("query"), dict) else var["query"]
        m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", definition.strip())
        if not m:
            problems.append(f"variable {name}: not a label_values(selector, label) query: {definition}")
            continue
        selector = substitute(m.group(1), values, "1m")
        series = get_json(prom + "/api/v1/series", {"match[]": selector})["data"]
        found = sorted({s.get(m.group(2)) for s in series if s.get(m.group(2))})
        if expected[name] not in found:
            problems.append(f"variable {name}: {definition} lists {found}, not {expected[name]!r}")
        # as Grafana does for a regex matcher: regex-escaped, then escaped for a PromQL string
        values[name] = re.escape(expected[name]).replace("\\", "\\\\")
    return values, problems


def check_target(prom, title, target, values, expected, rate_interval, source):
    """None when the target passes, else the problem."""
    expr = substitute(target["expr"], values, rate_interval)
    result = get_json(prom + "/api/v1/query", {"query": expr})
    if result.get("status") != "success":
        return f"{title}: {expr}: {result}"
    series = result["data"]["result"]
    if not series:
        missing = [meter for name, meter in OPTIONAL.items() if name in expr and meter not in source]
        if missing:
            return "optional: " + ", ".join(missing) + " not in the starter's code yet"
        return f"{title}: no series for {expr}"
    required = {v for v in expected if "$" + v in target["expr"]}
    required |= set(re.findall(r"\{\{\s*(\w+)\s*\}\}", target.get("legendFormat", "")))
    for s in series:
        labels = s["metric"]
        for label in sorted(required):
            if not labels.get(label):
                return f"{title}: series {labels} of {expr} has no {label!r} label"
            if label in expected and labels[label] != expected[label]:
                return f"{title}: series {labels} of {expr}: {label} is not {expected[label]!r}"
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dashboard", required=True)
    p.add_argument("--prometheus", required=True, help="http://127.0.0.1:PORT")
    p.add_argument("--app", required=True, help="http://127.0.0.1:PORT of the app")
    p.add_argument("--application", required=True)
    p.add_argument("--instance", required=True)
    p.add_argument("--scope", required=True)
    p.add_argument("--source", required=True, help="the starter's main source directory")
    p.add_argument("--rate-interval", default="30s")
    p.add_argument("--load-seconds", type=float, default=90)
    p.add_argument("--requests", type=int, default=20000)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--timeout", type=float, default=120)
    a = p.parse_args()

    dash = json.load(open(a.dashboard))
    source = "\n".join(f.read_text() for f in pathlib.Path(a.source).rglob("*.java"))
    expected = {"application": a.application, "instance": a.instance, "scope": a.scope}
    targets = [(panel["title"], t) for panel in dash["panels"] for t in panel.get("targets", [])]
    if not targets:
        print("dashboard-check: FAILED: the dashboard has no queries", file=sys.stderr)
        return 1

    start = time.monotonic()
    counter, lock, statuses = [0], threading.Lock(), {}
    done = threading.Event()
    loaders = [Load(a.app, start + a.load_seconds, a.requests, done, counter, lock, statuses) for _ in range(a.threads)]
    for t in loaders:
        t.start()

    problems = ["not evaluated yet"]
    optional = []
    while True:
        try:
            values, problems = resolve_variables(a.prometheus, dash, expected)
            optional = []
            if not problems:
                for title, target in targets:
                    problem = check_target(a.prometheus, title, target, values, expected, a.rate_interval, source)
                    if problem and problem.startswith("optional: "):
                        optional.append(f"{title} [{target['refId']}]: {problem[len('optional: '):]}")
                    elif problem:
                        problems.append(problem)
        except OSError as e:
            problems = [f"Prometheus did not answer: {e}"]
        if not problems or time.monotonic() - start > a.timeout:
            break
        time.sleep(2)
    done.set()
    for t in loaders:
        t.join(15)

    with lock:
        print(f"dashboard-check: load: {counter[0]} requests, answers {dict(sorted(statuses.items(), key=str))}")
    for o in optional:
        print(f"dashboard-check: allowed empty (meter not in the code yet): {o}")
    if problems:
        for pr in problems:
            print(f"dashboard-check: FAILED: {pr}", file=sys.stderr)
        return 1
    print(f"dashboard-check: {len(targets) - len(optional)} of {len(targets)} queries returned series with "
          f"application={a.application}, instance={a.instance}, scope={a.scope} "
          f"after {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
