// SPDX-License-Identifier: MIT
#pragma once

#include "session/loadedtrace.h"

#include <QObject>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ks {

/*!
 * The one selection of a trace tab, shared by the timeline, the tables, the module tree and the
 * details panel: they all change it through here and all follow selectionChanged() and
 * moduleChanged(). The selection is an event or a module, never both: selecting one clears the
 * other, so no view is left showing what is no longer selected. Jumps to a counterpart are
 * recorded so that back() / forward() retrace them (Alt+Left / Alt+Right).
 */
class SelectionController : public QObject {
    Q_OBJECT
public:
    explicit SelectionController(
        std::shared_ptr<const LoadedTrace> trace, QObject *parent = nullptr);

    const LoadedTrace &trace() const { return *m_trace; }
    std::shared_ptr<const LoadedTrace> tracePointer() const { return m_trace; }
    SliceId current() const { return m_current; }
    /*!
     * The trace is a rank of a run, drawn on the run's clock: its time t (ns from the trace's
     * first event) reads t + \a originNs there, as its timeline's ruler labels it. Details shows
     * times on that clock, the file's own beside them.
     */
    void setRunClock(double originNs) { m_runClock = originNs; }
    std::optional<double> runClock() const { return m_runClock; }
    //! The selected module, kNoModule when an event (or nothing) is selected.
    ModuleId currentModule() const { return m_module; }

    //! Selects \a slice (kNoSlice clears everything) and records it in the history.
    void select(SliceId slice);
    //! Selects the module \a id (kNoModule clears it) in place of any event.
    void selectModule(ModuleId id);
    //! Jumps to the counterpart of the current selection (forward ↔ backward); false if none.
    bool jumpToCounterpart();
    /*!
     * Marks the time range [\a begin, \a end) (model ns) for its statistics, as the timeline's
     * range selection does; begin == end clears it. The event selection stays as it is.
     */
    void selectRange(TimeNs begin, TimeNs end);
    //! The marked range, begin == end when there is none.
    std::pair<TimeNs, TimeNs> range() const { return m_range; }
    bool canGoBack() const
    {
        return m_position > 0 || (m_module != kNoModule && !m_history.empty());
    }
    bool canGoForward() const { return m_position + 1 < m_history.size(); }
    void back();
    void forward();

signals:
    void selectionChanged(ks::SliceId slice);
    void moduleChanged(ks::ModuleId id);
    void historyChanged();
    void rangeSelected(ks::TimeNs begin, ks::TimeNs end);

private:
    void apply(SliceId slice);
    void setModule(ModuleId id);

    std::shared_ptr<const LoadedTrace> m_trace;
    SliceId m_current = kNoSlice;
    ModuleId m_module = kNoModule;
    std::vector<SliceId> m_history;
    size_t m_position = 0;
    std::pair<TimeNs, TimeNs> m_range {0, 0};
    std::optional<double> m_runClock;
};

} // namespace ks
