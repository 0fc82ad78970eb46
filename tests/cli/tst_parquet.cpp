// SPDX-License-Identifier: MIT
// --export-parquet (issue #60), read back by an independent reader: DuckDB, from its npm package
// (@duckdb/node-api, fetched by tools/fetch-duckdb.py into build/node/node_modules, or in
// $KINETOSCOPE_NODE_MODULES), run by Debian's nodejs through
// tests/cli/readparquet.mjs. The two shared DLRM ranks' tables equal their CSV exports row for row
// and cell for cell; the writer's pages, nulls, dictionaries and fallbacks read back as written.
#include "export/celltable.h"
#include "export/parquetwriter.h"
#include "testutil.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTest>

#include <cmath>

using namespace ks;

namespace {

QStringList args(std::initializer_list<QString> items)
{
    return QStringList(items);
}

//! CSV text's rows of fields (RFC 4180: quoted fields, doubled quotes, commas and newlines inside).
QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> rows {QStringList()};
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"'))
                field += text[++i];
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                field += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            rows.back() << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            rows.back() << field;
            field.clear();
            rows << QStringList();
        } else {
            field += c;
        }
    }
    if (rows.back().isEmpty())
        rows.removeLast();
    return rows;
}

} // namespace

class TestParquet : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void ranksEqualTheirCsvExports_data();
    void ranksEqualTheirCsvExports();
    void hivePartitionsAreOneTable();
    void writerPagesNullsAndFallbacks();

private:
    //! DuckDB's answer to \a sql: {"columns": …, "rows": …}.
    QJsonObject query(const QString &sql);
    void compareWithCsv(
        const QJsonObject &parquet, const QList<QStringList> &csv, const QString &what);

    QString m_modules;
    QString m_out;
    QStringList m_ranks;
};

