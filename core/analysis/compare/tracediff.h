// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opefficiency.h"
#include "analysis/memory/pairmemory.h"
#include "analysis/modules/moduletree.h"
#include "link/opgraph.h"

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks {

/*!
 * Which steps of the two traces are compared (TraceDiff::compare).
 *
 * - Neither step set, meanOverSteps false: step by position. The k-th step of the base (in
 *   ascending ProfilerStep number, among the steps that hold pair rows) is compared with the
 *   k-th step of the candidate; steps that one side lacks are entirely "only" on the other side.
 *   Pair rows outside any step are compared with the other side's rows outside any step.
 * - baseStep and/or candidateStep set: only that ProfilerStep#N of each side; a side left unset
 *   takes the other side's number.
 * - meanOverSteps: every step of each side is folded into one mean step first (see TraceDiff),
 *   then the two mean steps are compared; rows outside any step are compared as above.
 *
 * A trace without any ProfilerStep compared with one that has steps (step by position or
 * mean) counts as a single step: all of its rows face the other side's first (or mean) step.
 */
struct DiffOptions {
    std::optional<int64_t> baseStep;
    std::optional<int64_t> candidateStep;
    bool meanOverSteps = false;
    /*!
     * Largest middle part (base items × candidate items) aligned exactly; larger ones are
     * aligned by occurrence (TraceDiff, step 3). The exact alignment needs one byte per cell.
     */
    size_t exactAlignCells = size_t(1) << 24;
    //! Builds the rollups (TraceDiff::groups()); a run's pair matching needs only the entries.
    bool rollups = true;
    /*!
     * The sides' LoadedTrace::pairMemory() (base, candidate), for HeldBytes; a side without one
     * (nullptr, or empty: no [memory] events) has no held bytes to compare. Only read while
     * comparing, as cancel.
     */
    std::array<const std::vector<PairMemory> *, 2> pairMemory {};
    //! The sides' LoadedTrace::efficiency() pair roll-ups, for FwdFlops/BwdFlops (a side without
    //! one has no modelled FLOPs); read while comparing only, as cancel.
    std::array<const std::vector<PairEfficiency> *, 2> efficiency {};
    /*!
     * When set and it becomes true, compare() stops between steps of its work and returns null
     * with the error "cancelled". Only read while comparing: the TraceDiff keeps no copy.
     */
    const std::atomic<bool> *cancel = nullptr;
};

//! The figures compared for each pair (and summed for groups).
enum class DiffMetric : uint8_t {
    FwdGpu, //!< GPU time launched by the forward op (PairRow::forwardGpu.time), ns
    BwdGpu, //!< GPU time launched by its backward nodes (PairRow::backwardGpu.time), ns
    FwdCpu, //!< duration of the forward op, ns
    BwdCpu, //!< summed duration of its backward nodes' outermost events (backwardDur), ns
    FwdKernels, //!< GPU events (kernels, memcpys, memsets) launched by the forward op
    BwdKernels, //!< the same for the backward nodes
    HeldBytes, //!< PairMemory::held: what the forward op leaves for backward (NaN: not known)
    FwdFlops, //!< PairEfficiency: FLOPs of the forward side's modelled ops (0 without)
    BwdFlops, //!< … of the backward side's
};
constexpr size_t kDiffMetricCount = 9;

//! One value per DiffMetric. Doubles: exact for sums of ns below 2^53, fractional for means.
using DiffValues = std::array<double, kDiffMetricCount>;

enum class DiffStatus : uint8_t {
    Matched, //!< same structural key on both sides
    ShapeChanged, //!< same op at the same place, different input dims
    Changed, //!< same op and dims at the same place, but module or backward nodes differ
    OnlyBase, //!< present in the base only (removed by the candidate)
    OnlyCandidate, //!< present in the candidate only (inserted)
};
std::string_view diffStatusName(DiffStatus status);

//! What differs between the two sides of a ShapeChanged / Changed entry (bit flags).
enum DiffChange : uint8_t {
    InputDimsChanged = 1,
    ModuleChanged = 2, //!< module class path (instance numbers are not compared)
    BwdNamesChanged = 4,
    RecomputeChanged = 8,
};
//! "input_dims;module;bwd_names;recompute" for the bits set in \a changes.
std::string diffChangesText(uint8_t changes);

//! One side of a DiffEntry.
struct DiffSide {
    int64_t row = -1; //!< OpGraph row (the first occurrence in mean mode); -1 when absent
    int64_t step = kNoValue; //!< ProfilerStep number of that row, kNoValue if none
    uint32_t occurrences = 0; //!< rows folded in: steps it occurs in (mean mode), else 1
    DiffValues values {}; //!< the row's figures (means over occurrences in mean mode)
    bool present() const { return row >= 0; }
};

//! One compared pair: a row of each side, or a row of one side only.
struct DiffEntry {
    DiffStatus status = DiffStatus::Matched;
    uint8_t changes = 0; //!< DiffChange bits
    uint32_t slot = 0; //!< index into TraceDiff::stepSlots()
    uint32_t position = 0; //!< order in the aligned sequence of all entries (structural order)
    DiffSide base;
    DiffSide candidate;
    //! candidate − base, an absent side counting as 0.
    double delta(DiffMetric m) const
    {
        return candidate.values[size_t(m)] - base.values[size_t(m)];
    }
};

//! A pair of row sequences that were aligned with each other.
struct DiffSlot {
    int64_t baseStep = kNoValue; //!< kNoValue: rows outside any step, a missing step, or mean
    int64_t candidateStep = kNoValue;
    bool mean = false; //!< the mean over all steps of each side
};

//! What the module columns and groups say for a row that no module holds.
constexpr std::string_view kNoModuleName = "(no module)";

//! How entries are rolled up (TraceDiff::groups).
enum class DiffGrouping : uint8_t {
    Op, //!< forward op name + input dims (backward node names for rows without a forward op)
    Module, //!< the row's module path (TraceDiff::modulePath), kNoModuleName for none
    ModuleType, //!< its innermost module, instance number dropped ("Linear_3" → "Linear")
};

/*!
 * One group of a rollup. Each side's row falls into the group of its own key: a ShapeChanged
 * entry adds its base row to the old shape's group and its candidate row to the new one's.
 */
struct DiffGroup {
    std::string name; //!< op name (Op), module path (Module) or class (ModuleType), never empty
                      //!< for modules (kNoModuleName)
    std::string inputDims; //!< Op grouping only
    std::string bwdNames; //!< Op grouping only: the first member's backward node names
    uint32_t baseCount = 0; //!< base items (rows, or mean-step entries) in the group
    uint32_t candidateCount = 0;
    std::array<uint32_t, 5> statusCount {}; //!< entries by DiffStatus touching this group
    DiffValues base {}; //!< summed over the base items
    DiffValues candidate {};
    double delta(DiffMetric m) const { return candidate[size_t(m)] - base[size_t(m)]; }
};

/*!
 * A structural comparison of the pair rows of two traces ("did my change make the backward of
 * attention slower?"): which row of the candidate corresponds to which row of the base, and how
 * its GPU time, CPU time and kernel counts changed, per pair and rolled up by op group and by
 * module.
 *
 * Matching, per slot (a step of each side, see DiffOptions):
 * 1. Each side's rows of the slot are taken in time order (OpGraph::rows() order). In mean mode
 *    each side's steps are first folded into one sequence: the k-th row with key K in every step
 *    is the same item (K, k), its figures averaged over the steps it occurs in, and the items
 *    ordered as in the first step, items first seen in a later step inserted after the item
 *    that precedes them there.
 * 2. Every item gets a structural key: module class path (module path with instance numbers
 *    dropped, "" when no module holds it), forward op name, input dims, backward node names and
 *    the recompute flag; rows without a forward op use their backward node names.
 * 3. The two key sequences are aligned like a text diff: a longest common subsequence of equal
 *    keys. Common leading and trailing runs are matched first; the middle is aligned exactly
 *    (dynamic programming) when it has at most DiffOptions::exactAlignCells base × candidate
 *    cells, else by occurrence (the k-th key K of one side with the k-th of the other), keeping
 *    the longest non-crossing chain of those matches.
 *    Tie-breaking: among equally long alignments, rows are matched as early as possible, so with
 *    repeated identical layers an inserted or removed copy is reported at the end of the run
 *    (except that a run common to the ends of both sequences stays matched to the end); where
 *    either a base row or a candidate row can be left out, the base row is left out.
 * 4. Between two consecutive matches of step 3, left-over rows are aligned again by op name
 *    alone (backward node names for rows without a forward op), same rules: these are the
 *    ShapeChanged / Changed entries, with the differing parts in DiffEntry::changes.
 * 5. What is still left is OnlyBase / OnlyCandidate.
 *
 * Module path: the path of the row's node in each side's ModuleTree (moduleOfRow()), the tree the
 * Modules tab shows: nn.Module calls, else record_function scopes, else the outermost op names.
 * Instance numbers ("Linear_3") are left out of the key so that inserting a layer does not
 * change the key of every later instance of its class; the full paths are still reported on
 * both sides.
 *
 * Both graphs (and module trees, when given) must outlive the TraceDiff.
 */
class TraceDiff {
public:
    /*!
     * Compares \a candidate against \a base. Returns null, with \a error set, when a requested
     * step is not in a trace, the options contradict each other or the work was cancelled. Builds
     * each graph's module tree (ModuleTree::build()); the overload below reuses trees already
     * built.
     */
    static std::unique_ptr<TraceDiff> compare(const OpGraph &base,
        const OpGraph &candidate,
        const DiffOptions &options = {},
        std::string *error = nullptr);
    //! The same, with each graph's module tree (their graphs are compared).
    static std::unique_ptr<TraceDiff> compare(const ModuleTree &base,
        const ModuleTree &candidate,
        const DiffOptions &options = {},
        std::string *error = nullptr);

    const OpGraph &base() const { return m_base; }
    const OpGraph &candidate() const { return m_candidate; }
    const DiffOptions &options() const { return m_options; }
    const std::vector<DiffSlot> &stepSlots() const { return m_slots; }
    //! All entries in structural order (slot by slot, aligned order within a slot).
    const std::vector<DiffEntry> &entries() const { return m_entries; }
    //! Entries of each status.
    uint32_t count(DiffStatus status) const { return m_statusCount[size_t(status)]; }
    //! Sums over every base / candidate item compared.
    const DiffValues &baseTotals() const { return m_baseTotals; }
    const DiffValues &candidateTotals() const { return m_candidateTotals; }
    //! The rollup by \a grouping, in order of first appearance (empty without
    //! DiffOptions::rollups).
    const std::vector<DiffGroup> &groups(DiffGrouping grouping) const
    {
        return m_groups[size_t(grouping)];
    }

    /*!
     * Module path of a row of the base or candidate graph: the ModuleTree path of its
     * moduleOfRow() ("Model_0/Encoder_0/Linear_3"), kNoModuleName when no module holds it.
     */
    const std::string &modulePath(bool candidateSide, size_t row) const;
    //! Backward node names of a row, ';'-separated in time order.
    const std::string &bwdNames(bool candidateSide, size_t row) const;
    /*!
     * [start, end) (model times, ns) of the step that slot \a slot compares on one side: its
     * ProfilerStep, for the mean the first step; the whole trace when the slot has no step on
     * that side (rows outside steps, a step the side lacks, a trace without steps) or there is
     * no such slot. The comparison view lines its two timelines up on these starts.
     */
    std::pair<TimeNs, TimeNs> stepRange(bool candidateSide, size_t slot) const;

private:
    TraceDiff(const ModuleTree &base, const ModuleTree &candidate, const DiffOptions &options);

    const OpGraph &m_base;
    const OpGraph &m_candidate;
    std::array<const ModuleTree *, 2> m_trees;
    std::array<std::unique_ptr<ModuleTree>, 2> m_ownTrees; //!< built by compare(OpGraph, …)
    DiffOptions m_options;
    std::vector<DiffSlot> m_slots;
    std::vector<DiffEntry> m_entries;
    std::array<uint32_t, 5> m_statusCount {};
    DiffValues m_baseTotals {};
    DiffValues m_candidateTotals {};
    std::array<std::vector<DiffGroup>, 3> m_groups;
    // Per side, per row: interned module path (or kNoModuleName) and backward names (indices
    // into m_texts).
    std::array<std::vector<uint32_t>, 2> m_modulePath;
    std::array<std::vector<uint32_t>, 2> m_bwdNames;
    std::vector<std::string> m_texts;

    friend class TraceDiffBuilder;
};

//! One side's pair rows by step (ascending ProfilerStep numbers), and those outside any step.
struct StepRows {
    std::map<int64_t, std::vector<uint32_t>> byStep;
    std::vector<uint32_t> noStep;
};

/*!
 * Both sides' rows grouped by step; \a steps holds each row's ProfilerStep number (kNoValue
 * outside any). A side without steps facing one with steps stands for one step (DiffOptions).
 */
std::array<StepRows, 2> groupByStep(const std::array<std::vector<int64_t>, 2> &steps);

//! The rows of each side that one slot compares.
struct RowSlot {
    DiffSlot slot;
    std::array<std::vector<uint32_t>, 2> rows;
};

//! Step by position (DiffOptions): the k-th step of each side, then the rows outside any step.
std::vector<RowSlot> slotsByPosition(const std::array<StepRows, 2> &steps);

} // namespace ks
