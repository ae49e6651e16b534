// The GUI shell, offscreen: the main window with a spec loaded, the JSON highlighter, the
// findings model and its jump-to-pointer, recent files, settings, the About box, a screenshot.

#include "core/model/specio.h"
#include "tests/support/testsupport.h"
#include "ui/findingsmodel.h"
#include "ui/jsonhighlighter.h"
#include "ui/jsonpointermap.h"
#include "ui/mainwindow.h"
#include "ui/messagebar.h"
#include "ui/specview.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;
using namespace Callscope;

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
    void geometryIsSaved();
    void menusAreComplete();
    void aboutBoxShowsVersions();
    void screenshotIsNotBlank();

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
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_home->path() + u"/config"_s);
    QSettings settings;
    QVERIFY2(settings.fileName().startsWith(m_home->path()), qPrintable(settings.fileName()));
}

void TestUi::init()
{
    QSettings().clear();
}

void TestUi::opensSpecFile()
{
    MainWindow window;
    // A fresh window starts with the new-spec template, which is a valid spec.
    QVERIFY(window.currentSpec().has_value());
    QVERIFY(window.currentFile().isEmpty());

    const QString path = dataFile(u"valid/full.spec.json"_s);
    QVERIFY(window.openSpecFile(path));
    QCOMPARE(window.currentFile(), path);
    QCOMPARE(window.specView()->text(), QString::fromUtf8(Test::readFile(path)));
    QVERIFY(!window.isModified());
    QVERIFY(window.windowTitle().startsWith(u"full.spec.json[*]"_s));
    QVERIFY(window.currentSpec().has_value());
    QCOMPARE(window.currentSpec()->kind, u"planner"_s);
    QVERIFY(window.specView()->messageBar()->isHidden());
    // full.spec.json lints for its engine (anthropic): the mcp tool without description is
    // fine; output_parser with a response schema and text_output in prompted mode are notes.
    QCOMPARE(window.lintTarget(), EngineType::Anthropic);
    QCOMPARE(window.findingsModel()->count(Finding::Severity::Error), 0);
    QCOMPARE(window.findingsModel()->rowCount(), 2);
    QCOMPARE(window.findingsModel()->finding(0).rule, u"output-parser-ignored"_s);
    QCOMPARE(window.findingsModel()->finding(0).severity, Finding::Severity::Info);
    QCOMPARE(window.findingsModel()->finding(1).rule, u"text-output-ignored"_s);
    QCOMPARE(window.findingsModel()->finding(1).severity, Finding::Severity::Info);
    QCOMPARE(window.findChild<QLabel *>(u"engineLabel"_s)->text(), u"Lint for: anthropic"_s);
    QCOMPARE(window.findChild<QLabel *>(u"countsLabel"_s)->text(), u"0 errors, 0 warnings, 2 notes"_s);
}

void TestUi::highlighterAppliesFormats()
{
    SpecView view;
    auto *highlighter = qobject_cast<JsonHighlighter *>(view.highlighter());
    QVERIFY2(highlighter, "the built-in highlighter is used when KF6 SyntaxHighlighting is absent");
    QCOMPARE(SpecView::highlighterName(), u"built-in JSON highlighter"_s);
    view.setText(QString::fromUtf8(Test::readFile(dataFile(u"valid/full.spec.json"_s))));
    QTextDocument *document = view.editor()->document();

    const QTextBlock kind = blockContaining(document, u"\"kind\": \"planner\""_s);
    QVERIFY(kind.isValid());
    const int keyColumn = int(kind.text().indexOf(u"\"kind\""_s));
    const int valueColumn = int(kind.text().indexOf(u"\"planner\""_s));
    const auto keyFormats = formatsAt(kind, keyColumn + 1);
    QCOMPARE(keyFormats.size(), 1);
    QCOMPARE(keyFormats.at(0).format.foreground(), highlighter->format(JsonToken::Key).foreground());
    QCOMPARE(keyFormats.at(0).length, 6); // "kind" with its quotes
    const auto valueFormats = formatsAt(kind, valueColumn + 1);
    QCOMPARE(valueFormats.size(), 1);
    QCOMPARE(valueFormats.at(0).format.foreground(), highlighter->format(JsonToken::String).foreground());
    QVERIFY(highlighter->format(JsonToken::Key).foreground() != highlighter->format(JsonToken::String).foreground());

    const QTextBlock turns = blockContaining(document, u"\"max_turns\": 4"_s);
    const auto number = formatsAt(turns, int(turns.text().indexOf(u'4')));
    QCOMPARE(number.size(), 1);
    QCOMPARE(number.at(0).format.foreground(), highlighter->format(JsonToken::Number).foreground());

    const QTextBlock approval = blockContaining(document, u"\"requires_approval\": true"_s);
    const auto keyword = formatsAt(approval, int(approval.text().indexOf(u"true"_s)));
    QCOMPARE(keyword.size(), 1);
    QCOMPARE(keyword.at(0).format.foreground(), highlighter->format(JsonToken::Keyword).foreground());

    // Edits are re-highlighted; a stray word is marked invalid.
    view.setText(u"{\"a\": nope, \"b\": -1.5e3}"_s);
    const QTextBlock line = document->begin();
    QCOMPARE(formatsAt(line, 7).at(0).format.foreground(), highlighter->format(JsonToken::Invalid).foreground());
    QCOMPARE(formatsAt(line, 7).at(0).format.underlineStyle(), QTextCharFormat::WaveUnderline);
    QCOMPARE(formatsAt(line, 18).at(0).format.foreground(), highlighter->format(JsonToken::Number).foreground());
    QCOMPARE(formatsAt(line, 0).at(0).format.foreground(), highlighter->format(JsonToken::Punctuation).foreground());
}

