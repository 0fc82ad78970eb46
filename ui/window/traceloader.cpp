// SPDX-License-Identifier: MIT
#include "window/traceloader.h"

#include <QFileInfo>

#include <system_error>

namespace ks {

TraceLoader::TraceLoader(QString path, WindowUse use, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_use(use)
{
    m_timer.setInterval(50);
    connect(&m_timer, &QTimer::timeout, this, &TraceLoader::poll);
}

TraceLoader::~TraceLoader()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void TraceLoader::start()
{
    m_fileSize = QFileInfo(m_path).size();
    m_clock.start();
    m_timer.start();
    try {
        m_thread = std::thread([this] { load(); });
    } catch (const std::system_error &e) { // memory or the process's thread limit
        m_result = {};
        m_result.error = m_path.toStdString() + ": no thread to load it (" + e.what() + ")";
        m_done = true; // the poll reports the failure
    }
}

void TraceLoader::load()
{
    LoadOptions options;
    options.cancel = &m_cancel;
    options.progress = [this](int permille) { m_permille = permille; };
    // Nothing may escape the thread (that would be std::terminate): the core reports memory
    // exhaustion itself; anything else it did not foresee becomes a failure too.
    try {
        // What the first frame draws from is built here rather than on the UI thread.
        m_result = readyForWindow(openTrace(m_path.toStdString(), options), m_use);
    } catch (const std::exception &e) {
        m_result = {};
        m_result.error = m_path.toStdString() + ": " + e.what();
    }
    m_done = true;
}

void TraceLoader::cancel()
{
    m_cancel = true;
}

double TraceLoader::bytesPerSecond() const
{
    const double seconds = std::max<qint64>(1, m_clock.elapsed()) / 1000.0;
    return double(m_fileSize) * m_permille.load() / 1000.0 / seconds;
}

void TraceLoader::poll()
{
    if (!m_done) {
        emit progress(m_permille.load(), bytesPerSecond());
        return;
    }
    m_timer.stop();
    m_thread.join();
    switch (m_result.status) {
    case LoadResult::Status::Loaded:
        emit finished(m_result.trace);
        break;
    case LoadResult::Status::Cancelled:
        emit cancelled();
        break;
    case LoadResult::Status::Failed:
        emit failed(QString::fromStdString(m_result.error));
        break;
    }
    m_result = {};
}

} // namespace ks
