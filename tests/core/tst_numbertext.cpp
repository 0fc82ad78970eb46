// SPDX-License-Identifier: MIT
// Unit tests of core/numbertext: exact µs text → int64 ns, integers, and µs formatting; the
// texts of base/unitstext and base/kernelname.
#include "base/kernelname.h"
#include "base/numbertext.h"
#include "base/unitstext.h"

#include <QTest>

#include <cstdint>
#include <limits>
#include <string>

using namespace ks;

class TestNumberText : public QObject {
    Q_OBJECT

private slots:
    void parseMicrosIsExact_data();
    void parseMicrosIsExact();
    void parseMicrosRejectsInvalidAndOverflow_data();
    void parseMicrosRejectsInvalidAndOverflow();
    void parseMicrosExponentsGoThroughDouble_data();
    void parseMicrosExponentsGoThroughDouble();
    void parseIntegerAcceptsWholeNumbers_data();
    void parseIntegerAcceptsWholeNumbers();
    void parseIntegerRejectsFractionsAndGarbage_data();
    void parseIntegerRejectsFractionsAndGarbage();
    void parseDoubleAcceptsJsonNumbersOnly_data();
    void parseDoubleAcceptsJsonNumbersOnly();
    void appendMicrosFormatsWithFixedDecimals_data();
    void appendMicrosFormatsWithFixedDecimals();
    void appendMicrosAppendsToExistingText();
    void appendMicrosRoundTripsParseMicros();
    void bytesTextUsesBinaryUnits_data();
    void bytesTextUsesBinaryUnits();
    void spanTextReadsLongSpans_data();
    void spanTextReadsLongSpans();
    void shortKernelNameKeepsWhatItComputes_data();
    void shortKernelNameKeepsWhatItComputes();
};

void TestNumberText::parseMicrosIsExact_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<int>("decimals");

    // Absolute epoch µs with ns resolution: a double would lose the last digits.
    QTest::addRow("epoch with 3 decimals")
        << QByteArray("4458676522709.059") << qint64(4458676522709059) << 3;
    QTest::addRow("epoch integer µs")
        << QByteArray("1623142623460111") << qint64(1623142623460111000) << 0;
    QTest::addRow("one decimal") << QByteArray("12.5") << qint64(12500) << 1;
    QTest::addRow("two decimals") << QByteArray("12.25") << qint64(12250) << 2;
    QTest::addRow("trailing zero decimals kept") << QByteArray("12.500") << qint64(12500) << 3;
    QTest::addRow("integer") << QByteArray("12") << qint64(12000) << 0;
    QTest::addRow("zero") << QByteArray("0") << qint64(0) << 0;
    QTest::addRow("zero with decimals") << QByteArray("0.000") << qint64(0) << 3;
    QTest::addRow("negative integer") << QByteArray("-3") << qint64(-3000) << 0;
    QTest::addRow("negative fraction") << QByteArray("-3.125") << qint64(-3125) << 3;
    QTest::addRow("negative zero") << QByteArray("-0") << qint64(0) << 0;
    QTest::addRow("plus sign") << QByteArray("+5") << qint64(5000) << 0;
    QTest::addRow("one ns") << QByteArray("0.001") << qint64(1) << 3;
    // Beyond three decimals: rounded half away from zero at the nanosecond.
    QTest::addRow("half ns rounds up") << QByteArray("0.0005") << qint64(1) << 4;
    QTest::addRow("below half ns rounds down") << QByteArray("0.0004") << qint64(0) << 4;
    QTest::addRow("0.00049 rounds down") << QByteArray("0.00049") << qint64(0) << 5;
    QTest::addRow("negative half ns away from zero") << QByteArray("-0.0005") << qint64(-1) << 4;
    QTest::addRow("five decimals round up") << QByteArray("1.23456") << qint64(1235) << 5;
    QTest::addRow("five decimals round down") << QByteArray("1.23449") << qint64(1234) << 5;
    QTest::addRow("rounding carries into µs") << QByteArray("0.9995") << qint64(1000) << 4;
    QTest::addRow("many decimals") << QByteArray("7.123456789012") << qint64(7123) << 12;
    QTest::addRow("leading and trailing blanks") << QByteArray(" 42 ") << qint64(42000) << 0;
    QTest::addRow("no integer part") << QByteArray(".5") << qint64(500) << 1;
    // Large but representable: 9e15 µs = 9e18 ns < 2^63.
    QTest::addRow("large") << QByteArray("9000000000000000") << qint64(9000000000000000000) << 0;
    QTest::addRow("large negative")
        << QByteArray("-9000000000000000.999") << qint64(-9000000000000000999) << 3;
}

