#!/usr/bin/env python3
"""Independent reference implementation of Kinetoscope's loader and linker.

Derived only from shared/docs/trace-format.md, shared/docs/cli.md (`--summary` keys and
`--export-pairs` columns) and docs/recompute.md (recomputed forward work under activation
checkpointing). Section marks (§7 step 8, …) refer to docs/linking.md, the project's statement
of those rules. Standard library only; written for clarity, not speed.

    python3 tests/reference/trace_reference.py TRACE [--pairs-csv OUT.csv]

prints one JSON object with the summary counts and optionally writes the pairs CSV.
"""

import argparse
import csv
import gzip
import json
import re
import sys
from collections import Counter, defaultdict
from decimal import ROUND_HALF_EVEN, Decimal

# --------------------------------------------------------------------------- constants

#: linking.md §2 / §7 step 2: legacy (<=1.9) category names -> modern names.
LEGACY_CATEGORIES = {
    "Operator": "cpu_op",
    "Runtime": "cuda_runtime",
    "Kernel": "kernel",
    "Memcpy": "gpu_memcpy",
    "Memset": "gpu_memset",
}
#: GPU work counted by `gpu_events` (cli.md) and attributed in §7 step 4.
GPU_WORK_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
#: Categories that live on device/stream lanes (§2 table "where"). cuda_event is listed
#: there as a stream record too (open choice: treat it as device-side like cuda_sync).
DEVICE_CATS = GPU_WORK_CATS | {"gpu_user_annotation", "cuda_sync", "cuda_event"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver"}
#: §7 step 3: slices that take part in the host nesting trees.
HOST_TREE_CATS = {"cpu_op", "user_annotation", "python_function"} | RUNTIME_CATS
#: §4.3 / §7 step 7: forward->backward flow categories.
FWDBWD_FLOW_CATS = {"fwdbwd", "forward_backward"}
#: §5 / §7 step 4: launch->GPU flow categories across versions.
LAUNCH_FLOW_CATS = {"ac2g", "async", "async_gpu", "async_cpu_to_gpu"}

WRAPPER_PREFIX = "autograd::engine::evaluate_function:"
GRAPH_ROOT = "torch::autograd::GraphRoot"
MODULE_PREFIX = "nn.Module: "
STEP_RE = re.compile(r"^ProfilerStep#(\d+)$")
INT_TEXT_RE = re.compile(r"^-?\d+$")

CSV_COLUMNS = [
    "fwd_name", "fwd_pid", "fwd_tid", "fwd_ts", "fwd_dur", "input_dims", "sequence_numbers",
    "link", "bwd_names", "bwd_pid", "bwd_tid", "bwd_ts", "bwd_dur",
    "fwd_gpu_events", "fwd_gpu_us", "bwd_gpu_events", "bwd_gpu_us", "step", "module",
    "recompute_gpu_events", "recompute_gpu_us", "recomputed_gpu_us",
]


# --------------------------------------------------------------------------- number helpers

class RawFloat(str):
    """A JSON number that had a fraction or exponent, kept as its exact source text."""


def us_text_to_ns(value):
    """§1 / §7 step 1: turn a µs value (int, or exact number text) into integer nanoseconds.

    Open choice: more than 3 decimals (never seen) are rounded half-to-even to the ns.
    """
    if value is None:
        return 0
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return value * 1000
    ns = Decimal(str(value).strip()) * 1000
    return int(ns.to_integral_value(rounding=ROUND_HALF_EVEN))


def ns_to_us_text(ns):
    """Print integer nanoseconds as µs with exactly 3 decimals (cli.md: durations)."""
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    return f"{sign}{ns // 1000}.{ns % 1000:03d}"


def raw_text(value):
    """The value as written in the file (numbers keep their source text; strings unquoted)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def norm_id(value):
    """§1 / §7 step 2: numeric strings ("25738") become ints; other strings are their own keys."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, RawFloat):
        return str(value)
    if isinstance(value, str) and INT_TEXT_RE.match(value.strip()):
        return int(value.strip())
    return value


def int_arg(args, *names):
    """First present arg among `names` as an int (None if absent or not an integer)."""
    for name in names:
        if name in args:
            value = norm_id(args[name])
            if isinstance(value, int):
                return value
            return None
    return None


def compact_json(value):
    """Compact JSON like json.dumps(v, separators=(",", ":")), keeping RawFloat text exact."""
    if isinstance(value, RawFloat):
        return str(value)
    if isinstance(value, list):
        return "[" + ",".join(compact_json(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + compact_json(v) for k, v in value.items()) + "}"
    return json.dumps(value, separators=(",", ":"))


# --------------------------------------------------------------------------- model

class Slice:
    """One `X` event after §7 step 2 normalisation."""

    __slots__ = ("index", "name", "cat", "raw_pid", "raw_tid", "pid", "tid", "raw_ts",
                 "start", "dur", "end", "args", "parent", "children", "depth")

    def __init__(self, index, event):
        self.index = index
        self.name = str(event.get("name", ""))
        cat = event.get("cat", "")
        self.cat = LEGACY_CATEGORIES.get(cat, cat)
        self.raw_pid = event.get("pid")
        self.raw_tid = event.get("tid")
        self.pid = norm_id(self.raw_pid)
        self.tid = norm_id(self.raw_tid)
        self.raw_ts = event.get("ts")
        self.start = us_text_to_ns(self.raw_ts)
        self.dur = us_text_to_ns(event.get("dur", 0))
        self.end = self.start + self.dur
        args = event.get("args")
        self.args = args if isinstance(args, dict) else {}
        self.parent = None
        self.children = []
        self.depth = 0

    @property
    def host_side(self):
        """§1: host vs device decided by category, never by pid value."""
        return self.cat not in DEVICE_CATS

    @property
    def lane(self):
        return (self.pid, self.tid)

    @property
    def seq(self):
        return int_arg(self.args, "Sequence number")

    @property
    def fwd_tid(self):
        return int_arg(self.args, "Fwd thread id")

    @property
    def external_id(self):
        return int_arg(self.args, "External id", "external id")

    @property
    def correlation(self):
        return int_arg(self.args, "correlation")

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def __repr__(self):
        return f"<{self.cat} {self.name!r} {self.lane} ts={self.raw_ts}>"


class Flow:
    """One `s` or `f` flow endpoint."""

    __slots__ = ("index", "ph", "cat", "name", "id", "pid", "tid", "ts")

    def __init__(self, index, event):
        self.index = index
        self.ph = event.get("ph")
        self.cat = event.get("cat", "")
        self.name = event.get("name", "")
        self.id = norm_id(event.get("id"))
        self.pid = norm_id(event.get("pid"))
        self.tid = norm_id(event.get("tid"))
        self.ts = us_text_to_ns(event.get("ts"))

    @property
    def key(self):
        """§4.3: flows are keyed by (cat, name, id)."""
        return (self.cat, self.name, self.id)


# --------------------------------------------------------------------------- §7 step 1 load

def load_events(path):
    """§1 / §7 step 1: read .json or .json.gz (gzip sniffed by magic), object or bare array."""
    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8", errors="replace")
    # strict=False: §7 step 1 says tolerate control characters inside names.
    root = json.loads(text, parse_float=RawFloat, strict=False)
    if isinstance(root, dict):
        events = root.get("traceEvents", [])
    else:
        events = root
    return events if isinstance(events, list) else []


# --------------------------------------------------------------------------- §7 step 3 host trees

def contains(parent, child):
    """§7 step 3 containment: parent starts no later, ends no earlier, and child starts before
    parent ends (a slice ending exactly when another starts does not contain it)."""
    return parent.start <= child.start < parent.end and child.end <= parent.end


def build_host_trees(slices):
    """§7 step 3: per host (pid, tid), sort by (start asc, dur desc, file order); parent =
    innermost earlier-sorted slice that contains the slice."""
    lanes = defaultdict(list)
    for s in slices:
        if s.host_side and s.cat in HOST_TREE_CATS:
            lanes[s.lane].append(s)
    for lane_slices in lanes.values():
        lane_slices.sort(key=lambda s: (s.start, -s.dur, s.index))
        stack = []
        for s in lane_slices:
            # Slices that ended by this start can contain neither s nor anything after it.
            while stack and stack[-1].end <= s.start:
                stack.pop()
            # Open choice: with partial overlaps (never nested properly) the innermost
            # slice that fully contains s wins; overlapping ones are skipped.
            for candidate in reversed(stack):
                if contains(candidate, s):
                    s.parent = candidate
                    s.depth = candidate.depth + 1
                    candidate.children.append(s)
                    break
            stack.append(s)
    return lanes


# --------------------------------------------------------------------------- §7 step 4-5 GPU attribution

def find_launches(gpu_events, runtime_events, flows):
    """§7 step 4: GPU event -> runtime/driver launch by `correlation`, else through a launch
    flow (f on the GPU event's lane and ts, s inside a runtime event on its host lane)."""
    by_corr = {}
    for r in runtime_events:
        corr = r.correlation
        if corr is not None and corr not in by_corr:  # open choice: first in file order wins
            by_corr[corr] = r

    starts_by_key = defaultdict(list)
    finishes_at = defaultdict(list)
    for fl in flows:
        if fl.cat not in LAUNCH_FLOW_CATS:
            continue
        if fl.ph == "s":
            starts_by_key[fl.key].append(fl)
        elif fl.ph == "f":
            finishes_at[(fl.pid, fl.tid, fl.ts)].append(fl)
    runtime_by_lane = defaultdict(list)
    for r in runtime_events:
        runtime_by_lane[r.lane].append(r)

    def runtime_at(start_flow):
        """Runtime event on the s endpoint's host lane whose span holds the s ts
        (open choice: start <= ts <= end, latest-starting if several)."""
        hits = [r for r in runtime_by_lane.get((start_flow.pid, start_flow.tid), ())
                if r.start <= start_flow.ts <= r.end]
        return max(hits, key=lambda r: (r.start, r.index)) if hits else None

    launches = {}
    for g in gpu_events:
        launch = by_corr.get(g.correlation) if g.correlation is not None else None
        if launch is None:
            for fin in finishes_at.get((g.pid, g.tid, g.start), ()):
                for st in starts_by_key.get(fin.key, ()):
                    launch = runtime_at(st)
                    if launch is not None:
                        break
                if launch is not None:
                    break
        launches[g] = launch
    return launches


def launching_op(launch, ops_by_external_id):
    """§7 step 5: runtime launch -> cpu_op. Innermost enclosing cpu_op; an External id that is
    not the launch's own correlation may redirect to that op's cpu_op ancestor with the same
    External id; with no enclosing op, a unique cpu_op with that External id anywhere."""
    ext = launch.external_id
    if ext is not None and ext == launch.correlation:
        ext = None  # 2022-2024 bug: External id == correlation is meaningless
    enclosing = [a for a in launch.ancestors() if a.cat == "cpu_op"]
    if enclosing:
        if ext is not None:
            for op in enclosing:
                if op.external_id == ext:
                    return op
        return enclosing[0]
    if ext is not None:
        matches = ops_by_external_id.get(ext, [])
        if len(matches) == 1:
            return matches[0]
    return None


# --------------------------------------------------------------------------- §7 step 6 backward nodes

def is_wrapper(s):
    return s.name.startswith(WRAPPER_PREFIX)


def is_backward_node(s):
    """§7 step 6: cpu_op with Fwd thread id > 0 and a Sequence number; not the evaluate_function
    wrapper, not GraphRoot, not AccumulateGrad."""
    if s.cat != "cpu_op" or s.seq is None:
        return False
    fwd = s.fwd_tid
    if fwd is None or fwd <= 0:
        return False
    if is_wrapper(s) or s.name == GRAPH_ROOT or s.name.endswith("AccumulateGrad"):
        return False
    return True


def is_forward_candidate(s):
    """§7 step 8a: cpu_op with a Sequence number and Fwd thread id 0 or absent."""
    if s.cat != "cpu_op" or s.seq is None:
        return False
    fwd = s.fwd_tid
    return fwd is None or fwd == 0


def outermost_event(node):
    """§4.2 / §7 step 6: the evaluate_function wrapper if it is the node's parent, else the node."""
    if node.parent is not None and is_wrapper(node.parent):
        return node.parent
    return node


# --------------------------------------------------------------------------- §7 step 7 flow pairing

def pair_by_flows(flows, cpu_ops_at, node_set):
    """§7 step 7: each fwdbwd/forward_backward flow with both ends pairs the forward op at the
    s endpoint (number, Fwd thread id 0/absent, deepest) with the node event at the f
    endpoint (or the node child of a wrapper there); pairs with different numbers are
    dropped. Returns ({node: creator}, diagnostics Counter)."""
    diag = Counter()
    starts, finishes = defaultdict(list), defaultdict(list)
    for fl in flows:
        if fl.cat in FWDBWD_FLOW_CATS and fl.ph == "s":
            starts[fl.key].append(fl)
        elif fl.cat in FWDBWD_FLOW_CATS and fl.ph == "f":
            finishes[fl.key].append(fl)
    creators = {}
    for key in sorted(set(starts) & set(finishes), key=lambda k: starts[k][0].index):
        # Open choice: with duplicate ends, the first s and first f in file order are used.
        st, fin = starts[key][0], finishes[key][0]
        fwd_hits = [o for o in cpu_ops_at.get((st.pid, st.tid, st.ts), ()) if is_forward_candidate(o)]
        here = cpu_ops_at.get((fin.pid, fin.tid, fin.ts), ())
        bwd_hits = [o for o in here if o in node_set]
        if not bwd_hits:
            bwd_hits = [c for w in here if is_wrapper(w) for c in w.children if c in node_set]
        if not fwd_hits or not bwd_hits:
            diag["fwdbwd_flow_endpoint_unmatched"] += 1
            continue
        creator = max(fwd_hits, key=lambda o: (o.depth, o.start, -o.dur, o.index))
        node = max(bwd_hits, key=lambda o: (o.depth, o.start, -o.dur, o.index))
        if creator.seq != node.seq:
            diag["fwdbwd_flow_sequence_mismatch"] += 1
            continue
        if node in creators:
            diag["fwdbwd_flow_duplicate_node"] += 1
            continue
        creators[node] = creator
    return creators, diag


# --------------------------------------------------------------------------- §7 step 8 sequence fallback

def map_forward_threads(nodes, candidates, flow_creators):
    """§7 step 8b: profiler thread id T -> host lane. Seeded by the creators of flow pairs of T
    (most common lane); else the lane whose forward numbers overlap most with T's node
    numbers (open choice: ties -> lane whose first candidate comes first in the file)."""
    numbers_by_lane = defaultdict(set)
    first_index = {}
    for c in candidates:
        numbers_by_lane[c.lane].add(c.seq)
        first_index.setdefault(c.lane, c.index)
    node_numbers = defaultdict(set)
    for n in nodes:
        node_numbers[n.fwd_tid].add(n.seq)
    seeded = defaultdict(Counter)
    for n, c in flow_creators.items():
        seeded[n.fwd_tid][c.lane] += 1

    mapping = {}
    for t, numbers in node_numbers.items():
        if seeded[t]:
            mapping[t] = max(seeded[t].items(), key=lambda kv: (kv[1], -first_index.get(kv[0], 0)))[0]
            continue
        best, best_overlap = None, 0
        for lane in sorted(numbers_by_lane, key=lambda ln: first_index[ln]):
            overlap = len(numbers & numbers_by_lane[lane])
            if overlap > best_overlap:
                best, best_overlap = lane, overlap
        if best is not None:
            mapping[t] = best
    return mapping


def pair_by_sequence(nodes, candidates, flow_creators):
    """§7 step 8c: for nodes without a flow pair, creator of node (T, N) = candidate on lane map(T)
    with number N that ends at or before the node starts; latest start, tie: later end."""
    lane_map = map_forward_threads(nodes, candidates, flow_creators)
    by_lane_seq = defaultdict(list)
    for c in candidates:
        by_lane_seq[(c.lane, c.seq)].append(c)
    creators = {}
    for n in nodes:
        if n in flow_creators or n.fwd_tid not in lane_map:
            continue
        hits = [c for c in by_lane_seq.get((lane_map[n.fwd_tid], n.seq), ()) if c.end <= n.start]
        if hits:
            creators[n] = max(hits, key=lambda c: (c.start, c.end))
    return creators


# --------------------------------------------------------------------------- §7 step 10 display level

def display_op(creator):
    """§7 step 10: climb from the creator through cpu_op parents; stop at anything that is not a
    cpu_op, at ProfilerStep#N, and never enter a backward node, an evaluate_function wrapper
    or other backward-engine event (open choice: any cpu_op with Fwd thread id > 0)."""
    row = creator
    parent = creator.parent
    while parent is not None and parent.cat == "cpu_op":
        if STEP_RE.match(parent.name) or is_wrapper(parent):
            break
        fwd = parent.fwd_tid
        if fwd is not None and fwd > 0:
            break
        row = parent
        parent = parent.parent
    return row


# ------------------------------------------------------------- recompute (docs/recompute.md)

def recompute_host(op, node_set):
    """recompute.md "Recomputed op": the host node (innermost backward node event around op)
    when op is a recomputed op, else None. op must be a candidate (is_forward_candidate).

    op is recomputed when some node event lies above it and no recomputed op does. A
    candidate ancestor that itself lies inside a node event is, or lies inside, a recomputed
    op; so walking up, a node event seen after a candidate ancestor means "not recomputed".
    Wrappers are not node events: a numbered op inside a wrapper but outside the node event
    (a DDP/FSDP hook) is not recompute."""
    host, candidate_below = None, False
    for a in op.ancestors():
        if a in node_set:
            if candidate_below:
                return None
            if host is None:
                host = a
        elif is_forward_candidate(a):
            candidate_below = True
    return host


def own_ops_of_nodes(cpu_ops, node_set):
    """recompute.md "Double backward": own ops of a node event = the outermost cpu_ops inside
    it (no other cpu_op in between; python_function/user_annotation frames are looked
    through) that are not node events or evaluate_function wrappers themselves."""
    own = defaultdict(list)
    for op in cpu_ops:
        if op in node_set or is_wrapper(op):
            continue
        up = next((a for a in op.ancestors() if a.cat == "cpu_op"), None)
        if up is not None and up in node_set:
            own[up].append(op)
    return own


def fully_numbered_nodes(nodes, own):
    """recompute.md "Double backward": (fully numbered nodes, nodes having own ops), among the
    nodes that hold no other node event (a reentrant checkpoint's nested backward). A node is
    fully numbered when it has own ops and every one of them is a candidate."""
    node_set = set(nodes)
    nesting = {a for n in nodes for a in n.ancestors() if a in node_set}
    with_own = [n for n in nodes if own.get(n) and n not in nesting]
    full = [n for n in with_own if all(is_forward_candidate(o) for o in own[n])]
    return len(full), len(with_own)


def input_dims_text(op):
    """cli.md `input_dims`: the `Input Dims` arg (§3: very old files say `Input dims`) as
    compact JSON, "" when absent."""
    dims = op.args.get("Input Dims", op.args.get("Input dims"))
    return "" if dims is None else compact_json(dims)


def innermost_module(op, stop=None):
    """Name of the innermost `nn.Module: ...` python_function around op on its thread, ""
    if none; with stop, only frames strictly inside stop count."""
    for a in op.ancestors():
        if a is stop:
            break
        if a.cat == "python_function" and a.name.startswith(MODULE_PREFIX):
            return a.name
    return ""


def inside_any(op, events):
    """True when op is one of `events` or lies (at any depth) inside one of them."""
    if op in events:
        return True
    return any(a in events for a in op.ancestors())


# --------------------------------------------------------------------------- linking driver

class Linked:
    """Everything the summary and the pairs table need."""

    def __init__(self, events):
        self.events = events
        self.slices = []
        self.flows = []
        for i, e in enumerate(events):
            if not isinstance(e, dict):
                continue
            ph = e.get("ph")
            if ph == "X":
                self.slices.append(Slice(i, e))
            elif ph in ("s", "f"):
                self.flows.append(Flow(i, e))
        self.diagnostics = Counter()
        build_host_trees(self.slices)

        self.cpu_ops = [s for s in self.slices if s.cat == "cpu_op" and s.host_side]
        self.gpu_events = [s for s in self.slices if s.cat in GPU_WORK_CATS]
        self.runtime_events = [s for s in self.slices if s.cat in RUNTIME_CATS and s.host_side]
        self.steps = [s for s in self.slices if s.host_side and STEP_RE.match(s.name)]

        self._attribute_gpu()
        self._pair()
        self._recompute()

    # §7 step 4-5
    def _attribute_gpu(self):
        ops_by_ext = defaultdict(list)
        for op in self.cpu_ops:
            if op.external_id is not None:
                ops_by_ext[op.external_id].append(op)
        self.launch_of = find_launches(self.gpu_events, self.runtime_events, self.flows)
        self.op_of = {}
        for g, launch in self.launch_of.items():
            self.op_of[g] = launching_op(launch, ops_by_ext) if launch is not None else None
        # GPU events per host slice whose subtree holds their launch (cli.md GPU columns).
        self.gpu_under = defaultdict(list)
        for g, launch in self.launch_of.items():
            if launch is None:
                continue
            for a in launch.ancestors():
                self.gpu_under[a].append(g)

    # §7 step 6-8
    def _pair(self):
        self.nodes = [s for s in self.cpu_ops if is_backward_node(s)]
        node_set = set(self.nodes)
        cpu_ops_at = defaultdict(list)
        for op in self.cpu_ops:
            cpu_ops_at[(op.pid, op.tid, op.start)].append(op)
        self.flow_creators, diag = pair_by_flows(self.flows, cpu_ops_at, node_set)
        self.diagnostics.update(diag)
        candidates = [s for s in self.cpu_ops if is_forward_candidate(s)]
        self.seq_creators = pair_by_sequence(self.nodes, candidates, self.flow_creators)
        self.creator_of = dict(self.flow_creators)
        self.creator_of.update(self.seq_creators)

    # docs/recompute.md
    def _recompute(self):
        """docs/recompute.md: find the recomputed ops (self.recompute_host: op -> host node),
        unless the trace reads as double backward, and match each to its original
        (self.original_of: recomputed op -> original forward op)."""
        node_set = set(self.nodes)
        self.recompute_host = {}
        self.original_of = {}
        full, with_own = fully_numbered_nodes(self.nodes, own_ops_of_nodes(self.cpu_ops, node_set))
        # Open choice: with no fully numbered node at all (also when no node has own ops)
        # the trace is not double backward.
        if full > 0 and 2 * full >= with_own:
            self.diagnostics["double_backward"] += full
        else:
            for op in self.cpu_ops:
                if is_forward_candidate(op):
                    host = recompute_host(op, node_set)
                    if host is not None:
                        self.recompute_host[op] = host
        self._match_originals()

        # Recomputed ops inside each host slice (for the rows' outermost events), and the
        # recomputations whose original lies inside each host slice (for forward ops).
        self.recompute_inside = defaultdict(list)
        self.recomputed_inside = defaultdict(list)
        for r in self.recompute_host:
            for a in r.ancestors():
                self.recompute_inside[a].append(r)
        for r, orig in self.original_of.items():
            for a in [orig, *orig.ancestors()]:
                self.recomputed_inside[a].append(r)

    def _match_originals(self):
        """recompute.md "Which forward op a recomputation repeats": group originals and
        recomputations by (step of start, key), key = (name, Input Dims text, innermost
        nn.Module name; for a recomputed op only a module inside its host node). Originals
        in time order, recomputations by host node start descending, then own start; the
        k-th recomputation repeats the k-th original."""
        recomputations = defaultdict(list)
        for r, host in self.recompute_host.items():
            key = (r.name, input_dims_text(r), innermost_module(r, stop=host))
            recomputations[(self.step_at(r), key)].append(r)
        if not recomputations:
            return
        names = {key[0] for _, key in recomputations}
        blocked = {outermost_event(n) for n in self.nodes} | set(self.recompute_host)
        originals = defaultdict(list)
        for op in self.cpu_ops:
            if op.name not in names or inside_any(op, blocked):
                continue
            key = (op.name, input_dims_text(op), innermost_module(op))
            group = (self.step_at(op), key)
            if group in recomputations:
                originals[group].append(op)
        for group, recs in recomputations.items():
            recs.sort(key=lambda r: (-self.recompute_host[r].start, r.start, r.index))
            origs = sorted(originals.get(group, ()), key=lambda o: (o.start, o.index))
            for k, r in enumerate(recs):
                if k < len(origs):
                    self.original_of[r] = origs[k]
                else:
                    self.diagnostics["recompute_without_original"] += 1

    def summary(self):
        """cli.md `--summary` counts."""
        flow_ph = defaultdict(set)
        for fl in self.flows:
            flow_ph[fl.key].add(fl.ph)
        return {
            "events": len(self.events),
            "cpu_ops": len(self.cpu_ops),
            "gpu_events": len(self.gpu_events),
            "flows": sum(1 for phs in flow_ph.values() if {"s", "f"} <= phs),
            "steps": len(self.steps),
            "fwd_bwd_pairs": len(self.creator_of),
            "pairs_from_flows": len(self.flow_creators),
            "pairs_from_sequence": len(self.seq_creators),
            "unpaired_backward": sum(1 for n in self.nodes if n not in self.creator_of),
            "gpu_events_attributed": sum(1 for op in self.op_of.values() if op is not None),
            # docs/recompute.md: GPU time of every recomputed op, each event once; µs as a
            # JSON number rounded to 3 decimals.
            "recompute_gpu_us": round(
                sum(g.dur for g in self.gpu_set(self.recompute_host).values()) / 1000, 3),
        }

    # ------------------------------------------------------------------ pairs table

    def step_at(self, s):
        """cli.md `step`: host ProfilerStep#N whose span holds the start of s (open choice:
        same pid, start <= t < end, latest-starting if several)."""
        hits = [st for st in self.steps if st.pid == s.pid and st.start <= s.start < st.end]
        if not hits:
            return ""
        return STEP_RE.match(max(hits, key=lambda st: (st.start, st.index)).name).group(1)

    @staticmethod
    def module_of(op):
        """cli.md `module`: innermost `nn.Module: ...` python_function around op on its thread
        (open choice: the full slice name is printed)."""
        return innermost_module(op)

    def gpu_set(self, roots):
        """{file index: GPU event} launched inside any of the subtrees of roots (a union, so
        nested roots do not count an event twice)."""
        seen = {}
        for r in roots:
            for g in self.gpu_under.get(r, ()):
                seen[g.index] = g
        return seen

    def gpu_columns(self, roots):
        """Count and summed ns of GPU events launched inside any of the subtrees of roots
        (open choice: union, so nested roots do not count an event twice)."""
        seen = self.gpu_set(roots)
        return len(seen), sum(g.dur for g in seen.values())

    def pair_rows(self):
        """cli.md `--export-pairs` rows: one per display-level forward op owning nodes
        (§7 step 10) plus one per unpaired node, ordered by first event start."""
        owned = defaultdict(list)
        for node, creator in self.creator_of.items():
            owned[display_op(creator)].append(node)
        rows = []
        for fwd, nodes in owned.items():
            rows.append(self._row(fwd, nodes))
        for node in self.nodes:
            if node not in self.creator_of:
                rows.append(self._row(None, [node]))
        rows.sort(key=lambda r: r.pop("_key"))
        return rows

    def _row(self, fwd, nodes):
        nodes = sorted(nodes, key=lambda n: (n.start, n.index))
        first = nodes[0]
        outer = list({outermost_event(n).index: outermost_event(n) for n in nodes}.values())
        # docs/recompute.md "Where GPU time goes": GPU events under the recomputed ops inside
        # the outermost events are recompute; the rest of those events' GPU work is backward.
        launched = self.gpu_set(outer)
        recompute = self.gpu_set(r for o in outer for r in self.recompute_inside.get(o, ()))
        backward = [g for i, g in launched.items() if i not in recompute]
        row = {c: "" for c in CSV_COLUMNS}
        row.update({
            "sequence_numbers": ";".join(str(s) for s in sorted(n.seq for n in nodes)),
            "bwd_names": ";".join(n.name for n in nodes),
            "bwd_pid": raw_text(first.raw_pid),
            "bwd_tid": raw_text(first.raw_tid),
            "bwd_ts": raw_text(first.raw_ts),
            "bwd_dur": ns_to_us_text(sum(o.dur for o in outer)),
            "bwd_gpu_events": str(len(backward)),
            "bwd_gpu_us": ns_to_us_text(sum(g.dur for g in backward)),
            "recompute_gpu_events": str(len(recompute)),
            "recompute_gpu_us": ns_to_us_text(sum(g.dur for g in recompute.values())),
        })
        if fwd is None:
            row["link"] = "none"
            row["step"] = self.step_at(first)
            row["_key"] = (first.start, "", first.start, first.index)
            return row
        fwd_count, fwd_ns = self.gpu_columns([fwd])
        # docs/recompute.md: GPU time of the recomputations whose original lies inside fwd.
        _, recomputed_ns = self.gpu_columns(self.recomputed_inside.get(fwd, ()))
        row.update({
            "fwd_name": fwd.name,
            "fwd_pid": raw_text(fwd.raw_pid),
            "fwd_tid": raw_text(fwd.raw_tid),
            "fwd_ts": raw_text(fwd.raw_ts),
            "fwd_dur": ns_to_us_text(fwd.dur),
            "input_dims": input_dims_text(fwd),
            "link": "flow" if all(n in self.flow_creators for n in nodes) else "sequence",
            "fwd_gpu_events": str(fwd_count),
            "fwd_gpu_us": ns_to_us_text(fwd_ns),
            "step": self.step_at(fwd),
            "module": self.module_of(fwd),
            "recomputed_gpu_us": ns_to_us_text(recomputed_ns),
        })
        row["_key"] = (fwd.start, raw_text(fwd.raw_tid), first.start, fwd.index)
        return row


def write_pairs_csv(rows, path):
    """cli.md `--export-pairs` CSV: header row, RFC 4180 quoting, "\\n" line ends."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for r in rows:
            writer.writerow([r[c] for c in CSV_COLUMNS])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--pairs-csv", metavar="OUT.csv")
    parser.add_argument("--diagnostics", action="store_true",
                        help="also print anomaly counters to stderr")
    opts = parser.parse_args(argv)
    linked = Linked(load_events(opts.trace))
    print(json.dumps(linked.summary()))
    if opts.pairs_csv:
        write_pairs_csv(linked.pair_rows(), opts.pairs_csv)
    if opts.diagnostics:
        print(json.dumps(dict(linked.diagnostics)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