QJsonObject TestParquet::query(const QString &sql)
{
    const auto r = test::run(QStringLiteral("node"),
        {QDir(test::dataDir()).filePath(QStringLiteral("../cli/readparquet.mjs")), m_modules, sql});
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

void TestParquet::initTestCase()
{
    m_modules
        = QProcessEnvironment::systemEnvironment().value(QStringLiteral("KINETOSCOPE_NODE_MODULES"),
            QFileInfo(test::appPath()).dir().filePath(QStringLiteral("../../node/node_modules")));
    if (!QFileInfo::exists(m_modules + QStringLiteral("/@duckdb/node-api")))
        QSKIP("DuckDB's reader is absent: tools/fetch-duckdb.py (or set KINETOSCOPE_NODE_MODULES)");
    if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
        QSKIP("Node.js is absent: apt install nodejs");
    for (const QString &t : test::sharedTraces())
        if (t.contains(QStringLiteral("param_dlrm_worker")))
            m_ranks << t;
    std::sort(m_ranks.begin(), m_ranks.end());
    if (m_ranks.size() != 2)
        QSKIP("the shared DLRM ranks are absent (../shared/traces)");
    m_out = test::tempDir() + QStringLiteral("/parquet");
    const auto r = test::run(
        test::appPath(), args({QStringLiteral("--export-parquet"), m_out, m_ranks[0], m_ranks[1]}));
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

void TestParquet::ranksEqualTheirCsvExports_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("option");
    for (const auto &[table, option] :
        std::initializer_list<std::pair<const char *, const char *>> {{"pairs", "--export-pairs"},
            {"kernels", "--export-kernels"}, {"steps", "--export-steps"},
            {"kernel_summary", "--export-kernel-summary"}, {"memory", "--export-memory"},
            {"efficiency", "--export-efficiency"}, {"modules", "--export-modules"}})
        for (int rank = 0; rank < 2; ++rank)
            QTest::addRow("%s rank %d", table, rank)
                << QString::fromLatin1(table) << QString::fromLatin1(option);
    QTest::addRow("critical_path")
        << QStringLiteral("critical_path") << QStringLiteral("--export-critical-path");
}

/*
 * Each rank's file against the CSV export of its trace (the critical path: the run's export, its
 * rows of the rank): the same columns in order, named alike or with their unit added, the same
 * rows in order, each cell the same — a null where the CSV is empty, a number equal to the
 * CSV's text read as a double, a text equal to it.
 */
void TestParquet::ranksEqualTheirCsvExports()
{
    QFETCH(QString, table);
    QFETCH(QString, option);
    if (table == QLatin1String("critical_path")) {
        const auto csv = test::run(
            test::appPath(), args({option, QStringLiteral("-"), m_ranks[0], m_ranks[1]}));
        QCOMPARE(csv.exitCode, 0);
        const QList<QStringList> rows = parseCsv(QString::fromUtf8(csv.out));
        QVERIFY(rows.size() > 2 && rows[0][0] == QLatin1String("rank"));
        for (int rank = 0; rank < 2; ++rank) {
            QList<QStringList> own {rows[0].mid(1)}; // its rows, without the rank
            for (const QStringList &row : rows.mid(1))
                if (row[0] == QString::number(rank))
                    own << row.mid(1);
            compareWithCsv(query(QStringLiteral("SELECT * FROM "
                                                "read_parquet('%1/critical_path/rank=%2/"
                                                "part-0.parquet', hive_partitioning = false)")
                                     .arg(m_out)
                                     .arg(rank)),
                own, QStringLiteral("critical_path rank %1").arg(rank));
        }
        return;
    }
    const int rank = QString::fromLatin1(QTest::currentDataTag()).back().digitValue();
    const auto csv = test::run(test::appPath(), args({option, QStringLiteral("-"), m_ranks[rank]}));
    QCOMPARE(csv.exitCode, 0);
    const QJsonObject parquet = query(QStringLiteral(
        "SELECT * FROM read_parquet('%1/%2/rank=%3/part-0.parquet', hive_partitioning = false)")
                                          .arg(m_out, table)
                                          .arg(rank));
    compareWithCsv(parquet, parseCsv(QString::fromUtf8(csv.out)), table);
}

void TestParquet::compareWithCsv(
    const QJsonObject &parquet, const QList<QStringList> &csv, const QString &what)
{
    const QJsonArray columns = parquet[QStringLiteral("columns")].toArray();
    const QJsonArray rows = parquet[QStringLiteral("rows")].toArray();
    QVERIFY2(!csv.isEmpty(), qPrintable(what));
    QCOMPARE(columns.size(), csv[0].size());
    for (qsizetype c = 0; c < columns.size(); ++c) {
        const QString name = columns[c].toArray()[0].toString();
        QVERIFY2(name == csv[0][c] || name == csv[0][c] + QStringLiteral("_us")
                || name == csv[0][c] + QStringLiteral("_bytes"),
            qPrintable(what + QStringLiteral(": ") + name + QStringLiteral(" for ") + csv[0][c]));
    }
    QCOMPARE(rows.size(), csv.size() - 1);
    for (qsizetype r = 0; r < rows.size(); ++r) {
        const QJsonArray row = rows[r].toArray();
        for (qsizetype c = 0; c < row.size(); ++c) {
            const QString &expected = csv[r + 1][c];
            const QJsonValue cell = row[c];
            const QString where
                = QStringLiteral("%1 row %2 %3: '%4' vs %5")
                      .arg(what)
                      .arg(r)
                      .arg(csv[0][c], expected,
                          QString::fromUtf8(
                              QJsonDocument(QJsonArray {cell}).toJson(QJsonDocument::Compact)));
            if (cell.isNull())
                QVERIFY2(expected.isEmpty(), qPrintable(where));
            else if (cell.isDouble())
                QVERIFY2(cell.toDouble() == expected.toDouble(), qPrintable(where));
            else
                QVERIFY2(cell.toString() == expected, qPrintable(where));
        }
    }
}

/*
 * The folder as engines read it: every rank's kernels as one table, `rank` from the path, as many
 * rows per rank as --export-kernels writes; `_schema` names the format and each column's unit.
 */
void TestParquet::hivePartitionsAreOneTable()
{
    const QJsonObject counts = query(QStringLiteral(
        "SELECT rank, count(*) FROM read_parquet('%1/kernels/*/*.parquet', hive_partitioning = "
        "true) GROUP BY rank ORDER BY rank")
                                         .arg(m_out));
    const QJsonArray rows = counts[QStringLiteral("rows")].toArray();
    QCOMPARE(rows.size(), 2);
    for (int rank = 0; rank < 2; ++rank) {
        const auto csv = test::run(test::appPath(),
            args({QStringLiteral("--export-kernels"), QStringLiteral("-"), m_ranks[rank]}));
        QCOMPARE(rows[rank].toArray()[0].toVariant().toInt(), rank);
        QCOMPARE(rows[rank].toArray()[1].toVariant().toLongLong(), qint64(csv.out.count('\n') - 1));
    }
    const QJsonObject schema = query(QStringLiteral(
        "SELECT DISTINCT format_version, unit FROM read_parquet('%1/_schema/part-0.parquet') "
        "WHERE table_name = 'kernels' AND column_name = 'ts_us'")
                                         .arg(m_out));
    QCOMPARE(QJsonDocument(schema[QStringLiteral("rows")].toArray()).toJson(QJsonDocument::Compact),
        QByteArray(R"([["1","µs, file clock"]])"));
}

/*
 * The writer on what the shared traces do not have: 70 000 rows (two data pages), nulls in every
 * kind of column, "" kept in a TextOrEmpty column, a numeric column with a cell that is no
 * number (written as text, nothing lost), whole numbers past 2^53, and 70 000 distinct texts
 * (a dictionary past 1 MiB: PLAIN) beside a column of three (a dictionary).
 */
void TestParquet::writerPagesNullsAndFallbacks()
{
    CellTable t;
    t.addColumn("count", Cell::Integer, {});
    t.addColumn("start_us", Cell::Number, {});
    t.addColumn("name", Cell::Text, {});
    t.addColumn("label", Cell::TextOrEmpty, {});
    t.addColumn("odd", Cell::Integer, {});
    t.addColumn("kind", Cell::Text, {});
    constexpr int kRows = 70000;
    const auto cells = [](int i) {
        return std::array<std::string, 6> {i % 7 == 0 ? "" : std::to_string(9007199254740993LL + i),
            i % 5 == 0 ? "" : std::to_string(i) + ".125", "kernel number " + std::to_string(i),
            i % 3 == 0 ? "" : "x", i == 69999 ? "n/a" : std::to_string(i),
            i % 11 == 0 ? "" : std::to_string(i % 3)};
    };
    for (int i = 0; i < kRows; ++i) {
        t.addRow();
        for (std::string &cell : cells(i))
            t.add(std::move(cell));
    }
    const QString path = test::tempDir() + QStringLiteral("/edge.parquet");
    std::string error;
    QVERIFY2(writeParquet(t, path.toStdString(), error), error.c_str());
    const QJsonObject read = query(QStringLiteral("SELECT * FROM read_parquet('%1')").arg(path));
    const QJsonArray columns = read[QStringLiteral("columns")].toArray();
    QCOMPARE(QJsonDocument(columns).toJson(QJsonDocument::Compact),
        QByteArray(
            R"([["count","BIGINT"],["start_us","DOUBLE"],["name","VARCHAR"],["label","VARCHAR"],["odd","VARCHAR"],["kind","VARCHAR"]])"));
    const QJsonArray rows = read[QStringLiteral("rows")].toArray();
    QCOMPARE(rows.size(), kRows);
    for (int i = 0; i < kRows; ++i) {
        const QJsonArray row = rows[i].toArray();
        const auto expected = cells(i);
        for (int c = 0; c < 6; ++c) {
            const QString where = QStringLiteral("row %1 column %2").arg(i).arg(c);
            if (expected[size_t(c)].empty() && c != 3)
                QVERIFY2(row[c].isNull(), qPrintable(where));
            else if (c == 1)
                QVERIFY2(row[c].toDouble() == std::stod(expected[1]), qPrintable(where));
            else
                QVERIFY2(row[c].toString().toStdString() == expected[size_t(c)], qPrintable(where));
        }
    }
    // No rows: the columns alone, readable.
    CellTable empty;
    empty.addColumn("count", Cell::Integer, {});
    QVERIFY(writeParquet(empty, path.toStdString() + ".empty", error));
    const QJsonObject none
        = query(QStringLiteral("SELECT count(*) FROM read_parquet('%1.empty')").arg(path));
    QCOMPARE(none[QStringLiteral("rows")].toArray()[0].toArray()[0].toVariant().toInt(), 0);
}

QTEST_GUILESS_MAIN(TestParquet)
#include "tst_parquet.moc"
