// SPDX-License-Identifier: MIT
// Issue #36: --export-db's SQLite database holds every export's table, cell for cell.
#include "analysis/compare/tracediff.h"
#include "analysis/time/kernelsummary.h"
#include "analysis/time/stepbreakdown.h"
#include "base/sha256.h"
#include "export/allocationtable.h"
#include "export/atomicfile.h"
#include "export/celltable.h"
#include "export/criticalpathtables.h"
#include "export/efficiencytable.h"
#include "export/kernelsummarytable.h"
#include "export/livetable.h"
#include "export/moduletable.h"
#include "export/pairtable.h"
#include "export/runtables.h"
#include "export/steptable.h"
#include "export/tabledatabase.h"
#include "report/criticalpathpart.h"
#include "report/findingspart.h"
#include "report/reportcontent.h"
#include "runbuilder.h"
#include "session/rankdatabase.h"
#include "session/rundatabase.h"
#include "testutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <tuple>

using namespace ks;
using namespace std::string_literals;

namespace {

//! A database opened read-only, for reading tables back.
class Reader {
public:
    explicit Reader(const std::string &path)
    {
        sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READONLY, nullptr);
    }
    ~Reader() { sqlite3_close(m_db); }
    Reader(const Reader &) = delete;
    Reader &operator=(const Reader &) = delete;

    //! The statement over \a sql, bound to \a rank when it has a ?; null when it fails.
    sqlite3_stmt *query(const std::string &sql, std::optional<int> rank = std::nullopt) const
    {
        sqlite3_stmt *st = nullptr;
        if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
            return nullptr;
        if (rank)
            sqlite3_bind_int(st, 1, *rank);
        return st;
    }

private:
    sqlite3 *m_db = nullptr;
};

/*!
 * Compares \a table with the rows of \a name read back (for \a rank when given, skipping the
 * leading rank column): same columns, rows in order, each cell the same text, number or NULL.
 */
bool sameTable(const Reader &db,
    const std::string &name,
    const Table &table,
    std::optional<int> rank,
    QString &why)
{
    const std::string sql
        = "SELECT * FROM \"" + name + "\"" + (rank ? " WHERE rank = ?" : ""); // in row order
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(
        db.query(sql, rank), sqlite3_finalize);
    if (!st) {
        why = QStringLiteral("no table ") + QString::fromStdString(name);
        return false;
    }
    const int skip = rank ? 1 : 0;
    if (sqlite3_column_count(st.get()) != int(table.columnCount()) + skip) {
        why = QString::fromStdString(name) + QStringLiteral(": column count");
        return false;
    }
    for (size_t c = 0; c < table.columnCount(); ++c)
        if (table.columnName(c) != sqlite3_column_name(st.get(), int(c) + skip)) {
            why = QString::fromStdString(name) + QStringLiteral(": column names");
            return false;
        }
    size_t row = 0;
    for (; sqlite3_step(st.get()) == SQLITE_ROW; ++row) {
        if (row >= table.rowCount())
            continue; // counted: more rows than the table has fail below
        for (size_t c = 0; c < table.columnCount(); ++c) {
            const int at = int(c) + skip;
            const std::string text = table.text(row, c);
            const int type = sqlite3_column_type(st.get(), at);
            bool same = false;
            if (type == SQLITE_NULL)
                same = text.empty();
            else if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
                same = !text.empty() && sqlite3_column_double(st.get(), at) == std::stod(text);
            else
                same = text == reinterpret_cast<const char *>(sqlite3_column_text(st.get(), at));
            if (!same) {
                why = QStringLiteral("%1 row %2 column %3: %4")
                          .arg(QString::fromStdString(name))
                          .arg(row)
                          .arg(QString::fromUtf8(table.columnName(c).data(),
                                   qsizetype(table.columnName(c).size())),
                              QString::fromStdString(text));
                return false;
            }
        }
    }
    if (row != table.rowCount()) {
        why = QString::fromStdString(name)
            + QStringLiteral(": row count %1, table %2").arg(row).arg(table.rowCount());
        return false;
    }
    return true;
}

/*!
 * \a wide, a run table with a column per rank (`NAME.R`), against what --export-db splits it
 * into: \a name holds its other columns (after \a key, the row's number, when \a wide has no
 * such column), and \a byRank a row per row and rank R with `NAME.R`'s cells (numbers, all of
 * them), none where all of them are empty.
 */
bool sameSplitTable(const Reader &db,
    const std::string &name,
    const std::string &byRank,
    const std::string &key,
    const Table &wide,
    QString &why)
{
    CellTable shared;
    std::vector<size_t> sharedColumns;
    std::map<size_t, std::pair<std::string, int>> perRank; // wide column → (NAME, R)
    const bool hasKey = std::any_of(wide.columns().begin(), wide.columns().end(),
        [&](const ColumnSpec &c) { return c.name == key; });
    if (!hasKey)
        shared.addColumn(key, Cell::Number, {});
    for (size_t c = 0; c < wide.columnCount(); ++c) {
        const std::string column(wide.columnName(c));
        const size_t dot = column.rfind('.');
        if (dot != std::string::npos && dot + 1 < column.size()
            && column.find_first_not_of("0123456789", dot + 1) == std::string::npos) {
            perRank[c] = {column.substr(0, dot), std::stoi(column.substr(dot + 1))};
            continue;
        }
        shared.addColumn(column, wide.columns()[c].cell, {});
        sharedColumns.push_back(c);
    }
    for (size_t row = 0; row < wide.rowCount(); ++row) {
        shared.addRow();
        if (!hasKey)
            shared.add(std::to_string(row));
        for (const size_t c : sharedColumns)
            shared.add(wide.text(row, c));
    }
    if (!sameTable(db, name, shared, {}, why))
        return false;
    // (row, R, NAME) → the stored number; NULLs are left out, as empty cells are.
    std::map<std::tuple<int64_t, int, std::string>, double> stored;
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(
        db.query("SELECT * FROM \"" + byRank + "\""), sqlite3_finalize);
    if (!st) {
        why = QStringLiteral("no table ") + QString::fromStdString(byRank);
        return false;
    }
    size_t rows = 0;
    for (; sqlite3_step(st.get()) == SQLITE_ROW; ++rows)
        for (int c = 2; c < sqlite3_column_count(st.get()); ++c)
            if (sqlite3_column_type(st.get(), c) != SQLITE_NULL)
                stored[{sqlite3_column_int64(st.get(), 0), sqlite3_column_int(st.get(), 1),
                    sqlite3_column_name(st.get(), c)}]
                    = sqlite3_column_double(st.get(), c);
    std::set<std::pair<size_t, int>> withValues;
    for (size_t row = 0; row < wide.rowCount(); ++row)
        for (const auto &[c, column] : perRank) {
            const std::string text = wide.text(row, c);
            const auto it = stored.find({int64_t(row), column.second, column.first});
            const bool same = it == stored.end() ? text.empty()
                                                 : !text.empty() && it->second == std::stod(text);
            if (!same) {
                why = QStringLiteral("%1 row %2 column %3.%4")
                          .arg(QString::fromStdString(byRank))
                          .arg(row)
                          .arg(QString::fromStdString(column.first))
                          .arg(column.second);
                return false;
            }
            if (!text.empty())
                withValues.insert({row, column.second});
        }
    if (rows != withValues.size()) {
        why = QString::fromStdString(byRank)
            + QStringLiteral(": %1 rows, %2 with values").arg(rows).arg(withValues.size());
        return false;
    }
    return true;
}

