"""Self-test of trace_reference.py on tiny hand-written traces.

Run from this folder:  python3 -m unittest
Expected values are computed by hand in the comments next to them.
"""

import csv
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import trace_reference as tr  # noqa: E402

# 1. Modern (2.x) conv: fwdbwd flow pair, one kernel launched on each side.
#    Number text is written as in real files (100.250 must come back as "100.250").
FLOW_TRACE = """{"schemaVersion": 1, "traceEvents": [
 {"ph":"M","name":"process_name","pid":10,"tid":0,"args":{"name":"python"}},
 {"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":10,"tid":10,"ts":0.000,"dur":1000.000},
 {"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":10,"tid":10,"ts":100.250,"dur":50.000,
  "args":{"External id":1,"Sequence number":5,"Fwd thread id":0,"Input Dims":[[1,3,8,8],[4,3,3,3]]}},
 {"ph":"X","cat":"cpu_op","name":"aten::convolution","pid":10,"tid":10,"ts":101.000,"dur":40.000,
  "args":{"External id":2,"Sequence number":5,"Fwd thread id":0}},
 {"ph":"s","cat":"fwdbwd","name":"fwdbwd","id":1,"pid":10,"tid":10,"ts":101.000},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":10,"tid":10,"ts":110.000,"dur":5.000,
  "args":{"External id":2,"correlation":77}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":77,"pid":10,"tid":10,"ts":110.000},
 {"ph":"X","cat":"kernel","name":"conv_fwd_kernel","pid":0,"tid":7,"ts":120.000,"dur":12.500,
  "args":{"External id":2,"correlation":77}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":77,"pid":0,"tid":7,"ts":120.000,"bp":"e"},
 {"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ConvolutionBackward0","pid":10,"tid":11,
  "ts":500.000,"dur":30.000,"args":{"External id":3,"Sequence number":5,"Fwd thread id":1}},
 {"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":10,"tid":11,"ts":501.000,"dur":25.000,
  "args":{"External id":4,"Sequence number":5,"Fwd thread id":1}},
 {"ph":"f","cat":"fwdbwd","name":"fwdbwd","id":1,"pid":10,"tid":11,"ts":501.000,"bp":"e"},
 {"ph":"X","cat":"cpu_op","name":"aten::convolution_backward","pid":10,"tid":11,"ts":502.000,"dur":20.000,
  "args":{"External id":5}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":10,"tid":11,"ts":505.000,"dur":4.000,
  "args":{"External id":5,"correlation":78}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":78,"pid":10,"tid":11,"ts":505.000},
 {"ph":"X","cat":"kernel","name":"conv_bwd_kernel","pid":0,"tid":7,"ts":600.000,"dur":7.250,
  "args":{"External id":5,"correlation":78}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":78,"pid":0,"tid":7,"ts":600.000,"bp":"e"}
]}"""

