// SPDX-License-Identifier: MIT
#pragma once

namespace ks {

/*!
 * Starts every thread of Qt's global pool now and keeps them (no expiry). The pool starts its
 * threads on demand, and one that cannot start for want of memory ends the process inside Qt
 * (qTerminate, seen under `ulimit -v`): started while memory is plenty, the threads that
 * BackgroundTask's work later runs on are already there. Call once, before any window. Throws
 * std::bad_alloc when there is no memory for them.
 */
void startPoolThreads();

} // namespace ks
