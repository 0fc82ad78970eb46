// SPDX-License-Identifier: MIT
#include "load/tracereader.h"

#include <zlib.h>

#include <cctype>
#include <string>

namespace ks {

int peekWorldSize(const std::string &path)
{
    // gzread reads plain files as they are, gzip files inflated.
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file)
        return 0;
    std::string head(256 * 1024, '\0');
    const int n = gzread(file, head.data(), unsigned(head.size()));
    gzclose(file);
    head.resize(n > 0 ? size_t(n) : 0);
    const size_t info = head.find("\"distributedInfo\"");
    if (info == std::string::npos)
        return 0;
    const size_t key = head.find("\"world_size\"", info);
    if (key == std::string::npos)
        return 0;
    size_t i = head.find(':', key);
    if (i == std::string::npos)
        return 0;
    ++i;
    while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i])))
        ++i;
    int value = 0;
    bool digits = false;
    for (; i < head.size() && std::isdigit(static_cast<unsigned char>(head[i]))
         && value < 1000000000 / 10;
         ++i) {
        value = value * 10 + (head[i] - '0');
        digits = true;
    }
    return digits ? value : 0;
}

} // namespace ks
