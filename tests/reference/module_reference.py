#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reference for the module tree ("where the time goes").

Written from the rules (docs/linking.md §3–§8, which restates shared/docs/trace-format.md, and
the rules documented in core/analysis/modules/moduletree.h), not from the C++: standard library only,
plain dictionaries, clarity over speed. For a trace with `nn.Module:` python_function slices it prints one JSON object:

    python3 tests/reference/module_reference.py TRACE

    {"source": "modules", "gpu_events": N, "steps": [10, 11],
     "modules": {"ResNet_0/Conv2d_0": {"calls": 5, "cpu_ns": ..., "fwd_gpu_ns": ...,
                 "fwd_gpu_events": ..., "bwd_gpu_ns": ..., "bwd_gpu_events": ...,
                 "bwd_other_gpu_ns": ..., "fwd_gpu_self_ns": ..., "bwd_gpu_self_ns": ...,
                 "bwd_other_gpu_self_ns": ..., "steps": {"10": {...}}}, ...},
     "root": {"fwd_gpu_self_ns": ..., "bwd_gpu_self_ns": ..., "bwd_other_gpu_self_ns": ...,
              "other_gpu_ns": ...}}

Totals include descendant paths; "self" values do not. Times are integer nanoseconds.

Rules, restated:
* A module call is an `nn.Module: X` python_function slice that is not inside backward work
  (a backward node, its `evaluate_function` wrapper, AccumulateGrad, GraphRoot, hooks). Its path
  is the chain of enclosing module calls on its thread (time containment), joined with "/".
* A GPU event (kernel, memcpy, memset) belongs to its launch (runtime call with the same
  `correlation`, else the `ac2g`-style flow). Looking at the launch's ancestors:
  - any backward node (node event or its wrapper) above it: the innermost one's backward work;
  - else any backward-other event above it: "backward other" of the outermost such event;
  - else any module call above it: forward work of the innermost call;
  - else: root forward when a paired display-level forward op is above it, else root "other".
* A backward node is charged to the innermost module call around its forward creator (flows,
  else the sequence-number fallback of §7 step 8); a creator inside another backward node charges
  what that node is charged to; otherwise the root.
* An outermost AccumulateGrad event is tied to what its previous sibling slice (skipping
  runtime calls) is charged to, when that sibling is a backward node (or its wrapper) or another
  tied AccumulateGrad; communication kernels (nccl/rccl in the name) and anything untied go to
  the root.
