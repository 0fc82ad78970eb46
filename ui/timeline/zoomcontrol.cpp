// SPDX-License-Identifier: MIT
#include "timeline/zoomcontrol.h"

#include <algorithm>
#include <cmath>

namespace ks {

ZoomControl::ZoomControl(double traceSpan, QObject *parent)
    : QObject(parent)
    , m_end(std::max(kMinSpan, traceSpan))
    , m_start(minStart())
    , m_span(maxSpan())
{
}

void ZoomControl::setRange(double start, double span)
{
    if (!std::isfinite(start) || !std::isfinite(span))
        return;
    span = std::clamp(span, kMinSpan, maxSpan());
    if (span == maxSpan()) {
        // Pinned exactly: the bounds' arithmetic may differ from minStart() in the last bit.
        start = minStart();
    } else {
        // The margin shrinks with the span, so that framing a slice at the trace's start shows
        // the slice, not the time before the trace.
        const double margin = kMargin * std::min(span, total());
        const double lo = m_begin - margin;
        start = std::clamp(start, lo, std::max(lo, m_end + margin - span));
    }
    if (start == m_start && span == m_span)
        return;
    m_start = start;
    m_span = span;
    emit rangeChanged(m_start, m_span);
}

void ZoomControl::setExtent(double begin, double end)
{
    m_begin = std::min(0.0, begin);
    m_end = std::max({m_end, end, m_begin + kMinSpan});
    setRange(m_start, m_span);
}

void ZoomControl::zoomAt(double factor, double anchor)
{
    // Clamp the span first, so that at the deepest zoom the anchor stays put.
    const double span = std::clamp(m_span * factor, kMinSpan, maxSpan());
    const double ratio = (anchor - m_start) / m_span;
    setRange(anchor - ratio * span, span);
}

} // namespace ks
