// SPDX-License-Identifier: MIT
// kinetoscope: the command line of docs/cli.md. Headless modes never open a window.
#include "base/version.h"
#include "headless.h"
#include "load/tracereader.h"
#include "reportcommand.h"

#include "resources.h"
#include "window/mainwindow.h"
#include "window/screenshot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <malloc.h>

namespace {

QCommandLineOption flag(const char *name, const char *help)
{
    return QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help));
}

QCommandLineOption valued(
    const char *name, const char *help, const char *value, const char *defaultValue = nullptr)
{
    QCommandLineOption o(
        QString::fromLatin1(name), QString::fromUtf8(help), QString::fromLatin1(value));
    if (defaultValue)
        o.setDefaultValue(QString::fromLatin1(defaultValue));
    return o;
}

struct Options {
    QCommandLineOption demo = flag("demo", "Open the window on the bundled demo trace.");
    QCommandLineOption summary
        = valued("summary", "Print a JSON summary of FILE to stdout and exit.", "FILE");
    QCommandLineOption exportPairs = valued("export-pairs",
        "Write the op-pair table of FILE to OUT (CSV; JSON when OUT ends in .json) and exit.",
        "OUT");
    QCommandLineOption exportKernels = valued("export-kernels",
        "Write one row per GPU event of FILE, with its launching op and pair, to OUT and exit.",
        "OUT");
    QCommandLineOption exportModules = valued("export-modules",
        "Write the module tree of FILE, one row per module path, to OUT and exit.",
        "OUT");
    QCommandLineOption exportMemory = valued("export-memory",
        "Write one row per memory allocation of FILE (device, size, lifetime, op, pair) to OUT "
        "and exit.",
        "OUT");
    QCommandLineOption perStep
        = flag("per-step", "With --export-modules: one row per module and ProfilerStep.");
    QCommandLineOption screenshot = valued("screenshot",
        "Render a view of FILE (or of a --compare) to OUT (.png or .svg) without a window, and "
        "exit.",
        "OUT");
    QCommandLineOption view = valued(
        "view", "View for --screenshot: timeline, table, chart or window (default).", "VIEW");
    QCommandLineOption select = valued("select",
        "Select the K-th (0-based, in time order) forward op named NAME first.",
        "NAME[#K]");
    QCommandLineOption range = valued("range",
        "Visible time range, microseconds from the start of the trace.",
        "START_US:END_US");
    QCommandLineOption size
        = valued("size", "Image size in pixels (default 1600x900).", "WIDTHxHEIGHT");
    QCommandLineOption compare = valued("compare",
        "Compare FILE (the candidate) against BASE pair by pair: with --export-diff or "
        "--screenshot, "
        "or in the window.",
        "BASE");
    QCommandLineOption exportDiff = valued("export-diff",
        "With --compare: write the comparison to OUT (CSV; JSON when OUT ends in .json) and exit.",
        "OUT");
    QCommandLineOption diffBy = valued("diff-by",
        "With --export-diff: pairs (default), ops, modules or module-types.",
        "ROWS",
        "pairs");
    QCommandLineOption step
        = valued("step", "With --compare: compare ProfilerStep#N of both traces.", "N");
    QCommandLineOption baseStep
        = valued("base-step", "With --compare: the base trace's step.", "N");
    QCommandLineOption candidateStep
        = valued("candidate-step", "With --compare: the candidate's step.", "N");
    QCommandLineOption meanSteps
        = flag("mean-steps", "With --compare: compare the mean over all steps.");
    QCommandLineOption run = flag(
        "run", "Open the FILEs (or the trace files in a folder) as one run of several ranks.");
    QCommandLineOption exportRanks = valued("export-ranks",
        "Write one row per rank of the run FILE...|DIR (GPU time breakdown, pairs) to OUT.",
        "OUT");
    QCommandLineOption exportCollectives = valued("export-collectives",
        "Write the collectives of the run FILE...|DIR matched across ranks (skew, last rank) to "
        "OUT.",
        "OUT");
    QCommandLineOption report = valued("report",
        "Write a one-file report of FILE, of a run (several FILEs or a folder) or of a --compare "
        "to OUT (.pdf, else self-contained .html) and exit.",
        "OUT");
    QCommandLineOption page
        = valued("page", "With --report: the PDF's page size, a4 (default) or letter.", "SIZE");
    QCommandLineOption threads = valued("threads",
        "Parse an uncompressed trace with N threads side by side, and inflate a gzip trace's "
        "members side by side (default: the cores there are; 1 reads it in one piece). The result "
        "is the same whatever N.",
        "N");
    QCommandLineOption exportRankPairs = valued("export-rank-pairs",
        "Write the op pairs of the run FILE...|DIR matched across ranks (GPU time per rank) to "
        "OUT.",
        "OUT");
};

