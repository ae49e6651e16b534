// The spec editor and the run panel, driven through their real widgets (offscreen): the spec editor
// (findings, undo, raw JSON sync, files), the run panel against the replay engine and against the
// fake OpenAI server (breakpoints, edited results, approvals, stop, refusal then another engine),
// and the event loop staying responsive while 2,000 deltas a second stream in.

#include "core/eval/assertions.h"
#include "core/model/specio.h"
#include "core/schema/speccheck.h"
#include "core/secrets/profilestore.h"
#include "core/secrets/truststore.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/studiowait.h"
#include "tests/support/testsupport.h"
#include "ui/diff/diffview.h"
#include "ui/editor/mcpserverpanel.h"
#include "ui/editor/schemabuilder.h"
#include "ui/editor/schemafields.h"
#include "ui/editor/specdocument.h"
#include "ui/editor/specformeditor.h"
#include "ui/experiments/experimentview.h"
#include "ui/experiments/reviewqueue.h"
#include "ui/run/attachmentmodel.h"
#include "ui/run/partialoutputmodel.h"
#include "ui/run/runpanel.h"
#include "ui/run/timelineview.h"
#include "ui/run/transcriptmodel.h"
#include "ui/widgets/approvalpanel.h"
#include "ui/widgets/calldiff.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/dialogs.h"
#include "ui/widgets/displaynames.h"
#include "ui/widgets/elicitationdialog.h"
#include "ui/widgets/findingsmodel.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/studioservices.h"
#include "ui/widgets/trustdialog.h"
#include "ui/window/historydocks.h"
#include "ui/window/mainwindow.h"
#include "ui/window/spectab.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QFileSystemModel>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSemaphore>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

constexpr auto kKeyEnv = "CALLSCOPE_STUDIO1_API_KEY";

QAction *findChildAction(QObject &root, const QString &text)
{
    for (QAction *a : root.findChildren<QAction *>()) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

QString sourcePath(const QString &relative)
{
    return QStringLiteral(CALLSCOPE_SOURCE_DIR) + u'/' + relative;
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

struct Call
{
    QString id;
    QString name;
    QJsonObject args;
};

// A non-streamed Chat Completions reply with tool calls.
QByteArray chatToolCalls(const QList<Call> &calls, int in = 20, int out = 8)
{
    QJsonArray toolCalls;
    for (const Call &c : calls)
        toolCalls.append(QJsonObject {
            { u"id"_s, c.id },
            { u"type"_s, u"function"_s },
            { u"function"_s,
              QJsonObject { { u"name"_s, c.name },
                            { u"arguments"_s, QString::fromUtf8(compact(c.args)) } } } });
    return compact(QJsonObject {
        { u"id"_s, u"chatcmpl-1"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"created"_s, 1 },
        { u"model"_s, u"gpt-4o-mini"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject { { u"index"_s, 0 },
                                     { u"message"_s,
                                       QJsonObject { { u"role"_s, u"assistant"_s },
                                                     { u"content"_s, QJsonValue() },
                                                     { u"tool_calls"_s, toolCalls } } },
                                     { u"finish_reason"_s, u"tool_calls"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, in },
                        { u"completion_tokens"_s, out },
                        { u"total_tokens"_s, in + out } } } });
}

// A non-streamed Chat Completions reply with assistant text.
QByteArray chatText(const QString &text, int in = 30, int out = 10)
{
    return compact(QJsonObject {
        { u"id"_s, u"chatcmpl-2"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"created"_s, 1 },
        { u"model"_s, u"gpt-4o-mini"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject {
              { u"index"_s, 0 },
              { u"message"_s,
                QJsonObject { { u"role"_s, u"assistant"_s }, { u"content"_s, text } } },
              { u"finish_reason"_s, u"stop"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, in },
                        { u"completion_tokens"_s, out },
                        { u"total_tokens"_s, in + out } } } });
}

QJsonObject goodOutput()
{
    return { { u"ticket_id"_s, 7 },
             { u"summary"_s, u"Export runs out of memory on large sessions."_s } };
}

QJsonArray requestMessages(const RecordedRequest &r)
{
    return r.jsonObject().value(u"messages"_s).toArray();
}

// The tool messages of a Chat Completions request, by tool_call_id.
QHash<QString, QString> toolMessages(const RecordedRequest &r)
{
    QHash<QString, QString> out;
    for (const QJsonValue &v : requestMessages(r)) {
        const QJsonObject m = v.toObject();
        if (m.value(u"role"_s).toString() == u"tool")
            out.insert(m.value(u"tool_call_id"_s).toString(), m.value(u"content"_s).toString());
    }
    return out;
}

// The spec (one document, shown by the form and by its JSON text) and the run panel side by
// side, as a spec tab of the main window lays them out.
struct Studio
{
    explicit Studio(StudioServices *services)
        : editor(&document)
        , panel(services->calls(), services->profiles())
    {
        raw.setObjectName(u"specEditor"_s);
        raw.showDocument(document.textDocument());
        sides.addTab(&editor, u"Form"_s);
        sides.addTab(&raw, u"JSON"_s);
        splitter.addWidget(&sides);
        splitter.addWidget(&panel);
        sides.setParent(&splitter);
        panel.setParent(&splitter);
        // The document's history answers Ctrl+Z wherever the focus is, as the window's does.
        undo = document.undoStack()->createUndoAction(&splitter);
        undo->setShortcut(QKeySequence::Undo);
        splitter.addAction(undo);
        // As a spec tab does: a run waits for the check of the text as it is.
        panel.setSpecReadiness([this](QObject *context, std::function<void()> ready) {
            editor.flushPendingEdits();
            document.whenChecked(context, std::move(ready));
        });
        panel.setSpecProvider([this]() -> std::optional<Spec> {
            if (!document.check().runnable())
                return std::nullopt;
            return document.spec();
        });
        // The specs these tests open are ours: the trust question is answered Trust at once,
        // except in the test of that question (autoTrust = false).
        QObject::connect(&panel, &RunPanel::trustAsked, &panel, [this](TrustDialog *dialog) {
            if (autoTrust && dialog)
                QTimer::singleShot(0, dialog, [dialog] { dialog->trustButton()->click(); });
        });
        splitter.resize(1500, 950);
        splitter.setSizes({ 650, 850 });
        splitter.show();
        transcriptTester = std::make_unique<QAbstractItemModelTester>(
            panel.transcript(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
    ~Studio()
    {
        editor.setParent(nullptr);
        raw.setParent(nullptr);
        sides.setParent(nullptr);
        panel.setParent(nullptr);
    }
    bool autoTrust = true;

    // Pending edits of the form written into the text, and the text checked.
    void flush()
    {
        editor.flushPendingEdits();
        document.recheck();
        waitChecked();
    }
    // The document's check (on a worker thread) has come for the text as it is now.
    bool waitChecked() { return specChecked(&document); }
    bool open(const QString &path)
    {
        if (document.load(path))
            return false;
        editor.reload();
        return waitChecked();
    }

    QSplitter splitter;
    QTabWidget sides;
    SpecDocument document;
    SpecFormEditor editor;
    JsonEditor raw;
    RunPanel panel;
    QAction *undo = nullptr;
    std::unique_ptr<QAbstractItemModelTester> transcriptTester;
};

int findRow(const TranscriptModel *m, TranscriptModel::Kind kind, int from = 0)
{
    for (int i = from; i < m->count(); ++i) {
        if (m->item(i).kind == kind)
            return i;
    }
    return -1;
}

// The widget stands wholly inside `area` (both mapped to the top-level window).
bool inside(const QWidget *w, const QWidget *area, QString *why)
{
    const QWidget *top = w->window();
    const QRect own(w->mapTo(top, QPoint(0, 0)), w->size());
    const QRect room(area->mapTo(top, QPoint(0, 0)), area->size());
    if (room.contains(own) && w->isVisible())
        return true;
    *why =
        u"%1 at %2,%3 %4x%5 (visible %6) is not inside %7 at %8,%9 %10x%11"_s.arg(w->objectName())
            .arg(own.x())
            .arg(own.y())
            .arg(own.width())
            .arg(own.height())
            .arg(w->isVisible())
            .arg(area->objectName())
            .arg(room.x())
            .arg(room.y())
            .arg(room.width())
            .arg(room.height());
    return false;
}

// Words from the code that must not reach the screen.
bool hasIdentifier(const QString &text)
{
    for (const char *id :
         { "before_tool", "before_request", "after_reply", "after_tool_result", "awaiting_approval",
           "awaiting_manual", "turn_limited", "validation_failure", "running_tools" }) {
        if (text.contains(QLatin1String(id)))
            return true;
    }
    return false;
}

void saveShot(QWidget *w, const QString &name)
{
    QApplication::processEvents();
    const QString path = buildPath(u"screenshots/"_s + name);
    QVERIFY2(w->grab().save(path), qPrintable(path));
}

} // namespace

class TestSpecTab final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();

    void editorInvalidSchemaFindingAndUndo();
    void editorFlagsSchemaThatCanNeverValidate();
    void editorRawJsonSyncsBothWays();
    void editorTimeouts();
    void documentClosedWhileItsCheckRuns();
    void editorFindingsModelAndLint();
    void schemaFieldsRoundTrip();
    void schemaBuilderLeavesUnsupportedSchemaAlone();
    void schemaBuilderEditsSpecAndUndo();
    void runReplaySampleToCompletion();
    void runOpenAIAgainstFakeProvider();
    void stepPausesAtEachBreakpoint_data();
    void stepPausesAtEachBreakpoint();
    void stepWithAllBreakpoints();
    void editedToolResultReachesModel();
    void approvalAfterEditSaysTheArgumentsAreYours();
    void providerDownCountsEveryAttempt();
    void approveRefuseEditApprove();
    void manualToolResult();
    void stopEndsCancelled();
    void wrongServerUrlIsOneLineWithDetails();
    void refusalThenAnotherEngine();
    void attachmentsModel();
    void streamingKeepsEventLoopResponsive();
    void partialOutputMarksTheBadFieldWhileItStreams();
    void partialOutputStopEarlyShowsWhy();
    void mainWindowRunsSampleOffline();
    void windowTwoSpecTabsRunApart();
    void windowTabsKeepTheirBreakpoints();
    void windowFormAndJsonShareOneUndo();
    void windowDirtyMarkAndCloseTabAsks();
    void windowOpenFileAgainSwitchesToItsTab();
    void windowRecentFilesTellNamesakesApart();
    void windowWorkspaceFolderListsSpecs();
    void windowWaitingBadgeOnTheRightTab();
    void outputModesRunAndDiff();
    void editorAddsRemoteMcpServerAndListsTools();
    void elicitationFormAnswers();
    void inlineApprovalInTimeline();
    void inlineBreakpointContinueAndStep();
    void inlineManualResult();
    void inlineGoneAfterStopAndNewRunClean();
    void runPanelFitsBesideTheSpec();
    void trustAskedBeforeRunningWhatTheFileBrings();
    void validationKeepsEventLoopResponsive();
    void findingsAgreeWithCliLint();
    void findingsCheckKeepsEventLoopResponsive();
    void experimentAssertionsKeepEventLoopResponsive();
    void reviewQueueByKeys();

private:
    // Sets the ticket spec up on the fake server with get_ticket needing approval.
    void openTicketWithApproval(Studio &s, bool approval = true);
    bool openInEditor(Studio &s, const QString &path);
    LaunchResult waitFinished(Studio &s, int timeoutMs = 15000);

    std::unique_ptr<ScopedDataHome> m_home;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<StudioServices> m_services;
    std::unique_ptr<FakeProvider> m_server;
};

void TestSpecTab::initTestCase()
{
    m_home = std::make_unique<ScopedDataHome>();
    QVERIFY(m_home->isValid());
    QCoreApplication::setOrganizationName(u"CallscopeTest"_s);
    QCoreApplication::setApplicationName(u"tst_spectab"_s);
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_services = std::make_unique<StudioServices>(m_dir->filePath(u"history.sqlite"_s));
    QVERIFY2(m_services->store(), qPrintable(m_services->databaseError()));
    qputenv(kKeyEnv, "sk-spectab-test");
}

void TestSpecTab::cleanupTestCase()
{
    m_services.reset();
    Dialogs::setResponder({});
    Dialogs::setFileResponder({});
}

void TestSpecTab::init()
{
    m_server = std::make_unique<FakeProvider>();
    QVERIFY2(m_server->listen(), qPrintable(m_server->errorString()));
}

void TestSpecTab::cleanup()
{
    Dialogs::setResponder({});
    QTRY_VERIFY_WITH_TIMEOUT(m_services->calls()->activeJobs() == 0, 15000);
    m_server.reset();
}

bool TestSpecTab::openInEditor(Studio &s, const QString &path)
{
    const bool ok = s.open(path);
    if (ok)
        s.panel.setInputText(RunPanel::sampleInputFor(path));
    return ok;
}

LaunchResult TestSpecTab::waitFinished(Studio &s, int timeoutMs)
{
    if (!s.panel.isRunning() && s.panel.lastResult())
        return *s.panel.lastResult();
    QSignalSpy spy(&s.panel, &RunPanel::runFinished);
    if (!spy.wait(timeoutMs))
        return {};
    return spy.at(0).at(0).value<LaunchResult>();
}

// ---- editor -------------------------------------------------------------------------------

void TestSpecTab::editorInvalidSchemaFindingAndUndo()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    QCOMPARE(s.editor.spec().kind, u"extraction"_s);
    QCOMPARE(s.editor.findChild<QLineEdit *>(u"kind"_s)->text(), u"extraction"_s);
    QVERIFY(!s.document.isModified());
    QCOMPARE(s.document.count(SpecFinding::Severity::Error), 0);
    QCOMPARE(s.panel.inputText().left(26), u"Mission report, 14 March. "_s);

    // Make the schema invalid: "type": "objekt" is not a JSON Schema type.
    s.editor.tabs()->setCurrentWidget(s.editor.responseSchemaEditor());
    JsonEditor *schema = s.editor.responseSchemaEditor();
    QString text = schema->toPlainText();
    const qsizetype at = text.indexOf(u"\"object\""_s);
    QVERIFY(at > 0);
    QTextCursor cursor(schema->document());
    cursor.setPosition(int(at + 1));
    cursor.setPosition(int(at + 7), QTextCursor::KeepAnchor);
    schema->setTextCursor(cursor);
    QTest::keyClicks(schema, u"objekt"_s);

    auto schemaFinding = [&s]() -> std::optional<SpecFinding> {
        for (const SpecFinding &f : s.document.findings()) {
            if (f.source == SpecFinding::Source::Schema && f.pointer == u"/response_schema/type")
                return f;
        }
        return std::nullopt;
    };
    QTRY_VERIFY_WITH_TIMEOUT(schemaFinding().has_value(), 15000);
    QCOMPARE(schemaFinding()->severity, SpecFinding::Severity::Error);
    QCOMPARE(s.editor.spec().responseSchema->value(u"type"_s).toString(), u"objekt"_s);
    QVERIFY(s.document.isModified());
    // Shown inline: a marker at the pointer, relative to the schema editor's document.
    bool marked = false;
    for (const EditorMarker &m : schema->markers())
        marked |= m.pointer == u"/type";
    QVERIFY(marked);
    bool underlined = false;
    for (const QTextEdit::ExtraSelection &sel : schema->extraSelections())
        underlined |= sel.cursor.selectedText() == u"\"objekt\""
            && sel.format.underlineStyle() == QTextCharFormat::WaveUnderline;
    QVERIFY(underlined);
    // The raw JSON view follows.
    QVERIFY((&s.raw)->toPlainText().contains(u"\"objekt\""_s));
    // Activating the finding jumps to it.
    s.editor.tabs()->setCurrentIndex(0);
    QVERIFY(s.editor.revealPointer(u"/response_schema/type"_s));
    // The schema page holds the editor (and, in native mode, the schema sent beside it).
    QVERIFY(s.editor.tabs()->currentWidget()->isAncestorOf(schema));
    QCOMPARE(schema->textCursor().position(), int(schema->toPlainText().indexOf(u"\"objekt\""_s)));
    saveShot(&s.splitter, u"spec-editor-finding.png"_s);

    // Undo restores the schema and the finding goes away; redo brings it back.
    s.document.undoStack()->undo();
    QVERIFY(specChecked(&s.document)); // the form follows the document's check
    QCOMPARE(s.editor.spec().responseSchema->value(u"type"_s).toString(), u"object"_s);
    QVERIFY(!schemaFinding().has_value());
    QVERIFY(schema->toPlainText().contains(u"\"type\": \"object\""_s));
    QVERIFY(!s.document.isModified());
    s.document.undoStack()->redo();
    QVERIFY(specChecked(&s.document));
    QVERIFY(schemaFinding().has_value());
    s.document.undoStack()->undo();
    QVERIFY(specChecked(&s.document));

    // Undo through the keyboard works while a text field has focus (the spec's stack, not the
    // field's).
    QLineEdit *kind = s.editor.findChild<QLineEdit *>(u"kind"_s);
    s.editor.tabs()->setCurrentIndex(0);
    s.splitter.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&s.splitter));
    kind->setFocus();
    kind->selectAll();
    QTest::keyClicks(kind, u"renamed"_s);
    QTRY_COMPARE_WITH_TIMEOUT(s.editor.spec().kind, u"renamed"_s,
                              15000); // the form follows the document's check
    QTest::keySequence(kind, QKeySequence::Undo);
    QTRY_COMPARE_WITH_TIMEOUT(s.editor.spec().kind, u"extraction"_s, 15000);
    QCOMPARE(kind->text(), u"extraction"_s);
}

void TestSpecTab::editorFlagsSchemaThatCanNeverValidate()
{
    // A $ref cycle is valid against the meta-schema but no output could ever pass: an error at
    // the $ref that closes it.
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    s.editor.tabs()->setCurrentWidget(s.editor.responseSchemaEditor());
    s.editor.responseSchemaEditor()->setPlainText(
        uR"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})"_s);
    auto cycleFinding = [&s]() -> std::optional<SpecFinding> {
        for (const SpecFinding &f : s.document.findings()) {
            if (f.pointer == u"/response_schema/$defs/b/$ref")
                return f;
        }
        return std::nullopt;
    };
    QTRY_VERIFY_WITH_TIMEOUT(cycleFinding().has_value(), 15000);
    QCOMPARE(cycleFinding()->severity, SpecFinding::Severity::Error);
    QVERIFY2(cycleFinding()->message.contains(u"$ref cycle"_s),
             qPrintable(cycleFinding()->message));
}

