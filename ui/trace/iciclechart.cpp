// SPDX-License-Identifier: MIT
#include "trace/iciclechart.h"

#include "common/palette.h"
#include "common/timeformat.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace ks {

namespace {
const QColor kForward = workColor(WorkPart::Forward);
const QColor kBackward = workColor(WorkPart::Backward);
} // namespace

IcicleChart::IcicleChart(const ModuleTree &tree, QWidget *parent)
    : QWidget(parent)
    , m_tree(tree)
    , m_step(ModuleTree::kWholeTrace)
{
    setMouseTracking(true);
    setMinimumHeight(kRowHeight * 3);
}

QSize IcicleChart::sizeHint() const
{
    uint32_t depth = 0;
    for (const ModuleNode &n : m_tree.nodes())
        depth = std::max(depth, n.depth);
    return {800, int(depth + 1) * kRowHeight + 4};
}

std::unique_ptr<IcicleChart> IcicleChart::exportCopy(int width) const
{
    auto copy = std::make_unique<IcicleChart>(m_tree);
    copy->m_step = m_step;
    copy->m_selected = m_selected;
    copy->resize(width, std::max(copy->minimumHeight(), copy->sizeHint().height()));
    copy->layout();
    return copy;
}

TimeNs IcicleChart::weight(ModuleId id) const
{
    const ModuleTimes &t = m_tree.times(id, m_step);
    return t.forwardTotal.time + t.backwardTotal.time + t.backwardOtherTotal.time
        + t.recomputeTotal.time;
}

void IcicleChart::setStep(int stepIndex)
{
    m_step = stepIndex;
    layout();
    update();
}

void IcicleChart::setSelected(ModuleId id)
{
    m_selected = id;
    update();
}

void IcicleChart::layout()
{
    const auto &nodes = m_tree.nodes();
    m_boxes.assign(nodes.size(), QRectF());
    if (nodes.empty())
        return;
    m_boxes[0] = QRectF(0, 0, width(), kRowHeight);
    // Pre-order: a parent is laid out before its children, which split its width by weight.
    for (ModuleId id = 0; id < nodes.size(); ++id) {
        const QRectF parent = m_boxes[id];
        if (parent.isEmpty())
            continue;
        TimeNs sum = 0;
        for (ModuleId c : nodes[id].children)
            sum += weight(c);
        const TimeNs total = std::max(sum, weight(id));
        double x = parent.left();
        for (ModuleId c : nodes[id].children) {
            const double w = total > 0 ? parent.width() * double(weight(c)) / double(total) : 0;
            if (w >= 1.0)
                m_boxes[c] = QRectF(x, parent.bottom(), w, kRowHeight);
            x += w;
        }
    }
}

void IcicleChart::resizeEvent(QResizeEvent *)
{
    layout();
}

QRectF IcicleChart::boxOf(ModuleId id) const
{
    return id < m_boxes.size() ? m_boxes[id] : QRectF();
}

ModuleId IcicleChart::moduleAt(QPoint pos) const
{
    for (ModuleId id = ModuleId(m_boxes.size()); id-- > 0;) {
        if (m_boxes[id].contains(pos))
            return id;
    }
    return kNoModule;
}

void IcicleChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (m_boxes.size() != m_tree.nodes().size())
        layout();
    const QFontMetrics fm(font());
    for (ModuleId id = 0; id < m_boxes.size(); ++id) {
        const QRectF box = m_boxes[id].adjusted(0.5, 0.5, -0.5, -0.5);
        if (box.width() < 1)
            continue;
        const ModuleTimes &t = m_tree.times(id, m_step);
        const double total = double(weight(id));
        const double fwd = total > 0 ? double(t.forwardTotal.time) / total : 0;
        const QRectF fwdBox(box.left(), box.top(), box.width() * fwd, box.height());
        const QRectF bwdBox(fwdBox.right(), box.top(), box.width() - fwdBox.width(), box.height());
        p.fillRect(fwdBox, kForward.lighter(id == 0 ? 150 : 100 + 8 * int(m_tree.node(id).depth)));
        p.fillRect(bwdBox, kBackward.lighter(id == 0 ? 150 : 100 + 8 * int(m_tree.node(id).depth)));
        p.setPen(palette().color(QPalette::Base));
        p.drawRect(box);
        if (box.width() > 30) {
            p.setPen(Qt::white);
            const QString label = QString::fromStdString(m_tree.node(id).name)
                + QStringLiteral("  ") + formatDuration(total);
            p.drawText(box.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                fm.elidedText(label, Qt::ElideRight, int(box.width()) - 8));
        }
    }
    if (m_selected < m_boxes.size() && !m_boxes[m_selected].isEmpty()) {
        p.setPen(QPen(Qt::black, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(m_boxes[m_selected].adjusted(1, 1, -1, -1));
    }
}

void IcicleChart::mouseReleaseEvent(QMouseEvent *event)
{
    const ModuleId id = moduleAt(event->pos());
    if (id != kNoModule) {
        setSelected(id);
        emit moduleClicked(id);
    }
}

bool IcicleChart::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto *help = static_cast<QHelpEvent *>(event);
    const ModuleId id = moduleAt(help->pos());
    if (id == kNoModule) {
        QToolTip::hideText();
        return true;
    }
    const ModuleTimes &t = m_tree.times(id, m_step);
    const ModuleNode &n = m_tree.node(id);
    QToolTip::showText(help->globalPos(),
        tr("<b>%1</b><br>%2 calls<br>forward GPU %3 (self %4)<br>backward GPU %5 (self "
           "%6)<br>backward other %7<br>recompute %8")
            .arg(QString::fromStdString(n.path.empty() ? n.name : n.path).toHtmlEscaped())
            .arg(t.calls)
            .arg(formatDuration(double(t.forwardTotal.time)),
                formatDuration(double(t.forwardSelf.time)),
                formatDuration(double(t.backwardTotal.time)),
                formatDuration(double(t.backwardSelf.time)),
                formatDuration(double(t.backwardOtherTotal.time)),
                formatDuration(double(t.recomputeTotal.time))),
        this);
    return true;
}

} // namespace ks
