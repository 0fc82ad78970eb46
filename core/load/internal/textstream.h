// SPDX-License-Identifier: MIT
#pragma once

#include "plainrun.h"

#include <rapidjson/reader.h>

#include <cstring>

namespace ks {

//! RapidJSON's StringStream (a zero-terminated text in memory) with a string scanner of its own.
struct TextStream : rapidjson::StringStream {
    using rapidjson::StringStream::StringStream;
};

} // namespace ks

namespace rapidjson {

template<> struct StreamTraits<ks::TextStream> {
    enum { copyOptimization = 1 }; // as StringStream's
};

//! Called by RapidJSON before each character of a string it would copy alone: copies the plain
//! characters ahead at once; what ends them RapidJSON's own loop then takes.
template<>
template<>
inline void Reader::ScanCopyUnescapedString(ks::TextStream &is, Reader::StackStream<char> &os)
{
    const char *run = ks::plainRunEnd(is.src_);
    if (run == is.src_)
        return;
    std::memcpy(os.Push(SizeType(run - is.src_)), is.src_, size_t(run - is.src_));
    is.src_ = run;
}

} // namespace rapidjson
