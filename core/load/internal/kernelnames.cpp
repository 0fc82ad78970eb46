// SPDX-License-Identifier: MIT
#include "kernelnames.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>

namespace ks {

namespace {

//! The Itanium C++ ABI demangling of \a mangled, or empty when it is not a mangled name.
std::string demangled(std::string_view mangled)
{
    // The demangler recurses over the name: a hostile 100 MB "_Z…" string must not reach it.
    // Real kernel names stay well below this (ROCm's longest here: 1.6 KB).
    constexpr size_t kMaxMangled = 64 * 1024;
    if (mangled.size() > kMaxMangled)
        return {};
    const std::string text(mangled); // the demangler wants a terminated string
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(text.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && out ? std::string(out.get()) : std::string();
}

/*!
 * The qualified name at the start of a mangled nested name ("_ZN2ck6device12_GLOBAL__N_16kernelI…"
 * → "ck::device::(anonymous namespace)::kernel<…>"), for names the demangler rejects: libstdc++'s
 * gives up on some of the long template names ROCm's composable kernels carry, and the name of
 * the kernel is what a reader needs first. Empty when even that does not parse.
 */
std::string nestedNamePrefix(std::string_view mangled)
{
    if (!mangled.starts_with("_ZN"))
        return {};
    std::string out;
    size_t i = 3;
    while (i < mangled.size() && (mangled[i] == 'K' || mangled[i] == 'V'))
        ++i; // cv-qualifiers of a member function
    while (i < mangled.size() && mangled[i] >= '1' && mangled[i] <= '9') {
        size_t length = 0;
        while (i < mangled.size() && mangled[i] >= '0' && mangled[i] <= '9' && length < 100000)
            length = length * 10 + size_t(mangled[i++] - '0');
        if (length > mangled.size() - i)
            return {};
        const std::string_view part = mangled.substr(i, length);
        i += length;
        if (!out.empty())
            out += "::";
        out += part.starts_with("_GLOBAL__N") ? std::string_view("(anonymous namespace)") : part;
    }
    if (out.empty() || i >= mangled.size())
        return {};
    if (mangled[i] == 'I')
        return out + "<…>";
    return mangled[i] == 'E' ? out : std::string();
}

} // namespace

void demangleKernelNames(TraceModel &model)
{
    SliceTable &t = model.slices;
    std::unordered_map<StringId, StringId> renamed; // written id → demangled id (or itself)
    for (SliceId s = 0; s < t.size(); ++s) {
        if (t.kind[s] != EventKind::Kernel)
            continue;
        const StringId written = t.name[s];
        if (!model.str(written).starts_with("_Z"))
            continue;
        auto [it, fresh] = renamed.try_emplace(written, written);
        if (fresh) {
            std::string name = demangled(model.str(written));
            if (name.empty())
                name = nestedNamePrefix(model.str(written));
            if (!name.empty())
                it->second = model.strings.intern(name);
        }
        if (it->second != written)
            model.writtenKernelNames.emplace_back(s, written); // in slice order: sorted
        t.name[s] = it->second;
    }
}

} // namespace ks
