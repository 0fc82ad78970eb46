// SPDX-License-Identifier: MIT
#pragma once

#include "session/loadedtrace.h"

#include <QPicture>
#include <QSize>

#include <memory>

namespace ks {

/*!
 * The report's timeline picture: the real timeline widget, offscreen, showing step \a step of
 * \a trace with pair row \a row's forward op selected (its arrows drawn, its lanes in view), as
 * tall as its tracks (at most kMaxHeight), recorded as paint commands. Recording needs the UI
 * thread (the timeline is a widget); replaying it (PDF: vector, HTML: an image) does not, so the
 * window writes the file on a pool thread.
 */
struct ReportTimeline {
    static constexpr int kWidth = 1200;
    static constexpr int kMaxHeight = 1000;

    QPicture picture;
    QSize size;

    bool isNull() const { return size.isEmpty(); }
    //! Records the picture (UI thread).
    static ReportTimeline record(
        const std::shared_ptr<const LoadedTrace> &trace, int step, int row);
};

} // namespace ks
