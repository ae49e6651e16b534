// Translations and version plumbing: the German .ts is complete and its placeholders match,
// the loader picks the language from the locale, the real programs speak German when asked,
// --version agrees everywhere, and a screenshot of the main window in German.

#include "tests/support/testsupport.h"
#include "ui/window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QHash>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include "translations/translationloader.h"

using namespace Qt::StringLiterals;

namespace {

struct TsMessage
{
    QString context;
    QString source;
    QStringList translations; // one per numerus form, or one
    QString type; // "unfinished", "vanished", "obsolete" or empty
    bool numerus = false;
};

std::optional<QList<TsMessage>> readTs(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return std::nullopt;
    }
    QList<TsMessage> messages;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        const auto name = xml.name();
        if (name == "name"_L1) {
            context = xml.readElementText();
        } else if (name == "message"_L1) {
            current = TsMessage {};
            current.context = context;
            current.numerus = xml.attributes().value("numerus"_L1) == "yes"_L1;
        } else if (name == "source"_L1) {
            current.source = xml.readElementText();
        } else if (name == "translation"_L1) {
            current.type = xml.attributes().value("type"_L1).toString();
            if (current.numerus) {
                while (xml.readNextStartElement()) {
                    if (xml.name() == "numerusform"_L1)
                        current.translations.append(xml.readElementText());
                    else
                        xml.skipCurrentElement();
                }
            } else {
                current.translations.append(xml.readElementText());
            }
            messages.append(current);
        }
    }
    if (xml.hasError()) {
        *error = xml.errorString();
        return std::nullopt;
    }
    return messages;
}

// The distinct placeholders of a string: %1..%9 and %n (%L1 counts as %1).
QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(u"%L?([1-9]|n)"_s);
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found.append(u'%' + it.next().captured(1));
    found.removeDuplicates();
    found.sort();
    return found;
}

struct ProcessResult
{
    int exitCode = -1;
    QString out;
    QString err;
};

ProcessResult runProgram(const QString &program, const QStringList &args,
                         const QStringList &extraEnv = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &kv : extraEnv)
        env.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    process.setProcessEnvironment(env);
    process.start(program, args);
    ProcessResult result;
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        result.err = u"did not finish: "_s + process.errorString();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

const QStringList kGermanEnv { u"LANGUAGE=de"_s, u"LANG=de_DE.UTF-8"_s, u"LC_ALL="_s,
                               u"LC_MESSAGES="_s };

} // namespace

class TestI18n final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void tsIsComplete();
    void tsCoversTheSources();
    void englishPluralsAreComplete();
    void modelFacingTextStaysEnglish();
    void loaderPicksTheLanguage();
    void cliSpeaksGerman();
    void versionsAgree();
    void mainWindowInGerman();
    void cleanup();
};

void TestI18n::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(QFile::exists(QStringLiteral(CALLSCOPE_TS_FILE)), CALLSCOPE_TS_FILE);
}

void TestI18n::cleanup()
{
    // Each test installs what it needs; none leaks into the next.
    const auto translators = qApp->findChildren<QTranslator *>();
    for (QTranslator *translator : translators) {
        QCoreApplication::removeTranslator(translator);
        delete translator;
    }
}

void TestI18n::tsIsComplete()
{
    QString error;
    const auto messages = readTs(QStringLiteral(CALLSCOPE_TS_FILE), &error);
    QVERIFY2(messages, qPrintable(error));
    QVERIFY2(messages->size() > 500, "the German .ts holds suspiciously few messages");

    QStringList problems;
    qsizetype numerusCount = 0;
    for (const TsMessage &m : *messages) {
        const QString where = m.context + u": \""_s + m.source.left(60) + u'"';
        if (!m.type.isEmpty()) {
            problems.append(where + u" is "_s + m.type);
            continue;
        }
        if (m.numerus) {
            ++numerusCount;
            // German has two plural forms.
            if (m.translations.size() != 2)
                problems.append(
                    where + u" has %1 plural forms, German needs 2"_s.arg(m.translations.size()));
        }
        const QStringList expected = placeholders(m.source);
        for (const QString &translation : m.translations) {
            if (translation.trimmed().isEmpty() && !m.source.trimmed().isEmpty()) {
                problems.append(where + u" has an empty translation"_s);
                continue;
            }
            const QStringList got = placeholders(translation);
            if (got != expected)
                problems.append(where
                                + u" placeholders %1 in the source, %2 in \"%3\""_s.arg(
                                    expected.join(u' '), got.join(u' '), translation.left(60)));
        }
    }
    qInfo("callscope_de.ts: %d messages, %d with plural forms, %d problems", int(messages->size()),
          int(numerusCount), int(problems.size()));
    QVERIFY2(problems.isEmpty(), qPrintable(u"\n"_s + problems.join(u'\n')));
}

