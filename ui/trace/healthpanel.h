// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace ks {

struct LoadedTrace;
class SelectionController;

/*!
 * A trace's health: the findings of `--check` (LoadedTrace::findings()), one row each with its
 * count, its explanation and its first instance. Activating a row selects that instance, which
 * frames it in the timeline; the load warnings row opens the loader's diagnostics.
 */
class HealthPanel : public QDialog {
    Q_OBJECT
public:
    HealthPanel(SelectionController *selection, QWidget *parent);
    //! Opens a panel on the trace \a selection shows, over \a window; it deletes itself on close.
    static HealthPanel *open(SelectionController *selection, QWidget *window);

    //! The table, for tests: one top-level item a finding, in the order of findings().
    QTreeWidget *tree() const { return m_tree; }

private:
    void activate(QTreeWidgetItem *item);
    //! The current finding in full under the table: its columns elide.
    void describe(QTreeWidgetItem *item);

    SelectionController *m_selection;
    QTreeWidget *m_tree;
    QLabel *m_detail;
};

} // namespace ks
