"""Self-test of trace_reference.py on three tiny hand-written traces.

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
            "3", ""])
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
            "1", ""]])


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
        })

    def test_csv(self):
        _, csv_text = run_reference(UNPAIRED_TRACE)
        rows = rows_of(csv_text)
        linked = tr.Linked(json.loads(UNPAIRED_TRACE, parse_float=tr.RawFloat))
        self.assertEqual(linked.diagnostics["fwdbwd_flow_sequence_mismatch"], 1)
        self.assertEqual(rows[1:], [[
            "", "", "", "", "", "", "99", "none",
            "MulBackward0", "5", "6", "201.500", "20.000", "", "", "1", "1.500", "", ""]])


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
