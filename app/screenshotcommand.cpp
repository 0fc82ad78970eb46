// SPDX-License-Identifier: MIT
#include "screenshotcommand.h"

#include "base/closenames.h"
#include "base/outofmemory.h"
#include "common/qstrings.h"
#include "compare/comparisonview.h"
#include "exitcode.h"
#include "headless.h"
#include "link/opnames.h"
#include "output/exporter.h"
#include "output/offscreencapture.h"
#include "run/runview.h"
#include "timeline/timelineview.h"
#include "trace/chartnames.h"
#include "trace/chartsview.h"
#include "trace/memoryview.h"
#include "trace/pairtablepage.h"
#include "trace/tracetab.h"
#include "viewnames.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QChartView>
#include <QRegularExpression>
#include <QTableView>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>

namespace ks {

namespace {

//! A host op suggested for --select when the trace has no pairs: not backward work.
bool isUnpairedForwardOp(const LoadedTrace &trace, SliceId s)
{
    const TraceModel &m = *trace.model;
    const OpGraph &g = *trace.graph;
    return m.slices.kind[s] == EventKind::CpuOp && !g.isBackwardNode(s)
        && !g.isBackwardThread(m.slices.lane[s]) && !looksLikeBackwardNode(m.sliceName(s));
}

//! The ops --select suggests: the pairs' forward ops, else (no pairs) the forward-side ops.
template<typename Visit> void forEachForwardOp(const LoadedTrace &trace, Visit visit)
{
    const OpGraph &g = *trace.graph;
    if (!g.rows().empty()) {
        for (const PairRow &row : g.rows())
            if (row.forward != kNoSlice)
                visit(row.forward);
        return;
    }
    for (SliceId s = 0; s < trace.model->slices.size(); ++s)
        if (isUnpairedForwardOp(trace, s))
            visit(s);
}

//! The ops named \a name in time order: the pairs' forward ops, else any host op not a node.
std::vector<SliceId> forwardOpsNamed(const LoadedTrace &trace, const QString &name)
{
    const TraceModel &m = *trace.model;
    const OpGraph &g = *trace.graph;
    const std::string key = name.toStdString();
    std::vector<SliceId> out;
    for (const PairRow &row : g.rows())
        if (row.forward != kNoSlice && m.sliceName(row.forward) == key)
            out.push_back(row.forward);
    if (out.empty())
        for (SliceId s = 0; s < m.slices.size(); ++s)
            if (!m.lanes[m.slices.lane[s]].device && m.sliceName(s) == key && !g.isBackwardNode(s))
                out.push_back(s);
    std::stable_sort(out.begin(), out.end(),
        [&](SliceId a, SliceId b) { return m.slices.start[a] < m.slices.start[b]; });
    return out;
}

//! Names close to \a name among the forward ops only: a suggestion --select accepts.
QStringList closeMatches(const LoadedTrace &trace, const QString &name)
{
    const TraceModel &m = *trace.model;
    std::set<StringId> ids;
    forEachForwardOp(trace, [&](SliceId s) { ids.insert(m.slices.name[s]); });
    std::vector<std::string_view> names;
    names.reserve(ids.size());
    for (StringId id : ids)
        names.push_back(m.str(id));
    QStringList out;
    for (const std::string &close : closeNames(names, name.toStdString()))
        out << QString::fromStdString(close);
    return out;
}

int fail(int code, const QString &message)
{
    std::fprintf(stderr, "%s\n", qPrintable(message));
    return code;
}

} // namespace

bool parseScreenshotRequest(const QString &out,
    const QString &file,
    const QString &view,
    const QString &select,
    const QString &range,
    const QString &size,
    ScreenshotRequest &r,
    QString &error)
{
    r.out = out;
    r.file = file;
    r.view = view.isEmpty() ? QStringLiteral("window") : view;
    if (!viewNamed(r.view)) {
        error = QStringLiteral("--view must be one of %1 (got '%2')")
                    .arg(viewNameList().join(QStringLiteral(", ")), view);
        return false;
    }
    if (!out.endsWith(QLatin1String(".png"), Qt::CaseInsensitive) && !Exporter::isSvg(out)) {
        error = QStringLiteral("--screenshot OUT must end in .png or .svg (got '%1')").arg(out);
        return false;
    }
    if (!select.isEmpty()) {
        static const QRegularExpression re(QStringLiteral("^(.*?)(?:#(\\d+))?$"));
        const auto m = re.match(select);
        r.selectName = m.captured(1);
        r.selectIndex = m.captured(2).isEmpty() ? 0 : m.captured(2).toInt();
        if (r.selectName.isEmpty()) {
            error = QStringLiteral("--select needs a NAME");
            return false;
        }
    }
    if (!range.isEmpty()) {
        const QStringList parts = range.split(QLatin1Char(':'));
        bool ok1 = false, ok2 = false;
        const double a = parts.size() == 2 ? parts[0].toDouble(&ok1) : 0;
        const double b = parts.size() == 2 ? parts[1].toDouble(&ok2) : 0;
        if (!ok1 || !ok2 || !(b > a)) {
            error = QStringLiteral(
                "--range must be START_US:END_US with END_US > START_US (got '%1')")
                        .arg(range);
            return false;
        }
        r.rangeUs = std::pair(a, b);
    }
    static const QRegularExpression sizeRe(QStringLiteral("^(\\d+)x(\\d+)$"));
    const auto sm = sizeRe.match(size.isEmpty() ? QStringLiteral("1600x900") : size);
    const int w = sm.captured(1).toInt(), h = sm.captured(2).toInt();
    if (!sm.hasMatch() || w < 200 || h < 150 || w > 16384 || h > 16384) {
        error = QStringLiteral(
            "--size must be WIDTHxHEIGHT between 200x150 and 16384x16384 (got '%1')")
                    .arg(size);
        return false;
    }
    r.size = QSize(w, h);
    return true;
}

namespace {

//! Captures \a target (a part of \a window, or the window) as \a r asks.
int capture(QWidget *target,
    const QWidget *window,
    const ScreenshotRequest &r,
    const std::function<void()> &prepare)
{
    QString error;
    return captureOffscreen(target, window, r.size, r.out, prepare, error)
        ? ExitOk
        : fail(ExitWriteFailed, error);
}

/*!
 * The room drawing a picture of \a size takes: the window's backing store, the picture and the
 * PNG encoder's rows, and fonts and glyph caches (a sweep of `ulimit -v` drew the default window
 * with 16 MB free and crashed inside Qt with 6: tests/cli/tst_outofmemory).
 */
std::size_t drawingRoom(QSize size)
{
    constexpr std::size_t kFontsAndCaches = 24U << 20;
    return kFontsAndCaches + 3 * std::size_t(size.width()) * std::size_t(size.height()) * 4;
}

//! `--compare BASE FILE --screenshot OUT`: the comparison view, its largest change selected.
int renderComparison(const ScreenshotRequest &r, MemoryReserve &drawing)
{
    const auto base = loadOrReport(r.compareBase.toStdString());
    const auto candidate = base ? loadOrReport(r.file.toStdString()) : nullptr;
    if (!candidate)
        return ExitLoadFailed;
    drawing.release();
    MainWindow window;
    ComparisonView *view = window.addComparison(base, candidate, r.diffOptions);
    if (!view)
        return fail(ExitUsage, QStringLiteral("kinetoscope: ") + window.lastComparisonError());
    QWidget *target = r.view == QLatin1String("table") ? static_cast<QWidget *>(view->table())
        : r.view == QLatin1String("timeline")          ? view->timelines()
                                                       : static_cast<QWidget *>(&window);
    return capture(target, &window, r, [view] { view->selectRow(0); });
}

/*!
 * A run's screenshot: `run` is the window on the pair with the largest backward spread, `ranks`
 * the run's tab on its rank table, `collectives` the tab on the collective with the largest
 * skew, its band emphasised.
 */
int renderRun(const ScreenshotRequest &r, MemoryReserve &drawing)
{
    std::vector<std::string> args;
    for (const QString &f : r.runFiles)
        args.push_back(f.toStdString());
    const auto run = openRunOrReport(args); // the window's: pairs, charts, health
    if (!run)
        return ExitLoadFailed;
    drawing.release();
    MainWindow window;
    RunView *view = window.addRun(run);
    QWidget *target = r.view == QLatin1String("run") ? static_cast<QWidget *>(&window) : view;
    const RunView::Page page = r.view == QLatin1String("ranks") ? RunView::Ranks
        : r.view == QLatin1String("collectives")                ? RunView::Collectives
                                                                : RunView::Pairs;
    return capture(target, &window, r, [view, page] { view->activate(page, 0); });
}

} // namespace

int runScreenshot(const ScreenshotRequest &request)
{
    ScreenshotRequest r = request;
    if (r.demo) {
        r.file = MainWindow::demoTracePath();
        if (r.file.isEmpty())
            return fail(ExitLoadFailed,
                QStringLiteral("kinetoscope: the demo trace could not be unpacked"));
    }
    // Held while loading, given to the window just before it is drawn.
    MemoryReserve drawing(drawingRoom(r.size));
    if (!drawing.held())
        return fail(ExitWriteFailed,
            QStringLiteral("%1: not enough memory to draw the picture").arg(r.out));
    if (!r.runFiles.isEmpty())
        return renderRun(r, drawing);
    if (!r.compareBase.isEmpty())
        return renderComparison(r, drawing);
    const auto opened = loadOrReport(r.file.toStdString());
    if (!opened)
        return ExitLoadFailed;
    drawing.release();
    const LoadedTrace &trace = *opened;

    SliceId selected = kNoSlice;
    if (!r.selectName.isEmpty()) {
        const std::vector<SliceId> ops = forwardOpsNamed(trace, r.selectName);
        if (ops.empty()) {
            const QStringList close = closeMatches(trace, r.selectName);
            return fail(ExitUsage,
                QStringLiteral("kinetoscope: --select: no forward op named '%1'%2")
                    .arg(r.selectName,
                        close.isEmpty() ? QString()
                                        : QStringLiteral("; close matches: ")
                                + close.join(QStringLiteral(", "))));
        }
        if (r.selectIndex >= int(ops.size()))
            return fail(ExitUsage,
                QStringLiteral("kinetoscope: --select: only %1 forward ops named '%2' (#0 to #%3)")
                    .arg(ops.size())
                    .arg(r.selectName)
                    .arg(ops.size() - 1));
        selected = ops[size_t(r.selectIndex)];
    }

    // The real window, sized as asked; single views are its widgets shown on their own.
    MainWindow window;
    TraceTab *tab = window.addTrace(opened, MainWindow::tabTitle(r.file));
    QWidget *target = &window;
    if (r.view == QLatin1String("timeline"))
        target = tab->timeline();
    else if (r.view == QLatin1String("table"))
        target = tab->pairs()->view();
    else if (r.view == QLatin1String("chart")) {
        ChartsView *charts = tab->charts();
        const auto named
            = std::find_if(kChartNames.begin(), kChartNames.end(), [&](const ChartName &c) {
                  return r.chart == QLatin1String(c.name.data(), qsizetype(c.name.size()));
              });
        const ChartName &chart = named != kChartNames.end() ? *named : kChartNames.front();
        charts->setGroupMode(chart.groups);
        charts->setKind(ChartsView::Kind(chart.kind));
        target = charts;
    } else if (r.view == QLatin1String("memory")) {
        target = tab->memory();
        if (!target)
            return fail(ExitUsage,
                QStringLiteral("kinetoscope: %1 has no [memory] events (record with "
                               "profile_memory=True)")
                    .arg(r.file));
    }
    return capture(target, &window, r, [&r, tab, selected] {
        while (tab->pagesPending()) // the window as a user sees it once its pages are filled
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        if (selected != kNoSlice)
            tab->selection()->select(selected);
        TimelineView *timeline = tab->timeline();
        if (r.rangeUs)
            timeline->setRange(
                r.rangeUs->first * 1000.0, (r.rangeUs->second - r.rangeUs->first) * 1000.0);
        else if (selected != kNoSlice)
            timeline->fitSelection(); // frames the forward op and its backward counterpart
    });
}

} // namespace ks
