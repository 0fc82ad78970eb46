// SPDX-License-Identifier: MIT
#include "deflateengine.h"

#include <new>
#include <zlib.h>

namespace ks {

namespace {

constexpr int kGzipWindow = 16 + MAX_WBITS; // the gzip wrapper only
constexpr int kRawWindow = -MAX_WBITS; // inside a member, from a seek point

//! zlib: the reference, and where this build has no ISA-L the only engine.
class ZlibEngine final : public DeflateEngine {
public:
    ZlibEngine()
    {
        const int rc = inflateInit2(&m_zs, kGzipWindow);
        if (rc == Z_MEM_ERROR)
            throw std::bad_alloc();
        m_ready = rc == Z_OK;
    }
    ~ZlibEngine() override
    {
        if (m_ready)
            inflateEnd(&m_zs);
    }
    ZlibEngine(const ZlibEngine &) = delete;
    ZlibEngine &operator=(const ZlibEngine &) = delete;

    Inflater kind() const override { return Inflater::Zlib; }

    void startMember() override { reset(kGzipWindow); }

    void resume(const SeekPoint &point, int firstByte) override
    {
        reset(kRawWindow);
        if (point.bits > 0)
            inflatePrime(&m_zs, point.bits, firstByte >> (8 - point.bits));
        if (!point.state.empty())
            inflateSetDictionary(&m_zs, point.state.data(), uInt(point.state.size()));
    }

    Step inflate(
        const unsigned char *in, size_t inSize, char *out, size_t outSize, bool toBlockEnd) override
    {
        if (!m_ready)
            return {0, 0, 0, Status::Corrupt};
        m_zs.next_in = const_cast<Bytef *>(in);
        m_zs.avail_in = uInt(inSize);
        m_zs.next_out = reinterpret_cast<Bytef *>(out);
        m_zs.avail_out = uInt(outSize);
        const int rc = ::inflate(&m_zs, toBlockEnd ? Z_BLOCK : Z_NO_FLUSH);
        if (rc == Z_MEM_ERROR)
            throw std::bad_alloc();
        Step step {inSize - m_zs.avail_in, outSize - m_zs.avail_out, 0, Status::Ok};
        if (rc == Z_STREAM_END)
            step.status = Status::MemberEnd;
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
            step.status = Status::Corrupt;
        return step;
    }

    // Raw deflate data leaves the member's trailer (CRC-32 and length) to the caller.
    size_t trailerLeft() const override { return m_raw ? 8 : 0; }

    // 128: between two blocks; 64: in the member's last block, whose end is no place to start
    // from (the trailer follows).
    bool resumableHere() const override { return (m_zs.data_type & 128) && !(m_zs.data_type & 64); }

    void seekPoint(SeekPoint &point, uint64_t inputAt) const override
    {
        point.bits = uint8_t(m_zs.data_type & 7);
        // With bits left over, the next block starts inside the last byte zlib took.
        point.compressedOffset = inputAt - (point.bits > 0 ? 1 : 0);
        // The window holds only this member's text (a new member starts with none).
        z_stream &zs = const_cast<z_stream &>(m_zs);
        uInt length = 0;
        inflateGetDictionary(&zs, nullptr, &length);
        point.state.resize(length);
        inflateGetDictionary(&zs, point.state.data(), &length);
    }

    std::string error() const override
    {
        if (!m_ready)
            return "cannot initialise zlib";
        return m_zs.msg ? m_zs.msg : "corrupt gzip data";
    }

private:
    void reset(int windowBits)
    {
        m_raw = windowBits == kRawWindow;
        m_zs.data_type = 0; // says nothing of the new stream (inflateReset2 leaves it)
        if (m_ready && inflateReset2(&m_zs, windowBits) != Z_OK)
            m_ready = false;
    }

    z_stream m_zs {};
    bool m_ready = false;
    bool m_raw = false;
};

} // namespace

std::unique_ptr<DeflateEngine> makeZlibEngine()
{
    return std::make_unique<ZlibEngine>();
}

} // namespace ks
