// Ten first-use problems, each met the way a new user meets it in the real
// MainWindow (offscreen, 1280x800, its own data home): another spec starts clean; a run and its
// approval come forward from behind History; the default window shows what matters; a session
// chat turn on a bundled sample finds its recording and keeps the typed text; edited tool
// arguments are marked as the person's; replay says what it is; the engine is checked before
// anything is sent; Compare with parent uses the selected revision; View shortcuts raise
// panels and Help lists them; the screen shows words, not identifiers, and findings once.
// Each test saves a 1280x800 screenshot into the build's screenshots/ folder (firstuse-*.png).

#include "core/loop/edits.h"
#include "core/model/specio.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/service/preflight.h"
#include "core/store/callexchange.h"
#include "core/store/callstore.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/studiowait.h"
#include "tests/support/testsupport.h"
#include "ui/diff/diffmodel.h"
#include "ui/diff/diffview.h"
#include "ui/editor/specdocument.h"
#include "ui/editor/specformeditor.h"
#include "ui/experiments/experimentview.h"
#include "ui/history/historybrowser.h"
#include "ui/history/historymodel.h"
#include "ui/history/revisiontreemodel.h"
#include "ui/history/revisiontreewidget.h"
#include "ui/run/runpanel.h"
#include "ui/run/transcriptmodel.h"
#include "ui/sessions/sessionview.h"
#include "ui/widgets/approvalpanel.h"
#include "ui/widgets/calldiff.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/docsbrowser.h"
#include "ui/widgets/findingsmodel.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/studioservices.h"
#include "ui/widgets/trustdialog.h"
#include "ui/window/experimentshost.h"
#include "ui/window/historydocks.h"
#include "ui/window/mainwindow.h"
#include "ui/window/spectab.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDockWidget>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>

#include <memory>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

QString samplePath(const QString &name)
{
    return QStringLiteral(CALLSCOPE_SOURCE_DIR) + u"/resources/samples/"_s + name;
}

void settle()
{
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

// The window as a person sees it: its open dialogs drawn over it where they stand.
void shoot(QWidget &window, const QString &name)
{
    settle();
    QPixmap picture = window.grab();
    QPainter painter(&picture);
    for (QDialog *dialog : window.findChildren<QDialog *>()) {
        if (!dialog->isVisible())
            continue;
        const QPoint at = window.mapFromGlobal(dialog->mapToGlobal(QPoint(0, 0)));
        painter.drawPixmap(at, dialog->grab());
    }
    painter.end();
    const QString path = buildPath(u"screenshots/firstuse-"_s + name + u".png"_s);
    picture.save(path);
}

// Shown and not behind another panel's tab.
bool inSight(const QWidget *widget)
{
    return widget->isVisible() && !widget->visibleRegion().isEmpty();
}

// The widget is wholly on screen: shown, and not clipped by any parent (a scroll area's
// viewport, a dock, the window).
bool wholeOnScreen(const QWidget *widget, QString *why = nullptr)
{
    if (!inSight(widget)) {
        if (why)
            *why = widget->objectName() + u" is not in sight"_s;
        return false;
    }
    const QWidget *window = widget->window();
    const QRect own(widget->mapTo(window, QPoint(0, 0)), widget->size());
    for (const QWidget *p = widget->parentWidget(); p; p = p->parentWidget()) {
        const QRect area(p->mapTo(window, QPoint(0, 0)), p->size());
        if (!area.contains(own)) {
            if (why)
                *why = u"%1 at %2,%3 %4x%5 is cut by %6 (%7) at %8,%9 %10x%11"_s
                           .arg(widget->objectName())
                           .arg(own.x())
                           .arg(own.y())
                           .arg(own.width())
                           .arg(own.height())
                           .arg(p->objectName(), QString::fromLatin1(p->metaObject()->className()))
                           .arg(area.x())
                           .arg(area.y())
                           .arg(area.width())
                           .arg(area.height());
            return false;
        }
        if (p == window)
            break;
    }
    return true;
}

QString transcriptText(TranscriptModel *t)
{
    QString all;
    for (int i = 0; i < t->count(); ++i)
        all += t->item(i).title + u": "_s + t->item(i).text + u'\n';
    return all;
}

QStringList identifiers()
{
    return { u"before_tool"_s,  u"before_request"_s, u"awaiting_approval"_s, u"awaiting_model"_s,
             u"turn_limited"_s, u"other error"_s,    u"ended failed"_s,      u"running_tools"_s };
}

bool hasIdentifier(const QString &text, QString *which)
{
    for (const QString &id : identifiers()) {
        if (text.contains(id)) {
            *which = id;
            return true;
        }
    }
    return false;
}

} // namespace

class TestFirstUse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void anotherSpecStartsClean();
    void runAndApprovalComeForward();
    void defaultWindowShowsWhatMatters();
    void sessionChatOnSampleFindsItsRecording();
    void editedArgumentsAreMarked();
    void editedResultsAreMarked();
    void replayExplainsItself();
    void preflightStopsBeforeSending();
    void compareUsesTheSelectedRevision();
    void viewShortcutsRaisePanels();
    void plainWordsAndFindingsOnce();
    void helpOpensTheDocumentation();
    void samplesOpenFromTheFileMenu();

private:
    std::unique_ptr<MainWindow> makeWindow();
    LaunchResult runToEnd(MainWindow &window, bool approve = true);
    std::unique_ptr<ScopedDataHome> m_home;
};

void TestFirstUse::initTestCase()
{
    m_home = std::make_unique<ScopedDataHome>();
    QVERIFY(m_home->isValid());
    QStandardPaths::setTestModeEnabled(false);
    QCoreApplication::setOrganizationName(u"CallscopeTest"_s);
    QCoreApplication::setApplicationName(u"tst_firstuse"_s);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_home->path() + u"/config"_s);
    QVERIFY2(QFile::exists(samplePath(u"planner.spec.json"_s)), "the bundled samples are missing");
}

void TestFirstUse::cleanupTestCase()
{
    m_home.reset();
}

void TestFirstUse::init()
{
    // Every test starts as a first start: no saved layout, no recent files.
    QSettings().clear();
}

std::unique_ptr<MainWindow> TestFirstUse::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    // Shortcuts reach only the active window; under a real X server with no window manager
    // nothing activates it on its own.
    window->activateWindow();
    const bool active = QTest::qWaitForWindowActive(window.get(), 2000);
    Q_UNUSED(active); // the offscreen platform may not report it; the tests say what they need
    settle();
    return window;
}

LaunchResult TestFirstUse::runToEnd(MainWindow &window, bool approve)
{
    RunPanel *panel = window.runPanel();
    QSignalSpy finished(panel, &RunPanel::runFinished);
    panel->run();
    QElapsedTimer clock;
    clock.start();
    while (finished.isEmpty() && clock.elapsed() < 15000) {
        QTest::qWait(20);
        if (panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)->isVisibleTo(panel)
            && panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)
                   ->approveButton()
                   ->isVisibleTo(panel)) {
            if (approve)
                panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)->approveButton()->click();
            else
                panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)->refuseButton()->click();
        }
    }
    if (finished.isEmpty())
        return {};
    return finished.at(0).at(0).value<LaunchResult>();
}

