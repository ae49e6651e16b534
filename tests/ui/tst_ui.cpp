// The GUI shell, offscreen: the main window with a spec loaded, the JSON highlighter, the
// findings model and its jump-to-pointer, recent files, settings, the About box, a screenshot.
// The Experiment tab: an experiment run from the window against the fake provider (the matrix
// equals the core's summary, a cell opens its call in History, two cells compare in Diff, new
// variants are written into the file), load errors with where they are, stop and resume.

#include "core/eval/experimentrun.h"
#include "core/model/specio.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/fakebatchapi.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/studiowait.h"
#include "tests/support/testsupport.h"
#include "ui/diff/diffmodel.h"
#include "ui/diff/diffview.h"
#include "ui/editor/specdocument.h"
#include "ui/editor/specformeditor.h"
#include "ui/experiments/experimentcharts.h"
#include "ui/experiments/experimentview.h"
#include "ui/experiments/matrixmodel.h"
#include "ui/experiments/newexperimentdialog.h"
#include "ui/experiments/variantwriter.h"
#include "ui/history/historybrowser.h"
#include "ui/history/historymodel.h"
#include "ui/run/runpanel.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/dialogs.h"
#include "ui/widgets/displaynames.h"
#include "ui/widgets/findingsmodel.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/jsonhighlighter.h"
#include "ui/widgets/jsonlocator.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/studioservices.h"
#include "ui/window/experimentshost.h"
#include "ui/window/historydocks.h"
#include "ui/window/mainwindow.h"
#include "ui/window/spectab.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSpinBox>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include <cmath>
#include <memory>

#include "translations/translationloader.h"

using namespace Qt::StringLiterals;
using namespace Callscope;
using Callscope::Test::specChecked;

namespace {

QString dataFile(const QString &relative)
{
    return Test::testDataPath(u"spec/"_s + relative);
}

// The formats the highlighter put on the text of `block` that covers column `column`.
QList<QTextLayout::FormatRange> formatsAt(const QTextBlock &block, int column)
{
    QList<QTextLayout::FormatRange> out;
    for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
        if (column >= range.start && column < range.start + range.length)
            out.append(range);
    }
    return out;
}

QTextBlock blockContaining(QTextDocument *document, const QString &needle)
{
    for (QTextBlock b = document->begin(); b.isValid(); b = b.next()) {
        if (b.text().contains(needle))
            return b;
    }
    return {};
}

QAction *findAction(QWidget *root, const QString &text)
{
    for (QAction *a : root->findChildren<QAction *>()) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

bool writeText(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

// The provider of the experiment tests: get_ticket first; then the input decides the title:
// "pass" gets "ok", "fail" gets "bad", "flaky" alternates ok, bad, ... per input.
Test::FakeProvider::Responder experimentResponder(int delayMs)
{
    auto counts = std::make_shared<QHash<QString, int>>();
    return [counts, delayMs](const Test::RecordedRequest &request) {
        const QJsonArray messages = request.jsonObject().value(u"messages"_s).toArray();
        QString input;
        bool hasToolResult = false;
        for (const QJsonValue &m : messages) {
            const QJsonObject message = m.toObject();
            if (message.value(u"role"_s).toString() == u"user"_s && input.isEmpty())
                input = message.value(u"content"_s).toString();
            hasToolResult |= message.value(u"role"_s).toString() == u"tool"_s;
        }
        Test::FakeReply reply;
        if (!hasToolResult) {
            reply = Test::FakeReply::json(
                200, Test::openAiToolCallBody(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }));
        } else {
            QString title = u"bad"_s;
            if (input.contains(u"pass"_s))
                title = u"ok"_s;
            else if (input.contains(u"flaky"_s))
                title = (*counts)[input]++ % 2 == 0 ? u"ok"_s : u"bad"_s;
            reply = Test::FakeReply::json(200,
                                          Test::openAiToolCallBody(u"call_2"_s, u"submit_output"_s,
                                                                   { { u"title"_s, title } }));
        }
        if (delayMs > 0)
            reply.delayedBy(delayMs);
        return reply;
    };
}

// An experiment over the fake provider in `dir`: cases pass1, fail1, flaky1 (or `cases`).
QString writeExperiment(const QTemporaryDir &dir, const QUrl &base, const QByteArray &experiment,
                        const QByteArray &cases = {})
{
    writeText(dir.filePath(u"planner.spec.json"_s),
              QJsonDocument(Test::twoTurnSpecJson(base, u"CALLSCOPE_UI_EVAL_API_KEY"_s)).toJson());
    writeText(dir.filePath(u"cases.jsonl"_s),
              cases.isEmpty()
                  ? QByteArray("{\"id\":\"pass1\",\"input\":\"Plan the pass ticket\"}\n"
                               "{\"id\":\"fail1\",\"input\":\"Plan the fail ticket\"}\n"
                               "{\"id\":\"flaky1\",\"input\":\"Plan the flaky ticket\"}\n")
                  : cases);
    const QString path = dir.filePath(u"exp.json"_s);
    writeText(path, experiment);
    return path;
}

void saveScreenshot(QWidget &widget, const QString &name)
{
    QTest::qWait(30);
    const QImage image = widget.grab().toImage();
    const QString path = Test::buildPath(u"screenshots/"_s + name + u".png"_s);
    QVERIFY2(image.save(path), qPrintable(path));
}

} // namespace

class TestUi final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void opensSpecFile();
    void highlighterAppliesFormats();
    void pointerMap_data();
    void pointerMap();
    void findingsModelIsSound();
    void brokenSpecListsErrors();
    void selectingFindingMovesCursor();
    void jsonSyntaxErrorPointsAtOffset();
    void editingRelints();
    void lintTargetOverride();
    void unreadableFileShowsMessage();
    void saveAndRecentFiles();
    void recentFilesTakeInTheFormsList();
    void geometryIsSaved();
    void menusAreComplete();
    void aboutBoxShowsVersions();
    void questionsGoThroughDialogs();
    void screenshotIsNotBlank();
    void experimentVariantText();
    void experimentLoadErrors();
    void experimentFromPromptfoo();
    void experimentNewDialog();
    void experimentFromSampleSavesWithDocuments();
    void experimentRunFromWindow();
    void experimentStopAndResume();
    void experimentThroughProviderBatches();
    void largeStoredExperimentKeepsTheWindowResponsive();

private:
    std::unique_ptr<Test::ScopedDataHome> m_home;
};

