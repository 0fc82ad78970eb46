// SPDX-License-Identifier: MIT
#include "run/runnotice.h"

#include <QLabel>

namespace ks {

QStringList runNotes(const QString &failed,
    const std::vector<RunFailure> &failures,
    const std::vector<std::string> &warnings)
{
    QStringList notes;
    for (const RunFailure &f : failures)
        notes << failed + QStringLiteral(": ") + QString::fromStdString(f.error);
    for (const std::string &w : warnings)
        notes << QString::fromStdString(w);
    return notes;
}

QLabel *makeRunNotice(const QStringList &notes, QWidget *parent)
{
    auto *notice = new QLabel(notes.join(QLatin1Char('\n')), parent);
    notice->setObjectName(QStringLiteral("runNotice"));
    notice->setWordWrap(true);
    notice->setStyleSheet(QStringLiteral("QLabel { background: #fff4d6; padding: 4px; }"));
    notice->setVisible(!notes.isEmpty());
    return notice;
}

} // namespace ks