# 2. PyTorch 1.9 style: legacy categories, string tids in X events, no fwdbwd flows.
#    aten::linear (7) -> aten::t (7, creates TBackward) + aten::addmm (8, creates AddmmBackward).
#    aten::zero_ shares number 7 but starts earlier; aten::add shares 8 but starts after the node.
SEQUENCE_TRACE = """{"schemaVersion": 1, "traceEvents": [
 {"ph":"X","cat":"Operator","name":"ProfilerStep#1","pid":1,"tid":"20","ts":0,"dur":1000,"args":{"External id":1}},
 {"ph":"X","cat":"Operator","name":"aten::zero_","pid":1,"tid":"20","ts":10,"dur":5,
  "args":{"External id":2,"Sequence number":7,"Fwd thread id":0}},
 {"ph":"X","cat":"Operator","name":"aten::linear","pid":1,"tid":"20","ts":100,"dur":60,
  "args":{"External id":3,"Sequence number":7,"Fwd thread id":0,"Input Dims":[[2,4],[3,4],[3]]}},
 {"ph":"X","cat":"Operator","name":"aten::t","pid":1,"tid":"20","ts":102,"dur":8,
  "args":{"External id":4,"Sequence number":7,"Fwd thread id":0}},
 {"ph":"X","cat":"Operator","name":"aten::addmm","pid":1,"tid":"20","ts":112,"dur":40,
  "args":{"External id":40,"Sequence number":8,"Fwd thread id":0}},
 {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":1,"tid":"20","ts":120,"dur":10,
  "args":{"correlation":5,"external id":40}},
 {"ph":"s","cat":"async","name":"launch","id":5,"pid":1,"tid":20,"ts":120},
 {"ph":"X","cat":"Kernel","name":"gemm","pid":0,"tid":"stream 7","ts":140,"dur":20,
  "args":{"correlation":5,"external id":40}},
 {"ph":"f","cat":"async","name":"launch","id":5,"pid":0,"tid":"stream 7","ts":140},
 {"ph":"X","cat":"Operator","name":"aten::add","pid":1,"tid":"20","ts":700,"dur":5,
  "args":{"External id":41,"Sequence number":8,"Fwd thread id":0}},
 {"ph":"X","cat":"Operator","name":"AddmmBackward","pid":1,"tid":"21","ts":500,"dur":50,
  "args":{"External id":60,"Sequence number":8,"Fwd thread id":1}},
 {"ph":"X","cat":"Operator","name":"aten::mm","pid":1,"tid":"21","ts":505,"dur":30,"args":{"External id":61}},
 {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":1,"tid":"21","ts":510,"dur":5,
  "args":{"correlation":6,"external id":61}},
 {"ph":"X","cat":"Kernel","name":"gemm_bwd","pid":0,"tid":"stream 7","ts":560,"dur":30,
  "args":{"correlation":6,"external id":61}},
 {"ph":"X","cat":"Operator","name":"TBackward","pid":1,"tid":"21","ts":560,"dur":10,
  "args":{"External id":62,"Sequence number":7,"Fwd thread id":1}},
 {"ph":"X","cat":"Operator","name":"torch::autograd::AccumulateGrad","pid":1,"tid":"21","ts":580,"dur":5,
  "args":{"External id":63}}
]}"""

# 3. A node whose forward is not in the trace. The fwdbwd flow points at aten::mul (number 98)
#    but the node has 99, so the flow is dropped; the fallback finds no thread with 99 either.
#    GPU side: a launch with no enclosing op but a unique External id match (attributed), a
#    kernel without any launch (unattributed), and a launch whose External id == correlation.
UNPAIRED_TRACE = """[
 {"ph":"X","cat":"cpu_op","name":"aten::mul","pid":5,"tid":5,"ts":10.000,"dur":10.000,
  "args":{"External id":7,"Sequence number":98,"Fwd thread id":0}},
 {"ph":"s","cat":"fwdbwd","name":"fwdbwd","id":4,"pid":5,"tid":5,"ts":10.000},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":5,"tid":5,"ts":50.000,"dur":2.000,
  "args":{"External id":7,"correlation":300}},
 {"ph":"X","cat":"kernel","name":"k300","pid":0,"tid":7,"ts":60.000,"dur":3.000,"args":{"correlation":300}},
 {"ph":"X","cat":"kernel","name":"k301","pid":0,"tid":7,"ts":70.000,"dur":4.000,"args":{"correlation":301}},
 {"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":5,"tid":6,
  "ts":200.000,"dur":20.000,"args":{"External id":8,"Sequence number":99,"Fwd thread id":1}},
 {"ph":"X","cat":"cpu_op","name":"MulBackward0","pid":5,"tid":6,"ts":201.500,"dur":15.000,
  "args":{"External id":9,"Sequence number":99,"Fwd thread id":1}},
 {"ph":"f","cat":"fwdbwd","name":"fwdbwd","id":4,"pid":5,"tid":6,"ts":201.500,"bp":"e"},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":5,"tid":6,"ts":205.000,"dur":2.000,
  "args":{"External id":302,"correlation":302}},
 {"ph":"X","cat":"kernel","name":"k302","pid":0,"tid":7,"ts":230.000,"dur":1.500,"args":{"correlation":302}}
]"""


