#pragma once

// The main window: a workspace of documents. Each open spec is a tab in the centre (its form
// and JSON text on the left, its own run view on the right); other pages (an experiment, a
// stored call) open as tabs beside them. The sidebar on the left holds the workspace folder's
// spec files and the recent files, with History and Sessions as tabs beside it. The findings
// of the spec in front are listed once, in a dock below; menus and a status bar around it.

#include "core/model/spec.h"
#include "ui/window/documentmanager.h"
#include "ui/window/filesdock.h"
#include "ui/window/findingsdock.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QFileSystemModel;
class QLabel;
class QListWidget;
class QMenu;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;
class QTreeView;

namespace Callscope {

class JsonEditor;
class NoticeBar;
class RunPanel;
class SpecDocument;
class SpecFindingsModel;
class SpecFormEditor;
class SpecTab;
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

    // Opens the file in a tab of its own (a file already open: its tab comes to the front) and
    // lists its findings. False when the file cannot be read (the message bar says why); a file
    // that is not a valid spec opens, with its errors listed.
    bool openSpecFile(const QString &path) { return m_documents->openSpecFile(path); }
    // Opens an unsaved spec from a template in a new tab.
    void newSpec() { m_documents->newSpec(); }
    // Writes the current spec's text to `path`, which becomes its file; the error otherwise.
    std::optional<QString> saveToFile(const QString &path) { return m_documents->saveToFile(path); }
    // Checks the current spec's text now (normally done shortly after each edit).
    void revalidate();

    // The document in front (the spec tab shown, or the last spec tab shown when another page
    // is in front), and every open one.
    SpecDocument *currentDocument() const { return m_documents->currentDocument(); }
    QList<SpecDocument *> documents() const { return m_documents->documents(); }
    SpecTab *currentSpecTab() const { return m_documents->currentSpecTab(); }
    SpecTab *specTab(SpecDocument *document) const { return m_documents->specTab(document); }
    QString currentFile() const { return m_documents->currentFile(); }
    bool isModified() const;
    std::optional<Spec> currentSpec() const;
    // The engine type lint checks against: the chosen one, else the spec's own.
    EngineType lintTarget() const;
    void setLintTargetOverride(std::optional<EngineType> type);

    // The tabs in the centre: one per open spec, and any other page opened with openDocumentTab.
    QTabWidget *documentTabs() const { return m_documentTabs; }
    // Adds `page` as a closable tab (or brings it to the front when it is one already) and
    // returns its index. Closing the tab deletes the page, unless its property
    // "keepWhenClosed" is true (it is then only taken out of the tabs, to come back later).
    int openDocumentTab(QWidget *page, const QString &title)
    {
        return m_documents->openDocumentTab(page, title);
    }
    // Closes a tab; a spec with unsaved changes asks first (then `done` runs, or not at all on
    // Cancel).
    void closeDocumentTab(int index, const std::function<void()> &done = {})
    {
        m_documents->closeDocumentTab(index, done);
    }

    // The current spec tab's views.
    SpecFormEditor *specForm() const;
    JsonEditor *jsonView() const;
    QTabWidget *editorTabs() const;
    // Before the first show: a window as large as the screen's free area (or larger, from a
    // bigger screen or the default 1280x800 on a 1280x800 screen, where the window manager's
    // title bar and panels do not leave room) is shown maximized, so nothing is off screen.
    void fitToScreen();
    NoticeBar *messageBar() const;
    RunPanel *runPanel() const;
    SpecFindingsModel *findingsModel() const { return m_findingsDock->model(); }
    QTableView *findingsView() const { return m_findingsDock->view(); }
    QDockWidget *findingsDock() const { return m_findingsDock; }
    QAction *aboutAction() const { return m_aboutAction; }
    // The sidebar's Files page: the workspace folder's spec files and the recent files.
    QDockWidget *filesDock() const { return m_filesDock; }
    QTreeView *workspaceView() const { return m_filesDock->workspaceView(); }
    QListWidget *recentList() const { return m_filesDock->recentList(); }
    QString workspaceFolder() const { return m_filesDock->workspaceFolder(); }
    void setWorkspaceFolder(const QString &folder) { m_filesDock->setWorkspaceFolder(folder); }
    // The studio's shared services, and the docks of stored calls (history, revisions, sessions,
    // budget, diff).
    StudioServices *studioServices() const { return m_studio; }
    HistoryDocks *historyDocks() const { return m_historyDocks; }
    // The Experiment tab, its menu and File › Open Experiment.
    ExperimentsHost *experiments() const { return m_experiments; }

