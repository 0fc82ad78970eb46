// SPDX-License-Identifier: MIT
#include "analysis/compare/tracediff.h"

#include "analysis/compare/sequencealign.h"
#include "analysis/modules/modulepaths.h"
#include "analysis/pairs/pairkeys.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace ks {

std::string_view diffStatusName(DiffStatus status)
{
    switch (status) {
    case DiffStatus::Matched:
        return "matched";
    case DiffStatus::ShapeChanged:
        return "shape_changed";
    case DiffStatus::Changed:
        return "changed";
    case DiffStatus::OnlyBase:
        return "only_base";
    case DiffStatus::OnlyCandidate:
        return "only_candidate";
    }
    return "matched";
}

std::string diffChangesText(uint8_t changes)
{
    static constexpr std::pair<uint8_t, std::string_view> kNames[]
        = {{InputDimsChanged, "input_dims"}, {ModuleChanged, "module"},
            {BwdNamesChanged, "bwd_names"}, {RecomputeChanged, "recompute"}};
    std::string out;
    for (const auto &[bit, name] : kNames) {
        if (changes & bit) {
            if (!out.empty())
                out += ';';
            out += name;
        }
    }
    return out;
}

namespace {

//! "Linear_3" → "Linear"; names without a numeric suffix are kept whole.
} // namespace

std::array<StepRows, 2> groupByStep(const std::array<std::vector<int64_t>, 2> &steps)
{
    std::array<StepRows, 2> out;
    for (size_t side = 0; side < 2; ++side) {
        for (uint32_t r = 0; r < steps[side].size(); ++r) {
            if (steps[side][r] == kNoValue)
                out[side].noStep.push_back(r);
            else
                out[side].byStep[steps[side][r]].push_back(r);
        }
    }
    // A trace profiled without ProfilerStep: all of it stands for one step of the other.
    for (size_t side = 0; side < 2; ++side) {
        StepRows &s = out[side];
        if (s.byStep.empty() && !out[1 - side].byStep.empty() && !s.noStep.empty()) {
            s.byStep[kNoValue] = std::move(s.noStep);
            s.noStep.clear();
        }
    }
    return out;
}

std::vector<RowSlot> slotsByPosition(const std::array<StepRows, 2> &steps)
{
    std::vector<RowSlot> slots;
    auto b = steps[0].byStep.begin();
    auto c = steps[1].byStep.begin();
    while (b != steps[0].byStep.end() || c != steps[1].byStep.end()) {
        RowSlot &s = slots.emplace_back();
        if (b != steps[0].byStep.end()) {
            s.slot.baseStep = b->first;
            s.rows[0] = b->second;
            ++b;
        }
        if (c != steps[1].byStep.end()) {
            s.slot.candidateStep = c->first;
            s.rows[1] = c->second;
            ++c;
        }
    }
    if (!steps[0].noStep.empty() || !steps[1].noStep.empty())
        slots.push_back({{}, {steps[0].noStep, steps[1].noStep}});
    return slots;
}

namespace {

//! One element of an aligned sequence: a row, or (mean mode) a row position folded over steps.
struct Item {
    uint32_t row = 0; //!< the row (first occurrence)
    int64_t step = kNoValue;
    uint32_t occurrences = 1;
    DiffValues values {};
};

/*!
 * The figures of row \a r of \a graph; \a memory its side's pair memory (HeldBytes NaN without
 * one, or where the trace cannot tell: a sum or mean holding it is not known either), \a
 * efficiency its pair roll-ups (no modelled FLOPs without).
 */
DiffValues valuesOf(const OpGraph &graph,
    uint32_t r,
    const std::vector<PairMemory> *memory,
    const std::vector<PairEfficiency> *efficiency)
{
    DiffValues v {};
    const PairRow &row = graph.rows()[r];
    const bool hasForward = row.forward != kNoSlice;
    const bool heldKnown = memory && !memory->empty() && (*memory)[r].held != kNoValue;
    v[size_t(DiffMetric::HeldBytes)] = !heldKnown ? std::numeric_limits<double>::quiet_NaN()
        : hasForward                              ? double((*memory)[r].held)
                                                  : 0.0;
    v[size_t(DiffMetric::FwdGpu)] = double(row.forwardGpu.time);
    v[size_t(DiffMetric::BwdGpu)] = double(row.backwardGpu.time);
    v[size_t(DiffMetric::FwdCpu)] = hasForward ? double(graph.model().slices.dur[row.forward]) : 0;
    v[size_t(DiffMetric::BwdCpu)] = double(row.backwardDur);
    v[size_t(DiffMetric::FwdKernels)] = double(row.forwardGpu.count);
    v[size_t(DiffMetric::BwdKernels)] = double(row.backwardGpu.count);
    if (efficiency && r < efficiency->size()) {
        v[size_t(DiffMetric::FwdFlops)] = (*efficiency)[r].forward.flops;
        v[size_t(DiffMetric::BwdFlops)] = (*efficiency)[r].backward.flops;
    }
    return v;
}

void add(DiffValues &to, const DiffValues &v)
{
    for (size_t k = 0; k < kDiffMetricCount; ++k)
        to[k] += v[k];
}

bool hasStep(const OpGraph &graph, int64_t number)
{
    return std::any_of(graph.steps().begin(), graph.steps().end(),
        [&](const ProfilerStep &s) { return s.number == number; });
}

std::string stepList(const OpGraph &graph)
{
    std::vector<int64_t> numbers;
    for (const ProfilerStep &s : graph.steps())
        numbers.push_back(s.number);
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    std::string out;
    for (int64_t n : numbers) {
        if (!out.empty())
            out += ", ";
        out += std::to_string(n);
    }
    return out.empty() ? std::string("none") : out;
}

} // namespace

