// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/modules/moduletree.h"

#include <QWidget>

#include <memory>

namespace ks {

/*!
 * The module tree as an icicle: the root spans the width, each module's children below it share
 * its width in proportion to their GPU time (forward + backward), and every box is split into
 * its forward (blue) and backward (orange) parts. Clicking a box selects that module.
 */
class IcicleChart : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRowHeight = 24;
    //! The width an icicle is exported at (as a headless chart); its height is its natural one.
    static constexpr int kExportWidth = 1600;

    explicit IcicleChart(const ModuleTree &tree, QWidget *parent = nullptr);

    void setStep(int stepIndex);
    void setSelected(ModuleId id);
    ModuleId selected() const { return m_selected; }
    //! The module drawn at \a pos, kNoModule if none.
    ModuleId moduleAt(QPoint pos) const;
    //! Where \a id is drawn (empty if too small to draw).
    QRectF boxOf(ModuleId id) const;
    QSize sizeHint() const override;
    //! A new, offscreen icicle of the same tree, step and selection, \a width wide and as tall
    //! as its rows: exports do not depend on the page's size or on which tab is showing.
    std::unique_ptr<IcicleChart> exportCopy(int width = kExportWidth) const;

signals:
    void moduleClicked(ks::ModuleId id);

protected:
    void paintEvent(QPaintEvent *) override;
    void resizeEvent(QResizeEvent *) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    TimeNs weight(ModuleId id) const;
    void layout();

    const ModuleTree &m_tree;
    int m_step;
    ModuleId m_selected = kNoModule;
    std::vector<QRectF> m_boxes; //!< per module, in widget coordinates
};

} // namespace ks