def run_reference(text, gzipped=False):
    """Write `text` to a temp trace, run the script, return (summary dict, csv rows)."""
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "t.json")
        data = text.encode("utf-8")
        with open(trace, "wb") as fh:
            fh.write(gzip.compress(data) if gzipped else data)
        out_csv = os.path.join(tmp, "pairs.csv")
        proc = subprocess.run(
            [sys.executable, os.path.join(HERE, "trace_reference.py"), trace, "--pairs-csv", out_csv],
            check=True, capture_output=True, text=True)
        with open(out_csv, newline="", encoding="utf-8") as fh:
            csv_text = fh.read()
    return json.loads(proc.stdout), csv_text


def rows_of(csv_text):
    return list(csv.reader(io.StringIO(csv_text)))


class FlowPairTest(unittest.TestCase):
    def test_summary(self):
        summary, _ = run_reference(FLOW_TRACE, gzipped=True)
        self.assertEqual(summary, {
            "events": 17,                # every entry, M and flows included
            "cpu_ops": 5,                # conv2d, convolution, wrapper, node, convolution_backward
            "gpu_events": 2,
            "flows": 3,                  # fwdbwd 1, ac2g 77, ac2g 78
            "steps": 1,
            "fwd_bwd_pairs": 1, "pairs_from_flows": 1, "pairs_from_sequence": 0,
            "unpaired_backward": 0,
            "gpu_events_attributed": 2,  # -> aten::convolution, aten::convolution_backward
            "recompute_gpu_us": 0.0,
        })

    def test_csv(self):
        _, csv_text = run_reference(FLOW_TRACE)
        rows = rows_of(csv_text)
        self.assertEqual(rows[0], tr.CSV_COLUMNS)
        # Creator aten::convolution rolls up to aten::conv2d; bwd_dur is the wrapper's 30 µs;
        # one kernel each side (12.5 and 7.25 µs); step 3 contains ts 100.25.
        self.assertEqual(rows[1], [
            "aten::conv2d", "10", "10", "100.250", "50.000", "[[1,3,8,8],[4,3,3,3]]", "5", "flow",
            "ConvolutionBackward0", "10", "11", "501.000", "30.000", "1", "12.500", "1", "7.250",
            "3", "", "0", "0.000", "0.000"])
        self.assertEqual(len(rows), 2)
        self.assertTrue(csv_text.endswith("\n"))
        self.assertNotIn("\r", csv_text)


class SequencePairTest(unittest.TestCase):
    def test_summary(self):
        summary, _ = run_reference(SEQUENCE_TRACE)
        self.assertEqual(summary, {
            "events": 16,
            "cpu_ops": 10,               # every Operator X, ProfilerStep and AccumulateGrad included
            "gpu_events": 2,
            "flows": 1,                  # async id 5
            "steps": 1,
            "fwd_bwd_pairs": 2, "pairs_from_flows": 0, "pairs_from_sequence": 2,
            "unpaired_backward": 0,
            "gpu_events_attributed": 2,  # gemm -> aten::addmm, gemm_bwd -> aten::mm
            "recompute_gpu_us": 0.0,
        })

    def test_csv(self):
        _, csv_text = run_reference(SEQUENCE_TRACE)
        rows = rows_of(csv_text)
        # TBackward <- aten::t (latest 7 ending before 560), AddmmBackward <- aten::addmm
        # (aten::add starts after the node); both roll up to aten::linear.
        # bwd_dur = 50 + 10 (no wrappers in 1.9); GPU: gemm 20 µs fwd, gemm_bwd 30 µs bwd.
        self.assertEqual(rows[1:], [[
            "aten::linear", "1", "20", "100", "60.000", "[[2,4],[3,4],[3]]", "7;8", "sequence",
            "AddmmBackward;TBackward", "1", "21", "500", "60.000", "1", "20.000", "1", "30.000",
            "1", "", "0", "0.000", "0.000"]])


