#pragma once

// The Help menu's windows: the documentation (docs/ in a window of its own), the list of
// keyboard shortcuts read from the menus, and the About text with the versions in use.

#include <QList>
#include <QString>

#include <utility>

class QMenuBar;
class QWidget;

namespace Callscope::HelpDialogs {

// (menu path, shortcut) of every command in `menuBar` that has a shortcut, in menu order.
QList<std::pair<QString, QString>> shortcutList(const QMenuBar *menuBar);
// The shortcuts window of `window` (made once, then brought forward) listing `rows`.
void showShortcuts(QWidget *window, const QList<std::pair<QString, QString>> &rows);
// The documentation window of `window` (made once, then brought forward).
void showDocumentation(QWidget *window);
// Callscope's version, Qt's, QtKeychain's and the JSON highlighter's, in rich text.
QString aboutText();

} // namespace Callscope::HelpDialogs