//! The views of a run's screenshot.
bool isRunView(const QString &view)
{
    return view == QLatin1String("run") || view == QLatin1String("ranks")
        || view == QLatin1String("collectives");
}

//! The parser's help, named as users type it: headless runs parse before any QCoreApplication
//! exists, and Qt then writes "<executable_name>".
QString helpText(const QCommandLineParser &parser)
{
    QString text = parser.helpText();
    text.replace(QLatin1String("<executable_name>"), QLatin1String("kinetoscope"));
    return text;
}

int usageError(const QCommandLineParser &parser, const QString &message)
{
    std::fprintf(
        stderr, "kinetoscope: %s\n\n%s", qPrintable(message), qPrintable(helpText(parser)));
    return ks::ExitUsage;
}

//! The step options of --compare; false with \a error when they are malformed or contradict.
bool readDiffOptions(
    const QCommandLineParser &parser, const Options &o, ks::DiffOptions &options, QString &error)
{
    auto number = [&](const QCommandLineOption &opt, std::optional<int64_t> &out) {
        if (!parser.isSet(opt))
            return true;
        bool ok = false;
        out = parser.value(opt).toLongLong(&ok);
        if (!ok)
            error = QStringLiteral("--%1 needs a step number").arg(opt.names().first());
        return ok;
    };
    std::optional<int64_t> both;
    if (!number(o.step, both) || !number(o.baseStep, options.baseStep)
        || !number(o.candidateStep, options.candidateStep))
        return false;
    if (both) {
        if (options.baseStep || options.candidateStep) {
            error
                = QStringLiteral("--step cannot be combined with --base-step or --candidate-step");
            return false;
        }
        options.baseStep = options.candidateStep = both;
    }
    options.meanOverSteps = parser.isSet(o.meanSteps);
    static const QStringList rows = {QStringLiteral("pairs"), QStringLiteral("ops"),
        QStringLiteral("modules"), QStringLiteral("module-types")};
    if (!rows.contains(parser.value(o.diffBy))) {
        error = QStringLiteral("--diff-by must be one of pairs, ops, modules, module-types");
        return false;
    }
    return true;
}

/*!
 * Whether a window can be opened: Qt aborts with a page about platform plugins when there is no
 * display, which tells a user on a headless machine nothing useful.
 */
bool haveDisplay(const QStringList &arguments)
{
    return !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")
        || arguments.contains(QStringLiteral("-platform"));
}

void useOffscreenPlatform()
{
    // Headless: the offscreen platform needs no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

} // namespace

