// SPDX-License-Identifier: MIT
#include "base/diagnostics.h"

#include <algorithm>

namespace ks {

void Diagnostics::add(const std::string &counter, uint64_t offset, const std::string &message)
{
    const uint64_t n = ++m_counts[counter];
    if (n <= kExamplesPerCounter)
        m_examples.push_back({counter, offset, message});
}

void Diagnostics::addCount(const std::string &counter, uint64_t count)
{
    if (count > 0)
        m_counts[counter] += count;
}

void Diagnostics::merge(const Diagnostics &other)
{
    for (const Example &e : other.m_examples) {
        const auto have = std::count_if(m_examples.begin(), m_examples.end(),
            [&](const Example &x) { return x.counter == e.counter; });
        if (have < kExamplesPerCounter)
            m_examples.push_back(e);
    }
    for (const auto &[counter, n] : other.m_counts)
        m_counts[counter] += n;
}

uint64_t Diagnostics::count(const std::string &counter) const
{
    auto it = m_counts.find(counter);
    return it == m_counts.end() ? 0 : it->second;
}

uint64_t Diagnostics::total() const
{
    uint64_t sum = 0;
    for (const auto &[name, n] : m_counts)
        sum += n;
    return sum;
}

bool Diagnostics::isInformational(const std::string &counter)
{
    return counter == "flow_end_without_start" || counter == "flow_start_without_end"
        || counter == "duplicate_flow_end" || counter == "duplicate_flow_start"
        || counter == "fwdbwd_flow_to_hook";
}

uint64_t Diagnostics::warnings() const
{
    uint64_t sum = 0;
    for (const auto &[name, n] : m_counts) {
        if (!isInformational(name))
            sum += n;
    }
    return sum;
}

std::string Diagnostics::report() const
{
    std::string out;
    for (const auto &[name, n] : m_counts) {
        out += name + ": " + std::to_string(n) + '\n';
        for (const Example &e : m_examples) {
            if (e.counter == name)
                out += "    byte " + std::to_string(e.offset) + ": " + e.message + '\n';
        }
    }
    return out;
}

} // namespace ks
