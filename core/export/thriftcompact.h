// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

/*!
 * Writes Apache Thrift's compact protocol, the encoding of a Parquet file's page headers and
 * footer (Thrift's doc/specs/thrift-compact-protocol.md): each field a header byte of its id's
 * delta to the last field's and its type, integers as zigzag varints, strings length first, a
 * struct closed by a stop byte. Only the writing half, and only the types Parquet uses.
 */
class ThriftCompact {
public:
    enum class Type : uint8_t {
        True = 1,
        False = 2,
        I32 = 5,
        I64 = 6,
        Binary = 8,
        List = 9,
        Struct = 12,
    };

    void i32(int16_t field, int32_t value);
    void i64(int16_t field, int64_t value);
    void boolean(int16_t field, bool value);
    void string(int16_t field, std::string_view value);
    //! A struct field: its own fields follow, then endStruct().
    void beginStruct(int16_t field);
    void endStruct();
    //! A list field of \a size elements of \a element, which follow (structs: beginElement()).
    void beginList(int16_t field, Type element, size_t size);
    //! One struct element of a list: its fields follow, then endStruct().
    void beginElement();
    void i32Element(int32_t value);
    void stringElement(std::string_view value);

    //! Closes the outermost struct (the message) and hands over its bytes.
    std::string finish();

private:
    void fieldHeader(int16_t field, Type type);
    void varint(uint64_t value);
    static uint64_t zigzag(int64_t value);

    std::string m_out;
    int16_t m_lastField = 0;
    std::vector<int16_t> m_outer; //!< the last field ids of the structs this one is inside
};

} // namespace ks
