// A stored call as a tab of the real MainWindow (offscreen, 1280x800, its own data home), on
// the bundled lunar-landing sample (the replay engine: no key, no network): opened from
// History, from a revision tree and from the History menu it is one tab; its Transcript,
// Result, Request / Response of each turn, Context budget and Revisions show that call; one
// current call serves History, the revision trees and the tabs, and the History menu acts on
// it (Compare with parent, Compare Selected, Export). Screenshots go to the build's
// screenshots/ folder (call-view.png, compare.png, budget-view.png).

#include "core/model/callrecord.h"
#include "core/service/callservice.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/studiowait.h"
#include "tests/support/testsupport.h"
#include "ui/diff/diffmodel.h"
#include "ui/diff/diffview.h"
#include "ui/editor/specdocument.h"
#include "ui/history/calltab.h"
#include "ui/history/currentcall.h"
#include "ui/history/historybrowser.h"
#include "ui/history/historymodel.h"
#include "ui/history/revisiontreemodel.h"
#include "ui/history/revisiontreewidget.h"
#include "ui/run/runpanel.h"
#include "ui/transfer/transfercontroller.h"
#include "ui/widgets/budgetmodel.h"
#include "ui/widgets/budgetview.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/rawexchangeview.h"
#include "ui/widgets/studioservices.h"
#include "ui/window/historydocks.h"
#include "ui/window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <memory>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

void settle()
{
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

void shot(QWidget &window, const QString &name)
{
    settle();
    window.grab().save(buildPath(u"screenshots/"_s + name + u".png"_s));
}

QModelIndex historyRow(HistoryBrowser *history, qint64 id)
{
    const int row = history->model()->rowOfCall(id);
    return row < 0 ? QModelIndex()
                   : history->proxy()->mapFromSource(history->model()->index(row, 0));
}

QModelIndex treeNode(QTreeView *tree, qint64 id)
{
    const QModelIndexList found = tree->model()->match(
        tree->model()->index(0, 0), RevisionTreeModel::CallIdRole, id, 1, Qt::MatchRecursive);
    return found.value(0);
}

int messageCount(const QString &requestJson)
{
    return QJsonDocument::fromJson(requestJson.toUtf8())
        .object()
        .value(u"messages"_s)
        .toArray()
        .size();
}

} // namespace

class TestCallView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void storedCallOpensInATab();
    void oneCurrentCallForHistoryTreeAndTabs();
    void compareTwoHistoryRows();
    void storedExchangeShownPerTurn();

private:
    std::unique_ptr<MainWindow> makeWindow();
    // The sample run from the Run panel, and a replay of it with the spec in the editor.
    qint64 runSample(MainWindow &window, const QString &input = {});
    qint64 replayChild(MainWindow &window, qint64 parent);
    std::unique_ptr<ScopedDataHome> m_home;
};

void TestCallView::initTestCase()
{
    qRegisterMetaType<TransferResult>();
    m_home = std::make_unique<ScopedDataHome>();
    QVERIFY(m_home->isValid());
    QStandardPaths::setTestModeEnabled(false);
    QCoreApplication::setOrganizationName(u"CallscopeTest"_s);
    QCoreApplication::setApplicationName(u"tst_callview"_s);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_home->path() + u"/config"_s);
}

void TestCallView::cleanupTestCase()
{
    m_home.reset();
}

void TestCallView::init()
{
    QSettings().clear();
}

std::unique_ptr<MainWindow> TestCallView::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->resize(1280, 800);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    settle();
    return window;
}

qint64 TestCallView::runSample(MainWindow &window, const QString &input)
{
    if (!window.openSample(u"lunar-landing"_s))
        return 0;
    if (!input.isEmpty())
        window.runPanel()->setInputText(input);
    QSignalSpy finished(window.runPanel(), &RunPanel::runFinished);
    window.runPanel()->run();
    if (!finished.wait(15000))
        return 0;
    const LaunchResult result = finished.at(0).at(0).value<LaunchResult>();
    return result.stored ? result.record.id : 0;
}

