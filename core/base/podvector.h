// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace ks {

/*!
 * A growable array of trivially copyable values that grows with realloc. For large arrays glibc
 * then remaps the pages (mremap) instead of copying them, and a freed array goes straight back
 * to the system: the loader's columns grow to hundreds of MB this way without ever being held
 * twice.
 */
template<typename T> class PodVector {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    PodVector() = default;
    ~PodVector() { std::free(m_data); }
    PodVector(const PodVector &) = delete;
    PodVector &operator=(const PodVector &) = delete;
    PodVector(PodVector &&o) noexcept
        : m_data(std::exchange(o.m_data, nullptr))
        , m_size(std::exchange(o.m_size, 0))
        , m_capacity(std::exchange(o.m_capacity, 0))
    {
    }
    PodVector &operator=(PodVector &&o) noexcept
    {
        std::swap(m_data, o.m_data);
        std::swap(m_size, o.m_size);
        std::swap(m_capacity, o.m_capacity);
        return *this;
    }

    void push_back(const T &value)
    {
        if (m_size == m_capacity)
            grow();
        m_data[m_size++] = value;
    }
    //! Room for \a n values in all, without growing again (at least doubling, as push_back).
    void reserve(size_t n)
    {
        if (n > m_capacity)
            setCapacity(std::max(n, m_capacity * 2));
    }
    //! Adds the \a n values at \a values (not this array's own).
    void append(const T *values, size_t n)
    {
        reserve(m_size + n);
        if (n)
            std::memcpy(static_cast<void *>(m_data + m_size), values, n * sizeof(T));
        m_size += n;
    }
    T &operator[](size_t i) { return m_data[i]; }
    const T &operator[](size_t i) const { return m_data[i]; }
    T &back() { return m_data[m_size - 1]; }
    T *data() { return m_data; }
    const T *data() const { return m_data; }
    T *begin() { return m_data; }
    T *end() { return m_data + m_size; }
    const T *begin() const { return m_data; }
    const T *end() const { return m_data + m_size; }
    size_t capacity() const { return m_capacity; }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    //! Frees the memory now.
    void release()
    {
        std::free(m_data);
        m_data = nullptr;
        m_size = m_capacity = 0;
    }

private:
    void grow()
    {
        // Small first: a trace may hold many small arrays (one per counter series, …).
        setCapacity(m_capacity ? m_capacity * 2 : 4);
    }
    void setCapacity(size_t capacity)
    {
        void *p = std::realloc(m_data, capacity * sizeof(T));
        if (!p)
            throw std::bad_alloc();
        m_data = static_cast<T *>(p);
        m_capacity = capacity;
    }

    T *m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
};

} // namespace ks
