// SPDX-License-Identifier: MIT
#include "window/recentfiles.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace ks {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");
} // namespace

RecentFiles::RecentFiles(QMenu *menu, QObject *parent)
    : QObject(parent)
    , m_menu(menu)
{
    rebuild();
}

QStringList RecentFiles::files() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void RecentFiles::add(const QString &path)
{
    QStringList recent = files();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
    rebuild();
}

void RecentFiles::rebuild()
{
    m_menu->clear();
    const QStringList recent = files();
    for (const QString &path : recent)
        m_menu->addAction(path, this, [this, path] { emit openRequested(path); });
    if (recent.isEmpty()) {
        m_menu->addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    m_menu->addSeparator();
    m_menu->addAction(tr("Clear"), this, [this] {
        QSettings().remove(kRecentKey);
        rebuild();
    });
}

} // namespace ks