void TestUi::initTestCase()
{
    m_home = std::make_unique<Test::ScopedDataHome>();
    QVERIFY(m_home->isValid());
    QApplication::setOrganizationName(u"CallscopeTest"_s);
    QApplication::setApplicationName(u"tst_ui"_s);
    // QStandardPaths' test mode would put settings under ~/.qttest; keep them in the
    // throwaway home instead.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_home->path() + u"/config"_s);
    QSettings settings;
    QVERIFY2(settings.fileName().startsWith(m_home->path()), qPrintable(settings.fileName()));
    // The English plural forms, as the programs install them ("1 warning", not "1 warnings").
    installTranslators(qApp, QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestUi::init()
{
    QSettings().clear();
}

void TestUi::opensSpecFile()
{
    MainWindow window;
    // A fresh window starts with the new-spec template, which is a valid spec (once checked).
    QTRY_VERIFY_WITH_TIMEOUT(window.currentSpec().has_value(), 15000);
    QVERIFY(window.currentFile().isEmpty());

    const QString path = dataFile(u"valid/full.spec.json"_s);
    QVERIFY(window.openSpecFile(path) && specChecked(window));
    QCOMPARE(window.currentFile(), path);
    QCOMPARE(window.currentDocument()->text(), QString::fromUtf8(Test::readFile(path)));
    QVERIFY(!window.isModified());
    QVERIFY(window.windowTitle().startsWith(u"full.spec.json[*]"_s));
    QVERIFY(window.currentSpec().has_value());
    QCOMPARE(window.currentSpec()->kind, u"planner"_s);
    QVERIFY(window.messageBar()->isHidden());
    // full.spec.json lints for its engine (anthropic): the mcp tool without description is
    // fine; output_parser with a response schema and text_output in prompted mode are notes.
    QCOMPARE(window.lintTarget(), EngineType::Anthropic);
    QCOMPARE(window.findingsModel()->count(SpecFinding::Severity::Error), 0);
    QStringList listed;
    for (int i = 0; i < window.findingsModel()->rowCount(); ++i)
        listed << window.findingsModel()->finding(i).rule + u": "_s
                + window.findingsModel()->finding(i).message;
    // It names the profile "work" beside a base_url of its own: the key would go elsewhere.
    QVERIFY2(window.findingsModel()->rowCount() == 3, qPrintable(listed.join(u'\n')));
    QCOMPARE(window.findingsModel()->finding(0).rule, u"key-profile-redirect"_s);
    QCOMPARE(window.findingsModel()->finding(0).severity, SpecFinding::Severity::Warning);
    QCOMPARE(window.findingsModel()->finding(1).rule, u"output-parser-ignored"_s);
    QCOMPARE(window.findingsModel()->finding(1).severity, SpecFinding::Severity::Info);
    QCOMPARE(window.findingsModel()->finding(2).rule, u"text-output-ignored"_s);
    QCOMPARE(window.findingsModel()->finding(2).severity, SpecFinding::Severity::Info);
    QCOMPARE(window.findChild<QLabel *>(u"engineLabel"_s)->text(),
             u"Advice for: anthropic engine"_s);
    QCOMPARE(window.findChild<QLabel *>(u"countsLabel"_s)->text(),
             u"0 errors, 1 warning, 2 notes"_s);
}

void TestUi::highlighterAppliesFormats()
{
    JsonEditor view;
    auto *highlighter = qobject_cast<JsonHighlighter *>(view.highlighter());
    QVERIFY2(highlighter, "the built-in highlighter is used when KF6 SyntaxHighlighting is absent");
    view.setPlainText(QString::fromUtf8(Test::readFile(dataFile(u"valid/full.spec.json"_s))));
    QTextDocument *document = view.document();

    const QTextBlock kind = blockContaining(document, u"\"kind\": \"planner\""_s);
    QVERIFY(kind.isValid());
    const int keyColumn = int(kind.text().indexOf(u"\"kind\""_s));
    const int valueColumn = int(kind.text().indexOf(u"\"planner\""_s));
    const auto keyFormats = formatsAt(kind, keyColumn + 1);
    QCOMPARE(keyFormats.size(), 1);
    QCOMPARE(keyFormats.at(0).format.foreground(),
             highlighter->format(JsonToken::Key).foreground());
    QCOMPARE(keyFormats.at(0).length, 6); // "kind" with its quotes
    const auto valueFormats = formatsAt(kind, valueColumn + 1);
    QCOMPARE(valueFormats.size(), 1);
    QCOMPARE(valueFormats.at(0).format.foreground(),
             highlighter->format(JsonToken::String).foreground());
    QVERIFY(highlighter->format(JsonToken::Key).foreground()
            != highlighter->format(JsonToken::String).foreground());

    const QTextBlock turns = blockContaining(document, u"\"max_turns\": 4"_s);
    const auto number = formatsAt(turns, int(turns.text().indexOf(u'4')));
    QCOMPARE(number.size(), 1);
    QCOMPARE(number.at(0).format.foreground(), highlighter->format(JsonToken::Number).foreground());

    const QTextBlock approval = blockContaining(document, u"\"requires_approval\": true"_s);
    const auto keyword = formatsAt(approval, int(approval.text().indexOf(u"true"_s)));
    QCOMPARE(keyword.size(), 1);
    QCOMPARE(keyword.at(0).format.foreground(),
             highlighter->format(JsonToken::Keyword).foreground());

    // Edits are re-highlighted; a stray word is marked invalid.
    view.setPlainText(u"{\"a\": nope, \"b\": -1.5e3}"_s);
    const QTextBlock line = document->begin();
    QCOMPARE(formatsAt(line, 7).at(0).format.foreground(),
             highlighter->format(JsonToken::Invalid).foreground());
    QCOMPARE(formatsAt(line, 7).at(0).format.underlineStyle(), QTextCharFormat::WaveUnderline);
    QCOMPARE(formatsAt(line, 18).at(0).format.foreground(),
             highlighter->format(JsonToken::Number).foreground());
    QCOMPARE(formatsAt(line, 0).at(0).format.foreground(),
             highlighter->format(JsonToken::Punctuation).foreground());
}

void TestUi::pointerMap_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<qsizetype>("exact"); // -1: not in the map
    QTest::addColumn<qsizetype>("fallback"); // nearestStart()

    const QString doc =
        u"{\n  \"a\": [1, {\"b~c\": \"x\", \"d/e\": null}],\n  \"f\": {\"g\": true}\n}"_s;
    QTest::newRow("root") << doc << QString() << qsizetype(0) << qsizetype(0);
    QTest::newRow("member key") << doc << u"/a"_s << qsizetype(4) << qsizetype(4);
    QTest::newRow("array item") << doc << u"/a/0"_s << qsizetype(10) << qsizetype(10);
    QTest::newRow("nested object item") << doc << u"/a/1"_s << qsizetype(13) << qsizetype(13);
    QTest::newRow("escaped ~") << doc << u"/a/1/b~0c"_s << qsizetype(14) << qsizetype(14);
    QTest::newRow("escaped /") << doc << u"/a/1/d~1e"_s << qsizetype(26) << qsizetype(26);
    QTest::newRow("second member") << doc << u"/f/g"_s << qsizetype(49) << qsizetype(49);
    QTest::newRow("missing field falls back to parent")
        << doc << u"/f/missing"_s << qsizetype(-1) << qsizetype(43);
    QTest::newRow("missing index") << doc << u"/a/7"_s << qsizetype(-1) << qsizetype(4);
    QTest::newRow("broken text keeps what came before")
        << u"{\"a\": 1, \"b\": [tru"_s << u"/b/0"_s << qsizetype(15) << qsizetype(15);
    QTest::newRow("after a syntax error")
        << u"{\"a\": 1 \"b\": 2}"_s << u"/b"_s << qsizetype(-1) << qsizetype(0);
}

void TestUi::pointerMap()
{
    QFETCH(QString, text);
    QFETCH(QString, pointer);
    QFETCH(qsizetype, exact);
    QFETCH(qsizetype, fallback);
    const JsonLocator locator(text);
    const auto position = locator.start(pointer);
    QCOMPARE(qsizetype(position.value_or(-1)), exact);
    QCOMPARE(qsizetype(locator.nearestStart(pointer)), fallback);
}

void TestUi::findingsModelIsSound()
{
    SpecFindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 4);
    using S = SpecFinding::Severity;
    using Src = SpecFinding::Source;
    model.setFindings(
        { { S::Error, Src::Spec, u"/tools/0/name"_s, u"must not be empty"_s, {}, 0, 0, {} },
          { S::Warning, Src::Lint, u"/tools"_s, u"too many"_s, u"tool-count"_s, 0, 0, {} },
          { S::Info, Src::Lint, QString(), u"note"_s, u"x"_s, 0, 0, {} },
          { S::Error, Src::Json, QString(), u"bad JSON"_s, {}, 12, 3, {} } });
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(0, SpecFindingsModel::SeverityColumn).data().toString(), u"Error"_s);
    QCOMPARE(model.index(0, SpecFindingsModel::LocationColumn).data().toString(),
             u"/tools/0/name"_s);
    // The rule in words; its id stays in the tooltip and the role.
    QCOMPARE(model.index(1, SpecFindingsModel::RuleColumn).data().toString(),
             u"No more tools than the provider accepts (OpenAI 128, Anthropic 64)"_s);
    QVERIFY2(
        model.index(1, SpecFindingsModel::MessageColumn)
            .data(Qt::ToolTipRole)
            .toString()
            .endsWith(u"Rule id: tool-count"_s),
        qPrintable(
            model.index(1, SpecFindingsModel::MessageColumn).data(Qt::ToolTipRole).toString()));
    QCOMPARE(model.index(1, SpecFindingsModel::MessageColumn).data().toString(), u"too many"_s);
    QCOMPARE(model.index(2, SpecFindingsModel::LocationColumn).data().toString(), u"(document)"_s);
    QCOMPARE(model.index(3, SpecFindingsModel::LocationColumn).data().toString(),
             u"line 12, column 3"_s);
    QCOMPARE(model.index(3, 0).data(SpecFindingsModel::LineRole).toInt(), 12);
    QCOMPARE(model.index(3, 0).data(SpecFindingsModel::ColumnRole).toInt(), 3);
    QCOMPARE(model.index(1, 2).data(SpecFindingsModel::PointerRole).toString(), u"/tools"_s);
    QCOMPARE(model.index(1, 2).data(SpecFindingsModel::RuleRole).toString(), u"tool-count"_s);
    QCOMPARE(model.index(0, 2).data(Qt::ToolTipRole).toString(),
             u"/tools/0/name: must not be empty"_s);
    QVERIFY(!model.index(0, SpecFindingsModel::SeverityColumn)
                 .data(Qt::DecorationRole)
                 .value<QIcon>()
                 .isNull());
    QCOMPARE(model.headerData(SpecFindingsModel::MessageColumn, Qt::Horizontal).toString(),
             u"Message"_s);
    QCOMPARE(model.count(SpecFinding::Severity::Warning), 1);
    QCOMPARE(model.count(SpecFinding::Severity::Error), 2);
    QCOMPARE(model.errorCount(), 2);
    model.setFindings({});
    QCOMPARE(model.rowCount(), 0);

    // Every rule the linter can report has its summary in lintRules(), and a failed schema
    // keyword says that it is one.
    QFile lint(QStringLiteral(CALLSCOPE_SOURCE_DIR "/core/schema/lint.cpp"));
    QVERIFY2(lint.open(QIODevice::ReadOnly), qPrintable(lint.fileName()));
    const QString source = QString::fromUtf8(lint.readAll());
    static const QRegularExpression ruleId(
        u"(?:warn|info)\\([^;]*?u\"([a-z0-9]+(?:-[a-z0-9]+)+)\"_s"_s);
    QStringList unnamed;
    int rules = 0;
    for (auto it = ruleId.globalMatch(source); it.hasNext();) {
        const QString rule = it.next().captured(1);
        ++rules;
        if (lintRuleDisplayName(rule) == rule)
            unnamed.append(rule);
    }
    QVERIFY2(rules >= 25, qPrintable(u"found only %1 rules in lint.cpp"_s.arg(rules)));
    QVERIFY2(unnamed.isEmpty(), qPrintable(u"rules shown as their id: "_s + unnamed.join(u", "_s)));
    QCOMPARE(lintRuleDisplayName(u"strict-additional-properties"_s),
             u"OpenAI strict: additionalProperties false on every object"_s);
    QCOMPARE(lintRuleDisplayName(u"type"_s), u"Schema keyword \"type\""_s);

    // The window's own model, through a real load.
    MainWindow window;
    QAbstractItemModelTester windowTester(window.findingsModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(window.openSpecFile(dataFile(u"broken/wrong-types.spec.json"_s))
            && specChecked(window));
    QCOMPARE(window.findingsModel()->rowCount(), 11);
    QVERIFY(window.openSpecFile(dataFile(u"lint/names.spec.json"_s)) && specChecked(window));
    QCOMPARE(window.findingsModel()->rowCount(), 6);
}

void TestUi::brokenSpecListsErrors()
{
    MainWindow window;
    const QString path = dataFile(u"broken/wrong-types.spec.json"_s);
    QVERIFY(window.openSpecFile(path) && specChecked(window));
    QVERIFY(!window.currentSpec().has_value());
    const SpecLoadResult expected = loadSpecFile(path);
    SpecFindingsModel *model = window.findingsModel();
    QCOMPARE(model->rowCount(), int(expected.errors.size()));
    for (int row = 0; row < model->rowCount(); ++row) {
        QCOMPARE(model->finding(row).severity, SpecFinding::Severity::Error);
        QCOMPARE(model->finding(row).pointer, expected.errors.at(row).pointer);
        QCOMPARE(model->finding(row).message, expected.errors.at(row).message);
    }
    NoticeBar *bar = window.messageBar();
    QVERIFY(!bar->isHidden());
    QCOMPARE(bar->kind(), NoticeBar::Kind::Error);
    QCOMPARE(bar->text(),
             u"This spec cannot run: /kind: expected a string, got an integer (and 10 more "
             "problems in Findings)"_s);
    QCOMPARE(window.findingsDock()->windowTitle(), u"Findings (11)"_s);

    // A valid spec opens in a tab of its own, with no bar; the broken one keeps its own.
    QVERIFY(window.openSpecFile(dataFile(u"lint/clean.spec.json"_s)) && specChecked(window));
    QVERIFY(window.messageBar() != bar);
    QVERIFY(window.messageBar()->isHidden());
    QVERIFY(!bar->text().isEmpty());
    QCOMPARE(window.findingsModel()->rowCount(), 0);
    QCOMPARE(window.findingsDock()->windowTitle(), u"Findings"_s);
    // Fixing the text clears it.
    window.documentTabs()->setCurrentIndex(0);
    QCOMPARE(window.messageBar(), bar);
    window.currentDocument()->replaceText(
        QString::fromUtf8(Test::readFile(dataFile(u"lint/clean.spec.json"_s))));
    window.revalidate();
    QVERIFY(specChecked(window));
    QVERIFY(bar->isHidden());
}

