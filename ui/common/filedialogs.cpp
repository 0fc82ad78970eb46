// SPDX-License-Identifier: MIT
#include "common/filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

namespace ks::FileDialogs {

namespace {

const QString kTraceFilter = QStringLiteral("PyTorch traces (*.json *.json.gz);;All files (*)");
const QString kRunFilter
    = QStringLiteral("Rank traces or their databases (*.json *.json.gz *.sqlite);;All files (*)");
const QString kOpenKey = QStringLiteral("dialogs/openDirectory");
const QString kSaveKey = QStringLiteral("dialogs/saveDirectory");

QString remembered(const QString &key, const QString &fallback)
{
    const QString dir = QSettings().value(key).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : fallback;
}

void remember(const QString &key, const QString &path)
{
    if (!path.isEmpty())
        QSettings().setValue(key, QFileInfo(path).absolutePath());
}

} // namespace

QStringList openTraces(QWidget *parent, const QString &title)
{
    // The folder is remembered once a trace loads (rememberOpened), however it was opened.
    return QFileDialog::getOpenFileNames(
        parent, title, remembered(kOpenKey, QDir::homePath()), kTraceFilter);
}

QStringList openRunFiles(QWidget *parent, const QString &title)
{
    return QFileDialog::getOpenFileNames(
        parent, title, remembered(kOpenKey, QDir::homePath()), kRunFilter);
}

QString openTrace(QWidget *parent, const QString &title)
{
    return QFileDialog::getOpenFileName(
        parent, title, remembered(kOpenKey, QDir::homePath()), kTraceFilter);
}

void rememberOpened(const QString &path)
{
    remember(kOpenKey, path);
}

QString savePath(QWidget *parent,
    const QString &title,
    const QString &filter,
    const QString &suffix,
    const QString &proposedName)
{
    const QString dir = remembered(kSaveKey, remembered(kOpenKey, QDir::homePath()));
    QFileDialog dialog(parent, title, dir, filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix);
    dialog.selectFile(proposedName + QLatin1Char('.') + suffix);
    // A name typed without a suffix takes the chosen filter's ("HTML pages (*.html)"), not the
    // first.
    QObject::connect(&dialog, &QFileDialog::filterSelected, &dialog, [&dialog](const QString &f) {
        static const QRegularExpression ext(QStringLiteral("\\*\\.(\\w+)"));
        if (const QRegularExpressionMatch m = ext.match(f); m.hasMatch())
            dialog.setDefaultSuffix(m.captured(1));
    });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    QString path = dialog.selectedFiles().first();
    remember(kSaveKey, path);
    return path;
}

QString traceStem(const QString &tracePath)
{
    QString name = QFileInfo(tracePath).fileName();
    for (const char *suffix : {".gz", ".json", ".pt.trace"})
        if (name.endsWith(QLatin1String(suffix)))
            name.chop(int(qstrlen(suffix)));
    return name.isEmpty() ? QStringLiteral("trace") : name;
}

} // namespace ks::FileDialogs
