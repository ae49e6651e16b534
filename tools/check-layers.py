#!/usr/bin/env python3
"""Checks that the sources keep to the library graph drawn in docs/architecture.md.

Every `#include "core/<lib>/..."`, `"ui/..."` or `"app/..."` in app/, core/ and ui/ is read and
compared with the graph below. A library may include only itself and the libraries listed for
it; the graph must be acyclic; a core library that includes another must link it (directly or
through what it links) in its CMakeLists.txt; no core file includes a widget header.

The studio's folders keep to the UI table: the widgets include no other ui/ folder, a view
folder includes only the widgets (never another view, never the window), and only ui/window
includes a ui/window header (mainwindow.h among them). Each ui/ folder's files are built into
the library the table names for it in ui/CMakeLists.txt. No studio file but the dialogs helper
makes a QMessageBox: modal questions go through Dialogs, which tests can answer.

Run from anywhere: `tools/check-layers.py [source root]`. Exit 0 when the sources keep to the
graph, 1 with one line per broken rule otherwise. ctest runs it as `layers_include_rules`, and
`tools/check-layers.py --self-test [source root]` as `layers_include_rules_catch`: on copies of
the sources, each kind of broken rule must be reported.
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

# The studio's folders under ui/: what each may include besides itself and core/, and the
# library of ui/CMakeLists.txt its files are built into. Keep this table and the one in
# docs/architecture.md the same.
UI_VIEWS = ("editor", "run", "history", "diff", "sessions", "settings", "transfer", "experiments")
UI = {
    "widgets": set(),
    **{view: {"widgets"} for view in UI_VIEWS},
    "window": {"widgets", *UI_VIEWS},
}
UI_LIBRARY = {
    "widgets": "callscope_ui_widgets",
    **{view: "callscope_ui_views" for view in UI_VIEWS},
    "window": "callscope_ui",
}

WIDGET_HEADERS = re.compile(r"#include\s+<(QtWidgets/|QWidget|QMainWindow|QDialog|QLabel|QPushButton|QApplication)")
# A message box made anywhere but in the dialogs helper (ui/widgets/dialogs.cpp), which tests
# can answer: every modal question of the studio goes through Dialogs.
RAW_MESSAGE_BOX = re.compile(r"new\s+QMessageBox\b|\bQMessageBox\s+\w+\s*[({]|QMessageBox::(warning|critical|information|question|about)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def unit_of(path):
    """'core/eval/x.cpp' -> 'core/eval'; 'ui/window/mainwindow.cpp' -> 'ui/window'."""
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


def ui_libraries(root):
    """'ui/<folder>/<file>' -> the library ui/CMakeLists.txt builds it into."""
    text = open(os.path.join(root, "ui", "CMakeLists.txt"), encoding="utf-8").read()
    built = {}
    for name, body in re.findall(r"add_library\(\s*(\w+)\s+STATIC\s+([^)]*)\)", text):
        for source in body.split():
            built["ui/" + source] = name
    return built


def ui_problems(rel, unit, inc, target):
    """The UI table's verdict on `rel` (in folder `unit`) including `inc` (in `target`)."""
    if not target.startswith("ui"):
        return []
    if target == "ui":
        return [f"{rel}: includes {inc}, which is in no folder of the UI table"]
    folder, dep = unit[3:], target[3:]
    if dep == "window" and folder != "window":
        return [f"{rel}: only ui/window includes the window's headers ({inc})"]
    if dep not in UI.get(folder, set()):
        allowed = ", ".join(f"ui/{name}" for name in sorted(UI.get(folder, ()))) or "no other ui/ folder"
        return [f"{rel}: ui/{folder} may not include {inc} (allowed: {allowed})"]
    return []


