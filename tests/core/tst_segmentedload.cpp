// SPDX-License-Identifier: MIT
// Parsing a text in segments side by side (LoadOptions::threads) must give the model a parse in
// one piece gives, whatever the count and wherever the splits fall: whole models are compared as
// text (modeldump.h), on the shared traces, the generator's traces, and texts built to put a
// split where it would go wrong unnoticed (inside strings, nested arrays, top-level arrays, a B
// and its E apart, an error or a cut-off text).
#include "../hostiletrace.h"
#include "../modeldump.h"
#include "../testutil.h"
#include "load/internal/deflateengine.h"

#include <QFile>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <functional>
#include <sstream>

using namespace ks;

namespace {

//! Joins its arguments as text (not with +: GCC 12 warns falsely, -Wrestrict).
template<typename... Parts> std::string cat(const Parts &...parts)
{
    std::ostringstream o;
    (o << ... << parts);
    return o.str();
}

//! With zlib, a gzip text is cut as it is inflated (streamedsegments.h) from three threads on;
//! with ISA-L, as a plain text is (GzipSegments) from two.
enum class Gzip { Fast, Zlib };

LoadOptions withThreads(unsigned threads, Gzip gzip = Gzip::Fast)
{
    LoadOptions options;
    options.threads = threads;
    options.inflateWithZlib = gzip == Gzip::Zlib;
    options.minSegmentBytes = 1; // split anything, however small
    options.builderThread = false;
    return options;
}

//! All a load gives: its status, its message, the whole model.
std::string outcomeOf(const LoadResult &r)
{
    std::ostringstream o;
    o << int(r.status) << ' ' << r.error << '\n';
    if (r.model)
        o << test::dumpModel(*r.model) << test::dumpIdOrder(*r.model);
    return o.str();
}

//! The load of the file at \a path with \a threads, as outcomeOf() tells it.
std::string loadFile(
    const QString &path, unsigned threads, unsigned *pieces = nullptr, Gzip gzip = Gzip::Fast)
{
    const LoadResult r = loadTrace(path.toStdString(), withThreads(threads, gzip));
    if (pieces)
        *pieces = r.pieces;
    return outcomeOf(r);
}

//! Writes \a bytes to a file of the test's temporary folder named \a name; its path.
QString writeFile(const QString &name, const QByteArray &bytes)
{
    const QString path = test::tempDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

//! Plain events around hostile ones: splits are true at first, false among the hostile ones.
QByteArray mixedTrace()
{
    std::string plain;
    for (int i = 0; i < 400; ++i)
        plain += cat(R"({"ph":"X","name":"op)", i % 7, R"(","pid":1,"tid":)", 1 + i % 3,
            R"(,"ts":)", 10 * i, R"(,"dur":5},)");
    return QByteArray::fromStdString(cat(R"({"traceEvents":[)", plain, test::hostileEvents(60), ",",
        plain, R"({"ph":"i","name":"end","pid":1,"tid":1,"ts":1})", "]}"));
}

std::string loadText(const std::string &text, unsigned threads, unsigned *pieces = nullptr)
{
    const LoadResult r = loadTraceText(text, "t.json", withThreads(threads));
    if (pieces)
        *pieces = r.pieces;
    return outcomeOf(r);
}

/*!
 * What differs from \a whole, the load in one piece, when \a load (threads, pieces out) splits
 * the text for each count of \a counts, or that it did not split it; empty when nothing.
 */
std::string splitProblem(const std::string &whole,
    const std::function<std::string(unsigned, unsigned *)> &load,
    std::initializer_list<unsigned> counts)
{
    for (unsigned threads : counts) {
        unsigned pieces = 0;
        const std::string split = load(threads, &pieces);
        if (pieces < 2)
            return cat(threads, " threads: the text was not split");
        const std::string difference = test::firstDifference(whole, split);
        if (!difference.empty())
            return cat(threads, " threads, ", difference);
    }
    return {};
}

/*!
 * One row per shared trace, or a skip when there is none. Under
 * ThreadSanitizer only the files under 1 MB: a race shows in the segments' hand-offs on any
 * trace, and every trace's models are compared in the release and ASan runs (the larger three
 * took 70 of this test's 144 s under TSan).
 */
void addSharedTraceRows()
{
    QTest::addColumn<QString>("path");
    const QStringList traces = test::sharedTraces();
    if (traces.isEmpty())
        QSKIP("../shared/traces is absent (a user's clone has none)");
    for (const QString &path : traces) {
        if (!test::kThreadSanitizer || QFileInfo(path).size() < 1'000'000)
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }
}

} // namespace

class TestSegmentedLoad : public QObject {
    Q_OBJECT

private slots:
    // Each shared trace's text in memory split in 2 and 7 and, for a gzip file, its text parsed
    // in segments from seek points (ISA-L) with 2 and 7 threads and as it is inflated (zlib)
    // with 3 and 7, against one load in one piece.
    void sharedTraces_data() { addSharedTraceRows(); }
    void sharedTraces()
    {
        QFETCH(QString, path);
        const std::string text = test::traceText(path);
        QVERIFY(!text.empty());
        const std::string whole = loadText(text, 1);
        std::string problem = splitProblem(whole,
            [&](unsigned threads, unsigned *pieces) { return loadText(text, threads, pieces); },
            {2u, 7u});
        QVERIFY2(problem.empty(), ("in memory, " + problem).c_str());
        if (!path.endsWith(QStringLiteral(".gz")))
            return;
        problem = splitProblem(whole,
            [&](unsigned threads, unsigned *pieces) { return loadFile(path, threads, pieces); },
            {2u, 7u});
        QVERIFY2(problem.empty(), ("gzip file, " + problem).c_str());
        problem = splitProblem(whole,
            [&](unsigned threads, unsigned *pieces) {
                return loadFile(path, threads, pieces, Gzip::Zlib);
            },
            {3u, 7u});
        QVERIFY2(problem.empty(), ("gzip file, zlib, " + problem).c_str());
    }