//! The first column of \a sql's rows as text ("" for NULL).
std::vector<std::string> firstColumn(const Reader &db, const std::string &sql)
{
    std::vector<std::string> out;
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(db.query(sql), sqlite3_finalize);
    while (st && sqlite3_step(st.get()) == SQLITE_ROW) {
        const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(st.get(), 0));
        out.emplace_back(text ? text : "");
    }
    return out;
}

/*!
 * The schema a SQL user relies on: `schema`'s version; `schema_columns` lists each view's
 * columns in order, each name with one declared type in every table (but `device` and `value`,
 * docs/cli.md); every value of an INTEGER column is an integer; searches by name, step and rank
 * use an index.
 */
void checkSchema(const Reader &db, bool severalRanks)
{
    QCOMPARE(firstColumn(db, "SELECT version FROM schema"),
        std::vector<std::string> {std::to_string(kDatabaseFormat)});
    for (const std::string &view :
        firstColumn(db, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")) {
        QCOMPARE(firstColumn(db,
                     "SELECT column_name FROM schema_columns WHERE table_name = '" + view + "'"),
            firstColumn(db, "SELECT name FROM pragma_table_info('" + view + "')"));
        for (const std::string &column : firstColumn(db,
                 "SELECT column_name FROM schema_columns WHERE type = 'INTEGER' AND table_name = '"
                     + view + "'")) {
            const std::string sql = "SELECT DISTINCT typeof(" + sqlIdentifier(column) + ") FROM "
                + sqlIdentifier(view) + " WHERE " + sqlIdentifier(column) + " IS NOT NULL";
            for (const std::string &type : firstColumn(db, sql))
                QVERIFY2(type == "integer", (view + "." + column + ": " + type).c_str());
        }
    }
    QCOMPARE(firstColumn(db,
                 "SELECT column_name FROM schema_columns WHERE column_name NOT IN ('device', "
                 "'value') GROUP BY column_name HAVING count(DISTINCT type) > 1"),
        std::vector<std::string>());
    std::vector<std::pair<std::string, std::string>> searches {
        {"SELECT * FROM pairs WHERE fwd_name = 'aten::mm'", "ix_pairs_fwd_name"},
        {"SELECT * FROM pairs WHERE step = 2", "ix_pairs_step"},
        {"SELECT * FROM kernels WHERE name = 'x'", "ix_kernels_name"},
        {"SELECT * FROM kernels WHERE step = 2", "ix_kernels_step"},
        {"SELECT * FROM efficiency WHERE name = 'aten::mm'", "ix_efficiency_name"},
        {"SELECT * FROM kernel_summary WHERE name = 'x'", "ix_kernel_summary_name"}};
    // docs/cli.md lists each table's columns with their types and units, as schema_columns does.
    QFile cli(test::docsDir() + QStringLiteral("/cli.md"));
    QVERIFY(cli.open(QIODevice::ReadOnly));
    const std::string docs = cli.readAll().toStdString();
    for (const std::string &line :
        firstColumn(db,
            "SELECT '| `' || table_name || '` | ' || group_concat('`' || column_name || '` ' || "
            "iif(type = '', 'INTEGER or TEXT', type) || iif(unit = '', '', ' (' || unit || ')'), "
            "', ') || ' |' FROM (SELECT * FROM schema_columns ORDER BY rowid) GROUP BY table_name"))
        QVERIFY2(docs.find(line) != std::string::npos, line.c_str());
    if (severalRanks)
        searches.emplace_back("SELECT * FROM kernels WHERE rank = 1", "ix_kernels_rank_step");
    for (const auto &[query, index] : searches) {
        std::string plan;
        std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(
            db.query("EXPLAIN QUERY PLAN " + query), sqlite3_finalize);
        while (st && sqlite3_step(st.get()) == SQLITE_ROW)
            plan += reinterpret_cast<const char *>(sqlite3_column_text(st.get(), 3)) + "\n"s;
        QVERIFY2(plan.find(index) != std::string::npos, (query + ":\n" + plan).c_str());
    }
}

/*!
 * \a report as text: title, files, and each part's heading, sentences, charts (captions, labels,
 * values) and tables (captions, CSV) — what its HTML and PDF draw, less the pictures.
 */
std::string reportText(const ReportContent &report)
{
    std::string out;
    // Each piece appended on its own (GCC 12 -O3 sees a false overlap in a chain of +).
    const auto line = [&out](std::initializer_list<std::string_view> pieces) {
        for (const std::string_view piece : pieces)
            out.append(piece).append(" ");
        out.append("\n");
    };
    line({report.title, report.subtitle});
    for (const ReportPart &part : report.parts) {
        line({"##", part.id, part.title, part.text});
        for (const ReportChart &chart : part.charts) {
            line({"chart", chart.caption});
            for (size_t bar = 0; bar < chart.labels.size(); ++bar) {
                line({chart.labels[bar]});
                for (const double v : chart.values[bar])
                    line({std::to_string(v)});
            }
        }
        for (const ReportTable &table : part.tables)
            line({"table", table.caption, tableToCsv(table.table)});
    }
    line({"timeline", std::to_string(report.timelineStep), std::to_string(report.timelineRow),
        report.timelineCaption});
    return out;
}

std::string hashOf(const std::string &file)
{
    return "sha-of-" + file;
}

} // namespace

class TestDatabase : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyExportReadsBack_data();
    void everyExportReadsBack();
    void unwritableTargetFails();
    void cellsKeepTheirKinds();
    void realsStoreThousandths();
    void runTablesOfAThousandRanksFit();
    void runFromDatabasesEqualsTheTraces_data();
    void runFromDatabasesEqualsTheTraces();
    void sha256OfPublishedExamples();

