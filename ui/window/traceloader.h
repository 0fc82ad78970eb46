// SPDX-License-Identifier: MIT
#pragma once

#include "session/loadedtrace.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>
#include <thread>

namespace ks {

/*!
 * Loads and links one trace on a worker thread. The window polls progress (permille of the
 * compressed input, and MB/s) with a timer instead of receiving a signal per chunk; cancel()
 * takes effect within a few thousand events. Exactly one of finished(), failed() or cancelled()
 * is emitted, on the thread that owns the loader.
 */
class TraceLoader : public QObject {
    Q_OBJECT
public:
    //! \a use: what the window shows of it, made ready on the loader's thread too.
    TraceLoader(QString path, WindowUse use, QObject *parent = nullptr);
    ~TraceLoader() override;

    void start();
    void cancel();
    const QString &path() const { return m_path; }
    int permille() const { return m_permille.load(); }
    //! Compressed input read per second so far.
    double bytesPerSecond() const;

signals:
    void progress(int permille, double bytesPerSecond);
    void finished(std::shared_ptr<const ks::LoadedTrace> trace);
    void failed(const QString &message);
    void cancelled();

private:
    void load(); //!< on m_thread
    void poll();

    QString m_path;
    WindowUse m_use;
    qint64 m_fileSize = 0;
    std::thread m_thread;
    std::atomic<bool> m_cancel {false};
    std::atomic<int> m_permille {0};
    std::atomic<bool> m_done {false};
    OpenResult m_result;
    QTimer m_timer;
    QElapsedTimer m_clock;
};

} // namespace ks
