#pragma once

// Places the studio's part-2 views in the main window: docks for History, Revisions, Sessions,
// Context budget and Diff (tabified, named for saveState/restoreState), their View menu
// toggles, a History menu, File > Export/Import and Edit > Preferences (the engines page).
// It wires the views to each other and to the window: the selected call feeds the revision
// tree and the budget view, the spec in the editor feeds "Replay with current spec" and "Run
// spec in session", and calls stored by the shared CallService appear in History.
//
// Built into callscope_ui (it knows the MainWindow); constructed by the window before it
// restores its state, so the docks come back where the person left them.

#include "core/model/spec.h"

#include <QList>
#include <QObject>

#include <optional>

class QAction;
class QDockWidget;
class QMenu;

namespace Callscope {

class BudgetView;
class DiffView;
class HistoryBrowser;
class MainWindow;
class RevisionTreeWidget;
class SessionView;
class SettingsDialog;
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
    QAction *budgetAction() const { return m_budgetAction; }
    QAction *replaySpecAction() const { return m_replaySpecAction; }
    QAction *runInSessionAction() const { return m_runInSessionAction; }
    QAction *refreshAction() const { return m_refreshAction; }

    // The call selected in History (0 when none) and the rows selected there (for Compare).
    qint64 selectedCallId() const;
    // The one "current call" the History menu acts on: the call last picked, in History or in
    // the revision tree (0 when none).
    qint64 currentCallId() const;
    QList<qint64> selectedCallIds() const;

public Q_SLOTS:
    // Selects the call in History (shown read-only there), and shows it in Revisions and in
    // the budget view. Raises the History dock.
    void openCall(qint64 id);
    // The call in the revision tree and the budget view (what selecting it in History does).
    void showCall(qint64 id);
    bool compareWithParent(qint64 id);
    bool compare(qint64 left, qint64 right);
    // The two calls selected in History, older first.
    bool compareSelected();
    void showBudget(qint64 id);
    void showPreferences();
    // Hands the editor's spec (as it is now) to the revision tree and the sessions view.
    void pushCurrentSpec();

private:
    void createViews();
    void createDocks();
    void createActions();
    void createMenus();
    void connectViews();
    QDockWidget *makeDock(const QString &title, const QString &objectName, QWidget *content);
    enum class MenuKind { File, Edit, Help }; // the View menu comes from MainWindow::viewMenu()
    QMenu *findMenu(MenuKind kind) const;
    void applySpec(const std::optional<Spec> &spec);
    void updateActions();
    void onTransferFinished(const TransferResult &result);
    void showMessage(const QString &text);

    void setCurrentCall(qint64 id);

    MainWindow *m_window = nullptr;
    qint64 m_currentCall = 0;
    StudioServices *m_services = nullptr;

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
    QAction *m_budgetAction = nullptr;
    QAction *m_reviseAction = nullptr;
    QAction *m_replayEngineAction = nullptr;
    QAction *m_replaySpecAction = nullptr;
    QAction *m_runInSessionAction = nullptr;
    QAction *m_newSessionAction = nullptr;
    QAction *m_refreshAction = nullptr;
};

} // namespace Callscope
