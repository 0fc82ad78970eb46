// SPDX-License-Identifier: MIT
#include "output/offscreencapture.h"

#include "output/exporter.h"
#include "timeline/timelineview.h"

#include <QApplication>

namespace ks {

bool captureOffscreen(QWidget *target,
    const QWidget *window,
    QSize size,
    const QString &out,
    const std::function<void()> &prepare,
    QString &error)
{
    if (target != window)
        target->setParent(nullptr);
    target->resize(size);
    target->setAttribute(Qt::WA_DontShowOnScreen, true);
    target->show();
    QApplication::processEvents();
    prepare();
    QApplication::processEvents();
    auto *timeline = qobject_cast<TimelineView *>(target);
    const bool ok = timeline ? Exporter::saveTimeline(timeline, out, 1, error)
                             : Exporter::saveWidget(target, out, 1, error, size);
    if (target != window)
        target->deleteLater();
    return ok;
}

} // namespace ks