class UnpairedTest(unittest.TestCase):
    def test_summary(self):
        summary, _ = run_reference(UNPAIRED_TRACE)
        self.assertEqual(summary, {
            "events": 10,
            "cpu_ops": 3,
            "gpu_events": 3,
            "flows": 1,                  # the fwdbwd key has both ends, even though it is dropped
            "steps": 0,
            "fwd_bwd_pairs": 0, "pairs_from_flows": 0, "pairs_from_sequence": 0,
            "unpaired_backward": 1,
            "gpu_events_attributed": 2,  # k300 via unique External id 7, k302 via MulBackward0
            "recompute_gpu_us": 0.0,
        })

    def test_csv(self):
        _, csv_text = run_reference(UNPAIRED_TRACE)
        rows = rows_of(csv_text)
        linked = tr.Linked(json.loads(UNPAIRED_TRACE, parse_float=tr.RawFloat))
        self.assertEqual(linked.diagnostics["fwdbwd_flow_sequence_mismatch"], 1)
        self.assertEqual(rows[1:], [[
            "", "", "", "", "", "", "99", "none",
            "MulBackward0", "5", "6", "201.500", "20.000", "", "", "1", "1.500", "", "", "0", "0.000", ""]])


# --------------------------------------------------------------------------- recompute
# docs/recompute.md. These traces are built with TraceBuilder: pid 1, forward thread tid 1,
# backward thread tid 2, kernels on pid 0 tid 7. All times are integer µs.

class TraceBuilder:
    def __init__(self):
        self.events = []
        self.corr = 0

    def x(self, cat, name, tid, ts, dur, **args):
        self.events.append({"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": tid,
                            "ts": ts, "dur": dur, "args": args})

    def step(self, n=0, ts=0, dur=1000):
        self.x("user_annotation", f"ProfilerStep#{n}", 1, ts, dur)

    def py(self, name, tid, ts, dur):
        self.x("python_function", name, tid, ts, dur)

    def op(self, name, tid, ts, dur, seq=None, dims=None):
        """A cpu_op; with seq it is numbered with Fwd thread id 0 (a candidate)."""
        args = {}
        if seq is not None:
            args.update({"Sequence number": seq, "Fwd thread id": 0})
        if dims is not None:
            args["Input Dims"] = dims
        self.x("cpu_op", name, tid, ts, dur, **args)

    def node(self, name, ts, dur, seq, fwd=1, tid=2):
        """evaluate_function wrapper [ts, ts+dur] around node event [ts+1, ts+dur-9]: the
        last 9 µs of the wrapper lie outside the node (where DDP/FSDP hooks run)."""
        args = {"Sequence number": seq, "Fwd thread id": fwd}
        self.x("cpu_op", tr.WRAPPER_PREFIX + " " + name, tid, ts, dur, **args)
        self.x("cpu_op", name, tid, ts + 1, dur - 10, **args)

    def kernel(self, tid, ts, gpu_ts, gpu_dur):
        """cudaLaunchKernel [ts, ts+1] on tid and the kernel it launches."""
        self.corr += 1
        self.x("cuda_runtime", "cudaLaunchKernel", tid, ts, 1, correlation=self.corr)
        self.events.append({"ph": "X", "cat": "kernel", "name": f"k{self.corr}", "pid": 0, "tid": 7,
                            "ts": gpu_ts, "dur": gpu_dur, "args": {"correlation": self.corr}})

    def text(self):
        return json.dumps({"traceEvents": self.events})


def linked_of(text):
    """tr.Linked on a TraceBuilder text, in process (for what the CLI does not print)."""
    return tr.Linked(json.loads(text, parse_float=tr.RawFloat)["traceEvents"])


def row_dicts(csv_text):
    rows = rows_of(csv_text)
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def pick(row, *columns):
    return [row[c] for c in columns]


GPU_COLUMNS = ("fwd_gpu_events", "fwd_gpu_us", "bwd_gpu_events", "bwd_gpu_us",
               "recompute_gpu_events", "recompute_gpu_us", "recomputed_gpu_us")