void TestSpecTab::editorRawJsonSyncsBothWays()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    auto *maxTurns = s.editor.findChild<QSpinBox *>(u"maxTurns"_s);
    QCOMPARE(maxTurns->value(), 3);

    // Form -> raw.
    maxTurns->setValue(5);
    QCOMPARE(s.editor.spec().maxTurns, 5);
    QVERIFY((&s.raw)->toPlainText().contains(u"\"max_turns\": 5"_s));

    // Raw -> form, when valid.
    JsonEditor *raw = (&s.raw);
    s.sides.setCurrentWidget(raw);
    QString text = raw->toPlainText();
    text.replace(u"\"max_turns\": 5"_s, u"\"max_turns\": 7"_s);
    raw->setPlainText(text);
    QTRY_COMPARE_WITH_TIMEOUT(maxTurns->value(), 7, 15000);
    QCOMPARE(s.editor.spec().maxTurns, 7);

    // Invalid JSON: an error with line and column, and the form keeps the last valid spec.
    text.replace(u"\"max_turns\": 7,"_s, u"\"max_turns\": 9,,"_s);
    raw->setPlainText(text);
    auto jsonError = [&s] {
        for (const SpecFinding &f : s.document.findings()) {
            if (f.source == SpecFinding::Source::Json && f.line > 0 && f.column > 0)
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(jsonError(), 15000);
    QCOMPARE(maxTurns->value(), 7);
    QCOMPARE(s.editor.spec().maxTurns, 7);
    // The raw text the person typed stays as typed.
    QVERIFY(raw->toPlainText().contains(u"9,,"_s));

    // Valid JSON but not a valid spec: a spec finding with its pointer, nothing applied.
    text.replace(u"\"max_turns\": 9,,"_s, u"\"max_turns\": \"many\","_s);
    raw->setPlainText(text);
    auto specFinding = [&s] {
        for (const SpecFinding &f : s.document.findings()) {
            if (f.source == SpecFinding::Source::Spec && f.pointer == u"/max_turns")
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(specFinding(), 15000);
    QCOMPARE(s.editor.spec().maxTurns, 7);

    // Undo steps back over text and form edits alike: the two broken texts, then 7.
    for (int i = 0; i < 3; ++i)
        s.document.undoStack()->undo();
    QVERIFY(specChecked(&s.document));
    QCOMPARE(s.editor.spec().maxTurns, 5);
    QCOMPARE(maxTurns->value(), 5);
    QVERIFY(raw->toPlainText().contains(u"\"max_turns\": 5"_s));
    s.document.undoStack()->undo();
    QVERIFY(specChecked(&s.document));
    QCOMPARE(s.editor.spec().maxTurns, 3);
}

// The engine's timeouts in the form: unset shows the default, a value goes to the JSON and back.
// A document closed (a tab, a test's local document) while its check is queued or under way:
// the check's end must not reach the gone document. Every pool thread is held so the check is
// sure to end after the document is destroyed.
void TestSpecTab::documentClosedWhileItsCheckRuns()
{
    QThreadPool *pool = QThreadPool::globalInstance();
    pool->waitForDone();
    const int threads = pool->maxThreadCount();
    QSemaphore started;
    QSemaphore release;
    for (int i = 0; i < threads; ++i)
        pool->start([&] {
            started.release();
            release.acquire();
        });
    started.acquire(threads); // every thread is now busy: the checks below wait in the queue

    for (int round = 0; round < 5; ++round) {
        auto *document = new SpecDocument;
        QVERIFY(!document->load(sourcePath(u"tests/data/spec/valid/full.spec.json"_s)));
        QVERIFY(!document->isCheckCurrent()); // queued behind the held threads
        delete document;
    }
    release.release(threads);
    QVERIFY(pool->waitForDone(30000));
    // Whatever the finished checks posted is delivered now; a gone receiver must get nothing.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();

    // The same with the threads free: a check that ends while its document is being destroyed.
    const QString full = sourcePath(u"tests/data/spec/valid/full.spec.json"_s);
    for (int round = 0; round < 500; ++round) {
        auto *document = new SpecDocument;
        QVERIFY(!document->load(full));
        if (round % 2)
            QThread::yieldCurrentThread();
        delete document;
        if (round % 100 == 0)
            QCoreApplication::processEvents();
    }
    QVERIFY(pool->waitForDone(60000));
    QCoreApplication::processEvents();

    // And a document that stays gets its check as before.
    SpecDocument kept;
    QVERIFY(!kept.load(sourcePath(u"tests/data/spec/valid/full.spec.json"_s)));
    QVERIFY(specChecked(&kept));
    QVERIFY(kept.check().ok());
}

void TestSpecTab::editorTimeouts()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    auto *timeout = s.editor.findChild<QSpinBox *>(u"timeoutMs"_s);
    auto *idle = s.editor.findChild<QSpinBox *>(u"idleTimeoutMs"_s);
    QVERIFY(timeout && idle);
    QCOMPARE(timeout->value(), 0);
    QVERIFY(timeout->specialValueText().contains(u"600 s"_s));
    QVERIFY(idle->specialValueText().contains(u"60 s"_s));
    timeout->setValue(90000);
    idle->setValue(20000);
    QCOMPARE(s.editor.spec().engine.timeoutMs, std::optional<qint64>(90000));
    QCOMPARE(s.editor.spec().engine.idleTimeoutMs, std::optional<qint64>(20000));
    QVERIFY((&s.raw)->toPlainText().contains(u"\"timeout_ms\": 90000"_s));
    QVERIFY((&s.raw)->toPlainText().contains(u"\"idle_timeout_ms\": 20000"_s));
    idle->setValue(0);
    QVERIFY(!s.editor.spec().engine.idleTimeoutMs.has_value());
    QVERIFY(!(&s.raw)->toPlainText().contains(u"idle_timeout_ms"_s));
}

void TestSpecTab::editorFindingsModelAndLint()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/steps.spec.json"_s)));
    QCOMPARE(s.document.count(SpecFinding::Severity::Error), 0);
    // Tools tab: rename the tool to something lint flags; the finding names the pointer.
    s.editor.tabs()->setCurrentIndex(3);
    auto *name = s.editor.findChild<QLineEdit *>(u"toolName"_s);
    QCOMPARE(name->text(), u"get_ticket"_s);
    name->selectAll();
    QTest::keyClicks(name, u"GetTicket"_s);
    QCOMPARE(s.editor.spec().tools.at(0).name, u"GetTicket"_s);
    // Listed once the document's check has run, shortly after the last key.
    auto lint = [&s] {
        for (const SpecFinding &f : s.document.findings()) {
            if (f.source == SpecFinding::Source::Lint && f.pointer.startsWith(u"/tools/0"_s)
                && f.rule == u"tool-name-snake-case")
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(lint(), 3000);
    // An invalid tool input schema is checked against the meta-schema too.
    JsonEditor *toolSchema = s.editor.toolSchemaEditor();
    toolSchema->setPlainText(u"{ \"type\": \"object\", \"required\": \"id\" }"_s);
    auto found = [&s] {
        for (const SpecFinding &f : s.document.findings()) {
            if (f.source == SpecFinding::Source::Schema
                && f.pointer == u"/tools/0/input_schema/required")
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(found(), 15000);
    QVERIFY(!toolSchema->markers().isEmpty());
    // Broken JSON in a schema editor: marked there with its line; the spec is unchanged.
    toolSchema->setPlainText(u"{\n  \"type\": \"object\",\n  \"properties\": {\n}"_s);
    auto syntax = [toolSchema] {
        for (const EditorMarker &m : toolSchema->markers()) {
            if (m.error && m.message.contains(u"line 4"_s))
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(syntax(), 15000);
    QCOMPARE(s.editor.spec().tools.at(0).inputSchema.value(u"required"_s).toString(), u"id"_s);
}

// ---- runs ---------------------------------------------------------------------------------

void TestSpecTab::schemaFieldsRoundTrip()
{
    using Type = SchemaFields::Type;
    SchemaFields::Field line;
    line.name = u"sku"_s;
    line.description = u"Article number"_s;
    SchemaFields::Field qty;
    qty.name = u"quantity"_s;
    qty.type = Type::Integer;
    qty.required = false;
    SchemaFields::Field lines;
    lines.name = u"lines"_s;
    lines.type = Type::Array;
    lines.itemType = Type::Object;
    lines.children = { qty, line };
    SchemaFields::Field status;
    status.name = u"status"_s;
    status.enumValues = { u"open"_s, u"paid"_s };
    status.description = u"Where the invoice stands."_s;
    status.nullable = true;
    SchemaFields::Field total;
    total.name = u"total"_s;
    total.type = Type::Number;
    total.nullable = true;
    SchemaFields::Field tags;
    tags.name = u"tags"_s;
    tags.type = Type::Array;
    tags.itemType = Type::String;
    SchemaFields::Field extra;
    extra.name = u"extra"_s;
    extra.type = Type::Any;
    extra.required = false;
    SchemaFields::Field address;
    address.name = u"address"_s;
    address.type = Type::Object;
    address.closed = false;
    address.children = { line };
    // Sorted by name: the spec's JSON objects keep their keys in that order.
    const QList<SchemaFields::Field> fields { address, extra, lines, status, tags, total };

    const QJsonObject schema = SchemaFields::toSchema(fields);
    const QJsonObject items = schema[u"properties"_s][u"lines"_s][u"items"_s].toObject();
    QCOMPARE(items[u"type"_s].toString(), u"object"_s);
    QCOMPARE(items[u"required"_s].toArray(), QJsonArray { u"sku"_s });
    QCOMPARE(items[u"additionalProperties"_s], QJsonValue(false));
    // A value that may be null lists null among the allowed values too, or null would not validate.
    QCOMPARE(schema[u"properties"_s][u"status"_s][u"enum"_s].toArray(),
             (QJsonArray { u"open"_s, u"paid"_s, QJsonValue::Null }));
    QCOMPARE(schema[u"properties"_s][u"total"_s][u"type"_s].toArray(),
             (QJsonArray { u"number"_s, u"null"_s }));
    QVERIFY(!schema[u"properties"_s][u"extra"_s].toObject().contains(u"type"_s));
    QVERIFY(!schema[u"properties"_s][u"address"_s].toObject().contains(u"additionalProperties"_s));
    QCOMPARE(schema[u"required"_s].toArray(),
             (QJsonArray { u"address"_s, u"lines"_s, u"status"_s, u"tags"_s, u"total"_s }));

    const SchemaFields::Parsed back = SchemaFields::fromSchema(schema);
    QVERIFY2(back.representable(), qPrintable(back.unsupported.join(u", "_s)));
    QVERIFY(back.closed);
    QCOMPARE(back.fields.size(), fields.size());
    for (qsizetype i = 0; i < fields.size(); ++i)
        QVERIFY2(back.fields.at(i) == fields.at(i), qPrintable(fields.at(i).name));
    QCOMPARE(SchemaFields::toSchema(back.fields, back.closed), schema);

    // The bundled sample is the common case (with a nullable number) and reads back unchanged.
    QFile f(sourcePath(u"resources/samples/lunar-landing.spec.json"_s));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject sample =
        QJsonDocument::fromJson(f.readAll()).object()[u"response_schema"_s].toObject();
    const SchemaFields::Parsed parsedSample = SchemaFields::fromSchema(sample);
    QVERIFY2(parsedSample.representable(), qPrintable(parsedSample.unsupported.join(u", "_s)));
    QCOMPARE(parsedSample.fields.size(), 5);

    // Anything else is named, never dropped: the caller keeps the JSON as it is.
    auto reasons = [](const char *json) {
        return SchemaFields::fromSchema(QJsonDocument::fromJson(json).object()).unsupported;
    };
    QVERIFY(
        reasons(
            R"({"type":"object","$defs":{"a":{}},"properties":{"x":{"anyOf":[{"type":"string"}]}}})")
            .contains(u"$defs"_s));
    QVERIFY(reasons(R"({"type":"object","properties":{"x":{"anyOf":[{"type":"string"}]}}})")
                .contains(u"anyOf"_s));
    QVERIFY(reasons(R"({"type":"object","properties":{"x":{"type":"string","pattern":"^a"}}})")
                .contains(u"pattern"_s));
    QVERIFY(reasons(R"({"type":"object","properties":{"x":{"type":"integer","minimum":1}}})")
                .contains(u"minimum"_s));
    QVERIFY(reasons(R"({"type":"object","properties":{"x":{"type":"string","enum":["a,b"]}}})")
                .contains(u"enum"_s));
    QVERIFY(reasons(R"({"type":"object","required":["nope"],"properties":{}})").size() == 1);
    QVERIFY(!reasons(R"({"type":"array"})").isEmpty());
    QVERIFY(
        !reasons(R"({"type":"object","properties":{"x":{"type":"array","items":{}}}})").isEmpty());
}

void TestSpecTab::schemaBuilderLeavesUnsupportedSchemaAlone()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    SchemaBuilder *builder = s.editor.schemaBuilder();
    QVERIFY(builder);
    QVERIFY(!builder->isReadOnly());
    QCOMPARE(builder->model()->rowCount(), 5);

    const QString text = uR"({
    "$defs": {"site": {"type": "string", "minLength": 2}},
    "properties": {
        "site": {"$ref": "#/$defs/site"},
        "mass": {"anyOf": [{"type": "number"}, {"type": "null"}]}
    },
    "required": ["site", "mass"],
    "type": "object"
})"_s;
    s.editor.tabs()->setCurrentWidget(s.editor.findChild<QWidget *>(u"schemaBuilderSplitter"_s));
    s.editor.responseSchemaEditor()->setPlainText(text);
    QTRY_VERIFY_WITH_TIMEOUT(s.editor.spec().responseSchema
                                 && s.editor.spec().responseSchema->contains(u"$defs"_s),
                             15000);
    QVERIFY(builder->isReadOnly());
    QVERIFY2(
        builder->message().startsWith(u"This schema uses features the builder does not show ("_s),
        qPrintable(builder->message()));
    QVERIFY(builder->message().contains(u"$defs"_s));
    QVERIFY(builder->message().contains(u"anyOf"_s));
    QVERIFY(builder->message().endsWith(u"edit it in the JSON below."_s));
    QVERIFY(!builder->findChild<QPushButton *>(u"schemaAddField"_s)->isEnabled());
    QVERIFY(!builder->view()->isVisible());
    QVERIFY(builder->findChild<QLabel *>(u"schemaBuilderMessage"_s)->isVisible());
    QCOMPARE(builder->model()->addField({}), QModelIndex());
    QCOMPARE(builder->model()->rowCount(), 0);
    saveShot(&s.splitter, u"schema-builder-json-only.png"_s);

    const QJsonObject before = *s.editor.spec().responseSchema;
    const int undoCount = s.document.undoStack()->count();
    s.editor.tabs()->setCurrentIndex(0);
    QTest::qWait(50);
    s.editor.tabs()->setCurrentWidget(s.editor.findChild<QWidget *>(u"schemaBuilderSplitter"_s));
    QTest::qWait(50);
    QCOMPARE(s.editor.responseSchemaEditor()->toPlainText(), text);
    QCOMPARE(*s.editor.spec().responseSchema, before);
    QCOMPARE(s.document.undoStack()->count(), undoCount);
    QVERIFY((&s.raw)->toPlainText().contains(u"$defs"_s));

    // Simplified back to the common case, the fields come back with room to show them.
    s.editor.responseSchemaEditor()->setPlainText(
        uR"({"type": "object", "properties": {"site": {"type": "string"}}, "required": ["site"]})"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!builder->isReadOnly(), 15000);
    QCOMPARE(builder->model()->rowCount(), 1);
    QVERIFY(builder->message().isEmpty());
    QTRY_VERIFY(builder->view()->isVisible() && builder->height() > 150);
}

void TestSpecTab::schemaBuilderEditsSpecAndUndo()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    SchemaBuilder *builder = s.editor.schemaBuilder();
    QTreeView *view = builder->view();
    QCOMPARE(view->objectName(), u"schemaFields"_s);
    QAbstractItemModelTester tester(builder->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    s.editor.tabs()->setCurrentWidget(s.editor.findChild<QWidget *>(u"schemaBuilderSplitter"_s));
    s.splitter.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&s.splitter));
    QVERIFY(!s.document.isModified());

    auto rowOf = [&](const QString &name) {
        for (int r = 0; r < builder->model()->rowCount(); ++r) {
            if (builder->model()->index(r, 0).data().toString() == name)
                return r;
        }
        return -1;
    };
    const int site = rowOf(u"site"_s);
    QVERIFY(site >= 0);

    // Edit the description the way a person does: select, F2, type, Enter.
    const QModelIndex desc = builder->model()->index(site, SchemaFieldModel::DescriptionColumn);
    view->setFocus();
    view->setCurrentIndex(desc);
    QTest::keyClick(view, Qt::Key_F2);
    auto *line = view->viewport()->findChild<QLineEdit *>();
    QVERIFY(line);
    line->selectAll();
    QTest::keyClicks(line, u"Where it came down."_s);
    QTest::keyClick(line, Qt::Key_Return);
    QTRY_COMPARE(s.editor.spec()
                     .responseSchema->value(u"properties"_s)[u"site"_s][u"description"_s]
                     .toString(),
                 u"Where it came down."_s);
    QVERIFY(s.document.isModified());
    QVERIFY(s.editor.responseSchemaEditor()->toPlainText().contains(u"Where it came down."_s));
    QVERIFY((&s.raw)->toPlainText().contains(u"Where it came down."_s));
    // The sample's other keywords stay as they were.
    QCOMPARE(
        s.editor.spec().responseSchema->value(u"properties"_s)[u"mass_kg"_s][u"type"_s].toArray(),
        (QJsonArray { u"number"_s, u"null"_s }));

    // Add a field inside a new list of objects: a nested object in an array reaches the spec.
    view->setCurrentIndex(builder->model()->index(site, 0));
    builder->findChild<QPushButton *>(u"schemaAddField"_s)->click();
    QApplication::processEvents();
    const QModelIndex added = view->currentIndex();
    QVERIFY(added.isValid());
    QLineEdit *nameEditor = nullptr;
    for (QLineEdit *e : view->viewport()->findChildren<QLineEdit *>()) {
        if (e->isVisible())
            nameEditor = e;
    }
    QVERIFY(nameEditor);
    QCOMPARE(nameEditor->text(), u"field6"_s);
    nameEditor->selectAll();
    QTest::keyClicks(nameEditor, u"crew"_s);
    QTest::keyClick(nameEditor, Qt::Key_Return);

    QTRY_COMPARE(added.data().toString(), u"crew"_s); // the delegate commits on the next loop turn
    QVERIFY(builder->model()->setData(added.siblingAtColumn(SchemaFieldModel::TypeColumn),
                                      int(SchemaFields::Type::Array)));
    QVERIFY(builder->model()->setData(added.siblingAtColumn(SchemaFieldModel::ItemTypeColumn),
                                      int(SchemaFields::Type::Object)));
    view->setCurrentIndex(builder->model()->index(rowOf(u"crew"_s), 0));
    QVERIFY(builder->findChild<QPushButton *>(u"schemaAddChildField"_s)->isEnabled());
    builder->findChild<QPushButton *>(u"schemaAddChildField"_s)->click();
    QApplication::processEvents();
    if (auto *e = view->viewport()->findChild<QLineEdit *>(); e && e->isVisible())
        QTest::keyClick(e, Qt::Key_Escape);
    const QJsonObject items =
        s.editor.spec().responseSchema->value(u"properties"_s)[u"crew"_s][u"items"_s].toObject();
    QCOMPARE(items[u"type"_s].toString(), u"object"_s);
    QVERIFY(items[u"properties"_s].toObject().contains(u"field1"_s));
    QVERIFY(s.editor.spec().responseSchema->value(u"required"_s).toArray().contains(u"crew"_s));

    // Screenshot of the builder at 1280x800.
    s.splitter.resize(1280, 800);
    s.splitter.setSizes({ 860, 420 });
    view->expandAll();
    saveShot(&s.splitter, u"schema-builder.png"_s);

    // Ctrl+Z with the fields in focus undoes one builder edit at a time, through the spec's stack.
    view->setFocus();
    // add, name, type, item type, field inside: five steps.
    for (int i = 0; i < 5; ++i)
        QTest::keySequence(view, QKeySequence::Undo);
    QVERIFY(specChecked(&s.document));
    QVERIFY(!s.editor.spec().responseSchema->value(u"properties"_s).toObject().contains(u"crew"_s));
    QCOMPARE(rowOf(u"crew"_s), -1);
    QCOMPARE(s.editor.spec()
                 .responseSchema->value(u"properties"_s)[u"site"_s][u"description"_s]
                 .toString(),
             u"Where it came down."_s);
    QTest::keySequence(view, QKeySequence::Undo);
    QVERIFY(specChecked(&s.document));
    QCOMPARE(s.editor.spec()
                 .responseSchema->value(u"properties"_s)[u"site"_s][u"description"_s]
                 .toString(),
             u"Name of the landing site."_s);
    QVERIFY(!s.document.isModified());
    QCOMPARE(builder->model()
                 ->index(rowOf(u"site"_s), SchemaFieldModel::DescriptionColumn)
                 .data()
                 .toString(),
             u"Name of the landing site."_s);
}

void TestSpecTab::runReplaySampleToCompletion()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    QVERIFY(s.panel.inputText().startsWith(u"Mission report"_s));
    s.panel.runAction()->trigger();
    QVERIFY(s.panel.isRunning());
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QVERIFY(result.stored);
    QCOMPARE(result.record.response.toObject().value(u"site"_s).toString(), u"Reiner Gamma"_s);
    // Two attempts (a truncated reply reasked), usage per turn and in total.
    QCOMPARE(s.panel.attempts(), 2);
    // 932 prompt tokens in all, 384 of them read from the provider's cache.
    QCOMPARE(s.panel.totalUsage().promptTokens(), 932);
    QCOMPARE(s.panel.totalUsage().inputTokens, 932 - 384);
    QCOMPARE(s.panel.totalUsage().outputTokens, 93);
    QVERIFY2(s.panel.findChild<QLabel *>(u"runUsage"_s)
                 ->text()
                 .contains(u"total in 932 / out 93 (cached 384)"_s),
             qPrintable(s.panel.findChild<QLabel *>(u"runUsage"_s)->text()));
    QVERIFY2(s.panel.findChild<QLabel *>(u"runStatus"_s)->text().contains(u"Completed"_s),
             qPrintable(s.panel.findChild<QLabel *>(u"runStatus"_s)->text()));
    const TranscriptModel *t = s.panel.transcript();
    QCOMPARE(t->item(0).kind, TranscriptModel::Kind::System);
    QCOMPARE(t->item(1).kind, TranscriptModel::Kind::User);
    QVERIFY(findRow(t, TranscriptModel::Kind::Correction) > 0);
    const int resultRow = findRow(t, TranscriptModel::Kind::Result);
    QCOMPARE(resultRow, t->count() - 1);
    QVERIFY(t->item(resultRow).text.contains(u"\"site\": \"Reiner Gamma\""_s));
    // The raw request and response of a turn are one click away.
    QVERIFY(t->turnRaw(0).has_value());
    QVERIFY(t->turnRaw(1).has_value());
    // The reask raised the output limit from 32 to 256 tokens, and the replayed request says
    // so; the correction goes in as a plain user message, without Callscope's own marks.
    QCOMPARE(t->turnRaw(0)->requestBody.value(u"max_tokens"_s).toInt(), 32);
    QCOMPARE(t->turnRaw(1)->requestBody.value(u"max_tokens"_s).toInt(), 256);
    const QByteArray reasked = QJsonDocument(t->turnRaw(1)->requestBody).toJson();
    QVERIFY2(!reasked.contains("callscope_"), reasked.constData());
    // Each turn's usage is shown on its rows.
    const int firstCall = findRow(t, TranscriptModel::Kind::ToolCall);
    QCOMPARE(t->index(firstCall).data(TranscriptModel::UsageRole).toString(),
             u"in 412 / out 32 tokens"_s);
    const int secondCall = findRow(t, TranscriptModel::Kind::ToolCall, firstCall + 1);
    QCOMPARE(t->index(secondCall).data(TranscriptModel::UsageRole).toString(),
             u"in 520 / out 61 tokens"_s);
    s.panel.transcriptView()->setCurrentIndex(
        t->index(findRow(t, TranscriptModel::Kind::ToolCall)));
    s.panel.rawAction()->trigger();
    auto *dialog = s.panel.findChild<QDialog *>(u"rawExchangeDialog"_s);
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    dialog->close();
    // Stored in the history database.
    auto stored = m_services->store()->getCall(result.record.id);
    QVERIFY(stored.ok());
    QCOMPARE(callStatusName(stored.value().status), u"completed"_s);
    saveShot(&s.splitter, u"run-finished.png"_s);
}

void TestSpecTab::runOpenAIAgainstFakeProvider()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    QCOMPARE(s.editor.spec().engine.baseUrl, m_server->baseUrl().toString());
    s.panel.setInputText(u"Summarise ticket 7."_s);
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"call_a"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"call_b"_s, u"submit_output"_s, goodOutput() } }, 40, 12)));
    s.panel.run();
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(result.record.response.toObject(), goodOutput());
    QCOMPARE(m_server->requestCount(), 2);
    QCOMPARE(m_server->requests().at(0).header("authorization"), "Bearer sk-spectab-test"_ba);
    // The command tool (/bin/cat) echoed its arguments back as the result.
    QCOMPARE(toolMessages(m_server->requests().at(1)).value(u"call_a"_s), u"{\"id\":7}"_s);
    QCOMPARE(s.panel.totalUsage().inputTokens, 60);
    QCOMPARE(s.panel.attempts(), 2);
    const TranscriptModel *t = s.panel.transcript();
    const int callRow = findRow(t, TranscriptModel::Kind::ToolCall);
    QVERIFY(callRow > 0);
    QCOMPARE(t->item(callRow).text, u"{\n    \"id\": 7\n}"_s);
    const int resultRow = findRow(t, TranscriptModel::Kind::ToolResult);
    QCOMPARE(t->item(resultRow).text, u"{\"id\":7}"_s);
    QVERIFY(!t->item(resultRow).isError);
    QCOMPARE(t->turnRaw(0)->requestBody.value(u"model"_s).toString(), u"gpt-4o-mini"_s);
    QVERIFY(t->turnRaw(1)->rawResponse.contains("Export runs out of memory"));
}