void TestNumberText::parseMicrosIsExact()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, ns);
    QFETCH(int, decimals);
    MicrosText out;
    QVERIFY(parseMicros(std::string_view(text.constData(), size_t(text.size())), out));
    QCOMPARE(qint64(out.ns), ns);
    QCOMPARE(int(out.decimals), decimals);
}

void TestNumberText::parseMicrosRejectsInvalidAndOverflow_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addRow("empty") << QByteArray("");
    QTest::addRow("blanks only") << QByteArray("   ");
    QTest::addRow("letters") << QByteArray("abc");
    QTest::addRow("trailing garbage") << QByteArray("12abc");
    QTest::addRow("two dots") << QByteArray("1.2.3");
    QTest::addRow("sign only") << QByteArray("-");
    QTest::addRow("dot only") << QByteArray(".");
    QTest::addRow("exponent only") << QByteArray("e5");
    QTest::addRow("exponent without digits") << QByteArray("1e");
    QTest::addRow("NaN") << QByteArray("NaN");
    QTest::addRow("Infinity") << QByteArray("Infinity");
    QTest::addRow("-Infinity") << QByteArray("-Infinity");
    QTest::addRow("inner blank") << QByteArray("1 2");
    QTest::addRow("1e400 overflows double") << QByteArray("1e400");
    QTest::addRow("1e300 overflows int64 ns") << QByteArray("1e300");
    QTest::addRow("-1e300") << QByteArray("-1e300");
    QTest::addRow("2^63 µs") << QByteArray("9223372036854775808");
    QTest::addRow("20 digits") << QByteArray("99999999999999999999");
    QTest::addRow("µs beyond int64 ns") << QByteArray("9223372036854776.000");
    QTest::addRow("negative beyond int64 ns") << QByteArray("-9223372036854776");
    QTest::addRow("1e16 µs") << QByteArray("10000000000000000");
}

void TestNumberText::parseMicrosRejectsInvalidAndOverflow()
{
    QFETCH(QByteArray, text);
    MicrosText out;
    out.ns = 12345;
    QVERIFY(!parseMicros(std::string_view(text.constData(), size_t(text.size())), out));
}

void TestNumberText::parseMicrosExponentsGoThroughDouble_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("ns");
    QTest::addRow("1.5e3") << QByteArray("1.5e3") << qint64(1500000);
    QTest::addRow("1E3") << QByteArray("1E3") << qint64(1000000);
    QTest::addRow("2e+2") << QByteArray("2e+2") << qint64(200000);
    QTest::addRow("-1.5e3") << QByteArray("-1.5e3") << qint64(-1500000);
    QTest::addRow("2.5e-1") << QByteArray("2.5e-1") << qint64(250);
    QTest::addRow("1e-3 is one ns") << QByteArray("1e-3") << qint64(1);
    QTest::addRow("0e0") << QByteArray("0e0") << qint64(0);
}

void TestNumberText::parseMicrosExponentsGoThroughDouble()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, ns);
    MicrosText out;
    QVERIFY(parseMicros(std::string_view(text.constData(), size_t(text.size())), out));
    QCOMPARE(qint64(out.ns), ns);
    QVERIFY(out.decimals <= 3);
}

void TestNumberText::parseIntegerAcceptsWholeNumbers_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("value");
    QTest::addRow("42") << QByteArray("42") << qint64(42);
    QTest::addRow("42.0") << QByteArray("42.0") << qint64(42);
    QTest::addRow("42.000") << QByteArray("42.000") << qint64(42);
    QTest::addRow("-7") << QByteArray("-7") << qint64(-7);
    QTest::addRow("0") << QByteArray("0") << qint64(0);
    QTest::addRow("+5") << QByteArray("+5") << qint64(5);
    QTest::addRow("leading blank") << QByteArray(" 42") << qint64(42);
    QTest::addRow("trailing blank") << QByteArray("42 ") << qint64(42);
    QTest::addRow("int64 max") << QByteArray("9223372036854775807")
                               << std::numeric_limits<qint64>::max();
    QTest::addRow("large tid") << QByteArray("140244187444992") << qint64(140244187444992);
}

void TestNumberText::parseIntegerAcceptsWholeNumbers()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, value);
    int64_t out = 99;
    QVERIFY(parseInteger(std::string_view(text.constData(), size_t(text.size())), out));
    QCOMPARE(qint64(out), value);
}

void TestNumberText::parseIntegerRejectsFractionsAndGarbage_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addRow("42.5") << QByteArray("42.5");
    QTest::addRow("42.01") << QByteArray("42.01");
    QTest::addRow("4x") << QByteArray("4x");
    QTest::addRow("x4") << QByteArray("x4");
    QTest::addRow("empty") << QByteArray("");
    QTest::addRow("blank") << QByteArray(" ");
    QTest::addRow("sign only") << QByteArray("-");
    QTest::addRow("stream 7") << QByteArray("stream 7");
    QTest::addRow("overflow") << QByteArray("9223372036854775808");
    QTest::addRow("inner blank") << QByteArray("4 2");
    QTest::addRow("NaN") << QByteArray("NaN");
    QTest::addRow("two signs") << QByteArray("+-5");
}

