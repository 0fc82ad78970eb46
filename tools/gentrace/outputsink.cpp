// SPDX-License-Identifier: MIT
#include "outputsink.h"

namespace ks::gentrace {

namespace {
constexpr size_t kBufferSize = 1 << 20;

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}
} // namespace

OutputSink::~OutputSink()
{
    close();
}

bool OutputSink::open(const std::string &path)
{
    m_buffer.reserve(kBufferSize);
    if (endsWith(path, ".gz")) {
        // Level 6 is zlib's default and what Python's gzip module uses for kineto traces.
        m_gz = gzopen(path.c_str(), "wb6");
        if (m_gz)
            gzbuffer(m_gz, 1 << 18);
        return m_gz != nullptr;
    }
    m_file = std::fopen(path.c_str(), "wb");
    return m_file != nullptr;
}

void OutputSink::write(std::string_view text)
{
    m_bytes += text.size();
    m_buffer.append(text);
    if (m_buffer.size() >= kBufferSize)
        flushBuffer();
}

void OutputSink::flushBuffer()
{
    if (m_buffer.empty() || m_failed)
        return;
    if (m_gz) {
        if (gzwrite(m_gz, m_buffer.data(), unsigned(m_buffer.size())) != int(m_buffer.size()))
            m_failed = true;
    } else if (m_file) {
        if (std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size())
            m_failed = true;
    }
    m_buffer.clear();
}

bool OutputSink::close()
{
    flushBuffer();
    if (m_gz) {
        if (gzclose(m_gz) != Z_OK)
            m_failed = true;
        m_gz = nullptr;
    }
    if (m_file) {
        if (std::fclose(m_file) != 0)
            m_failed = true;
        m_file = nullptr;
    }
    return !m_failed;
}

} // namespace ks::gentrace
