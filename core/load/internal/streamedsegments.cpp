// SPDX-License-Identifier: MIT
// Segments of a text read in order: whichever thread comes free cuts the next segment off the
// source (under one lock, so segments are numbered in text order), parses it from memory into a
// builder of its own, and then joins every parsed segment that is next in line (under a second
// lock). A thread waits before cutting while too many segments are cut but not yet joined, which
// bounds the text and builders held at once.
#include "streamedsegments.h"

#include "segmentparts.h"
#include "textstream.h"

#include "base/parallel.h"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <new>
#include <string_view>
#include <thread>

namespace ks {

namespace {

//! A segment that finds no event boundary within this many times its size stops the split.
constexpr uint64_t kMaxSegmentFactor = 8;
//! Text scanned again for a boundary that straddles two chunks.
constexpr size_t kBoundaryOverlap = 4096;

//! A segment's text, cut from the source: synthetic head, the text's bytes, synthetic tail.
struct Piece {
    size_t index = 0;
    uint64_t begin = 0; //!< offset of its first byte in the text
    std::string text;
    size_t head = 0; //!< synthetic bytes before the text's
    size_t body = 0; //!< the text's bytes
    bool last = false;
};

class StreamedParse {
public:
    StreamedParse(ChunkedText &source, const StreamedOptions &options)
        : m_source(source)
        , m_options(options)
        , m_parsing(options.threads)
    {
    }

    std::optional<PassResult> run(std::unique_ptr<TraceBuilder> &builder);

private:
    void work(size_t worker);
    bool waitForRoom();
    //! Cuts the next segment into \a piece; false when there is none (or the split stops).
    bool cut(Piece &piece);
    //! Adds the source's next chunk to \a text; false at the text's end.
    bool readChunk(std::string &text);
    //! Stops cutting: the text from the segment being cut on is parsed in one piece.
    bool giveUp()
    {
        m_cutsDone = true;
        m_failed = true;
        return false;
    }
    Segment parse(const Piece &piece, size_t worker);
    void deposit(Segment segment, size_t index, bool last);
    void stopOn(const ParseOutcome &o);
    //! Passes a cancel on to the parses; reports progress on the calling thread.
    void noteCancelAndProgress();
    void reportProgress();

    ChunkedText &m_source;
    const StreamedOptions &m_options;
    const std::thread::id m_caller = std::this_thread::get_id();
    //! Set when the split stops: a false split, memory gone, cancelled.
    std::atomic<bool> m_abort {false};

    // The source's side.
    std::mutex m_sourceMutex;
    std::optional<SegmentLayout> m_layout;
    std::string m_carry; //!< text read past the last cut
    uint64_t m_carryAt = 0; //!< where it starts in the text
    size_t m_cut = 0; //!< segments cut so far
    bool m_cutsDone = false; //!< the text has ended, or the split has stopped
    std::vector<std::string> m_spare; //!< segment buffers for reuse (no new page faults)

    // The join's side.
    std::mutex m_joinMutex;
    std::condition_variable m_room;
    std::map<size_t, std::pair<Segment, bool>> m_waiting; //!< parsed, not joined: (segment, last)
    std::unique_ptr<TraceBuilder> m_whole; //!< segment 0's builder, holding those joined
    std::vector<PassResult> m_joined;
    bool m_lastJoined = false;
    std::atomic<bool> m_failed {false}; //!< a split proved nothing: the rest in one piece
    uint64_t m_joinedEnd = 0; //!< where the segments joined end in the text
    std::optional<ParseOutcome> m_stopped; //!< where memory ran out
    double m_joinSeconds = 0;