* Steps: ProfilerStep#N on the host; module calls by their start, GPU work by its launch's start.
"""

import gzip
import json
import re
import sys
from collections import defaultdict
from decimal import Decimal

LEGACY = {"Operator": "cpu_op", "Runtime": "cuda_runtime", "Kernel": "kernel",
          "Memcpy": "gpu_memcpy", "Memset": "gpu_memset"}
GPU_WORK = {"kernel", "gpu_memcpy", "gpu_memset"}
RUNTIME = {"cuda_runtime", "cuda_driver"}
HOST_TREE = {"cpu_op", "user_annotation", "python_function"} | RUNTIME
FWDBWD = {"fwdbwd", "forward_backward"}
LAUNCH_FLOWS = {"ac2g", "async", "async_gpu", "async_cpu_to_gpu"}
WRAPPER = "autograd::engine::evaluate_function:"
MODULE = "nn.Module: "
STEP_RE = re.compile(r"^ProfilerStep#(\d+)$")


def ns(value):
    return int(Decimal(str(value)) * 1000)


def norm_id(value):
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
        return int(value.strip())
    if isinstance(value, Decimal):
        return int(value)
    return value


def arg(e, *names):
    args = e.get("args") or {}
    for n in names:
        if n in args and args[n] is not None:
            return args[n]
    return None


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = json.loads(data.decode("utf-8", "replace"), parse_float=Decimal)
    return root["traceEvents"] if isinstance(root, dict) else root


class Slice:
    __slots__ = ("e", "name", "cat", "start", "end", "dur", "parent", "children", "key", "order")

    def __init__(self, e, order):
        self.e = e
        self.name = e.get("name", "")
        self.cat = LEGACY.get(e.get("cat", ""), e.get("cat", ""))
        self.start = ns(e["ts"])
        self.dur = max(0, ns(e.get("dur", 0)))
        self.end = self.start + self.dur
        self.parent = None
        self.children = []
        self.key = (norm_id(e.get("pid")), norm_id(e.get("tid")))
        self.order = order

    def ancestors(self):
        a = self.parent
        while a is not None:
            yield a
            a = a.parent


def is_unpaired_work(name):
    return (name == "torch::autograd::GraphRoot" or "AccumulateGrad" in name
            or "BackwardHookFunctionBackward" in name)


def is_node(s):
    return (s.cat == "cpu_op" and arg(s.e, "Sequence number") is not None
            and (arg(s.e, "Fwd thread id") or 0) > 0 and not s.name.startswith(WRAPPER)
            and not is_unpaired_work(s.name))


def seq(s):
    return arg(s.e, "Sequence number")


def main(path):
    events = load(path)
    host = defaultdict(list)
    gpu = []
    flows = defaultdict(dict)
    for i, e in enumerate(events):
        ph = e.get("ph")
        cat = LEGACY.get(e.get("cat", ""), e.get("cat", ""))
        if ph == "X" and cat in HOST_TREE:
            s = Slice(e, i)
            host[s.key].append(s)
        elif ph == "X" and cat in GPU_WORK:
            gpu.append(Slice(e, i))
        elif ph in ("s", "f") and (cat in FWDBWD or cat in LAUNCH_FLOWS):
            kind = "fwdbwd" if cat in FWDBWD else "launch"
            flows[(kind, e.get("id"))][ph] = ((norm_id(e.get("pid")), norm_id(e.get("tid"))),
                                              ns(e["ts"]))

    # Time nesting per thread: (start asc, end desc, file order), innermost open slice is parent.
    at = defaultdict(list)  # (thread, start) -> slices starting there
    for key, slices in host.items():
        slices.sort(key=lambda s: (s.start, -s.dur, s.order))
        stack = []
        for s in slices:
            while stack and not (s.end <= stack[-1].end):
                stack.pop()
            if stack:
                s.parent = stack[-1]
                stack[-1].children.append(s)
            stack.append(s)
            at[(key, s.start)].append(s)

    # Steps.
    steps = []
    for slices in host.values():
        for s in slices:
            m = STEP_RE.match(s.name)
            if m and s.cat in ("user_annotation", "cpu_op"):
                steps.append((s.start, s.end, int(m.group(1))))
    steps.sort()

    def step_at(t):
        for a, b, n in steps:
            if a <= t < b or t == a:
                return n
        return None

    # GPU event -> launch.
    by_corr = {}
    for slices in host.values():
        for s in slices:
            if s.cat in RUNTIME and arg(s.e, "correlation") is not None:
                by_corr.setdefault(norm_id(arg(s.e, "correlation")), s)
    launch_by_flow = {}
    for (kind, _), ends in flows.items():
        if kind == "launch" and "s" in ends and "f" in ends:
            src = [x for x in at.get(ends["s"], []) if x.cat in RUNTIME]
            if src:
                launch_by_flow[ends["f"]] = src[0]
    launch = {}
    for g in gpu:
        c = arg(g.e, "correlation")
        s = by_corr.get(norm_id(c)) if c is not None else None
        if s is None:
            s = launch_by_flow.get((g.key, g.start))
        launch[id(g)] = s

    # Backward nodes and their creators.
    nodes = [s for slices in host.values() for s in slices if is_node(s)]
    node_of_slice = {}
    for n in nodes:
        node_of_slice[id(n)] = n
        if n.parent is not None and n.parent.name.startswith(WRAPPER):
            node_of_slice[id(n.parent)] = n
    creator = {}

    def forward_candidate(s):
        return (s.cat == "cpu_op" and seq(s) is not None
                and (arg(s.e, "Fwd thread id") or 0) == 0)

    for (kind, _), ends in flows.items():
        if kind != "fwdbwd" or "s" not in ends or "f" not in ends:
            continue
        cands = [s for s in at.get(ends["s"], []) if forward_candidate(s)]
        ends_at = [node_of_slice[id(s)] for s in at.get(ends["f"], []) if id(s) in node_of_slice]
        if not cands or not ends_at:
            continue
        c = max(cands, key=lambda s: len(list(s.ancestors())))
        n = ends_at[0]
        if seq(c) == seq(n) and id(n) not in creator:
            creator[id(n)] = c
    # §7 step 8 fallback for nodes without a flow: thread with the most shared numbers, then the
    # last-starting candidate with the number that ended before the node.
    cand_by_thread = defaultdict(lambda: defaultdict(list))
    for key, slices in host.items():
        for s in slices:
            if forward_candidate(s):
                cand_by_thread[key][seq(s)].append(s)
    unpaired = [n for n in nodes if id(n) not in creator]
    by_profiler_thread = defaultdict(list)
    for n in unpaired:
        by_profiler_thread[(n.key[0], arg(n.e, "Fwd thread id"))].append(n)
    for (pid, _), group in by_profiler_thread.items():
        best, best_votes = None, 0
        for key, numbers in cand_by_thread.items():
            if key[0] != pid:
                continue
            votes = sum(1 for n in group if seq(n) in numbers)
            if votes > best_votes:
                best, best_votes = key, votes
        if best is None:
            continue
        for n in group:
            options = [c for c in cand_by_thread[best].get(seq(n), []) if c.end <= n.start]
            if options:
                creator[id(n)] = max(options, key=lambda c: (c.start, c.end))

    # Backward work and module calls.
    def is_other(s):
        return s.cat == "cpu_op" and (s.name.startswith(WRAPPER) or is_unpaired_work(s.name)) \
            and id(s) not in node_of_slice

    def in_backward(s):
        return any(id(a) in node_of_slice or is_other(a) for a in s.ancestors())

    calls = {}
    for slices in host.values():
        for s in slices:
            if s.cat == "python_function" and s.name.startswith(MODULE) and not in_backward(s):
                calls[id(s)] = s

    def path_of(call):
        parts = [call.name[len(MODULE):]]
        for a in call.ancestors():
            if id(a) in calls:
                parts.append(a.name[len(MODULE):])
        return "/".join(reversed(parts))

    path = {k: path_of(c) for k, c in calls.items()}

    def innermost_call(s):
        for a in [s] + list(s.ancestors()):
            if id(a) in calls:
                return path[id(a)]
        return None

    charge_memo = {}

    def charge(n, depth=0):
        if id(n) in charge_memo:
            return charge_memo[id(n)]
        result = ""
        c = creator.get(id(n))
        if c is not None and depth < 1000:
            p = innermost_call(c)
            if p is not None and not in_backward(c):
                result = p
            else:
                inner = next((node_of_slice[id(a)] for a in [c] + list(c.ancestors())
                              if id(a) in node_of_slice), None)
                if inner is not None and inner is not n:
                    result = charge(inner, depth + 1)
        charge_memo[id(n)] = result
        return result

    def outermost_other(s):
        top = None
        for a in [s] + list(s.ancestors()):
            if is_other(a):
                top = a
        return top

    tie_memo = {}

    def tie(w):
        if id(w) in tie_memo:
            return tie_memo[id(w)]
        result = ""
        if "AccumulateGrad" in w.name:
            siblings = w.parent.children if w.parent is not None else host[w.key]
            if w.parent is None:
                siblings = [s for s in siblings if s.parent is None]
            i = next(k for k, s in enumerate(siblings) if s is w)
            prev = None
            for s in reversed(siblings[:i]):
                if s.cat not in RUNTIME:
                    prev = s
                    break
            if prev is not None:
                if id(prev) in node_of_slice:
                    result = charge(node_of_slice[id(prev)])
                elif is_other(prev) and outermost_other(prev) is prev:
                    result = tie(prev)
        tie_memo[id(w)] = result
        return result

    # Display-level forward ops of pair rows (§7 step 10), for the root's forward part.
    row_ops = set()
    for n in nodes:
        c = creator.get(id(n))
        if c is None:
            continue
        op = c
        p = c.parent
        while (p is not None and p.cat == "cpu_op" and id(p) not in node_of_slice
               and not p.name.startswith(WRAPPER) and not STEP_RE.match(p.name)):
            op = p
            p = p.parent
        row_ops.add(id(op))

    zero = lambda: {"calls": 0, "cpu_ns": 0, "fwd_gpu_self_ns": 0, "fwd_gpu_self_events": 0,
                    "bwd_gpu_self_ns": 0, "bwd_gpu_self_events": 0, "bwd_other_gpu_self_ns": 0}
    selfs = defaultdict(zero)  # path ("" = root) -> self values
    step_selfs = defaultdict(lambda: defaultdict(zero))  # step -> path -> self values
    other = 0
    for c in calls.values():
        p = path[id(c)]
        for bucket in (selfs[p], step_selfs[step_at(c.start)][p]):
            bucket["calls"] += 1
            bucket["cpu_ns"] += c.dur
    for g in gpu:
        s = launch[id(g)]
        if s is None:
            other += g.dur
            continue
        chain = list(s.ancestors())
        inner_node = next((node_of_slice[id(a)] for a in chain if id(a) in node_of_slice), None)
        if inner_node is not None:
            target, field = charge(inner_node), "bwd_gpu_self"
        elif any(is_other(a) for a in chain):
            top = outermost_other(s)
            comm = "nccl" in g.name or "rccl" in g.name
            target, field = ("" if comm else tie(top)), "bwd_other_gpu_self"
        else:
            p = innermost_call(s)
            if p is not None:
                target, field = p, "fwd_gpu_self"
            elif any(id(a) in row_ops for a in chain):
                target, field = "", "fwd_gpu_self"
            else:
                other += g.dur
                continue
        for bucket in (selfs[target], step_selfs[step_at(s.start)][target]):
            bucket[field + "_ns"] += g.dur
            if field + "_events" in bucket:
                bucket[field + "_events"] += 1

    def totals(table, p):
        out = {"fwd_gpu_ns": 0, "fwd_gpu_events": 0, "bwd_gpu_ns": 0, "bwd_gpu_events": 0,
               "bwd_other_gpu_ns": 0}
        for q, v in table.items():
            if q == p or q.startswith(p + "/"):
                out["fwd_gpu_ns"] += v["fwd_gpu_self_ns"]
                out["fwd_gpu_events"] += v["fwd_gpu_self_events"]
                out["bwd_gpu_ns"] += v["bwd_gpu_self_ns"]
                out["bwd_gpu_events"] += v["bwd_gpu_self_events"]
                out["bwd_other_gpu_ns"] += v["bwd_other_gpu_self_ns"]
        return out

    modules = {}
    for p in sorted(set(path.values())):
        entry = {"calls": selfs[p]["calls"], "cpu_ns": selfs[p]["cpu_ns"],
                 "fwd_gpu_self_ns": selfs[p]["fwd_gpu_self_ns"],
                 "bwd_gpu_self_ns": selfs[p]["bwd_gpu_self_ns"],
                 "bwd_other_gpu_self_ns": selfs[p]["bwd_other_gpu_self_ns"]}
        entry.update(totals(selfs, p))
        per_step = {}
        for _, _, n in steps:
            t = totals(step_selfs[n], p)
            t["calls"] = step_selfs[n][p]["calls"] if p in step_selfs[n] else 0
            per_step[str(n)] = t
        entry["steps"] = per_step
        modules[p] = entry
    root = selfs[""]
    out = {
        "source": "modules" if calls else "none",
        "gpu_events": len(gpu),
        "gpu_events_with_launch": sum(1 for g in gpu if launch[id(g)] is not None),
        "backward_nodes": len(nodes),
        "paired_nodes": len(creator),
        "steps": [n for _, _, n in steps],
        "modules": modules,
        "root": {"fwd_gpu_self_ns": root["fwd_gpu_self_ns"],
                 "bwd_gpu_self_ns": root["bwd_gpu_self_ns"],
                 "bwd_other_gpu_self_ns": root["bwd_other_gpu_self_ns"],
                 "other_gpu_ns": other},
    }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
