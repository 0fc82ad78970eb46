// SPDX-License-Identifier: MIT
#pragma once

#include "session/comparedtraces.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace ks {

class SelectionController;
class TableModel;
class TimelineView;

/*!
 * Two traces compared pair by pair: the table of matched and unmatched pairs (or their rollups by
 * op group and module), sorted by the largest change and coloured by it, above the two timelines,
 * base over candidate. Selecting a pair selects it in both timelines and frames both on the same
 * span, so the two sides line up.
 */
class ComparisonView : public QWidget {
    Q_OBJECT
public:
    enum Grouping { Pairs, ByOp, ByModule, ByModuleType };

    ComparisonView(std::shared_ptr<const LoadedTrace> base,
        std::shared_ptr<const LoadedTrace> candidate,
        const DiffOptions &options,
        QWidget *parent = nullptr);
    ~ComparisonView() override;

    //! False when the options named a step that a trace lacks (see error()).
    bool isValid() const { return m_compared != nullptr; }
    const QString &error() const { return m_error; }
    const TraceDiff &diff() const { return *m_compared->diff; }

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
    void rebuildModel();
    void recompare();
    QWidget *buildToolbar();

    std::shared_ptr<const LoadedTrace> m_base;
    std::shared_ptr<const LoadedTrace> m_candidate;
    DiffOptions m_options;
    std::shared_ptr<ComparedTraces> m_compared;
    QString m_error;
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
    QWidget *m_timelines = nullptr;
};

} // namespace ks
