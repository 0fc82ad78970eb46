// SPDX-License-Identifier: MIT
// Why a split cannot go wrong unnoticed. A split point is only a guess: a '{' after "}," with
// whitespace between, which also occurs inside strings ("…},{…") and nested arrays. Segment 0
// starts at the start of the text, so its parse is the true one. A later segment is parsed
// behind a synthetic `{"traceEvents":[` (or `[` for a bare array), which puts the parser and the
// handler in the state the true parse has at an event boundary; and every segment but the last
// ends with a synthetic `]}` (or `]`). If segment k starts on a true event boundary, its parse
// is the true one up to its end; it then proves that its end is an event boundary too only if
// its parse succeeds with the traceEvents array closed by the synthetic bracket: its text ends
// in "," (the split point follows a comma), so the true parse was at the events array's own
// level there, between two entries. Inside a string the synthetic bracket would be string text
// and the document never closes; inside an event or a nested value the bracket closes the
// wrong container and the parse fails. By induction every boundary before the first segment that
// proves nothing is true; from that boundary on, the text is parsed again in one piece, into the
// builder of everything before it. A real syntax error inside a segment looks like a false
// split: the parse in one piece then finds it, at its true offset.
#include "segmentedparse.h"

#include "base/parallel.h"

#include <algorithm>
#include <chrono>
#include <string_view>
#include <thread>

