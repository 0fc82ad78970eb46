// SPDX-License-Identifier: MIT
#include "commandline.h"

#include "base/version.h"
#include "trace/chartnames.h"
#include "viewnames.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include <cmath>
#include <optional>

namespace ks {

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
    QCommandLineOption exportKernelSummary = valued("export-kernel-summary",
        "Write one row per kernel name of FILE (count, total, mean, min, max, % of kernel time, "
        "the ops that launched it) to OUT and exit.",
        "OUT");
    QCommandLineOption exportSteps = valued("export-steps",
        "Write one row per ProfilerStep of FILE (CPU window, GPU span, busy, idle and what the "
        "busy time was spent on) to OUT and exit.",
        "OUT");
    QCommandLineOption exportLive = valued("export-live",
        "Write every memory block of FILE alive at --at-us T or --at peak (category, op, module, "
        "pair, step, Python stack), largest first, to OUT and exit.",
        "OUT");
    QCommandLineOption exportEfficiency = valued("export-efficiency",
        "Write one row per instance of a modelled op of FILE (FLOPs, bytes, kernel time, "
        "achieved TFLOP/s and TB/s, roofline, bound) to OUT and exit.",
        "OUT");
    QCommandLineOption criticalPathStep = valued("critical-path-step",
        "With --summary or --export-critical-path: the critical path of ProfilerStep#N "
        "(default: the first step); with --export-db: the step whose path graph it stores.",
        "N");
    QCommandLineOption dataLoading = valued("data-loading",
        "With --summary, --export-critical-path or --export-db: host events whose names REGEX "
        "finds are data loading (HTA's data_load_events): their own time on the path is "
        "data_loading.",
        "REGEX");
    QCommandLineOption criticalPathModel = valued("critical-path-model",
        "With --summary or --export-critical-path: step (default), a path that accounts for every "
        "microsecond of the step, idle time and late starts included; or hta, HTA's lightweight "
        "critical path, where idle time weighs nothing.",
        "MODEL");
    QCommandLineOption assumeStreamOrder = flag("assume-stream-order",
        "With --summary, --export-critical-path or --export-db: each GPU event also waits for "
        "the work launched before it on another stream of its device (for traces that record "
        "no cross-stream waits, such as ROCm's).");
    QCommandLineOption whatIf = valued("what-if",
        "With --summary: the critical path's length if NAME's GPU work (pairs whose forward op "
        "is NAME, or GPU events named NAME) took FACTOR of its time.",
        "NAME:FACTOR");
    QCommandLineOption peaks = valued("peaks",
        "Add or replace GPU peaks (TFLOP/s per compute spec, memory bandwidth) from FILE.json, "
        "in TraceLens's gpu_arch layout, for the roofline columns.",
        "FILE.json");
    QCommandLineOption atUs = valued(
        "at-us", "With --export-live: the time, microseconds on the trace file's clock.", "T");
    QCommandLineOption at
        = valued("at", "With --export-live: peak, the highest allocated memory.", "peak");
    QCommandLineOption perStep
        = flag("per-step", "With --export-modules: one row per module and ProfilerStep.");
    QCommandLineOption screenshot = valued("screenshot",
        "Render a view of FILE (or of a --compare) to OUT (.png or .svg) without a window, and "
        "exit.",
        "OUT");
    QCommandLineOption view = valued(
        "view", "View for --screenshot: timeline, table, chart or window (default).", "VIEW");
    QCommandLineOption chart = valued("chart",
        "With --screenshot --view chart: top-pairs (default), top-groups, steps, scatter or "
        "roofline.",
        "CHART");
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
        "Parse a trace with N threads side by side (gzip from N = 3 on, as it is inflated), and "
        "inflate a gzip trace's members side by side (default: the usable cores, docs/cli.md; 1 "
        "reads it in one piece). The result is the same whatever N.",
        "N");
    QCommandLineOption check = flag("check",
        "Check FILE, or a run (several FILEs or a folder), for what makes its numbers "
        "untrustworthy; print the findings as JSON; exit 4 when one is a warning.");
    QCommandLineOption exportRankPairs = valued("export-rank-pairs",
        "Write the op pairs of the run FILE...|DIR matched across ranks (GPU time per rank) to "
        "OUT.",
        "OUT");
    QCommandLineOption exportCriticalPath = valued("export-critical-path",
        "Write the critical path of FILE, or across the ranks of a run FILE...|DIR, one row per "
        "segment in path order, to OUT.",
        "OUT");
    QCommandLineOption exportDb = valued("export-db",
        "Write every table of FILE, or of each rank of a run FILE...|DIR and the run's own, to "
        "one SQLite database OUT.sqlite.",
        "OUT.sqlite");

    //! The modes that write something and exit: at most one per command.
    std::vector<const QCommandLineOption *> modes() const
    {
        return {&summary, &exportPairs, &exportKernels, &exportModules, &exportMemory, &exportSteps,
            &exportKernelSummary, &exportLive, &exportEfficiency, &screenshot, &exportDiff,
            &exportRanks, &exportCollectives, &exportRankPairs, &exportCriticalPath, &exportDb,
            &report, &check};
    }
    //! The run exports, in RunExport's order.
    std::array<const QCommandLineOption *, 5> runExports() const
    {
        return {&exportRanks, &exportCollectives, &exportRankPairs, &exportCriticalPath, &exportDb};
    }
};

