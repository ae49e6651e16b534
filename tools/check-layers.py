#!/usr/bin/env python3
"""Checks that the sources keep to the library graph drawn in docs/architecture.md.

Every `#include "core/<lib>/..."`, `"ui/..."` or `"app/..."` in app/, core/ and ui/ is read and
compared with the graph below. A library may include only itself and the libraries listed for
it; the graph must be acyclic; a core library that includes another must link it (directly or
through what it links) in its CMakeLists.txt; no core file includes a widget header.

Run from anywhere: `tools/check-layers.py [source root]`. Exit 0 when the sources keep to the
graph, 1 with one line per broken rule otherwise. ctest runs it as `layers_include_rules`.
"""

import os
import re
import sys

# What each core library may include. Keep this table and the picture in
# docs/architecture.md the same.
CORE = {
    "model": set(),
    "schema": {"model"},
    "context": {"model"},
    "engines": {"model", "schema"},
    "secrets": {"model", "engines"},
    "store": {"model", "schema"},
    "tools": {"model", "schema", "engines", "secrets"},
    "loop": {"model", "schema", "engines", "tools", "context"},
    "telemetry": {"model", "engines", "loop"},
    "service": {"model", "schema", "engines", "tools", "context", "secrets", "store", "loop"},
    "eval": {"model", "schema", "engines", "secrets", "store", "service", "telemetry"},
}

WIDGET_HEADERS = re.compile(r"#include\s+<(QtWidgets/|QWidget|QMainWindow|QDialog|QLabel|QPushButton|QApplication)")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def unit_of(path):
    """'core/eval/x.cpp' -> 'core/eval'; 'ui/mainwindow.cpp' -> 'ui'."""
    parts = path.split("/")
    if parts[0] in ("core", "ui", "app") and len(parts) > 2:
        return parts[0] + "/" + parts[1]
    return parts[0]


def sources(root):
    for top in ("app", "core", "ui"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if name.endswith((".cpp", ".h")):
                    full = os.path.join(folder, name)
                    yield os.path.relpath(full, root), full


def linked_libraries(root):
    """core lib -> the core libs its CMakeLists.txt links."""
    links = {}
    for lib in CORE:
        text = open(os.path.join(root, "core", lib, "CMakeLists.txt"), encoding="utf-8").read()
        links[lib] = {m for m in re.findall(r"callscope_([a-z]+)", text) if m in CORE and m != lib}
    return links


def closure(graph, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems = []

    for lib in CORE:
        if lib in closure(CORE, lib):
            problems.append(f"the allowed graph has a cycle through core/{lib}")

    links = linked_libraries(root)
    for rel, full in sources(root):
        text = open(full, encoding="utf-8", errors="replace").read()
        unit = unit_of(rel)
        for inc in INCLUDE.findall(text):
            target = unit_of(inc)
            if target == unit or target not in ("ui", "app") and not target.startswith(("core/", "ui/", "app/")):
                continue
            if unit.startswith("core/"):
                lib = unit[5:]
                if not target.startswith("core/"):
                    problems.append(f"{rel}: core includes {inc}")
                    continue
                dep = target[5:]
                if dep not in CORE.get(lib, set()):
                    problems.append(f"{rel}: core/{lib} may not include {inc} (allowed: {', '.join(sorted(CORE.get(lib, ()))) or 'none'})")
                elif dep not in closure(links, lib):
                    problems.append(f"{rel}: includes {inc} but callscope_{lib} does not link callscope_{dep}")
            elif unit == "ui/widgets" and target.startswith("ui") and target != "ui/widgets":
                problems.append(f"{rel}: the widgets library may not include the view or window header {inc}")
            elif unit.startswith("app/cli") and target.startswith("ui"):
                problems.append(f"{rel}: the command line may not include {inc}")
        if unit.startswith("core/") and WIDGET_HEADERS.search(text):
            problems.append(f"{rel}: core includes a widget header")

    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} include rule(s) broken; see docs/architecture.md")
        return 1
    print("every include keeps to the library graph")
    return 0


if __name__ == "__main__":
    sys.exit(main())
