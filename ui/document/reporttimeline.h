// SPDX-License-Identifier: MIT
#pragma once

#include "session/loadedtrace.h"

#include <QSize>

#include <memory>

class QPainter;

namespace ks {

class SelectionController;
class TimelineView;

/*!
 * The report's timeline picture: the real timeline widget, offscreen, showing step \a step of
 * \a trace with pair row \a row's forward op selected (its arrows drawn), as tall as its tracks
 * (at most kMaxHeight), painted onto any QPainter (PDF: vector).
 */
class ReportTimeline {
public:
    static constexpr int kWidth = 1200;
    static constexpr int kMaxHeight = 1000;

    ReportTimeline(const std::shared_ptr<const LoadedTrace> &trace, int step, int row);
    ~ReportTimeline();

    QSize size() const;
    void paint(QPainter &p) const;

private:
    std::unique_ptr<SelectionController> m_selection;
    std::unique_ptr<TimelineView> m_view;
};

} // namespace ks
