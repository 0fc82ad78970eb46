// SPDX-License-Identifier: MIT
// Load + link against the parse floors, in one process and one run:
//   pure parse = RapidJSON's Reader, default flags, a handler that does nothing, one thread, over
//                the text already in memory: the parse itself (issue #37's honest baseline);
//   cache read = reading the file from the page cache into one reused 1 MB buffer;
//   baseline   = the old floor, kept for continuity: read the whole file into a fresh string,
//                then the no-op parse (mostly page faults on this kind of machine);
//   ours       = kinetoscope's load + link, everything before the first frame.
// Each also reports its minor page faults and system time (getrusage), for the per-MB figures.
// Also the critical path of the first step (issue #35: a 1 GB trace's in under 1 s), after the
// link, as critical_path_s.
// Prints one JSON object per file; benchmarks/run.sh turns them into the report.
#include "analysis/criticalpath/criticalpath.h"
#include "session/loadedtrace.h"

#include <rapidjson/reader.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <malloc.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace {

double seconds(std::chrono::steady_clock::time_point a)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

//! Minor page faults and system time of this process so far.
struct Usage {
    long faults = 0;
    double systemSeconds = 0;

    static Usage now()
    {
        rusage u {};
        getrusage(RUSAGE_SELF, &u);
        return {u.ru_minflt, double(u.ru_stime.tv_sec) + double(u.ru_stime.tv_usec) / 1e6};
    }
    Usage since(const Usage &before) const
    {
        return {faults - before.faults, systemSeconds - before.systemSeconds};
    }
};

//! A timed run: its best time, and the faults and system time of that best run.
struct Measured {
    double seconds = 1e30;
    Usage usage;

    template<typename Run> void keepBest(Run run)
    {
        const Usage before = Usage::now();
        const double t = run();
        if (t < seconds) {
            seconds = t;
            usage = Usage::now().since(before);
        }
    }
};

//! The whole file in memory (not timed: the pure parse starts from the text).
std::string fileText(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

//! RapidJSON's no-op parse of \a text, default flags, one thread: what every floor parses with.
void noOpParse(const std::string &text)
{
    rapidjson::BaseReaderHandler<> handler;
    rapidjson::Reader reader;
    rapidjson::StringStream stream(text.c_str());
    reader.Parse(stream, handler);
}

//! The no-op parse of \a text alone.
double pureParse(const std::string &text)
{
    const auto t0 = std::chrono::steady_clock::now();
    noOpParse(text);
    return seconds(t0);
}

//! Reads the file from the page cache into one reused 1 MB buffer.
double cacheRead(const std::string &path)
{
    const auto t0 = std::chrono::steady_clock::now();
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return -1;
    static std::vector<char> buffer(size_t(1) << 20);
    while (std::fread(buffer.data(), 1, buffer.size(), f) == buffer.size()) { }
    std::fclose(f);
    return seconds(t0);
}

//! The same no-op parse after one fread into a buffer: the fastest "read plus parse".
double fastFloor(const std::string &path)
{
    const auto t0 = std::chrono::steady_clock::now();
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return -1;
    std::fseek(f, 0, SEEK_END);
    const long size = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    std::string text(size_t(size), '\0');
    const size_t got = std::fread(text.data(), 1, text.size(), f);
    std::fclose(f);
    text.resize(got);
    noOpParse(text);
    return seconds(t0);
}

//! The baseline of the scale issue, done plainly: read the file into a string, parse with a
//! handler that does nothing.
double baseline(const std::string &path, size_t &bytes)
{
    const auto t0 = std::chrono::steady_clock::now();
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes = text.size();
    noOpParse(text);
    return seconds(t0);
}

} // namespace

