// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/time/rangestats.h"
#include "common/backgroundtask.h"
#include "common/selectioncontroller.h"
#include "load/eventdetails.h"

#include <QPointer>
#include <QTreeWidget>

namespace ks {

/*!
 * Everything about the selected event: its fields and every arg (read back from the file, on a
 * worker),
 * its pair and how it was linked, the GPU events it launched (click one to select it) and, for a
 * GPU event, its launch, launching op and pair. A time range marked on the timeline shows
 * its statistics instead (worked out on a worker) until the next selection.
 */
class DetailsPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit DetailsPanel(QWidget *parent = nullptr);
    //! Follows \a selection (null: shows nothing).
    void setSelectionController(SelectionController *selection);

private:
    void showSlice(SliceId slice);
    //! The statistics of [begin, end), or the selection again when the range is cleared.
    void showRange(TimeNs begin, TimeNs end);
    //! A module selected in the module tree: its calls and GPU time by side.
    void showModule(ModuleId id);
    //! Recompute of what (inside a recomputed op), or the re-runs of a checkpointed forward op.
    void showCheckpointing(SliceId slice);
    //! The Python frames around the slice (with_stack traces), each a link.
    void showPythonStack(SliceId slice);
    //! A kernel replayed from a CUDA/HIP graph: the replay it belongs to, every node a link.
    void showGraphReplay(SliceId slice, const GpuInfo &info);
    //! The Pair section: the row's forward op, backward nodes, their durations and GPU time.
    void showPair(const PairRow &row);
    QTreeWidgetItem *section(const QString &title);
    QTreeWidgetItem *addLink(
        QTreeWidgetItem *parent, const QString &label, SliceId slice, const QString &value = {});

    void showArgs(QTreeWidgetItem *section, const EventDetails &details, const std::string &error);

    QPointer<SelectionController> m_selection;
    QMetaObject::Connection m_connection;
    QMetaObject::Connection m_moduleConnection;
    QMetaObject::Connection m_rangeConnection;
    BackgroundTask<RangeStats> m_rangeStats {this};
    //! Reading an event's args back from the file: off the UI thread (a gzip trace inflates up
    //! to the event); a newer selection supersedes the read in flight.
    struct ArgsRead {
        EventDetails details;
        std::string error;
        bool ok = false;
    };
    BackgroundTask<ArgsRead> m_argsRead {this};
};

} // namespace ks
