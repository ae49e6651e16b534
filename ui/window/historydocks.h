#pragma once

// Places the views of stored calls in the main window: docks for History, Revisions, Sessions,
// Context budget and Diff (tabified, named for saveState/restoreState), their View menu
// toggles, a History menu, File > Export/Import and Edit > Preferences (the engines page).
// It wires the views to each other and to the window through one CurrentCall: picking a call
// in History, in a revision tree or in a call tab makes it the current call, which the
// revision tree and the budget view follow and every History-menu command acts on. A call
// opens as a tab in the window's centre (CallTab); Compare opens the diff of two calls as a
// tab too. The spec in the editor feeds "Replay with current spec" and "Run spec in session",
// and calls stored by the shared CallService appear in History.
//
// Built into callscope_ui (it knows the MainWindow); constructed by the window before it
// restores its state, so the docks come back where the person left them.

#include "core/model/spec.h"
#include "ui/widgets/noticebar.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

#include <optional>

class QAbstractItemView;
class QAction;
class QDockWidget;
class QMenu;

namespace Callscope {

class BudgetView;
class CallTab;
class CurrentCall;
class DiffView;
class HistoryBrowser;
class MainWindow;
class RevisionTreeWidget;
class SessionView;
class SettingsDialog;
class StoreReader;
class StudioServices;
class TransferController;
struct TransferResult;

class HistoryDocks final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryDocks)

public:
    explicit HistoryDocks(MainWindow *window);
    ~HistoryDocks() override;

    HistoryBrowser *history() const { return m_history; }
    RevisionTreeWidget *revisions() const { return m_revisions; }
    SessionView *sessions() const { return m_sessions; }
    BudgetView *budget() const { return m_budget; }
    DiffView *diff() const { return m_diff; }
    TransferController *transfer() const { return m_transfer; }
    SettingsDialog *settingsDialog() const { return m_settings; }

    QDockWidget *historyDock() const { return m_historyDock; }
    QDockWidget *revisionsDock() const { return m_revisionsDock; }
    QDockWidget *sessionsDock() const { return m_sessionsDock; }
    QDockWidget *budgetDock() const { return m_budgetDock; }
    QDockWidget *diffDock() const { return m_diffDock; }
    QList<QDockWidget *> docks() const;

    QAction *preferencesAction() const { return m_preferencesAction; }
    QAction *exportCallAction() const { return m_exportCallAction; }
    QAction *exportTreeAction() const { return m_exportTreeAction; }
    QAction *exportSessionAction() const { return m_exportSessionAction; }
    QAction *importAction() const { return m_importAction; }
    QAction *compareParentAction() const { return m_compareParentAction; }
    QAction *compareSelectedAction() const { return m_compareSelectedAction; }
    QAction *comparePreviousAction() const { return m_comparePreviousAction; }
    QAction *budgetAction() const { return m_budgetAction; }
    QAction *replaySpecAction() const { return m_replaySpecAction; }
    QAction *runInSessionAction() const { return m_runInSessionAction; }

    // The one "current call" every History-menu command acts on, and the calls picked with
    // it; History, the revision trees and the call tabs read and write it.
    CurrentCall *currentCall() const { return m_current; }
    qint64 currentCallId() const; // 0 when none
    QList<qint64> selectedCallIds() const; // the calls picked together, sorted

    // The call tab of `id` when it is open; the compare tab shown last.
    CallTab *callTab(qint64 id) const;
    QList<CallTab *> callTabs() const;
    DiffView *compareView() const;

