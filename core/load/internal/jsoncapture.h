// SPDX-License-Identifier: MIT
#pragma once

#include "base/jsonwrite.h"

#include <string>
#include <string_view>
#include <vector>

namespace ks {

//! Compact JSON text of a value, rebuilt from SAX calls (Input Dims, metadata values).
class JsonCapture {
public:
    //! Values beyond this size are cut (and overflow() says so).
    static constexpr size_t kMaxCaptureBytes = 1 << 20;

    void start(std::string *out)
    {
        m_out = out;
        m_out->clear();
        m_needComma.clear();
        m_afterKey = false;
        m_overflow = false;
    }
    bool overflow() const { return m_overflow; }

    void beforeValue()
    {
        if (!m_afterKey && !m_needComma.empty()) {
            if (m_needComma.back())
                put(",");
            m_needComma.back() = true;
        }
        m_afterKey = false;
    }
    void raw(std::string_view text)
    {
        beforeValue();
        put(text);
    }
    void string(std::string_view text)
    {
        beforeValue();
        if (m_out->size() + text.size() > kMaxCaptureBytes) {
            m_overflow = true;
            return;
        }
        appendJsonString(*m_out, text);
    }
    void key(std::string_view text)
    {
        if (m_needComma.back())
            put(",");
        m_needComma.back() = true;
        if (m_out->size() + text.size() <= kMaxCaptureBytes)
            appendJsonString(*m_out, text);
        put(":");
        m_afterKey = true;
    }
    void open(char c)
    {
        beforeValue();
        put(std::string_view(&c, 1));
        m_needComma.push_back(false);
    }
    void close(char c)
    {
        if (!m_needComma.empty())
            m_needComma.pop_back();
        put(std::string_view(&c, 1));
    }

private:
    void put(std::string_view text)
    {
        if (m_out->size() + text.size() > kMaxCaptureBytes) {
            m_overflow = true;
            return;
        }
        m_out->append(text);
    }

    std::string *m_out = nullptr;
    std::vector<bool> m_needComma;
    bool m_afterKey = false;
    bool m_overflow = false;
};

} // namespace ks
