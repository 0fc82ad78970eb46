#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reference for the GPU time breakdown (`--summary`'s `gpu_time`, issue: ranks).

Written from the definitions (TraceLens's, restated in core/analysis/time/gputime.h), not from the
C++, with a different method: instead of merging and subtracting interval sets, it cuts the
timeline at every start and end and asks, for each elementary piece, which classes are running.
Standard library only.

    python3 tests/reference/gputime_reference.py TRACE

prints {"events": N, "gpu_time": {...}, "steps": {"N": {...}}} with integer nanoseconds.

* GPU events: kernels, memcpys, memsets (by category, every PyTorch version) whose runtime or
  driver launch is in the file: a runtime event with the same `correlation`, else the start of a
  launch flow (`ac2g`, `async_cpu_to_gpu`, `async`) whose finish lands on the event.
* Communication: kernels with "nccl" or "rccl" in the name; memcpy: memcpys; computation: the rest.
* A step's events are those whose launch starts inside host `ProfilerStep#N`. Its figures are
  over its GPU window: from its events' first start (not before the previous step's window end)
  to the next step's (with events) first start, the last step's to its events' last end; every
  counted event's time inside the window counts, total is the window (issue #55).
"""

import bisect
import gzip
import json
import re
import sys
from decimal import Decimal

KERNEL, MEMCPY, MEMSET = {"kernel", "Kernel"}, {"gpu_memcpy", "Memcpy"}, {"gpu_memset", "Memset"}
RUNTIME = {"cuda_runtime", "cuda_driver", "Runtime", "Driver"}
LAUNCH_FLOWS = {"ac2g", "async_cpu_to_gpu", "async"}


def ns(value):
    return int(Decimal(str(value)) * 1000)


def key(value):
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
        return int(value.strip())
    return value


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = json.loads(data.decode("utf-8", "replace"), parse_float=Decimal)
    return root["traceEvents"] if isinstance(root, dict) else root


def breakdown(events, window=None):
    """events: list of (class, start, end); returns the eight figures in ns; with window (lo, hi)
    the events clipped to it and total the window."""
    if window is not None:
        lo, hi = window
        events = [(c, max(a, lo), min(b, hi)) for c, a, b in events if max(a, lo) < min(b, hi)]
    names = ["computation", "exposed_comm", "exposed_memcpy", "busy", "idle", "total",
             "total_comm", "total_memcpy"]
    out = dict.fromkeys(names, 0)
    if not events:
        if window is not None:
            out["total"] = out["idle"] = window[1] - window[0]
        return {k + "_ns": v for k, v in out.items()}
    # Sweep the cuts in time order, keeping how many events of each class are running.
    changes = {}
    for c, a, b in events:
        changes.setdefault(a, []).append((c, 1))
        changes.setdefault(b, []).append((c, -1))
    running = {"comp": 0, "comm": 0, "copy": 0}
    cuts = sorted(changes)
    for lo, hi in zip(cuts, cuts[1:]):
        for c, d in changes[lo]:
            running[c] += d
        piece = hi - lo
        comp, comm, copy = running["comp"] > 0, running["comm"] > 0, running["copy"] > 0
        out["computation"] += piece * comp
        out["total_comm"] += piece * comm
        out["total_memcpy"] += piece * copy
        out["exposed_comm"] += piece * (comm and not comp)
        out["exposed_memcpy"] += piece * (copy and not comp and not comm)
        out["busy"] += piece * (comp or comm or copy)
    out["total"] = (window[1] - window[0] if window is not None
                    else max(b for _, _, b in events) - min(a for _, a, _ in events))
    out["idle"] = out["total"] - out["computation"] - out["exposed_comm"] - out["exposed_memcpy"]
    return {k + "_ns": v for k, v in out.items()}


def main(path):
    events = load(path)
    slices = [e for e in events if isinstance(e, dict) and e.get("ph") == "X" and "ts" in e]
    runtime_by_corr, runtime_slices, gpu, steps = {}, [], [], []
    for e in slices:
        args = e.get("args") or {}
        cat = e.get("cat", "")
        if cat in RUNTIME:
            runtime_slices.append(e)
            if args.get("correlation") is not None:
                runtime_by_corr.setdefault(key(args["correlation"]), e)
        elif cat in KERNEL | MEMCPY | MEMSET:
            gpu.append(e)
        elif (cat in ("user_annotation", "Operator")
              and re.fullmatch(r"ProfilerStep#\d+", e.get("name", ""))):
            steps.append((ns(e["ts"]), ns(e["ts"]) + ns(e.get("dur", 0)), int(e["name"][13:])))
    # Launch flows: the runtime slice enclosing the start, the GPU slice the finish lands on.
    starts, finishes = {}, {}
    for e in events:
        if isinstance(e, dict) and e.get("cat") in LAUNCH_FLOWS and e.get("ph") in ("s", "f"):
            (starts if e["ph"] == "s" else finishes)[key(e.get("id"))] = e

    def by_lane(candidates):
        lanes = {}
        for s in sorted(candidates, key=lambda s: ns(s["ts"])):
            lanes.setdefault((key(s.get("pid")), key(s.get("tid"))), []).append(s)
        return {k: ([ns(s["ts"]) for s in v], v) for k, v in lanes.items()}

    def enclosing(lanes, flow):
        # Neither runtime calls on a thread nor GPU events on a stream nest: the last slice
        # starting at or before the flow's time is the only candidate.
        t = ns(flow["ts"])
        starts_, slices_ = lanes.get((key(flow.get("pid")), key(flow.get("tid"))), ([], []))
        i = bisect.bisect_right(starts_, t) - 1
        if i >= 0 and t <= starts_[i] + ns(slices_[i].get("dur", 0)):
            return slices_[i]
        return None

    gpu_lanes, runtime_lanes = by_lane(gpu), by_lane(runtime_slices)
    launch_by_flow = {}
    for fid, f in finishes.items():
        if fid in starts:
            target = enclosing(gpu_lanes, f)
            source = enclosing(runtime_lanes, starts[fid])
            if target is not None and source is not None:
                launch_by_flow[id(target)] = source
    counted = []
    for g in gpu:
        corr = (g.get("args") or {}).get("correlation")
        launch = runtime_by_corr.get(key(corr)) if corr is not None else None
        launch = launch or launch_by_flow.get(id(g))
        if launch is None:
            continue
        cat = g.get("cat", "")
        if cat in MEMCPY:
            cls = "copy"
        elif cat in KERNEL and ("nccl" in g["name"] or "rccl" in g["name"]):
            cls = "comm"
        else:
            cls = "comp"
        a = ns(g["ts"])
        counted.append((cls, a, a + max(0, ns(g.get("dur", 0))), ns(launch["ts"])))
    per_step, mine = {}, []
    steps.sort()
    for a, b, n in steps:
        mine.append([(s, e) for c, s, e, launch in counted if a <= launch < b or launch == a])
    everything = [(c, s, e) for c, s, e, _ in counted]
    previous_end = None
    for i, (a, b, n) in enumerate(steps):
        if not mine[i]:
            per_step[str(n)] = breakdown([])
            continue
        lo = min(s for s, _ in mine[i])
        if previous_end is not None:
            lo = max(lo, previous_end)
        later = [min(s for s, _ in m) for m in mine[i + 1:] if m]
        hi = max(lo, later[0] if later else max(e for _, e in mine[i]))
        previous_end = hi
        per_step[str(n)] = breakdown(everything, (lo, hi))
    print(json.dumps({"events": len(counted),
                      "gpu_time": breakdown([(c, s, e) for c, s, e, _ in counted]),
                      "steps": per_step}))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gputime_reference.py TRACE")
    sys.exit(main(sys.argv[1]))
