// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace ks {

/*!
 * The cores this process may keep busy: the CPUs its affinity mask allows (taskset, a Slurm
 * allocation, a container's cpuset), no more than its cgroup's CPU limit (a Kubernetes Job's
 * `limits.cpu`), at least 1. std::thread::hardware_concurrency() counts every CPU of the
 * machine: on a shared node that starts a thread, and a rank in memory, per CPU of the node.
 */
unsigned usableCores();

/*!
 * The CPU limit, rounded up to whole cores, of the cgroup (v2) that \a procSelfCgroup (the text
 * of /proc/self/cgroup) names and of every group above it under \a cgroupRoot: the smallest
 * quota / period of their `cpu.max` files; 0 when none sets a limit.
 */
unsigned cgroupCpuLimit(const std::string &cgroupRoot, std::string_view procSelfCgroup);

} // namespace ks