def non_reentrant_trace():
    """Non-reentrant checkpoint of a conv: ReluBackward0 re-runs it two levels deep
    (node -> python frames -> nn.Module -> numbered aten::conv2d -> numbered aten::convolution)."""
    b = TraceBuilder()
    b.step()
    b.py("nn.Module: Conv2d_0", 1, 10, 40)
    b.op("aten::conv2d", 1, 11, 30, seq=1, dims=[[1, 3, 8, 8]])
    b.kernel(1, 12, 100, 10)                                # forward conv kernel, 10 µs
    b.op("aten::relu", 1, 60, 10, seq=2, dims=[[1, 4, 8, 8]])
    b.node("ReluBackward0", 500, 100, seq=2)                # wrapper [500,600], node [501,591]
    b.py("checkpoint.py(1): unpack_hook", 2, 502, 50)
    b.py("checkpoint.py(2): recompute_fn", 2, 503, 48)
    b.py("nn.Module: Conv2d_0", 2, 504, 46)
    b.op("aten::conv2d", 2, 505, 40, seq=3, dims=[[1, 3, 8, 8]])   # the recomputed op
    b.op("aten::convolution", 2, 506, 30, seq=3)                  # numbered, below it: not another
    b.kernel(2, 507, 700, 8)                                # recompute, 8 µs
    b.op("aten::zero_", 2, 540, 3)                          # no number, below it: recompute too
    b.kernel(2, 541, 710, 2)                                # recompute, 2 µs
    b.op("aten::threshold_backward", 2, 560, 20)            # the node's own, unnumbered op
    b.kernel(2, 561, 720, 5)                                # backward, 5 µs
    b.op("aten::mul", 2, 592, 5, seq=9)                     # numbered hook op in the wrapper only
    b.kernel(2, 593, 730, 4)                                # backward, 4 µs
    b.node("ConvolutionBackward0", 800, 60, seq=1)
    b.op("aten::convolution_backward", 2, 802, 40)
    b.kernel(2, 803, 900, 6)                                # backward, 6 µs
    return b.text()


class NonReentrantRecomputeTest(unittest.TestCase):
    def test_recomputed_ops(self):
        linked = linked_of(non_reentrant_trace())
        # Only the outermost numbered op inside the node: aten::convolution lies below it,
        # aten::mul lies in the wrapper but not in the node event.
        self.assertEqual([(r.name, r.raw_ts, h.name) for r, h in linked.recompute_host.items()],
                         [("aten::conv2d", 505, "ReluBackward0")])
        (orig,) = linked.original_of.values()
        self.assertEqual((orig.name, orig.raw_tid, orig.raw_ts), ("aten::conv2d", 1, 11))
        self.assertEqual(dict(linked.diagnostics), {})

    def test_csv_and_summary(self):
        summary, csv_text = run_reference(non_reentrant_trace())
        self.assertEqual(summary["recompute_gpu_us"], 10.0)   # 8 + 2, each kernel once
        rows = row_dicts(csv_text)
        self.assertEqual([r["fwd_name"] for r in rows], ["aten::conv2d", "aten::relu"])
        conv, relu = rows
        # The conv keeps its own backward (6 µs); its recomputation (8 + 2) is charged to it
        # as recomputed_gpu_us.
        self.assertEqual(pick(conv, *GPU_COLUMNS),
                         ["1", "10.000", "1", "6.000", "0", "0.000", "10.000"])
        # ReluBackward0's wrapper launched 8 + 2 + 5 + 4 = 19 µs (4 kernels) as before this rule:
        # now 2 kernels (10 µs) are recompute and 2 (5 + 4: the unnumbered op's and the
        # wrapper-only hook's) stay backward.
        self.assertEqual(pick(relu, *GPU_COLUMNS),
                         ["0", "0.000", "2", "9.000", "2", "10.000", "0.000"])
        self.assertEqual(int(relu["bwd_gpu_events"]) + int(relu["recompute_gpu_events"]), 4)


