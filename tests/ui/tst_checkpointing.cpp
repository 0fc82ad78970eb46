// SPDX-License-Identifier: MIT
// Activation checkpointing in the window (docs/recompute.md): recompute spans hatched in the
// timeline, the details panel tying a recomputation to its original, the "Checkpointed only"
// filter of the pair table. The trace is gentrace's checkpointed model, whose truth file says
// which rows recompute touches.
#include "common/selectioncontroller.h"
#include "common/timeformat.h"
#include "testutil.h"
#include "timeline/timelineview.h"
#include "trace/detailspanel.h"
#include "trace/tracetab.h"
#include "window/mainwindow.h"

#include <QCheckBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTableView>
#include <QTest>
#include <QTreeWidgetItemIterator>

#include <algorithm>

using namespace ks;

namespace {

/*!
 * Spread of lightness along the right part of \a slice's row, with the slice filling the view
 * (its name is drawn at the left): a flat fill barely varies, a hatched one swings between the
 * fill and the hatch lines.
 */
int lightnessSpread(TimelineView *timeline, const TraceModel &m, SliceId slice)
{
    timeline->zoomToInterval(m.slices.start[slice], m.slices.end(slice));
    timeline->revealSlice(slice);
    const std::optional<QPoint> centre = timeline->slicePoint(slice);
    if (!centre)
        return -1;
    const QImage image = timeline->grab().toImage();
    int lo = 255, hi = 0;
    // Right of the centre (the name is drawn at the left), well inside the slice.
    const int from = centre->x() + 20;
    const int to = centre->x() + (centre->x() - TimelineView::kLabelWidth) / 2;
    for (int x = from; x < to; ++x) {
        for (int dy = -4; dy <= 4; ++dy) {
            const int l = image.pixelColor(x, centre->y() + dy).lightness();
            lo = std::min(lo, l);
            hi = std::max(hi, l);
        }
    }
    return hi - lo;
}

} // namespace

class TestCheckpointing : public QObject {
    Q_OBJECT
    QString m_checkpointed;
    QString m_plain;
    QJsonObject m_truth;

    static TraceTab *open(MainWindow &window, const QString &path)
    {
        OpenResult opened = openTrace(path.toStdString());
        if (!opened.trace)
            return nullptr;
        window.resize(1600, 1000);
        TraceTab *tab = window.addTrace(opened.trace, path);
        window.show();
        return tab;
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<ks::TraceTab *>();
        m_checkpointed = test::tempDir() + QStringLiteral("/ck.json");
        m_plain = test::tempDir() + QStringLiteral("/plain.json");
        const QString truth = m_checkpointed + QStringLiteral(".truth.json");
        QCOMPARE(
            test::run(test::gentracePath(),
                {QStringLiteral("--checkpoint"), QStringLiteral("--truth"), truth, m_checkpointed})
                .exitCode,
            0);
        QCOMPARE(test::run(test::gentracePath(), {m_plain}).exitCode, 0);
        QFile f(truth);
        QVERIFY(f.open(QIODevice::ReadOnly));
        m_truth = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(m_truth[QStringLiteral("recompute_gpu_ns")].toInteger() > 0);
    }

    // A recomputed op is hatched; the forward op it repeats, drawn the same way, is flat.
    void timelineHatchesRecomputeSpans()
    {
        MainWindow window;
        TraceTab *tab = open(window, m_checkpointed);
        QVERIFY(tab);
        const OpGraph &g = *tab->selection()->trace().graph;
        const TraceModel &m = g.model();
        QVERIFY(!g.recomputations().empty());
        // The longest recomputed op, so that it is tall and wide enough to sample.
        const Recomputation &r = *std::max_element(g.recomputations().begin(),
            g.recomputations().end(), [&](const Recomputation &a, const Recomputation &b) {
                return m.slices.dur[a.op] < m.slices.dur[b.op];
            });
        QVERIFY(r.original != kNoSlice);
        const int hatched = lightnessSpread(tab->timeline(), m, r.op);
        const int flat = lightnessSpread(tab->timeline(), m, r.original);
        QVERIFY2(hatched > 40 && flat >= 0 && flat < 10,
            qPrintable(QStringLiteral("hatched %1, flat %2").arg(hatched).arg(flat)));
    }