/*!
 * Does the work of TraceDiff::compare(): keys, slots, alignment, entries, rollups. Side 0 is
 * the base, side 1 the candidate.
 */
class TraceDiffBuilder {
public:
    //! Thrown when DiffOptions::cancel is set: unwinds the builder's loops at once.
    struct Cancelled { };

    explicit TraceDiffBuilder(TraceDiff &diff)
        : m_diff(diff)
        , m_graphs {&diff.m_base, &diff.m_candidate}
        , m_trees {diff.m_trees[0], diff.m_trees[1]}
    {
    }

    void run()
    {
        for (int side = 0; side < 2; ++side) {
            stopIfCancelled();
            describeRows(side);
        }
        buildSlots();
        computeTotals();
        for (size_t g = 0; m_diff.m_options.rollups && g < 3; ++g) {
            stopIfCancelled();
            buildGroups(DiffGrouping(g));
        }
    }

private:
    const std::vector<PairMemory> *memoryOf(int side) const
    {
        return m_diff.m_options.pairMemory[size_t(side)];
    }
    const std::vector<PairEfficiency> *efficiencyOf(int side) const
    {
        return m_diff.m_options.efficiency[size_t(side)];
    }

    void stopIfCancelled() const
    {
        const std::atomic<bool> *cancel = m_diff.m_options.cancel;
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw Cancelled();
    }

    uint32_t intern(std::unordered_map<std::string, uint32_t> &map, const std::string &text)
    {
        return map.try_emplace(text, uint32_t(map.size())).first->second;
    }
    uint32_t internText(const std::string &text)
    {
        auto [it, inserted] = m_textIds.try_emplace(text, uint32_t(m_diff.m_texts.size()));
        if (inserted)
            m_diff.m_texts.push_back(text);
        return it->second;
    }

    //! Module path, backward names, structural key and op key of every row of \a side.
    void describeRows(int side)
    {
        const OpGraph &g = *m_graphs[side];
        const TraceModel &m = g.model();
        const size_t rows = g.rows().size();
        m_diff.m_modulePath[side].resize(rows);
        m_diff.m_bwdNames[side].resize(rows);
        m_key[side].resize(rows);
        m_opKey[side].resize(rows);
        m_classPath[side].resize(rows);
        m_module[side].resize(rows);
        std::string names;
        for (size_t r = 0; r < rows; ++r) {
            const PairRow &row = g.rows()[r];
            names.clear();
            g.appendNodeNames(row, names);
            m_diff.m_bwdNames[side][r] = internText(names);
            const bool hasForward = row.forward != kNoSlice;
            const ModuleId module = moduleOfRow(*m_trees[side], row);
            const std::string_view path = module == kNoModule
                ? std::string_view()
                : std::string_view(m_trees[side]->node(module).path);
            m_module[side][r] = module;
            m_diff.m_modulePath[side][r]
                = internText(std::string(module == kNoModule ? kNoModuleName : path));
            m_classPath[side][r] = internText(moduleClassPath(path));

            const PairKeys keys
                = pairKeys(hasForward, hasForward ? m.sliceName(row.forward) : std::string_view(),
                    path, hasForward ? m.str(m.slices.inputDims[row.forward]) : std::string_view(),
                    names, row.recompute);
            m_opKey[side][r] = intern(m_opKeys, keys.opKey);
            m_key[side][r] = intern(m_keys, keys.key);
        }
    }