/*!
 * Parses one command line: the parser, its options, the positional files, and the first usage
 * error found (checks run in the order docs/cli.md gives the rules).
 */
class CommandParser {
public:
    explicit CommandParser(const QStringList &arguments);
    Command command();

private:
    bool isSet(const QCommandLineOption &o) const { return m_parser.isSet(o); }
    QString value(const QCommandLineOption &o) const { return m_parser.value(o); }
    UsageError usage(const QString &message) const;
    std::optional<UsageError> combinationError() const;
    std::optional<UsageError> runError() const;
    Request request();
    Request tableExport();
    Request screenshot(const DiffOptions &diffOptions);
    Request report(const DiffOptions &diffOptions);
    //! The step options of --compare; a UsageError when they are malformed or contradict.
    std::variant<UsageError, DiffOptions> diffOptions() const;
    std::vector<std::string> fileArgs() const;
    bool isRunScreenshot() const;
    //! The RunExport asked for, -1 if none.
    int runExportIndex() const;

    QStringList m_arguments;
    QCommandLineParser m_parser;
    Options m_o;
    QCommandLineOption m_help;
    QCommandLineOption m_version;
    QStringList m_files;
};

CommandParser::CommandParser(const QStringList &arguments)
    : m_arguments(arguments)
    , m_help(m_parser.addHelpOption())
    , m_version(m_parser.addVersionOption())
{
    m_parser.setApplicationDescription(
        QStringLiteral("Kinetoscope: forward/backward op pairs and their GPU kernels in PyTorch "
                       "profiler traces."));
    for (const QCommandLineOption &opt : {m_o.demo, m_o.summary, m_o.exportPairs, m_o.exportKernels,
             m_o.exportModules, m_o.exportMemory, m_o.exportSteps, m_o.exportKernelSummary,
             m_o.exportLive, m_o.exportEfficiency, m_o.criticalPathStep, m_o.dataLoading,
             m_o.criticalPathModel, m_o.assumeStreamOrder, m_o.whatIf, m_o.peaks, m_o.atUs, m_o.at,
             m_o.perStep, m_o.screenshot, m_o.view, m_o.chart, m_o.select, m_o.range, m_o.size,
             m_o.compare, m_o.exportDiff, m_o.diffBy, m_o.step, m_o.baseStep, m_o.candidateStep,
             m_o.meanSteps, m_o.run, m_o.exportRanks, m_o.exportCollectives, m_o.exportRankPairs,
             m_o.exportCriticalPath, m_o.exportDb, m_o.report, m_o.page, m_o.check, m_o.threads})
        m_parser.addOption(opt);
    m_parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("Trace files to open (.json, .json.gz)."), QStringLiteral("[FILE...]"));
}