void TestI18n::tsCoversTheSources()
{
    // Every string core/, ui/ and app/ translate has its German entry: lupdate, reading the
    // sources as they are into a copy of the .ts, finds nothing the .ts lacks.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString copy = dir.filePath(u"callscope_de.ts"_s);
    QVERIFY(QFile::copy(QStringLiteral(CALLSCOPE_TS_FILE), copy));
    QProcess lupdate;
    lupdate.setWorkingDirectory(QStringLiteral(CALLSCOPE_SOURCE_DIR));
    lupdate.setProcessChannelMode(QProcess::MergedChannels);
    lupdate.start(QStringLiteral(CALLSCOPE_LUPDATE),
                  { u"-I"_s, QStringLiteral(CALLSCOPE_SOURCE_DIR), u"core"_s, u"ui"_s, u"app"_s,
                    u"-extensions"_s, u"cpp,h"_s, u"-locations"_s, u"none"_s, u"-ts"_s, copy });
    QVERIFY2(lupdate.waitForFinished(120000), qPrintable(lupdate.errorString()));
    QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
             lupdate.readAll().constData());

    QString error;
    const auto ours = readTs(QStringLiteral(CALLSCOPE_TS_FILE), &error);
    QVERIFY2(ours, qPrintable(error));
    const auto fromSources = readTs(copy, &error);
    QVERIFY2(fromSources, qPrintable(error));
    QSet<QString> known;
    for (const TsMessage &m : *ours)
        known.insert(m.context + u'\n' + m.source);
    QStringList missing;
    for (const TsMessage &m : *fromSources) {
        if (m.type == u"obsolete" || m.type == u"vanished")
            continue;
        if (!known.contains(m.context + u'\n' + m.source))
            missing.append(m.context + u": \""_s + m.source.left(80) + u'"');
    }
    QVERIFY2(missing.isEmpty(),
             qPrintable(u"not in callscope_de.ts (run the update_translations target and "
                        "translate them):\n"_s
                        + missing.join(u'\n')));

    // Strings of the main flow that lupdate once could not see, now in German.
    const auto setup =
        Callscope::installTranslators(qApp, QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(setup.language.left(2), u"de"_s);
    QCOMPARE(QCoreApplication::translate("Store", "(and %n more problem(s))", nullptr, 3),
             u"(und 3 weitere Probleme)"_s);
    QCOMPARE(QCoreApplication::translate("CacheReport", "%n minute(s)", nullptr, 1), u"1 Minute"_s);
    QCOMPARE(
        QCoreApplication::translate("TransferController", "Exported %n call(s) to %1.", nullptr, 2),
        u"2 Aufrufe nach %1 exportiert."_s);
    QCOMPARE(QCoreApplication::translate("Callscope::TransferController", "Export call %1"),
             u"Aufruf %1 exportieren"_s);
}

