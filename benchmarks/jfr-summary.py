#!/usr/bin/env python3
"""Summarise a JFR recording made by `-prof jfr`: allocation by class (jdk.ObjectAllocationSample
weight, with the allocating frame) and the hottest frames (jdk.ExecutionSample, top of stack).
Usage: jfr-summary.py <profile.jfr> [top]"""
import collections
import json
import subprocess
import sys


def events(path, name):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "6", "--events", name, path],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["recording"]["events"]


def frame(f):
    m = f["method"]
    return f'{m["type"]["name"].split(".")[-1]}.{m["name"]}'


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    alloc = collections.Counter()
    total = 0
    for e in events(path, "jdk.ObjectAllocationSample"):
        v = e["values"]
        w = v.get("weight", 0)
        frames = v.get("stackTrace", {}).get("frames", []) if v.get("stackTrace") else []
        where = " < ".join(frame(f) for f in frames[:2]) if frames else "?"
        alloc[(v["objectClass"]["name"], where)] += w
        total += w
    print(f"allocation (sampled weight, {total / 1e6:.0f} MB total):")
    for (cls, where), w in alloc.most_common(top):
        print(f"  {100.0 * w / total:5.1f}%  {cls:55s} at {where}")
    cpu = collections.Counter()
    n = 0
    for e in events(path, "jdk.ExecutionSample"):
        frames = e["values"].get("stackTrace", {}).get("frames", [])
        if frames:
            cpu[frame(frames[0])] += 1
            n += 1
    print(f"hottest frames ({n} execution samples, top of stack):")
    for f, c in cpu.most_common(top):
        print(f"  {100.0 * c / n:5.1f}%  {f}")


if __name__ == "__main__":
    main()
