// SPDX-License-Identifier: MIT
// The table model behaves as Qt requires (QAbstractItemModelTester over every table it shows,
// through filters and sorts), and the table model's background work is safe: a sort while a filter
// runs gives filtered rows in the new order, and a model closed while its worker runs stops and
// waits for it.
#include "export/difftable.h"
#include "export/moduletable.h"
#include "export/pairgroups.h"
#include "export/pairtable.h"
#include "session/comparedtraces.h"
#include "table/tablemodel.h"
#include "testutil.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace ks;

namespace {

/*!
 * n rows: "name" = "op<i % 97>", "value" = (i × 7919) mod 10007, numeric. Big enough (over
 * TableModel::kSyncRows) to go to the worker.
 */
class NumberTable : public Table {
public:
    explicit NumberTable(size_t n)
        : m_n(n)
    {
    }
    size_t rowCount() const override { return m_n; }
    std::span<const ColumnSpec> columns() const override
    {
        static constexpr ColumnSpec kColumns[] = {{"name"}, {"value", Cell::Number}};
        return kColumns;
    }
    std::string text(size_t row, size_t column) const override
    {
        return column == 0 ? "op" + std::to_string(row % 97) : std::to_string(value(row));
    }
    double number(size_t row, size_t) const override { return double(value(row)); }
    static uint64_t value(size_t row) { return (uint64_t(row) * 7919) % 10007; }

private:
    size_t m_n;
};

//! No rows, and counts every read of a cell: with no rows, each read is out of range.
class EmptyTable : public Table {
public:
    size_t rowCount() const override { return 0; }
    std::span<const ColumnSpec> columns() const override
    {
        static constexpr ColumnSpec kColumns[] = {{"name"}, {"value", Cell::Number}};
        return kColumns;
    }
    std::string text(size_t, size_t) const override { return ++reads, std::string(); }
    bool textView(size_t, size_t, std::string_view &out) const override
    {
        ++reads;
        out = {};
        return true;
    }
    double number(size_t, size_t) const override { return ++reads, 0.0; }
    mutable std::atomic<int> reads {0};
};

//! Runs the tester over a model while filters and sorts change it.
void exercise(TableModel &model)
{
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy applied(&model, &TableModel::filterApplied);
    for (int c = 0; c < model.columnCount(); ++c) {
        model.sort(c, Qt::DescendingOrder);
        model.sort(c, Qt::AscendingOrder);
    }
    model.setFilter(QStringLiteral("a"), false);
    model.setFilter(QStringLiteral("^no match at all$"), true);
    model.setFilter(QString(), false);
    QTRY_VERIFY_WITH_TIMEOUT(!model.filterPending(), 120000);
}

} // namespace

class TestModels : public QObject {
    Q_OBJECT
    std::shared_ptr<const LoadedTrace> m_trace;

private slots:
    void initTestCase()
    {
        const QString demo = test::tempDir() + QStringLiteral("/demo.json");
        QCOMPARE(test::run(test::gentracePath(), {demo}).exitCode, 0);
        m_trace = openTrace(demo.toStdString()).trace;
        QVERIFY(m_trace);
    }

    void everyTableModelPassesTheTester()
    {
        const OpGraph &g = *m_trace->graph;
        std::string error;
        auto compared = ComparedTraces::make(m_trace, m_trace, {}, error);
        QVERIFY2(compared, error.c_str());
        const std::vector<std::shared_ptr<const Table>> tables
            = {std::make_shared<PairTable>(g), std::make_shared<PairGroupTable>(g),
                std::make_shared<KernelTable>(g), std::make_shared<ModuleTable>(m_trace->modules()),
                std::make_shared<DiffTable>(*compared->diff),
                std::make_shared<DiffGroupTable>(*compared->diff, DiffGrouping::Op),
                std::make_shared<NumberTable>(TableModel::kSyncRows * 3)};
        for (const auto &table : tables) {
            TableModel model(table, {0});
            exercise(model);
        }
    }

