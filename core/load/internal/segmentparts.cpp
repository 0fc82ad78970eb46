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
// proves nothing is true; from that boundary on, the text must be parsed again in one piece. A
// real syntax error inside a segment looks like a false split: the parse in one piece then finds
// it, at its true offset.
#include "segmentparts.h"

#include <algorithm>

namespace ks {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

} // namespace

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

std::optional<SegmentLayout> segmentLayout(std::string_view start)
{
    const auto first = std::find_if_not(start.begin(), start.end(), isSpace);
    if (first == start.end())
        return std::nullopt;
    if (*first == '{')
        return SegmentLayout {"{\"traceEvents\":[", "]}"};
    if (*first == '[')
        return SegmentLayout {"[", "]"};
    return std::nullopt;
}

bool standsAlone(const Segment &s)
{
    return !s.builder->needsEarlierText() && !s.result.needsEarlierText;
}

bool endsOnBoundary(const Segment &s)
{
    const ParseOutcome &o = s.result.outcome;
    const uint64_t closedAt = s.result.eventsClosedAt; // ~0: never closed
    return !o.parseError && closedAt != ~uint64_t(0) && closedAt >= s.end && standsAlone(s);
}

PassResult combinedPasses(const std::vector<PassResult *> &used)
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

PassResult stoppedPass(const ParseOutcome &o)
{
    PassResult stopped;
    stopped.outcome.cancelled = o.cancelled;
    stopped.outcome.outOfMemory = o.outOfMemory;
    stopped.outcome.stoppedAt = o.stoppedAt;
    stopped.outcome.tellAtError = o.tellAtError;
    stopped.outcome.textSize = ~uint64_t(0);
    return stopped;
}

} // namespace ks