qint64 TestCallView::replayChild(MainWindow &window, qint64 parent)
{
    HistoryDocks *docks = window.historyDocks();
    docks->currentCall()->setCurrent(parent);
    // The revision tree reads the call off the GUI thread: replay once it holds the parent.
    if (!QTest::qWaitFor([&] { return docks->revisions()->selectedCallId() == parent; }, 15000))
        return 0;
    QSignalSpy treeRun(docks->revisions(), &RevisionTreeWidget::runFinished);
    docks->replaySpecAction()->trigger();
    if (!treeRun.wait(15000))
        return 0;
    return treeRun.at(0).at(0).toLongLong();
}

// Enter on a History row opens the call as a tab; its five pages show that call; opening it
// again (Open in the History menu, a double-click on its node) gives the same tab.
void TestCallView::storedCallOpensInATab()
{
    auto window = makeWindow();
    QVERIFY(window);
    HistoryDocks *docks = window->historyDocks();
    const qint64 id = runSample(*window);
    QVERIFY(id > 0);
    const CallRecord stored = window->studioServices()->store()->getCall(id).value();
    QVERIFY2(stored.turns.size() >= 2, "the sample is meant to have a reask");

    HistoryBrowser *history = docks->history();
    window->showPanel(docks->historyDock());
    QTRY_VERIFY_WITH_TIMEOUT(historyRow(history, id).isValid(), 15000);
    const QModelIndex row = historyRow(history, id);
    history->view()->selectionModel()->setCurrentIndex(
        row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(docks->currentCallId(), id);
    QVERIFY(!docks->callTab(id)); // picked, not opened
    const int before = window->documentTabs()->count();
    QVERIFY(history->view()->isVisible());
    const QPoint at = history->view()->visualRect(row).center();
    QTest::mouseClick(history->view()->viewport(), Qt::LeftButton, {}, at);
    QVERIFY(!docks->callTab(id)); // a click picks, it does not open
    QTest::mouseDClick(history->view()->viewport(), Qt::LeftButton, {}, at);
    CallTab *tab = docks->callTab(id);
    QVERIFY2(tab, "a double-click on the History row opened no tab");
    QVERIFY(callTabFilled(tab));
    QTRY_COMPARE(tab->revisionModel()->rootId(), id);
    QCOMPARE(window->documentTabs()->count(), before + 1);
    QCOMPARE(window->documentTabs()->currentWidget(), tab);
    QCOMPARE(window->documentTabs()->tabText(window->documentTabs()->currentIndex()), tab->title());
    QVERIFY(tab->title().contains(QString::number(id)));

    // Summary: the status in words, the engine, tokens, duration; a replay says so.
    const QString summary = tab->summaryText();
    QVERIFY2(summary.contains(u"Completed"_s), qPrintable(summary));
    QVERIFY2(summary.contains(u"replay"_s), qPrintable(summary));
    QVERIFY2(summary.contains(u"tokens in"_s), qPrintable(summary));
    QVERIFY2(summary.contains(u"Replayed from a recording"_s), qPrintable(summary));
    QVERIFY2(!summary.contains(u"completed"_s),
             qPrintable(summary)); // the identifier stays off screen

    // Transcript: the call's own conversation.
    const QList<Message> messages = messagesFromJson(stored.messages);
    QVERIFY(!messages.isEmpty());
    const QString opening = messages.first().text.section(u'\n', 0, 0).simplified().left(30);
    QVERIFY(!opening.isEmpty());
    QVERIFY2(tab->transcriptText().simplified().contains(opening),
             qPrintable(tab->transcriptText().left(400)));

    // Result: the validated output, and the failed validation on the way.
    QCOMPARE(tab->resultText().trimmed(), CallView::prettyJson(stored.response).trimmed());
    QVERIFY2(tab->validationText().contains(u"passed validation"_s),
             qPrintable(tab->validationText()));
    int failedTurn = -1;
    for (const TurnRecord &turn : stored.turns) {
        if (failedTurn < 0 && !turn.note.isEmpty())
            failedTurn = turn.index;
    }
    QVERIFY2(failedTurn >= 0, "the sample's reask turn is not marked");
    QVERIFY2(tab->validationText().contains(u"Turn %1:"_s.arg(failedTurn + 1)),
             qPrintable(tab->validationText()));
    QVERIFY2(tab->validationText().contains(u"cut off"_s),
             qPrintable(tab->validationText())); // the truncated first reply

    // Request / Response: one entry per turn, the last shown first; each turn's request is
    // what the replay engine was asked (the conversation up to its reply, so later turns carry
    // more messages) and the response the recorded reply it served.
    QCOMPARE(tab->turnCombo()->count(), int(stored.turns.size()));
    QCOMPARE(tab->turnCombo()->currentIndex(), int(stored.turns.size()) - 1);
    QCOMPARE(tab->exchanges().size(), stored.turns.size());
    const int lastMessages = messageCount(tab->requestText());
    QVERIFY2(tab->responseText().contains(u"recorded_reply"_s), qPrintable(tab->responseText()));
    QVERIFY2(tab->responseText().contains(u"finish_reason"_s), qPrintable(tab->responseText()));
    tab->turnCombo()->setCurrentIndex(0);
    const int firstMessages = messageCount(tab->requestText());
    QVERIFY2(firstMessages >= 1 && firstMessages < lastMessages,
             qPrintable(u"%1 then %2 messages"_s.arg(firstMessages).arg(lastMessages)));
    QCOMPARE(QJsonDocument::fromJson(tab->requestText().toUtf8()).object(),
             QJsonDocument::fromJson(tab->exchanges().at(0).request).object());
    QVERIFY(tab->exchange()->cutText().isEmpty());
    QVERIFY2(tab->exchangeNote().contains(u"Replayed"_s), qPrintable(tab->exchangeNote()));

    // Context budget: the call's turns' reports.
    int reports = 0;
    for (const TurnRecord &turn : stored.turns)
        reports += turn.requestReport.isEmpty() ? 0 : 1;
    QVERIFY(reports > 0);
    QCOMPARE(tab->budget()->turnCombo()->count(), reports);
    QVERIFY(tab->budget()->model()->rowCount() > 0);

    // Revisions: the call's tree, the call selected.
    QCOMPARE(tab->revisionModel()->rootId(), id);
    QCOMPARE(tab->revisionView()->currentIndex().data(RevisionTreeModel::CallIdRole).toLongLong(),
             id);

    tab->tabs()->setCurrentIndex(0);
    shot(*window, u"call-view"_s);
    tab->tabs()->setCurrentWidget(tab->budget());
    shot(*window, u"call-view-budget"_s);
    tab->tabs()->setCurrentWidget(tab->exchangePage());
    shot(*window, u"call-view-request-response"_s);

    // Open again, from the History menu and from the revision tree: the same tab.
    window->documentTabs()->setCurrentIndex(0);
    QAction *open = window->findChild<QAction *>(u"openCallAction"_s);
    QVERIFY(open);
    QVERIFY(open->isEnabled());
    open->trigger();
    QCOMPARE(window->documentTabs()->count(), before + 1);
    QCOMPARE(window->documentTabs()->currentWidget(), tab);
    Q_EMIT docks->revisions()->view()->activated(treeNode(docks->revisions()->view(), id));
    QCOMPARE(window->documentTabs()->count(), before + 1);
    QCOMPARE(docks->callTabs().size(), 1);

    // Closing the tab removes it; opening afterwards makes a new one.
    auto *close = window->documentTabs()->tabBar()->tabButton(window->documentTabs()->indexOf(tab),
                                                              QTabBar::RightSide);
    QVERIFY(close);
    QPointer<CallTab> gone = tab;
    QMetaObject::invokeMethod(close, "click");
    QTRY_VERIFY(!gone);
    QCOMPARE(window->documentTabs()->count(), before);
    QVERIFY(!docks->callTab(id));
    QVERIFY(docks->openCall(id));
    QCOMPARE(window->documentTabs()->count(), before + 1);
    window->currentDocument()->setClean();
}

// The revision tree, History and a call tab share one current call: Compare with parent acts on
// the node picked in a tree, Export on the call in front.
void TestCallView::oneCurrentCallForHistoryTreeAndTabs()
{
    auto window = makeWindow();
    QVERIFY(window);
    HistoryDocks *docks = window->historyDocks();
    const qint64 root = runSample(*window);
    QVERIFY(root > 0);
    const qint64 child = replayChild(*window, root);
    QVERIFY2(child > root, qPrintable(docks->revisions()->statusText()));
    HistoryBrowser *history = docks->history();
    QTRY_VERIFY_WITH_TIMEOUT(historyRow(history, child).isValid(), 15000);

    // History row: the root. The tree follows it.
    window->showPanel(docks->historyDock());
    QTest::mouseClick(history->view()->viewport(), Qt::LeftButton, {},
                      history->view()->visualRect(historyRow(history, root)).center());
    QCOMPARE(docks->currentCallId(), root);
    QCOMPARE(docks->revisions()->selectedCallId(), root);
    QVERIFY(!docks->compareParentAction()->isEnabled() || docks->currentCallId() == root);

    // A node in the revision tree: now that is the current call, for History too.
    QTreeView *tree = docks->revisions()->view();
    tree->selectionModel()->setCurrentIndex(
        treeNode(tree, child), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(docks->currentCallId(), child);
    QCOMPARE(history->selectedCallId(), child);
    QCOMPARE(docks->selectedCallIds(), QList<qint64> { child });
    docks->compareParentAction()->trigger();
    // Read off the GUI thread: the tab and its rows come with the answer.
    QTRY_VERIFY(docks->compareView() && docks->compareView()->model()->rowCount() > 0);
    DiffView *diff = docks->compareView();
    QCOMPARE(diff->model()->diff().leftId, root);
    QCOMPARE(diff->model()->diff().rightId, child);
    QCOMPARE(window->documentTabs()->currentWidget(), diff);

    // Two nodes picked in the tree: Compare Selected compares those.
    tree->selectionModel()->select(treeNode(tree, root),
                                   QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(docks->selectedCallIds(), (QList<qint64> { root, child }));
    QVERIFY(docks->compareSelectedAction()->isEnabled());

    // A call tab in front is the current call; its own tree writes it too.
    CallTab *tab = callTabFilled(docks->openCall(root));
    QVERIFY(tab);
    QTRY_COMPARE(tab->revisionModel()->callCount(), 2);
    QTRY_VERIFY(treeNode(tab->revisionView(), child).isValid());
    QCOMPARE(docks->currentCallId(), root);
    QVERIFY(!docks->compareSelectedAction()->isEnabled());
    tab->tabs()->setCurrentWidget(tab->revisionView());
    QCOMPARE(tab->revisionModel()->callCount(), 2);
    QTreeView *tabTree = tab->revisionView();
    tabTree->selectionModel()->setCurrentIndex(
        treeNode(tabTree, child), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(docks->currentCallId(), child);
    QCOMPARE(docks->revisions()->selectedCallId(), child);
    tabTree->selectionModel()->select(treeNode(tabTree, root),
                                      QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QVERIFY(tab->compareSelectedButton()->isEnabled());
    QCOMPARE(docks->selectedCallIds(), (QList<qint64> { root, child }));

    // Export acts on the current call (the child, picked in the tab's tree).
    QTemporaryDir dir;
    const QString path = dir.filePath(u"current.json"_s);
    QSignalSpy done(docks->transfer(), &TransferController::finished);
    docks->exportCallAction()->trigger();
    QFileDialog *save = docks->transfer()->fileDialog();
    QVERIFY(save);
    save->selectFile(path);
    static_cast<QDialog *>(save)->accept();
    QVERIFY(done.wait(20000));
    const TransferResult exported = done.at(0).at(0).value<TransferResult>();
    QVERIFY2(exported.ok, qPrintable(exported.message));
    QCOMPARE(exported.callIds, QList<qint64> { child });
    const QJsonArray calls = readJson(path).toObject().value(u"calls"_s).toArray();
    QCOMPARE(calls.size(), 1);

    // The tab's Compare with parent on the root has nothing to compare; opened on the child it
    // does.
    QVERIFY(!tab->compareParentButton()->isEnabled());
    Q_EMIT tabTree->activated(treeNode(tabTree, child));
    CallTab *childTab = callTabFilled(docks->callTab(child));
    QVERIFY(childTab);
    QCOMPARE(window->documentTabs()->currentWidget(), childTab);
    QVERIFY(childTab->summaryText().contains(u"A replay of call %1"_s.arg(root)));
    QVERIFY(childTab->compareParentButton()->isEnabled());
    childTab->compareParentButton()->click();
    QCOMPARE(window->documentTabs()->currentWidget(), docks->compareView());
    QCOMPARE(docks->compareView(), diff); // the same pair: the same tab
    window->currentDocument()->setClean();
}

// Two History rows picked: Compare Selected shows the diff of those two, older on the left.
void TestCallView::compareTwoHistoryRows()
{
    auto window = makeWindow();
    QVERIFY(window);
    HistoryDocks *docks = window->historyDocks();
    const qint64 first = runSample(*window);
    QVERIFY(first > 0);
    // The same recording on another report: the inputs differ, the answers do not.
    const qint64 second = runSample(
        *window, u"Mission report, 2 April. IM-3 touched down at Reiner Gamma; mass not given."_s);
    QVERIFY(second > first);
    HistoryBrowser *history = docks->history();
    window->showPanel(docks->historyDock());
    QTRY_VERIFY_WITH_TIMEOUT(historyRow(history, second).isValid(), 15000);
    QVERIFY(!docks->compareSelectedAction()->isEnabled());

    QTableView *view = history->view();
    // Rows are looked up again before each click: History refreshes on its own when the store
    // commits, and an index kept across a refresh points at nothing.
    const auto rectOf = [&](qint64 id) {
        return view->visualRect(historyRow(history, id)).center();
    };
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rectOf(second));
    QCOMPARE(docks->currentCallId(), second);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier, rectOf(first));
    QCOMPARE(docks->selectedCallIds(), (QList<qint64> { first, second }));
    QVERIFY(docks->compareSelectedAction()->isEnabled());
    docks->compareSelectedAction()->trigger();
    QTRY_VERIFY(docks->compareView() && docks->compareView()->model()->rowCount() > 0);
    DiffView *diff = docks->compareView();
    QCOMPARE(window->documentTabs()->currentWidget(), diff);
    QCOMPARE(diff->model()->diff().leftId, first);
    QCOMPARE(diff->model()->diff().rightId, second);
    QVERIFY2(diff->model()->rowCount() > 0, qPrintable(diff->statusText()));
    QVERIFY2(!diff->statusText().startsWith(u"0 "_s), qPrintable(diff->statusText()));
    if (auto *only = diff->findChild<QCheckBox *>())
        only->setChecked(true);
    shot(*window, u"compare"_s);

    // One row again: nothing picked with it; the call picked before it (the first, touched
    // last by the Ctrl+click) pairs with it under Compare with Call N.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rectOf(second));
    QCOMPARE(docks->selectedCallIds(), QList<qint64> { second });
    QVERIFY(!docks->compareSelectedAction()->isEnabled());
    QCOMPARE(docks->currentCall()->previous(), first);
    QVERIFY(docks->comparePreviousAction()->isEnabled());
    QCOMPARE(docks->comparePreviousAction()->text(), u"Compare with Call %1"_s.arg(first));
    // The current call in a tab, the other picked in History: the same pair.
    docks->openCall(first);
    QCOMPARE(docks->currentCall()->previous(), second);
    docks->comparePreviousAction()->trigger();
    QCOMPARE(docks->compareView(), diff);
    QCOMPARE(window->documentTabs()->currentWidget(), diff);
    window->currentDocument()->setClean();
}

int runCallViewTests(int argc, char **argv)
{
    TestCallView test;
    return QTest::qExec(&test, argc, argv);
}

// The Request / Response page shows what the stored call kept of each HTTP exchange: the
// request body as sent, the reply (here a stream's SSE text), the status and what was cut. A
// call stored before exchanges were kept says so and shows the conversation instead.
void TestCallView::storedExchangeShownPerTurn()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto db = Database::open(dir.filePath(u"history.sqlite"_s));
    QVERIFY2(db, qPrintable(db.error().message));
    CallStore store(**db);

    CallRecord record;
    record.kind = u"planner"_s;
    record.status = CallStatus::Completed;
    record.engineType = u"openai"_s;
    record.model = u"gpt-test"_s;
    record.input = QJsonObject { { u"text"_s, u"Plan ticket 7"_s } };
    record.response = QJsonObject { { u"title"_s, u"Fix login"_s } };
    ToolCall lookup;
    lookup.id = u"call_1"_s;
    lookup.name = u"get_ticket"_s;
    lookup.arguments = QJsonObject { { u"id"_s, 7 } };
    ToolResult looked;
    looked.callId = u"call_1"_s;
    looked.name = u"get_ticket"_s;
    looked.content = u"Ticket 7: login times out"_s;
    record.messages =
        messagesToJson({ Message::user(u"Plan ticket 7"_s), Message::assistant({}, { lookup }),
                         Message::toolResultsMessage({ looked }), Message::assistant(u"done"_s) });
    for (int i = 0; i < 2; ++i) {
        TurnRecord turn;
        turn.index = i;
        turn.finishReason = i == 0 ? FinishReason::ToolCalls : FinishReason::Stop;
        record.turns.append(turn);
    }
    const CallRecord old = record; // stored as before exchanges were kept

    TurnExchange first;
    first.turn = 0;
    first.httpStatus = 200;
    first.request =
        R"({"model":"gpt-test","messages":[{"role":"user","content":"Plan ticket 7"}]})"_ba;
    first.requestBytes = first.request.size();
    first.response = R"({"id":"chatcmpl-1","choices":[]})"_ba;
    first.responseBytes = first.response.size();
    TurnExchange second;
    second.turn = 1;
    second.attempt = 1;
    second.httpStatus = 200;
    second.request =
        R"({"model":"gpt-test","stream":true,"messages":[{"role":"tool","tool_call_id":"call_1","content":"Ticket 7: login times out"}]})"_ba;
    second.requestBytes = second.request.size();
    second.response = "data: {\"choices\":[{\"delta\":{\"content\":\"done\"}}]}\n\n";
    second.response.append(
        QByteArray(TurnExchange::kMaxResponseBytes - second.response.size(), ' '));
    second.responseBytes = 50'000'000;
    record.exchanges = { first, second };
    const auto id = store.insertCall(record);
    QVERIFY2(id, qPrintable(id.error().message));
    const auto oldId = store.insertCall(old);
    QVERIFY(oldId);

    CallTab tab(&store, nullptr);
    tab.resize(1000, 700);
    QVERIFY(tab.setCall(*id));
    tab.tabs()->setCurrentWidget(tab.exchangePage());
    tab.show();
    settle();
    QCOMPARE(tab.turnCombo()->count(), 2);
    QCOMPARE(tab.turnCombo()->currentIndex(), 1); // turn 2 first
    QCOMPARE(QJsonDocument::fromJson(tab.requestText().toUtf8()).object(),
             QJsonDocument::fromJson(second.request).object());
    QVERIFY2(tab.requestText().contains(u"\n    \"messages\""_s),
             qPrintable(tab.requestText())); // pretty-printed
    QVERIFY2(tab.responseText().startsWith(u"data: {\"choices\""_s),
             qPrintable(tab.responseText().left(200)));
    QVERIFY2(tab.exchangeNote().contains(u"as it was sent"_s), qPrintable(tab.exchangeNote()));
    const QString facts = tab.findChild<QLabel *>(u"exchangeFacts"_s)->text();
    QVERIFY2(facts.contains(u"HTTP 200"_s), qPrintable(facts));
    const QString cut = tab.exchange()->cutText();
    QVERIFY2(cut.contains(QLocale().formattedDataSize(TurnExchange::kMaxResponseBytes))
                 && cut.contains(QLocale().formattedDataSize(50'000'000)),
             qPrintable(cut));
    shot(tab, u"call-view-exchange"_s);

    tab.turnCombo()->setCurrentIndex(0);
    QCOMPARE(QJsonDocument::fromJson(tab.requestText().toUtf8()).object(),
             QJsonDocument::fromJson(first.request).object());
    QCOMPARE(
        QJsonDocument::fromJson(tab.responseText().toUtf8()).object().value(u"id"_s).toString(),
        u"chatcmpl-1"_s);
    QVERIFY(tab.exchange()->cutText().isEmpty());

    // An older call: the conversation and the decoded reply, and a note saying why.
    CallTab older(&store, nullptr);
    QVERIFY(older.setCall(*oldId));
    QVERIFY(older.exchanges().isEmpty());
    QVERIFY2(older.exchangeNote().contains(u"stored before Callscope kept raw requests"_s),
             qPrintable(older.exchangeNote()));
    const CallRecord oldStored = store.getCall(*oldId).value();
    QCOMPARE(QJsonDocument::fromJson(older.requestText().toUtf8()).object(),
             CallTab::turnRequest(oldStored, 1));
}

#include "tst_callview.moc"
