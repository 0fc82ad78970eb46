// SPDX-License-Identifier: MIT
// The GPU time breakdown (core/analysis/gputime): interval unions worked out by hand on inline
// traces (pid 1 thread 1 launches, pid 0 streams 7–9 run), and the shared traces against
// tests/reference/gputime_reference.py, an independent sweep over the same definitions.
#include "analysis/time/gputime.h"
#include "analysis/time/rangestats.h"
#include "analysis/time/stepbreakdown.h"
#include "export/rangetext.h"
#include "export/steptable.h"
#include "export/summary.h"
#include "testutil.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <map>
#include <string>

using namespace ks;

namespace {

std::string num(double v)
{
    return std::to_string(v);
}

//! GPU work on stream \a stream; launched by a runtime call at \a launchTs when it is ≥ 0.
std::string work(const std::string &cat,
    const std::string &name,
    int stream,
    double ts,
    double dur,
    int correlation,
    double launchTs)
{
    std::string out = R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":0,"tid":)"
        + std::to_string(stream) + R"(,"ts":)" + num(ts) + R"(,"dur":)" + num(dur)
        + R"(,"args":{"device":0,"stream":)" + std::to_string(stream) + R"(,"correlation":)"
        + std::to_string(correlation) + "}},\n";
    if (launchTs >= 0)
        out += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)"
            + num(launchTs) + R"(,"dur":1,"args":{"correlation":)" + std::to_string(correlation)
            + "}},\n";
    return out;
}

std::string step(int n, double ts, double dur)
{
    return R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(n)
        + R"(","pid":1,"tid":1,"ts":)" + num(ts) + R"(,"dur":)" + num(dur) + "},\n";
}

std::string trace(std::string events)
{
    events += R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}})";
    return test::traceWith(events);
}

constexpr TimeNs us = 1000;

} // namespace

class TestGpuTime : public QObject {
    Q_OBJECT
private slots:
    void overlappingCommunicationAndCompute();
    void memcpyUnderComputeAndIdleGaps();
    void perStepByLaunch();
    void laggingGpuStepsPartitionTheTimeline();
    void emptyTrace();
    void rangeStatisticsClipToTheRange();
    void summaryObject();
    void sharedTracesAgreeWithReference_data();
    void sharedTracesAgreeWithReference();
};

// compute [100,200) s7, nccl [150,300) s8, memcpy [250,280) s9 (under comm), memcpy [320,340),
// memset [400,450) s7 (computation), and a kernel [0,1000) with no launch (not counted).
static std::string overlapTrace()
{
    return trace(work("kernel", "gemm", 7, 100, 100, 1, 90)
        + work("kernel", "ncclKernel_AllReduce", 8, 150, 150, 2, 91)
        + work("gpu_memcpy", "Memcpy DtoH", 9, 250, 30, 3, 92)
        + work("gpu_memcpy", "Memcpy HtoD", 9, 320, 20, 4, 93)
        + work("gpu_memset", "Memset", 7, 400, 50, 5, 94)
        + work("kernel", "before_window", 10, 0, 1000, 6, -1));
}

void TestGpuTime::overlappingCommunicationAndCompute()
{
    auto t = test::link(overlapTrace());
    QVERIFY(t);
    const GpuTimeBreakdown b = gpuTimeBreakdown(*t->graph);
    QCOMPARE(b.events, uint64_t(5));
    QCOMPARE(b.computation, 150 * us); // [100,200) + [400,450)
    QCOMPARE(b.totalComm, 150 * us); // [150,300)
    QCOMPARE(b.exposedComm, 100 * us); // [200,300): the part no compute covers
    QCOMPARE(b.totalMemcpy, 50 * us); // 30 + 20
    QCOMPARE(b.exposedMemcpy, 20 * us); // [250,280) lies under the comm kernel
    QCOMPARE(b.busy, 270 * us); // [100,300) + [320,340) + [400,450)
    QCOMPARE(b.total, 350 * us); // 100 .. 450
    QCOMPARE(b.idle, 80 * us); // 350 − 150 − 100 − 20
    QCOMPARE(b.idle, b.total - b.busy);
}