void TestSpecTab::stepPausesAtEachBreakpoint_data()
{
    QTest::addColumn<int>("breakpoint");
    QTest::addColumn<int>("pauses");
    QTest::newRow("before_request") << int(Breakpoint::BeforeRequest) << 3;
    QTest::newRow("after_reply") << int(Breakpoint::AfterReply) << 3;
    QTest::newRow("before_tool") << int(Breakpoint::BeforeTool) << 1;
    QTest::newRow("after_tool_result") << int(Breakpoint::AfterToolResult) << 1;
    QTest::newRow("validation_failure") << int(Breakpoint::OnValidationFailure) << 1;
}

void TestSpecTab::stepPausesAtEachBreakpoint()
{
    QFETCH(int, breakpoint);
    QFETCH(int, pauses);
    const auto bp = Breakpoint(breakpoint);
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/steps.spec.json"_s)));
    s.panel.setInputText(u"Summarise ticket 7."_s);
    s.panel.setBreakpoints(bp);
    QSignalSpy pausedSpy(&s.panel, &RunPanel::pausedChanged);
    s.panel.run();
    int seen = 0;
    while (true) {
        QTRY_VERIFY_WITH_TIMEOUT(s.panel.isPaused() || !s.panel.isRunning(), 10000);
        if (!s.panel.isRunning())
            break;
        QCOMPARE(s.panel.pausedAt(), bp);
        QVERIFY(s.panel.findChild<QGroupBox *>(u"pausePanel"_s)->isVisible());
        QVERIFY(s.panel.continueAction()->isEnabled());
        QVERIFY(s.panel.findChild<QLabel *>(u"runStatus"_s)
                    ->text()
                    .contains(breakpointDisplayName(bp)));
        if (bp == Breakpoint::BeforeTool) {
            QVERIFY(s.panel.findChild<JsonEditor *>(u"pauseArguments"_s)->isVisible());
            QCOMPARE(
                QJsonDocument::fromJson(
                    s.panel.findChild<JsonEditor *>(u"pauseArguments"_s)->toPlainText().toUtf8())
                    .object(),
                QJsonObject({ { u"id"_s, 7 } }));
            saveShot(&s.splitter, u"run-paused.png"_s);
        }
        if (bp == Breakpoint::AfterToolResult) {
            QVERIFY(s.panel.findChild<QPlainTextEdit *>(u"pauseResult"_s)->isVisible());
            QVERIFY(s.panel.findChild<QPlainTextEdit *>(u"pauseResult"_s)
                        ->toPlainText()
                        .contains(u"Export fails for sessions over 10 MB"_s));
        }
        if (bp == Breakpoint::OnValidationFailure)
            QVERIFY(s.panel.findChild<QPlainTextEdit *>(u"pauseInfo"_s)
                        ->toPlainText()
                        .contains(u"summary"_s));
        ++seen;
        s.panel.continueAction()->trigger();
    }
    QCOMPARE(seen, pauses);
    QCOMPARE(callStatusName(s.panel.lastResult()->record.status), u"completed"_s);
    QCOMPARE(pausedSpy.count(), 2 * pauses);
}

void TestSpecTab::stepWithAllBreakpoints()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/steps.spec.json"_s)));
    s.panel.setInputText(u"Summarise ticket 7."_s);
    s.panel.stepAction()->trigger();
    QStringList seen;
    while (true) {
        QTRY_VERIFY_WITH_TIMEOUT(s.panel.isPaused() || !s.panel.isRunning(), 10000);
        if (!s.panel.isRunning())
            break;
        seen.append(breakpointName(s.panel.pausedAt()));
        s.panel.continueRun();
    }
    QCOMPARE(seen,
             QStringList({ u"before_request"_s, u"after_reply"_s, u"before_tool"_s,
                           u"after_tool_result"_s, u"before_request"_s, u"after_reply"_s,
                           u"validation_failure"_s, u"before_request"_s, u"after_reply"_s }));
    QCOMPARE(callStatusName(s.panel.lastResult()->record.status), u"completed"_s);
    QVERIFY(findRow(s.panel.transcript(), TranscriptModel::Kind::ValidationFailure) > 0);
}

void TestSpecTab::editedToolResultReachesModel()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s)));
    auto *baseUrl = s.editor.findChild<QLineEdit *>(u"baseUrl"_s);
    baseUrl->setFocus();
    QTest::keyClicks(baseUrl, m_server->baseUrl().toString());
    QCOMPARE(s.editor.spec().engine.baseUrl, m_server->baseUrl().toString());
    s.panel.setInputText(u"Summarise ticket 7."_s);
    s.panel.setBreakpoints(Breakpoint::BeforeTool | Breakpoint::AfterToolResult);
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"call_a"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"call_b"_s, u"submit_output"_s, goodOutput() } })));
    s.panel.run();
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.pausedAt() == Breakpoint::BeforeTool, 10000);
    // Edit the arguments before the tool runs...
    s.panel.findChild<JsonEditor *>(u"pauseArguments"_s)->setPlainText(u"{ \"id\": 8 }"_s);
    s.panel.continueRun();
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.pausedAt() == Breakpoint::AfterToolResult, 10000);
    QCOMPARE(s.panel.findChild<QPlainTextEdit *>(u"pauseResult"_s)->toPlainText(), u"{\"id\":8}"_s);
    // ...and the result after it ran.
    s.panel.findChild<QPlainTextEdit *>(u"pauseResult"_s)
        ->setPlainText(u"Ticket 8 (edited by hand): export fails over 10 MB"_s);
    s.panel.continueRun();
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(m_server->requestCount(), 2);
    const RecordedRequest &second = m_server->requests().at(1);
    QCOMPARE(toolMessages(second).value(u"call_a"_s),
             u"Ticket 8 (edited by hand): export fails over 10 MB"_s);
    // The model also sees the arguments that actually ran.
    bool sawEditedArgs = false;
    for (const QJsonValue &v : requestMessages(second)) {
        for (const QJsonValue &c : v.toObject().value(u"tool_calls"_s).toArray())
            sawEditedArgs |=
                c.toObject().value(u"function"_s).toObject().value(u"arguments"_s).toString()
                == u"{\"id\":8}";
    }
    QVERIFY(sawEditedArgs);
}

void TestSpecTab::approveRefuseEditApprove()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    s.editor.tabs()->setCurrentIndex(3);
    QCheckBox *approval = s.editor.findChild<QCheckBox *>(u"toolApproval"_s);
    approval->setChecked(true);
    QVERIFY(s.editor.spec().tools.at(0).requiresApproval);
    s.panel.setInputText(u"Summarise tickets 1, 2 and 3."_s);
    m_server->enqueue(
        FakeReply::json(200,
                        chatToolCalls({ { u"c1"_s, u"get_ticket"_s, { { u"id"_s, 1 } } },
                                        { u"c2"_s, u"get_ticket"_s, { { u"id"_s, 2 } } },
                                        { u"c3"_s, u"get_ticket"_s, { { u"id"_s, 3 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"c4"_s, u"get_ticket"_s, { { u"id"_s, 4 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"c5"_s, u"submit_output"_s, goodOutput() } })));
    ApprovalPanel *panel = s.panel.findChild<ApprovalPanel *>(u"approvalPanel"_s);
    s.panel.run();

    // c1: refused with a reason the model gets.
    QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible(), 10000);
    QCOMPARE(panel->mode(), ApprovalPanel::Mode::Approval);
    QCOMPARE(panel->call().id, u"c1"_s);
    QCOMPARE(QJsonDocument::fromJson(panel->argumentsEditor()->toPlainText().toUtf8()).object(),
             QJsonObject({ { u"id"_s, 1 } }));
    QVERIFY(panel->argumentsEditor()->isReadOnly());
    saveShot(&s.splitter, u"approval-panel.png"_s);
    panel->reasonEdit()->setText(u"ticket 1 is confidential"_s);
    QTest::mouseClick(panel->refuseButton(), Qt::LeftButton);

    // c2: edit the arguments, then approve.
    QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible() && panel->call().id == u"c2", 10000);
    QTest::mouseClick(panel->editButton(), Qt::LeftButton);
    QVERIFY(!panel->argumentsEditor()->isReadOnly());
    panel->argumentsEditor()->setPlainText(u"{\"id\": 22}"_s);
    QTest::mouseClick(panel->approveButton(), Qt::LeftButton);

    // c3: approve and always allow the tool: c4 in the next turn needs no approval.
    QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible() && panel->call().id == u"c3", 10000);
    panel->alwaysAllowBox()->setChecked(true);
    QTest::mouseClick(panel->approveButton(), Qt::LeftButton);

    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(m_server->requestCount(), 3);
    const QHash<QString, QString> results = toolMessages(m_server->requests().at(1));
    QCOMPARE(results.value(u"c1"_s), u"refused by the user: ticket 1 is confidential"_s);
    QCOMPARE(results.value(u"c2"_s), u"{\"id\":22}"_s);
    QCOMPARE(results.value(u"c3"_s), u"{\"id\":3}"_s);
    QCOMPARE(toolMessages(m_server->requests().at(2)).value(u"c4"_s), u"{\"id\":4}"_s);
    QVERIFY(!panel->isVisible());
}

void TestSpecTab::manualToolResult()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    s.editor.tabs()->setCurrentIndex(3);
    auto *runner = s.editor.findChild<QComboBox *>(u"toolRunner"_s);
    runner->setCurrentIndex(runner->findData(int(ToolRunnerKind::Manual)));
    QCOMPARE(s.editor.spec().tools.at(0).runner, ToolRunnerKind::Manual);
    s.panel.setInputText(u"Summarise ticket 7."_s);
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"m1"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"m2"_s, u"submit_output"_s, goodOutput() } })));
    s.panel.run();
    ApprovalPanel *panel = s.panel.findChild<ApprovalPanel *>(u"approvalPanel"_s);
    QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible(), 10000);
    QCOMPARE(panel->mode(), ApprovalPanel::Mode::Manual);
    QVERIFY(panel->resultEdit()->isVisible());
    panel->resultEdit()->setPlainText(u"Ticket 7: typed by a person"_s);
    QTest::mouseClick(panel->submitButton(), Qt::LeftButton);
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(toolMessages(m_server->requests().at(1)).value(u"m1"_s),
             u"Ticket 7: typed by a person"_s);
}

void TestSpecTab::stopEndsCancelled()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    s.panel.setInputText(u"Summarise ticket 7."_s);
    m_server->enqueue(FakeReply::stall());
    s.panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->requestCount(), 1, 10000);
    QVERIFY(s.panel.stopAction()->isEnabled());
    s.panel.stopAction()->trigger();
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"cancelled"_s);
    QVERIFY(result.stored);
    QVERIFY2(s.panel.findChild<QLabel *>(u"runStatus"_s)->text().contains(u"Cancelled"_s),
             qPrintable(s.panel.findChild<QLabel *>(u"runStatus"_s)->text()));
    QCOMPARE(s.panel.transcript()->item(s.panel.transcript()->count() - 1).kind,
             TranscriptModel::Kind::Error);
    QVERIFY(s.panel.runAction()->isEnabled());
    QVERIFY(!s.panel.stopAction()->isEnabled());
    auto stored = m_services->store()->getCall(result.record.id);
    QVERIFY(stored.ok());
    QCOMPARE(callStatusName(stored.value().status), u"cancelled"_s);
}

// A base URL that reaches some web server: the banner says in one line who answered and how,
// the server's page is behind Details, and the 501 was asked once.
void TestSpecTab::wrongServerUrlIsOneLineWithDetails()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    s.panel.setInputText(u"Summarise ticket 7."_s);
    const QByteArray page =
        "<!DOCTYPE html>\n<html><head><title>Error response</title></head>\n<body>\n"
        "<h1>Error response</h1>\n<p>Error code: 501</p>\n<p>Message: Unsupported method "
        "('POST').</p>\n"
        "</body>\n</html>\n";
    const qsizetype before = m_server->requestCount();
    m_server->enqueue(FakeReply::text(501, page, "text/html"));
    s.panel.run();
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"failed"_s);
    QCOMPARE(m_server->requestCount(), before + 1); // not retried
    NoticeBar *bar = s.panel.messageBar();
    QVERIFY(bar->isVisible());
    const QString line = u"the server at %1/v1/chat/completions answered 501 Not Implemented: it "
                         u"does not look like a "
                         "Chat Completions API"_s.arg(m_server->baseUrl().toString());
    QVERIFY2(bar->text().endsWith(line), qPrintable(bar->text()));
    // Said once: not also "(the call could not run)" before it.
    QCOMPARE(bar->text(), u"The call failed: "_s + line);
    QVERIFY2(!bar->text().contains(u'<') && !bar->text().contains(u'\n'), qPrintable(bar->text()));
    s.splitter.resize(1280, 800);
    saveShot(&s.splitter, u"wrong-url-one-line.png"_s);
    // The page is one click away.
    QVERIFY(bar->detailsButton()->isVisible());
    QVERIFY(!bar->detailsView()->isVisible());
    QTest::mouseClick(bar->detailsButton(), Qt::LeftButton);
    QVERIFY(bar->detailsView()->isVisible());
    QVERIFY2(bar->details().contains(u"Unsupported method ('POST')"_s), qPrintable(bar->details()));
    QTest::mouseClick(bar->detailsButton(), Qt::LeftButton);
    QVERIFY(!bar->detailsView()->isVisible());
}

void TestSpecTab::refusalThenAnotherEngine()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/refusal.spec.json"_s)));
    const QString input = s.panel.inputText();
    QVERIFY(!input.isEmpty());
    s.panel.run();
    const LaunchResult refused = waitFinished(s);
    QCOMPARE(callStatusName(refused.record.status), u"failed"_s);
    QCOMPARE(errorCategoryName(refused.record.errorCategory), u"refusal"_s);
    QVERIFY(refused.stored);
    QVERIFY(s.panel.findChild<QGroupBox *>(u"otherEnginePanel"_s)->isVisible());
    QVERIFY(s.panel.messageBar()->isVisible());
    QVERIFY2(s.panel.messageBar()->text().contains(u"refused"_s),
             qPrintable(s.panel.messageBar()->text()));
    const int errorRow = s.panel.transcript()->count() - 1;
    QCOMPARE(s.panel.transcript()->item(errorRow).title, u"Failed: the model refused"_s);
    QCOMPARE(s.panel.transcript()->item(errorRow).text, refused.record.error);

    // Pick another engine and run the same input there.
    s.panel.findChild<QComboBox *>(u"otherEngineType"_s)
        ->setCurrentIndex(
            s.panel.findChild<QComboBox *>(u"otherEngineType"_s)->findData(u"openai"_s));
    s.panel.findChild<QLineEdit *>(u"otherEngineModel"_s)->setText(u"gpt-4o-mini"_s);
    s.panel.findChild<QLineEdit *>(u"otherEngineBaseUrl"_s)
        ->setText(m_server->baseUrl().toString());
    s.panel.findChild<QLineEdit *>(u"otherEngineKeyEnv"_s)->setText(QString::fromLatin1(kKeyEnv));
    m_server->enqueue(FakeReply::json(
        200,
        chatToolCalls(
            { { u"r1"_s,
                u"submit_output"_s,
                { { u"name"_s, u"A. Person"_s }, { u"home_address"_s, u"unknown"_s } } } })));
    QTest::mouseClick(s.panel.findChild<QPushButton *>(u"runOnOtherEngineButton"_s),
                      Qt::LeftButton);
    const LaunchResult second = waitFinished(s);
    QCOMPARE(callStatusName(second.record.status), u"completed"_s);
    QCOMPARE(second.record.engineType, u"openai"_s);
    QCOMPARE(second.record.parent, std::optional<qint64>(refused.record.id));
    QCOMPARE(second.record.metadata.value(u"rerun_of"_s).toString(),
             QString::number(refused.record.id));
    QCOMPARE(m_server->requestCount(), 1);
    const QJsonArray messages = requestMessages(m_server->requests().at(0));
    QCOMPARE(messages.last().toObject().value(u"content"_s).toString(), input);
    QVERIFY(!s.panel.findChild<QGroupBox *>(u"otherEnginePanel"_s)->isVisible());
}

void TestSpecTab::attachmentsModel()
{
    Studio s(m_services.get());
    QAbstractItemModelTester tester(s.panel.attachments(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString png = m_dir->filePath(u"dot.png"_s);
    {
        QFile f(png);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP"
                                       "8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="));
    }
    Dialogs::setFileResponder([&png](const QString &) { return png; });
    s.panel.attachAction()->trigger();
    Dialogs::setFileResponder({});
    QCOMPARE(s.panel.attachments()->rowCount(), 1);
    QCOMPARE(s.panel.attachments()->attachments().at(0).mediaType, u"image/png"_s);
    QCOMPARE(s.panel.attachments()->attachments().at(0).name, u"dot.png"_s);
    QVERIFY(s.panel.attachments()
                ->data(s.panel.attachments()->index(0))
                .toString()
                .contains(u"image/png"_s));
    QVERIFY(!s.panel.attachments()->addFile(m_dir->filePath(u"nope.bin"_s)).isEmpty());
    // Dropped files are attached too.
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(png) });
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&s.panel, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&s.panel, &drop);
    QCOMPARE(s.panel.attachments()->rowCount(), 2);
    s.panel.attachments()->remove(0);
    QCOMPARE(s.panel.attachments()->rowCount(), 1);
}

void TestSpecTab::streamingKeepsEventLoopResponsive()
{
    // 20,000 deltas over 10 seconds: 20 SSE events every 10 ms, all the same size.
    constexpr int kDeltas = 20000;
    constexpr int kPerTick = 20;
    constexpr int kTickMs = 10;
    QList<std::pair<QByteArray, QByteArray>> events;
    QString expected;
    const QJsonObject head { { u"id"_s, u"chatcmpl-s"_s },
                             { u"object"_s, u"chat.completion.chunk"_s },
                             { u"created"_s, 1 },
                             { u"model"_s, u"gpt-4o-mini"_s } };
    auto chunk = [&head](const QJsonObject &delta, const QJsonValue &finish) {
        QJsonObject o = head;
        o.insert(u"choices"_s,
                 QJsonArray { QJsonObject {
                     { u"index"_s, 0 }, { u"delta"_s, delta }, { u"finish_reason"_s, finish } } });
        return compact(o);
    };
    events.append(
        { QByteArray(),
          chunk({ { u"role"_s, u"assistant"_s }, { u"content"_s, u""_s } }, QJsonValue()) });
    qsizetype eventBytes = 0;
    for (int i = 0; i < kDeltas; ++i) {
        const QString piece = u"w%1 "_s.arg(qlonglong(i), 5, 10, QChar(u'0'));
        expected += piece;
        events.append({ QByteArray(), chunk({ { u"content"_s, piece } }, QJsonValue()) });
        eventBytes = 6 + events.last().second.size() + 2; // "data: " + json + "\n\n"
    }
    events.append({ QByteArray(), chunk({}, u"stop"_s) });
    QJsonObject usage = head;
    usage.insert(u"choices"_s, QJsonArray());
    usage.insert(u"usage"_s,
                 QJsonObject { { u"prompt_tokens"_s, 30 },
                               { u"completion_tokens"_s, kDeltas },
                               { u"total_tokens"_s, kDeltas + 30 } });
    events.append({ QByteArray(), compact(usage) });
    events.append({ QByteArray(), "[DONE]"_ba });

    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s)));
    // Plain text out: no schema, no tools, streamed.
    s.sides.setCurrentWidget(&s.raw);
    QJsonObject json = specToJson(s.editor.spec());
    json.remove(u"response_schema"_s);
    json.remove(u"tools"_s);
    json.insert(u"output_parser"_s, u"text"_s);
    QJsonObject engine = json.value(u"engine"_s).toObject();
    engine.insert(u"stream"_s, true);
    engine.insert(u"base_url"_s, m_server->baseUrl().toString());
    json.insert(u"engine"_s, engine);
    (&s.raw)->setPlainText(QString::fromUtf8(QJsonDocument(json).toJson()));
    s.flush();
    QVERIFY(!s.editor.spec().responseSchema);
    QVERIFY(s.editor.spec().engine.stream);
    s.panel.setInputText(u"Count."_s);
    m_server->enqueue(FakeReply::sseEvents(events).dripped(int(eventBytes * kPerTick), kTickMs));

    // Measure the gaps between timer ticks while the stream runs.
    QElapsedTimer clock;
    qint64 last = 0;
    qint64 maxGap = 0;
    QList<qint64> gaps;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    connect(&probe, &QTimer::timeout, this, [&] {
        const qint64 now = clock.elapsed();
        const qint64 gap = now - last;
        last = now;
        gaps.append(gap);
        maxGap = std::max(maxGap, gap);
    });
    QSignalSpy finished(&s.panel, &RunPanel::runFinished);
    s.panel.run();
    QTRY_VERIFY_WITH_TIMEOUT(m_server->requestCount() == 1, 15000);
    clock.start();
    probe.start();
    QVERIFY(finished.wait(60000));
    probe.stop();
    const qint64 elapsed = clock.elapsed();
    const LaunchResult result = finished.at(0).at(0).value<LaunchResult>();
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(result.record.response.toString(), expected);
    // The transcript holds the whole text, exactly.
    QCOMPARE(s.panel.transcript()->streamedText(), expected);
    const int row = findRow(s.panel.transcript(), TranscriptModel::Kind::Assistant);
    QVERIFY(row >= 0);
    QCOMPARE(s.panel.transcript()->item(row).text, expected);
    std::sort(gaps.begin(), gaps.end());
    const qint64 p99 = gaps.isEmpty() ? 0 : gaps.at(qsizetype(gaps.size() * 0.99));
    qInfo("streamed %d deltas in %lld ms; event-loop gaps: max %lld ms, p99 %lld ms, %lld ticks",
          kDeltas, elapsed, maxGap, p99, qint64(gaps.size()));
    QVERIFY2(elapsed >= 9000, "the stream should take about 10 seconds");
    // A blocked loop shows in most ticks, not one: on a busy machine the scheduler alone can
    // hold a single tick back 100 ms, so the bound is on the 99th percentile, with a ceiling
    // for the worst tick that only a real stall passes.
    // A GUI thread that decoded the stream itself would stall for the whole stream; the bound
    // leaves room for a machine busy with other work.
    QVERIFY2(p99 <= 150, qPrintable(u"the event loop stalled: p99 gap %1 ms"_s.arg(p99)));
    QVERIFY2(maxGap <= 1000, qPrintable(u"the event loop stalled for %1 ms"_s.arg(maxGap)));
}

