// SPDX-License-Identifier: MIT
#include "timeline/timegestures.h"

#include "timeline/zoomcontrol.h"

#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ks {

TimeGestures::TimeGestures(ZoomControl *zoom,
    int labelWidth,
    int rowHeight,
    std::function<int()> scroll,
    std::function<void(int)> setScroll)
    : m_zoom(zoom)
    , m_labelWidth(labelWidth)
    , m_rowHeight(rowHeight)
    , m_scroll(std::move(scroll))
    , m_setScroll(std::move(setScroll))
{
}

void TimeGestures::wheel(QWheelEvent *event, int tracksWidth)
{
    const QPoint delta = event->angleDelta();
    const int dy = delta.y() != 0 ? delta.y() : delta.x();
    if (event->modifiers() & Qt::ControlModifier) {
        const int x = std::max(0, int(event->position().x()) - m_labelWidth);
        const double anchor
            = m_zoom->start() + double(x) * m_zoom->span() / std::max(1, tracksWidth);
        m_zoom->zoomAt(std::pow(0.8, dy / 120.0), anchor);
    } else if (event->modifiers() & Qt::ShiftModifier || delta.x() != 0) {
        m_zoom->pan(-dy / 120.0 * m_zoom->span() * 0.1);
    } else {
        m_setScroll(m_scroll() - dy / 120 * m_rowHeight * 3);
    }
    event->accept();
}

void TimeGestures::press(QPoint pos)
{
    m_pressPos = pos;
    m_pressStart = m_zoom->start();
    m_pressScroll = m_scroll();
    m_dragging = false;
}

bool TimeGestures::move(QPoint pos, int tracksWidth)
{
    const QPoint d = pos - m_pressPos;
    if (!m_dragging && d.manhattanLength() > kDragThreshold && m_pressPos.x() >= m_labelWidth)
        m_dragging = true;
    if (m_dragging) {
        const double nsPerPixel = m_zoom->span() / std::max(1, tracksWidth);
        m_zoom->setRange(m_pressStart - d.x() * nsPerPixel, m_zoom->span());
        m_setScroll(m_pressScroll - d.y());
    }
    return m_dragging;
}

bool TimeGestures::release()
{
    const bool dragged = m_dragging;
    m_dragging = false;
    return dragged;
}

} // namespace ks
