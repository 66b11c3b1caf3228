#!/usr/bin/env python3
"""Render the targets table of docs/benchmarks.md from a run of benchmarks/run.sh.

Usage: benchmarks/render.py [quick|full|smoke] [--results DIR] [--out FILE]

Reads, from DIR (default benchmarks/results), what run.sh wrote for the mode:
  <mode>.json             JMH results of every part (-rf json -prof gc), merged, on the default JDK
  <mode>-jdk<N>.json      the same JMH parts on another JDK (run.sh: the newest JDK 21+ installed)
  <mode>-footprint.json   Footprint: retained bytes per outstanding operation
  <mode>-fits64m.json     Footprint under -Xmx64m: whether 10^6 outstanding operations fit
  <mode>-commands.txt     the exact commands run.sh ran
  <mode>-load.txt         load average before and after the run (two lines)
and writes FILE (default docs/results/benchmarks-<mode>.md, committed): one table, target | this
project | peer | then per JDK ratio (time) | ratio (bytes) | target met? | and, where the target is
not met on a JDK, what stands in the way (the row's WHY_ text: the measured cause, linked to the
section of docs/benchmarks.md that shows it; a target without one fails the render), and the
commands that reproduce it. A row whose figures are missing from the files says "not measured".

Figures: JMH averages (primaryMetric.score) and gc.alloc.rate.norm; benchmarks with an `n`
parameter run n tasks per invocation, so both are divided by n (per task); OutstandingBench and
ScopeLifecycleBench are per operation. Targets are judged on n = 1,000.
"""
import argparse
import datetime
import json
import math
import os
import platform

N = 1000  # the size every per-task target is defined at
POPULATIONS = (1, 100000)  # OutstandingBench: the flatness target compares these two