void TestSpecTab::mainWindowRunsSampleOffline()
{
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    const QString sample = sourcePath(u"resources/samples/lunar-landing.spec.json"_s);
    QVERIFY(window.openSpecFile(sample) && specChecked(window));
    RunPanel *panel = window.runPanel();
    QVERIFY(panel->inputText().startsWith(u"Mission report, 14 March."_s));
    QCOMPARE(window.specForm()->spec().kind, u"extraction"_s);
    QCOMPARE(window.editorTabs()->currentWidget(), static_cast<QWidget *>(window.specForm()));
    QVERIFY(panel->isVisible());

    // Form -> text: a form edit lands in the JSON text (and marks the file modified).
    auto *maxTurns = window.specForm()->findChild<QSpinBox *>(u"maxTurns"_s);
    maxTurns->setValue(4);
    QVERIFY(window.currentDocument()->text().contains(u"\"max_turns\": 4"_s));
    QVERIFY(window.isModified());
    // Text -> form.
    QString text = window.currentDocument()->text();
    text.replace(u"\"max_turns\": 4"_s, u"\"max_turns\": 3"_s);
    QTextCursor cursor(window.jsonView()->document());
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
    QTRY_COMPARE_WITH_TIMEOUT(maxTurns->value(), 3, 15000);

    // Ctrl+R through the window's Run action, on the replay engine: no key, no network.
    QAction *run = nullptr;
    for (QAction *a : window.findChildren<QAction *>()) {
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R))
            run = run ? run : a;
    }
    QVERIFY(run);
    QSignalSpy finished(panel, &RunPanel::runFinished);
    run->trigger();
    QVERIFY(finished.wait(15000));
    const LaunchResult result = finished.at(0).at(0).value<LaunchResult>();
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(result.record.response.toObject().value(u"mass_kg"_s).toInt(), 1340);
    QVERIFY(result.stored);
    saveShot(&window, u"studio-main-window.png"_s);
    window.setWindowModified(false);
    window.currentDocument()->setClean();
}

// Two specs in two tabs: each has its own run view, so one's run, transcript, status, messages
// and findings never show in the other, and the two run at the same time.
void TestSpecTab::windowTwoSpecTabsRunApart()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), QSize(1280, 800));
    QVERIFY(window.openSpecFile(sourcePath(u"resources/samples/planner.spec.json"_s))
            && specChecked(window));
    SpecTab *planner = window.currentSpecTab();
    QVERIFY(window.openSpecFile(sourcePath(u"resources/samples/lunar-landing.spec.json"_s))
            && specChecked(window));
    SpecTab *lunar = window.currentSpecTab();
    QVERIFY(planner && lunar && planner != lunar);
    QCOMPARE(window.documentTabs()->count(), 2); // the untouched template gave its tab away
    QCOMPARE(window.documents().size(), 2);
    QCOMPARE(window.documentTabs()->tabText(0), u"planner.spec.json"_s);
    QCOMPARE(window.documentTabs()->tabText(1), u"lunar-landing.spec.json"_s);
    QCOMPARE(window.documentTabs()->tabToolTip(1),
             QDir::toNativeSeparators(sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    QVERIFY(window.documentTabs()->isMovable());
    QVERIFY(window.documentTabs()->tabsClosable());
    QVERIFY(planner->runPanel() != lunar->runPanel());

    // The planner waits for an approval in its tab while the lunar landing runs to its end.
    window.documentTabs()->setCurrentWidget(planner);
    QCOMPARE(window.runPanel(), planner->runPanel());
    QCOMPARE(window.currentFile(), planner->document()->path());
    QSignalSpy plannerDone(planner->runPanel(), &RunPanel::runFinished);
    planner->runPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(planner->runPanel()
                                 ->findChild<ApprovalPanel *>(u"approvalPanel"_s)
                                 ->approveButton()
                                 ->isVisibleTo(planner->runPanel()),
                             10000);
    QVERIFY(planner->runPanel()->isRunning());
    window.documentTabs()->setCurrentWidget(lunar);
    QCOMPARE(window.runPanel(), lunar->runPanel());
    QVERIFY(lunar->runPanel()->transcript()->count() == 0);
    QSignalSpy lunarDone(lunar->runPanel(), &RunPanel::runFinished);
    lunar->runPanel()->run();
    QVERIFY(lunarDone.wait(15000));
    QCOMPARE(lunarDone.at(0).at(0).value<LaunchResult>().record.status, CallStatus::Completed);
    QVERIFY(planner->runPanel()->isRunning()); // still waiting, untouched by the other run
    saveShot(&window, u"two-spec-tabs.png"_s);
    // The run view is whole beside the editor at 1280x800: no sideways scrolling.
    auto *runScroll = lunar->findChild<QScrollArea *>(u"runScroll"_s);
    QVERIFY(runScroll);
    QCOMPARE(runScroll->horizontalScrollBar()->maximum(), 0);
    auto *editorScroll = lunar->findChild<QScrollArea *>(u"editorScroll"_s);
    QVERIFY(editorScroll);
    QCOMPARE(editorScroll->horizontalScrollBar()->maximum(), 0);
    const QString lunarStatus = lunar->runPanel()->findChild<QLabel *>(u"runStatus"_s)->text();
    planner->runPanel()->findChild<ApprovalPanel *>(u"approvalPanel"_s)->approveButton()->click();
    QVERIFY(plannerDone.wait(15000));
    QCOMPARE(plannerDone.at(0).at(0).value<LaunchResult>().record.status, CallStatus::Completed);
    // Neither transcript holds the other's turns; the status of each is its own.
    auto text = [](TranscriptModel *model) {
        QString all;
        for (int i = 0; i < model->count(); ++i)
            all += model->index(i, 0).data(TranscriptModel::TextRole).toString() + u'\n';
        return all;
    };
    QVERIFY2(!text(lunar->runPanel()->transcript()).contains(u"ticket"_s, Qt::CaseInsensitive),
             qPrintable(text(lunar->runPanel()->transcript())));
    QVERIFY2(!text(planner->runPanel()->transcript()).contains(u"Mission report"_s),
             qPrintable(text(planner->runPanel()->transcript())));
    QCOMPARE(lunar->runPanel()->findChild<QLabel *>(u"runStatus"_s)->text(), lunarStatus);
    QCOMPARE(lunar->runPanel()->attempts(),
             int(lunarDone.at(0).at(0).value<LaunchResult>().record.attempts.size()));

    // A spec opened after the runs starts with an empty run view.
    window.newSpec();
    RunPanel *fresh = window.runPanel();
    QVERIFY(fresh != lunar->runPanel() && fresh != planner->runPanel());
    QCOMPARE(fresh->transcript()->count(), 0);
    QVERIFY(!fresh->lastResult());
    QCOMPARE(fresh->findChild<QLabel *>(u"runStatus"_s)->text(), u"Ready"_s);
    QVERIFY(fresh->messageBar()->text().isEmpty());

    // Findings are the spec's in front: a broken lunar text lists its error only in its tab.
    window.documentTabs()->setCurrentWidget(lunar);
    lunar->document()->replaceText(u"{\"kind\": 3}"_s);
    window.revalidate();
    QVERIFY(specChecked(window));
    QVERIFY(window.findingsModel()->count(SpecFinding::Severity::Error) > 0);
    QCOMPARE(window.findingsModel()->findings(), lunar->document()->findings());
    QVERIFY(!lunar->messageBar()->text().isEmpty());
    QSignalSpy reread(&window, &MainWindow::specReread);
    window.documentTabs()->setCurrentWidget(planner);
    QVERIFY(reread.size() >= 1); // History and the Experiment tab learn of the spec in front
    QCOMPARE(window.findingsModel()->count(SpecFinding::Severity::Error), 0);
    QCOMPARE(window.findingsModel()->findings(), planner->document()->findings());
    QVERIFY(planner->messageBar()->text().isEmpty());
    QVERIFY(window.currentSpec().has_value());
    QCOMPARE(window.currentSpec()->kind, planner->document()->spec()->kind);
    for (SpecDocument *document : window.documents())
        document->setClean();
}

// Breakpoints belong to a spec's run view: set in one tab, the other's stay as they were, and
// the Run menu shows the ones of the tab in front.
void TestSpecTab::windowTabsKeepTheirBreakpoints()
{
    MainWindow window;
    QVERIFY(window.openSpecFile(sourcePath(u"resources/samples/planner.spec.json"_s))
            && specChecked(window));
    SpecTab *first = window.currentSpecTab();
    QVERIFY(window.openSpecFile(sourcePath(u"resources/samples/refusal.spec.json"_s))
            && specChecked(window));
    SpecTab *second = window.currentSpecTab();
    first->runPanel()->setBreakpoints({});
    second->runPanel()->setBreakpoints({});
    first->runPanel()->setBreakpoints(Breakpoint::BeforeTool);
    QCOMPARE(first->runPanel()->breakpoints(), Breakpoints(Breakpoint::BeforeTool));
    QCOMPARE(second->runPanel()->breakpoints(), Breakpoints());
    second->runPanel()->setBreakpoints(Breakpoint::AfterToolResult);
    QCOMPARE(first->runPanel()->breakpoints(), Breakpoints(Breakpoint::BeforeTool));
    auto menuBreakpoints = [&window] {
        auto *menu = window.findChild<QMenu *>(u"breakpointsMenu"_s);
        return menu ? menu->actions() : QList<QAction *>();
    };
    QCOMPARE(menuBreakpoints(), second->runPanel()->breakpointActions());
    window.documentTabs()->setCurrentWidget(first);
    QCOMPARE(menuBreakpoints(), first->runPanel()->breakpointActions());
    // The run menu's Step is the one of the tab in front.
    bool hasStep = false;
    for (QAction *a : window.findChild<QMenu *>(u"runMenu"_s)->actions())
        hasStep = hasStep || a == first->runPanel()->stepAction();
    QVERIFY(hasStep);
}

// The form and the JSON text are two views of one document with one history: an edit in the
// form is undone from the JSON view, an edit in the JSON from the form.
void TestSpecTab::windowFormAndJsonShareOneUndo()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    SpecDocument *document = window.currentDocument();
    QVERIFY(document);
    QCOMPARE(window.specForm()->document(), document);
    QVERIFY(!window.isModified());
    const QString original = document->text();

    auto *maxTurns = window.specForm()->findChild<QSpinBox *>(u"maxTurns"_s);
    QVERIFY(maxTurns);
    const int before = maxTurns->value();
    maxTurns->setValue(7);
    QVERIFY2(document->text().contains(u"\"max_turns\": 7"_s), qPrintable(document->text()));
    QCOMPARE(document->undoStack()->count(), 1);
    QVERIFY(window.isModified());
    QVERIFY(window.documentTabs()->tabText(0).endsWith(u" *"_s));

    // Undo from the JSON view (Ctrl+Z there reaches the window's Undo).
    window.editorTabs()->setCurrentWidget(window.jsonView());
    window.jsonView()->setFocus();
    QTRY_VERIFY(window.jsonView()->hasFocus());
    QTest::keyClick(window.jsonView(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(document->text(), original);
    QTRY_COMPARE(maxTurns->value(), before);
    QVERIFY(!window.isModified());
    QVERIFY(!window.documentTabs()->tabText(0).endsWith(u" *"_s));

    // Typing in the JSON view, undone from the form.
    QTextCursor cursor = window.jsonView()->textCursor();
    cursor.setPosition(int(document->text().indexOf(u"Describe the task here."_s)));
    window.jsonView()->setTextCursor(cursor);
    QTest::keyClicks(window.jsonView(), u"Now: "_s);
    QVERIFY(document->text().contains(u"Now: Describe the task here."_s));
    QCOMPARE(document->undoStack()->count(), 1); // one step for the word typed
    QTRY_VERIFY_WITH_TIMEOUT(window.specForm()->spec().systemPrompt.startsWith(u"Now: "_s), 15000);
    window.editorTabs()->setCurrentWidget(window.specForm());
    maxTurns->setFocus();
    QTRY_VERIFY(maxTurns->hasFocus());
    QTest::keyClick(maxTurns, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(document->text(), original);
    QVERIFY(specChecked(document));
    QCOMPARE(window.specForm()->spec().systemPrompt, u"Describe the task here."_s);
    // Redo brings the typing back, in both views.
    findChildAction(window, u"&Redo"_s)->trigger();
    QVERIFY(document->text().contains(u"Now: Describe"_s));
    QVERIFY(specChecked(document));
    QVERIFY(window.specForm()->spec().systemPrompt.startsWith(u"Now: "_s));
    document->setClean();
}

// A tab shows its file name with a mark while it has unsaved changes; closing it asks first.
void TestSpecTab::windowDirtyMarkAndCloseTabAsks()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"dirty.spec.json"_s);
    QVERIFY(QFile::copy(sourcePath(u"resources/samples/lunar-landing.spec.json"_s), path));
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openSpecFile(path) && specChecked(window));
    window.newSpec();
    QCOMPARE(window.documentTabs()->count(), 2);
    window.documentTabs()->setCurrentIndex(0);
    QTabWidget *tabs = window.documentTabs();
    QCOMPARE(tabs->tabText(0), u"dirty.spec.json"_s);
    window.jsonView()->appendPlainText(u" "_s);
    QVERIFY(window.isModified());
    QCOMPARE(tabs->tabText(0), u"dirty.spec.json *"_s);
    QVERIFY(window.isWindowModified());

    auto answer = [&window](QMessageBox::StandardButton button) {
        QTimer::singleShot(0, &window, [&window, button] {
            QMessageBox *box = nullptr;
            QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"unsavedChangesBox"_s)) != nullptr);
            QVERIFY(box->text().contains(u"dirty.spec.json"_s));
            box->button(button)->click();
        });
    };
    // Cancel: the tab stays, changes and all.
    answer(QMessageBox::Cancel);
    window.closeDocumentTab(0);
    QTRY_VERIFY(!window.findChild<QMessageBox *>(u"unsavedChangesBox"_s));
    QCOMPARE(tabs->count(), 2);
    QVERIFY(window.currentDocument()->isModified());
    // Save: written, then closed.
    answer(QMessageBox::Save);
    window.closeDocumentTab(0);
    QTRY_COMPARE(tabs->count(), 1);
    QVERIFY(QString::fromUtf8(readFile(path)).endsWith(u"\n "_s));
    // A tab without changes closes at once; the last one closed leaves a new spec.
    window.closeDocumentTab(0);
    QCOMPARE(tabs->count(), 1);
    QVERIFY(window.currentFile().isEmpty());
    QVERIFY(!window.findChild<QMessageBox *>(u"unsavedChangesBox"_s));
    // Discard on a changed file: closed, the file as it was.
    QVERIFY(window.openSpecFile(path) && specChecked(window));
    const QByteArray saved = readFile(path);
    window.jsonView()->appendPlainText(u"x"_s);
    QVERIFY(tabs->tabText(tabs->currentIndex()).endsWith(u" *"_s));
    // Discard with its Alt key, as a person at the keyboard would.
    QTimer::singleShot(0, &window, [&window] {
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"unsavedChangesBox"_s)) != nullptr);
        QCOMPARE(box->button(QMessageBox::Discard)->text(), u"&Discard"_s);
        box->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(box));
        QTest::keyClick(box, Qt::Key_D, Qt::AltModifier);
    });
    window.closeDocumentTab(tabs->currentIndex());
    QTRY_VERIFY(!window.findChild<QMessageBox *>(u"unsavedChangesBox"_s));
    QTRY_COMPARE(window.documents().size(), 1);
    QCOMPARE(readFile(path), saved);
}

// Opening a file that is open already brings its tab forward, no second copy.
void TestSpecTab::windowOpenFileAgainSwitchesToItsTab()
{
    QSettings().remove(u"recentFiles"_s);
    MainWindow window;
    const QString a = sourcePath(u"resources/samples/lunar-landing.spec.json"_s);
    const QString b = sourcePath(u"resources/samples/refusal.spec.json"_s);
    QVERIFY(window.openSpecFile(a) && specChecked(window));
    SpecTab *first = window.currentSpecTab();
    QVERIFY(window.openSpecFile(b) && specChecked(window));
    QCOMPARE(window.currentFile(), QFileInfo(b).absoluteFilePath());
    QVERIFY(window.openSpecFile(a) && specChecked(window));
    QCOMPARE(window.documents().size(), 2);
    QCOMPARE(window.currentSpecTab(), first);
    QCOMPARE(window.currentFile(), QFileInfo(a).absoluteFilePath());
    QCOMPARE(window.recentFiles().constFirst(), QFileInfo(a).absoluteFilePath());
    // Through the sidebar's recent files too.
    QListWidget *recent = window.recentList();
    QCOMPARE(recent->count(), 2);
    QCOMPARE(recent->item(1)->text(), u"refusal.spec.json"_s);
    Q_EMIT recent->itemActivated(recent->item(1));
    QCOMPARE(window.documents().size(), 2);
    QCOMPARE(window.currentFile(), QFileInfo(b).absoluteFilePath());
}

// Two recent files of the same name in different folders: the sidebar and File > Open Recent
// show each with the folder that tells it apart; a name no other file has stays alone.
void TestSpecTab::windowRecentFilesTellNamesakesApart()
{
    QSettings().remove(u"recentFiles"_s);
    QTemporaryDir temp;
    QVERIFY(temp.isValid());
    const QByteArray spec = readFile(sourcePath(u"resources/samples/planner.spec.json"_s));
    QStringList paths;
    for (const QString &name :
         { u"work/samples/planner.spec.json"_s, u"work/drafts/planner.spec.json"_s,
           u"work/refusal.spec.json"_s }) {
        const QString path = temp.filePath(name);
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(spec);
        paths.append(path);
    }
    MainWindow window;
    for (const QString &path : std::as_const(paths))
        QVERIFY(window.openSpecFile(path) && specChecked(window));
    QListWidget *recent = window.recentList();
    QCOMPARE(recent->count(), 3);
    // Newest first: refusal, drafts/planner, samples/planner.
    QCOMPARE(recent->item(0)->text(), u"refusal.spec.json"_s);
    QVERIFY2(recent->item(1)->text().startsWith(u"planner.spec.json"_s)
                 && recent->item(1)->text().contains(u"drafts"_s)
                 && !recent->item(1)->text().contains(u"samples"_s),
             qPrintable(recent->item(1)->text()));
    QVERIFY2(recent->item(2)->text().startsWith(u"planner.spec.json"_s)
                 && recent->item(2)->text().contains(u"samples"_s),
             qPrintable(recent->item(2)->text()));
    // Only as much of the folder as tells them apart, not the whole temporary path.
    QVERIFY2(!recent->item(2)->text().contains(u"work"_s), qPrintable(recent->item(2)->text()));
    QStringList menuTexts;
    for (QMenu *menu : window.menuBar()->findChildren<QMenu *>()) {
        if (menu->title() != u"Open &Recent")
            continue;
        for (QAction *action : menu->actions()) {
            if (paths.contains(action->data().toString()))
                menuTexts.append(action->text());
        }
    }
    QCOMPARE(menuTexts.size(), 3);
    QCOMPARE(menuTexts.at(1), u"&2 "_s + recent->item(1)->text());
    QCOMPARE(menuTexts.at(2), u"&3 "_s + recent->item(2)->text());
    // Activating the one from drafts opens that file.
    Q_EMIT recent->itemActivated(recent->item(1));
    QCOMPARE(window.currentFile(), QFileInfo(paths.at(1)).absoluteFilePath());
}