def double_backward_trace(numbered=(True, True, False)):
    """Three nodes, each with one own op carrying a kernel; numbered[i]: node i's own op has a
    Sequence number (create_graph=True numbers every op a node runs)."""
    b = TraceBuilder()
    b.step()
    b.op("aten::mul", 1, 10, 5, seq=1)
    b.op("aten::mul", 1, 20, 5, seq=2)
    b.op("aten::sum", 1, 30, 5, seq=3)
    nodes = [("SumBackward0", 3), ("MulBackward0", 2), ("MulBackward0", 1)]
    for i, (name, seq) in enumerate(nodes):
        ts = 100 * (i + 1)
        b.node(name, ts, 30, seq=seq)
        b.op("aten::mul", 2, ts + 2, 8, seq=10 + i if numbered[i] else None)
        b.kernel(2, ts + 3, 500 + 10 * i, 2)
    return b.text()


class DoubleBackwardTest(unittest.TestCase):
    def test_two_of_three_fully_numbered_is_double_backward(self):
        linked = linked_of(double_backward_trace())
        self.assertEqual(linked.recompute_host, {})
        self.assertEqual(linked.diagnostics["double_backward"], 2)
        summary, csv_text = run_reference(double_backward_trace())
        self.assertEqual(summary["recompute_gpu_us"], 0.0)
        for row in row_dicts(csv_text):   # every node keeps its kernel as backward
            self.assertEqual(pick(row, *GPU_COLUMNS[2:]), ["1", "2.000", "0", "0.000", "0.000"])

    def test_half_is_enough(self):
        # 1 of 2 nodes with own ops fully numbered (the third node's own op is removed).
        events = json.loads(double_backward_trace((True, False, False)))["traceEvents"]
        events = [e for e in events if not (e["tid"] == 2 and e["ts"] in (302, 303))]
        linked = tr.Linked(events)
        self.assertEqual(linked.diagnostics["double_backward"], 1)
        self.assertEqual(linked.recompute_host, {})

    def test_one_of_three_is_recompute(self):
        linked = linked_of(double_backward_trace((True, False, False)))
        self.assertNotIn("double_backward", linked.diagnostics)
        self.assertEqual([(r.name, h.name) for r, h in linked.recompute_host.items()],
                         [("aten::mul", "SumBackward0")])
        # Key (aten::mul, "", ""): the forward aten::mul at 10 and 20 are its originals
        # (the unnumbered aten::mul inside the nodes are not); one recomputation takes the first.
        (orig,) = linked.original_of.values()
        self.assertEqual(orig.raw_ts, 10)


def reentrant_trace():
    """Reentrant checkpoint: CheckpointFunction runs a Linear under no_grad (unnumbered ops);
    its node CheckpointFunctionBackward re-runs it with grad on (numbered) and runs a nested
    backward over it (AddmmBackward0, Fwd thread id 2)."""
    dims = [[2, 4], [3, 4], [3]]
    b = TraceBuilder()
    b.step()
    b.op("CheckpointFunction", 1, 10, 50, seq=10)
    b.py("nn.Module: Linear_0", 1, 11, 40)
    b.op("aten::linear", 1, 12, 30, dims=dims)              # the original, unnumbered
    b.op("aten::addmm", 1, 13, 20)
    b.kernel(1, 14, 100, 10)                                # forward, 10 µs
    b.op("aten::sum", 1, 70, 5, seq=11)
    b.node("SumBackward0", 400, 30, seq=11)
    b.op("aten::expand", 2, 402, 8)
    b.node("CheckpointFunctionBackward", 500, 300, seq=10)  # node [501,791]
    b.op("aten::detach", 2, 502, 2)                         # its own, unnumbered op
    b.py("nn.Module: Linear_0", 2, 510, 40)
    b.op("aten::linear", 2, 511, 30, seq=20, dims=dims)     # the recomputed op
    b.op("aten::t", 2, 512, 3, seq=20)
    b.op("aten::addmm", 2, 516, 20, seq=21)                 # creates the nested AddmmBackward0
    b.kernel(2, 517, 600, 9)                                # recompute, 9 µs
    b.node("AddmmBackward0", 560, 40, seq=21, fwd=2)        # nested backward, node [561,591]
    b.op("aten::mm", 2, 562, 28)
    b.kernel(2, 563, 650, 7)                                # backward, 7 µs
    return b.text()


