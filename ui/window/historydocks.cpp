#include "ui/window/historydocks.h"

#include "core/eval/pricetable.h"
#include "core/eval/telemetrysettings.h"
#include "core/service/callservice.h"
#include "core/store/cachereport.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "core/store/storereader.h"
#include "ui/diff/diffview.h"
#include "ui/editor/specformeditor.h"
#include "ui/history/calltab.h"
#include "ui/history/currentcall.h"
#include "ui/history/historybrowser.h"
#include "ui/history/historymodel.h"
#include "ui/history/revisiontreemodel.h"
#include "ui/history/revisiontreewidget.h"
#include "ui/sessions/sessionview.h"
#include "ui/settings/enginespage.h"
#include "ui/settings/historysettingspage.h"
#include "ui/transfer/transfercontroller.h"
#include "ui/widgets/budgetview.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/fitscrollarea.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/studioservices.h"
#include "ui/window/mainwindow.h"

#include <QAction>
#include <QDesktopServices>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QListView>
#include <QLoggingCategory>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeView>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcHistoryDocks, "callscope.ui.historydocks", QtInfoMsg)

namespace {
constexpr int kMessageMs = 5000;
}

HistoryDocks::HistoryDocks(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_current(new CurrentCall(this))
    , m_services(window->studioServices())
{
    setObjectName(u"historyDocks"_s);
    createViews();
    createDocks();
    createActions();
    createMenus();
    connectViews();
    updateActions();
    // The window reads its first spec after building its parts.
    QTimer::singleShot(0, this, [this] { applySpec(m_window->currentSpec()); });
}

HistoryDocks::~HistoryDocks() = default;

void HistoryDocks::createViews()
{
    CallStore *store = m_services ? m_services->store() : nullptr;
    CallService *service = m_services ? m_services->calls() : nullptr;
    ProfileStore *profiles = m_services ? m_services->profiles() : nullptr;
    if (store && m_services->database())
        m_reader = m_services->reader();

    m_history = new HistoryBrowser(store, m_reader, m_window);
    m_history->setCallService(service);
    m_history->setAccessibleName(tr("Call history"));
    m_history->view()->setAccessibleName(tr("Calls"));
    // Two rows can be picked for Compare; the current row is still the one shown.
    m_history->view()->setSelectionMode(QAbstractItemView::ExtendedSelection);

    m_revisions = new RevisionTreeWidget(store, service, profiles, m_window);
    m_revisions->setReader(m_reader);
    m_revisions->setAccessibleName(tr("Revision tree"));
    m_revisions->view()->setAccessibleName(tr("Revisions and replays"));
    // Two nodes can be picked for Compare, as in History.
    m_revisions->view()->setSelectionMode(QAbstractItemView::ExtendedSelection);

    m_sessions = new SessionView(store, service, profiles, m_window);
    m_sessions->setReader(m_reader);
    if (m_services)
        m_sessions->setBlockedReason(m_services->context()->historyReadOnlyReason());
    m_sessions->setAccessibleName(tr("Sessions"));

    m_budget = new BudgetView(m_window);
    m_budget->setAccessibleName(tr("Context budget"));
    m_budget->view()->setAccessibleName(tr("Messages and their sizes"));

    m_diff = new DiffView(store, m_window);
    m_diff->setReader(m_reader);
    connect(m_diff, &DiffView::compared, this, [this] { showMessage(m_diff->statusText()); });
    m_diff->setAccessibleName(tr("Call diff"));
    m_diff->view()->setAccessibleName(tr("Differences"));

    const QString databasePath =
        m_services && m_services->database() ? m_services->database()->path() : QString();
    m_transfer = new TransferController(databasePath, m_window, this);
    // The import writes through the service's store writer, the process's one writing connection.
    m_transfer->setWriter(service ? service->writer() : nullptr);
}

QDockWidget *HistoryDocks::makeDock(const QString &title, const QString &objectName,
                                    QWidget *content)
{
    auto *dock = new QDockWidget(title, m_window);
    dock->setObjectName(objectName);
    dock->setAccessibleName(title);
    // Scrolled only below the view's own minimum, so no dock forces a wide window.
    auto *scroll = new FitScrollArea(dock);
    scroll->setContent(content);
    dock->setWidget(scroll);
    return dock;
}

void HistoryDocks::createDocks()
{
    m_historyDock = makeDock(tr("History"), u"historyDock"_s, m_history);
    m_revisionsDock = makeDock(tr("Revisions"), u"revisionsDock"_s, m_revisions);
    m_sessionsDock = makeDock(tr("Sessions"), u"sessionsDock"_s, m_sessions);
    m_budgetDock = makeDock(tr("Context Budget"), u"budgetDock"_s, m_budget);
    m_diffDock = makeDock(tr("Diff"), u"diffDock"_s, m_diff);
    // Opened empty, the panel offers the current call and the one before it in History.
    connect(m_diffDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible)
            return;
        const qint64 current = currentCallId();
        qint64 earlier = 0;
        const QAbstractItemModel *calls = m_history->model();
        for (int row = 0; row < calls->rowCount(); ++row) {
            const qint64 id = calls->index(row, 0).data(HistoryModel::CallIdRole).toLongLong();
            if (id < current && id > earlier)
                earlier = id;
        }
        if (current > 0)
            m_diff->suggest(earlier, current);
    });

    // History and Sessions as tabs (tall lists with the call or the chat below; the window
    // moves them into its left sidebar). Bottom, as tabs beside the findings: the call at hand
    // seen three ways (its revisions, its context budget, a diff).
    m_window->addDockWidget(Qt::RightDockWidgetArea, m_historyDock);
    m_window->tabifyDockWidget(m_historyDock, m_sessionsDock);

    QDockWidget *findings = m_window->findingsDock();
    if (findings && m_window->dockWidgetArea(findings) != Qt::NoDockWidgetArea)
        m_window->tabifyDockWidget(findings, m_revisionsDock);
    else
        m_window->addDockWidget(Qt::BottomDockWidgetArea, m_revisionsDock);
    m_window->tabifyDockWidget(m_revisionsDock, m_budgetDock);
    m_window->tabifyDockWidget(m_budgetDock, m_diffDock);
    if (findings)
        findings->raise();
    // At 1280x800: the spec keeps about half the width, the bottom tabs a quarter of the
    // height (the form needs the rest).
    m_window->resizeDocks({ m_historyDock }, { 660 }, Qt::Horizontal);
    m_window->resizeDocks({ m_revisionsDock }, { 210 }, Qt::Vertical);
    // Brought forward (a call opened, its tab clicked), the tree gets the height it needs, up
    // to a third of the window.
    connect(m_revisionsDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            QTimer::singleShot(0, this, [this] { fitBottomDock(m_revisionsDock); });
    });
}