void TestI18n::englishPluralsAreComplete()
{
    // callscope_en.ts holds the English forms of every %n string: "1 call", "2 calls", never
    // "1 call(s)" on screen.
    QString error;
    const auto german = readTs(QStringLiteral(CALLSCOPE_TS_FILE), &error);
    QVERIFY2(german, qPrintable(error));
    const QString englishPath =
        QStringLiteral(CALLSCOPE_SOURCE_DIR "/translations/callscope_en.ts");
    const auto english = readTs(englishPath, &error);
    QVERIFY2(english, qPrintable(englishPath + u": "_s + error));

    QHash<QString, TsMessage> byKey;
    for (const TsMessage &m : *english)
        byKey.insert(m.context + u'\n' + m.source, m);
    static const QRegularExpression choice(u"\\((s|es)\\)"_s);
    // A count written out with "(s)" ("%2 provider batch(es)") is a plural that needs %n.
    static const QRegularExpression countedChoice(u"%\\d [\\w-]+( [\\w-]+)?\\((s|es)\\)"_s);
    QStringList problems;
    qsizetype plurals = 0;
    for (const TsMessage &m : *german) {
        if (!m.numerus && m.source.contains(countedChoice))
            problems.append(m.context + u": \""_s + m.source.left(60)
                            + u"\" counts with \"(s)\": use %n"_s);
        if (!m.numerus)
            continue;
        ++plurals;
        const QString where = m.context + u": \""_s + m.source.left(60) + u'"';
        const auto it = byKey.constFind(m.context + u'\n' + m.source);
        if (it == byKey.constEnd()) {
            problems.append(where + u" has no English plural forms"_s);
            continue;
        }
        if (!it->type.isEmpty() || it->translations.size() != 2) {
            problems.append(
                where
                + u" is %1 with %2 forms in English"_s.arg(it->type).arg(it->translations.size()));
            continue;
        }
        for (const QString &form : it->translations) {
            if (form.trimmed().isEmpty() || form.contains(choice))
                problems.append(where + u": English form \""_s + form.left(60) + u'"');
        }
    }
    qInfo("callscope_en.ts: %d plural strings checked, %d problems", int(plurals),
          int(problems.size()));
    QVERIFY(plurals > 20);
    QVERIFY2(problems.isEmpty(), qPrintable(u"\n"_s + problems.join(u'\n')));
}

void TestI18n::modelFacingTextStaysEnglish()
{
    // Text the model reads must not change with the user's language: the .ts keeps such
    // strings identical to their source (see translations/README.md).
    const auto setup =
        Callscope::installTranslators(qApp, QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(setup.language.left(2), u"de"_s);
    QCOMPARE(QCoreApplication::translate("Callscope::Runner", "Output accepted."),
             u"Output accepted."_s);
    QCOMPARE(QCoreApplication::translate("JsonSchema", "missing required property %1"),
             u"missing required property %1"_s);
    // ...while text for people is German.
    QCOMPARE(QCoreApplication::translate("Cli", "unknown command '%1' (see --help)"),
             u"unbekannter Befehl „%1“ (siehe --help)"_s);
}

void TestI18n::loaderPicksTheLanguage()
{
    // English first: only the English plural forms, even with German second.
    QLocale englishFirst(QLocale::English, QLocale::UnitedStates);
    auto setup = Callscope::installTranslators(qApp, englishFirst);
    QVERIFY(setup.language.isEmpty());
    QCOMPARE(setup.loadedFiles.size(), 1);
    QVERIFY2(setup.loadedFiles.constFirst().endsWith(u"callscope_en.qm"_s),
             qPrintable(setup.loadedFiles.constFirst()));
    QCOMPARE(QCoreApplication::translate("Callscope::MainWindow", "&File"), u"&File"_s);
    // "1 tool call", "2 tool calls": no "call(s)" on screen.
    QCOMPARE(QCoreApplication::translate("Callscope::CallTab", "%n tool call(s)", nullptr, 1),
             u"1 tool call"_s);
    QCOMPARE(QCoreApplication::translate("Callscope::CallTab", "%n tool call(s)", nullptr, 2),
             u"2 tool calls"_s);
    QCOMPARE(QCoreApplication::translate("Callscope::BudgetModel", "(%n line(s))", nullptr, 1),
             u"(1 line)"_s);

    // A language without a translation falls through to English.
    setup = Callscope::installTranslators(qApp, QLocale(QLocale::Japanese, QLocale::Japan));
    QVERIFY(setup.language.isEmpty());

    // Austrian German finds callscope_de.
    setup = Callscope::installTranslators(qApp, QLocale(QLocale::German, QLocale::Austria));
    QVERIFY2(!setup.loadedFiles.isEmpty(), "no German translation found");
    QVERIFY2(setup.loadedFiles.constFirst().endsWith(u"callscope_de.qm"_s),
             qPrintable(setup.loadedFiles.constFirst()));
    QCOMPARE(QCoreApplication::translate("Callscope::MainWindow", "&File"), u"&Datei"_s);
    // Qt's own strings come along when the distribution ships them (qt6-translations-l10n).
    QVERIFY2(setup.loadedFiles.size() == 2,
             "qtbase_de.qm was not loaded: is qt6-translations-l10n installed?");
    QVERIFY2(setup.loadedFiles.at(1).endsWith(u"qtbase_de.qm"_s),
             qPrintable(setup.loadedFiles.at(1)));
}

void TestI18n::cliSpeaksGerman()
{
    const QString cli = Callscope::Test::cliPath();
    QVERIFY2(QFile::exists(cli), qPrintable(u"callscope-cli not built: "_s + cli));

    // The strings of main.cpp (context "Cli")...
    ProcessResult r = runProgram(cli, { u"no-such-command"_s }, kGermanEnv);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(u"unbekannter Befehl „no-such-command“ (siehe --help)"_s),
             qPrintable(r.err));

    // ...and those of a command file, through its file-local Q_DECLARE_TR_FUNCTIONS struct.
    r = runProgram(cli, { u"lint"_s, u"--bogus"_s }, kGermanEnv);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(u"lint: unbekannte Option --bogus (siehe lint --help)"_s),
             qPrintable(r.err));

    // English without a German locale.
    r = runProgram(cli, { u"no-such-command"_s },
                   { u"LANGUAGE="_s, u"LANG=C.UTF-8"_s, u"LC_ALL="_s });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(u"unknown command 'no-such-command'"_s), qPrintable(r.err));
}

