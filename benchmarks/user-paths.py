#!/usr/bin/env python3
"""Render the "Adapter paths users take" section of docs/benchmarks.md: the paths a Reactor or
RxJava user takes into the library (ReactorScopes.spawn / RxScopes.spawn in place of a composite,
a value's round trip through a sender, the scope's own fixed and per-operation costs) as ratios
against the code they replace, measured in one run, with a verdict per target.

Usage: user-paths.py <jmh.json> <footprint.json> <commands.txt> <load-before> <load-after> <doc.md>

Only the text between the USER PATHS markers is replaced (appended at the end of the file the
first time). Scores are per JMH operation divided by the parameter `n` when there is one
(ns/task, B/task from gc.alloc.rate.norm); OutstandingBench rows are per operation (one remove +
one add at a standing population).
"""
import json
import math
import os
import subprocess
import sys

BEGIN = "<!-- BEGIN USER PATHS (benchmarks/user-paths.py) -->"
END = "<!-- END USER PATHS -->"


def load(path):
    with open(path) as f:
        return json.load(f)


def rows(jmh):
    """-> {(class, method, frozenset(params without n)) : {n: (ns, bytes)}}"""
    out = {}
    for r in jmh:
        cls, method = r["benchmark"].split(".")[-2:]
        params = dict(r.get("params") or {})
        n = int(params.pop("n", 1))
        pm = r["primaryMetric"]
        scale = {"ns/op": 1.0, "us/op": 1e3, "ms/op": 1e6}.get(pm["scoreUnit"], float("nan"))
        alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        b = alloc["score"] / n if alloc else None
        out.setdefault((cls, method, frozenset(params.items())), {})[n] = (pm["score"] * scale / n, b)
    return out


def fmt(v, d=1):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.{d}f}"


