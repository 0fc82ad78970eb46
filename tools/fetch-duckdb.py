#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fetches DuckDB's Node.js package, the independent Parquet reader of tests/cli/tst_parquet.cpp,
into DIR/node_modules (default build/node), without npm: Debian 12 ships Node.js but DuckDB only
on npm. The four tarballs are pinned by version and by npm's own SHA-512 (package-lock.json's
"integrity"); a tarball that does not match is refused (see fetch()). Linux x86-64 only (the binding's
platform). Does nothing when DIR already holds this version. Exit 1 with a message on failure.

    tools/fetch-duckdb.py [DIR]
"""
import base64
import hashlib
import io
import json
import os
import shutil
import ssl
import sys
import tarfile
import urllib.request

VERSION = "1.5.6-r.1"
REGISTRY = "https://registry.npmjs.org"
PACKAGES = [  # name, version, sha512 (base64), as npm's package-lock.json pins them
    ("@duckdb/node-api", VERSION,
     "yIPol6P4EQmsAUsb27donJf7iADrM31Ei/WkvhkZpSscjhEErYsuF19lsJ/qz5mUWxsKFQpLdjvrlhPQnMTBqw=="),
    ("@duckdb/node-bindings", VERSION,
     "/pWlTyvKC1d16iSMJCBAPwlmzoeXRs5Y9cqG+TpKd/YAW6Ke05FJg099v/Im2bkS9BgznNyNcAK1NxA1eQhSUw=="),
    ("@duckdb/node-bindings-linux-x64", VERSION,
     "IXcrZJE6kEqM0Z4wwdVnGBHX/frOS33VPNAwDXQ/Q+Fs84b058Qe94chrCCIcNJlG8Y3UHIUU4eBeCQxW5mN1Q=="),
    ("detect-libc", "2.1.2",
     "Btj2BOOO83o3WyH59e8MgXsxEQVcarkUOpEYrubB0urwnN10yQ364rsiByU11nZlqWYZm05i/of7io4mzihBtQ=="),
]


def installed_version(modules, name):
    try:
        with open(os.path.join(modules, name, "package.json")) as f:
            return json.load(f).get("version")
    except (OSError, ValueError):
        return None


def fetch(name, version, sha512):
    url = f"{REGISTRY}/{name}/-/{name.split('/')[-1]}-{version}.tgz"
    # The pinned SHA-512 vouches for the bytes, not the connection (as apt's signed indexes do over
    # plain HTTP): a machine without the certificate of a proxy it sits behind, or without
    # ca-certificates at all, fetches them all the same, and a tarball that is not the pinned one
    # is refused either way.
    unverified = ssl._create_unverified_context()  # pylint: disable=protected-access
    with urllib.request.urlopen(url, timeout=120, context=unverified) as response:
        data = response.read()
    if base64.b64encode(hashlib.sha512(data).digest()).decode() != sha512:
        raise ValueError(f"{url}: not the pinned tarball (another SHA-512)")
    return data


def unpack(data, target):
    """npm tarballs hold their files under package/: they go to TARGET, nothing outside it."""
    shutil.rmtree(target, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")[1:]
            if not parts or ".." in parts or not (member.isfile() or member.isdir()):
                continue
            path = os.path.join(target, *parts)
            if member.isdir():
                os.makedirs(path, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with tar.extractfile(member) as src, open(path, "wb") as dst:
                shutil.copyfileobj(src, dst)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    modules = os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "node"),
                           "node_modules")
    for name, version, sha512 in PACKAGES:
        if installed_version(modules, name) == version:
            continue
        try:
            unpack(fetch(name, version, sha512), os.path.join(modules, name))
        except (OSError, ValueError, tarfile.TarError) as e:
            print(f"fetch-duckdb: {name} {version}: {e}", file=sys.stderr)
            return 1
        print(f"fetch-duckdb: {name} {version} -> {os.path.normpath(os.path.join(modules, name))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
