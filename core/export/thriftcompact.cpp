// SPDX-License-Identifier: MIT
#include "export/thriftcompact.h"

namespace ks {

void ThriftCompact::fieldHeader(int16_t field, Type type)
{
    const int delta = field - m_lastField;
    if (delta > 0 && delta <= 15) {
        m_out += char((delta << 4) | int(type));
    } else {
        m_out += char(type);
        varint(zigzag(field));
    }
    m_lastField = field;
}

void ThriftCompact::varint(uint64_t value)
{
    for (; value >= 0x80; value >>= 7)
        m_out += char((value & 0x7f) | 0x80);
    m_out += char(value);
}

uint64_t ThriftCompact::zigzag(int64_t value)
{
    return (uint64_t(value) << 1) ^ uint64_t(value >> 63);
}

void ThriftCompact::i32(int16_t field, int32_t value)
{
    fieldHeader(field, Type::I32);
    varint(zigzag(value));
}

void ThriftCompact::i64(int16_t field, int64_t value)
{
    fieldHeader(field, Type::I64);
    varint(zigzag(value));
}

void ThriftCompact::boolean(int16_t field, bool value)
{
    fieldHeader(field, value ? Type::True : Type::False); // the value is the type
}

void ThriftCompact::string(int16_t field, std::string_view value)
{
    fieldHeader(field, Type::Binary);
    varint(value.size());
    m_out += value;
}

void ThriftCompact::beginStruct(int16_t field)
{
    fieldHeader(field, Type::Struct);
    beginElement();
}

void ThriftCompact::endStruct()
{
    m_out += '\0'; // stop
    m_lastField = m_outer.back();
    m_outer.pop_back();
}

void ThriftCompact::beginList(int16_t field, Type element, size_t size)
{
    fieldHeader(field, Type::List);
    if (size < 15) {
        m_out += char((size << 4) | size_t(element));
    } else {
        m_out += char(0xf0 | int(element));
        varint(size);
    }
}

void ThriftCompact::beginElement()
{
    m_outer.push_back(m_lastField);
    m_lastField = 0;
}

void ThriftCompact::i32Element(int32_t value)
{
    varint(zigzag(value));
}

void ThriftCompact::stringElement(std::string_view value)
{
    varint(value.size());
    m_out += value;
}

std::string ThriftCompact::finish()
{
    m_out += '\0';
    return std::move(m_out);
}

} // namespace ks
