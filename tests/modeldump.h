// SPDX-License-Identifier: MIT
#pragma once
// Everything a loaded TraceModel holds from its trace's text, as text: two loads of one trace
// (by different paths through the loader) are the same model exactly when their dumps are equal.
// Strings are written out, not their ids, and a slice's GPU or CPU extras in place of their
// index. What the file adds (gzip or not, its size and seek points) is left out.

#include "model/tracemodel.h"

#include <iomanip>
#include <sstream>
#include <string>

namespace ks::test {

inline std::string dumpModel(const TraceModel &m)
{
    std::ostringstream o;
    o.precision(17);
    auto s = [&](StringId id) { return std::quoted(m.str(id), '\''); };
    o << "textSize " << m.textSize << " truncated " << m.truncated << " events " << m.eventCount
      << " array " << m.arrayLayout << " base " << m.baseTimeNs << " time " << m.minTime << ' '
      << m.maxTime << " flowKeys " << m.flowKeysWithBothEnds << '\n';
    for (const auto &[key, value] : m.metadata)
        o << "metadata " << key << '=' << value << '\n';
    for (const Process &p : m.processes)
        o << "process " << p.pid << ' ' << s(p.pidText) << ' ' << p.device << ' ' << s(p.name)
          << ' ' << s(p.labels) << ' ' << p.sortIndex << '\n';
    for (const Lane &l : m.lanes)
        o << "lane " << l.pid << ' ' << l.tid << ' ' << s(l.pidText) << ' ' << s(l.tidText) << ' '
          << l.device << ' ' << s(l.threadName) << ' ' << l.sortIndex << " slices " << l.sliceBegin
          << '-' << l.sliceEnd << " depth " << l.maxDepth << " instants " << l.instantBegin << '-'
          << l.instantEnd << '\n';
    const SliceTable &t = m.slices;
    for (SliceId i = 0; i < t.size(); ++i) {
        o << "slice " << i << ' ' << t.start[i] << ' ' << t.dur[i] << ' ' << s(t.name[i]) << ' '
          << s(t.category[i]) << ' ' << int(t.kind[i]) << ' ' << int(t.flags[i]) << ' ' << t.lane[i]
          << ' ' << t.depth[i] << ' ' << t.parent[i] << ' ' << t.subtreeEnd[i] << ' '
          << t.externalId[i] << ' ' << t.correlation[i] << ' ' << t.sequence[i] << ' '
          << t.fwdThread[i] << ' ' << s(t.inputDims[i]) << ' ' << t.offset[i];
        if (const GpuInfo *g = m.gpu(i))
            o << " gpu " << g->device << ' ' << g->stream << ' ' << g->grid[0] << ' ' << g->grid[1]
              << ' ' << g->grid[2] << ' ' << g->block[0] << ' ' << g->block[1] << ' ' << g->block[2]
              << ' ' << s(g->collective) << ' ' << s(g->processGroup);
        if (const CpuInfo *c = m.cpu(i))
            o << " cpu " << c->evIdx << ' ' << c->recordFunctionId << ' ' << s(c->inputTypes);
        o << '\n';
    }
    const InstantTable &in = m.instants;
    for (size_t i = 0; i < in.size(); ++i)
        o << "instant " << in.time[i] << ' ' << s(in.name[i]) << ' ' << in.lane[i] << ' '
          << in.offset[i] << '\n';
    const MemoryTable &mem = m.memory;
    for (size_t i = 0; i < mem.size(); ++i)
        o << "memory " << mem.time[i] << ' ' << mem.lane[i] << ' ' << mem.deviceType[i] << ' '
          << mem.deviceId[i] << ' ' << mem.addr[i] << ' ' << mem.bytes[i] << ' '
          << mem.totalAllocated[i] << ' ' << mem.totalReserved[i] << ' ' << int(mem.outOfMemory[i])
          << ' ' << mem.offset[i] << '\n';
    for (const CounterSeries &c : m.counters) {
        o << "counter " << c.pid << ' ' << s(c.name);
        for (size_t i = 0; i < c.time.size(); ++i)
            o << ' ' << c.time[i] << ':' << c.value[i];
        o << '\n';
    }
    for (const FlowEdge &f : m.flows)
        o << "flow " << int(f.kind) << ' ' << s(f.category) << ' ' << f.from << ' ' << f.to << ' '
          << f.fromLane << ' ' << f.toLane << ' ' << f.fromTime << ' ' << f.toTime << ' ' << f.id
          << '\n';
    o << m.diagnostics.report();
    return o.str();
}

/*!
 * What dumpModel() leaves out because loads by one path always agree on it: the string pool in
 * id order and the diagnostics' examples in the order they were kept. A segmented load must
 * give these too.
 */
inline std::string dumpIdOrder(const TraceModel &m)
{
    std::ostringstream o;
    for (StringId id = 0; id < m.strings.size(); ++id)
        o << "string " << id << ' ' << std::quoted(m.strings.view(id), '\'') << '\n';
    for (const Diagnostics::Example &e : m.diagnostics.examples())
        o << "example " << int(e.counter) << ' ' << e.offset << ' ' << e.message << '\n';
    return o.str();
}

//! "" when \a a and \a b are equal, else their first differing lines, numbered.
inline std::string firstDifference(const std::string &a, const std::string &b)
{
    std::istringstream x(a), y(b);
    std::string p, q;
    for (int line = 1;; ++line) {
        const bool more = bool(std::getline(x, p)), moreB = bool(std::getline(y, q));
        if (!more && !moreB)
            return {};
        if (more != moreB || p != q) {
            std::ostringstream o; // not string + to_string: GCC 12 warns falsely (-Wrestrict)
            o << "line " << line << ":\n  " << (more ? p : "(end)") << "\n  "
              << (moreB ? q : "(end)");
            return o.str();
        }
    }
}

} // namespace ks::test