void HistoryDocks::fitBottomDock(QDockWidget *dock)
{
    if (!dock->isVisible() || dock->isFloating()
        || m_window->dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
        return;
    auto *scroll = qobject_cast<QScrollArea *>(dock->widget());
    QWidget *content = scroll && scroll->widget() ? scroll->widget() : dock->widget();
    const int needed = content->minimumSizeHint().height()
        + (dock->height() - dock->widget()->height()) + 2 * (scroll ? scroll->frameWidth() : 0);
    // Room for the tree and for the call beside it: a quarter of the window, more when the
    // content needs it, never more than a third.
    const int most = m_window->height() / 3;
    if (dock->height() >= needed)
        return;
    const int wanted = std::min(std::max(needed, m_window->height() / 4), most);
    m_window->resizeDocks({ dock }, { wanted }, Qt::Vertical);
    // For docks shown as tabs the size given is the tab group's, tab bar included: once the
    // layout has placed the dock, what it still lacks is added (once).
    QPointer<QDockWidget> guarded(dock);
    QTimer::singleShot(0, this, [this, guarded, wanted] {
        if (!guarded || !guarded->isVisible())
            return;
        const int short_ = wanted - guarded->height();
        if (short_ > 0)
            m_window->resizeDocks({ guarded }, { wanted + short_ }, Qt::Vertical);
    });
}

QList<QDockWidget *> HistoryDocks::docks() const
{
    return { m_historyDock, m_revisionsDock, m_sessionsDock, m_budgetDock, m_diffDock };
}

void HistoryDocks::createActions()
{
    auto make = [this](const QString &text, const QKeySequence &key, const QString &name,
                       const QString &tip) {
        auto *action = new QAction(text, m_window);
        action->setObjectName(name);
        if (!key.isEmpty())
            action->setShortcut(key);
        action->setStatusTip(tip);
        return action;
    };

    m_preferencesAction = make(tr("&Preferences…"), QKeySequence(Qt::CTRL | Qt::Key_Comma),
                               u"preferencesAction"_s, tr("Engine profiles and keys"));
    m_preferencesAction->setIcon(QIcon::fromTheme(u"preferences-system"_s));
    m_preferencesAction->setMenuRole(QAction::PreferencesRole);
    connect(m_preferencesAction, &QAction::triggered, this, &HistoryDocks::showPreferences);

    m_exportCallAction = make(tr("Export &Call…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                              u"exportCallAction"_s, tr("Write the current call to a JSON file"));
    connect(m_exportCallAction, &QAction::triggered, this, [this] {
        if (const qint64 id = currentCallId(); id > 0)
            m_transfer->exportCall(id);
    });
    m_exportTreeAction = make(tr("Export Revision &Tree…"), QKeySequence(), u"exportTreeAction"_s,
                              tr("Write the call's revisions and replays to a JSON file"));
    connect(m_exportTreeAction, &QAction::triggered, this, [this] {
        qint64 id = m_revisions->model()->rootId();
        if (id <= 0)
            id = currentCallId();
        if (id > 0)
            m_transfer->exportTree(id);
    });
    m_exportSessionAction = make(tr("Export &Session…"), QKeySequence(), u"exportSessionAction"_s,
                                 tr("Write the current session to a JSON file"));
    connect(m_exportSessionAction, &QAction::triggered, this, [this] {
        if (const qint64 id = m_sessions->currentSessionId(); id > 0)
            m_transfer->exportSession(id);
    });
    m_importAction =
        make(tr("&Import…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I), u"importAction"_s,
             tr("Add calls or sessions from an exported JSON file"));
    m_importAction->setIcon(QIcon::fromTheme(u"document-import"_s));
    connect(m_importAction, &QAction::triggered, m_transfer, &TransferController::importFile);

    m_openCallAction =
        make(tr("&Open Call"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), u"openCallAction"_s,
             tr("Open the current call in a tab: its transcript, result, requests, context budget "
                "and revisions"));
    connect(m_openCallAction, &QAction::triggered, this, [this] {
        if (const qint64 id = currentCallId(); id > 0)
            openCall(id);
    });
    m_compareParentAction = make(tr("Compare with &Parent"), QKeySequence(Qt::CTRL | Qt::Key_D),
                                 u"compareParentAction"_s,
                                 tr("Diff the current call (picked in History or in the revision "
                                    "tree) against the call it revises or replays"));
    connect(m_compareParentAction, &QAction::triggered, this, [this] {
        if (const qint64 id = currentCallId(); id > 0)
            compareWithParent(id);
    });
    m_compareSelectedAction =
        make(tr("&Compare Selected"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
             u"compareSelectedAction"_s,
             tr("Diff the two calls picked together (in History, or in a revision tree)"));
    connect(m_compareSelectedAction, &QAction::triggered, this, &HistoryDocks::compareSelected);
    // The current call and the one picked before it, wherever each was picked.
    m_comparePreviousAction =
        make(tr("Compare with Previous Call"), QKeySequence(), u"comparePreviousAction"_s,
             tr("Diff the current call against the call that was current before it"));
    connect(m_comparePreviousAction, &QAction::triggered, this, [this] {
        const qint64 a = m_current->previous();
        const qint64 b = m_current->id();
        if (a > 0 && b > 0 && a != b)
            compare(std::min(a, b), std::max(a, b));
    });
    m_budgetAction = make(tr("Context &Budget"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B),
                          u"budgetAction"_s,
                          tr("Show what each request of the current call sent, and what was cut"));
    connect(m_budgetAction, &QAction::triggered, this, [this] {
        if (const qint64 id = currentCallId(); id > 0)
            showBudget(id);
    });
    m_reviseAction = make(tr("&Revise…"), QKeySequence(), u"reviseAction"_s,
                          tr("Run the current call again with a correction"));
    connect(m_reviseAction, &QAction::triggered, this,
            [this] { runOnCall(currentCallId(), true); });
    m_replayEngineAction =
        make(tr("Replay on Another &Engine…"), QKeySequence(), u"replayEngineAction"_s,
             tr("Run the current call's input on another engine"));
    connect(m_replayEngineAction, &QAction::triggered, this,
            [this] { runOnCall(currentCallId(), false); });
    m_replaySpecAction =
        make(tr("Replay with Current &Spec"), QKeySequence(), u"replaySpecAction"_s,
             tr("Run the call's input again with the spec open in the editor"));
    connect(m_replaySpecAction, &QAction::triggered, this, [this] {
        pushCurrentSpec();
        followCurrentCall(currentCallId());
        m_revisionsDock->show();
        m_revisionsDock->raise();
        m_revisions->replayWithCurrentSpec();
    });
    m_runInSessionAction = make(
        tr("Run Spec in Session"), QKeySequence(), u"runInSessionAction"_s,
        tr("Run the spec open in the editor on the typed message, inside the current session"));
    connect(m_runInSessionAction, &QAction::triggered, this, [this] {
        pushCurrentSpec();
        m_sessionsDock->show();
        m_sessionsDock->raise();
        m_sessions->runSpecButton()->click();
    });
    m_newSessionAction = make(tr("&New Session"), QKeySequence(), u"newSessionAction"_s,
                              tr("Start an empty session"));
    connect(m_newSessionAction, &QAction::triggered, this, [this] {
        m_sessionsDock->show();
        m_sessionsDock->raise();
        m_sessions->newSession();
    });
    m_refreshAction = make(tr("Re&fresh History"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5),
                           u"refreshHistoryAction"_s, tr("Read the history again"));
    connect(m_refreshAction, &QAction::triggered, this, [this] {
        m_history->refresh();
        m_sessions->reload();
    });

    const std::pair<QDockWidget *, int> keys[] = { { m_historyDock, Qt::Key_3 },
                                                   { m_revisionsDock, Qt::Key_4 },
                                                   { m_sessionsDock, Qt::Key_5 },
                                                   { m_budgetDock, Qt::Key_6 },
                                                   { m_diffDock, Qt::Key_7 } };
    // View shortcuts bring a panel forward; they never hide it.
    for (const auto &[dock, key] : keys)
        m_window->addPanelAction(dock, dock->windowTitle(), QKeySequence(Qt::CTRL | Qt::Key(key)));
}

void HistoryDocks::createMenus()
{
    // The window's own menus; the History menu goes before Help.
    if (QMenu *file = m_window->fileMenu()) {
        // Before the separator that precedes Quit.
        QList<QAction *> actions = file->actions();
        QAction *before = nullptr;
        for (qsizetype i = actions.size() - 1; i >= 0; --i) {
            if (actions.at(i)->isSeparator()) {
                before = actions.at(i);
                break;
            }
        }
        QAction *separator = new QAction(file);
        separator->setSeparator(true);
        file->insertAction(before, separator);
        file->insertActions(
            before,
            { m_exportCallAction, m_exportTreeAction, m_exportSessionAction, m_importAction });
    } else {
        qCWarning(lcHistoryDocks) << "no File menu; export and import are in the History menu only";
    }

    if (QMenu *edit = m_window->editMenu()) {
        edit->addSeparator();
        edit->addAction(m_preferencesAction);
    }

    auto *history = new QMenu(tr("&History"), m_window);
    history->setObjectName(u"historyMenu"_s);
    history->addAction(m_openCallAction);
    history->addAction(m_refreshAction);
    history->addSeparator();
    history->addAction(m_compareParentAction);
    history->addAction(m_compareSelectedAction);
    history->addAction(m_comparePreviousAction);
    history->addAction(m_budgetAction);
    history->addSeparator();
    history->addAction(m_reviseAction);
    history->addAction(m_replayEngineAction);
    history->addAction(m_replaySpecAction);
    history->addSeparator();
    history->addAction(m_newSessionAction);
    history->addAction(m_runInSessionAction);
    if (!m_window->fileMenu()) {
        history->addSeparator();
        history->addActions(
            { m_exportCallAction, m_exportTreeAction, m_exportSessionAction, m_importAction });
    }
    QMenu *help = m_window->helpMenu();
    m_window->menuBar()->insertMenu(help ? help->menuAction() : nullptr, history);
}

void HistoryDocks::connectViews()
{
    // Picking in History or in the revision tree writes the current call; the other views
    // follow it.
    connect(m_current, &CurrentCall::currentChanged, this, &HistoryDocks::followCurrentCall);
    connect(m_current, &CurrentCall::selectionChanged, this, &HistoryDocks::updateActions);
    connect(m_history->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { writeFromHistory(false); });
    connect(m_history->view()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { writeFromHistory(false); });
    // A click on the row that is already selected picks it again (after a pick elsewhere).
    connect(m_history->view(), &QAbstractItemView::clicked, this,
            [this] { writeFromHistory(true); });
    connect(m_revisions->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { writeFromRevisions(false); });
    connect(m_revisions->view()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { writeFromRevisions(false); });
    connect(m_revisions->view(), &QAbstractItemView::clicked, this,
            [this] { writeFromRevisions(true); });
    connect(m_history, &HistoryBrowser::callOpened, this, &HistoryDocks::openCall);
    connect(m_history, &HistoryBrowser::revisionTreeRequested, this, [this](qint64 id) {
        m_revisions->setCall(id);
        m_revisionsDock->show();
        m_revisionsDock->raise();
    });
    connect(m_history, &HistoryBrowser::diffRequested, this, &HistoryDocks::compareWithParent);
    connect(m_history, &HistoryBrowser::budgetRequested, this, &HistoryDocks::showBudget);
    connect(m_history, &HistoryBrowser::traceRequested, this, &HistoryDocks::openTrace);
    connect(m_history, &HistoryBrowser::exportRequested, m_transfer,
            &TransferController::exportCall);

    connect(m_revisions, &RevisionTreeWidget::callOpened, this, &HistoryDocks::openCall);
    connect(m_revisions, &RevisionTreeWidget::runFinished, this, &HistoryDocks::refreshCallTabs);
    connect(m_revisions, &RevisionTreeWidget::diffRequested, this, &HistoryDocks::compare);
    connect(m_revisions, &RevisionTreeWidget::budgetRequested, this, &HistoryDocks::showBudget);
    connect(m_revisions, &RevisionTreeWidget::exportTreeRequested, m_transfer,
            &TransferController::exportTree);
    // The button reads the spec it was given: give it the editor's as it is at the press.
    connect(m_revisions->replaySpecButton(), &QPushButton::pressed, this,
            &HistoryDocks::pushCurrentSpec);

    connect(m_sessions, &SessionView::callOpened, this, &HistoryDocks::openCall);
    connect(m_sessions->runSpecButton(), &QPushButton::pressed, this,
            &HistoryDocks::pushCurrentSpec);
    if (QItemSelectionModel *sessionSelection = m_sessions->sessionList()->selectionModel())
        connect(sessionSelection, &QItemSelectionModel::currentChanged, this,
                &HistoryDocks::updateActions);

    connect(m_transfer, &TransferController::finished, this, &HistoryDocks::onTransferFinished);

    // The spec as the window last read it.
    connect(m_window, &MainWindow::specReread, this,
            [this] { applySpec(m_window->currentSpec()); });

    if (m_services && !m_services->store()) {
        const QString why = tr("The history is not available: %1").arg(m_services->databaseError());
        for (QDockWidget *dock : docks())
            dock->setToolTip(why);
    }
}

void HistoryDocks::pushCurrentSpec()
{
    // Pending form edits go into the text, and the text is read now rather than after the
    // window's short revalidation delay.
    if (SpecFormEditor *form = m_window->specForm())
        form->flushPendingEdits();
    m_window->revalidate();
    applySpec(m_window->currentSpec());
}

void HistoryDocks::applySpec(const std::optional<Spec> &spec)
{
    if (spec) {
        m_revisions->setCurrentSpec(*spec);
        m_sessions->setCurrentSpec(*spec);
    } else {
        m_revisions->clearCurrentSpec();
        m_sessions->clearCurrentSpec();
    }
}

qint64 HistoryDocks::currentCallId() const
{
    return m_current->id();
}

QList<qint64> HistoryDocks::selectedCallIds() const
{
    return m_current->selection();
}

bool HistoryDocks::Picked::update(QAbstractItemView *view, int idRole, bool syncing, bool force)
{
    QList<qint64> now;
    for (const QModelIndex &index : view->selectionModel()->selectedRows())
        now.append(index.data(idRole).toLongLong());
    std::sort(now.begin(), now.end());
    const qint64 currentNow = view->selectionModel()->currentIndex().data(idRole).toLongLong();
    // A list read again empties its selection and then picks the same rows: not a new pick.
    if (currentNow <= 0 && now.isEmpty())
        return false;
    const bool changed = now != ids || currentNow != current;
    ids = now;
    current = currentNow;
    return !syncing && (changed || force);
}

void HistoryDocks::writeFromHistory(bool force)
{
    if (m_historyPicked.update(m_history->view(), HistoryModel::CallIdRole, m_syncing, force))
        m_current->setSelection(m_historyPicked.ids, m_historyPicked.current);
}

void HistoryDocks::writeFromRevisions(bool force)
{
    if (m_revisionsPicked.update(m_revisions->view(), RevisionTreeModel::CallIdRole, m_syncing,
                                 force))
        m_current->setSelection(m_revisionsPicked.ids, m_revisionsPicked.current);
}

void HistoryDocks::followCurrentCall(qint64 id)
{
    updateActions();
    if (id <= 0)
        return;
    m_syncing = true;
    // History: the row, when it is listed (the list is not reloaded for it).
    if (m_history->selectedCallId() != id && m_history->model()->rowOfCall(id) >= 0)
        m_history->openCall(id);
    // The revision tree: the call's tree, with the call selected.
    if (m_revisions->selectedCallId() != id) {
        if (m_revisions->model()->indexOfCall(id).isValid())
            m_revisions->selectCall(id);
        else
            m_revisions->setCall(id);
    }
    m_syncing = false;
    CallStore *store = m_services ? m_services->store() : nullptr;
    if (!store)
        return;
    // The call and its cache report (the budget view's cache tab), off the GUI thread.
    struct Read
    {
        std::optional<StoreResult<CallRecord>> call;
        std::optional<CacheReport> cache;
    };
    readFromStore<Read>(
        m_reader, store, this,
        [id](CallStore &from) {
            Read read;
            read.call = from.getCall(id);
            if (*read.call) {
                if (auto report = buildCacheReport(from, id))
                    read.cache = report.value();
            }
            return read;
        },
        [this, id](const Read *read, const QString &error) {
            if (id != currentCallId())
                return; // another call is current by now
            if (!read || !read->call || !*read->call) {
                showProblem(tr("Call %1 could not be read: %2")
                                .arg(id)
                                .arg(read && read->call ? read->call->error().message : error));
                return;
            }
            const CallRecord &record = read->call->value();
            m_budget->setCall(record);
            if (read->cache) {
                const QJsonObject costs = PriceTable::fromSettings().costJson(record);
                auto usd = [&costs](QLatin1StringView key) -> std::optional<double> {
                    const QJsonValue v = costs.value(key);
                    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
                };
                m_budget->setCacheReport(*read->cache, usd("cost_usd"_L1),
                                         usd("cost_uncached_usd"_L1));
            }
        });
}

DiffView *HistoryDocks::compareView() const
{
    return m_lastCompare;
}

CallTab *HistoryDocks::callTab(qint64 id) const
{
    return m_callTabs.value(id);
}

QList<CallTab *> HistoryDocks::callTabs() const
{
    QList<CallTab *> tabs;
    for (const QPointer<CallTab> &tab : m_callTabs) {
        if (tab)
            tabs.append(tab);
    }
    std::sort(tabs.begin(), tabs.end(),
              [](CallTab *a, CallTab *b) { return a->callId() < b->callId(); });
    return tabs;
}

CallTab *HistoryDocks::openCall(qint64 id)
{
    if (id <= 0)
        return nullptr;
    m_current->setCurrent(id);
    // History shows it too when it lists it (a call stored a moment ago is looked for once).
    if (m_history->selectedCallId() != id) {
        m_syncing = true;
        m_history->openCall(id);
        m_syncing = false;
    }
    CallStore *store = m_services ? m_services->store() : nullptr;
    CallTab *tab = m_callTabs.value(id);
    if (tab && tab->hasFailed())
        tab->setCall(id); // it could not be read before: try again
    if (!tab) {
        tab = new CallTab(store, m_current, m_window);
        tab->setReader(m_reader);
        // The tab is read off the GUI thread; its title names the call's kind once it is in.
        connect(tab, &CallTab::loaded, this, [this, tab](bool ok) {
            if (!ok) {
                showProblem(tab->summaryText());
                return;
            }
            tab->setAccessibleName(tab->title());
            // Renamed where it is, without bringing it forward (the person may be elsewhere).
            for (QWidget *up = tab->parentWidget(); up; up = up->parentWidget()) {
                if (auto *tabs = qobject_cast<QTabWidget *>(up)) {
                    if (const int index = tabs->indexOf(tab); index >= 0)
                        tabs->setTabText(index, tab->title());
                    break;
                }
            }
        });
        if (!tab->setCall(id)) {
            showProblem(tab->summaryText());
            delete tab;
            return nullptr;
        }
        tab->setAccessibleName(tab->title());
        m_callTabs.insert(id, tab);
        connect(tab, &QObject::destroyed, this, [this, id] { m_callTabs.remove(id); });
        connect(tab, &CallTab::callOpened, this, &HistoryDocks::openCall);
        connect(tab, &CallTab::compareRequested, this, &HistoryDocks::compare);
        connect(tab, &CallTab::exportRequested, m_transfer, &TransferController::exportCall);
        connect(tab, &CallTab::replayRequested, this,
                [this](qint64 call) { runOnCall(call, false); });
        connect(tab, &CallTab::reviseRequested, this,
                [this](qint64 call) { runOnCall(call, true); });
    }
    m_window->openDocumentTab(tab, tab->title());
    return tab;
}

void HistoryDocks::showInHistory(qint64 id)
{
    if (id <= 0)
        return;
    m_historyDock->show();
    m_historyDock->raise();
    m_current->setCurrent(id);
    m_syncing = true;
    m_history->openCall(id);
    m_syncing = false;
}

void HistoryDocks::adoptFinishedCall(qint64 id)
{
    if (id <= 0)
        return;
    // History lists it first (a call stored a moment ago is looked for once), so following
    // the current call selects its row.
    m_syncing = true;
    m_history->openCall(id);
    m_syncing = false;
    m_current->setCurrent(id);
    // Already current (the same id again): the views still follow it.
    followCurrentCall(id);
}

void HistoryDocks::runOnCall(qint64 id, bool revise)
{
    if (id <= 0)
        return;
    // The revision tree runs it: make it the tree's call first.
    m_current->setCurrent(id);
    followCurrentCall(id);
    m_revisionsDock->show();
    m_revisionsDock->raise();
    if (revise)
        m_revisions->openReviseDialog();
    else
        m_revisions->openReplayDialog();
}

void HistoryDocks::refreshCallTabs()
{
    for (CallTab *tab : callTabs())
        tab->reload();
}

bool HistoryDocks::compareWithParent(qint64 id)
{
    CallStore *store = m_services ? m_services->store() : nullptr;
    if (!store || id <= 0)
        return false;
    // Without a reader the answer comes before this returns, and says how it went.
    auto ok = std::make_shared<bool>(true);
    readFromStore<StoreResult<CallRecord>>(
        m_reader, store, this, [id](CallStore &from) { return from.getCall(id); },
        [this, id, ok](const StoreResult<CallRecord> *call, const QString &error) {
            if (!call || !*call) {
                *ok = false;
                showProblem(tr("Call %1 could not be read: %2")
                                .arg(id)
                                .arg(call ? call->error().message : error));
                return;
            }
            if (!call->value().parent) {
                *ok = false;
                showProblem(tr("Call %1 has no parent: it is the first of its tree.").arg(id),
                            NoticeBar::Kind::Warning);
                return;
            }
            *ok = compare(*call->value().parent, id);
        });
    return *ok;
}

bool HistoryDocks::compare(qint64 left, qint64 right)
{
    if (left <= 0 || right <= 0)
        return false;
    const QString key = u"%1:%2"_s.arg(left).arg(right);
    DiffView *view = m_compareTabs.value(key);
    bool ok = true;
    if (!view) {
        view = new DiffView(m_services ? m_services->store() : nullptr, m_window);
        view->setReader(m_reader);
        view->setObjectName(u"compareView"_s);
        connect(view, &DiffView::compared, this, [this, view] {
            if (view == m_lastCompare)
                showMessage(view->statusText());
        });
        view->setAccessibleName(tr("Compare call %1 with call %2").arg(left).arg(right));
        ok = view->compare(left, right);
        m_compareTabs.insert(key, view);
        connect(view, &QObject::destroyed, this, [this, key] { m_compareTabs.remove(key); });
    }
    m_lastCompare = view;
    m_window->openDocumentTab(view, tr("Compare %1 ↔ %2").arg(left).arg(right));
    showMessage(view->statusText());
    return ok;
}

bool HistoryDocks::compareInPanel(qint64 left, qint64 right)
{
    m_diffDock->show();
    m_diffDock->raise();
    const bool ok = m_diff->compare(left, right);
    showMessage(m_diff->statusText());
    return ok;
}

bool HistoryDocks::compareSelected()
{
    const auto pair = m_current->comparePair();
    if (!pair) {
        showMessage(tr(
            "Pick two calls to compare them: two rows in History, or two calls in a revision tree "
            "(Ctrl+click the second)."));
        return false;
    }
    return compare(pair->first, pair->second);
}

void HistoryDocks::showBudget(qint64 id)
{
    // The call's tab, on its Context budget page (the Context Budget panel follows too).
    if (CallTab *tab = openCall(id))
        tab->tabs()->setCurrentWidget(tab->budget());
}

void HistoryDocks::openTrace(qint64 id)
{
    CallStore *store = m_services ? m_services->store() : nullptr;
    if (!store || id <= 0)
        return;
    readFromStore<StoreResult<CallRecord>>(
        m_reader, store, this, [id](CallStore &from) { return from.getCall(id); },
        [this, id](const StoreResult<CallRecord> *call, const QString &error) {
            if (!call || !*call) {
                showProblem(tr("Call %1 could not be read: %2")
                                .arg(id)
                                .arg(call ? call->error().message : error));
                return;
            }
            const QUrl url = traceUrlFromSettings(call->value());
            if (!url.isValid() || !QDesktopServices::openUrl(url))
                showProblem(tr("The trace of call %1 could not be opened (%2).")
                                .arg(id)
                                .arg(url.isValid() ? url.toString() : tr("no trace link set")));
        });
}

void HistoryDocks::showPreferences()
{
    if (!m_settings) {
        if (!m_services)
            return;
        m_settings = new SettingsDialog(m_services->profiles(), m_services->credentials(),
                                        m_services->network(), m_window, m_services->calls());
        m_settings->setObjectName(u"settingsDialog"_s);
        m_settings->setAccessibleName(tr("Settings"));
        m_settings->historyPage()->setCurrentHistory(
            m_services->context()->databasePath(), m_services->context()->historyReadOnlyReason());
    }
    m_settings->show();
    m_settings->raise();
    m_settings->activateWindow();
}

void HistoryDocks::updateActions()
{
    const bool haveStore = m_services && m_services->store();
    const qint64 id = currentCallId();
    m_openCallAction->setEnabled(id > 0);
    m_exportCallAction->setEnabled(haveStore && id > 0);
    m_exportTreeAction->setEnabled(haveStore && (id > 0 || m_revisions->model()->rootId() > 0));
    m_exportSessionAction->setEnabled(haveStore && m_sessions->currentSessionId() > 0);
    m_importAction->setEnabled(haveStore);
    m_compareParentAction->setEnabled(id > 0);
    m_compareSelectedAction->setEnabled(m_current->comparePair().has_value());
    const qint64 previous = m_current->previous();
    m_comparePreviousAction->setEnabled(previous > 0 && id > 0 && previous != id);
    m_comparePreviousAction->setText(m_comparePreviousAction->isEnabled()
                                         ? tr("Compare with Call %1").arg(previous)
                                         : tr("Compare with Previous Call"));
    m_replayEngineAction->setEnabled(haveStore && id > 0);
    m_reviseAction->setEnabled(haveStore && id > 0);
    m_budgetAction->setEnabled(id > 0);
    m_refreshAction->setEnabled(haveStore);
}

void HistoryDocks::onTransferFinished(const TransferResult &result)
{
    if (!result.ok) {
        showProblem(result.message);
        return;
    }
    showMessage(result.message);
    if (result.kind != TransferResult::Kind::Import)
        return;
    m_history->refresh();
    m_sessions->reload();
    if (!result.callIds.isEmpty())
        showInHistory(result.callIds.constFirst());
}

void HistoryDocks::showMessage(const QString &text)
{
    if (!text.isEmpty())
        m_window->statusBar()->showMessage(text, kMessageMs);
}

void HistoryDocks::showProblem(const QString &text, NoticeBar::Kind kind)
{
    if (text.isEmpty())
        return;
    // Above the History list, which comes forward: a problem stays until it is closed or the
    // next query, where a status-bar line would pass unseen.
    m_history->messageBar()->showMessage(text, kind);
    m_historyDock->show();
    m_historyDock->raise();
}

} // namespace Callscope
