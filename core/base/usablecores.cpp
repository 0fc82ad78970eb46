// SPDX-License-Identifier: MIT
#include "base/usablecores.h"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>

namespace ks {

namespace {

std::string firstLine(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

//! The cores one `cpu.max` line allows ("150000 100000" → 2); 0 for "max …" or no such line.
unsigned coresOfCpuMax(const std::string &line)
{
    unsigned long long quota = 0;
    unsigned long long period = 0;
    if (std::sscanf(line.c_str(), "%llu %llu", &quota, &period) != 2 || period == 0)
        return 0;
    const unsigned long long cores = std::max(1ull, (quota + period - 1) / period);
    return unsigned(std::min<unsigned long long>(cores, 1u << 20));
}

//! The group of the v2 line ("0::/a/b" → "/a/b"); empty when there is none (cgroup v1 only).
std::string v2Group(std::string_view procSelfCgroup)
{
    for (size_t at = 0; at < procSelfCgroup.size();) {
        size_t end = procSelfCgroup.find('\n', at);
        if (end == std::string_view::npos)
            end = procSelfCgroup.size();
        const std::string_view line = procSelfCgroup.substr(at, end - at);
        if (line.substr(0, 3) == "0::")
            return std::string(line.substr(3));
        at = end + 1;
    }
    return {};
}

} // namespace

unsigned cgroupCpuLimit(const std::string &cgroupRoot, std::string_view procSelfCgroup)
{
    std::string group = v2Group(procSelfCgroup);
    if (group.empty() || group.front() != '/')
        return 0;
    unsigned limit = 0;
    for (;;) {
        const unsigned cores = coresOfCpuMax(firstLine(cgroupRoot + group + "/cpu.max"));
        if (cores > 0 && (limit == 0 || cores < limit))
            limit = cores;
        if (group.size() <= 1)
            return limit;
        group.erase(group.rfind('/')); // "/a/b" → "/a" → "" (the root)
    }
}

unsigned usableCores()
{
    static const unsigned cores = [] {
        unsigned n = std::thread::hardware_concurrency();
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) == 0) // fails past 1 024 CPUs: keep n
            n = unsigned(CPU_COUNT(&set));
        std::ifstream in("/proc/self/cgroup");
        const std::string text {std::istreambuf_iterator<char>(in), {}};
        const unsigned limit = cgroupCpuLimit("/sys/fs/cgroup", text);
        if (limit > 0)
            n = std::min(n, limit);
        return std::max(1u, n);
    }();
    return cores;
}

} // namespace ks
