// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <cstddef>
#include <memory>
#include <string>

namespace ks {

/*!
 * One gzip member's deflate data inflated by a library (zlib or ISA-L), call after call, over
 * input and output buffers the caller hands in each time. GzipInflater reads the file, walks
 * from member to member and records seek points through it; this knows only the library.
 */
class DeflateEngine {
public:
    virtual ~DeflateEngine() = default;

    enum class Status { Ok, MemberEnd, Corrupt };
    struct Step {
        size_t taken = 0; //!< input bytes handed over, whether used or held
        size_t produced = 0; //!< text written
        //! At MemberEnd: bytes the engine took, in this call or before, that lie past the
        //! member's end (the input goes on from there, less these).
        size_t heldPastEnd = 0;
        Status status = Status::Ok;
    };

    //! Which library this is: a GzipIndex's points resume only with the one that recorded them.
    virtual Inflater kind() const = 0;
    //! Starts a member at its gzip header (the next input byte).
    virtual void startMember() = 0;
    /*!
     * Starts from \a point (recorded by this kind of engine), the next input byte being the one
     * at its compressedOffset (after \a firstByte, when the point starts inside a byte).
     */
    virtual void resume(const SeekPoint &point, int firstByte) = 0;
    //! Inflates from \a in into \a out; with \a toBlockEnd, stops at the next block boundary.
    virtual Step inflate(
        const unsigned char *in, size_t inSize, char *out, size_t outSize, bool toBlockEnd)
        = 0;
    //! Compressed bytes of the trailer left to skip after a MemberEnd.
    virtual size_t trailerLeft() const = 0;
    //! Whether inflating may start again from here (seekPoint()): the input sits where it can.
    virtual bool resumableHere() const = 0;
    //! Fills \a point's bits and state for here; its compressedOffset is \a inputAt less
    //! what the engine says it still holds.
    virtual void seekPoint(SeekPoint &point, uint64_t inputAt) const = 0;
    //! The library's words for corrupt data, after Status::Corrupt.
    virtual std::string error() const = 0;
};

//! An engine of \a inflater's kind (zlib where ISA-L is asked for and this build lacks it).
std::unique_ptr<DeflateEngine> makeDeflateEngine(Inflater inflater);
//! ISA-L where this build has it, else zlib.
Inflater fastestInflater();
//! The two kinds (zlibengine.cpp, isalengine.cpp), for makeDeflateEngine().
std::unique_ptr<DeflateEngine> makeZlibEngine();
std::unique_ptr<DeflateEngine> makeIsalEngine();

} // namespace ks
