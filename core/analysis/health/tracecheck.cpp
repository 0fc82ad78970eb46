// SPDX-License-Identifier: MIT
#include "analysis/health/tracecheck.h"

#include "analysis/health/dataloss.h"
#include "base/numbertext.h"
#include "link/opnames.h"
#include "model/slicewalk.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace ks {

namespace {

std::string describe(const TraceModel &m, SliceId s)
{
    std::string out = "'";
    out += m.sliceName(s);
    out += "' at ts ";
    appendMicros(out, m.slices.start[s], 3);
    out += " µs on ";
    out += m.laneLabel(m.slices.lane[s]);
    return out;
}

//! The instances of one check: how many, and the earliest.
class Tally {
public:
    Tally(const TraceModel &model, Check check)
        : m_model(model)
        , m_check(check)
    {
    }

    void add(SliceId s, const std::string &why = {})
    {
        ++m_count;
        if (m_first == kNoSlice || m_model.slices.start[s] < m_model.slices.start[m_first]) {
            m_first = s;
            m_why = why;
        }
    }

    void addCount(uint64_t n, const std::string &example)
    {
        if (m_count == 0)
            m_why = example;
        m_count += n;
    }

    void into(std::vector<Finding> &out, Severity severity = Severity::Warning) const
    {
        if (m_count == 0)
            return;
        Finding f {m_check, severity, m_count, m_first, m_why};
        if (m_first != kNoSlice)
            f.example = describe(m_model, m_first) + (m_why.empty() ? "" : ": " + m_why);
        out.push_back(std::move(f));
    }

private:
    const TraceModel &m_model;
    Check m_check;
    uint64_t m_count = 0;
    SliceId m_first = kNoSlice;
    std::string m_why;
};

/*!
 * A stream runs its work in launch order, so GPU work without a launch that comes after launched
 * work on its stream lost its record; before any, it was launched before the window. A stream
 * with no launched work at all goes by the first launch call of the trace instead (a device
 * whose events the trace does not link: every one after that call is lost to the user).
 */
/*!
 * One stream's kernels in start order, with the kernel reaching furthest among each prefix: a time
 * t is inside a kernel exactly when the one reaching furthest of those starting before t ends
 * after it (one binary search, however many kernels or syncs).
 */
class StreamKernels {
public:
    void add(SliceId kernel) { m_kernels.push_back(kernel); }

    void finish(const SliceTable &t)
    {
        std::stable_sort(m_kernels.begin(), m_kernels.end(),
            [&](SliceId a, SliceId b) { return t.start[a] < t.start[b]; });
        m_reacher.resize(m_kernels.size());
        for (size_t i = 0; i < m_kernels.size(); ++i)
            m_reacher[i] = i == 0 || t.end(m_kernels[i]) > t.end(m_reacher[i - 1])
                ? m_kernels[i]
                : m_reacher[i - 1];
    }

