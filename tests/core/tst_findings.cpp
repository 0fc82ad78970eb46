// SPDX-License-Identifier: MIT
// Issue #58: each rule of the findings fires on a hand-built step where its cause is on the
// critical path, with the saving worked out by hand, and stays silent on the same step with the
// cause removed; each saving is the what-if the finding names, recomputed.
#include "analysis/findings/findings.h"
#include "export/findingsjson.h"
#include "memorytrace.h"
#include "runbuilder.h"
#include "testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace ks;

namespace {

using test::completeEvent;

//! A GPU event on device 0's stream \a stream, launched by correlation \a corr.
std::string gpuEvent(
    const std::string &cat, const std::string &name, int stream, int ts, int dur, int corr)
{
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":0,"tid":)"
        + std::to_string(stream) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)"
        + std::to_string(dur) + R"(,"args":{"device":0,"stream":)" + std::to_string(stream)
        + R"(,"correlation":)" + std::to_string(corr) + "}},";
}

std::string launch(int ts, int corr, const char *name = "cudaLaunchKernel")
{
    std::string args = R"("correlation":)";
    args += std::to_string(corr);
    return completeEvent("cuda_runtime", name, 1, ts, 5, args);
}

//! \a events (each ending in a comma) as a trace of \a device, of \a memory bytes if given.
std::string traceOf(
    std::string events, const char *device = "NVIDIA A100-SXM4-40GB", long long memory = 0)
{
    events.pop_back();
    std::string head = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": ")";
    head += device;
    head += '"';
    if (memory > 0)
        head += R"(, "totalGlobalMem": )" + std::to_string(memory);
    return head + R"(}], "traceEvents": [)" + events + "]}";
}

struct Found {
    std::shared_ptr<const LoadedTrace> trace;
    std::unique_ptr<CriticalPathAnalysis> path;
    std::vector<StepFinding> findings;

    const StepFinding *rule(std::string_view name) const
    {
        for (const StepFinding &f : findings)
            if (f.rule == name)
                return &f;
        return nullptr;
    }
};

Found find(const std::string &json)
{
    Found f;
    f.trace = test::link(json);
    if (!f.trace)
        return f;
    f.path = std::make_unique<CriticalPathAnalysis>(*f.trace->graph);
    f.findings = findStepFindings(*f.path, {&f.trace->efficiency(), &f.trace->memory()});
    return f;
}

/*
 * ProfilerStep#1 [0, 50]: a copy launched at 10 runs on stream 7 [20, 220] (200 µs), then the
 * kernel k launched at 20 runs after it [220, 320]. The window ends with k at 320. At half its
 * time the copy ends at 120, k at 220: 100 µs saved.
 */
std::string copyThenKernel(const char *copy)
{
    return traceOf(completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 50)
        + launch(10, 1, "cudaMemcpyAsync") + launch(20, 2)
        + gpuEvent("gpu_memcpy", copy, 7, 20, 200, 1) + gpuEvent("kernel", "k", 7, 220, 100, 2));
}

/*
 * ProfilerStep#1 [0, 50]: an all-reduce launched at 20 runs on stream 20 [30, 230]; k launched
 * at 25 runs on stream 7 [30, 30 + kDur]. With k of 100 µs the all-reduce ends the window at 230;
 * at no time, k does at 130: 100 µs saved. With k of 300 µs it hides the all-reduce.
 */
std::string allReduceBeside(int kDur)
{
    return traceOf(completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 50) + launch(20, 1)
        + launch(25, 2)
        + gpuEvent("kernel", "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", 20, 30, 200, 1)
        + gpuEvent("kernel", "k", 7, 30, kDur, 2));
}

/*
 * ProfilerStep#1 [0, 236]: k launched at 10 runs [20, 220]; cudaStreamSynchronize [16, 221]
 * waits for it; k2 launched at 230 runs [240, 260], ending the window. Without the wait k2
 * launches at 25 and runs right after k, [220, 240]: 20 µs saved.
 */