void TestUi::selectingFindingMovesCursor()
{
    MainWindow window;
    const QString path = dataFile(u"broken/input-schema-string.spec.json"_s);
    QVERIFY(window.openSpecFile(path) && specChecked(window));
    QCOMPARE(window.findingsModel()->rowCount(), 1);
    QCOMPARE(window.findingsModel()->finding(0).pointer, u"/tools/2/input_schema"_s);

    const QString text = window.currentDocument()->text();
    const qsizetype expected = text.indexOf(u"\"input_schema\": \"object\""_s);
    QVERIFY(expected > 0);
    QVERIFY(window.jsonView()->textCursor().position() != expected);
    window.findingsView()->setCurrentIndex(
        window.findingsModel()->index(0, SpecFindingsModel::MessageColumn));
    QCOMPARE(window.jsonView()->textCursor().position(), int(expected));
    // The text comes forward when the form tab hid it.
    QCOMPARE(window.editorTabs()->currentWidget(), static_cast<QWidget *>(window.jsonView()));
    QCOMPARE(window.jsonView()->textCursor().blockNumber(), 5);

    // A missing field points at the object that lacks it.
    QVERIFY(window.openSpecFile(dataFile(u"broken/replay-without-recording.spec.json"_s))
            && specChecked(window));
    window.findingsView()->setCurrentIndex(window.findingsModel()->index(0, 0));
    QCOMPARE(window.jsonView()->textCursor().position(),
             int(window.currentDocument()->text().indexOf(u"\"engine\""_s)));
}

void TestUi::jsonSyntaxErrorPointsAtOffset()
{
    MainWindow window;
    QVERIFY(window.openSpecFile(dataFile(u"broken/bad-json.spec.json"_s)) && specChecked(window));
    QCOMPARE(window.findingsModel()->rowCount(), 1);
    const SpecFinding f = window.findingsModel()->finding(0);
    QCOMPARE(f.pointer, QString());
    QCOMPARE(f.message, u"line 3, column 16: object is missing after a comma"_s);
    window.findingsView()->setCurrentIndex(window.findingsModel()->index(0, 0));
    const QTextCursor cursor = window.jsonView()->textCursor();
    QCOMPARE(cursor.blockNumber() + 1, 3);
    QCOMPARE(cursor.positionInBlock() + 1, 16);
}

void TestUi::editingRelints()
{
    MainWindow window;
    QVERIFY(window.openSpecFile(dataFile(u"lint/clean.spec.json"_s)) && specChecked(window));
    QCOMPARE(window.findingsModel()->rowCount(), 0);
    QPlainTextEdit *editor = window.jsonView();
    QTextCursor cursor(editor->document());
    const qsizetype at = window.currentDocument()->text().indexOf(u"\"get_ticket\""_s);
    cursor.setPosition(int(at + 1));
    cursor.insertText(u"X"_s); // "Xget_ticket": not snake_case any more
    QVERIFY(window.isModified());
    QVERIFY(window.isWindowModified());
    QTRY_COMPARE(window.findingsModel()->rowCount(), 1);
    QCOMPARE(window.findingsModel()->finding(0).rule, u"tool-name-snake-case"_s);
    QCOMPARE(window.findingsModel()->finding(0).pointer, u"/tools/0/name"_s);
    // Undo goes through the Edit menu action.
    QAction *undo = findAction(&window, u"&Undo"_s);
    QVERIFY(undo && undo->isEnabled());
    undo->trigger();
    QTRY_COMPARE(window.findingsModel()->rowCount(), 0);
    QVERIFY(!window.isModified());
}

void TestUi::lintTargetOverride()
{
    MainWindow window;
    QVERIFY(window.openSpecFile(dataFile(u"lint/names.spec.json"_s)) && specChecked(window));
    QCOMPARE(window.lintTarget(), EngineType::OpenAI);
    auto providerRows = [&window] {
        QStringList pointers;
        for (const SpecFinding &f : window.findingsModel()->findings()) {
            if (f.rule == u"tool-name-provider")
                pointers.append(f.pointer);
        }
        return pointers;
    };
    QCOMPARE(providerRows(), (QStringList { u"/tools/2/name"_s, u"/tools/3/name"_s }));
    QAction *gemini = nullptr;
    for (QAction *a : window.findChildren<QAction *>()) {
        if (a->data().toString() == u"gemini")
            gemini = a;
    }
    QVERIFY(gemini);
    gemini->trigger();
    QCOMPARE(window.lintTarget(), EngineType::Gemini);
    QVERIFY(gemini->isChecked());
    // The findings follow once the spec is checked again for the other engine.
    QTRY_COMPARE_WITH_TIMEOUT(providerRows(), QStringList { u"/tools/4/name"_s }, 15000);
    window.setLintTargetOverride(std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(window.lintTarget(), EngineType::OpenAI, 15000);
    QVERIFY(!gemini->isChecked());
}

void TestUi::unreadableFileShowsMessage()
{
    MainWindow window;
    const QString missing = dataFile(u"nope/missing.spec.json"_s);
    QVERIFY(!window.openSpecFile(missing));
    NoticeBar *bar = window.messageBar();
    QVERIFY(!bar->isHidden());
    QCOMPARE(bar->kind(), NoticeBar::Kind::Error);
    QCOMPARE(bar->text(), u"Cannot open "_s + missing + u": No such file or directory"_s);
    QVERIFY(window.currentFile().isEmpty()); // the template stays
    QVERIFY(!window.recentFiles().contains(missing));
}

void TestUi::saveAndRecentFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString first = dataFile(u"valid/minimal.spec.json"_s);
    const QString second = dataFile(u"lint/clean.spec.json"_s);
    {
        MainWindow window;
        QVERIFY(window.openSpecFile(first) && specChecked(window));
        QVERIFY(window.openSpecFile(second) && specChecked(window));
        QCOMPARE(window.recentFiles(), (QStringList { second, first }));
        QVERIFY(window.openSpecFile(first) && specChecked(window));
        QCOMPARE(window.recentFiles(), (QStringList { first, second }));

        // Save As writes the editor text byte for byte and becomes the current file.
        window.jsonView()->appendPlainText(u"\n"_s);
        QVERIFY(window.isModified());
        const QString copy = dir.filePath(u"copy.spec.json"_s);
        QVERIFY(!window.saveToFile(copy).has_value());
        QVERIFY(!window.isModified());
        QCOMPARE(window.currentFile(), copy);
        QCOMPARE(QString::fromUtf8(Test::readFile(copy)), window.currentDocument()->text());
        QCOMPARE(window.recentFiles().constFirst(), copy);
        const auto failed = window.saveToFile(dir.filePath(u"no/such/dir/x.json"_s));
        QVERIFY(failed.has_value());
        QVERIFY(!window.messageBar()->isHidden());
    }
    // A new window reads the list back and offers it in File > Open Recent.
    MainWindow again;
    QCOMPARE(again.recentFiles().size(), 3);
    QMenu *recent = nullptr;
    // One list: the window's (the spec form has none of its own).
    int recentMenus = 0;
    for (QMenu *menu : again.findChildren<QMenu *>()) {
        if (menu->title() == u"Open &Recent") {
            recent = menu;
            ++recentMenus;
        }
    }
    QVERIFY(recent);
    QCOMPARE(recentMenus, 1);
    QStringList paths;
    for (QAction *a : recent->actions()) {
        if (!a->data().toString().isEmpty())
            paths.append(a->data().toString());
    }
    QCOMPARE(paths, again.recentFiles());
    QCOMPARE(recent->actions().constFirst()->text(), u"&1 copy.spec.json"_s);
    recent->actions().at(1)->trigger(); // opens `first`
    QCOMPARE(again.currentFile(), first);
    // The recent list never grows past its cap.
    for (int i = 0; i < MainWindow::kMaxRecentFiles + 2; ++i) {
        const QString path = dir.filePath(u"s%1.spec.json"_s.arg(i));
        QVERIFY(!again.saveToFile(path).has_value());
    }
    QCOMPARE(again.recentFiles().size(), MainWindow::kMaxRecentFiles);
}

void TestUi::recentFilesTakeInTheFormsList()
{
    // The spec form once kept its own recent files under "editor/recentFiles": the first window
    // takes them into the one list, after its own, and the old key goes.
    const QString mine = QFileInfo(dataFile(u"valid/minimal.spec.json"_s)).absoluteFilePath();
    const QString formOnly = QFileInfo(dataFile(u"lint/clean.spec.json"_s)).absoluteFilePath();
    QSettings().setValue(u"recentFiles"_s, QStringList { mine });
    QSettings().setValue(u"editor/recentFiles"_s, QStringList { formOnly, mine });
    {
        MainWindow window;
        QCOMPARE(window.recentFiles(), (QStringList { mine, formOnly }));
        QVERIFY(!QSettings().contains(u"editor/recentFiles"_s));
        QCOMPARE(window.recentList()->count(), 2);
        QCOMPARE(window.recentList()->item(1)->data(Qt::UserRole).toString(), formOnly);
        // Merged once: a later window keeps the list as it was left.
        QSettings().setValue(u"recentFiles"_s, QStringList { mine });
    }
    MainWindow again;
    QCOMPARE(again.recentFiles(), QStringList { mine });
    QSettings().remove(u"recentFiles"_s);
}

void TestUi::geometryIsSaved()
{
    {
        MainWindow window;
        window.resize(900, 650);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.findingsDock()->hide();
        QVERIFY(window.close());
    }
    QSettings settings;
    QVERIFY(!settings.value(u"mainWindow/geometry"_s).toByteArray().isEmpty());
    QVERIFY(!settings.value(u"mainWindow/state"_s).toByteArray().isEmpty());
    MainWindow restored;
    QCOMPARE(restored.size(), QSize(900, 650));
    restored.show();
    QVERIFY(QTest::qWaitForWindowExposed(&restored));
    QVERIFY(restored.findingsDock()->isHidden());
}

void TestUi::menusAreComplete()
{
    MainWindow window;
    QStringList menus;
    for (QAction *a : window.menuBar()->actions())
        menus.append(a->text());
    QCOMPARE(menus,
             (QStringList { u"&File"_s, u"&Edit"_s, u"&View"_s, u"&Run"_s, u"E&xperiment"_s,
                            u"&History"_s, u"&Help"_s }));
    for (const QString &text :
         { u"&New Spec"_s, u"&Open…"_s, u"Save &As…"_s, u"&Save"_s, u"&Quit"_s, u"&Undo"_s,
           u"&Redo"_s, u"&Lint Now"_s, u"&About Callscope"_s, u"About &Qt"_s })
        QVERIFY2(findAction(&window, text), qPrintable(text));
    QCOMPARE(findAction(&window, u"&Open…"_s)->shortcut(), QKeySequence(QKeySequence::Open));
    QCOMPARE(findAction(&window, u"&Save"_s)->shortcut(), QKeySequence(QKeySequence::Save));
    QVERIFY(window.statusBar());
    QCOMPARE(window.dockWidgetArea(window.findingsDock()), Qt::BottomDockWidgetArea);
}