    //! A kernel running at \a time (started before it, ends after it), kNoSlice if none.
    SliceId runningAt(const SliceTable &t, TimeNs time) const
    {
        const auto after = std::lower_bound(m_kernels.begin(), m_kernels.end(), time,
            [&](SliceId k, TimeNs v) { return t.start[k] < v; });
        if (after == m_kernels.begin())
            return kNoSlice;
        const SliceId reacher = m_reacher[size_t(after - m_kernels.begin()) - 1];
        return t.end(reacher) > time ? reacher : kNoSlice;
    }

private:
    std::vector<SliceId> m_kernels;
    std::vector<SliceId> m_reacher;
};

std::unordered_map<LaneId, TimeNs> firstLaunchedOnLane(const OpGraph &g)
{
    const TraceModel &m = g.model();
    std::unordered_map<LaneId, TimeNs> first;
    for (size_t i = 0; i < g.gpuEvents().size(); ++i) {
        const SliceId e = g.gpuEvents()[i];
        if (g.gpuLaunches()[i] == kNoSlice)
            continue;
        const auto [it, inserted] = first.try_emplace(m.slices.lane[e], m.slices.start[e]);
        if (!inserted)
            it->second = std::min(it->second, m.slices.start[e]);
    }
    return first;
}

void checkGpuEvents(const OpGraph &g, std::vector<Finding> &out)
{
    const TraceModel &m = g.model();
    Tally before(m, Check::KernelBeforeLaunch), lost(m, Check::GpuEventWithoutLaunch),
        edge(m, Check::GpuEventLaunchedBeforeWindow), zero(m, Check::ZeroDurationGpuEvent);
    const auto firstLaunched = firstLaunchedOnLane(g);
    TimeNs firstCall = std::numeric_limits<TimeNs>::max();
    forEachHostSlice(m, [&](SliceId s) {
        if (m.slices.kind[s] == EventKind::Runtime)
            firstCall = std::min(firstCall, m.slices.start[s]);
    });
    for (size_t i = 0; i < g.gpuEvents().size(); ++i) {
        const SliceId e = g.gpuEvents()[i];
        const SliceId launch = g.gpuLaunches()[i];
        const TimeNs start = m.slices.start[e];
        // A dur the loader repaired to 0 is its load warning already: one finding per fault.
        if (m.slices.dur[e] == 0 && !(m.slices.flags[e] & SliceTable::DurRepaired))
            zero.add(e);
        if (launch == kNoSlice) {
            const auto it = firstLaunched.find(m.slices.lane[e]);
            const TimeNs after = it != firstLaunched.end() ? it->second : firstCall;
            (start > after ? lost : edge).add(e);
        } else if (start < m.slices.start[launch]) {
            before.add(e,
                "launched by '" + std::string(m.sliceName(launch)) + "' "
                    + std::to_string((m.slices.start[launch] - start) / 1000) + " µs later");
        }
    }
    before.into(out);
    lost.into(out);
    edge.into(out, Severity::Info);
    zero.into(out);
}

/*!
 * Calls that put work on a stream (kernel and graph launches, copies and sets) with no GPU event.
 * A kernel launch always runs something, so before the last recorded GPU work its record was
 * lost; a zero-byte copy or set runs nothing, so those alone are information.
 */
void checkLaunches(const OpGraph &g, std::vector<Finding> &out)
{
    const TraceModel &m = g.model();
    std::unordered_set<SliceId> launched(g.gpuLaunches().begin(), g.gpuLaunches().end());
    TimeNs lastGpuStart = std::numeric_limits<TimeNs>::min();
    for (SliceId e : g.gpuEvents())
        lastGpuStart = std::max(lastGpuStart, m.slices.start[e]);
    Tally noGpu(m, Check::LaunchWithoutGpuEvent), late(m, Check::LaunchAfterWindow),
        cut(m, Check::NoGpuEventSurvivedCut);
    const bool allCut = g.stats().gpuCutOff; // one fault: no launch is lost or late on its own
    bool kernelLost = false;
    forEachHostSlice(m, [&](SliceId s) {
        if (m.slices.kind[s] != EventKind::Runtime || m.slices.correlation[s] == kNoValue
            || launched.contains(s))
            return;
        const std::string_view name = m.sliceName(s);
        if (!putsWorkOnStream(name))
            return;
        const bool kernel = name.find("Launch") != std::string_view::npos;
        const bool inWindow = m.slices.start[s] < lastGpuStart;
        kernelLost |= kernel && inWindow;
        (allCut ? cut : inWindow ? noGpu : late).add(s);
    });
    noGpu.into(out, kernelLost ? Severity::Warning : Severity::Info);
    late.into(out, Severity::Info);
    if (allCut && g.stats().launchesCutOff == 0)
        cut.addCount(1, "the file ends before any GPU event or launch");
    cut.into(out);
}

void checkStreams(const OpGraph &g, std::vector<Finding> &out)
{
    const TraceModel &m = g.model();
    Tally overlap(m, Check::KernelsOverlapOnStream);
    // GPU work by stream, in start order; a lane is one stream, except where PyTorch's exporter
    // gathered annotated graph kernels of several streams on one (`original_stream`).
    std::map<std::pair<int, int>, StreamKernels> byStream;
    for (const Lane &lane : m.lanes) {
        if (!lane.device)
            continue;
        std::map<int, std::pair<TimeNs, SliceId>> reach; // by original stream: end, its event
        for (SliceId s = lane.sliceBegin; s < lane.sliceEnd; ++s) {
            if (!isGpuWork(m.slices.kind[s]))
                continue;
            const GpuInfo *info = m.gpu(s);
            auto [it, first] = reach.try_emplace(
                info ? info->originalStream : -1, std::numeric_limits<TimeNs>::min(), kNoSlice);
            if (!first && m.slices.start[s] < it->second.first)
                overlap.add(s, "overlaps '" + std::string(m.sliceName(it->second.second)) + "'");
            if (m.slices.end(s) > it->second.first)
                it->second = {m.slices.end(s), s};
            if (info && m.slices.kind[s] == EventKind::Kernel)
                byStream[{info->device, info->stream}].add(s);
        }
    }
    for (auto &[stream, kernels] : byStream)
        kernels.finish(m.slices);
    overlap.into(out);

    // Syncs: a Stream Sync inside a kernel of its stream; a wait without its event record.
    std::unordered_map<int64_t, TimeNs> recordAt; // correlation or External id → earliest ts
    forEachHostSlice(m, [&](SliceId s) {
        if (m.slices.kind[s] != EventKind::Runtime
            || !m.sliceName(s).starts_with("cudaEventRecord"))
            return;
        for (int64_t id : {m.slices.correlation[s], m.slices.externalId[s]})
            if (id != kNoValue) {
                auto [it, inserted] = recordAt.try_emplace(id, m.slices.start[s]);
                if (!inserted)
                    it->second = std::min(it->second, m.slices.start[s]);
            }
    });
    Tally inKernel(m, Check::StreamSyncWhileKernelRuns),
        noRecord(m, Check::StreamWaitWithoutRecord);
    forEachDeviceSlice(m, [&](SliceId s) {
        const GpuInfo *info = m.gpu(s);
        if (m.slices.kind[s] != EventKind::GpuSync || !info)
            return;
        const std::string_view name = m.sliceName(s);
        const TimeNs t = m.slices.start[s];
        if (name == "Stream Wait Event" || name == "Event Sync") {
            const auto record = recordAt.find(info->waitOnRecord);
            if (info->waitOnRecord < 0) // kNoValue too: absent
                noRecord.add(s, "no wait_on_cuda_event_record_corr_id");
            else if (record == recordAt.end() || record->second > t)
                noRecord.add(s, "record " + std::to_string(info->waitOnRecord) + " not before it");
        } else if (name == "Stream Sync") {
            const auto it = byStream.find({info->device, info->stream});
            const SliceId k = it == byStream.end() ? kNoSlice : it->second.runningAt(m.slices, t);
            if (k != kNoSlice)
                inKernel.add(s, "inside '" + std::string(m.sliceName(k)) + "'");
        }
    });
    noRecord.into(out);
    inKernel.into(out);
}

/*!
 * PyTorch's rule checks the record_param_comms op; the copy on the kernel is what matching across
 * ranks reads. Traces before PyTorch 2.1 carry none at all: then it is information, not a loss.
 */
void checkCollectives(const OpGraph &g, std::vector<Finding> &out)
{
    const TraceModel &m = g.model();
    Tally missing(m, Check::CollectiveWithoutMetadata);
    bool anyHas = false;
    CommunicationNames communication(m);
    for (SliceId e : g.gpuEvents()) {
        if (!communication(e))
            continue;
        const GpuInfo *info = m.gpu(e);
        if (info && info->collective != 0)
            anyHas = true;
        else
            missing.add(e);
    }
    missing.into(out, anyHas ? Severity::Warning : Severity::Info);
}

void checkBackwardSequence(const OpGraph &g, std::vector<Finding> &out)
{
    const TraceModel &m = g.model();
    constexpr std::string_view wrapper = "autograd::engine::evaluate_function: ";
    std::map<int64_t, std::set<std::string_view>> opsOf;
    std::map<int64_t, SliceId> firstOf;
    forEachHostSlice(m, [&](SliceId s) {
        const std::string_view name = m.sliceName(s);
        if (m.slices.sequence[s] == kNoValue || !name.starts_with(wrapper))
            return;
        opsOf[m.slices.sequence[s]].insert(name.substr(wrapper.size()));
        firstOf.try_emplace(m.slices.sequence[s], s);
    });
    Tally shared(m, Check::BackwardSequenceShared);
    for (const auto &[seq, ops] : opsOf)
        if (ops.size() > 1)
            shared.add(firstOf[seq],
                "Sequence number " + std::to_string(seq) + " also names '"
                    + std::string(*std::next(ops.begin())) + "'");
    shared.into(out);
}

void checkWindow(const OpGraph &g, std::vector<Finding> &out)
{
    const TraceModel &m = g.model();
    SliceId span = kNoSlice;
    for (SliceId s = 0; s < m.slices.size() && span == kNoSlice; ++s)
        if (m.slices.kind[s] == EventKind::TraceSpan)
            span = s;
    if (span == kNoSlice || m.slices.dur[span] == 0)
        return;
    Tally outside(m, Check::OutsideProfilingWindow);
    for (SliceId s = 0; s < m.slices.size(); ++s)
        if (m.slices.start[s] < m.slices.start[span] || m.slices.end(s) > m.slices.end(span))
            outside.add(s);
    outside.into(out, Severity::Info);
}

//! "'NAME' twice" (appended: GCC 12 warns falsely on the chained +).
std::string twiceText(std::string_view name)
{
    std::string out = "'";
    out += name;
    out += "' twice";
    return out;
}

/*!
 * Events written twice: the same name, category, ts, dur, correlation and External id on one
 * thread or stream. A lane's slices are in start order, so equal starts are neighbours: each run
 * of them is compared.
 */
void checkDuplicates(const TraceModel &m, std::vector<Finding> &out)
{
    const SliceTable &t = m.slices;
    Tally twice(m, Check::DuplicateEvents);
    // Two calls of one µs differ by their ids (df_index_resolver's occupancy queries): only an
    // event written twice has every one of them the same.
    std::vector<std::tuple<TimeNs, StringId, StringId, int64_t, int64_t, SliceId>> run;
    for (const Lane &lane : m.lanes)
        for (SliceId s = lane.sliceBegin; s < lane.sliceEnd;) {
            SliceId e = s + 1;
            while (e < lane.sliceEnd && t.start[e] == t.start[s])
                ++e;
            if (e - s > 1) {
                run.clear();
                for (SliceId k = s; k < e; ++k)
                    run.emplace_back(
                        t.dur[k], t.name[k], t.category[k], t.correlation[k], t.externalId[k], k);
                std::sort(run.begin(), run.end());
                auto identity = [](const auto &r) {
                    return std::tuple(std::get<0>(r), std::get<1>(r), std::get<2>(r),
                        std::get<3>(r), std::get<4>(r));
                };
                for (size_t k = 1; k < run.size(); ++k)
                    if (identity(run[k]) == identity(run[k - 1]))
                        twice.add(std::get<5>(run[k]), twiceText(m.sliceName(std::get<5>(run[k]))));
            }
            s = e;
        }
    twice.into(out);
}

void checkDiagnostics(const TraceModel &m, const Diagnostics &all, std::vector<Finding> &out)
{
    Tally load(m, Check::LoadWarnings), flows(m, Check::FlowWithoutEnd);
    for (const DiagnosticInfo &d : kDiagnostics) {
        if (all.count(d.id) == 0)
            continue;
        const std::string example = std::string(d.name) + " × " + std::to_string(all.count(d.id))
            + ": " + std::string(d.description);
        if (d.id == Diag::FlowStartWithoutEnd)
            flows.addCount(all.count(d.id), example);
        else if (d.severity == Severity::Warning)
            load.addCount(all.count(d.id), example);
    }
    load.into(out);
    flows.into(out, Severity::Info);
}

} // namespace