std::string syncBetweenKernels(bool sync)
{
    return traceOf(completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 236) + launch(10, 1)
        + (sync ? completeEvent("cuda_runtime", "cudaStreamSynchronize", 1, 16, 205) : "")
        + launch(230, 2) + gpuEvent("kernel", "k", 7, 20, 200, 1)
        + gpuEvent("kernel", "k2", 7, 240, 20, 2));
}

/*
 * ProfilerStep#1 [0, 50]: an fp32 SIMT GEMM launched at 10 runs [20, 820]. On an A100
 * (vector_fp32 19.5, matrix_tf32 156 TFLOP/s) at 19.5 / 156 = 0.125 of its time it ends at 120:
 * the window is 120 µs, 700 µs saved. A V100 has no TF32: nothing to say.
 */
std::string sgemm(const char *device)
{
    return traceOf(completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 50) + launch(10, 1)
            + gpuEvent("kernel", "ampere_sgemm_128x64_nn", 7, 20, 800, 1),
        device);
}

/*
 * ProfilerStep#1 [0, 231]: with \a loading, the DataLoader's next batch [5, 205]; k launched at
 * 210 runs [220, 320], ending the window. With the batch ready at once everything after it runs
 * 200 µs sooner: k [20, 120], the step's end 31: 200 µs saved.
 */
std::string loadThenKernel(bool loading)
{
    return traceOf(completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 231)
        + (loading ? completeEvent("user_annotation",
               "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1, 5, 200)
                   : "")
        + launch(210, 1) + gpuEvent("kernel", "k", 7, 220, 100, 1));
}

/*
 * ProfilerStep#1 [0, 100]: four cudaLaunchKernel of 20 µs back to back from 10; each kernel
 * starts 2 µs after its launch returns (32, 52, 72, 92), \a kernelUs long. With 2 µs kernels
 * the GPU idles between them: launches 80 µs, kernels 8. As a CUDA graph would run them, the
 * launches take no time (all four start at 10) and the kernels run back to back from there, no
 * launch delay and no gap between them: [10, 12], [12, 14], [14, 16], [16, 18]; the step's 6 µs
 * after its last kernel stay: 100 − 24 = 76 µs saved, the 22 µs of k0's launch delay and the
 * 18 µs before each other kernel that the path waited on. With 30 µs
 * kernels the GPU is the slower: nothing to say.
 */
std::string launches(int kernelUs)
{
    std::string events = completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 100);
    int gpuFree = 0;
    for (int i = 0; i < 4; ++i) {
        const int at = 10 + 20 * i;
        std::string correlation = "\"correlation\":";
        correlation += std::to_string(i + 1);
        events += completeEvent("cuda_runtime", "cudaLaunchKernel", 1, at, 20, correlation);
        const int start = std::max(at + 22, gpuFree);
        std::string kernel = "k";
        kernel += std::to_string(i);
        events += gpuEvent("kernel", kernel, 7, start, kernelUs, i + 1);
        gpuFree = start + kernelUs;
    }
    return traceOf(events);
}

/*
 * Activation checkpointing on a 1 MB GPU: the forward aten::mm [10, 30] (k_fwd [20, 30]); in
 * the backward node MmBackward0 [101, 299] on the autograd thread, the recomputed aten::mm
 * [110, 210] (its launch at 120, k_re [130, 330], 200 µs) and the backward's op [250, 260] (its
 * launch at 252, k_bwd after k_re, [330, 430]), ending the window. With no recompute the
 * recomputed op is cut out of its thread (it ends where it began, at 110) and k_re takes no
 * time: the backward op begins 40 µs later, at 150, its launch at 152, and k_bwd, which may start
 * when its launch does (HTA's launch edge), runs [152, 252]: 430 − 252 = 178 µs saved.
 * \a reserved: the allocator's peak.
 */
