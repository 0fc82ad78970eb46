// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <zlib.h>

namespace ks::gentrace {

/*!
 * Buffered, streaming output to a plain file or, when the path ends in ".gz", a gzip stream.
 * Only a fixed-size buffer is held in memory, so multi-gigabyte traces need little RAM.
 * zlib writes a gzip header without a time stamp, so output stays byte-identical between runs.
 */
class OutputSink {
public:
    OutputSink() = default;
    ~OutputSink();
    OutputSink(const OutputSink &) = delete;
    OutputSink &operator=(const OutputSink &) = delete;

    bool open(const std::string &path);
    void write(std::string_view text);
    //! Flushes and closes; false if any write failed.
    bool close();

    //! Uncompressed bytes written so far (what --target-mb measures).
    uint64_t bytesWritten() const { return m_bytes; }
    bool failed() const { return m_failed; }

private:
    void flushBuffer();

    std::FILE *m_file = nullptr;
    gzFile m_gz = nullptr;
    std::string m_buffer;
    uint64_t m_bytes = 0;
    bool m_failed = false;
};

} // namespace ks::gentrace
