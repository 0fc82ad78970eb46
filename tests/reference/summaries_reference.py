#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reference for `--export-api-summary` and `--export-op-summary` (issue #57).

Written from docs/cli.md's definitions, not from the C++, with another method: no nesting tree,
only interval containment on each thread. Standard library only.

    python3 tests/reference/summaries_reference.py TRACE

prints {"api": {NAME: {count, total_ns, min_ns, max_ns, median_ns, gpu_events}},
        "ops": {NAME: {calls, host_total_ns, device_total_ns}}} with integer nanoseconds.

* API calls: complete events (`ph` X) of the runtime and driver categories, by name.
* GPU events: kernels, memcpys, memsets; each launched by the runtime call of its `correlation`.
* An op (`cpu_op`, 1.x `Operator`) contains a launch when, on the launch's thread, the op starts
  no later and ends no earlier than the launch: its device total is the GPU time of every launch
  it contains.
"""

import bisect
import gzip
import json
import sys
from collections import defaultdict
from decimal import Decimal

RUNTIME = {"cuda_runtime", "cuda_driver", "Runtime", "Driver", "mtia_runtime", "xpu_runtime",
           "xpu_driver", "privateuse1_runtime", "privateuse1_driver"}
OPS = {"cpu_op", "Operator"}
GPU_WORK = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset", "mtia_ccp_events"}


def ns(value):
    return int(Decimal(str(value)) * 1000)


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    return data["traceEvents"] if isinstance(data, dict) else data


def main(path):
    events = [e for e in load(path) if isinstance(e, dict) and e.get("ph") == "X"]
    calls = defaultdict(list)
    launch_of = {}  # correlation -> (thread, start, end, name)
    ops_by_thread = defaultdict(list)  # thread -> [(start, end, name)]
    ops = defaultdict(lambda: {"calls": 0, "host_total_ns": 0, "device_total_ns": 0})
    for e in events:
        cat, start, dur = e.get("cat"), ns(e.get("ts", 0)), ns(e.get("dur", 0))
        thread = (e.get("pid"), e.get("tid"))
        if cat in RUNTIME:
            calls[e.get("name")].append(dur)
            corr = (e.get("args") or {}).get("correlation")
            if corr is not None:
                launch_of[corr] = (thread, start, start + dur, e.get("name"))
        elif cat in OPS:
            ops[e.get("name")]["calls"] += 1
            ops[e.get("name")]["host_total_ns"] += dur
            ops_by_thread[thread].append((start, start + dur, e.get("name")))
    api = {}
    for name, durations in calls.items():
        durations.sort()
        half = len(durations) // 2
        median = durations[half] if len(durations) % 2 else (
            durations[half - 1] + (durations[half] - durations[half - 1]) // 2)
        api[name] = {"count": len(durations), "total_ns": sum(durations),
                     "min_ns": durations[0], "max_ns": durations[-1], "median_ns": median,
                     "gpu_events": 0}
    starts = {t: [o[0] for o in sorted(v)] for t, v in ops_by_thread.items()}
    for t in ops_by_thread:
        ops_by_thread[t].sort()
    for e in events:
        if e.get("cat") not in GPU_WORK:
            continue
        launch = launch_of.get((e.get("args") or {}).get("correlation"))
        if launch is None:
            continue
        thread, start, end, name = launch
        api[name]["gpu_events"] += 1
        candidates = ops_by_thread.get(thread, [])
        for o in candidates[:bisect.bisect_right(starts.get(thread, []), start)]:
            if o[1] >= end:
                ops[o[2]]["device_total_ns"] += ns(e.get("dur", 0))
    print(json.dumps({"api": api, "ops": ops}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