    // Gzip files of texts whose splits go wrong, cut or corrupt gzip, several members: the
    // segments give what one piece gives, or leave the text to one piece, with either inflater
    // (on corrupt data ISA-L may give a few bytes more than zlib: each against its own).
    void hostileGzipFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("hostile") << test::gzip(QByteArray::fromStdString(test::hostileTrace(60)));
        const QByteArray trace = mixedTrace();
        const QByteArray gz = test::gzip(trace);
        QTest::newRow("one member") << gz;
        QTest::newRow("bare array")
            << test::gzip(QByteArray::fromStdString(cat("[", test::hostileEvents(60), "]")));
        QByteArray members;
        for (qsizetype at = 0; at < trace.size(); at += 4000)
            members += test::gzip(trace.mid(at, 4000));
        QTest::newRow("members of 4000 bytes") << members;
        QTest::newRow("gzip cut off") << test::gzip(trace, gz.size() * 2 / 3);
        QByteArray corrupt = gz;
        corrupt[corrupt.size() / 2] = char(corrupt[corrupt.size() / 2] ^ 0x55);
        QTest::newRow("corrupt gzip") << corrupt;
        QTest::newRow("text cut off") << test::gzip(trace.left(trace.size() * 2 / 3));
        QByteArray broken = trace;
        broken[broken.size() / 2] = '#';
        QTest::newRow("syntax error") << test::gzip(broken);
        QTest::newRow("trailing garbage") << gz + QByteArray("garbage");
        QTest::newRow("empty text") << test::gzip(QByteArray());
    }
    void hostileGzipFiles()
    {
        QFETCH(QByteArray, bytes);
        const QString path = writeFile(QStringLiteral("hostile.json.gz"), bytes);
        QVERIFY(!path.isEmpty());
        const std::string whole = loadFile(path, 1),
                          wholeZlib = loadFile(path, 1, nullptr, Gzip::Zlib);
        // Every count in the release and ASan runs; three under TSan, where each load is slow.
        const unsigned step = test::kThreadSanitizer ? 4 : 1;
        for (unsigned threads = 2; threads <= 12; threads += step) {
            std::string difference = test::firstDifference(whole, loadFile(path, threads));
            QVERIFY2(difference.empty(), cat(threads, " threads, ", difference).c_str());
            difference
                = test::firstDifference(wholeZlib, loadFile(path, threads, nullptr, Gzip::Zlib));
            QVERIFY2(difference.empty(), cat(threads, " threads, zlib, ", difference).c_str());
        }
    }