def load(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def jmh_rows(jmh):
    """-> {(class, method, frozenset(params without n), n): (ns, bytes)} per task (or per op)."""
    out = {}
    for r in jmh or []:
        cls, method = r["benchmark"].split(".")[-2:]
        params = dict(r.get("params") or {})
        n = int(params.pop("n", 1))
        pm = r["primaryMetric"]
        scale = {"ns/op": 1.0, "us/op": 1e3, "ms/op": 1e6, "s/op": 1e9}.get(pm["scoreUnit"])
        if scale is None:
            continue
        alloc = (r.get("secondaryMetrics") or {}).get("gc.alloc.rate.norm")
        b = alloc["score"] / n if alloc and not math.isnan(alloc["score"]) else None
        out[(cls, method, frozenset(params.items()), n)] = (pm["score"] * scale / n, b)
    return out


def fmt(v, d=1):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 100:
        return f"{v:.0f}"
    return f"{v:.{d}f}"


def times(r):
    return "–" if r is None else f"{fmt(r, 2)}×"


def met(ok):
    return "met" if ok else "**not met**"


class Table:
    """One row per target; each row's figures for every JDK run ({label: rows}), side by side."""

    def __init__(self, runs, footprint, fits, judged):
        self.judged = judged
        self.runs = runs  # [(label, rows)], the default JDK first
        self.footprint = {r["variant"]: r for r in footprint or []}
        self.fits = {r["variant"]: r for r in fits or []}
        labels = [lbl for lbl, _ in runs]
        self.lines = ["| target | this project | peer | " + " | ".join(
            f"{lbl}: ratio (time) | {lbl}: ratio (bytes) | {lbl}: met?" for lbl in labels)
            + " | what stands in the way, where not met |",
            "|---|---|---|" + "---:|---:|---|" * len(labels) + "---|"]
        self.unmet = []

    @staticmethod
    def get(rows, cls, method, n=N, **params):
        return rows.get((cls, method, frozenset((k, str(v)) for k, v in params.items()), n))

    def verdict(self, ok):
        if ok is None:
            return "not measured"
        if ok == "measurement":
            return "a measurement, no goal"
        return met(ok) if self.judged else "not judged (smoke run)"

    def add(self, target, ours, peer, per_run, why=None):
        """per_run: [(ratio time, ratio bytes, ok or None)] in the order of self.runs; why: what
        stands in the way of the target (measured, in benchmarks.md), shown where it is not met."""
        cells = " | ".join(f"{rt} | {rb} | {self.verdict(ok)}" for rt, rb, ok in per_run)
        unmet = self.judged and any(ok is False for _, _, ok in per_run)
        if unmet and why is None:
            raise SystemExit(f"render.py: the unmet row has no 'why' (what stands in the way): {target}")
        self.lines.append(f"| {target} | {ours} | {peer} | {cells} | {why if unmet else ''} |")
        if unmet:
            self.unmet.append(target)

    def single(self, target, ours, peer, rt, rb, ok, why=None):
        """A row measured once (Footprint: the default JDK only); the other runs show a dash."""
        self.add(target, ours, peer, [(rt, rb, ok)] + [("–", "–", None)] * (len(self.runs) - 1), why)

    def missing(self, target):
        self.add(target, "not measured", "not measured", [("–", "–", None)] * len(self.runs))

    def compare(self, target, ours, peer, max_time=None, max_bytes_ratio=None, max_bytes=None,
                max_diff=None, per="task", why=None):
        """ours/peer: (class, method, n) or (class, method, n, params). Limits: time ratio, bytes
        ratio, our bytes per task, our time minus the peer's (ns). Without limits the row is a
        measurement: it shows the ratios and judges nothing."""
        goal = any(v is not None for v in (max_time, max_bytes_ratio, max_bytes, max_diff))
        cells_o, cells_p, per_run = [], [], []
        for label, rows in self.runs:
            o = self.get(rows, *ours[:3], **(ours[3] if len(ours) > 3 else {}))
            p = self.get(rows, *peer[:3], **(peer[3] if len(peer) > 3 else {}))
            if o is None or p is None:
                per_run.append(("–", "–", None))
                continue
            rt = o[0] / p[0] if p[0] >= 0.5 else None  # C2 can reduce a peer to (almost) nothing
            # a peer that allocates nothing (C2 scalar-replaced it) has no meaningful bytes ratio
            # per task, to 0.1 B (as shown): JMH's own allocation, spread over the operations,
            # moves gc.alloc.rate.norm by a few hundredths of a byte between equal paths
            rb = round(o[1], 1) / round(p[1], 1) if o[1] is not None and p[1] is not None and p[1] >= 1 else None
            ok = True if goal else "measurement"
            if max_time is not None:
                ok = ok and rt is not None and rt <= max_time
            if max_bytes_ratio is not None:
                ok = ok and (rb <= max_bytes_ratio if rb is not None else o[1] is not None and o[1] < 1)
            if max_bytes is not None:
                ok = ok and o[1] is not None and o[1] <= max_bytes
            diff = o[0] - p[0]
            if max_diff is not None:
                ok = ok and diff <= max_diff
            tag = f" ({label})" if len(self.runs) > 1 else ""
            cells_o.append(f"{fmt(o[0])} ns, {fmt(o[1])} B{tag}")
            cells_p.append(f"{fmt(p[0])} ns, {fmt(p[1])} B{tag}")
            per_run.append((f"{times(rt)} ({'+' if diff >= 0 else '−'}{fmt(abs(diff))} ns)" if max_diff is not None
                            else times(rt), times(rb), ok))
        if not cells_o:
            self.missing(target)
            return
        self.add(target, f"`{ours[0]}.{ours[1]}`: " + "; ".join(cells_o) + f" per {per}",
                 f"`{peer[0]}.{peer[1]}`: " + "; ".join(cells_p) + f" per {per}", per_run, why)

    def retained(self, target, ours, floor, peer, max_total, why=None):
        """Footprint: retained bytes per outstanding operation, the user's own operation included."""
        o, f, p = (self.footprint.get(v) for v in (ours, floor, peer))
        if not o or not p or o.get("bytesPerOp") is None or p.get("bytesPerOp") is None:
            self.missing(target)
            return
        ob, pb = o["bytesPerOp"], p["bytesPerOp"]
        beyond = f" ({fmt(ob - f['bytesPerOp'])} B beyond the user's own {fmt(f['bytesPerOp'])} B operation)" \
            if f and f.get("bytesPerOp") is not None else ""
        self.single(target, f"`Footprint` {ours}: {fmt(ob)} B per operation{beyond}",
                    f"`Footprint` {peer}: {fmt(pb)} B per operation", "–", times(ob / pb), ob <= max_total, why)

    def fit(self, target, ours, peer, why=None):
        o, p = self.fits.get(ours), self.fits.get(peer)
        if not o:
            self.missing(target)
            return

        def cell(r, name):
            if r is None:
                return "not measured"
            heap = f"max heap {r['maxHeap'] / 2**20:.0f} MiB"
            if r["fits"]:
                return f"`Footprint` {name}: {r['outstanding']:,} fit ({fmt(r['bytesPerOp'])} B each, {heap})"
            return f"`Footprint` {name}: out of memory after {r['started']:,} of {r['outstanding']:,} ({heap})"
        self.single(target, cell(o, ours), cell(p, peer), "–", "–", bool(o["fits"]), why)

    def flat(self, target, ours, floor, peer, why=None):
        """OutstandingBench: cost growth from the smallest to the largest population. Met when our
        growth is at most twice the floor's (the user's own untracked operation pays the same cache
        misses on its objects as the population outgrows the caches)."""
        lo, hi = POPULATIONS
        cells_o, cells_p, per_run = [], [], []
        for label, rows in self.runs:
            def at(tracker, pop):
                return self.get(rows, "OutstandingBench", "replaceOne", 1, outstanding=pop, tracker=tracker)
            vals = {t: (at(t, lo), at(t, hi)) for t in (ours, floor, peer)}
            if any(a is None or b is None for a, b in vals.values()):
                per_run.append(("–", "–", None))
                continue
            growth = {t: b[0] / a[0] for t, (a, b) in vals.items()}
            (oa, ob), (pa, pb) = vals[ours], vals[peer]
            tag = f" ({label})" if len(self.runs) > 1 else ""
            cells_o.append(f"{fmt(oa[0])} → {fmt(ob[0])} ns per op (×{fmt(growth[ours], 2)}; {floor}, the user's own "
                           f"operation untracked: ×{fmt(growth[floor], 2)}){tag}")
            cells_p.append(f"{fmt(pa[0])} → {fmt(pb[0])} ns per op (×{fmt(growth[peer], 2)}){tag}")
            per_run.append((times(ob[0] / pb[0]), times(ob[1] / pb[1] if ob[1] is not None and pb[1] else None),
                            growth[ours] <= 2 * growth[floor]))
        if not cells_o:
            self.missing(target)
            return
        self.add(target, f"`OutstandingBench` {ours}: " + "; ".join(cells_o),
                 f"`OutstandingBench` {peer}: " + "; ".join(cells_p), per_run, why)


# What stands in the way of each target where it is not met: measured, in benchmarks.md (its
# section linked); shown in the row of an unmet target.
_UNMET = "[why](../benchmarks.md#what-the-unmet-targets-cost-and-why)"
WHY_SPAWN = ("one 32 B object and four atomic instructions per task against the composite's two `synchronized` "
             f"sections; one fork moved these rows by ±10 % between runs of unchanged code ({_UNMET})")
WHY_SHARED = ("four read-modify-writes per task on two or three cache lines shared by the spawning threads (the "
              f"scope's count word, its stop source's head) ({_UNMET})")
WHY_POOL = ("three busy threads on two CPUs make the pool rows' iterations bimodal (about 300 and 600 ns within "
            f"one fork): their ratios flip between runs ({_UNMET})")
WHY_ASYNC = ("the scope's fixed cost spread over the 1,000 tasks and the trampoline's per-thread depth; the rows' "
             "iterations are bimodal and their fastest iterations level with the composite's "
             f"([the general spawn path](../benchmarks.md#the-adapters-general-spawn-path-inlinebench-async-rows))")
WHY_STARTER_PLAIN = ("time: the per-kind counts, two `LongAdder` increments per task (about 16 % of the row's "
                     "samples), on top of the adapter's direct path "
                     f"([where the starter's spawn goes](../benchmarks.md#where-the-starters-spawn-goes))")
WHY_STARTER_BOOT = ("the three keys the peer does not record (about 460 B), the observation current around the "
                    "work's connect and start (about 140 B), the observation in the work's Reactor `Context` (about "
                    "80 B), the general path of named work (about 220 B) "
                    f"([where the starter's spawn goes](../benchmarks.md#where-the-starters-spawn-goes))")
WHY_ROUND_TRIP = ("a few ns per item or subscription on either side, where what C2 compiles of the peer's "
                  f"`toList()` or `map` moves a row by more than the boundary costs ({_UNMET})")
WHY_FLOOR = ("`Scopes.spawn` adds its receiver's exactly-once guard (one more CAS), the 24 B receiver and the "
             f"trampoline's depth counter to the floor's increment and decrement ({_UNMET})")
WHY_NEST = ("a nest sender and its operation, a CAS each way on the scope's word and the batch counter that lets "
            f"dropped senders release their association, against a start C2 reduces to almost nothing ({_UNMET})")
WHY_PARKED = ("the 32 B spawn receiver that is also the stop registration, beside the user's 24 B operation (48 B "
              f"with the 16 B operation the target was stated with) ({_UNMET})")
WHY_LIFECYCLE = ("the scope's core, stop source and token, the join operation and `syncWait`'s run loop, stop "
                 f"source and env, against one 24 B composite ({_UNMET})")
WHY_FLAT = ("the growth is taken from a 30 to 40 ns operation at 1 outstanding; at 100,000 each operation reaches a "
            "random operation and its receiver out of the CPU caches, as the floor reaches the operation alone "
            f"([how it is built](../benchmarks.md#how-the-benchmarks-are-built))")
_FF = "[the hooks](../benchmarks.md#fire-and-forget-hooks-fireandforgetbench)"
WHY_FF_PASS = ("Reactor's hook puts a pass-through on every subscribe (two class tests); on JDK 17 its frame keeps "
               f"C2 from folding Reactor's subscribe ({_FF})")
WHY_FF_RX_PASS = ("RxJava's plugin hook runs on each of the chain's subscriptions and allocates nothing for one it "
                  f"lets through; the row's extra bytes were not traced to an object of the hook's ({_FF})")
WHY_FF_FOUND = ("one 48 B object, six atomic instructions and a `System.nanoTime()` for the listed age (27 ns a call on the machine of these figures) "
                "per found subscription, beside the user's own lambda subscriber (Reactor 56 B, RxJava 40 B), which "
                f"the peer does not allocate ({_FF})")
WHY_FF_WALK = ("a stack walk per subscription (about 1,340 B and microseconds): nothing but the stack tells an "
               f"application's `subscribe()` from a framework's ({_FF})")


def build(runs, footprint, fits, judged=True):
    t = Table(runs, footprint, fits, judged)
    ib, pb, rt, lc, cb = "InlineBench", "PooledBench", "RoundTripBench", "ScopeLifecycleBench", "ContentionBench"
    # the path a Reactor / RxJava user takes: spawn instead of a hand-tracked composite
    t.compare("`ReactorScopes.spawn(mono, scope)` (CountingScope), 1,000 inline tasks started, tracked, waited for: "
              "no slower than `Disposables.composite()` + `mono.subscribe()` + remove, no more bytes",
              (ib, "reactorSpawn", N), (ib, "reactor", N), max_time=1.0, max_bytes_ratio=1.0, why=WHY_SPAWN)
    t.compare("the same into a SimpleCountingScope", (ib, "reactorSpawnSimple", N), (ib, "reactor", N),
              max_time=1.0, max_bytes_ratio=1.0, why=WHY_SPAWN)
    t.compare("the same with two threads spawning into one shared CountingScope (the starter's application scope) "
              "against one shared composite", (cb, "reactorSpawn", N), (cb, "reactor", N),
              max_time=1.0, max_bytes_ratio=1.0, why=WHY_SHARED)
    t.compare("`RxScopes.spawn(completable, scope)` (CountingScope), the same: no slower than `CompositeDisposable` + "
              "`completable.subscribe()` + remove, no more bytes",
              (ib, "rxSpawn", N), (ib, "rxjava", N), max_time=1.0, max_bytes_ratio=1.0, why=WHY_SPAWN)
    t.compare("the same into a SimpleCountingScope", (ib, "rxSpawnSimple", N), (ib, "rxjava", N),
              max_time=1.0, max_bytes_ratio=1.0, why=WHY_SPAWN)
    t.compare("the same with two threads spawning into one shared CountingScope against one shared "
              "`CompositeDisposable`", (cb, "rxSpawn", N), (cb, "rxjava", N), max_time=1.0, max_bytes_ratio=1.0, why=WHY_SHARED)
    t.compare("`ReactorScopes.spawn` on a 2-thread pool (`subscribeOn`), 1,000 tasks: no slower than the composite "
              "(its synchronized list contended by the pool), no more bytes",
              (pb, "reactorSpawn", N), (pb, "reactor", N), max_time=1.0, max_bytes_ratio=1.0, why=WHY_POOL)
    t.compare("`RxScopes.spawn` on a 2-thread pool, 1,000 tasks: no slower than `CompositeDisposable`, no more bytes",
              (pb, "rxSpawn", N), (pb, "rxjava", N), max_time=1.0, max_bytes_ratio=1.0, why=WHY_POOL)
    t.compare("`ReactorScopes.spawn` of an async-shaped `Mono` (behind `hide()`: not `Callable`, not fuseable, "
              "subscribed and not called), 1,000 tasks: no slower than the composite-tracked subscribe of the same "
              "`Mono`, no more bytes", (ib, "reactorSpawnAsync", N), (ib, "reactorAsync", N),
              max_time=1.0, max_bytes_ratio=1.0, why=WHY_ASYNC)
    t.compare("`RxScopes.spawn` of an async-shaped `Completable` (behind `hide()`), 1,000 tasks: no slower than "
              "`CompositeDisposable` + `subscribe()` of the same `Completable`, no more bytes",
              (ib, "rxSpawnAsync", N), (ib, "rxjavaAsync", N), max_time=1.0, max_bytes_ratio=1.0, why=WHY_ASYNC)
    # the Spring user's path: the starter's spawner, async-shaped work, against the code it replaces
    ss = "StarterSpawnBench"
    t.compare("starter `ReactorScopeSpawner.spawn(mono)`, async-shaped work, no context, no observation, 1,000 "
              "tasks: no slower than the composite-tracked subscribe of the same Mono, ≤ 1.5× its bytes",
              (ss, "starterPlain", N), (ss, "composite", N), max_time=1.0, max_bytes_ratio=1.5, why=WHY_STARTER_PLAIN)
    t.compare("starter `ReactorScopeSpawner.spawn(mono, name)` with Boot's defaults (MDC, context, an observation "
              "with Boot's meter handler, on a request thread): no slower than the composite-tracked subscribe "
              "inside a hand-written `Observation.start(..)`/`stop()`, no more bytes",
              (ss, "starterBoot", N), (ss, "compositeObserved", N), max_time=1.0, max_bytes_ratio=1.0, why=WHY_STARTER_BOOT)
    t.compare("measurement, no goal: the same against the hand-observed composite that also records the starter's "
              "three low-cardinality keys (`scope`, `work`, `outcome`): the part of the gap the keys are",
              (ss, "starterBoot", N), (ss, "compositeObservedKeyed", N))
    # a value through a sender and back
    t.compare("`toMono(fromMono(mono).then(f))` subscribed vs `mono.map(f)`: ≤ 1.3× the time, no more bytes",
              (rt, "monoRoundTrip", N), (rt, "monoMap", N), max_time=1.3, max_bytes_ratio=1.0, per="subscription", why=WHY_ROUND_TRIP)
    t.compare("`toSingle(fromSingle(single).then(f))` subscribed vs `single.map(f)`: ≤ 1.3× the time, no more bytes",
              (rt, "singleRoundTrip", N), (rt, "singleMap", N), max_time=1.3, max_bytes_ratio=1.0, per="subscription", why=WHY_ROUND_TRIP)
    t.compare("`Flux` of 1,000 items through a sender and back, `toMono(fromPublisherAll(flux).then(f))`, vs "
              "`flux.collectList().map(f)`: ≤ 1.2× per item",
              (rt, "fluxRoundTrip", N), (rt, "fluxCollect", N), max_time=1.2, per="item", why=WHY_ROUND_TRIP)
    t.compare("`Flowable` of 1,000 items, `toSingle(fromFlowableList(flowable).then(f))`, vs "
              "`flowable.toList().map(f)`: ≤ 1.2× per item",
              (rt, "flowableRoundTrip", N), (rt, "flowableCollect", N), max_time=1.2, per="item", why=WHY_ROUND_TRIP)
    # core
    t.compare("core: inline `Scopes.spawn` + `syncWait(join())`, 1,000 tasks: ≤ 1.5× the atomic floor "
              "(an `AtomicLong` increment and decrement around each task)",
              (ib, "scope", N), (ib, "floor", N), max_time=1.5, why=WHY_FLOOR)
    t.compare("core: `nest(just(), token).connect(r).start()`: ≤ 10 ns over a direct `just().connect(r).start()`",
              ("NestBench", "nest", N), ("NestBench", "direct", N), max_diff=10, per="operation", why=WHY_NEST)
    t.retained("core: work parked on a CountingScope's stop token, 1,000,000 outstanding: ≤ 48 B retained per "
               "operation, the user's own stop-aware operation (24 B) included",
               "countingScope", "floorStoppable", "reactor", max_total=48, why=WHY_PARKED)
    t.fit("core: 1,000,000 operations parked on a CountingScope's stop token fit in `-Xmx64m`",
          "countingScope", "reactor", why=WHY_PARKED)
    t.compare("core: CountingScope creation + close + `syncWait(join())`: ≤ 4× `Disposables.composite()` creation "
              "+ `dispose()`", (lc, "countingCreateCloseJoin", 1), (lc, "compositeCreateDispose", 1),
              max_time=4.0, per="scope", why=WHY_LIFECYCLE)
    t.compare("the same for a SimpleCountingScope", (lc, "createCloseJoin", 1), (lc, "compositeCreateDispose", 1),
              max_time=4.0, per="scope", why=WHY_LIFECYCLE)
    t.flat("core: cost of one completion + one new spawn flat as outstanding work grows from 1 to 100,000 "
           "(SimpleCountingScope), where Reactor's composite degrades: growth ≤ 2× the floor's",
           "scope", "floor", "reactor", why=WHY_FLAT)
    t.flat("the same for stop-aware work in a CountingScope (registered on its stop token)",
           "countingScope", "floorStoppable", "reactor", why=WHY_FLAT)
    # the fire-and-forget hooks (installed in TRACK): what a subscription that is never found pays, and what a
    # found one costs against the composite-tracked subscribe a user writes by hand, in the same JMH run
    ff, track, off = "FireAndForgetBench", {"hooks": "track"}, {"hooks": "off"}
    for method, what, why in (("block", "`mono.block()` of a short chain", WHY_FF_PASS),
                              ("operatorChain", "a `concatMap` chain's inner subscriptions", WHY_FF_PASS),
                              ("rxBlockingGet", "`single.blockingGet()` of a short chain", WHY_FF_RX_PASS),
                              ("rxFlatMapChain", "a `flatMap` chain's inner subscriptions", WHY_FF_RX_PASS)):
        t.compare(f"fire-and-forget hooks installed (`track`), a subscription never found, {what}: ≤ 1.1× none "
                  "installed", (ff, method, N, track), (ff, method, N, off), max_time=1.1, per="call", why=why)
    for method, peer, what, why in (
            ("trackedSubscribeWithCallback", "composite", "`mono.subscribe(consumer)`", WHY_FF_FOUND),
            ("trackedSubscribe", "composite", "`mono.subscribe()` (a stack walk finds its site)", WHY_FF_WALK),
            ("rxTrackedSubscribeWithCallback", "rxComposite", "`completable.subscribe(onComplete, onError)`",
             WHY_FF_FOUND),
            ("rxTrackedSubscribe", "rxComposite", "`completable.subscribe()` (a stack walk)", WHY_FF_WALK)):
        t.compare(f"{what} found and tracked by the hooks: no slower than the composite-tracked subscribe written by "
                  "hand, no more bytes", (ff, method, N, track), (ff, peer, N, off),
                  max_time=1.0, max_bytes_ratio=1.0, per="subscription", why=why)
    return t


def jdk_major(jmh):
    """The major version of the JDK a JMH run used ("17", "25"), as JMH recorded it."""
    v = (jmh[0] if jmh else {}).get("jdkVersion", "?")
    return v.split(".")[0].split("-")[0].split("+")[0]


def java_version(jmh):
    """The JVM the benchmarks ran on, as JMH recorded it."""
    r = jmh[0] if jmh else {}
    return f"{r.get('vmName', 'JVM ?')} {r.get('jdkVersion', '?')}"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", nargs="?", default="quick", choices=("quick", "full", "smoke"))
    ap.add_argument("--results", default=None, help="directory of run.sh's output (default benchmarks/results)")
    ap.add_argument("--out", default=None, help="the file to write (default docs/results/benchmarks-<mode>.md)")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    res = a.results or os.path.join(root, "benchmarks", "results")
    out = a.out or os.path.join(root, "docs", "results", f"benchmarks-{a.mode}.md")
    path = lambda suffix: os.path.join(res, a.mode + suffix)
    jmh = load(path(".json"))
    if jmh is None:
        raise SystemExit(f"no {path('.json')}: run benchmarks/run.sh {a.mode} first")
    runs = [(f"JDK {jdk_major(jmh)}", jmh)]
    for name in sorted(os.listdir(res)):
        if name.startswith(a.mode + "-jdk") and name.endswith(".json"):
            other = load(os.path.join(res, name))
            if other:
                runs.append((f"JDK {jdk_major(other)}", other))
    table = build([(label, jmh_rows(j)) for label, j in runs], load(path("-footprint.json")),
                  load(path("-fits64m.json")), judged=a.mode != "smoke")
    commands = open(path("-commands.txt")).read().strip() if os.path.exists(path("-commands.txt")) else "(not recorded)"
    load_avg = open(path("-load.txt")).read().split("\n") if os.path.exists(path("-load.txt")) else []
    load_avg = " / ".join(x.strip() for x in load_avg if x.strip()) or "not recorded"
    stamp = datetime.datetime.fromtimestamp(os.path.getmtime(path(".json")), datetime.timezone.utc)
    jvms = "; ".join(java_version(j) for _, j in runs)
    gen = [f"# Benchmark results: `benchmarks/run.sh {a.mode}`", "",
           "Generated by `python3 benchmarks/render.py " + a.mode + "` from what `benchmarks/run.sh " + a.mode
           + "` wrote to `benchmarks/results/`; do not edit by hand. What each row measures, and why the unmet "
           "targets are unmet: [benchmarks.md](../benchmarks.md).", "",
           f"Measured {stamp:%Y-%m-%d} on {os.cpu_count()} CPUs ({cpu_model()}), {jvms}; load average before / "
           f"after: {load_avg}. The commands, in order:", "", "```", commands, "```", ""]
    if a.mode == "smoke":
        gen += ["**Smoke run** (no warm-up, one 200 ms iteration per benchmark): it shows that every row runs "
                "and renders; its figures are not measurements (mostly interpreted code). `benchmarks/run.sh quick` "
                "measures them.", ""]
    gen += ["Ratios are this project / peer (below 1: this project is cheaper), per JDK. Times are JMH averages, "
            "bytes `gc.alloc.rate.norm`, both per task (per subscription, item, scope or operation where the row "
            "says so); retained bytes and the 64 MiB fit come from `Footprint` (default JDK only).", ""]
    gen += table.lines
    if table.unmet:
        gen += ["", f"Not met on at least one JDK: {len(table.unmet)} of {len(table.lines) - 2} rows."]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(gen) + "\n")
    print(f"rendered {out} from {', '.join(label for label, _ in runs)}")


if __name__ == "__main__":
    main()