    // Progress, read by the calling thread.
    std::atomic<uint64_t> m_textRead {0}, m_compressedRead {0}, m_parsedDone {0};
    std::vector<std::atomic<uint64_t>> m_parsing; //!< per worker, of its segment
};

std::optional<PassResult> StreamedParse::run(std::unique_ptr<TraceBuilder> &builder)
{
    const auto started = std::chrono::steady_clock::now();
    parallelFor(
        m_options.threads, m_options.threads, [this](size_t w) { work(w); },
        [this] { reportProgress(); });
    if (m_options.cancel && m_options.cancel->load()) {
        ParseOutcome cancelled;
        cancelled.cancelled = true;
        cancelled.tellAtError = m_parsedDone;
        return stoppedPass(cancelled);
    }
    if (m_stopped)
        return stoppedPass(*m_stopped);
    if (m_joined.empty() || (!m_failed && !m_lastJoined))
        return std::nullopt;
    if (!m_lastJoined) // the joined segments are true; the rest, in one piece
        m_joined.push_back(m_options.parseRest(m_joinedEnd, m_layout->head, *m_whole));
    std::vector<PassResult *> used;
    for (PassResult &r : m_joined)
        used.push_back(&r);
    PassResult out = combinedPasses(used);
    out.phases.parse = secondsSince(started) - m_joinSeconds;
    out.phases.join = m_joinSeconds;
    builder = std::move(m_whole);
    return out;
}

void StreamedParse::work(size_t worker)
{
    try {
        Piece piece;
        while (waitForRoom()) {
            {
                std::lock_guard lock(m_sourceMutex);
                if (!cut(piece))
                    return;
            }
            Segment segment = parse(piece, worker);
            m_parsedDone += piece.body;
            m_parsing[worker] = 0;
            noteCancelAndProgress(); // a small segment may hold no checkpoint
            {
                std::lock_guard lock(m_sourceMutex);
                m_spare.push_back(std::move(piece.text));
            }
            deposit(std::move(segment), piece.index, piece.last);
        }
    } catch (const std::bad_alloc &) {
        ParseOutcome o;
        o.outOfMemory = true;
        o.stoppedAt = m_parsedDone;
        o.tellAtError = o.stoppedAt;
        std::lock_guard lock(m_joinMutex);
        stopOn(o);
    }
}

bool StreamedParse::waitForRoom()
{
    std::unique_lock lock(m_joinMutex);
    const size_t ahead = 2 * size_t(m_options.threads);
    m_room.wait(lock, [&] {
        std::lock_guard source(m_sourceMutex);
        return m_abort || m_cut < m_joined.size() + ahead;
    });
    return !m_abort;
}

bool StreamedParse::cut(Piece &piece)
{
    if (m_cutsDone || m_abort)
        return false;
    piece.index = m_cut++;
    if (!m_spare.empty()) {
        piece.text = std::move(m_spare.back());
        m_spare.pop_back();
    }
    piece.text.clear(); // keeping its capacity: assigning a string could swap it away
    if (piece.index > 0)
        piece.text += m_layout->head;
    piece.head = piece.text.size();
    piece.begin = m_carryAt;
    piece.text += m_carry;
    m_carry.clear();
    const uint64_t size = m_options.segmentBytes;
    size_t scanFrom = piece.head + size_t(size);
    for (;;) {
        if (piece.text.size() >= scanFrom) {
            if (!m_layout
                && !(m_layout = segmentLayout(std::string_view(piece.text).substr(0, 4096))))
                return giveUp(); // neither an object nor an array
            const size_t at = eventBoundary(std::string_view(piece.text).substr(scanFrom));
            if (at != std::string_view::npos) {
                const size_t split = scanFrom + at;
                m_carry.assign(piece.text, split);
                piece.text.resize(split);
                break;
            }
            if (piece.text.size() - piece.head > kMaxSegmentFactor * size)
                return giveUp(); // no boundary in sight
            scanFrom = std::max(
                scanFrom, piece.text.size() - std::min(piece.text.size(), kBoundaryOverlap));
        }
        if (!readChunk(piece.text)) {
            m_cutsDone = piece.last = true;
            break;
        }
    }
    piece.body = piece.text.size() - piece.head;
    m_carryAt = piece.begin + piece.body;
    if (!piece.last)
        piece.text += m_layout->tail;
    return true;
}

bool StreamedParse::readChunk(std::string &text)
{
    TextChunk chunk = m_source.next();
    if (chunk.size == 0)
        return false;
    text.append(chunk.data.get(), chunk.size);
    m_textRead += chunk.size;
    m_compressedRead = chunk.compressedEnd;
    m_source.recycle(std::move(chunk));
    return true;
}

Segment StreamedParse::parse(const Piece &piece, size_t worker)
{
    Segment s;
    s.begin = piece.begin;
    s.end = piece.begin + piece.body;
    s.builder = std::make_unique<TraceBuilder>();
    if (piece.index > 0)
        s.builder->continueEarlierText();
    TextStream stream(piece.text);
    const TextPlace place {piece.begin, piece.head, piece.body};
    const auto checkpoint = [&] {
        m_parsing[worker].store(
            place.fileOffset(stream.Tell()) - piece.begin, std::memory_order_relaxed);
        noteCancelAndProgress();
    };
    s.result = parseText(stream, place, *s.builder, false, checkpoint, &m_abort);
    // Where the last segment's parse read to the text's end, as a parse in one piece says it.
    const bool atEnd = piece.last && s.result.outcome.tellAtError == s.end;
    s.result.outcome.textSize = atEnd ? s.end : ~uint64_t(0);
    return s;
}

void StreamedParse::deposit(Segment segment, size_t index, bool last)
{
    std::lock_guard lock(m_joinMutex);
    m_waiting.emplace(index, std::make_pair(std::move(segment), last));
    const auto started = std::chrono::steady_clock::now();
    for (auto next = m_waiting.find(m_joined.size()); next != m_waiting.end() && !m_abort;
         next = m_waiting.find(m_joined.size())) {
        auto &[s, isLast] = next->second;
        const ParseOutcome &o = s.result.outcome;
        if (o.cancelled || o.outOfMemory) {
            stopOn(o);
            break;
        }
        if (!(isLast ? standsAlone(s) : endsOnBoundary(s))) {
            m_failed = true;
            m_abort = true; // the segments after it are of no use
            break;
        }
        if (m_whole)
            m_whole->append(*s.builder);
        else
            m_whole = std::move(s.builder);
        m_joined.push_back(std::move(s.result));
        m_joinedEnd = s.end;
        m_lastJoined = isLast;
        m_waiting.erase(next);
    }
    m_joinSeconds += secondsSince(started);
    if (m_abort)
        m_waiting.clear(); // nothing more is joined
    m_room.notify_all();
}

void StreamedParse::stopOn(const ParseOutcome &o)
{
    if (!m_stopped && !o.cancelled)
        m_stopped = o;
    m_abort = true;
    m_room.notify_all();
}

void StreamedParse::noteCancelAndProgress()
{
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
        m_abort = true; // seen by every parse at its next checkpoint, and before each cut
    if (std::this_thread::get_id() == m_caller)
        reportProgress();
}

void StreamedParse::reportProgress()
{
    if (!m_options.progress)
        return;
    uint64_t parsed = m_parsedDone;
    for (const auto &p : m_parsing)
        parsed += p.load(std::memory_order_relaxed);
    m_options.progress(parsed, m_textRead, m_compressedRead);
}

} // namespace

std::optional<PassResult> parseStreamed(
    ChunkedText &source, std::unique_ptr<TraceBuilder> &builder, const StreamedOptions &options)
{
    return StreamedParse(source, options).run(builder);
}

} // namespace ks
