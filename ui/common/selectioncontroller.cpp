// SPDX-License-Identifier: MIT
#include "common/selectioncontroller.h"

#include <algorithm>

namespace ks {

SelectionController::SelectionController(std::shared_ptr<const LoadedTrace> trace, QObject *parent)
    : QObject(parent)
    , m_trace(std::move(trace))
{
}

void SelectionController::select(SliceId slice)
{
    const bool hadModule = m_module != kNoModule;
    setModule(kNoModule);
    if (slice == m_current) {
        if (hadModule) {
            // No event was selected beside the module: every view follows the cleared selection.
            apply(slice);
            emit historyChanged();
        }
        return;
    }
    // A new selection cuts off the forward part of the history, as in a browser.
    if (!m_history.empty())
        m_history.resize(m_position + 1);
    if (slice != kNoSlice) {
        m_history.push_back(slice);
        m_position = m_history.size() - 1;
    }
    apply(slice);
    emit historyChanged();
}

void SelectionController::selectRange(TimeNs begin, TimeNs end)
{
    const std::pair<TimeNs, TimeNs> range = std::minmax(begin, end);
    if (range == m_range)
        return;
    m_range = range;
    emit rangeSelected(range.first, range.second);
}

void SelectionController::selectModule(ModuleId id)
{
    if (id == m_module)
        return;
    if (m_current != kNoSlice)
        apply(kNoSlice); // the history keeps the event, so Back returns to it
    setModule(id);
    emit historyChanged();
}

void SelectionController::setModule(ModuleId id)
{
    if (id == m_module)
        return;
    m_module = id;
    emit moduleChanged(id);
}

bool SelectionController::jumpToCounterpart()
{
    if (m_current == kNoSlice)
        return false;
    const std::vector<SliceId> targets = m_trace->graph->counterparts(m_current);
    if (targets.empty())
        return false;
    select(targets.front());
    return true;
}

void SelectionController::back()
{
    if (!canGoBack())
        return;
    // From a module, Back returns to the event selected before it.
    if (m_current != kNoSlice || m_module == kNoModule)
        --m_position;
    setModule(kNoModule);
    apply(m_history[m_position]);
    emit historyChanged();
}

void SelectionController::forward()
{
    if (!canGoForward())
        return;
    ++m_position;
    setModule(kNoModule);
    apply(m_history[m_position]);
    emit historyChanged();
}

void SelectionController::apply(SliceId slice)
{
    m_current = slice;
    emit selectionChanged(slice);
}

} // namespace ks