private:
    void checkPathFromDatabases(const Run &run, const Run &fromDatabases);
    void checkHostileDatabases(const std::string &rankDatabase);
    void comparePaths(const CriticalPath &a, const CriticalPath &b);
    //! A copy of database \a from named \a name with \a sql run on it.
    std::string alteredCopy(const std::string &from, const QString &name, const char *sql);

    QTemporaryDir m_dir;
    QString m_generated; //!< gentrace --memory: every table has rows
};

void TestDatabase::initTestCase()
{
    m_generated = m_dir.filePath(QStringLiteral("generated.json"));
    const auto r = test::run(test::gentracePath(),
        {QStringLiteral("--memory"), QStringLiteral("--steps"), QStringLiteral("2"), m_generated});
    QCOMPARE(r.exitCode, 0);
}

void TestDatabase::everyExportReadsBack_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::newRow("generated, memory") << QStringList {m_generated};
    const QString shared = test::sharedTracesDir();
    if (shared.isEmpty())
        return;
    const QDir dir(shared);
    for (const QString &f :
        dir.entryList({QStringLiteral("*.json"), QStringLiteral("*.json.gz")}, QDir::Files))
        if (!f.startsWith(QLatin1String("param_dlrm")))
            QTest::newRow(qPrintable(f)) << QStringList {dir.filePath(f)};
    QTest::newRow("DLRM run of two ranks") << QStringList {
        dir.filePath(QStringLiteral("param_dlrm_worker0_step_12.1694128201545.pt.trace.json")),
        dir.filePath(QStringLiteral("param_dlrm_worker1_step_12.1694128201556.pt.trace.json"))};
}

void TestDatabase::everyExportReadsBack()
{
    QFETCH(QStringList, files);
    std::vector<std::string> paths;
    for (const QString &f : files)
        paths.push_back(f.toStdString());
    std::string error;
    const auto run = openRun(paths, {}, error);
    QVERIFY2(run && run->failures.empty(), error.c_str());
    const std::string db = m_dir.filePath(QStringLiteral("run.sqlite")).toStdString();
    QVERIFY2(writeRunDatabase(*run, db, {}, hashOf, error), error.c_str());
    const Reader reader(db);
    QString why;
    for (size_t i = 0; i < run->ranks.size(); ++i) {
        const LoadedTrace &t = *run->sources[i]->trace;
        const int rank = run->ranks[i].rank;
        // Each built here as its own --export-… builds it, not taken from the trace's caches.
        QVERIFY2(sameTable(reader, "pairs", PairTable(*t.graph), rank, why), qPrintable(why));
        QVERIFY2(
            sameTable(reader, "pair_keys", pairKeyTable(t.modules()), rank, why), qPrintable(why));
        QVERIFY2(sameTable(reader, "kernels", KernelTable(*t.graph), rank, why), qPrintable(why));
        QVERIFY2(sameTable(reader, "kernel_summary",
                     kernelSummaryTable(kernelSummary(*t.graph), *t.model), rank, why),
            qPrintable(why));
        QVERIFY2(sameTable(reader, "modules",
                     ModuleTable(t.modules(), ModuleTable::Rows::WholeTrace, t.pairMemory(),
                         t.efficiency()),
                     rank, why),
            qPrintable(why));
        const MemoryIndex memory(*t.graph);
        QVERIFY2(sameTable(reader, "memory", AllocationTable(memory), rank, why), qPrintable(why));
        const CellTable steps = stepTable(stepBreakdown(*t.graph));
        QVERIFY2(sameTable(reader, "steps", steps, rank, why), qPrintable(why));
        QVERIFY2(
            sameTable(reader, "efficiency", EfficiencyTable(*t.graph, t.efficiency()), rank, why),
            qPrintable(why));
        QVERIFY2(sameTable(reader, "step_gpu_time", stepGpuTimeTable(gpuTimePerStep(*t.graph)),
                     rank, why),
            qPrintable(why));
        QVERIFY2(
            sameTable(reader, "findings", findingTable(t.findings()), rank, why), qPrintable(why));
        const LiveMemory live(memory);
        const auto device = live.peakDevice();
        const int64_t peak = device && live.known()
            ? live.peakEvent(*device, t.model->minTime, t.model->maxTime)
            : -1;
        QVERIFY2(sameTable(reader, "live",
                     LiveTable(live, peak < 0 ? std::vector<LiveBlock>() : live.afterEvent(peak)),
                     rank, why),
            qPrintable(why));
        // The summary's step_breakdown keeps every digit the step table writes (µs since the
        // epoch: a double read back was ~0.2 µs off).
        const std::vector<std::string> breakdown = firstColumn(reader,
            "SELECT json FROM summary WHERE key = 'step_breakdown' AND rank = "
                + std::to_string(rank));
        QCOMPARE(breakdown.size(), size_t(1));
        for (size_t r = 0; r < steps.rowCount(); ++r)
            QVERIFY2(
                breakdown[0].find(steps.text(r, 1)) != std::string::npos, steps.text(r, 1).c_str());
        // The summary's scalars, and the file's own hash, size and clock.
        const std::string fileKey = "SELECT value FROM summary WHERE rank = ? AND key = 'file'";
        std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(
            reader.query(fileKey, rank), sqlite3_finalize);
        QVERIFY(st && sqlite3_step(st.get()) == SQLITE_ROW);
        QCOMPARE(reinterpret_cast<const char *>(sqlite3_column_text(st.get(), 0)), t.model->path);
        std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> sha(
            reader.query("SELECT value FROM meta WHERE rank = ? AND key = 'source_sha256'", rank),
            sqlite3_finalize);
        QVERIFY(sha && sqlite3_step(sha.get()) == SQLITE_ROW);
        QCOMPARE(reinterpret_cast<const char *>(sqlite3_column_text(sha.get(), 0)),
            hashOf(run->ranks[i].file));
    }
    // Each rank's communication kernels, what its collectives were matched from: as many as
    // the collectives have kernels of that rank, at their starts (file µs + clock base, less
    // the run's zero: the run clock, to the µs a REAL keeps of epoch times).
    double zero = 0;
    {
        std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> z(
            reader.query("SELECT value FROM meta WHERE key = 'clock_zero_ns'"), sqlite3_finalize);
        QVERIFY(z && sqlite3_step(z.get()) == SQLITE_ROW);
        zero = sqlite3_column_double(z.get(), 0);
    }
    for (size_t i = 0; i < run->ranks.size(); ++i) {
        std::vector<double> expected, stored;
        for (const Collective &c : run->collectives.collectives)
            for (const CollectiveKernel &k : c.kernels)
                if (k.rankIndex == i)
                    expected.push_back(double(k.start));
        std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(
            reader.query("SELECT k.ts * 1000 + m.value FROM collective_kernels AS k JOIN meta AS m "
                         "ON m.rank = k.rank AND m.key = 'clock_base_ns' WHERE k.rank = ?",
                run->ranks[i].rank),
            sqlite3_finalize);
        QVERIFY(st);
        while (sqlite3_step(st.get()) == SQLITE_ROW)
            stored.push_back(sqlite3_column_double(st.get(), 0) - zero);
        QCOMPARE(stored.size(), expected.size());
        std::sort(expected.begin(), expected.end());
        std::sort(stored.begin(), stored.end());
        for (size_t j = 0; j < stored.size(); ++j)
            QVERIFY2(std::abs(stored[j] - expected[j]) < 1000, qPrintable(QString::number(j)));
    }
    // Times are REAL in every row (SQL divides them as numbers), bytes INTEGER; each table a
    // view over rows that hold texts as ids of `strings`, where each text is once.
    for (const char *check :
        {"SELECT count(*) FROM pairs WHERE typeof(fwd_gpu_us) NOT IN ('real', 'null')",
            "SELECT count(*) FROM kernels WHERE typeof(ts) NOT IN ('real', 'null')",
            "SELECT count(*) FROM memory WHERE typeof(bytes) NOT IN ('integer', 'null')",
            "SELECT 1 - count(*) FROM sqlite_master WHERE name = 'kernels' AND type = 'view'",
            "SELECT count(*) FROM kernels_rows WHERE typeof(name) NOT IN ('integer', 'null')",
            "SELECT count(*) FROM (SELECT text FROM strings GROUP BY text HAVING count(*) > 1)"}) {
        std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(
            reader.query(check), sqlite3_finalize);
        QVERIFY2(st && sqlite3_step(st.get()) == SQLITE_ROW, check);
        QVERIFY2(sqlite3_column_int(st.get(), 0) == 0, check);
    }
    checkSchema(reader, run->ranks.size() > 1);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(sameTable(reader, "ranks", rankTable(run->summaries()), {}, why), qPrintable(why));
    QVERIFY2(sameSplitTable(reader, "collectives", "collective_ranks", "collective",
                 collectiveTable(run->rankNumbers(), run->collectives), why),
        qPrintable(why));
    QVERIFY2(sameSplitTable(reader, "rank_pairs", "rank_pair_ranks", "pair",
                 rankPairTable(run->rankNumbers(), run->firstPairRows, run->pairs), why),
        qPrintable(why));
    QVERIFY2(
        sameTable(reader, "critical_path", criticalSegmentTable(*run->criticalPath()), {}, why),
        qPrintable(why));
}

