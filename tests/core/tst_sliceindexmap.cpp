// SPDX-License-Identifier: MIT
// SliceIndexMap against std::unordered_map, the container it replaces, on the same operations.
#include "base/sliceindexmap.h"

#include <QTest>

#include <algorithm>
#include <random>
#include <unordered_map>

using namespace ks;

class TestSliceIndexMap : public QObject {
    Q_OBJECT

private slots:
    void emptyFindsNothing()
    {
        const SliceIndexMap map;
        QCOMPARE(map.size(), size_t(0));
        QCOMPARE(map.find(0), SliceIndexMap::kAbsent);
        QCOMPARE(map.find(kNoSlice - 1), SliceIndexMap::kAbsent);
    }

    void insertKeepsTheFirstValueAssignReplacesIt()
    {
        SliceIndexMap map;
        QCOMPARE(map.insert(7, 1), 1u);
        QCOMPARE(map.insert(7, 2), 1u); // as emplace: the first value stays
        QCOMPARE(map.find(7), 1u);
        map.assign(7, 3);
        QCOMPARE(map.find(7), 3u);
        map.assign(0, 0);
        map.assign(kNoSlice - 1, 9);
        QCOMPARE(map.find(0), 0u);
        QCOMPARE(map.find(kNoSlice - 1), 9u);
        QCOMPARE(map.find(8), SliceIndexMap::kAbsent);
        QCOMPARE(map.size(), size_t(3));
        // kNoSlice, the empty slot's mark, is never stored nor found.
        QCOMPARE(map.find(kNoSlice), SliceIndexMap::kAbsent);
        QCOMPARE(map.insert(kNoSlice, 5), SliceIndexMap::kAbsent);
        map.assign(kNoSlice, 5);
        QCOMPARE(map.find(kNoSlice), SliceIndexMap::kAbsent);
        QCOMPARE(map.size(), size_t(3));
    }

    // Giving entries new values never grows the table, not even a table just at its limit.
    void reassigningKeepsTheTable()
    {
        SliceIndexMap map;
        for (SliceId s = 0; s < 1024; ++s)
            map.insert(s, s);
        const size_t bytes = map.memoryUsage();
        for (int round = 0; round < 10; ++round) {
            for (SliceId s = 0; s < 1024; ++s)
                map.assign(s, s + 1);
        }
        QCOMPARE(map.memoryUsage(), bytes);
        QCOMPARE(map.size(), size_t(1024));
        QCOMPARE(map.find(1023), 1024u);
    }

    // Dense runs (a lane's slices), strided ids and random ones, through many growths.
    void matchesUnorderedMap_data()
    {
        QTest::addColumn<int>("pattern");
        QTest::addRow("consecutive") << 0;
        QTest::addRow("stride 1024") << 1;
        QTest::addRow("random") << 2;
    }
    void matchesUnorderedMap()
    {
        QFETCH(int, pattern);
        std::mt19937 rng(uint32_t(pattern) + 1);
        std::uniform_int_distribution<SliceId> anyId(0, kNoSlice - 1);
        auto idOf = [&](uint32_t k) -> SliceId {
            return pattern == 0 ? k : pattern == 1 ? k * 1024 : anyId(rng);
        };
        SliceIndexMap map;
        std::unordered_map<SliceId, uint32_t> reference;
        std::vector<SliceId> used;
        for (uint32_t k = 0; k < 200000; ++k) {
            // Mostly new ids, some repeated ones, inserted or assigned.
            const SliceId id = used.empty() || rng() % 4 ? idOf(k) : used[rng() % used.size()];
            used.push_back(id);
            if (rng() % 3) {
                QCOMPARE(map.insert(id, k), reference.try_emplace(id, k).first->second);
            } else {
                map.assign(id, k);
                reference[id] = k;
            }
        }
        QCOMPARE(map.size(), reference.size());
        for (const auto &[id, value] : reference)
            QCOMPARE(map.find(id), value);
        // Ids never inserted are absent (each checked against the reference).
        for (int i = 0; i < 100000; ++i) {
            const SliceId id = anyId(rng);
            const auto it = reference.find(id);
            QCOMPARE(map.find(id), it == reference.end() ? SliceIndexMap::kAbsent : it->second);
        }
        // Between a quarter and half full: 8 bytes per slot, 32 per entry at most.
        QVERIFY(map.memoryUsage() <= 4 * sizeof(uint32_t) * std::max<size_t>(16, 2 * map.size()));
    }
};

QTEST_GUILESS_MAIN(TestSliceIndexMap)
#include "tst_sliceindexmap.moc"