class ReentrantRecomputeTest(unittest.TestCase):
    def test_rows(self):
        summary, csv_text = run_reference(reentrant_trace())
        self.assertEqual(summary["recompute_gpu_us"], 9.0)
        self.assertEqual(summary["fwd_bwd_pairs"], 3)
        rows = row_dicts(csv_text)
        self.assertEqual([pick(r, "fwd_name", "fwd_tid", "bwd_names", "module") for r in rows], [
            ["CheckpointFunction", "1", "CheckpointFunctionBackward", ""],
            ["aten::sum", "1", "SumBackward0", ""],
            # The recomputed op whose node ran is a row of its own (display level stops at
            # the CheckpointFunctionBackward node).
            ["aten::linear", "2", "AddmmBackward0", "nn.Module: Linear_0"]])
        ckpt, total, linear = rows
        # CheckpointFunctionBackward's wrapper launched 9 + 7: the 9 µs of the re-run Linear
        # are recompute, and they repeat the aten::linear inside CheckpointFunction.
        self.assertEqual(pick(ckpt, *GPU_COLUMNS),
                         ["1", "10.000", "1", "7.000", "1", "9.000", "9.000"])
        self.assertEqual(pick(total, *GPU_COLUMNS),
                         ["0", "0.000", "0", "0.000", "0", "0.000", "0.000"])
        # Its forward columns are its subtree as always; nothing is an original inside a
        # recomputed op, so recomputed_gpu_us is 0.
        self.assertEqual(pick(linear, *GPU_COLUMNS),
                         ["1", "9.000", "1", "7.000", "0", "0.000", "0.000"])

    def test_original(self):
        linked = linked_of(reentrant_trace())
        self.assertEqual([(r.name, h.name) for r, h in linked.recompute_host.items()],
                         [("aten::linear", "CheckpointFunctionBackward")])
        (orig,) = linked.original_of.values()
        self.assertEqual((orig.name, orig.raw_tid, orig.raw_ts), ("aten::linear", 1, 12))
        self.assertEqual(dict(linked.diagnostics), {})


def ambiguous_trace(one_host=False):
    """Two identical forward aten::relu (o1 at 10, o2 at 20) re-run in two host nodes: H_b
    (MulBackward0 of seq 4, at 100, backward reaches it first) and H_a (seq 3, at 200). H_a also
    re-runs a relu with other dims that has no original. one_host: both same-key
    recomputations in H_a, in time order."""
    b = TraceBuilder()
    b.step()
    b.op("aten::relu", 1, 10, 5, seq=1, dims=[[4]])
    b.op("aten::relu", 1, 20, 5, seq=2, dims=[[4]])
    b.op("aten::mul", 1, 30, 5, seq=3)
    b.op("aten::mul", 1, 40, 5, seq=4)
    b.node("MulBackward0", 100, 40, seq=4)                  # H_b, node [101,131]
    if not one_host:
        b.op("aten::relu", 2, 102, 6, seq=10, dims=[[4]])
        b.kernel(2, 103, 500, 3)                            # 3 µs
    b.op("aten::mul", 2, 110, 10)
    b.node("MulBackward0", 200, 60, seq=3)                  # H_a, node [201,251]
    b.op("aten::relu", 2, 202, 6, seq=11, dims=[[4]])
    b.kernel(2, 203, 510, 4)                                # 4 µs
    b.op("aten::relu", 2, 209, 5, seq=12, dims=[[9]])       # no original with these dims
    b.kernel(2, 210, 520, 1)                                # 1 µs
    if one_host:
        b.op("aten::relu", 2, 215, 6, seq=10, dims=[[4]])
        b.kernel(2, 216, 500, 3)                            # 3 µs
    b.op("aten::mul", 2, 225, 10)
    for i, seq in enumerate((2, 1)):
        b.node("ReluBackward0", 300 + 100 * i, 30, seq=seq)
        b.op("aten::threshold_backward", 2, 302 + 100 * i, 8)
    return b.text()