namespace ks {

namespace {

constexpr size_t kScanWindow = 1 << 20;

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

//! Where the first '{' that follows "}," (whitespace allowed between) is in \a w, else npos.
size_t eventBoundary(std::string_view w)
{
    for (size_t j = w.find('}'); j != std::string_view::npos; j = w.find('}', j + 1)) {
        size_t k = j + 1;
        while (k < w.size() && isSpace(w[k]))
            ++k;
        if (k >= w.size() || w[k] != ',')
            continue;
        ++k;
        while (k < w.size() && isSpace(w[k]))
            ++k;
        if (k < w.size() && w[k] == '{')
            return k;
    }
    return std::string_view::npos;
}

//! The synthetic text around a segment: an object with traceEvents, or a bare array.
struct Layout {
    std::string head, tail;
};

std::optional<Layout> layoutOf(const SegmentedText &text)
{
    const std::string start = text.bytes(0, 4096);
    const auto first = std::find_if_not(start.begin(), start.end(), isSpace);
    if (first == start.end())
        return std::nullopt;
    if (*first == '{')
        return Layout {"{\"traceEvents\":[", "]}"};
    if (*first == '[')
        return Layout {"[", "]"};
    return std::nullopt;
}

//! Where each segment starts: 0, then a guessed event boundary near each further 1/n.
std::vector<uint64_t> segmentStarts(const SegmentedText &text, const SegmentedOptions &options)
{
    const uint64_t size = text.size();
    const uint64_t n = std::min<uint64_t>(
        options.threads, size / std::max<uint64_t>(1, options.minSegmentBytes));
    std::vector<uint64_t> starts {0};
    for (uint64_t i = 1; i < n; ++i) {
        const uint64_t target = std::max(size / n * i, starts.back() + 1);
        const size_t at = eventBoundary(text.bytes(target, kScanWindow));
        if (at != std::string_view::npos && target + at < size)
            starts.push_back(target + at);
    }
    return starts;
}

struct Segment {
    uint64_t begin = 0, end = 0;
    std::unique_ptr<TraceBuilder> builder;
    PassResult result;
};

//! The segment's parse stands without the earlier text (see needsEarlierText()).
bool standsAlone(const Segment &s)
{
    return !s.builder->needsEarlierText() && !s.result.needsEarlierText;
}

//! A segment before the last stands alone and proved that its end is an event boundary.
bool endsOnBoundary(const Segment &s)
{
    const ParseOutcome &o = s.result.outcome;
    const uint64_t closedAt = s.result.eventsClosedAt; // ~0: never closed
    return !o.parseError && closedAt != ~uint64_t(0) && closedAt >= s.end && standsAlone(s);
}

//! The segments' results as one parse of the whole text would give them.
PassResult combined(std::vector<PassResult *> used)
{
    PassResult &first = *used.front();
    PassResult out;
    out.outcome = used.back()->outcome; // where the text ended or the parse stopped
    out.repairable = used.back()->repairable;
    out.eventsClosedAt = used.back()->eventsClosedAt;
    out.pieces = unsigned(used.size());
    ParseOutcome &o = out.outcome;
    o.events = o.phasedEvents = 0;
    for (PassResult *p : used) {
        o.events += p->outcome.events;
        o.phasedEvents += p->outcome.phasedEvents;
        out.handlerDiagnostics.merge(p->handlerDiagnostics);
        out.top.append(std::move(p->top));
    }
    // What the start of the text decides.
    o.firstEntryOffset = first.outcome.firstEntryOffset;
    o.sawRoot = first.outcome.sawRoot;
    o.rootIsTrace = first.outcome.rootIsTrace;
    o.sawEventsArray = first.outcome.sawEventsArray;
    o.notATrace = first.outcome.notATrace;
    return out;
}

} // namespace

std::optional<PassResult> parseSegmented(const SegmentedText &text,
    std::unique_ptr<TraceBuilder> &builder,
    const SegmentedOptions &options)
{
    auto started = std::chrono::steady_clock::now();
    LoadPhases phases;
    const std::optional<Layout> layout = layoutOf(text);
    if (!layout)
        return std::nullopt;
    const std::vector<uint64_t> starts = segmentStarts(text, options);
    const size_t n = starts.size();
    if (n < 2)
        return std::nullopt;
    phases.split = secondsSince(started);
    started = std::chrono::steady_clock::now();

    std::vector<Segment> segments(n);
    std::vector<std::atomic<uint64_t>> parsed(n + 1); // bytes, per segment and the reparse
    // Progress is reported on the calling thread only, whichever segment it parses.
    const std::thread::id caller = std::this_thread::get_id();
    auto report = [&] {
        if (!options.progress)
            return;
        uint64_t done = 0;
        for (const auto &p : parsed)
            done += p.load(std::memory_order_relaxed);
        options.progress(std::min(done, text.size()), text.size());
    };
    auto parse = [&](size_t slot, uint64_t begin, uint64_t end, bool first, bool last,
                     TraceBuilder &into) {
        return text.parse(
            TextSlice {begin, end, first ? std::string() : layout->head,
                last ? std::string() : layout->tail},
            into,
            [&, slot, begin](uint64_t reached) {
                parsed[slot].store(reached - begin, std::memory_order_relaxed);
                if (std::this_thread::get_id() == caller)
                    report();
            },
            options.cancel);
    };
    auto run = [&](size_t i) {
        Segment &s = segments[i];
        s.builder = std::make_unique<TraceBuilder>();
        if (i > 0)
            s.builder->continueEarlierText();
        s.result = parse(i, s.begin, s.end, i == 0, i + 1 == n, *s.builder);
    };
    for (size_t i = 0; i < n; ++i) {
        segments[i].begin = starts[i];
        segments[i].end = i + 1 < n ? starts[i + 1] : text.size();
    }
    parallelFor(n, unsigned(n), run, report);

    for (const Segment &s : segments) {
        const ParseOutcome &o = s.result.outcome;
        if (o.cancelled || o.outOfMemory) {
            PassResult stopped;
            stopped.outcome.cancelled = o.cancelled;
            stopped.outcome.outOfMemory = o.outOfMemory;
            stopped.outcome.stoppedAt = o.stoppedAt;
            stopped.outcome.tellAtError = o.tellAtError;
            stopped.outcome.textSize = ~uint64_t(0);
            return stopped;
        }
    }
    if (!endsOnBoundary(segments[0]))
        return std::nullopt; // the first split was no event boundary: nothing gained
    phases.parse = secondsSince(started);
    started = std::chrono::steady_clock::now();

    TraceBuilder &whole = *segments[0].builder;
    std::vector<PassResult *> used {&segments[0].result};
    PassResult rest;
    for (size_t i = 1; i < n; ++i) {
        Segment &s = segments[i];
        const bool last = i + 1 == n;
        if (last ? standsAlone(s) : endsOnBoundary(s)) {
            whole.append(*s.builder);
            s.builder.reset();
            used.push_back(&s.result);
            continue;
        }
        // This segment starts on an event boundary but proves nothing about its end: one text
        // from here, read by the builder of all before it.
        for (size_t j = i; j < n; ++j)
            segments[j].builder.reset();
        rest = parse(n, s.begin, text.size(), false, true, whole);
        used.push_back(&rest);
        break;
    }
    PassResult out = combined(used);
    phases.join = secondsSince(started);
    out.phases = phases;
    builder = std::move(segments[0].builder);
    return out;
}

} // namespace ks
