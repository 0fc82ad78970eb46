// SPDX-License-Identifier: MIT
#pragma once

#include "link/gpuside.h"
#include "link/opgraph.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ks {

/*!
 * A value of each host slice that is its own where a rule gives one, else its parent's (the
 * fallback above the top), remembered for every slice a walk passes: a path through ops nested
 * 100 000 deep walks each level once, not once per op.
 */
template<class T> class UpwardMemo {
public:
    UpwardMemo(const SliceTable &slices, T fallback)
        : m_slices(slices)
        , m_fallback(fallback)
    {
    }

    //! \a own(slice) gives std::optional<T>; the same rule on every call.
    template<class Own> T of(SliceId slice, Own own)
    {
        m_chain.clear();
        T found = m_fallback;
        for (SliceId a = slice; a != kNoSlice; a = m_slices.parent[a]) {
            if (const auto known = m_memo.find(a); known != m_memo.end()) {
                found = known->second;
                break;
            }
            m_chain.push_back(a);
            if (const std::optional<T> decided = own(a)) {
                found = *decided;
                break;
            }
        }
        for (SliceId a : m_chain)
            m_memo[a] = found;
        return found;
    }

private:
    const SliceTable &m_slices;
    T m_fallback;
    std::unordered_map<SliceId, T> m_memo;
    std::vector<SliceId> m_chain;
};

//! The pair row and side of the path's events, as OpGraph::rowSideOf() and sideOfHostWork() give
//! them, each walk up done once (UpwardMemo).
class RowSides {
public:
    explicit RowSides(const OpGraph &graph);

    //! The row of an event (a GPU event: of its launch) and its side.
    std::pair<int, std::string_view> of(SliceId event);

private:
    OpGraph::RowSide rowSide(SliceId slice);

    const OpGraph &m_graph;
    std::unordered_map<SliceId, OpGraph::RowSide> m_forwardRow;
    UpwardMemo<OpGraph::RowSide> m_rowSides;
    UpwardMemo<SliceId> m_tops;
    std::unordered_map<SliceId, GpuSide> m_topSide;
};

} // namespace ks
