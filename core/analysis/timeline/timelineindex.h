// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timeline/graphlanes.h"
#include "link/opgraph.h"

#include <span>
#include <vector>

namespace ks {

//! How a slice is drawn: picks the tint family of its colour.
enum class SliceStyle : uint8_t {
    Forward, //!< host op outside backward
    Backward, //!< host op inside a backward node or evaluate_function wrapper
    Recompute, //!< host slice inside a recomputed op (forward work re-run during backward)
    Runtime, //!< CUDA/HIP runtime or driver call
    Annotation, //!< user_annotation, ProfilerStep#N
    Python, //!< python_function
    Kernel,
    Memcpy,
    Memset,
    Communication, //!< NCCL/RCCL kernels
    GpuAnnotation, //!< gpu_user_annotation and other device bookkeeping
    Other,
};

//! What a host thread does, for its label: "forward", "backward" or both.
struct LaneRole {
    bool forward = false; //!< runs forward ops whose backward nodes are in the trace
    bool backward = false; //!< runs backward nodes
};

//! Which rows of a lane a timeline row draws (see TimelineIndex::slices()).
enum class RowSet : uint8_t {
    Nesting, //!< every slice, by its nesting depth
    Ops, //!< Python frames folded: the other slices by their depth among non-Python slices
    PythonBand, //!< the lane's innermost Python frames, one row
    Graph, //!< graph replays compacted onto their host lane (GraphLanes), by row
};

//! One row of a lane: a set and a depth in it (0 for the band).
struct RowRef {
    RowSet set = RowSet::Nesting;
    uint32_t depth = 0;
    bool operator==(const RowRef &) const = default;
};

/*!
 * The drawing index of a trace: for every lane and nesting depth, the slices at that depth in
 * start order (they do not overlap, so ends are ordered too and a visible range is two binary
 * searches away), plus each slice's style and each lane's role.
 *
 * A lane with Python frames (`with_stack=True`: dozens of `python_function` levels above every
 * op) is also indexed folded: its other slices by their op depth (Python frames not counted),
 * and its innermost Python frames — those with no Python frame below them, which therefore never
 * overlap — as one band. Either way every slice lies in exactly one row of the set.
 */
class TimelineIndex {
public:
    TimelineIndex(const TraceModel &model, const OpGraph &graph);

    std::span<const SliceId> row(LaneId lane, uint32_t depth) const { return m_rows[lane][depth]; }
    uint32_t depthCount(LaneId lane) const { return uint32_t(m_rows[lane].size()); }
    SliceStyle style(SliceId s) const { return m_style[s]; }

    bool hasPython(LaneId lane) const { return !m_band[lane].empty(); }
    //! Rows of the folded lane: 0 for a lane without Python frames.
    uint32_t opDepthCount(LaneId lane) const { return uint32_t(m_opRows[lane].size()); }
    //! The slices of row \a ref of \a lane (empty past the set's rows).
    std::span<const SliceId> slices(LaneId lane, RowRef ref) const;
    //! Rows of \a lane over all four sets, and \a ref's place among them (a cache's key).
    uint32_t rowSlots(LaneId lane) const
    {
        return depthCount(lane) + opDepthCount(lane) + (hasPython(lane) ? 1 : 0)
            + m_graphLanes.rowCount(lane);
    }
    uint32_t rowSlot(LaneId lane, RowRef ref) const;
    //! Depth of \a s among the non-Python slices of its lane (its ancestors that are ops).
    static uint32_t opDepth(const TraceModel &model, SliceId s);
    LaneRole role(LaneId lane) const { return m_roles[lane]; }
    const GraphLanes &graphLanes() const { return m_graphLanes; }

    //! One item to draw: a slice, or a run of slices too narrow to see apart.
    struct Item {
        SliceId slice; //!< the first (run) or only slice
        double x0, x1; //!< pixels; runs are at least one pixel wide
        uint32_t count; //!< slices merged into this item (1 = a single slice)
    };

    /*!
     * Level of detail: the items of \a row visible in [t0, t0 + width × nsPerPixel), with
     * slices under \a mergeBelow pixels merged into per-pixel runs. Costs O(pixels × log n)
     * however many slices the row has, and never drops a slice: each one lies inside an item.
     * Times are ns relative to \a origin: absolute epoch nanoseconds do not fit a double.
     */
    static void scan(const TraceModel &model,
        std::span<const SliceId> row,
        TimeNs origin,
        double t0,
        double nsPerPixel,
        double width,
        std::vector<Item> &out,
        double mergeBelow = 1.0);

    //! The slice of \a row under time \a t (relative to \a origin), or the nearest one within
    //! \a toleranceNs; kNoSlice if none.
    static SliceId hit(const TraceModel &model,
        std::span<const SliceId> row,
        TimeNs origin,
        double t,
        double toleranceNs);

private:
    void indexLane(const TraceModel &model, const OpGraph &graph, LaneId lane);

    std::vector<std::vector<std::vector<SliceId>>> m_rows;
    std::vector<std::vector<std::vector<SliceId>>> m_opRows; //!< only lanes with Python frames
    std::vector<std::vector<SliceId>> m_band;
    std::vector<SliceStyle> m_style;
    std::vector<LaneRole> m_roles;
    GraphLanes m_graphLanes;
};

} // namespace ks