void TestUi::aboutBoxShowsVersions()
{
    MainWindow window;
    const QString text = window.aboutText();
    QVERIFY2(text.contains(u"Qt "_s + QString::fromLatin1(qVersion())), qPrintable(text));
    QVERIFY(text.contains(u"Callscope "_s + QStringLiteral(CALLSCOPE_VERSION)));
    QVERIFY(text.contains(u"QtKeychain 0."_s));
    QVERIFY(text.contains(u"built-in JSON highlighter"_s));
    window.show();
    window.aboutAction()->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"aboutBox"_s)) != nullptr);
    QTRY_VERIFY(box->isVisible());
    QCOMPARE(box->text(), text);
    QVERIFY(!box->isModal() || box->windowModality() == Qt::WindowModal); // open(), not exec()
    box->close();
}

void TestUi::questionsGoThroughDialogs()
{
    // With a responder installed, the unsaved-changes question and the About notice are put to
    // it: no box opens, and its answer decides.
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.newSpec();
    QTabWidget *tabs = window.documentTabs();
    QCOMPARE(tabs->count(), 2);
    window.jsonView()->appendPlainText(u" "_s);
    QVERIFY(window.isModified());

    QStringList asked;
    QMessageBox::StandardButton reply = QMessageBox::Cancel;
    Dialogs::setResponder([&asked, &reply](const QString &title, const QString &text,
                                           QMessageBox::StandardButtons buttons) {
        asked.append(title + u": "_s + text);
        return buttons.testFlag(reply) ? reply : QMessageBox::NoButton;
    });
    const auto removeResponder = qScopeGuard([] { Dialogs::setResponder({}); });

    window.closeDocumentTab(tabs->currentIndex());
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.constFirst().startsWith(u"Unsaved Changes: "_s), qPrintable(asked.constFirst()));
    QVERIFY(!window.findChild<QMessageBox *>(u"unsavedChangesBox"_s));
    QCOMPARE(tabs->count(), 2); // Cancel: the tab stays, changes and all
    QVERIFY(window.isModified());

    reply = QMessageBox::Discard;
    window.closeDocumentTab(tabs->currentIndex());
    QCOMPARE(asked.size(), 2);
    QCOMPARE(tabs->count(), 1);
    QVERIFY(!window.isModified());

    window.aboutAction()->trigger();
    QCOMPARE(asked.size(), 3);
    QVERIFY2(asked.last().startsWith(u"About Callscope: "_s), qPrintable(asked.last()));
    QVERIFY(asked.last().contains(QStringLiteral(CALLSCOPE_VERSION)));
    QVERIFY(!window.findChild<QMessageBox *>(u"aboutBox"_s));
}

void TestUi::screenshotIsNotBlank()
{
    MainWindow window;
    window.resize(1200, 800);
    QVERIFY(window.openSpecFile(dataFile(u"lint/strict.spec.json"_s)) && specChecked(window));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.findingsModel()->rowCount() > 5);
    window.findingsView()->setCurrentIndex(window.findingsModel()->index(1, 0));
    QTest::qWait(50);
    const QImage image = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QString path = Test::buildPath(u"screenshots/main-window.png"_s);
    QVERIFY2(image.save(path), qPrintable(path));
    QCOMPARE(image.size(), QSize(1200, 800) * window.devicePixelRatio());

    // Not blank: the grey levels vary, and many colours appear (highlighting, icons, text).
    double sum = 0;
    double sumSquares = 0;
    QSet<QRgb> colours;
    qint64 count = 0;
    for (int y = 0; y < image.height(); y += 2) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); x += 2) {
            const double grey = qGray(line[x]);
            sum += grey;
            sumSquares += grey * grey;
            colours.insert(line[x]);
            ++count;
        }
    }
    const double mean = sum / double(count);
    const double variance = sumSquares / double(count) - mean * mean;
    QVERIFY2(variance > 100, qPrintable(u"grey variance %1"_s.arg(variance)));
    QVERIFY2(colours.size() > 50, qPrintable(u"%1 colours"_s.arg(colours.size())));
}

void TestUi::experimentVariantText()
{
    const QJsonObject variant { { u"name"_s, u"v2"_s }, { u"system_prompt"_s, u"Plan well."_s } };
    QCOMPARE(variantText(variant, 4), u"{ \"name\": \"v2\", \"system_prompt\": \"Plan well.\" }"_s);
    // A long one: one key a line, name first.
    const QJsonObject longer { { u"name"_s, u"zz"_s }, { u"a"_s, QString(90, u'x') } };
    QVERIFY(variantText(longer, 4).startsWith(u"{ \"name\": \"zz\",\n      \"a\": "_s));

    // After the last variant, indented like it; the rest of the text stays as it was.
    const QString multi =
        u"{ \"spec\": \"s.json\",\n  \"variants\": [ { \"name\": \"a\" },\n                { \"name\": \"b\" } ],\n  \"repeat\": 2 }\n"_s;
    QString error;
    auto out = insertVariant(multi, variant, QString(), &error);
    QVERIFY2(out, qPrintable(error));
    QCOMPARE(
        *out,
        u"{ \"spec\": \"s.json\",\n  \"variants\": [ { \"name\": \"a\" },\n                { "
        u"\"name\": \"b\" },\n"
        "                { \"name\": \"v2\", \"system_prompt\": \"Plan well.\" } ],\n  \"repeat\": 2 }\n"_s);
    // Variants on one line stay on one line.
    out = insertVariant(u"{\"variants\":[{\"name\":\"a\"}],\"spec\":{}}"_s, variant, QString(),
                        &error);
    QVERIFY(out);
    QCOMPARE(
        *out,
        u"{\"variants\":[{\"name\":\"a\"}, { \"name\": \"v2\", \"system_prompt\": \"Plan well.\" }],\"spec\":{}}"_s);
    // No variants yet: the array, with the variant the experiment ran so far first.
    out = insertVariant(u"{\n  \"spec\": \"s.json\",\n  \"dataset\": \"c.jsonl\"\n}\n"_s, variant,
                        u"planner"_s, &error);
    QVERIFY(out);
    const QJsonObject parsed = QJsonDocument::fromJson(out->toUtf8()).object();
    QCOMPARE(parsed.value(u"variants"_s).toArray(),
             (QJsonArray { QJsonObject { { u"name"_s, u"planner"_s } }, variant }));
    QVERIFY(out->startsWith(
        u"{\n  \"spec\": \"s.json\",\n  \"dataset\": \"c.jsonl\",\n  \"variants\": ["_s));
    // Not JSON: said so, nothing written.
    QVERIFY(!insertVariant(u"{ \"spec\": "_s, variant, QString(), &error));
    QVERIFY2(error.contains(u"not a JSON object"_s), qPrintable(error));
}

