// SPDX-License-Identifier: MIT
#include "commandline.h"

#include "base/version.h"
#include "options.h"
#include "trace/chartnames.h"
#include "viewnames.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include <cmath>
#include <optional>

namespace ks {

namespace {

//! \a spec's help, the names of the views and charts put in.
QString helpOf(std::string_view spec)
{
    QString help = QString::fromUtf8(spec.data(), qsizetype(spec.size()));
    help.replace(QStringLiteral("{views}"), viewNameList().join(QStringLiteral(", ")));
    help.replace(QStringLiteral("{charts}"), chartNameList().join(QStringLiteral(", ")));
    return help;
}

QCommandLineOption optionOf(
    std::string_view name, std::string_view value, std::string_view help, std::string_view def)
{
    QCommandLineOption o(QString::fromLatin1(name.data(), qsizetype(name.size())), helpOf(help),
        QString::fromLatin1(value.data(), qsizetype(value.size())));
    if (!def.empty())
        o.setDefaultValue(QString::fromLatin1(def.data(), qsizetype(def.size())));
    return o;
}

/*!
 * Parses one command line: the parser, its options, the positional files, and the first usage
 * error found (checks run in the order docs/cli.md gives the rules).
 */
class CommandParser {
public:
    explicit CommandParser(const QStringList &arguments);
    Command command();

private:
    const QCommandLineOption &option(Opt o) const { return m_options[size_t(o)]; }
    const QCommandLineOption &option(TraceExportKind k) const { return m_exports[size_t(k)]; }
    template<typename Id> bool isSet(Id id) const { return m_parser.isSet(option(id)); }
    template<typename Id> QString value(Id id) const { return m_parser.value(option(id)); }
    //! The modes set, `--name` each: at most one may be.
    QStringList modesSet() const;
    //! Every mode, `--name` each.
    QStringList modes() const;
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
    std::vector<QCommandLineOption> m_options; //!< by Opt
    std::vector<QCommandLineOption> m_exports; //!< by TraceExportKind
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
    for (const OptionSpec &o : kOptions) {
        m_options.push_back(optionOf(o.name, o.value, o.help, o.defaultValue));
        m_parser.addOption(m_options.back());
        if (o.id == Opt::Summary) // the tables of one trace follow
            for (const TraceExport &e : kTraceExports) {
                m_exports.push_back(optionOf(e.option, "OUT", e.help, {}));
                m_parser.addOption(m_exports.back());
            }
    }
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

QStringList CommandParser::modes() const
{
    QStringList out;
    auto add
        = [&](const QCommandLineOption &o) { out << QStringLiteral("--") + o.names().first(); };
    for (const OptionSpec &o : kOptions) {
        if (o.mode)
            add(option(o.id));
        if (o.id == Opt::Summary)
            for (const TraceExport &e : kTraceExports)
                add(option(e.kind));
    }
    return out;
}

QStringList CommandParser::modesSet() const
{
    QStringList out;
    for (const QString &mode : modes())
        if (m_parser.isSet(mode.mid(2)))
            out << mode;
    return out;
}

Command CommandParser::command()
{
    Command out;
    if (!m_parser.parse(m_arguments)) {
        out.request = usage(m_parser.errorText());
        return out;
    }
    if (m_parser.isSet(m_help)) {
        out.request = PrintText {usage({}).help};
        return out;
    }
    if (m_parser.isSet(m_version)) {
        out.request = PrintText {
            QStringLiteral("kinetoscope %1\n").arg(QStringLiteral(KINETOSCOPE_VERSION))};
        return out;
    }
    if (isSet(Opt::Threads)) {
        bool ok = false;
        const int n = value(Opt::Threads).toInt(&ok);
        if (!ok || n < 1 || n > 1024) {
            out.request = usage(QStringLiteral("--threads needs a number from 1 to 1024"));
            return out;
        }
        out.threads = unsigned(n);
    }
    if (isSet(Opt::Peaks))
        out.peaks = value(Opt::Peaks).toStdString();
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
    if (modesSet().size() > 1) // from the one table of modes: the message cannot drift from it
        return usage(QStringLiteral("choose one of ") + modes().join(QStringLiteral(", ")));
    const QString page = value(Opt::Page).toLower();
    if (isSet(Opt::Page) && !isSet(Opt::Report))
        return usage(QStringLiteral("--page goes with --report"));
    if (isSet(Opt::Page) && page != QLatin1String("a4") && page != QLatin1String("letter"))
        return usage(QStringLiteral("--page takes a4 or letter"));
    if ((isSet(Opt::View) || isSet(Opt::Chart) || isSet(Opt::Select) || isSet(Opt::Range)
            || isSet(Opt::Size))
        && !isSet(Opt::Screenshot))
        return usage(
            QStringLiteral("--view, --chart, --select, --range and --size go with --screenshot"));
    const bool compareOnly = isSet(Opt::ExportDiff) || isSet(Opt::DiffBy) || isSet(Opt::Step)
        || isSet(Opt::BaseStep) || isSet(Opt::CandidateStep) || isSet(Opt::MeanSteps);
    if (compareOnly && !isSet(Opt::Compare))
        return usage(
            QStringLiteral("--export-diff, --diff-by and the step options go with --compare"));
    if (isSet(Opt::WhatIf) && !isSet(Opt::Summary))
        return usage(QStringLiteral("--what-if goes with --summary"));
    if ((isSet(Opt::CriticalPathStep) || isSet(Opt::DataLoading) || isSet(Opt::AssumeStreamOrder))
        && !isSet(Opt::Summary) && !isSet(Opt::Findings) && !isSet(Opt::ExportCriticalPath)
        && !isSet(Opt::ExportDb) && !isSet(Opt::ExportParquet))
        return usage(QStringLiteral("--critical-path-step, --data-loading and "
                                    "--assume-stream-order go with --summary, --findings, "
                                    "--export-critical-path, --export-db or --export-parquet"));
    if (isSet(Opt::CriticalPathModel) && !isSet(Opt::Summary) && !isSet(Opt::ExportCriticalPath))
        return usage(
            QStringLiteral("--critical-path-model goes with --summary or --export-critical-path"));
    if (isSet(Opt::ByInputDims) && !isSet(TraceExportKind::OpSummary))
        return usage(QStringLiteral("--by-input-dims goes with --export-op-summary"));
    if (isSet(Opt::PerStep) && !isSet(TraceExportKind::Modules))
        return usage(QStringLiteral("--per-step goes with --export-modules"));
    if ((isSet(Opt::AtUs) || isSet(Opt::At)) && !isSet(TraceExportKind::Live))
        return usage(QStringLiteral("--at-us and --at go with --export-live"));
    if (isSet(TraceExportKind::Live) && isSet(Opt::AtUs) == isSet(Opt::At))
        return usage(QStringLiteral("--export-live needs one of --at-us T or --at peak"));
    if (isSet(Opt::At) && value(Opt::At) != QLatin1String("peak"))
        return usage(QStringLiteral("--at takes peak (or give --at-us T)"));
    if (isSet(Opt::Compare)
        && (isSet(Opt::Summary)
            || std::any_of(kTraceExports.begin(), kTraceExports.end(),
                [&](const TraceExport &e) { return isSet(e.kind); })))
        return usage(QStringLiteral(
            "--compare goes with --export-diff, --report, --screenshot or the window"));
    return std::nullopt;
}

int CommandParser::runExportIndex() const
{
    for (size_t i = 0; i < kRunExports.size(); ++i)
        if (isSet(kRunExports[i]))
            return int(i);
    return -1;
}

bool CommandParser::isRunScreenshot() const
{
    const ViewName *view = viewNamed(value(Opt::View));
    return isSet(Opt::Screenshot) && view && view->ofRun;
}

std::optional<UsageError> CommandParser::runError() const
{
    const bool runExport = runExportIndex() >= 0;
    const bool runScreenshot = isRunScreenshot();
    const auto modeCount = modesSet().size();
    if (isSet(Opt::Run) && (isSet(Opt::Compare) || modeCount > int(runExport || runScreenshot)))
        return usage(QStringLiteral("--run opens a window; headless, use --export-ranks, "
                                    "--export-collectives, --export-rank-pairs, --report or "
                                    "--screenshot --view run|ranks|collectives"));
    if (!runExport && !isSet(Opt::Run) && !runScreenshot)
        return std::nullopt;
    if (m_files.isEmpty())
        return usage(QStringLiteral("a run needs its trace FILEs or a folder"));
    if (isSet(Opt::Compare))
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
    if (isSet(Opt::Check)) {
        if (m_files.isEmpty())
            return usage(QStringLiteral("--check needs a FILE, a run's FILEs or a folder"));
        if (isSet(Opt::Compare))
            return usage(QStringLiteral("--check does not take --compare: check each trace"));
        return CheckRequest {fileArgs()};
    }
    PathQuery path;
    if (isSet(Opt::CriticalPathStep)) {
        bool ok = false;
        path.step = value(Opt::CriticalPathStep).toLongLong(&ok);
        if (!ok)
            return usage(QStringLiteral("--critical-path-step takes a step number N"));
    }
    if (isSet(Opt::CriticalPathModel)) {
        const auto model = pathModelNamed(value(Opt::CriticalPathModel).toStdString());
        if (!model)
            return usage(QStringLiteral("--critical-path-model takes step or hta"));
        path.model = *model;
    }
    path.assumeStreamOrder = isSet(Opt::AssumeStreamOrder);
    if (isSet(Opt::DataLoading)) {
        // Qt's (PCRE2's, Python-like) expressions: matching never recurses per character, so a
        // name of any length is safe (std::regex's search overflows the stack on long names).
        QRegularExpression regex(value(Opt::DataLoading));
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
        r.out = value(kRunExports[size_t(which)]).toStdString();
        if (r.what == RunExport::Database && r.out == "-")
            return usage(QStringLiteral("--export-db writes a file, not standard output"));
        if (r.what == RunExport::Parquet && r.out == "-")
            return usage(QStringLiteral("--export-parquet writes a folder, not standard output"));
        r.args = fileArgs();
        r.path = path;
        return r;
    }
    if (isSet(Opt::Findings)) {
        if (m_files.isEmpty())
            return usage(QStringLiteral("--findings OUT takes a FILE, or a run's FILEs or DIR"));
        return FindingsRequest {value(Opt::Findings).toStdString(), fileArgs(), path};
    }
    if (isSet(Opt::Summary)) {
        if (!m_files.isEmpty())
            return usage(QStringLiteral("--summary takes exactly one FILE"));
        SummaryRequest r;
        r.file = value(Opt::Summary).toStdString();
        r.path = path;
        if (isSet(Opt::WhatIf)) {
            r.whatIf = parseWhatIf(value(Opt::WhatIf).toStdString());
            if (!r.whatIf)
                return usage(QStringLiteral(
                    "--what-if takes NAME:FACTOR, FACTOR from 0 to 100 (aten::linear:0.5), "
                    "'no wait: NAME', 'no time: NAME', 'no launch: NAME', 'no recompute' or "
                    "'on time: rank R'"));
        }
        return r;
    }
    if (std::any_of(kTraceExports.begin(), kTraceExports.end(),
            [&](const TraceExport &e) { return isSet(e.kind); }))
        return tableExport();
    DiffOptions diff;
    if (isSet(Opt::Compare)) {
        if (m_files.size() != 1)
            return usage(QStringLiteral("--compare BASE CANDIDATE needs exactly one CANDIDATE"));
        auto parsed = diffOptions();
        if (auto *error = std::get_if<UsageError>(&parsed))
            return *error;
        diff = std::get<DiffOptions>(parsed);
    }
    if (isSet(Opt::Report))
        return report(diff);
    if (isSet(Opt::ExportDiff)) {
        CompareRequest r;
        r.base = value(Opt::Compare).toStdString();
        r.candidate = m_files.first().toStdString();
        r.out = value(Opt::ExportDiff).toStdString();
        r.diffBy = value(Opt::DiffBy).toStdString();
        r.options = diff;
        return r;
    }
    if (isSet(Opt::Screenshot))
        return screenshot(diff);
    return WindowRequest {
        m_files, isSet(Opt::Demo), isSet(Opt::Run), isSet(Opt::Compare), value(Opt::Compare), diff};
}

Request CommandParser::tableExport()
{
    TableExportRequest r;
    const TraceExport &mode = *std::find_if(kTraceExports.begin(), kTraceExports.end(),
        [&](const TraceExport &e) { return isSet(e.kind); });
    if (m_files.size() != 1)
        return usage(QStringLiteral("--%1 OUT FILE needs exactly one FILE")
                         .arg(QLatin1String(mode.option.data(), qsizetype(mode.option.size()))));
    r.what = mode.kind;
    if (isSet(Opt::AtUs)) {
        bool ok = false;
        const double at = value(Opt::AtUs).toDouble(&ok);
        // Within int64 nanoseconds: ±9.2e12 µs is ±106 days of epoch time to spare.
        if (!ok || !std::isfinite(at) || std::fabs(at) > 9e15)
            return usage(QStringLiteral("--at-us takes a time in microseconds"));
        r.options.atUs = at;
    }
    r.out = value(mode.kind).toStdString();
    r.file = m_files.first().toStdString();
    r.options.perStep = isSet(Opt::PerStep);
    r.options.byInputDims = isSet(Opt::ByInputDims);
    return r;
}

Request CommandParser::report(const DiffOptions &diffOptions)
{
    if (m_files.isEmpty())
        return usage(
            QStringLiteral("--report OUT needs a FILE, a run's FILEs or folder, or --compare"));
    if (value(Opt::Report) == QLatin1String("-"))
        return usage(QStringLiteral("--report writes a file: name it"));
    ReportRequest r;
    r.out = value(Opt::Report).toStdString();
    r.files = fileArgs();
    r.compareBase = value(Opt::Compare).toStdString();
    r.diffOptions = diffOptions;
    r.letter = value(Opt::Page).toLower() == QLatin1String("letter");
    return r;
}

Request CommandParser::screenshot(const DiffOptions &diffOptions)
{
    ScreenshotRequest r;
    QString error;
    if (isRunScreenshot()) {
        if (isSet(Opt::Select) || isSet(Opt::Range) || isSet(Opt::Chart))
            return usage(QStringLiteral("a run's screenshot takes --view and --size"));
        if (!parseScreenshotRequest(value(Opt::Screenshot), m_files.first(), value(Opt::View), {},
                {}, value(Opt::Size), r, error))
            return usage(error);
        r.runFiles = m_files;
        return r;
    }
    const QStringList charts = chartNameList();
    if (isSet(Opt::Chart) && value(Opt::View) != QLatin1String("chart"))
        return usage(QStringLiteral("--chart goes with --screenshot --view chart"));
    if (isSet(Opt::Chart) && !charts.contains(value(Opt::Chart)))
        return usage(QStringLiteral("--chart must be one of %1 (got '%2')")
                         .arg(charts.join(QStringLiteral(", ")), value(Opt::Chart)));
    const bool comparing = isSet(Opt::Compare);
    const bool demo = isSet(Opt::Demo) && m_files.isEmpty() && !comparing;
    if (m_files.size() != 1 && !demo)
        return usage(QStringLiteral("--screenshot OUT FILE needs exactly one FILE (or --demo)"));
    if (!parseScreenshotRequest(value(Opt::Screenshot), demo ? QString() : m_files.first(),
            value(Opt::View), value(Opt::Select), value(Opt::Range), value(Opt::Size), r, error))
        return usage(error);
    r.demo = demo;
    if (isSet(Opt::Chart))
        r.chart = value(Opt::Chart);
    if (comparing) {
        if (r.view == QLatin1String("chart") || !r.selectName.isEmpty() || r.rangeUs)
            return usage(QStringLiteral("a comparison screenshot takes --view window, table or "
                                        "timeline, and --size"));
        r.compareBase = value(Opt::Compare);
        r.diffOptions = diffOptions;
    }
    return r;
}

std::variant<UsageError, DiffOptions> CommandParser::diffOptions() const
{
    DiffOptions options;
    QString error;
    auto number = [&](Opt opt, std::optional<int64_t> &out) {
        if (!isSet(opt))
            return true;
        bool ok = false;
        out = value(opt).toLongLong(&ok);
        if (!ok)
            error = QStringLiteral("--%1 needs a step number").arg(option(opt).names().first());
        return ok;
    };
    std::optional<int64_t> both;
    if (!number(Opt::Step, both) || !number(Opt::BaseStep, options.baseStep)
        || !number(Opt::CandidateStep, options.candidateStep))
        return usage(error);
    if (both) {
        if (options.baseStep || options.candidateStep)
            return usage(
                QStringLiteral("--step cannot be combined with --base-step or --candidate-step"));
        options.baseStep = options.candidateStep = both;
    }
    options.meanOverSteps = isSet(Opt::MeanSteps);
    static const QStringList rows = {QStringLiteral("pairs"), QStringLiteral("ops"),
        QStringLiteral("modules"), QStringLiteral("module-types")};
    if (!rows.contains(value(Opt::DiffBy)))
        return usage(QStringLiteral("--diff-by must be one of pairs, ops, modules, module-types"));
    return options;
}

} // namespace

Command parseCommand(const QStringList &arguments)
{
    return CommandParser(arguments).command();
}

} // namespace ks
