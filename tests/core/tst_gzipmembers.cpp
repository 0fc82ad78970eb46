// SPDX-License-Identifier: MIT
// Gzip members inflated side by side (core/load/internal/gzipmembers): the text and its end are
// those of one inflater reading member after member, and of zlib itself, whatever the members
// hold (bytes that look like a member's header, a whole gzip member stored inside another), how
// they end (cut, corrupt, junk) and however many threads inflate them; the seek points each lead
// back into the same text; and a trace loads into the same model with 1, 2 or 7 threads.
#include "load/internal/gzipmembers.h"
#include "load/tracereader.h"
#include "modeldump.h"
#include "testutil.h"

#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <zlib.h>

#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <tuple>
#include <vector>

using namespace ks;

namespace {

/*!
 * One gzip member of \a text, compressed at \a level (0: stored, so the text's bytes appear as
 * they are), its header naming system \a os and, when \a name is not empty, a file name.
 */
QByteArray member(const QByteArray &text, int level = 6, int os = 3, const QByteArray &name = {})
{
    z_stream zs {};
    deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    gz_header header {};
    header.os = os;
    QByteArray zeroTerminated = name;
    if (!name.isEmpty())
        header.name = reinterpret_cast<Bytef *>(zeroTerminated.data());
    deflateSetHeader(&zs, &header);
    QByteArray out(
        qsizetype(deflateBound(&zs, uLong(text.size()))) + name.size() + 64, Qt::Uninitialized);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(text.data()));
    zs.avail_in = uInt(text.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(qsizetype(zs.total_out));
    deflateEnd(&zs);
    return out;
}

//! The text zlib inflates from \a gz, member after member, up to where it stops.
QByteArray zlibText(const QByteArray &gz)
{
    QByteArray out;
    z_stream zs {};
    inflateInit2(&zs, 16 + MAX_WBITS);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(gz.data()));
    zs.avail_in = uInt(gz.size());
    std::vector<char> buffer(1 << 16);
    for (;;) {
        zs.next_out = reinterpret_cast<Bytef *>(buffer.data());
        zs.avail_out = uInt(buffer.size());
        const int rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buffer.data(), qsizetype(buffer.size() - zs.avail_out));
        if (rc == Z_STREAM_END && zs.avail_in >= 2 && zs.next_in[0] == 0x1f
            && zs.next_in[1] == 0x8b)
            inflateReset(&zs);
        else if (rc != Z_OK)
            break;
    }
    inflateEnd(&zs);
    return out;
}

//! Text in numbered lines, \a bytes long, compressible as traces are.
QByteArray lines(qsizetype bytes, int seed = 0)
{
    QByteArray out;
    for (int i = 0; out.size() < bytes; ++i)
        out += "line " + QByteArray::number(i * 7 + seed) + " of the text, ";
    out.truncate(bytes);
    return out;
}

struct Inflated {
    QByteArray text;
    GzipInflater::End end = GzipInflater::End::NotYet;
    std::string corruptReason;
    uint64_t corruptAt = 0;
    GzipIndex index;
    int shortChunks = 0; //!< chunks not full
};

//! An open file descriptor, closed when it goes.
struct Fd {
    explicit Fd(const QString &path)
        : fd(::open(QFile::encodeName(path).constData(), O_RDONLY))
    {
    }
    ~Fd() { ::close(fd); }
    int fd;
};

Inflated oneInflater(const QString &path, Inflater inflater, size_t readSize = kTextChunkSize)
{
    Fd file(path);
    Inflated out;
    GzipInflater gzip(file.fd, inflater);
    gzip.recordSeekPoints(&out.index);
    std::vector<char> buffer(readSize);
    while (!gzip.ended())
        out.text.append(buffer.data(), qsizetype(gzip.read(buffer.data(), buffer.size())));
    out.end = gzip.end();
    out.corruptReason = gzip.corruptReason();
    out.corruptAt = gzip.corruptAt();
    return out;
}

Inflated members(const QString &path, unsigned workers, uint64_t stretchBytes, Inflater inflater)
{
    Fd file(path);
    Inflated out;
    GzipMembers gzip(
        file.fd, inflater, uint64_t(QFileInfo(path).size()), workers, &out.index, stretchBytes);
    TextChunk chunk;
    chunk.data = std::make_unique<char[]>(kTextChunkSize + 1);
    while (gzip.next(chunk)) {
        if (chunk.size == 0 || chunk.size > kTextChunkSize)
            return {}; // fails the comparison
        out.text.append(chunk.data.get(), qsizetype(chunk.size));
        out.shortChunks += chunk.size < kTextChunkSize;
    }
    out.end = gzip.end();
    out.corruptReason = gzip.corruptReason();
    out.corruptAt = gzip.corruptAt();
    return out;
}