// (1) Opening another spec keeps nothing of the last one's run.
void TestFirstUse::anotherSpecStartsClean()
{
    auto window = makeWindow();
    QVERIFY(window);
    RunPanel *panel = window->runPanel();
    QVERIFY(window->openSpecFile(samplePath(u"refusal.spec.json"_s)) && specChecked(*window));
    const LaunchResult refused = runToEnd(*window);
    QCOMPARE(refused.record.status, CallStatus::Failed);
    QVERIFY(panel->transcript()->count() > 0);
    QVERIFY(!panel->messageBar()->text().isEmpty());
    QVERIFY(panel->attempts() > 0);
    panel->transcriptView()->setCurrentIndex(
        panel->transcript()->index(panel->transcript()->count() - 1, 0));
    QVERIFY(!panel->findChild<QPlainTextEdit *>(u"transcriptDetail"_s)->toPlainText().isEmpty());

    // Another spec opens in a tab of its own, with a run view of its own; the first keeps its run.
    RunPanel *first = panel;
    QVERIFY(window->openSpecFile(samplePath(u"lunar-landing.spec.json"_s)) && specChecked(*window));
    panel = window->runPanel();
    QVERIFY(panel != first);
    QCOMPARE(window->documents().size(), 2);
    QVERIFY(first->transcript()->count() > 0);
    QVERIFY(!first->isVisible());
    QCOMPARE(panel->transcript()->count(), 0);
    QVERIFY2(panel->findChild<QPlainTextEdit *>(u"transcriptDetail"_s)->toPlainText().isEmpty(),
             qPrintable(panel->findChild<QPlainTextEdit *>(u"transcriptDetail"_s)->toPlainText()));
    QVERIFY2(panel->messageBar()->text().isEmpty(), qPrintable(panel->messageBar()->text()));
    QVERIFY(!panel->lastResult());
    QCOMPARE(panel->attempts(), 0);
    QCOMPARE(panel->totalUsage().inputTokens, 0);
    QCOMPARE(panel->findChild<QLabel *>(u"runStatus"_s)->text(), u"Ready"_s);
    QVERIFY2(
        panel->findChild<QLabel *>(u"runUsage"_s)->text().startsWith(u"Turns 0 · attempts 0"_s),
        qPrintable(panel->findChild<QLabel *>(u"runUsage"_s)->text()));
    QVERIFY(!panel->findChild<QGroupBox *>(u"otherEnginePanel"_s)->isVisibleTo(panel));
    QCOMPARE(panel->inputText(),
             RunPanel::sampleInputFor(samplePath(u"lunar-landing.spec.json"_s)));
    // Counters start again on the next run: one run's attempts, not two runs' added up.
    const LaunchResult lunar = runToEnd(*window);
    QCOMPARE(lunar.record.status, CallStatus::Completed);
    QCOMPARE(panel->attempts(), int(lunar.record.attempts.size()));
    shoot(*window, u"01-another-spec-clean"_s);
    window->currentDocument()->setClean();
}

// (2) A run started by Ctrl+R while History is in front, and its approval, come forward; the
// Run tab carries a badge while it waits.
void TestFirstUse::runAndApprovalComeForward()
{
    auto window = makeWindow();
    QVERIFY(window);
    HistoryDocks *docks = window->historyDocks();
    QVERIFY(window->openSpecFile(samplePath(u"planner.spec.json"_s)) && specChecked(*window));
    SpecTab *plannerTab = window->currentSpecTab();
    QTabWidget *tabs = window->documentTabs();
    // Another page in front of the spec's tab (its run view out of sight).
    docks->historyDock()->show();
    docks->historyDock()->raise();
    window->openDocumentTab(window->experiments()->view(), u"Experiment"_s);
    settle();
    QVERIFY(!inSight(window->runPanel()));
    QAction *run = nullptr;
    for (QAction *a : window->findChildren<QAction *>()) {
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R) && a->isEnabled())
            run = a;
    }
    QVERIFY(run);
    QSignalSpy finished(window->runPanel(), &RunPanel::runFinished);
    run->trigger();
    ApprovalPanel *approval = window->runPanel()->findChild<ApprovalPanel *>(u"approvalPanel"_s);
    QTRY_VERIFY_WITH_TIMEOUT(approval->approveButton()->isVisibleTo(window->runPanel()), 10000);
    settle();
    shoot(*window, u"02-approval-in-front"_s);
    QVERIFY(inSight(window->runPanel()));
    QString why;
    QVERIFY2(wholeOnScreen(approval->approveButton(), &why), qPrintable(why));
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget *>(plannerTab));
    const auto plannerIndex = [tabs, plannerTab] {
        return tabs->indexOf(plannerTab);
    };
    // A sign on the tab, not a dot in its title (that reads as "not saved").
    QVERIFY(!tabs->tabIcon(plannerIndex()).isNull());
    QVERIFY2(!tabs->tabText(plannerIndex()).contains(u"●"_s)
                 && !tabs->tabText(plannerIndex()).contains(u"*"_s),
             qPrintable(tabs->tabText(plannerIndex())));
    QVERIFY(tabs->tabToolTip(plannerIndex()).contains(u"waiting for you"_s));
    // Another page brought over it again: the badge still says a run waits.
    window->openDocumentTab(window->experiments()->view(), u"Experiment"_s);
    settle();
    QVERIFY(!tabs->tabIcon(plannerIndex()).isNull());
    approval->approveButton()->click();
    QVERIFY(finished.wait(15000));
    QCOMPARE(tabs->tabText(plannerIndex()), u"planner.spec.json"_s);
    QVERIFY(tabs->tabIcon(plannerIndex()).isNull());

    // A session turn that needs an approval brings the Sessions panel forward and answers
    // there.
    docks->historyDock()->raise();
    SessionView *sessions = docks->sessions();
    QVERIFY(sessionStored(sessions, u"First use"_s) > 0);
    sessions->input()->setPlainText(u"Plan ticket 7"_s);
    QSignalSpy turn(sessions, &SessionView::turnFinished);
    sessions->runSpecButton()->click();
    ApprovalPanel *sessionApproval = sessions->findChild<ApprovalPanel *>();
    QVERIFY(sessionApproval);
    QTRY_VERIFY_WITH_TIMEOUT(sessionApproval->approveButton()->isVisible()
                                 || inSight(sessionApproval->approveButton()),
                             10000);
    settle();
    shoot(*window, u"02b-session-approval"_s);
    QVERIFY2(wholeOnScreen(sessionApproval->approveButton(), &why), qPrintable(why));
    // The pending item ends the session's timeline, after the message in flight; the tab has
    // a badge that stays while History is brought over it.
    QVERIFY(sessions->isWaiting());
    QTRY_VERIFY(
        sessions->chatText().contains(u"Waiting for you: get_ticket needs your approval."_s));
    const QString chat = sessions->chatText();
    QVERIFY2(chat.contains(u"Waiting for you: get_ticket needs your approval."_s),
             qPrintable(chat));
    QVERIFY2(chat.indexOf(u"Plan ticket 7"_s) >= 0
                 && chat.indexOf(u"Plan ticket 7"_s) < chat.indexOf(u"Waiting for you"_s),
             qPrintable(chat));
    QCOMPARE(docks->sessionsDock()->windowTitle(), u"Sessions ● waiting for you"_s);
    docks->historyDock()->raise();
    settle();
    QVERIFY(!inSight(sessions));
    QCOMPARE(docks->sessionsDock()->windowTitle(), u"Sessions ● waiting for you"_s);
    docks->sessionsDock()->raise();
    settle();
    sessionApproval->approveButton()->click();
    QVERIFY(turn.wait(15000));
    QCOMPARE(docks->sessionsDock()->windowTitle(), u"Sessions"_s);
    QVERIFY(!sessions->isWaiting());
    QTRY_VERIFY(!sessions->chatText().contains(u"Waiting for you"_s));
    window->currentDocument()->setClean();
}