// File > Open Folder lists the folder's spec files and experiments in the sidebar, with History
// and Sessions as tabs beside it; a double-click opens a file; the folder is remembered.
void TestSpecTab::windowWorkspaceFolderListsSpecs()
{
    QTemporaryDir temp;
    const QDir dir(temp.filePath(u"my-specs"_s));
    auto write = [&dir](const QString &name, const QByteArray &bytes) {
        QDir().mkpath(QFileInfo(dir.filePath(name)).absolutePath());
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    };
    const QByteArray spec = readFile(sourcePath(u"resources/samples/refusal.spec.json"_s));
    write(u"alpha.spec.json"_s, spec);
    write(u"beta.json"_s, spec);
    write(u"notes.txt"_s, "not a spec");
    write(u"nested/gamma.spec.json"_s, spec);
    write(u"runs.experiment.json"_s, "{}");
    QSettings().remove(u"workspace/folder"_s);
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QDockWidget *files = window.filesDock();
        QVERIFY(files);
        // The sidebar: Files, History and Sessions tabbed on the left.
        QCOMPARE(window.dockWidgetArea(files), Qt::LeftDockWidgetArea);
        QCOMPARE(window.dockWidgetArea(window.historyDocks()->historyDock()),
                 Qt::LeftDockWidgetArea);
        QCOMPARE(window.dockWidgetArea(window.historyDocks()->sessionsDock()),
                 Qt::LeftDockWidgetArea);
        const QList<QDockWidget *> together = window.tabifiedDockWidgets(files);
        QVERIFY(together.contains(window.historyDocks()->historyDock()));
        QVERIFY(together.contains(window.historyDocks()->sessionsDock()));
        QVERIFY(!window.workspaceView()->isVisibleTo(&window));

        window.setWorkspaceFolder(dir.absolutePath());
        window.showPanel(files);
        QTreeView *view = window.workspaceView();
        QVERIFY(view->isVisible());
        auto *model = qobject_cast<QFileSystemModel *>(view->model());
        QVERIFY(model);
        auto names = [model, view] {
            QStringList list;
            for (int r = 0; r < model->rowCount(view->rootIndex()); ++r)
                list.append(model->index(r, 0, view->rootIndex()).data().toString());
            list.sort();
            return list;
        };
        QTRY_COMPARE_WITH_TIMEOUT(names(),
                                  (QStringList { u"alpha.spec.json"_s, u"beta.json"_s, u"nested"_s,
                                                 u"runs.experiment.json"_s }),
                                  5000);
        QTest::qWait(100);
        saveShot(&window, u"sidebar-files.png"_s);
        // A double-click opens the spec in a tab.
        QModelIndex alpha;
        for (int r = 0; r < model->rowCount(view->rootIndex()); ++r) {
            if (model->index(r, 0, view->rootIndex()).data().toString() == u"alpha.spec.json")
                alpha = model->index(r, 0, view->rootIndex());
        }
        QVERIFY(alpha.isValid());
        view->scrollTo(alpha);
        const QPoint at = view->visualRect(alpha).center();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
        QTRY_COMPARE(window.currentFile(),
                     QFileInfo(dir.filePath(u"alpha.spec.json"_s)).absoluteFilePath());
        QCOMPARE(window.documents().size(), 1); // in the place of the untouched template
        QCOMPARE(window.currentSpec()->kind, loadSpec(spec).spec->kind);
        QVERIFY(window.recentFiles().contains(window.currentFile()));
    }
    // A new window lists the same folder.
    MainWindow again;
    QCOMPARE(again.workspaceFolder(), QFileInfo(dir.absolutePath()).absoluteFilePath());
    QCOMPARE(QSettings().value(u"workspace/folder"_s).toString(),
             QFileInfo(dir.absolutePath()).absoluteFilePath());
    QSettings().remove(u"workspace/folder"_s);
}

// A run that waits for the person marks its tab and brings it forward, even when another spec's
// tab is in front.
void TestSpecTab::windowWaitingBadgeOnTheRightTab()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openSpecFile(sourcePath(u"resources/samples/planner.spec.json"_s))
            && specChecked(window));
    SpecTab *planner = window.currentSpecTab();
    QVERIFY(window.openSpecFile(sourcePath(u"resources/samples/lunar-landing.spec.json"_s))
            && specChecked(window));
    SpecTab *lunar = window.currentSpecTab();
    QTabWidget *tabs = window.documentTabs();
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget *>(lunar));
    QSignalSpy done(planner->runPanel(), &RunPanel::runFinished);
    QSignalSpy reread(&window, &MainWindow::specReread);
    // The planner's run, started while the lunar landing is in front (as from a script or a
    // session), pauses for an approval: its tab comes forward with the badge.
    planner->runPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(planner->isWaiting(), 10000);
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget *>(planner));
    QVERIFY(reread.size() >= 1);
    QVERIFY(!tabs->tabIcon(tabs->indexOf(planner)).isNull());
    QVERIFY2(!tabs->tabText(tabs->indexOf(planner)).contains(u"●"_s),
             qPrintable(tabs->tabText(tabs->indexOf(planner))));
    QVERIFY(tabs->tabToolTip(tabs->indexOf(planner)).contains(u"waiting for you"_s));
    QVERIFY(tabs->tabIcon(tabs->indexOf(lunar)).isNull());
    QVERIFY(!tabs->tabToolTip(tabs->indexOf(lunar)).contains(u"waiting"_s));
    // Looking at the other tab keeps the badge where it belongs.
    tabs->setCurrentWidget(lunar);
    QVERIFY(!tabs->tabIcon(tabs->indexOf(planner)).isNull());
    planner->runPanel()->findChild<ApprovalPanel *>(u"approvalPanel"_s)->approveButton()->click();
    QVERIFY(done.wait(15000));
    QCOMPARE(tabs->tabText(tabs->indexOf(planner)), u"planner.spec.json"_s);
    QVERIFY(tabs->tabIcon(tabs->indexOf(planner)).isNull());
    QVERIFY(!tabs->tabToolTip(tabs->indexOf(planner)).contains(u"waiting"_s));
}

// One spec in the three output modes: the mode chosen in the form, the schema sent shown beside
// the original in native mode, the three runs against the fake OpenAI server, and their diff.
void TestSpecTab::outputModesRunAndDiff()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/modes.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    auto *mode = s.editor.findChild<QComboBox *>(u"outputMode"_s);
    QVERIFY(mode);
    auto *sentPanel = s.editor.findChild<QWidget *>(u"sentSchemaPanel"_s);
    auto *changes = s.editor.findChild<QListWidget *>(u"sentSchemaChanges"_s);
    auto *sent = s.editor.findChild<JsonEditor *>(u"sentSchema"_s);
    QVERIFY(sentPanel && changes && sent);
    QCOMPARE(s.editor.spec().outputMode, OutputMode::Tool);
    QVERIFY(sentPanel->isHidden());

    const QString summary = u"Export runs out of memory on large sessions."_s;
    struct Run
    {
        OutputMode mode;
        QList<QByteArray> replies;
    };
    const QList<Run> runs = {
        { OutputMode::Tool,
          { chatToolCalls({ { u"call_a"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } }),
            chatToolCalls({ { u"call_b"_s, u"submit_output"_s, goodOutput() } }, 40, 12) } },
        { OutputMode::Native,
          { chatToolCalls({ { u"call_a"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } }),
            chatText(u"{\"ticket_id\": 7, \"summary\": \""_s + summary
                         + u"\", \"severity\": null}"_s,
                     40, 14) } },
        { OutputMode::Prompted,
          { chatText(u"Here it is:\n```json\n{\"ticket_id\": 7, \"summary\": \"short\"}\n```"_s, 35,
                     9),
            chatText(u"```json\n{\"ticket_id\": 7, \"summary\": \""_s + summary + u"\"}\n```"_s, 60,
                     12) } },
    };
    QList<qint64> ids;
    for (const Run &run : runs) {
        mode->setCurrentIndex(mode->findData(outputModeName(run.mode)));
        QCOMPARE(s.editor.spec().outputMode, run.mode);
        if (run.mode == OutputMode::Native) {
            // The schema sent to OpenAI beside the original, each change listed.
            QTRY_VERIFY(!sentPanel->isHidden());
            QCOMPARE(changes->count(), 3);
            QVERIFY2(changes->item(0)->text().contains(u"additionalProperties"_s),
                     qPrintable(changes->item(0)->text()));
            QVERIFY(sent->toPlainText().contains(u"\"null\""_s));
            QVERIFY(!sent->markers().isEmpty());
            // The schema page holds the builder above the schema and the schema sent.
            QWidget *schemaPage = s.editor.findChild<QWidget *>(u"schemaBuilderSplitter"_s);
            QVERIFY(schemaPage && schemaPage->isAncestorOf(sentPanel));
            QTabWidget *tabs = nullptr;
            for (QTabWidget *t : s.editor.findChildren<QTabWidget *>()) {
                if (t->indexOf(schemaPage) >= 0)
                    tabs = t;
            }
            QVERIFY(tabs);
            tabs->setCurrentWidget(schemaPage);
            saveShot(&s.splitter, u"output-mode-native-schema.png"_s);
            tabs->setCurrentIndex(0);
        } else {
            QVERIFY(sentPanel->isHidden());
        }
        for (const QByteArray &reply : run.replies)
            m_server->enqueue(FakeReply::json(200, reply));
        const int before = m_server->requestCount();
        s.panel.run();
        const LaunchResult result = waitFinished(s);
        QCOMPARE(callStatusName(result.record.status), u"completed"_s);
        QCOMPARE(result.record.response.toObject(), goodOutput());
        QCOMPARE(m_server->requestCount() - before, 2);
        const QJsonObject first = m_server->requests().at(before).jsonObject();
        QCOMPARE(first.contains(u"response_format"_s), run.mode == OutputMode::Native);
        QCOMPARE(compact(first).contains("submit_output"), run.mode == OutputMode::Tool);
        QVERIFY(result.stored);
        ids.append(result.record.id);
    }

    // The three stored calls: the mode in the call view, first in the diff.
    auto *store = m_services->store();
    QList<CallRecord> records;
    for (qint64 id : std::as_const(ids)) {
        auto record = store->getCall(id);
        QVERIFY(record);
        records.append(record.value());
    }
    CallView view;
    view.setCall(records.at(1));
    QVERIFY2(view.summaryText().contains(u"output: native"_s), qPrintable(view.summaryText()));
    QVERIFY2(view.transcriptText().contains(u"(accepted output, native mode)"_s),
             qPrintable(view.transcriptText()));
    view.setCall(records.at(2));
    QVERIFY(view.transcriptText().contains(u"(accepted output, prompted mode)"_s));
    for (int k : { 1, 2 }) {
        const CallDiff diff = diffCalls(records.at(0), records.at(k));
        const auto row = std::find_if(diff.rows.cbegin(), diff.rows.cend(), [](const DiffRow &r) {
            return r.label == QCoreApplication::translate("Callscope::CallDiff", "Output mode")
                || r.label == u"Output mode";
        });
        QVERIFY(row != diff.rows.cend());
        QCOMPARE(row->state, DiffState::Changed);
        QCOMPARE(row->left, u"tool"_s);
        QCOMPARE(row->right, k == 1 ? u"native"_s : u"prompted"_s);
        // Same result in every mode.
        const auto result =
            std::find_if(diff.rows.cbegin(), diff.rows.cend(),
                         [](const DiffRow &r) { return r.section == DiffSection::Result; });
        QVERIFY(result != diff.rows.cend());
        QCOMPARE(result->state, DiffState::Same);
    }

    // The diffs side by side, as the Diff dock shows them: tool vs native, tool vs prompted.
    QWidget window;
    auto *layout = new QHBoxLayout(&window);
    DiffView native(store), prompted(store);
    layout->addWidget(&native);
    layout->addWidget(&prompted);
    QVERIFY(native.compare(ids.at(0), ids.at(1)));
    QVERIFY(prompted.compare(ids.at(0), ids.at(2)));
    window.resize(1800, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    saveShot(&window, u"output-modes-diff.png"_s);
    layout->removeWidget(&native);
    layout->removeWidget(&prompted);
    native.setParent(nullptr);
    prompted.setParent(nullptr);
}

// ---- the pending item, inline in the timeline ----------------------------------------------

// Arguments edited at a breakpoint, then the tool's approval: the approval says whose arguments
// it shows.
void TestSpecTab::approvalAfterEditSaysTheArgumentsAreYours()
{
    Studio s(m_services.get());
    openTicketWithApproval(s);
    s.panel.setInputText(u"Summarise ticket 7."_s);
    s.panel.setBreakpoints(Breakpoint::BeforeTool);
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"call_a"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"call_b"_s, u"submit_output"_s, goodOutput() } })));
    QTest::mouseClick(s.panel.findChild<QToolButton *>(u"runActionButton"_s), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.pausedAt() == Breakpoint::BeforeTool, 10000);
    s.panel.findChild<JsonEditor *>(u"pauseArguments"_s)->setPlainText(u"{ \"id\": 8 }"_s);
    QTest::mouseClick(s.panel.findChild<QPushButton *>(u"pauseContinueButton"_s), Qt::LeftButton);
    ApprovalPanel *approval = s.panel.findChild<ApprovalPanel *>(u"approvalPanel"_s);
    QTRY_VERIFY_WITH_TIMEOUT(approval->mode() == ApprovalPanel::Mode::Approval, 10000);
    QVERIFY2(approval->titleText().contains(u"you edited"_s), qPrintable(approval->titleText()));
    QVERIFY2(!approval->titleText().contains(u"The model wants"_s),
             qPrintable(approval->titleText()));
    QTest::mouseClick(approval->approveButton(), Qt::LeftButton);
    QCOMPARE(callStatusName(waitFinished(s).record.status), u"completed"_s);
    // Without an edit it is the model's call, as before.
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"call_c"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"call_d"_s, u"submit_output"_s, goodOutput() } })));
    s.panel.setBreakpoints({});
    s.panel.run();
    QTRY_VERIFY_WITH_TIMEOUT(approval->mode() == ApprovalPanel::Mode::Approval, 10000);
    QVERIFY2(approval->titleText().contains(u"The model wants"_s),
             qPrintable(approval->titleText()));
    approval->approveButton()->click();
    QCOMPARE(callStatusName(waitFinished(s).record.status), u"completed"_s);
}

// A provider that is down: every attempt counts in the status line, as the timeline's retries do.
void TestSpecTab::providerDownCountsEveryAttempt()
{
    Studio s(m_services.get());
    openTicketWithApproval(s, false);
    s.panel.setInputText(u"Summarise ticket 7."_s);
    for (int i = 0; i < 3; ++i)
        m_server->enqueue(
            FakeReply::json(503, QByteArray(R"({"error": {"message": "overloaded"}})")));
    QTest::mouseClick(s.panel.findChild<QToolButton *>(u"runActionButton"_s), Qt::LeftButton);
    const LaunchResult result = waitFinished(s, 30000);
    QCOMPARE(callStatusName(result.record.status), u"failed"_s);
    QCOMPARE(m_server->requestCount(), 3);
    int retries = 0;
    for (int i = 0; i < s.panel.transcript()->count(); ++i)
        retries += s.panel.transcript()->item(i).kind == TranscriptModel::Kind::Retry ? 1 : 0;
    QCOMPARE(retries, 2);
    auto *usage = s.panel.findChild<QLabel *>(u"runUsage"_s);
    QVERIFY2(usage->text().contains(u"attempts 3"_s), qPrintable(usage->text()));
}

void TestSpecTab::openTicketWithApproval(Studio &s, bool approval)
{
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    if (approval) {
        s.editor.tabs()->setCurrentIndex(3);
        s.editor.findChild<QCheckBox *>(u"toolApproval"_s)->setChecked(true);
        QVERIFY(s.editor.spec().tools.at(0).requiresApproval);
        s.editor.tabs()->setCurrentIndex(0);
    }
}

void TestSpecTab::inlineApprovalInTimeline()
{
    // The window soon puts the spec and the run side by side at 1280x800.
    Studio s(m_services.get());
    s.splitter.resize(1280, 800);
    s.splitter.setSizes({ 600, 680 });
    openTicketWithApproval(s);
    // A long input: the timeline is taller than its view before the approval comes.
    QStringList lines;
    for (int i = 1; i <= 60; ++i)
        lines.append(u"Line %1 of the customer's report about tickets 1, 2 and 3."_s.arg(i));
    s.panel.setInputText(lines.join(u'\n'));
    m_server->enqueue(
        FakeReply::json(200,
                        chatToolCalls({ { u"c1"_s, u"get_ticket"_s, { { u"id"_s, 1 } } },
                                        { u"c2"_s, u"get_ticket"_s, { { u"id"_s, 2 } } },
                                        { u"c3"_s, u"get_ticket"_s, { { u"id"_s, 3 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"c4"_s, u"submit_output"_s, goodOutput() } })));
    QSignalSpy waiting(&s.panel, &RunPanel::waitingChanged);
    ApprovalPanel *approval = s.panel.findChild<ApprovalPanel *>(u"approvalPanel"_s);
    TimelineView *view = s.panel.findChild<TimelineView *>(u"transcript"_s);
    const TranscriptModel *t = s.panel.transcript();
    s.panel.run();

    // c1: the approval stands at the last row of the timeline, whole, in view, with the focus
    // on Approve.
    QTRY_VERIFY_WITH_TIMEOUT(approval->isVisible() && approval->call().id == u"c1", 10000);
    QCoreApplication::processEvents();
    QCOMPARE(s.panel.pendingWidget(), static_cast<QWidget *>(approval));
    QCOMPARE(s.panel.pendingRow(), t->count() - 1);
    QCOMPARE(view->pendingIndex().row(), t->count() - 1);
    QCOMPARE(t->item(s.panel.pendingRow()).title, u"Waiting for your approval"_s);
    QCOMPARE(approval->parentWidget(), view->viewport());
    QVERIFY2(view->verticalScrollBar()->maximum() > 0,
             "the transcript should be longer than its view");
    QString why;
    QTRY_VERIFY2_WITH_TIMEOUT(inside(approval, view->viewport(), &why), qPrintable(why), 15000);
    QVERIFY2(inside(approval->approveButton(), view->viewport(), &why), qPrintable(why));
    QVERIFY2(inside(approval->refuseButton(), view->viewport(), &why), qPrintable(why));
    QVERIFY2(inside(approval->editButton(), view->viewport(), &why), qPrintable(why));
    QVERIFY2(inside(approval->alwaysAllowBox(), view->viewport(), &why), qPrintable(why));
    // In its row: below the row's title, and the row as tall as the widget needs.
    const QRect row = view->visualRect(view->pendingIndex());
    QVERIFY2(
        row.contains(approval->geometry()),
        qPrintable(
            u"row %1,%2 %3x%4"_s.arg(row.x()).arg(row.y()).arg(row.width()).arg(row.height())));
    QVERIFY(approval->geometry().top() > row.top());
    QVERIFY(approval->height() >= approval->minimumSizeHint().height());
    QCOMPARE(approval->window()->focusWidget(), static_cast<QWidget *>(approval->approveButton()));
    QVERIFY(!waiting.isEmpty());
    QCOMPARE(waiting.last().at(0).toBool(), true);
    QCOMPARE(s.panel.waitingSummary(), u"get_ticket needs your approval"_s);
    QVERIFY(s.panel.findChild<QLabel *>(u"runStatus"_s)
                ->text()
                .contains(u"waiting for your approval"_s));
    saveShot(&s.splitter, u"approval-inline.png"_s);

    // The widget moves with its row: scrolled to the top it leaves the view, and comes back.
    view->verticalScrollBar()->setValue(0);
    QCoreApplication::processEvents();
    QCOMPARE(approval->geometry().topLeft(), view->pendingRect().topLeft());
    QVERIFY(!view->viewport()->rect().intersects(approval->geometry()));
    view->revealPending();
    QVERIFY2(inside(approval, view->viewport(), &why), qPrintable(why));

    // Enter in the reason box approves nothing; Edit, then a bad edit: the message shows in the
    // widget and the row grows with it.
    QTest::keyClick(approval->reasonEdit(), Qt::Key_Return);
    QCOMPARE(approval->call().id, u"c1"_s);
    QVERIFY(approval->isVisible());
    QTest::mouseClick(approval->editButton(), Qt::LeftButton);
    QVERIFY(!approval->argumentsEditor()->isReadOnly());
    const int before = view->visualRect(view->pendingIndex()).height();
    approval->argumentsEditor()->setPlainText(u"{\"id\": "_s);
    QTest::mouseClick(approval->approveButton(), Qt::LeftButton);
    QCOMPARE(approval->call().id, u"c1"_s);
    QTRY_VERIFY_WITH_TIMEOUT(view->visualRect(view->pendingIndex()).height() > before, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(approval->geometry(), view->pendingRect(), 15000);
    // A good edit, approved with Enter on the focused Approve button.
    approval->argumentsEditor()->setPlainText(u"{\"id\": 11}"_s);
    approval->approveButton()->setFocus();
    QTest::keyClick(approval->approveButton(), Qt::Key_Return);

    // c2: the next call takes the same place at the end; refused with a reason.
    QTRY_VERIFY_WITH_TIMEOUT(approval->isVisible() && approval->call().id == u"c2", 10000);
    const int firstRow = findRow(t, TranscriptModel::Kind::Note);
    QCOMPARE(t->item(firstRow).title, u"Approved with your edited arguments"_s);
    QCOMPARE(s.panel.pendingRow(), t->count() - 1);
    QVERIFY(s.panel.pendingRow() > firstRow);
    QTRY_VERIFY2_WITH_TIMEOUT(inside(approval, view->viewport(), &why), qPrintable(why), 15000);
    approval->reasonEdit()->setText(u"not this one"_s);
    QTest::mouseClick(approval->refuseButton(), Qt::LeftButton);

    // c3: approved with a click.
    QTRY_VERIFY_WITH_TIMEOUT(approval->isVisible() && approval->call().id == u"c3", 10000);
    QCOMPARE(s.panel.waitingSummary(), u"get_ticket needs your approval"_s);
    QTest::mouseClick(approval->approveButton(), Qt::LeftButton);

    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    const QHash<QString, QString> results = toolMessages(m_server->requests().at(1));
    QCOMPARE(results.value(u"c1"_s), u"{\"id\":11}"_s);
    QCOMPARE(results.value(u"c2"_s), u"refused by the user: not this one"_s);
    QCOMPARE(results.value(u"c3"_s), u"{\"id\":3}"_s);
    // Gone with the wait: no widget, no row that still waits, nothing that waits.
    QVERIFY(!approval->isVisible());
    QVERIFY(!s.panel.pendingWidget());
    QCOMPARE(s.panel.pendingRow(), -1);
    QVERIFY(s.panel.waitingSummary().isEmpty());
    QCOMPARE(waiting.last().at(0).toBool(), false);
    for (int i = 0; i < t->count(); ++i)
        QVERIFY2(!t->item(i).title.startsWith(u"Waiting"_s), qPrintable(t->item(i).title));
}

void TestSpecTab::inlineBreakpointContinueAndStep()
{
    Studio s(m_services.get());
    s.splitter.resize(1280, 800);
    s.splitter.setSizes({ 600, 680 });
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/steps.spec.json"_s)));
    s.panel.setInputText(u"Summarise ticket 7."_s);
    TimelineView *view = s.panel.findChild<TimelineView *>(u"transcript"_s);
    const TranscriptModel *t = s.panel.transcript();
    QGroupBox *pause = s.panel.findChild<QGroupBox *>(u"pausePanel"_s);

    // Before a tool: the pause editor inline at the last row, its arguments editable, the focus
    // on Continue, and Enter there goes on.
    s.panel.setBreakpoints(Breakpoint::BeforeTool);
    QVERIFY2(s.panel.findChild<QPushButton *>(u"breakpointsButton"_s)->text()
                 == u"Breakpoints (1)"_s,
             qPrintable(s.panel.findChild<QPushButton *>(u"breakpointsButton"_s)->text()));
    QVERIFY2(!hasIdentifier(s.panel.findChild<QPushButton *>(u"breakpointsButton"_s)->toolTip()),
             qPrintable(s.panel.findChild<QPushButton *>(u"breakpointsButton"_s)->toolTip()));
    s.panel.run();
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.pausedAt() == Breakpoint::BeforeTool, 10000);
    QCoreApplication::processEvents();
    QCOMPARE(s.panel.pendingWidget(), static_cast<QWidget *>(pause));
    QCOMPARE(s.panel.pendingRow(), t->count() - 1);
    QCOMPARE(t->item(s.panel.pendingRow()).title, u"Paused before a tool runs"_s);
    QCOMPARE(s.panel.waitingSummary(), u"Paused before a tool runs"_s);
    QString why;
    QTRY_VERIFY2_WITH_TIMEOUT(inside(pause, view->viewport(), &why), qPrintable(why), 15000);
    QVERIFY2(
        inside(s.panel.findChild<QPushButton *>(u"pauseContinueButton"_s), view->viewport(), &why),
        qPrintable(why));
    QVERIFY2(inside(s.panel.findChild<QPushButton *>(u"pauseStepButton"_s), view->viewport(), &why),
             qPrintable(why));
    QVERIFY2(inside(s.panel.findChild<JsonEditor *>(u"pauseArguments"_s), view->viewport(), &why),
             qPrintable(why));
    QVERIFY(!s.panel.findChild<JsonEditor *>(u"pauseArguments"_s)->isReadOnly());
    QVERIFY2(!hasIdentifier(pause->accessibleName()), qPrintable(pause->accessibleName()));
    QVERIFY2(!hasIdentifier(t->item(s.panel.pendingRow()).title),
             qPrintable(t->item(s.panel.pendingRow()).title));
    QCOMPARE(pause->window()->focusWidget(),
             static_cast<QWidget *>(s.panel.findChild<QPushButton *>(u"pauseContinueButton"_s)));
    saveShot(&s.splitter, u"breakpoint-inline.png"_s);
    // A bad edit: the complaint shows in the pause itself, which stays, its row as tall as it.
    s.panel.findChild<JsonEditor *>(u"pauseArguments"_s)->setPlainText(u"{\"id\": "_s);
    QTest::mouseClick(s.panel.findChild<QPushButton *>(u"pauseContinueButton"_s), Qt::LeftButton);
    QVERIFY(s.panel.isPaused());
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.findChild<NoticeBar *>(u"pauseMessages"_s)->isVisible(),
                             15000);
    QVERIFY2(
        s.panel.findChild<NoticeBar *>(u"pauseMessages"_s)->text().contains(u"not valid JSON"_s),
        qPrintable(s.panel.findChild<NoticeBar *>(u"pauseMessages"_s)->text()));
    QTRY_COMPARE_WITH_TIMEOUT(pause->geometry(), view->pendingRect(), 15000);
    QTRY_VERIFY2_WITH_TIMEOUT(
        inside(s.panel.findChild<NoticeBar *>(u"pauseMessages"_s), view->viewport(), &why),
        qPrintable(why), 15000);
    QVERIFY2(
        inside(s.panel.findChild<QPushButton *>(u"pauseContinueButton"_s), view->viewport(), &why),
        qPrintable(why));
    // A good edit, and Enter on Continue.
    s.panel.findChild<JsonEditor *>(u"pauseArguments"_s)->setPlainText(u"{\"id\": 8}"_s);
    s.panel.findChild<QPushButton *>(u"pauseContinueButton"_s)->setFocus();
    const int pauseRow = s.panel.pendingRow();
    QTest::keyClick(s.panel.findChild<QPushButton *>(u"pauseContinueButton"_s), Qt::Key_Return);
    QVERIFY(!s.panel.isPaused());
    QVERIFY(!pause->isVisible());
    QCOMPARE(s.panel.pendingRow(), -1);
    // The pause row went with the pause.
    QVERIFY(pauseRow >= t->count() || !t->item(pauseRow).title.startsWith(u"Paused"_s));
    QVERIFY(!s.panel.findChild<NoticeBar *>(u"pauseMessages"_s)->isVisible());
    LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    for (int i = 0; i < t->count(); ++i)
        QVERIFY2(!t->item(i).title.startsWith(u"Paused"_s), qPrintable(t->item(i).title));
    // The edit made at the pause has its own row.
    bool editRow = false;
    for (int i = 0; i < t->count(); ++i)
        editRow |= t->item(i).title == u"Arguments edited by you";
    QVERIFY(editRow);

    // Step from the inline pause: every breakpoint on, the run stops at the very next point;
    // breakpoints switched off during the run let it go to the end.
    s.panel.setBreakpoints(Breakpoint::BeforeRequest);
    s.panel.run();
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.pausedAt() == Breakpoint::BeforeRequest, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.findChild<QPushButton *>(u"pauseStepButton"_s)->isVisible(),
                             15000);
    QVERIFY(s.panel.findChild<QPushButton *>(u"pauseStepButton"_s)->isEnabled());
    QTest::mouseClick(s.panel.findChild<QPushButton *>(u"pauseStepButton"_s), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.pausedAt() == Breakpoint::AfterReply, 10000);
    QCOMPARE(s.panel.pendingWidget(), static_cast<QWidget *>(pause));
    QTRY_VERIFY2_WITH_TIMEOUT(inside(pause, view->viewport(), &why), qPrintable(why), 15000);
    s.panel.setBreakpoints({});
    QCOMPARE(s.panel.findChild<QPushButton *>(u"breakpointsButton"_s)->text(), u"Breakpoints"_s);
    QTest::mouseClick(s.panel.findChild<QPushButton *>(u"pauseContinueButton"_s), Qt::LeftButton);
    result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QVERIFY(!pause->isVisible());
    QVERIFY(!s.panel.pendingWidget());
}

