// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QUnhandledException>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ks {

/*!
 * Where the failures of background work go that their owner does not take itself: the main
 * window shows them in its status bar, and the rest of the window works on.
 */
class TaskFailures : public QObject {
    Q_OBJECT
public:
    static TaskFailures &instance();
    //! What \a error, thrown by a worker, says for a person ("not enough memory" for bad_alloc).
    static QString describe(const std::exception_ptr &error);

signals:
    void failed(const QString &why);
};

/*!
 * The one idiom for work off the UI thread (Hotspot's JobTracker, RenderDoc's AsyncInvoke):
 *
 *  - run(work, done): work(stop) runs on the thread pool. It must capture values only (shared
 *    pointers to frozen data, copies of parameters), never the object that started it, and may
 *    return early once stop is set.
 *  - done(result) then runs on the context's thread, but only if this task still exists and no
 *    later run() superseded the work: a filter typed after another makes the older result stale,
 *    and it is dropped rather than applied.
 *  - Work that throws (out of memory on a worker) never throws on the UI thread: failed(why)
 *    runs instead, or without one TaskFailures says it, and the window works on.
 *  - When the task goes (its owner closes), it sets stop on everything still running and waits
 *    for it, so no worker outlives the data of its owner.
 */
template<typename Result> class BackgroundTask {
public:
    using Work = std::function<Result(const std::atomic<bool> &stop)>;
    using Done = std::function<void(Result)>;
    using Failed = std::function<void(const QString &why)>;

    //! \a context: the object whose thread runs done(); usually the owner.
    explicit BackgroundTask(QObject *context)
        : m_context(context)
        , m_alive(std::make_shared<bool>(true))
    {
    }
    BackgroundTask(const BackgroundTask &) = delete;
    BackgroundTask &operator=(const BackgroundTask &) = delete;
    ~BackgroundTask()
    {
        *m_alive = false;
        for (Running &r : m_running) {
            r.stop->store(true);
            try {
                r.future.waitForFinished();
            } catch (...) { // the work's failure, rethrown by the wait: no one is left to tell
            }
        }
    }

    void run(Work work, Done done, Failed failed = {})
    {
        prune();
        for (Running &r : m_running)
            r.stop->store(true); // superseded: let it stop early
        const uint64_t generation = ++m_generation;
        auto stop = std::make_shared<std::atomic<bool>>(false);
        QFuture<Result> future
            = QtConcurrent::run([work = std::move(work), stop] { return work(*stop); });
        m_running.push_back({future, stop});
        auto *watcher = new QFutureWatcher<Result>(m_context);
        std::weak_ptr<bool> alive = m_alive;
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_context,
            [this, watcher, generation, alive, done = std::move(done), failed = std::move(failed)] {
                watcher->deleteLater();
                const auto owner = alive.lock();
                if (!owner || !*owner || generation != m_generation)
                    return;
                m_settled = generation;
                std::optional<Result> result;
                QString why;
                try {
                    result.emplace(watcher->result());
                } catch (...) {
                    why = TaskFailures::describe(std::current_exception());
                }
                if (result)
                    done(std::move(*result));
                else if (failed)
                    failed(why);
                else
                    emit TaskFailures::instance().failed(why);
            });
        watcher->setFuture(future);
    }

    //! Drops the result of the work in flight (it is stopped and its done() never runs).
    void cancel()
    {
        m_settled = ++m_generation;
        for (Running &r : m_running)
            r.stop->store(true);
    }

    //! True from run() until the latest work's result is delivered (or cancelled).
    bool pending() const { return m_settled != m_generation; }
    //! True while any work runs, cancelled or superseded work included (the destructor waits).
    bool running() const
    {
        return std::any_of(m_running.begin(), m_running.end(),
            [](const Running &r) { return !r.future.isFinished(); });
    }

private:
    struct Running {
        QFuture<Result> future;
        std::shared_ptr<std::atomic<bool>> stop;
    };
    void prune()
    {
        std::erase_if(m_running, [](const Running &r) { return r.future.isFinished(); });
    }

    QObject *m_context;
    std::shared_ptr<bool> m_alive;
    uint64_t m_generation = 0; //!< of the latest run()
    uint64_t m_settled = 0; //!< the generation last delivered or cancelled
    std::vector<Running> m_running;
};

} // namespace ks
