// SPDX-License-Identifier: MIT
#pragma once

#include "flowbinder.h"
#include "model/tracemodel.h"
#include "rawevent.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace ks {

/*!
 * Turns the stream of RawEvents into a frozen TraceModel: groups slices by lane, matches B/E
 * pairs per thread, keeps the lane and process tables, has each lane sorted and nested
 * (slicenester.h) and flow endpoints bound to slices (flowbinder.h), and counts every anomaly
 * in the model's diagnostics instead of dropping it silently.
 */
class TraceBuilder {
public:
    TraceBuilder();
    ~TraceBuilder();

    StringPool &strings() { return m_model->strings; }
    Diagnostics &diagnostics() { return m_model->diagnostics; }
    TraceModel &model() { return *m_model; }

    /*!
     * Places one event. May run on a thread of its own beside the parser: it touches neither the
     * string pool nor anything else the parser writes (names are interned, kinds and counter
     * series named by the reader).
     */
    void add(const RawEvent &event);

    //! Sorts, nests and binds; the builder is empty afterwards.
    std::unique_ptr<TraceModel> finish();

    /*!
     * Makes this the builder of a later segment of the text (segmentedparse.h): an E that finds
     * no B of this segment open on its thread may close one of an earlier segment, so it is kept
     * for append() to match instead of being counted unmatched. Call before the first add().
     */
    void continueEarlierText() { m_continues = true; }
    /*!
     * What this segment's builder cannot place on its own, so that the segment is parsed again
     * after the earlier ones: an E whose thread has no lane here while the thread's other side
     * has an open B (it closes that B only if the earlier text has no lane for its own side), or
     * a numeric pid or tid among the keys of text ids (append() could not tell them apart).
     */
    bool needsEarlierText() const { return m_ambiguous; }
    bool continuesEarlierText() const { return m_continues; }
    /*!
     * Takes every event of \a later, the builder of the text right after this builder's, as if
     * this builder had read them itself: strings re-interned in their first-use order, lanes
     * and counters found by key, the E events it kept closing B events here
     * (tracebuilderappend.cpp). \a later is spent: destroy it.
     */
    void append(TraceBuilder &later);

private:
    struct LaneKey {
        int64_t pid;
        int64_t tid;
        bool device;
        bool operator==(const LaneKey &) const = default;
    };
    struct LaneKeyHash {
        size_t operator()(const LaneKey &k) const noexcept;
    };
    struct LaneState; // one lane's key, written ids and final index
    struct Columns; // every slice and instant in file order, tagged with its lane
    struct MetadataEntry;
    struct PendingEnd; // an E kept for append() (continueEarlierText())
    struct Remap; // what append() translates: string ids and lanes

    int64_t keyOf(const RawId &id);
    uint32_t laneIndex(const RawEvent &e, bool device);
    void addSlice(const RawEvent &e, TimeNs start, TimeNs dur, uint8_t flags);
    void beginSlice(const RawEvent &e);
    void endSlice(const RawEvent &e);
    void addInstant(const RawEvent &e);
    void addCounter(const RawEvent &e);
    void addMetadata(const RawEvent &e);
    void addFlow(const RawEvent &e);
    bool readTime(const RawEvent &e, TimeNs &ts);

    bool deferEnd(const RawEvent &e, TimeNs ts, const LaneKey &key);
    /*!
     * The B events still open on the lane of \a key, innermost last; with \a eitherSide, those
     * of the lane on the other side when \a key has no lane. Null when there is no such lane.
     */
    std::vector<uint32_t> *openBeginsOn(LaneKey key, bool eitherSide);
    void closeOn(uint32_t slice,
        TimeNs ts,
        int decimals,
        int64_t externalId,
        int64_t correlation,
        uint64_t offset,
        Diagnostics &diag);
    void matchPendingEnds(const TraceBuilder &later, const Remap &remap, Diagnostics &diag);
    void appendLanes(TraceBuilder &later, Remap &remap);
    void appendColumns(TraceBuilder &later, const Remap &remap);
    void appendTables(TraceBuilder &later, const Remap &remap);

    //! The model's lane of a thread, by the builder's hash (lanes are numbered by then).
    LaneId finalLane(int64_t pid, int64_t tid, bool device) const;
    void closeOpenBegins();
    void buildLanes();
    void buildInstants();
    void buildMemory();
    void buildProcesses();
    void buildCounters();
    void computeTimeRange();

    std::unique_ptr<TraceModel> m_model;
    std::vector<LaneState> m_lanes;
    std::string m_writtenIds; //!< see LaneState
    //! Per lane, the B slices waiting for their E, innermost last
    std::map<uint32_t, std::vector<uint32_t>> m_openBegins;
    std::unique_ptr<Columns> m_columns;
    std::unordered_map<LaneKey, uint32_t, LaneKeyHash> m_laneIndex;
    LaneKey m_lastKey {0, 0, false};
    uint32_t m_lastLane = ~0u;
    FlowBinder m_flows;
    std::vector<MetadataEntry> m_metadata;
    struct GlobalInstant {
        TimeNs time;
        StringId name;
        uint64_t offset;
    };
    std::vector<GlobalInstant> m_globalInstants;
    //! `[memory]` / `[OutOfMemory]` instants as read, lanes still the builder's.
    struct MemoryEvent {
        TimeNs time;
        uint32_t lane; //!< builder lane index
        int64_t deviceType, deviceId, addr, bytes, totalAllocated, totalReserved;
        uint8_t outOfMemory;
        uint64_t offset;
    };
    std::vector<MemoryEvent> m_memory;
    struct CounterKey {
        int64_t pid;
        StringId name;
        bool operator==(const CounterKey &) const = default;
    };
    struct CounterKeyHash {
        size_t operator()(const CounterKey &k) const noexcept;
    };
    std::unordered_map<CounterKey, uint32_t, CounterKeyHash> m_counterIndex;
    bool m_continues = false;
    bool m_ambiguous = false;
    std::vector<PendingEnd> m_pendingEnds;
};

} // namespace ks
