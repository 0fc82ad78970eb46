// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QWidget;

namespace ks {

/*!
 * File dialogs that start where the user last opened a trace or saved an export (kept in
 * QSettings), and save dialogs that propose a name made from the trace's.
 */
namespace FileDialogs {

//! The traces chosen in an open dialog, which starts in the folder of the last trace opened.
QStringList openTraces(QWidget *parent, const QString &title);
//! The files of one run to open: rank traces, or their `--export-db` databases.
QStringList openRunFiles(QWidget *parent, const QString &title);
QString openTrace(QWidget *parent, const QString &title);
//! Remembers the folder of a trace opened another way (drop, recent files, command line).
void rememberOpened(const QString &path);

/*!
 * A path to save to, proposing \a proposedName (with \a suffix) in the folder of the last save,
 * else that of the last open; empty when cancelled. Remembers the folder chosen.
 */
QString savePath(QWidget *parent,
    const QString &title,
    const QString &filter,
    const QString &suffix,
    const QString &proposedName);

//! "resnet50" for ".../resnet50.pt.trace.json.gz": a trace's name without its suffixes.
QString traceStem(const QString &tracePath);

} // namespace FileDialogs

} // namespace ks
