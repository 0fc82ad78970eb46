#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""clang-tidy over the sources of a build, each clean file remembered so it is not analysed again.

    tools/tidy-cached.py BUILD_DIR [DIR ...] [--jobs N] [--cache DIR]

Analyses every file of BUILD_DIR/compile_commands.json under the given top-level folders of the
checkout (default: core ui app), with the checkout's .clang-tidy. A file is analysed again unless
an earlier run found it clean with the same key: the SHA-256 of clang-tidy's version, every
.clang-tidy of the checkout, the file's compile command and the content of every file it includes
(from ninja's dependency log, written by the build that must come first). Paths under the checkout
enter the key relative to it, so a fresh clone elsewhere on the machine finds the cache; a file
whose dependencies ninja does not know is always analysed. Only clean results are stored, so a
warning is reported on every run until it is fixed. Exit status: 0 when every file is clean.

The cache is a folder of empty files named by key, under $KINETOSCOPE_TIDY_CACHE or else
${XDG_CACHE_HOME:-~/.cache}/kinetoscope/clang-tidy.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def default_cache():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(os.environ.get("KINETOSCOPE_TIDY_CACHE") or os.path.join(base, "kinetoscope", "clang-tidy"))


def ninja_deps(build_dir):
    """{absolute object path: [absolute dependency paths]} for every object ninja's log knows."""
    out = subprocess.run(["ninja", "-C", str(build_dir), "-t", "deps"], check=True,
                         capture_output=True, text=True).stdout
    deps, current = {}, None
    for line in out.splitlines():
        if not line.strip():
            current = None
        elif not line.startswith(" "):
            target, _, state = line.partition(":")
            # A STALE entry is older than its object: the next build would rewrite it.
            current = None if "(VALID)" not in state else deps.setdefault(
                os.path.normpath(os.path.join(build_dir, target)), [])
        elif current is not None:
            current.append(os.path.normpath(os.path.join(build_dir, line.strip())))
    return deps


class ContentHashes:
    """Each file's content hashed once, however many sources include it."""

    def __init__(self):
        self.known = {}

    def __call__(self, path):
        if path not in self.known:
            try:
                self.known[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                self.known[path] = "missing"
        return self.known[path]


def relative(text):
    return text.replace(str(ROOT), "@ROOT@")


def common_key(tidy, dirs):
    h = hashlib.sha256()
    h.update(subprocess.run([tidy, "--version"], check=True, capture_output=True, text=True).stdout.encode())
    configs = [ROOT / ".clang-tidy"] + sorted(c for d in dirs for c in (ROOT / d).glob("**/.clang-tidy"))
    for config in configs:
        if config.exists():
            h.update(relative(str(config)).encode() + b"\0" + config.read_bytes())
    return h.hexdigest()


def file_key(common, entry, dependencies, content):
    h = hashlib.sha256(common.encode())
    command = entry.get("command") or " ".join(entry["arguments"])
    h.update(relative(command).encode() + b"\0" + relative(entry["file"]).encode())
    for dep in dependencies:
        h.update(b"\0" + relative(dep).encode() + b"=" + content(dep).encode())
    return h.hexdigest()


def object_of(entry):
    """The object file a compile_commands.json entry writes (CMake 3.25 names it only in -o)."""
    words = entry.get("arguments") or shlex.split(entry["command"])
    output = entry.get("output") or next((b for a, b in zip(words, words[1:]) if a == "-o"), None)
    return os.path.normpath(os.path.join(entry["directory"], output)) if output else None


def analyse(tidy, build_dir, source):
    run = subprocess.run([tidy, "-p", str(build_dir), "--quiet", source], capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("dirs", nargs="*", default=["core", "ui", "app"])
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--cache", type=Path, default=default_cache())
    parser.add_argument("--clang-tidy", default="clang-tidy")
    args = parser.parse_args()

    build_dir = args.build_dir.resolve()
    entries = json.loads((build_dir / "compile_commands.json").read_text())
    prefixes = tuple(str(ROOT / d) + os.sep for d in args.dirs)
    entries = [e for e in entries if os.path.normpath(os.path.join(e["directory"], e["file"])).startswith(prefixes)]
    deps = ninja_deps(build_dir)
    common = common_key(args.clang_tidy, args.dirs)
    content = ContentHashes()
    args.cache.mkdir(parents=True, exist_ok=True)

    todo = []  # (source, key or None when it cannot be cached)
    for e in entries:
        source = os.path.normpath(os.path.join(e["directory"], e["file"]))
        dependencies = deps.get(object_of(e))
        key = file_key(common, e, dependencies, content) if dependencies else None
        if key is None or not (args.cache / key).exists():
            todo.append((source, key))

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = {pool.submit(analyse, args.clang_tidy, build_dir, s): (s, k) for s, k in todo}
        for done in concurrent.futures.as_completed(runs):
            source, key = runs[done]
            code, text = done.result()
            if code != 0:
                failed += 1
                print(text, end="" if text.endswith("\n") else "\n")
                print(f"clang-tidy: {os.path.relpath(source, ROOT)} failed (exit {code})")
            elif key is not None:
                (args.cache / key).touch()
    print(f"clang-tidy: {len(entries)} files, {len(entries) - len(todo)} clean in the cache, "
          f"{len(todo)} analysed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
