// SPDX-License-Identifier: MIT
// The window's hot paths on a large trace (offscreen, the real widgets):
//   first frame: from opening the file to the first picture of the window with the trace in it
//             (load, link and prepareForWindow() as the window's loader does them, then the
//             trace's tab and its views and one paint: the UI thread's part, timed apart), the
//             window already up;
//   timeline: 1920×1080 frames over a fixed script (full view, then 200 seeded random zooms and
//             pans): median and 99th percentile paint time; --collapse-lanes shows every lane
//             as one row, so that the memory and counter curves under them are in the frame;
//   hit test and jump: a click's sliceAt() and the counterpart lookup, mean and max;
//   table:    sorting the pair table by every column, scaled to 1 M rows by repetition, and the
//             longest stall of the event loop while a filter runs.
// Prints one JSON object; benchmarks/run.sh collects it.
//
// With --rank-lines N FILE…: a run of N ranks (the files loaded once, repeated in turn) in the
// run's one-line-per-rank view (RankLines, 1920×1080): the time until its lines are worked out,
// its frames while scrolling through the ranks and zooming (median, 99th percentile), and the
// run's tables (ranks, collectives, pairs across ranks) sorted by every column (the worst).
#include "common/selectioncontroller.h"
#include "export/celltable.h"
#include "export/pairtable.h"
#include "export/runtables.h"
#include "run/ranklines.h"
#include "session/run.h"
#include "table/tablemodel.h"
#include "timeline/timelineview.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <malloc.h>
#include <random>

using namespace ks;

namespace {

//! The pair table repeated until it has \a rows rows: realistic cells, a million rows.
class RepeatedTable : public Table {
public:
    RepeatedTable(std::shared_ptr<const Table> inner, size_t rows)
        : m_inner(std::move(inner))
        , m_rows(rows)
    {
    }
    size_t rowCount() const override { return m_rows; }
    std::span<const ColumnSpec> columns() const override { return m_inner->columns(); }
    std::string text(size_t r, size_t c) const override
    {
        return m_inner->text(r % m_inner->rowCount(), c);
    }
    double number(size_t r, size_t c) const override
    {
        return m_inner->number(r % m_inner->rowCount(), c);
    }
    bool textView(size_t r, size_t c, std::string_view &out) const override
    {
        return m_inner->textView(r % m_inner->rowCount(), c, out);
    }
    void appendJson(std::string &out, size_t r, size_t c) const override
    {
        m_inner->appendJson(out, r % m_inner->rowCount(), c);
    }

private:
    std::shared_ptr<const Table> m_inner;
    size_t m_rows;
};

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

} // namespace

struct FirstFrame {
    double seconds = -1; //!< from opening the file to the first painted frame
    double uiThreadSeconds = -1; //!< of which on the UI thread: the tab made, laid out, painted
};

//! The first painted frame of the window showing \a file, as the window's loader gets there.
FirstFrame firstFrame(const char *file, std::shared_ptr<const LoadedTrace> &trace)
{
    MainWindow window;
    window.resize(1920, 1080);
    window.setAttribute(Qt::WA_DontShowOnScreen, true);
    window.show();
    QCoreApplication::processEvents();
    QImage image(window.size(), QImage::Format_ARGB32_Premultiplied);
    QElapsedTimer t;
    t.start();
    OpenResult opened = readyForWindow(openTrace(file), WindowUse::Tab);
    if (!opened.trace)
        return {};
    const qint64 ready = t.nsecsElapsed();
    window.addTrace(opened.trace, QStringLiteral("trace"));
    QCoreApplication::processEvents(); // layouts, as the event loop would before painting
    QPainter p(&image);
    window.render(&p);
    p.end();
    FirstFrame out;
    out.seconds = double(t.nsecsElapsed()) / 1e9;
    out.uiThreadSeconds = double(t.nsecsElapsed() - ready) / 1e9;
    opened.trace->modules(); // built in the background meanwhile: done before measuring more
    trace = opened.trace;
    return out;
}

//! The worst time, in ms, of sorting \a model by each of its columns, ascending and descending
//! in turn (KS_BENCH_VERBOSE: each on stderr).
double worstSortMs(TableModel &model)
{
    double worst = 0;
    for (int c = 0; c < model.columnCount(); ++c) {
        QElapsedTimer t;
        t.start();
        model.sort(c, c % 2 ? Qt::DescendingOrder : Qt::AscendingOrder);
        // A large table sorts on a worker: the sort is done when its rows are applied.
        while (model.filterPending())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        const double ms = double(t.nsecsElapsed()) / 1e6;
        if (qEnvironmentVariableIsSet("KS_BENCH_VERBOSE"))
            std::fprintf(stderr, "sort %s: %.1f ms\n",
                std::string(model.table().columnName(size_t(c))).c_str(), ms);
        worst = std::max(worst, ms);
    }
    return worst;
}

