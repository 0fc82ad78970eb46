// SPDX-License-Identifier: MIT
#include "deflateengine.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <isa-l/igzip_lib.h>

namespace ks {

namespace {

/*!
 * ISA-L's igzip: 3-4x zlib's speed on trace text. Its state is one plain struct that keeps the
 * last 32 KiB of text and the unread bits itself between calls (isal_inflate saves them in
 * tmp_out_buffer whatever buffers the caller hands in), so a copy of it taken between two calls
 * is a seek point anywhere: inflating goes on from it with the input where it stood.
 */
class IsalEngine final : public DeflateEngine {
public:
    IsalEngine()
        : m_state(std::make_unique<inflate_state>())
    {
    }

    Inflater kind() const override { return Inflater::Isal; }

    void startMember() override
    {
        isal_inflate_init(m_state.get());
        m_state->crc_flag = ISAL_GZIP; // parses the header, checks the trailer
    }

    void resume(const SeekPoint &point, int) override
    {
        const size_t n = std::min(point.state.size(), sizeof(inflate_state));
        std::memcpy(static_cast<void *>(m_state.get()), point.state.data(), n);
    }

    Step inflate(const unsigned char *in, size_t inSize, char *out, size_t outSize, bool) override
    {
        inflate_state &s = *m_state;
        s.next_in = const_cast<uint8_t *>(in);
        s.avail_in = uint32_t(inSize);
        s.next_out = reinterpret_cast<uint8_t *>(out);
        s.avail_out = uint32_t(outSize);
        m_rc = isal_inflate(&s);
        Step step {inSize - s.avail_in, outSize - s.avail_out, 0, Status::Ok};
        if (m_rc < 0) {
            step.status = Status::Corrupt;
        } else if (s.block_state == ISAL_BLOCK_FINISH) {
            // The bit buffer may hold bytes past the trailer, taken in this call or an earlier
            // one: they belong to what follows.
            step.heldPastEnd = size_t(std::max(s.read_in_length, 0) / 8);
            step.status = Status::MemberEnd;
        }
        return step;
    }

    size_t trailerLeft() const override { return 0; }

    bool resumableHere() const override
    {
        return m_state->block_state != ISAL_BLOCK_INPUT_DONE
            && m_state->block_state != ISAL_BLOCK_FINISH;
    }

    void seekPoint(SeekPoint &point, uint64_t inputAt) const override
    {
        // The unread bits travel in the state; of its text buffer only what it holds.
        const inflate_state &s = *m_state;
        const size_t held
            = std::clamp<size_t>(size_t(std::max(s.tmp_out_valid, 0)), 0, sizeof s.tmp_out_buffer);
        const size_t n = offsetof(inflate_state, tmp_out_buffer) + held;
        const auto *bytes = reinterpret_cast<const uint8_t *>(&s);
        point.bits = 0;
        point.compressedOffset = inputAt;
        point.state.assign(bytes, bytes + n);
        // The buffers of the last call are no part of it: the same place, the same bytes.
        auto clear = [&](size_t offset, size_t size) {
            std::memset(point.state.data() + offset, 0, size);
        };
        clear(offsetof(inflate_state, next_out), sizeof s.next_out);
        clear(offsetof(inflate_state, avail_out), sizeof s.avail_out);
        clear(offsetof(inflate_state, next_in), sizeof s.next_in);
        clear(offsetof(inflate_state, avail_in), sizeof s.avail_in);
    }

    std::string error() const override
    {
        switch (m_rc) {
        case ISAL_INVALID_BLOCK:
            return "invalid block";
        case ISAL_INVALID_SYMBOL:
            return "invalid code";
        case ISAL_INVALID_LOOKBACK:
            return "invalid distance too far back";
        case ISAL_INVALID_WRAPPER:
            return "incorrect header check";
        case ISAL_UNSUPPORTED_METHOD:
            return "unknown compression method";
        case ISAL_INCORRECT_CHECKSUM:
            return "incorrect data check";
        default:
            return "corrupt gzip data";
        }
    }

private:
    std::unique_ptr<inflate_state> m_state; // 85 KB: on the heap
    int m_rc = ISAL_DECOMP_OK;
};

} // namespace

std::unique_ptr<DeflateEngine> makeIsalEngine()
{
    return std::make_unique<IsalEngine>();
}

} // namespace ks
