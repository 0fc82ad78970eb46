// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace ks::Resources {
//! The embedded demo trace (gzip), generated at build time by kinetoscope-gentrace.
inline QString demoTrace()
{
    return QStringLiteral(":/kinetoscope/demo.pt.trace.json.gz");
}
//! The application icon.
inline QString appIcon()
{
    return QStringLiteral(":/kinetoscope/icons/kinetoscope.svg");
}
//! True when the resources are linked in (a static library can be dropped by the linker).
bool available();
} // namespace ks::Resources
