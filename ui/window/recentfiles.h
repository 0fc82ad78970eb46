// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace ks {

//! The recently opened traces (kept in QSettings) and the File ▸ Open Recent menu showing them.
class RecentFiles : public QObject {
    Q_OBJECT
public:
    //! Keeps \a menu filled; choosing an entry emits openRequested().
    explicit RecentFiles(QMenu *menu, QObject *parent = nullptr);

    QStringList files() const;
    //! Puts \a path first (as an absolute path).
    void add(const QString &path);

signals:
    void openRequested(const QString &path);

private:
    void rebuild();
    QMenu *m_menu;
};

} // namespace ks
