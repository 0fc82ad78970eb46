// SPDX-License-Identifier: MIT
#pragma once

#include "common/backgroundtask.h"
#include "session/comparedtraces.h"
#include "session/run.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <deque>
#include <memory>
#include <vector>

namespace ks {

class TraceLoader;

/*!
 * The window's one door for loads, taken one at a time in the order asked: traces for tabs,
 * pairs of traces for comparisons (compared on a worker once both are there; a trace already
 * open is reused, not read again) and runs of several ranks. Progress and the end of every
 * load arrive as signals on the UI thread. Cancel stops the running load or comparison and
 * forgets everything queued.
 */
class LoadQueue : public QObject {
    Q_OBJECT
public:
    //! One side of a comparison: a trace already loaded, or the path to load it from.
    struct Side {
        QString path;
        std::shared_ptr<const LoadedTrace> trace; //!< set: used as it is
    };

    explicit LoadQueue(QObject *parent = nullptr);
    ~LoadQueue() override;

    void open(const QStringList &paths);
    void compare(const Side &base, const Side &candidate, const DiffOptions &options);
    /*!
     * Opens \a paths (trace files and folders of them) as one run, ranks loaded in parallel; or,
     * where they name per-rank databases (`*.sqlite`, runDatabases()), the run from those.
     */
    void openRun(const QStringList &paths);
    void cancel();
    //! A load runs or waits, or a comparison is computed.
    bool busy() const;

signals:
    /*!
     * Text for the status bar ("Loading x: 40% · 300 MB/s (2 more queued)") and permille, -1
     * when how far it is cannot be told (a comparison).
     */
    void progress(const QString &text, int permille);
    void idle();
    void traceLoaded(const QString &path, std::shared_ptr<const ks::LoadedTrace> trace);
    void comparisonReady(
        std::shared_ptr<ks::ComparedTraces> compared, const ks::DiffOptions &options);
    void runReady(std::shared_ptr<const ks::Run> run);
    void failed(const QString &title, const QString &message);
    void cancelled(const QString &name);

private:
    struct Queued {
        enum Kind { Trace, ComparisonSide, Run } kind = Trace;
        QString path;
        QStringList runPaths; //!< Run: its files and folders
    };
    //! A comparison waiting for its traces: paths, options, and what has loaded so far.
    struct PendingComparison {
        Side base, candidate;
        DiffOptions options;
    };
    struct Compared {
        std::shared_ptr<ComparedTraces> compared;
        DiffOptions options;
        std::string error;
    };
    struct OpenedRun {
        std::shared_ptr<const Run> run;
        std::string error;
    };
    //! Ranks loaded so far, written by the run's loading threads, read by the poll.
    struct RunProgress {
        std::atomic<size_t> done {0}, total {0};
    };

    void startNext();
    void startTrace(const Queued &next);
    void startRun(const QStringList &paths);
    //! The run of traces or databases \a args name (on a pool thread: values only).
    static OpenedRun openRunOf(const std::vector<std::string> &args,
        const std::shared_ptr<RunProgress> &counters,
        const std::atomic<bool> &stop);
    void finishedOne();
    void comparisonTraceLoaded(
        const QString &path, const std::shared_ptr<const LoadedTrace> &trace);
    void startComparison(const PendingComparison &ready);
    QString queuedNote() const;

    std::deque<Queued> m_queue;
    std::vector<PendingComparison> m_pending;
    QPointer<TraceLoader> m_loader;
    //! One task per comparison: each must finish (a later one does not supersede an earlier).
    std::vector<std::unique_ptr<BackgroundTask<Compared>>> m_comparing;
    BackgroundTask<OpenedRun> m_run {this};
    std::shared_ptr<RunProgress> m_runProgress;
    QTimer m_runPoll;
    bool comparing() const;
};

} // namespace ks