// The target's folder does not exist: a clear failure naming it, nothing written.
void TestDatabase::unwritableTargetFails()
{
    std::string error;
    const auto run = openRun({m_generated.toStdString()}, {}, error);
    QVERIFY(run);
    const std::string target
        = m_dir.filePath(QStringLiteral("no/such/dir/run.sqlite")).toStdString();
    QVERIFY(!writeRunDatabase(*run, target, {}, hashOf, error));
    QVERIFY2(error.find("no/such/dir") != std::string::npos, error.c_str());
}

// Each cell kind stored as its column says, with names SQL would misread quoted: numbers only
// where the text is a decimal number, ids INTEGER only when whole (007 stays text), empty cells
// NULL except an empty TextOrEmpty.
void TestDatabase::cellsKeepTheirKinds()
{
    CellTable t;
    t.addColumn("we\"ird name", Cell::Text, {});
    t.addColumn("id", Cell::Id, {});
    t.addColumn("n", Cell::Number, {});
    t.addColumn("bytes", Cell::Bytes, {});
    t.addColumn("maybe", Cell::TextOrEmpty, {});
    const std::vector<std::vector<std::string>> rows {{"a", "007", "1e3", "123", ""},
        {"", "12", "inf", "", "x"}, {"b", "12345678901234567890", "-2.5", "0", ""},
        // ns since the epoch have 19 digits: INTEGER to the ends of int64, TEXT past them.
        {"c", "1733000000000000000", "1", "9223372036854775807", ""},
        {"d", "9223372036854775808", "2", "-9223372036854775808", ""}};
    for (const auto &row : rows) {
        t.addRow();
        for (const std::string &cell : row)
            t.add(cell);
    }
    TableDatabase db;
    db.add("odd \"table\"", t, 3);
    const std::string path = m_dir.filePath(QStringLiteral("kinds.sqlite")).toStdString();
    QVERIFY2(db.save(path), db.error().c_str());
    const Reader reader(path);
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(
        reader.query("SELECT rank, typeof(\"we\"\"ird name\"), typeof(id), id, typeof(n), n, "
                     "typeof(bytes), typeof(maybe), maybe FROM \"odd \"\"table\"\"\""),
        sqlite3_finalize);
    QVERIFY(st);
    const std::vector<std::string> expected {
        "3|text|text|007|real|1000.0|integer|text|",
        "3|null|integer|12|text|inf|null|text|x",
        "3|text|text|12345678901234567890|real|-2.5|integer|text|",
        "3|text|integer|1733000000000000000|real|1.0|integer|text|",
        "3|text|text|9223372036854775808|real|2.0|integer|text|",
    };
    for (const std::string &want : expected) {
        QCOMPARE(sqlite3_step(st.get()), SQLITE_ROW);
        std::string got;
        for (int c = 0; c < sqlite3_column_count(st.get()); ++c) {
            const auto *text = sqlite3_column_text(st.get(), c);
            if (c)
                got += '|';
            if (text)
                got += reinterpret_cast<const char *>(text);
        }
        QCOMPARE(QString::fromStdString(got), QString::fromStdString(want));
    }
    QCOMPARE(sqlite3_step(st.get()), SQLITE_DONE);
}

/*
 * A REAL column with fractions stores whole thousandths as integers (fewer bytes than a REAL's
 * 8), the view reading back the very double strtod reads from each text; what is no whole number
 * of thousandths, or would round twice on the way back (past 2^53), stays a REAL. A table of few
 * rows keeps its REALs (its schema would grow more than its rows shrink).
 */
