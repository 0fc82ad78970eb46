// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timeline/curvetracks.h"
#include "analysis/timeline/timelineindex.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <span>
#include <tuple>
#include <vector>

namespace ks {

/*!
 * The vertical layout of the timeline: lanes grouped by process (host processes first, then
 * GPUs; forward threads, then backward threads), each group under a header, then the curve
 * tracks (memory per device, counters), and the tracks' y and height in content coordinates
 * (0 = top of the first track, before scrolling). Groups and lanes collapse: a collapsed group
 * shows its header only, a collapsed lane its top row.
 *
 * A host thread with Python frames (`with_stack`) starts with a thin band of its innermost
 * frames; below it, by default, its ops with the frames folded away (TimelineIndex's op rows).
 * Unfolded, the lane shows every slice by its nesting depth under the band; with Python hidden
 * ("ops only") the band goes too. The user's folds are a FoldState, kept per trace.
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
        int graph = -1; //!< a compacted graph's track: its index in GraphLanes::graphs()
        int firstRow = 0; //!< a lane track: its rows are [firstRow, firstRow + rowCount) of rows()
        int rowCount = 0;
    };

    //! One row of a lane track: the index row it draws, its content y and height.
    struct Row {
        RowRef ref;
        int y = 0;
        int height = 0;
        bool band() const { return ref.set == RowSet::PythonBand; }
    };

    //! What the user folded and arranged, by names that outlive the process (see laneKey()).
    struct FoldState {
        QStringList collapsedGroups;
        QStringList collapsedLanes;
        QStringList unfoldedPython;
        QStringList pinnedLanes; //!< in the order they show at the top
        QStringList hiddenLanes;
        QStringList hiddenGroups;
        QStringList laneOrder; //!< the lanes of every group the user reordered, in order
        bool operator==(const FoldState &) const = default;
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
    //! Whether \a lane shows its ops with its Python frames folded (the default where it has any).
    bool pythonFolded(LaneId lane) const;
    //! Rows under the band of \a lane while it is not collapsed (at least one).
    uint32_t contentDepths(LaneId lane) const;
    void setPythonFolded(LaneId lane, bool folded);
    //! "Ops only": no lane shows Python frames, not even their band.
    bool pythonHidden() const { return m_pythonHidden; }
    void setPythonHidden(bool hidden);
    //! Graph replays one lane per graph (GraphLanes) instead of their streams.
    bool graphsCompacted() const { return m_graphsCompacted; }
    void setGraphsCompacted(bool compacted);
    //! Pins \a lane to the top of the timeline (in the order pinned), or unpins it.
    void setPinned(LaneId lane, bool pinned);
    bool pinned(LaneId lane) const;
    void hideLane(LaneId lane);
    void hideGroup(int group);
    //! Hides every group but \a group (and the memory and counter tracks).
    void showOnlyGroup(int group);
    //! Collapses every group but \a group, which opens.
    void collapseOtherGroups(int group);
    //! Moves \a lane one place up (\a delta < 0) or down among the lanes shown with it: its
    //! group's, or the pinned ones.
    void moveLane(LaneId lane, int delta);
    //! Lanes and groups hidden.
    int hiddenCount() const;
    void showAll();
    FoldState folds() const;
    //! Applies \a state; names it does not know (another version of the file) are ignored.
    void restore(const FoldState &state);

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
    //! The lanes whose slices lane track \a track draws: its own, or its graph's streams.
    std::span<const LaneId> lanesOf(int track) const;
    //! The track that draws slice \a s, or -1 (see rowOf()).
    int trackOf(SliceId s) const;
    //! The rows of lane track \a track, top to bottom.
    std::span<const Row> rows(int track) const;
    //! The first row of lane track \a track under its Python band (every lane has one).
    const Row &firstContentRow(int track) const
    {
        const std::span<const Row> r = rows(track);
        return r[r.front().band() ? 1 : 0];
    }
    //! The row of lane track \a track at content y \a y (an index into rows(track)), or -1.
    int rowAt(int track, int y) const;
    /*!
     * The row that draws slice \a s: its own, the band for a folded Python frame, the first row
     * under the band while its lane is collapsed; nullopt while its group is collapsed, for a
     * Python frame while Python is hidden, or for a lane the timeline does not show.
     */
    std::optional<Row> rowOf(SliceId s) const;
    /*!
     * Content y where arrows meet slice \a s: the middle of rowOf(s), or the middle of its
     * group's header while the group is collapsed; nullopt when the timeline does not show it.
     */
    std::optional<double> anchorY(SliceId s) const;

private:
    struct Group {
        QString label;
        bool collapsed = false;
        std::vector<LaneId> lanes;
        std::vector<int> curves; //!< curve tracks: indices into TraceCurves::tracks
        int64_t device = -1; //!< the GPU of a device process, whose counters join its lanes
        bool hidden = false;
        bool reordered = false; //!< its lanes are in the user's order (FoldState::laneOrder)
    };

    void buildGroups();
    void addCurveGroups();
    void relayout();
    //! Where \a lane goes in its group: forward threads, backward threads, then by sort index
    //! (or tid), a stream's sync row right after the stream.
    std::tuple<int, int64_t, bool> laneOrder(LaneId lane) const;
    //! Adds the tracks of \a lane (its own, or its graphs') from content y \a y; returns the y
    //! below them. \a pinned: at the top, named with its process.
    int addLane(int group, LaneId lane, int y, bool pinned);
    //! Adds the track of \a lane at content y \a y (if it shows); returns the y below it.
    int addLaneTrack(int group, LaneId lane, int y);
    //! Adds a track for each graph \a host hosts (none if it hosts none); returns the y below.
    int addGraphTracks(int group, LaneId host, int y);
    //! Adds the rows of \a lane from content y \a y; returns the y below them.
    int addLaneRows(LaneId lane, int y);
    //! "pid/tid" of a host thread, "gpu pid/tid" of a GPU stream: FoldState's names.
    QString laneKey(LaneId lane) const;

    const TraceModel &m_model;
    const TimelineIndex &m_index;
    const TraceCurves &m_curves;
    std::vector<Group> m_groups;
    std::vector<int> m_groupOfLane; //!< -1 for lanes without a track
    std::vector<bool> m_laneCollapsed;
    std::vector<bool> m_pythonUnfolded;
    std::vector<bool> m_laneHidden;
    std::vector<LaneId> m_pinned; //!< in the order they show
    bool m_pythonHidden = false;
    bool m_graphsCompacted = false;
    std::vector<Track> m_tracks;
    std::vector<Row> m_rows;
    std::vector<int> m_trackOfLane;
    std::vector<int> m_trackOfCurve;
    std::vector<int> m_trackOfGraph;
    std::vector<bool> m_smallCurve; //!< a memory track under 1 % of the largest memory peak
    std::vector<int> m_headerOfGroup;
};

} // namespace ks
