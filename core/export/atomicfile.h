// SPDX-License-Identifier: MIT
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace ks {

/*!
 * Writes a file atomically: everything goes to a temporary file next to the target, which
 * replaces the target only in commit(). A failed or abandoned write leaves any earlier file
 * untouched. The path "-" writes to standard output instead. A path that names a device, FIFO or
 * socket (/dev/null, a named pipe) is written directly, as a stream; through a symbolic link,
 * the link's target is replaced and the link kept.
 */
class AtomicFile {
public:
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile &) = delete;
    AtomicFile &operator=(const AtomicFile &) = delete;

    //! Creates the temporary file; false with a reason in error() if that is impossible.
    bool open();
    //! Buffered; errors surface in commit().
    void write(std::string_view data);
    //! Flushes, syncs and renames over the target; false with a reason in error().
    bool commit();
    const std::string &error() const { return m_error; }
    const std::string &path() const { return m_path; }

private:
    //! Writes \a data whole; false (failed, with a reason) when it cannot.
    bool writeAll(std::string_view data);
    bool flushBuffer();
    std::string m_path;
    std::string m_target; //!< the file the rename replaces: m_path with links resolved
    std::string m_tempPath;
    std::string m_error;
    std::string m_buffer;
    int m_fd = -1;
    bool m_stdout = false;
    bool m_direct = false; //!< writing straight into a device or FIFO
    bool m_failed = false;
    bool m_committed = false;
};

//! Writes \a data to \a path atomically; on failure returns false and sets \a error.
bool writeFileAtomically(const std::string &path, std::string_view data, std::string &error);

} // namespace ks