void TestDatabase::realsStoreThousandths()
{
    const std::vector<std::pair<std::string, std::string>> rows {{"1296000125384.840", "4"},
        {"1296000125397.190", "12"}, {"12.5", ""}, {"7", "3"}, {"-2.125", "0"}, {"0.0625", "1"},
        {"1694128201428470.125", "2"}, {"1694128202338395.047", "5"}, {"", "6"}};
    const auto table = [&rows](size_t count) {
        CellTable t;
        t.addColumn("ts", Cell::Timestamp, {});
        t.addColumn("count", Cell::Number, {});
        for (size_t r = 0; r < count; ++r) {
            t.addRow();
            t.add(r < rows.size() ? rows[r].first : "3.25");
            t.add(r < rows.size() ? rows[r].second : "1");
        }
        return t;
    };
    const CellTable t = table(64), few = table(rows.size());
    TableDatabase db;
    db.add("times", t);
    db.add("few", few);
    const std::string path = m_dir.filePath(QStringLiteral("thousandths.sqlite")).toStdString();
    QVERIFY2(db.save(path), db.error().c_str());
    const Reader reader(path);
    QString why;
    QVERIFY2(sameTable(reader, "times", t, {}, why), qPrintable(why));
    QVERIFY2(sameTable(reader, "few", few, {}, why), qPrintable(why));
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> plain(
        reader.query("SELECT group_concat(name) FROM pragma_table_xinfo('few_rows')"),
        sqlite3_finalize);
    QVERIFY(plain && sqlite3_step(plain.get()) == SQLITE_ROW);
    QCOMPARE(reinterpret_cast<const char *>(sqlite3_column_text(plain.get(), 0)), "ts,count");
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> st(
        reader.query("SELECT typeof(ts_x1000), typeof(ts), typeof(\"count\") FROM times_rows"),
        sqlite3_finalize);
    QVERIFY(st);
    // 0.0625 has four decimals; the last two timestamps are past 2^53 thousandths, of which
    // 1694128201428470.125 comes back exact through double(k) / 1000 and 1694128202338395.047
    // does not (Python: float(k) / 1000 != float(text)); whole counts stay REAL (no fraction).
    const std::vector<std::string> expected {"integer real real", "integer real real",
        "integer real null", "integer real real", "integer real real", "real real real",
        "integer real real", "real real real", "null null real"};
    for (const std::string &want : expected) {
        QCOMPARE(sqlite3_step(st.get()), SQLITE_ROW);
        std::string got;
        for (int c = 0; c < 3; ++c)
            got += std::string(c ? " " : "")
                + reinterpret_cast<const char *>(sqlite3_column_text(st.get(), c));
        QCOMPARE(got, want);
    }
}

/*
 * SQLite holds at most 2 000 columns a table: the run tables with columns per rank are stored as
 * rows per rank, so that a run of 1 100 ranks is written (the wide rank_pairs is not).
 */
void TestDatabase::runTablesOfAThousandRanksFit()
{
    std::vector<int> ranks(1100);
    std::iota(ranks.begin(), ranks.end(), 0);
    const CellTable pairs = rankPairTable(ranks, {}, RankPairs {});
    QCOMPARE(pairs.columnCount(), size_t(4 * 1100 + 6));
    TableDatabase wide;
    wide.add("rank_pairs", pairs);
    QVERIFY(!wide.save(m_dir.filePath(QStringLiteral("wide.sqlite")).toStdString()));
    QVERIFY(wide.error().find("too many columns") != std::string::npos);
    TableDatabase split;
    const RankColumnSplit p = splitRankColumns(pairs, "pair");
    const RankColumnSplit c
        = splitRankColumns(collectiveTable(ranks, CollectiveMatch {}), "collective");
    split.add("rank_pairs", p.shared);
    split.add("rank_pair_ranks", p.byRank);
    split.add("collectives", c.shared);
    split.add("collective_ranks", c.byRank);
    QVERIFY2(split.save(m_dir.filePath(QStringLiteral("split.sqlite")).toStdString()),
        split.error().c_str());
    QCOMPARE(p.byRank.columnCount(), size_t(6)); // pair, rank and the four per rank
    QCOMPARE(c.byRank.columnCount(), size_t(4)); // collective, rank, wait_us, dur_us
}

void TestDatabase::runFromDatabasesEqualsTheTraces_data()
{
    QTest::addColumn<QStringList>("files");
    // Three ranks, one with its clock 40 µs behind, two all-reduces of one process group.
    test::RankBuilder r0(0, 3), r1(1, 3, 40), r2(2, 3);
    r0.step(1, 0, 1000).comm(100, 50, "0").comm(400, 30, "0");
    r1.step(1, 0, 1000).comm(130, 20, "0").comm(420, 10, "0");
    r2.step(1, 0, 1000).comm(110, 40, "0").comm(405, 25, "0");
    // Their pairs: some on every rank, some on one or two, one without its forward op; the
    // relu of rank 1 is in a module of its own: not the same pair as rank 0's.
    r1.scope("block", 545, 30);
    r0.pair("aten::mm", "MmBackward0", 1, 500, 12, 40)
        .pair("aten::relu", "ReluBackward0", 2, 550, 3, 10)
        .pair("aten::sub", "SubBackward0", 3, 600, 2, 2)
        .lonelyNode("MulBackward0", 9, 900, 6);
    r1.pair("aten::mm", "MmBackward0", 1, 500, 14, 70)
        .pair("aten::relu", "ReluBackward0", 2, 550, 3, 5)
        .pair("aten::add", "AddBackward0", 3, 600, 1, 1)
        .lonelyNode("MulBackward0", 9, 900, 8);
    r2.pair("aten::mm", "MmBackward0", 1, 500, 13, 50)
        .pair("aten::sub", "SubBackward0", 3, 600, 2, 3);
    QStringList generated;
    for (const test::RankBuilder *r : {&r0, &r1, &r2})
        generated << test::writeTemp(QStringLiteral("db-rank%1.json").arg(generated.size()),
            QByteArray::fromStdString(r->json()));
    QTest::newRow("three generated ranks") << generated;
    // Rank 0 read last: the pair texts its database's one open read are the ones kept.
    QTest::newRow("three generated ranks, last first")
        << QStringList {generated[2], generated[1], generated[0]};
    // Rank 0 cut off before its GPU events (the profiler writes them last): its pairs' GPU cells
    // are empty, and the databases must still key its pairs by their forward ops, the run's
    // pair rows being rank 0's.
    QString cut = QString::fromStdString(r0.json());
    static const QRegularExpression gpuEvent(
        QStringLiteral(R"re(\{"ph":"X","cat":"kernel".*\n)re"));
    cut.remove(gpuEvent);
    QTest::newRow("rank 0 cut before its GPU events")
        << QStringList {test::writeTemp(QStringLiteral("db-rank0-cut.json"),
                            cut.left(cut.lastIndexOf(QStringLiteral("{\"ph\":\"M\""))).toUtf8()),
               generated[1]};
    QTest::newRow("one rank with memory peaks") << QStringList {m_generated};
    const QString shared = test::sharedTracesDir();
    if (!shared.isEmpty())
        QTest::newRow("the DLRM ranks") << QStringList {
            shared + QStringLiteral("/param_dlrm_worker0_step_12.1694128201545.pt.trace.json"),
            shared + QStringLiteral("/param_dlrm_worker1_step_12.1694128201556.pt.trace.json")};
}

