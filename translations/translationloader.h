#pragma once

#include <QLocale>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QCoreApplication;
QT_END_NAMESPACE

namespace Callscope {

// What installTranslators() found for a locale: the language it settled on ("de"; empty when
// the user reads English, the source language) and the .qm files it installed.
struct TranslationSetup
{
    QString language;
    QStringList loadedFiles;
};

// Installs translators for Callscope's own strings and for Qt's (qtbase_*.qm) on the
// application. The locale's UI languages are tried in order; the first one that is English
// or has a Callscope translation wins, so "en-US, de-DE" stays English. The translators are
// children of the application. Callscope's .qm files come from share/callscope/translations
// beside the installed program or, failing that, from the copy compiled into the program.
TranslationSetup installTranslators(QCoreApplication *app, const QLocale &locale = QLocale::system());

// The folders searched for callscope_<lang>.qm, in order.
QStringList translationSearchPaths();

} // namespace Callscope
