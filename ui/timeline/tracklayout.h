// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/curvetracks.h"
#include "analysis/timelineindex.h"

#include <QString>

#include <optional>
#include <vector>

namespace ks {

/*!
 * The vertical layout of the timeline: lanes grouped by process (host processes first, then
 * GPUs; forward threads, then backward threads), each group under a header, then the curve
 * tracks (memory per device, counters), and the tracks' y and height in content coordinates
 * (0 = top of the first track, before scrolling). Groups and lanes collapse: a collapsed group
 * shows its header only, a collapsed lane its top row.
 */
class TrackLayout {
public:
    //! One horizontal band: a group's header or one lane.
    struct Track {
        bool header = false;
        LaneId lane = kNoLane;
        int group = 0;
        int y = 0;
        int height = 0;
        QString label;
        QString detail; //!< the thread's role ("forward", "backward"), a curve track's curves
        int curve = -1; //!< a curve track: its index in TraceCurves::tracks
    };

    TrackLayout(const TraceModel &model, const TimelineIndex &index, const TraceCurves &curves);

    const std::vector<Track> &tracks() const { return m_tracks; }
    int contentHeight() const;

    bool groupCollapsed(int group) const { return m_groups[size_t(group)].collapsed; }
    bool laneCollapsed(LaneId lane) const { return m_laneCollapsed[lane]; }
    void setLaneCollapsed(LaneId lane, bool collapsed);
    //! Collapses or expands what the track at \a index shows (its group or its lane).
    void toggle(int index);
    //! Expands the group holding \a lane; false if it was not collapsed.
    bool expandGroupOf(LaneId lane);

    //! The track at content y \a y, or -1 (between tracks, past the end).
    int trackAt(int y) const;
    //! The track of curve track \a curve, or -1 while its group is collapsed.
    int curveTrack(size_t curve) const
    {
        return curve < m_trackOfCurve.size() ? m_trackOfCurve[curve] : -1;
    }
    //! The track of \a lane, or -1 while its group is collapsed (or the lane has no track).
    int laneTrack(LaneId lane) const
    {
        return lane < m_trackOfLane.size() ? m_trackOfLane[lane] : -1;
    }
    //! Rows a lane shows: its depth count, or at most one while collapsed.
    uint32_t visibleRows(LaneId lane) const;
    //! The row of lane track \a track at content y \a y (see timeline::rowAt), or -1.
    int rowAt(int track, int y) const;
    //! Content y of the top of row \a depth of lane track \a track.
    int rowTop(int track, uint32_t depth) const;
    /*!
     * Content y where arrows meet a slice of \a lane at \a depth: the middle of its row (row 0
     * while the lane is collapsed), or the middle of its group's header while the group is
     * collapsed; nullopt for a lane the timeline does not show.
     */
    std::optional<double> anchorY(LaneId lane, uint32_t depth) const;

private:
    struct Group {
        QString label;
        bool collapsed = false;
        std::vector<LaneId> lanes;
        std::vector<int> curves; //!< a group of curve tracks: indices into TraceCurves::tracks
    };

    void buildGroups();
    void addCurveGroups();
    void relayout();

    const TraceModel &m_model;
    const TimelineIndex &m_index;
    const TraceCurves &m_curves;
    std::vector<Group> m_groups;
    std::vector<int> m_groupOfLane; //!< -1 for lanes without a track
    std::vector<bool> m_laneCollapsed;
    std::vector<Track> m_tracks;
    std::vector<int> m_trackOfLane;
    std::vector<int> m_trackOfCurve;
    std::vector<bool> m_smallCurve; //!< a memory track under 1 % of the largest memory peak
    std::vector<int> m_headerOfGroup;
};

} // namespace ks