/*
 * Issue #36: each rank digested alone (--export-db of one file), the rank table and the
 * collectives from the databases equal those from the traces, cell for cell; a corrupt and a
 * foreign database are failures naming them, and the others still match.
 */
void TestDatabase::runFromDatabasesEqualsTheTraces()
{
    QFETCH(QStringList, files);
    std::vector<std::string> paths, databases;
    std::string error;
    for (const QString &f : files) {
        paths.push_back(f.toStdString());
        const auto alone = openRun({f.toStdString()}, {}, error);
        QVERIFY2(alone, error.c_str());
        if (f.endsWith(QStringLiteral("-cut.json"))) // what the row is there for
            QVERIFY(alone->ranks.front().graph->stats().gpuCutOff);
        databases.push_back(
            m_dir.filePath(QFileInfo(f).fileName() + QStringLiteral(".sqlite")).toStdString());
        QVERIFY2(writeRunDatabase(*alone, databases.back(), {}, hashOf, error), error.c_str());
    }
    const auto run = openRun(paths, {}, error);
    QVERIFY2(run, error.c_str());
    const std::string corrupt = m_dir.filePath(QStringLiteral("corrupt.sqlite")).toStdString();
    QVERIFY(writeFileAtomically(corrupt, "not a database at all", error));
    const std::string foreign = m_dir.filePath(QStringLiteral("foreign.sqlite")).toStdString();
    TableDatabase other;
    other.add("pairs", PairTable(*run->ranks.front().graph));
    QVERIFY(other.save(foreign));
    // A database of another layout (format 1 wrote plain tables): named, not misread.
    const std::string older = m_dir.filePath(QStringLiteral("older.sqlite")).toStdString();
    CellTable meta;
    meta.addColumn("rank", Cell::Number, {});
    meta.addColumn("key", Cell::Text, {});
    meta.addColumn("value", Cell::Id, {});
    for (const char *key : {"format_version", "rank_count"}) {
        meta.addRow();
        meta.add(std::string());
        meta.add(key);
        meta.add("1");
    }
    TableDatabase old;
    old.add("meta", meta);
    QVERIFY(old.save(older));
    databases.push_back(corrupt);
    databases.push_back(foreign);
    databases.push_back(older);

    RunOptions two;
    two.parallel = 2;
    const auto opened = openRun(databases, two, error);
    QVERIFY2(opened, error.c_str());
    const Run &fromDatabases = *opened;
    QVERIFY(fromDatabases.fromDatabases());
    QCOMPARE(fromDatabases.ranks.size(), run->ranks.size());
    QCOMPARE(fromDatabases.failures.size(), size_t(3));
    QVERIFY(fromDatabases.failures[0].error.starts_with(corrupt + ": "));
    QVERIFY(fromDatabases.failures[1].error.starts_with(foreign + ": not a Kinetoscope database"));
    QCOMPARE(fromDatabases.failures[2].error,
        older + ": database format 1, this version reads 6 (digest the trace again)");
    QCOMPARE(
        tableToCsv(rankTable(fromDatabases.summaries())), tableToCsv(rankTable(run->summaries())));
    // One job, as the traces are; the same warnings (a run short of its world_size) and checks.
    QCOMPARE(fromDatabases.unrelated, run->unrelated);
    QCOMPARE(fromDatabases.warnings, run->warnings);
    QCOMPARE(checkReport(fromDatabases).json(), checkReport(*run).json());
    // The report: rank 0's parts from its trace (the file its database names), the run's from
    // the databases; what-ifs need the traces, and the path's part says so in their place.
    std::string noTrace;
    const auto first = fromDatabases.rankTrace(0, noTrace);
    QVERIFY2(first, noTrace.c_str());
    ReportContent traced = runReport(*run, run->sources[0]->trace.get());
    for (ReportPart &part : traced.parts) {
        if (part.id == "run-findings") { // the findings too
            part.text = kFindingsNeedTraces;
            part.tables.clear();
        }
        if (part.id == "run-critical-path") {
            std::erase_if(
                part.tables, [](const ReportTable &t) { return t.caption.starts_with("What-if"); });
            part.text += " " + std::string(kWhatIfsNeedTraces);
        }
    }
    // What the run lacks: the same, and the databases that could not be opened before it.
    ReportContent read = runReport(fromDatabases, first.get());
    const auto lacks = [](ReportContent &report, size_t skip) {
        const auto part = std::find_if(report.parts.begin(), report.parts.end(),
            [](const ReportPart &p) { return p.id == "run-warnings"; });
        std::vector<std::string> rows;
        for (size_t r = skip; part != report.parts.end() && r < part->tables[0].table.rowCount();
             ++r)
            rows.push_back(part->tables[0].table.text(r, 0));
        if (part != report.parts.end())
            report.parts.erase(part);
        return rows;
    };
    std::vector<std::string> notOpened;
    for (const RunFailure &f : fromDatabases.failures)
        notOpened.push_back("not opened: " + f.error);
    const std::vector<std::string> readLacks = lacks(read, 0);
    QVERIFY(std::equal(notOpened.begin(), notOpened.end(), readLacks.begin()));
    QCOMPARE(std::vector<std::string>(readLacks.begin() + long(notOpened.size()), readLacks.end()),
        lacks(traced, 0));
    QCOMPARE(reportText(read), reportText(traced));
    // The charts' bars: each rank's steps' GPU time, as from the traces.
    for (size_t r = 0; r < run->ranks.size(); ++r)
        QCOMPARE(tableToCsv(stepGpuTimeTable(fromDatabases.sources[r]->stepGpuTime)),
            tableToCsv(stepGpuTimeTable(run->sources[r]->stepGpuTime)));
    if (paths.size() > 1) {
        // A rank an hour later on the common clock: another job, named as the traces' would be.
        const std::string later = alteredCopy(databases[1], QStringLiteral("later.sqlite"),
            "UPDATE meta_rows SET value = value + 3600000000000 WHERE key = (SELECT id FROM "
            "strings WHERE text = 'clock_base_ns')");
        const auto apart = openRun({databases[0], later}, {}, error);
        QVERIFY2(apart, error.c_str());
        const std::string unrelated = apart->unrelated;
        const std::string head
            = databases[0] + " and " + later + " do not overlap in time (the second starts ";
        const std::string tail = " min after the first ends): they are traces of different "
                                 "jobs, not one run";
        QVERIFY2(unrelated.starts_with(head) && unrelated.ends_with(tail), unrelated.c_str());
        const double gapMin = std::stod(unrelated.substr(head.size()));
        QVERIFY(gapMin > 59.8 && gapMin <= 60.0); // the hour less the first trace's length
    }
    QCOMPARE(tableToCsv(collectiveTable(fromDatabases.rankNumbers(), fromDatabases.collectives)),
        tableToCsv(collectiveTable(run->rankNumbers(), run->collectives)));
    QVERIFY(fromDatabases.pairsProblem.empty());
    QVERIFY(!fromDatabases.pairs.pairs.empty());
    QCOMPARE(tableToCsv(rankPairTable(
                 fromDatabases.rankNumbers(), fromDatabases.firstPairRows, fromDatabases.pairs)),
        tableToCsv(rankPairTable(run->rankNumbers(), run->firstPairRows, run->pairs)));

    // The run's matching is the two-trace comparison's: its matched entries, rank by rank.
    DiffOptions options;
    options.rollups = false;
    for (size_t r = 1; r < run->ranks.size(); ++r) {
        const auto diff = TraceDiff::compare(
            run->sources[0]->trace->modules(), run->sources[r]->trace->modules(), options);
        QVERIFY(diff);
        std::vector<std::pair<int64_t, int64_t>> compared, matched;
        for (const DiffEntry &e : diff->entries())
            if (e.status == DiffStatus::Matched)
                compared.emplace_back(e.base.row, e.candidate.row);
        for (size_t i = 0; i < run->pairs.pairs.size(); ++i)
            if (run->pairs.pairs[i].rows[r] >= 0)
                matched.emplace_back(int64_t(i), run->pairs.pairs[i].rows[r]);
        std::sort(compared.begin(), compared.end());
        QCOMPARE(matched, compared);
        QCOMPARE(run->pairs.unmatchedRows[r], run->ranks[r].graph->rows().size() - matched.size());
    }
    checkPathFromDatabases(*run, fromDatabases);
    if (QTest::currentTestFailed())
        return;
    checkHostileDatabases(fromDatabases.sources[0]->database);
}

