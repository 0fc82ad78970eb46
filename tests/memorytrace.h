// SPDX-License-Identifier: MIT
#pragma once
// The inline trace with memory events that the memory tests share (core, curves, timeline).

#include "testutil.h"

#include <string>

namespace ks::test {

inline std::string memory(int tid,
    int ts,
    long long type,
    long long id,
    long long addr,
    long long bytes,
    long long allocated = -1,
    long long reserved = -1,
    const char *name = "[memory]")
{
    std::string args = R"("Device Type":)" + std::to_string(type) + R"(,"Device Id":)"
        + std::to_string(id) + R"(,"Addr":)" + std::to_string(addr) + R"(,"Bytes":)"
        + std::to_string(bytes);
    if (allocated >= 0)
        args += R"(,"Total Allocated":)" + std::to_string(allocated);
    if (reserved >= 0)
        args += R"(,"Total Reserved":)" + std::to_string(reserved);
    return R"({"ph":"i","s":"t","cat":"cpu_instant_event","name":")" + std::string(name)
        + R"(","pid":1,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts)
        + R"(,"args":{)" + args + "}},\n";
}

inline std::string op(const char *name, int tid, int ts, int dur, int seq)
{
    return R"({"ph":"X","cat":"cpu_op","name":")" + std::string(name) + R"(","pid":1,"tid":)"
        + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)"
        + std::to_string(dur) + R"(,"args":{"Sequence number":)" + std::to_string(seq)
        + R"(,"Fwd thread id":)" + (tid == 1 ? "0" : "1") + "}},\n";
}

/*
 * aten::mm [100,200) on thread 1, its MmBackward0 [500,600) on thread 2; on cuda:0 unless said:
 *  A 110 addr 1000, 256 B, freed at 550 inside the backward node: held for the backward;
 *  B 120 addr 2000, 64 B, freed at 150 inside the forward op;
 *  C 130 addr 3000, 32 B, never freed;
 *  D 140 a free at addr 9999 with no allocation: a diagnostic;
 *  E 250 cpu addr 1000 (A's address, another device), 16 B, freed at 260, outside every op;
 *  F 180 addr 2000 again (B freed it), 128 B, freed at 560;
 *  190 [OutOfMemory] asking 2^40 bytes.
 * Total Allocated after each cuda event: 256, 320, 352, (free) 288, 416, 160, 32; reserved 2048.
 */
inline std::string memoryEvents()
{
    return op("aten::mm", 1, 100, 100, 1) + op("MmBackward0", 2, 500, 100, 1)
        + memory(1, 110, 1, 0, 1000, 256, 256, 2048) + memory(1, 120, 1, 0, 2000, 64, 320, 2048)
        + memory(1, 130, 1, 0, 3000, 32, 352, 2048) + memory(1, 140, 1, 0, 9999, -8, 352, 2048)
        + memory(1, 150, 1, 0, 2000, -64, 288, 2048) + memory(1, 180, 1, 0, 2000, 128, 416, 2048)
        + memory(1, 190, 1, 0, 0, 1099511627776, 416, 2048, "[OutOfMemory]")
        + memory(1, 250, 0, -1, 1000, 16) + memory(1, 260, 0, -1, 1000, -16)
        + memory(2, 550, 1, 0, 1000, -256, 160, 2048) + memory(2, 560, 1, 0, 2000, -128, 32, 2048)
        + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})";
}

inline std::string memoryTrace()
{
    return traceWith(memoryEvents());
}

/*
 * nn.Module Net_0 [80, 220) > Linear_0 [90, 210) > aten::mm [100, 200) in ProfilerStep#1, its
 * MmBackward0 [500, 600); on cuda:0: 10 B at 110 freed at 150 (not held), 20 B at 120 freed at
 * 550 (held), 40 B at 510 inside the node, freed at 580. Every module: fwd 30, held 20, bwd 40.
 */
inline std::string moduleMemoryTrace()
{
    auto module = [](const char *name, int ts, int dur) {
        return R"({"ph":"X","cat":"python_function","name":"nn.Module: )" + std::string(name)
            + R"(","pid":1,"tid":1,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur)
            + "},\n";
    };
    const std::string step
        = R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},)";
    return traceWith(step + module("Net_0", 80, 140) + module("Linear_0", 90, 120)
        + op("aten::mm", 1, 100, 100, 1) + op("MmBackward0", 2, 500, 100, 1)
        + memory(1, 110, 1, 0, 1, 10) + memory(1, 120, 1, 0, 2, 20) + memory(1, 150, 1, 0, 1, -10)
        + memory(2, 510, 1, 0, 3, 40) + memory(2, 550, 1, 0, 2, -20) + memory(2, 580, 1, 0, 3, -40)
        + R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}})");
}

} // namespace ks::test
