// SPDX-License-Identifier: MIT
// White-box tests of decideLoad() (core/load/internal/loadverdict): every way a load can end,
// from hand-built parse outcomes. No parsing: what a parse finds is tested in tst_loader.
#include "load/internal/loadverdict.h"

#include <QTest>

using namespace ks;

Q_DECLARE_METATYPE(ks::ParseOutcome)

namespace {

constexpr uint64_t kStoppedEarly = ~uint64_t(0); // textSize of a parse that stopped early

//! A parse that read a complete trace of \a events events, \a textSize bytes long.
ParseOutcome trace(uint64_t events = 3, uint64_t textSize = 100)
{
    ParseOutcome o;
    o.sawRoot = o.rootIsTrace = o.sawEventsArray = true;
    o.events = o.phasedEvents = events;
    o.firstEntryOffset = 16;
    o.textSize = textSize;
    return o;
}

//! \a o with the parser stopped at \a offset on \a c, RapidJSON saying \a message.
ParseOutcome stopped(ParseOutcome o, uint64_t offset, char c, const char *message)
{
    o.parseError = true;
    o.errorOffset = offset;
    o.errorMessage = message;
    o.charAtError = c;
    o.tellAtError = offset;
    return o;
}

QString notesText(const LoadVerdict &v)
{
    QStringList out;
    for (const LoadVerdict::Note &n : v.notes) {
        const std::string_view name = info(n.counter).name;
        QString line = QStringLiteral("%1@%2: %3")
                           .arg(QString::fromUtf8(name.data(), qsizetype(name.size())))
                           .arg(n.offset)
                           .arg(QString::fromStdString(n.message));
        if (n.alsoCounted > 0)
            line += QStringLiteral(" (+%1)").arg(n.alsoCounted);
        out << line;
    }
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestLoadVerdict : public QObject {
    Q_OBJECT

private slots:
    void verdicts_data();
    void verdicts();
};

void TestLoadVerdict::verdicts_data()
{
    using S = LoadVerdict::Status;
    QTest::addColumn<ParseOutcome>("outcome");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("error"); // the whole message, empty when loaded
    QTest::addColumn<qint64>("offset");
    QTest::addColumn<qint64>("textSize"); // of the model, when loaded
    QTest::addColumn<QString>("notes"); // the diagnostics added, one per line

    const auto row = [](const char *name, const ParseOutcome &o, S status, const char *error,
                         qint64 offset, qint64 textSize = 0, const char *notes = "") {
        QTest::addRow("%s", name) << o << int(status) << QString::fromUtf8(error) << offset
                                  << textSize << QString::fromUtf8(notes);
    };

    // Loaded, with or without notes.
    row("complete trace", trace(), S::Loaded, "", 0, 100);
    ParseOutcome repaired = trace();
    repaired.repairs = 3;
    repaired.firstRepairAt = 40;
    row("repaired strings", repaired, S::Loaded, "", 0, 100,
        "repaired_strings@40: invalid characters or escapes in strings were repaired (+2)");
    ParseOutcome oneRepair = trace();
    oneRepair.repairs = 1;
    oneRepair.firstRepairAt = 7;
    row("one repaired string", oneRepair, S::Loaded, "", 0, 100,
        "repaired_strings@7: invalid characters or escapes in strings were repaired");
    ParseOutcome syntax = stopped(trace(), 60, 'x', "Invalid value.");
    row("syntax error after events", syntax, S::Loaded, "", 0, 100,
        "syntax_error@60: a syntax error (Invalid value.): the rest of the file was not read");
    ParseOutcome syntaxEarly = stopped(trace(), 60, 'x', "Invalid value.");
    syntaxEarly.textSize = kStoppedEarly; // a file: the reader had not reached the end
    row("syntax error before the end of a file", syntaxEarly, S::Loaded, "", 0, 60,
        "syntax_error@60: a syntax error (Invalid value.): the rest of the file was not read");
    ParseOutcome counted = syntaxEarly; // a plain file: what it held after the error counted
    counted.unreadBytes = 1040;
    counted.unreadEvents = 12;
    row("syntax error with the rest counted", counted, S::Loaded, "", 0, 60,
        "syntax_error@60: a syntax error (Invalid value.): the rest of the file was not read "
        "(1040 bytes holding about 12 events)");
    ParseOutcome zeroByte = stopped(trace(), 60, 0, "The document root must not be followed…");
    row("zero byte after events", zeroByte, S::Loaded, "", 0, 100,
        "syntax_error@60: a syntax error (a zero byte: this is not JSON text): the rest of the "
        "file "
        "was not read");
    ParseOutcome midEvent = stopped(trace(), 60, 'x', "Invalid value.");
    midEvent.insideEvent = true;
    midEvent.eventOffset = 52;
    row("syntax error inside an event", midEvent, S::Loaded, "", 0, 100,
        "syntax_error@60: a syntax error (Invalid value.): the rest of the file was not read\n"
        "incomplete_event@52: the last event is incomplete: skipped");

    // Truncated: loaded, and marked.
    ParseOutcome cut = stopped(trace(), 100, 0, "Missing a comma or ']' after an array element.");
    cut.insideEvent = true;
    cut.eventOffset = 90;
    row("text ends inside an event", cut, S::Truncated, "", 0, 100,
        "truncated@100: the file ends in the middle of the JSON\n"
        "incomplete_event@90: the last event is incomplete: skipped");
    ParseOutcome backslash = stopped(trace(), 98, 0, "Invalid escape character in string.");
    backslash.tellAtError = 100; // the backslash is the last character: the text ran out
    row("text ends after a backslash", backslash, S::Truncated, "", 0, 100,
        "truncated@100: the file ends in the middle of the JSON");
    ParseOutcome gzipCut = stopped(trace(3, 80), 80, 0, "Missing a comma or '}' after an object");
    gzipCut.gzipProblem = "the gzip stream is cut off";
    gzipCut.gzipCutOff = true;
    row("gzip cut off", gzipCut, S::Truncated, "", 0, 80,
        "gzip_cut_off@80: the gzip stream is cut off\n"
        "truncated@80: the file ends in the middle of the JSON");
    ParseOutcome gzipBad = stopped(trace(3, 80), 80, 0, "Missing a comma or '}' after an object");
    gzipBad.gzipProblem = "corrupt gzip data at compressed byte 9 (invalid block type)";
    row("corrupt gzip after events", gzipBad, S::Truncated, "", 0, 80,
        "gzip_corrupt@80: corrupt gzip data at compressed byte 9 (invalid block type)\n"
        "truncated@80: the file ends in the middle of the JSON");

    // Failed: nothing that makes a trace was read.
    ParseOutcome empty;
    row("empty file", empty, S::Failed, "t.json: byte 0: empty file", 0);
    ParseOutcome emptyGzip;
    emptyGzip.gzipProblem = "the gzip stream is cut off";
    row("gzip with no text", emptyGzip, S::Failed, "t.json: byte 0: the gzip stream is cut off", 0);
    ParseOutcome noRoot;
    noRoot.textSize = 5;
    row("whitespace only", noRoot, S::Failed,
        "t.json: byte 0: not a trace (not JSON): only whitespace", 0);
    ParseOutcome junk = stopped(ParseOutcome(), 0, 'h', "Invalid value.");
    junk.textSize = 12;
    row("text that is not JSON", junk, S::Failed,
        "t.json: byte 0: not a trace (not JSON): Invalid value.", 0);
    ParseOutcome binary = stopped(ParseOutcome(), 2, 0, "Invalid value.");
    binary.textSize = 4;
    row("zero byte first", binary, S::Failed,
        "t.json: byte 2: not a trace (not JSON): a zero byte, binary data", 2);
    ParseOutcome brokenLiteral = stopped(ParseOutcome(), 3, 0, "Invalid value.");
    brokenLiteral.sawRoot = true;
    brokenLiteral.textSize = 3;
    row("root cut off before it is a trace", brokenLiteral, S::Failed,
        "t.json: byte 3: not a trace: the file ends before the trace begins", 3);
    ParseOutcome scalar;
    scalar.sawRoot = true;
    scalar.textSize = 2;
    row("a scalar root", scalar, S::Failed, "t.json: byte 0: not a trace", 0);
    ParseOutcome text = scalar;
    text.notATrace = "the top-level value is a string, not a trace";
    row("a string root", text, S::Failed,
        "t.json: byte 0: the top-level value is a string, not a trace", 0);
    ParseOutcome noArray = trace(0);
    noArray.sawEventsArray = false;
    row("object without traceEvents", noArray, S::Failed,
        "t.json: byte 0: no traceEvents array: not a trace", 0);
    row("no events", trace(0), S::Failed, "t.json: byte 0: the trace contains no events", 0);
    row("text ends before the first event",
        stopped(trace(0, 20), 20, 0, "Missing a comma or ']' after an array element."), S::Failed,
        "t.json: byte 20: the file ends before the first event", 20);
    row("syntax error before the first event",
        stopped(trace(0, 20), 15, ':', "Missing a comma or ']' after an array element."), S::Failed,
        "t.json: byte 15: Missing a comma or ']' after an array element.", 15);
    ParseOutcome noPhase = trace();
    noPhase.phasedEvents = 0;
    row("entries but no complete event", noPhase, S::Failed,
        "t.json: byte 16: no complete trace event (an object with \"ph\") in traceEvents", 16);
    row("syntax error before any complete event", stopped(noPhase, 40, '1', "Invalid value."),
        S::Failed, "t.json: byte 40: Invalid value. before any complete trace event", 40);
    row("text ends before any complete event", stopped(noPhase, 100, 0, "Invalid value."),
        S::Failed, "t.json: byte 16: the file ends before the first complete trace event", 16);

    // Out of memory and cancel come first, whatever else the pass found.
    ParseOutcome oom = stopped(trace(), 100, 0, "Terminate parsing due to Handler error.");
    oom.outOfMemory = true;
    oom.stoppedAt = 12345678;
    row("out of memory", oom, S::Failed,
        "t.json: byte 12345678: not enough memory to load this trace (12.3 MB of text read)",
        12345678);
    ParseOutcome oomAtStart;
    oomAtStart.outOfMemory = true;
    row("out of memory at once", oomAtStart, S::Failed,
        "t.json: byte 0: not enough memory to load this trace (0.0 MB of text read)", 0);
    ParseOutcome cancelled = oom;
    cancelled.cancelled = true;
    row("cancelled", cancelled, S::Cancelled, "t.json: cancelled", 0);
}

void TestLoadVerdict::verdicts()
{
    QFETCH(ParseOutcome, outcome);
    QFETCH(int, status);
    QFETCH(QString, error);
    QFETCH(qint64, offset);
    QFETCH(qint64, textSize);
    QFETCH(QString, notes);

    const LoadVerdict v = decideLoad("t.json", outcome);
    QCOMPARE(int(v.status), status);
    QCOMPARE(QString::fromStdString(v.error), error);
    QCOMPARE(qint64(v.offset), offset);
    const bool loaded
        = v.status == LoadVerdict::Status::Loaded || v.status == LoadVerdict::Status::Truncated;
    if (loaded)
        QCOMPARE(qint64(v.textSize), textSize);
    QCOMPARE(notesText(v), loaded ? notes : QString());
}

QTEST_GUILESS_MAIN(TestLoadVerdict)
#include "tst_loadverdict.moc"
