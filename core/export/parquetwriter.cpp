// SPDX-License-Identifier: MIT
// Field ids, enumerators and layouts: apache/parquet-format, src/main/thrift/parquet.thrift
// (FileMetaData, SchemaElement, RowGroup, ColumnChunk, ColumnMetaData, PageHeader) and
// Encodings.md (PLAIN, the RLE/bit-packing hybrid, RLE_DICTIONARY).
#include "export/parquetwriter.h"

#include "base/version.h"
#include "export/atomicfile.h"
#include "export/thriftcompact.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <new>
#include <optional>
#include <span>
#include <unordered_map>

#ifdef KINETOSCOPE_HAVE_ZSTD
#include <zstd.h>
#endif

namespace ks {

namespace {

using Type = ThriftCompact::Type;

enum class Physical : int32_t { Int64 = 2, Double = 5, ByteArray = 6 };
enum Encoding : int32_t { Plain = 0, Rle = 3, RleDictionary = 8 };
enum Codec : int32_t { Uncompressed = 0, Zstd = 6 };
enum PageType : int32_t { DataPage = 0, DictionaryPage = 2 };
constexpr int32_t kOptional = 1; // FieldRepetitionType
constexpr int32_t kUtf8 = 0; // ConvertedType
constexpr size_t kPageValues = size_t(1) << 16;
constexpr size_t kMaxDictionaryBytes = size_t(1) << 20;

#ifdef KINETOSCOPE_HAVE_ZSTD
constexpr Codec kCodec = Zstd;
#else
constexpr Codec kCodec = Uncompressed;
#endif

void appendLittle(std::string &out, uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out += char(value >> (8 * i));
}

void appendVarint(std::string &out, uint64_t value)
{
    for (; value >= 0x80; value >>= 7)
        out += char((value & 0x7f) | 0x80);
    out += char(value);
}

/*!
 * \a values in the RLE/bit-packing hybrid: one RLE run where all are equal, else one bit-packed
 * run, least significant bit first, its last group of 8 padded with zeros (the page's value
 * count says where the values end).
 */
void appendHybrid(std::string &out, std::span<const uint32_t> values, int bitWidth)
{
    if (values.empty())
        return;
    if (std::equal(values.begin() + 1, values.end(), values.begin())) {
        appendVarint(out, uint64_t(values.size()) << 1);
        appendLittle(out, values.front(), (bitWidth + 7) / 8);
        return;
    }
    const size_t groups = (values.size() + 7) / 8;
    appendVarint(out, (uint64_t(groups) << 1) | 1);
    uint64_t buffer = 0;
    int bits = 0;
    for (size_t i = 0; i < groups * 8; ++i) {
        buffer |= uint64_t(i < values.size() ? values[i] : 0) << bits;
        for (bits += bitWidth; bits >= 8; bits -= 8, buffer >>= 8)
            out += char(buffer & 0xff);
    }
}

//! One column's cells read once: which are null, and the others as its physical type takes them.
struct ColumnValues {
    Physical type = Physical::ByteArray;
    std::vector<uint32_t> defined; //!< per row: 1, or 0 for null (its definition level)
    std::vector<int64_t> integers; //!< Int64: the values that are not null
    std::vector<double> doubles; //!< Double: the same
    std::vector<std::string> texts; //!< ByteArray: the same
};

Physical preferredType(Cell cell)
{
    switch (cell) {
    case Cell::Integer:
    case Cell::Bytes:
        return Physical::Int64;
    case Cell::Number:
    case Cell::Timestamp:
        return Physical::Double;
    default:
        return Physical::ByteArray;
    }
}

template<typename Number> bool parseAll(std::string_view text, Number &out)
{
    const auto [end, failed] = std::from_chars(text.data(), text.data() + text.size(), out);
    return failed == std::errc() && end == text.data() + text.size();
}

ColumnValues readColumn(const Table &table, size_t column)
{
    ColumnValues v;
    v.type = preferredType(table.columns()[column].cell);
    const bool emptyIsText = table.columns()[column].cell == Cell::TextOrEmpty;
    v.defined.reserve(table.rowCount());
    for (size_t row = 0; row < table.rowCount(); ++row) {
        std::string text = table.text(row, column);
        const bool null = text.empty() && !emptyIsText;
        v.defined.push_back(null ? 0 : 1);
        if (!null)
            v.texts.push_back(std::move(text));
    }
    bool numbers = v.type != Physical::ByteArray;
    for (size_t i = 0; i < v.texts.size() && numbers; ++i) {
        if (v.type == Physical::Int64)
            numbers = parseAll(v.texts[i], v.integers.emplace_back());
        else
            numbers = parseAll(v.texts[i], v.doubles.emplace_back());
    }
    if (!numbers) {
        v.type = Physical::ByteArray; // a cell that is no such number: kept as written
        v.integers.clear();
        v.doubles.clear();
    } else if (v.type != Physical::ByteArray) {
        v.texts.clear();
    }
    return v;
}

//! The strings of a column by first appearance, and each value's index among them.
struct Dictionary {
    std::vector<const std::string *> entries;
    std::vector<uint32_t> indexes;
    int bitWidth = 1;
};

//! \a texts' dictionary; none where it would pass kMaxDictionaryBytes (PLAIN then).
std::optional<Dictionary> dictionaryOf(const std::vector<std::string> &texts)
{
    Dictionary d;
    std::unordered_map<std::string_view, uint32_t> index;
    size_t bytes = 0;
    d.indexes.reserve(texts.size());
    for (const std::string &text : texts) {
        const auto [it, added] = index.try_emplace(text, uint32_t(d.entries.size()));
        if (added) {
            d.entries.push_back(&text);
            if ((bytes += 4 + text.size()) > kMaxDictionaryBytes)
                return std::nullopt;
        }
        d.indexes.push_back(it->second);
    }
    while (d.bitWidth < 32 && (uint64_t(1) << d.bitWidth) < d.entries.size())
        ++d.bitWidth;
    return d;
}

std::string compressed(std::string_view body)
{
#ifdef KINETOSCOPE_HAVE_ZSTD
    std::string out(ZSTD_compressBound(body.size()), '\0');
    const size_t n = ZSTD_compress(out.data(), out.size(), body.data(), body.size(), 3);
    if (ZSTD_isError(n))
        throw std::bad_alloc(); // zstd fails only for want of memory here
    out.resize(n);
    return out;
#else
    return std::string(body);
#endif
}

//! One column's chunk as written: its pages, and what its metadata says of them.
struct Chunk {
    Physical type = Physical::ByteArray;
    std::string bytes;
    int64_t uncompressed = 0; //!< page headers and bodies before compression
    int64_t dataOffset = 0; //!< of its first data page, from the chunk's start
    bool dictionary = false; //!< its first page is the dictionary
    int64_t values = 0;
};

void appendPage(
    Chunk &chunk, PageType type, const std::string &body, size_t values, Encoding encoding)
{
    const std::string stored = compressed(body);
    ThriftCompact h;
    h.i32(1, type);
    h.i32(2, int32_t(body.size()));
    h.i32(3, int32_t(stored.size()));
    h.beginStruct(type == DataPage ? 5 : 7); // DataPageHeader, DictionaryPageHeader
    h.i32(1, int32_t(values));
    h.i32(2, encoding);
    if (type == DataPage) {
        h.i32(3, Rle); // definition levels
        h.i32(4, Rle); // repetition levels (none: a flat schema)
    }
    h.endStruct();
    const std::string header = h.finish();
    chunk.uncompressed += int64_t(header.size() + body.size());
    chunk.bytes += header;
    chunk.bytes += stored;
}

void appendPlain(std::string &out, const ColumnValues &v, size_t index)
{
    if (v.type == Physical::Int64) {
        appendLittle(out, uint64_t(v.integers[index]), 8);
    } else if (v.type == Physical::Double) {
        uint64_t bits = 0;
        std::memcpy(&bits, &v.doubles[index], 8);
        appendLittle(out, bits, 8);
    } else {
        appendLittle(out, v.texts[index].size(), 4);
        out += v.texts[index];
    }
}

Chunk chunkOf(const ColumnValues &v)
{
    Chunk chunk;
    chunk.type = v.type;
    chunk.values = int64_t(v.defined.size());
    if (v.defined.empty())
        return chunk; // no row group: its type alone, for the schema
    const auto dictionary
        = v.type == Physical::ByteArray ? dictionaryOf(v.texts) : std::optional<Dictionary>();
    if (dictionary) {
        std::string body;
        for (const std::string *entry : dictionary->entries) {
            appendLittle(body, entry->size(), 4);
            body += *entry;
        }
        appendPage(chunk, DictionaryPage, body, dictionary->entries.size(), Plain);
        chunk.dictionary = true;
        chunk.dataOffset = int64_t(chunk.bytes.size());
    }
    size_t next = 0; // the first value of the page, among those that are not null
    for (size_t begin = 0; begin < v.defined.size(); begin += kPageValues) {
        const size_t end = std::min(v.defined.size(), begin + kPageValues);
        const std::span<const uint32_t> levels(v.defined.data() + begin, end - begin);
        std::string levelBytes;
        appendHybrid(levelBytes, levels, 1);
        std::string body;
        appendLittle(body, levelBytes.size(), 4);
        body += levelBytes;
        const size_t count = size_t(std::count(levels.begin(), levels.end(), 1u));
        if (dictionary) {
            body += char(dictionary->bitWidth);
            appendHybrid(
                body, std::span(dictionary->indexes).subspan(next, count), dictionary->bitWidth);
        } else {
            for (size_t i = next; i < next + count; ++i)
                appendPlain(body, v, i);
        }
        next += count;
        appendPage(chunk, DataPage, body, end - begin, dictionary ? RleDictionary : Plain);
    }
    return chunk;
}

void schemaOf(ThriftCompact &f, const Table &table, const std::vector<Chunk> &chunks)
{
    f.beginList(2, Type::Struct, 1 + table.columnCount());
    f.beginElement(); // the root
    f.string(4, "schema");
    f.i32(5, int32_t(table.columnCount()));
    f.endStruct();
    for (size_t c = 0; c < table.columnCount(); ++c) {
        f.beginElement();
        f.i32(1, int32_t(chunks[c].type));
        f.i32(3, kOptional);
        f.string(4, table.columnName(c));
        if (chunks[c].type == Physical::ByteArray) {
            f.i32(6, kUtf8);
            f.beginStruct(10); // LogicalType
            f.beginStruct(1); // STRING
            f.endStruct();
            f.endStruct();
        }
        f.endStruct();
    }
}

void columnChunkOf(ThriftCompact &f, std::string_view name, const Chunk &chunk, int64_t at)
{
    f.beginElement();
    f.i64(2, at); // file_offset
    f.beginStruct(3); // ColumnMetaData
    f.i32(1, int32_t(chunk.type));
    const std::vector<int32_t> encodings = chunk.dictionary
        ? std::vector<int32_t> {Plain, Rle, RleDictionary}
        : std::vector<int32_t> {Plain, Rle};
    f.beginList(2, Type::I32, encodings.size());
    for (int32_t e : encodings)
        f.i32Element(e);
    f.beginList(3, Type::Binary, 1);
    f.stringElement(name);
    f.i32(4, kCodec);
    f.i64(5, chunk.values);
    f.i64(6, chunk.uncompressed);
    f.i64(7, int64_t(chunk.bytes.size()));
    f.i64(9, at + chunk.dataOffset);
    if (chunk.dictionary)
        f.i64(11, at);
    f.endStruct();
    f.endStruct();
}

} // namespace

std::string parquetFile(const Table &table)
{
    std::vector<Chunk> chunks;
    for (size_t c = 0; c < table.columnCount(); ++c)
        chunks.push_back(chunkOf(readColumn(table, c)));
    std::string out = "PAR1";
    std::vector<int64_t> offsets;
    int64_t uncompressed = 0;
    for (const Chunk &chunk : chunks) {
        offsets.push_back(int64_t(out.size()));
        uncompressed += chunk.uncompressed;
        out += chunk.bytes;
    }
    const auto rows = int64_t(table.rowCount());
    ThriftCompact f; // FileMetaData
    f.i32(1, 1); // version
    schemaOf(f, table, chunks);
    f.i64(3, rows);
    f.beginList(4, Type::Struct, rows > 0 ? 1 : 0); // one row group, none for no rows
    if (rows > 0) {
        f.beginElement();
        f.beginList(1, Type::Struct, chunks.size());
        for (size_t c = 0; c < chunks.size(); ++c)
            columnChunkOf(f, table.columnName(c), chunks[c], offsets[c]);
        f.i64(2, uncompressed);
        f.i64(3, rows);
        f.i64(5, 4); // file_offset: the first page
        f.i64(6, int64_t(out.size()) - 4);
        f.endStruct();
    }
    f.string(6, "kinetoscope version " KINETOSCOPE_VERSION);
    const std::string footer = f.finish();
    out += footer;
    appendLittle(out, footer.size(), 4);
    out += "PAR1";
    return out;
}

bool writeParquet(const Table &table, const std::string &path, std::string &error)
{
    return writeFileAtomically(path, parquetFile(table), error);
}

} // namespace ks
