// SPDX-License-Identifier: MIT
#pragma once

#include "common/backgroundtask.h"
#include "session/comparedtraces.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <deque>
#include <memory>
#include <vector>

namespace ks {

class TraceLoader;

/*!
 * The window's loads, one at a time in the order asked: traces for tabs, and pairs of traces for
 * comparisons, which are compared on a worker once both have loaded. Cancel stops the running
 * load and forgets everything queued, comparisons included.
 */
class LoadQueue : public QObject {
    Q_OBJECT
public:
    explicit LoadQueue(QObject *parent = nullptr);
    ~LoadQueue() override;

    void open(const QStringList &paths);
    void compare(const QString &base, const QString &candidate, const DiffOptions &options);
    void cancel();
    //! A load runs, or waits, or a comparison is computed.
    bool busy() const;

signals:
    //! Text for the status bar ("Loading x: 40% · 300 MB/s (2 more queued)") and permille.
    void progress(const QString &text, int permille);
    void idle();
    void traceLoaded(const QString &path, std::shared_ptr<const ks::LoadedTrace> trace);
    void comparisonReady(
        std::shared_ptr<ks::ComparedTraces> compared, const ks::DiffOptions &options);
    void failed(const QString &title, const QString &message);
    void cancelled(const QString &name);

private:
    struct Queued {
        QString path;
        bool forComparison = false; //!< goes to a pending comparison, not a tab of its own
    };
    //! A comparison waiting for its traces: paths, options, and what has loaded so far.
    struct PendingComparison {
        QString base, candidate;
        DiffOptions options;
        std::shared_ptr<const LoadedTrace> baseTrace, candidateTrace;
    };
    struct Compared {
        std::shared_ptr<ComparedTraces> compared;
        DiffOptions options;
        std::string error;
    };

    void startNext();
    void loaded(const QString &path, bool forComparison, std::shared_ptr<const LoadedTrace> trace);
    void comparisonTraceLoaded(
        const QString &path, const std::shared_ptr<const LoadedTrace> &trace);

    std::deque<Queued> m_queue;
    std::vector<PendingComparison> m_pending;
    QPointer<TraceLoader> m_loader;
    //! One task per comparison: each must finish (a later one does not supersede an earlier).
    std::vector<std::unique_ptr<BackgroundTask<Compared>>> m_comparing;
    bool comparing() const;
};

} // namespace ks
