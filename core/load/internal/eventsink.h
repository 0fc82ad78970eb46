// SPDX-License-Identifier: MIT
#pragma once

#include "rawevent.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ks {

class TraceBuilder;

/*!
 * Hands complete events from the JSON handler to the TraceBuilder. With a builder thread, events
 * travel in batches to a second core, so that placing them in columns (and the page faults of
 * growing those) runs beside the parse instead of after each event; without one (small inputs,
 * where a thread costs more than it saves) each event is added at once.
 *
 * The handler fills the event that next() returns, in place, and calls commit() when it is
 * complete. The builder reads events only, in file order, and must not be touched by anyone else
 * until finish() has returned.
 */
class EventSink {
public:
    EventSink(TraceBuilder &builder, bool builderThread);
    ~EventSink();
    EventSink(const EventSink &) = delete;
    EventSink &operator=(const EventSink &) = delete;

    //! The event to fill: the same one until commit(). Not after finish().
    RawEvent &next() { return m_current->events[m_current->count]; }
    //! The event from next() is complete. False when the builder failed: stop, finish() throws.
    bool commit();
    //! Every committed event is in the builder; rethrows what the builder thread threw.
    void finish();

private:
    struct Batch {
        std::vector<RawEvent> events;
        size_t count = 0;
    };
    static constexpr size_t kBatchEvents = 2048;
    static constexpr size_t kBatches = 4;

    void handOver();
    void run();

    TraceBuilder &m_builder;
    bool m_threaded; //!< false too when no thread could be started
    bool m_finished = false;
    std::vector<Batch> m_batches;
    Batch *m_current = nullptr;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<Batch *> m_full; //!< waiting for the builder, oldest first
    std::vector<Batch *> m_free;
    bool m_builderWaiting = false;
    bool m_parserWaiting = false;
    bool m_done = false;
    std::exception_ptr m_error; //!< written by the builder thread, read after joining it
    std::atomic<bool> m_failed {false};
    std::thread m_thread;
};

} // namespace ks