    // Issue: sorting an empty table by a text column read its row 0 (the pairs of a trace
    // with one op on each of its threads: a crash).
    void anEmptyTableIsSortedWithoutReadingACell()
    {
        auto table = std::make_shared<EmptyTable>();
        TableModel model(table, {0});
        exercise(model);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(table->reads.load(), 0);
    }

    // Issue: the filter's worker read the sort column while sort() wrote it, and a filter result
    // sorted by the old column was applied. Now a sort supersedes the filter in flight.
    void sortWhileFilteringGivesFilteredRowsInTheNewOrder()
    {
        auto table = std::make_shared<NumberTable>(TableModel::kSyncRows * 10);
        TableModel model(table, {0});
        QSignalSpy applied(&model, &TableModel::filterApplied);
        model.setFilter(QStringLiteral("op7"), false); // op7, op70…op79
        QVERIFY(model.filterPending());
        model.sort(1, Qt::DescendingOrder); // while the filter runs
        QTRY_VERIFY_WITH_TIMEOUT(!model.filterPending(), 120000);
        QVERIFY(applied.count() >= 1);
        // Worked out independently: the rows whose name contains "op7", by value, descending.
        std::vector<uint32_t> expected;
        for (uint32_t r = 0; r < table->rowCount(); ++r) {
            if (table->text(r, 0).find("op7") != std::string::npos)
                expected.push_back(r);
        }
        std::stable_sort(expected.begin(), expected.end(),
            [](uint32_t a, uint32_t b) { return NumberTable::value(a) > NumberTable::value(b); });
        QCOMPARE(model.rowCount(), int(expected.size()));
        QVERIFY(model.visibleRows() == expected);
    }

    // Issue: a tab closed while its filter ran left the worker using the destroyed model. The
    // model's destructor now stops the worker and waits for it: no predicate call runs after.
    void closingWhileFilteringStopsTheWorker()
    {
        auto table = std::make_shared<NumberTable>(TableModel::kSyncRows * 50);
        auto calls = std::make_shared<std::atomic<uint64_t>>(0);
        auto *model = new TableModel(table, {0});
        // A predicate with some work in it, so that the worker is still running when the model
        // goes (whatever the machine; if it were not, the check below would only pass trivially).
        model->setFilter(QString(), false, [calls](uint32_t row) {
            ++*calls;
            volatile uint64_t x = row;
            for (int i = 0; i < 500; ++i)
                x = x * 6364136223846793005ull + 1442695040888963407ull;
            return x != 0;
        });
        QTRY_VERIFY_WITH_TIMEOUT(calls->load() > 0, 120000); // the worker has started
        delete model;
        const uint64_t atDelete = calls->load();
        for (int i = 0; i < 20; ++i) {
            QCoreApplication::processEvents();
            QThread::yieldCurrentThread();
        }
        QCOMPARE(calls->load(), atDelete);
    }

    // A trace's tables keep it alive: a model (and its filter worker) that outlives the tab
    // that opened the trace still reads a live graph.
    void aTraceLivesAsLongAsItsTables()
    {
        const QString demo = test::tempDir() + QStringLiteral("/demo.json");
        std::shared_ptr<const LoadedTrace> trace = openTrace(demo.toStdString()).trace;
        QVERIFY(trace);
        const std::weak_ptr<const LoadedTrace> watch = trace;
        auto *model = new TableModel(trace->pairTable(), {PairTable::FwdName});
        const int rows = model->rowCount();
        QVERIFY(rows > 0);
        trace.reset();
        QVERIFY(!watch.expired());
        model->setFilter(QStringLiteral("linear"), false);
        QTRY_VERIFY_WITH_TIMEOUT(!model->filterPending(), 120000);
        QVERIFY(model->rowCount() > 0 && model->rowCount() < rows);
        delete model;
        QVERIFY(watch.expired());
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
