// SPDX-License-Identifier: MIT
#pragma once

#include "common/backgroundtask.h"
#include "session/comparedtraces.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace ks {

class AlignedTimelines;
class SelectionController;
class TableModel;
class TimelineView;

/*!
 * Two traces compared pair by pair: the table of matched and unmatched pairs (or their rollups by
 * op group and module), sorted by the largest change and coloured by it, above the two timelines,
 * base over candidate. The timelines share one axis relative to the compared step of each trace
 * (AlignedTimelines): they open on the first compared step at one scale, and zooming or panning
 * either moves both. Selecting a pair selects it in both timelines and frames both pairs on that
 * axis, relative to the steps that pair's slot compares.
 */
class ComparisonView : public QWidget {
    Q_OBJECT
public:
    enum Grouping { Pairs, ByOp, ByModule, ByModuleType };

    //! Shows \a compared, made with \a options (ComparedTraces::make, off the UI thread).
    ComparisonView(
        std::shared_ptr<ComparedTraces> compared, const DiffOptions &options, QWidget *parent);
    ~ComparisonView() override;

    const TraceDiff &diff() const { return *m_compared->diff; }
    std::shared_ptr<const ComparedTraces> compared() const { return m_compared; }

    void setGrouping(Grouping grouping);
    //! Selects the pair of table row \a viewRow in both timelines.
    void selectRow(int viewRow);

    TableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    TimelineView *baseTimeline() const { return m_baseTimeline; }
    TimelineView *candidateTimeline() const { return m_candidateTimeline; }
    SelectionController *baseSelection() const { return m_baseSelection; }
    SelectionController *candidateSelection() const { return m_candidateSelection; }
    //! Both timelines, for "timeline" screenshots.
    QWidget *timelines() const { return m_timelines; }

private:
    //! Anchors the timelines on the steps of slot \a slot; ns from each trace's start.
    void anchorOnSlot(size_t slot);
    //! Both timelines on the first compared step, at one scale.
    void showFirstStep();
    void rebuildModel();
    void recompare();
    QWidget *buildToolbar();

    DiffOptions m_options;
    std::shared_ptr<ComparedTraces> m_compared;
    struct Recompared {
        std::shared_ptr<ComparedTraces> compared;
        std::string error;
    };
    BackgroundTask<Recompared> m_recompare {this}; //!< another step chosen: compare again
    Grouping m_grouping = Pairs;

    QComboBox *m_groupingBox = nullptr;
    QComboBox *m_stepBox = nullptr;
    QLineEdit *m_filter = nullptr;
    QLabel *m_summary = nullptr;
    QTableView *m_table = nullptr;
    TableModel *m_model = nullptr;
    SelectionController *m_baseSelection = nullptr;
    SelectionController *m_candidateSelection = nullptr;
    TimelineView *m_baseTimeline = nullptr;
    TimelineView *m_candidateTimeline = nullptr;
    std::unique_ptr<AlignedTimelines> m_aligned;
    QWidget *m_timelines = nullptr;
};

} // namespace ks