    std::vector<int64_t> rowSteps(int side) const
    {
        std::vector<int64_t> steps;
        for (const PairRow &row : m_graphs[side]->rows())
            steps.push_back(row.step);
        return steps;
    }

    std::vector<Item> itemsOf(int side, const std::vector<uint32_t> &rows) const
    {
        std::vector<Item> items;
        items.reserve(rows.size());
        const OpGraph &g = *m_graphs[side];
        for (uint32_t r : rows)
            items.push_back(
                {r, g.rows()[r].step, 1, valuesOf(g, r, memoryOf(side), efficiencyOf(side))});
        return items;
    }

    /*!
     * Mean mode: the k-th row with key K of each step is one item (K, k); ordered as in the
     * first step, with items first seen later inserted after their predecessor in that step.
     */
    std::vector<Item> foldSteps(int side, const StepRows &steps) const
    {
        const OpGraph &g = *m_graphs[side];
        std::vector<Item> items;
        std::vector<uint32_t> next; // linked list over items, kEnd terminated
        constexpr uint32_t kEnd = ~0u;
        uint32_t head = kEnd;
        std::unordered_map<uint64_t, uint32_t> itemOf; // key << 32 | occurrence → item
        for (const auto &[number, rows] : steps.byStep) {
            std::unordered_map<uint32_t, uint32_t> occurrence;
            uint32_t previous = kEnd;
            for (uint32_t r : rows) {
                const uint32_t key = m_key[side][r];
                const uint64_t id = uint64_t(key) << 32 | occurrence[key]++;
                auto [it, inserted] = itemOf.try_emplace(id, uint32_t(items.size()));
                const DiffValues v = valuesOf(g, r, memoryOf(side), efficiencyOf(side));
                if (inserted) {
                    items.push_back({r, kNoValue, 1, v});
                    const uint32_t item = it->second;
                    if (previous == kEnd) {
                        next.push_back(head);
                        head = item;
                    } else {
                        next.push_back(next[previous]);
                        next[previous] = item;
                    }
                } else {
                    Item &item = items[it->second];
                    ++item.occurrences;
                    add(item.values, v);
                }
                previous = it->second;
            }
        }
        std::vector<Item> ordered;
        ordered.reserve(items.size());
        for (uint32_t i = head; i != kEnd; i = next[i]) {
            Item item = items[i];
            for (double &v : item.values)
                v /= item.occurrences;
            ordered.push_back(item);
        }
        return ordered;
    }

    void buildSlots()
    {
        const DiffOptions &o = m_diff.m_options;
        const std::array<StepRows, 2> steps = groupByStep({rowSteps(0), rowSteps(1)});
        if (o.baseStep || o.candidateStep) {
            const int64_t b = o.baseStep ? *o.baseStep : *o.candidateStep;
            const int64_t c = o.candidateStep ? *o.candidateStep : *o.baseStep;
            auto rowsOf = [&](int side, int64_t n) {
                const auto it = steps[side].byStep.find(n);
                return it == steps[side].byStep.end() ? std::vector<uint32_t>() : it->second;
            };
            compareSlot({b, c, false}, itemsOf(0, rowsOf(0, b)), itemsOf(1, rowsOf(1, c)));
        } else if (!o.meanOverSteps) {
            for (const RowSlot &s : slotsByPosition(steps))
                compareSlot(s.slot, itemsOf(0, s.rows[0]), itemsOf(1, s.rows[1]));
        } else {
            if (!steps[0].byStep.empty() || !steps[1].byStep.empty())
                compareSlot(
                    {kNoValue, kNoValue, true}, foldSteps(0, steps[0]), foldSteps(1, steps[1]));
            if (!steps[0].noStep.empty() || !steps[1].noStep.empty())
                compareSlot({}, itemsOf(0, steps[0].noStep), itemsOf(1, steps[1].noStep));
        }
    }

