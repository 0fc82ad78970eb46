// SPDX-License-Identifier: MIT
#pragma once

#include "session/run.h"

#include <QStringList>

#include <string>
#include <vector>

class QLabel;
class QWidget;

namespace ks {

//! A run's notes on its ranks: each failure as "\a failed: why", then each warning.
QStringList runNotes(const QString &failed,
    const std::vector<RunFailure> &failures,
    const std::vector<std::string> &warnings);

//! The line on top of a run's tab that says \a notes ("runNotice"), hidden when there are none.
QLabel *makeRunNotice(const QStringList &notes, QWidget *parent);

} // namespace ks
