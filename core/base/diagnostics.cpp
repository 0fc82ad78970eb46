// SPDX-License-Identifier: MIT
#include "base/diagnostics.h"

#include <algorithm>

namespace ks {

namespace {

constexpr bool inOrder()
{
    for (size_t i = 0; i < kDiagnostics.size(); ++i) {
        if (size_t(kDiagnostics[i].id) != i)
            return false;
        if (i > 0 && !(kDiagnostics[i - 1].name < kDiagnostics[i].name))
            return false;
    }
    return true;
}
static_assert(inOrder(), "kDiagnostics must list every Diag once, in enumerator and name order");

} // namespace

std::optional<Diag> diagnosticNamed(std::string_view name)
{
    auto it = std::lower_bound(kDiagnostics.begin(), kDiagnostics.end(), name,
        [](const DiagnosticInfo &d, std::string_view n) { return d.name < n; });
    if (it == kDiagnostics.end() || it->name != name)
        return std::nullopt;
    return it->id;
}

void Diagnostics::add(Diag counter, uint64_t offset, const std::string &message)
{
    const uint64_t n = ++m_counts[size_t(counter)];
    if (n <= kExamplesPerCounter)
        m_examples.push_back({counter, offset, message});
}

void Diagnostics::addCount(Diag counter, uint64_t count)
{
    m_counts[size_t(counter)] += count;
}

void Diagnostics::merge(const Diagnostics &other)
{
    for (const Example &e : other.m_examples) {
        const auto have = std::count_if(m_examples.begin(), m_examples.end(),
            [&](const Example &x) { return x.counter == e.counter; });
        if (have < kExamplesPerCounter)
            m_examples.push_back(e);
    }
    for (size_t i = 0; i < m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
}

void Diagnostics::interleave(const Diagnostics &other)
{
    std::vector<Example> all = std::move(m_examples);
    all.insert(all.end(), other.m_examples.begin(), other.m_examples.end());
    std::stable_sort(all.begin(), all.end(),
        [](const Example &a, const Example &b) { return a.offset < b.offset; });
    m_examples.clear();
    std::array<int, size_t(Diag::Count)> kept {};
    for (Example &e : all) {
        if (kept[size_t(e.counter)]++ < kExamplesPerCounter)
            m_examples.push_back(std::move(e));
    }
    for (size_t i = 0; i < m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
}

uint64_t Diagnostics::count(std::string_view name) const
{
    const std::optional<Diag> d = diagnosticNamed(name);
    return d ? count(*d) : 0;
}

uint64_t Diagnostics::total() const
{
    uint64_t sum = 0;
    for (uint64_t n : m_counts)
        sum += n;
    return sum;
}

std::map<std::string, uint64_t> Diagnostics::counts() const
{
    std::map<std::string, uint64_t> out;
    for (const DiagnosticInfo &d : kDiagnostics) {
        if (count(d.id) > 0)
            out.emplace(d.name, count(d.id));
    }
    return out;
}

uint64_t Diagnostics::warnings() const
{
    uint64_t sum = 0;
    for (const DiagnosticInfo &d : kDiagnostics) {
        if (d.severity == Severity::Warning)
            sum += count(d.id);
    }
    return sum;
}

std::string Diagnostics::report() const
{
    std::string out;
    for (Severity severity : {Severity::Warning, Severity::Info}) {
        for (const DiagnosticInfo &d : kDiagnostics) {
            if (d.severity != severity || count(d.id) == 0)
                continue;
            out += std::string(d.name) + ": " + std::to_string(count(d.id))
                + (severity == Severity::Info ? " (informational) — " : " — ")
                + std::string(d.description) + '\n';
            for (const Example &e : m_examples) {
                if (e.counter == d.id)
                    out += "    byte " + std::to_string(e.offset) + ": " + e.message + '\n';
            }
        }
    }
    return out;
}

} // namespace ks