void TestSpecTab::inlineManualResult()
{
    Studio s(m_services.get());
    s.splitter.resize(1280, 800);
    s.splitter.setSizes({ 600, 680 });
    openTicketWithApproval(s, false);
    s.editor.tabs()->setCurrentIndex(3);
    auto *runner = s.editor.findChild<QComboBox *>(u"toolRunner"_s);
    runner->setCurrentIndex(runner->findData(int(ToolRunnerKind::Manual)));
    s.editor.tabs()->setCurrentIndex(0);
    s.panel.setInputText(u"Summarise ticket 7."_s);
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"m1"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"m2"_s, u"submit_output"_s, goodOutput() } })));
    ApprovalPanel *approval = s.panel.findChild<ApprovalPanel *>(u"approvalPanel"_s);
    TimelineView *view = s.panel.findChild<TimelineView *>(u"transcript"_s);
    const TranscriptModel *t = s.panel.transcript();
    s.panel.run();
    QTRY_VERIFY_WITH_TIMEOUT(approval->isVisible(), 10000);
    QCoreApplication::processEvents();
    QCOMPARE(approval->mode(), ApprovalPanel::Mode::Manual);
    QCOMPARE(s.panel.pendingWidget(), static_cast<QWidget *>(approval));
    QCOMPARE(s.panel.pendingRow(), t->count() - 1);
    QCOMPARE(s.panel.waitingSummary(), u"get_ticket needs its result from you"_s);
    QString why;
    QTRY_VERIFY2_WITH_TIMEOUT(inside(approval->resultEdit(), view->viewport(), &why),
                              qPrintable(why), 15000);
    QVERIFY2(inside(approval->submitButton(), view->viewport(), &why), qPrintable(why));
    QVERIFY(!approval->approveButton()->isVisible());
    QCOMPARE(approval->window()->focusWidget(), static_cast<QWidget *>(approval->resultEdit()));
    // Typed into the inline box, sent with the button.
    QTest::keyClicks(approval->resultEdit(), u"Ticket 7: typed inline"_s);
    QTest::mouseClick(approval->submitButton(), Qt::LeftButton);
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(toolMessages(m_server->requests().at(1)).value(u"m1"_s), u"Ticket 7: typed inline"_s);
    QVERIFY(!approval->isVisible());
    QVERIFY(!s.panel.pendingWidget());
    const int typed = findRow(t, TranscriptModel::Kind::Note);
    QCOMPARE(t->item(typed).title, u"Result typed by you"_s);
    QCOMPARE(t->item(typed + 1).kind, TranscriptModel::Kind::ToolResult);
    QCOMPARE(t->item(typed + 1).text, u"Ticket 7: typed inline"_s);
}

void TestSpecTab::inlineGoneAfterStopAndNewRunClean()
{
    Studio s(m_services.get());
    openTicketWithApproval(s);
    s.panel.setInputText(u"Summarise ticket 1."_s);
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"s1"_s, u"get_ticket"_s, { { u"id"_s, 1 } } } })));
    ApprovalPanel *approval = s.panel.findChild<ApprovalPanel *>(u"approvalPanel"_s);
    const TranscriptModel *t = s.panel.transcript();
    s.panel.run();
    QTRY_VERIFY_WITH_TIMEOUT(approval->isVisible(), 10000);
    const int row = s.panel.pendingRow();
    QVERIFY(row >= 0);
    // Stopped while it waits: the widget goes, the row says nobody answered.
    QTest::mouseClick(s.panel.findChild<QToolButton *>(u"stopActionButton"_s), Qt::LeftButton);
    LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"cancelled"_s);
    QVERIFY(!approval->isVisible());
    QVERIFY(!s.panel.pendingWidget());
    QCOMPARE(s.panel.pendingRow(), -1);
    QCOMPARE(t->item(row).title, u"Not answered"_s);
    QVERIFY(s.panel.waitingSummary().isEmpty());

    // The next run starts clean, and its own approval comes inline again.
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"s2"_s, u"get_ticket"_s, { { u"id"_s, 2 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"s3"_s, u"submit_output"_s, goodOutput() } })));
    s.panel.run();
    QVERIFY(s.panel.isRunning());
    QVERIFY(!approval->isVisible());
    QVERIFY(!s.panel.pendingWidget());
    QVERIFY(findRow(t, TranscriptModel::Kind::Error) < 0);
    for (int i = 0; i < t->count(); ++i)
        QVERIFY2(t->item(i).title != u"Not answered", "the last run's rows carried over");
    QTRY_VERIFY_WITH_TIMEOUT(approval->isVisible() && approval->call().id == u"s2", 10000);
    QCOMPARE(s.panel.pendingRow(), t->count() - 1);
    QTest::mouseClick(approval->approveButton(), Qt::LeftButton);
    result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QVERIFY(!approval->isVisible());
}

void TestSpecTab::runPanelFitsBesideTheSpec()
{
    // The run panel alone at the size it gets beside the spec editor.
    RunPanel panel(m_services->calls(), m_services->profiles());
    const QString path = sourcePath(u"tests/data/spectab/ticket-openai.spec.json"_s);
    const QString baseUrl = m_server->baseUrl().toString();
    panel.setSpecProvider([path, baseUrl]() -> std::optional<Spec> {
        SpecLoadResult loaded = loadSpecFile(path);
        if (!loaded.ok())
            return std::nullopt;
        Spec spec = *loaded.spec;
        spec.engine.baseUrl = baseUrl;
        spec.tools[0].requiresApproval = true;
        return spec;
    });
    panel.resize(640, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY2(
        panel.minimumSizeHint().width() <= 640 && panel.minimumSizeHint().height() <= 700,
        qPrintable(
            u"%1x%2"_s.arg(panel.minimumSizeHint().width()).arg(panel.minimumSizeHint().height())));
    QCOMPARE(panel.size(), QSize(640, 700));
    QString why;
    for (const QString &name :
         { u"runActionButton"_s, u"stepActionButton"_s, u"continueActionButton"_s,
           u"stopActionButton"_s, u"breakpointsButton"_s }) {
        auto *button = panel.findChild<QAbstractButton *>(name);
        QVERIFY2(button, qPrintable(name));
        QVERIFY2(inside(button, &panel, &why), qPrintable(why));
    }
    QVERIFY2(inside(panel.findChild<QLabel *>(u"runStatus"_s), &panel, &why), qPrintable(why));
    QVERIFY2(inside(panel.findChild<QPlainTextEdit *>(u"runInput"_s), &panel, &why),
             qPrintable(why));
    QVERIFY2(inside(panel.findChild<TimelineView *>(u"transcript"_s), &panel, &why),
             qPrintable(why));
    QVERIFY2(inside(panel.findChild<QPlainTextEdit *>(u"transcriptDetail"_s), &panel, &why),
             qPrintable(why));
    QVERIFY2(
        panel.findChild<TimelineView *>(u"transcript"_s)->height() >= 300,
        qPrintable(QString::number(panel.findChild<TimelineView *>(u"transcript"_s)->height())));
    QVERIFY(panel.findChild<QPlainTextEdit *>(u"runInput"_s)->height() >= 50);
    // The breakpoints are one menu, in plain words.
    QMenu *menu = panel.findChild<QPushButton *>(u"breakpointsButton"_s)->menu();
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), 6); // a heading and the five points
    for (QAction *a : menu->actions())
        QVERIFY2(!hasIdentifier(a->text()), qPrintable(a->text()));

    // Paused for an approval at this size: the whole approval is in view, buttons included.
    panel.setInputText(u"Summarise ticket 7."_s);
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"f1"_s, u"get_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(
        FakeReply::json(200, chatToolCalls({ { u"f2"_s, u"submit_output"_s, goodOutput() } })));
    // The spec is ours (it has a command tool): its trust question is answered Trust.
    QObject::connect(&panel, &RunPanel::trustAsked, &panel, [](TrustDialog *dialog) {
        QTimer::singleShot(0, dialog, [dialog] { dialog->trustButton()->click(); });
    });
    QSignalSpy finished(&panel, &RunPanel::runFinished);
    panel.run();
    ApprovalPanel *approval = panel.findChild<ApprovalPanel *>(u"approvalPanel"_s);
    QTRY_VERIFY_WITH_TIMEOUT(approval->isVisible(), 10000);
    QTRY_VERIFY2_WITH_TIMEOUT(
        inside(approval, panel.findChild<TimelineView *>(u"transcript"_s)->viewport(), &why),
        qPrintable(why), 15000);
    for (QWidget *w : { static_cast<QWidget *>(approval->approveButton()),
                        static_cast<QWidget *>(approval->refuseButton()),
                        static_cast<QWidget *>(approval->editButton()),
                        static_cast<QWidget *>(approval->reasonEdit()) })
        QVERIFY2(inside(w, panel.findChild<TimelineView *>(u"transcript"_s)->viewport(), &why),
                 qPrintable(why));
    QVERIFY2(!hasIdentifier(panel.findChild<QLabel *>(u"runStatus"_s)->text()),
             qPrintable(panel.findChild<QLabel *>(u"runStatus"_s)->text()));
    qInfo("run panel at 640x700: minimum %dx%d, timeline %d px high, inline approval %d px high",
          panel.minimumSizeHint().width(), panel.minimumSizeHint().height(),
          panel.findChild<TimelineView *>(u"transcript"_s)->height(), approval->height());
    saveShot(&panel, u"run-panel-640x700.png"_s);
    QTest::mouseClick(approval->approveButton(), Qt::LeftButton);
    QVERIFY(finished.wait(10000));
    QCOMPARE(callStatusName(finished.at(0).at(0).value<LaunchResult>().record.status),
             u"completed"_s);
}

QTEST_MAIN(TestSpecTab)
void TestSpecTab::editorAddsRemoteMcpServerAndListsTools()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    McpServerPanel *panel = s.editor.mcpPanel();
    QVERIFY(panel);

    // A remote server from the form: it lands in the spec's mcp_servers.
    panel->findChild<QLineEdit *>(u"mcpRemoteName"_s)->setText(u"docs"_s);
    panel->findChild<QLineEdit *>(u"mcpRemoteUrl"_s)->setText(u"https://mcp.example.com/mcp"_s);
    auto *auth = panel->findChild<QComboBox *>(u"mcpRemoteAuth"_s);
    auth->setCurrentIndex(2); // bearer token from a variable
    auto *bearer = panel->findChild<QLineEdit *>(u"mcpRemoteBearerEnv"_s);
    bearer->setText(u"sk-not-a-variable-name!"_s);
    panel->findChild<QPushButton *>(u"mcpRemoteAdd"_s)->click();
    QVERIFY(!s.editor.spec().mcpServers.contains(u"docs"_s)); // a token is not a variable name
    bearer->setText(u"DOCS_TOKEN"_s);
    panel->findChild<QPushButton *>(u"mcpRemoteAdd"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(s.editor.spec().mcpServers.contains(u"docs"_s), 15000);
    const McpServerSpec docs = s.editor.spec().mcpServers.value(u"docs"_s);
    QCOMPARE(docs.url, u"https://mcp.example.com/mcp"_s);
    QCOMPARE(docs.auth, McpAuthKind::Bearer);
    QCOMPARE(docs.bearerEnv, u"DOCS_TOKEN"_s);

    // A local server the panel connects to: its tools with their annotations.
    auto *servers = s.editor.findChild<JsonEditor *>(u"mcpServers"_s);
    QJsonObject all = QJsonDocument::fromJson(servers->toPlainText().toUtf8()).object();
    all.insert(
        u"fake"_s,
        QJsonObject {
            { u"command"_s,
              QJsonArray { u"node"_s, sourcePath(u"tests/data/tools/fake_mcp_server.js"_s) } } });
    servers->setPlainText(QString::fromUtf8(QJsonDocument(all).toJson()));
    s.flush();
    QVERIFY(s.editor.spec().mcpServers.contains(u"fake"_s));
    auto *pick = panel->findChild<QComboBox *>(u"mcpServerPick"_s);
    QTRY_VERIFY(pick->findText(u"fake"_s) >= 0);
    pick->setCurrentIndex(pick->findText(u"fake"_s));
    panel->findChild<QPushButton *>(u"mcpConnect"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isConnecting(), 15000);
    QVERIFY2(panel->findChild<QLabel *>(u"mcpStatus"_s)->text().contains(u"13 tool(s)"_s),
             qPrintable(panel->findChild<QLabel *>(u"mcpStatus"_s)->text()));
    QTableWidget *table = panel->toolTable();
    const auto rowOf = [&](const QString &name) {
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, 0)->text() == name)
                return row;
        return -1;
    };
    const int wipe = rowOf(u"wipe_disk"_s);
    const int notes = rowOf(u"read_notes"_s);
    QVERIFY(wipe >= 0 && notes >= 0);
    QCOMPARE(table->item(wipe, 2)->text(), u"yes"_s); // destructive
    QCOMPARE(table->item(wipe, 5)->text(), u"yes"_s); // needs approval
    QCOMPARE(table->item(notes, 1)->text(), u"yes"_s); // read-only
    QCOMPARE(table->item(notes, 5)->text(), u"no"_s);
    panel->resize(760, 640);
    saveShot(panel, u"mcp-server-panel.png"_s);
}

void TestSpecTab::elicitationFormAnswers()
{
    McpElicitation request;
    request.serverName = u"docs"_s;
    request.message = u"Who are you?"_s;
    request.requestedSchema = QJsonObject {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject {
              { u"name"_s, QJsonObject { { u"type"_s, u"string"_s } } },
              { u"age"_s, QJsonObject { { u"type"_s, u"integer"_s }, { u"default"_s, 30 } } },
              { u"status"_s,
                QJsonObject { { u"type"_s, u"string"_s },
                              { u"enum"_s, QJsonArray { u"active"_s, u"inactive"_s } },
                              { u"default"_s, u"inactive"_s } } },
              { u"verified"_s,
                QJsonObject { { u"type"_s, u"boolean"_s }, { u"default"_s, true } } } } },
        { u"required"_s, QJsonArray { u"name"_s } }
    };
    QJsonObject answer;
    int answers = 0;
    ElicitationDialog::ask(nullptr, request, [&](const QJsonObject &a) {
        answer = a;
        ++answers;
    });
    ElicitationDialog *dialog = nullptr;
    const auto find = [&] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            auto *d = qobject_cast<ElicitationDialog *>(w);
            if (d && d->isVisible()) {
                dialog = d;
                return true;
            }
        }
        return false;
    };
    QTRY_VERIFY(find());
    // The defaults are filled in; a required field left empty is named, nothing is sent.
    auto *send = dialog->findChild<QPushButton *>(u"elicitationAccept"_s);
    send->click();
    QCOMPARE(answers, 0);
    QVERIFY(dialog->findChild<QLabel *>(u"elicitationProblem"_s)->text().contains(u"name"_s));
    dialog->findChild<QLineEdit *>(u"field_name"_s)->setText(u"Ada"_s);
    saveShot(dialog, u"mcp-elicitation.png"_s);
    send->click();
    QTRY_COMPARE(answers, 1);
    QCOMPARE(answer,
             (QJsonObject { { u"action"_s, u"accept"_s },
                            { u"content"_s,
                              QJsonObject { { u"name"_s, u"Ada"_s },
                                            { u"age"_s, 30 },
                                            { u"status"_s, u"inactive"_s },
                                            { u"verified"_s, true } } } }));
}

