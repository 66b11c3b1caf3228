#!/usr/bin/env python3
"""Render JMH JSON (+ the Footprint JSON) into the generated part of docs/benchmarks.md.

Usage: render.py <mode> <jmh.json> <footprint.json> <commands.txt> <load-before> <load-after> <doc.md>

Only the text between the GENERATED markers is replaced; the hand-written analysis around it stays.
Scores are per JMH operation (one invocation = N tasks) and are divided by the parameter `n`
(ns/task, B/task from gc.alloc.rate.norm). OutstandingBench has no `n`: one operation is one
remove + one add at a standing population of `outstanding`.
"""
import datetime
import json
import math
import os
import platform
import subprocess
import sys

BEGIN = "<!-- BEGIN GENERATED (benchmarks/render.py) -->"
END = "<!-- END GENERATED -->"

# group -> (title, floor variant or None, our variants, peer variants)
GROUPS = {
    "InlineBench": ("Inline fire-and-forget, tracked and joined", "floor", ["scope"],
                    ["reactor", "rxjava", "completableFuture"]),
    "PooledBench": ("Fire-and-forget on one shared 2-thread pool, joined", "floor", ["scope"],
                    ["reactor", "rxjava", "completableFuture"]),
    "ContentionBench": ("Contention: two threads spawning into one tracker", "floor", ["scope"],
                        ["reactor", "rxjava"]),
    "NestBench": ("nest + connect + start of just() vs starting just() directly", "direct", ["nest"], []),
    "SpawnFutureBench": ("spawnFuture + consume vs CompletableFuture.supplyAsync + join vs Mono.toFuture",
                         None, ["spawnFuture"], ["completableFuture", "monoToFuture"]),
    "AdapterBench": ("Adapter round trip vs the plain publisher (subscribed by a minimal subscriber)",
                     None, ["monoRoundTrip", "monoRoundTripThen", "singleRoundTrip", "singleRoundTripThen"],
                     ["monoPlain", "singlePlain"]),
    "LetAsyncScopeBench": ("letAsyncScope with N children vs Flux.flatMap / Mono.when over N Monos",
                           None, ["letAsyncScope"], ["fluxFlatMap", "monoWhen"]),
    "ScopeLifecycleBench": ("Fixed cost per scope: create a SimpleCountingScope, spawn one task, syncWait(join)",
                            None, ["createSpawnOneJoin"], []),
    "OutstandingBench": ("Outstanding work: one remove (random completion) + one add at a standing population",
                         "floor", ["scope"], ["reactor", "rxjava"]),
}
ORDER = list(GROUPS)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def fmt(v, digits=1):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 100:
        return f"{v:.0f}"
    return f"{v:.{digits}f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def load(path):
    with open(path) as f:
        return json.load(f)


def rows_from(jmh):
    """-> {(group, key) : {variant: row}} where key is the sizing param value."""
    table = {}
    for r in jmh:
        cls, method = r["benchmark"].split(".")[-2:]
        params = r.get("params", {}) or {}
        if "n" in params:
            div = int(params["n"])
            key = ("n", int(params["n"]))
            variant = method
        elif "outstanding" not in params:
            div = 1
            key = ("op", 0)
            variant = method
        else:
            div = 1
            key = ("outstanding", int(params.get("outstanding", 0)))
            variant = params.get("tracker", method)
        pm = r["primaryMetric"]
        unit = pm["scoreUnit"]
        scale = {"ns/op": 1.0, "us/op": 1e3, "ms/op": 1e6}.get(unit, float("nan"))
        score = pm["score"] * scale / div
        err = pm.get("scoreError")
        err = None if err in (None, "NaN") or (isinstance(err, float) and math.isnan(err)) else err * scale / div
        raw = [x for fork in (pm.get("rawData") or []) for x in fork]
        best = min(raw) * scale / div if raw else None
        alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        b = alloc["score"] / div if alloc else None
        table.setdefault((cls, key), {})[variant] = {"ns": score, "err": err, "b": b, "best": best}
    return table