    // Every bad input of tests/data/bad and a generated trace cut at 13 lengths or broken near its
    // end, gzipped (the fuzzer's seeds), each loaded with 3 and 5 threads against one piece.
    void cutAndBadGzipTexts()
    {
        const QString gen = test::tempDir() + QStringLiteral("/small.json");
        QCOMPARE(test::run(test::gentracePath(),
                     QStringList {QStringLiteral("--steps"), QStringLiteral("1"), gen})
                     .exitCode,
            0);
        QFile f(gen);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray trace = f.readAll();
        std::vector<QByteArray> texts;
        for (qsizetype cut = 100; cut < trace.size(); cut += trace.size() / 13)
            texts.push_back(trace.left(cut));
        // A syntax error in the last segment: the parse stops before the text's end.
        QByteArray late = trace;
        late[late.lastIndexOf("\"ts\":", late.size() - late.size() / 100) + 5] = '#';
        texts.push_back(late);
        const QDir bad(test::dataDir() + QStringLiteral("/bad"));
        for (const QString &name : bad.entryList(QDir::Files)) {
            QFile b(bad.filePath(name));
            QVERIFY(b.open(QIODevice::ReadOnly));
            texts.push_back(b.readAll());
        }
        for (size_t i = 0; i < texts.size(); ++i) {
            const QString path = writeFile(QStringLiteral("cut.json.gz"), test::gzip(texts[i]));
            const std::string whole = loadFile(path, 1);
            // The fuzzer tries every count from 2 to 5.
            for (auto [threads, gzip] : {std::pair {2u, Gzip::Fast}, {3u, Gzip::Zlib},
                     {5u, Gzip::Fast}, {5u, Gzip::Zlib}}) {
                const std::string difference
                    = test::firstDifference(whole, loadFile(path, threads, nullptr, gzip));
                QVERIFY2(difference.empty(),
                    cat("text ", i, " (", texts[i].size(), " bytes), ", threads, " threads, ",
                        difference)
                        .c_str());
            }
        }
    }

    // The checks above must see streamed splits kept and the rest read in one piece: with a
    // syntax error half-way through, the segments before it are kept (pieces: those and one
    // more), unless the first one falls on a false split.
    void gzipSplitsKeptBeforeAnError()
    {
        QByteArray broken = mixedTrace();
        broken[broken.size() / 2] = '#';
        const QString path = writeFile(QStringLiteral("broken.json.gz"), test::gzip(broken));
        unsigned most = 0;
        for (unsigned threads = 3; threads <= 12; ++threads) {
            unsigned pieces = 0;
            loadFile(path, threads, &pieces, Gzip::Zlib);
            most = std::max(most, pieces);
        }
        QVERIFY2(most > 2, cat("at most ", most, " pieces").c_str());
    }

