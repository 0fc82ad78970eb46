#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A real trace made large (issue #59): its events repeated N times, each copy after the last.

    benchmarks/enlarge.py IN.json[.gz] OUT.json[.gz] (--times N | --target-mb M)

The generator's traces are not what real ones are: real traces write fractional-µs timestamps to
the ns ("ts": 1712195495505582.988), long kernel names, many args per event, Python frames. To
measure the loader on them at the sizes users have, this repeats a real trace's `traceEvents`
text: copy k has every "ts" moved by k × the trace's span (plus 1 ms), written with the decimals
it had; its ids (correlation, External id, flow ids, Ev Idx, Python and record-function ids,
sequence numbers) moved past the copy before; its ProfilerStep numbers after the last. The
header, metadata and everything outside `traceEvents` are kept once, byte for byte. Text edits,
not a JSON round trip: the numbers keep the form the profiler wrote. OUT ending in .gz is gzip.
"""

import argparse
import gzip
import re
from decimal import Decimal

TS = re.compile(rb'("ts"\s*:\s*)(-?[0-9]+(?:\.[0-9]+)?)')
IDS = re.compile(rb'("(?:correlation|External id|external id|id|Ev Idx|Python id|Python parent id|'
                 rb'Record function id|Sequence number)"\s*:\s*)([0-9]+)(?=[\s,}])')
STEP = re.compile(rb'(ProfilerStep#)([0-9]+)')


def events_span(body):
    """The events' text between `[` and its `]`, as (start, end) offsets of the array's inside."""
    key = body.index(b'"traceEvents"')
    start = body.index(b"[", key) + 1
    depth, i, in_string = 1, start, False
    while depth:
        c = body[i]
        if in_string:
            if c == 0x5C:  # backslash: skip the escaped byte
                i += 1
            elif c == 0x22:
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c == 0x5B or c == 0x7B:
            depth += c == 0x5B
        elif c == 0x5D:
            depth -= 1
        i += 1
    return start, i - 1


def shifted(events, k, span_us, id_step, step_step):
    """Copy \\a k of \\a events: its times, ids and step numbers moved."""
    if k == 0:
        return events

    def ts(m):
        text = m.group(2).decode()
        decimals = len(text.split(".")[1]) if "." in text else 0
        moved = Decimal(text) + k * span_us
        return m.group(1) + f"{moved:.{decimals}f}".encode()

    def ident(m):
        return m.group(1) + str(int(m.group(2)) + k * id_step).encode()

    def step(m):
        return m.group(1) + str(int(m.group(2)) + k * step_step).encode()

    return STEP.sub(step, IDS.sub(ident, TS.sub(ts, events)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    size = ap.add_mutually_exclusive_group(required=True)
    size.add_argument("--times", type=int, help="copies of the events")
    size.add_argument("--target-mb", type=float, help="copies until the text reaches about M MB")
    args = ap.parse_args()
    with gzip.open(args.input, "rb") if args.input.endswith(".gz") else open(args.input, "rb") as f:
        body = f.read()
    start, end = events_span(body)
    events = body[start:end].rstrip()
    times = [Decimal(m.group(2).decode()) for m in TS.finditer(events)]
    span_us = (max(times) - min(times)) + 1000 if times else Decimal(0)
    id_step = max((int(m.group(2)) for m in IDS.finditer(events)), default=0) + 1
    steps = [int(m.group(2)) for m in STEP.finditer(events)]
    step_step = max(steps) - min(steps) + 1 if steps else 0
    copies = args.times or max(1, round(args.target_mb * 1e6 / len(body)))
    opener = gzip.open if args.output.endswith(".gz") else open
    with opener(args.output, "wb") as out:
        out.write(body[:start])
        for k in range(copies):
            if k:
                out.write(b",\n")
            out.write(shifted(events, k, span_us, id_step, step_step))
        out.write(body[end:])
    print(f"{args.output}: {copies} copies of {args.input}")


if __name__ == "__main__":
    main()
