// SPDX-License-Identifier: MIT
#include "eventsink.h"

#include "tracebuilder.h"

#include <system_error>

namespace ks {

EventSink::EventSink(TraceBuilder &builder, bool builderThread)
    : m_builder(builder)
    , m_threaded(builderThread)
    , m_batches(builderThread ? kBatches : 1)
{
    // Every allocation up front: handing over must not throw between the two threads.
    m_full.reserve(m_batches.size());
    m_free.reserve(m_batches.size());
    for (Batch &b : m_batches) {
        b.events.resize(builderThread ? kBatchEvents : 1);
        m_free.push_back(&b);
    }
    m_current = m_free.back();
    m_free.pop_back();
    if (!m_threaded)
        return;
    try {
        m_thread = std::thread([this] { run(); });
    } catch (const std::system_error &) {
        m_threaded = false; // no thread to be had (memory or the process's limit): add at once
    }
}

EventSink::~EventSink()
{
    try {
        finish();
    } catch (...) {
        // Unwinding already (the parse threw), or the caller did not call finish(): nothing to add.
    }
}

bool EventSink::commit()
{
    if (!m_threaded) {
        m_builder.add(m_current->events[0]);
        return true;
    }
    if (++m_current->count == m_current->events.size())
        handOver();
    return !m_failed.load(std::memory_order_relaxed);
}

void EventSink::handOver()
{
    std::unique_lock lock(m_mutex);
    m_full.push_back(m_current);
    if (m_builderWaiting) // a wake-up costs microseconds: only when someone sleeps
        m_changed.notify_all();
    if (m_free.empty()) {
        m_parserWaiting = true;
        m_changed.wait(lock, [this] { return !m_free.empty(); });
        m_parserWaiting = false;
    }
    m_current = m_free.back();
    m_free.pop_back();
}

void EventSink::run()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (m_full.empty() && !m_done) {
            m_builderWaiting = true;
            m_changed.wait(lock, [this] { return !m_full.empty() || m_done; });
            m_builderWaiting = false;
        }
        if (m_full.empty())
            return; // done, and everything added
        Batch *batch = m_full.front();
        m_full.erase(m_full.begin());
        lock.unlock();
        if (!m_error) {
            try {
                for (size_t i = 0; i < batch->count; ++i)
                    m_builder.add(batch->events[i]);
            } catch (...) {
                // Out of memory, most likely: the parser stops at its next commit, finish() throws.
                m_error = std::current_exception();
                m_failed = true;
            }
        }
        batch->count = 0;
        lock.lock();
        m_free.push_back(batch);
        if (m_parserWaiting)
            m_changed.notify_all();
    }
}

void EventSink::finish()
{
    if (!m_threaded || m_finished)
        return;
    m_finished = true;
    {
        std::lock_guard lock(m_mutex);
        if (m_current->count > 0)
            m_full.push_back(m_current); // the open event, if any, lies beyond count: not added
        m_done = true;
    }
    m_changed.notify_all();
    m_thread.join();
    if (m_error)
        std::rethrow_exception(m_error);
}

} // namespace ks
