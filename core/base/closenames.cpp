// SPDX-License-Identifier: MIT
#include "base/closenames.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>

namespace ks {

namespace {

char lower(char c)
{
    return char(std::tolower(static_cast<unsigned char>(c)));
}

int editDistance(std::string_view a, std::string_view b)
{
    std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = int(j);
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = int(i);
        for (size_t j = 1; j <= b.size(); ++j) {
            const int cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

bool containsIgnoringCase(std::string_view text, std::string_view part)
{
    return std::search(text.begin(), text.end(), part.begin(), part.end(), [](char x, char y) {
        return lower(x) == lower(y);
    }) != text.end();
}

} // namespace

std::vector<std::string> closeNames(
    const std::vector<std::string_view> &candidates, std::string_view name, size_t count)
{
    const int within = std::max(3, int(name.size()) / 3);
    std::vector<std::pair<int, std::string_view>> scored;
    for (std::string_view c : candidates) {
        if (containsIgnoringCase(c, name) || containsIgnoringCase(name, c)) {
            scored.emplace_back(0, c);
            continue;
        }
        // Lengths alone rule most names out before the quadratic distance.
        const int lengths = std::abs(int(c.size()) - int(name.size()));
        if (lengths > within)
            continue;
        if (const int d = editDistance(c, name); d <= within)
            scored.emplace_back(d, c);
    }
    std::sort(scored.begin(), scored.end());
    std::vector<std::string> out;
    for (size_t i = 0; i < scored.size() && i < count; ++i)
        out.emplace_back(scored[i].second);
    return out;
}

} // namespace ks