// (3) At 1280x800, on first start: Approve/Refuse on screen, the Tools form usable, no dock
// scrolled sideways, "Compact now" whole.
void TestFirstUse::defaultWindowShowsWhatMatters()
{
    auto window = makeWindow();
    QVERIFY(window);
    QCOMPARE(window->size(), QSize(1280, 800));
    HistoryDocks *docks = window->historyDocks();
    QVERIFY(window->openSpecFile(samplePath(u"planner.spec.json"_s)) && specChecked(*window));
    shoot(*window, u"03a-first-start"_s);
    // Before the first run the empty transcript says what it is for, and the attach button
    // says what it does.
    QLabel *hint = window->runPanel()->findChild<QLabel *>(u"transcriptHint"_s);
    QVERIFY(inSight(hint));
    QVERIFY2(hint->text().contains(u"Ctrl+R"_s), qPrintable(hint->text()));
    auto *attach = window->runPanel()->findChild<QToolButton *>(u"attachButton"_s);
    QVERIFY(attach);
    QCOMPARE(attach->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
    QVERIFY(inSight(attach));

    // The Tools page: the list of tools and the selected tool's schema both get real room.
    QTabWidget *sections = window->specForm()->findChild<QTabWidget *>(u"specTabs"_s);
    QVERIFY(sections);
    sections->setCurrentIndex(3);
    settle();
    auto *toolList = window->specForm()->findChild<QListView *>(u"toolList"_s);
    QVERIFY(toolList);
    QString why;
    QVERIFY2(wholeOnScreen(toolList, &why), qPrintable(why));
    QVERIFY2(toolList->height() >= 80, qPrintable(QString::number(toolList->height())));
    for (QScrollArea *area : sections->currentWidget()->findChildren<QScrollArea *>()) {
        if (area->isVisible())
            QVERIFY2(
                area->verticalScrollBar()->maximum() == 0 || area->viewport()->height() >= 200,
                qPrintable(u"a Tools scroll area is %1 px high"_s.arg(area->viewport()->height())));
    }
    shoot(*window, u"03b-tools-page"_s);
    sections->setCurrentIndex(0);

    // Approve and Refuse, on screen while the run waits.
    window->runPanel()->run();
    ApprovalPanel *approval = window->runPanel()->findChild<ApprovalPanel *>(u"approvalPanel"_s);
    QTRY_VERIFY_WITH_TIMEOUT(approval->approveButton()->isVisibleTo(window->runPanel()), 10000);
    QVERIFY(!hint->isVisible());
    settle();
    shoot(*window, u"03c-approval-at-1280x800"_s);
    if (qEnvironmentVariableIsSet("CALLSCOPE_LAYOUT_DEBUG")) {
        for (QWidget *w : window->runPanel()->findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
            if (w->isVisible())
                qWarning() << w->metaObject()->className() << w->objectName() << w->geometry()
                           << w->minimumSizeHint() << w->sizeHint();
        for (QWidget *w : approval->findChildren<QWidget *>())
            if (w->isVisible())
                qWarning() << "  approval:" << w->metaObject()->className() << w->objectName()
                           << w->geometry() << w->minimumSizeHint();
    }
    QVERIFY2(wholeOnScreen(approval->approveButton(), &why), qPrintable(why));
    QVERIFY2(wholeOnScreen(approval->refuseButton(), &why), qPrintable(why));
    QVERIFY2(wholeOnScreen(window->runPanel()->transcriptView(), &why), qPrintable(why));
    QVERIFY2(window->runPanel()->transcriptView()->height() >= 120,
             qPrintable(QString::number(window->runPanel()->transcriptView()->height())));
    approval->refuseButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window->runPanel()->isRunning(), 10000);

    // Sessions and History: no sideways scrolling, "Compact now" whole.
    for (QDockWidget *dock : { docks->sessionsDock(), docks->historyDock() }) {
        window->showPanel(dock);
        settle();
        auto *scroll = qobject_cast<QScrollArea *>(dock->widget());
        QVERIFY(scroll);
        QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0,
                 qPrintable(u"%1 scrolls sideways by %2 px"_s.arg(dock->objectName())
                                .arg(scroll->horizontalScrollBar()->maximum())));
    }
    window->showPanel(docks->sessionsDock());
    QVERIFY(sessionStored(docks->sessions(), u"Layout"_s) > 0);
    settle();
    QPushButton *compact = nullptr;
    for (QPushButton *b : docks->sessions()->findChildren<QPushButton *>()) {
        if (b->text().remove(u'&').startsWith(u"Compact"_s))
            compact = b;
    }
    QVERIFY(compact);
    QVERIFY2(wholeOnScreen(compact, &why), qPrintable(why));
    QVERIFY2(compact->width() >= compact->sizeHint().width(),
             qPrintable(u"%1 < %2"_s.arg(compact->width()).arg(compact->sizeHint().width())));
    shoot(*window, u"03d-sessions"_s);
    window->currentDocument()->setClean();
}

// (4) A session on a bundled replay sample: chat turns are not offered (the replay plays its
// recording whatever is typed) and the button says why; Run spec in session finds the recording
// beside the spec; a turn that fails gives the typed text back.
void TestFirstUse::sessionChatOnSampleFindsItsRecording()
{
    // From another working folder, as when the studio is started from a menu.
    QTemporaryDir elsewhere;
    const QString before = QDir::currentPath();
    QDir::setCurrent(elsewhere.path());
    auto window = makeWindow();
    QVERIFY(window);
    QVERIFY(window->openSpecFile(samplePath(u"lunar-landing.spec.json"_s)) && specChecked(*window));
    settle();
    SessionView *sessions = window->historyDocks()->sessions();
    window->showPanel(window->historyDocks()->sessionsDock());
    QVERIFY(sessionStored(sessions, u"Chat"_s) > 0);
    QPushButton *send = sessions->sendButton();
    QTRY_VERIFY(!send->isEnabled());
    QVERIFY2(send->toolTip().contains(u"live engine"_s), qPrintable(send->toolTip()));

    sessions->input()->setPlainText(u"Describe the landing."_s);
    QSignalSpy turn(sessions, &SessionView::turnFinished);
    QTRY_VERIFY(sessions->runSpecButton()->isEnabled());
    sessions->runSpecButton()->click();
    QVERIFY(turn.wait(15000));
    QDir::setCurrent(before);
    const QString status = sessions->statusText();
    QVERIFY2(!status.contains(u"cannot read the recording"_s)
                 && !status.contains(u"does not exist"_s),
             qPrintable(status));
    QTRY_VERIFY(sessions->chatText().contains(u"Describe the landing."_s));
    const QString chat = sessions->chatText();
    QVERIFY2(chat.contains(u"Describe the landing."_s), qPrintable(chat + u" | "_s + status));
    shoot(*window, u"04-session-chat-on-sample"_s);

    // A turn that cannot reach its engine: the text comes back into the input.
    EngineSpec unreachable;
    unreachable.type = EngineType::OpenAICompatible;
    unreachable.model = u"nobody-home"_s;
    unreachable.baseUrl = u"http://127.0.0.1:1/v1"_s;
    sessions->setChatEngine(unreachable);
    QVERIFY(send->isEnabled());
    sessions->input()->setPlainText(u"Second message"_s);
    send->click();
    QTRY_COMPARE_WITH_TIMEOUT(turn.size(), 2, 30000);
    QCOMPARE(sessions->input()->toPlainText(), u"Second message"_s);
    window->currentDocument()->setClean();
}