//! The same for \a table in a TableModel of its own.
double worstSortMs(std::shared_ptr<const Table> table)
{
    TableModel model(std::move(table), {});
    return worstSortMs(model);
}

//! Issue #36: a run of \a ranks ranks (\a files repeated) in the one-line-per-rank view.
int rankLinesBenchmark(size_t ranks, const std::vector<std::string> &files)
{
    std::string error;
    const auto loaded = openRun(files, {}, error);
    if (!loaded || loaded->fromDatabases()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    std::vector<std::shared_ptr<const LoadedTrace>> traces;
    for (size_t r = 0; r < ranks; ++r)
        traces.push_back(loaded->sources[r % loaded->sources.size()]->trace);
    QElapsedTimer t;
    t.start();
    const std::shared_ptr<const Run> run = assembleRun(traces, {}, 2);
    const double assembleS = double(t.nsecsElapsed()) / 1e9;

    const QSize size(1920, 1080);
    RankLines lines(run);
    lines.resize(size);
    t.restart();
    while (!lines.ready())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
    const double readyS = double(t.nsecsElapsed()) / 1e9;

    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> frames;
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> unit(0, 1);
    const double from = lines.rangeStart(), total = lines.rangeSpan();
    lines.render(&image); // not timed: the first paint fills the font caches
    for (int i = 0; i < 200; ++i) {
        // Half the frames a scroll of a few rows, half a zoom somewhere, as a user reads a run.
        if (i % 2) {
            QWheelEvent wheel(QPointF(400, 400), QPointF(400, 400), {},
                QPoint(0, -120 * (1 + i % 5)), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                false);
            QCoreApplication::sendEvent(&lines, &wheel);
        } else {
            const double span = total * std::pow(10.0, -3 * unit(rng));
            lines.setRange(from + unit(rng) * (total - span), span);
        }
        QElapsedTimer f;
        f.start();
        QPainter p(&image);
        lines.render(&p);
        p.end();
        frames.push_back(double(f.nsecsElapsed()) / 1e6);
        if (qEnvironmentVariableIsSet("KS_BENCH_VERBOSE") && frames.back() > 12)
            std::fprintf(stderr, "slow frame %d: %.1f ms, span %.4f of the run\n", i, frames.back(),
                lines.rangeSpan() / total);
    }
    const double ranksSort = worstSortMs(std::make_shared<CellTable>(rankTable(run->summaries())));
    const double collectivesSort = worstSortMs(
        std::make_shared<CellTable>(collectiveTable(run->rankNumbers(), run->collectives)));
    const double pairsSort = worstSortMs(std::make_shared<CellTable>(
        rankPairTable(run->rankNumbers(), run->firstPairRows, run->pairs)));
    std::printf("{\"ranks\": %zu, \"assemble_s\": %.3f, \"lines_ready_s\": %.3f, "
                "\"frame_median_ms\": %.3f, \"frame_p99_ms\": %.3f, \"frame_max_ms\": %.3f, "
                "\"ranks_sort_worst_ms\": %.1f, \"collectives_sort_worst_ms\": %.1f, "
                "\"pairs_sort_worst_ms\": %.1f}\n",
        ranks, assembleS, readyS, percentile(frames, 0.5), percentile(frames, 0.99),
        percentile(frames, 1.0), ranksSort, collectivesSort, pairsSort);
    return 0;
}

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    mallopt(M_MMAP_THRESHOLD, 128 * 1024); // as the application does (app/main.cpp)
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr,
            "usage: bench_views FILE [--table-rows N] [--collapse-lanes]\n"
            "       bench_views --rank-lines N FILE...\n");
        return 1;
    }
    if (QByteArray(argv[1]) == "--rank-lines" && argc > 3)
        return rankLinesBenchmark(size_t(std::atoll(argv[2])), {argv + 3, argv + argc});
    size_t tableRows = 1'000'000;
    bool firstFrameOnly = false;
    bool collapseLanes = false;
    for (int i = 2; i < argc; ++i) {
        if (QByteArray(argv[i]) == "--table-rows" && i + 1 < argc)
            tableRows = size_t(std::atoll(argv[++i]));
        else if (QByteArray(argv[i]) == "--first-frame-only")
            firstFrameOnly = true;
        else if (QByteArray(argv[i]) == "--collapse-lanes")
            collapseLanes = true;
    }
    std::shared_ptr<const LoadedTrace> trace;
    const FirstFrame first = firstFrame(argv[1], trace);
    const double firstFrameS = first.seconds;
    if (!trace) {
        std::fprintf(stderr, "%s: cannot be opened\n", argv[1]);
        return 2;
    }
    if (firstFrameOnly) {
        std::printf("{\"file\": \"%s\", \"first_frame_s\": %.4f, \"first_frame_ui_s\": %.4f}\n",
            argv[1], firstFrameS, first.uiThreadSeconds);
        return 0;
    }
    const TraceModel &m = *trace->model;
    SelectionController selection(trace);
    TimelineView view(&selection);
    const QSize size(1920, 1080);
    view.resize(size);
    if (collapseLanes) {
        for (LaneId lane = 0; lane < m.lanes.size(); ++lane)
            view.setLaneCollapsed(lane, true);
    }
    size_t curvesInFrame = 0;
    for (size_t c = 0; c < trace->curves().tracks.size(); ++c)
        curvesInFrame += view.curveArea(c) ? 1 : 0;
    QImage image(size, QImage::Format_ARGB32_Premultiplied);

    // Timeline frames.
    std::mt19937_64 rng(42);
    const double total = double(m.maxTime - m.minTime);
    std::vector<double> frames;
    auto frame = [&] {
        QElapsedTimer t;
        t.start();
        QPainter p(&image);
        view.render(p, size);
        p.end();
        frames.push_back(double(t.nsecsElapsed()) / 1e6);
    };
    view.showAll();
    frame();
    std::uniform_real_distribution<double> unit(0, 1);
    for (int i = 0; i < 200; ++i) {
        // Log-uniform spans from 10 µs to the whole trace, anywhere in it.
        const double span = std::exp(
            std::log(1e4) + unit(rng) * (std::log(std::max(total, 2e4)) - std::log(1e4)));
        view.setRange(unit(rng) * std::max(0.0, total - span), span);
        frame();
        if (qEnvironmentVariableIsSet("KS_BENCH_VERBOSE") && frames.back() > 12)
            std::fprintf(stderr, "slow frame %.1f ms: span %.0f ns (%.4f of the trace)\n",
                frames.back(), span, span / total);
    }

    // Hit test and jump to counterpart, at random points of a mid-zoom view.
    view.setRange(total * 0.4, total * 0.01);
    std::vector<double> hits, jumps;
    std::uniform_int_distribution<int> xs(TimelineView::kLabelWidth + 1, size.width() - 20);
    std::uniform_int_distribution<int> ys(TimelineView::kRulerHeight + 1, size.height() - 1);
    for (int i = 0; i < 2000; ++i) {
        QElapsedTimer t;
        t.start();
        const SliceId s = view.sliceAt(QPoint(xs(rng), ys(rng)));
        hits.push_back(double(t.nsecsElapsed()) / 1e3);
        if (s != kNoSlice) {
            t.restart();
            (void)trace->graph->counterparts(s);
            jumps.push_back(double(t.nsecsElapsed()) / 1e3);
        }
    }

    // Table: sort every column of a million rows; a filter's longest event-loop stall.
    auto pairs = std::make_shared<PairTable>(*trace->graph);
    // A trace without pairs (one op per thread, …) has nothing to repeat.
    auto big = std::make_shared<RepeatedTable>(pairs, pairs->rowCount() ? tableRows : 0);
    TableModel model(big, {PairTable::FwdName, PairTable::BwdNames, PairTable::Module});
    const double worstSort = worstSortMs(model);
    double worstStall = 0;
    {
        QElapsedTimer sinceTick;
        sinceTick.start();
        QTimer tick;
        tick.setInterval(5);
        QObject::connect(&tick, &QTimer::timeout, [&] {
            worstStall = std::max(worstStall, double(sinceTick.nsecsElapsed()) / 1e6 - 5);
            sinceTick.restart();
        });
        tick.start();
        QElapsedTimer t;
        t.start();
        model.setFilter(QStringLiteral("conv"), false);
        while (model.filterPending())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        model.setFilter(QString(), false);
        while (model.filterPending())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        tick.stop();
    }

    double hitMean = 0, jumpMean = 0;
    for (double h : hits)
        hitMean += h;
    for (double j : jumps)
        jumpMean += j;
    hitMean /= std::max<size_t>(1, hits.size());
    jumpMean /= std::max<size_t>(1, jumps.size());
    std::printf(
        "{\"file\": \"%s\", \"first_frame_s\": %.4f, \"first_frame_ui_s\": %.4f, \"slices\": %zu, "
        "\"memory_events\": %zu, "
        "\"curves_in_frame\": %zu, \"frame_median_ms\": %.3f, "
        "\"frame_p99_ms\": %.3f, "
        "\"frame_max_ms\": %.3f, \"hit_mean_us\": %.2f, \"hit_max_us\": %.2f, \"jump_mean_us\": "
        "%.2f, "
        "\"jump_max_us\": %.2f, \"table_rows\": %zu, \"sort_worst_ms\": %.1f, \"filter_stall_ms\": "
        "%.1f}\n",
        argv[1], firstFrameS, first.uiThreadSeconds, m.slices.size(), m.memory.size(),
        curvesInFrame, percentile(frames, 0.5), percentile(frames, 0.99), percentile(frames, 1.0),
        hitMean, percentile(hits, 1.0), jumpMean, percentile(jumps, 1.0), big->rowCount(),
        worstSort, worstStall);
    return 0;
}
