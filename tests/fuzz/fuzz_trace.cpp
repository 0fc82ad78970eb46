// SPDX-License-Identifier: MIT
// libFuzzer target over the loader and the linker, and everything computed from them headless:
// any input must load or fail cleanly, and a loaded trace must link, export and index; a parse in
// segments side by side must give what a parse in one piece gives, whether the text is read at
// any offset or streamed out of gzip, gzip members inflated side by side what one inflater
// gives, and ISA-L what zlib gives.
#include "analysis/time/stepbreakdown.h"
#include "analysis/timeline/timelineindex.h"
#include "export/pairgroups.h"
#include "export/pairtable.h"
#include "export/summary.h"
#include "load/eventdetails.h"
#include "load/internal/gzipinflater.h"
#include "session/loadedtrace.h"

#include "../modeldump.h"

#include <cstdint>
#include <string_view>

#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

namespace {

std::string outcomeOf(const ks::LoadResult &r)
{
    return std::to_string(int(r.status)) + ' ' + r.error + '\n'
        + (r.model ? ks::test::dumpModel(*r.model) + ks::test::dumpIdOrder(*r.model)
                   : std::string());
}

//! Two to seven segments, however small the input, against one piece.
void segmentsChangeNothing(std::string_view text)
{
    ks::LoadOptions whole;
    whole.threads = 1;
    whole.builderThread = false;
    ks::LoadOptions split = whole;
    split.threads = 2 + unsigned(text.size() % 6);
    split.minSegmentBytes = 1;
    if (outcomeOf(ks::loadTraceText(text, "fuzz", whole))
        != outcomeOf(ks::loadTraceText(text, "fuzz", split)))
        __builtin_trap();
}

//! Whether zlib finds the gzip data of \a fd corrupt (the load may fail on its text first).
bool corruptGzip(int fd)
{
    ks::GzipInflater gzip(fd, ks::Inflater::Zlib);
    std::string buffer(64 * 1024, '\0');
    while (!gzip.ended())
        gzip.read(buffer.data(), buffer.size());
    return gzip.end() == ks::GzipInflater::End::Corrupt;
}

/*!
 * \a bytes as a gzip file, loaded with one thread by zlib (the reference) and by the fastest
 * inflater (ISA-L where built in), and with two to five: its members inflated side by side, its
 * text parsed in segments as it is inflated (from three). Where zlib finds the data corrupt,
 * ISA-L may have given a few bytes more before it found the fault (tst_gzipmembers): there its
 * loads are compared with one another only.
 */
void gzipFileChangesNothing(std::string_view bytes)
{
    const int fd = memfd_create("fuzz.json.gz", 0);
    if (fd < 0 || ::write(fd, bytes.data(), bytes.size()) != ssize_t(bytes.size()))
        __builtin_trap();
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    ks::LoadOptions zlib;
    zlib.threads = 1;
    zlib.inflateWithZlib = true;
    ks::LoadOptions one = zlib;
    one.inflateWithZlib = false;
    ks::LoadOptions split = one;
    split.threads = 2 + unsigned(bytes.size() % 4); // two: members only; more: segments too
    split.minSegmentBytes = 1;
    const std::string fast = outcomeOf(ks::loadTrace(path, one));
    if (!corruptGzip(fd) && fast != outcomeOf(ks::loadTrace(path, zlib)))
        __builtin_trap();
    if (fast != outcomeOf(ks::loadTrace(path, split)))
        __builtin_trap();
    ::close(fd);
}

//! One gzip member of \a text.
std::string gzipped(std::string_view text)
{
    z_stream zs {};
    if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        __builtin_trap();
    std::string out(deflateBound(&zs, uLong(text.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(text.data()));
    zs.avail_in = uInt(text.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
        __builtin_trap();
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    segmentsChangeNothing(text);
    if (text.size() >= 2 && text[0] == '\x1f' && text[1] == '\x8b') {
        gzipFileChangesNothing(text); // as it is
    } else {
        const std::string gz = gzipped(text);
        gzipFileChangesNothing(gz); // its text streamed out of gzip
        gzipFileChangesNothing(std::string_view(gz).substr(0, size % gz.size())); // cut off
    }
    // Odd-sized inputs load through the builder thread, even-sized ones without: both paths are
    // fuzzed, and each input always takes the same one.
    const ks::OpenResult r = ks::openTraceText(text, "fuzz", size % 2 == 1);
    if (!r.trace)
        return 0;
    const ks::TraceModel &m = *r.trace->model;
    const ks::OpGraph &g = *r.trace->graph;
    (void)ks::summaryJson(m, g, 0);
    (void)ks::tableToCsv(ks::PairTable(g));
    (void)ks::tableToCsv(ks::KernelTable(g));
    (void)ks::tableToCsv(ks::PairGroupTable(g));
    (void)ks::stepBreakdown(g);
    const ks::TimelineIndex index(m, g);
    std::vector<ks::TimelineIndex::Item> items;
    for (ks::LaneId l = 0; l < m.lanes.size(); ++l) {
        for (uint32_t d = 0; d < index.depthCount(l) && d < 64; ++d) {
            items.clear();
            ks::TimelineIndex::scan(m, index.row(l, d), m.minTime, 0,
                double(m.maxTime - m.minTime + 1) / 500, 500, items);
        }
    }
    for (ks::SliceId s = 0; s < m.slices.size() && s < 8; ++s) {
        (void)g.counterparts(s);
        (void)g.rowOf(s);
        ks::EventDetails details;
        std::string error;
        (void)ks::readEventDetailsText(text, m.slices.offset[s], details, error);
    }
    // The sequence-only linker must cope with whatever the flows left out.
    (void)ks::OpGraph::build(m, ks::LinkOptions {false});
    return 0;
}
