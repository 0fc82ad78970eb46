// SPDX-License-Identifier: MIT
#include "deflateengine.h"

namespace ks {

Inflater fastestInflater()
{
#ifdef KINETOSCOPE_HAVE_ISAL
    return Inflater::Isal;
#else
    return Inflater::Zlib;
#endif
}

std::unique_ptr<DeflateEngine> makeDeflateEngine(Inflater inflater)
{
#ifdef KINETOSCOPE_HAVE_ISAL
    if (inflater == Inflater::Isal)
        return makeIsalEngine();
#endif
    (void)inflater;
    return makeZlibEngine();
}

} // namespace ks