std::string checkpointed(long long allocated, long long reserved)
{
    const std::string fwd = R"("Sequence number":10,"Fwd thread id":0)";
    const std::string node = R"("Sequence number":10,"Fwd thread id":1)";
    return traceOf(completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 300)
            + completeEvent("cpu_op", "aten::mm", 1, 10, 20, fwd) + launch(12, 1)
            + completeEvent(
                "cpu_op", "autograd::engine::evaluate_function: MmBackward0", 2, 100, 200, node)
            + completeEvent("cpu_op", "MmBackward0", 2, 101, 198, node)
            + completeEvent(
                "cpu_op", "aten::mm", 2, 110, 100, R"("Sequence number":0,"Fwd thread id":0)")
            + completeEvent("cuda_runtime", "cudaLaunchKernel", 2, 120, 5, R"("correlation":2)")
            + completeEvent("cpu_op", "aten::mm_backward", 2, 250, 10)
            + completeEvent("cuda_runtime", "cudaLaunchKernel", 2, 252, 5, R"("correlation":3)")
            + gpuEvent("kernel", "k_fwd", 7, 20, 10, 1) + gpuEvent("kernel", "k_re", 7, 130, 200, 2)
            + gpuEvent("kernel", "k_bwd", 7, 330, 100, 3)
            + test::memory(1, 5, 1, 0, 4096, allocated, allocated, reserved),
        "NVIDIA A100-SXM4-40GB", 1'000'000);
}

} // namespace

