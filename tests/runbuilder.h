// SPDX-License-Identifier: MIT
#pragma once
// Inline traces of the ranks of one run, for the run's core and view tests.

#include "session/run.h"
#include "testutil.h"

#include <string>
#include <vector>

namespace ks::test {

//! Where the run's absolute clock starts, µs since the epoch (2023-11).
inline constexpr int64_t kEpochUs = 1700000000000000;

/*!
 * One rank's trace. Times given to the builders are µs from kEpochUs; the rank writes them
 * either as absolute epoch µs (older traces) or relative to a baseTimeNanoseconds that lies
 * \a baseBeforeUs before kEpochUs (2024+ traces).
 */
class RankBuilder {
public:
    RankBuilder(int rank, int worldSize, int64_t baseBeforeUs = -1)
        : m_rank(rank)
        , m_worldSize(worldSize)
        , m_baseBeforeUs(baseBeforeUs)
    {
    }

    RankBuilder &step(int n, int64_t t, int64_t dur)
    {
        return slice("user_annotation", "ProfilerStep#" + std::to_string(n), 1, t, dur, {});
    }
    //! A communication kernel on stream 20, launched 5 µs before it starts (on thread 1); \a more:
    //! further args.
    RankBuilder &comm(int64_t t,
        int64_t dur,
        const std::string &pg = {},
        const std::string &name = "ncclKernel_AllReduce_RING_LL_Sum_float",
        const std::string &more = {})
    {
        launch(1, t - 5);
        std::string args = R"("stream":20,"correlation":)" + std::to_string(m_correlation);
        if (!pg.empty())
            args += R"(,"Collective name":"allreduce","Process Group Name":")" + pg + "\"";
        if (!more.empty())
            args += "," + more;
        return slice("kernel", name, 20, t, dur, args, 0);
    }
    //! A forward op with sequence number \a seq on thread 1 and its backward node on thread 2,
    //! each launching one kernel of the given durations.
    RankBuilder &pair(const std::string &op,
        const std::string &node,
        int seq,
        int64_t t,
        int64_t fwdGpu,
        int64_t bwdGpu)
    {
        slice("cpu_op", op, 1, t, 20,
            R"("Sequence number":)" + std::to_string(seq) + R"(,"Fwd thread id":0)");
        launch(1, t + 5);
        slice("kernel", "fwd_" + op, 7, t + 10, fwdGpu,
            R"("stream":7,"correlation":)" + std::to_string(m_correlation), 0);
        slice("cpu_op", node, 2, t + 200, 20,
            R"("Sequence number":)" + std::to_string(seq) + R"(,"Fwd thread id":1)");
        launch(2, t + 205);
        return slice("kernel", "bwd_" + node, 7, t + 210, bwdGpu,
            R"("stream":7,"correlation":)" + std::to_string(m_correlation), 0);
    }

    //! A record_function scope on thread 1 (a node of the module tree around what it holds).
    RankBuilder &scope(const std::string &name, int64_t t, int64_t dur)
    {
        return slice("user_annotation", name, 1, t, dur, {});
    }

    //! A top-level CPU op on thread 1 that launches nothing.
    RankBuilder &cpuOp(const std::string &name, int64_t t, int64_t dur)
    {
        return slice("cpu_op", name, 1, t, dur, {});
    }

    //! A backward node whose forward op is not in the trace (the profile began after it).
    RankBuilder &lonelyNode(const std::string &node, int seq, int64_t t, int64_t bwdGpu)
    {
        slice("cpu_op", node, 2, t, 20,
            R"("Sequence number":)" + std::to_string(seq) + R"(,"Fwd thread id":1)");
        launch(2, t + 5);
        return slice("kernel", "bwd_" + node, 7, t + 10, bwdGpu,
            R"("stream":7,"correlation":)" + std::to_string(m_correlation), 0);
    }

    std::string json() const
    {
        std::string out = R"({"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":)"
            + std::to_string(m_rank) + R"(,"world_size":)" + std::to_string(m_worldSize) + "},";
        if (m_baseBeforeUs >= 0)
            out += R"("baseTimeNanoseconds":)" + std::to_string((kEpochUs - m_baseBeforeUs) * 1000)
                + ",";
        return out + R"("traceEvents":[)" + m_events
            + R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}}]})";
    }

    //! Its trace with every kernel written last and the file cut at the first: a rank read in
    //! part whose GPU work is missing (the profiler writes GPU events after the host's).
    std::string jsonCutBeforeGpu() const
    {
        std::string host, gpu;
        for (size_t at = 0; at < m_events.size();) {
            const size_t end = m_events.find('\n', at) + 1; // one event a line
            const std::string line = m_events.substr(at, end - at);
            (line.find(R"("cat":"kernel")") != std::string::npos ? gpu : host) += line;
            at = end;
        }
        RankBuilder cut = *this;
        cut.m_events = host + gpu;
        const std::string whole = cut.json();
        return whole.substr(0, whole.find(R"("cat":"kernel")"));
    }

private:
    void launch(int tid, int64_t t)
    {
        slice("cuda_runtime", "cudaLaunchKernel", tid, t, 2,
            R"("correlation":)" + std::to_string(++m_correlation));
    }
    RankBuilder &slice(const std::string &cat,
        const std::string &name,
        int tid,
        int64_t t,
        int64_t dur,
        const std::string &args,
        int pid = 1)
    {
        const int64_t written = m_baseBeforeUs >= 0 ? t + m_baseBeforeUs : kEpochUs + t;
        m_events += R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)"
            + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)"
            + std::to_string(written) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args
            + "}},\n";
        return *this;
    }

    int m_rank;
    int m_worldSize;
    int64_t m_baseBeforeUs;
    int m_correlation = 0;
    std::string m_events;
};

//! The ranks' traces loaded, linked and assembled as a run (null when one does not load).
inline std::shared_ptr<const Run> runOfTexts(const std::vector<std::string> &texts)
{
    std::vector<std::shared_ptr<const LoadedTrace>> traces;
    for (const std::string &text : texts) {
        auto t = link(text);
        if (!t)
            return nullptr;
        traces.push_back(t);
    }
    return assembleRun(std::move(traces), {});
}

inline std::shared_ptr<const Run> runOf(const std::vector<const RankBuilder *> &ranks)
{
    std::vector<std::string> texts;
    for (const RankBuilder *r : ranks)
        texts.push_back(r->json());
    return runOfTexts(texts);
}

} // namespace ks::test