void TestI18n::versionsAgree()
{
    const QString version = QStringLiteral(CALLSCOPE_VERSION);
    QVERIFY(!version.isEmpty());
    ProcessResult r = runProgram(Callscope::Test::cliPath(), { u"--version"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.trimmed(), u"callscope-cli "_s + version);

    // The GUI answers --version without a display (no QT_QPA_PLATFORM, no DISPLAY).
    r = runProgram(QStringLiteral(CALLSCOPE_GUI), { u"--version"_s },
                   { u"QT_QPA_PLATFORM="_s, u"DISPLAY="_s, u"WAYLAND_DISPLAY="_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.trimmed(), u"callscope "_s + version);
    r = runProgram(QStringLiteral(CALLSCOPE_GUI), { u"--help"_s }, kGermanEnv);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(u"Desktop-Studio für die Entwicklung von LLM-Aufrufen."_s),
             qPrintable(r.out));

    Callscope::MainWindow window;
    QVERIFY2(window.aboutText().contains(version), qPrintable(window.aboutText()));
}

void TestI18n::mainWindowInGerman()
{
    const auto setup =
        Callscope::installTranslators(qApp, QLocale(QLocale::German, QLocale::Germany));
    QVERIFY(!setup.loadedFiles.isEmpty());

    Callscope::MainWindow window;
    const QString sample =
        QStringLiteral(CALLSCOPE_SOURCE_DIR "/resources/samples/planner.spec.json");
    QVERIFY2(window.openSpecFile(sample), qPrintable(sample));
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QStringList titles;
    const auto actions = window.menuBar()->actions();
    for (const QAction *action : actions) {
        if (action->menu())
            titles.append(action->text());
    }
    QVERIFY2(titles.size() >= 3, qPrintable(titles.join(u", "_s)));
    QCOMPARE(titles.constFirst(), u"&Datei"_s);
    QVERIFY2(titles.contains(u"&Bearbeiten"_s), qPrintable(titles.join(u", "_s)));
    QVERIFY2(titles.contains(u"&Hilfe"_s), qPrintable(titles.join(u", "_s)));
    QCOMPARE(window.aboutAction()->text(), u"&Über Callscope"_s);

    // Let queued validation and layout settle before the picture.
    QTest::qWait(300);
    const QString path = Callscope::Test::buildPath(u"screenshots/main-window-de.png"_s);
    QFile::remove(path);
    const QPixmap shot = window.grab();
    QVERIFY(!shot.isNull());
    QVERIFY2(shot.save(path), qPrintable(path));
    QVERIFY(QFile::exists(path));
    qInfo("screenshot: %s (%dx%d)", qPrintable(path), shot.width(), shot.height());
}

QTEST_MAIN(TestI18n)
#include "tst_i18n.moc"