class TestFindings : public QObject {
    Q_OBJECT

private slots:
    void pageableCopyAtHalfItsTime()
    {
        const Found pageable = find(copyThenKernel("Memcpy HtoD (Pageable -> Device)"));
        QVERIFY(pageable.trace);
        QCOMPARE(pageable.path->path().length, TimeNs(320'000));
        const StepFinding *f = pageable.rule("pageable_copy");
        QVERIFY(f);
        QCOMPARE(f->saving, std::optional<TimeNs>(100'000));
        QCOMPARE(f->how, std::string("Memcpy HtoD (Pageable -> Device):0.5"));
        QCOMPARE(pageable.path->lengthIf("Memcpy HtoD (Pageable -> Device)", 0.5), TimeNs(220'000));
        QCOMPARE(f->evidence.size(), size_t(1));
        const Found pinned = find(copyThenKernel("Memcpy HtoD (Pinned -> Device)"));
        QVERIFY(pinned.trace);
        QVERIFY(!pinned.rule("pageable_copy"));
    }

    void exposedCommunicationAtNoTime()
    {
        const Found exposed = find(allReduceBeside(100));
        QVERIFY(exposed.trace);
        QCOMPARE(exposed.path->path().length, TimeNs(230'000));
        const StepFinding *f = exposed.rule("exposed_communication");
        QVERIFY(f);
        QCOMPARE(f->saving, std::optional<TimeNs>(100'000));
        QCOMPARE(f->how, std::string("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem):0"));
        const Found hidden = find(allReduceBeside(300));
        QVERIFY(hidden.trace);
        QVERIFY(!hidden.rule("exposed_communication"));
    }

    void hostSyncWithoutItsWait()
    {
        const Found synced = find(syncBetweenKernels(true));
        QVERIFY(synced.trace);
        QCOMPARE(synced.path->path().length, TimeNs(260'000));
        const StepFinding *f = synced.rule("host_sync");
        QVERIFY(f);
        QCOMPARE(f->saving, std::optional<TimeNs>(20'000));
        QCOMPARE(f->how, std::string("no wait: cudaStreamSynchronize"));
        QVERIFY2(f->title.starts_with("cudaStreamSynchronize"), f->title.c_str());
        const Found free = find(syncBetweenKernels(false));
        QVERIFY(free.trace);
        QVERIFY(!free.rule("host_sync"));
    }

    /*
     * ProfilerStep#1 [0, 231]: k launched at 10 runs [20, 120]; cudaFree [20, 220] holds the host;
     * k2 launched at 225 runs [235, 255], ending the window. With the free at no time k2 launches
     * at 25 and runs right after k, [120, 140]: 115 µs saved. Without the free: nothing to say.
     */
    void deviceFreeAtNoTime()
    {
        auto trace = [](bool free) {
            return traceOf(completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 231)
                + launch(10, 1)
                + (free ? completeEvent("cuda_runtime", "cudaFree", 1, 20, 200) : "")
                + launch(225, 2) + gpuEvent("kernel", "k", 7, 20, 100, 1)
                + gpuEvent("kernel", "k2", 7, 235, 20, 2));
        };
        const Found freed = find(trace(true));
        QVERIFY(freed.trace);
        QCOMPARE(freed.path->path().length, TimeNs(255'000));
        const StepFinding *f = freed.rule("device_free");
        QVERIFY(f);
        QCOMPARE(f->saving, std::optional<TimeNs>(115'000));
        QCOMPARE(f->how, std::string("no time: cudaFree"));
        const Found kept = find(trace(false));
        QVERIFY(kept.trace);
        QVERIFY(!kept.rule("device_free"));
    }

    void fp32GemmOnTensorCores()
    {
        const Found a100 = find(sgemm("NVIDIA A100-SXM4-40GB"));
        QVERIFY(a100.trace);
        QCOMPARE(a100.path->path().length, TimeNs(820'000));
        const StepFinding *f = a100.rule("fp32_gemm");
        QVERIFY(f);
        QCOMPARE(f->saving, std::optional<TimeNs>(700'000));
        QCOMPARE(f->how, std::string("ampere_sgemm_128x64_nn:0.125"));
        const Found v100 = find(sgemm("Tesla V100-SXM2-16GB"));
        QVERIFY(v100.trace);
        QVERIFY(!v100.rule("fp32_gemm"));
    }

    /*
     * aten::mm of two fp32 1024 × 1024 matrices on an A100: 2 · 1024³ FLOP at matrix_fp32's
     * 19.5 TFLOP/s need 110.127 µs (its 12 MiB at 1555 GB/s, 8.09 µs); its kernel takes
     * 1000 µs [20, 1020], 11.0 % of that. At half its roofline it takes 220.255 µs (factor
     * 0.220255 as --what-if reads it): the window ends at 240.255, 779.745 µs saved. At 150 µs
     * it reaches 73 %: nothing to say.
     */
    void opBelowItsRoofline()
    {
        auto mmTrace = [](int kernelUs) {
            return traceOf(completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 50)
                + completeEvent("cpu_op", "aten::mm", 1, 10, 10,
                    R"("Input Dims":[[1024,1024],[1024,1024]],"Input type":["float","float"])")
                + launch(12, 1) + gpuEvent("kernel", "k_mm", 7, 20, kernelUs, 1));
        };
        const Found slow = find(mmTrace(1000));
        QVERIFY(slow.trace);
        const StepFinding *f = slow.rule("below_roofline");
        QVERIFY(f);
        QCOMPARE(f->how, std::string("aten::mm:0.220255"));
        QCOMPARE(f->saving, std::optional<TimeNs>(779'745));
        QVERIFY2(f->title.find("11.0 % of its roofline") != std::string::npos, f->title.c_str());
        QVERIFY(!slow.rule("fp32_gemm")); // not an sgemm kernel
        const Found fast = find(mmTrace(150));
        QVERIFY(fast.trace);
        QVERIFY(!fast.rule("below_roofline"));
    }

    // 2 MB reserved for 1000 B allocated: told, with no saving, after those with one.
    void fragmentationHasNoSavingAndRanksLast()
    {
        const std::string step = completeEvent("user_annotation", "ProfilerStep#1", 1, 0, 50);
        auto withMemory = [&](long long reserved) {
            return step + launch(10, 1, "cudaMemcpyAsync")
                + gpuEvent("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 7, 20, 200, 1)
                + launch(20, 2) + gpuEvent("kernel", "k", 7, 220, 100, 2)
                + test::memory(1, 5, 1, 0, 4096, 1000, 1000, reserved);
        };
        const Found fragmented = find(traceOf(withMemory(2'000'000)));
        QVERIFY(fragmented.trace);
        QCOMPARE(fragmented.findings.size(), size_t(2));
        QCOMPARE(fragmented.findings[0].rule, std::string("pageable_copy"));
        QCOMPARE(fragmented.findings[1].rule, std::string("memory_fragmentation"));
        QVERIFY(!fragmented.findings[1].saving);
        const Found tight = find(traceOf(withMemory(1250)));
        QVERIFY(tight.trace);
        QVERIFY(!tight.rule("memory_fragmentation"));
    }

    void dataLoadingAtNoTime()
    {
        const Found loading = find(loadThenKernel(true));
        QVERIFY(loading.trace);
        QCOMPARE(loading.path->path().length, TimeNs(320'000));
        const StepFinding *f = loading.rule("data_loading");
        QVERIFY(f);
        QCOMPARE(f->saving, std::optional<TimeNs>(200'000));
        QCOMPARE(f->how,
            std::string("no time: enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
        const Found ready = find(loadThenKernel(false));
        QVERIFY(ready.trace);
        QVERIFY(!ready.rule("data_loading"));
    }

    void launchBoundKernelsLaunchedAtNoTime()
    {
        const Found bound = find(launches(2));
        QVERIFY(bound.trace);
        QCOMPARE(bound.path->path().length, TimeNs(100'000));
        const StepFinding *f = bound.rule("launch_bound");
        QVERIFY(f);
        QCOMPARE(f->saving, std::optional<TimeNs>(76'000));
        QCOMPARE(f->how, std::string("no launch: cudaLaunchKernel"));
        QVERIFY2(f->title.find("4 cudaLaunchKernel calls take 80.000 µs, their kernels 8.000 µs "
                               "(76.000 µs of the path")
                != std::string::npos,
            f->title.c_str());
        const Found gpuBound = find(launches(30));
        QVERIFY(gpuBound.trace);
        QVERIFY(!gpuBound.rule("launch_bound"));
    }

    // 2 000 B allocated of 1 MB: room to keep activations; 960 000 reserved: none (within 5 %).
    void recomputeAgainstTheMemoryLeft()
    {
        const Found roomy = find(checkpointed(2000, 2048));
        QVERIFY(roomy.trace);
        QCOMPARE(roomy.path->path().length, TimeNs(430'000));
        const StepFinding *f = roomy.rule("recompute");
        QVERIFY(f);
        QCOMPARE(f->saving, std::optional<TimeNs>(178'000));
        QCOMPARE(f->how, std::string("no recompute"));
        // k_re of the step's 310 µs of kernels (10 + 200 + 100).
        QVERIFY2(
            f->title.find("(its GPU work 200.000 µs, 64.5 % of the step's)") != std::string::npos,
            f->title.c_str());
        QVERIFY2(f->title.find("cuda:0 peaks at") != std::string::npos, f->title.c_str());
        QVERIFY(!roomy.rule("memory_near_limit"));
        const Found full = find(checkpointed(950'000, 960'000));
        QVERIFY(full.trace);
        QVERIFY(!full.rule("recompute"));
        const StepFinding *limit = full.rule("memory_near_limit");
        QVERIFY(limit);
        QVERIFY(!limit->saving);
        QVERIFY2(limit->title.find("96.0 %") != std::string::npos, limit->title.c_str());
    }

    /*
     * Three ranks (as tst_stepmodel's late start): ranks 0 and 2 begin ProfilerStep#1 at 0 and
     * launch an all-reduce at 95 that runs [100, 450]; rank 1 begins at 300 and arrives at 400,
     * the collectives table's last arriver. On time, rank 1 arrives at 100 and the all-reduce
     * ends at 150 everywhere: 300 µs saved. With rank 1 on time nothing is told.
     */
    void lateRankOnTime()
    {
        using test::RankBuilder;
        auto runWith = [](int64_t rank1Start) {
            RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
            r0.step(1, 0, 110).cpuOp("work", 10, 50).comm(100, 350);
            r1.step(1, rank1Start, 110)
                .cpuOp("work", rank1Start + 10, 50)
                .comm(rank1Start + 100, 450 - rank1Start - 100);
            r2.step(1, 0, 110).cpuOp("work", 10, 50).comm(100, 350);
            return test::runOf({&r0, &r1, &r2});
        };
        const auto late = runWith(300);
        QVERIFY(late);
        QCOMPARE(late->criticalPath()->path().length, TimeNs(450'000));
        QCOMPARE(late->collectives.collectives.at(0).lastRankIndex, 1u);
        const std::vector<StepFinding> &found = late->stepFindings();
        const auto f = std::find_if(
            found.begin(), found.end(), [](const StepFinding &s) { return s.rule == "late_rank"; });
        QVERIFY(f != found.end());
        QCOMPARE(f->saving, std::optional<TimeNs>(300'000));
        QCOMPARE(f->how, std::string("on time: rank 1"));
        QVERIFY2(
            f->title.starts_with("rank 1 began ProfilerStep#1 300.000 µs after"), f->title.c_str());
        QVERIFY2(f->title.find("at collective 0 (ncclKernel_AllReduce_RING_LL_Sum_float), where it "
                               "arrives last, 300.000 µs after the first rank")
                != std::string::npos,
            f->title.c_str());
        const auto onTime = runWith(0);
        QVERIFY(onTime);
        for (const StepFinding &s : onTime->stepFindings())
            QVERIFY2(s.rule != "late_rank" && s.rule != "straggler", s.title.c_str());
    }

    // Rank 1 begins on time but works until 390: the last arriver, told without a saving.
    void stragglerNamesTheLastArriver()
    {
        using test::RankBuilder;
        RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
        r0.step(1, 0, 110).cpuOp("work", 10, 50).comm(100, 350);
        r1.step(1, 0, 410).cpuOp("slow_op", 10, 380).comm(400, 50);
        r2.step(1, 0, 110).cpuOp("work", 10, 50).comm(100, 350);
        const auto run = test::runOf({&r0, &r1, &r2});
        QVERIFY(run);
        QCOMPARE(run->collectives.collectives.at(0).lastRankIndex, 1u);
        const std::vector<StepFinding> &found = run->stepFindings();
        const auto f = std::find_if(
            found.begin(), found.end(), [](const StepFinding &s) { return s.rule == "straggler"; });
        QVERIFY(f != found.end());
        QVERIFY(!f->saving);
        QVERIFY2(f->title.starts_with("rank 1 arrives last at 1 collective"), f->title.c_str());
        QCOMPARE(f->evidence.size(), size_t(1));
        QCOMPARE(f->evidence[0].rank, 1u);
        QVERIFY(std::none_of(found.begin(), found.end(),
            [](const StepFinding &s) { return s.rule == "late_rank"; }));
    }

    // The JSON document: ranked, saving_pct of the path, evidence on the file's clock.
    void jsonNamesTheEvidence()
    {
        const Found found = find(copyThenKernel("Memcpy HtoD (Pageable -> Device)"));
        QVERIFY(found.trace);
        const std::string json = findingsDocument(*found.path, found.findings);
        QJsonParseError error;
        const QJsonObject doc
            = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(doc.value(QStringLiteral("step")).toInt(), 1);
        QCOMPARE(doc.value(QStringLiteral("path_us")).toDouble(), 320.0);
        const QJsonObject first = doc.value(QStringLiteral("findings")).toArray().at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("saving_us")).toDouble(), 100.0);
        QCOMPARE(first.value(QStringLiteral("saving_pct")).toDouble(), 31.25); // 100 / 320
        const QJsonObject e = first.value(QStringLiteral("evidence")).toArray().at(0).toObject();
        QCOMPARE(e.value(QStringLiteral("name")).toString(),
            QStringLiteral("Memcpy HtoD (Pageable -> Device)"));
        QCOMPARE(e.value(QStringLiteral("ts_us")).toDouble(), 20.0);
        QCOMPARE(e.value(QStringLiteral("dur_us")).toDouble(), 200.0);
        QVERIFY(first.value(QStringLiteral("doc"))
                    .toString()
                    .startsWith(QStringLiteral("https://pytorch.org/")));
    }
};

QTEST_MAIN(TestFindings)
#include "tst_findings.moc"
