// SPDX-License-Identifier: MIT
// kinetoscope: the command line of docs/cli.md. Headless modes never open a window.
#include "analysis/efficiency/devicepeaks.h"
#include "base/version.h"
#include "commandline.h"
#include "common/poolthreads.h"
#include "load/tracereader.h"
#include "resources.h"
#include "window/mainwindow.h"
#include "window/peakssetting.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstdio>
#include <malloc.h>
#include <mutex>
#include <new>

namespace ks {

namespace {

/*!
 * Whether a window can be opened: Qt aborts with a page about platform plugins when there is no
 * display, which tells a user on a headless machine nothing useful.
 */
bool haveDisplay(int argc, char *argv[])
{
    bool platform = false;
    for (int i = 1; i < argc; ++i)
        platform = platform || std::string_view(argv[i]) == "-platform";
    return !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || platform;
}

//! Headless pictures: the offscreen platform needs no display.
void useOffscreenPlatform()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

int openWindow(const WindowRequest &r, int &argc, char *argv[], bool peaksGiven)
{
    if (!haveDisplay(argc, argv)) {
        std::fputs("kinetoscope: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are "
                   "not set): run it in a desktop session, over ssh -X, or under xvfb-run; or "
                   "render without a window: kinetoscope --demo --screenshot demo.png\n",
            stderr);
        return ExitUsage;
    }
    QApplication app(argc, argv);
    QApplication::setWindowIcon(QIcon(Resources::appIcon()));
    if (const QString error = PeaksSetting::applySaved(peaksGiven); !error.isEmpty())
        std::fprintf(stderr, "kinetoscope: saved GPU peaks file: %s\n", qPrintable(error));
    // Matches the installed desktop entry, so desktops group the window with its launcher.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.kinetoscope.kinetoscope"));
    MainWindow window;
    window.show();
    if (r.demo)
        window.openDemo();
    if (r.compare)
        window.openComparison(r.compareBase, r.files.first(), r.diffOptions);
    else if (r.run)
        window.openRun(r.files);
    else
        window.openFiles(r.files);
    return QApplication::exec();
}

//! One overload per request: the application object it needs, then the command.
struct Runner {
    int &argc; // QCoreApplication keeps a reference
    char **argv;
    bool peaksGiven; //!< --peaks: the window leaves the saved peaks file aside

    int operator()(const UsageError &e) const
    {
        std::fprintf(stderr, "kinetoscope: %s\n\n%s", qPrintable(e.message), qPrintable(e.help));
        return ExitUsage;
    }
    int operator()(const PrintText &p) const
    {
        std::fputs(qPrintable(p.text), stdout);
        return ExitOk;
    }
    int operator()(const FindingsRequest &r) const
    {
        QCoreApplication app(argc, argv);
        return runFindings(r.out, r.args, r.path);
    }
    int operator()(const SummaryRequest &r) const
    {
        QCoreApplication app(argc, argv);
        return runSummary(r.file, r.path, r.whatIf);
    }
    int operator()(const TableExportRequest &r) const
    {
        QCoreApplication app(argc, argv);
        return runTraceExport(r.what, r.out, r.file, r.options);
    }
    int operator()(const RunExportRequest &r) const
    {
        QCoreApplication app(argc, argv);
        return runRunExport(r.what, r.out, r.args, r.path);
    }
    int operator()(const CheckRequest &r) const
    {
        QCoreApplication app(argc, argv);
        return runCheck(r);
    }
    int operator()(const CompareRequest &r) const
    {
        QCoreApplication app(argc, argv);
        return runCompareExport(r);
    }
    int operator()(const ReportRequest &r) const
    {
        useOffscreenPlatform();
        QApplication app(argc, argv);
        return runReport(r);
    }
    int operator()(const ScreenshotRequest &r) const
    {
        useOffscreenPlatform();
        QApplication app(argc, argv);
        startPoolThreads();
        return runScreenshot(r);
    }
    int operator()(const WindowRequest &r) const
    {
        startPoolThreads();
        return openWindow(r, argc, argv, peaksGiven);
    }
};

//! Carries out \a command; returns the exit code of docs/cli.md.
/*!
 * Headless commands say only their own messages on stderr: Qt's notes about the platform
 * ("XDG_RUNTIME_DIR not set", "This plugin does not support propagateSizeHints()") are noise to
 * a script reading it. Its critical and fatal messages still go out.
 */
void quietQtMessages(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtCriticalMsg || type == QtFatalMsg)
        std::fprintf(stderr, "%s\n", qPrintable(message));
}

int run(const Command &command, int &argc, char *argv[])
{
    if (!std::holds_alternative<WindowRequest>(command.request))
        qInstallMessageHandler(quietQtMessages);
    if (command.threads > 0)
        setLoadThreads(command.threads);
    if (!command.peaks.empty()) {
        auto table = std::make_shared<PeakTable>(PeakTable::shipped());
        if (const std::string error = table->addFile(command.peaks); !error.empty()) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return ExitUsage;
        }
        PeakTable::use(std::move(table));
    }
    try {
        return std::visit(Runner {argc, argv, !command.peaks.empty()}, command.request);
    } catch (const std::bad_alloc &) {
        // What no step caught (an export's table, a database being written): outputs are
        // written atomically, so nothing half-written is left behind.
        std::fprintf(stderr, "kinetoscope: not enough memory; nothing written\n");
        return ExitWriteFailed;
    }
}

/*!
 * glibc links itself to the unwinder (dlopen of libgcc_s) the first time an exception crosses one
 * of its own frames — pthread_once, under every std::call_once of LoadedTrace — and aborts when
 * that fails: out of memory inside such a section ended the process ("libgcc_s.so.1 must be
 * installed for unwinding to work", seen under ulimit -v). One crossing at the start, while memory
 * is plenty, makes the link for the rest of the process.
 */
void linkTheUnwinder()
{
    std::once_flag once;
    try {
        std::call_once(once, [] { throw 0; });
    } catch (int) {
    }
}

} // namespace

} // namespace ks

int main(int argc, char *argv[])
{
    ks::linkTheUnwinder();
    // Trace tables are large arrays that are built, moved and freed while loading. glibc's
    // adaptive threshold would soon serve them from the heap, which never shrinks: with a fixed
    // threshold they are mapped and unmapped, and resident memory stays near the model's size.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024); // NOLINT(concurrency-mt-unsafe): no thread yet
    QCoreApplication::setApplicationName(QStringLiteral("kinetoscope"));
    QCoreApplication::setOrganizationName(QStringLiteral("Kinetoscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KINETOSCOPE_VERSION));
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return ks::run(ks::parseCommand(arguments), argc, argv);
}