/*
 * Databases made to look like a rank's: a view of their own that never ends is stopped and the
 * file named; a newer format is named as such; a text with a zero in it is read whole.
 */
void TestDatabase::checkHostileDatabases(const std::string &rankDatabase)
{
    std::string error;
    const std::string endless = alteredCopy(rankDatabase, QStringLiteral("endless.sqlite"),
        "DROP VIEW meta; CREATE VIEW meta AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT "
        "x + 1 FROM c) SELECT 'k' || x AS key, x AS value FROM c");
    bool gathered = false;
    QVERIFY(!readRankDatabase(endless, gathered, error));
    QCOMPARE(error,
        endless
            + ": not a Kinetoscope database (reading it runs on past what its size allows: a view "
              "of its own?)");
    const std::string newer = alteredCopy(rankDatabase, QStringLiteral("newer.sqlite"),
        "DROP VIEW meta; CREATE VIEW meta AS SELECT 'format_version' AS key, '99' AS value");
    QVERIFY(!readRankDatabase(newer, gathered, error));
    QCOMPARE(error,
        newer
            + ": database format 99, this version reads 6 (written by a newer Kinetoscope: open "
              "it with that)");
    const std::string zero = alteredCopy(rankDatabase, QStringLiteral("zero.sqlite"),
        "UPDATE strings SET text = 'a' || char(0) || 'b' WHERE id = (SELECT file FROM "
        "ranks_rows)");
    const auto read = readRankDatabase(zero, gathered, error);
    QVERIFY2(read, error.c_str());
    QCOMPARE(read->summary.file, std::string("a\0b", 3));
}

/*!
 * The critical path across the ranks from their databases' graphs equals the traces' field for
 * field, for the first step and for a step no rank has; a step the databases do not hold leaves
 * every rank that has it off the path, saying so.
 */
