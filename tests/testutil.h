// SPDX-License-Identifier: MIT
#pragma once

#include "session/loadedtrace.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <string>

namespace ks::test {

/*!
 * The build the tests run in. Sanitizer builds run the suite for what they find (memory errors,
 * data races), not for scale: a test whose input is large only to show that a cost does not blow
 * up, or that repeats a threaded check over inputs of one shape, uses less there; the release
 * build runs it whole.
 */
inline constexpr bool kAddressSanitizer = KS_TEST_ASAN;
inline constexpr bool kThreadSanitizer = KS_TEST_TSAN;

//! Whether inline JSON loads with the loader's builder thread (KS_TEST_BUILDER_THREAD=1).
bool builderThread();
//! Loads and links JSON text given inline in a test; QFAIL-friendly: null when it failed.
std::shared_ptr<const LoadedTrace> link(std::string_view json, std::string *error = nullptr);
//! Loads (without linking) JSON text.
LoadResult load(std::string_view json);

//! ../shared/traces, or empty when the folder is absent (a user's clone has none).
QString sharedTracesDir();
//! The shared trace files (sorted), empty when the folder is absent.
QStringList sharedTraces();
//! Runs the independent Python reference on \a trace; returns its stdout (JSON), empty on error.
QByteArray referenceSummary(const QString &trace, const QString &pairsCsv = {});

/*!
 * Runs the independent Python reference tests/reference/\a script on \a trace; its JSON object,
 * empty when it failed (its stderr is then printed as a warning).
 */
QJsonObject referenceJson(const QString &script, const QString &trace);

//! tests/data in the source tree.
QString dataDir();
//! docs/ in the source tree.
QString docsDir();
//! A script of the checkout's tools/ folder, such as digest-run.sh.
QString toolScript(const QString &name);
QString pythonPath();
QString gentracePath();
QString appPath();

//! A fresh temporary directory for this test process (removed at exit).
QString tempDir();
//! Writes \a data to \a name inside tempDir(); returns the path.
QString writeTemp(const QString &name, const QByteArray &data);
//! Gzip-compresses \a data (a complete member, or cut after \a keepBytes compressed bytes).
QByteArray gzip(const QByteArray &data, qsizetype keepBytes = -1);
//! The text of the trace file at \a path, inflated when it is gzip; empty when it cannot be read.
std::string traceText(const QString &path);

struct ProcessResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};
//! Runs \a program with \a args (offscreen; gives up on a hung program after 500 s).
ProcessResult run(const QString &program, const QStringList &args);

//! A minimal, valid modern (2.x layout) trace wrapped around \a events (comma-separated JSON).
std::string traceWith(const std::string &events);
//! A trace whose one kernel starts 5 µs before its cudaLaunchKernel (kernel_before_launch).
std::string kernelBeforeLaunchTrace();
/*!
 * One complete ("X") event and a trailing comma: on thread \a tid of process 1, or on the GPU
 * stream when \a tid is 7 (process 0); \a args is the inside of its args object.
 */
std::string completeEvent(const std::string &cat,
    const std::string &name,
    int tid,
    double ts,
    double dur,
    const std::string &args = {});

} // namespace ks::test
