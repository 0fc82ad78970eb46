// SPDX-License-Identifier: MIT
// The inflation of a gzip trace alone, without parsing: the whole text read through the loader's
// ChunkedText with N inflaters (several gzip members inflate side by side, GzipMembers), best of
// N runs. What a machine with more cores gains where inflating, not parsing, is the slow part;
// with --zlib, zlib's speed where the build has ISA-L.
//   bench_inflate FILE [--threads N] [--repeat N] [--zlib]
#include "load/internal/inputfile.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_inflate FILE [--threads N] [--repeat N] [--zlib]\n");
        return 1;
    }
    const std::string path = argv[1];
    unsigned threads = 1;
    int repeat = 3;
    bool zlib = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc)
            threads = unsigned(std::atoi(argv[++i]));
        else if (a == "--repeat" && i + 1 < argc)
            repeat = std::atoi(argv[++i]);
        else if (a == "--zlib")
            zlib = true;
    }
    std::string error;
    const auto file = ks::InputFile::open(path, error);
    if (!file || !file->compressed()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), file ? "not gzip" : error.c_str());
        return 2;
    }
    if (zlib)
        file->useInflater(ks::Inflater::Zlib);
    double best = 1e30;
    uint64_t bytes = 0;
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        ks::ChunkedText text(*file, ks::ChunkedText::Reader::OwnThread, threads);
        bytes = 0;
        for (ks::ChunkedText::Chunk chunk = text.next(); chunk.size > 0; chunk = text.next()) {
            bytes += chunk.size;
            text.recycle(std::move(chunk));
        }
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("{\"file\": \"%s\", \"threads\": %u, \"inflater\": \"%s\", \"text_bytes\": %llu, "
                "\"inflate_s\": %.4f}\n",
        path.c_str(), threads, file->inflater() == ks::Inflater::Zlib ? "zlib" : "isa-l",
        (unsigned long long)bytes, best);
    return 0;
}