void TestDatabase::checkPathFromDatabases(const Run &run, const Run &fromDatabases)
{
    std::string error;
    const auto found = fromDatabases.criticalPath({}, &error);
    QVERIFY2(found, error.c_str());
    const auto traced = run.criticalPath();
    QVERIFY(traced->path().problem.empty());
    QVERIFY(!traced->path().segments.empty());
    comparePaths(found->path(), traced->path());
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(tableToCsv(criticalSegmentTable(*found)), tableToCsv(criticalSegmentTable(*traced)));
    QCOMPARE(tableToCsv(criticalRankTable(*found)), tableToCsv(criticalRankTable(*traced)));
    QCOMPARE(tableToCsv(criticalPairTable(*found)), tableToCsv(criticalPairTable(*traced)));
    // The graphs read in each database's one open (RunOptions::pathGraph) give the same path.
    std::vector<std::string> databases;
    for (const auto &source : fromDatabases.sources)
        databases.push_back(source->database);
    RunOptions oneOpen;
    oneOpen.pathGraph = true;
    const auto readOnce = openRun(databases, oneOpen, error);
    QVERIFY2(readOnce, error.c_str());
    const auto foundOnce = readOnce->criticalPath({}, &error);
    QVERIFY2(foundOnce, error.c_str());
    QCOMPARE(
        tableToCsv(criticalSegmentTable(*foundOnce)), tableToCsv(criticalSegmentTable(*traced)));
    QCOMPARE(tableToCsv(
                 rankPairTable(readOnce->rankNumbers(), readOnce->firstPairRows, readOnce->pairs)),
        tableToCsv(rankPairTable(run.rankNumbers(), run.firstPairRows, run.pairs)));

    PathQuery absent;
    absent.step = 987654;
    const auto none = fromDatabases.criticalPath(absent, &error);
    QVERIFY2(none, error.c_str());
    comparePaths(none->path(), run.criticalPath(absent)->path());
    QCOMPARE(none->path().problem, missingStepProblem(absent.step));
    PathQuery dataLoading;
    dataLoading.dataLoading = [](std::string_view) { return true; };
    QVERIFY(!fromDatabases.criticalPath(dataLoading, &error));
    QVERIFY2(error.starts_with("a database's path graph was made by --export-db"), error.c_str());

    // A graph whose edge names no node: the database is named, nothing is walked.
    const std::string &rank0 = fromDatabases.sources[0]->database;
    const std::string broken = alteredCopy(rank0, QStringLiteral("broken-path.sqlite"),
        "UPDATE path_edges_rows SET to_node = 123456789");
    // Read when the path is asked, or in the databases' one open: the same error either way.
    bool oneOpenPath = false;
    auto pathOf = [&](const std::vector<std::string> &dbs, unsigned threads) {
        RunOptions options;
        options.parallel = threads;
        options.pairs = false;
        options.pathGraph = oneOpenPath;
        oneOpenPath = !oneOpenPath;
        const auto opened = openRun(dbs, options, error);
        QVERIFY2(opened && opened->ranks.size() == dbs.size(), error.c_str());
        QVERIFY(!opened->criticalPath({}, &error));
    };
    const std::string noNode
        = ": not a Kinetoscope database (path_edges holds an edge of no node, kind or event)";
    for (int i = 0; i < 2; ++i) {
        pathOf({broken}, 1);
        QCOMPARE(error, broken + noNode);
    }
    // Pairs that cannot be read, read in the same open, leave the rank in the run, which says
    // why it has no pairs across ranks.
    const std::string shortKeys = alteredCopy(rank0, QStringLiteral("short-keys.sqlite"),
        "DELETE FROM pair_keys_rows WHERE rowid = (SELECT max(rowid) FROM pair_keys_rows)");
    const auto noPairs = openRun({shortKeys}, {}, error);
    QVERIFY2(noPairs && noPairs->ranks.size() == 1, error.c_str());
    QCOMPARE(noPairs->pairsProblem,
        shortKeys + ": not a Kinetoscope database (pairs and pair_keys differ in length)");
    QCOMPARE(noPairs->warnings.back(), "no pairs across ranks: " + noPairs->pairsProblem);
    // An event of a pair row the rank does not have: named, no row past the rank's is counted.
    const std::string pastRows = alteredCopy(rank0, QStringLiteral("past-rows.sqlite"),
        "UPDATE path_events_rows SET pair_row = 123456789");
    pathOf({pastRows}, 1);
    QCOMPARE(error,
        pastRows
            + ": not a Kinetoscope database (path_events holds an event of no id, class or pair "
              "row)");
    // Both read side by side, whichever fails first: the first in rank order is named, as one
    // thread reading them in order names it.
    for (int i = 0; i < 5; ++i) {
        pathOf({broken, pastRows}, 2);
        QCOMPARE(error, broken + noNode);
    }

    const std::vector<ProfilerStep> &steps = run.ranks[0].graph->steps();
    if (steps.size() < 2)
        return;
    PathQuery second;
    second.step = steps[1].number;
    const auto other = fromDatabases.criticalPath(second, &error);
    QVERIFY2(other, error.c_str());
    const std::string held = "its database holds the path graph of ProfilerStep#"
        + std::to_string(steps[0].number) + ", not of ProfilerStep#" + std::to_string(second.step)
        + ": digest its trace again with --critical-path-step " + std::to_string(second.step);
    QCOMPARE(other->path().ranks[0].problem, held);
}

std::string TestDatabase::alteredCopy(const std::string &from, const QString &name, const char *sql)
{
    std::string path = m_dir.filePath(name).toStdString();
    QFile::remove(QString::fromStdString(path));
    if (!QFile::copy(QString::fromStdString(from), QString::fromStdString(path)))
        qFatal("cannot copy %s", from.c_str());
    sqlite3 *db = nullptr;
    const bool altered = sqlite3_open(path.c_str(), &db) == SQLITE_OK
        && sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    if (!altered)
        qFatal("cannot alter %s", path.c_str());
    return path;
}

void TestDatabase::comparePaths(const CriticalPath &a, const CriticalPath &b)
{
    QCOMPARE(a.problem, b.problem);
    QCOMPARE(a.step, b.step);
    QCOMPARE(a.length, b.length);
    QVERIFY(a.byBound == b.byBound);
    QCOMPARE(a.segments.size(), b.segments.size());
    for (size_t i = 0; i < a.segments.size(); ++i) {
        const PathSegment &x = a.segments[i], &y = b.segments[i];
        QCOMPARE(x.event, y.event);
        QVERIFY(x.kind == y.kind && x.bound == y.bound);
        QCOMPARE(x.start, y.start);
        QCOMPARE(x.dur, y.dur);
        QCOMPARE(x.row, y.row);
        QCOMPARE(x.side, y.side);
        QCOMPARE(x.rank, y.rank);
        QCOMPARE(x.collective, y.collective);
        QCOMPARE(x.fromRank, y.fromRank);
    }
    QCOMPARE(a.ranks.size(), b.ranks.size());
    for (size_t r = 0; r < a.ranks.size(); ++r) {
        QCOMPARE(a.ranks[r].problem, b.ranks[r].problem);
        QCOMPARE(a.ranks[r].windowStart, b.ranks[r].windowStart);
        QCOMPARE(a.ranks[r].windowEnd, b.ranks[r].windowEnd);
        QCOMPARE(a.ranks[r].time, b.ranks[r].time);
        QCOMPARE(a.ranks[r].slack, b.ranks[r].slack);
        QCOMPARE(a.ranks[r].rowTime, b.ranks[r].rowTime);
    }
    QCOMPARE(a.bySide, b.bySide);
}

/*
 * `source_sha256`'s hash on the examples FIPS 180-2 publishes (appendix B: "abc", the 448-bit
 * message, a million 'a's) and the empty message, fed whole and in pieces that straddle its
 * 64-byte blocks; a file's hash is its text's.
 */
void TestDatabase::sha256OfPublishedExamples()
{
    const auto hex = [](std::string_view text, size_t piece) {
        Sha256 h;
        for (size_t at = 0; at < text.size(); at += piece)
            h.add(text.substr(at, piece));
        return h.hex();
    };
    const std::string million(1000000, 'a');
    const std::vector<std::pair<std::string_view, std::string>> examples
        = {{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
            {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
            {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
            {million, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"}};
    for (const auto &[text, digest] : examples)
        for (size_t piece : {size_t(1), size_t(7), size_t(64), size_t(1000), size_t(1) << 20})
            QCOMPARE(hex(text, piece), digest);
    const QString file = test::writeTemp(QStringLiteral("abc.txt"), QByteArray("abc"));
    QCOMPARE(fileSha256(file.toStdString()), examples[1].second);
    QCOMPARE(fileSha256(file.toStdString() + ".absent"), std::string());
}

QTEST_GUILESS_MAIN(TestDatabase)
#include "tst_database.moc"