def closure(graph, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def check(root):
    problems = []

    for lib in CORE:
        if lib in closure(CORE, lib):
            problems.append(f"the allowed graph has a cycle through core/{lib}")

    links = linked_libraries(root)
    built = ui_libraries(root)
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
            elif unit.startswith("ui/"):
                problems.extend(ui_problems(rel, unit, inc, target))
            elif unit.startswith("app/cli") and target.startswith("ui"):
                problems.append(f"{rel}: the command line may not include {inc}")
        if unit.startswith("core/") and WIDGET_HEADERS.search(text):
            problems.append(f"{rel}: core includes a widget header")
        if unit.startswith(("ui", "app/gui")) and rel != "ui/widgets/dialogs.cpp" and RAW_MESSAGE_BOX.search(text):
            problems.append(f"{rel}: asks with a QMessageBox of its own; use Dialogs (ui/widgets/dialogs.h)")
        if unit == "ui":
            problems.append(f"{rel}: every ui/ file belongs in a folder of the UI table")
        elif unit.startswith("ui/"):
            folder = unit[3:]
            if folder not in UI:
                problems.append(f"{rel}: ui/{folder} is not in the UI table of tools/check-layers.py")
            elif built.get(rel, UI_LIBRARY[folder]) != UI_LIBRARY[folder]:
                problems.append(f"{rel}: ui/{folder} belongs in {UI_LIBRARY[folder]}, not {built[rel]}")

    return problems


# (what is broken, file to change, text appended to it, words the report must hold)
SELF_TEST_CASES = [
    ("a view includes the window", "ui/sessions/sessionview.cpp", '#include "ui/window/mainwindow.h"\n',
     "only ui/window includes"),
    ("a view includes another view", "ui/sessions/sessionview.cpp", '#include "ui/run/runpanel.h"\n',
     "ui/sessions may not include ui/run/runpanel.h"),
    ("the widgets include a view", "ui/widgets/callview.h", '#include "ui/history/historymodel.h"\n',
     "ui/widgets may not include ui/history/historymodel.h"),
    ("a core library includes one above it", "core/model/spec.h", '#include "core/store/callstore.h"\n',
     "core/model may not include"),
    ("a view asks with a QMessageBox", "ui/run/runpanel.cpp", "static void f() { new QMessageBox(); }\n",
     "use Dialogs"),
]


def self_test(root):
    import shutil
    import tempfile
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "src")
        for top in ("app", "core", "ui"):
            shutil.copytree(os.path.join(root, top), os.path.join(copy, top),
                            ignore=shutil.ignore_patterns("*.png", "*.json", "*.qrc"))
        if check(copy):
            failures.append("the sources as they are already break a rule")
        for what, rel, text, expected in SELF_TEST_CASES:
            path = os.path.join(copy, rel)
            before = open(path, encoding="utf-8").read()
            open(path, "w", encoding="utf-8").write(before + text)
            found = check(copy)
            open(path, "w", encoding="utf-8").write(before)
            if not any(expected in line for line in found):
                failures.append(f"not reported: {what} ({rel})")
        # A file built into another folder's library.
        cmake = os.path.join(copy, "ui", "CMakeLists.txt")
        before = open(cmake, encoding="utf-8").read()
        moved = before.replace("    widgets/callview.cpp widgets/callview.h\n", "    widgets/callview.h\n", 1)
        moved = moved.replace("    diff/diffview.cpp diff/diffview.h", "    diff/diffview.cpp diff/diffview.h widgets/callview.cpp", 1)
        open(cmake, "w", encoding="utf-8").write(moved)
        if moved == before or not any("belongs in callscope_ui_widgets" in line for line in check(copy)):
            failures.append("not reported: a widgets file built into the views library")
    for line in failures:
        print(line)
    if failures:
        return 1
    print(f"every kind of broken rule is reported ({len(SELF_TEST_CASES) + 1} cases)")
    return 0


def main():
    args = [a for a in sys.argv[1:] if a != "--self-test"]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    if "--self-test" in sys.argv[1:]:
        return self_test(root)
    problems = check(root)
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} include rule(s) broken; see docs/architecture.md")
        return 1
    print("every include keeps to the library graph")
    return 0


if __name__ == "__main__":
    sys.exit(main())