std::vector<Finding> checkTrace(const OpGraph &graph, const Diagnostics &all)
{
    std::vector<Finding> out;
    if (std::string lost = dataLoss(graph); !lost.empty())
        out.push_back({Check::DataLost, Severity::Warning, 1, kNoSlice, std::move(lost)});
    checkDiagnostics(graph.model(), all, out);
    checkGpuEvents(graph, out);
    checkLaunches(graph, out);
    checkStreams(graph, out);
    checkCollectives(graph, out);
    checkBackwardSequence(graph, out);
    checkWindow(graph, out);
    checkDuplicates(graph.model(), out);
    std::stable_sort(out.begin(), out.end(), [](const Finding &a, const Finding &b) {
        return std::tie(a.severity, a.check) < std::tie(b.severity, b.check);
    });
    for (Finding &f : out) // kept where the model is not (a rank's database)
        f.firstStart = f.first == kNoSlice ? kNoValue : graph.model().slices.start[f.first];
    return out;
}

std::optional<Check> checkNamed(std::string_view name)
{
    for (const CheckInfo &c : kChecks)
        if (c.name == name)
            return c.id;
    return std::nullopt;
}

bool hasWarnings(const std::vector<Finding> &findings)
{
    return std::any_of(findings.begin(), findings.end(),
        [](const Finding &f) { return f.severity == Severity::Warning; });
}

} // namespace ks