// (5) Arguments edited at a breakpoint are the person's: marked in the transcript, kept beside
// the model's original in the stored call, and shown both ways in the diff.
void TestFirstUse::editedArgumentsAreMarked()
{
    auto window = makeWindow();
    QVERIFY(window);
    RunPanel *panel = window->runPanel();
    QVERIFY(window->openSpecFile(samplePath(u"planner.spec.json"_s)) && specChecked(*window));
    const LaunchResult clean = runToEnd(*window);
    QCOMPARE(clean.record.status, CallStatus::Completed);

    panel->setBreakpoints(Breakpoint::BeforeTool);
    QSignalSpy finished(panel, &RunPanel::runFinished);
    panel->run();
    QTRY_VERIFY_WITH_TIMEOUT(panel->isPaused(), 10000);
    QCOMPARE(panel->pendingItem().call.name, u"get_ticket"_s);
    panel->findChild<JsonEditor *>(u"pauseArguments"_s)->setPlainText(u"{\"id\": 8}"_s);
    panel->continueRun();
    QTRY_VERIFY_WITH_TIMEOUT(
        panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)->approveButton()->isVisibleTo(panel),
        10000);
    panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)->approveButton()->click();
    // list_team pauses too; nothing to edit there.
    QElapsedTimer clock;
    clock.start();
    while (finished.isEmpty() && clock.elapsed() < 15000) {
        if (panel->isPaused())
            panel->continueRun();
        QTest::qWait(20);
    }
    QVERIFY(!finished.isEmpty());
    panel->setBreakpoints({});
    const LaunchResult edited = finished.at(0).at(0).value<LaunchResult>();
    QCOMPARE(edited.record.status, CallStatus::Completed);

    const QString shown = transcriptText(panel->transcript());
    QVERIFY2(shown.contains(u"arguments edited by you"_s), qPrintable(shown));
    QVERIFY2(shown.contains(u"The model asked for"_s), qPrintable(shown));
    QVERIFY2(shown.contains(u"Approved with your edited arguments"_s), qPrintable(shown));
    QVERIFY2(!shown.contains(u"runs as the model asked"_s), qPrintable(shown));

    // The stored call: the edited arguments ran, the model's own are kept beside them.
    auto stored = window->studioServices()->store()->getCall(edited.record.id);
    QVERIFY(stored);
    bool found = false;
    for (const Message &m : messagesFromJson(stored->messages)) {
        for (const ToolCall &c : m.toolCalls) {
            if (c.name != u"get_ticket")
                continue;
            found = true;
            QCOMPARE(c.arguments.value(u"id"_s).toInt(), 8);
            QVERIFY(argumentsEdited(c));
            QCOMPARE(modelArguments(c)->value(u"id"_s).toInt(), 7);
        }
    }
    QVERIFY(found);

    // The diff against the clean run shows both.
    auto cleanStored = window->studioServices()->store()->getCall(clean.record.id);
    QVERIFY(cleanStored);
    const CallDiff diff = diffCalls(*cleanStored, *stored);
    bool diffShowsEdit = false;
    for (const DiffRow &row : diff.rows) {
        if (row.section == DiffSection::ToolCall && row.label.startsWith(u"get_ticket"_s)) {
            QCOMPARE(row.state, DiffState::Changed);
            diffShowsEdit = row.right.contains(u"The model asked for"_s)
                && !row.left.contains(u"The model asked for"_s);
        }
    }
    QVERIFY(diffShowsEdit);
    QVERIFY(window->historyDocks()->compare(clean.record.id, edited.record.id));
    QTRY_VERIFY(window->historyDocks()->compareView()
                && window->historyDocks()->compareView()->model()->rowCount() > 0);
    if (auto *only = window->historyDocks()->compareView()->findChild<QCheckBox *>())
        only->setChecked(true);
    for (int row = 0; row < panel->transcript()->count(); ++row) {
        if (panel->transcript()->item(row).title.contains(u"edited by you"_s)) {
            const QModelIndex index = panel->transcript()->index(row, 0);
            panel->transcriptView()->setCurrentIndex(index);
            panel->transcriptView()->scrollTo(index, QAbstractItemView::PositionAtTop);
            break;
        }
    }
    QVERIFY(panel->findChild<QPlainTextEdit *>(u"transcriptDetail"_s)
                ->toPlainText()
                .contains(u"The model asked for"_s));
    shoot(*window, u"05-edited-arguments"_s);
    window->currentDocument()->setClean();
}

// (5, results) A tool result edited at a breakpoint is the person's too: the transcript row says
// so with the tool's own answer beside it, the stored call and its export keep both, and the
// call view and the diff show both.
void TestFirstUse::editedResultsAreMarked()
{
    auto window = makeWindow();
    QVERIFY(window);
    RunPanel *panel = window->runPanel();
    QVERIFY(window->openSpecFile(samplePath(u"planner.spec.json"_s)) && specChecked(*window));
    const LaunchResult clean = runToEnd(*window);
    QCOMPARE(clean.record.status, CallStatus::Completed);

    panel->setBreakpoints(Breakpoint::AfterToolResult);
    QSignalSpy finished(panel, &RunPanel::runFinished);
    panel->run();
    QString toolAnswer;
    bool editedOne = false;
    QElapsedTimer clock;
    clock.start();
    while (finished.isEmpty() && clock.elapsed() < 15000) {
        if (panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)->isVisibleTo(panel)
            && panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)
                   ->approveButton()
                   ->isVisibleTo(panel))
            panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)->approveButton()->click();
        if (panel->isPaused() && panel->pausedAt() == Breakpoint::AfterToolResult) {
            if (!editedOne && panel->pendingItem().call.name == u"get_ticket") {
                toolAnswer = panel->findChild<QPlainTextEdit *>(u"pauseResult"_s)->toPlainText();
                QVERIFY(!toolAnswer.isEmpty());
                panel->findChild<QPlainTextEdit *>(u"pauseResult"_s)
                    ->setPlainText(u"Ticket 7: the export button is missing (edited)."_s);
                editedOne = true;
            }
            panel->continueRun();
        }
        QTest::qWait(20);
    }
    QVERIFY(editedOne);
    QVERIFY(!finished.isEmpty());
    panel->setBreakpoints({});
    const LaunchResult run = finished.at(0).at(0).value<LaunchResult>();
    QCOMPARE(run.record.status, CallStatus::Completed);

    // One row for the result, marked, with both texts.
    int markedRows = 0;
    for (int row = 0; row < panel->transcript()->count(); ++row) {
        const TranscriptModel::Item item = panel->transcript()->item(row);
        if (item.kind == TranscriptModel::Kind::ToolResult
            && item.title.contains(u"get_ticket"_s)) {
            QVERIFY2(item.title.endsWith(u"edited by you"_s), qPrintable(item.title));
            QVERIFY(item.text.contains(u"(edited)."_s));
            QVERIFY(item.text.contains(u"The tool returned:\n"_s + toolAnswer));
            ++markedRows;
        }
    }
    QCOMPARE(markedRows, 1);

    // The stored call: the edit went to the model, the tool's answer kept beside it.
    auto stored = window->studioServices()->store()->getCall(run.record.id);
    QVERIFY(stored);
    const QList<Message> messages = messagesFromJson(stored->messages);
    bool found = false;
    for (const Message &m : messages) {
        for (const ToolResult &r : m.toolResults) {
            if (r.name == u"get_ticket") {
                found = true;
                QCOMPARE(r.content, u"Ticket 7: the export button is missing (edited)."_s);
                QVERIFY(resultEdited(r));
                QCOMPARE(r.toolOriginal->content, toolAnswer);
            } else {
                QVERIFY(!resultEdited(r));
            }
        }
    }
    QVERIFY(found);
    // The export document carries the mark, and passes the checks an import makes.
    CallExchange exchange(*window->studioServices()->store());
    const auto document = exchange.exportCalls({ run.record.id });
    QVERIFY(document);
    const QByteArray json = QJsonDocument(*document).toJson(QJsonDocument::Compact);
    QVERIFY2(json.contains("\"edited\":{\"tool_content\""), json.constData());
    const StoreError valid = CallExchange::validateDocument(*document);
    QVERIFY2(!valid, qPrintable(valid.message));

    // The call view and the diff show both.
    const QString html = CallView::transcriptHtml(messages, QString(), window->palette());
    QVERIFY2(html.contains(u"Result edited by you; the tool returned:"_s), qPrintable(html));
    auto cleanStored = window->studioServices()->store()->getCall(clean.record.id);
    QVERIFY(cleanStored);
    const CallDiff diff = diffCalls(*cleanStored, *stored);
    bool diffShowsEdit = false;
    for (const DiffRow &row : diff.rows) {
        if (row.section == DiffSection::ToolResult && row.label.startsWith(u"get_ticket"_s)) {
            QCOMPARE(row.state, DiffState::Changed);
            diffShowsEdit = row.right.contains(u"Edited by you. The tool returned:"_s)
                && !row.left.contains(u"Edited by you"_s);
        }
    }
    QVERIFY(diffShowsEdit);
    window->currentDocument()->setClean();
}