UsageError CommandParser::usage(const QString &message) const
{
    // Named as users type it: headless commands parse before any QCoreApplication exists, and
    // Qt then writes "<executable_name>".
    QString help = m_parser.helpText();
    help.replace(QLatin1String("<executable_name>"), QLatin1String("kinetoscope"));
    return {message, help};
}

Command CommandParser::command()
{
    Command out;
    if (!m_parser.parse(m_arguments)) {
        out.request = usage(m_parser.errorText());
        return out;
    }
    if (isSet(m_help)) {
        out.request = PrintText {usage({}).help};
        return out;
    }
    if (isSet(m_version)) {
        out.request = PrintText {
            QStringLiteral("kinetoscope %1\n").arg(QStringLiteral(KINETOSCOPE_VERSION))};
        return out;
    }
    if (isSet(m_o.threads)) {
        bool ok = false;
        const int n = value(m_o.threads).toInt(&ok);
        if (!ok || n < 1 || n > 1024) {
            out.request = usage(QStringLiteral("--threads needs a number from 1 to 1024"));
            return out;
        }
        out.threads = unsigned(n);
    }
    if (isSet(m_o.peaks))
        out.peaks = value(m_o.peaks).toStdString();
    m_files = m_parser.positionalArguments();
    if (auto error = combinationError())
        out.request = *error;
    else if (auto run = runError())
        out.request = *run;
    else
        out.request = request();
    return out;
}

std::optional<UsageError> CommandParser::combinationError() const
{
    const auto modes = m_o.modes();
    if (std::count_if(modes.begin(), modes.end(), [&](auto *o) { return isSet(*o); }) > 1) {
        QStringList names; // from the one list of modes: the message cannot drift from it
        for (const QCommandLineOption *o : modes)
            names << QStringLiteral("--") + o->names().constFirst();
        return usage(QStringLiteral("choose one of ") + names.join(QStringLiteral(", ")));
    }
    const QString page = value(m_o.page).toLower();
    if (isSet(m_o.page) && !isSet(m_o.report))
        return usage(QStringLiteral("--page goes with --report"));
    if (isSet(m_o.page) && page != QLatin1String("a4") && page != QLatin1String("letter"))
        return usage(QStringLiteral("--page takes a4 or letter"));
    if ((isSet(m_o.view) || isSet(m_o.chart) || isSet(m_o.select) || isSet(m_o.range)
            || isSet(m_o.size))
        && !isSet(m_o.screenshot))
        return usage(
            QStringLiteral("--view, --chart, --select, --range and --size go with --screenshot"));
    const bool compareOnly = isSet(m_o.exportDiff) || isSet(m_o.diffBy) || isSet(m_o.step)
        || isSet(m_o.baseStep) || isSet(m_o.candidateStep) || isSet(m_o.meanSteps);
    if (compareOnly && !isSet(m_o.compare))
        return usage(
            QStringLiteral("--export-diff, --diff-by and the step options go with --compare"));
    if (isSet(m_o.whatIf) && !isSet(m_o.summary))
        return usage(QStringLiteral("--what-if goes with --summary"));
    if ((isSet(m_o.criticalPathStep) || isSet(m_o.dataLoading) || isSet(m_o.assumeStreamOrder))
        && !isSet(m_o.summary) && !isSet(m_o.exportCriticalPath) && !isSet(m_o.exportDb))
        return usage(QStringLiteral("--critical-path-step, --data-loading and "
                                    "--assume-stream-order go with --summary, "
                                    "--export-critical-path or --export-db"));
    if (isSet(m_o.criticalPathModel) && !isSet(m_o.summary) && !isSet(m_o.exportCriticalPath))
        return usage(
            QStringLiteral("--critical-path-model goes with --summary or --export-critical-path"));
    if (isSet(m_o.perStep) && !isSet(m_o.exportModules))
        return usage(QStringLiteral("--per-step goes with --export-modules"));
    if ((isSet(m_o.atUs) || isSet(m_o.at)) && !isSet(m_o.exportLive))
        return usage(QStringLiteral("--at-us and --at go with --export-live"));
    if (isSet(m_o.exportLive) && isSet(m_o.atUs) == isSet(m_o.at))
        return usage(QStringLiteral("--export-live needs one of --at-us T or --at peak"));
    if (isSet(m_o.at) && value(m_o.at) != QLatin1String("peak"))
        return usage(QStringLiteral("--at takes peak (or give --at-us T)"));
    if (isSet(m_o.compare)
        && (isSet(m_o.summary) || isSet(m_o.exportPairs) || isSet(m_o.exportKernels)
            || isSet(m_o.exportModules) || isSet(m_o.exportMemory) || isSet(m_o.exportSteps)
            || isSet(m_o.exportKernelSummary) || isSet(m_o.exportLive)
            || isSet(m_o.exportEfficiency)))
        return usage(QStringLiteral(
            "--compare goes with --export-diff, --report, --screenshot or the window"));
    return std::nullopt;
}