    //! Steps 3–5 of the matching for one slot; appends its entries.
    void compareSlot(
        const DiffSlot &slot, const std::vector<Item> &base, const std::vector<Item> &cand)
    {
        stopIfCancelled();
        const auto slotIndex = uint32_t(m_diff.m_slots.size());
        m_diff.m_slots.push_back(slot);
        const std::vector<Item> *items[2] = {&base, &cand};
        std::vector<uint32_t> keys[2], opKeys[2];
        for (int side = 0; side < 2; ++side) {
            for (const Item &item : *items[side]) {
                keys[side].push_back(m_key[side][item.row]);
                opKeys[side].push_back(m_opKey[side][item.row]);
            }
        }
        const std::vector<SequenceMatch> all = alignKeysThenOps(
            keys[0], keys[1], opKeys[0], opKeys[1], m_diff.m_options.exactAlignCells);

        // Merge in structural order: left-over base rows, then left-over candidate rows, then
        // the next match.
        size_t i = 0, j = 0;
        auto emit = [&](const Item *b, const Item *c) {
            DiffEntry e;
            e.slot = slotIndex;
            e.position = uint32_t(m_diff.m_entries.size());
            if (b)
                e.base = sideOf(*b);
            if (c)
                e.candidate = sideOf(*c);
            if (b && c) {
                e.changes = changesBetween(b->row, c->row);
                e.status = e.changes == 0            ? DiffStatus::Matched
                    : (e.changes & InputDimsChanged) ? DiffStatus::ShapeChanged
                                                     : DiffStatus::Changed;
            } else {
                e.status = b ? DiffStatus::OnlyBase : DiffStatus::OnlyCandidate;
            }
            ++m_diff.m_statusCount[size_t(e.status)];
            m_diff.m_entries.push_back(e);
        };
        for (const SequenceMatch &match : all) {
            for (; i < match.first; ++i)
                emit(&base[i], nullptr);
            for (; j < match.second; ++j)
                emit(nullptr, &cand[j]);
            emit(&base[i++], &cand[j++]);
        }
        for (; i < base.size(); ++i)
            emit(&base[i], nullptr);
        for (; j < cand.size(); ++j)
            emit(nullptr, &cand[j]);
    }

    static DiffSide sideOf(const Item &item)
    {
        DiffSide s;
        s.row = item.row;
        s.step = item.step;
        s.occurrences = item.occurrences;
        s.values = item.values;
        return s;
    }

    uint8_t changesBetween(uint32_t b, uint32_t c) const
    {
        const PairRow &rb = m_graphs[0]->rows()[b];
        const PairRow &rc = m_graphs[1]->rows()[c];
        auto dims = [](const OpGraph &g, const PairRow &row) {
            return row.forward == kNoSlice ? std::string_view()
                                           : g.model().str(g.model().slices.inputDims[row.forward]);
        };
        uint8_t changes = 0;
        if (dims(*m_graphs[0], rb) != dims(*m_graphs[1], rc))
            changes |= InputDimsChanged;
        if (m_diff.m_texts[m_classPath[0][b]] != m_diff.m_texts[m_classPath[1][c]])
            changes |= ModuleChanged;
        if (m_diff.m_texts[m_diff.m_bwdNames[0][b]] != m_diff.m_texts[m_diff.m_bwdNames[1][c]])
            changes |= BwdNamesChanged;
        if (rb.recompute != rc.recompute)
            changes |= RecomputeChanged;
        return changes;
    }

    void computeTotals()
    {
        for (const DiffEntry &e : m_diff.m_entries) {
            add(m_diff.m_baseTotals, e.base.values);
            add(m_diff.m_candidateTotals, e.candidate.values);
        }
    }

    std::string groupKey(DiffGrouping grouping, int side, uint32_t r) const
    {
        const OpGraph &g = *m_graphs[side];
        const PairRow &row = g.rows()[r];
        const ModuleId module = m_module[side][r];
        switch (grouping) {
        case DiffGrouping::Op:
            if (row.forward == kNoSlice)
                return '\x1e' + m_diff.m_texts[m_diff.m_bwdNames[side][r]];
            return std::string(g.model().sliceName(row.forward)) + '\x1f'
                + std::string(g.model().str(g.model().slices.inputDims[row.forward]));
        case DiffGrouping::Module:
            return m_diff.m_texts[m_diff.m_modulePath[side][r]];
        case DiffGrouping::ModuleType:
            // The node's own name: a scope's name may hold a '/' itself.
            return module == kNoModule
                ? std::string(kNoModuleName)
                : std::string(moduleTypeName(m_trees[side]->node(module).name));
        }
        return {};
    }