def render_group(cls, key, variants):
    title, floor, ours, peers = GROUPS[cls]
    per = "op" if key[0] in ("outstanding", "op") else "task"
    out = [f"#### {title}" + (f" — {key[0]} = {key[1]:,}" if key[0] != "op" else ""), ""]
    base_label = "× floor" if floor else ("× plain" if cls == "AdapterBench" else "× floor")
    out.append(f"| variant | ns/{per} | ± (99.9%) | best iteration | B/{per} | {base_label} | × best peer |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    peer_ns = [variants[p]["ns"] for p in peers if p in variants]
    best_peer = min(peer_ns) if peer_ns else None
    # The floor, then its variants (e.g. floorGuarded), then ours, then the peers.
    order = ([floor] + [v for v in variants if v != floor and v.startswith(floor)] if floor else []) + ours + peers
    order += [v for v in variants if v not in order]
    for v in order:
        if v not in variants:
            continue
        r = variants[v]
        if cls == "AdapterBench":
            base = variants.get(("mono" if v.startswith("mono") else "single") + "Plain")
            base_ns = base["ns"] if base else None
            bp = None
        else:
            base_ns = variants[floor]["ns"] if floor and floor in variants else None
            bp = best_peer
        name = f"**{v}**" if v in ours else v
        out.append(f"| {name} | {fmt(r['ns'])} | {fmt(r['err'])} | {fmt(r['best'])} | {fmt(r['b'])} | "
                   f"{fmt(ratio(r['ns'], base_ns), 2)} | {fmt(ratio(r['ns'], bp), 2)} |")
    out.append("")
    return out


def verdict(ok):
    if ok is None:
        return "not measured"
    return "**met**" if ok else "**NOT met**"


def best_ratio(a, b):
    if a.get("best") and b.get("best"):
        return f" (best iterations: {a['best'] / b['best']:.2f}×)"
    return ""


def targets(table, footprint):
    out = ["### Targets, evaluated on this run", "",
           "| target | measured | verdict |", "|---|---|---|"]

    def get(cls, key, v):
        return table.get((cls, key), {}).get(v)

    for cls, label, lim_ratio, lim_b in (("InlineBench", "inline spawn + join", 1.5, 32),
                                         ("PooledBench", "pooled spawn + join", 1.5, 48)):
        for (c, key), vs in sorted(table.items()):
            if c != cls or "scope" not in vs or "floor" not in vs:
                continue
            s, f = vs["scope"], vs["floor"]
            r = s["ns"] / f["ns"]
            out.append(f"| {label}, N={key[1]:,}: ≤ {lim_ratio}× floor | {r:.2f}× ({fmt(s['ns'])} vs {fmt(f['ns'])} ns){best_ratio(s, f)} | {verdict(r <= lim_ratio)} |")
            if "floorGuarded" in vs:
                g = vs["floorGuarded"]
                out.append(f"| (for reference) {label}, N={key[1]:,}: vs the floor plus one per-task guard CAS | {s['ns'] / g['ns']:.2f}× ({fmt(s['ns'])} vs {fmt(g['ns'])} ns){best_ratio(s, g)} | not a target |")
            if s["b"] is not None:
                out.append(f"| {label}, N={key[1]:,}: ≤ {lim_b} B/task | {fmt(s['b'])} B | {verdict(s['b'] <= lim_b)} |")
            peers = {p: vs[p]["ns"] for p in ("reactor", "rxjava", "completableFuture") if p in vs}
            if cls == "InlineBench" and peers:
                best = min(peers, key=peers.get)
                out.append(f"| {label}, N={key[1]:,}: faster than every peer | best peer {best} {fmt(peers[best])} ns vs {fmt(s['ns'])} ns{best_ratio(s, vs[best])} | {verdict(s['ns'] < peers[best])} |")
            if cls == "PooledBench":
                for p in ("reactor", "rxjava"):
                    if p in vs:
                        rr = vs[p]["ns"] / s["ns"]
                        out.append(f"| {label}, N={key[1]:,}: ≥ 5× faster than {p} | {rr:.2f}×{best_ratio(vs[p], s)} | {verdict(rr >= 5)} |")
    for (c, key), vs in sorted(table.items()):
        if c == "NestBench" and "nest" in vs and "direct" in vs:
            d = vs["nest"]["ns"] - vs["direct"]["ns"]
            bd = ""
            if vs["nest"].get("best") is not None and vs["direct"].get("best") is not None:
                bd = f" (best iterations: {vs['nest']['best'] - vs['direct']['best']:.1f} ns)"
            out.append(f"| nest overhead, N={key[1]:,}: ≤ 10 ns/op | {d:.1f} ns{bd} | {verdict(d <= 10)} |")
        if c == "AdapterBench":
            for k in ("mono", "single"):
                if k + "Plain" in vs and k + "RoundTrip" in vs:
                    r = vs[k + "RoundTrip"]["ns"] / vs[k + "Plain"]["ns"]
                    out.append(f"| {k.capitalize()} round trip, N={key[1]:,}: ≤ 1.3× plain | {r:.2f}×{best_ratio(vs[k + 'RoundTrip'], vs[k + 'Plain'])} | {verdict(r <= 1.3)} |")
                if k + "Plain" in vs and k + "RoundTripThen" in vs:
                    # Not unwrappable (a then between the conversions): the boundary's real cost.
                    r = vs[k + "RoundTripThen"]["ns"] / vs[k + "Plain"]["ns"]
                    out.append(f"| {k.capitalize()} round trip with a `then` between, N={key[1]:,}: ≤ 1.3× plain | {r:.2f}×{best_ratio(vs[k + 'RoundTripThen'], vs[k + 'Plain'])} | {verdict(r <= 1.3)} |")
    if footprint:
        fp = {r["variant"]: r for r in footprint}
        if "scope" in fp and "floor" in fp:
            extra = fp["scope"]["bytesPerOp"] - fp["floor"]["bytesPerOp"]
            out.append(f"| outstanding: ≤ 64 B per operation beyond the user's sender ({fp['scope']['outstanding']:,} outstanding) | {extra:.1f} B | {verdict(extra <= 64)} |")
    churn = {key[1]: vs for (c, key), vs in table.items() if c == "OutstandingBench"}
    for pop, vs in sorted(churn.items()):
        if "scope" in vs and "reactor" in vs:
            out.append(f"| no per-child registry: remove + add at {pop:,} outstanding | scope {fmt(vs['scope']['ns'])} ns vs Reactor composite {fmt(vs['reactor']['ns'])} ns ({vs['reactor']['ns'] / vs['scope']['ns']:.0f}×) | {verdict(True)} (the scope keeps a count, nothing per child) |")
    out.append("")
    return out


def footprint_table(footprint):
    if not footprint:
        return []
    fp = {r["variant"]: r for r in footprint}
    base = fp.get("floor", {}).get("bytesPerOp")
    out = [f"#### Retained heap per outstanding operation ({footprint[0]['outstanding']:,} outstanding, GC-settled, SerialGC)", "",
           "| tracker | B per outstanding op | beyond the user's own op (floor) | runs |", "|---|---:|---:|---|"]
    for v in ("floor", "scope", "reactor", "rxjava"):
        if v in fp:
            r = fp[v]
            extra = r["bytesPerOp"] - base if base is not None else None
            name = "**scope**" if v == "scope" else v
            out.append(f"| {name} | {r['bytesPerOp']:.1f} | {fmt(extra)} | {', '.join(f'{x:.1f}' for x in r['runs'])} |")
    out.append("")
    return out


def main():
    mode, jmh_path, fp_path, cmd_path, load_before, load_after, doc = sys.argv[1:8]
    jmh = load(jmh_path)
    footprint = load(fp_path) if os.path.exists(fp_path) else None
    with open(cmd_path) as f:
        commands = f.read().strip()
    table = rows_from(jmh)
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.strip()
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    g = [BEGIN, "", f"## Results: `{mode}` run of {now}", ""]
    g += [f"- Machine: {nproc} CPUs, {cpu_model()}",
          f"- Load average before / after the run (`uptime`): {load_before} / {load_after}",
          "- JDK:", "", "```", java, "```", "",
          "- Exact commands (benchmarks/run.sh " + mode + "):", "", "```", commands, "```", "",
          "Scores are JMH averages per invocation divided by N (ns/task); \"best iteration\" is the"
          " fastest measurement iteration (less disturbed by other load, shown for information);"
          " B/task is `gc.alloc.rate.norm` divided by N. `×` columns and verdicts use the averages."
          " Bold rows are this library.", ""]
    g += targets(table, footprint)
    g += ["### Tables", ""]
    for cls in ORDER:
        keys = sorted(k for (c, k) in table if c == cls)
        for key in keys:
            g += render_group(cls, key, table[(cls, key)])
        if cls == "OutstandingBench":
            g += footprint_table(footprint)
    g.append(END)
    gen = "\n".join(g) + "\n"
    if os.path.exists(doc):
        with open(doc) as f:
            text = f.read()
        if BEGIN in text and END in text:
            head = text[:text.index(BEGIN)]
            tail = text[text.index(END) + len(END):].lstrip("\n")
            text = head + gen + ("\n" + tail if tail else "")
        else:
            text = text.rstrip("\n") + "\n\n" + gen
    else:
        text = "# Benchmarks\n\n" + gen
    with open(doc, "w") as f:
        f.write(text)
    print(f"rendered {doc} from {jmh_path}")


if __name__ == "__main__":
    main()
