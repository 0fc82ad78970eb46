// SPDX-License-Identifier: MIT
#pragma once

#include "textscan.h"

#include <rapidjson/reader.h>

#include <string>

namespace ks {

//! RapidJSON's StringStream over \a text (zero-terminated, as it reads), whose end scans know.
struct TextStream : rapidjson::StringStream {
    explicit TextStream(const std::string &text)
        : rapidjson::StringStream(text.c_str())
        , end(text.c_str() + text.size())
    {
    }
    const char *end; //!< at its zero

    //! What a scan may read ahead (textscan.h), as ChunkStream's.
    const char *scanBegin() const { return src_; }
    const char *scanEnd() const { return end; }
    void skipTo(const char *p) { src_ = p; }
};

} // namespace ks

namespace rapidjson {

template<> struct StreamTraits<ks::TextStream> {
    enum { copyOptimization = 1 }; // as StringStream's
};

} // namespace rapidjson