public Q_SLOTS:
    // Makes the call current and opens it as a tab in the window's centre (or switches to its
    // tab when it is open already). It is selected in History when History lists it.
    CallTab *openCall(qint64 id);
    // Makes the call current and selects it in History (shown read-only below the list),
    // bringing History forward: for a call picked somewhere else (an experiment cell).
    void showInHistory(qint64 id);
    // A run of the window just stored call `id`: it becomes the current call everywhere at once
    // (History's selection, the revision tree, the budget view, the History commands).
    void adoptFinishedCall(qint64 id);
    // The call against the one it revises or replays, as a compare tab (the parent is read off
    // the GUI thread: false only when there is nothing to compare).
    bool compareWithParent(qint64 id);
    // Two calls side by side in a compare tab (older on the left as given).
    bool compare(qint64 left, qint64 right);
    // The same in the Diff panel, for views that keep their place in the centre.
    bool compareInPanel(qint64 left, qint64 right);
    // The two calls picked (in History or in a revision tree), older first.
    bool compareSelected();
    void showBudget(qint64 id);
    // Opens the call's trace in the viewer of Settings > Telemetry (the call is read first).
    void openTrace(qint64 id);
    void showPreferences();
    // Hands the editor's spec (as it is now) to the revision tree and the sessions view.
    void pushCurrentSpec();

private:
    // A dock below the spec brought forward: tall enough for its content, up to a third of the
    // window.
    void fitBottomDock(QDockWidget *dock);
    void createViews();
    void createDocks();
    void createActions();
    void createMenus();
    void connectViews();
    QDockWidget *makeDock(const QString &title, const QString &objectName, QWidget *content);
    void applySpec(const std::optional<Spec> &spec);
    void updateActions();
    void onTransferFinished(const TransferResult &result);
    // A passing hint, in the status bar.
    void showMessage(const QString &text);
    // A problem (a call that cannot be read, a failed import or export): above History.
    void showProblem(const QString &text, NoticeBar::Kind kind = NoticeBar::Kind::Error);

    // The views follow the current call (the one that wrote it is left alone).
    void followCurrentCall(qint64 id);
    // What a view last had picked; update() says whether that is a new pick to write.
    struct Picked
    {
        QList<qint64> ids;
        qint64 current = 0;
        bool update(QAbstractItemView *view, int idRole, bool syncing, bool force);
    };
    void writeFromHistory(bool force);
    void writeFromRevisions(bool force);
    void runOnCall(qint64 id, bool revise);
    void refreshCallTabs();

    MainWindow *m_window = nullptr;
    CurrentCall *m_current = nullptr;
    bool m_syncing = false; // the views are being moved to the current call: do not write it back
    QHash<qint64, QPointer<CallTab>> m_callTabs;
    QHash<QString, QPointer<DiffView>> m_compareTabs; // "left:right"
    QPointer<DiffView> m_lastCompare;
    Picked m_historyPicked;
    Picked m_revisionsPicked;
    StudioServices *m_services = nullptr;
    // The views' reads of the history, off the GUI thread (null without a history).
    StoreReader *m_reader = nullptr;

    HistoryBrowser *m_history = nullptr;
    RevisionTreeWidget *m_revisions = nullptr;
    SessionView *m_sessions = nullptr;
    BudgetView *m_budget = nullptr;
    DiffView *m_diff = nullptr;
    TransferController *m_transfer = nullptr;
    SettingsDialog *m_settings = nullptr; // made on first use; parented to the window

    QDockWidget *m_historyDock = nullptr;
    QDockWidget *m_revisionsDock = nullptr;
    QDockWidget *m_sessionsDock = nullptr;
    QDockWidget *m_budgetDock = nullptr;
    QDockWidget *m_diffDock = nullptr;

    QAction *m_preferencesAction = nullptr;
    QAction *m_exportCallAction = nullptr;
    QAction *m_exportTreeAction = nullptr;
    QAction *m_exportSessionAction = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_openCallAction = nullptr;
    QAction *m_compareParentAction = nullptr;
    QAction *m_compareSelectedAction = nullptr;
    QAction *m_comparePreviousAction = nullptr;
    QAction *m_budgetAction = nullptr;
    QAction *m_reviseAction = nullptr;
    QAction *m_replayEngineAction = nullptr;
    QAction *m_replaySpecAction = nullptr;
    QAction *m_runInSessionAction = nullptr;
    QAction *m_newSessionAction = nullptr;
    QAction *m_refreshAction = nullptr;
};

} // namespace Callscope
