// SPDX-License-Identifier: MIT
// kinetoscope: the command line of cli.md. Headless modes never open a window.
#include "headless.h"
#include "version.h"

#include "mainwindow.h"
#include "resources.h"
#include "screenshot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <malloc.h>

namespace {

struct Options {
    QCommandLineOption demo {
        QStringLiteral("demo"), QStringLiteral("Open the window on the bundled demo trace.")};
    QCommandLineOption summary {QStringLiteral("summary"),
        QStringLiteral("Print a JSON summary of FILE to stdout and exit."), QStringLiteral("FILE")};
    QCommandLineOption exportPairs {QStringLiteral("export-pairs"),
        QStringLiteral(
            "Write the op-pair table of FILE to OUT (CSV; JSON when OUT ends in .json) and exit."),
        QStringLiteral("OUT")};
    QCommandLineOption exportKernels {QStringLiteral("export-kernels"),
        QStringLiteral("Write one row per GPU event of FILE, with its launching op and pair, to "
                       "OUT and exit."),
        QStringLiteral("OUT")};
    QCommandLineOption screenshot {QStringLiteral("screenshot"),
        QStringLiteral(
            "Render a view of FILE to OUT (.png or .svg) without showing a window, and exit."),
        QStringLiteral("OUT")};
    QCommandLineOption view {QStringLiteral("view"),
        QStringLiteral("View for --screenshot: timeline, table, chart or window (default)."),
        QStringLiteral("VIEW"), QStringLiteral("window")};
    QCommandLineOption select {QStringLiteral("select"),
        QStringLiteral("Select the K-th (0-based, in time order) forward op named NAME first."),
        QStringLiteral("NAME[#K]")};
    QCommandLineOption range {QStringLiteral("range"),
        QStringLiteral("Visible time range, microseconds from the start of the trace."),
        QStringLiteral("START_US:END_US")};
    QCommandLineOption size {QStringLiteral("size"),
        QStringLiteral("Image size in pixels (default 1600x900)."), QStringLiteral("WIDTHxHEIGHT"),
        QStringLiteral("1600x900")};
};

int usageError(const QCommandLineParser &parser, const QString &message)
{
    std::fprintf(
        stderr, "kinetoscope: %s\n\n%s", qPrintable(message), qPrintable(parser.helpText()));
    return ks::ExitUsage;
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
    Options o;
    for (const QCommandLineOption &opt : {o.demo, o.summary, o.exportPairs, o.exportKernels,
             o.screenshot, o.view, o.select, o.range, o.size})
        parser.addOption(opt);
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("Trace files to open (.json, .json.gz)."), QStringLiteral("[FILE...]"));

    if (!parser.parse(arguments))
        return usageError(parser, parser.errorText());
    if (parser.isSet(help)) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return ks::ExitOk;
    }
    if (parser.isSet(version)) {
        std::printf("kinetoscope %s\n", KINETOSCOPE_VERSION);
        return ks::ExitOk;
    }

    const QStringList files = parser.positionalArguments();
    const int modes = int(parser.isSet(o.summary)) + int(parser.isSet(o.exportPairs))
        + int(parser.isSet(o.exportKernels)) + int(parser.isSet(o.screenshot));
    if (modes > 1)
        return usageError(parser,
            QStringLiteral(
                "choose one of --summary, --export-pairs, --export-kernels, --screenshot"));
    const bool screenshotOnly = parser.isSet(o.view) || parser.isSet(o.select)
        || parser.isSet(o.range) || parser.isSet(o.size);
    if (screenshotOnly && !parser.isSet(o.screenshot))
        return usageError(
            parser, QStringLiteral("--view, --select, --range and --size go with --screenshot"));

    if (parser.isSet(o.summary)) {
        if (!files.isEmpty())
            return usageError(parser, QStringLiteral("--summary takes exactly one FILE"));
        QCoreApplication app(argc, argv);
        return ks::runSummary(parser.value(o.summary).toStdString());
    }
    if (parser.isSet(o.exportPairs) || parser.isSet(o.exportKernels)) {
        const bool kernels = parser.isSet(o.exportKernels);
        if (files.size() != 1)
            return usageError(parser,
                QStringLiteral("--export-%1 OUT FILE needs exactly one FILE")
                    .arg(kernels ? QStringLiteral("kernels") : QStringLiteral("pairs")));
        QCoreApplication app(argc, argv);
        const QString out = parser.value(kernels ? o.exportKernels : o.exportPairs);
        return ks::runExport(out.toStdString(), files.first().toStdString(), kernels);
    }
    if (parser.isSet(o.screenshot)) {
        if (files.size() != 1)
            return usageError(
                parser, QStringLiteral("--screenshot OUT FILE needs exactly one FILE"));
        ks::ScreenshotRequest request;
        QString error;
        if (!ks::parseScreenshotRequest(parser.value(o.screenshot), files.first(),
                parser.value(o.view), parser.value(o.select), parser.value(o.range),
                parser.value(o.size), request, error))
            return usageError(parser, error);
        // Headless: the offscreen platform needs no display.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        return ks::renderScreenshot(request);
    }

    QApplication app(argc, argv);
    QApplication::setWindowIcon(QIcon(ks::Resources::appIcon()));
    // Matches the installed desktop entry, so desktops group the window with its launcher.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.kinetoscope.kinetoscope"));
    ks::MainWindow window;
    window.show();
    if (parser.isSet(o.demo))
        window.openDemo();
    window.openFiles(files);
    return app.exec();
}
