// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ks {

/*!
 * What was odd about a trace: a count per kind of anomaly and the first few examples, each
 * with the byte offset (in the decompressed text) of the event it concerns. Nothing is
 * dropped silently: whatever the loader or linker skips or repairs is counted here.
 */
class Diagnostics {
public:
    struct Example {
        std::string counter;
        uint64_t offset = 0;
        std::string message;
    };

    static constexpr int kExamplesPerCounter = 5;

    void add(const std::string &counter, uint64_t offset, const std::string &message);
    void addCount(const std::string &counter, uint64_t count = 1);
    //! Adds the counts and examples of \a other.
    void merge(const Diagnostics &other);

    uint64_t count(const std::string &counter) const;
    uint64_t total() const;
    bool empty() const { return m_counts.empty(); }
    const std::map<std::string, uint64_t> &counts() const { return m_counts; }
    const std::vector<Example> &examples() const { return m_examples; }

    /*!
     * Counters that normal Kineto traces produce (lone ac2g flow ends on non-launch API calls,
     * duplicate ROCm flow ends): reported, but not warnings worth a banner.
     */
    static bool isInformational(const std::string &counter);
    //! Count of the counters that are not informational.
    uint64_t warnings() const;

    //! Human-readable one line per counter, examples indented below.
    std::string report() const;

private:
    std::map<std::string, uint64_t> m_counts;
    std::vector<Example> m_examples;
};

} // namespace ks