int main(int argc, char *argv[])
{
    // Trace tables are large arrays that are built, moved and freed while loading. glibc's
    // adaptive threshold would soon serve them from the heap, which never shrinks: with a fixed
    // threshold they are mapped and unmapped, and resident memory stays near the model's size.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);

    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);

    QCoreApplication::setApplicationName(QStringLiteral("kinetoscope"));
    QCoreApplication::setOrganizationName(QStringLiteral("Kinetoscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KINETOSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Kinetoscope: forward/backward op pairs and their GPU kernels in PyTorch "
                       "profiler traces."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const Options o;
    for (const QCommandLineOption &opt :
        {o.demo, o.summary, o.exportPairs, o.exportKernels, o.exportModules, o.exportMemory,
            o.perStep, o.screenshot, o.view, o.select, o.range, o.size, o.compare, o.exportDiff,
            o.diffBy, o.step, o.baseStep, o.candidateStep, o.meanSteps, o.run, o.exportRanks,
            o.exportCollectives, o.exportRankPairs, o.report, o.page, o.threads})
        parser.addOption(opt);
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("Trace files to open (.json, .json.gz)."), QStringLiteral("[FILE...]"));

    if (!parser.parse(arguments))
        return usageError(parser, parser.errorText());
    if (parser.isSet(help)) {
        std::fputs(qPrintable(helpText(parser)), stdout);
        return ks::ExitOk;
    }
    if (parser.isSet(version)) {
        std::printf("kinetoscope %s\n", KINETOSCOPE_VERSION);
        return ks::ExitOk;
    }

    if (parser.isSet(o.threads)) {
        bool ok = false;
        const int n = parser.value(o.threads).toInt(&ok);
        if (!ok || n < 1 || n > 1024)
            return usageError(parser, QStringLiteral("--threads needs a number from 1 to 1024"));
        ks::setLoadThreads(unsigned(n));
    }

    const QStringList files = parser.positionalArguments();
    const bool comparing = parser.isSet(o.compare);
    const int modes = int(parser.isSet(o.summary)) + int(parser.isSet(o.exportPairs))
        + int(parser.isSet(o.exportKernels)) + int(parser.isSet(o.exportModules))
        + int(parser.isSet(o.exportMemory)) + int(parser.isSet(o.screenshot))
        + int(parser.isSet(o.exportDiff)) + int(parser.isSet(o.exportRanks))
        + int(parser.isSet(o.exportCollectives)) + int(parser.isSet(o.exportRankPairs))
        + int(parser.isSet(o.report));
    if (modes > 1)
        return usageError(parser,
            QStringLiteral(
                "choose one of --summary, --export-pairs, --export-kernels, --export-modules, "
                "--export-memory, "
                "--export-diff, --export-ranks, --export-collectives, --export-rank-pairs, "
                "--report, --screenshot"));
    if (parser.isSet(o.page) && !parser.isSet(o.report))
        return usageError(parser, QStringLiteral("--page goes with --report"));
    const QString page = parser.value(o.page).toLower();
    if (parser.isSet(o.page) && page != QLatin1String("a4") && page != QLatin1String("letter"))
        return usageError(parser, QStringLiteral("--page takes a4 or letter"));
    const bool screenshotOnly = parser.isSet(o.view) || parser.isSet(o.select)
        || parser.isSet(o.range) || parser.isSet(o.size);
    if (screenshotOnly && !parser.isSet(o.screenshot))
        return usageError(
            parser, QStringLiteral("--view, --select, --range and --size go with --screenshot"));
    const bool compareOnly = parser.isSet(o.exportDiff) || parser.isSet(o.diffBy)
        || parser.isSet(o.step) || parser.isSet(o.baseStep) || parser.isSet(o.candidateStep)
        || parser.isSet(o.meanSteps);
    if (compareOnly && !comparing)
        return usageError(parser,
            QStringLiteral("--export-diff, --diff-by and the step options go with --compare"));
    if (parser.isSet(o.perStep) && !parser.isSet(o.exportModules))
        return usageError(parser, QStringLiteral("--per-step goes with --export-modules"));
    if (comparing
        && (parser.isSet(o.summary) || parser.isSet(o.exportPairs) || parser.isSet(o.exportKernels)
            || parser.isSet(o.exportModules) || parser.isSet(o.exportMemory)))
        return usageError(parser,
            QStringLiteral(
                "--compare goes with --export-diff, --report, --screenshot or the window"));

    const bool runExport = parser.isSet(o.exportRanks) || parser.isSet(o.exportCollectives)
        || parser.isSet(o.exportRankPairs);
    const bool runScreenshot = parser.isSet(o.screenshot) && isRunView(parser.value(o.view));
    if (parser.isSet(o.run) && (comparing || modes > int(runExport || runScreenshot)))
        return usageError(parser,
            QStringLiteral("--run opens a window; headless, use --export-ranks, "
                           "--export-collectives, --export-rank-pairs, --report or --screenshot "
                           "--view run|ranks|collectives"));
    if (runExport || parser.isSet(o.run) || runScreenshot) {
        if (files.isEmpty())
            return usageError(parser, QStringLiteral("a run needs its trace FILEs or a folder"));
        if (comparing)
            return usageError(parser, QStringLiteral("--compare does not take a run"));
    }
    std::vector<std::string> runArgs;
    for (const QString &f : files)
        runArgs.push_back(f.toStdString());
    if (runExport) {
        QCoreApplication app(argc, argv);
        const ks::RunExport what = parser.isSet(o.exportRanks) ? ks::RunExport::Ranks
            : parser.isSet(o.exportCollectives)                ? ks::RunExport::Collectives
                                                               : ks::RunExport::RankPairs;
        const QCommandLineOption &mode = parser.isSet(o.exportRanks) ? o.exportRanks
            : parser.isSet(o.exportCollectives)                      ? o.exportCollectives
                                                                     : o.exportRankPairs;
        return ks::runRunExport(what, parser.value(mode).toStdString(), runArgs);
    }

    if (parser.isSet(o.summary)) {
        if (!files.isEmpty())
            return usageError(parser, QStringLiteral("--summary takes exactly one FILE"));
        QCoreApplication app(argc, argv);
        return ks::runSummary(parser.value(o.summary).toStdString());
    }
    if (parser.isSet(o.exportPairs) || parser.isSet(o.exportKernels)
        || parser.isSet(o.exportModules) || parser.isSet(o.exportMemory)) {
        const QCommandLineOption &mode = parser.isSet(o.exportPairs) ? o.exportPairs
            : parser.isSet(o.exportKernels)                          ? o.exportKernels
            : parser.isSet(o.exportMemory)                           ? o.exportMemory
                                                                     : o.exportModules;
        if (files.size() != 1)
            return usageError(parser,
                QStringLiteral("--%1 OUT FILE needs exactly one FILE").arg(mode.names().first()));
        QCoreApplication app(argc, argv);
        const std::string out = parser.value(mode).toStdString();
        if (&mode == &o.exportMemory)
            return ks::runExportMemory(out, files.first().toStdString());
        if (&mode == &o.exportModules)
            return ks::runExportModules(out, files.first().toStdString(), parser.isSet(o.perStep));
        return ks::runExport(out, files.first().toStdString(), &mode == &o.exportKernels);
    }

    ks::DiffOptions diffOptions;
    if (comparing) {
        QString error;
        if (files.size() != 1)
            return usageError(
                parser, QStringLiteral("--compare BASE CANDIDATE needs exactly one CANDIDATE"));
        if (!readDiffOptions(parser, o, diffOptions, error))
            return usageError(parser, error);
    }
    if (parser.isSet(o.report)) {
        if (files.isEmpty())
            return usageError(parser,
                QStringLiteral("--report OUT needs a FILE, a run's FILEs or folder, or --compare"));
        if (parser.value(o.report) == QLatin1String("-"))
            return usageError(parser, QStringLiteral("--report writes a file: name it"));
        ks::ReportRequest request;
        request.out = parser.value(o.report).toStdString();
        request.files = runArgs;
        request.compareBase = parser.value(o.compare).toStdString();
        request.diffOptions = diffOptions;
        request.letter = page == QLatin1String("letter");
        useOffscreenPlatform();
        QApplication app(argc, argv);
        return ks::runReport(request);
    }
    if (parser.isSet(o.exportDiff)) {
        QCoreApplication app(argc, argv);
        ks::CompareRequest request;
        request.base = parser.value(o.compare).toStdString();
        request.candidate = files.first().toStdString();
        request.out = parser.value(o.exportDiff).toStdString();
        request.diffBy = parser.value(o.diffBy).toStdString();
        request.options = diffOptions;
        return ks::runCompareExport(request);
    }
    if (runScreenshot) {
        ks::ScreenshotRequest request;
        QString error;
        if (parser.isSet(o.select) || parser.isSet(o.range))
            return usageError(parser, QStringLiteral("a run's screenshot takes --view and --size"));
        if (!ks::parseScreenshotRequest(parser.value(o.screenshot), files.first(),
                parser.value(o.view), {}, {}, parser.value(o.size), request, error))
            return usageError(parser, error);
        request.runFiles = files;
        useOffscreenPlatform();
        QApplication app(argc, argv);
        return ks::renderScreenshot(request);
    }
    if (parser.isSet(o.screenshot)) {
        const bool demo = parser.isSet(o.demo) && files.isEmpty() && !comparing;
        if (files.size() != 1 && !demo)
            return usageError(
                parser, QStringLiteral("--screenshot OUT FILE needs exactly one FILE (or --demo)"));
        QString file = demo ? ks::MainWindow::demoTracePath() : files.first();
        if (file.isEmpty()) {
            std::fputs("kinetoscope: the demo trace could not be unpacked\n", stderr);
            return ks::ExitLoadFailed;
        }
        ks::ScreenshotRequest request;
        QString error;
        if (!ks::parseScreenshotRequest(parser.value(o.screenshot), file, parser.value(o.view),
                parser.value(o.select), parser.value(o.range), parser.value(o.size), request,
                error))
            return usageError(parser, error);
        if (comparing) {
            if (request.view == QLatin1String("chart") || !request.selectName.isEmpty()
                || request.rangeUs)
                return usageError(parser,
                    QStringLiteral("a comparison screenshot takes --view window, table or "
                                   "timeline, and --size"));
            request.compareBase = parser.value(o.compare);
            request.diffOptions = diffOptions;
        }
        useOffscreenPlatform();
        QApplication app(argc, argv);
        return ks::renderScreenshot(request);
    }

    if (!haveDisplay(arguments)) {
        std::fputs("kinetoscope: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are "
                   "not set): run it in a desktop session, over ssh -X, or under xvfb-run; or "
                   "render without a window: kinetoscope --demo --screenshot demo.png\n",
            stderr);
        return ks::ExitUsage;
    }
    QApplication app(argc, argv);
    QApplication::setWindowIcon(QIcon(ks::Resources::appIcon()));
    // Matches the installed desktop entry, so desktops group the window with its launcher.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.kinetoscope.kinetoscope"));
    ks::MainWindow window;
    window.show();
    if (parser.isSet(o.demo))
        window.openDemo();
    if (comparing)
        window.openComparison(parser.value(o.compare), files.first(), diffOptions);
    else if (parser.isSet(o.run))
        window.openRun(files);
    else
        window.openFiles(files);
    return QApplication::exec();
}
