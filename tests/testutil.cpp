// SPDX-License-Identifier: MIT
#include "testutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

#include <zlib.h>

namespace ks::test {

bool builderThread()
{
    static const bool on = qEnvironmentVariableIntValue("KS_TEST_BUILDER_THREAD") == 1;
    return on;
}

std::shared_ptr<const LoadedTrace> link(std::string_view json, std::string *error)
{
    OpenResult r = openTraceText(json, "inline.json", builderThread());
    if (error)
        *error = r.error;
    return r.trace;
}

LoadResult load(std::string_view json)
{
    return loadTraceText(json, "inline.json", builderThread());
}

QString sharedTracesDir()
{
    const QString dir = QStringLiteral(KS_SHARED_TRACES_DIR);
    return QDir(dir).exists() ? dir : QString();
}

QStringList sharedTraces()
{
    const QString dir = sharedTracesDir();
    if (dir.isEmpty())
        return {};
    QStringList out;
    for (const QString &f : QDir(dir).entryList(
             {QStringLiteral("*.json"), QStringLiteral("*.json.gz")}, QDir::Files, QDir::Name))
        out << dir + QLatin1Char('/') + f;
    return out;
}

QString dataDir()
{
    return QStringLiteral(KS_TEST_DATA_DIR);
}

QString docsDir()
{
    return QStringLiteral(KS_DOCS_DIR);
}

QString toolScript(const QString &name)
{
    return QStringLiteral(KS_TOOLS_DIR "/") + name;
}
QString pythonPath()
{
    return QStringLiteral(KS_PYTHON);
}
QString gentracePath()
{
    return QStringLiteral(KS_GENTRACE);
}
QString appPath()
{
    return QStringLiteral(KS_APP);
}

QByteArray referenceSummary(const QString &trace, const QString &pairsCsv)
{
    QStringList args {QStringLiteral(KS_REFERENCE_SCRIPT), trace};
    if (!pairsCsv.isEmpty())
        args << QStringLiteral("--pairs-csv") << pairsCsv;
    const ProcessResult r = run(pythonPath(), args);
    return r.exitCode == 0 ? r.out : QByteArray();
}

QJsonObject referenceJson(const QString &script, const QString &trace)
{
    const QString path
        = QFileInfo(dataDir() + QStringLiteral("/../reference/") + script).absoluteFilePath();
    const ProcessResult r = run(pythonPath(), {path, trace});
    if (r.exitCode != 0)
        qWarning("%s failed: %s", qPrintable(script), r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QString tempDir()
{
    static QTemporaryDir dir;
    return dir.path();
}

QString writeTemp(const QString &name, const QByteArray &data)
{
    const QString path = tempDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(data);
    return path;
}

std::string traceText(const QString &path)
{
    std::string text;
    gzFile f = gzopen(QFile::encodeName(path).constData(), "rb"); // reads plain files as they are
    if (!f)
        return text;
    char buffer[1 << 16];
    for (int n; (n = gzread(f, buffer, sizeof buffer)) > 0;)
        text.append(buffer, size_t(n));
    gzclose(f);
    return text;
}

QByteArray gzip(const QByteArray &data, qsizetype keepBytes)
{
    z_stream zs {};
    deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(qsizetype(deflateBound(&zs, uLong(data.size()))) + 64, Qt::Uninitialized);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(qsizetype(zs.total_out));
    deflateEnd(&zs);
    if (keepBytes >= 0 && keepBytes < out.size())
        out.resize(keepBytes);
    return out;
}

ProcessResult run(const QString &program, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForFinished(500000)) { // a hang guard only: CTest stops a test at 600 s
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

std::string kernelBeforeLaunchTrace()
{
    return traceWith(
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
        "\"tid\":1,\"ts\":20,\"dur\":5,\"args\":{\"correlation\":1}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":15,"
        "\"dur\":20,\"args\":{\"stream\":7,\"correlation\":1}}");
}

std::string traceWith(const std::string &events)
{
    return R"({"schemaVersion": 1, "traceEvents": [)" + events + "]}";
}

std::string completeEvent(const std::string &cat,
    const std::string &name,
    int tid,
    double ts,
    double dur,
    const std::string &args)
{
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)"
        + (tid == 7 ? "0" : "1") + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)"
        + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args + "}},";
}

} // namespace ks::test