int CommandParser::runExportIndex() const
{
    const auto exports = m_o.runExports();
    for (size_t i = 0; i < exports.size(); ++i)
        if (isSet(*exports[i]))
            return int(i);
    return -1;
}

bool CommandParser::isRunScreenshot() const
{
    const ViewName *view = viewNamed(value(m_o.view));
    return isSet(m_o.screenshot) && view && view->ofRun;
}

std::optional<UsageError> CommandParser::runError() const
{
    const bool runExport = runExportIndex() >= 0;
    const bool runScreenshot = isRunScreenshot();
    const auto modes = m_o.modes();
    const auto modeCount
        = std::count_if(modes.begin(), modes.end(), [&](auto *o) { return isSet(*o); });
    if (isSet(m_o.run) && (isSet(m_o.compare) || modeCount > int(runExport || runScreenshot)))
        return usage(QStringLiteral("--run opens a window; headless, use --export-ranks, "
                                    "--export-collectives, --export-rank-pairs, --report or "
                                    "--screenshot --view run|ranks|collectives"));
    if (!runExport && !isSet(m_o.run) && !runScreenshot)
        return std::nullopt;
    if (m_files.isEmpty())
        return usage(QStringLiteral("a run needs its trace FILEs or a folder"));
    if (isSet(m_o.compare))
        return usage(QStringLiteral("--compare does not take a run"));
    return std::nullopt;
}

std::vector<std::string> CommandParser::fileArgs() const
{
    std::vector<std::string> out;
    for (const QString &f : m_files)
        out.push_back(f.toStdString());
    return out;
}

