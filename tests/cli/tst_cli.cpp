// SPDX-License-Identifier: MIT
// The command line of cli.md, run as a user runs it: the real binary, its exit codes, its stdout.
#include "export/moduletable.h"
#include "export/pairtable.h"
#include "runbuilder.h"
#include "session/comparedtraces.h"
#include "testutil.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <chrono>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace ks;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList args(std::initializer_list<QString> items)
{
    return QStringList(items);
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QString m_demo; // a generated trace, 3 steps
    QString m_demoTruth;

private slots:
    void initTestCase()
    {
        m_demo = test::tempDir() + QStringLiteral("/demo.pt.trace.json.gz");
        QCOMPARE(test::run(test::gentracePath(), args({m_demo})).exitCode, 0);
    }

    void versionAndHelp()
    {
        const auto v = test::run(test::appPath(), args({QStringLiteral("--version")}));
        QCOMPARE(v.exitCode, 0);
        QCOMPARE(v.out.trimmed(), QByteArray("kinetoscope 0.1.0"));
        const auto h = test::run(test::appPath(), args({QStringLiteral("--help")}));
        QCOMPARE(h.exitCode, 0);
        QVERIFY2(h.out.startsWith("Usage: kinetoscope [options] [FILE...]\n"), h.out.constData());
        for (const char *option : {"--demo", "--summary", "--export-pairs", "--export-kernels",
                 "--screenshot", "--view", "--select", "--range", "--size", "--version"})
            QVERIFY2(h.out.contains(option), option);
    }

    void usageErrorsExitOne_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("unknown option") << args({QStringLiteral("--frobnicate")});
        QTest::newRow("missing value") << args({QStringLiteral("--summary")});
        QTest::newRow("export without FILE")
            << args({QStringLiteral("--export-pairs"), QStringLiteral("out.csv")});
        QTest::newRow("two modes") << args({QStringLiteral("--summary"), QStringLiteral("a"),
            QStringLiteral("--export-pairs"), QStringLiteral("b"), QStringLiteral("c")});
        QTest::newRow("view without screenshot")
            << args({QStringLiteral("--view"), QStringLiteral("table")});
        QTest::newRow("bad view") << args({QStringLiteral("--screenshot"), QStringLiteral("o.png"),
            QStringLiteral("--view"), QStringLiteral("tree"), QStringLiteral("x.json")});
        QTest::newRow("bad size") << args({QStringLiteral("--screenshot"), QStringLiteral("o.png"),
            QStringLiteral("--size"), QStringLiteral("big"), QStringLiteral("x.json")});
        QTest::newRow("bad range") << args({QStringLiteral("--screenshot"), QStringLiteral("o.png"),
            QStringLiteral("--range"), QStringLiteral("5:1"), QStringLiteral("x.json")});
        QTest::newRow("no threads")
            << args({QStringLiteral("--threads"), QStringLiteral("0"), QStringLiteral("x.json")});
        QTest::newRow("threads not a number")
            << args({QStringLiteral("--threads"), QStringLiteral("all"), QStringLiteral("x.json")});
        QTest::newRow("live without a time") << args(
            {QStringLiteral("--export-live"), QStringLiteral("o.csv"), QStringLiteral("x.json")});
        QTest::newRow("live at what")
            << args({QStringLiteral("--export-live"), QStringLiteral("o.csv"),
                   QStringLiteral("--at"), QStringLiteral("end"), QStringLiteral("x.json")});
        QTest::newRow("at without live")
            << args({QStringLiteral("--at-us"), QStringLiteral("5"), QStringLiteral("x.json")});
        QTest::newRow("data loading without a path") << args(
            {QStringLiteral("--data-loading"), QStringLiteral("DataLoader"), QStringLiteral("x")});
        QTest::newRow("database to stdout")
            << args({QStringLiteral("--export-db"), QStringLiteral("-"), QStringLiteral("x.json")});
        QTest::newRow("bad path model")
            << args({QStringLiteral("--summary"), QStringLiteral("x.json"),
                   QStringLiteral("--critical-path-model"), QStringLiteral("fast")});
        QTest::newRow("path model without a path") << args(
            {QStringLiteral("--critical-path-model"), QStringLiteral("hta"), QStringLiteral("x")});
        QTest::newRow("data loading not a regex")
            << args({QStringLiteral("--summary"), QStringLiteral("x.json"),
                   QStringLiteral("--data-loading"), QStringLiteral("(DataLoader")});
    }
    // Issue #56: the "choose one of" message named 16 of the 18 modes (no --export-critical-path
    // nor --export-db); it is now made from the list the parser checks.
    void twoModesNameEveryMode()
    {
        const auto r = test::run(test::appPath(),
            args({QStringLiteral("--summary"), QStringLiteral("a"), QStringLiteral("--export-db"),
                QStringLiteral("b.sqlite"), QStringLiteral("c")}));
        QCOMPARE(r.exitCode, 1);
        for (const char *mode : {"--summary", "--export-pairs", "--export-kernels",
                 "--export-modules", "--export-memory", "--export-steps", "--export-kernel-summary",
                 "--export-live", "--export-efficiency", "--screenshot", "--export-diff",
                 "--export-ranks", "--export-collectives", "--export-rank-pairs",
                 "--export-critical-path", "--export-db", "--report", "--check"})
            QVERIFY2(r.err.contains(QByteArray(mode).append(','))
                    || r.err.contains(QByteArray(mode).append('\n')),
                mode);
    }

    /*
     * Issue #56: the options are named once (app/options.h, kTraceExports): every option the
     * usage message lists is in docs/cli.md's synopsis, and the synopsis names no other.
     */
    void everyOptionInTheSynopsis()
    {
        const auto help = test::run(test::appPath(), args({QStringLiteral("--help")}));
        QCOMPARE(help.exitCode, 0);
        QStringList listed;
        auto option = QRegularExpression(
            QStringLiteral("^  (?:-\\w, )?--([a-z-]+)"), QRegularExpression::MultilineOption)
                          .globalMatch(QString::fromUtf8(help.out));
        while (option.hasNext())
            listed << option.next().captured(1);
        listed.removeAll(QStringLiteral("help-all")); // Qt's own
        QVERIFY(listed.size() > 40);
        QFile docs(test::toolScript(QStringLiteral("../docs/cli.md")));
        QVERIFY(docs.open(QIODevice::ReadOnly));
        const QStringList blocks = QString::fromUtf8(docs.readAll()).split(QStringLiteral("```"));
        QVERIFY(blocks.size() > 4);
        const QString synopsis = blocks[1] + blocks[3]; // the first two code blocks
        QStringList documented;
        auto named
            = QRegularExpression(QStringLiteral("--([a-z][a-z-]*[a-z])")).globalMatch(synopsis);
        while (named.hasNext())
            documented << named.next().captured(1);
        documented.removeDuplicates();
        documented.sort();
        listed.sort();
        QCOMPARE(documented, listed);
    }

    // Issue #56: the charts are named once (ui/trace/chartnames.h): the usage message lists them
    // from that table, and the synopsis of docs/cli.md lists the same (it had lost roofline).
    void chartNamesOnceInUsageAndDocs()
    {
        const auto r = test::run(test::appPath(),
            args({QStringLiteral("--screenshot"), QStringLiteral("o.png"), QStringLiteral("--view"),
                QStringLiteral("chart"), QStringLiteral("--chart"), QStringLiteral("bogus"),
                QStringLiteral("x.json")}));
        QCOMPARE(r.exitCode, 1);
        const QRegularExpression listed(QStringLiteral("--chart must be one of ([a-z, -]+) \\("));
        const auto usage = listed.match(QString::fromUtf8(r.err));
        QVERIFY2(usage.hasMatch(), r.err.constData());
        QFile docs(test::toolScript(QStringLiteral("../docs/cli.md")));
        QVERIFY(docs.open(QIODevice::ReadOnly));
        const auto synopsis
            = QRegularExpression(QStringLiteral("--view chart --chart ([a-z|-]+) FILE"))
                  .match(QString::fromUtf8(docs.readAll()));
        QVERIFY(synopsis.hasMatch());
        QCOMPARE(synopsis.captured(1).split(QLatin1Char('|')),
            usage.captured(1).split(QStringLiteral(", ")));
    }

    // The views too (app/viewnames.h): every name the usage message lists is in the docs'
    // synopsis (`--view a|b|c` lines), and no other.
    void viewNamesOnceInUsageAndDocs()
    {
        const auto r = test::run(test::appPath(),
            args({QStringLiteral("--screenshot"), QStringLiteral("o.png"), QStringLiteral("--view"),
                QStringLiteral("bogus"), QStringLiteral("x.json")}));
        QCOMPARE(r.exitCode, 1);
        const auto usage
            = QRegularExpression(QStringLiteral("--view must be one of ([a-z, ]+) \\("))
                  .match(QString::fromUtf8(r.err));
        QVERIFY2(usage.hasMatch(), r.err.constData());
        QFile docs(test::toolScript(QStringLiteral("../docs/cli.md")));
        QVERIFY(docs.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(docs.readAll());
        QStringList documented;
        auto it = QRegularExpression(QStringLiteral("--view \\[?([a-z|]+)")).globalMatch(text);
        while (it.hasNext())
            documented += it.next().captured(1).split(QLatin1Char('|'));
        documented.removeDuplicates();
        documented.sort();
        QStringList listed = usage.captured(1).split(QStringLiteral(", "));
        listed.sort();
        QCOMPARE(documented, listed);
    }

    void usageErrorsExitOne()
    {
        QFETCH(QStringList, arguments);
        const auto r = test::run(test::appPath(), arguments);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("kinetoscope:"));
        QVERIFY(r.out.isEmpty());
    }

    // Issue #57: one trace's critical path says nothing of the ranks its world_size misses.
    void oneTracesCriticalPathWarnsNotOfRanks()
    {
        const QString shared = test::sharedTracesDir();
        if (shared.isEmpty())
            QSKIP("../shared/traces is absent: the 300-rank HTA trace is not at hand");
        const QString trace = shared
            + QStringLiteral(
                "/hta_cpu_only_full_b8cce2c_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
        const auto r = test::run(test::appPath(),
            {QStringLiteral("--export-critical-path"), test::tempDir() + QStringLiteral("/one.csv"),
                trace});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.err.contains("ranks"), r.err.constData());
    }

    // Issue #57: headless commands say only their own messages: no Qt platform notes
    // ("XDG_RUNTIME_DIR not set", "propagateSizeHints()") on stderr for a clean trace.
    void headlessStderrHoldsOnlyOurMessages()
    {
        const QString dir = test::tempDir();
        for (const QStringList &command :
            {QStringList {QStringLiteral("--screenshot"), dir + QStringLiteral("/quiet.png")},
                QStringList {QStringLiteral("--report"), dir + QStringLiteral("/quiet.html")},
                QStringList {QStringLiteral("--export-api-summary"), QStringLiteral("-")}}) {
            const auto r = test::run(test::appPath(), command + QStringList {m_demo});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.err.isEmpty(), r.err.constData());
        }
    }

    // --export-db writes a SQLite file (its header) holding the trace's SHA-256 as sha256sum
    // computes it (meta's source_sha256: SQLite stores the text as is), exit 0; an unwritable
    // target exits 3 and names it (tst_database reads the tables back).
    void exportDbWritesSqlite()
    {
        const QString db = test::tempDir() + QStringLiteral("/cli.sqlite");
        const auto r
            = test::run(test::appPath(), args({QStringLiteral("--export-db"), db, m_demo}));
        QCOMPARE(r.exitCode, 0);
        QFile file(db);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QCOMPARE(bytes.left(16), QByteArray("SQLite format 3", 16));
        const auto sum = test::run(QStringLiteral("sha256sum"), {m_demo});
        QCOMPARE(sum.exitCode, 0);
        const QByteArray hex = sum.out.left(64);
        QCOMPARE(hex.size(), 64);
        QVERIFY2(bytes.contains(hex), hex.constData());
        const QString bad = test::tempDir() + QStringLiteral("/no/such/dir/x.sqlite");
        const auto failed
            = test::run(test::appPath(), args({QStringLiteral("--export-db"), bad, m_demo}));
        QCOMPARE(failed.exitCode, 3);
        QVERIFY(failed.err.contains("no/such/dir"));
    }

    // tools/digest-run.sh: one database per rank file, the bad one listed with its exit code
    // (and the script's), never stopping the others; the ranks gathered into ranks.sqlite.
    void digestRunMapsEveryRank()
    {
        const QString in = test::tempDir() + QStringLiteral("/digest-in");
        const QString out = test::tempDir() + QStringLiteral("/digest-out");
        QVERIFY(QDir().mkpath(in));
        test::RankBuilder r0(0, 2), r1(1, 2);
        r0.step(1, 0, 1000).comm(100, 10, "0").pair("aten::mm", "MmBackward0", 1, 500, 12, 40);
        r1.step(1, 0, 1000).comm(120, 10, "0").pair("aten::mm", "MmBackward0", 1, 500, 14, 70);
        auto write = [&](const QString &name, const std::string &text) {
            QFile f(in + QLatin1Char('/') + name);
            return f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) > 0;
        };
        QVERIFY(write(QStringLiteral("rank0.json"), r0.json()));
        QVERIFY(write(QStringLiteral("rank1.json"), r1.json()));
        QVERIFY(write(QStringLiteral("broken.json"), "{\"traceEvents\": [{\"ph\": 7"));
        qputenv("KINETOSCOPE", test::appPath().toLocal8Bit());
        const auto r = test::run(QStringLiteral("bash"),
            {test::toolScript(QStringLiteral("digest-run.sh")), in, out, QStringLiteral("2")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("broken.json: exit 2"), r.err.constData());
        QVERIFY2(r.out.contains("2 of 3 rank file(s) digested"), r.out.constData());
        for (const char *db : {"/rank0.json.sqlite", "/rank1.json.sqlite", "/ranks.sqlite"}) {
            QFile f(out + QLatin1String(db));
            QVERIFY2(f.open(QIODevice::ReadOnly), db);
            QCOMPARE(f.read(16), QByteArray("SQLite format 3", 16));
        }
        // The pairs across ranks and the critical path across ranks from the databases are
        // those of the traces, byte for byte; a database is no input of --export-db.
        const auto fromDatabases = test::run(test::appPath(),
            args({QStringLiteral("--export-rank-pairs"), QStringLiteral("-"), out}));
        const auto fromTraces = test::run(test::appPath(),
            args({QStringLiteral("--export-rank-pairs"), QStringLiteral("-"),
                in + QStringLiteral("/rank0.json"), in + QStringLiteral("/rank1.json")}));
        QCOMPARE(fromDatabases.exitCode, 0);
        QCOMPARE(fromTraces.exitCode, 0);
        QVERIFY2(fromTraces.out.contains("aten::mm,,1,,12.000,40.000,14.000,70.000,30.000,1"),
            fromTraces.out.constData());
        QCOMPARE(fromDatabases.out, fromTraces.out);
        const auto path = test::run(test::appPath(),
            args({QStringLiteral("--export-critical-path"), QStringLiteral("-"), out}));
        const auto tracePath = test::run(test::appPath(),
            args({QStringLiteral("--export-critical-path"), QStringLiteral("-"),
                in + QStringLiteral("/rank0.json"), in + QStringLiteral("/rank1.json")}));
        QCOMPARE(path.exitCode, 0);
        QCOMPARE(tracePath.exitCode, 0);
        QVERIFY2(tracePath.out.count('\n') > 2, tracePath.out.constData());
        QCOMPARE(path.out, tracePath.out);
        const auto again = test::run(test::appPath(),
            args({QStringLiteral("--export-db"), out + QStringLiteral("/again.sqlite"), out}));
        QCOMPARE(again.exitCode, 1);
        // Options after -- reach each --export-db: a graph of another step, which the path
        // across the ranks (of the first step) then names.
        const QString stepOut = test::tempDir() + QStringLiteral("/digest-step");
        const auto withStep = test::run(QStringLiteral("bash"),
            {test::toolScript(QStringLiteral("digest-run.sh")), in, stepOut, QStringLiteral("1"),
                QStringLiteral("--"), QStringLiteral("--critical-path-step"), QStringLiteral("7")});
        QCOMPARE(withStep.exitCode, 2);
        const auto otherStep = test::run(test::appPath(),
            args({QStringLiteral("--export-critical-path"), QStringLiteral("-"), stepOut}));
        QVERIFY2(otherStep.err.contains(
                     "its database holds the path graph of ProfilerStep#7, not of ProfilerStep#1"),
            otherStep.err.constData());
    }

    /*
     * What an earlier digest left is never read as current (issue #60). A rank whose trace went
     * bad since (12 bytes of garbage mid-file) is digested again and named with what it lost;
     * a database of a trace no longer in the folder makes digest-run refuse the folder; a run
     * refuses a database whose trace changed since it was digested — another size, or the same
     * size with another SHA-256 where the trace is newer than the database.
     */
    void digestRunLeavesNothingStale()
    {
        const QString in = test::tempDir() + QStringLiteral("/stale-in");
        const QString out = test::tempDir() + QStringLiteral("/stale-out");
        QVERIFY(QDir().mkpath(in));
        test::RankBuilder r0(0, 2), r1(1, 2);
        r0.step(1, 0, 1000).comm(100, 10, "0").comm(300, 10, "0");
        r1.step(1, 0, 1000).comm(120, 10, "0").comm(310, 10, "0");
        const auto write = [&](const QString &name, const std::string &text) {
            QFile f(in + QLatin1Char('/') + name);
            return f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) > 0;
        };
        const auto digest = [&] {
            return test::run(QStringLiteral("bash"),
                {test::toolScript(QStringLiteral("digest-run.sh")), in, out, QStringLiteral("1")});
        };
        QVERIFY(write(QStringLiteral("rank0.json"), r0.json()));
        QVERIFY(write(QStringLiteral("rank1.json"), r1.json()));
        qputenv("KINETOSCOPE", test::appPath().toLocal8Bit());
        QCOMPARE(digest().exitCode, 0);

        // Rank 1 goes bad: garbage before its first kernel, so its GPU work and collectives are
        // lost. Its database is written again, and the digest, the run's exports and --check
        // name it.
        std::string bad = r1.json();
        const size_t at = bad.rfind('{', bad.find(R"("cat":"kernel")"));
        bad.insert(at, "garbagegarba");
        QVERIFY(write(QStringLiteral("rank1.json"), bad));
        const auto again = digest();
        QCOMPARE(again.exitCode, 0);
        const QByteArray lost = "data lost: byte " + QByteArray::number(qint64(at))
            + ": a syntax error (Invalid value.): the rest of the file was not read ("
            + QByteArray::number(qint64(bad.size() - at)) + " bytes holding about 4 events)";
        QVERIFY2(again.err.contains(QByteArray("rank1.json: " + lost)), again.err.constData());
        const auto ranks = test::run(test::appPath(),
            args({QStringLiteral("--export-collectives"), QStringLiteral("-"), out}));
        QCOMPARE(ranks.exitCode, 0);
        const QByteArray rank1 = "rank 1 (" + in.toUtf8() + "/rank1.json)";
        QVERIFY2(ranks.err.contains(QByteArray(rank1 + ": " + lost)), ranks.err.constData());
        QVERIFY2(ranks.err.contains(
                     QByteArray(rank1 + " ran no communication kernel where rank 0 ran 2")),
            ranks.err.constData());

        // A database of a trace that left the folder: refused, nothing removed.
        QVERIFY(QFile::copy(
            out + QStringLiteral("/rank0.json.sqlite"), out + QStringLiteral("/gone.json.sqlite")));
        const auto refused = digest();
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("gone.json.sqlite"), refused.err.constData());
        QVERIFY(QFile::exists(out + QStringLiteral("/rank0.json.sqlite")));
        QVERIFY(QFile::remove(out + QStringLiteral("/gone.json.sqlite")));

        // Rank 0's trace changes after its digest: a run leaves its database out (exit 2).
        const auto stale = [&](const std::string &text) {
            QTest::qWait(20); // a later modification time than the database's
            if (!write(QStringLiteral("rank0.json"), text))
                return QByteArray("cannot write");
            const auto r = test::run(test::appPath(),
                args({QStringLiteral("--export-ranks"), QStringLiteral("-"), out}));
            return r.exitCode == 2 ? r.err : "exit " + QByteArray::number(r.exitCode) + r.err;
        };
        const QByteArray longer = stale(r0.json() + " ");
        QVERIFY2(longer.contains(QByteArray("rank0.json.sqlite: stale: its trace " + in.toUtf8()
                     + "/rank0.json is " + QByteArray::number(qint64(r0.json().size() + 1))
                     + " bytes now, " + QByteArray::number(qint64(r0.json().size()))
                     + " when digested: digest it again")),
            longer.constData());
        std::string same = r0.json();
        same[same.find("ProfilerStep#1")] = 'p'; // the same size, another content
        const QByteArray changed = stale(same);
        QVERIFY2(changed.contains(QByteArray("rank0.json.sqlite: stale: its trace " + in.toUtf8()
                     + "/rank0.json changed since it was digested (another SHA-256)")),
            changed.constData());
        const QByteArray current = stale(r0.json()); // back as digested: current again
        QVERIFY2(current.startsWith("exit 0") && !current.contains("stale:"), current.constData());
    }

    // A 100 000-character op name and a pattern that backtracks on it: std::regex overflowed the
    // stack here (exit 139); the summary comes, and a simple pattern finds the name.
    void dataLoadingSurvivesLongNames()
    {
        const std::string longName(100000, 'a');
        std::string events = test::completeEvent("cpu_op", longName, 1, 0, 10);
        events += test::completeEvent("cpu_op", "b", 1, 20, 10);
        events.pop_back();
        const QString trace = test::writeTemp(
            QStringLiteral("long-name.json"), QByteArray::fromStdString(test::traceWith(events)));
        for (const auto &[pattern, loading] :
            {std::pair {"(a|b)*c", 0.0}, std::pair {"a+", 10.0}}) {
            const auto r = test::run(test::appPath(),
                args({QStringLiteral("--summary"), trace, QStringLiteral("--data-loading"),
                    QString::fromLatin1(pattern)}));
            QCOMPARE(r.exitCode, 0);
            const QJsonObject path = QJsonDocument::fromJson(r.out)
                                         .object()
                                         .value(QStringLiteral("critical_path"))
                                         .toObject();
            QCOMPARE(path.value(QStringLiteral("by_bound"))
                         .toObject()
                         .value(QStringLiteral("data_loading"))
                         .toDouble(),
                loading);
        }
    }

    /*
     * Two ops, a [0, 10] and b [20, 30]: the step model's path is the trace's 30 µs, HTA's the
     * ops' 20; a what-if at factor 1 gives the length back, one naming no event exits 1 with the
     * names close to it.
     */
    void pathModelsAndWhatIfsOnTheCommandLine()
    {
        std::string events = test::completeEvent("cpu_op", "aten::bmm", 1, 0, 10);
        events += test::completeEvent("cpu_op", "aten::mm", 1, 20, 10);
        events.pop_back();
        const QString trace = test::writeTemp(
            QStringLiteral("two-ops.json"), QByteArray::fromStdString(test::traceWith(events)));
        auto pathOf = [&](const QStringList &more) {
            const auto r
                = test::run(test::appPath(), args({QStringLiteral("--summary"), trace}) + more);
            return std::pair(r.exitCode,
                QJsonDocument::fromJson(r.out)
                    .object()
                    .value(QStringLiteral("critical_path"))
                    .toObject());
        };
        const auto [stepExit, step]
            = pathOf({QStringLiteral("--what-if"), QStringLiteral("aten::mm:1")});
        QCOMPARE(stepExit, 0);
        QCOMPARE(step.value(QStringLiteral("model")).toString(), QStringLiteral("step"));
        QCOMPARE(step.value(QStringLiteral("length_us")).toDouble(), 30.0);
        QCOMPARE(step.value(QStringLiteral("window_us")).toDouble(), 30.0);
        QCOMPARE(step.value(QStringLiteral("what_if"))
                     .toObject()
                     .value(QStringLiteral("length_us"))
                     .toDouble(),
            30.0);
        const auto [htaExit, hta]
            = pathOf({QStringLiteral("--critical-path-model"), QStringLiteral("hta")});
        QCOMPARE(htaExit, 0);
        QCOMPARE(hta.value(QStringLiteral("model")).toString(), QStringLiteral("hta"));
        QCOMPARE(hta.value(QStringLiteral("length_us")).toDouble(), 20.0);
        const auto unknown = test::run(test::appPath(),
            args({QStringLiteral("--summary"), trace, QStringLiteral("--what-if"),
                QStringLiteral("aten::m:0.5")}));
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.out.isEmpty());
        QVERIFY2(unknown.err.contains("no event named 'aten::m'")
                && unknown.err.contains("close: aten::mm, aten::bmm"),
            unknown.err.constData());
    }

    // Issue #58: --findings writes what --summary's "findings" holds, and each finding with a
    // saving gives, its change recomputed by --summary --what-if, the path less its saving.
    void findingsEqualTheirWhatIfs()
    {
        const QString out = test::tempDir() + QStringLiteral("/findings.json");
        QCOMPARE(
            test::run(test::appPath(), args({QStringLiteral("--findings"), out, m_demo})).exitCode,
            0);
        const QJsonObject doc
            = QJsonDocument::fromJson(QByteArray::fromStdString(test::traceText(out))).object();
        const QJsonArray findings = doc.value(QStringLiteral("findings")).toArray();
        const auto summary
            = test::run(test::appPath(), args({QStringLiteral("--summary"), m_demo}));
        QCOMPARE(QJsonDocument::fromJson(summary.out).object().value(QStringLiteral("findings")),
            QJsonValue(findings));
        int whatIfs = 0;
        for (const QJsonValue &v : findings) {
            const QJsonObject f = v.toObject();
            const QString how = f.value(QStringLiteral("how")).toString();
            if (f.value(QStringLiteral("saving_us")).isNull())
                continue;
            ++whatIfs;
            const auto r = test::run(test::appPath(),
                args({QStringLiteral("--summary"), m_demo, QStringLiteral("--what-if"), how}));
            const double length = QJsonDocument::fromJson(r.out)
                                      .object()[QStringLiteral("critical_path")]
                                      .toObject()[QStringLiteral("what_if")]
                                      .toObject()[QStringLiteral("length_us")]
                                      .toDouble();
            QCOMPARE(length,
                doc.value(QStringLiteral("path_us")).toDouble()
                    - f.value(QStringLiteral("saving_us")).toDouble());
        }
        QVERIFY(whatIfs >= 3); // the demo's data loading, syncs and pageable copy
    }

    /*
     * --findings of a run's folder: three ranks (tst_findings' late rank), rank 1 beginning
     * ProfilerStep#1 300 µs late and arriving last at the all-reduce: on time, 300 µs saved, as
     * --summary cannot say (one trace) but the rule's change recomputes. Databases are refused.
     */
    void findingsOfARun()
    {
        const QString dir = test::tempDir() + QStringLiteral("/findings-run");
        QVERIFY(QDir().mkpath(dir));
        test::RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
        r0.step(1, 0, 110).cpuOp("work", 10, 50).comm(100, 350);
        r1.step(1, 300, 110).cpuOp("work", 310, 50).comm(400, 50);
        r2.step(1, 0, 110).cpuOp("work", 10, 50).comm(100, 350);
        int rank = 0;
        for (const test::RankBuilder *r : {&r0, &r1, &r2}) {
            QFile f(dir + QStringLiteral("/rank%1.json").arg(rank++));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(r->json()));
        }
        const auto r = test::run(
            test::appPath(), args({QStringLiteral("--findings"), QStringLiteral("-"), dir}));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(QStringLiteral("path_us")).toDouble(), 450.0);
        const QJsonObject first = doc.value(QStringLiteral("findings")).toArray().at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("rule")).toString(), QStringLiteral("late_rank"));
        QCOMPARE(first.value(QStringLiteral("how")).toString(), QStringLiteral("on time: rank 1"));
        QCOMPARE(first.value(QStringLiteral("saving_us")).toDouble(), 300.0);
        const QJsonArray evidence = first.value(QStringLiteral("evidence")).toArray();
        QVERIFY(!evidence.isEmpty());
        for (const QJsonValue &e : evidence)
            QCOMPARE(e.toObject().value(QStringLiteral("rank")).toInt(), 1);
        const auto databases = test::run(test::appPath(),
            args({QStringLiteral("--findings"), QStringLiteral("-"),
                dir + QStringLiteral("/none.sqlite")}));
        QCOMPARE(databases.exitCode, 1);
        QVERIFY2(databases.err.contains("not on databases"), databases.err.constData());
    }

    void summaryHasEveryKey()
    {
        const auto r = test::run(test::appPath(), args({QStringLiteral("--summary"), m_demo}));
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        for (const char *key : {"file", "compressed", "events", "cpu_ops", "gpu_events", "flows",
                 "fwd_bwd_pairs", "pairs_from_flows", "pairs_from_sequence", "unpaired_backward",
                 "gpu_events_attributed", "steps", "truncated", "diagnostics", "load_seconds"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o[QStringLiteral("file")].toString(), m_demo);
        QCOMPARE(o[QStringLiteral("compressed")].toBool(), true);
        QCOMPARE(o[QStringLiteral("steps")].toInt(), 3); // gentrace --steps 3 (default)
        QVERIFY(o[QStringLiteral("diagnostics")].isObject());
        QVERIFY(o[QStringLiteral("load_seconds")].toDouble() >= 0);
    }

    void loadFailuresExitTwoWithOffset_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("missing") << test::tempDir() + QStringLiteral("/missing.json")
                                 << QByteArray(": byte 0: No such file or directory");
        QTest::newRow("directory") << test::tempDir() << QByteArray(": byte 0: is a directory");
        QTest::newRow("not JSON") << test::writeTemp(QStringLiteral("junk.json"), "hello world")
                                  << QByteArray(": byte 0: not a trace (not JSON): ");
        QTest::newRow("object without events") << test::writeTemp(
            QStringLiteral("empty.json"), "{}") << QByteArray(": byte 0: no traceEvents array");
        QTest::newRow("cut before any event")
            << test::writeTemp(QStringLiteral("cut.json"), "{\"traceEvents\": [{\"ph\":\"X\"")
            << QByteArray(": byte 26: the file ends before the first event");
        QTest::newRow("brackets only")
            << test::writeTemp(QStringLiteral("brackets.json"), QByteArray(100000, '['))
            << QByteArray(": byte 1: the file ends before the first complete trace event");
    }
    void loadFailuresExitTwoWithOffset()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, message);
        for (const char *mode : {"--summary", "--export-pairs"}) {
            QStringList a {QString::fromLatin1(mode)};
            if (QByteArray(mode) == "--export-pairs")
                a << QStringLiteral("-");
            a << path;
            const auto r = test::run(test::appPath(), a);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.startsWith(QByteArray(path.toUtf8() + message)), r.err.constData());
            QCOMPARE(r.err.count('\n'), 1); // one line
            QVERIFY(r.out.isEmpty());
        }
    }

    // `--check`: the generated trace has findings but no warning (exit 0); a kernel that starts
    // 5 µs before its launch is a warning (exit 4), named with the validator rule it follows;
    // a file that does not load stays exit 2, no file at all exit 1.
    void checkExitsFourOnWarnings()
    {
        const auto clean = test::run(test::appPath(), args({QStringLiteral("--check"), m_demo}));
        QCOMPARE(clean.exitCode, 0);
        const QJsonObject ok = QJsonDocument::fromJson(clean.out).object();
        QCOMPARE(ok[QStringLiteral("warnings")].toInt(), 0);
        for (const QJsonValue &f : ok[QStringLiteral("findings")].toArray())
            QCOMPARE(f[QStringLiteral("severity")].toString(), QStringLiteral("info"));

        const QString early = test::writeTemp(
            QStringLiteral("early.json"), test::kernelBeforeLaunchTrace().c_str());
        const auto r = test::run(test::appPath(), args({QStringLiteral("--check"), early}));
        QCOMPARE(r.exitCode, 4);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("warnings")].toInt(), 1);
        const QJsonArray findings = o[QStringLiteral("findings")].toArray();
        QCOMPARE(findings.size(), 1);
        const QJsonObject f = findings[0].toObject();
        QCOMPARE(f[QStringLiteral("check")].toString(), QStringLiteral("kernel_before_launch"));
        QCOMPARE(f[QStringLiteral("count")].toInt(), 1);
        QCOMPARE(f[QStringLiteral("file")].toString(), early);
        QCOMPARE(f[QStringLiteral("first_ts_us")].toDouble(), 15.0);
        QVERIFY(f[QStringLiteral("source")].toString().contains(
            QStringLiteral("check_gpu_kernel_causality")));

        const QString missing = test::tempDir() + QStringLiteral("/missing.json");
        QCOMPARE(
            test::run(test::appPath(), args({QStringLiteral("--check"), missing})).exitCode, 2);
        QCOMPARE(test::run(test::appPath(), args({QStringLiteral("--check")})).exitCode, 1);
    }

    void windowWithoutDisplaySaysHowInOneLine()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        p.setProcessEnvironment(env);
        p.start(test::appPath(), {QStringLiteral("--demo")});
        QVERIFY(p.waitForFinished(500000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // not Qt's abort
        QCOMPARE(p.exitCode(), 1);
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(err.count('\n'), 1);
        QVERIFY2(err.contains("no display") && err.contains("--screenshot"), err.constData());
    }

    void demoScreenshotNeedsNoFile()
    {
        const QString out = test::tempDir() + QStringLiteral("/demo.png");
        const auto r = test::run(test::appPath(),
            {QStringLiteral("--demo"), QStringLiteral("--screenshot"), out,
                QStringLiteral("--view"), QStringLiteral("timeline"), QStringLiteral("--size"),
                QStringLiteral("640x400")});
        QCOMPARE(r.exitCode, 0);
        const QImage image(out);
        QCOMPARE(image.size(), QSize(640, 400));
        // The demo's slices drawn, not an empty frame: many distinct colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    void truncatedTraceLoadsAndSaysSo()
    {
        // Cut a plain copy of the generated trace in the middle of its events.
        const auto gen = test::run(
            test::gentracePath(), args({test::tempDir() + QStringLiteral("/plain.json")}));
        QCOMPARE(gen.exitCode, 0);
        const QByteArray text = readFile(test::tempDir() + QStringLiteral("/plain.json"));
        const QString cut
            = test::writeTemp(QStringLiteral("cut-mid.json"), text.left(text.size() / 2));
        const auto r = test::run(test::appPath(), args({QStringLiteral("--summary"), cut}));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("truncated")].toBool(), true);
        QVERIFY(o[QStringLiteral("events")].toInt() > 100);
        QVERIFY(o[QStringLiteral("diagnostics")].toObject().contains(QStringLiteral("truncated")));

        // Cut before the first GPU event: the runtime launches survive, none of their kernels,
        // and the loss is said instead of a table of zeros.
        qsizetype firstKernel = text.size();
        for (const char *cat :
            {"\"cat\": \"kernel\"", "\"cat\": \"gpu_memcpy\"", "\"cat\": \"gpu_memset\""}) {
            const qsizetype at = text.indexOf(cat);
            firstKernel = at >= 0 ? std::min(firstKernel, at) : firstKernel;
        }
        QVERIFY(firstKernel > 0 && firstKernel < text.size());
        const QString noGpu = test::writeTemp(
            QStringLiteral("cut-before-gpu.json"), text.left(text.lastIndexOf('{', firstKernel)));
        const auto lost = test::run(test::appPath(), args({QStringLiteral("--summary"), noGpu}));
        QCOMPARE(lost.exitCode, 0);
        QCOMPARE(
            QJsonDocument::fromJson(lost.out).object()[QStringLiteral("gpu_events")].toInt(), 0);
        QVERIFY2(lost.err.contains("cut-before-gpu.json: data lost: byte ")
                && lost.err.contains("no GPU event survived: its GPU work is missing"),
            lost.err.constData());
        QVERIFY(!r.err.contains("survived")); // the mid cut kept GPU events
        // --check names the loss once, counting the launches left (by hand: the launch, copy
        // and set calls of the text kept), beside the cut itself (load_warnings) and nothing
        // lost or late on its own.
        static const QRegularExpression launch(QStringLiteral(
            R"re("cat": "cuda_runtime", "name": "cuda(LaunchKernel|MemcpyAsync|MemsetAsync)")re"));
        int launches = 0;
        for (auto it
             = launch.globalMatch(QString::fromUtf8(text.left(text.lastIndexOf('{', firstKernel))));
             it.hasNext(); it.next())
            ++launches;
        QVERIFY(launches >= 1);
        const auto check = test::run(test::appPath(), args({QStringLiteral("--check"), noGpu}));
        QCOMPARE(check.exitCode, 4);
        QStringList checks;
        for (const QJsonValue &f :
            QJsonDocument::fromJson(check.out).object()[QStringLiteral("findings")].toArray()) {
            checks << f[QStringLiteral("check")].toString();
            if (checks.back() == QStringLiteral("no_gpu_event_survived_cut"))
                QCOMPARE(f[QStringLiteral("count")].toInt(), launches);
        }
        QCOMPARE(checks.count(QStringLiteral("no_gpu_event_survived_cut")), 1);
        QVERIFY(!checks.contains(QStringLiteral("launch_after_window")));
        QVERIFY(!checks.contains(QStringLiteral("launch_without_gpu_event")));
        // The pairs' GPU columns are empty, not 0.000.
        const QString pairs = test::tempDir() + QStringLiteral("/cut-pairs.csv");
        QCOMPARE(test::run(test::appPath(), args({QStringLiteral("--export-pairs"), pairs, noGpu}))
                     .exitCode,
            0);
        const QList<QByteArray> lines = readFile(pairs).split('\n');
        QVERIFY(lines.size() > 10);
        const int fwdGpu = int(lines[0].split(',').indexOf("fwd_gpu_us"));
        const int bwdGpu = int(lines[0].split(',').indexOf("bwd_gpu_us"));
        QVERIFY(fwdGpu > 0 && bwdGpu > 0);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            if (lines[i].isEmpty() || lines[i].contains('"'))
                continue; // a quoted cell may hold commas
            const QList<QByteArray> cells = lines[i].split(',');
            QCOMPARE(cells[fwdGpu], QByteArray());
            QCOMPARE(cells[bwdGpu], QByteArray());
        }
    }

    void exportPairsCsvJsonAndStdout()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        const QByteArray expected
            = QByteArray::fromStdString(tableToCsv(PairTable(*opened.trace->graph)));

        const QString csv = test::tempDir() + QStringLiteral("/pairs.csv");
        QCOMPARE(test::run(test::appPath(), args({QStringLiteral("--export-pairs"), csv, m_demo}))
                     .exitCode,
            0);
        QCOMPARE(readFile(csv), expected);
        QVERIFY(expected.startsWith(
            "fwd_name,fwd_pid,fwd_tid,fwd_ts,fwd_dur,input_dims,sequence_numbers,link,bwd_names,"
            "bwd_pid,bwd_tid,bwd_ts,bwd_dur,fwd_gpu_events,fwd_gpu_us,bwd_gpu_events,bwd_gpu_us,"
            "step,module,recompute_gpu_events,recompute_gpu_us,recomputed_gpu_us,fwd_alloc_bytes,"
            "held_bytes,bwd_alloc_bytes,held_until,fwd_tflops,bwd_tflops,fwd_pct_roofline,"
            "bwd_pct_roofline,bound,critical_us\n"));

        const auto toStdout = test::run(
            test::appPath(), args({QStringLiteral("--export-pairs"), QStringLiteral("-"), m_demo}));
        QCOMPARE(toStdout.exitCode, 0);
        QCOMPARE(toStdout.out, expected);

        const QString json = test::tempDir() + QStringLiteral("/pairs.json");
        QCOMPARE(test::run(test::appPath(), args({QStringLiteral("--export-pairs"), json, m_demo}))
                     .exitCode,
            0);
        QJsonParseError error;
        const QJsonArray rows = QJsonDocument::fromJson(readFile(json), &error).array();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(size_t(rows.size()), opened.trace->graph->rows().size());
        const QJsonObject first = rows.first().toObject();
        QCOMPARE(first.keys().size(), int(PairTable::ColumnCount));
        QVERIFY(first[QStringLiteral("fwd_ts")].isDouble());
        QVERIFY(first[QStringLiteral("fwd_gpu_us")].isDouble());
        QVERIFY(first[QStringLiteral("bwd_names")].isArray());
        QVERIFY(first[QStringLiteral("input_dims")].isArray());
    }

    // A 20 MB text is split in two or three with --threads 2 and 3 (segments of 8 MB or more):
    // every export is the same as from one piece.
    void threadsChangeNoOutput()
    {
        const QString plain = test::tempDir() + QStringLiteral("/twenty.json");
        QCOMPARE(test::run(test::gentracePath(),
                     args({QStringLiteral("--target-mb"), QStringLiteral("20"), plain}))
                     .exitCode,
            0);
        for (const char *mode : {"--export-pairs", "--export-kernels", "--export-modules"}) {
            QByteArray outputs[3];
            for (int threads = 1; threads <= 3; ++threads) {
                const auto r = test::run(test::appPath(),
                    args({QString::fromLatin1(mode), QStringLiteral("-"),
                        QStringLiteral("--threads"), QString::number(threads), plain}));
                QCOMPARE(r.exitCode, 0);
                outputs[threads - 1] = r.out;
            }
            QVERIFY(outputs[0].count('\n') > 20); // rows, not only a header
            QCOMPARE(outputs[1], outputs[0]);
            QCOMPARE(outputs[2], outputs[0]);
        }
    }

    void exportKernelsOneRowPerGpuEvent()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        const QString csv = test::tempDir() + QStringLiteral("/kernels.csv");
        QCOMPARE(test::run(test::appPath(), args({QStringLiteral("--export-kernels"), csv, m_demo}))
                     .exitCode,
            0);
        const QList<QByteArray> lines = readFile(csv).trimmed().split('\n');
        QCOMPARE(size_t(lines.size() - 1), opened.trace->graph->gpuEvents().size());
        QVERIFY(lines.first().startsWith("name,kind,device,stream,ts,dur,correlation,launch_name"));
    }

    void exportModulesOneRowPerModulePath()
    {
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        const size_t modules = opened.trace->modules().nodes().size();
        const QString csv = test::tempDir() + QStringLiteral("/modules.csv");
        const auto r
            = test::run(test::appPath(), args({QStringLiteral("--export-modules"), csv, m_demo}));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains("nn.Module")); // says where the tree came from
        const QList<QByteArray> lines = readFile(csv).trimmed().split('\n');
        QCOMPARE(size_t(lines.size() - 1), modules);
        QVERIFY(lines.first().startsWith("module,name,depth,step,calls,"));
        QVERIFY(lines[1].startsWith("(all),"));
        const auto perStep = test::run(test::appPath(),
            args({QStringLiteral("--export-modules"), QStringLiteral("-"),
                QStringLiteral("--per-step"), m_demo}));
        QCOMPARE(perStep.exitCode, 0);
        QCOMPARE(size_t(perStep.out.trimmed().split('\n').size() - 1), modules * 3); // three steps
        QCOMPARE(
            test::run(test::appPath(), args({QStringLiteral("--per-step"), m_demo})).exitCode, 1);
    }

    /*
     * --export-live --at peak: the documented columns, cuda:0's rows adding up to the peak
     * --summary reports (the profiler's Total Allocated), every row with a category, the
     * forward ones with their module and Python stack; --at-us before the first event lists
     * nothing; a trace without Addr exits 2 saying why.
     */
    void exportLiveAddsUpToThePeak()
    {
        const QString trace = test::tempDir() + QStringLiteral("/memory.json");
        QCOMPARE(
            test::run(test::gentracePath(), args({QStringLiteral("--memory"), trace})).exitCode, 0);
        const auto live = test::run(test::appPath(),
            args({QStringLiteral("--export-live"), QStringLiteral("-"), QStringLiteral("--at"),
                QStringLiteral("peak"), trace}));
        QCOMPARE(live.exitCode, 0);
        QVERIFY2(live.err.contains("peak of cuda:0 at "), live.err.constData());
        const QList<QByteArray> lines = live.out.trimmed().split('\n');
        QCOMPARE(lines.first(),
            QByteArray("device,addr,bytes,category,alloc_ts,free_ts,alloc_op,module,pair_fwd_name,"
                       "pair_fwd_ts,step,python_stack"));
        qint64 cuda = 0;
        bool stacked = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> cells = lines[i].split(',');
            QVERIFY(!cells[3].isEmpty());
            cuda += cells[0] == "cuda:0" ? cells[2].toLongLong() : 0;
            stacked = stacked
                || (cells[3] == "activation" && !cells[7].isEmpty()
                    && cells.last().contains("forward"));
        }
        QVERIFY(stacked);
        const auto summary = test::run(test::appPath(), args({QStringLiteral("--summary"), trace}));
        const QJsonArray devices = QJsonDocument::fromJson(summary.out)
                                       .object()[QStringLiteral("memory_devices")]
                                       .toArray();
        QCOMPARE(
            cuda, devices.last().toObject()[QStringLiteral("peak_allocated_bytes")].toInteger());

        const auto before = test::run(test::appPath(),
            args({QStringLiteral("--export-live"), QStringLiteral("-"), QStringLiteral("--at-us"),
                QStringLiteral("0"), trace}));
        QCOMPARE(before.exitCode, 0);
        QCOMPARE(before.out.trimmed().split('\n').size(), 1); // the header only

        const QString noAddr = test::tempDir() + QStringLiteral("/noaddr.json");
        QFile f(noAddr);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(test::traceWith(R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":5,)"
                                R"("args":{"Device Type":1,"Device Id":0,"Bytes":64}})")
                    .c_str());
        f.close();
        const auto unknown = test::run(test::appPath(),
            args({QStringLiteral("--export-live"), QStringLiteral("-"), QStringLiteral("--at-us"),
                QStringLiteral("10"), noAddr}));
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("no Addr"), unknown.err.constData());
    }

    // --export-steps: the documented columns, one row per step, and the same numbers as
    // --summary's step_breakdown; busy + idle is the GPU span, the parts split busy.
    void exportStepsAgreesWithTheSummary()
    {
        const auto csv = test::run(
            test::appPath(), args({QStringLiteral("--export-steps"), QStringLiteral("-"), m_demo}));
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.first(),
            QByteArray("step,cpu_start_us,cpu_dur_us,gpu_start_us,gpu_end_us,busy_us,idle_us,"
                       "forward_us,backward_us,backward_other_us,recompute_us,communication_us,"
                       "memcpy_us,other_us"));
        QCOMPARE(lines.size(), 4); // three steps
        const auto summary
            = test::run(test::appPath(), args({QStringLiteral("--summary"), m_demo}));
        const QJsonArray steps = QJsonDocument::fromJson(summary.out)
                                     .object()[QStringLiteral("step_breakdown")]
                                     .toArray();
        QCOMPARE(steps.size(), 3);
        const QList<QByteArray> names = lines.first().split(',');
        for (int i = 0; i < 3; ++i) {
            const QList<QByteArray> cells = lines[i + 1].split(',');
            const QJsonObject o = steps[i].toObject();
            double parts = 0;
            for (int c = 0; c < names.size(); ++c) {
                QCOMPARE(o[QString::fromLatin1(names[c])].toDouble(), cells[c].toDouble());
                parts += c >= 7 ? cells[c].toDouble() : 0;
            }
            QVERIFY(std::abs(cells[4].toDouble() - cells[3].toDouble() - cells[5].toDouble()
                        - cells[6].toDouble())
                < 0.002);
            QVERIFY(std::abs(parts - cells[5].toDouble()) < 0.008);
        }
        const QString json = test::tempDir() + QStringLiteral("/steps.json");
        QCOMPARE(test::run(test::appPath(), args({QStringLiteral("--export-steps"), json, m_demo}))
                     .exitCode,
            0);
        QCOMPARE(QJsonDocument::fromJson(readFile(json)).array(), steps);
    }

    // --export-kernel-summary against the raw events of --export-kernels, summed here: count,
    // total, min, max per kernel name, rows by total, pct_gpu of all kernels' time.
    /*
     * --export-efficiency on the demo (an A100 SXM4 40 GB, float, with shapes): one row per
     * aten::mm instance the file holds; a matmul is compute-bound against a --peaks file giving
     * that device 1 TFLOP/s of matrix_fp32, so its roofline is FLOPs / 1e12 s = flops / 1e6 µs.
     * A peaks file without mem_bw_gbps is a usage error.
     */
    void exportEfficiencyAndUserPeaks()
    {
        const QString peaks = test::tempDir() + QStringLiteral("/peaks.json");
        QFile f(peaks);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"name":"A100-SXM4-40GB","mem_bw_gbps":1e9,)"
                R"("max_achievable_tflops":{"matrix_fp32":1}})");
        f.close();
        const auto r = test::run(test::appPath(),
            args({QStringLiteral("--peaks"), peaks, QStringLiteral("--export-efficiency"),
                QStringLiteral("-"), m_demo}));
        QCOMPARE(r.exitCode, 0);
        const QByteArray expected = "NVIDIA A100-SXM4-40GB: peaks from " + peaks.toUtf8();
        QVERIFY2(r.err.contains(expected), r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.first(),
            QByteArray("name,ts,input_dims,side,pair_fwd_name,pair_fwd_ts,flops,bytes,kernel_us,"
                       "tflops_per_s,tb_per_s,intensity,roofline_us,pct_roofline,bound,device,"
                       "dtype,model"));
        OpenResult opened = openTrace(m_demo.toStdString());
        QVERIFY(opened.trace);
        const TraceModel &m = *opened.trace->model;
        int matmuls = 0;
        for (SliceId s = 0; s < m.slices.size(); ++s)
            matmuls += m.sliceName(s) == "aten::mm";
        int rows = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            if (!lines[i].startsWith("aten::mm,"))
                continue;
            ++rows;
            // Input dims are quoted: count cells from the end.
            const QList<QByteArray> cells = lines[i].split(',');
            const qsizetype n = cells.size();
            QCOMPARE(cells[n - 1], QByteArray("aten_mm"));
            QCOMPARE(cells[n - 4], QByteArray("compute"));
            QVERIFY(
                std::fabs(cells[n - 6].toDouble() / (cells[n - 12].toDouble() / 1e6) - 1) < 1e-12);
        }
        QVERIFY(matmuls > 0);
        QCOMPARE(rows, matmuls);
        f.open(QIODevice::WriteOnly);
        f.write(R"({"name":"A100"})");
        f.close();
        const auto bad = test::run(test::appPath(),
            args({QStringLiteral("--peaks"), peaks, QStringLiteral("--summary"), m_demo}));
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("mem_bw_gbps"), bad.err.constData());
    }

    void exportKernelSummaryAddsUpTheEvents()
    {
        const QString eventsJson = test::tempDir() + QStringLiteral("/kernel-events.json");
        QCOMPARE(test::run(test::appPath(),
                     args({QStringLiteral("--export-kernels"), eventsJson, m_demo}))
                     .exitCode,
            0);
        struct Sums {
            int count = 0;
            double total = 0, min = 1e300, max = 0;
        };
        std::map<QString, Sums> byName;
        double all = 0;
        for (const QJsonValue &v : QJsonDocument::fromJson(readFile(eventsJson)).array()) {
            const QJsonObject e = v.toObject();
            if (e[QStringLiteral("kind")].toString() != QStringLiteral("kernel"))
                continue;
            Sums &s = byName[e[QStringLiteral("name")].toString()];
            const double dur = e[QStringLiteral("dur")].toDouble();
            ++s.count;
            s.total += dur;
            s.min = std::min(s.min, dur);
            s.max = std::max(s.max, dur);
            all += dur;
        }
        QVERIFY(!byName.empty());
        const QString out = test::tempDir() + QStringLiteral("/kernel-summary.json");
        QCOMPARE(test::run(test::appPath(),
                     args({QStringLiteral("--export-kernel-summary"), out, m_demo}))
                     .exitCode,
            0);
        const QJsonArray rows = QJsonDocument::fromJson(readFile(out)).array();
        QCOMPARE(size_t(rows.size()), byName.size());
        double previous = 1e300;
        for (const QJsonValue &v : rows) {
            const QJsonObject r = v.toObject();
            const Sums &s = byName.at(r[QStringLiteral("name")].toString());
            QCOMPARE(r[QStringLiteral("count")].toInt(), s.count);
            QVERIFY(std::abs(r[QStringLiteral("total_us")].toDouble() - s.total)
                < 0.0005 * s.count + 1e-9);
            QCOMPARE(r[QStringLiteral("min_us")].toDouble(), s.min);
            QCOMPARE(r[QStringLiteral("max_us")].toDouble(), s.max);
            QVERIFY(
                std::abs(r[QStringLiteral("pct_gpu")].toDouble() - 100 * s.total / all) < 0.006);
            QVERIFY(r[QStringLiteral("total_us")].toDouble() <= previous);
            previous = r[QStringLiteral("total_us")].toDouble();
        }
        const QByteArray header = test::run(test::appPath(),
            args({QStringLiteral("--export-kernel-summary"), QStringLiteral("-"), m_demo}))
                                      .out.split('\n')
                                      .first();
        QVERIFY2(
            header.startsWith("name,display_name,count,total_us,mean_us,min_us,max_us,pct_gpu,"),
            header.constData());
    }

    /*
     * Two ROCm kernels whose mangled names the demangler rejects both read ck::kernel<…> on the
     * timeline; the summary keeps them apart by the name as written. A's launches of 1 and 2 ns
     * have a mean of 1.5 ns: 2 ns rounded (the integer division gave 1).
     */
    void kernelSummaryKeepsWrittenNamesApart()
    {
        std::string events;
        const std::string gpu = R"("stream":7,"device":0)";
        events += test::completeEvent("kernel", "_ZN2ck6kernelI1AQQQE", 7, 10, 0.001, gpu);
        events += test::completeEvent("kernel", "_ZN2ck6kernelI1AQQQE", 7, 20, 0.002, gpu);
        events += test::completeEvent("kernel", "_ZN2ck6kernelI1BQQQE", 7, 30, 5, gpu);
        events.pop_back();
        const QString trace = test::writeTemp(
            QStringLiteral("mangled.json"), QByteArray::fromStdString(test::traceWith(events)));
        const auto r = test::run(test::appPath(),
            args({QStringLiteral("--export-kernel-summary"), QStringLiteral("-"), trace}));
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[1].startsWith("_ZN2ck6kernelI1BQQQE,ck::kernel<…>,1,5.000,5.000,"),
            lines[1].constData());
        QVERIFY2(
            lines[2].startsWith("_ZN2ck6kernelI1AQQQE,ck::kernel<…>,2,0.003,0.002,0.001,0.002,"),
            lines[2].constData());
    }

    void compareExportsTheDiff()
    {
        const QString candidate = test::tempDir() + QStringLiteral("/candidate.json");
        QCOMPARE(test::run(test::gentracePath(),
                     args({QStringLiteral("--seed"), QStringLiteral("5"), candidate}))
                     .exitCode,
            0);
        OpenResult base = openTrace(m_demo.toStdString()),
                   cand = openTrace(candidate.toStdString());
        std::string error;
        auto compared = ComparedTraces::make(base.trace, cand.trace, {}, error);
        QVERIFY(compared);
        const QString csv = test::tempDir() + QStringLiteral("/diff.csv");
        const auto r = test::run(test::appPath(),
            args({QStringLiteral("--compare"), m_demo, QStringLiteral("--export-diff"), csv,
                candidate}));
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = readFile(csv).trimmed().split('\n');
        QCOMPARE(size_t(lines.size() - 1), compared->diff->entries().size());
        QVERIFY(lines.first().startsWith("status,changes,fwd_name,"));
        // Same model, other seed: every pair matches, only times differ.
        QCOMPARE(
            compared->diff->count(DiffStatus::Matched), uint32_t(compared->diff->entries().size()));
        const auto ops = test::run(test::appPath(),
            args({QStringLiteral("--compare"), m_demo, QStringLiteral("--export-diff"),
                QStringLiteral("-"), QStringLiteral("--diff-by"), QStringLiteral("ops"),
                candidate}));
        QCOMPARE(ops.exitCode, 0);
        QVERIFY(ops.out.startsWith("fwd_name,input_dims,bwd_names,"));
        const auto step = test::run(test::appPath(),
            args({QStringLiteral("--compare"), m_demo, QStringLiteral("--export-diff"),
                QStringLiteral("-"), QStringLiteral("--step"), QStringLiteral("11"), candidate}));
        QCOMPARE(step.exitCode, 0);
        QCOMPARE(
            step.out.trimmed().split('\n').size() - 1, 30); // the demo has 30 pair rows per step
        const auto missingStep = test::run(test::appPath(),
            args({QStringLiteral("--compare"), m_demo, QStringLiteral("--export-diff"),
                QStringLiteral("-"), QStringLiteral("--step"), QStringLiteral("99"), candidate}));
        QCOMPARE(missingStep.exitCode, 1);
        QVERIFY(missingStep.err.contains("99"));
        QCOMPARE(test::run(test::appPath(), args({QStringLiteral("--export-diff"), csv, candidate}))
                     .exitCode,
            1);
        QCOMPARE(
            test::run(test::appPath(),
                args({QStringLiteral("--compare"), m_demo, QStringLiteral("--export-diff"), csv}))
                .exitCode,
            1);
        QCOMPARE(
            test::run(test::appPath(),
                args({QStringLiteral("--compare"), test::tempDir() + QStringLiteral("/none.json"),
                    QStringLiteral("--export-diff"), csv, candidate}))
                .exitCode,
            2);
        const QString png = test::tempDir() + QStringLiteral("/compare.png");
        const auto shot = test::run(test::appPath(),
            args({QStringLiteral("--compare"), m_demo, QStringLiteral("--screenshot"), png,
                QStringLiteral("--size"), QStringLiteral("1200x800"), candidate}));
        QCOMPARE(shot.exitCode, 0);
        // PNG: width and height are the big-endian words at bytes 16 and 20 (IHDR).
        const QByteArray header = readFile(png).left(24);
        QVERIFY(header.startsWith("\x89PNG"));
        auto word = [&](int at) {
            return (uint32_t(uint8_t(header[at])) << 24) | (uint32_t(uint8_t(header[at + 1])) << 16)
                | (uint32_t(uint8_t(header[at + 2])) << 8) | uint32_t(uint8_t(header[at + 3]));
        };
        QCOMPARE(word(16), 1200u);
        QCOMPARE(word(20), 800u);
    }

    // A write that fails (here: the file-size limit, like a full disk) exits 3 and leaves the
    // earlier file as it was; the input is never touched.
    void failedWriteExitsThreeAndKeepsOldFile()
    {
        const QString out = test::writeTemp(QStringLiteral("keep.csv"), "earlier export\n");
        const QByteArray before = readFile(m_demo);
        const QString script
            = QStringLiteral("ulimit -f 4; trap '' XFSZ; exec \"$0\" --export-pairs \"$1\" \"$2\"");
        const auto r = test::run(QStringLiteral("/bin/bash"),
            args({QStringLiteral("-c"), script, test::appPath(), out, m_demo}));
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.err.contains(out.toUtf8()));
        QCOMPARE(readFile(out), QByteArray("earlier export\n"));
        QCOMPARE(readFile(m_demo), before);

        const auto dir = test::run(
            test::appPath(), args({QStringLiteral("--export-pairs"), test::tempDir(), m_demo}));
        QCOMPARE(dir.exitCode, 3);
        const auto noDir = test::run(test::appPath(),
            args({QStringLiteral("--export-pairs"),
                test::tempDir() + QStringLiteral("/no/such/dir/x.csv"), m_demo}));
        QCOMPARE(noDir.exitCode, 3);
    }

    // Exports to a FIFO (like /dev/null, not a regular file) are written into it, and the FIFO
    // stays a FIFO; an export through a symbolic link replaces the link's target, not the link.
    // (An atomic rename over /dev/null once turned it into a regular file.)
    void exportsKeepSpecialFilesAndLinks()
    {
        const QString fifo = test::tempDir() + QStringLiteral("/pipe.csv");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        // Read without blocking, so that a broken export (the FIFO renamed away) fails the test
        // instead of hanging it: read until the writer closes, or give up after 120 s.
        QByteArray received;
        const int fd = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(fd >= 0);
        std::thread reader([&] {
            char buffer[65536];
            for (int waited = 0; waited < 12000; ++waited) {
                const ssize_t n = ::read(fd, buffer, sizeof buffer);
                if (n > 0)
                    received.append(buffer, n);
                else if (n == 0 && !received.isEmpty())
                    return; // the writer closed
                else
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        });
        const auto r
            = test::run(test::appPath(), args({QStringLiteral("--export-pairs"), fifo, m_demo}));
        reader.join();
        ::close(fd);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(received.startsWith("fwd_name,"));
        QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile());

        const QString target = test::writeTemp(QStringLiteral("target.csv"), "old\n");
        const QString link = test::tempDir() + QStringLiteral("/link.csv");
        QVERIFY(QFile::link(target, link));
        QCOMPARE(test::run(test::appPath(), args({QStringLiteral("--export-pairs"), link, m_demo}))
                     .exitCode,
            0);
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(readFile(target).startsWith("fwd_name,"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
