#include "translations/translationloader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLoggingCategory>
#include <QTranslator>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcI18n, "callscope.i18n", QtInfoMsg)

namespace Callscope {

namespace {

// "de-DE" -> "de_DE": the spelling the .qm file names use.
QString fileLocaleName(const QString &uiLanguage)
{
    QString name = uiLanguage;
    name.replace(u'-', u'_');
    return name;
}

// callscope_<name>.qm in the search folders, trying "de_DE" and then "de".
QString findCallscopeQm(const QString &uiLanguage)
{
    const QString full = fileLocaleName(uiLanguage);
    QStringList candidates{full};
    const qsizetype cut = full.indexOf(u'_');
    if (cut > 0)
        candidates.append(full.left(cut));
    for (const QString &dir : translationSearchPaths()) {
        for (const QString &name : std::as_const(candidates)) {
            const QString path = dir + u"/callscope_"_s + name + u".qm"_s;
            if (QFileInfo::exists(path))
                return path;
        }
    }
    return {};
}

} // namespace

QStringList translationSearchPaths()
{
    QStringList paths;
    // <prefix>/bin/callscope -> <prefix>/share/callscope/translations
    const QString installed = QDir::cleanPath(QCoreApplication::applicationDirPath()
                                              + u"/../share/callscope/translations"_s);
    if (QFileInfo(installed).isDir())
        paths.append(installed);
    paths.append(u":/i18n"_s);
    return paths;
}

TranslationSetup installTranslators(QCoreApplication *app, const QLocale &locale)
{
    TranslationSetup setup;
    for (const QString &uiLanguage : locale.uiLanguages()) {
        const QLocale candidate(uiLanguage);
        if (candidate.language() == QLocale::English || candidate.language() == QLocale::C)
            break; // the source strings are English
        const QString qm = findCallscopeQm(uiLanguage);
        if (qm.isEmpty())
            continue;
        auto *own = new QTranslator(app);
        if (!own->load(qm)) {
            qCWarning(lcI18n) << "cannot load" << qm;
            delete own;
            continue;
        }
        QCoreApplication::installTranslator(own);
        setup.loadedFiles.append(qm);
        setup.language = own->language();
        if (setup.language.isEmpty())
            setup.language = fileLocaleName(uiLanguage);

        // Qt's own strings (standard dialogs, context menus) in the same language, if the
        // distribution's translations are installed.
        auto *qt = new QTranslator(app);
        if (qt->load(QLocale(setup.language), u"qtbase"_s, u"_"_s,
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            QCoreApplication::installTranslator(qt);
            setup.loadedFiles.append(qt->filePath());
        } else {
            delete qt;
        }
        break;
    }
    if (setup.loadedFiles.isEmpty()) {
        // English, the source language: only the plural forms ("1 call", "2 calls") come from
        // a file, so %n strings read well.
        const QString qm = findCallscopeQm(u"en"_s);
        auto *english = new QTranslator(app);
        if (!qm.isEmpty() && english->load(qm)) {
            QCoreApplication::installTranslator(english);
            setup.loadedFiles.append(qm);
        } else {
            delete english;
        }
    }
    qCDebug(lcI18n) << "language" << setup.language << "files" << setup.loadedFiles;
    return setup;
}

} // namespace Callscope
