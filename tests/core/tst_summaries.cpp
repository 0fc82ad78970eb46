// SPDX-License-Identifier: MIT
// Issue #57: the runtime API summary and the operator summary, worked out by hand on an inline
// trace, and on the shared traces against tests/reference/summaries_reference.py (interval
// containment over the raw JSON, no nesting tree).
#include "analysis/time/apisummary.h"
#include "analysis/time/opsummary.h"
#include "export/apisummarytable.h"
#include "export/opsummarytable.h"
#include "export/pairtable.h"
#include "testutil.h"

#include <QFileInfo>
#include <QJsonObject>
#include <QTest>

#include <map>

using namespace ks;

namespace {

constexpr TimeNs us = 1000;

std::string event(const std::string &cat,
    const std::string &name,
    int tid,
    double ts,
    double dur,
    const std::string &args = {})
{
    // Appended piece by piece: one long chain of + trips GCC 12's -Wrestrict at -O3.
    std::string out = R"({"ph":"X","cat":")";
    out += cat;
    out += R"(","name":")";
    out += name;
    out += R"(","pid":)";
    out += tid >= 7 ? "0" : "1";
    out += R"(,"tid":)";
    out += std::to_string(tid);
    out += R"(,"ts":)";
    out += std::to_string(ts);
    out += R"(,"dur":)";
    out += std::to_string(dur);
    out += R"(,"args":{)";
    out += args;
    out += "}},\n";
    return out;
}

//! A launch on thread \a tid at [ts, ts+dur) of a kernel on stream 7 at [kts, kts+kdur).
std::string launch(int tid, double ts, double dur, int correlation, double kts, double kdur)
{
    std::string c = R"("correlation":)";
    c += std::to_string(correlation);
    std::string out = event("cuda_runtime", "cudaLaunchKernel", tid, ts, dur, c);
    std::string kernelArgs = R"("device":0,"stream":7,)";
    kernelArgs += c;
    std::string kernel = "k";
    kernel += std::to_string(correlation);
    out += event("kernel", kernel, 7, kts, kdur, kernelArgs);
    return out;
}

/*
 * Thread 1, step 1 [0,1000): aten::linear [10,110) dims [[4,8]] over aten::addmm [20,100), which
 * launches kernels of 50 and 10 µs (calls of 10 and 5 µs); aten::linear [120,170) dims [[2,8]]
 * launching 30 µs (a 10 µs call); aten::relu [180,260) over a Python frame [185,250) over
 * aten::clamp_min [190,240); aten::mm [800,850) launching 20 µs (5 µs). Thread 2 (backward):
 * AddmmBackward0 [500,600) over aten::mm [510,560) launching 60 µs (10 µs). Step 2
 * [1000,2000): cudaStreamSynchronize [1100,1400), aten::linear [1500,1520) dims [[4,8]]
 * launching 40 µs (4 µs).
 */
std::string handTrace()
{
    const std::string dims48 = R"("Input Dims":[[4,8]])", dims28 = R"("Input Dims":[[2,8]])";
    std::string e = event("user_annotation", "ProfilerStep#1", 1, 0, 1000);
    e += event("user_annotation", "ProfilerStep#2", 1, 1000, 1000);
    e += event("cpu_op", "aten::linear", 1, 10, 100, dims48);
    e += event("cpu_op", "aten::addmm", 1, 20, 80, R"("Sequence number":1,"Fwd thread id":0)");
    e += launch(1, 30, 10, 1, 200, 50);
    e += launch(1, 50, 5, 2, 260, 10);
    e += event("cpu_op", "aten::linear", 1, 120, 50, dims28);
    e += launch(1, 130, 10, 3, 300, 30);
    e += event("cpu_op", "aten::relu", 1, 180, 80);
    e += event("python_function", "model.py(12): forward", 1, 185, 65);
    e += event("cpu_op", "aten::clamp_min", 1, 190, 50);
    e += event("cpu_op", "aten::mm", 1, 800, 50);
    e += launch(1, 810, 5, 6, 900, 20);
    e += event("cpu_op", "AddmmBackward0", 2, 500, 100, R"("Sequence number":1,"Fwd thread id":1)");
    e += event("cpu_op", "aten::mm", 2, 510, 50);
    e += launch(2, 520, 10, 5, 700, 60);
    e += event("cuda_runtime", "cudaStreamSynchronize", 1, 1100, 300);
    e += event("cpu_op", "aten::linear", 1, 1500, 20, dims48);
    e += launch(1, 1505, 4, 4, 1600, 40);
    e += R"({"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"pt_autograd_0"}})";
    return test::traceWith(e);
}

const OpSummaryRow *rowOf(
    const OpSummary &s, const TraceModel &m, std::string_view name, std::string_view dims = {})
{
    for (const OpSummaryRow &r : s.rows)
        if (m.str(r.name) == name && (dims.empty() || m.str(r.inputDims) == dims))
            return &r;
    return nullptr;
}

} // namespace

