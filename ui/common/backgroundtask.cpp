// SPDX-License-Identifier: MIT
#include "common/backgroundtask.h"

#include <new>

namespace ks {

TaskFailures &TaskFailures::instance()
{
    static TaskFailures failures;
    return failures;
}

QString TaskFailures::describe(const std::exception_ptr &error)
{
    try {
        std::rethrow_exception(error);
    } catch (const QUnhandledException &wrapped) { // how QtConcurrent carries a std::exception
        return wrapped.exception() ? describe(wrapped.exception())
                                   : tr("an unknown failure on a worker thread");
    } catch (const std::bad_alloc &) {
        return tr("not enough memory");
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    } catch (...) {
        return tr("an unknown failure on a worker thread");
    }
}

} // namespace ks
