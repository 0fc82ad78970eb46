// SPDX-License-Identifier: MIT
#include "window/loadqueue.h"

#include "window/traceloader.h"

#include <QFileInfo>

#include <algorithm>

namespace ks {

LoadQueue::LoadQueue(QObject *parent)
    : QObject(parent)
{
}

LoadQueue::~LoadQueue() = default;

void LoadQueue::open(const QStringList &paths)
{
    for (const QString &p : paths) {
        if (!p.isEmpty())
            m_queue.push_back({p, false});
    }
    if (!m_loader)
        startNext();
}

void LoadQueue::compare(const QString &base, const QString &candidate, const DiffOptions &options)
{
    m_pending.push_back({base, candidate, options, nullptr, nullptr});
    m_queue.push_back({base, true});
    m_queue.push_back({candidate, true});
    if (!m_loader)
        startNext();
}

void LoadQueue::cancel()
{
    m_queue.clear();
    m_pending.clear();
    for (auto &task : m_comparing)
        task->cancel();
    if (m_loader)
        m_loader->cancel();
    else
        emit idle();
}

bool LoadQueue::busy() const
{
    return m_loader != nullptr || !m_queue.empty() || comparing();
}

bool LoadQueue::comparing() const
{
    return std::any_of(
        m_comparing.begin(), m_comparing.end(), [](const auto &task) { return task->pending(); });
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
    auto *loader = new TraceLoader(next.path, this);
    m_loader = loader;
    const QString name = QFileInfo(next.path).fileName();
    emit progress(tr("Loading %1…").arg(name), 0);
    connect(loader, &TraceLoader::progress, this, [this, name](int permille, double bps) {
        QString text = tr("Loading %1: %2% · %3 MB/s")
                           .arg(name)
                           .arg(permille / 10)
                           .arg(bps / 1e6, 0, 'f', 0);
        if (!m_queue.empty())
            text += tr(" (%n more queued)", nullptr, int(m_queue.size()));
        emit progress(text, permille);
    });
    auto done = [this, loader] {
        loader->deleteLater();
        m_loader = nullptr;
        startNext();
    };
    connect(loader, &TraceLoader::finished, this,
        [this, next, done](std::shared_ptr<const LoadedTrace> trace) {
            loaded(next.path, next.forComparison, std::move(trace));
            done();
        });
    connect(loader, &TraceLoader::failed, this, [this, next, done](const QString &message) {
        if (next.forComparison) {
            // The comparison cannot happen without both traces.
            std::erase_if(m_pending, [&](const PendingComparison &c) {
                return c.base == next.path || c.candidate == next.path;
            });
        }
        emit failed(tr("Cannot open trace"), message);
        done();
    });
    connect(loader, &TraceLoader::cancelled, this, [this, name, done] {
        emit cancelled(name);
        done();
    });
    loader->start();
}

void LoadQueue::loaded(
    const QString &path, bool forComparison, std::shared_ptr<const LoadedTrace> trace)
{
    if (forComparison)
        comparisonTraceLoaded(path, trace);
    else
        emit traceLoaded(path, std::move(trace));
}

void LoadQueue::comparisonTraceLoaded(
    const QString &path, const std::shared_ptr<const LoadedTrace> &trace)
{
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
        if (it->base == path && !it->baseTrace)
            it->baseTrace = trace;
        else if (it->candidate == path && !it->candidateTrace)
            it->candidateTrace = trace;
        else
            continue;
        if (!it->baseTrace || !it->candidateTrace)
            return;
        // Both loaded: compare on a worker (aligning two large traces takes a while).
        const PendingComparison ready = std::move(*it);
        m_pending.erase(it);
        std::erase_if(m_comparing, [](const auto &task) { return !task->pending(); });
        m_comparing.push_back(std::make_unique<BackgroundTask<Compared>>(this));
        m_comparing.back()->run(
            [ready](const std::atomic<bool> &) {
                Compared c;
                c.options = ready.options;
                c.compared = ComparedTraces::make(
                    ready.baseTrace, ready.candidateTrace, ready.options, c.error);
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
        return;
    }
}

} // namespace ks
