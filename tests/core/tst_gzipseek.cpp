// SPDX-License-Identifier: MIT
// Seek points of gzip traces (core/load/internal/gzipinflater, seekingtext, eventdetails): the
// loader records one every few MB while it inflates, and reading an event's details inflates
// from the last one before the event instead of from the start of the file.
#include "load/eventdetails.h"
#include "load/internal/gzipinflater.h"
#include "load/tracereader.h"
#include "testutil.h"

#include <QFile>
#include <QTest>

#include <zlib.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

using namespace ks;

namespace {

constexpr uint64_t kSpan = GzipInflater::kSeekSpan;
// A read from a point inflates up to the event, then in pieces of 16 KiB; points lie at block
// boundaries, at most a deflate block (about 0.35 MB in these traces) past kSpan apart.
constexpr uint64_t kMargin = 512 * 1024;

//! All the text of a gzip file, member after member.
QByteArray gunzip(const QByteArray &gz)
{
    z_stream zs {};
    inflateInit2(&zs, 16 + MAX_WBITS);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(gz.data()));
    zs.avail_in = uInt(gz.size());
    QByteArray out;
    std::vector<char> buf(1 << 20);
    for (;;) {
        zs.next_out = reinterpret_cast<Bytef *>(buf.data());
        zs.avail_out = uInt(buf.size());
        const int rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buf.data(), qsizetype(buf.size() - zs.avail_out));
        if (rc == Z_STREAM_END && zs.avail_in > 0)
            inflateReset(&zs);
        else if (rc != Z_OK)
            break;
    }
    inflateEnd(&zs);
    return out;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

//! Events "op0", "op1", … with args worth reading, about \a bytes of text in all.
QByteArray eventsText(qsizetype bytes)
{
    QByteArray out = R"({"schemaVersion":1,"traceEvents":[)";
    for (int i = 0; out.size() < bytes; ++i) {
        if (i)
            out += ',';
        const QByteArray n = QByteArray::number(i);
        out += R"({"ph":"X","cat":"cpu_op","name":"op)" + n + R"(","pid":1,"tid":)"
            + QByteArray::number(i % 7) + R"(,"ts":)" + QByteArray::number(qint64(i) * 10)
            + R"(,"dur":5,"args":{"External id":)" + n + R"(,"Input Dims":[[)" + n
            + R"(,3],[]],"note":"event )" + n + R"( of the test"}})";
    }
    return out + "]}";
}

//! Every field and arg of \a d, one "key=value" per line.
QString detailsText(const EventDetails &d)
{
    QStringList out;
    for (const auto &[k, v] : d.fields)
        out << QString::fromStdString(k + "=" + v);
    for (const auto &[k, v] : d.args)
        out << QString::fromStdString("args." + k + "=" + v);
    return out.join(QLatin1Char('\n'));
}

//! Reads the event at \a offset from the file and from \a text; "" when both agree.
QString mismatch(const TraceModel &m, const QByteArray &text, uint64_t offset, uint64_t *inflated)
{
    EventDetails fromFile, fromText;
    std::string error;
    if (!readEventDetails(m, offset, fromFile, error))
        return QStringLiteral("offset %1: %2").arg(offset).arg(QString::fromStdString(error));
    if (!readEventDetailsText(
            std::string_view(text.constData(), size_t(text.size())), offset, fromText, error))
        return QStringLiteral("offset %1 in the text: %2")
            .arg(offset)
            .arg(QString::fromStdString(error));
    if (inflated)
        *inflated = fromFile.inflatedBytes;
    if (fromText.args.empty())
        return QStringLiteral("offset %1: no args").arg(offset);
    const QString a = detailsText(fromFile), b = detailsText(fromText);
    return a == b ? QString() : QStringLiteral("offset %1:\n%2\n!=\n%3").arg(offset).arg(a, b);
}

std::vector<uint64_t> eventOffsets(const TraceModel &m)
{
    std::vector<uint64_t> out(m.slices.offset.begin(), m.slices.offset.end());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestGzipSeek : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void pointsAreSpacedAndSmall();
    void lastEventInflatesAtMostOneInterval();
    void eventsAroundEveryPointReadAsInTheText();
    void concatenatedMembersReadAcrossBoundaries_data();
    void concatenatedMembersReadAcrossBoundaries();
    void plainFilesHaveNoIndex();
    void pointsOfAnotherFileAreNotUsed();
    void readsFromSeveralThreadsAtOnce();

private:
    QString m_path; //!< a generated gzip trace of about 30 MB of text
    QByteArray m_text;
    std::unique_ptr<TraceModel> m_model;
};

