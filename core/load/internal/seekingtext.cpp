// SPDX-License-Identifier: MIT
#include "seekingtext.h"

#include <algorithm>
#include <unistd.h>

namespace ks {

namespace {
constexpr size_t kPiece = 16 * 1024; // read per step at the offset: most events are far smaller
constexpr size_t kSkipPiece = 64 * 1024; // inflated per step on the way to the offset
} // namespace

SeekingText::SeekingText(const InputFile &file, const GzipIndex &index, uint64_t offset)
    : m_fd(file.fd())
    , m_buffer(std::make_unique<char[]>(std::max(kPiece, kSkipPiece) + 1))
    , m_next(offset)
{
    if (file.compressed()) {
        m_gzip = GzipInflater::nearest(m_fd, &index, file.inflater(), offset);
        // The text between the point and the offset is inflated and dropped, up to the byte.
        m_inflated = m_gzip->skipTo(offset, m_buffer.get(), kSkipPiece);
    }
    fill();
}

SeekingText::~SeekingText() = default;

void SeekingText::fill()
{
    m_pieceOffset = m_next;
    size_t n = 0;
    if (m_gzip) {
        n = m_gzip->textOffset() == m_next ? m_gzip->read(m_buffer.get(), kPiece) : 0;
        m_inflated += n;
    } else {
        const ssize_t got = ::pread(m_fd, m_buffer.get(), kPiece, off_t(m_next));
        n = got > 0 ? size_t(got) : 0;
    }
    m_next += n;
    m_buffer[n] = 0;
    m_cur = m_buffer.get();
    m_end = m_cur + n;
}

} // namespace ks
