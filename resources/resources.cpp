// SPDX-License-Identifier: MIT
#include "resources.h"

#include <QFile>

namespace ks::Resources {
bool available()
{
    return QFile::exists(demoTrace());
}
} // namespace ks::Resources