void TestUi::pointerMap_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<qsizetype>("exact");    // -1: not in the map
    QTest::addColumn<qsizetype>("fallback"); // position()

    const QString doc = u"{\n  \"a\": [1, {\"b~c\": \"x\", \"d/e\": null}],\n  \"f\": {\"g\": true}\n}"_s;
    QTest::newRow("root") << doc << QString() << qsizetype(0) << qsizetype(0);
    QTest::newRow("member key") << doc << u"/a"_s << qsizetype(4) << qsizetype(4);
    QTest::newRow("array item") << doc << u"/a/0"_s << qsizetype(10) << qsizetype(10);
    QTest::newRow("nested object item") << doc << u"/a/1"_s << qsizetype(13) << qsizetype(13);
    QTest::newRow("escaped ~") << doc << u"/a/1/b~0c"_s << qsizetype(14) << qsizetype(14);
    QTest::newRow("escaped /") << doc << u"/a/1/d~1e"_s << qsizetype(26) << qsizetype(26);
    QTest::newRow("second member") << doc << u"/f/g"_s << qsizetype(49) << qsizetype(49);
    QTest::newRow("missing field falls back to parent") << doc << u"/f/missing"_s << qsizetype(-1) << qsizetype(43);
    QTest::newRow("missing index") << doc << u"/a/7"_s << qsizetype(-1) << qsizetype(4);
    QTest::newRow("broken text keeps what came before")
        << u"{\"a\": 1, \"b\": [tru"_s << u"/b/0"_s << qsizetype(15) << qsizetype(15);
    QTest::newRow("after a syntax error") << u"{\"a\": 1 \"b\": 2}"_s << u"/b"_s << qsizetype(-1) << qsizetype(0);
}

void TestUi::pointerMap()
{
    QFETCH(QString, text);
    QFETCH(QString, pointer);
    QFETCH(qsizetype, exact);
    QFETCH(qsizetype, fallback);
    const JsonPointerMap map(text);
    const auto position = map.exactPosition(pointer);
    QCOMPARE(position.value_or(-1), exact);
    QCOMPARE(map.position(pointer), fallback);
}

