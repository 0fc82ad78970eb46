// SPDX-License-Identifier: MIT
#pragma once

#include "session/run.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QScrollArea;
class QStackedWidget;
class QToolButton;

namespace ks {

class AlignedTimelines;
class CollectiveBands;
class RankLines;
class SelectionController;
class TimelineView;

/*!
 * The ranks of a run as one timeline: a collapsible group per rank (its own forward, backward and
 * GPU lanes, as a trace tab draws them), all on the run's common clock (AlignedTimelines anchored
 * on each rank's clock offset), so zooming or panning one rank moves them all. Over them,
 * CollectiveBands joins each collective's kernels across the ranks and marks the last arriver.
 * Each rank keeps its own SelectionController: selecting an op pair on one rank selects the same
 * pair (RankPairs) on every other rank. "One Line per Rank" shows RankLines instead, on the same
 * range.
 */
class RunTimelines : public QWidget {
    Q_OBJECT
public:
    explicit RunTimelines(std::shared_ptr<const Run> run, QWidget *parent = nullptr);
    ~RunTimelines() override;

    const Run &run() const { return *m_run; }
    TimelineView *timeline(size_t rankIndex) const { return m_ranks[rankIndex].timeline; }
    SelectionController *selection(size_t rankIndex) const { return m_ranks[rankIndex].selection; }
    void setRankCollapsed(size_t rankIndex, bool collapsed);
    bool rankCollapsed(size_t rankIndex) const;
    //! Scrolls the group of \a rankIndex into view (expanding it).
    void scrollToRank(size_t rankIndex);
    //! Shows [from, to) of the run clock (ns from the common zero) on every rank.
    void showRunRange(TimeNs from, TimeNs to);
    //! Selects pair \a pairIndex (RankPairs) on every rank that has it and frames it.
    void selectPair(size_t pairIndex);
    //! The pair selected on every rank, -1 if none.
    int currentPair() const { return m_currentPair; }
    //! Emphasises collective \a index (Run::collectives) and frames it; -1 clears.
    void setCurrentCollective(int index);
    int currentCollective() const;
    /*!
     * Draws the run's critical path (Run::criticalPath) on every rank — its events lit up,
     * its chain over them, its hops between ranks — and frames it; false clears it.
     */
    void showCriticalPath(bool on);
    //! RankLines in place of the stacked timelines (toggled per run), on the same range.
    void setOneLinePerRank(bool on);
    bool oneLinePerRank() const;
    //! The one-line view, null until first shown.
    RankLines *rankLines() const { return m_lines; }
    //! The bands' painter (tests read the bands it drew).
    const CollectiveBands *bands() const { return m_bands; }

signals:
    //! The pair selected on every rank changed (-1: none).
    void pairChanged(int pairIndex);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct RankGroup {
        QToolButton *header = nullptr;
        TimelineView *timeline = nullptr;
        SelectionController *selection = nullptr;
    };
    //! The slice standing for pair \a pairIndex on rank \a rankIndex: its forward op (or first
    //! backward node when \a backwardSide), kNoSlice when that rank lacks the pair.
    SliceId pairSlice(size_t pairIndex, size_t rankIndex, bool backwardSide) const;
    void followSelection(size_t rankIndex, SliceId slice);

    std::shared_ptr<const Run> m_run;
    std::vector<RankGroup> m_ranks;
    //! Per rank, pair row → index into RankPairs::pairs.
    std::vector<std::vector<int>> m_pairOfRow;
    std::unique_ptr<AlignedTimelines> m_aligned;
    QToolButton *m_oneLine = nullptr;
    QStackedWidget *m_stack = nullptr;
    RankLines *m_lines = nullptr;
    QScrollArea *m_scroll = nullptr;
    QWidget *m_content = nullptr;
    CollectiveBands *m_bands = nullptr;
    int m_currentPair = -1;
    bool m_pathShown = false; //!< the ranks' highlights are the critical path
    bool m_following = false; //!< a selection is being mirrored: the echoes are ignored
};

} // namespace ks