    // Files (FileSegments, each segment read by its own reader), from the generator.
    void generatedFiles_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString steps = QStringLiteral("--steps"), two = QStringLiteral("2");
        QTest::newRow("plain") << QStringList {steps, two};
        QTest::newRow("memory, checkpointing")
            << QStringList {steps, two, QStringLiteral("--memory"), QStringLiteral("--checkpoint")};
    }
    void generatedFiles()
    {
        QFETCH(QStringList, args);
        const QString path = test::tempDir() + QStringLiteral("/generated.json");
        QCOMPARE(test::run(test::gentracePath(), QStringList(args) << path).exitCode, 0);
        const std::string file = path.toStdString();
        LoadOptions one = withThreads(1);
        const std::string whole = outcomeOf(loadTrace(file, one));
        for (unsigned threads : {2u, 7u}) {
            const LoadResult r = loadTrace(file, withThreads(threads));
            QCOMPARE(r.pieces, threads);
            const std::string difference = test::firstDifference(whole, outcomeOf(r));
            QVERIFY2(difference.empty(), difference.c_str());
        }
    }

    // A load in segments reports its progress (rising, to the end) and stops when cancelled.
    void progressAndCancel_data()
    {
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<bool>("zlib");
        QTest::newRow("plain") << false << false;
        QTest::newRow("gzip") << true << false;
        QTest::newRow("gzip, zlib") << true << true;
    }
    void progressAndCancel()
    {
        QFETCH(bool, gzip);
        QFETCH(bool, zlib);
        QString path = test::tempDir() + QStringLiteral("/twenty.json");
        QCOMPARE(test::run(test::gentracePath(),
                     QStringList {QStringLiteral("--target-mb"), QStringLiteral("20"), path})
                     .exitCode,
            0);
        if (gzip) {
            QFile plain(path);
            QVERIFY(plain.open(QIODevice::ReadOnly));
            path = writeFile(QStringLiteral("twenty.json.gz"), test::gzip(plain.readAll()));
        }
        LoadOptions options = withThreads(3, zlib ? Gzip::Zlib : Gzip::Fast);
        std::vector<int> seen;
        options.progress = [&](int permille) { seen.push_back(permille); };
        const LoadResult loaded = loadTrace(path.toStdString(), options);
        QCOMPARE(loaded.status, LoadResult::Status::Loaded);
        // Plain and gzip with ISA-L: a segment per thread; with zlib, kStreamedSegmentsPerThread
        // per thread, about.
        if (zlib || fastestInflater() == Inflater::Zlib)
            QVERIFY2(loaded.pieces >= 20, cat(loaded.pieces, " pieces").c_str());
        else
            QCOMPARE(loaded.pieces, 3u);
        QVERIFY(seen.size() > 2);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1000);
        QVERIFY2(seen[seen.size() / 2] < 1000, "progress was not reported along the way");

        std::atomic<bool> cancel {true};
        options.progress = {};
        options.cancel = &cancel;
        const LoadResult cancelled = loadTrace(path.toStdString(), options);
        QCOMPARE(cancelled.status, LoadResult::Status::Cancelled);
        QVERIFY(!cancelled.model);
    }

    // Every count from 2 to 40 puts the splits elsewhere: in names holding "},{", in nested
    // arrays of objects, in the top-level arrays before and after traceEvents, between a B and
    // its E. Each false split must be found and that part read again in one piece.
    void hostileSplitsChangeNothing_data()
    {
        QTest::addColumn<std::string>("text");
        const std::string trace = test::hostileTrace(60);
        QTest::newRow("object") << trace;
        QTest::newRow("bare array") << cat("[", test::hostileEvents(60), "]");
        QTest::newRow("cut off") << trace.substr(0, trace.size() * 2 / 3);
        QTest::newRow("cut off in the keys after") << trace.substr(0, trace.size() - 40);
        std::string broken = trace;
        broken[broken.size() / 2] = '#';
        QTest::newRow("syntax error") << broken;
        std::string control = trace;
        control[control.find("a},{", control.size() / 2)] = '\x01';
        QTest::newRow("raw control character (repaired)") << control;
        std::string nul = trace;
        nul[nul.size() * 3 / 5] = '\0';
        QTest::newRow("zero byte") << nul;
        QTest::newRow("names not UTF-8") << test::oddNamesOrIds(80, false);
        QTest::newRow("numbers among text keys") << test::oddNamesOrIds(80, true);
        QTest::newRow("traceEvents twice") << cat(R"({"traceEvents":[)", test::hostileEvents(20),
            R"(],"traceEvents":[)", test::hostileEvents(20), "]}");
        QTest::newRow("not a trace")
            << cat(R"({"a":[)", std::string(2000, ' '), R"({"b":1},{"c":2}]})");
    }
    void hostileSplitsChangeNothing()
    {
        QFETCH(std::string, text);
        const std::string whole = loadText(text, 1);
        for (unsigned threads = 2; threads <= 40; ++threads) {
            const std::string split = loadText(text, threads);
            const std::string difference = test::firstDifference(whole, split);
            QVERIFY2(difference.empty(), cat(threads, " threads, ", difference).c_str());
        }
    }

    // The checks above must see splits taken and splits refused: a test of a parse that never
    // split, or never doubted a split, would prove nothing.
    void falseSplitsAreFoundAndTrueOnesKept()
    {
        const std::string trace = test::hostileTrace(60);
        unsigned kept = 0, refused = 0;
        for (unsigned threads = 2; threads <= 40; ++threads) {
            unsigned pieces = 0;
            loadText(trace, threads, &pieces);
            kept += pieces == threads;
            refused += pieces < threads;
        }
        QVERIFY2(kept > 0, "no count kept all its splits");
        QVERIFY2(refused > 0, "no count found a false split");
    }

    // An E without category may close the device side's B; which one it closes depends on the
    // earlier text, so such a segment is read again after it.
    void anEndThatNeedsTheEarlierTextIsReadAgain()
    {
        std::string events = R"({"ph":"B","cat":"kernel","name":"k","pid":5,"tid":9,"ts":1})";
        for (int i = 0; i < 40; ++i)
            events += cat(R"(,{"ph":"X","name":"x","pid":1,"tid":1,"ts":)", 2 + i, R"(,"dur":1})");
        events += R"(,{"ph":"B","cat":"kernel","name":"k2","pid":5,"tid":9,"ts":50})";
        events += R"(,{"ph":"E","pid":5,"tid":9,"ts":60},{"ph":"E","pid":5,"tid":9,"ts":70})";
        const std::string text = cat(R"({"traceEvents":[)", events, "]}");
        const std::string whole = loadText(text, 1);
        QVERIFY(whole.find("unmatched") == std::string::npos);
        for (unsigned threads = 2; threads <= 12; ++threads)
            QCOMPARE(loadText(text, threads), whole);
    }
};

QTEST_GUILESS_MAIN(TestSegmentedLoad)
#include "tst_segmentedload.moc"
