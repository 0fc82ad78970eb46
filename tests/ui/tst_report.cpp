// SPDX-License-Identifier: MIT
// The report (issue: report): its parts in order and only with their data, the HTML well formed,
// self-contained and with the exports' numbers in its tables, the PDF's pages and their size
// (and its text, where Debian's pdftotext is installed), the command line.
#include "analysis/time/gputime.h"
#include "base/unitstext.h"
#include "document/pdftableplan.h"
#include "document/reportwriter.h"
#include "export/difftable.h"
#include "export/pairtable.h"
#include "export/summary.h"
#include "memorytrace.h"
#include "report/reportcontent.h"
#include "runbuilder.h"
#include "testutil.h"

#include <QFile>
#include <QFontMetricsF>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <map>
#include <set>

using namespace ks;

namespace {

//! The tables of an HTML report by section id: [section][table][row][cell], header row first.
using Tables = std::map<QString, std::vector<std::vector<QStringList>>>;

Tables parseHtml(const QByteArray &html, QString *error, QStringList *references)
{
    Tables tables;
    QXmlStreamReader xml(html);
    QString section;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        const QString name = xml.name().toString();
        for (const QXmlStreamAttribute &a : xml.attributes()) {
            if (a.name() == QLatin1String("href") || a.name() == QLatin1String("src"))
                references->append(a.value().toString().left(30));
        }
        if (name == QLatin1String("script") || name == QLatin1String("link"))
            references->append(name);
        if (name == QLatin1String("section"))
            section = xml.attributes().value(QLatin1String("id")).toString();
        else if (name == QLatin1String("table"))
            tables[section].emplace_back();
        else if (name == QLatin1String("tr"))
            tables[section].back().emplace_back();
        else if (name == QLatin1String("td") || name == QLatin1String("th"))
            tables[section].back().back()
                << xml.readElementText(QXmlStreamReader::IncludeChildElements);
    }
    if (xml.hasError())
        *error = QStringLiteral("%1 at line %2").arg(xml.errorString()).arg(xml.lineNumber());
    return tables;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::vector<std::string> partIds(const ReportContent &c)
{
    std::vector<std::string> ids;
    for (const ReportPart &p : c.parts)
        ids.push_back(p.id);
    return ids;
}

//! The part of \a c with id \a id (the first: a run's ranks repeat them).
const ReportPart &partNamed(const ReportContent &c, std::string_view id)
{
    for (const ReportPart &p : c.parts)
        if (p.id == id)
            return p;
    static const ReportPart none;
    return none;
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // The generator's trace with memory events: steps, GPU work, modules, memory.
        m_path = test::tempDir() + QStringLiteral("/report-demo.json");
        const test::ProcessResult gen = test::run(test::gentracePath(),
            {QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--memory"), m_path});
        QCOMPARE(gen.exitCode, 0);
        OpenResult opened = openTrace(m_path.toStdString());
        QVERIFY2(opened.trace, opened.error.c_str());
        m_trace = opened.trace;
    }

    void partsInOrderAndOnlyWithTheirData()
    {
        const ReportContent c = traceReport(*m_trace);
        QCOMPARE(partIds(c),
            (std::vector<std::string> {"findings", "trace", "gpu-time", "top-pairs",
                "backward-heavy", "modules", "speed-up", "critical-path", "memory", "timeline"}));
        QVERIFY(c.timelineStep >= 0 && c.timelineRow >= 0);
        // The timeline shows the step of median length: steps 10, 11, 12 sorted by length.
        const auto &steps = m_trace->graph->steps();
        std::vector<TimeNs> lengths;
        for (const ProfilerStep &s : steps)
            lengths.push_back(s.end - s.start);
        std::vector<TimeNs> sorted = lengths;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(lengths[size_t(c.timelineStep)], sorted[1]);
        QCOMPARE(m_trace->graph->rows()[size_t(c.timelineRow)].step,
            steps[size_t(c.timelineStep)].number);
        // Issue #57: one op in one module in three steps: each bar says its step and row.
        const std::vector<std::string> &labels = partNamed(c, "top-pairs").charts[0].labels;
        QCOMPARE(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());
        for (const std::string &label : labels)
            QVERIFY2(label.find(" · step 1") != std::string::npos, label.c_str());
        // Issue #58: first, what to fix first, as --findings and the Findings page list it.
        const CellTable &findings = partNamed(c, "findings").tables[0].table;
        const std::vector<StepFinding> &expected = m_trace->stepFindings();
        QVERIFY(!expected.empty() && expected[0].saving);
        QCOMPARE(findings.rowCount(), expected.size());
        QCOMPARE(findings.text(0, 0), microsText(*expected[0].saving));
        QCOMPARE(findings.text(0, 3), expected[0].how);

        // A trace without steps, GPU work or memory: the trace part, its critical path, and its
        // pairs ranked by CPU time: aten::add (5 + 30 µs) above aten::mm (10 + 10 µs).
        auto plain = test::link(test::traceWith(
            R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":10,"args":{"Sequence number":1,"Fwd thread id":0}},)"
            R"({"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":20,"dur":5,"args":{"Sequence number":2,"Fwd thread id":0}},)"
            R"({"ph":"X","cat":"cpu_op","name":"AddBackward0","pid":1,"tid":2,"ts":40,"dur":30,"args":{"Sequence number":2,"Fwd thread id":1}},)"
            R"({"ph":"X","cat":"cpu_op","name":"MmBackward0","pid":1,"tid":2,"ts":80,"dur":10,"args":{"Sequence number":1,"Fwd thread id":1}})"));
        QVERIFY(plain);
        const ReportContent cpuOnly = traceReport(*plain);
        QCOMPARE(
            partIds(cpuOnly), (std::vector<std::string> {"trace", "top-pairs", "critical-path"}));
        // Its critical path: the whole trace's 90 µs (HTA's model: the backward thread's 30 + 10).
        QVERIFY2(cpuOnly.parts[2].text.find("of the whole trace") != std::string::npos
                && cpuOnly.parts[2].text.find("the step model") != std::string::npos
                && cpuOnly.parts[2].text.find(": 90.000 µs.") != std::string::npos,
            cpuOnly.parts[2].text.c_str());
        QCOMPARE(cpuOnly.parts[1].charts[0].labels,
            (std::vector<std::string> {"aten::add", "aten::mm"}));
        // No GPU work, no collective: the what-if table has no rows, and says why.
        const ReportTable &whatIfs = cpuOnly.parts[2].tables.back();
        QCOMPARE(whatIfs.table.rowCount(), size_t(0));
        QVERIFY2(whatIfs.whyEmpty.starts_with("None: the path holds no GPU work"),
            whatIfs.whyEmpty.c_str());
        const QString html = test::tempDir() + QStringLiteral("/cpu-only.html");
        QString error;
        QVERIFY2(writeReport(cpuOnly, plain, html, QPageSize::A4, error), qPrintable(error));
        const QString text = QString::fromStdString(test::traceText(html));
        QVERIFY(text.contains(QStringLiteral("<p class=\"empty\">None: the path holds no GPU")));
        QVERIFY(!text.contains(QStringLiteral("<caption>What-if")));
        QCOMPARE(cpuOnly.parts[1].charts[0].values[0], (std::vector<double> {5.0, 30.0}));
    }

    void htmlIsSelfContainedWithTheExportsNumbers()
    {
        const QString path = test::tempDir() + QStringLiteral("/report.html");
        QString error;
        QVERIFY2(writeReport(traceReport(*m_trace), m_trace, path, QPageSize::A4, error),
            qPrintable(error));
        const QByteArray html = readAll(path);
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QVERIFY2(html.size() < 3'000'000, qPrintable(QString::number(html.size())));
        QString parseError;
        QStringList references;
        const Tables tables = parseHtml(html, &parseError, &references);
        QVERIFY2(parseError.isEmpty(), qPrintable(parseError));
        // Only inline data: the timeline's PNG; no scripts, style sheets or links elsewhere.
        QCOMPARE(references, QStringList {QStringLiteral("data:image/png;base64,iVBORw0K")});
        QVERIFY(!html.contains("url("));
        QVERIFY(html.contains("<svg")); // the charts, inline and vector
        // Wide tables scroll inside their box, not the page.
        QVERIFY(html.contains(".table { overflow-x: auto"));
        QCOMPARE(html.count("<div class=\"table\"><table>"), html.count("<table>"));

        // The top pairs: the rows of --export-pairs with the most fwd + bwd GPU time, as the
        // table's own numbers order them (a second computation of the ranking).
        const PairTable &pairs = *m_trace->pairTable();
        std::vector<size_t> order(pairs.rowCount());
        for (size_t r = 0; r < order.size(); ++r)
            order[r] = r;
        auto cost = [&](size_t r) {
            return pairs.number(r, PairTable::FwdGpuUs) + pairs.number(r, PairTable::BwdGpuUs);
        };
        std::stable_sort(
            order.begin(), order.end(), [&](size_t a, size_t b) { return cost(a) > cost(b); });
        const auto &top = tables.at(QStringLiteral("top-pairs")).at(0);
        QCOMPARE(top[0].size(), 7); // the header: fwd_name … bwd_gpu_us
        QCOMPARE(top.size(), size_t(16)); // header + 15 rows
        for (size_t i = 0; i < 15; ++i) {
            const size_t r = order[i];
            const QStringList &cells = top[i + 1];
            QCOMPARE(cells[0], QString::fromStdString(pairs.text(r, PairTable::FwdName)));
            // As the window's ruler: ms since the trace's start.
            const double ms
                = (pairs.number(r, PairTable::FwdTs) - double(m_trace->model->minTime)) / 1e6;
            QCOMPARE(cells[1], QString::number(ms, 'f', 3) + QStringLiteral(" ms"));
            QCOMPARE(cells[5], QString::fromStdString(pairs.text(r, PairTable::FwdGpuUs)));
            QCOMPARE(cells[6], QString::fromStdString(pairs.text(r, PairTable::BwdGpuUs)));
        }
        // Where speed-up is available: by time above the roofline, largest first; the rates are
        // the export's, to four digits; above = kernel − roofline.
        const auto &speedup = tables.at(QStringLiteral("speed-up")).at(0);
        QVERIFY(speedup.size() > 2);
        const qsizetype columns = speedup[0].size();
        for (size_t i = 1; i < speedup.size(); ++i) {
            const QStringList &cells = speedup[i];
            QVERIFY(std::fabs(cells[columns - 3].toDouble() - cells[columns - 2].toDouble()
                        - cells[columns - 1].toDouble())
                < 2e-3);
            if (i > 1)
                QVERIFY(speedup[i - 1][columns - 1].toDouble() >= cells[columns - 1].toDouble());
        }
        // Memory: what fills cuda:0 at its peak, by category, adding up to the peak the profiler
        // wrote (Total Allocated): the Memory tab's "peak" bar.
        const auto &peak = tables.at(QStringLiteral("memory")).at(1);
        const PeakComposition &composition = m_trace->memoryPeaks().front();
        int64_t alive = 0;
        size_t shown = 0;
        for (size_t c = 0; c < composition.bytes.size(); ++c) {
            alive += composition.bytes[c];
            if (composition.bytes[c] == 0)
                continue;
            ++shown;
            QCOMPARE(peak[shown][0], QString::fromLatin1(liveCategoryName(LiveCategory(c))));
            QCOMPARE(
                peak[shown][1], QString::fromStdString(bytesText(double(composition.bytes[c]))));
        }
        QCOMPARE(peak.size(), shown + 1);
        QCOMPARE(alive, m_trace->memory().devices().back().peakAllocated);
        // ... then the pairs holding most, by held_bytes of the export.
        const auto &held = tables.at(QStringLiteral("memory")).at(2);
        size_t bestHeld = 0;
        for (size_t r = 0; r < pairs.rowCount(); ++r)
            bestHeld
                = std::max(bestHeld, size_t(std::max(0.0, pairs.number(r, PairTable::HeldBytes))));
        QCOMPARE(held[1][4], QString::fromStdString(bytesText(double(bestHeld)))); // 32.1 MiB
        QVERIFY(bestHeld > 0);
        // GPU time per step: the rows of --export-steps, times as ms since the trace's start;
        // span = busy + idle, the parts split busy, and idle is the step's TraceLens idle,
        // computed apart (analysis/gputime).
        const auto &gpu = tables.at(QStringLiteral("gpu-time")).at(0);
        const std::vector<StepGpuTime> tracelens = gpuTimePerStep(*m_trace->graph);
        QCOMPARE(gpu.size(), m_trace->graph->steps().size() + 1);
        QVERIFY(gpu[0].size() > 7);
        const auto ms = [](const QString &cell) {
            return QString(cell).remove(QStringLiteral(" ms")).toDouble();
        };
        for (size_t i = 1; i < gpu.size(); ++i) {
            const GpuTimeBreakdown &tl = tracelens[i - 1].time;
            const double spanUs = (ms(gpu[i][4]) - ms(gpu[i][3])) * 1e3;
            const double busy = gpu[i][5].toDouble(), idle = gpu[i][6].toDouble();
            double parts = 0;
            for (qsizetype c = 7; c < gpu[0].size(); ++c)
                parts += gpu[i][c].toDouble();
            QVERIFY(std::abs(spanUs - busy - idle) < 1.001); // start and end to the µs
            QVERIFY(std::abs(busy - parts) < 0.008);
            QCOMPARE(busy, double(tl.busy) / 1e3);
            QCOMPARE(idle, double(tl.idle) / 1e3);
            const double cpuStart
                = double(m_trace->graph->steps()[i - 1].start - m_trace->model->minTime) / 1e6;
            QCOMPARE(gpu[i][1], QString::number(cpuStart, 'f', 3) + QStringLiteral(" ms"));
        }
    }

    // Backward dearer than forward, by hand: E (fwd 20, bwd 5000 µs) is the dearest pair but not
    // the dearest forward (B, 1000 µs); C's forward (5 µs) is under 1 % of that and left out.
    void backwardHeavyPairs()
    {
        test::RankBuilder t(0, 1);
        t.step(1, 0, 100'000)
            .pair("aten::a", "ABackward0", 1, 1'000, 100, 300)
            .pair("aten::b", "BBackward0", 2, 11'000, 1'000, 1'500)
            .pair("aten::c", "CBackward0", 3, 21'000, 5, 500)
            .pair("aten::e", "EBackward0", 4, 31'000, 20, 5'000);
        auto trace = test::link(t.json());
        QVERIFY(trace);
        const ReportContent c = traceReport(*trace);
        // The trace part reads distributedInfo (RankBuilder writes rank 0 of 1, nccl).
        const CellTable &info = partNamed(c, "trace").tables[0].table;
        bool distributed = false;
        for (size_t r = 0; r < info.rowCount(); ++r) {
            if (info.text(r, 0) == "Distributed") {
                QCOMPARE(info.text(r, 1), std::string("rank 0 of 1 (nccl)"));
                distributed = true;
            }
        }
        QVERIFY(distributed);
        const auto it = std::find_if(c.parts.begin(), c.parts.end(),
            [](const ReportPart &p) { return p.id == "backward-heavy"; });
        QVERIFY(it != c.parts.end());
        const CellTable &heavy = it->tables[0].table;
        QCOMPARE(heavy.rowCount(), size_t(3));
        const size_t ratio = heavy.columnCount() - 1;
        QCOMPARE(heavy.columnName(ratio), std::string_view("bwd_over_fwd"));
        QCOMPARE(heavy.text(0, 0), std::string("aten::e"));
        QCOMPARE(heavy.text(0, ratio), std::string("250.00"));
        QCOMPARE(heavy.text(1, 0), std::string("aten::a"));
        QCOMPARE(heavy.text(1, ratio), std::string("3.00"));
        QCOMPARE(heavy.text(2, 0), std::string("aten::b"));
        QCOMPARE(heavy.text(2, ratio), std::string("1.50"));
        QCOMPARE(heavy.columnName(1), std::string_view("module")); // which module called it

        // No backward dearer than its forward: no such part.
        test::RankBuilder cheap(0, 1);
        cheap.step(1, 0, 100'000)
            .pair("aten::a", "ABackward0", 1, 1'000, 300, 100)
            .pair("aten::b", "BBackward0", 2, 11'000, 1'000, 1'000);
        auto even = test::link(cheap.json());
        QVERIFY(even);
        const std::vector<std::string> ids = partIds(traceReport(*even));
        QVERIFY(std::find(ids.begin(), ids.end(), "backward-heavy") == ids.end());
    }

    // A checkpointed trace's report states the trade-off: the recompute's total and share, per
    // module, and the pairs re-run with what each re-run cost, as the exports have them.
    void checkpointTradeOff()
    {
        const QString path = test::tempDir() + QStringLiteral("/checkpoint.json");
        QCOMPARE(
            test::run(test::gentracePath(), {QStringLiteral("--checkpoint"), path}).exitCode, 0);
        OpenResult opened = openTrace(path.toStdString());
        QVERIFY(opened.trace);
        const OpGraph &g = *opened.trace->graph;
        const ReportContent c = traceReport(*opened.trace);
        const auto it = std::find_if(c.parts.begin(), c.parts.end(),
            [](const ReportPart &p) { return p.id == "checkpointing"; });
        QVERIFY(it != c.parts.end());
        // The total as --summary's recompute_gpu_us has it.
        const QJsonObject summary = QJsonDocument::fromJson(
            QByteArray::fromStdString(summaryJson(*opened.trace->model, g, 0)))
                                        .object();
        const double recomputeUs = summary[QStringLiteral("recompute_gpu_us")].toDouble();
        QVERIFY(recomputeUs > 0);
        QVERIFY2(
            it->text.find(durationText(recomputeUs * 1e3)) != std::string::npos, it->text.c_str());
        QCOMPARE(it->tables.size(), size_t(2));
        // The pairs re-run, dearest re-run first, with --export-pairs' recomputed_gpu_us.
        const PairTable pairs(g);
        const auto rerunUs = [&](size_t r) {
            const std::string text = pairs.text(r, PairTable::RecomputedGpuUs);
            return text.empty() ? 0.0 : std::stod(text);
        };
        double dearest = 0, sum = 0;
        for (size_t r = 0; r < pairs.rowCount(); ++r) {
            dearest = std::max(dearest, rerunUs(r));
            sum += rerunUs(r);
        }
        const CellTable &rerun = it->tables[1].table;
        QCOMPARE(rerun.columnName(4), std::string_view("recomputed_gpu_us"));
        QCOMPARE(std::stod(rerun.text(0, 4)), dearest);
        // The recompute is charged to the ops re-run: the re-run column adds up to the total.
        QVERIFY2(
            std::abs(sum - recomputeUs) < 0.01 * recomputeUs, qPrintable(QString::number(sum)));
    }

    // Export Report from the window: its timeline picture shows the step and the pair on screen.
    void focusFollowsTheWindow()
    {
        const OpGraph &g = *m_trace->graph;
        const auto &steps = g.steps();
        ReportFocus focus;
        focus.step = steps.back().number;
        ReportContent c = traceReport(*m_trace, focus);
        QCOMPARE(c.timelineStep, int(steps.size() - 1));
        QCOMPARE(g.rows()[size_t(c.timelineRow)].step, steps.back().number);
        // A selected pair wins, with its own step.
        int row = -1;
        for (size_t r = 0; r < g.rows().size() && row < 0; ++r) {
            if (g.rows()[r].step == steps.front().number && g.rows()[r].forward != kNoSlice)
                row = int(r);
        }
        QVERIFY(row >= 0);
        focus.row = row;
        c = traceReport(*m_trace, focus);
        QCOMPARE(c.timelineRow, row);
        QCOMPARE(c.timelineStep, 0);
    }

    // A table too wide for the page is laid out in bands, each led by the first column, that
    // together hold every column at no less than its widest cell; narrow text wraps instead.
    void pdfTablesCutNoNumber()
    {
        CellTable t;
        t.addColumn("file", Cell::Text, "File");
        for (int c = 0; c < 14; ++c)
            t.addColumn("value_us." + std::to_string(c), Cell::Number,
                "Backward GPU r" + std::to_string(c) + " (µs)");
        for (int r = 0; r < 3; ++r) {
            t.addRow();
            t.add("/traces/run-with-a-long-name/rank" + std::to_string(r) + ".pt.trace.json.gz");
            for (int c = 0; c < 14; ++c)
                t.add("4458676416788.06" + std::to_string(c % 10));
        }
        const QFont body(QStringLiteral("DejaVu Sans"), 8), head(QStringLiteral("DejaVu Sans"), 8);
        const QFontMetricsF fm(body);
        const double page = 700;
        const std::vector<PdfTableBand> bands = planPdfTable(t, page, body, head);
        QVERIFY(bands.size() > 1);
        std::vector<int> seen(t.columnCount(), 0);
        for (const PdfTableBand &band : bands) {
            QCOMPARE(band.columns.front(), size_t(0));
            QCOMPARE(band.widths.size(), band.columns.size());
            double total = 0;
            for (size_t i = 0; i < band.columns.size(); ++i) {
                const size_t c = band.columns[i];
                ++seen[c];
                total += band.widths[i];
                if (c > 0)
                    QVERIFY(band.widths[i]
                        >= fm.horizontalAdvance(QStringLiteral("4458676416788.060")));
            }
            QVERIFY(total <= page + 0.5);
        }
        for (size_t c = 1; c < seen.size(); ++c)
            QCOMPARE(seen[c], 1);
        // Three columns fit: the path wraps rather than pushing a number off the page.
        CellTable narrow;
        narrow.addColumn("file", Cell::Text, "File");
        narrow.addColumn("busy_us", Cell::Number, "busy (µs)");
        narrow.addRow();
        narrow.add(std::string(300, 'x'));
        narrow.add("12345.678");
        const std::vector<PdfTableBand> one = planPdfTable(narrow, page, body, head);
        QCOMPARE(one.size(), size_t(1));
        QVERIFY(one[0].widths[0] + one[0].widths[1] <= page + 0.5);
        QVERIFY(one[0].widths[1] >= fm.horizontalAdvance(QStringLiteral("12345.678")));
        // A number in the first column keeps its width while the text beside it wraps; a lone
        // column is never dropped.
        CellTable numberFirst;
        numberFirst.addColumn("step", Cell::Number, "Step");
        numberFirst.addColumn("a", Cell::Text, "A");
        numberFirst.addColumn("b", Cell::Text, "B");
        numberFirst.addRow();
        numberFirst.add("123456789012345678");
        numberFirst.add(std::string(200, 'a'));
        numberFirst.add(std::string(200, 'b'));
        const std::vector<PdfTableBand> first = planPdfTable(numberFirst, 400, body, head);
        QCOMPARE(first.size(), size_t(1));
        QVERIFY(first[0].widths[0] >= fm.horizontalAdvance(QStringLiteral("123456789012345678")));
        CellTable lone;
        lone.addColumn("file", Cell::Text, "File");
        lone.addRow();
        lone.add(std::string(400, 'x'));
        QCOMPARE(planPdfTable(lone, 300, body, head).size(), size_t(1));
    }

    void pdfPagesSizeAndText_data()
    {
        QTest::addColumn<bool>("letter");
        QTest::addColumn<QString>("mediaBox");
        QTest::newRow("A4") << false << QStringLiteral("0 0 595 842");
        QTest::newRow("Letter") << true << QStringLiteral("0 0 612 792");
    }
    void pdfPagesSizeAndText()
    {
        QFETCH(bool, letter);
        QFETCH(QString, mediaBox);
        const ReportContent content = traceReport(*m_trace);
        const QString path = test::tempDir() + QStringLiteral("/report-%1.pdf").arg(letter);
        QString error;
        QVERIFY2(
            writeReport(content, m_trace, path, letter ? QPageSize::Letter : QPageSize::A4, error),
            qPrintable(error));
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF-"));
        // Parts flow from page to page (none alone on a mostly blank page): fewer pages than
        // parts, and more than one; every page of the chosen size.
        const qsizetype pages = QString::fromLatin1(pdf).count(
            QRegularExpression(QStringLiteral("/Type\\s*/Page(?!s)")));
        QVERIFY2(pages > 1 && pages < qsizetype(content.parts.size()),
            qPrintable(QString::number(pages)));
        const QRegularExpression box(QStringLiteral("/MediaBox \\[([0-9. ]+)\\]"));
        auto it = box.globalMatch(QString::fromLatin1(pdf));
        int boxes = 0;
        while (it.hasNext()) {
            const QStringList n = it.next().captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            QStringList rounded;
            for (const QString &v : n)
                rounded << QString::number(qRound(v.toDouble()));
            QCOMPARE(rounded.join(QLatin1Char(' ')), mediaBox);
            ++boxes;
        }
        QCOMPARE(boxes, int(pages));
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty())
            QSKIP("pdftotext (Debian's poppler-utils) is not installed: the PDF's text is not "
                  "checked");
        QProcess p;
        p.start(pdftotext, {QStringLiteral("-layout"), path, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(60000));
        // pdftotext gives the font's ligatures as such ("ﬁ"): read them as their letters.
        const QString text = QString::fromUtf8(p.readAllStandardOutput())
                                 .replace(QChar(0xFB01), QLatin1String("fi"))
                                 .replace(QChar(0xFB02), QLatin1String("fl"));
        for (const ReportPart &part : content.parts)
            QVERIFY2(text.contains(QString::fromStdString(part.title)), part.title.c_str());
        // Every number of every table is there whole, exactly as exported: none is elided.
        for (const ReportPart &part : content.parts) {
            for (const ReportTable &t : part.tables) {
                for (size_t c = 0; c < t.table.columnCount(); ++c) {
                    if (!isNumericCell(t.table.columns()[c].cell))
                        continue;
                    for (size_t r = 0; r < t.table.rowCount(); ++r)
                        QVERIFY2(text.contains(QString::fromStdString(t.table.text(r, c))),
                            (part.id + ": " + t.table.text(r, c)).c_str());
                }
            }
        }
    }

    void runAndComparisonReports()
    {
        static test::RankBuilder r0(0, 2), r1(1, 2, 40);
        r0.step(1, 0, 3000).pair("aten::mm", "MmBackward0", 1, 100, 30, 40).comm(1000, 400, "0");
        r1.step(1, 0, 3000).pair("aten::mm", "MmBackward0", 1, 100, 30, 90).comm(1300, 100, "0");
        auto run = test::runOf({&r0, &r1});
        QVERIFY(run);
        const ReportContent c = runReport(*run, run->sources[0]->trace.get());
        // What to fix across the ranks, the first rank's parts (no memory; its module tree is by
        // op name), then the run's.
        QCOMPARE(partIds(c),
            (std::vector<std::string> {"run-findings", "findings", "trace", "gpu-time", "top-pairs",
                "backward-heavy", "modules", "critical-path", "ranks", "collectives",
                "run-critical-path", "timeline"}));
        QCOMPARE(partNamed(c, "trace").title, std::string("Rank 0: The trace"));
        QCOMPARE(partNamed(c, "ranks").tables[0].table.rowCount(), size_t(2));
        // Rank 1 arrived 300 µs after rank 0.
        const CellTable &coll = partNamed(c, "collectives").tables[0].table;
        QCOMPARE(coll.text(0, 3), std::string("300.000"));
        QCOMPARE(coll.text(0, 4), std::string("1"));
        // The run's findings name that last arriver (issue #58): rank 1, on time but slower.
        const CellTable &fix = partNamed(c, "run-findings").tables[0].table;
        bool straggler = false;
        for (size_t r = 0; r < fix.rowCount(); ++r)
            straggler = straggler
                || fix.text(r, 2).starts_with("rank 1 arrives last at 1 collective on the critical "
                                              "path of ProfilerStep#1: first at collective 0");
        QVERIFY(straggler);
        // Across the ranks, the path accounts for the steps' 3000 µs: through rank 1's work to
        // its all-reduce's launch, then rank 0's all-reduce from rank 1's arrival (1300) to its
        // end (1400), then idle to the steps' end. Rank 0 could have arrived 300 µs later, rank 1
        // (the last) not at all; both began the step at once.
        const ReportPart &across = partNamed(c, "run-critical-path");
        QVERIFY2(across.text.find(": 3000.000 µs.") != std::string::npos, across.text.c_str());
        const CellTable &ranks = across.tables.back().table;
        QCOMPARE(ranks.text(0, 2), std::string("300.000"));
        QCOMPARE(ranks.text(1, 2), std::string("0.000"));
        QCOMPARE(ranks.text(1, 3), std::string("0.000"));

        std::string error;
        auto compared = ComparedTraces::make(m_trace, m_trace, {}, error);
        QVERIFY2(compared, error.c_str());
        const ReportContent diff = comparisonReport(*compared);
        std::vector<std::string> ids = partIds(traceReport(*m_trace));
        ids.insert(ids.end() - 1, "changes"); // before the timeline
        ids.insert(ids.begin(), "comparison"); // the window's headline first
        QCOMPARE(partIds(diff), ids);
        QVERIFY2(diff.parts[0].text.find(" matched · ") != std::string::npos
                && diff.parts[0].text.find("GPU ") != std::string::npos,
            diff.parts[0].text.c_str());
        QCOMPARE(partNamed(diff, "trace").title, std::string("Candidate: The trace"));
        // The changes' GPU columns are --export-diff's base, candidate and delta, cell for cell.
        const DiffTable table(*compared->diff, DiffOrder::ByChange);
        const CellTable &changes = diff.parts[ids.size() - 2].tables[0].table;
        QCOMPARE(changes.rowCount(), std::min<size_t>(15, table.rowCount()));
        for (size_t i = 0; i < 3; ++i) {
            const size_t fwd = DiffTable::metricColumn(DiffMetric::FwdGpu) + i;
            const size_t bwd = DiffTable::metricColumn(DiffMetric::BwdGpu) + i;
            QCOMPARE(changes.columnName(3 + i), table.columnName(fwd));
            QCOMPARE(changes.columnName(6 + i), table.columnName(bwd));
            QCOMPARE(changes.text(0, 3 + i), table.text(0, fwd));
            QCOMPARE(changes.text(0, 6 + i), table.text(0, bwd));
        }
        QVERIFY(changes.columnName(3).starts_with("base_"));
        QVERIFY(changes.columnName(5).starts_with("delta_"));
    }

    void commandLine()
    {
        QCOMPARE(
            test::run(test::appPath(), {QStringLiteral("--report"), QStringLiteral("-"), m_path})
                .exitCode,
            1); // a report is a file, never standard output
        const QString out = test::tempDir() + QStringLiteral("/cli-report.pdf");
        QFile::remove(out);
        test::ProcessResult r = test::run(test::appPath(),
            {QStringLiteral("--report"), out, QStringLiteral("--page"), QStringLiteral("letter"),
                m_path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(
            QString::fromLatin1(readAll(out))
                .contains(QRegularExpression(QStringLiteral("/MediaBox \\[0 0 612(\\.0+)? 792"))));
        r = test::run(test::appPath(), {QStringLiteral("--page"), QStringLiteral("a4"), m_path});
        QCOMPARE(r.exitCode, 1); // --page without --report
        r = test::run(test::appPath(),
            {QStringLiteral("--report"), QStringLiteral("/nonexistent-dir/r.html"), m_path});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(QString::fromUtf8(r.err).contains(QStringLiteral("/nonexistent-dir/r.html")));
    }

private:
    QString m_path;
    std::shared_ptr<const LoadedTrace> m_trace;
};

QTEST_MAIN(TestReport)
#include "tst_report.moc"