class MatchingTest(unittest.TestCase):
    def test_ambiguous_two_host_nodes(self):
        linked = linked_of(ambiguous_trace())
        matched = {(r.raw_ts, linked.recompute_host[r].raw_ts): o.raw_ts
                   for r, o in linked.original_of.items()}
        # Recomputations in host node order latest first: H_a (201) then H_b (101); so the
        # later host node's recomputation repeats the earlier original o1, H_b's repeats o2.
        self.assertEqual(matched, {(202, 201): 10, (102, 101): 20})
        self.assertEqual(linked.diagnostics["recompute_without_original"], 1)

        summary, csv_text = run_reference(ambiguous_trace())
        self.assertEqual(summary["recompute_gpu_us"], 8.0)   # 3 + 4 + 1
        rows = row_dicts(csv_text)
        self.assertEqual([pick(r, "fwd_name", "fwd_ts", "recompute_gpu_events", "recompute_gpu_us",
                               "recomputed_gpu_us") for r in rows], [
            ["aten::relu", "10", "0", "0.000", "4.000"],   # o1 <- H_a's recomputation
            ["aten::relu", "20", "0", "0.000", "3.000"],   # o2 <- H_b's recomputation
            ["aten::mul", "30", "2", "5.000", "0.000"],    # H_a re-ran 4 + 1
            ["aten::mul", "40", "1", "3.000", "0.000"]])   # H_b re-ran 3

    def test_one_host_node_in_time_order(self):
        linked = linked_of(ambiguous_trace(one_host=True))
        matched = {r.raw_ts: o.raw_ts for r, o in linked.original_of.items()}
        self.assertEqual(matched, {202: 10, 215: 20})

    def test_module_in_key(self):
        """The module names a layer: a recomputation under nn.Module: ReLU_1 repeats the relu
        of ReLU_1 though an identical one (ReLU_0) comes first. Only a module frame inside the
        host node counts: one around the whole backward call does not."""
        b = TraceBuilder()
        b.step()
        b.py("nn.Module: ReLU_0", 1, 9, 7)
        b.op("aten::relu", 1, 10, 5, seq=1, dims=[[4]])
        b.py("nn.Module: ReLU_1", 1, 19, 7)
        b.op("aten::relu", 1, 20, 5, seq=2, dims=[[4]])
        b.py("nn.Module: ReLU_0", 2, 90, 300)                # outside the host nodes
        b.node("ReluBackward0", 100, 40, seq=2)
        b.py("nn.Module: ReLU_1", 2, 101, 20)
        b.op("aten::relu", 2, 102, 6, seq=10, dims=[[4]])
        b.op("aten::threshold_backward", 2, 122, 5)          # own unnumbered ops: not double
        b.node("ReluBackward0", 200, 40, seq=1)              # backward
        b.op("aten::relu", 2, 202, 6, seq=11, dims=[[4]])    # key module "": no original
        b.op("aten::threshold_backward", 2, 222, 5)
        linked = linked_of(b.text())
        self.assertEqual({r.raw_ts: o.raw_ts for r, o in linked.original_of.items()}, {102: 20})
        self.assertEqual(linked.diagnostics["recompute_without_original"], 1)


class NumberTest(unittest.TestCase):
    def test_exact_ns(self):
        self.assertEqual(tr.us_text_to_ns(tr.RawFloat("4458676522709.059")), 4458676522709059)
        self.assertEqual(tr.us_text_to_ns(tr.RawFloat("12.5")), 12500)
        self.assertEqual(tr.us_text_to_ns(1623142623531336), 1623142623531336000)
        self.assertEqual(tr.ns_to_us_text(12500), "12.500")
        self.assertEqual(tr.ns_to_us_text(7), "0.007")

    def test_ids(self):
        self.assertEqual(tr.norm_id("25738"), 25738)
        self.assertEqual(tr.norm_id("stream 7"), "stream 7")


if __name__ == "__main__":
    unittest.main()
