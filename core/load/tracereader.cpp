// SPDX-License-Identifier: MIT
// The drivers of a load: one parse pass over the text (strict, or through the repairing
// stream), the second pass when the first stopped on something repairable, and the freezing of
// the model. What the passes found is judged by decideLoad() (loadverdict.h).
#include "load/tracereader.h"

#include "inputfile.h"
#include "loadverdict.h"
#include "parsetext.h"
#include "repairstream.h"
#include "segmentsources.h"
#include "streamedsegments.h"
#include "textstream.h"
#include "tracebuilder.h"

#include "base/usablecores.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

#include <unistd.h>

namespace ks {

namespace {

unsigned loadThreadsOf(const LoadOptions &options)
{
    return options.threads ? options.threads : loadThreads();
}

/*!
 * One parse pass over the whole text in \a stream into \a builder, optionally through the
 * repairing stream. \a checkpoint runs every few thousand events (progress, releasing consumed
 * pages).
 */
template<typename Stream>
PassResult parsePass(Stream &stream,
    bool repair,
    TraceBuilder &builder,
    bool builderThread,
    const std::function<void()> &checkpoint,
    const std::atomic<bool> *cancel)
{
    if (!repair)
        return parseText(stream, TextPlace {}, builder, builderThread, checkpoint, cancel);
    RepairStream<Stream> repaired(stream);
    PassResult pass = parseText(repaired, TextPlace {}, builder, builderThread, checkpoint, cancel);
    pass.outcome.repairs = repaired.repairs();
    pass.outcome.firstRepairAt = repaired.firstRepairAt();
    return pass;
}

//! Parses \a text in segments side by side where the options allow (segmentedparse.h).
std::optional<PassResult> segmentedPass(const SegmentedText &text,
    std::unique_ptr<TraceBuilder> &builder,
    const LoadOptions &options,
    const std::function<void(uint64_t, uint64_t)> &progress)
{
    const unsigned threads = loadThreadsOf(options);
    if (threads < 2)
        return std::nullopt;
    SegmentedOptions segmented;
    segmented.threads = threads;
    segmented.minSegmentBytes = options.minSegmentBytes;
    segmented.cancel = options.cancel;
    segmented.progress = progress;
    return parseSegmented(text, builder, segmented);
}

/*!
 * The text's size as far as it is known while reading: the gzip trailer's (or the plain file's
 * size); where the text outgrows it (several members, 4 GiB and more), extrapolated from the
 * compression so far.
 */
class TextSizeGuess {
public:
    explicit TextSizeGuess(const InputFile &file)
        : m_size(file.textSizeHint())
        , m_fileSize(file.size())
    {
    }
    uint64_t update(uint64_t textRead, uint64_t compressedRead)
    {
        if (textRead > m_size && compressedRead > 0)
            m_size = std::max<uint64_t>(
                textRead, uint64_t(double(textRead) * double(m_fileSize) / double(compressedRead)));
        return m_size;
    }

private:
    uint64_t m_size;
    uint64_t m_fileSize;
};

/*!
 * Gzip text is parsed in segments from this many threads on. With two, the parse in one piece
 * (the parser on one core; placing the events and inflating on the other) keeps both cores busy
 * already, and segments only add their join, a copy of every column: a 100 MB trace loads in
 * 0.30-0.33 s in segments against 0.28-0.30 s in one piece on two cores (docs/performance.md).
 */
constexpr unsigned kStreamedMinThreads = 3;

//! A gzip text is this many segments per thread, at least minSegmentBytes and at most the
//! largest: enough that no thread waits long for the last, few enough to join cheaply.
constexpr uint64_t kStreamedSegmentsPerThread = 8;
constexpr uint64_t kLargestStreamedSegment = uint64_t(32) << 20;

//! Parses the text \a text hands out in segments side by side where the options allow
//! (streamedsegments.h); where a split proves nothing, the rest in one piece from \a rest.
std::optional<PassResult> streamedPass(ChunkedText &text,
    const InputFile &file,
    std::unique_ptr<TraceBuilder> &builder,
    const LoadOptions &options,
    const std::function<void(uint64_t, uint64_t)> &progress,
    std::unique_ptr<ChunkedText> &rest)
{
    const unsigned threads = loadThreadsOf(options);
    const uint64_t hint = file.textSizeHint();
    if (threads < kStreamedMinThreads || (hint > 0 && hint < 2 * options.minSegmentBytes))
        return std::nullopt;
    StreamedOptions streamed;
    streamed.threads = threads;
    const uint64_t smallest = std::min(options.minSegmentBytes, kLargestStreamedSegment);
    streamed.segmentBytes = std::clamp(
        hint / (kStreamedSegmentsPerThread * threads), smallest, kLargestStreamedSegment);
    streamed.cancel = options.cancel;
    TextSizeGuess size(file);
    streamed.progress = [&](uint64_t parsed, uint64_t textRead, uint64_t compressedRead) {
        progress(parsed, size.update(textRead, compressedRead));
    };
    streamed.parseRest = [&](uint64_t begin, const std::string &head, TraceBuilder &into) {
        const auto reader
            = options.readerThread ? ChunkedText::Reader::OwnThread : ChunkedText::Reader::Caller;
        rest = std::make_unique<ChunkedText>(file, TextSlice {begin, 0, head, {}}, reader, threads);
        ChunkStream stream(*rest);
        const TextPlace place {begin, head.size()};
        auto checkpoint = [&] {
            const uint64_t at = place.fileOffset(stream.Tell());
            progress(at, size.update(at, stream.compressedOffset()));
        };
        PassResult result
            = parseText(stream, place, into, options.builderThread, checkpoint, options.cancel);
        result.outcome.textSize
            = stream.atEnd() ? place.fileOffset(stream.textSeen()) : ~uint64_t(0);
        return result;
    };
    return parseStreamed(text, builder, streamed);
}

//! What the end of a text says about a parse that read to it: memory ran out, the gzip stream
//! is corrupt, cut off or followed by other data. \a end is asked for only then (the reader may
//! still be running after a parse that stopped early).
void noteTextEnd(const std::function<TextEnd()> &end, PassResult &result, TraceBuilder &builder)
{
    ParseOutcome &out = result.outcome;
    if (out.textSize == ~uint64_t(0))
        return; // stopped early (cancel or a syntax error)
    const TextEnd text = end();
    if (text.outOfMemory) {
        if (!out.outOfMemory)
            out.stoppedAt = out.textSize;
        out.outOfMemory = true;
    } else if (!text.corruptReason.empty()) {
        out.gzipProblem = "corrupt gzip data at compressed byte " + std::to_string(text.corruptAt)
            + " (" + text.corruptReason + ")";
    } else if (text.cutOff) {
        out.gzipProblem = "the gzip stream is cut off";
        out.gzipCutOff = true;
    }
    if (text.trailingGarbage)
        builder.diagnostics().add(
            Diag::GzipTrailingGarbage, out.textSize, "data after the gzip stream ignored");
}

//! A pass over the text into the builder; a segmented pass may hand back a builder of its own.
using PassFn = std::function<PassResult(std::unique_ptr<TraceBuilder> &, bool repair)>;

/*!
 * The events of plain \a file from byte \a from on, by their `"ph"` keys: what a syntax error
 * left unread (a key inside a string counts too: "about"). Read in 1 MiB pieces.
 */
uint64_t eventsFrom(const InputFile &file, uint64_t from)
{
    constexpr std::string_view key = "\"ph\"";
    std::string piece(size_t(1) << 20, '\0');
    uint64_t count = 0;
    size_t kept = 0; // the last bytes of the piece before, which a key may start in
    for (uint64_t at = from; at < file.size();) {
        const ssize_t n = ::pread(file.fd(), piece.data() + kept, piece.size() - kept, off_t(at));
        if (n <= 0)
            break;
        at += uint64_t(n);
        const std::string_view text(piece.data(), kept + size_t(n));
        for (size_t i = text.find(key); i != std::string_view::npos; i = text.find(key, i + 1))
            ++count;
        kept = std::min(text.size(), key.size() - 1);
        std::memmove(piece.data(), text.data() + text.size() - kept, kept);
    }
    return count;
}

/*!
 * Runs the strict pass and, when it stops on a string RapidJSON rejects (raw control
 * characters, bad escapes), a repairing pass; then freezes the model as decideLoad() says.
 * \a reached follows the text read, for the message when memory runs out.
 */
LoadResult parseAndFreeze(const std::string &path,
    const PassFn &pass,
    const InputFile *file,
    uint64_t fileSize,
    uint64_t &reached)
{
    const bool compressed = file && file->compressed();
    const auto started = std::chrono::steady_clock::now();
    auto builder = std::make_unique<TraceBuilder>();
    PassResult done = pass(builder, false);
    if (done.repairable && !done.outcome.cancelled) {
        builder = std::make_unique<TraceBuilder>();
        done = pass(builder, true);
    }
    LoadPhases phases = done.phases;
    if (phases.parse == 0) // read in one piece
        phases.parse = secondsSince(started);
    // After the builder's own, as they always came: the handler counts apart.
    builder->diagnostics().merge(done.handlerDiagnostics);
    done.top.applyTo(builder->model());
    ParseOutcome &outcome = done.outcome;
    if (file && !compressed && outcome.parseError && outcome.errorOffset < fileSize) {
        outcome.unreadBytes = fileSize - outcome.errorOffset;
        outcome.unreadEvents = eventsFrom(*file, outcome.errorOffset);
    }
    reached = outcome.textSize == ~uint64_t(0) ? outcome.tellAtError : outcome.textSize;

    const LoadVerdict verdict = decideLoad(path, outcome);
    LoadResult result;
    result.error = verdict.error;
    result.pieces = done.pieces;
    if (verdict.status == LoadVerdict::Status::Cancelled)
        result.status = LoadResult::Status::Cancelled;
    if (verdict.status == LoadVerdict::Status::Cancelled
        || verdict.status == LoadVerdict::Status::Failed)
        return result;

    Diagnostics &diag = builder->diagnostics();
    for (const LoadVerdict::Note &note : verdict.notes) {
        diag.add(note.counter, note.offset, note.message);
        if (note.alsoCounted > 0)
            diag.addCount(note.counter, note.alsoCounted);
    }
    const auto finishing = std::chrono::steady_clock::now();
    auto model = builder->finish();
    phases.finish = secondsSince(finishing);
    result.phases = phases;
    model->path = path;
    model->compressed = compressed;
    model->fileSize = fileSize;
    model->textSize = verdict.textSize;
    model->truncated = verdict.status == LoadVerdict::Status::Truncated;
    model->eventCount = outcome.events;
    model->loadSeconds = secondsSince(started);
    result.model = std::move(model);
    result.status = LoadResult::Status::Loaded;
    return result;
}

LoadResult readFile(const std::string &path, const LoadOptions &options, uint64_t &reached)
{
    std::string error;
    auto file = InputFile::open(path, error);
    if (!file) {
        LoadResult r;
        r.error = loadFailure(path, 0, error);
        return r;
    }
    if (options.inflateWithZlib)
        file->useInflater(Inflater::Zlib);
    int lastPermille = -1;
    // Parsing is most of the work, building the model's lanes and indexes after it the rest:
    // 72 % and 28 % for a 300 MB generated gzip trace (LoadPhases parse 1.05 s, finish 0.40 s),
    // 77 % for the shared MI300X trace. The bar then moves with the work, not ahead of it.
    constexpr uint64_t kParsePermille = 750;
    auto report = [&](uint64_t done, uint64_t total) {
        if (!options.progress || total == 0)
            return;
        const int permille = int(std::min<uint64_t>(1000, done * kParsePermille / total));
        // Monotonic: a repairing second pass restarts from the beginning of the file.
        if (permille > lastPermille) {
            lastPermille = permille;
            options.progress(permille);
        }
    };

    GzipIndex index; // of the pass that made the model
    const auto reader
        = options.readerThread ? ChunkedText::Reader::OwnThread : ChunkedText::Reader::Caller;
    PassFn pass = [&](std::unique_ptr<TraceBuilder> &builder, bool repair) {
        if (!repair && !file->compressed()) {
            if (auto segmented = segmentedPass(FileSegments(*file), builder, options, report))
                return std::move(*segmented);
        }
        if (!repair && file->compressed() && file->inflater() == Inflater::Isal) {
            // Cut as a plain text is: finding the splits inflates the text before them once
            // more, which ISA-L does in a third of zlib's time (GzipSegments).
            GzipSegments segments(*file);
            if (auto segmented = segmentedPass(segments, builder, options, report)) {
                noteTextEnd([&] { return segments.textEnd(); }, *segmented, *builder);
                index = segments.takeIndex();
                return std::move(*segmented);
            }
        }
        if (!repair && file->compressed()) {
            ChunkedText text(*file, reader, loadThreadsOf(options));
            std::unique_ptr<ChunkedText> rest; // the text after a split that proved nothing
            if (auto streamed = streamedPass(text, *file, builder, options, report, rest)) {
                ChunkedText &last = rest ? *rest : text;
                noteTextEnd([&] { return last.textEnd(); }, *streamed, *builder);
                index = last.takeIndex();
                return std::move(*streamed);
            }
        }
        // Each pass reads (and inflates) the file again from its start.
        ChunkedText text(*file, reader, loadThreadsOf(options));
        ChunkStream stream(text);
        // Work done is text parsed: compressed bytes read run ahead where the file's end
        // compresses better than its start (GPU events after host events).
        TextSizeGuess size(*file);
        auto checkpoint
            = [&] { report(stream.Tell(), size.update(stream.Tell(), stream.compressedOffset())); };
        PassResult result = parsePass(
            stream, repair, *builder, options.builderThread, checkpoint, options.cancel);
        result.outcome.textSize = stream.atEnd() ? stream.textSeen() : ~uint64_t(0);
        noteTextEnd([&] { return text.textEnd(); }, result, *builder);
        index = text.takeIndex();
        return result;
    };
    LoadResult r = parseAndFreeze(path, pass, file.get(), file->size(), reached);
    if (r.model)
        r.model->gzipIndex = std::move(index);
    if (options.progress && lastPermille < 1000)
        options.progress(1000);
    return r;
}

LoadResult readText(
    std::string_view text, const std::string &name, const LoadOptions &options, uint64_t &reached)
{
    PassFn pass = [&](std::unique_ptr<TraceBuilder> &builder, bool repair) {
        if (!repair) {
            if (auto segmented = segmentedPass(MemorySegments(text), builder, options, {}))
                return std::move(*segmented);
        }
        const std::string copy(text); // zero-terminated, as TextStream needs
        TextStream stream(copy);
        PassResult result
            = parsePass(stream, repair, *builder, options.builderThread, {}, options.cancel);
        result.outcome.textSize = copy.size();
        return result;
    };
    return parseAndFreeze(name, pass, nullptr, text.size(), reached);
}

//! Out of memory wherever it was not caught closer (setting up, freezing the model) fails too.
template<typename Load> LoadResult failingWhenOutOfMemory(const std::string &path, Load &&load)
{
    uint64_t reached = 0;
    try {
        return load(reached);
    } catch (const std::bad_alloc &) {
        LoadResult r;
        r.error = outOfMemoryFailure(path, reached);
        return r;
    }
}

} // namespace

LoadResult loadTrace(const std::string &path, const LoadOptions &options)
{
    return failingWhenOutOfMemory(
        path, [&](uint64_t &reached) { return readFile(path, options, reached); });
}

LoadResult loadTraceText(std::string_view text, const std::string &name, bool builderThread)
{
    LoadOptions options;
    options.builderThread = builderThread;
    return loadTraceText(text, name, options);
}

LoadResult loadTraceText(std::string_view text, const std::string &name, const LoadOptions &options)
{
    return failingWhenOutOfMemory(
        name, [&](uint64_t &reached) { return readText(text, name, options, reached); });
}

namespace {
std::atomic<unsigned> g_loadThreads {0};
} // namespace

void setLoadThreads(unsigned threads)
{
    g_loadThreads = threads;
}

unsigned loadThreads()
{
    const unsigned set = g_loadThreads;
    return set ? set : usableCores();
}

} // namespace ks
