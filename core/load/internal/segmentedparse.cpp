// SPDX-License-Identifier: MIT
// A text read at any offset (a plain file, text in memory), cut where each thread's share
// ends; why a false split cannot go unnoticed: segmentparts.cpp.
#include "segmentedparse.h"

#include "segmentparts.h"

#include "base/parallel.h"

#include <algorithm>
#include <chrono>
#include <string_view>
#include <thread>

namespace ks {

namespace {

constexpr size_t kScanWindow = 1 << 20;

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

} // namespace

std::optional<PassResult> parseSegmented(const SegmentedText &text,
    std::unique_ptr<TraceBuilder> &builder,
    const SegmentedOptions &options)
{
    auto started = std::chrono::steady_clock::now();
    LoadPhases phases;
    const std::optional<SegmentLayout> layout = segmentLayout(text.bytes(0, 4096));
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
        if (o.cancelled || o.outOfMemory)
            return stoppedPass(o);
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
    PassResult out = combinedPasses(used);
    phases.join = secondsSince(started);
    out.phases = phases;
    builder = std::move(segments[0].builder);
    return out;
}

} // namespace ks