def main():
    jmh_path, fp_path, cmd_path, load_before, load_after, doc = sys.argv[1:7]
    table = rows(load(jmh_path))
    footprint = {r["variant"]: r for r in load(fp_path)} if os.path.exists(fp_path) else {}
    with open(cmd_path) as f:
        commands = f.read().strip()

    def get(cls, method, n=1000, **params):
        v = table.get((cls, method, frozenset((k, str(x)) for k, x in params.items())), {})
        return v.get(n)

    lines = []

    def row(target, ours, peer, lim_time, lim_bytes=None, bytes_abs=None):
        """lim_time: max ratio of times; lim_bytes: max ratio of bytes; bytes_abs: max B/task of ours."""
        o, p = get(*ours[:2], **ours[2]), get(*peer[:2], **peer[2])
        if o is None or p is None:
            lines.append(f"| {target} | not measured | | | | |")
            return
        rt = o[0] / p[0]
        rb = o[1] / p[1] if o[1] is not None and p[1] else None
        ok = rt <= lim_time
        if lim_bytes is not None and rb is not None:
            ok = ok and rb <= lim_bytes
        if bytes_abs is not None and o[1] is not None:
            ok = ok and o[1] <= bytes_abs
        lines.append(f"| {target} | {fmt(o[0])} ns, {fmt(o[1])} B | {fmt(p[0])} ns, {fmt(p[1])} B "
                     f"| {rt:.2f}× | {fmt(rb, 2) + '×' if rb is not None else '–'} | {'**met**' if ok else '**NOT met**'} |")

    u, up, rtb = "UserSpawnBench", "UserSpawnPooledBench", "RoundTripBench"
    lines += ["| target | this project | peer | × time | × bytes | verdict |", "|---|---|---|---:|---:|---|"]
    row("`ReactorScopes.spawn` (CountingScope) vs composite + `subscribe`: ≤ 1× time, ≤ 64 B/task",
        (u, "reactorSpawn", {}), (u, "reactorComposite", {}), 1.0, bytes_abs=64)
    row("`ReactorScopes.spawn` (SimpleCountingScope) vs the same: ≤ 1× time, ≤ 64 B/task",
        (u, "reactorSpawnSimple", {}), (u, "reactorComposite", {}), 1.0, bytes_abs=64)
    row("`RxScopes.spawn` (CountingScope) vs `CompositeDisposable` + `subscribe`: ≤ 1× time, ≤ 64 B/task",
        (u, "rxSpawn", {}), (u, "rxComposite", {}), 1.0, bytes_abs=64)
    row("`RxScopes.spawn` (SimpleCountingScope) vs the same: ≤ 1× time, ≤ 64 B/task",
        (u, "rxSpawnSimple", {}), (u, "rxComposite", {}), 1.0, bytes_abs=64)
    row("2-thread pool: `ReactorScopes.spawn` vs composite: ≤ 1× time, ≤ 1× bytes",
        (up, "reactorSpawn", {}), (up, "reactorComposite", {}), 1.0, lim_bytes=1.0)
    row("2-thread pool: `RxScopes.spawn` vs `CompositeDisposable`: ≤ 1× time, ≤ 1× bytes",
        (up, "rxSpawn", {}), (up, "rxComposite", {}), 1.0, lim_bytes=1.0)
    row("Mono round trip `toMono(fromMono(m).then(f))` vs `m.map(f)`: ≤ 1.3× time and bytes",
        (rtb, "monoRoundTrip", {}), (rtb, "monoMap", {}), 1.3, lim_bytes=1.3)
    row("Single round trip `toSingle(fromSingle(s).then(f))` vs `s.map(f)`: ≤ 1.3× time and bytes",
        (rtb, "singleRoundTrip", {}), (rtb, "singleMap", {}), 1.3, lim_bytes=1.3)
    row("Flux, per element: `toMono(fromPublisherAll(flux).then(f))` vs `flux.collectList().map(f)`: ≤ 1.2×",
        (rtb, "fluxRoundTrip", {}), (rtb, "fluxCollect", {}), 1.2, lim_bytes=1.2)
    row("Flowable, per element: `toSingle(fromFlowableList(f).then(g))` vs `f.toList().map(g)`: ≤ 1.2×",
        (rtb, "flowableRoundTrip", {}), (rtb, "flowableCollect", {}), 1.2, lim_bytes=1.2)
    for n in (1000, 100000):
        o, f = get("InlineBench", "scope", n), get("InlineBench", "floor", n)
        if o and f:
            r = o[0] / f[0]
            lines.append(f"| core: inline spawn + join, N = {n:,}, vs the atomic floor: ≤ 1.5× | {fmt(o[0])} ns, {fmt(o[1])} B "
                         f"| {fmt(f[0])} ns, {fmt(f[1])} B | {r:.2f}× | – | {'**met**' if r <= 1.5 else '**NOT met**'} |")
    o, d = get("NestBench", "nest"), get("NestBench", "direct")
    if o and d:
        diff = o[0] - d[0]
        lines.append(f"| core: `nest` + connect + start vs a direct start: ≤ 10 ns more | {fmt(o[0])} ns, {fmt(o[1])} B "
                     f"| {fmt(d[0])} ns, {fmt(d[1])} B | +{diff:.1f} ns | – | {'**met**' if diff <= 10 else '**NOT met**'} |")
    lc = "ScopeLifecycleBench"
    for ours, label in (("createCloseJoin", "SimpleCountingScope"), ("countingCreateCloseJoin", "CountingScope")):
        o, p = get(lc, ours, 1), get(lc, "compositeCreateDispose", 1)
        if o and p:
            r = o[0] / p[0]
            lines.append(f"| core: {label} create + close + `syncWait(join())` vs `Disposables.composite()` + `dispose()`: ≤ 4× "
                         f"| {fmt(o[0])} ns, {fmt(o[1])} B | {fmt(p[0])} ns, {fmt(p[1])} B | {r:.2f}× | {o[1] / p[1]:.2f}× "
                         f"| {'**met**' if r <= 4 else '**NOT met**'} |")
    o, p = get(lc, "createSpawnOneJoin", 1), get(lc, "compositeCreateDispose", 1)
    if o and p:
        lines.append(f"| (no target) create + spawn one task + join vs composite create + dispose | {fmt(o[0])} ns, {fmt(o[1])} B "
                     f"| {fmt(p[0])} ns, {fmt(p[1])} B | {o[0] / p[0]:.2f}× | {o[1] / p[1]:.2f}× | – |")
    if "countingScope" in footprint and "floorStoppable" in footprint:
        c, f = footprint["countingScope"], footprint["floorStoppable"]
        extra = c["bytesPerOp"] - f["bytesPerOp"]
        lines.append(f"| core: work parked on a CountingScope's stop token ({c['outstanding']:,} outstanding), retained per operation "
                     f"beyond the user's own operation: ≤ 32 B (48 B with a 16 B operation, so 10⁶ fit in `-Xmx64m`) "
                     f"| {c['bytesPerOp']:.1f} B | {f['bytesPerOp']:.1f} B (user's operation, registered nowhere) | – | +{extra:.1f} B "
                     f"| {'**met**' if extra <= 32 else '**NOT met**'} |")
    lines.append("")

    # flatness: OutstandingBench at several populations
    pops = sorted({int(dict(k[2]).get("outstanding", 0)) for k in table if k[0] == "OutstandingBench"})
    trackers = ["floor", "floorStoppable", "scope", "countingScope", "reactor", "rxjava"]
    if len(pops) > 1:
        lines += ["Cost flat as outstanding work grows (`OutstandingBench`: one random completion + one new "
                  "tracked operation at a standing population; ns/op; the last column is the cost at the "
                  "largest population over the cost at the smallest; target: the scope's growth no worse "
                  "than the floor's, which pays the same cache misses on the user's own objects, times 1.5):", "",
                  "| tracker | " + " | ".join(f"{p:,}" for p in pops) + " | growth | verdict |",
                  "|---|" + "---:|" * len(pops) + "---:|---|"]
        growth = {}
        for t in trackers:
            vals = [table.get(("OutstandingBench", "replaceOne", frozenset({("outstanding", str(p)), ("tracker", t)})), {}).get(1)
                    for p in pops]
            if not any(vals):
                continue
            g = vals[-1][0] / vals[0][0] if vals[0] and vals[-1] else None
            growth[t] = g
            floor = growth.get("floorStoppable" if t == "countingScope" else "floor")
            verdict = "–"
            if t in ("scope", "countingScope") and g is not None and floor:
                verdict = "**met**" if g <= floor * 1.5 else "**NOT met**"
            lines.append(f"| {'**' + t + '**' if t in ('scope', 'countingScope') else t} | "
                         + " | ".join(fmt(v[0]) if v else "–" for v in vals) + f" | {fmt(g, 2)}× | {verdict} |")
        lines.append("")

    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.strip().splitlines()[0]
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    gen = [BEGIN, "", "## Adapter paths users take", "",
           "What a Reactor or RxJava user pays for taking the library's path instead of the code it "
           "replaces, in ratios from one run (same machine, same N = 1,000 tasks per invocation, both "
           "sides in the same JMH run). The benchmarks: `UserSpawnBench` and `UserSpawnPooledBench` "
           "(N tasks started, tracked until they end and waited for), `RoundTripBench`, `InlineBench`, "
           "`NestBench`, `ScopeLifecycleBench`, `OutstandingBench` and `Footprint` (see their class "
           "comments). Time ratios from a machine shared with other builds are directions, not "
           "measurements: the load averages are below; the byte columns do not depend on load.", "",
           f"- Machine: {nproc} CPUs; `{java}`; load average before / after: {load_before} / {load_after}",
           "- Reproduce (the quick run of `benchmarks/run.sh` includes these commands):", "", "```", commands, "```", ""]
    gen += lines
    gen.append(END)
    text = "\n".join(gen) + "\n"
    if os.path.exists(doc):
        with open(doc) as f:
            old = f.read()
        if BEGIN in old and END in old:
            old = old[:old.index(BEGIN)].rstrip("\n") + "\n\n" + old[old.index(END) + len(END):].lstrip("\n")
        text = old.rstrip("\n") + "\n\n" + text
    with open(doc, "w") as f:
        f.write(text)
    print(f"rendered the user-paths section of {doc}")


if __name__ == "__main__":
    main()