// compute [0,100), memcpy [10,30) under it, compute [200,250): a 100 µs gap.
void TestGpuTime::memcpyUnderComputeAndIdleGaps()
{
    auto t = test::link(trace(work("kernel", "a", 7, 0, 100, 1, 0)
        + work("gpu_memcpy", "Memcpy DtoD", 8, 10, 20, 2, 1)
        + work("kernel", "b", 7, 200, 50, 3, 2)));
    QVERIFY(t);
    const GpuTimeBreakdown b = gpuTimeBreakdown(*t->graph);
    QCOMPARE(b.computation, 150 * us);
    QCOMPARE(b.totalMemcpy, 20 * us);
    QCOMPARE(b.exposedMemcpy, TimeNs(0));
    QCOMPARE(b.totalComm, TimeNs(0));
    QCOMPARE(b.busy, 150 * us);
    QCOMPARE(b.total, 250 * us);
    QCOMPARE(b.idle, 100 * us);
}

// Step 1 [0,100) launches a kernel that runs [150,250), after the step ended; step 2 [100,200)
// launches one at [260,270) and an nccl kernel [265,300). A launch outside both steps (at 500)
// counts for the whole trace only. Step 1's GPU window runs to where step 2's work begins (260):
// 110 µs, 10 of them idle.
void TestGpuTime::perStepByLaunch()
{
    auto t = test::link(trace(step(1, 0, 100) + step(2, 100, 100)
        + work("kernel", "k1", 7, 150, 100, 1, 10) + work("kernel", "k2", 7, 260, 10, 2, 110)
        + work("kernel", "ncclKernel_Broadcast", 8, 265, 35, 3, 120)
        + work("kernel", "late", 7, 600, 10, 4, 500)));
    QVERIFY(t);
    const std::vector<StepGpuTime> steps = gpuTimePerStep(*t->graph);
    QCOMPARE(steps.size(), size_t(2));
    QCOMPARE(steps[0].step, int64_t(1));
    QCOMPARE(steps[0].time.events, uint64_t(1));
    QCOMPARE(steps[0].time.computation, 100 * us);
    QCOMPARE(steps[0].time.total, 110 * us);
    QCOMPARE(steps[0].time.idle, 10 * us);
    QCOMPARE(steps[1].time.events, uint64_t(2));
    QCOMPARE(steps[1].time.computation, 10 * us);
    QCOMPARE(steps[1].time.exposedComm, 30 * us); // [270,300)
    QCOMPARE(steps[1].time.total, 40 * us); // 260 .. 300
    QCOMPARE(steps[1].time.idle, TimeNs(0));
    QCOMPARE(gpuTimeBreakdown(*t->graph).events, uint64_t(4));
    QCOMPARE(gpuTimeBreakdown(*t->graph).total, 460 * us); // 150 .. 610
}

// The GPU lags: step 1 [0,100) launches k1 [150,400), step 2 [100,200) k2 [300,350), step 3
// [200,300) nothing. Step 1's window ends where step 2's work begins: [150,300), all busy; step
// 2's [300,350), all busy (k1 and k2); step 3 has none, its cells empty. The windows' 200 µs lie
// within the GPU's span [150,400), their idle (0) within it too — measured on the steps' own
// spans they overlapped (250 + 50 µs of 250).
void TestGpuTime::laggingGpuStepsPartitionTheTimeline()
{
    auto t = test::link(trace(step(1, 0, 100) + step(2, 100, 100) + step(3, 200, 100)
        + work("kernel", "k1", 7, 150, 250, 1, 10) + work("kernel", "k2", 8, 300, 50, 2, 110)));
    QVERIFY(t);
    const std::vector<StepGpuTime> tl = gpuTimePerStep(*t->graph);
    QCOMPARE(tl[0].time.total, 150 * us);
    QCOMPARE(tl[0].time.busy, 150 * us);
    QCOMPARE(tl[1].time.total, 50 * us);
    QCOMPARE(tl[1].time.busy, 50 * us);
    QCOMPARE(tl[1].time.idle, TimeNs(0));
    QCOMPARE(tl[2].time.events, uint64_t(0));
    const std::vector<StepBreakdown> steps = stepBreakdown(*t->graph);
    QCOMPARE(steps[0].gpuStart - t->model->minTime, 150 * us);
    QCOMPARE(steps[0].gpuEnd - t->model->minTime, 300 * us);
    QCOMPARE(steps[1].busy, 50 * us);
    QCOMPARE(steps[1].idle(), TimeNs(0));
    const CellTable table = stepTable(steps);
    QCOMPARE(table.text(2, table.columnIndex("busy_us")), std::string());
    QCOMPARE(table.text(2, table.columnIndex("idle_us")), std::string());
    QCOMPARE(table.text(1, table.columnIndex("busy_us")), std::string("50.000"));
}

