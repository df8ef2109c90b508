#!/usr/bin/env python3
"""Checks that the layers of src/ depend on each other only downwards (DESIGN.md "The layers").

Two edges are read per layer folder of src/ (subfolders such as uop/text belong to their layer):
  - source: every `#include "<folder>/..."` in its .h/.cpp files;
  - link (with --lib): every symbol its library leaves undefined and another layer's library
    defines, read with nm. This catches what includes cannot: a function declared in one layer's
    header but defined in a layer below (a cycle the static link papers over).
An edge to a layer that is not among the layer's dependencies (LAYERS, read transitively) is an
upward edge: each is printed and the exit status is 1.

  check_layers.py SRC_DIR [--lib LAYER=ARCHIVE ...]
"""
import argparse
import collections
import os
import re
import subprocess
import sys

# Each layer and the layers it builds on directly: the link graph of src/CMakeLists.txt. A realize
# goes down: tensor -> engine -> schedule -> codegen -> render -> runtime.
LAYERS = {
    "uop": [],
    "rewrite": ["uop"],
    "symbolic": ["rewrite"],
    "tensor": ["symbolic"],
    "schedule": ["symbolic"],
    "codegen": ["symbolic"],
    "runtime": ["uop"],
    "render": ["codegen", "runtime"],
    "engine": ["tensor", "schedule", "render"],
    "nn": ["engine"],
    "onnx": ["nn"],
    "tir": ["uop"],
    "tir_compile": ["tir", "engine"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z0-9_]+)/')


def below(layers):
    """Per layer, every layer it may use (its dependencies, transitively). Fails on a cycle."""
    done = {}

    def visit(name, path):
        if name in path:
            sys.exit("check_layers: the layer table has a cycle: " + " -> ".join(path + [name]))
        if name not in done:
            deps = set()
            for d in layers[name]:
                deps |= {d} | visit(d, path + [name])
            done[name] = deps
        return done[name]

    for name in layers:
        visit(name, [])
    return done


def include_edges(src):
    """(layer, file, line, included layer) for every include of another layer's header."""
    for layer in sorted(os.listdir(src)):
        top = os.path.join(src, layer)
        if not os.path.isdir(top):
            continue
        for root, _, files in os.walk(top):
            for f in sorted(files):
                if not f.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8") as fh:
                    for n, text in enumerate(fh, 1):
                        m = INCLUDE.match(text)
                        if m and m.group(1) != layer and os.path.isdir(os.path.join(src, m.group(1))):
                            yield layer, os.path.relpath(path, src), n, m.group(1)


def symbols(archive):
    """(defined, undefined) external symbols of a static library."""
    out = subprocess.run(["nm", "-g", archive], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("U", "w", "v"):
            undefined.add(parts[1])
        elif len(parts) == 3:
            (undefined if parts[1] in ("U", "w", "v") else defined).add(parts[2])
    return defined, undefined - defined


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout
    return out.splitlines() or names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src")
    ap.add_argument("--lib", action="append", default=[], metavar="LAYER=ARCHIVE")
    args = ap.parse_args()
    allowed = below(LAYERS)
    problems = []

    folders = sorted(d for d in os.listdir(args.src) if os.path.isdir(os.path.join(args.src, d)))
    for d in folders:
        if d not in LAYERS:
            problems.append(f"src/{d}/ is not in the layer table of {os.path.basename(__file__)}: add it with its dependencies")

    for layer, path, line, used in include_edges(args.src):
        if layer in LAYERS and used not in allowed[layer]:
            problems.append(f"src/{path}:{line}: includes {used}/, above the {layer} layer "
                            f"(it may use {', '.join(sorted(allowed[layer])) or 'no other layer'})")

    libs = dict(spec.split("=", 1) for spec in args.lib)
    read = {layer: symbols(path) for layer, path in libs.items()}
    for layer, (_, undefined) in sorted(read.items()):
        upward = collections.defaultdict(list)
        for sym in sorted(undefined):
            owners = {other for other, (defined, _) in read.items() if other != layer and sym in defined}
            if owners and not owners & allowed[layer]:
                upward[", ".join(sorted(owners))].append(sym)
        for owners, syms in sorted(upward.items()):
            shown = demangle(syms[:5])
            problems.append(f"library of {layer} uses {len(syms)} symbol(s) defined only in {owners}, above it: "
                            + "; ".join(shown) + (" ..." if len(syms) > 5 else ""))

    for p in problems:
        print(p)
    checked = f"{len(folders)} folders" + (f", {len(read)} libraries" if read else "")
    print(f"check_layers: {checked}: " + (f"{len(problems)} upward edge(s)" if problems else "no upward edge"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