class TestSummaries : public QObject {
    Q_OBJECT
private slots:
    void apiSummaryByHand();
    void opSummaryByHand();
    void opSummaryFollowsTheStepAndDims();
    void sharedTracesAgreeWithReference_data();
    void sharedTracesAgreeWithReference();
};

void TestSummaries::apiSummaryByHand()
{
    const auto t = test::link(handTrace());
    QVERIFY(t);
    const ApiSummary s = apiSummary(*t->graph);
    QCOMPARE(s.rows.size(), size_t(2));
    const ApiSummaryRow &sync = s.rows[0], &launches = s.rows[1]; // 300 µs, then 44 µs
    QCOMPARE(t->model->str(sync.name), std::string_view("cudaStreamSynchronize"));
    QCOMPARE(sync.count, uint64_t(1));
    QCOMPARE(sync.gpuEvents, uint64_t(0));
    QCOMPARE(launches.count, uint64_t(6));
    QCOMPARE(launches.total, 44 * us); // 10 + 5 + 10 + 10 + 5 + 4
    QCOMPARE(launches.min, 4 * us);
    QCOMPARE(launches.max, 10 * us);
    QCOMPARE(launches.median, 7500); // 4 5 5 | 10 10 10: between 5 and 10
    QCOMPARE(launches.gpuEvents, uint64_t(6));
    QCOMPARE(s.apiTime, 344 * us);
    const CellTable table = apiSummaryTable(s, *t->model);
    QCOMPARE(table.text(1, 8), std::string("12.79")); // 44 / 344
    QCOMPARE(table.text(1, 4), std::string("7.333")); // the mean, to the ns
    // Step 2: the sync call and the one launch in it.
    const ApiSummary step2 = apiSummary(*t->graph, 2);
    QCOMPARE(step2.rows.size(), size_t(2));
    QCOMPARE(step2.rows[1].count, uint64_t(1));
    QCOMPARE(step2.rows[1].gpuEvents, uint64_t(1));
}

void TestSummaries::opSummaryByHand()
{
    const auto t = test::link(handTrace());
    QVERIFY(t);
    const TraceModel &m = *t->model;
    const OpSummary s = opSummary(*t->graph);
    const OpSummaryRow *linear = rowOf(s, m, "aten::linear");
    QVERIFY(linear);
    QCOMPARE(linear->calls, uint64_t(3));
    QCOMPARE(linear->hostTotal, 170 * us); // 100 + 50 + 20
    QCOMPARE(linear->hostSelf, 76 * us); // 100 − 80 (addmm), 50 − 10, 20 − 4
    QCOMPARE(linear->deviceTotal, 130 * us); // 50 + 10 under addmm, 30, 40
    QCOMPARE(linear->deviceSelf, 70 * us); // 30 + 40: addmm launched the first call's
    QCOMPARE(linear->backwardCalls, uint64_t(0));
    const OpSummaryRow *addmm = rowOf(s, m, "aten::addmm");
    QVERIFY(addmm);
    QCOMPARE(addmm->hostSelf, 65 * us); // 80 − 10 − 5: runtime calls are children
    QCOMPARE(addmm->deviceSelf, 60 * us);
    const OpSummaryRow *relu = rowOf(s, m, "aten::relu");
    QVERIFY(relu);
    QCOMPARE(relu->hostSelf, 30 * us); // the Python frame looked through: 80 − 50
    const OpSummaryRow *mm = rowOf(s, m, "aten::mm");
    QVERIFY(mm);
    QCOMPARE(mm->calls, uint64_t(2));
    QCOMPARE(mm->hostSelf, 85 * us); // 50 − 10, 50 − 5
    QCOMPARE(mm->deviceTotal, 80 * us);
    QCOMPARE(mm->backwardCalls, uint64_t(1));
    QCOMPARE(mm->backwardHostTotal, 50 * us);
    QCOMPARE(mm->backwardDeviceTotal, 60 * us);
    const OpSummaryRow *node = rowOf(s, m, "AddmmBackward0");
    QVERIFY(node);
    QCOMPARE(node->hostSelf, 50 * us);
    QCOMPARE(node->deviceTotal, 60 * us);
    QCOMPARE(node->deviceSelf, 0);
    QCOMPARE(node->backwardCalls, uint64_t(1));
    // By device total: linear 130, then addmm 60 … no: mm 80 comes before AddmmBackward0's 60.
    QCOMPARE(m.str(s.rows[0].name), std::string_view("aten::linear"));
    QCOMPARE(m.str(s.rows[1].name), std::string_view("aten::mm"));
}

