#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that core/ keeps its layers: a file in core/LAYER/ includes only headers of LAYER and of
the layers it depends on (core/analysis/'s rooms their order, ANALYSIS_ORDER, and ui/'s folders
theirs, UI_ORDER), and nothing outside core/load/
includes the loader's internals (but the loader's own unit tests in tests/core/ and the
benchmarks, which test and measure them white-box). An include is judged by the file it resolves
to, looked up as the build does (the including file's folder, then the include paths), not by its
first path component: "report/x.h" from ui/ is core/report/x.h when that is the file it names.

The layers and what each depends on are read from core/CMakeLists.txt (the ks_layer(NAME DEPENDS
...) calls), so the build and this check cannot disagree.

    tools/check-layers.py [ROOT]      exit 0 when clean, 1 with one line per violation
    tools/check-layers.py --self-test checks that a violation is reported
"""
import os
import re
import sys
import tempfile

# The UI's folders, lowest first (ui/CMakeLists.txt says why): each may include the ones before.
UI_ORDER = ["common", "table", "timeline", "output", "trace", "compare", "run", "document", "window"]
# core/analysis/'s rooms, one per question, lowest first: each may include the ones before.
ANALYSIS_ORDER = ["time", "efficiency", "modules", "pairs", "memory", "compare", "ranks", "health",
                  "criticalpath", "findings", "timeline"]
LAYER_CALL = re.compile(r"ks_layer\((\w+)(?:\s+DEPENDS\s+([\w\s]+?))?\s+SOURCES", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_layers(root):
    """{layer: set of layers it may include}, transitively closed."""
    with open(os.path.join(root, "core", "CMakeLists.txt"), encoding="utf-8") as fh:
        text = fh.read()
    direct = {}
    for name, deps in LAYER_CALL.findall(text):
        direct[name] = set(deps.split()) if deps else set()
    if not direct:
        raise SystemExit("check-layers: no ks_layer() calls in core/CMakeLists.txt")

    def closure(layer, seen=()):
        if layer in seen:
            raise SystemExit("check-layers: the layers depend on each other in a cycle")
        out = {layer}
        for dep in direct[layer]:
            out |= closure(dep, seen + (layer,))
        return out

    return {layer: closure(layer) for layer in direct}


def source_files(root, top):
    for base, _, files in os.walk(os.path.join(root, top)):
        for f in files:
            if f.endswith((".h", ".cpp")):
                yield os.path.join(base, f)


def include_dirs(root, rel):
    """Where a quoted include in \a rel is looked for, in the build's order (after its own folder)."""
    top = rel.split(os.sep)[0]
    internal = os.path.join("core", "load", "internal")
    dirs = {
        "core": ([internal] if rel.startswith(os.path.join("core", "load")) else []) + ["core"],
        "ui": ["ui", "core", "resources"],
        "app": ["ui", "core", "resources"],
    }.get(top, [top, "ui", "core", internal])
    return [os.path.dirname(rel)] + dirs


def resolve(root, rel, inc):
    """The file (relative to root) that include \a inc of \a rel names, or None (system, generated)."""
    for d in include_dirs(root, rel):
        candidate = os.path.normpath(os.path.join(d, inc))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def place(path):
    """("core", layer), ("internal", None), ("ui", folder) or (other, None) for a file."""
    parts = path.split(os.sep)
    if parts[:3] == ["core", "load", "internal"]:
        return ("internal", None)
    if parts[0] in ("core", "ui") and len(parts) > 2:
        return (parts[0], parts[1])
    return (parts[0], None)


def room(path):
    """The room of a file in core/analysis/ROOM/, else None."""
    parts = path.split(os.sep)
    return parts[2] if parts[:2] == ["core", "analysis"] and len(parts) > 3 else None


def room_violation(rel, target, inc):
    """Why \a rel of core/analysis must not include \a target, or None."""
    own, other = room(rel), room(target)
    if not target.startswith(os.path.join("core", "analysis")) or own is None:
        return None
    if other is None or other not in ANALYSIS_ORDER:
        return f"{rel}: {inc} is in no room of core/analysis (ANALYSIS_ORDER)"
    if own not in ANALYSIS_ORDER:
        return f"{rel}: core/analysis/{own} is no room of ANALYSIS_ORDER"
    if ANALYSIS_ORDER.index(other) > ANALYSIS_ORDER.index(own):
        return f"{rel}: core/analysis/{own} must not include {inc} (core/analysis/{other})"
    return None


def violations(root):
    layers = read_layers(root)
    found = []
    for top in ("core", "ui", "app", "tests", "benchmarks", "tools"):
        for path in source_files(root, top):
            rel = os.path.relpath(path, root)
            own_kind, own = place(rel)
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for inc in INCLUDE.findall(text):
                target = resolve(root, rel, inc)
                if target is None:
                    continue
                kind, folder = place(target)
                if kind == "internal":
                    white_box = top in ("tests", "benchmarks")
                    if not rel.startswith(os.path.join("core", "load")) and not white_box:
                        found.append(f"{rel}: includes the loader's internal {inc}")
                elif own_kind == "core" and kind == "core" and folder not in layers[own]:
                    found.append(f"{rel}: core/{own} must not include {inc} (layer {folder})")
                elif own == "analysis" and (why := room_violation(rel, target, inc)):
                    found.append(why)
                elif own_kind == "ui" and kind == "ui" and own in UI_ORDER and folder in UI_ORDER:
                    if UI_ORDER.index(folder) > UI_ORDER.index(own):
                        found.append(f"{rel}: ui/{own} must not include {inc} (ui/{folder})")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        for d in ("core/base", "core/link", "core/report", "core/load/internal", "ui", "ui/table",
                  "ui/window", "ui/report", "core/analysis/time", "core/analysis/ranks"):
            os.makedirs(os.path.join(root, d))
        with open(os.path.join(root, "core", "CMakeLists.txt"), "w") as fh:
            fh.write("ks_layer(base SOURCES a)\nks_layer(link DEPENDS base SOURCES b)\n"
                     "ks_layer(load DEPENDS base SOURCES c)\n"
                     "ks_layer(analysis DEPENDS link SOURCES d)\n")
        files = {
            "core/base/a.h": '#include "link/b.h"\n',  # upwards: wrong
            "core/link/b.h": '#include "base/a.h"\n',  # downwards: fine
            "core/load/internal/sink.h": "",
            "ui/view.cpp": '#include "load/internal/sink.h"\n',  # internals: wrong
            "ui/table/model.h": '#include "window/main.h"\n',  # UI upwards: wrong
            "ui/window/main.h": '#include "table/model.h"\n',  # UI downwards: fine
            "core/report/r.h": "",
            "ui/table/rows.h": '#include "report/r.h"\n',  # resolves to core: fine
            "ui/report/page.h": '#include "link/b.h"\n',  # core/link: fine
            "ui/table/cell.h": '#include "window/main.h"\n',  # by the file it names: wrong
            "core/analysis/time/t.h": '#include "analysis/ranks/r.h"\n',  # a later room: wrong
            "core/analysis/ranks/r.h": '#include "analysis/time/t.h"\n',  # an earlier one: fine
        }
        for name, text in files.items():
            with open(os.path.join(root, name), "w") as fh:
                fh.write(text)
        found = violations(root)
        expected = ["core/base/a.h: core/base must not include link/b.h (layer link)",
                    "ui/view.cpp: includes the loader's internal load/internal/sink.h",
                    "ui/table/model.h: ui/table must not include window/main.h (ui/window)",
                    "ui/table/cell.h: ui/table must not include window/main.h (ui/window)",
                    "core/analysis/time/t.h: core/analysis/time must not include "
                    "analysis/ranks/r.h (core/analysis/ranks)"]
        if sorted(found) != sorted(expected):
            print("self-test failed:", found, file=sys.stderr)
            return 1
    print("check-layers self-test: ok")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    found = violations(os.path.abspath(root))
    for line in found:
        print(line)
    if not found:
        print("check-layers: core/ keeps its layers")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
