// SPDX-License-Identifier: MIT
#include "export/atomicfile.h"

#include "base/errnotext.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ks {

namespace {
constexpr size_t kFlushSize = 1 << 20;

std::string directoryOf(const std::string &path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseName(const std::string &path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}
} // namespace

AtomicFile::AtomicFile(std::string path)
    : m_path(std::move(path))
    , m_stdout(m_path == "-")
{
}

AtomicFile::~AtomicFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (!m_committed && !m_tempPath.empty())
        ::unlink(m_tempPath.c_str());
}

bool AtomicFile::open()
{
    if (m_stdout)
        return true;
    if (m_path.empty() || m_path.back() == '/') {
        m_error = m_path + ": not a file name";
        return false;
    }
    struct stat st;
    if (::stat(m_path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        m_error = m_path + ": is a directory";
        return false;
    }
    if (::stat(m_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // A device, FIFO or socket (/dev/null, a pipe to another program) is a stream, not a
        // file to replace: renaming over it would put a regular file in its place.
        m_fd = ::open(m_path.c_str(), O_WRONLY | O_CLOEXEC);
        m_direct = m_fd >= 0;
        if (!m_direct)
            m_error = m_path + ": " + errnoText(errno);
        return m_direct;
    }
    // A symbolic link stays a link: its target is what gets replaced.
    if (char *real = ::realpath(m_path.c_str(), nullptr)) {
        m_target = real;
        std::free(real);
    } else {
        m_target = m_path;
    }
    std::string temp = directoryOf(m_target) + "/." + baseName(m_target) + ".XXXXXX";
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) {
        m_error = m_path + ": " + errnoText(errno);
        return false;
    }
    ::fchmod(fd, 0644);
    m_fd = fd;
    m_tempPath = temp;
    return true;
}

bool AtomicFile::writeAll(std::string_view data)
{
    const int fd = m_stdout ? STDOUT_FILENO : m_fd;
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_error = m_path + ": " + errnoText(n < 0 ? errno : ENOSPC);
            m_failed = true;
            return false;
        }
        done += size_t(n);
    }
    return true;
}

bool AtomicFile::flushBuffer()
{
    if (!writeAll(m_buffer))
        return false;
    m_buffer.clear();
    return true;
}

void AtomicFile::write(std::string_view data)
{
    if (m_failed)
        return;
    if (data.size() >= kFlushSize) { // written as it is, not copied (a whole database's bytes)
        if (flushBuffer())
            writeAll(data);
        return;
    }
    m_buffer.append(data);
    if (m_buffer.size() >= kFlushSize)
        flushBuffer();
}

bool AtomicFile::commit()
{
    if (m_failed || !flushBuffer())
        return false;
    if (m_stdout) {
        m_committed = true;
        return true;
    }
    if (m_direct) {
        m_committed = ::close(m_fd) == 0;
        m_fd = -1;
        if (!m_committed)
            m_error = m_path + ": " + errnoText(errno);
        return m_committed;
    }
    if (::fsync(m_fd) != 0 || ::close(m_fd) != 0) {
        m_fd = -1;
        m_error = m_path + ": " + errnoText(errno);
        return false;
    }
    m_fd = -1;
    if (::rename(m_tempPath.c_str(), m_target.c_str()) != 0) {
        m_error = m_path + ": " + errnoText(errno);
        return false;
    }
    m_committed = true;
    return true;
}

bool writeFileAtomically(const std::string &path, std::string_view data, std::string &error)
{
    AtomicFile file(path);
    if (!file.open()) {
        error = file.error();
        return false;
    }
    file.write(data);
    if (!file.commit()) {
        error = file.error();
        return false;
    }
    return true;
}

} // namespace ks