void TestNumberText::parseIntegerRejectsFractionsAndGarbage()
{
    QFETCH(QByteArray, text);
    int64_t out = 99;
    QVERIFY(!parseInteger(std::string_view(text.constData(), size_t(text.size())), out));
    QCOMPARE(qint64(out), qint64(99)); // untouched on failure
}

void TestNumberText::parseDoubleAcceptsJsonNumbersOnly_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("value");
    QTest::addRow("2.5") << QByteArray("2.5") << true << 2.5;
    QTest::addRow("-1e3") << QByteArray("-1e3") << true << -1000.0;
    QTest::addRow("integer") << QByteArray("17") << true << 17.0;
    QTest::addRow("NaN") << QByteArray("NaN") << false << 0.0;
    QTest::addRow("garbage") << QByteArray("1.5x") << false << 0.0;
    QTest::addRow("empty") << QByteArray("") << false << 0.0;
}

void TestNumberText::parseDoubleAcceptsJsonNumbersOnly()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, ok);
    QFETCH(double, value);
    double out = 0;
    QCOMPARE(parseDouble(std::string_view(text.constData(), size_t(text.size())), out), ok);
    if (ok)
        QCOMPARE(out, value);
}

void TestNumberText::appendMicrosFormatsWithFixedDecimals_data()
{
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<QByteArray>("text");
    QTest::addRow("3 decimals") << qint64(1234567) << 3 << QByteArray("1234.567");
    QTest::addRow("3 decimals, small") << qint64(5) << 3 << QByteArray("0.005");
    QTest::addRow("3 decimals, trailing zeros") << qint64(1500) << 3 << QByteArray("1.500");
    QTest::addRow("epoch") << qint64(4458676522709059) << 3 << QByteArray("4458676522709.059");
    QTest::addRow("0 decimals exact")
        << qint64(1623142623460111000) << 0 << QByteArray("1623142623460111");
    QTest::addRow("0 decimals rounds up") << qint64(1234567) << 0 << QByteArray("1235");
    QTest::addRow("0 decimals rounds down") << qint64(1234499) << 0 << QByteArray("1234");
    QTest::addRow("0 decimals half away from zero") << qint64(1234500) << 0 << QByteArray("1235");
    QTest::addRow("1 decimal rounds") << qint64(1234567) << 1 << QByteArray("1234.6");
    QTest::addRow("2 decimals rounds") << qint64(1234567) << 2 << QByteArray("1234.57");
    QTest::addRow("2 decimals carry") << qint64(999) << 2 << QByteArray("1.00");
    QTest::addRow("1 decimal carry") << qint64(1999999) << 1 << QByteArray("2000.0");
    QTest::addRow("zero") << qint64(0) << 3 << QByteArray("0.000");
    QTest::addRow("zero, 0 decimals") << qint64(0) << 0 << QByteArray("0");
    QTest::addRow("negative") << qint64(-1500) << 3 << QByteArray("-1.500");
    QTest::addRow("negative below 1 µs") << qint64(-5) << 3 << QByteArray("-0.005");
    QTest::addRow("negative rounds away from zero") << qint64(-1500) << 0 << QByteArray("-2");
    QTest::addRow("negative rounding to zero has no sign") << qint64(-400) << 0 << QByteArray("0");
    QTest::addRow("more than 3 decimals keeps 3") << qint64(1234567) << 6 << QByteArray("1234.567");
    QTest::addRow("int64 min") << std::numeric_limits<qint64>::min() << 3
                               << QByteArray("-9223372036854775.808");
    QTest::addRow("int64 max") << std::numeric_limits<qint64>::max() << 3
                               << QByteArray("9223372036854775.807");
}

void TestNumberText::appendMicrosFormatsWithFixedDecimals()
{
    QFETCH(qint64, ns);
    QFETCH(int, decimals);
    QFETCH(QByteArray, text);
    std::string out;
    appendMicros(out, ns, decimals);
    QCOMPARE(QByteArray::fromStdString(out), text);
}

void TestNumberText::appendMicrosAppendsToExistingText()
{
    std::string out = "ts=";
    appendMicros(out, 2500, 1);
    out += ',';
    appendMicros(out, -7000, 0);
    QCOMPARE(out, std::string("ts=2.5,-7"));
}

