// SPDX-License-Identifier: MIT
#pragma once
// Traces built to put a segment split (segmentedparse.h) where it would go wrong unnoticed. Apart
// from the tests that use them because moc misreads raw strings full of braces.

#include <sstream>
#include <string>

namespace ks::test {

//! Events that differ in every field a split could mix up, \a n of each kind, in file order.
inline std::string hostileEvents(int n)
{
    std::ostringstream o;
    const char *sep[] = {",", ", ", ",\n  ", " ,\n"};
    for (int i = 0; i < n; ++i) {
        const int ts = 10 * i;
        if (i)
            o << sep[i % 4];
        // A name holding "},{" and "}, {" with a brace-laden escape, nested arrays of objects.
        o << R"({"ph":"X","cat":"cpu_op","name":"a},{\"ph\":\"X\"}, {x)" << i
          << R"(","pid":1,"tid":1,"ts":)" << ts
          << R"(,"dur":3,"args":{"Input Dims":[[1,2],[3]],"Input type":["float"],"nested":[{"a":1},{"b":[{"c":2}, {"d":3}]}],"Sequence number":)"
          << i << "}},";
        // B here, E three events later, across any split between them; a thread named by text.
        o << R"({"ph":"B","name":"outer)" << i % 3 << R"(","pid":1,"tid":"worker )" << i % 5
          << R"(","ts":)" << ts + 1 << "},";
        o << R"({"ph":"C","name":"mem","pid":1,"ts":)" << ts + 2 << R"(,"args":{"used":)" << i
          << R"(,"free":)" << 100 - i << "}},";
        // Every third E comes before its B: counted where it stands among the other odd slices.
        o << R"({"ph":"E","pid":1,"tid":"worker )" << (i + 4) % 5 << R"(","ts":)"
          << (i % 3 ? ts + 9 : ts - 20) << "},";
        // A kernel with a text id flow to a launch, the flow's ends in different events.
        o << R"({"ph":"X","cat":"kernel","name":"nccl)" << i % 2
          << R"(","pid":0,"tid":"stream 7","ts":)" << ts + 4 << R"(,"dur":2,"args":{"correlation":)"
          << i << R"(,"Collective name":"allreduce","grid":[1,2,3]}},)";
        o << R"({"ph":"s","cat":"ac2g","name":"f","id":"k)" << i << R"(","pid":1,"tid":1,"ts":)"
          << ts << "},";
        o << R"({"ph":"f","cat":"ac2g","name":"f","id":"k)" << i
          << R"(","bp":"e","pid":0,"tid":"stream 7","ts":)" << ts + 4 << "},";
        o << R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)" << ts + 1
          << R"(,"args":{"Device Type":1,"Device Id":0,"Addr":)" << 4096 + i % 7 << R"(,"Bytes":)"
          << (i % 2 ? -64 : 64) << R"(,"Total Allocated":64}},)";
        o << R"({"ph":"i","s":"g","name":"Iteration )" << i << R"(","ts":)" << ts << "},";
        // Names that are not UTF-8 (counted once each, where first seen), and numeric ids among
        // the lane keys of text ids: early only, since a later segment holding either is read
        // again after the earlier ones (splits elsewhere must stay).
        if (i < 6)
            o << R"({"ph":"X","name":")"
              << "bad\xff" << i % 4 << R"(","pid":1,"tid":3,"ts":)" << ts << R"(,"dur":1},)";
        if (i == 3 || i == 5)
            o << R"({"ph":"X","name":"near text keys","pid":-4611686018427387903,"tid":-4611686018427387900,"ts":)"
              << ts << R"(,"dur":1},)";
        // Odd ones: a missing ts, an unknown phase, a negative dur, an E before its B.
        o << R"({"ph":"X","name":"no ts","pid":1,"tid":2},)";
        o << R"({"ph":"Q","name":"odd","pid":1,"tid":2,"ts":)" << ts << "},";
        o << R"({"ph":"X","name":"neg","pid":1,"tid":2,"ts":)" << ts << R"(,"dur":-1},)";
        o << R"({"ph":"M","name":"thread_name","pid":1,"tid":"worker )" << i % 5
          << R"(","args":{"name":"w)" << i % 5 << R"("}})";
    }
    return o.str();
}

//! An object with keys before and after traceEvents, whose values hold arrays of objects too.
inline std::string hostileTrace(int n)
{
    std::ostringstream o; // not +: GCC 12 warns falsely (-Wrestrict)
    // Arrays of objects before and after traceEvents, each about a sixth of the text.
    auto objects = [&](const char *key) {
        o << '"' << key << "\":[";
        for (int i = 0; i < n * 8; ++i)
            o << (i ? ", " : "") << R"({"id":)" << i << R"(,"name":"},{"})";
        o << "]";
    };
    o << R"({"schemaVersion":1,"baseTimeNanoseconds":1700000000000000000,)";
    objects("before");
    o << R"(,"traceEvents":[)" << hostileEvents(n) << "],\n";
    objects("deviceProperties");
    o << R"(,"traceName":"x"})";
    return o.str();
}

/*!
 * All along the text, names that are not UTF-8 (\a numbers false) or numeric pids and tids among
 * the lane keys of text ids (\a numbers true): a later segment holding one is read again after
 * the earlier ones. Apart, so that neither hides the other.
 */
inline std::string oddNamesOrIds(int n, bool numbers)
{
    std::ostringstream o;
    o << R"({"traceEvents":[)";
    for (int i = 0; i < n; ++i) {
        const int ts = 10 * i;
        o << (i ? "," : "") << R"({"ph":"X","name":"x)" << i % 11 << R"(","pid":1,"tid":"t)"
          << i % 3 << R"(","ts":)" << ts << R"(,"dur":3},)";
        if (numbers)
            o << R"({"ph":"X","name":"k","pid":)" << -4611686018427387904 + 2 + i % 3
              << R"(,"tid":-4611686018427387899,"ts":)" << ts << R"(,"dur":2})";
        else
            o << R"({"ph":"X","name":")"
              << "bad\xff" << i % 5 << R"(","pid":1,"tid":1,"ts":)" << ts << R"(,"dur":1})";
    }
    o << "]}";
    return o.str();
}

} // namespace ks::test