void TestUi::experimentLoadErrors()
{
    QTemporaryDir dir;
    Test::FakeProvider server;
    QVERIFY(server.listen());
    const QString path = writeExperiment(
        dir, server.baseUrl(),
        R"({"spec": "planner.spec.json", "dataset": "cases.jsonl",
                                             "assert": [{"type": "equal", "pointer": "/title", "value": "ok"},
                                                        {"type": "equals", "pointer": "title", "value": "ok"}]})",
        "{\"id\":\"a\",\"input\":\"x\"}\nnot json\n{\"id\":\"b\",\"input\":\"{{who}}\"}\n");
    MainWindow window;
    ExperimentView *view = window.experiments()->view();
    // Dropped onto the Experiment tab, the file opens (and the tab comes to the front).
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(path) });
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view, &drop);
    QCOMPARE(view->filePath(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(window.documentTabs()->currentWidget(), static_cast<QWidget *>(view));
    QCOMPARE(view->state(), ExperimentView::State::Invalid);
    QVERIFY(!view->runButton()->isEnabled());
    QStringList rows;
    for (int r = 0; r < view->errorsView()->rowCount(); ++r)
        rows.append(view->errorsView()->item(r, 0)->text() + u" | "_s
                    + view->errorsView()->item(r, 1)->text());
    const QString all = rows.join(u"\n"_s);
    // Each fault with where it is: the assertion's pointer, the dataset's file and line.
    QVERIFY2(all.contains(u"/assert/0"_s), qPrintable(all));
    QVERIFY2(all.contains(u"/assert/1"_s), qPrintable(all));
    QVERIFY2(all.contains(u"cases.jsonl:2"_s), qPrintable(all));
    QVERIFY2(view->statusLabel()->text().contains(u"nothing was sent"_s),
             qPrintable(view->statusLabel()->text()));
    QCOMPARE(server.requestCount(), 0);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    saveScreenshot(window, u"experiment-load-errors"_s);
}

// A promptfoo configuration opens as an experiment: parts Callscope cannot take are listed with
// their places and can be left out; a new variant goes into a Callscope experiment saved beside
// it, never into the YAML file.
void TestUi::experimentFromPromptfoo()
{
    QTemporaryDir dir;
    const QString unsupported = dir.filePath(u"unsupported.yaml"_s);
    const QString capitals = dir.filePath(u"promptfooconfig.yaml"_s);
    QVERIFY(QFile::copy(Test::testDataPath(u"promptfoo/unsupported/promptfooconfig.yaml"_s),
                        unsupported));
    QVERIFY(
        QFile::copy(Test::testDataPath(u"promptfoo/capitals/promptfooconfig.yaml"_s), capitals));
    const QByteArray yamlBefore = Test::readFile(capitals);

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ExperimentView *view = window.experiments()->view();
    // Opened like a spec, it goes to the Experiment tab.
    window.openSpecFile(unsupported); // false: it cannot run as it is
    QCOMPARE(view->filePath(), QFileInfo(unsupported).absoluteFilePath());
    QCOMPARE(view->state(), ExperimentView::State::Invalid);
    QVERIFY(view->leaveOutButton()->isVisible());
    QStringList rows;
    for (int r = 0; r < view->errorsView()->rowCount(); ++r)
        rows.append(view->errorsView()->item(r, 0)->text());
    QVERIFY2(rows.size() >= 4, qPrintable(rows.join(u", "_s)));
    for (const QString &place : std::as_const(rows))
        QVERIFY2(place.startsWith(u"unsupported.yaml:"_s), qPrintable(place));
    saveScreenshot(window, u"experiment-promptfoo-unsupported"_s);

    QTest::mouseClick(view->leaveOutButton(), Qt::LeftButton);
    QCOMPARE(view->state(), ExperimentView::State::Ready);
    QCOMPARE(view->skippedParts().size(), rows.size());
    QVERIFY2(view->noticeBar()->text().contains(u"were left out"_s),
             qPrintable(view->noticeBar()->text()));
    QCOMPARE(view->matrixModel()->rowCount(), 1);
    QVERIFY(view->runButton()->isEnabled());

    // Another configuration starts without the choice made for the first.
    QVERIFY(view->openFile(capitals));
    QCOMPARE(view->state(), ExperimentView::State::Ready);
    QVERIFY(!view->leaveOutButton()->isVisible());
    QCOMPARE(view->matrixModel()->columnCount(), 2);
    QCOMPARE(view->matrixModel()->rowCount(), 3);

    const QJsonObject variant { { u"name"_s, u"terse"_s },
                                { u"system_prompt"_s, u"Answer with the city only."_s } };
    const auto added = view->addVariant(variant);
    QVERIFY2(!added,
             qPrintable(added.value_or(QString()) + u"\n"_s
                        + (view->loadErrors().isEmpty() ? QString()
                                                        : view->loadErrors().first().toString())));
    const QString saved = dir.filePath(u"promptfooconfig.experiment.json"_s);
    QCOMPARE(view->filePath(), QFileInfo(saved).absoluteFilePath());
    QCOMPARE(Test::readFile(capitals), yamlBefore);
    QCOMPARE(view->matrixModel()->columnCount(), 3);
    QCOMPARE(view->matrixModel()->rowCount(), 3);
    QVERIFY2(view->noticeBar()->text().contains(u"promptfooconfig.yaml"_s),
             qPrintable(view->noticeBar()->text()));
    const QJsonObject written = QJsonDocument::fromJson(Test::readFile(saved)).object();
    // Each promptfoo prompt is a variant's input: the new variant sends the first one's.
    QJsonObject withInput = variant;
    withInput.insert(u"input"_s, *view->experiment()->variants.constFirst().input);
    QCOMPARE(written.value(u"variants"_s).toArray().last().toObject(), withInput);
    QVERIFY2(view->noticeBar()->text().contains(u"sends the input of"_s),
             qPrintable(view->noticeBar()->text()));
    // The saved experiment stands alone: it loads from its own file with the same cases.
    const ExperimentLoad again = loadExperimentFile(saved);
    QVERIFY(again.experiment);
    QCOMPARE(again.experiment->rows.size(), 3);
    QCOMPARE(again.experiment->variants.size(), 3);

    // The configuration again: the experiment beside it is not overwritten.
    QVERIFY(view->openFile(capitals));
    const QByteArray savedBefore = Test::readFile(saved);
    const QString refused =
        view->addVariant(QJsonObject { { u"name"_s, u"other"_s } }).value_or(QString());
    QVERIFY2(refused.contains(u"exists already"_s), qPrintable(refused));
    QCOMPARE(Test::readFile(saved), savedBefore);
    QCOMPARE(Test::readFile(capitals), yamlBefore);
}

// An experiment made from a bundled sample is the user's work: Save offers their documents (or
// home folder), not the studio's hidden data folder the sample lives in.
void TestUi::experimentFromSampleSavesWithDocuments()
{
    const QString appData = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QVERIFY(QDir().mkpath(appData + u"/samples"_s));
    const QString specPath = appData + u"/samples/planner.spec.json"_s;
    QVERIFY(writeText(specPath,
                      QJsonDocument(Test::twoTurnSpecJson(QUrl(u"http://127.0.0.1:9"_s),
                                                          u"CALLSCOPE_UI_EVAL_API_KEY"_s))
                          .toJson()));
    NewExperimentDialog dialog(specPath, nullptr);
    dialog.show();
    QTableWidget *cases = dialog.casesTable();
    cases->insertRow(0);
    cases->setItem(0, 0, new QTableWidgetItem(u"case1"_s));
    cases->setItem(0, 1, new QTableWidgetItem(u"Plan ticket 7."_s));
    cases->setItem(0, 2, new QTableWidgetItem);
    cases->setItem(0, 3, new QTableWidgetItem);
    dialog.createButton()->click();
    auto *save = dialog.findChild<QFileDialog *>(u"newExperimentSaveDialog"_s);
    QVERIFY(save);
    const QString offered = QDir(save->directory()).absolutePath();
    QVERIFY2(!offered.startsWith(appData), qPrintable(offered));
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    QVERIFY2(
        offered == QDir(QFileInfo(documents).isDir() ? documents : QDir::homePath()).absolutePath(),
        qPrintable(offered));
    save->reject();
}

void TestUi::experimentNewDialog()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(u"specs"_s) && QDir(dir.path()).mkpath(u"experiments"_s));
    const QString specPath = dir.filePath(u"specs/planner.spec.json"_s);
    QVERIFY(writeText(specPath,
                      QJsonDocument(Test::twoTurnSpecJson(QUrl(u"http://127.0.0.1:9"_s),
                                                          u"CALLSCOPE_UI_EVAL_API_KEY"_s))
                          .toJson()));
    const QString path = dir.filePath(u"experiments/planner-new.experiment.json"_s);
    MainWindow window;
    QVERIFY(window.openSpecFile(specPath) && specChecked(window));
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ExperimentView *view = window.experiments()->view();
    QVERIFY(window.experiments()->newAction()->isEnabled());
    QVERIFY(window.experiments()->menu()->actions().contains(window.experiments()->newAction()));
    QVERIFY(view->emptyNewButton() && view->newButton());

    // From the button on the empty page; the spec in the editor (saved) is where it starts.
    window.experiments()->showView();
    saveScreenshot(window, u"experiment-empty"_s);
    QTest::mouseClick(view->emptyNewButton(), Qt::LeftButton);
    auto *dialog = view->findChild<NewExperimentDialog *>();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QCOMPARE(QFileInfo(dialog->specEdit()->text()).canonicalFilePath(),
             QFileInfo(specPath).canonicalFilePath());
    QCOMPARE(dialog->variantCount(), 1);
    QCOMPARE(dialog->variantNameEdit(0)->text(), u"base"_s);
    QCOMPARE(dialog->variantJsonEdit(0)->toPlainText(), u"{}"_s);
    QVERIFY(dialog->datasetInlineRadio()->isChecked());

    dialog->nameEdit()->setText(u"planner-new"_s);
    dialog->repeatSpin()->setValue(2);
    auto *addCase = dialog->findChild<QPushButton *>(u"newExperimentAddCase"_s);
    QVERIFY(addCase);
    addCase->click();
    addCase->click();
    QTableWidget *cases = dialog->casesTable();
    QCOMPARE(cases->rowCount(), 2);
    cases->item(0, 0)->setText(u"pass1"_s);
    cases->item(0, 1)->setText(u"Plan the pass ticket"_s);
    cases->item(0, 2)->setText(uR"({"ticket": 7})"_s);
    cases->item(0, 3)->setText(uR"({"title": "ok"})"_s);
    cases->item(1, 0)->setText(u"fail1"_s);
    cases->item(1, 1)->setText(u"Plan the fail ticket"_s);
    cases->item(1, 3)->setText(u"not json, a plain text"_s);
    // Calls at once and the way they are sent: direct with 3 in flight.
    QCOMPARE(dialog->jobsSpin()->value(), 0);
    QCOMPARE(dialog->viaCombo()->currentData().toString(), u"direct"_s);
    dialog->jobsSpin()->setValue(3);
    QCOMPARE(dialog->addVariant(u"one turn"_s, uR"({"max_turns": 1})"_s), 1);

    // Every type the core knows, each with its template; a new type replaces an untouched template.
    QCOMPARE(dialog->assertionCount(), 1);
    QComboBox *type0 = dialog->assertionTypeCombo(0);
    QStringList listed;
    for (int i = 0; i < type0->count(); ++i)
        listed.append(type0->itemText(i));
    QCOMPARE(listed, assertionTypes());
    QCOMPARE(QJsonDocument::fromJson(dialog->assertionJsonEdit(0)->toPlainText().toUtf8()).object(),
             NewExperimentDialog::assertionTemplate(u"status"_s));
    type0->setCurrentText(u"equals"_s);
    QCOMPARE(QJsonDocument::fromJson(dialog->assertionJsonEdit(0)->toPlainText().toUtf8()).object(),
             (QJsonObject { { u"pointer"_s, u"/title"_s }, { u"value"_s, u""_s } }));
    for (const QString &t :
         assertionTypes()) // every template is an object the core accepts as far as the form can
        QVERIFY2(!NewExperimentDialog::assertionTemplate(t).isEmpty(), qPrintable(t));
    dialog->assertionJsonEdit(0)->setPlainText(uR"({"pointer": "/title", "value": "ok"})"_s);
    QCOMPARE(dialog->addAssertion(u"tool_called"_s), 1);
    QCOMPARE(QJsonDocument::fromJson(dialog->assertionJsonEdit(1)->toPlainText().toUtf8()).object(),
             (QJsonObject { { u"name"_s, u""_s } }));
    dialog->assertionJsonEdit(1)->setPlainText(uR"({"name": "get_ticket"})"_s);

    auto problems = [dialog] {
        QStringList rows;
        for (int r = 0; r < dialog->errorsView()->rowCount(); ++r)
            rows.append(dialog->errorsView()->item(r, 0)->text() + u" | "_s
                        + dialog->errorsView()->item(r, 1)->text());
        return rows.join(u"\n"_s);
    };
    auto folder = [&dir] {
        return QDir(dir.filePath(u"experiments"_s)).entryList(QDir::Files | QDir::Hidden);
    };

    // It fits the smallest screen the studio is made for.
    QVERIFY(dialog->width() <= 1280 && dialog->height() <= 800);
    QTest::qWait(30);
    saveScreenshot(*dialog, u"experiment-new"_s);

    // An override that is not a JSON object is refused, with the variant and the place.
    dialog->variantJsonEdit(1)->setPlainText(uR"({"max_turns": 1,})"_s);
    QVERIFY(!dialog->createAt(path));
    QVERIFY(dialog->errorsView()->isVisible());
    QVERIFY2(problems().contains(u"Variant 2 (one turn)"_s) && problems().contains(u"line 1"_s),
             qPrintable(problems()));
    QVERIFY(dialog->isVisible());
    QVERIFY(folder().isEmpty());
    dialog->variantJsonEdit(1)->setPlainText(u"[1]"_s);
    QVERIFY(!dialog->createAt(path));
    QVERIFY2(problems().contains(u"JSON object"_s), qPrintable(problems()));
    dialog->variantJsonEdit(1)->setPlainText(uR"({"max_turns": 1})"_s);

    // Vars that are not an object are refused with the case they belong to.
    cases->item(0, 2)->setText(u"[7]"_s);
    QVERIFY(!dialog->createAt(path));
    QVERIFY2(problems().contains(u"Case 1 (pass1)"_s) && problems().contains(u"JSON object"_s),
             qPrintable(problems()));
    QVERIFY(folder().isEmpty());
    cases->item(0, 2)->setText(uR"({"ticket": 7})"_s);

    // A provider batch: "via" is written and "jobs" is not (batches have no calls in flight).
    dialog->viaCombo()->setCurrentIndex(dialog->viaCombo()->findData(u"batch"_s));
    QVERIFY(!dialog->jobsSpin()->isEnabled());
    {
        QStringList none;
        const QJsonObject batch = dialog->definition(dir.filePath(u"experiments"_s), &none);
        QVERIFY2(none.isEmpty(), qPrintable(none.join(u"; "_s)));
        QCOMPARE(batch.value(u"via"_s).toString(), u"batch"_s);
        QVERIFY(!batch.contains(u"jobs"_s));
    }
    dialog->viaCombo()->setCurrentIndex(dialog->viaCombo()->findData(u"direct"_s));
    QVERIFY(dialog->jobsSpin()->isEnabled());

    // What the loader finds is listed with its place, and nothing is written.
    dialog->assertionJsonEdit(0)->setPlainText(uR"({"pointer": "title", "value": "ok"})"_s);
    QVERIFY(!dialog->createAt(path));
    QVERIFY2(problems().contains(u"/assert/0"_s), qPrintable(problems()));
    QVERIFY(folder().isEmpty());
    dialog->assertionJsonEdit(0)->setPlainText(uR"({"pointer": "/title", "value": "ok"})"_s);
    QTest::qWait(30);
    saveScreenshot(*dialog, u"experiment-new-errors"_s);

    // The form's own mistakes are listed before any file is asked for.
    dialog->nameEdit()->clear();
    dialog->createButton()->click();
    QVERIFY(!dialog->findChild<QFileDialog *>(u"newExperimentSaveDialog"_s));
    QVERIFY2(problems().startsWith(u"Name | "_s), qPrintable(problems()));
    dialog->nameEdit()->setText(u"planner-new"_s);

    // Create asks where to save it (named after the experiment), then writes and opens it.
    dialog->createButton()->click();
    auto *save = dialog->findChild<QFileDialog *>(u"newExperimentSaveDialog"_s);
    QVERIFY(save);
    QTRY_VERIFY(save->isVisible());
    QCOMPARE(save->acceptMode(), QFileDialog::AcceptSave);
    QVERIFY2(!save->selectedFiles().isEmpty()
                 && save->selectedFiles().constFirst().endsWith(u"/planner-new.experiment.json"_s),
             qPrintable(save->selectedFiles().join(u", "_s)));
    QPointer<NewExperimentDialog> guard(dialog);
    save->selectFile(path);
    static_cast<QDialog *>(save)->accept(); // as the Save button does
    QVERIFY(guard);
    QVERIFY2(QFileInfo::exists(path), qPrintable(problems()));
    QVERIFY(!dialog->errorsView()->isVisible() || dialog->errorsView()->rowCount() == 0);
    QCOMPARE(folder(), QStringList { u"planner-new.experiment.json"_s });
    QCOMPARE(dialog->result(), int(QDialog::Accepted));
    QCOMPARE(dialog->createdPath(), QFileInfo(path).absoluteFilePath());

    // The Experiment tab shows it as Open would.
    QCOMPARE(view->filePath(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(view->state(), ExperimentView::State::Ready);
    QCOMPARE(view->matrixModel()->rowCount(), 2);
    QCOMPARE(view->matrixModel()->columnCount(), 2);
    QCOMPARE(view->matrixModel()->cases(), (QStringList { u"pass1"_s, u"fail1"_s }));
    QCOMPARE(view->matrixModel()->variants(), (QStringList { u"base"_s, u"one turn"_s }));

    // The file: pretty-printed, paths relative to its folder, and the core loads it.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray data = file.readAll();
    QVERIFY(data.contains("\n    \""));
    const QJsonObject written = QJsonDocument::fromJson(data).object();
    const QJsonObject expected = QJsonDocument::fromJson(R"({
  "name": "planner-new",
  "spec": "../specs/planner.spec.json",
  "dataset": [ { "id": "pass1", "input": "Plan the pass ticket", "vars": { "ticket": 7 }, "expected": { "title": "ok" } },
               { "id": "fail1", "input": "Plan the fail ticket", "expected": "not json, a plain text" } ],
  "repeat": 2,
  "jobs": 3,
  "variants": [ { "name": "base" }, { "name": "one turn", "max_turns": 1 } ],
  "assert": [ { "type": "equals", "pointer": "/title", "value": "ok" },
              { "type": "tool_called", "name": "get_ticket" } ]
})")
                                     .object();
    QCOMPARE(written, expected);
    const ExperimentLoad load = loadExperimentFile(path);
    QVERIFY(load.experiment);
    QCOMPARE(load.experiment->rows.size(), 2);
    QCOMPARE(load.experiment->variants.size(), 2);
    QCOMPARE(load.experiment->variants.at(1).spec.maxTurns, 1);
    QCOMPARE(load.experiment->asserts.size(), 2);
    QCOMPARE(load.experiment->repeat, 2);
    QCOMPARE(load.experiment->jobs, 3);
    QCOMPARE(load.experiment->rows.at(0).vars, (QJsonObject { { u"ticket"_s, 7 } }));
}