// (6) Replay says what it is: a banner, the recorded reply in Request/Response, and a revision
// of a replayed call asks for a live engine.
void TestFirstUse::replayExplainsItself()
{
    auto window = makeWindow();
    QVERIFY(window);
    RunPanel *panel = window->runPanel();
    QVERIFY(window->openSpecFile(samplePath(u"lunar-landing.spec.json"_s)) && specChecked(*window));
    QSignalSpy started(panel, &RunPanel::runStarted);
    QSignalSpy finished(panel, &RunPanel::runFinished);
    panel->run();
    QCOMPARE(started.size(), 1);
    QVERIFY2(panel->messageBar()->text().startsWith(u"Replay:"_s),
             qPrintable(panel->messageBar()->text()));
    QVERIFY(finished.wait(15000));
    const LaunchResult result = finished.at(0).at(0).value<LaunchResult>();
    QCOMPARE(result.record.status, CallStatus::Completed);
    QVERIFY2(panel->messageBar()->text().startsWith(u"Replay:"_s),
             qPrintable(panel->messageBar()->text()));
    const auto raw = panel->transcript()->turnRaw(0);
    QVERIFY(raw);
    QVERIFY2(raw->rawResponse.contains("recorded_reply"), raw->rawResponse.constData());
    QVERIFY(raw->requestBody.value(u"replay"_s).toBool());
    QVERIFY(!raw->requestBody.value(u"messages"_s).toArray().isEmpty());
    panel->showRawExchange();
    settle();
    auto *dialog = panel->findChild<QDialog *>(u"rawExchangeDialog"_s);
    QVERIFY(dialog);
    dialog->move(window->mapToGlobal(QPoint(40, 120)));
    if (auto *tabs = dialog->findChild<QTabWidget *>())
        tabs->setCurrentIndex(1);
    auto *response = dialog->findChild<JsonEditor *>(u"rawResponse"_s);
    QVERIFY(response);
    QVERIFY2(response->toPlainText().contains(u"recorded_reply"_s),
             qPrintable(response->toPlainText()));
    QVERIFY(!dialog->findChild<QLabel *>(u"rawResponseCut"_s)); // the whole body is there
    shoot(*window, u"06a-replay-banner"_s);
    dialog->close();
    settle();
    // A body kept only in part (the client keeps the first 4 MiB of a large one) says so.
    for (int turn = 0; turn < 8; ++turn) {
        if (auto kept = panel->transcript()->turnRaw(turn)) {
            kept->rawResponseBytes = 50'000'000;
            panel->transcript()->setTurnRaw(turn, *kept);
        }
    }
    panel->showRawExchange();
    settle();
    auto *cutDialog = panel->findChild<QDialog *>(u"rawExchangeDialog"_s);
    QVERIFY(cutDialog);
    auto *cutLabel = cutDialog->findChild<QLabel *>(u"rawResponseCut"_s);
    QVERIFY(cutLabel);
    QVERIFY2(cutLabel->text().contains(QLocale().formattedDataSize(50'000'000)),
             qPrintable(cutLabel->text()));
    cutDialog->close();

    // Revise on the replay engine: asked for a live engine, nothing runs yet.
    HistoryDocks *docks = window->historyDocks();
    docks->revisions()->setCall(result.record.id);
    QCOMPARE(docks->revisions()->selectedCallId(), result.record.id);
    // The call beside the tree is read off the GUI thread; with it at hand the check is at once.
    QTRY_COMPARE(docks->revisions()->callView()->call().id, result.record.id);
    QVERIFY(!docks->revisions()->revise(u"Answer in one word"_s));
    QVERIFY2(docks->revisions()->statusText().contains(u"replay engine"_s),
             qPrintable(docks->revisions()->statusText()));
    auto *choice = docks->revisions()->findChild<QDialog *>(u"reviseEngineDialog"_s);
    QVERIFY(choice);
    QTRY_VERIFY(choice->isVisible());
    QCOMPARE(window->studioServices()->calls()->activeJobs(), 0);
    window->showPanel(docks->revisionsDock());
    choice->move(window->mapToGlobal(QPoint(320, 120)));
    shoot(*window, u"06b-revise-asks-for-live-engine"_s);
    choice->reject();
    window->currentDocument()->setClean();
}

