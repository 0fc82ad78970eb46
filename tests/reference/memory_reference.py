#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reference for the memory events of a trace (issue: memory), from the rules in
core/analysis/memory/memoryindex.h, not from the C++. Standard library only.

    python3 tests/reference/memory_reference.py TRACE

prints {"memory_events": N, "devices": [...], "freed": N, "never_freed": N,
        "never_freed_bytes": N, "unmatched_frees": N, "no_address": N, "out_of_memory": N}

* `[memory]` instants count as memory events; `[OutOfMemory]` ones are counted apart.
* Per device (Device Type, Device Id), in (type, id) order: events, allocations (Bytes > 0), the
  largest Total Allocated / Total Reserved (null when never given).
* An allocation is freed by the next free (Bytes < 0) at the same device and Addr; a free
  finding no open allocation there is unmatched. Events are taken in time order, file order on
  ties. Allocations without Addr cannot be matched (no_address) and stay open.
"""

import gzip
import json
import sys


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = json.loads(data.decode("utf-8", "replace"))
    return root["traceEvents"] if isinstance(root, dict) else root


def main(path):
    events = [e for e in load(path) if isinstance(e, dict) and e.get("ph") in ("i", "I")
              and e.get("s", "t") != "g" and e.get("name") in ("[memory]", "[OutOfMemory]")
              and isinstance(e.get("args"), dict)
              and ("Bytes" in e["args"] or "Total Allocated" in e["args"])]
    # sorted() is stable: file order on equal times. Times compared as written (µs).
    events = sorted(events, key=lambda e: float(e["ts"]))
    devices, out = {}, {"memory_events": 0, "freed": 0, "never_freed": 0, "never_freed_bytes": 0,
                        "unmatched_frees": 0, "no_address": 0, "out_of_memory": 0}
    open_at = {}  # (type, id, addr) -> list of open allocation sizes
    for e in events:
        a = e["args"]
        key = (a.get("Device Type"), a.get("Device Id"))
        d = devices.setdefault(key, {"device_type": key[0], "device_id": key[1], "events": 0,
                                     "allocations": 0, "peak_allocated_bytes": None,
                                     "peak_reserved_bytes": None})
        for arg, field in (("Total Allocated", "peak_allocated_bytes"),
                           ("Total Reserved", "peak_reserved_bytes")):
            if isinstance(a.get(arg), int):
                d[field] = a[arg] if d[field] is None else max(d[field], a[arg])
        if e["name"] == "[OutOfMemory]":
            out["out_of_memory"] += 1
            continue
        d["events"] += 1
        out["memory_events"] += 1
        size = a.get("Bytes")
        if not isinstance(size, int) or size == 0:
            continue
        if size > 0:
            d["allocations"] += 1
            if "Addr" not in a:
                out["no_address"] += 1
                out["never_freed"] += 1
                out["never_freed_bytes"] += size
            else:
                open_at.setdefault(key + (a["Addr"],), []).append(size)
        elif "Addr" in a:
            stack = open_at.get(key + (a["Addr"],))
            if stack:
                stack.pop()
                out["freed"] += 1
            else:
                out["unmatched_frees"] += 1
    for stack in open_at.values():
        out["never_freed"] += len(stack)
        out["never_freed_bytes"] += sum(stack)
    out["devices"] = [devices[k] for k in sorted(devices, key=lambda k: (k[0], k[1]))]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: memory_reference.py TRACE")
    sys.exit(main(sys.argv[1]))
