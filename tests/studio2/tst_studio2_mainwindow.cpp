// The studio's part-2 views inside the real MainWindow (offscreen), with its own StudioServices
// on a temporary data home: a bundled replay sample runs through the window's Run action, the
// call shows up in the History dock, selecting it fills the revision tree and the budget view,
// "Replay with current spec" adds a child, Compare with parent fills the diff, the View menu
// holds the dock toggles, and the layout survives saveState/restoreState.

#include "core/model/specio.h"
#include "core/service/appcontext.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "tests/support/fakeprovider.h"
#include "ui/widgets/jobsbutton.h"
#include "ui/run/transcriptmodel.h"
#include "core/store/callstore.h"
#include "tests/support/testsupport.h"
#include "ui/budget/budgetmodel.h"
#include "ui/budget/budgetview.h"
#include "ui/widgets/studioservices.h"
#include "ui/diff/diffmodel.h"
#include "ui/diff/diffview.h"
#include "ui/history/callview.h"
#include "ui/history/historybrowser.h"
#include "ui/history/historydocks.h"
#include "ui/history/historymodel.h"
#include "ui/history/revisiontreemodel.h"
#include "ui/history/revisiontreewidget.h"
#include "ui/mainwindow.h"
#include "ui/run/runpanel.h"
#include "ui/sessions/sessionview.h"
#include "ui/editor/specdocument.h"
#include "ui/settings/enginespage.h"
#include "ui/settings/limitspage.h"
#include "core/service/scheduler.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QProcess>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

QString sourcePath(const QString &relative)
{
    return QStringLiteral(CALLSCOPE_SOURCE_DIR) + u'/' + relative;
}

QMenu *menuTitled(QMainWindow &window, const QString &title)
{
    for (QAction *action : window.menuBar()->actions()) {
        if (action->menu() && action->text() == title)
            return action->menu();
    }
    return nullptr;
}

QStringList actionTexts(QMenu *menu)
{
    QStringList texts;
    for (QAction *action : menu->actions()) {
        if (!action->isSeparator())
            texts.append(action->text());
    }
    return texts;
}

} // namespace

class TestStudio2Window : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void mainWindowHistoryDocks();
    void panelsRunAtOnceEachWithItsOwnCall();
    void opensTheHistoryGivenWithDb();

private:
    std::unique_ptr<ScopedDataHome> m_home;
};

void TestStudio2Window::initTestCase()
{
    m_home = std::make_unique<ScopedDataHome>();
    QVERIFY(m_home->isValid());
    // QStandardPaths' test mode puts data under ~/.qttest whatever XDG_DATA_HOME says; without
    // it the window's default database lands in the temporary home and starts empty.
    QStandardPaths::setTestModeEnabled(false);
    QCoreApplication::setOrganizationName(u"CallscopeTest"_s);
    QCoreApplication::setApplicationName(u"tst_studio2_window"_s);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_home->path() + u"/config"_s);
    QSettings().clear();
    QVERIFY2(QFile::exists(sourcePath(u"resources/samples/lunar-landing.spec.json"_s)),
             "resources/samples/lunar-landing.spec.json is missing");
}

void TestStudio2Window::cleanupTestCase()
{
    m_home.reset();
}