    // The View menu's entry for a panel: it shows the panel and brings it to the front, never
    // hides it (the Show/Hide Panels submenu holds the toggles). Other parts add theirs here.
    QAction *addPanelAction(QDockWidget *dock, const QString &text, const QKeySequence &key);
    QAction *panelAction(QDockWidget *dock) const { return m_panelActions.value(dock); }
    void showPanel(QDockWidget *dock);
    // Help > Keyboard Shortcuts: every command with a shortcut, from the menus.
    QAction *shortcutsAction() const { return m_shortcutsAction; }
    void showShortcuts();
    QAction *documentationAction() const { return m_docsAction; }
    // Help > Documentation: the docs/ pages in a window of their own.
    void showDocumentation();
    // (menu path, shortcut) of every menu command that has one, in menu order.
    QList<std::pair<QString, QString>> shortcutList() const;

    QStringList recentFiles() const { return m_documents->recentFiles(); }
    QString aboutText() const;

    // File > Open Sample: the bundled samples (names such as "planner"). A sample is copied
    // out of the program into the data folder the first time, with its recording and input
    // beside it, so it runs offline and can be edited and saved. False when it cannot be.
    static QStringList sampleNames() { return DocumentManager::sampleNames(); }
    bool openSample(const QString &name) { return m_documents->openSample(name); }

    static constexpr int kMaxRecentFiles = DocumentManager::kMaxRecentFiles;

    // The window's menus, for the parts that add their commands to them.
    QMenu *fileMenu() const { return m_fileMenu; }
    QMenu *editMenu() const { return m_editMenu; }
    QMenu *helpMenu() const { return m_helpMenu; }

Q_SIGNALS:
    // The current spec was read again, or another spec came to the front (currentSpec() may
    // have changed, or become invalid).
    void specReread();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    void fitSidebar(QDockWidget *dock);
    void makeRoomForRun();
    void createStatusBar();
    void readSettings();
    void writeSettings() const;

    void rebuildRecentMenu();
    void showAbout();
    void updateTitle();
    void updateCursorLabel();
    void updateFindings();
    void updateRunMenu();
    void onCurrentTabChanged();
    // The tab factory of the document manager: the tab, wired to the window.
    SpecTab *addSpecTab(SpecDocument *document);

    FindingsDock *m_findingsDock = nullptr;
    FilesDock *m_filesDock = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_runMenu = nullptr;
    QMenu *m_breakpointsMenu = nullptr;
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
    QAction *m_openFolderAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_revertAction = nullptr;
    QAction *m_closeTabAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_lintAction = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QAction *m_wrapAction = nullptr;
    QActionGroup *m_lintTargetGroup = nullptr;

    StudioServices *m_studio = nullptr;
    Options m_options;
    HistoryDocks *m_historyDocks = nullptr;
    ExperimentsHost *m_experiments = nullptr;
    QTabWidget *m_documentTabs = nullptr;
    DocumentManager *m_documents = nullptr;
    std::optional<EngineType> m_lintTargetOverride;
    bool m_closeConfirmed = false;
    bool m_closingAfterCalls = false; // close() waits for the cancelled calls to be stored
    bool m_closeAnyway = false;
};

} // namespace Callscope