//! "" when every seek point of \a index leads to \a text at its offset; else what does not.
QString pointsProblem(const QString &path, const GzipIndex &index, const QByteArray &text)
{
    Fd file(path);
    uint64_t last = 0;
    for (const SeekPoint &p : index.points) {
        if (p.textOffset < last || p.textOffset > uint64_t(text.size()))
            return QStringLiteral("point at %1 out of order").arg(p.textOffset);
        last = p.textOffset;
        GzipInflater gzip(file.fd, index, p);
        const size_t want
            = size_t(std::min<uint64_t>(70'000, uint64_t(text.size()) - p.textOffset));
        std::vector<char> got(want + 1);
        size_t have = 0;
        while (have < want && !gzip.ended())
            have += gzip.read(got.data() + have, want - have);
        if (QByteArray(got.data(), qsizetype(have))
            != text.mid(qsizetype(p.textOffset), qsizetype(want)))
            return QStringLiteral("point at %1 reads another text").arg(p.textOffset);
    }
    return {};
}

QString endName(GzipInflater::End end)
{
    const char *names[] = {"not yet", "clean", "cut off", "corrupt", "trailing garbage"};
    return QString::fromLatin1(names[int(end)]);
}

} // namespace

class TestGzipMembers : public QObject {
    Q_OBJECT

private slots:
    void headersAreRecognised();
    void sameTextAsOneInflater_data();
    void sameTextAsOneInflater();
    void pointsAreSpacedAsInOneMember();
    void fastInflaterEndsAsZlibWhereverCutOrCorrupt();
    void smallReadsAcrossMembersGiveTheText();
    void stoppingWhileWorkersWaitReturns();
    void traceLoadsTheSameWithAnyThreads_data();
    void traceLoadsTheSameWithAnyThreads();
};

void TestGzipMembers::headersAreRecognised()
{
    auto at = [](const QByteArray &bytes) {
        return memberHeaderAt(reinterpret_cast<const unsigned char *>(bytes.constData()));
    };
    QVERIFY(at(member("x")));
    QVERIFY(at(member("x", 9, 255, "name.json")));
    QVERIFY(at(QByteArray::fromHex("1f8b0800000000000003")));
    QVERIFY(at(QByteArray::fromHex("1f8b081f000000000400"))); // every known flag, XFL 4
    QVERIFY(!at(QByteArray::fromHex("1f8b0700000000000003"))); // not deflate
    QVERIFY(!at(QByteArray::fromHex("1f8b0820000000000003"))); // a reserved flag
    QVERIFY(!at(QByteArray::fromHex("1f8b0800000000000103"))); // XFL 1
    QVERIFY(!at(QByteArray::fromHex("1f8b0800000000000063"))); // system 99
    QVERIFY(!at(QByteArray::fromHex("1f8c0800000000000003")));
}

void TestGzipMembers::sameTextAsOneInflater_data()
{
    QTest::addColumn<QByteArray>("gz");
    QTest::addColumn<int>("end"); // GzipInflater::End, worked out from how the file was made
    const int clean = int(GzipInflater::End::Clean), cutOff = int(GzipInflater::End::CutOff),
              corrupt = int(GzipInflater::End::Corrupt),
              garbage = int(GzipInflater::End::TrailingGarbage);
    const QByteArray a = lines(300'000, 1), b = lines(2'500'000, 2), c = lines(90'000, 3);

    QTest::addRow("one member") << member(b) << clean;
    QTest::addRow("three members") << member(a) + member(b) + member(c) << clean;
    QByteArray small;
    for (int i = 0; i < 300; ++i)
        small += member(i % 7 == 3 ? QByteArray() : lines(3000 + i, i));
    QTest::addRow("300 small members, some empty") << small << clean;
    QByteArray bgzip;
    for (qsizetype at = 0; at < b.size(); at += 65536)
        bgzip += member(b.mid(at, 65536), 1, 255);
    QTest::addRow("64 KiB members") << bgzip << clean;

    // Stored data shows its text as it is: header-like bytes, and a whole gzip member inside
    // another, which inflates cleanly and ends where no member begins.
    const QByteArray fakes = a.left(1000) + QByteArray::fromHex("1f8b0800000000000003")
        + a.mid(1000, 5000) + member(c.left(20'000)) + a.mid(6000);
    // The first member takes long enough for a scan to find the false candidates first.
    QTest::addRow("members inside stored members")
        << member(b) + member(fakes, 0) + member(c) + member(fakes, 0) + member(a) << clean;
    QTest::addRow("a member the scan does not know")
        << member(a) + member(c, 6, 99) + member(a) << clean;
    QTest::addRow("junk after the members") << member(a) + member(c) + "JUNK AFTER" << garbage;
    QTest::addRow("one stray byte after") << member(a) + member(c) + "\x1f" << garbage;
    QTest::addRow("only the magic after") << member(a) + "\x1f\x8b" << cutOff;
    const QByteArray three = member(a) + member(b) + member(c);
    QTest::addRow("cut inside the second member") << three.left(member(a).size() + 5000) << cutOff;
    QByteArray flipped = member(a) + member(b) + member(c);
    flipped[member(a).size() + member(b).size() / 2]
        = char(flipped[member(a).size() + member(b).size() / 2] ^ 0x55);
    QTest::addRow("corrupt second member") << flipped << corrupt;
    QTest::addRow("second member not deflate")
        << member(a) + QByteArray::fromHex("1f8b07000000000000030102030405") << corrupt;

    // Where a member ends 1 or 2 bytes before the end of the inflater's 256 KiB read, or at it:
    // the two magic bytes of the next one lie in the next read. The first member's size is set by
    // the length of the file name in its header.
    for (int shortBy : {2, 1, 0}) {
        const qsizetype plain = member(c).size();
        const QByteArray name(256 * 1024 - shortBy - plain - 1, 'n');
        const QByteArray first = member(c, 6, 3, name);
        QCOMPARE(first.size(), 256 * 1024 - shortBy);
        QTest::addRow("member ends %d bytes before a read's end", shortBy)
            << first + member(a) << clean;
    }
}

void TestGzipMembers::sameTextAsOneInflater()
{
    QFETCH(QByteArray, gz);
    QFETCH(int, end);
    const QString path = test::writeTemp(QStringLiteral("members.gz"), gz);
    const QByteArray expected = zlibText(gz);
    const Inflated one = oneInflater(path, Inflater::Zlib);
    QCOMPARE(one.text.size(), expected.size());
    QVERIFY(one.text == expected);
    QCOMPARE(endName(one.end), endName(GzipInflater::End(end)));
    QCOMPARE(one.corruptReason.empty(), end != int(GzipInflater::End::Corrupt));
    QCOMPARE(one.index.inflater, Inflater::Zlib);
    const QString zlibPoints = pointsProblem(path, one.index, expected);
    QVERIFY2(zlibPoints.isEmpty(), qPrintable(zlibPoints));
    // The fast inflater (ISA-L where built in) gives the same text and ends as zlib, in its words.
    const Inflated fast = oneInflater(path, fastestInflater());
    QVERIFY(fast.text == expected);
    QCOMPARE(endName(fast.end), endName(one.end));
    QCOMPARE(QString::fromStdString(fast.corruptReason), QString::fromStdString(one.corruptReason));
    QCOMPARE(fast.corruptAt, one.corruptAt);
    const QString fastPoints = pointsProblem(path, fast.index, expected);
    QVERIFY2(fastPoints.isEmpty(), qPrintable(fastPoints));
    // Stretches of one member each (as small as can be), of a few, and as the loader has them,
    // with either inflater.
    const std::tuple<unsigned, uint64_t, Inflater> ways[]
        = {{1, 1, Inflater::Zlib}, {2, 1, Inflater::Zlib}, {3, 4096, Inflater::Zlib},
            {7, GzipMembers::kStretchBytes, Inflater::Zlib}, {2, 1, fastestInflater()},
            {3, 4096, fastestInflater()}, {7, GzipMembers::kStretchBytes, fastestInflater()}};
    for (const auto &[workers, stretchBytes, inflater] : ways) {
        const Inflated many = members(path, workers, stretchBytes, inflater);
        QCOMPARE(many.text.size(), expected.size());
        QVERIFY(many.text == expected);
        QCOMPARE(endName(many.end), endName(one.end));
        QCOMPARE(
            QString::fromStdString(many.corruptReason), QString::fromStdString(one.corruptReason));
        QCOMPARE(many.corruptAt, one.corruptAt);
        const QString problem = pointsProblem(path, many.index, expected);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Small members are inflated a stretch at a time, into full chunks.
        if (stretchBytes == GzipMembers::kStretchBytes)
            QVERIFY2(many.shortChunks <= gz.size() / qsizetype(stretchBytes) + 2,
                qPrintable(QString::number(many.shortChunks)));
    }
}

void TestGzipMembers::pointsAreSpacedAsInOneMember()
{
    // A point where each stretch of members starts, then one every kSeekSpan of its text: at most
    // a deflate block (some 100 KB here) past kSeekSpan apart, and never much more of them.
    const QByteArray a = lines(9'000'000, 1), b = lines(5'000'000, 2);
    QByteArray gz = member(a) + member(b);
    for (int i = 0; i < 2000; ++i)
        gz += member(lines(2000, i), 1);
    const QString path = test::writeTemp(QStringLiteral("spaced.gz"), gz);
    const Inflated many = members(path, 3, GzipMembers::kStretchBytes, fastestInflater());
    const QByteArray expected = zlibText(gz);
    QVERIFY(many.text == expected);
    const std::vector<SeekPoint> &points = many.index.points;
    QVERIFY(!points.empty());
    QCOMPARE(points.front().textOffset, uint64_t(0));
    for (size_t i = 1; i < points.size(); ++i) {
        const uint64_t gap = points[i].textOffset - points[i - 1].textOffset;
        QVERIFY2(gap < GzipInflater::kSeekSpan + 512 * 1024, qPrintable(QString::number(gap)));
    }
    const uint64_t most = uint64_t(expected.size()) / GzipInflater::kSeekSpan
        + uint64_t(gz.size()) / GzipMembers::kStretchBytes + 2;
    QVERIFY2(points.size() <= most, qPrintable(QString::number(points.size())));
    const QString problem = pointsProblem(path, many.index, expected);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestGzipMembers::fastInflaterEndsAsZlibWhereverCutOrCorrupt()
{
    // Two members (the second of stored and coded blocks) cut at 60 places and with a byte
    // changed at 60 others: the fast inflater ends as zlib does, in its words and at its offset.
    // Cut, it gives zlib's text; corrupt, zlib's text and at most what ISA-L decoded past the
    // place zlib stops before it found the fault (ISA-L checks some codes later; the bytes it gave
    // cannot be taken back).
    const QByteArray gz
        = member(lines(400'000, 4)) + member(lines(30'000, 5), 0) + member(lines(200'000, 6));
    const qsizetype step = gz.size() / 61;
    int longer = 0;
    for (int i = 1; i <= 120; ++i) {
        const bool cut = i <= 60;
        const qsizetype at = (i % 61) * step + i;
        QByteArray bad = cut ? gz.left(at) : gz;
        if (!cut)
            bad[at] = char(bad[at] ^ (1 << (i % 8)));
        const QString path = test::writeTemp(QStringLiteral("bad.gz"), bad);
        const Inflated zlib = oneInflater(path, Inflater::Zlib);
        const Inflated fast = oneInflater(path, fastestInflater());
        const QString where = (cut ? QStringLiteral("cut at ") : QStringLiteral("changed at "))
            + QString::number(at) + QStringLiteral(": ") + QString::number(fast.text.size())
            + QStringLiteral(" against ") + QString::number(zlib.text.size());
        QVERIFY2(cut ? fast.text == zlib.text : fast.text.startsWith(zlib.text), qPrintable(where));
        longer += fast.text.size() > zlib.text.size();
        QVERIFY2(
            fast.end == zlib.end, qPrintable(where + QStringLiteral(": ") + endName(fast.end)));
        QVERIFY2(fast.corruptReason == zlib.corruptReason, qPrintable(where));
        QVERIFY2(fast.corruptAt == zlib.corruptAt, qPrintable(where));
    }
    QVERIFY2(longer <= 6, qPrintable(QString::number(longer)));
}

void TestGzipMembers::smallReadsAcrossMembersGiveTheText()
{
    // Small reads make ISA-L stop often, in headers, blocks and trailers: at a member's end its
    // bit buffer may hold bytes of what follows, which the input goes back to.
    QByteArray gz;
    for (int i = 0; i < 40; ++i)
        gz += member(i % 5 == 0 ? QByteArray() : lines(100 + 37 * i, i), i % 3 == 0 ? 0 : 6);
    gz += "JUNK";
    const QString path = test::writeTemp(QStringLiteral("small.gz"), gz);
    const Inflated zlib = oneInflater(path, Inflater::Zlib);
    QCOMPARE(endName(zlib.end), endName(GzipInflater::End::TrailingGarbage));
    for (size_t readSize : {1, 2, 7, 13, 100, 4093}) {
        const Inflated fast = oneInflater(path, fastestInflater(), readSize);
        QVERIFY2(fast.text == zlib.text, qPrintable(QString::number(readSize)));
        QCOMPARE(endName(fast.end), endName(zlib.end));
    }
}

void TestGzipMembers::stoppingWhileWorkersWaitReturns()
{
    // Workers wait for room with chunks ready; going away mid-text must not wait for them (a hang
    // shows as CTest's timeout).
    const QByteArray gz = member(lines(6'000'000), 1).repeated(8);
    const QString path = test::writeTemp(QStringLiteral("many.gz"), gz);
    Fd file(path);
    GzipIndex index;
    for (unsigned workers : {2u, 5u}) {
        GzipMembers gzip(file.fd, fastestInflater(), uint64_t(gz.size()), workers, &index, 1);
        TextChunk chunk;
        QVERIFY(gzip.next(chunk));
        QVERIFY(chunk.size > 0);
        gzip.stop();
        QVERIFY(!gzip.next(chunk));
    }
}

void TestGzipMembers::traceLoadsTheSameWithAnyThreads_data()
{
    QTest::addColumn<QByteArray>("gz");
    std::string events;
    for (int i = 0; i < 14'000; ++i) {
        if (i)
            events += ',';
        events += R"({"ph":"X","cat":"cpu_op","name":"op)" + std::to_string(i)
            + R"(","pid":1,"tid":)" + std::to_string(i % 5) + R"(,"ts":)" + std::to_string(i * 10)
            + R"(,"dur":5,"args":{"External id":)" + std::to_string(i) + "}}";
    }
    const QByteArray text = QByteArray::fromStdString(test::traceWith(events));
    // Stored, so that the file spans two of the loader's stretches.
    auto split = [&](qsizetype every) {
        QByteArray gz;
        for (qsizetype at = 0; at < text.size(); at += every)
            gz += member(text.mid(at, every), 0);
        return gz;
    };
    QTest::addRow("one member") << member(text);
    QTest::addRow("members of 100 KB") << split(100'000);
    QTest::addRow("members of 997 bytes") << split(997);
    const QByteArray members = split(250'000);
    QVERIFY(uint64_t(members.size()) > GzipMembers::kStretchBytes);
    QTest::addRow("cut") << members.left(members.size() * 9 / 10);
    QByteArray corrupt = members;
    corrupt[corrupt.size() / 2] = char(corrupt[corrupt.size() / 2] ^ 0x21);
    QTest::addRow("corrupt") << corrupt;
    QTest::addRow("junk after") << members + "JUNK";
}

// The loader with several threads inflates the members side by side: the model, the status and
// the message (with its byte offsets) are those of one thread.
void TestGzipMembers::traceLoadsTheSameWithAnyThreads()
{
    QFETCH(QByteArray, gz);
    const std::string path = test::writeTemp(QStringLiteral("trace.json.gz"), gz).toStdString();
    LoadOptions one;
    one.threads = 1;
    one.inflateWithZlib = true; // the reference
    const LoadResult a = loadTrace(path, one);
    QVERIFY(a.model);
    QVERIFY(a.model->slices.size() > 0);
    for (unsigned threads : {1u, 2u, 7u}) {
        LoadOptions many;
        many.threads = threads;
        const LoadResult b = loadTrace(path, many);
        QCOMPARE(int(b.status), int(a.status));
        QCOMPARE(QString::fromStdString(b.error), QString::fromStdString(a.error));
        QVERIFY(b.model);
        const std::string difference
            = test::firstDifference(test::dumpModel(*a.model), test::dumpModel(*b.model));
        QVERIFY2(difference.empty(), difference.c_str());
    }
}

QTEST_GUILESS_MAIN(TestGzipMembers)
#include "tst_gzipmembers.moc"
