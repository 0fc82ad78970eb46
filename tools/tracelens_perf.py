#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""TraceLens's own FLOPs, bytes and kernel time for every op its perf models cover, summed per
op name: what tests/core/tst_sharedtraces.cpp (efficiencyEqualsTraceLens…) compares
Kinetoscope's --export-efficiency with (docs/efficiency.md).

    tools/tracelens_perf.py TRACELENS_SRC TRACE.json[.gz] [--rows OUT.json]

TRACELENS_SRC is a checkout of AMD-AGI/TraceLens (checked at 171dd747); it needs Debian's
python3-pandas and python3-tqdm (run with /usr/bin/python3)."""
import argparse
import collections
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tracelens_src")
    parser.add_argument("trace")
    parser.add_argument("--rows", help="also write one JSON object per instance here")
    args = parser.parse_args()
    sys.path.insert(0, args.tracelens_src)
    from TraceLens import TreePerfAnalyzer
    from TraceLens.PerfModel.torch_op_mapping import resolve_perf_model_class

    analyzer = TreePerfAnalyzer.from_file(args.trace, add_python_func=False)
    rows = []
    for event in analyzer.tree.events:
        if event.get("cat") != "cpu_op" or resolve_perf_model_class(event["name"]) is None:
            continue
        metrics = analyzer.compute_perf_metrics(event)
        rows.append({"name": event["name"], "ts": event["ts"], "gflops": metrics["GFLOPS"],
                     "mib": metrics.get("Data Moved (MB)"),
                     "kernel_us": metrics["Kernel Time (µs)"]})
    if args.rows:
        with open(args.rows, "w") as out:
            json.dump(rows, out)
    totals = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for r in rows:
        t = totals[r["name"]]
        t[0] += 1
        t[1] += r["gflops"]
        t[2] += r["mib"] or 0.0
        t[3] += r["kernel_us"]
    for name, (count, gflops, mib, kernel_us) in sorted(totals.items()):
        print(f"{name}\tcount={count}\tgflops={gflops!r}\tmib={mib!r}\tkernel_us={kernel_us!r}")


if __name__ == "__main__":
    main()
