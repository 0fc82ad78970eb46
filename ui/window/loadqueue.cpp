// SPDX-License-Identifier: MIT
#include "window/loadqueue.h"

#include "window/traceloader.h"

#include "base/usablecores.h"

#include <QFileInfo>

#include <algorithm>

namespace ks {

LoadQueue::LoadQueue(QObject *parent)
    : QObject(parent)
{
    m_runPoll.setInterval(100);
    connect(&m_runPoll, &QTimer::timeout, this, [this] {
        const size_t done = m_runProgress->done, total = m_runProgress->total;
        if (total > 0)
            emit progress(
                tr("Opening a run: %1 of %2 ranks loaded").arg(done).arg(total) + queuedNote(),
                int(1000 * done / total));
    });
}

LoadQueue::~LoadQueue() = default;

void LoadQueue::open(const QStringList &paths)
{
    for (const QString &p : paths) {
        if (!p.isEmpty())
            m_queue.push_back({Queued::Trace, p, {}});
    }
    if (!m_loader && !m_run.pending())
        startNext();
}

void LoadQueue::compare(const Side &base, const Side &candidate, const DiffOptions &options)
{
    PendingComparison comparison {base, candidate, options};
    if (base.trace && candidate.trace) {
        startComparison(comparison);
        return;
    }
    for (const Side *side : {&base, &candidate}) {
        if (!side->trace)
            m_queue.push_back({Queued::ComparisonSide, side->path, {}});
    }
    m_pending.push_back(std::move(comparison));
    if (!m_loader && !m_run.pending())
        startNext();
}

void LoadQueue::openRun(const QStringList &paths)
{
    m_queue.push_back({Queued::Run, {}, paths});
    if (!m_loader && !m_run.pending())
        startNext();
}

void LoadQueue::cancel()
{
    m_queue.clear();
    m_pending.clear();
    for (auto &task : m_comparing)
        task->cancel();
    if (m_run.pending()) {
        m_run.cancel();
        m_runPoll.stop();
        emit cancelled(tr("the run"));
    }
    if (m_loader)
        m_loader->cancel(); // its cancelled() starts what is next: nothing
    else
        emit idle();
}

bool LoadQueue::busy() const
{
    return m_loader != nullptr || m_run.pending() || !m_queue.empty() || comparing();
}

bool LoadQueue::comparing() const
{
    return std::any_of(
        m_comparing.begin(), m_comparing.end(), [](const auto &task) { return task->pending(); });
}

QString LoadQueue::queuedNote() const
{
    return m_queue.empty() ? QString() : tr(" (%n more queued)", nullptr, int(m_queue.size()));
}

void LoadQueue::startNext()
{
    if (m_queue.empty()) {
        if (!comparing())
            emit idle();
        return;
    }
    const Queued next = m_queue.front();
    m_queue.pop_front();
    if (next.kind == Queued::Run)
        startRun(next.runPaths);
    else
        startTrace(next);
}

void LoadQueue::finishedOne()
{
    if (m_loader) {
        m_loader->deleteLater();
        m_loader = nullptr;
    }
    startNext();
}

void LoadQueue::startTrace(const Queued &next)
{
    // A comparison shows timelines and its own table, not the trace's pair tables.
    auto *loader = new TraceLoader(next.path,
        next.kind == Queued::ComparisonSide ? WindowUse::Timeline : WindowUse::Tab, this);
    m_loader = loader;
    const QString name = QFileInfo(next.path).fileName();
    emit progress(tr("Loading %1…").arg(name), 0);
    connect(loader, &TraceLoader::progress, this, [this, name](int permille, double bps) {
        emit progress(
            tr("Loading %1: %2% · %3 MB/s").arg(name).arg(permille / 10).arg(bps / 1e6, 0, 'f', 0)
                + queuedNote(),
            permille);
    });
    connect(loader, &TraceLoader::finished, this,
        [this, next](std::shared_ptr<const LoadedTrace> trace) {
            if (next.kind == Queued::ComparisonSide)
                comparisonTraceLoaded(next.path, trace);
            else
                emit traceLoaded(next.path, std::move(trace));
            finishedOne();
        });
    connect(loader, &TraceLoader::failed, this, [this, next](const QString &message) {
        if (next.kind == Queued::ComparisonSide) {
            // The comparison cannot happen without both traces.
            std::erase_if(m_pending, [&](const PendingComparison &c) {
                return (!c.base.trace && c.base.path == next.path)
                    || (!c.candidate.trace && c.candidate.path == next.path);
            });
        }
        emit failed(tr("Cannot open trace"), message);
        finishedOne();
    });
    connect(loader, &TraceLoader::cancelled, this, [this, name] {
        emit cancelled(name);
        finishedOne();
    });
    loader->start();
}

LoadQueue::OpenedRun LoadQueue::openRunOf(const std::vector<std::string> &args,
    const std::shared_ptr<RunProgress> &counters,
    const std::atomic<bool> &stop)
{
    OpenedRun out;
    RunOptions options;
    options.cancel = &stop;
    options.forWindow = true; // the first frame draws every rank
    options.progress = [counters](size_t done, size_t total) {
        counters->total = total;
        // Ranks finish on several threads: the count only ever rises.
        size_t seen = counters->done;
        while (seen < done && !counters->done.compare_exchange_weak(seen, done)) { }
    };
    out.run = ks::openRun(args, options, out.error);
    return out;
}

void LoadQueue::startRun(const QStringList &paths)
{
    std::vector<std::string> args;
    for (const QString &p : paths)
        args.push_back(p.toStdString());
    m_runProgress = std::make_shared<RunProgress>();
    emit progress(tr("Opening a run of %n rank(s)…", nullptr, int(paths.size())), 0);
    m_runPoll.start();
    // The work captures values only: the arguments and the counters the poll reads.
    m_run.run(
        [args, counters = m_runProgress](const std::atomic<bool> &stop) {
            try {
                return openRunOf(args, counters, stop);
            } catch (const std::bad_alloc &) { // on a pool thread, the window would abort
                OpenedRun none;
                none.error = "not enough memory to open this run";
                return none;
            }
        },
        [this](OpenedRun opened) {
            m_runPoll.stop();
            if (opened.run)
                emit runReady(std::move(opened.run));
            else
                emit failed(tr("Cannot open the run"), QString::fromStdString(opened.error));
            finishedOne();
        });
}

void LoadQueue::comparisonTraceLoaded(
    const QString &path, const std::shared_ptr<const LoadedTrace> &trace)
{
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
        if (it->base.path == path && !it->base.trace)
            it->base.trace = trace;
        else if (it->candidate.path == path && !it->candidate.trace)
            it->candidate.trace = trace;
        else
            continue;
        if (!it->base.trace || !it->candidate.trace)
            return;
        const PendingComparison ready = std::move(*it);
        m_pending.erase(it);
        startComparison(ready);
        return;
    }
}

void LoadQueue::startComparison(const PendingComparison &ready)
{
    // Aligning two large traces takes a while: on a worker, which Cancel can stop. A task is
    // let go only once its work has ended: its destructor would wait for it here.
    std::erase_if(
        m_comparing, [](const auto &task) { return !task->pending() && !task->running(); });
    emit progress(
        tr("Comparing %1 with %2…")
            .arg(QFileInfo(QString::fromStdString(ready.candidate.trace->model->path)).fileName(),
                QFileInfo(QString::fromStdString(ready.base.trace->model->path)).fileName()),
        -1);
    m_comparing.push_back(std::make_unique<BackgroundTask<Compared>>(this));
    m_comparing.back()->run(
        [ready](const std::atomic<bool> &stop) {
            Compared c;
            c.options = ready.options;
            DiffOptions options = ready.options;
            options.cancel = &stop;
            c.compared
                = ComparedTraces::make(ready.base.trace, ready.candidate.trace, options, c.error);
            return c;
        },
        [this](Compared c) {
            if (c.compared)
                emit comparisonReady(std::move(c.compared), c.options);
            else
                emit failed(tr("Cannot compare"), QString::fromStdString(c.error));
            if (!busy())
                emit idle();
        });
}

} // namespace ks