void TestGzipSeek::initTestCase()
{
    m_path = test::tempDir() + QStringLiteral("/gen30.json.gz");
    const test::ProcessResult gen = test::run(
        test::gentracePath(), {QStringLiteral("--target-mb"), QStringLiteral("30"), m_path});
    QVERIFY2(gen.exitCode == 0, gen.err.constData());
    m_text = gunzip(readAll(m_path));
    QVERIFY(m_text.size() > 25'000'000);
    LoadResult r = loadTrace(m_path.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    m_model = std::move(r.model);
    QCOMPARE(qint64(m_model->textSize), qint64(m_text.size()));
}

void TestGzipSeek::pointsAreSpacedAndSmall()
{
    const std::vector<SeekPoint> &points = m_model->gzipIndex.points;
    QVERIFY(!points.empty());
    QCOMPARE(points.front().textOffset, uint64_t(0));
    for (size_t i = 1; i < points.size(); ++i) {
        const uint64_t gap = points[i].textOffset - points[i - 1].textOffset;
        QVERIFY2(gap >= kSpan && gap < kSpan + kMargin, qPrintable(QString::number(gap)));
    }
    QVERIFY(points.back().textOffset < m_model->textSize);
    QCOMPARE(m_model->gzipIndex.inflater, fastestInflater());
    for (const SeekPoint &p : points) {
        if (m_model->gzipIndex.inflater != Inflater::Zlib)
            break; // ISA-L's state is its own; the reads below check it
        // The window is the text just before the point (a single member: all of it, or 32 KiB).
        QCOMPARE(qint64(p.state.size()), std::min<qint64>(32768, qint64(p.textOffset)));
        const QByteArray before
            = m_text.mid(qsizetype(p.textOffset - p.state.size()), qsizetype(p.state.size()));
        QVERIFY(std::equal(p.state.begin(), p.state.end(), before.begin()));
    }
    const size_t bytes = m_model->gzipIndex.memoryUsage();
    QVERIFY2(bytes < m_model->textSize / 50, qPrintable(QString::number(bytes)));
}

void TestGzipSeek::lastEventInflatesAtMostOneInterval()
{
    const uint64_t last = eventOffsets(*m_model).back();
    QVERIFY(last > 3 * kSpan);
    uint64_t inflated = 0;
    const QString problem = mismatch(*m_model, m_text, last, &inflated);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(inflated < kSpan + kMargin, qPrintable(QString::number(inflated)));
    QVERIFY(inflated > 0);

    // Without the points the same read inflates everything before the event, to the same args.
    TraceModel bare;
    bare.path = m_model->path;
    bare.fileSize = m_model->fileSize;
    EventDetails indexed, fromStart;
    std::string error;
    QVERIFY2(readEventDetails(*m_model, last, indexed, error), error.c_str());
    QVERIFY2(readEventDetails(bare, last, fromStart, error), error.c_str());
    QVERIFY(fromStart.inflatedBytes >= last);
    QCOMPARE(detailsText(indexed), detailsText(fromStart));
}

void TestGzipSeek::eventsAroundEveryPointReadAsInTheText()
{
    // The events on either side of each point: one read starts at the point itself (bits and
    // window primed), the other at the point before and inflates across this one.
    const std::vector<uint64_t> offsets = eventOffsets(*m_model);
    for (const SeekPoint &p : m_model->gzipIndex.points) {
        const size_t after = size_t(
            std::lower_bound(offsets.begin(), offsets.end(), p.textOffset) - offsets.begin());
        for (size_t k : {after - 1, after}) {
            if (k >= offsets.size()) // also after - 1 of 0
                continue;
            const uint64_t offset = offsets[k];
            uint64_t inflated = 0;
            const QString problem = mismatch(*m_model, m_text, offset, &inflated);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            const SeekPoint *from = m_model->gzipIndex.pointAtOrBefore(offset);
            QVERIFY(from);
            QVERIFY(inflated > offset - from->textOffset);
            QVERIFY(inflated < offset - from->textOffset + kMargin);
        }
    }
}

void TestGzipSeek::concatenatedMembersReadAcrossBoundaries_data()
{
    QTest::addColumn<QList<qsizetype>>("splits"); // where members start, after the first
    QTest::addRow("two members, split inside an event") << QList<qsizetype> {5'500'001};
    QTest::addRow("three members") << QList<qsizetype> {3'000'000, 9'100'017};
    QList<qsizetype> blocks; // as bgzip writes them: a member per 64 KiB of text
    for (qsizetype at = 65536; at < 11'000'000; at += 65536)
        blocks << at;
    QTest::addRow("64 KiB members") << blocks;
}

void TestGzipSeek::concatenatedMembersReadAcrossBoundaries()
{
    QFETCH(QList<qsizetype>, splits);
    const QByteArray text = eventsText(11'000'000);
    QByteArray gz;
    qsizetype from = 0;
    for (qsizetype at : splits + QList<qsizetype> {text.size()}) {
        gz += test::gzip(text.mid(from, at - from));
        from = at;
    }
    const QString path = test::writeTemp(QStringLiteral("members.json.gz"), gz);
    const LoadResult r = loadTrace(path.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    const TraceModel &m = *r.model;
    QCOMPARE(qint64(m.textSize), qint64(text.size()));
    QVERIFY2(m.diagnostics.empty(), m.diagnostics.report().c_str());

    // A point's window never reaches back into the member before: that text is not history.
    const std::vector<SeekPoint> &points = m.gzipIndex.points;
    QVERIFY(points.size() >= 2);
    for (const SeekPoint &p : points) {
        if (m.gzipIndex.inflater != Inflater::Zlib)
            break; // ISA-L's state is its own; the reads below check it
        qsizetype memberStart = 0;
        for (qsizetype at : splits)
            memberStart = at <= qsizetype(p.textOffset) ? at : memberStart;
        QCOMPARE(qint64(p.state.size()),
            std::min<qint64>(32768, qint64(p.textOffset) - qint64(memberStart)));
        const QByteArray before
            = text.mid(qsizetype(p.textOffset - p.state.size()), qsizetype(p.state.size()));
        QVERIFY(std::equal(p.state.begin(), p.state.end(), before.begin()));
    }

    // The events at, before and after each boundary and each point, and the last one.
    const std::vector<uint64_t> offsets = eventOffsets(m);
    std::vector<uint64_t> wanted {offsets.back()};
    std::vector<uint64_t> places(splits.begin(), splits.end());
    for (const SeekPoint &p : points)
        places.push_back(p.textOffset);
    for (uint64_t at : places) {
        const size_t k
            = size_t(std::lower_bound(offsets.begin(), offsets.end(), at) - offsets.begin());
        for (size_t e : {k - 2, k - 1, k})
            if (e < offsets.size()) // k - 1 and k - 2 wrap around near the start
                wanted.push_back(offsets[e]);
    }
    for (uint64_t offset : wanted) {
        uint64_t inflated = 0;
        const QString problem = mismatch(m, text, offset, &inflated);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY2(inflated < kSpan + kMargin, qPrintable(QString::number(inflated)));
    }
}

void TestGzipSeek::plainFilesHaveNoIndex()
{
    const QByteArray text = eventsText(2'000'000);
    const QString path = test::writeTemp(QStringLiteral("plain.json"), text);
    const LoadResult r = loadTrace(path.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QVERIFY(r.model->gzipIndex.points.empty());
    for (uint64_t offset : {eventOffsets(*r.model).front(), eventOffsets(*r.model).back()}) {
        uint64_t inflated = 1;
        const QString problem = mismatch(*r.model, text, offset, &inflated);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(inflated, uint64_t(0));
    }
}

void TestGzipSeek::pointsOfAnotherFileAreNotUsed()
{
    // The file grew since it was loaded: its points may not fit, so the read starts over.
    const QByteArray text = eventsText(9'000'000);
    const QString path = test::writeTemp(QStringLiteral("changed.json.gz"), test::gzip(text));
    const LoadResult r = loadTrace(path.toStdString());
    QVERIFY2(r.status == LoadResult::Status::Loaded, r.error.c_str());
    QVERIFY(r.model->gzipIndex.points.size() >= 2);
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    f.write("appended later");
    f.close();
    const uint64_t last = eventOffsets(*r.model).back();
    uint64_t inflated = 0;
    const QString problem = mismatch(*r.model, text, last, &inflated);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(inflated >= last);
}

void TestGzipSeek::readsFromSeveralThreadsAtOnce()
{
    const std::vector<uint64_t> offsets = eventOffsets(*m_model);
    constexpr int kThreads = 4, kReads = 12;
    std::vector<std::vector<QString>> problems(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < kReads; ++i) {
                const size_t k = (size_t(t * kReads + i) * 7919) % offsets.size();
                problems[size_t(t)].push_back(mismatch(*m_model, m_text, offsets[k], nullptr));
            }
        });
    }
    for (std::thread &t : threads)
        t.join();
    for (const auto &list : problems)
        for (const QString &p : list)
            QVERIFY2(p.isEmpty(), qPrintable(p));
}

QTEST_GUILESS_MAIN(TestGzipSeek)
#include "tst_gzipseek.moc"