void TestUi::findingsModelIsSound()
{
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 4);
    model.setFindings({{Finding::Severity::Error, u"/tools/0/name"_s, u"must not be empty"_s, {}, -1},
                       {Finding::Severity::Warning, u"/tools"_s, u"too many"_s, u"tool-count"_s, -1},
                       {Finding::Severity::Info, QString(), u"note"_s, u"x"_s, 12}});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, FindingsModel::SeverityColumn).data().toString(), u"Error"_s);
    QCOMPARE(model.index(0, FindingsModel::LocationColumn).data().toString(), u"/tools/0/name"_s);
    QCOMPARE(model.index(1, FindingsModel::RuleColumn).data().toString(), u"tool-count"_s);
    QCOMPARE(model.index(2, FindingsModel::LocationColumn).data().toString(), u"(document)"_s);
    QCOMPARE(model.index(2, 0).data(FindingsModel::PositionRole).toLongLong(), 12);
    QCOMPARE(model.index(1, 2).data(FindingsModel::PointerRole).toString(), u"/tools"_s);
    QCOMPARE(model.index(0, 2).data(Qt::ToolTipRole).toString(), u"/tools/0/name: must not be empty"_s);
    QVERIFY(!model.index(0, FindingsModel::SeverityColumn).data(Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(model.headerData(FindingsModel::MessageColumn, Qt::Horizontal).toString(), u"Message"_s);
    QCOMPARE(model.count(Finding::Severity::Warning), 1);
    model.setFindings({});
    QCOMPARE(model.rowCount(), 0);

    // The window's own model, through a real load.
    MainWindow window;
    QAbstractItemModelTester windowTester(window.findingsModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(window.openSpecFile(dataFile(u"broken/wrong-types.spec.json"_s)));
    QCOMPARE(window.findingsModel()->rowCount(), 11);
    QVERIFY(window.openSpecFile(dataFile(u"lint/names.spec.json"_s)));
    QCOMPARE(window.findingsModel()->rowCount(), 6);
}

void TestUi::brokenSpecListsErrors()
{
    MainWindow window;
    const QString path = dataFile(u"broken/wrong-types.spec.json"_s);
    QVERIFY(window.openSpecFile(path));
    QVERIFY(!window.currentSpec().has_value());
    const SpecLoadResult expected = loadSpecFile(path);
    FindingsModel *model = window.findingsModel();
    QCOMPARE(model->rowCount(), int(expected.errors.size()));
    for (int row = 0; row < model->rowCount(); ++row) {
        QCOMPARE(model->finding(row).severity, Finding::Severity::Error);
        QCOMPARE(model->finding(row).pointer, expected.errors.at(row).pointer);
        QCOMPARE(model->finding(row).message, expected.errors.at(row).message);
    }
    MessageBar *bar = window.specView()->messageBar();
    QVERIFY(!bar->isHidden());
    QCOMPARE(bar->type(), MessageBar::Type::Error);
    QCOMPARE(bar->text(), u"This spec cannot run: /kind: expected a string, got an integer (and 10 more "
                          "problems in Findings)"_s);
    QCOMPARE(window.findingsDock()->windowTitle(), u"Findings (11)"_s);

    // Opening a valid spec clears the bar.
    QVERIFY(window.openSpecFile(dataFile(u"lint/clean.spec.json"_s)));
    QVERIFY(bar->isHidden());
    QCOMPARE(window.findingsModel()->rowCount(), 0);
}

void TestUi::selectingFindingMovesCursor()
{
    MainWindow window;
    const QString path = dataFile(u"broken/input-schema-string.spec.json"_s);
    QVERIFY(window.openSpecFile(path));
    QCOMPARE(window.findingsModel()->rowCount(), 1);
    QCOMPARE(window.findingsModel()->finding(0).pointer, u"/tools/2/input_schema"_s);

    const QString text = window.specView()->text();
    const qsizetype expected = text.indexOf(u"\"input_schema\": \"object\""_s);
    QVERIFY(expected > 0);
    QVERIFY(window.specView()->editor()->textCursor().position() != expected);
    window.findingsView()->setCurrentIndex(window.findingsModel()->index(0, FindingsModel::MessageColumn));
    QCOMPARE(window.specView()->editor()->textCursor().position(), int(expected));
    // The text comes forward when the form tab hid it.
    if (QTabWidget *tabs = window.centralTabs())
        QCOMPARE(tabs->currentWidget(), window.specView());
    QCOMPARE(window.specView()->editor()->textCursor().blockNumber(), 5);

    // A missing field points at the object that lacks it.
    QVERIFY(window.openSpecFile(dataFile(u"broken/replay-without-recording.spec.json"_s)));
    window.findingsView()->setCurrentIndex(window.findingsModel()->index(0, 0));
    QCOMPARE(window.specView()->editor()->textCursor().position(),
             int(window.specView()->text().indexOf(u"\"engine\""_s)));
}

void TestUi::jsonSyntaxErrorPointsAtOffset()
{
    MainWindow window;
    QVERIFY(window.openSpecFile(dataFile(u"broken/bad-json.spec.json"_s)));
    QCOMPARE(window.findingsModel()->rowCount(), 1);
    const Finding f = window.findingsModel()->finding(0);
    QCOMPARE(f.pointer, QString());
    QCOMPARE(f.message, u"line 3, column 16: object is missing after a comma"_s);
    window.findingsView()->setCurrentIndex(window.findingsModel()->index(0, 0));
    const QTextCursor cursor = window.specView()->editor()->textCursor();
    QCOMPARE(cursor.blockNumber() + 1, 3);
    QCOMPARE(cursor.positionInBlock() + 1, 16);
}

void TestUi::editingRelints()
{
    MainWindow window;
    QVERIFY(window.openSpecFile(dataFile(u"lint/clean.spec.json"_s)));
    QCOMPARE(window.findingsModel()->rowCount(), 0);
    QPlainTextEdit *editor = window.specView()->editor();
    QTextCursor cursor(editor->document());
    const qsizetype at = window.specView()->text().indexOf(u"\"get_ticket\""_s);
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
    QVERIFY(window.openSpecFile(dataFile(u"lint/names.spec.json"_s)));
    QCOMPARE(window.lintTarget(), EngineType::OpenAI);
    auto providerRows = [&window] {
        QStringList pointers;
        for (const Finding &f : window.findingsModel()->findings()) {
            if (f.rule == u"tool-name-provider")
                pointers.append(f.pointer);
        }
        return pointers;
    };
    QCOMPARE(providerRows(), (QStringList{u"/tools/2/name"_s, u"/tools/3/name"_s}));
    QAction *gemini = nullptr;
    for (QAction *a : window.findChildren<QAction *>()) {
        if (a->data().toString() == u"gemini")
            gemini = a;
    }
    QVERIFY(gemini);
    gemini->trigger();
    QCOMPARE(window.lintTarget(), EngineType::Gemini);
    QVERIFY(gemini->isChecked());
    QCOMPARE(providerRows(), QStringList{u"/tools/4/name"_s});
    window.setLintTargetOverride(std::nullopt);
    QCOMPARE(window.lintTarget(), EngineType::OpenAI);
    QVERIFY(!gemini->isChecked());
}

void TestUi::unreadableFileShowsMessage()
{
    MainWindow window;
    const QString missing = dataFile(u"nope/missing.spec.json"_s);
    QVERIFY(!window.openSpecFile(missing));
    MessageBar *bar = window.specView()->messageBar();
    QVERIFY(!bar->isHidden());
    QCOMPARE(bar->type(), MessageBar::Type::Error);
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
        QVERIFY(window.openSpecFile(first));
        QVERIFY(window.openSpecFile(second));
        QCOMPARE(window.recentFiles(), (QStringList{second, first}));
        QVERIFY(window.openSpecFile(first));
        QCOMPARE(window.recentFiles(), (QStringList{first, second}));

        // Save As writes the editor text byte for byte and becomes the current file.
        window.specView()->editor()->appendPlainText(u"\n"_s);
        QVERIFY(window.isModified());
        const QString copy = dir.filePath(u"copy.spec.json"_s);
        QVERIFY(!window.saveToFile(copy).has_value());
        QVERIFY(!window.isModified());
        QCOMPARE(window.currentFile(), copy);
        QCOMPARE(QString::fromUtf8(Test::readFile(copy)), window.specView()->text());
        QCOMPARE(window.recentFiles().constFirst(), copy);
        const auto failed = window.saveToFile(dir.filePath(u"no/such/dir/x.json"_s));
        QVERIFY(failed.has_value());
        QVERIFY(!window.specView()->messageBar()->isHidden());
    }
    // A new window reads the list back and offers it in File > Open Recent.
    MainWindow again;
    QCOMPARE(again.recentFiles().size(), 3);
    QMenu *recent = nullptr;
    // The window's own (the spec form has a menu of the same name).
    for (QMenu *menu : again.menuBar()->findChildren<QMenu *>()) {
        if (menu->title() == u"Open &Recent")
            recent = menu;
    }
    QVERIFY(recent);
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
    QCOMPARE(menus, (QStringList{u"&File"_s, u"&Edit"_s, u"&View"_s, u"&Run"_s, u"&History"_s, u"&Help"_s}));
    for (const QString &text : {u"&New Spec"_s, u"&Open…"_s, u"Save &As…"_s, u"&Save"_s, u"&Quit"_s,
                                u"&Undo"_s, u"&Redo"_s, u"&Lint Now"_s, u"&About Callscope"_s,
                                u"About &Qt"_s})
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

void TestUi::screenshotIsNotBlank()
{
    MainWindow window;
    window.resize(1200, 800);
    QVERIFY(window.openSpecFile(dataFile(u"lint/strict.spec.json"_s)));
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

QTEST_MAIN(TestUi)

#include "tst_ui.moc"
