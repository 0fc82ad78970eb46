// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QMenu;
class QWidget;

namespace ks {

/*!
 * File ▸ GPU Peaks File…: a JSON file of GPU peaks in TraceLens's `gpu_arch` layout
 * (docs/efficiency.md), kept in the settings and added to the shipped peak table for the traces
 * opened from then on (a trace keeps the table it was opened with). File ▸ Shipped GPU Peaks Only
 * forgets it.
 */
class PeaksSetting : public QObject {
    Q_OBJECT
public:
    PeaksSetting(QMenu *file, QWidget *window);

    /*!
     * Uses the saved file, if any, unless the command line gave --peaks (\a fromCommandLine);
     * a saved file that no longer reads leaves the shipped table, and its error is returned.
     */
    static QString applySaved(bool fromCommandLine);

private:
    void choose();
    void forget();

    QWidget *m_window;
};

} // namespace ks
