// SPDX-License-Identifier: MIT
#pragma once
// Small queries over a linked trace for the linker tests: slices by name, their names, sides.

#include "export/pairtable.h"
#include "export/table.h"
#include "link/opgraph.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <string_view>
#include <vector>

namespace ks::test {

inline QString S(const char *utf8)
{
    return QString::fromUtf8(utf8);
}
inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

//! Slices named \a name, in time order (slice order at equal start).
inline std::vector<SliceId> slicesNamed(const TraceModel &m, std::string_view name)
{
    std::vector<SliceId> out;
    for (SliceId s = 0; s < m.slices.size(); ++s) {
        if (m.sliceName(s) == name)
            out.push_back(s);
    }
    std::stable_sort(out.begin(), out.end(),
        [&](SliceId a, SliceId b) { return m.slices.start[a] < m.slices.start[b]; });
    return out;
}

//! The \a k-th (time order) slice named \a name, kNoSlice if there are fewer.
inline SliceId find(const TraceModel &m, std::string_view name, size_t k = 0)
{
    const std::vector<SliceId> all = slicesNamed(m, name);
    return k < all.size() ? all[k] : kNoSlice;
}

//! The GPU event (kernel, memcpy, memset) named \a name.
inline SliceId gpuEvent(const OpGraph &g, std::string_view name)
{
    for (SliceId s : g.gpuEvents()) {
        if (g.model().sliceName(s) == name)
            return s;
    }
    return kNoSlice;
}

inline QString nameOf(const TraceModel &m, SliceId s)
{
    return s == kNoSlice ? S("<none>") : qs(m.sliceName(s));
}

inline QStringList namesOf(const TraceModel &m, const std::vector<SliceId> &slices)
{
    QStringList out;
    for (SliceId s : slices)
        out << nameOf(m, s);
    return out;
}

//! Names of the node events of \a row, in the row's (time) order.
inline QStringList rowNodeNames(const OpGraph &g, const PairRow &row)
{
    QStringList out;
    for (uint32_t i : g.nodesOf(row))
        out << nameOf(g.model(), g.nodes()[i].node);
    return out;
}

//! The node record of node event (or wrapper) \a s; a default record if it is none.
inline const BackwardNode &nodeRecord(const OpGraph &g, SliceId s)
{
    static const BackwardNode none;
    const int i = g.nodeOf(s);
    return i < 0 ? none : g.nodes()[size_t(i)];
}

inline QString side(const OpGraph &g, SliceId gpu)
{
    return qs(gpuSideName(gpuSideOf(g, gpu)));
}
inline QString link(LinkMethod m)
{
    return qs(linkMethodName(m));
}

/*!
 * The CSV text of \a table split in lines (the header first). For a pair table of a trace without
 * memory events and shapes, its last nine columns (fwd_alloc_bytes, held_bytes, bwd_alloc_bytes,
 * held_until: tests/core/tst_memory checks them; fwd_tflops … bound: tst_opefficiency) are
 * empty and left out, and so is critical_us (tst_criticalpath), so that linking tests read the
 * columns they are about; a row whose nine cells
 * there are not empty keeps them and so fails its comparison.
 */
inline QStringList csvLines(const Table &table)
{
    QStringList lines
        = QString::fromStdString(tableToCsv(table)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QString tailHeader
        = QStringLiteral(",fwd_alloc_bytes,held_bytes,bwd_alloc_bytes,held_until,fwd_tflops,"
                         "bwd_tflops,fwd_pct_roofline,bwd_pct_roofline,bound,critical_us");
    if (lines.isEmpty() || !lines[0].endsWith(tailHeader))
        return lines;
    lines[0].chop(tailHeader.size());
    for (qsizetype i = 1; i < lines.size(); ++i) {
        lines[i].truncate(lines[i].lastIndexOf(QLatin1Char(','))); // critical_us, tested apart
        if (lines[i].endsWith(QLatin1String(",,,,,,,,,")))
            lines[i].chop(9);
    }
    return lines;
}

inline QString cell(const PairTable &t, size_t row, PairTable::Column column)
{
    return QString::fromStdString(t.text(row, column));
}

} // namespace ks::test
