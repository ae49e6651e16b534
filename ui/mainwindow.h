#pragma once

// The main window: the spec in a highlighted JSON editor at the centre, its load errors and
// lint findings in a dock below, menus, recent files and a status bar. Later panels (run,
// history, budget, revisions) dock around the centre.

#include "core/model/spec.h"

#include <QHash>
#include <QMainWindow>
#include <QTimer>

#include <functional>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTableView;
class QTabWidget;

namespace Callscope {

class FindingsModel;
class RunPanel;
class SpecFormEditor;
class SpecView;
class StudioServices;
class AppContext;
class HistoryDocks;
class ExperimentsHost;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    struct Options
    {
        // The program's services (history, keychain, profiles, the call service), made by main
        // from --db; not owned, it outlives the window. Null: the window makes its own on
        // databasePath.
        AppContext *context = nullptr;
        QString databasePath; // without a context: the history database; empty: the default one
    };

    explicit MainWindow(QWidget *parent = nullptr);
    explicit MainWindow(const Options &options, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Shows the file's text and its findings. Returns false when the file cannot be read (the
    // message bar says why); a file that is not a valid spec opens, with its errors listed.
    bool openSpecFile(const QString &path);
    // Starts an unsaved spec from a template.
    void newSpec();
    // Writes the editor's text to `path` and makes it the current file; the error otherwise.
    std::optional<QString> saveToFile(const QString &path);
    // Re-reads the editor's text now (normally done shortly after each edit).
    void revalidate();

    QString currentFile() const { return m_path; }
    bool isModified() const;
    std::optional<Spec> currentSpec() const { return m_spec; }
    // The engine type lint checks against: the chosen one, else the spec's own.
    EngineType lintTarget() const;
    void setLintTargetOverride(std::optional<EngineType> type);

    SpecView *specView() const { return m_specView; }
    FindingsModel *findingsModel() const { return m_findings; }
    QTableView *findingsView() const { return m_findingsView; }
    QDockWidget *findingsDock() const { return m_findingsDock; }
    QAction *aboutAction() const { return m_aboutAction; }
    // The studio (issue 9): the spec form beside the JSON text, the run panel in a dock.
    SpecFormEditor *specForm() const { return m_form; }
    RunPanel *runPanel() const { return m_runPanel; }
    QDockWidget *runDock() const { return m_runDock; }
    QTabWidget *centralTabs() const { return m_centralTabs; }
    // The studio's shared services, and its part-2 docks (history, revisions, sessions, budget, diff).
    StudioServices *studioServices() const { return m_studio; }
    HistoryDocks *historyDocks() const { return m_historyDocks; }
    // The Experiment tab beside the spec (issue 18), its menu and File › Open Experiment.
    ExperimentsHost *experiments() const { return m_experiments; }

    // The View menu's entry for a panel: it shows the panel and brings it to the front, never
    // hides it (the Show/Hide Panels submenu holds the toggles). Other parts add theirs here.
    QAction *addPanelAction(QDockWidget *dock, const QString &text, const QKeySequence &key);
    QAction *panelAction(QDockWidget *dock) const { return m_panelActions.value(dock); }
    QMenu *viewMenu() const { return m_viewMenu; }
    void showPanel(QDockWidget *dock);
    // Help > Keyboard Shortcuts: every command with a shortcut, from the menus.
    QAction *shortcutsAction() const { return m_shortcutsAction; }
    void showShortcuts();
    QAction *documentationAction() const { return m_docsAction; }
    // Help > Documentation: the docs/ pages in a window of their own.
    void showDocumentation();
    // (menu path, shortcut) of every menu command that has one, in menu order.
    QList<std::pair<QString, QString>> shortcutList() const;

    QStringList recentFiles() const;
    QString aboutText() const;

    // File > Open Sample: the bundled samples (names such as "planner"). A sample is copied
    // out of the program into the data folder the first time, with its recording and input
    // beside it, so it runs offline and can be edited and saved. False when it cannot be.
    static QStringList sampleNames();
    bool openSample(const QString &name);

    static constexpr int kMaxRecentFiles = 8;

    // --- Document tabs and menus for the window's parts (issue 17; kept apart for merging).
    // The tabs in the window's centre; openDocumentTab adds `page` as a closable tab (or
    // switches to it when it is there already) and returns its index.
    QTabWidget *documentTabs() const;
    int openDocumentTab(QWidget *page, const QString &title);
    QMenu *fileMenu() const { return m_fileMenu; }
    QMenu *editMenu() const { return m_editMenu; }
    QMenu *helpMenu() const { return m_helpMenu; }

Q_SIGNALS:
    // The editor's text was read again (currentSpec() may have changed, or become invalid).
    void specReread();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void createStatusBar();
    void readSettings();
    void writeSettings() const;

    void addRecentFile(const QString &path);
    void removeRecentFile(const QString &path);
    void rebuildRecentMenu();

    void showOpenDialog();
    void save();
    void showSaveAsDialog(const std::function<void()> &afterSave = {});
    // Runs `proceed` once unsaved changes are saved or discarded; not at all on Cancel.
    void confirmDiscard(const std::function<void()> &proceed);
    void showAbout();
    void jumpToFinding(const QModelIndex &index);
    void updateTitle();
    void updateCursorLabel();
    void setCurrentFile(const QString &path);
    // Studio part 1: form <-> text sync and the run panel.
    void createStudio();
    void syncFormFromText(bool resetHistory);
    void syncTextFromForm();
    std::optional<Spec> specForRun();

    SpecView *m_specView = nullptr;
    FindingsModel *m_findings = nullptr;
    QTableView *m_findingsView = nullptr;
    QDockWidget *m_findingsDock = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_editMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_panelsMenu = nullptr;
    QAction *m_panelsEnd = nullptr;
    QAction *m_shortcutsAction = nullptr;
    QAction *m_docsAction = nullptr;
    QHash<QDockWidget *, QAction *> m_panelActions;
    QLabel *m_countsLabel = nullptr;
    QLabel *m_engineLabel = nullptr;
    QLabel *m_cursorLabel = nullptr;

    QAction *m_newAction = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_lintAction = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QActionGroup *m_lintTargetGroup = nullptr;

    QTimer m_revalidateTimer;
    StudioServices *m_studio = nullptr;
    Options m_options;
    HistoryDocks *m_historyDocks = nullptr;
    ExperimentsHost *m_experiments = nullptr;
    SpecFormEditor *m_form = nullptr;
    RunPanel *m_runPanel = nullptr;
    QDockWidget *m_runDock = nullptr;
    QTabWidget *m_centralTabs = nullptr;
    QTimer m_formSyncTimer;
    bool m_syncing = false;
    QString m_path;
    std::optional<Spec> m_spec;
    std::optional<EngineType> m_lintTargetOverride;
    bool m_closeConfirmed = false;
    bool m_closingAfterCalls = false; // close() waits for the cancelled calls to be stored
    bool m_closeAnyway = false;
};

} // namespace Callscope