void TestGpuTime::emptyTrace()
{
    auto t = test::link(trace(step(1, 0, 100)));
    QVERIFY(t);
    const GpuTimeBreakdown b = gpuTimeBreakdown(*t->graph);
    QCOMPARE(b.events, uint64_t(0));
    QCOMPARE(b.total, TimeNs(0));
    QCOMPARE(b.idle, TimeNs(0));
    QCOMPARE(gpuTimePerStep(*t->graph).at(0).time.busy, TimeNs(0));
}

void TestGpuTime::summaryObject()
{
    auto t = test::link(overlapTrace());
    QVERIFY(t);
    const QJsonObject summary
        = QJsonDocument::fromJson(QByteArray::fromStdString(summaryJson(*t->model, *t->graph, 0)))
              .object();
    const QJsonObject g = summary.value(QStringLiteral("gpu_time")).toObject();
    QCOMPARE(g.size(), 8);
    QCOMPARE(g.value(QStringLiteral("computation_us")).toDouble(), 150.0);
    QCOMPARE(g.value(QStringLiteral("exposed_comm_us")).toDouble(), 100.0);
    QCOMPARE(g.value(QStringLiteral("exposed_memcpy_us")).toDouble(), 20.0);
    QCOMPARE(g.value(QStringLiteral("busy_us")).toDouble(), 270.0);
    QCOMPARE(g.value(QStringLiteral("idle_us")).toDouble(), 80.0);
    QCOMPARE(g.value(QStringLiteral("total_us")).toDouble(), 350.0);
    QCOMPARE(g.value(QStringLiteral("total_comm_us")).toDouble(), 150.0);
    QCOMPARE(g.value(QStringLiteral("total_memcpy_us")).toDouble(), 50.0);
}