void TestSummaries::opSummaryFollowsTheStepAndDims()
{
    const auto t = test::link(handTrace());
    QVERIFY(t);
    const TraceModel &m = *t->model;
    const OpSummary byDims = opSummary(*t->graph, true);
    const OpSummaryRow *wide = rowOf(byDims, m, "aten::linear", "[[4,8]]");
    const OpSummaryRow *narrow = rowOf(byDims, m, "aten::linear", "[[2,8]]");
    QVERIFY(wide && narrow);
    QCOMPARE(wide->calls, uint64_t(2));
    QCOMPARE(wide->hostTotal, 120 * us);
    QCOMPARE(wide->deviceTotal, 100 * us);
    QCOMPARE(narrow->calls, uint64_t(1));
    QCOMPARE(narrow->deviceTotal, 30 * us);
    const CellTable table = opSummaryTable(byDims, m);
    QCOMPARE(table.text(0, 1), std::string("[[4,8]]"));
    const OpSummary step2 = opSummary(*t->graph, false, 2);
    QCOMPARE(step2.rows.size(), size_t(1));
    QCOMPARE(step2.rows[0].hostTotal, 20 * us);
    QCOMPARE(step2.rows[0].deviceTotal, 40 * us);
}

void TestSummaries::sharedTracesAgreeWithReference_data()
{
    QTest::addColumn<QString>("path");
    if (test::sharedTracesDir().isEmpty())
        QSKIP("../shared/traces is absent (a user's clone has none): real-trace checks skipped");
    for (const QString &p : test::sharedTraces())
        QTest::newRow(qPrintable(QFileInfo(p).fileName())) << p;
}

/*
 * Every call name's count, total, min, median, max and GPU events, every op name's calls, host
 * total and device total equal the reference's; and where the op summary and the pair table
 * show one quantity — a forward op's GPU time, for names that are always a pair's forward op —
 * they agree.
 */
void TestSummaries::sharedTracesAgreeWithReference()
{
    QFETCH(QString, path);
    const QJsonObject ref = test::referenceJson(QStringLiteral("summaries_reference.py"), path);
    QVERIFY2(!ref.isEmpty(), "summaries_reference.py must run (python3 needed)");
    const OpenResult opened = openTrace(path.toStdString());
    QVERIFY(opened.trace);
    const OpGraph &graph = *opened.trace->graph;
    const TraceModel &m = *opened.trace->model;
    const QJsonObject api = ref.value(QStringLiteral("api")).toObject();
    const ApiSummary calls = apiSummary(graph);
    QCOMPARE(qsizetype(calls.rows.size()), api.size());
    for (const ApiSummaryRow &row : calls.rows) {
        const QJsonObject r
            = api.value(QString::fromStdString(std::string(m.str(row.name)))).toObject();
        QCOMPARE(qint64(row.count), r.value(QStringLiteral("count")).toInteger());
        QCOMPARE(qint64(row.total), r.value(QStringLiteral("total_ns")).toInteger());
        QCOMPARE(qint64(row.min), r.value(QStringLiteral("min_ns")).toInteger());
        QCOMPARE(qint64(row.median), r.value(QStringLiteral("median_ns")).toInteger());
        QCOMPARE(qint64(row.max), r.value(QStringLiteral("max_ns")).toInteger());
        QCOMPARE(qint64(row.gpuEvents), r.value(QStringLiteral("gpu_events")).toInteger());
    }
    const QJsonObject ops = ref.value(QStringLiteral("ops")).toObject();
    const OpSummary summary = opSummary(graph);
    QCOMPARE(qsizetype(summary.rows.size()), ops.size());
    std::map<std::string, const OpSummaryRow *> byName;
    for (const OpSummaryRow &row : summary.rows) {
        const std::string name(m.str(row.name));
        byName[name] = &row;
        const QJsonObject r = ops.value(QString::fromStdString(name)).toObject();
        QCOMPARE(qint64(row.calls), r.value(QStringLiteral("calls")).toInteger());
        QCOMPARE(qint64(row.hostTotal), r.value(QStringLiteral("host_total_ns")).toInteger());
        QCOMPARE(qint64(row.deviceTotal), r.value(QStringLiteral("device_total_ns")).toInteger());
    }
    std::map<std::string, std::pair<uint64_t, TimeNs>> forward; // pairs, their fwd GPU time
    for (const PairRow &row : graph.rows())
        if (row.forward != kNoSlice) {
            auto &f = forward[std::string(m.sliceName(row.forward))];
            ++f.first;
            f.second += row.forwardGpu.time;
        }
    int compared = 0;
    for (const auto &[name, f] : forward) {
        const OpSummaryRow *row = byName.at(name);
        if (row->calls - row->backwardCalls != f.first)
            continue; // some forward calls are no pair's forward op (nested in another)
        QCOMPARE(row->deviceTotal - row->backwardDeviceTotal, f.second);
        ++compared;
    }
    if (!graph.rows().empty())
        QVERIFY(compared > 0);
}

QTEST_MAIN(TestSummaries)
#include "tst_summaries.moc"
