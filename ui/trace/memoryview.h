// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/memoryindex.h"
#include "session/loadedtrace.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;

namespace ks {

class LiveMemoryPanel;
class SelectionController;
class TableModel;

/*!
 * A trace's Memory tab (traces recorded with profile_memory=True): the devices' allocation counts
 * and peaks on top, what is alive at a moment (LiveMemoryPanel: the peaks' composition per step,
 * the live blocks), then the allocation table (size, device, op, side, pair, when allocated and
 * freed; sorted and filtered like the other tables; selecting a row selects its op) and the
 * memory statistics per op, with and without children, as the TensorBoard plugin had them.
 */
class MemoryView : public QWidget {
    Q_OBJECT
public:
    MemoryView(SelectionController *selection, QWidget *parent = nullptr);
    ~MemoryView() override;

    const MemoryIndex &index() const { return *m_index; }
    QTableView *allocations() const { return m_allocationView; }
    QTableView *byOp() const { return m_opView; }
    TableModel *allocationModel() const { return m_allocationModel; }
    LiveMemoryPanel *live() const { return m_live; }
    //! The devices' line (peaks, out-of-memory events).
    QString summary() const;

private:
    SelectionController *m_selection;
    const MemoryIndex *m_index; //!< the trace's (LoadedTrace::memory)
    QLabel *m_summary = nullptr;
    LiveMemoryPanel *m_live = nullptr;
    QTableView *m_allocationView = nullptr;
    QTableView *m_opView = nullptr;
    TableModel *m_allocationModel = nullptr;
};

} // namespace ks