void TestGpuTime::sharedTracesAgreeWithReference_data()
{
    QTest::addColumn<QString>("path");
    const QStringList traces = test::sharedTraces();
    if (traces.isEmpty())
        QSKIP("../shared/traces is absent (a user's clone has none): real traces not checked");
    for (const QString &path : traces)
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void TestGpuTime::sharedTracesAgreeWithReference()
{
    QFETCH(QString, path);
    const QJsonObject ref = test::referenceJson(QStringLiteral("gputime_reference.py"), path);
    QVERIFY2(!ref.isEmpty(), "gputime_reference.py must run (python3 needed)");
    const OpenResult opened = openTrace(path.toStdString());
    QVERIFY(opened.trace);
    const OpGraph &graph = *opened.trace->graph;
    auto same = [](const GpuTimeBreakdown &ours, const QJsonObject &theirs) -> QString {
        for (const auto &[name, ns] : gpuTimeFields(ours)) {
            const QString key
                = QString::fromLatin1(name.data(), name.size()).chopped(3) + QStringLiteral("_ns");
            if (theirs.value(key).toInteger(-1) != ns)
                return key
                    + QStringLiteral(": ours %1, reference %2")
                          .arg(ns)
                          .arg(theirs.value(key).toInteger(-1));
        }
        return QString();
    };
    QCOMPARE(
        int64_t(gpuTimeBreakdown(graph).events), ref.value(QStringLiteral("events")).toInteger());
    QCOMPARE(
        same(gpuTimeBreakdown(graph), ref.value(QStringLiteral("gpu_time")).toObject()), QString());
    const QJsonObject steps = ref.value(QStringLiteral("steps")).toObject();
    const auto ours = gpuTimePerStep(graph);
    QCOMPARE(qsizetype(ours.size()), steps.size());
    for (const StepGpuTime &s : ours)
        QCOMPARE(same(s.time, steps.value(QString::number(s.step)).toObject()), QString());
}

/*
 * The timeline's range statistics (µs): thread 1 runs aten::mm [0, 100] (launching gemm) and
 * aten::add [200, 300] (launching the all-reduce and the memcpy); stream 7 gemm [50, 250],
 * stream 8 ncclKernel_AllReduce [150, 400], stream 9 a memcpy [380, 450]. Over [100, 500):
 * thread 1 is busy 100 (aten::mm ends where the range starts), streams 150, 250 and 70; the GPU
 * sweep gives forward (an op's work on a trace without sequence numbers, docs/linking.md)
 * 50 + 100, communication 130 + 20,
 * memcpy 50, so busy 350 and idle 400 − 350 = 50.
 */
void TestGpuTime::rangeStatisticsClipToTheRange()
{
    std::string e;
    e += R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":100},)";
    e += R"({"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":200,"dur":100},)";
    e += work("kernel", "gemm", 7, 50, 200, 1, 10);
    e += work("kernel", "ncclKernel_AllReduce", 8, 150, 250, 2, 210);
    e += work("gpu_memcpy", "Memcpy HtoD", 9, 380, 70, 3, 220);
    const auto t = test::link(trace(e));
    QVERIFY(t);
    const RangeStats r
        = rangeStats(*t->graph, t->model->minTime + 100 * us, t->model->minTime + 500 * us);
    std::map<std::string, TimeNs> lanes;
    for (const RangeStats::LaneBusy &b : r.lanes)
        lanes[laneName(*t->model, b.lane)] = b.busy;
    QCOMPARE(lanes.size(), size_t(4));
    QCOMPARE(lanes["thread 1"], 100 * us);
    QCOMPARE(lanes["GPU 0 · stream 7"], 150 * us);
    QCOMPARE(lanes["GPU 0 · stream 8"], 250 * us);
    QCOMPARE(lanes["GPU 0 · stream 9"], 70 * us);
    QVERIFY(r.gpu);
    QCOMPARE(r.gpuPart(WorkPart::Forward), 150 * us);
    QCOMPARE(r.gpuPart(WorkPart::Communication), 150 * us);
    QCOMPARE(r.gpuPart(WorkPart::Memcpy), 50 * us);
    QCOMPARE(r.gpuBusy, 350 * us);
    QCOMPARE(r.gpuIdle(), 50 * us);
    QCOMPARE(r.kernels.size(), size_t(3));
    QCOMPARE(std::string(r.kernels[0].name), std::string("ncclKernel_AllReduce"));
    QCOMPARE(r.kernels[0].time, 250 * us);
    QCOMPARE(std::string(r.kernels[2].name), std::string("Memcpy HtoD"));
    QCOMPARE(r.kernels[2].time, 70 * us);
    QCOMPARE(r.ops.size(), size_t(1));
    QCOMPARE(std::string(r.ops[0].name), std::string("aten::add"));
    QCOMPARE(r.ops[0].time, 100 * us);
    // The text says the same.
    const std::string text = rangeStatsText(*t->model, r);
    QVERIFY(text.find("communication\t150.0 µs\t37.5 %") != std::string::npos);
    QVERIFY(text.find("idle\t50.00 µs\t12.5 %") != std::string::npos);
    QVERIFY(text.find("aten::add\t100.0 µs\t×1") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestGpuTime)
#include "tst_gputime.moc"
