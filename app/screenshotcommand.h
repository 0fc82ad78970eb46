// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/compare/tracediff.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace ks {

//! A parsed `--screenshot OUT FILE` command (cli.md).
struct ScreenshotRequest {
    QString out;
    QString file; //!< empty with demo
    bool demo = false; //!< --demo: the bundled demo trace
    QString view = QStringLiteral("window"); //!< timeline, table, chart, window; run, ranks,
                                             //!< collectives for a run
    QString chart = QStringLiteral("top-pairs"); //!< with view chart: top-pairs, top-groups,
                                                 //!< steps, scatter
    QString selectName; //!< empty: no selection
    int selectIndex = 0; //!< K of NAME#K
    std::optional<std::pair<double, double>> rangeUs;
    QSize size {1600, 900};
    QString compareBase; //!< set: a comparison of file (the candidate) against this base
    DiffOptions diffOptions;
    QStringList runFiles; //!< set: a run of these files and folders (views run, ranks, collectives)
};

//! Validates the options; false with a usage message in \a error.
bool parseScreenshotRequest(const QString &out,
    const QString &file,
    const QString &view,
    const QString &select,
    const QString &range,
    const QString &size,
    ScreenshotRequest &request,
    QString &error);

//! Renders the request with the window's own widgets; returns the cli.md exit code.
int runScreenshot(const ScreenshotRequest &request);

} // namespace ks