// `callscope --db PATH` opens the history the CLI wrote with --db, and says which one it is; a
// call run in the studio is in the history the CLI then reads. The window is made as the
// studio's main makes it: on an AppContext opened from --db.
void TestStudio2Window::opensTheHistoryGivenWithDb()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(u"try.sqlite"_s);
    const QString sample = sourcePath(u"resources/samples/lunar-landing.spec.json"_s);
    QProcess cli;
    cli.start(cliPath(), {u"run"_s, sample, u"--input"_s, u"Describe the landing."_s, u"--db"_s, db});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const qint64 cliCall = QJsonDocument::fromJson(cli.readAllStandardOutput()).object().value(u"call_id"_s).toInteger();
    QVERIFY(cliCall > 0);

    AppContext context;
    QVERIFY2(context.openHistory(db), qPrintable(context.databaseError()));
    MainWindow::Options options;
    options.context = &context;
    MainWindow window(options);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    StudioServices *services = window.studioServices();
    QVERIFY(services && services->database());
    // The window's services are the context's, not a second assembly of its own.
    QCOMPARE(services->context(), &context);
    QCOMPARE(services->calls(), context.calls());
    QCOMPARE(services->store(), context.store());
    QCOMPARE(QFileInfo(services->database()->path()).canonicalFilePath(), QFileInfo(db).canonicalFilePath());
    QTRY_COMPARE(window.historyDocks()->history()->model()->rowCount(), 1);
    auto *label = window.findChild<QLabel *>(u"historyFileLabel"_s);
    QVERIFY(label);
    QCOMPARE(label->text(), u"History: try.sqlite"_s);

    // The studio's call goes into the same file: the CLI lists both and shows the studio's.
    const SpecLoadResult loaded = loadSpecFile(sample);
    QVERIFY(loaded.spec);
    LaunchRequest request;
    request.spec = *loaded.spec;
    request.input.text = u"Describe the landing again."_s;
    LaunchResult studioRun;
    bool done = false;
    CallJob *job = services->calls()->launch(request);
    connect(job, &CallJob::finished, this, [&](const LaunchResult &result) {
        studioRun = result;
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
    QVERIFY2(studioRun.stored, qPrintable(studioRun.storeError));
    services->calls()->flushWrites();
    QTRY_COMPARE(window.historyDocks()->history()->model()->rowCount(), 2);
    QProcess history;
    history.start(cliPath(), {u"history"_s, u"--db"_s, db});
    QVERIFY(history.waitForFinished(60000));
    QVERIFY2(history.exitCode() == 0, history.readAllStandardError().constData());
    const QJsonArray rows = QJsonDocument::fromJson(history.readAllStandardOutput()).array();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(0).toObject().value(u"id"_s).toInteger(), studioRun.record.id); // newest first
    QCOMPARE(rows.at(1).toObject().value(u"id"_s).toInteger(), cliCall);

    // The usual window says nothing of the kind.
    MainWindow usual;
    QVERIFY(!usual.findChild<QLabel *>(u"historyFileLabel"_s));
}