Request CommandParser::request()
{
    if (isSet(m_o.check)) {
        if (m_files.isEmpty())
            return usage(QStringLiteral("--check needs a FILE, a run's FILEs or a folder"));
        if (isSet(m_o.compare))
            return usage(QStringLiteral("--check does not take --compare: check each trace"));
        return CheckRequest {fileArgs()};
    }
    PathQuery path;
    if (isSet(m_o.criticalPathStep)) {
        bool ok = false;
        path.step = value(m_o.criticalPathStep).toLongLong(&ok);
        if (!ok)
            return usage(QStringLiteral("--critical-path-step takes a step number N"));
    }
    if (isSet(m_o.criticalPathModel)) {
        const auto model = pathModelNamed(value(m_o.criticalPathModel).toStdString());
        if (!model)
            return usage(QStringLiteral("--critical-path-model takes step or hta"));
        path.model = *model;
    }
    path.assumeStreamOrder = isSet(m_o.assumeStreamOrder);
    if (isSet(m_o.dataLoading)) {
        // Qt's (PCRE2's, Python-like) expressions: matching never recurses per character, so a
        // name of any length is safe (std::regex's search overflows the stack on long names).
        QRegularExpression regex(value(m_o.dataLoading));
        if (regex.pattern().isEmpty() || !regex.isValid())
            return usage(QStringLiteral("--data-loading takes a regular expression"));
        regex.optimize();
        path.dataLoading = [regex](std::string_view name) {
            return regex.match(QString::fromUtf8(name.data(), qsizetype(name.size()))).hasMatch();
        };
    }
    if (const int which = runExportIndex(); which >= 0) {
        RunExportRequest r;
        r.what = RunExport(which);
        r.out = value(*m_o.runExports()[size_t(which)]).toStdString();
        if (r.what == RunExport::Database && r.out == "-")
            return usage(QStringLiteral("--export-db writes a file, not standard output"));
        r.args = fileArgs();
        r.path = path;
        return r;
    }
    if (isSet(m_o.summary)) {
        if (!m_files.isEmpty())
            return usage(QStringLiteral("--summary takes exactly one FILE"));
        SummaryRequest r;
        r.file = value(m_o.summary).toStdString();
        r.path = path;
        if (isSet(m_o.whatIf)) {
            r.whatIf = parseWhatIf(value(m_o.whatIf).toStdString());
            if (!r.whatIf)
                return usage(QStringLiteral(
                    "--what-if takes NAME:FACTOR, FACTOR from 0 to 100 (aten::linear:0.5)"));
        }
        return r;
    }
    if (isSet(m_o.exportPairs) || isSet(m_o.exportKernels) || isSet(m_o.exportModules)
        || isSet(m_o.exportMemory) || isSet(m_o.exportSteps) || isSet(m_o.exportKernelSummary)
        || isSet(m_o.exportLive) || isSet(m_o.exportEfficiency))
        return tableExport();
    DiffOptions diff;
    if (isSet(m_o.compare)) {
        if (m_files.size() != 1)
            return usage(QStringLiteral("--compare BASE CANDIDATE needs exactly one CANDIDATE"));
        auto parsed = diffOptions();
        if (auto *error = std::get_if<UsageError>(&parsed))
            return *error;
        diff = std::get<DiffOptions>(parsed);
    }
    if (isSet(m_o.report))
        return report(diff);
    if (isSet(m_o.exportDiff)) {
        CompareRequest r;
        r.base = value(m_o.compare).toStdString();
        r.candidate = m_files.first().toStdString();
        r.out = value(m_o.exportDiff).toStdString();
        r.diffBy = value(m_o.diffBy).toStdString();
        r.options = diff;
        return r;
    }
    if (isSet(m_o.screenshot))
        return screenshot(diff);
    return WindowRequest {
        m_files, isSet(m_o.demo), isSet(m_o.run), isSet(m_o.compare), value(m_o.compare), diff};
}

Request CommandParser::tableExport()
{
    TableExportRequest r;
    const QCommandLineOption &mode = isSet(m_o.exportPairs) ? m_o.exportPairs
        : isSet(m_o.exportKernels)                          ? m_o.exportKernels
        : isSet(m_o.exportMemory)                           ? m_o.exportMemory
        : isSet(m_o.exportSteps)                            ? m_o.exportSteps
        : isSet(m_o.exportKernelSummary)                    ? m_o.exportKernelSummary
        : isSet(m_o.exportLive)                             ? m_o.exportLive
        : isSet(m_o.exportEfficiency)                       ? m_o.exportEfficiency
                                                            : m_o.exportModules;
    if (m_files.size() != 1)
        return usage(
            QStringLiteral("--%1 OUT FILE needs exactly one FILE").arg(mode.names().first()));
    r.what = &mode == &m_o.exportPairs      ? TableExportRequest::Pairs
        : &mode == &m_o.exportKernels       ? TableExportRequest::Kernels
        : &mode == &m_o.exportMemory        ? TableExportRequest::Memory
        : &mode == &m_o.exportSteps         ? TableExportRequest::Steps
        : &mode == &m_o.exportKernelSummary ? TableExportRequest::KernelSummary
        : &mode == &m_o.exportLive          ? TableExportRequest::Live
        : &mode == &m_o.exportEfficiency    ? TableExportRequest::Efficiency
                                            : TableExportRequest::Modules;
    if (isSet(m_o.atUs)) {
        bool ok = false;
        r.atUs = value(m_o.atUs).toDouble(&ok);
        // Within int64 nanoseconds: ±9.2e12 µs is ±106 days of epoch time to spare.
        if (!ok || !std::isfinite(r.atUs) || std::fabs(r.atUs) > 9e15)
            return usage(QStringLiteral("--at-us takes a time in microseconds"));
    }
    r.atPeak = isSet(m_o.at);
    r.out = value(mode).toStdString();
    r.file = m_files.first().toStdString();
    r.perStep = isSet(m_o.perStep);
    return r;
}

