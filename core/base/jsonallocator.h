// SPDX-License-Identifier: MIT
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/reader.h>

#include <cstdlib>
#include <new>

namespace ks {

/*!
 * RapidJSON's allocator concept, throwing std::bad_alloc where its CrtAllocator returns null: a
 * reader's stack (the strings and keys being read) and a document's nodes are written through
 * the pointer unchecked, so memory running out (ulimit -v, a cgroup's limit) was a segmentation
 * fault. Thrown, it fails the load or the command as any allocation of ours does.
 */
class ThrowingAllocator {
public:
    static const bool kNeedFree = true;
    void *Malloc(size_t size) { return size ? checked(std::malloc(size)) : nullptr; }
    void *Realloc(void *block, size_t /*oldSize*/, size_t newSize)
    {
        if (newSize == 0) {
            std::free(block);
            return nullptr;
        }
        return checked(std::realloc(block, newSize)); // on failure the block stays the caller's
    }
    static void Free(void *block) { std::free(block); }

private:
    static void *checked(void *block)
    {
        if (!block)
            throw std::bad_alloc();
        return block;
    }
};

//! The reader and the document every JSON text is read with.
using JsonReader
    = rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, ThrowingAllocator>;
using JsonDocument = rapidjson::GenericDocument<rapidjson::UTF8<>,
    rapidjson::MemoryPoolAllocator<ThrowingAllocator>,
    ThrowingAllocator>;
using JsonValue = JsonDocument::ValueType;

} // namespace ks