    void buildGroups(DiffGrouping grouping)
    {
        std::vector<DiffGroup> &groups = m_diff.m_groups[size_t(grouping)];
        std::unordered_map<std::string, uint32_t> byKey;
        for (const DiffEntry &e : m_diff.m_entries) {
            uint32_t touched[2] = {~0u, ~0u};
            for (int side = 0; side < 2; ++side) {
                const DiffSide &s = side ? e.candidate : e.base;
                if (!s.present())
                    continue;
                const auto r = uint32_t(s.row);
                auto [it, inserted]
                    = byKey.try_emplace(groupKey(grouping, side, r), uint32_t(groups.size()));
                if (inserted) {
                    DiffGroup group;
                    const OpGraph &g = *m_graphs[side];
                    const PairRow &row = g.rows()[r];
                    if (grouping == DiffGrouping::Op) {
                        if (row.forward != kNoSlice) {
                            group.name = g.model().sliceName(row.forward);
                            group.inputDims
                                = g.model().str(g.model().slices.inputDims[row.forward]);
                        }
                        group.bwdNames = m_diff.m_texts[m_diff.m_bwdNames[side][r]];
                    } else {
                        group.name = it->first;
                    }
                    groups.push_back(std::move(group));
                }
                DiffGroup &group = groups[it->second];
                if (side) {
                    ++group.candidateCount;
                    add(group.candidate, s.values);
                } else {
                    ++group.baseCount;
                    add(group.base, s.values);
                }
                touched[side] = it->second;
            }
            for (int side = 0; side < 2; ++side) {
                if (touched[side] != ~0u && (side == 0 || touched[1] != touched[0]))
                    ++groups[touched[side]].statusCount[size_t(e.status)];
            }
        }
    }

    TraceDiff &m_diff;
    const OpGraph *m_graphs[2];
    const ModuleTree *m_trees[2];
    std::unordered_map<std::string, uint32_t> m_keys, m_opKeys, m_textIds;
    std::vector<uint32_t> m_key[2], m_opKey[2], m_classPath[2];
    std::vector<ModuleId> m_module[2]; //!< moduleOfRow() per row
};

TraceDiff::TraceDiff(
    const ModuleTree &base, const ModuleTree &candidate, const DiffOptions &options)
    : m_base(base.graph())
    , m_candidate(candidate.graph())
    , m_trees {&base, &candidate}
    , m_options(options)
{
}

std::unique_ptr<TraceDiff> TraceDiff::compare(
    const OpGraph &base, const OpGraph &candidate, const DiffOptions &options, std::string *error)
{
    std::array<std::unique_ptr<ModuleTree>, 2> trees {
        ModuleTree::build(base), ModuleTree::build(candidate)};
    std::unique_ptr<TraceDiff> diff = compare(*trees[0], *trees[1], options, error);
    if (diff)
        diff->m_ownTrees = std::move(trees);
    return diff;
}

std::unique_ptr<TraceDiff> TraceDiff::compare(const ModuleTree &base,
    const ModuleTree &candidate,
    const DiffOptions &options,
    std::string *error)
{
    auto fail = [&](std::string message) {
        if (error)
            *error = std::move(message);
        return std::unique_ptr<TraceDiff>();
    };
    if (options.meanOverSteps && (options.baseStep || options.candidateStep))
        return fail("a step and the mean over all steps cannot both be compared");
    if (options.baseStep || options.candidateStep) {
        const int64_t b = options.baseStep ? *options.baseStep : *options.candidateStep;
        const int64_t c = options.candidateStep ? *options.candidateStep : *options.baseStep;
        if (!hasStep(base.graph(), b))
            return fail("the base trace has no ProfilerStep#" + std::to_string(b)
                + " (steps: " + stepList(base.graph()) + ")");
        if (!hasStep(candidate.graph(), c))
            return fail("the candidate trace has no ProfilerStep#" + std::to_string(c)
                + " (steps: " + stepList(candidate.graph()) + ")");
    }
    std::unique_ptr<TraceDiff> diff(new TraceDiff(base, candidate, options));
    try {
        TraceDiffBuilder(*diff).run();
    } catch (const TraceDiffBuilder::Cancelled &) {
        return fail("cancelled");
    }
    diff->m_options.cancel = nullptr;
    diff->m_options.pairMemory = {}; // read while comparing only, as cancel
    diff->m_options.efficiency = {};
    return diff;
}

const std::string &TraceDiff::modulePath(bool candidateSide, size_t row) const
{
    return m_texts[m_modulePath[candidateSide][row]];
}

const std::string &TraceDiff::bwdNames(bool candidateSide, size_t row) const
{
    return m_texts[m_bwdNames[candidateSide][row]];
}

std::pair<TimeNs, TimeNs> TraceDiff::stepRange(bool candidateSide, size_t slot) const
{
    const OpGraph &g = candidateSide ? m_candidate : m_base;
    if (slot < m_slots.size()) {
        const DiffSlot &s = m_slots[slot];
        const int64_t number = candidateSide ? s.candidateStep : s.baseStep;
        for (const ProfilerStep &p : g.steps()) {
            if (s.mean || (number != kNoValue && p.number == number))
                return {p.start, p.end};
        }
    }
    return {g.model().minTime, g.model().maxTime};
}

} // namespace ks
