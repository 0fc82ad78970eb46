// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/modulememory.h"
#include "analysis/modules/moduleflops.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace ks {

class IcicleChart;

/*!
 * The Modules tab: the module tree (or scope / op tree, saying which) as a sortable, filterable
 * tree table with forward, backward and backward-other GPU time, self and total, and the bytes
 * its ops allocate and hold for their backward (traces with memory events), per step or over
 * the whole trace, above an icicle of the same tree. Selecting a module in either emits
 * moduleSelected() so the timeline can highlight its forward calls and backward nodes.
 */
class ModulesView : public QWidget {
    Q_OBJECT
public:
    //! \a pairMemory: LoadedTrace::pairMemory(), for the memory columns (hidden when empty);
    //! \a efficiency: LoadedTrace::efficiency(), for the TFLOP/s columns (hidden without shapes).
    ModulesView(const ModuleTree &tree,
        const std::vector<PairMemory> &pairMemory,
        const OpEfficiency &efficiency,
        QWidget *parent = nullptr);

    void selectModule(ModuleId id);
    ModuleId selectedModule() const { return m_selected; }
    QTreeWidget *tree() const { return m_tree; }
    IcicleChart *icicle() const { return m_icicle; }
    void setStep(int stepIndex);
    //! Shows step \a stepIndex of the tree (ModuleTree::kWholeTrace: all), as if chosen here.
    void selectStep(int stepIndex);

signals:
    void moduleSelected(ks::ModuleId id);

private:
    void fill();
    void applyFilter(const QString &text);

    const ModuleTree &m_modules;
    const ModuleMemory m_memory;
    const ModuleFlops m_flops;
    int m_step;
    ModuleId m_selected = kNoModule;
    QComboBox *m_stepBox;
    QLineEdit *m_filter;
    QLabel *m_source;
    QTreeWidget *m_tree;
    IcicleChart *m_icicle;
    std::vector<QTreeWidgetItem *> m_items; //!< by ModuleId
};

} // namespace ks
