// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QVBoxLayout;

namespace ks {

/*!
 * What the window shows with no tab open, at start and after the last tab closes: how to open a
 * trace (the buttons, dropping files anywhere on the window), the recent files and the demo.
 */
class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget *parent = nullptr);

    //! Lists \a files (most recent first) as links; none hides the list.
    void setRecentFiles(const QStringList &files);

signals:
    void openRequested();
    void demoRequested();
    void compareRequested();
    void recentRequested(const QString &path);

private:
    QWidget *m_recentBox;
    QVBoxLayout *m_recentList;
};

} // namespace ks
