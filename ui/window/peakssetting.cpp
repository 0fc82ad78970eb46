// SPDX-License-Identifier: MIT
#include "window/peakssetting.h"

#include "analysis/efficiency/devicepeaks.h"
#include "common/qstrings.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

namespace ks {

namespace {
const QString kPeaksKey = QStringLiteral("efficiency/peaksFile");

//! The shipped table with \a path over it; the error, or empty when it was used.
QString use(const QString &path)
{
    auto table = std::make_shared<PeakTable>(PeakTable::shipped());
    if (!path.isEmpty()) {
        if (const std::string error = table->addFile(path.toStdString()); !error.empty())
            return QString::fromStdString(error);
    }
    PeakTable::use(std::move(table));
    return {};
}
} // namespace

PeaksSetting::PeaksSetting(QMenu *file, QWidget *window)
    : QObject(window)
    , m_window(window)
{
    file->addAction(tr("GPU &Peaks File…"), this, &PeaksSetting::choose);
    file->addAction(tr("Shipped GPU Peaks Only"), this, &PeaksSetting::forget);
}

QString PeaksSetting::applySaved(bool fromCommandLine)
{
    const QString path = QSettings().value(kPeaksKey).toString();
    if (fromCommandLine || path.isEmpty())
        return {};
    return use(path);
}

void PeaksSetting::choose()
{
    const QString path
        = QFileDialog::getOpenFileName(m_window, tr("GPU peaks (TraceLens gpu_arch JSON)"),
            QSettings().value(kPeaksKey).toString(), tr("JSON files (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const QString error = use(path); !error.isEmpty()) {
        QMessageBox::warning(m_window, tr("GPU peaks"), error);
        return;
    }
    QSettings().setValue(kPeaksKey, path);
    QMessageBox::information(m_window, tr("GPU peaks"),
        tr("The peaks of %1 apply to the traces opened from now on.").arg(path));
}

void PeaksSetting::forget()
{
    QSettings().remove(kPeaksKey);
    use({});
}

} // namespace ks