void TestNumberText::appendMicrosRoundTripsParseMicros()
{
    // What the loader reads and the exporters write back must be the text as written.
    for (const char *text :
        {"4458676522709.059", "1623142623460111", "12.5", "-3", "0.001", "812000.250", "-0.125"}) {
        MicrosText m;
        QVERIFY2(parseMicros(text, m), text);
        std::string out;
        appendMicros(out, m.ns, m.decimals);
        QCOMPARE(out, std::string(text));
    }
}

QTEST_APPLESS_MAIN(TestNumberText)
// Binary units, three significant digits: 6,629,508,096 bytes is 6.17 GiB (6629508096 / 2^30 =
// 6.174...), not "6.2 GB".
void TestNumberText::bytesTextUsesBinaryUnits_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("GiB") << 6629508096.0 << QStringLiteral("6.17 GiB");
    QTest::newRow("bytes") << 512.0 << QStringLiteral("512 B");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0 B");
    QTest::newRow("KiB") << 1536.0 << QStringLiteral("1.50 KiB");
    QTest::newRow("MiB, one decimal") << 12.26 * 1048576 << QStringLiteral("12.3 MiB");
    QTest::newRow("MiB, whole") << 300.0 * 1048576 << QStringLiteral("300 MiB");
    QTest::newRow("just under 1 MiB") << 1048575.0 << QStringLiteral("1.00 MiB");
    QTest::newRow("decrease") << -2048.0 << QStringLiteral("-2.00 KiB");
}

void TestNumberText::bytesTextUsesBinaryUnits()
{
    QFETCH(double, bytes);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(ks::bytesText(bytes)), text);
}

// Issue #57: "888 days", not "76804521778 ms" (two traces of jobs years apart).
void TestNumberText::spanTextReadsLongSpans_data()
{
    QTest::addColumn<double>("ns");
    QTest::addColumn<QString>("text");
    QTest::newRow("years apart") << 76804521778e6 << QStringLiteral("889 days");
    QTest::newRow("a day and a half") << 1.5 * 86400e9 << QStringLiteral("1.50 days");
    QTest::newRow("an hour less 6 s") << 3594e9 << QStringLiteral("59.9 min");
    QTest::newRow("hours") << 3.5 * 3600e9 << QStringLiteral("3.50 h");
    QTest::newRow("under a minute: durationText") << 12.4e9 << QStringLiteral("12.40 s");
}

void TestNumberText::spanTextReadsLongSpans()
{
    QFETCH(double, ns);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(ks::spanText(ns)), text);
}

// Issue #57: callouts name kernels in a line; the names below are real (the shared MI300,
// DLRM and ResNet-50 traces), each shortened by hand.
void TestNumberText::shortKernelNameKeepsWhatItComputes_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("shortName");
    QTest::newRow("functor") << QStringLiteral(
        "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3>)")
                             << QStringLiteral("vectorized_elementwise_kernel<AddFunctor>");
    QTest::newRow("anonymous namespace and lambda")
        << QStringLiteral(
               "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
               "namespace)::clamp_min_scalar_kernel_impl(at::TensorIterator&, "
               "c10::Scalar)::{lambda()#1}::operator()() const>(int)")
        << QStringLiteral("vectorized_elementwise_kernel<clamp_"
                          "min_scalar_kernel_impl>");
    QTest::newRow("values skipped") << QStringLiteral(
        "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float)")
                                    << QStringLiteral("bn_bw_1C11_kernel_new<float>");
    QTest::newRow("nested type") << QStringLiteral(
        "void cub::DeviceScanKernel<cub::DeviceScanPolicy<int>::Policy600, int*>(int*)")
                                 << QStringLiteral("DeviceScanKernel<DeviceScanPolicy>");
    QTest::newRow("no template") << QStringLiteral(
        "void cudnn::ops::scalePackedTensor_kernel(cudnnTensor4dStruct, float*, float)")
                                 << QStringLiteral("scalePackedTensor_kernel");
    QTest::newRow("plain kernel") << QStringLiteral("volta_sgemm_128x32_nt")
                                  << QStringLiteral("volta_sgemm_128x32_nt");
    QTest::newRow("memcpy keeps its brackets") << QStringLiteral(
        "Memcpy HtoD (Pageable -> Device)") << QStringLiteral("Memcpy HtoD (Pageable -> Device)");
    const QString longName(70, QLatin1Char('k'));
    QTest::newRow("long name cut")
        << longName << QString(61, QLatin1Char('k')) + QStringLiteral("…");
}

void TestNumberText::shortKernelNameKeepsWhatItComputes()
{
    QFETCH(QString, name);
    QFETCH(QString, shortName);
    QCOMPARE(QString::fromStdString(shortKernelName(name.toStdString())), shortName);
}

#include "tst_numbertext.moc"