int main(int argc, char **argv)
{
    mallopt(M_MMAP_THRESHOLD, 128 * 1024); // as the application does (app/main.cpp)
    if (argc < 2) {
        std::fprintf(
            stderr, "usage: bench_load FILE [--repeat N] [--no-baseline] [--threads N] [--zlib]\n");
        return 1;
    }
    const std::string path = argv[1];
    int repeat = 3;
    bool withBaseline = true;
    ks::LoadOptions options;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeat" && i + 1 < argc)
            repeat = std::atoi(argv[++i]);
        else if (a == "--threads" && i + 1 < argc)
            options.threads = unsigned(std::atoi(argv[++i]));
        else if (a == "--no-baseline")
            withBaseline = false;
        else if (a == "--zlib")
            options.inflateWithZlib = true; // the reference inflater, where ISA-L is built in
    }
    // Best of N for both, alternating, so that both see the same page cache and machine state.
    double bestOurs = 1e30, bestLoadOnly = 1e30, bestFast = 1e30, bestLink = 1e30;
    double bestPath = 1e30;
    Measured base, pure, cached;
    Usage oursUsage; // of the best load + link
    const std::string text = withBaseline ? fileText(path) : std::string();
    size_t bytes = 0;
    uint64_t events = 0, slices = 0, pairs = 0;
    size_t modelBytes = 0;
    ks::LoadPhases phases; // of the best load
    unsigned pieces = 1;
    for (int r = 0; r < repeat; ++r) {
        if (withBaseline) {
            base.keepBest([&] { return baseline(path, bytes); });
            bestFast = std::min(bestFast, fastFloor(path));
            pure.keepBest([&] { return pureParse(text); });
            cached.keepBest([&] { return cacheRead(path); });
        }
        const Usage before = Usage::now();
        const auto t0 = std::chrono::steady_clock::now();
        ks::LoadResult loaded = ks::loadTrace(path, options);
        const double loadOnly = seconds(t0);
        if (!loaded.model) {
            std::fprintf(stderr, "%s\n", loaded.error.c_str());
            return 2;
        }
        auto graph = ks::OpGraph::build(*loaded.model);
        const double total = seconds(t0);
        if (total < bestOurs)
            oursUsage = Usage::now().since(before);
        bestOurs = std::min(bestOurs, total);
        if (loadOnly < bestLoadOnly) {
            phases = loaded.phases;
            pieces = loaded.pieces;
        }
        bestLoadOnly = std::min(bestLoadOnly, loadOnly);
        bestLink = std::min(bestLink, total - loadOnly);
        const auto p0 = std::chrono::steady_clock::now();
        const ks::CriticalPathAnalysis path(*graph);
        bestPath = std::min(bestPath, seconds(p0));
        events = loaded.model->eventCount;
        slices = loaded.model->slices.size();
        pairs = graph->stats().pairs();
        modelBytes = loaded.model->memoryUsage();
    }
    std::printf(
        "{\"file\": \"%s\", \"baseline_s\": %.4f, \"fast_floor_s\": %.4f, \"load_link_s\": %.4f, "
        "\"load_s\": %.4f, \"link_s\": %.4f, \"text_bytes\": %zu, \"events\": %llu, "
        "\"slices\": %llu, \"pairs\": %llu, \"model_bytes\": %zu, \"threads\": %u, "
        "\"pieces\": %u, \"split_s\": %.4f, \"parse_s\": %.4f, \"join_s\": %.4f, "
        "\"finish_s\": %.4f, \"critical_path_s\": %.4f, \"pure_parse_s\": %.4f, "
        "\"cache_read_s\": %.4f, \"faults\": {\"load_link\": %ld, \"pure_parse\": %ld, "
        "\"cache_read\": %ld, \"baseline\": %ld}, \"system_s\": {\"load_link\": %.4f, "
        "\"pure_parse\": %.4f, \"cache_read\": %.4f, \"baseline\": %.4f}}\n",
        path.c_str(), withBaseline ? base.seconds : -1.0, withBaseline ? bestFast : -1.0, bestOurs,
        bestLoadOnly, bestLink, bytes, (unsigned long long)events, (unsigned long long)slices,
        (unsigned long long)pairs, modelBytes,
        options.threads ? options.threads : ks::loadThreads(), pieces, phases.split, phases.parse,
        phases.join, phases.finish, bestPath, withBaseline ? pure.seconds : -1.0,
        withBaseline ? cached.seconds : -1.0, oursUsage.faults, pure.usage.faults,
        cached.usage.faults, base.usage.faults, oursUsage.systemSeconds, pure.usage.systemSeconds,
        cached.usage.systemSeconds, base.usage.systemSeconds);
    return 0;
}