namespace {

QJsonObject markerToolSpec(const QString &baseUrl, const QString &prompt)
{
    return { { u"kind"_s, u"ticket"_s },
             { u"system_prompt"_s, prompt },
             { u"response_schema"_s,
               QJsonObject {
                   { u"type"_s, u"object"_s },
                   { u"properties"_s,
                     QJsonObject { { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
                   { u"required"_s, QJsonArray { u"title"_s } } } },
             { u"tools"_s,
               QJsonArray {
                   QJsonObject { { u"name"_s, u"lookup_ticket"_s },
                                 { u"description"_s, u"Look a ticket up."_s },
                                 { u"command"_s, QJsonArray { u"./lookup.sh"_s, u"--id"_s } } } } },
             { u"engine"_s,
               QJsonObject { { u"type"_s, u"openai"_s },
                             { u"model"_s, u"gpt-4o-mini"_s },
                             { u"base_url"_s, baseUrl },
                             { u"api_key_env"_s, QString::fromLatin1(kKeyEnv) },
                             { u"stream"_s, false } } } };
}

} // namespace

void TestSpecTab::trustAskedBeforeRunningWhatTheFileBrings()
{
    QTemporaryDir dir;
    const QString marker = dir.filePath(u"ran-marker"_s);
    QFile script(dir.filePath(u"lookup.sh"_s));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(u"#!/bin/sh\ntouch '%1'\necho '{\"ticket\": 7}'\n"_s.arg(marker).toUtf8());
    script.close();
    script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
    const QString path = dir.filePath(u"ticket.spec.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        QJsonDocument(markerToolSpec(m_server->baseUrl().toString(), u"Summarise the ticket."_s))
            .toJson());
    file.close();

    Studio s(m_services.get());
    s.autoTrust = false;
    s.splitter.resize(1280, 800);
    s.splitter.setSizes({ 600, 680 });
    QVERIFY(openInEditor(s, path));
    s.panel.setInputText(u"Ticket 7 please."_s);
    QSignalSpy asked(&s.panel, &RunPanel::trustAsked);
    auto openDialog = [&s]() -> TrustDialog * {
        for (TrustDialog *d : s.splitter.findChildren<TrustDialog *>()) {
            if (d->isVisible())
                return d;
        }
        return nullptr;
    };

    // Asked first, listing the command line and its folder; nothing has run or been sent.
    s.panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(asked.count(), 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(openDialog(), 5000);
    TrustDialog *dialog = openDialog();
    QCOMPARE(dialog->itemList()->topLevelItemCount(), 1);
    QTreeWidgetItem *row = dialog->itemList()->topLevelItem(0);
    QVERIFY2(row->text(0).contains(u"lookup_ticket"_s), qPrintable(row->text(0)));
    QCOMPARE(row->text(1), u"./lookup.sh --id"_s);
    QCOMPARE(row->text(2), QDir::toNativeSeparators(QFileInfo(path).absolutePath()));
    QVERIFY(dialog->cancelButton()->isDefault());
    QCOMPARE(m_server->requestCount(), 0);
    // While the question is open nothing runs: there is nothing to stop and no second run to
    // start, and the status line says what the run waits for.
    QVERIFY(!s.panel.stopAction()->isEnabled());
    QVERIFY(!s.panel.runAction()->isEnabled());
    QVERIFY(!s.panel.continueAction()->isEnabled());
    const QLabel *status = s.panel.findChild<QLabel *>(u"runStatus"_s);
    QVERIFY(status);
    QVERIFY2(status->text().contains(u"Waiting for your answer"_s), qPrintable(status->text()));
    {
        // The studio at 1280x800 with the question over it.
        QApplication::processEvents();
        QImage shot = s.splitter.grab().toImage();
        const QImage over = dialog->grab().toImage();
        QPainter painter(&shot);
        painter.fillRect(shot.rect(), QColor(0, 0, 0, 60));
        painter.drawImage(
            QPoint((shot.width() - over.width()) / 2, (shot.height() - over.height()) / 3), over);
        painter.end();
        QCOMPARE(shot.size(), QSize(1280, 800));
        const QString shotPath = buildPath(u"screenshots/trust-dialog.png"_s);
        QVERIFY2(shot.save(shotPath), qPrintable(shotPath));
    }

    // Cancel runs nothing.
    dialog->cancelButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!openDialog(), 5000);
    QVERIFY(!s.panel.isRunning());
    QVERIFY(!s.panel.stopAction()->isEnabled());
    QVERIFY(s.panel.runAction()->isEnabled());
    QVERIFY2(!status->text().contains(u"Waiting for your answer"_s), qPrintable(status->text()));
    QCOMPARE(m_server->requestCount(), 0);
    QVERIFY(!QFile::exists(marker));

    // Trust runs (the model calls the tool, the program runs) and is remembered.
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"c1"_s, u"lookup_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"c2"_s, u"submit_output"_s, { { u"title"_s, u"T7"_s } } } })));
    s.panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(asked.count(), 2, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(openDialog(), 5000);
    QVERIFY(!s.panel.stopAction()->isEnabled());
    // Trusted: now it runs, and from its start Stop can stop it.
    bool stopWhenStarted = false;
    const QMetaObject::Connection started = connect(&s.panel, &RunPanel::runStarted, this, [&] {
        stopWhenStarted = s.panel.stopAction()->isEnabled();
    });
    openDialog()->trustButton()->click();
    LaunchResult result = waitFinished(s);
    disconnect(started);
    QVERIFY(stopWhenStarted);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QVERIFY(QFile::exists(marker));
    QCOMPARE(m_server->requestCount(), 2);
    QVERIFY(m_services->calls()->trustStore()->isTrusted(trustEntryFor(s.editor.spec())));

    // The same file again: no question.
    QFile::remove(marker);
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"c1"_s, u"lookup_ticket"_s, { { u"id"_s, 7 } } } })));
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"c2"_s, u"submit_output"_s, { { u"title"_s, u"T7"_s } } } })));
    s.panel.run();
    result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(asked.count(), 2);
    QVERIFY(QFile::exists(marker));

    // Edited (a new digest): asked again.
    QFile::remove(marker);
    s.sides.setCurrentWidget(&s.raw);
    s.raw.setPlainText(
        QString::fromUtf8(QJsonDocument(markerToolSpec(m_server->baseUrl().toString(),
                                                       u"Summarise the ticket briefly."_s))
                              .toJson()));
    s.flush();
    const int before = int(m_server->requestCount());
    s.panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(asked.count(), 3, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(openDialog(), 5000);
    openDialog()->cancelButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!openDialog(), 5000);
    QCOMPARE(int(m_server->requestCount()), before);
    QVERIFY(!QFile::exists(marker));
}

namespace {

// An object whose "items" are each checked against a 12-level anyOf fan-out (each level an
// anyOf of two references to the next, strings at the bottom): a list of numbers fails every
// branch, and every failure is reported, so one check of it takes the validator's whole budget.
QJsonObject fanOutItemsSchema()
{
    QJsonObject defs;
    constexpr int kDepth = 12;
    for (int i = 0; i < kDepth; ++i) {
        const QString next = u"#/$defs/l%1"_s.arg(i + 1);
        defs.insert(u"l%1"_s.arg(i),
                    QJsonObject { { u"anyOf"_s,
                                    QJsonArray { QJsonObject { { u"$ref"_s, next } },
                                                 QJsonObject { { u"$ref"_s, next } } } } });
    }
    defs.insert(u"l%1"_s.arg(kDepth), QJsonObject { { u"type"_s, u"string"_s } });
    return { { u"type"_s, u"object"_s },
             { u"properties"_s,
               QJsonObject {
                   { u"items"_s,
                     QJsonObject {
                         { u"type"_s, u"array"_s },
                         { u"items"_s, QJsonObject { { u"$ref"_s, u"#/$defs/l0"_s } } } } } } },
             { u"required"_s, QJsonArray { u"items"_s } },
             { u"$defs"_s, defs } };
}

QJsonArray numbersUpTo(int count)
{
    QJsonArray numbers;
    for (int i = 0; i < count; ++i)
        numbers.append(i);
    return numbers;
}

// The longest time the event loop went without running a 5 ms timer, from start() on.
class EventLoopGap
{
public:
    EventLoopGap()
    {
        m_probe.setTimerType(Qt::PreciseTimer);
        m_probe.setInterval(5);
        QObject::connect(&m_probe, &QTimer::timeout, &m_probe, [this] {
            const qint64 now = m_clock.elapsed();
            m_longest = std::max(m_longest, now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_probe.start();
    }
    void stop() { m_probe.stop(); }
    qint64 elapsed() const { return m_clock.elapsed(); }
    qint64 longest() const { return m_longest; }

private:
    QTimer m_probe;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longest = 0;
};

} // namespace

void TestSpecTab::validationKeepsEventLoopResponsive()
{
    // An answer whose check is expensive (every item fails a 12-level anyOf fan-out, so each
    // branch is reported): the check takes its whole budget while the GUI thread goes on.
    const QJsonObject schema = fanOutItemsSchema();
    QTemporaryDir dir;
    const QString path = dir.filePath(u"expensive.spec.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(
                   QJsonObject { { u"kind"_s, u"list"_s },
                                 { u"system_prompt"_s, u"List."_s },
                                 { u"response_schema"_s, schema },
                                 { u"max_turns"_s, 2 },
                                 { u"engine"_s,
                                   QJsonObject { { u"type"_s, u"openai"_s },
                                                 { u"model"_s, u"gpt-4o-mini"_s },
                                                 { u"base_url"_s, m_server->baseUrl().toString() },
                                                 { u"api_key_env"_s, QString::fromLatin1(kKeyEnv) },
                                                 { u"stream"_s, false } } } })
                   .toJson());
    file.close();
    const QJsonArray numbers = numbersUpTo(400);
    m_server->enqueue(FakeReply::json(
        200, chatToolCalls({ { u"c1"_s, u"submit_output"_s, { { u"items"_s, numbers } } } })));
    m_server->enqueue(FakeReply::json(
        200,
        chatToolCalls(
            { { u"c2"_s, u"submit_output"_s, { { u"items"_s, QJsonArray { u"a"_s } } } } })));

    Studio s(m_services.get());
    QVERIFY(openInEditor(s, path));
    s.panel.setInputText(u"Go."_s);
    QElapsedTimer clock;
    qint64 last = 0;
    qint64 maxGap = 0;
    qint64 validatingMs = 0;
    qint64 validatingSince = -1;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    connect(&probe, &QTimer::timeout, this, [&] {
        const qint64 now = clock.elapsed();
        maxGap = std::max(maxGap, now - last);
        last = now;
    });
    QSignalSpy finished(&s.panel, &RunPanel::runFinished);
    s.panel.run();
    // From the first reply to the correction going out: the check of the answer.
    QTRY_VERIFY_WITH_TIMEOUT(m_server->requestCount() == 1, 10000);
    connect(m_server.get(), &FakeProvider::requestReceived, this, [&] {
        if (validatingSince >= 0 && validatingMs == 0)
            validatingMs = clock.elapsed() - validatingSince;
    });
    validatingSince = 0;
    clock.start();
    probe.start();
    QVERIFY(finished.wait(60000));
    probe.stop();
    const LaunchResult result = finished.at(0).at(0).value<LaunchResult>();
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    qInfo("validation took %lld ms; longest event-loop gap %lld ms", validatingMs, maxGap);
    QVERIFY2(validatingMs >= 150, "the check should be long enough to stall a GUI thread");
    // Checked on the GUI thread, the gap would be the whole check; the bound scales with it, so
    // a slow (busy) machine is not mistaken for a stall.
    QVERIFY2(maxGap < std::max<qint64>(100, validatingMs / 2),
             qPrintable(u"event loop stalled %1 ms"_s.arg(maxGap)));
}

namespace {

// (rule, pointer) of every finding, in order; a schema that is not valid JSON Schema counts as
// "schema-invalid" at its pointer, as callscope-cli lint prints it.
QStringList findingKeys(const QList<SpecFinding> &findings)
{
    QStringList keys;
    for (const SpecFinding &f : findings) {
        if (f.source == SpecFinding::Source::Lint)
            keys.append(f.rule + u' ' + f.pointer);
        else if (f.source == SpecFinding::Source::Schema)
            keys.append(u"schema-invalid "_s + f.pointer);
    }
    return keys;
}

} // namespace

void TestSpecTab::findingsAgreeWithCliLint()
{
    // Every spec of the tests and the samples, checked by `callscope-cli lint` and by the
    // studio's findings against the same engine profiles: the same rules at the same places.
    QStringList files;
    for (const QString &folder : { u"tests/data/spec"_s, u"resources/samples"_s }) {
        QDirIterator it(sourcePath(folder), { u"*.json"_s }, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            if (!file.endsWith(u".recording.json"_s))
                files.append(file);
        }
    }
    files.sort();
    QVERIFY2(files.size() >= 40, qPrintable(QString::number(files.size())));

    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, home.filePath(u"data"_s));
    // The command line's own settings file, read by the studio side through the same store.
    ProfileStore profiles(home.filePath(u"config/Callscope/callscope.conf"_s), nullptr, nullptr);

    auto compareAll = [&](const QString &round) {
        int linted = 0;
        int refused = 0;
        for (const QString &file : std::as_const(files)) {
            QProcess cli;
            cli.setProcessEnvironment(env);
            cli.start(cliPath(), { u"lint"_s, file });
            QVERIFY2(cli.waitForFinished(30000), qPrintable(file));
            const QByteArray out = cli.readAllStandardOutput();
            const QString err = QString::fromUtf8(cli.readAllStandardError());

            SpecDocument document;
            document.setProfileStore(&profiles);
            QVERIFY2(!document.load(file), qPrintable(file));
            QVERIFY(specChecked(&document));

            if (!document.check().ok()) {
                // Does not load: lint refuses it (exit 2) and names every place the studio does.
                QVERIFY2(cli.exitCode() == 2 && out.isEmpty(), qPrintable(file + u": "_s + err));
                for (const SpecError &e : document.check().errors)
                    QVERIFY2(err.contains(e.pointer.isEmpty() ? u"(document)"_s : e.pointer),
                             qPrintable(file + u": "_s + e.toString() + u"\nnot in: "_s + err));
                ++refused;
                continue;
            }
            QStringList cliKeys;
            for (const QJsonValue &v :
                 QJsonDocument::fromJson(out).object().value(u"findings"_s).toArray())
                cliKeys.append(v[u"rule"_s].toString() + u' ' + v[u"pointer"_s].toString());
            const QStringList studioKeys = findingKeys(document.findings());
            QVERIFY2(cliKeys == studioKeys,
                     qPrintable(u"%1 (%2)\nlint:   %3\nstudio: %4"_s.arg(
                         file, round, cliKeys.join(u", "_s), studioKeys.join(u", "_s))));
            QCOMPARE(cli.exitCode(), document.check().runnable() ? 0 : 2);
            ++linted;
        }
        qInfo("%s: %d specs linted alike, %d refused alike", qPrintable(round), linted, refused);
        QVERIFY(linted >= 20);
        QVERIFY(refused >= 5);
    };
    auto rulesOfFull = [&]() {
        SpecDocument document;
        document.setProfileStore(&profiles);
        if (document.load(sourcePath(u"tests/data/spec/valid/full.spec.json"_s))
            || !specChecked(&document))
            return QStringList { u"not checked"_s };
        return findingKeys(document.findings());
    };

    // No profiles: the spec names the profile "work" beside its own base_url, which any "work"
    // profile must match for the key to be sent.
    compareAll(u"no profiles"_s);
    QVERIFY(rulesOfFull().contains(u"key-profile-redirect /engine/base_url"_s));

    // A "work" profile of another engine type: the same finding, now naming the addresses.
    EngineProfile work;
    work.name = u"work"_s;
    work.type = EngineType::OpenAI;
    work.model = u"gpt-test"_s;
    work.baseUrl = u"https://work.example"_s;
    QVERIFY(profiles.add(work).ok);
    compareAll(u"a work profile elsewhere"_s);
    QVERIFY(rulesOfFull().contains(u"key-profile-redirect /engine/base_url"_s));

    // A "work" profile that is the spec's own engine: nothing to report.
    work.type = EngineType::Anthropic;
    work.baseUrl = u"http://127.0.0.1:8080"_s;
    QVERIFY(profiles.update(work).ok);
    compareAll(u"the spec's own work profile"_s);
    QVERIFY(!rulesOfFull().join(u'|').contains(u"key-profile-redirect"_s));
}

void TestSpecTab::findingsCheckKeepsEventLoopResponsive()
{
    // A response schema with 6,000 definitions: its check (the meta-schema over every node, then
    // lint) is long enough to stall a GUI thread. The document checks on a worker thread.
    QJsonObject defs;
    for (int i = 0; i < 6000; ++i)
        defs.insert(
            u"d%1"_s.arg(i),
            QJsonObject {
                { u"type"_s, u"object"_s },
                { u"properties"_s,
                  QJsonObject {
                      { u"a"_s,
                        QJsonObject { { u"type"_s, u"string"_s }, { u"maxLength"_s, 10 } } },
                      { u"b"_s,
                        QJsonObject {
                            { u"type"_s, u"array"_s },
                            { u"items"_s, QJsonObject { { u"type"_s, u"integer"_s } } } } } } },
                { u"required"_s, QJsonArray { u"a"_s, u"b"_s } },
                { u"additionalProperties"_s, false } });
    const QJsonObject schema {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject { { u"answer"_s, QJsonObject { { u"$ref"_s, u"#/$defs/d0"_s } } } } },
        { u"required"_s, QJsonArray { u"answer"_s } },
        { u"additionalProperties"_s, false },
        { u"$defs"_s, defs }
    };
    auto specText = [&](const QString &kind, const QJsonObject &responseSchema) {
        return QString::fromUtf8(
            QJsonDocument(
                QJsonObject { { u"kind"_s, kind },
                              { u"system_prompt"_s, u"Answer."_s },
                              { u"response_schema"_s, responseSchema },
                              { u"engine"_s,
                                QJsonObject { { u"type"_s, u"openai"_s },
                                              { u"model"_s, u"gpt-4o-mini"_s },
                                              { u"base_url"_s, m_server->baseUrl().toString() },
                                              { u"api_key_env"_s, QString::fromLatin1(kKeyEnv) },
                                              { u"stream"_s, false } } } })
                .toJson());
    };
    const QString costly = specText(u"costly"_s, schema);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"costly.spec.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(costly.toUtf8());
    file.close();

    // What the check costs when it runs where it is called.
    QElapsedTimer direct;
    direct.start();
    const SpecCheck reference = checkSpec(costly.toUtf8(), path);
    const qint64 directMs = direct.elapsed();
    QVERIFY(reference.runnable());

    // The document alone (no view of its text): from the moment the file is read, the event loop
    // goes on while the text is checked.
    SpecDocument document;
    document.setProfileStore(m_services->profiles());
    QSignalSpy checked(&document, &SpecDocument::checked);
    QVERIFY(!document.load(path));
    EventLoopGap gap;
    gap.start();
    QVERIFY(checked.wait(60000));
    const qint64 checkedMs = gap.elapsed();
    gap.stop();
    QVERIFY(document.isCheckCurrent());
    QCOMPARE(document.spec()->kind, u"costly"_s);
    QCOMPARE(findingKeys(document.findings()), findingKeys([&] {
                 QList<SpecFinding> out;
                 for (const LintFinding &f : reference.findings)
                     out.append(SpecFinding::fromLint(f));
                 return out;
             }()));
    qInfo("the check takes %lld ms where it is called; checked in %lld ms; longest event-loop gap "
          "%lld ms",
          directMs, checkedMs, gap.longest());
    QVERIFY2(directMs >= 150, "the check should be long enough to stall a GUI thread");
    QVERIFY2(gap.longest() < std::max<qint64>(100, directMs / 2),
             qPrintable(u"event loop stalled %1 ms"_s.arg(gap.longest())));

    // Edited while a costly check is under way: the newer text's check is applied, the older
    // one is dropped when it comes.
    const QString small = specText(
        u"small"_s,
        QJsonObject { { u"type"_s, u"object"_s },
                      { u"properties"_s,
                        QJsonObject { { u"x"_s, QJsonObject { { u"type"_s, u"string"_s } } } } } });
    checked.clear();
    document.replaceText(costly + u' ');
    document.recheck();
    document.replaceText(small);
    document.recheck();
    // Waits for the state, not for one more signal: the small text's check may be applied
    // before a spy is read again on a busy machine.
    QTRY_VERIFY_WITH_TIMEOUT(document.spec() && document.spec()->kind == u"small"_s, 60000);
    QVERIFY(QThreadPool::globalInstance()->waitForDone(60000)); // the costly check is done too
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QCOMPARE(checked.count(), 1);
    QCOMPARE(document.spec()->kind, u"small"_s);
    QVERIFY(document.isCheckCurrent());

    // In the studio's views: the form follows the check.
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, path));
    QCOMPARE(s.editor.spec().kind, u"costly"_s);
    s.document.replaceText(small);
    s.flush();
    QCOMPARE(s.editor.spec().kind, u"small"_s);

    // Run pressed while the check of an edit is under way: the run waits for that check and
    // runs the spec as it is now (nothing runs, nothing to stop, until then).
    m_server->enqueue(FakeReply::json(
        200,
        chatToolCalls(
            { { u"c1"_s,
                u"submit_output"_s,
                { { u"answer"_s,
                    QJsonObject { { u"a"_s, u"x"_s }, { u"b"_s, QJsonArray { 1 } } } } } } })));
    s.document.replaceText(costly);
    s.panel.setInputText(u"Go."_s);
    s.panel.run();
    QVERIFY(!s.document.isCheckCurrent());
    const QLabel *status = s.panel.findChild<QLabel *>(u"runStatus"_s);
    QVERIFY2(status->text().contains(u"Checking the spec"_s), qPrintable(status->text()));
    QVERIFY(!s.panel.stopAction()->isEnabled());
    QVERIFY(!s.panel.runAction()->isEnabled());
    QCOMPARE(m_server->requestCount(), 0);
    const LaunchResult result = waitFinished(s, 60000);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(result.record.spec.value(u"kind"_s).toString(), u"costly"_s);
    QCOMPARE(m_server->requestCount(), 1);
}