void TestStudio2Window::mainWindowHistoryDocks()
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    HistoryDocks *docks = window.historyDocks();
    QVERIFY(docks);
    StudioServices *services = window.studioServices();
    QVERIFY2(services && services->store(), qPrintable(services ? services->databaseError() : u"no services"_s));
    // One database and one CallService for the whole window: the docks use the window's.
    QVERIFY(services->database()->path().startsWith(m_home->path()));
    HistoryBrowser *history = docks->history();
    QCOMPARE(history->model()->rowCount(), 0);

    // The View menu toggles every dock, with its shortcut; the docks have names for saveState.
    QMenu *view = menuTitled(window, u"&View"_s);
    QVERIFY(view);
    const QStringList viewTexts = actionTexts(view);
    for (const QString &title : {u"History"_s, u"Revisions"_s, u"Sessions"_s, u"Context Budget"_s, u"Diff"_s})
        QVERIFY2(viewTexts.contains(title), qPrintable(viewTexts.join(u", "_s)));
    // The shortcuts bring a panel forward (issue 17); the toggles sit in a submenu, unbound.
    QCOMPARE(window.panelAction(docks->historyDock())->shortcut(), QKeySequence(u"Ctrl+3"_s));
    QCOMPARE(window.panelAction(docks->diffDock())->shortcut(), QKeySequence(u"Ctrl+7"_s));
    QVERIFY(docks->historyDock()->toggleViewAction()->shortcut().isEmpty());
    QStringList names;
    for (QDockWidget *dock : docks->docks()) {
        names.append(dock->objectName());
        QVERIFY(!dock->accessibleName().isEmpty());
        QCOMPARE(window.dockWidgetArea(dock) != Qt::NoDockWidgetArea, true);
    }
    QCOMPARE(names, (QStringList{u"historyDock"_s, u"revisionsDock"_s, u"sessionsDock"_s, u"budgetDock"_s, u"diffDock"_s}));
    // File > Export…/Import…, Edit > Preferences (Ctrl+,), a History menu before Help.
    const QStringList fileTexts = actionTexts(menuTitled(window, u"&File"_s));
    QVERIFY2(fileTexts.contains(u"Export &Call…"_s) && fileTexts.contains(u"&Import…"_s)
                 && fileTexts.contains(u"Export Revision &Tree…"_s) && fileTexts.contains(u"Export &Session…"_s),
             qPrintable(fileTexts.join(u", "_s)));
    QCOMPARE(fileTexts.constLast(), u"&Quit"_s);
    QVERIFY(actionTexts(menuTitled(window, u"&Edit"_s)).contains(u"&Preferences…"_s));
    QCOMPARE(docks->preferencesAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Comma));
    QVERIFY(menuTitled(window, u"&History"_s));
    const QList<QAction *> bar = window.menuBar()->actions();
    QCOMPARE(bar.at(bar.size() - 2)->text(), u"&History"_s);
    QCOMPARE(bar.constLast()->text(), u"&Help"_s);

    // A bundled replay sample through the window's Run action (Ctrl+R): no key, no network.
    QVERIFY(window.openSpecFile(sourcePath(u"resources/samples/lunar-landing.spec.json"_s)));
    QSignalSpy finished(window.runPanel(), &RunPanel::runFinished);
    QAction *run = nullptr;
    for (QAction *a : window.findChildren<QAction *>()) {
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R) && a->isEnabled())
            run = run ? run : a;
    }
    QVERIFY(run);
    run->trigger();
    QVERIFY(finished.wait(15000));
    const LaunchResult result = finished.at(0).at(0).value<LaunchResult>();
    QVERIFY(result.stored);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    const qint64 callId = result.record.id;
    QVERIFY(callId > 0);

    // The call appears in History (refreshed on CallService::jobFinished).
    QTRY_COMPARE_WITH_TIMEOUT(history->model()->rowCount(), 1, 15000);
    QCOMPARE(history->model()->index(0, 0).data(HistoryModel::CallIdRole).toLongLong(), callId);

    // Selecting it fills the revision tree and the budget view.
    const QModelIndex row = history->proxy()->index(0, 0);
    history->view()->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(history->selectedCallId(), callId);
    QCOMPARE(docks->currentCallId(), callId);
    QCOMPARE(history->callView()->call().id, callId);
    QCOMPARE(docks->revisions()->model()->rootId(), callId);
    QCOMPARE(docks->revisions()->selectedCallId(), callId);
    QCOMPARE(docks->revisions()->callView()->call().id, callId);
    int reports = 0;
    for (const TurnRecord &turn : result.record.turns)
        reports += turn.requestReport.isEmpty() ? 0 : 1;
    QVERIFY2(reports > 0, "the replayed call has no budget reports");
    QCOMPARE(docks->budget()->turnCombo()->count(), reports);
    QVERIFY(docks->budget()->model()->rowCount() > 0);
    QVERIFY2(!docks->budget()->summaryText().isEmpty(), "the budget view shows no totals");

    // Replay with current spec: the editor's spec reaches the tree; the replay is a child.
    QSignalSpy treeRun(docks->revisions(), &RevisionTreeWidget::runFinished);
    docks->replaySpecAction()->trigger();
    QVERIFY2(treeRun.wait(15000), qPrintable(docks->revisions()->statusText()));
    const qint64 replayId = treeRun.at(0).at(0).toLongLong();
    QVERIFY2(replayId > callId, qPrintable(docks->revisions()->statusText()));
    QTRY_COMPARE_WITH_TIMEOUT(history->model()->rowCount(), 2, 15000);
    auto replay = services->store()->getCall(replayId);
    QVERIFY(replay);
    QCOMPARE(replay.value().parent.value_or(0), callId);
    QCOMPARE(docks->revisions()->model()->rootId(), callId);

    // Compare with parent from History: the replay against the first call.
    docks->openCall(replayId);
    QCOMPARE(history->selectedCallId(), replayId);
    QCOMPARE(docks->currentCallId(), replayId);
    QVERIFY(docks->compareParentAction()->isEnabled());
    docks->compareParentAction()->trigger();
    QVERIFY(docks->compareView());
    QCOMPARE(window.documentTabs()->currentWidget(), docks->compareView());
    QCOMPARE(docks->compareView()->model()->diff().leftId, callId);
    QCOMPARE(docks->compareView()->model()->diff().rightId, replayId);
    QVERIFY2(docks->compareView()->model()->rowCount() > 0, qPrintable(docks->compareView()->statusText()));
    // Two rows selected: Compare Selected.
    history->view()->selectAll();
    QCOMPARE(docks->selectedCallIds(), (QList<qint64>{callId, replayId}));
    QVERIFY(docks->compareSelectedAction()->isEnabled());
    QVERIFY(docks->compareSelected());

    // Preferences opens the engines page.
    docks->preferencesAction()->trigger();
    QVERIFY(docks->settingsDialog());
    QVERIFY(docks->settingsDialog()->isVisible());
    QVERIFY(docks->settingsDialog()->enginesPage());
    // Calls at once: a changed limit is saved and reaches the running scheduler.
    LimitsPage *limits = docks->settingsDialog()->limitsPage();
    QVERIFY(limits);
    limits->globalLimitBox()->setValue(6);
    QCOMPARE(services->calls()->scheduler()->globalLimit(), 6);
    QCOMPARE(QSettings().value(u"scheduler/global_limit"_s).toInt(), 6);
    limits->engineLimitBox()->setValue(2);
    QCOMPARE(services->calls()->scheduler()->defaultEngineLimit(), 2);
    QCOMPARE(limits->engineLimitBox()->text(), u"2"_s);
    limits->engineLimitBox()->setValue(0);
    QCOMPARE(limits->engineLimitBox()->text(), u"no limit of its own"_s);
    docks->settingsDialog()->close();

    // Screenshot of the whole window: History, and the call's revision tree below the spec.
    docks->openCall(callId);
    docks->revisionsDock()->raise();
    window.resize(1400, 900);
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    const QString shot = buildPath(u"screenshots/main-window-studio.png"_s);
    QVERIFY2(window.grab().save(shot), qPrintable(shot));
    QVERIFY2(window.width() <= 1400, qPrintable(u"the window needs %1 px"_s.arg(window.width())));

    // The layout comes back from saveState: hide a dock, restore, it is back.
    const QByteArray state = window.saveState();
    docks->sessionsDock()->toggleViewAction()->trigger();
    QVERIFY(docks->sessionsDock()->isHidden());
    QVERIFY(window.restoreState(state));
    QVERIFY(!docks->sessionsDock()->isHidden());

    window.currentDocument()->setClean();
}