// (7) An engine that cannot answer is stopped before anything is sent: inline in the Run panel,
// and in the core service the CLI uses too.
void TestFirstUse::preflightStopsBeforeSending()
{
    FakeProvider server;
    QVERIFY(server.listen());
    qputenv("CALLSCOPE_FIRSTUSE_API_KEY", "sk-first-use");
    QTemporaryDir dir;
    auto writeSpec = [&dir](const QString &name, const QJsonObject &spec) {
        const QString path = dir.filePath(name);
        QFile file(path);
        file.open(QIODevice::WriteOnly);
        file.write(QJsonDocument(spec).toJson());
        return path;
    };
    QJsonObject noModel =
        twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_FIRSTUSE_API_KEY"_s, QString());
    QJsonObject badUrl =
        twoTurnSpecJson(QUrl(u"http://127.0.0.1:1"_s), u"CALLSCOPE_FIRSTUSE_API_KEY"_s);
    QJsonObject engine = badUrl.value(u"engine"_s).toObject();
    engine.insert(u"base_url"_s, u"localhost:8080/v1"_s);
    badUrl.insert(u"engine"_s, engine);
    QJsonObject noKey = twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_FIRSTUSE_UNSET_API_KEY"_s);
    qunsetenv("CALLSCOPE_FIRSTUSE_UNSET_API_KEY");

    auto window = makeWindow();
    QVERIFY(window);
    RunPanel *panel = window->runPanel();
    QSignalSpy started(panel, &RunPanel::runStarted);
    // A base URL that is no web address already fails the spec check (its message is kept);
    // the preflight catches the rest, and one from a profile (checked below).
    const std::pair<QString, QJsonObject> cases[] = { { u"No model"_s, noModel },
                                                      { u"expected an http or https URL"_s,
                                                        badUrl },
                                                      { u"No key found"_s, noKey } };
    for (const auto &[expected, json] : cases) {
        QVERIFY(window->openSpecFile(writeSpec(u"case.spec.json"_s, json)) && specChecked(*window));
        panel->run();
        QVERIFY2(
            panel->messageBar()->text().contains(expected),
            qPrintable(panel->messageBar()->text() + u"\n"_s + window->currentDocument()->text()));
        if (json != badUrl)
            QVERIFY(panel->messageBar()->text().startsWith(u"Nothing was sent"_s));
        QCOMPARE(panel->messageBar()->kind(), NoticeBar::Kind::Error);
        QVERIFY(!panel->isRunning());
        QCOMPARE(window->studioServices()->calls()->activeJobs(), 0);
        QVERIFY(!transcriptText(panel->transcript()).contains(u"Retry"_s));
    }
    QCOMPARE(started.size(), 0);
    QCOMPARE(server.requestCount(), 0);
    // The form shows the Engine tab, the field to fix focused.
    QCOMPARE(window->editorTabs()->currentWidget(), window->specForm());
    QTabWidget *sections = window->specForm()->findChild<QTabWidget *>(u"specTabs"_s);
    QCOMPARE(sections->currentIndex(), 1);
    // A hosted engine with no key anywhere (no variable named, no profile): found when the key
    // is looked up, and said as what it is, not as a failed call.
    {
        QJsonObject hosted = noKey;
        QJsonObject hostedEngine = hosted.value(u"engine"_s).toObject();
        hostedEngine.remove(u"base_url"_s);
        hostedEngine.remove(u"api_key_env"_s);
        hosted.insert(u"engine"_s, hostedEngine);
        QVERIFY(window->openSpecFile(writeSpec(u"hosted.spec.json"_s, hosted))
                && specChecked(*window));
        RunPanel *hostedPanel = window->runPanel();
        hostedPanel->run();
        QTRY_VERIFY(!hostedPanel->isRunning() && hostedPanel->messageBar()->isVisible());
        const QString text = hostedPanel->messageBar()->text();
        QVERIFY2(text.startsWith(u"Nothing was sent: No key found for openai"_s), qPrintable(text));
        QCOMPARE(hostedPanel->messageBar()->kind(), NoticeBar::Kind::Error);
        QCOMPARE(server.requestCount(), 0);
    }
    window->openSpecFile(writeSpec(u"model.spec.json"_s, noModel));
    QVERIFY(specChecked(*window));
    // Each spec in a tab of its own, with its own run view.
    panel = window->runPanel();
    QSignalSpy startedModel(panel, &RunPanel::runStarted);
    panel->run();
    settle();
    shoot(*window, u"07-preflight"_s);

    // A tool whose program is not installed: said before sending, the tool's command shown.
    QJsonObject toolMissing = twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_FIRSTUSE_API_KEY"_s);
    toolMissing.insert(u"tools"_s,
                       QJsonArray { QJsonObject {
                           { u"name"_s, u"lookup"_s },
                           { u"description"_s, u"Look up."_s },
                           { u"command"_s, QJsonArray { u"callscope-no-such-program"_s } } } });
    QVERIFY(window->openSpecFile(writeSpec(u"tool.spec.json"_s, toolMissing))
            && specChecked(*window));
    panel = window->runPanel();
    QSignalSpy startedTool(panel, &RunPanel::runStarted);
    sections = window->specForm()->findChild<QTabWidget *>(u"specTabs"_s);
    // The file is ours: its trust question is answered Trust.
    QObject::connect(panel, &RunPanel::trustAsked, panel, [](TrustDialog *dialog) {
        QTimer::singleShot(0, dialog, [dialog] { dialog->trustButton()->click(); });
    });
    panel->run();
    QTRY_VERIFY2_WITH_TIMEOUT(
        panel->messageBar()->text().startsWith(u"Nothing was sent: a tool cannot start."_s),
        qPrintable(panel->messageBar()->text()), 15000);
    QVERIFY(panel->messageBar()->text().contains(
        u"\"callscope-no-such-program\" was not found on PATH"_s));
    QCOMPARE(sections->currentIndex(), 3);
    QCOMPARE(window->specForm()->findChild<QListView *>(u"toolList"_s)->currentIndex().row(), 0);
    QCOMPARE(started.size() + startedModel.size() + startedTool.size(), 0);
    QCOMPARE(server.requestCount(), 0);

    EngineSpec fromProfile;
    fromProfile.type = EngineType::OpenAI;
    fromProfile.model = u"m"_s;
    fromProfile.baseUrl = u"localhost:8080/v1"_s;
    const PreflightResult url = preflightEngine(Spec(), fromProfile);
    QCOMPARE(url.problems.size(), 1);
    QCOMPARE(url.problems.first().field, PreflightProblem::Field::BaseUrl);
    QCOMPARE(checkKey(fromProfile, QString()).problems.size(),
             0); // a custom server may need no key
    fromProfile.baseUrl.clear();
    QCOMPARE(checkKey(fromProfile, QString()).problems.size(), 1); // the public endpoint does

    // The same check in the core service (what callscope-cli run and batch go through).
    CallService *calls = window->studioServices()->calls();
    const SpecLoadResult loaded = loadSpecFile(writeSpec(u"core.spec.json"_s, noModel));
    QVERIFY(loaded.spec);
    LaunchRequest request;
    request.spec = *loaded.spec;
    request.input.text = u"hello"_s;
    CallJob *job = calls->launch(request);
    QSignalSpy done(job, &CallJob::finished);
    QVERIFY(done.wait(10000));
    const LaunchResult failed = done.at(0).at(0).value<LaunchResult>();
    QVERIFY(failed.startFailed);
    QVERIFY2(failed.record.error.contains(u"No model"_s), qPrintable(failed.record.error));
    QVERIFY(failed.record.attempts.isEmpty());
    QCOMPARE(server.requestCount(), 0);
    window->currentDocument()->setClean();

    // A Run that goes out is checked once: the run view shows the service's check and hands
    // that check to the launch, which does not make it again.
    server.setResponder(twoTurnResponder(u"get_ticket"_s, { { u"title"_s, u"Fix login"_s } }, 0));
    QVERIFY(window->openSpecFile(
                writeSpec(u"ready.spec.json"_s,
                          twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_FIRSTUSE_API_KEY"_s)))
            && specChecked(*window));
    const quint64 checksBefore = preflightCount();
    const LaunchResult ran = runToEnd(*window);
    QCOMPARE(callStatusName(ran.record.status), u"completed"_s);
    QCOMPARE(preflightCount() - checksBefore, 1u);
    QCOMPARE(server.requestCount(), 2);
}

// (8) Compare with parent acts on the revision picked in the tree, not on the History row.
void TestFirstUse::compareUsesTheSelectedRevision()
{
    auto window = makeWindow();
    QVERIFY(window);
    HistoryDocks *docks = window->historyDocks();
    QVERIFY(window->openSpecFile(samplePath(u"lunar-landing.spec.json"_s)) && specChecked(*window));
    const LaunchResult root = runToEnd(*window);
    QVERIFY(root.stored);
    docks->openCall(root.record.id);
    // The revision tree reads the call off the GUI thread: replay once it holds it.
    QTRY_COMPARE_WITH_TIMEOUT(docks->revisions()->selectedCallId(), root.record.id, 15000);
    QSignalSpy treeRun(docks->revisions(), &RevisionTreeWidget::runFinished);
    docks->replaySpecAction()->trigger();
    QVERIFY(treeRun.wait(15000));
    const qint64 child = treeRun.at(0).at(0).toLongLong();
    QVERIFY(child > root.record.id);

    // History shows the root; the tree has the child selected.
    docks->openCall(root.record.id);
    QCOMPARE(docks->history()->selectedCallId(), root.record.id);
    QCOMPARE(docks->currentCallId(), root.record.id);
    auto *tree = docks->revisions()->view();
    // The tree is read off the GUI thread: wait until it holds the child.
    const auto findChildNode = [&] {
        return tree->model()->match(tree->model()->index(0, 0), RevisionTreeModel::CallIdRole,
                                    child, 1, Qt::MatchRecursive);
    };
    QTRY_COMPARE_WITH_TIMEOUT(findChildNode().size(), 1, 15000);
    const QModelIndexList matches = findChildNode();
    tree->selectionModel()->setCurrentIndex(
        matches.first(), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(docks->revisions()->selectedCallId(), child);
    QCOMPARE(docks->currentCallId(), child);
    QVERIFY(docks->compareParentAction()->isEnabled());
    docks->compareParentAction()->trigger();
    // The diff opens as a tab in the window's centre.
    QTRY_VERIFY(docks->compareView() && docks->compareView()->model()->rowCount() > 0);
    DiffView *compared = docks->compareView();
    QVERIFY2(compared->model()->rowCount() > 0, qPrintable(compared->statusText()));
    QCOMPARE(compared->model()->diff().rightId, child);
    QCOMPARE(compared->model()->diff().leftId, root.record.id);
    QCOMPARE(window->documentTabs()->currentWidget(), compared);
    QVERIFY(compared->isVisible());

    // The Diff panel, opened with empty fields, offers the current call and the one before it
    // (nothing compared until asked); a pair the user typed is kept.
    auto *left = docks->diff()->findChild<QLineEdit *>(u"diffLeft"_s);
    auto *right = docks->diff()->findChild<QLineEdit *>(u"diffRight"_s);
    QVERIFY(left && right);
    docks->diffDock()->close();
    left->clear();
    right->clear();
    QTest::keyClick(window.get(), Qt::Key_7, Qt::ControlModifier);
    QTRY_VERIFY(docks->diffDock()->isVisible());
    QCOMPARE(right->text(), QString::number(child));
    QCOMPARE(left->text(), QString::number(root.record.id));
    QCOMPARE(docks->diff()->model()->rowCount(), 0);
    docks->diffDock()->close();
    left->setText(u"1"_s);
    right->clear();
    QTest::keyClick(window.get(), Qt::Key_7, Qt::ControlModifier);
    QTRY_VERIFY(docks->diffDock()->isVisible());
    QCOMPARE(left->text(), u"1"_s);
    QCOMPARE(right->text(), QString());
    shoot(*window, u"08-compare-selected-revision"_s);
    window->currentDocument()->setClean();
}

// (9) View shortcuts bring a panel forward and never hide it; Help lists every shortcut.
void TestFirstUse::viewShortcutsRaisePanels()
{
    auto window = makeWindow();
    QVERIFY(window);
    HistoryDocks *docks = window->historyDocks();
    auto *runPanel = window->findChild<QAction *>(u"runViewAction"_s);
    QVERIFY(runPanel);
    QCOMPARE(runPanel->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_2));
    window->showPanel(docks->historyDock());
    window->openDocumentTab(window->experiments()->view(), u"Experiment"_s);
    settle();
    QVERIFY(!inSight(window->runPanel()));
    QTest::keyClick(window.get(), Qt::Key_2, Qt::ControlModifier);
    settle();
    QVERIFY(inSight(window->runPanel()));
    // Pressed again: still there.
    QTest::keyClick(window.get(), Qt::Key_2, Qt::ControlModifier);
    settle();
    QVERIFY(inSight(window->runPanel()));
    QCOMPARE(window->documentTabs()->currentWidget(),
             static_cast<QWidget *>(window->currentSpecTab()));
    QTest::keyClick(window.get(), Qt::Key_3, Qt::ControlModifier);
    settle();
    QVERIFY(inSight(docks->history()));
    QTest::keyClick(window.get(), Qt::Key_3, Qt::ControlModifier);
    settle();
    QVERIFY(inSight(docks->history()));
    // A closed panel comes back from its shortcut.
    docks->diffDock()->close();
    QVERIFY(docks->diffDock()->isHidden());
    QTest::keyClick(window.get(), Qt::Key_7, Qt::ControlModifier);
    settle();
    QVERIFY(inSight(docks->diff()));

    window->shortcutsAction()->trigger();
    settle();
    auto *dialog = window->findChild<QDialog *>(u"shortcutsDialog"_s);
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    auto *table = dialog->findChild<QTableWidget *>(u"shortcutsTable"_s);
    QVERIFY(table);
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows.append(table->item(r, 0)->text() + u" = "_s + table->item(r, 1)->text());
    const QString all = rows.join(u'\n');
    for (const QString &expected :
         { u"Run › Run = Ctrl+R"_s, u"View › Run View = Ctrl+2"_s, u"View › History = Ctrl+3"_s,
           u"Help › Keyboard Shortcuts = Ctrl+/"_s, u"Run › Step = F10"_s })
        QVERIFY2(all.contains(expected), qPrintable(all));
    dialog->move(window->mapToGlobal(QPoint(360, 80)));
    shoot(*window, u"09-shortcuts"_s);
    dialog->close();
}

// (10) Statuses, breakpoints and error kinds in plain words; the findings listed once.
void TestFirstUse::plainWordsAndFindingsOnce()
{
    auto window = makeWindow();
    QVERIFY(window);
    RunPanel *panel = window->runPanel();
    QVERIFY(window->openSpecFile(samplePath(u"planner.spec.json"_s)) && specChecked(*window));
    panel->setBreakpoints(Breakpoint::BeforeTool);
    QSignalSpy finished(panel, &RunPanel::runFinished);
    panel->run();
    QTRY_VERIFY_WITH_TIMEOUT(panel->isPaused(), 10000);
    QString which;
    QVERIFY2(
        !hasIdentifier(panel->findChild<QGroupBox *>(u"pausePanel"_s)->accessibleName(), &which),
        qPrintable(panel->findChild<QGroupBox *>(u"pausePanel"_s)->accessibleName()));
    QVERIFY2(!hasIdentifier(panel->transcript()->item(panel->pendingRow()).title, &which),
             qPrintable(which));
    QVERIFY2(!hasIdentifier(panel->findChild<QLabel *>(u"runStatus"_s)->text(), &which),
             qPrintable(panel->findChild<QLabel *>(u"runStatus"_s)->text()));
    QVERIFY2(panel->findChild<QLabel *>(u"runStatus"_s)->text().contains(u"before a tool runs"_s),
             qPrintable(panel->findChild<QLabel *>(u"runStatus"_s)->text()));
    panel->continueRun();
    QTRY_VERIFY_WITH_TIMEOUT(
        panel->findChild<ApprovalPanel *>(u"approvalPanel"_s)->approveButton()->isVisibleTo(panel),
        10000);
    QVERIFY2(!hasIdentifier(panel->findChild<QLabel *>(u"runStatus"_s)->text(), &which),
             qPrintable(panel->findChild<QLabel *>(u"runStatus"_s)->text()));
    QVERIFY2(
        panel->findChild<QLabel *>(u"runStatus"_s)->text().contains(u"waiting for your approval"_s),
        qPrintable(panel->findChild<QLabel *>(u"runStatus"_s)->text()));
    panel->stop();
    QVERIFY(finished.wait(10000));
    panel->setBreakpoints({});
    QCOMPARE(panel->findChild<QLabel *>(u"runStatus"_s)->text().section(u" · "_s, 0, 0),
             u"Cancelled"_s);

    // A failed call: no "other error".
    QVERIFY(window->openSpecFile(samplePath(u"refusal.spec.json"_s)) && specChecked(*window));
    panel = window->runPanel();
    runToEnd(*window);
    QVERIFY2(!hasIdentifier(panel->messageBar()->text(), &which),
             qPrintable(panel->messageBar()->text()));
    QVERIFY2(!hasIdentifier(transcriptText(panel->transcript()), &which), qPrintable(which));

    // History: words in the status column.
    HistoryBrowser *history = window->historyDocks()->history();
    history->refresh();
    QTRY_VERIFY(history->model()->rowCount() > 0);
    QStringList statuses;
    for (int r = 0; r < history->model()->rowCount(); ++r)
        statuses.append(history->model()->index(r, HistoryModel::StatusColumn).data().toString());
    for (const QString &s : std::as_const(statuses)) {
        QVERIFY2(!s.contains(u'_') && s.at(0).isUpper(), qPrintable(statuses.join(u", "_s)));
    }
    // Session status after a turn that did not complete: no "ended failed".
    SessionView *sessions = window->historyDocks()->sessions();
    QVERIFY(sessionStored(sessions, u"Words"_s) > 0);
    EngineSpec missing;
    missing.type = EngineType::OpenAICompatible;
    missing.model = u"nobody-home"_s;
    missing.baseUrl = u"http://127.0.0.1:1/v1"_s; // nothing listens there
    sessions->setChatEngine(missing);
    QSignalSpy turn(sessions, &SessionView::turnFinished);
    QVERIFY(sessions->sendMessage(u"hello"_s));
    QVERIFY(turn.wait(10000));
    QVERIFY2(!hasIdentifier(sessions->statusText(), &which), qPrintable(sessions->statusText()));

    // Findings: one list (the Findings panel), not a second table under the form.
    QVERIFY(!window->specForm()->findChild<QTableView *>(u"findings"_s));
    window->currentDocument()->replaceText(u"{\"kind\": \"x\", \"max_turns\": 0}"_s);
    window->revalidate();
    QVERIFY(specChecked(*window));
    window->showPanel(window->findingsDock());
    settle();
    QVERIFY(window->findingsModel()->rowCount() > 0);
    QTableView *dockFindings = window->findingsView();
    const int messageWidth = dockFindings->columnWidth(SpecFindingsModel::MessageColumn);
    QVERIFY2(messageWidth >= 240, qPrintable(QString::number(messageWidth)));
    shoot(*window, u"10-findings-once"_s);
    window->currentDocument()->setClean();
}

int runFirstUseTests(int argc, char **argv)
{
    TestFirstUse test;
    return QTest::qExec(&test, argc, argv);
}

// Help > Documentation (F1) opens the project's docs in the studio, in reading order, and a
// link to another page follows.
void TestFirstUse::helpOpensTheDocumentation()
{
    auto window = makeWindow();
    QVERIFY(window);
    const QString folder = documentationFolder();
    QVERIFY2(!folder.isEmpty(), "neither installed docs nor the source tree's docs/ were found");
    QCOMPARE(window->documentationAction()->shortcut(), QKeySequence(QKeySequence::HelpContents));
    bool listed = false;
    for (const auto &[command, key] : window->shortcutList())
        listed = listed || command == u"Help › Documentation"_s;
    QVERIFY(listed);

    window->documentationAction()->trigger();
    auto *dialog = window->findChild<DocumentationDialog *>(u"documentationDialog"_s);
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    // F1 opens on the user guide; how Callscope is built is there for contributors, last.
    QCOMPARE(
        dialog->pages().mid(0, 4),
        (QStringList { u"user-guide.md"_s, u"spec-format.md"_s, u"cli.md"_s, u"export.md"_s }));
    QVERIFY(dialog->pages().contains(u"concurrency.md"_s));
    QCOMPARE(dialog->pages().constLast(), u"architecture.md"_s);
    QCOMPARE(dialog->pageList()->item(0)->text(), u"Callscope user guide"_s);
    QCOMPARE(dialog->currentPage(), u"user-guide.md"_s);
    // Rendered from Markdown: headings become text, not markup; the guide is about the studio,
    // not its source.
    const QString first = dialog->browser()->toPlainText();
    QVERIFY2(first.startsWith(u"Callscope user guide"_s), qPrintable(first.left(200)));
    for (const QString &part :
         { u"A first run"_s, u"approvals and breakpoints"_s, u"History and revisions"_s,
           u"Sessions"_s, u"Experiments"_s, u"Engines and keys"_s, u"When something goes wrong"_s })
        QVERIFY2(first.contains(part, Qt::CaseInsensitive), qPrintable(part));
    static const QRegularExpression sourceFile(u"\\.(cpp|h)\\b|\\b(core|ui|app)/"_s);
    QVERIFY2(!sourceFile.match(first).hasMatch(), qPrintable(sourceFile.match(first).captured()));
    settle();
    // Every page's title can be read whole in the list (none cut at the list's edge).
    QListWidget *list = dialog->pageList();
    for (int row = 0; row < list->count(); ++row) {
        const QRect rect = list->visualItemRect(list->item(row));
        const int needed = list->fontMetrics().horizontalAdvance(list->item(row)->text());
        QVERIFY2(
            rect.right() <= list->viewport()->width()
                && (needed <= rect.width() || rect.height() > list->fontMetrics().height() + 4),
            qPrintable(
                u"%1: %2 px of %3"_s.arg(list->item(row)->text()).arg(needed).arg(rect.width())));
    }
    dialog->grab().save(buildPath(u"screenshots/firstuse-11-documentation.png"_s));
    QVERIFY(dialog->showPage(u"architecture.md"_s));
    QVERIFY(dialog->browser()->toPlainText().contains(u"How a call flows"_s));

    QVERIFY(dialog->showPage(u"spec-format.md"_s));
    QCOMPARE(dialog->pageList()->currentRow(), 1);
    QVERIFY(dialog->browser()->toPlainText().contains(u"per_attempt_override"_s));
    // A link between pages opens the page it names.
    Q_EMIT dialog->browser()->anchorClicked(QUrl(u"cli.md"_s));
    QCOMPARE(dialog->currentPage(), u"cli.md"_s);
    QVERIFY(dialog->browser()->toPlainText().contains(u"engines test"_s));
    QVERIFY(!dialog->showPage(u"no-such-page.md"_s));

    // Every field the spec loader knows is in the spec format page.
    QFile specFormat(QDir(folder).filePath(u"spec-format.md"_s));
    QVERIFY(specFormat.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(specFormat.readAll());
    for (const SpecSection section : { SpecSection::Root, SpecSection::Engine, SpecSection::Retry,
                                       SpecSection::Context, SpecSection::Tool }) {
        for (const QString &field : knownSpecFields(section))
            QVERIFY2(text.contains(u'`' + field + u'`'), qPrintable(field));
    }
    dialog->close();
}

// A first start with nothing open: File > Open Sample gives a spec that runs offline, copied
// where it can be edited, with its input filled in; a copy the user changed is kept.
void TestFirstUse::samplesOpenFromTheFileMenu()
{
    auto window = makeWindow();
    QVERIFY(window);
    QVERIFY(window->runPanel()
                ->findChild<QLabel *>(u"transcriptHint"_s)
                ->text()
                .contains(u"File > Open Sample"_s));
    QCOMPARE(MainWindow::sampleNames(),
             (QStringList { u"lunar-landing"_s, u"planner"_s, u"refusal"_s }));
    auto *action = window->findChild<QAction *>(u"openSample_planner"_s);
    QVERIFY(action);
    QVERIFY(window->findChild<QMenu *>(u"samplesMenu"_s)->actions().contains(action));
    action->trigger();
    settle();
    const QString folder = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                               .filePath(u"samples"_s);
    QCOMPARE(window->currentFile(), QDir(folder).filePath(u"planner.spec.json"_s));
    QVERIFY(QFileInfo(window->currentFile()).isWritable());
    QVERIFY(QFile::exists(QDir(folder).filePath(u"planner.recording.json"_s)));
    QCOMPARE(window->runPanel()->inputText().trimmed(), u"Plan the work for ticket 7."_s);
    const LaunchResult run = runToEnd(*window);
    QCOMPARE(run.record.status, CallStatus::Completed);

    // Edited and saved, the copy stays the user's.
    QFile spec(window->currentFile());
    QVERIFY(spec.open(QIODevice::ReadOnly));
    QByteArray text = spec.readAll();
    spec.close();
    text.replace("\"kind\": \"planner\"", "\"kind\": \"my-planner\"");
    QVERIFY(spec.open(QIODevice::WriteOnly | QIODevice::Truncate));
    spec.write(text);
    spec.close();
    QVERIFY(window->openSample(u"planner"_s));
    QVERIFY(window->currentDocument()->text().contains(u"my-planner"_s));
    QVERIFY(!window->openSample(u"no-such-sample"_s));
    window->currentDocument()->setClean();
}

#include "tst_firstuse.moc"
