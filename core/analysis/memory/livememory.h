// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/pairmemory.h"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace ks {

//! What a block of memory is, from what the trace shows of its life (docs/cli.md, --export-live).
enum class LiveCategory : uint8_t {
    Activation, //!< allocated in forward, alive into the backward pass it feeds
    Gradient, //!< allocated in backward and alive after its node, or under AccumulateGrad
    Optimizer, //!< allocated under an optimizer's scope
    Temporary, //!< allocated and freed within one op
    BeforeWindow, //!< freed in the trace, allocated before it: sized by the free
    BeforeTrace, //!< allocated before the trace and never freed in it: one block per device
    Other,
    Unexplained, //!< `Total Allocated` less every listed block: frees or events the trace lost
    Count
};
std::string_view liveCategoryName(LiveCategory category);
//! A device's figure rather than a block the trace lists: no address, no times.
inline bool isDeviceFigure(LiveCategory c)
{
    return c == LiveCategory::BeforeTrace || c == LiveCategory::Unexplained;
}

/*!
 * One block alive at some time. A device's BeforeTrace and Unexplained blocks are figures, not
 * allocations: what the trace's totals say is there beyond the blocks it lists.
 */
struct LiveBlock {
    //! Its allocation's `[memory]` event; a BeforeWindow block's free; the device's first event
    //! (BeforeTrace) or the one whose total it is measured against (Unexplained).
    uint32_t event = 0;
    int64_t allocation = -1; //!< index into MemoryIndex::allocations(), -1 before the window
    int64_t bytes = 0; //!< kNoValue: not known (BeforeTrace on a device without totals)
    LiveCategory category = LiveCategory::Other;
};

//! Bytes by category (indexed by LiveCategory).
using CategoryBytes = std::array<int64_t, size_t(LiveCategory::Count)>;

//! What fills a device at its peak: the event that reached it, and the live bytes by category.
struct PeakComposition {
    int64_t step = kNoValue; //!< N of the ProfilerStep, kNoValue for the whole trace
    int64_t event = -1; //!< the `[memory]` event; -1 when the device gives no total there
    CategoryBytes bytes {}; //!< adds up to the device's `Total Allocated` just after the event
};

/*!
 * What is alive at a moment, the question PyTorch's memory_viz answers: just after a `[memory]`
 * event (events in file order, so several in one µs stay apart), every allocation made at or
 * before it and freed after it (or never), plus the blocks freed in the trace but allocated
 * before it; each with a category decided once from its whole life. Per device, what was
 * allocated before the trace and never freed in it, and whatever the totals hold beyond the
 * listed blocks, are blocks too, so the bytes alive add up to `Total Allocated` at every event.
 */
class LiveMemory {
public:
    explicit LiveMemory(const MemoryIndex &index);

    const MemoryIndex &index() const { return m_index; }
    //! False when allocations carry no `Addr` (1.9): no free can be matched, so what is alive
    //! cannot be told, and at() and peaks() give nothing rather than a guess.
    bool known() const { return m_index.noAddress() == 0; }
    //! The blocks alive just after event \a event (-1: before any), on every device, largest
    //! first (then in event order); with each device's BeforeTrace block, and its Unexplained
    //! one where its total there differs from the blocks' sum.
    std::vector<LiveBlock> afterEvent(int64_t event) const;
    //! The blocks alive at \a t: after the last event at or before it.
    std::vector<LiveBlock> at(TimeNs t) const;
    //! The device (type, id) of the largest peak of `Total Allocated`, or nullopt without totals.
    std::optional<std::pair<int64_t, int64_t>> peakDevice() const;
    //! The first event of \a device in [from, to] whose `Total Allocated` is the largest there;
    //! -1 when the device gives no total there.
    int64_t peakEvent(std::pair<int64_t, int64_t> device, TimeNs from, TimeNs to) const;
    //! What \a device held before its first event and never freed in the trace: `Total
    //! Allocated` at its first event with one, less the bytes of its events up to it and the
    //! BeforeWindow blocks (never below 0); kNoValue for a device without totals.
    int64_t beforeTrace(std::pair<int64_t, int64_t> device) const;
    //! Bytes by category of \a blocks on \a device (blocks of unknown size left out).
    CategoryBytes composition(
        const std::vector<LiveBlock> &blocks, std::pair<int64_t, int64_t> device) const;
    //! On peakDevice(): the whole trace's peak, then each ProfilerStep's (empty without totals).
    std::vector<PeakComposition> peaks() const;

private:
    LiveCategory categorize(const Allocation &a, const BackwardPasses &passes) const;
    //! Bytes by category on \a device just after each of \a events (ascending), in one sweep.
    std::vector<CategoryBytes> compositionsAfter(
        const std::vector<int64_t> &events, std::pair<int64_t, int64_t> device) const;

    //! A device's first event and what it held before the trace (beforeTrace()).
    struct DeviceStart {
        std::pair<int64_t, int64_t> device;
        uint32_t firstEvent = 0;
        int64_t beforeTrace = kNoValue;
    };
    std::vector<DeviceStart> deviceStarts() const;
    //! \a device's last event at or before \a event that carries a total, or -1.
    int64_t lastTotalEvent(int64_t event, std::pair<int64_t, int64_t> device) const;
    //! Each device's BeforeTrace block and, where its total just after \a event differs from
    //! the sum of \a blocks, its Unexplained one.
    void addDeviceFigures(int64_t event, std::vector<LiveBlock> &blocks) const;

    const MemoryIndex &m_index;
    std::vector<LiveCategory> m_categories;
    std::vector<DeviceStart> m_starts;
};

} // namespace ks