void TestSpecTab::experimentAssertionsKeepEventLoopResponsive()
{
    // An experiment whose `schema` assertion is costly to check (each answer fails every branch
    // of a 12-level anyOf fan-out, and each failure is reported): the assertions run on a worker
    // thread while the Experiment tab's window goes on.
    const QJsonObject costly = fanOutItemsSchema();
    const QJsonArray numbers = numbersUpTo(100);
    const QJsonObject assertion { { u"type"_s, u"schema"_s },
                                  { u"name"_s, u"strings only"_s },
                                  { u"schema"_s, costly } };
    constexpr int kCases = 3;
    QJsonArray dataset;
    for (int i = 0; i < kCases; ++i) {
        dataset.append(
            QJsonObject { { u"id"_s, u"case%1"_s.arg(i) }, { u"input"_s, u"List %1."_s.arg(i) } });
        m_server->enqueue(FakeReply::json(
            200,
            chatToolCalls(
                { { u"c%1"_s.arg(i), u"submit_output"_s, { { u"items"_s, numbers } } } })));
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(u"costly.experiment.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(
                   QJsonObject {
                       { u"name"_s, u"costly check"_s },
                       { u"spec"_s,
                         QJsonObject {
                             { u"kind"_s, u"list"_s },
                             { u"system_prompt"_s, u"List."_s },
                             { u"response_schema"_s, QJsonObject { { u"type"_s, u"object"_s } } },
                             { u"engine"_s,
                               QJsonObject { { u"type"_s, u"openai"_s },
                                             { u"model"_s, u"gpt-4o-mini"_s },
                                             { u"base_url"_s, m_server->baseUrl().toString() },
                                             { u"api_key_env"_s, QString::fromLatin1(kKeyEnv) },
                                             { u"stream"_s, false } } } } },
                       { u"dataset"_s, dataset },
                       { u"jobs"_s, 1 },
                       { u"assert"_s, QJsonArray { assertion } } })
                   .toJson());
    file.close();

    // What one check costs where it is called.
    CallRecord answered;
    answered.status = CallStatus::Completed;
    answered.response = QJsonObject { { u"items"_s, numbers } };
    Assertion parsed;
    parsed.type = u"schema"_s;
    parsed.name = u"strings only"_s;
    parsed.params = assertion;
    QElapsedTimer direct;
    direct.start();
    const AssertionResult reference = evaluateAssertion(parsed, answered, DatasetRow());
    const qint64 directMs = direct.elapsed();
    QVERIFY(!reference.passed);

    ExperimentView view(m_services->calls(), m_services->store());
    view.resize(1280, 800);
    view.show();
    QVERIFY2(
        view.openFile(path),
        qPrintable(view.loadErrors().isEmpty() ? QString() : view.loadErrors().first().toString()));
    EventLoopGap gap;
    gap.start();
    QVERIFY(view.run());
    QTRY_VERIFY_WITH_TIMEOUT(view.state() == ExperimentView::State::Finished, 60000);
    const qint64 runMs = gap.elapsed();
    gap.stop();
    QCOMPARE(m_server->requestCount(), kCases);
    const ExperimentRun::Progress progress = view.progress();
    QCOMPARE(progress.done, kCases);
    QCOMPARE(progress.failed, kCases);
    qInfo("one schema check takes %lld ms where it is called; %d cases run and checked in %lld ms; "
          "longest "
          "event-loop gap %lld ms",
          directMs, kCases, runMs, gap.longest());
    QVERIFY2(directMs >= 150, "the check should be long enough to stall a GUI thread");
    QVERIFY2(gap.longest() < std::max<qint64>(100, directMs / 2),
             qPrintable(u"event loop stalled %1 ms"_s.arg(gap.longest())));
}

// The answer of colour-stream.spec.json in pieces: the third field, "color", starts "pu",
// which no allowed value does; a long tail of notes follows.
static QStringList badColourFragments()
{
    QStringList fragments { u"{\"name\": \"Ada\", "_s, u"\"size\": 3, "_s, u"\"color\": \"pu"_s,
                            u"rple\", "_s, u"\"notes\": \""_s };
    for (int i = 0; i < 200; ++i)
        fragments.append(QString(100, u'x'));
    fragments.append(u"\"}"_s);
    return fragments;
}

// The run view fills the answer in field by field while it streams, and marks the enum that
// went wrong invalid, with the reason, before the reply has ended: the server holds the rest.
void TestSpecTab::partialOutputMarksTheBadFieldWhileItStreams()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/colour-stream.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    QVERIFY(s.waitChecked());
    s.panel.setInputText(u"Describe item 7."_s);
    const QList<QByteArray> events =
        openAiToolCallStreamEvents(u"call_1"_s, u"submit_output"_s, badColourFragments());
    qsizetype held = 0; // through "rple", then the server stops sending
    for (int i = 0; i <= 4; ++i)
        held += events.at(i).size();
    m_server->enqueue(FakeReply::sse(events.join()).stallAfter(held));
    QAbstractItemModelTester tester(s.panel.partialOutput());

    s.panel.run();
    PartialOutputModel *partial = s.panel.partialOutput();
    QTRY_VERIFY_WITH_TIMEOUT(partial->stateOf(u"/color"_s) == StreamCheck::FieldState::Invalid,
                             15000);
    // The reply has not ended: the run still waits on the model, no tool call row yet.
    QVERIFY(s.panel.isRunning());
    QCOMPARE(findRow(s.panel.transcript(), TranscriptModel::Kind::ToolCall), -1);
    QCOMPARE(partial->stateOf(u"/name"_s), StreamCheck::FieldState::Complete);
    QCOMPARE(partial->stateOf(u"/size"_s), StreamCheck::FieldState::Complete);
    QVERIFY(!partial->stateOf(u"/notes"_s)); // not started: the server holds it back
    const int row = partial->rowOf(u"/color"_s);
    QCOMPARE(partial->index(row, PartialOutputModel::StateColumn).data().toString(), u"invalid"_s);
    QCOMPARE(partial->index(row, PartialOutputModel::ValueColumn).data().toString(),
             u"\"purple\""_s);
    const QString reason = partial->index(row, PartialOutputModel::ReasonColumn).data().toString();
    QVERIFY2(reason.contains(u"allowed value"_s), qPrintable(reason));
    QCOMPARE(partial->index(0, PartialOutputModel::StateColumn).data().toString(), u"complete"_s);
    auto *box = s.panel.findChild<QGroupBox *>(u"partialOutput"_s);
    QVERIFY(box && box->isVisibleTo(&s.panel));
    const QString summary = s.panel.findChild<QLabel *>(u"partialOutputSummary"_s)->text();
    QVERIFY2(summary.contains(u"1 invalid"_s) && summary.contains(u"streaming"_s),
             qPrintable(summary));
    QVERIFY(!hasIdentifier(summary));
    saveShot(&s.splitter, u"run-partial-output.png"_s);

    s.panel.stop();
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"cancelled"_s);
}

// With stop_early the same reply is cut off there: the timeline says why, the correction goes
// out, and the corrected answer is accepted.
void TestSpecTab::partialOutputStopEarlyShowsWhy()
{
    Studio s(m_services.get());
    QVERIFY(openInEditor(s, sourcePath(u"tests/data/spectab/colour-stream.spec.json"_s)));
    QTest::keyClicks(s.editor.findChild<QLineEdit *>(u"baseUrl"_s), m_server->baseUrl().toString());
    QVERIFY(s.waitChecked());
    auto *stopEarly = s.editor.findChild<QCheckBox *>(u"stopEarly"_s);
    QVERIFY(stopEarly && !stopEarly->isChecked());
    stopEarly->setChecked(true);
    QVERIFY(s.editor.spec().stopEarly);
    QVERIFY(s.document.text().contains(u"\"stop_early\": true"_s));
    QVERIFY(s.waitChecked());
    s.panel.setInputText(u"Describe item 7."_s);
    m_server->enqueue(FakeReply::sse(
        openAiToolCallStreamEvents(u"call_1"_s, u"submit_output"_s, badColourFragments()).join()));
    const QJsonObject good { { u"name"_s, u"Ada"_s },
                             { u"size"_s, 3 },
                             { u"color"_s, u"red"_s },
                             { u"notes"_s, u"short"_s } };
    m_server->enqueue(
        FakeReply::json(200, openAiToolCallBody(u"call_2"_s, u"submit_output"_s, good)));
    s.panel.run();
    const LaunchResult result = waitFinished(s);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(m_server->requestCount(), 2);
    const TranscriptModel *t = s.panel.transcript();
    int note = -1;
    for (int i = 0; i < t->count(); ++i) {
        if (t->item(i).kind == TranscriptModel::Kind::Note && t->item(i).title == u"Stopped early")
            note = i;
    }
    QVERIFY(note >= 0);
    QVERIFY2(t->item(note).text.contains(u"/color"_s), qPrintable(t->item(note).text));
    QVERIFY(findRow(t, TranscriptModel::Kind::Correction, note) > note);
    QCOMPARE(result.record.metadata.value(u"stopped_early"_s).toArray().size(), 1);
}

// The review queue, driven by keys only: 25 cases x 2 variants with a judge on the fake
// provider; a person labels all 50 runs (P / F), gives scores and a note, skips and undoes. The
// judge's verdict is hidden until the run is labelled, the next run is already read when Space
// comes, no SQL runs on the GUI thread, and the experiment's agreement is the kappa worked out
// here by hand.
void TestSpecTab::reviewQueueByKeys()
{
    constexpr int kCases = 25;
    constexpr int kJudgePassCases = 13; // c00..c12 are "good": the judge passes them
    // The fake model answers with the input as title; the judge scores "good" tasks 0.9.
    m_server->setResponder([](const RecordedRequest &request) {
        const QJsonArray messages = request.jsonObject().value(u"messages"_s).toArray();
        const QString system = messages.at(0).toObject().value(u"content"_s).toString();
        const QString task = messages.at(1).toObject().value(u"content"_s).toString();
        if (system.startsWith(u"You judge"_s)) {
            const double score = task.contains(u"good"_s) ? 0.9 : 0.2;
            return FakeReply::json(
                200,
                chatToolCalls({ { u"j"_s,
                                  u"submit_output"_s,
                                  { { u"score"_s, score }, { u"reason"_s, u"read it"_s } } } }));
        }
        return FakeReply::json(
            200, chatToolCalls({ { u"a"_s, u"submit_output"_s, { { u"title"_s, task } } } }));
    });
    QJsonArray dataset;
    for (int i = 0; i < kCases; ++i)
        dataset.append(QJsonObject {
            { u"id"_s, u"c%1"_s.arg(i, 2, 10, QChar(u'0')) },
            { u"input"_s,
              u"Plan the %1 ticket %2"_s.arg(i < kJudgePassCases ? u"good"_s : u"poor"_s)
                  .arg(i) } });
    const QJsonObject engine { { u"type"_s, u"openai"_s },
                               { u"model"_s, u"gpt-4o-mini"_s },
                               { u"base_url"_s, m_server->baseUrl().toString() },
                               { u"api_key_env"_s, QString::fromLatin1(kKeyEnv) },
                               { u"stream"_s, false } };
    QTemporaryDir dir;
    const QString path = dir.filePath(u"review.experiment.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        QJsonDocument(
            QJsonObject {
                { u"name"_s, u"review by keys"_s },
                { u"spec"_s,
                  QJsonObject {
                      { u"kind"_s, u"plan"_s },
                      { u"system_prompt"_s, u"Plan."_s },
                      { u"response_schema"_s, QJsonObject { { u"type"_s, u"object"_s } } },
                      { u"engine"_s, engine } } },
                { u"dataset"_s, dataset },
                { u"variants"_s,
                  QJsonArray { QJsonObject { { u"name"_s, u"A"_s } },
                               QJsonObject { { u"name"_s, u"B"_s },
                                             { u"system_prompt"_s, u"Plan briefly."_s } } } },
                { u"assert"_s,
                  QJsonArray { QJsonObject { { u"type"_s, u"judge"_s },
                                             { u"name"_s, u"useful"_s },
                                             { u"rubric"_s, u"The plan is useful."_s },
                                             { u"pass_score"_s, 0.5 },
                                             { u"engine"_s, engine } } } } })
            .toJson());
    file.close();

    ExperimentView view(m_services->calls(), m_services->store());
    view.setReader(m_services->reader());
    view.resize(1280, 800);
    view.show();
    QVERIFY2(
        view.openFile(path),
        qPrintable(view.loadErrors().isEmpty() ? QString() : view.loadErrors().first().toString()));
    QTRY_VERIFY_WITH_TIMEOUT(view.state() == ExperimentView::State::Ready, 15000);
    QVERIFY(!view.reviewButton()->isEnabled());
    QVERIFY(view.run());
    QTRY_VERIFY_WITH_TIMEOUT(view.state() == ExperimentView::State::Finished, 60000);
    QVERIFY(view.reviewButton()->isEnabled());
    m_services->calls()->flushWrites();

    // From here on every read and write goes through the reader's and the writer's threads.
    Database::setForbiddenThread(QCoreApplication::instance()->thread(),
                                 Database::ThreadCheck::Count);
    auto sqlOff =
        qScopeGuard([] { Database::setForbiddenThread(nullptr, Database::ThreadCheck::Off); });

    QTest::mouseClick(view.reviewButton(), Qt::LeftButton);
    ReviewQueue *queue = view.reviewQueue();
    QVERIFY(queue);
    QVERIFY(queue->isWindow());
    QCOMPARE(queue->count(), 2 * kCases);
    QCOMPARE(queue->currentIndex(), 0);
    QVERIFY(queue->progressLabel()->text().startsWith(u"0 of 50"_s));
    // It fits a 1280 x 800 screen: the panes scroll, the window does not.
    queue->resize(1280, 800);
    QVERIFY(QTest::qWaitForWindowExposed(queue));
    QVERIFY2(queue->minimumSizeHint().height() <= 800 && queue->minimumSizeHint().width() <= 1280,
             qPrintable(u"%1 x %2"_s.arg(queue->minimumSizeHint().width())
                            .arg(queue->minimumSizeHint().height())));
    QVERIFY(queue->outputView()->height() > 300);
    QTRY_VERIFY_WITH_TIMEOUT(queue->isCurrentShown(), 15000);
    QVERIFY(queue->caseView()->toPlainText().contains(u"Plan the good ticket 0"_s));
    QVERIFY(queue->outputView()->toPlainText().contains(u"\"title\""_s));
    QVERIFY(queue->transcriptView()->toPlainText().contains(u"submit_output"_s));

    // Undo: a pass taken back hides the verdict again; a skip taken back; a score changed back.
    QVERIFY(!queue->verdictsShown());
    QVERIFY(!queue->verdictsLabel()->text().contains(u"The judge useful"_s));
    QTest::keyClick(queue, Qt::Key_P);
    QVERIFY(queue->verdictsShown());
    QVERIFY2(queue->verdictsLabel()->text().contains(u"The judge useful passed it"_s),
             qPrintable(queue->verdictsLabel()->text()));
    QTest::keyClick(queue, Qt::Key_U);
    QCOMPARE(queue->currentIndex(), 0);
    QVERIFY(!queue->labelAt(0));
    QVERIFY(!queue->verdictsShown());
    QTest::keyClick(queue, Qt::Key_S);
    QCOMPARE(queue->labelAt(0)->verdict, u"skip"_s);
    QCOMPARE(queue->skippedCount(), 1);
    QTest::keyClick(queue, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(!queue->labelAt(0));
    QCOMPARE(queue->skippedCount(), 0);

    // The person's labels, chosen by what the judge will say (the test knows; the queue hides
    // it): of the 26 runs the judge passes, 20 pass and 6 fail; of the 24 it fails, 4 pass and
    // 20 fail.
    int judgePassSeen = 0, judgeFailSeen = 0;
    EventLoopGap gap;
    gap.start();
    qint64 slowestShow = 0;
    for (int n = 0; n < 2 * kCases; ++n) {
        const int index = queue->currentIndex();
        QVERIFY2(!queue->labelAt(index), qPrintable(QString::number(index)));
        QVERIFY(queue->isCurrentShown());
        QVERIFY(!queue->verdictsShown());
        const ExperimentRunRecord &run = queue->runAt(index);
        const bool judgePasses = run.caseId.mid(1).toInt() < kJudgePassCases;
        bool pass;
        if (judgePasses)
            pass = judgePassSeen++ < 20;
        else
            pass = judgeFailSeen++ < 4;
        if (n % 7 == 3)
            QTest::keyClick(queue, Qt::Key_4); // a score before the verdict is kept with it
        QTest::keyClick(queue, pass ? Qt::Key_P : Qt::Key_F);
        QVERIFY(queue->verdictsShown());
        QCOMPARE(queue->labelAt(index)->verdict, pass ? u"pass"_s : u"fail"_s);
        if (n % 7 == 3)
            QCOMPARE(queue->labelAt(index)->score, std::optional<int>(4));
        if (n == 5) {
            // A score after the verdict, then undone: the label is as before.
            QTest::keyClick(queue, Qt::Key_2);
            QCOMPARE(queue->labelAt(index)->score, std::optional<int>(2));
            QTest::keyClick(queue, Qt::Key_U);
            QCOMPARE(queue->labelAt(index)->verdict, pass ? u"pass"_s : u"fail"_s);
            QVERIFY(!queue->labelAt(index)->score);
            // A note: N, the text, Enter.
            QTest::keyClick(queue, Qt::Key_N);
            QVERIFY(queue->noteEdit()->isVisible());
            QTest::keyClicks(queue->noteEdit(), u"plan skips the deadline"_s);
            QTest::keyClick(queue->noteEdit(), Qt::Key_Return);
            QVERIFY(!queue->noteEdit()->isVisible());
            QCOMPARE(queue->labelAt(index)->note, u"plan skips the deadline"_s);
        }
        QVERIFY(queue->progressLabel()->text().startsWith(u"%1 of 50"_s.arg(n + 1)));
        if (n + 1 == 2 * kCases)
            break;
        // The next run is read ahead while the person looks at this one: when Space comes it is
        // on screen in the key's own handling.
        const int nextIndex = index + 1;
        QTRY_VERIFY_WITH_TIMEOUT(queue->isLoaded(nextIndex), 15000);
        QTest::keyClick(queue, Qt::Key_Space);
        QCOMPARE(queue->currentIndex(), nextIndex);
        QVERIFY(queue->isCurrentShown());
        slowestShow = std::max(slowestShow, queue->lastShowMs());
    }
    gap.stop();
    qInfo("review queue: slowest next run on screen %lld ms after its key; longest event-loop "
          "gap %lld ms",
          slowestShow, gap.longest());
    QVERIFY2(slowestShow < 100, qPrintable(QString::number(slowestShow)));
    QCOMPARE(queue->labelledCount(), 50);
    QVERIFY(queue->progressLabel()->text().contains(u"Every run has your label"_s));
    QTRY_COMPARE_WITH_TIMEOUT(queue->pendingWrites(), 0, 15000);

    // Kappa by hand: 50 pairs, 40 agree (20 + 20): observed 0.8. The judge passes 26 of 50
    // (0.52), the person 24 of 50 (0.48); chance agreement 0.52 * 0.48 + 0.48 * 0.52 = 0.4992.
    // Kappa = (0.8 - 0.4992) / (1 - 0.4992) = 0.3008 / 0.5008.
    const double expected = 0.3008 / 0.5008;
    QTRY_VERIFY_WITH_TIMEOUT(view.agreementLabel()->isVisible()
                                 && view.agreementLabel()->text().contains(u"kappa 0.60"_s),
                             15000);
    const QJsonObject review = view.summary().value(u"review"_s).toObject();
    QCOMPARE(review.value(u"labels"_s).toInt(), 50);
    const QJsonObject agreement = review.value(u"agreement"_s).toArray().at(0).toObject();
    QCOMPARE(agreement.value(u"assertion"_s).toString(), u"useful"_s);
    QCOMPARE(agreement.value(u"pairs"_s).toInt(), 50);
    QVERIFY(qAbs(agreement.value(u"kappa"_s).toDouble() - expected) < 1e-9);
    const QJsonObject confusion = agreement.value(u"confusion"_s).toObject();
    QCOMPARE(confusion.value(u"judge_pass"_s).toObject().value(u"person_pass"_s).toInt(), 20);
    QCOMPARE(confusion.value(u"judge_pass"_s).toObject().value(u"person_fail"_s).toInt(), 6);
    QCOMPARE(confusion.value(u"judge_fail"_s).toObject().value(u"person_pass"_s).toInt(), 4);
    QCOMPARE(confusion.value(u"judge_fail"_s).toObject().value(u"person_fail"_s).toInt(), 20);

    const int statements = Database::forbiddenThreadStatements();
    const QString last = Database::lastForbiddenStatement();
    sqlOff.dismiss();
    Database::setForbiddenThread(nullptr, Database::ThreadCheck::Off);
    QVERIFY2(
        statements == 0,
        qPrintable(
            u"%1 SQL statement(s) on the GUI thread, the last: %2"_s.arg(statements).arg(last)));

    // What the store holds: the 50 labels with the reviewer's name, the note and the scores.
    m_services->calls()->flushWrites();
    auto stored = m_services->store()->reviewLabels(view.experimentId());
    QVERIFY2(stored, qPrintable(stored.error().message));
    QCOMPARE(stored->size(), 50);
    int notes = 0, scores = 0;
    for (const ReviewLabel &label : stored.value()) {
        QCOMPARE(label.reviewer, queue->reviewer());
        QVERIFY(label.verdict == u"pass"_s || label.verdict == u"fail"_s);
        QVERIFY(label.callId.value_or(0) > 0);
        notes += label.note.isEmpty() ? 0 : 1;
        scores += label.score ? 1 : 0;
    }
    QCOMPARE(notes, 1);
    QCOMPARE(scores, 7); // n = 3, 10, 17, 24, 31, 38, 45
    QVERIFY(!queue->reviewer().isEmpty());
    queue->close();
}

#include "tst_spectab.moc"