    // Details of a recomputed op name the forward op it repeats; a click selects that op, whose
    // details list the re-run.
    void detailsTieRecomputeToItsOriginal()
    {
        MainWindow window;
        TraceTab *tab = open(window, m_checkpointed);
        QVERIFY(tab);
        const OpGraph &g = *tab->selection()->trace().graph;
        const Recomputation &r = g.recomputations().front();
        auto *details = window.findChild<DetailsPanel *>();
        QVERIFY(details);
        auto item = [&](const QString &field) -> QTreeWidgetItem * {
            for (QTreeWidgetItemIterator it(details); *it; ++it) {
                if ((*it)->text(0) == field)
                    return *it;
            }
            return nullptr;
        };
        tab->selection()->select(r.op);
        QTreeWidgetItem *of = item(QStringLiteral("recompute of"));
        QVERIFY(of);
        const std::string_view name = g.model().sliceName(r.original);
        const QString expected
            = QString::fromUtf8(name.data(), qsizetype(name.size())) + QStringLiteral(" @ ");
        QVERIFY2(
            of->text(1).startsWith(expected) && of->text(1).contains(QStringLiteral("(forward)")),
            qPrintable(of->text(1)));
        QVERIFY(item(QStringLiteral("re-run inside")));
        emit details->itemClicked(of, 1);
        QCOMPARE(tab->selection()->current(), r.original);
        QVERIFY(item(QStringLiteral("recomputed")));
        QVERIFY(!item(QStringLiteral("recompute of")));
    }

    // The GPU list of the backward node that re-ran forward work marks that work as recompute;
    // the pair's backward duration says which events it times, as the pair table's bwd_dur.
    void detailsMarkRecomputeKernelsAndNameBwdDur()
    {
        MainWindow window;
        TraceTab *tab = open(window, m_checkpointed);
        QVERIFY(tab);
        const OpGraph &g = *tab->selection()->trace().graph;
        const Recomputation &r = g.recomputations().front();
        const BackwardNode &host = g.nodes()[r.hostNode];
        auto *details = window.findChild<DetailsPanel *>();
        QVERIFY(details);
        tab->selection()->select(host.node);
        int marked = 0;
        QString bwdDur;
        for (QTreeWidgetItemIterator it(details); *it; ++it) {
            marked += (*it)->text(0).endsWith(QStringLiteral(" · recompute"));
            if ((*it)->text(0) == QStringLiteral("backward dur"))
                bwdDur = (*it)->text(1);
        }
        // By hand: the host node's GPU events whose launch lies inside a recomputed op.
        int expected = 0;
        for (SliceId k : g.gpuEventsUnder(host.node))
            expected += g.recomputationOf(g.launchOf(k)) >= 0;
        QVERIFY(expected > 0);
        QCOMPARE(marked, expected); // a node lists at most 500 GPU events; this one far fewer
        const PairRow &row = g.rows()[host.row];
        QVERIFY2(bwdDur.startsWith(formatDuration(double(row.backwardDur)))
                && bwdDur.contains(host.outer != host.node ? QStringLiteral("evaluate_function")
                                                           : QStringLiteral("node events")),
            qPrintable(bwdDur));
    }

    // "Checkpointed only" keeps exactly the rows the generator's truth says recompute touches;
    // a trace without checkpointing has the box disabled.
    void checkpointedOnlyFilter()
    {
        qsizetype expected = 0;
        for (const QJsonValue &v : m_truth[QStringLiteral("pairs")].toArray()) {
            const QJsonObject p = v.toObject();
            expected += p[QStringLiteral("recompute_gpu_ns")].toInteger() > 0
                || p[QStringLiteral("recomputed")].toBool();
        }
        QVERIFY(expected > 0);
        MainWindow window;
        TraceTab *tab = open(window, m_checkpointed);
        QVERIFY(tab);
        QVERIFY(tab->pairs()); // made when first shown or asked for
        auto *box = tab->findChild<QCheckBox *>(QStringLiteral("checkpointedOnly"));
        auto *view = tab->findChild<QTableView *>(QStringLiteral("pairTable"));
        QVERIFY(box && view);
        QVERIFY(box->isEnabled());
        const int all = view->model()->rowCount();
        QCOMPARE(qsizetype(all), m_truth[QStringLiteral("pairs")].toArray().size());
        box->setChecked(true);
        QTRY_COMPARE_WITH_TIMEOUT(qsizetype(view->model()->rowCount()), expected, 120000);
        box->setChecked(false);
        QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), all, 120000);

        MainWindow plainWindow;
        TraceTab *plain = open(plainWindow, m_plain);
        QVERIFY(plain);
        QVERIFY(plain->pairs());
        QVERIFY(!plain->findChild<QCheckBox *>(QStringLiteral("checkpointedOnly"))->isEnabled());
    }
};

QTEST_MAIN(TestCheckpointing)
#include "tst_checkpointing.moc"
