// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QString>

#include <functional>

class QWidget;

namespace ks {

/*!
 * Shows \a target offscreen at \a size (on its own when it is a part of \a window, which keeps
 * it otherwise), lets \a prepare select and frame once it is laid out, and saves it to \a out
 * (PNG or SVG; a timeline through its own renderer). False with \a error when the file could
 * not be written.
 */
bool captureOffscreen(QWidget *target,
    const QWidget *window,
    QSize size,
    const QString &out,
    const std::function<void()> &prepare,
    QString &error);

} // namespace ks