// A run in the Run panel, a revision in the Revisions dock and a session turn, all in flight at
// once against a slow provider: each panel shows its own call and nothing of the others', the
// status bar lists all three, and all three are stored.
void TestStudio2Window::panelsRunAtOnceEachWithItsOwnCall()
{
    FakeProvider server;
    QVERIFY(server.listen());
    // Every reply takes 600 ms: the three calls overlap for sure.
    server.setResponder(twoTurnResponder(u"get_ticket"_s, {{u"title"_s, u"Fix login"_s}}, 600));
    qputenv("CALLSCOPE_WINDOW_API_KEY", "sk-window-test");
    QTemporaryDir dir;
    const QString specPath = dir.filePath(u"planner.spec.json"_s);
    {
        QFile file(specPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_WINDOW_API_KEY"_s)).toJson());
    }

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    StudioServices *services = window.studioServices();
    QVERIFY(services && services->store());
    CallService *calls = services->calls();
    HistoryDocks *docks = window.historyDocks();
    QVERIFY(window.openSpecFile(specPath));

    // A call to revise, and a session to talk in.
    const SpecLoadResult loaded = loadSpecFile(specPath);
    QVERIFY(loaded.spec);
    LaunchRequest first;
    first.spec = *loaded.spec;
    first.input.text = u"root input"_s;
    CallJob *rootJob = calls->launch(first);
    QSignalSpy rootDone(rootJob, &CallJob::finished);
    QVERIFY(rootDone.wait(15000));
    const qint64 root = rootDone.at(0).at(0).value<LaunchResult>().record.id;
    QVERIFY(root > 0);
    const qint64 before = services->store()->listCalls({})->rows.size();
    const qint64 session = docks->sessions()->newSession(u"Concurrent"_s);
    QVERIFY(session > 0);
    docks->sessions()->selectSession(session);
    const int requestsBefore = int(server.requestCount());

    // All three at once.
    QSignalSpy runDone(window.runPanel(), &RunPanel::runFinished);
    QSignalSpy revisionDone(docks->revisions(), &RevisionTreeWidget::runFinished);
    QSignalSpy turnDone(docks->sessions(), &SessionView::turnFinished);
    window.runPanel()->setInputText(u"run panel input"_s);
    window.runPanel()->run();
    docks->revisions()->setCall(root);
    QVERIFY2(docks->revisions()->revise(u"revision correction"_s), qPrintable(docks->revisions()->statusText()));
    // The open spec, run inside the session ("Run spec in session").
    docks->sessions()->input()->setPlainText(u"session turn input"_s);
    QVERIFY(docks->sessions()->runSpecButton()->isEnabled());
    docks->sessions()->runSpecButton()->click();

    // The status bar lists the three calls in flight, each with its own Cancel.
    auto *jobs = window.findChild<JobsButton *>(u"jobsButton"_s);
    QVERIFY(jobs);
    QTRY_COMPARE_WITH_TIMEOUT(calls->activeJobs(), 3, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(server.inFlight() == 3, 15000);
    QVERIFY(jobs->isVisible());
    QVERIFY2(jobs->text().startsWith(u"3 calls running"_s), qPrintable(jobs->text()));
    int cancels = 0;
    for (QAction *action : jobs->jobsMenu()->actions())
        cancels += action->text().startsWith(u"Cancel: "_s) ? 1 : 0;
    QCOMPARE(cancels, 3);
    QCoreApplication::processEvents();
    const QString shot = buildPath(u"screenshots/three-calls-in-flight.png"_s);
    QVERIFY2(window.grab().save(shot), qPrintable(shot));

    QVERIFY(runDone.wait(15000));
    QTRY_COMPARE_WITH_TIMEOUT(revisionDone.size(), 1, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(turnDone.size(), 1, 15000);
    // Two turns each for the run and the session turn; the revision carries the parent's tool
    // result already, so its first reply submits.
    QCOMPARE(int(server.requestCount()) - requestsBefore, 5);

    // Each panel shows its own call only.
    const LaunchResult run = runDone.at(0).at(0).value<LaunchResult>();
    QCOMPARE(callStatusName(run.record.status), u"completed"_s);
    TranscriptModel *transcript = window.runPanel()->transcript();
    QString shown;
    for (int i = 0; i < transcript->count(); ++i)
        shown += transcript->index(i, 0).data(TranscriptModel::TextRole).toString() + u'\n';
    QVERIFY2(shown.contains(u"run panel input"_s), qPrintable(shown));
    QVERIFY2(!shown.contains(u"revision correction"_s) && !shown.contains(u"session turn input"_s), qPrintable(shown));
    QVERIFY2(!shown.contains(u"root input"_s), qPrintable(shown));
    const QString chat = docks->sessions()->chatText();
    QVERIFY2(chat.contains(u"session turn input"_s), qPrintable(chat));
    QVERIFY2(!chat.contains(u"run panel input"_s) && !chat.contains(u"revision correction"_s), qPrintable(chat));
    const qint64 revision = revisionDone.at(0).at(0).toLongLong();
    QVERIFY(revision > 0);
    QCOMPARE(docks->revisions()->model()->callCount(), 2);
    QCOMPARE(docks->revisions()->selectedCallId(), revision);

    // All three stored, each where it belongs.
    QCOMPARE(services->store()->listCalls({})->rows.size(), before + 3);
    auto revised = services->store()->getCall(revision);
    QVERIFY(revised);
    QCOMPARE(revised->parent.value_or(0), root);
    QVERIFY(!revised->session);
    auto stored = services->store()->getCall(run.record.id);
    QVERIFY(stored);
    QCOMPARE(stored->input.value(u"text"_s).toString(), u"run panel input"_s);
    QVERIFY(!stored->parent);
    auto turns = services->store()->sessionCalls(session);
    QVERIFY(turns);
    QCOMPARE(turns->size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isVisible(), 15000);
    window.currentDocument()->setClean();
}

int runMainWindowTests(int argc, char **argv)
{
    TestStudio2Window test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_studio2_mainwindow.moc"