Request CommandParser::report(const DiffOptions &diffOptions)
{
    if (m_files.isEmpty())
        return usage(
            QStringLiteral("--report OUT needs a FILE, a run's FILEs or folder, or --compare"));
    if (value(m_o.report) == QLatin1String("-"))
        return usage(QStringLiteral("--report writes a file: name it"));
    ReportRequest r;
    r.out = value(m_o.report).toStdString();
    r.files = fileArgs();
    r.compareBase = value(m_o.compare).toStdString();
    r.diffOptions = diffOptions;
    r.letter = value(m_o.page).toLower() == QLatin1String("letter");
    return r;
}

Request CommandParser::screenshot(const DiffOptions &diffOptions)
{
    ScreenshotRequest r;
    QString error;
    if (isRunScreenshot()) {
        if (isSet(m_o.select) || isSet(m_o.range) || isSet(m_o.chart))
            return usage(QStringLiteral("a run's screenshot takes --view and --size"));
        if (!parseScreenshotRequest(value(m_o.screenshot), m_files.first(), value(m_o.view), {}, {},
                value(m_o.size), r, error))
            return usage(error);
        r.runFiles = m_files;
        return r;
    }
    const QStringList charts = chartNameList();
    if (isSet(m_o.chart) && value(m_o.view) != QLatin1String("chart"))
        return usage(QStringLiteral("--chart goes with --screenshot --view chart"));
    if (isSet(m_o.chart) && !charts.contains(value(m_o.chart)))
        return usage(QStringLiteral("--chart must be one of %1 (got '%2')")
                         .arg(charts.join(QStringLiteral(", ")), value(m_o.chart)));
    const bool comparing = isSet(m_o.compare);
    const bool demo = isSet(m_o.demo) && m_files.isEmpty() && !comparing;
    if (m_files.size() != 1 && !demo)
        return usage(QStringLiteral("--screenshot OUT FILE needs exactly one FILE (or --demo)"));
    if (!parseScreenshotRequest(value(m_o.screenshot), demo ? QString() : m_files.first(),
            value(m_o.view), value(m_o.select), value(m_o.range), value(m_o.size), r, error))
        return usage(error);
    r.demo = demo;
    if (isSet(m_o.chart))
        r.chart = value(m_o.chart);
    if (comparing) {
        if (r.view == QLatin1String("chart") || !r.selectName.isEmpty() || r.rangeUs)
            return usage(QStringLiteral("a comparison screenshot takes --view window, table or "
                                        "timeline, and --size"));
        r.compareBase = value(m_o.compare);
        r.diffOptions = diffOptions;
    }
    return r;
}

std::variant<UsageError, DiffOptions> CommandParser::diffOptions() const
{
    DiffOptions options;
    QString error;
    auto number = [&](const QCommandLineOption &opt, std::optional<int64_t> &out) {
        if (!isSet(opt))
            return true;
        bool ok = false;
        out = value(opt).toLongLong(&ok);
        if (!ok)
            error = QStringLiteral("--%1 needs a step number").arg(opt.names().first());
        return ok;
    };
    std::optional<int64_t> both;
    if (!number(m_o.step, both) || !number(m_o.baseStep, options.baseStep)
        || !number(m_o.candidateStep, options.candidateStep))
        return usage(error);
    if (both) {
        if (options.baseStep || options.candidateStep)
            return usage(
                QStringLiteral("--step cannot be combined with --base-step or --candidate-step"));
        options.baseStep = options.candidateStep = both;
    }
    options.meanOverSteps = isSet(m_o.meanSteps);
    static const QStringList rows = {QStringLiteral("pairs"), QStringLiteral("ops"),
        QStringLiteral("modules"), QStringLiteral("module-types")};
    if (!rows.contains(value(m_o.diffBy)))
        return usage(QStringLiteral("--diff-by must be one of pairs, ops, modules, module-types"));
    return options;
}

} // namespace

Command parseCommand(const QStringList &arguments)
{
    return CommandParser(arguments).command();
}

} // namespace ks
