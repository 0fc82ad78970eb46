#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""HTA's own critical path of one trace: its length and its breakdown by bound_by class (µs),
what tests/core/tst_criticalpath.cpp compares Kinetoscope's --summary "critical_path" with
(docs/critical-path.md).

    tools/hta_critical_path.py HTA_SRC TRACE.json[.gz] [--annotation ProfilerStep] [--instance 0]
                               [--data-loading REGEX]

HTA_SRC is a checkout of facebookresearch/HolisticTraceAnalysis (checked at f4d0062); it needs
Debian's python3-pandas, python3-networkx, python3-plotly and python3-pydot (run with
/usr/bin/python3). The trace is copied (linked) into a temporary folder, since HTA reads
folders."""
import argparse
import json
import logging
import os
import sys
import tempfile


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hta_src")
    parser.add_argument("trace")
    parser.add_argument("--annotation", default="ProfilerStep")
    parser.add_argument("--instance", type=int, default=0)
    parser.add_argument("--edges", help="also write the path's edges here (JSON)")
    parser.add_argument("--data-loading", help="HTA's data_load_events, one pattern")
    args = parser.parse_args()
    sys.path.insert(0, args.hta_src)
    logging.disable(logging.WARNING)
    from hta.trace_analysis import TraceAnalysis

    with tempfile.TemporaryDirectory() as folder:
        name = os.path.basename(args.trace)
        if not (name.endswith(".json") or name.endswith(".json.gz")):
            name += ".json"
        os.symlink(os.path.abspath(args.trace), os.path.join(folder, name))
        analysis = TraceAnalysis(trace_dir=folder)
        rank = next(iter(analysis.t.traces))
        instance = None if args.annotation == "" else args.instance
        graph, ok = analysis.critical_path_analysis(
            rank=rank, annotation=args.annotation, instance_id=instance,
            data_load_events=[args.data_loading] if args.data_loading else None)
        if not ok:
            print(json.dumps({"ok": False}))
            return 1
        edges = graph.get_critical_path_breakdown()
        by_bound = edges.groupby("bound_by").duration.sum().to_dict()
        result = {"ok": True, "length_us": int(edges.duration.sum()),
                  "by_bound": {k: int(v) for k, v in by_bound.items() if k}}
        if args.edges:
            edges.to_json(args.edges, orient="records")
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
