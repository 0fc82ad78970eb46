// SPDX-License-Identifier: MIT
#include "eventsink.h"

#include "tracebuilder.h"

#include <algorithm>

namespace ks {

EventSink::EventSink(TraceBuilder &builder, bool builderThread)
    : m_builder(builder)
    , m_batches(builderThread ? kBatches : 1)
{
    for (Batch &b : m_batches) {
        b.events.resize(builderThread ? kBatchEvents : 1);
        m_free.push_back(&b);
    }
    m_current = m_free.back();
    m_free.pop_back();
    if (builderThread)
        m_thread = std::thread([this] { run(); });
}

EventSink::~EventSink()
{
    try {
        finish();
    } catch (...) {
        // finish() has reported it already, or the caller is unwinding from something else.
    }
}

void EventSink::commit()
{
    if (!m_thread.joinable()) {
        m_builder.add(m_current->events[0]);
        return;
    }
    if (++m_current->count == m_current->events.size())
        handOver();
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
                m_error = std::current_exception(); // the rest is only drained: finish() throws
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
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        if (m_current->count > 0) {
            m_full.push_back(m_current);
            m_current = nullptr;
        }
        m_done = true;
    }
    m_changed.notify_all();
    m_thread.join();
    if (!m_current) { // keep next() valid for a caller that still looks at the open event
        m_current = m_free.back();
        m_free.pop_back();
    }
    if (m_error)
        std::rethrow_exception(std::exchange(m_error, nullptr));
}

} // namespace ks