void TestUi::experimentRunFromWindow()
{
    qputenv("CALLSCOPE_UI_EVAL_API_KEY", "sk-ui-eval");
    QTemporaryDir dir;
    Test::FakeProvider server;
    QVERIFY(server.listen());
    server.setResponder(experimentResponder(0));
    const QString path = writeExperiment(dir, server.baseUrl(), R"({
  "name": "planner-regression",
  "spec": "planner.spec.json",
  "dataset": "cases.jsonl",
  "repeat": 2,
  "variants": [ { "name": "base" },
                { "name": "one turn", "max_turns": 1, "engine": { "model": "priced-model" } } ],
  "assert": [ { "type": "equals", "pointer": "/title", "value": "ok", "weight": 3 },
              { "type": "tool_sequence", "names": ["get_ticket", "submit_output"] } ]
}
)");
    // A price table of your own (the setting): one variant's model has a price, the other's not.
    QVERIFY(writeText(
        dir.filePath(u"prices.json"_s),
        R"({"format":"callscope-prices","as_of":"2026-12-01","models":{"priced-model":{"input":1.0,"output":2.0}}})"));
    QSettings().setValue(u"prices/file"_s, dir.filePath(u"prices.json"_s));
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    StudioServices *services = window.studioServices();
    QVERIFY2(services && services->store(), "the window has no history database");
    ExperimentView *view = window.experiments()->view();
    // The matrix and the variant summary keep the model contract through the open, the run and
    // the variants added below.
    QAbstractItemModelTester matrixTester(view->matrixModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester summaryTester(view->summaryModel(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(window.experiments()->openFile(path));
    QCOMPARE(view->state(), ExperimentView::State::Ready);
    QCOMPARE(view->matrixModel()->rowCount(), 3);
    QCOMPARE(view->matrixModel()->columnCount(), 2);
    QVERIFY2(view->statusLabel()->text().contains(u"= 12 runs. Press Run"_s),
             qPrintable(view->statusLabel()->text()));
    // Before the first run there is no progress to show: no empty bar.
    QVERIFY(!view->findChild<QProgressBar *>(u"experimentProgress"_s)->isVisible());
    saveScreenshot(window, u"experiment-01-opened"_s);

    QVERIFY(view->runButton()->isEnabled());
    QTest::mouseClick(view->runButton(), Qt::LeftButton);
    QCOMPARE(view->state(), ExperimentView::State::Running);
    QVERIFY(!view->runButton()->isEnabled());
    QVERIFY(view->stopButton()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(view->state(), ExperimentView::State::Finished, 30000);
    // The figures, charts and comparisons are summed up off the GUI thread.
    QTRY_VERIFY(!view->isSummarizing());
    QVERIFY(view->experimentId() > 0);

    // The matrix says what the core's summary says, cell by cell.
    const QJsonObject summary = view->summary();
    const QJsonArray cells = summary.value(u"cells"_s).toArray();
    QCOMPARE(cells.size(), 6);
    MatrixModel *matrix = view->matrixModel();
    for (const QJsonValue &value : cells) {
        const QJsonObject cell = value.toObject();
        const int row = int(matrix->cases().indexOf(cell.value(u"case"_s).toString()));
        const int column = int(matrix->variants().indexOf(cell.value(u"variant"_s).toString()));
        QVERIFY(row >= 0 && column >= 0);
        const CellVerdict expected = cell.value(u"passed"_s).toBool() ? CellVerdict::Pass
            : cell.value(u"flaky"_s).toBool()                         ? CellVerdict::Flaky
                                                                      : CellVerdict::Fail;
        QCOMPARE(matrix->cell(row, column).verdict, expected);
        QCOMPARE(matrix->cell(row, column).runs.size(), 2);
    }
    // And the scripted outcome: base passes pass1, is flaky on flaky1, fails fail1; one turn fails
    // all.
    QCOMPARE(matrix->cell(0, 0).verdict, CellVerdict::Pass);
    QCOMPARE(matrix->cell(1, 0).verdict, CellVerdict::Fail);
    QCOMPARE(matrix->cell(2, 0).verdict, CellVerdict::Flaky);
    for (int r = 0; r < 3; ++r)
        QCOMPARE(matrix->cell(r, 1).verdict, CellVerdict::Fail);
    QCOMPARE(matrix->index(0, 0).data().toString(), u"2/2"_s);
    const QString tip = matrix->index(1, 0).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(u"expected &quot;ok&quot;, got &quot;bad&quot;"_s), qPrintable(tip));
    // The figures per variant, as the summary gives them; the weighted score counts the equals
    // check three times the tool sequence.
    const QJsonObject base = summary.value(u"variants"_s).toArray().at(0).toObject();
    QCOMPARE(base.value(u"passed"_s).toInt(), 1);
    QCOMPARE(base.value(u"flaky"_s).toInt(), 1);
    // Runs: pass1 x2 score 1, fail1 x2 score 0.25 (only the sequence), flaky1 1 and 0.25.
    QCOMPARE(base.value(u"score"_s).toDouble(), (1 + 1 + 0.25 + 0.25 + 1 + 0.25) / 6);
    QCOMPARE(view->summaryModel()->rowCount(), 2);
    QCOMPARE(view->summaryModel()->index(0, VariantSummaryModel::PassRateColumn).data().toString(),
             u"33%"_s);
    QCOMPARE(view->summaryModel()->index(0, VariantSummaryModel::CostColumn).data().toString(),
             u"no price"_s);
    QCOMPARE(view->summaryModel()->index(1, VariantSummaryModel::PassRateColumn).data().toString(),
             u"0%"_s);
    // 6 one-turn runs x (120 in x $1 + 20 out x $2) per million.
    QCOMPARE(view->summaryModel()->index(1, VariantSummaryModel::CostColumn).data().toString(),
             u"$0.00096"_s);
    QCOMPARE(view->summaryModel()->index(0, VariantSummaryModel::CountsColumn).data().toString(),
             u"1 · 1 · 1"_s);
    // The paired comparison of the two variants, in words under the figures: base passed one
    // case that one turn failed, too few to tell them apart.
    const QJsonObject comparison = summary.value(u"comparisons"_s).toArray().at(0).toObject();
    QCOMPARE(comparison.value(u"a"_s).toString(), u"base"_s);
    QCOMPARE(comparison.value(u"b"_s).toString(), u"one turn"_s);
    QCOMPARE(comparison.value(u"only_a"_s).toInt(), 1);
    QCOMPARE(comparison.value(u"only_b"_s).toInt(), 0);
    QVERIFY(view->comparisonsLabel()->isVisible());
    QCOMPARE(view->comparisonsLabel()->text(), comparison.value(u"sentence"_s).toString());
    QVERIFY2(view->comparisonsLabel()->text().startsWith(
                 u"No difference this run can detect between base and one turn"_s),
             qPrintable(view->comparisonsLabel()->text()));
    QVERIFY(view->comparisonsLabel()->toolTip().contains(u"3 cases"_s));
    QCOMPARE(matrix->figures().at(0).latencies.size(), 6);
    QVERIFY2(view->statusLabel()->text().contains(u"all 12 runs done"_s),
             qPrintable(view->statusLabel()->text()));
    // The runs are stored under the experiment.
    auto stored = services->store()->experimentRuns(view->experimentId());
    QVERIFY(stored);
    QCOMPARE(stored->size(), 12);
    // Every call of the experiment is in History too.
    QTRY_COMPARE(window.historyDocks()->history()->model()->rowCount(), 12);
    saveScreenshot(window, u"experiment-02-matrix"_s);

    // Filters: not passing hides pass1 (it passes in base, but fails in one turn: it stays);
    // failing in base only leaves fail1.
    view->variantCombo()->setCurrentIndex(1); // base
    view->showCombo()->setCurrentIndex(3); // failing
    QCOMPARE(view->matrixFilter()->rowCount(), 1);
    QCOMPARE(view->matrixFilter()->headerData(0, Qt::Vertical).toString(), u"fail1"_s);
    view->showCombo()->setCurrentIndex(0);
    view->variantCombo()->setCurrentIndex(0);
    QCOMPARE(view->matrixFilter()->rowCount(), 3);

    // A cell opens its call in History (the window's one call selection) and its call view.
    HistoryDocks *docks = window.historyDocks();
    QTableView *cells2 = view->matrixView();
    const QModelIndex failCell = view->matrixFilter()->index(1, 0);
    const qint64 failCall = failCell.data(MatrixModel::CallIdRole).toLongLong();
    QVERIFY(failCall > 0);
    QTest::mouseClick(cells2->viewport(), Qt::LeftButton, {},
                      cells2->visualRect(failCell).center());
    QTRY_COMPARE(docks->history()->selectedCallId(), failCall);
    QTRY_COMPARE(docks->history()->callView()->call().id, failCall);
    QVERIFY(docks->historyDock()->isVisible());
    QCOMPARE(docks->currentCallId(), failCall);
    saveScreenshot(window, u"experiment-03-cell-call"_s);

    // Two cells of one case side by side: the Diff panel compares their calls.
    const QModelIndex otherCell = view->matrixFilter()->index(1, 1);
    QAction *compareAction = window.findChild<QAction *>(u"experimentCompareAction"_s);
    QVERIFY(compareAction);
    QVERIFY(!compareAction->isEnabled()); // one cell selected: nothing to compare yet
    QTest::mouseClick(cells2->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      cells2->visualRect(otherCell).center());
    QVERIFY(view->compareButton()->isEnabled());
    QVERIFY(compareAction->isEnabled()); // the menu follows the button
    QTest::mouseClick(view->compareButton(), Qt::LeftButton);
    QTRY_COMPARE(docks->diff()->model()->rowCount() > 0, true);
    QVERIFY(docks->diffDock()->isVisible());
    QVERIFY2(docks->diff()->statusText().contains(u"difference"_s),
             qPrintable(docks->diff()->statusText()));
    saveScreenshot(window, u"experiment-04-compare"_s);

    view->resultTabs()->setCurrentWidget(view->charts());
    saveScreenshot(window, u"experiment-05-charts"_s);
    view->resultTabs()->setCurrentIndex(0);

    // New variants, written into the file: from a stored call, then from the spec in the editor.
    const QByteArray before = Test::readFile(path);
    QVERIFY(!view->addVariantFromCall(u"as call"_s, failCall));
    const QByteArray after = Test::readFile(path);
    QVERIFY2(after.startsWith(before.left(before.indexOf("{ \"name\": \"one turn\""))),
             after.constData());
    const QByteArray added = "                { \"name\": \"as call\", \"from_call\": "
        + QByteArray::number(failCall) + " } ]";
    QVERIFY2(after.contains(added), after.constData());
    // A variant from a stored call: the file is loaded on the store reader's thread.
    QTRY_COMPARE(view->matrixModel()->columnCount(), 3);
    // A changed definition is a new experiment: nothing stored for it yet.
    QCOMPARE(view->state(), ExperimentView::State::Ready);
    QCOMPARE(view->addVariantFromCall(u"as call"_s, failCall).value_or(QString()),
             u"There is already a variant named \"as call\"."_s);

    QJsonObject edited = Test::twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_UI_EVAL_API_KEY"_s);
    edited.insert(u"system_prompt"_s, u"Plan the work, briefly."_s);
    QVERIFY(writeText(dir.filePath(u"edited.spec.json"_s), QJsonDocument(edited).toJson()));
    QVERIFY(window.openSpecFile(dir.filePath(u"edited.spec.json"_s)) && specChecked(window));
    QVERIFY(!view->addVariantFromSpec(u"brief"_s));
    // A variant from a stored call: the file is loaded on the store reader's thread.
    QTRY_COMPARE(view->matrixModel()->columnCount(), 4);
    const QJsonArray variants =
        QJsonDocument::fromJson(Test::readFile(path)).object().value(u"variants"_s).toArray();
    QCOMPARE(variants.last().toObject(),
             (QJsonObject { { u"name"_s, u"brief"_s },
                            { u"system_prompt"_s, u"Plan the work, briefly."_s } }));
    QCOMPARE(view->experiment()->variants.last().spec.systemPrompt, u"Plan the work, briefly."_s);

    // Through the menu: the name is asked for, the current call (the cell's, opened above) used.
    QAction *fromCall = window.findChild<QAction *>(u"experimentVariantFromCallAction"_s);
    QVERIFY(fromCall && fromCall->isEnabled());
    fromCall->trigger();
    auto *dialog = window.findChild<QInputDialog *>(u"variantNameDialog"_s);
    QVERIFY(dialog);
    QCOMPARE(dialog->textValue(), u"call %1"_s.arg(failCall));
    dialog->setTextValue(u"picked call"_s);
    dialog->accept();
    // A variant from a stored call: the file is loaded on the store reader's thread.
    QTRY_COMPARE(view->matrixModel()->columnCount(), 5);
    QCOMPARE(view->matrixModel()->variants().last(), u"picked call"_s);
}

void TestUi::experimentStopAndResume()
{
    qputenv("CALLSCOPE_UI_EVAL_API_KEY", "sk-ui-eval");
    QTemporaryDir dir;
    Test::FakeProvider server;
    QVERIFY(server.listen());
    server.setResponder(experimentResponder(150));
    QByteArray cases;
    for (int i = 1; i <= 6; ++i)
        cases += "{\"id\":\"pass" + QByteArray::number(i) + "\",\"input\":\"Plan the pass ticket "
            + QByteArray::number(i) + "\"}\n";
    const QString path = writeExperiment(
        dir, server.baseUrl(),
        R"({"name": "slow", "spec": "planner.spec.json", "dataset": "cases.jsonl", "repeat": 2,
                                             "assert": [{"type": "equals", "pointer": "/title", "value": "ok"}]})",
        cases);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    StudioServices *services = window.studioServices();
    QVERIFY(services && services->store());
    ExperimentView *view = window.experiments()->view();
    QVERIFY(window.experiments()->openFile(path));
    QVERIFY(view->run());
    // The stored experiment is created off the GUI thread: its id comes a moment later.
    QTRY_VERIFY_WITH_TIMEOUT(view->experimentId() > 0, 15000);
    const qint64 id = view->experimentId();
    QTRY_VERIFY_WITH_TIMEOUT(view->progress().done >= 2, 20000);
    QVERIFY(view->progress().done < 12);
    QTest::mouseClick(view->stopButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(view->state(), ExperimentView::State::Stopped, 20000);
    QVERIFY(view->canResume());
    QVERIFY(view->resumeButton()->isVisible());
    QVERIFY(view->resumeButton()->isEnabled());
    QVERIFY2(view->statusLabel()->text().contains(u"Resume runs the rest"_s),
             qPrintable(view->statusLabel()->text()));
    QVERIFY(view->matrixModel()->count(CellVerdict::Pass)
                + view->matrixModel()->count(CellVerdict::Partial)
            >= 1);
    QVERIFY(view->matrixModel()->count(CellVerdict::Pass) < 6);
    saveScreenshot(window, u"experiment-06-stopped"_s);

    // What completed keeps its call; resuming runs only the rest, under the same experiment.
    QHash<QString, qint64> completed;
    auto runs = services->store()->experimentRuns(id);
    QVERIFY(runs);
    for (const ExperimentRunRecord &r : runs.value()) {
        if (r.status != u"cancelled"_s)
            completed.insert(r.caseId + u'/' + QString::number(r.repeat), r.callId.value_or(0));
    }
    QVERIFY(!completed.isEmpty() && completed.size() < 12);

    // Opened again later, the window shows the stored results and offers to resume them.
    QVERIFY(view->openFile(path));
    // Read off the GUI thread: the stored results come a moment later.
    QTRY_COMPARE_WITH_TIMEOUT(view->experimentId(), id, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(view->state(), ExperimentView::State::Stopped, 15000);
    QVERIFY(view->canResume());
    QVERIFY(view->resume());
    QCOMPARE(view->experimentId(), id);
    QTRY_COMPARE_WITH_TIMEOUT(view->state(), ExperimentView::State::Finished, 30000);
    // The figures, charts and comparisons are summed up off the GUI thread.
    QTRY_VERIFY(!view->isSummarizing());
    QCOMPARE(view->matrixModel()->count(CellVerdict::Pass), 6);
    runs = services->store()->experimentRuns(id);
    QVERIFY(runs);
    QCOMPARE(runs->size(), 12);
    for (const ExperimentRunRecord &r : runs.value()) {
        const QString key = r.caseId + u'/' + QString::number(r.repeat);
        QCOMPARE(r.status, u"completed"_s);
        if (completed.contains(key))
            QCOMPARE(r.callId.value_or(0), completed.value(key));
    }
    QVERIFY(!view->canResume());
}

// "via": "batch" from the window: the strip says what the provider batches do while they run,
// the finished matrix has the verdicts the model gives, no direct request is sent, and
// Cancel Batches cancels at the provider.
void TestUi::experimentThroughProviderBatches()
{
    qputenv("CALLSCOPE_EVAL_API_KEY", "sk-ui-batch");
    qputenv("CALLSCOPE_BATCH_POLL_MS", "20,100");
    QTemporaryDir dir;
    Test::FakeProvider server;
    QVERIFY(server.listen());
    auto api = std::make_shared<Test::FakeBatchApi>(Test::twoTurnBatchModel());
    api->processingMs = 300;
    server.setResponder(api->responder());
    const QJsonObject spec =
        Test::twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s, u"gpt-4o-mini"_s);
    QVERIFY(writeText(dir.filePath(u"planner.spec.json"_s), QJsonDocument(spec).toJson()));
    QByteArray cases;
    for (int i = 1; i <= 6; ++i)
        cases += "{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan the "
            + (i % 3 == 0 ? "fail" : "pass") + " ticket " + QByteArray::number(i) + "\"}\n";
    QVERIFY(writeText(dir.filePath(u"cases.jsonl"_s), cases));
    const QString path = dir.filePath(u"exp.json"_s);
    QVERIFY(writeText(
        path,
        R"({"name": "batch-ui", "spec": "planner.spec.json", "dataset": "cases.jsonl", "via": "batch",
  "assert": [ { "type": "equals", "pointer": "/title", "value": "ok" } ] })"));

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ExperimentView *view = window.experiments()->view();
    QVERIFY(window.experiments()->openFile(path));
    QVERIFY(view->batchStatus()->isVisible());
    QVERIFY2(view->batchStatus()->text().contains(u"nothing submitted yet"_s),
             qPrintable(view->batchStatus()->text()));
    QVERIFY(view->run());
    // Round 1 at the provider: named with its lines and the wait; Cancel Batches offered.
    QTRY_VERIFY_WITH_TIMEOUT(view->batchStatus()->text().contains(u"at the provider"_s), 10000);
    QVERIFY2(view->batchStatus()->text().startsWith(
                 u"Provider batches, round 1 · 1 batch at the provider (0 of 6 lines answered)"_s),
             qPrintable(view->batchStatus()->text()));
    QVERIFY(view->cancelBatchesButton()->isVisible());
    saveScreenshot(window, u"experiment-08-provider-batches"_s);
    QTRY_COMPARE_WITH_TIMEOUT(view->state(), ExperimentView::State::Finished, 30000);
    // The figures, charts and comparisons are summed up off the GUI thread.
    QTRY_VERIFY(!view->isSummarizing());
    QCOMPARE(int(api->batches.size()), 2); // one round for each turn
    QCOMPARE(api->directRequests, 0);
    const QJsonObject variant = view->summary().value(u"variants"_s).toArray().at(0).toObject();
    QCOMPARE(variant.value(u"passed"_s).toInt(), 4);
    QCOMPARE(variant.value(u"failed"_s).toInt(), 2);
    QVERIFY2(view->batchStatus()->text().contains(u"round 2"_s)
                 && view->batchStatus()->text().contains(u"2 batches ended"_s),
             qPrintable(view->batchStatus()->text()));
    QVERIFY(!view->cancelBatchesButton()->isVisible());

    // Run again while the provider takes its time: Cancel Batches cancels round 1 there.
    api->processingMs = 60000;
    QVERIFY(view->run());
    // The batch must be at the provider, and its id known here, before it can be cancelled there.
    const auto submittedBatches = [view] {
        int n = 0;
        if (view->experimentRun() && view->experimentRun()->batchRounds()) {
            for (const BatchRoundState &b :
                 view->experimentRun()->batchRounds()->overview().batches)
                n += b.providerId.isEmpty() ? 0 : 1;
        }
        return n;
    };
    QTRY_VERIFY_WITH_TIMEOUT(api->batches.size() == 3 && submittedBatches() == 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(view->cancelBatchesButton()->isEnabled(), 10000);
    QTest::mouseClick(view->cancelBatchesButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 15000);
    int cancelled = 0;
    for (const Test::FakeBatchApi::Batch &b : std::as_const(api->batches))
        cancelled += b.cancelled ? 1 : 0;
    QCOMPARE(cancelled, 1);

    // Cancel Batches while the batch is being created (it exists at the provider, its id is not
    // known here yet): it is cancelled there once its id comes, not left running.
    api->createAnswerDelayMs = 1500;
    const int creates = api->createRequests;
    QVERIFY(view->run());
    QTRY_VERIFY_WITH_TIMEOUT(api->createRequests == creates + 1, 15000);
    qInfo("batches with a known id when Cancel Batches was clicked: %d (0 unless the machine "
          "stalled 1.5 s)",
          submittedBatches());
    QTRY_VERIFY_WITH_TIMEOUT(view->cancelBatchesButton()->isEnabled(), 15000);
    QTest::mouseClick(view->cancelBatchesButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 15000);
    cancelled = 0;
    for (const Test::FakeBatchApi::Batch &b : std::as_const(api->batches))
        cancelled += b.cancelled ? 1 : 0;
    QCOMPARE(int(api->batches.size()), 4);
    QCOMPARE(cancelled, 2);
    qunsetenv("CALLSCOPE_BATCH_POLL_MS");
}

// A history holding many runs of one experiment (earlier sessions of the same definition and
// the newest, incomplete one): opening it and resuming it never stalls the window, because
// reading what is stored and starting the stored session happen off the GUI thread.
void TestUi::largeStoredExperimentKeepsTheWindowResponsive()
{
    qputenv("CALLSCOPE_UI_EVAL_API_KEY", "sk-ui-eval");
    QTemporaryDir dir;
    Test::FakeProvider server;
    QVERIFY(server.listen());
    server.setResponder(experimentResponder(0));
    const int caseCount = 100;
    const int repeat = 5;
    QByteArray cases;
    for (int i = 1; i <= caseCount; ++i)
        cases += "{\"id\":\"pass" + QByteArray::number(i) + "\",\"input\":\"Plan the pass ticket "
            + QByteArray::number(i) + "\"}\n";
    const QString path = writeExperiment(
        dir, server.baseUrl(),
        R"({"name": "large", "spec": "planner.spec.json", "dataset": "cases.jsonl", "repeat": 5,
                                             "variants": [{"name": "a"}, {"name": "b", "system_prompt": "Plan carefully."}],
                                             "assert": [{"type": "equals", "pointer": "/title", "value": "ok"}]})",
        cases);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    StudioServices *services = window.studioServices();
    QVERIFY(services && services->store());
    CallStore *store = services->store();
    const ExperimentLoad load = loadExperimentFile(path, store);
    QVERIFY(load.experiment);
    const Experiment &experiment = *load.experiment;

    // Many earlier sessions of the same definition, complete, and the newest with 10 runs still
    // to do: the window reads them all to find the newest and its state, and shows the newest.
    const int sessions = 72;
    // The window's own connection only reads; the test writes on a connection of its own.
    auto writable = Database::open(services->context()->databasePath());
    QVERIFY2(writable, qPrintable(writable ? QString() : writable.error().message));
    CallStore writer(*writable.value());
    const int planned = caseCount * 2 * repeat;
    const QString assertions =
        u"[{\"type\":\"equals\",\"name\":\"equals\",\"passed\":true,\"reason\":null}]"_s;
    QList<qint64> ids;
    for (int e = 0; e < sessions; ++e) {
        ExperimentRecord record;
        record.name = experiment.name;
        record.path = experiment.path;
        record.definitionHash = experimentDefinitionHash(experiment);
        record.definition = experiment.definition;
        const auto id = writer.createExperiment(record);
        QVERIFY(id);
        ids.append(*id);
    }
    const qint64 newest = ids.last();
    {
        QSqlDatabase db = writable.value()->connection();
        QVERIFY(db.transaction());
        QSqlQuery insert(db);
        QVERIFY(insert.prepare(u"INSERT INTO experiment_runs (experiment_id, case_id, variant, "
                               u"repeat, status, passed, "
                               u"assertions, latency_ms, input_tokens, output_tokens, created_at) "
                               u"VALUES (?, ?, ?, ?, 'completed', 1, ?, 120, 240, 40, ?)"_s));
        for (int e = 0; e < sessions; ++e) {
            const qint64 *id = &ids[e];
            const int done = e == sessions - 1 ? planned - 10 : planned;
            int n = 0;
            for (int c = 1; c <= caseCount && n < done; ++c) {
                for (const QString &variant : { u"a"_s, u"b"_s }) {
                    for (int k = 0; k < repeat && n < done; ++k, ++n) {
                        insert.addBindValue(*id);
                        insert.addBindValue(u"pass%1"_s.arg(c));
                        insert.addBindValue(variant);
                        insert.addBindValue(k);
                        insert.addBindValue(assertions);
                        insert.addBindValue(QDateTime::currentMSecsSinceEpoch());
                        QVERIFY2(insert.exec(), qPrintable(insert.lastError().text()));
                    }
                }
            }
        }
        QVERIFY(db.commit());
    }
    // What the window used to read on its own thread when the file opened: longer than a
    // GUI thread may stall, so the test can tell.
    QElapsedTimer reading;
    reading.start();
    const auto stored = storedExperimentsFor(store, experiment);
    QVERIFY(stored);
    QCOMPARE(stored->size(), sessions);
    QCOMPARE(store->experimentRuns(newest)->size(), planned - 10);
    const qint64 readMs = reading.elapsed();

    Test::EventLoopGapProbe probe;
    probe.start();
    ExperimentView *view = window.experiments()->view();
    QVERIFY(window.experiments()->openFile(path));
    QTRY_COMPARE_WITH_TIMEOUT(view->experimentId(), newest, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(view->state(), ExperimentView::State::Stopped, 30000);
    QVERIFY(view->canResume());
    const qint64 openedGap = probe.longestMs();
    QVERIFY(view->resume());
    QCOMPARE(view->state(), ExperimentView::State::Running);
    QTRY_COMPARE_WITH_TIMEOUT(view->state(), ExperimentView::State::Finished, 60000);
    QTRY_VERIFY(!view->isSummarizing());
    probe.stop();
    const qint64 maxGap = probe.longestMs();
    qInfo("%d stored runs read in %lld ms; longest event-loop gap %lld ms opening, %lld ms in all",
          sessions * planned - 10, readMs, openedGap, maxGap);
    QCOMPARE(int(server.requestCount()), 10 * 2); // the 10 runs left, two turns each
    QCOMPARE(store->experimentRuns(newest)->size(), planned);
    QCOMPARE(view->matrixModel()->count(CellVerdict::Pass), caseCount * 2);
    QVERIFY2(
        readMs >= 200,
        qPrintable(
            u"the stored runs should take long enough to read to stall a GUI thread (%1 ms)"_s.arg(
                readMs)));
    // Read on the GUI thread, the gap would be the whole read; the bound scales with it.
    QVERIFY2(maxGap < std::max<qint64>(200, readMs / 2),
             qPrintable(u"the event loop stalled %1 ms"_s.arg(maxGap)));
}

QTEST_MAIN(TestUi)
#include "tst_ui.moc"
