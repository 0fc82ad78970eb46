#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Debian package from a configured build directory and checks it the way a user gets
# it: the desktop entry, the AppStream metainfo, the package contents, and the unpacked binary
# running on the system's Qt. Installs nothing; CI installs the tools first:
#   apt-get install -y desktop-file-utils appstream dpkg-dev
# Optional extras, used when present: mandoc, man-db, shared-mime-info, lintian, python3.
#
# Usage: packaging/check-package.sh BUILD_DIR TRACE
#   BUILD_DIR  a configured build tree of this project (any preset; release is what ships)
#   TRACE      a trace file for the `--summary` smoke test
set -euo pipefail

current_step="start"
step() {
    current_step=$*
    printf '\n==> %s\n' "$*"
}
trap 'printf "check-package: FAIL in step \"%s\" (exit %s)\n" "$current_step" "$?" >&2' ERR
fail() { printf 'check-package: FAIL: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

[[ $# -eq 2 ]] || { echo "usage: $0 BUILD_DIR TRACE" >&2; exit 2; }
build=$(cd "$1" && pwd)
trace=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
[[ -f $build/CMakeCache.txt ]] || fail "$build is not a configured build directory"
[[ -f $trace ]] || fail "no trace file $trace"

app_id=io.github.kinetoscope.kinetoscope

step "Checking tools"
missing=()
for tool in cmake:cmake cpack:cmake desktop-file-validate:desktop-file-utils \
    appstreamcli:appstream dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev; do
    have "${tool%%:*}" || missing+=("${tool%%:*} (Debian package ${tool##*:})")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    printf '  missing: %s\n' "${missing[@]}" >&2
    fail "install the missing tools first"
fi
echo "  all required tools present"
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
echo "  build type: ${build_type:-<none>}"
if grep -q '^KINETOSCOPE_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "  warning: sanitizer build; ship packages from the release preset"
fi

step "Building the binary and the desktop data"
cmake --build "$build" --target kinetoscope kinetoscope-desktop-data

step "cpack -G DEB"
outdir=$build/deb
rm -rf "$outdir"
(cd "$build" && cpack -G DEB -B "$outdir")
debs=("$outdir"/kinetoscope_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "expected one kinetoscope_*.deb in $outdir"
deb=${debs[0]}
echo "  package: $deb"

step "dpkg-deb --info"
dpkg-deb --info "$deb"
version=$(dpkg-deb --field "$deb" Version)
upstream_version=${version%-*}

step "dpkg-deb --contents"
contents=$(dpkg-deb --contents "$deb")
echo "$contents"
expected=(
    ./usr/bin/kinetoscope
    "./usr/share/applications/$app_id.desktop"
    "./usr/share/metainfo/$app_id.metainfo.xml"
    ./usr/share/mime/packages/kinetoscope.xml
    ./usr/share/icons/hicolor/scalable/apps/kinetoscope.svg
    ./usr/share/man/man1/kinetoscope.1.gz
    ./usr/share/doc/kinetoscope/copyright
    ./usr/share/doc/kinetoscope/changelog.Debian.gz
)
for size in 16 32 48 64 128 256; do
    expected+=("./usr/share/icons/hicolor/${size}x${size}/apps/kinetoscope.png")
done
for path in "${expected[@]}"; do
    grep -qF " $path" <<<"$contents" || fail "package lacks $path"
done
echo "  all ${#expected[@]} expected files present"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
root=$scratch/root
step "dpkg -x into $root"
dpkg -x "$deb" "$root"

step "desktop-file-validate"
desktop-file-validate "$root/usr/share/applications/$app_id.desktop"
echo "  ok"

step "appstreamcli validate --no-net"
appstreamcli validate --no-net "$root/usr/share/metainfo/$app_id.metainfo.xml"
# validate-tree also checks that the metainfo's launchable and icon exist in the tree.
appstreamcli validate-tree --no-net "$root"

step "Man page"
manpage=$root/usr/share/man/man1/kinetoscope.1.gz
if have mandoc; then
    mandoc -Tlint -W warning "$manpage"
    echo "  mandoc -Tlint: ok"
else
    echo "  mandoc lint skipped (Debian package mandoc not installed)"
fi
if have man; then
    warnings=$(MANWIDTH=80 man --warnings -l "$manpage" 2>&1 >/dev/null)
    [[ -z $warnings ]] || fail "man page warnings: $warnings"
    echo "  man -l renders without warnings"
else
    echo "  man rendering skipped (Debian package man-db not installed)"
fi

step "MIME types"
if have update-mime-database && [[ -f /usr/share/mime/packages/freedesktop.org.xml ]]; then
    mkdir -p "$scratch/mime/packages"
    cp /usr/share/mime/packages/freedesktop.org.xml \
        "$root/usr/share/mime/packages/kinetoscope.xml" "$scratch/mime/packages/"
    # XDG_DATA_HOME only quiets the note that the scratch database is not on the search path.
    XDG_DATA_HOME=$scratch update-mime-database "$scratch/mime"
    globs=$scratch/mime/globs2
    grep -qx '[0-9]*:application/x-pytorch-trace:\*\.pt\.trace\.json' "$globs" \
        || fail "application/x-pytorch-trace glob missing"
    grep -qx '[0-9]*:application/x-pytorch-trace-gzip:\*\.pt\.trace\.json\.gz' "$globs" \
        || fail "application/x-pytorch-trace-gzip glob missing"
    echo "  update-mime-database accepts both types"
else
    echo "  skipped (Debian package shared-mime-info not installed)"
fi

bin=$root/usr/bin/kinetoscope
step "Shared libraries of the unpacked binary"
if ldd "$bin" | grep 'not found'; then fail "unresolved shared libraries"; fi
echo "  all resolved from the system"
if have readelf && readelf -d "$bin" | grep -E 'R(UN)?PATH' | grep -qF "$build"; then
    fail "the packaged binary has an RPATH into the build tree"
fi

# No display: the headless modes must not need one.
headless=(env -u DISPLAY -u WAYLAND_DISPLAY)

step "kinetoscope --version"
out=$("${headless[@]}" "$bin" --version)
echo "  $out"
[[ $out == "kinetoscope $upstream_version" ]] || fail "expected 'kinetoscope $upstream_version'"

step "kinetoscope --summary $trace"
summary=$("${headless[@]}" "$bin" --summary "$trace") || fail "--summary exited with $?"
echo "$summary"
if have python3; then
    python3 - "$summary" <<'PY' || fail "--summary did not print the expected JSON object"
import json, sys
keys = """file compressed events cpu_ops gpu_events flows fwd_bwd_pairs pairs_from_flows
pairs_from_sequence unpaired_backward gpu_events_attributed steps truncated diagnostics
load_seconds backward_nodes pair_rows recompute_rows has_sequence_numbers
gpu_events_with_launch communication_gpu_events flow_pairs_checked_by_sequence
flow_pairs_agreeing_with_sequence lanes file_bytes text_bytes""".split()
summary = json.loads(sys.argv[1])
absent = [k for k in keys if k not in summary]
if absent:
    sys.exit("missing keys: " + ", ".join(absent))
PY
else
    grep -q '"fwd_bwd_pairs"' <<<"$summary" || fail "--summary printed no fwd_bwd_pairs"
fi

step "lintian (informational)"
if have lintian; then
    # A package built outside the Debian archive has no bug to close in its changelog.
    lintian --allow-root --suppress-tags initial-upload-closes-no-bugs "$deb" || true
else
    echo "  skipped (Debian package lintian not installed)"
fi

step "Package OK: $deb"
