#include "ui/window/mainwindow.h"

#include "core/service/appcontext.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/store/database.h"
#include "ui/editor/specdocument.h"
#include "ui/editor/specformeditor.h"
#include "ui/experiments/experimentview.h"
#include "ui/run/runpanel.h"
#include "ui/run/transcriptmodel.h"
#include "ui/sessions/sessionview.h"
#include "ui/widgets/dialogs.h"
#include "ui/widgets/displaynames.h"
#include "ui/widgets/jobsbutton.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/sharedhistorylabel.h"
#include "ui/widgets/studioservices.h"
#include "ui/window/experimentshost.h"
#include "ui/window/findingsdock.h"
#include "ui/window/helpdialogs.h"
#include "ui/window/historydocks.h"
#include "ui/window/spectab.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

const QString kGeometryKey = u"mainWindow/geometry"_s;
const QString kStateKey = u"mainWindow/state"_s;
constexpr int kSidebarWidth = 200;
constexpr int kWideSidebarWidth = 330;
// The dock layout's version: layouts saved before the sidebar (a Run dock, History on the
// right) are not restored over it.
constexpr int kStateVersion = 2;

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(Options(), parent)
{ }

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent)
    , m_options(options)
{
    if (m_options.context) // the history it opened is the one the status bar names
        m_options.databasePath = m_options.context->usesDefaultDatabase()
            ? QString()
            : m_options.context->databasePath();
    setObjectName(u"mainWindow"_s);
    setWindowIcon(QIcon::fromTheme(u"applications-development"_s));
    setDockNestingEnabled(true);
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
    // Every JSON view uses KF6 SyntaxHighlighting when it is there.
    JsonEditor::setHighlighterFactory(
        [](QTextDocument *document, const QPalette &palette) -> QSyntaxHighlighter * {
            static KSyntaxHighlighting::Repository repository;
            auto *highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
            highlighter->setDefinition(repository.definitionForName(u"JSON"_s));
            highlighter->setTheme(
                repository.defaultTheme(palette.color(QPalette::Base).lightness() < 128
                                            ? KSyntaxHighlighting::Repository::DarkTheme
                                            : KSyntaxHighlighting::Repository::LightTheme));
            return highlighter;
        });
#endif
    m_studio = m_options.context ? new StudioServices(m_options.context, this)
                                 : new StudioServices(m_options.databasePath, this);

    m_documentTabs = new QTabWidget(this);
    m_documentTabs->setObjectName(u"documentTabs"_s);
    m_documentTabs->setAccessibleName(tr("Open documents"));
    m_documentTabs->setDocumentMode(true);
    m_documentTabs->setTabsClosable(true);
    m_documentTabs->setMovable(true);
    m_documentTabs->tabBar()->setExpanding(false);
    // Many open tabs scroll (the arrows at the end of the strip) instead of shrinking every
    // title to a few letters.
    m_documentTabs->tabBar()->setElideMode(Qt::ElideNone);
    m_documentTabs->tabBar()->setUsesScrollButtons(true);
    setCentralWidget(m_documentTabs);
    // Made before the window follows the current tab, so the spec tab in front is known first.
    m_documents = new DocumentManager(m_documentTabs, m_studio, this);
    m_documents->setTabFactory([this](SpecDocument *document) { return addSpecTab(document); });
    m_documents->setExperimentOpener(
        [this](const QString &path) { return m_experiments && m_experiments->openFile(path); });
    connect(m_documents, &DocumentManager::hint, this, [this](const QString &text, int timeoutMs) {
        statusBar()->showMessage(text, timeoutMs);
    });
    connect(m_documents, &DocumentManager::recentFilesChanged, this,
            &MainWindow::rebuildRecentMenu);
    connect(m_documents, &DocumentManager::documentShown, this, &MainWindow::onCurrentTabChanged);
    connect(m_documents, &DocumentManager::documentClosed, this, &MainWindow::onCurrentTabChanged);
    connect(m_documents, &DocumentManager::documentSaved, this, &MainWindow::updateTitle);
    connect(m_documentTabs, &QTabWidget::tabCloseRequested, this,
            [this](int index) { m_documents->closeDocumentTab(index); });
    connect(m_documentTabs, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);

    createActions();
    m_findingsDock = new FindingsDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, m_findingsDock);
    connect(m_findingsDock, &FindingsDock::findingActivated, this,
            [this](const QString &pointer, int line, int column) {
                if (SpecTab *tab = currentSpecTab()) {
                    m_documentTabs->setCurrentWidget(tab);
                    tab->revealFinding(pointer, line, column);
                }
            });
    m_filesDock = new FilesDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, m_filesDock);
    m_documents->setStartFolder(m_filesDock->workspaceFolder());
    connect(m_filesDock, &FilesDock::fileActivated, this, &MainWindow::openSpecFile);
    connect(m_filesDock, &FilesDock::workspaceFolderChanged, m_documents,
            &DocumentManager::setStartFolder);
    connect(m_filesDock, &FilesDock::folderChosen, this, [this] { showPanel(m_filesDock); });
    createMenus();
    createStatusBar();
    m_historyDocks = new HistoryDocks(this); // history, revisions, sessions, budget, diff
    m_experiments =
        new ExperimentsHost(this); // the Experiment tab; its cells open calls in History
    // The sidebar: Files, History and Sessions as tabs on the left; the spec tabs keep the centre.
    tabifyDockWidget(m_filesDock, m_historyDocks->historyDock());
    tabifyDockWidget(m_historyDocks->historyDock(), m_historyDocks->sessionsDock());
    m_filesDock->raise();
    // The sidebar takes the width its page needs: narrow for the files, wider for History and
    // Sessions (the spec tab scrolls meanwhile if it must).
    for (QDockWidget *dock : { static_cast<QDockWidget *>(m_filesDock),
                               m_historyDocks->historyDock(), m_historyDocks->sessionsDock() }) {
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (visible)
                QTimer::singleShot(0, this, [this, dock] { fitSidebar(dock); });
        });
    }
    resizeDocks({ m_filesDock }, { kSidebarWidth }, Qt::Horizontal);
    // The calls' own views come up when a call is opened; until then the spec and its run keep
    // the height (the Findings stay).
    for (QDockWidget *dock : { m_historyDocks->revisionsDock(), m_historyDocks->budgetDock(),
                               m_historyDocks->diffDock() })
        dock->hide();
    resizeDocks({ m_findingsDock }, { 110 }, Qt::Vertical);
    if (SessionView *sessions = m_historyDocks->sessions()) {
        // A session turn that waits for an approval comes forward, with a badge on its tab for
        // when History (or anything else) is brought over it.
        connect(sessions, &SessionView::attentionNeeded, this, [this] {
            m_historyDocks->sessionsDock()->show();
            m_historyDocks->sessionsDock()->raise();
        });
        connect(sessions, &SessionView::waitingChanged, this, [this](bool waiting) {
            m_historyDocks->sessionsDock()->setWindowTitle(
                waiting ? tr("Sessions ● waiting for you") : tr("Sessions"));
        });
    }

    resize(1280, 800);
    readSettings();
    newSpec();
}

MainWindow::~MainWindow()
{
    // Tabs removed while the window's children go must not reach a half-gone window.
    disconnect(m_documentTabs, nullptr, this, nullptr);
    disconnect(m_documentTabs, nullptr, m_documents, nullptr);
}

void MainWindow::createActions()
{
    m_newAction = new QAction(QIcon::fromTheme(u"document-new"_s), tr("&New Spec"), this);
    m_newAction->setShortcut(QKeySequence::New);
    m_newAction->setStatusTip(tr("Start a new spec from a template, in a tab of its own"));
    connect(m_newAction, &QAction::triggered, this, &MainWindow::newSpec);

    m_openAction = new QAction(QIcon::fromTheme(u"document-open"_s), tr("&Open…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a spec file in a tab of its own"));
    connect(m_openAction, &QAction::triggered, m_documents, &DocumentManager::showOpenDialog);

    m_openFolderAction = new QAction(QIcon::fromTheme(u"folder-open"_s), tr("Open &Folder…"), this);
    m_openFolderAction->setStatusTip(
        tr("List a folder's spec files and experiments in the sidebar"));
    connect(m_openFolderAction, &QAction::triggered, this,
            [this] { m_filesDock->showOpenFolderDialog(); });

    m_saveAction = new QAction(QIcon::fromTheme(u"document-save"_s), tr("&Save"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Save the spec"));
    connect(m_saveAction, &QAction::triggered, m_documents, &DocumentManager::save);

    m_saveAsAction = new QAction(QIcon::fromTheme(u"document-save-as"_s), tr("Save &As…"), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    m_saveAsAction->setStatusTip(tr("Save the spec under a new name"));
    connect(m_saveAsAction, &QAction::triggered, this, [this] { m_documents->showSaveAsDialog(); });

    m_revertAction = new QAction(QIcon::fromTheme(u"document-revert"_s), tr("Re&vert"), this);
    m_revertAction->setStatusTip(tr("Read the spec's file again, dropping the unsaved changes"));
    connect(m_revertAction, &QAction::triggered, m_documents, &DocumentManager::revert);

    m_closeTabAction = new QAction(QIcon::fromTheme(u"document-close"_s), tr("&Close Tab"), this);
    m_closeTabAction->setShortcut(QKeySequence::Close);
    m_closeTabAction->setStatusTip(tr("Close the tab in front"));
    connect(m_closeTabAction, &QAction::triggered, this, [this] {
        if (m_documentTabs->currentIndex() >= 0)
            closeDocumentTab(m_documentTabs->currentIndex());
    });

    m_quitAction = new QAction(QIcon::fromTheme(u"application-exit"_s), tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    // One history per spec, for the form and the text alike.
    m_undoAction = new QAction(QIcon::fromTheme(u"edit-undo"_s), tr("&Undo"), this);
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setEnabled(false);
    connect(m_undoAction, &QAction::triggered, this, [this] {
        if (SpecDocument *document = currentDocument()) {
            if (SpecFormEditor *form = specForm())
                form->flushPendingEdits();
            document->undoStack()->undo();
        }
    });

    m_redoAction = new QAction(QIcon::fromTheme(u"edit-redo"_s), tr("&Redo"), this);
    m_redoAction->setShortcut(QKeySequence::Redo);
    m_redoAction->setEnabled(false);
    connect(m_redoAction, &QAction::triggered, this, [this] {
        if (SpecDocument *document = currentDocument())
            document->undoStack()->redo();
    });

    m_lintAction = new QAction(tr("&Lint Now"), this);
    m_lintAction->setShortcut(QKeySequence(Qt::Key_F7));
    m_lintAction->setStatusTip(tr("Check the spec and list its findings"));
    connect(m_lintAction, &QAction::triggered, this, &MainWindow::revalidate);

    m_runAction = new QAction(QIcon::fromTheme(u"media-playback-start"_s), tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setStatusTip(tr("Run the spec in front on the input in its run view"));
    connect(m_runAction, &QAction::triggered, this, [this] {
        SpecTab *tab = currentSpecTab();
        if (!tab)
            return;
        m_documentTabs->setCurrentWidget(tab);
        tab->runPanel()->run();
    });

    m_aboutAction = new QAction(QIcon::fromTheme(u"help-about"_s), tr("&About Callscope"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);

    m_lintTargetGroup = new QActionGroup(this);
    m_lintTargetGroup->setExclusive(true);
}

void MainWindow::fitSidebar(QDockWidget *dock)
{
    if (!dock->isVisible() || dockWidgetArea(dock) != Qt::LeftDockWidgetArea || dock->isFloating())
        return;
    int wanted = kSidebarWidth;
    if (dock != m_filesDock) {
        QWidget *content = dock->widget();
        if (auto *scroll = qobject_cast<QScrollArea *>(content); scroll && scroll->widget())
            content = scroll->widget();
        wanted = std::max(wanted,
                          content->minimumSizeHint().width()
                              + 2 * dock->style()->pixelMetric(QStyle::PM_DefaultFrameWidth) + 4);
        // History never so wide that the spec beside it has to scroll at 1280 px (a session's
        // chat takes what it needs, as its turns are read there).
        if (dock == m_historyDocks->historyDock())
            wanted = std::min(wanted, kWideSidebarWidth);
    }
    if (dock->width() != wanted)
        resizeDocks({ dock }, { wanted }, Qt::Horizontal);
}

void MainWindow::makeRoomForRun()
{
    // The sidebar keeps the width the person gave it unless the run view beside it would be cut
    // off: then it gives up what the run view lacks (down to its narrow width).
    SpecTab *tab = currentSpecTab();
    QWidget *runRoom = tab ? tab->runPanel()->parentWidget() : nullptr;
    const int lacking = runRoom ? tab->runPanel()->minimumSizeHint().width() - runRoom->width() : 0;
    if (lacking > 0) {
        for (QDockWidget *dock :
             { static_cast<QDockWidget *>(m_filesDock), m_historyDocks->historyDock(),
               m_historyDocks->sessionsDock() }) {
            if (!dock->isVisible() || dock->isFloating()
                || dockWidgetArea(dock) != Qt::LeftDockWidgetArea)
                continue;
            const int narrower = std::max(kSidebarWidth, dock->width() - lacking);
            if (narrower < dock->width())
                resizeDocks({ dock }, { narrower }, Qt::Horizontal);
            break;
        }
    }
    // Panels below the spec dragged tall give back room, so what waits for the person (an
    // approval with its arguments) is whole in the run view: they keep at most a quarter of the
    // window's height while it does.
    QList<QDockWidget *> bottom;
    QList<int> heights;
    const int most = height() / 4;
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        if (dock->isVisible() && !dock->isFloating()
            && dockWidgetArea(dock) == Qt::BottomDockWidgetArea && dock->height() > most) {
            bottom.append(dock);
            heights.append(most);
        }
    }
    if (!bottom.isEmpty())
        resizeDocks(bottom, heights, Qt::Vertical);
}

void MainWindow::createMenus()
{
    QMenu *file = m_fileMenu = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newAction);
    file->addAction(m_openAction);
    file->addAction(m_openFolderAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    // The samples run offline on the replay engine: the quickest way to see what Callscope does.
    QMenu *samples = file->addMenu(tr("Open &Sample"));
    samples->setObjectName(u"samplesMenu"_s);
    const QHash<QString, QString> sampleText {
        { u"lunar-landing"_s, tr("Lunar landing: extraction into a strict schema, with a reask") },
        { u"planner"_s, tr("Planner: a tool loop, with an approval") },
        { u"refusal"_s, tr("Refusal: the model refuses") }
    };
    for (const QString &name : sampleNames()) {
        QAction *action = samples->addAction(sampleText.value(name, name));
        action->setObjectName(u"openSample_"_s + name);
        action->setStatusTip(
            tr("Open the bundled sample %1; it runs offline, with no key").arg(name));
        connect(action, &QAction::triggered, this, [this, name] { openSample(name); });
    }
    file->addSeparator();
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addAction(m_revertAction);
    file->addSeparator();
    file->addAction(m_closeTabAction);
    file->addAction(m_quitAction);
    rebuildRecentMenu();

    QMenu *edit = m_editMenu = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);
    edit->addSeparator();
    // The clipboard commands act on the text field that has the focus.
    auto onFocus = [](const char *slot) {
        return [slot] {
            if (QWidget *focus = QApplication::focusWidget())
                QMetaObject::invokeMethod(focus, slot);
        };
    };
    QAction *cut =
        edit->addAction(QIcon::fromTheme(u"edit-cut"_s), tr("Cu&t"), this, onFocus("cut"));
    cut->setShortcut(QKeySequence::Cut);
    cut->setShortcutContext(Qt::WidgetShortcut); // the field's own Ctrl+X does the work
    QAction *copy =
        edit->addAction(QIcon::fromTheme(u"edit-copy"_s), tr("&Copy"), this, onFocus("copy"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    QAction *paste =
        edit->addAction(QIcon::fromTheme(u"edit-paste"_s), tr("&Paste"), this, onFocus("paste"));
    paste->setShortcut(QKeySequence::Paste);
    paste->setShortcutContext(Qt::WidgetShortcut);
    edit->addSeparator();
    QAction *selectAll = edit->addAction(tr("Select &All"), this, onFocus("selectAll"));
    selectAll->setShortcut(QKeySequence::SelectAll);
    selectAll->setShortcutContext(Qt::WidgetShortcut);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_panelsMenu = new QMenu(tr("Show or Hide &Panels"), m_viewMenu);
    m_panelsMenu->setObjectName(u"panelsMenu"_s);
    m_panelsEnd = m_viewMenu->addSeparator();
    m_viewMenu->addMenu(m_panelsMenu);
    m_viewMenu->addSeparator();
    addPanelAction(m_findingsDock, tr("Findings"), QKeySequence(Qt::CTRL | Qt::Key_1));
    // The run view lives in each spec tab: the shortcut brings the spec's tab forward.
    QAction *runView = new QAction(tr("Run View"), this);
    runView->setObjectName(u"runViewAction"_s);
    runView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    runView->setStatusTip(tr("Bring the run view of the spec in front forward"));
    connect(runView, &QAction::triggered, this, [this] {
        if (SpecTab *tab = currentSpecTab()) {
            m_documentTabs->setCurrentWidget(tab);
            tab->runPanel()->setFocus(Qt::ShortcutFocusReason);
        }
    });
    m_viewMenu->insertAction(m_panelsEnd, runView);
    addPanelAction(m_filesDock, tr("Files"), QKeySequence(Qt::CTRL | Qt::Key_8));
    m_wrapAction = m_viewMenu->addAction(tr("&Wrap Long Lines"));
    m_wrapAction->setCheckable(true);
    connect(m_wrapAction, &QAction::toggled, this, [this](bool on) {
        for (SpecDocument *document : documents()) {
            if (SpecTab *tab = specTab(document))
                tab->jsonView()->setLineWrapMode(on ? QPlainTextEdit::WidgetWidth
                                                    : QPlainTextEdit::NoWrap);
        }
    });

    m_runMenu = menuBar()->addMenu(tr("&Run"));
    m_runMenu->setObjectName(u"runMenu"_s);
    updateRunMenu();

    QMenu *help = m_helpMenu = menuBar()->addMenu(tr("&Help"));
    m_docsAction = help->addAction(tr("&Documentation"), this, &MainWindow::showDocumentation);
    m_docsAction->setObjectName(u"documentationAction"_s);
    m_docsAction->setShortcut(QKeySequence::HelpContents);
    m_docsAction->setStatusTip(
        tr("Read how Callscope works: the spec format, the command line, the export format"));
    m_shortcutsAction =
        help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    m_shortcutsAction->setObjectName(u"shortcutsAction"_s);
    m_shortcutsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    m_shortcutsAction->setStatusTip(tr("List every command that has a keyboard shortcut"));
    help->addSeparator();
    help->addAction(m_aboutAction);
    QAction *aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

QAction *MainWindow::addPanelAction(QDockWidget *dock, const QString &text, const QKeySequence &key)
{
    auto *action = new QAction(text, this);
    action->setObjectName(dock->objectName() + u"PanelAction"_s);
    action->setShortcut(key);
    action->setStatusTip(tr("Bring the %1 panel to the front").arg(text));
    connect(action, &QAction::triggered, this, [this, dock] { showPanel(dock); });
    m_viewMenu->insertAction(m_panelsEnd, action);
    QAction *toggle = dock->toggleViewAction();
    toggle->setShortcut(QKeySequence());
    toggle->setText(text);
    m_panelsMenu->addAction(toggle);
    m_panelActions.insert(dock, action);
    return action;
}

void MainWindow::showPanel(QDockWidget *dock)
{
    dock->show();
    dock->raise();
    if (QWidget *content = dock->widget())
        content->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::createStatusBar()
{
    m_countsLabel = new QLabel(this);
    m_engineLabel = new QLabel(this);
    m_cursorLabel = new QLabel(this);
    m_countsLabel->setObjectName(u"countsLabel"_s);
    m_engineLabel->setObjectName(u"engineLabel"_s);
    // Calls in flight from every panel, each one cancellable.
    statusBar()->addPermanentWidget(new JobsButton(m_studio->calls(), this));
    // Calls that wait in the local queue of a shared history the studio could not reach.
    statusBar()->addPermanentWidget(
        new SharedHistoryLabel(m_studio->calls(), m_options.databasePath, this));
    statusBar()->addPermanentWidget(m_countsLabel);
    statusBar()->addPermanentWidget(m_engineLabel);
    statusBar()->addPermanentWidget(m_cursorLabel);
    if (!m_options.databasePath.isEmpty()) {
        // Another history than the usual one (callscope --db, or a server chosen in Settings >
        // History): say which, so nobody wonders where their calls went.
        QString name;
        QString where;
        if (isServerLocation(m_options.databasePath)) {
            const QUrl url(m_options.databasePath);
            name = u"%1@%2%3"_s.arg(url.userName(), url.host(), url.path());
            where = url.toString(QUrl::RemovePassword);
        } else {
            name = QFileInfo(m_options.databasePath).fileName();
            where = QDir::toNativeSeparators(QFileInfo(m_options.databasePath).absoluteFilePath());
        }
        const QString readOnly = m_studio->context()->historyReadOnlyReason();
        auto *history = new QLabel(readOnly.isEmpty() ? tr("History: %1").arg(name)
                                                      : tr("History: %1 (read-only)").arg(name),
                                   this);
        history->setObjectName(u"historyFileLabel"_s);
        history->setToolTip(readOnly.isEmpty() ? where : where + u"\n"_s + readOnly);
        statusBar()->addPermanentWidget(history);
    }
    updateCursorLabel();
}

void MainWindow::readSettings()
{
    QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = settings.value(kStateKey).toByteArray();
    if (!state.isEmpty())
        restoreState(state, kStateVersion);
}

void MainWindow::fitToScreen()
{
    const QScreen *screen = this->screen();
    if (!screen || isMaximized() || isFullScreen())
        return;
    const QRect available = screen->availableGeometry();
    // The frame and title bar come on top of the geometry; leave room for them.
    constexpr int kFrameWidth = 16;
    constexpr int kFrameHeight = 48;
    const QRect frame = geometry().adjusted(-kFrameWidth / 2, -kFrameHeight, kFrameWidth / 2, 0);
    if (frame.width() <= available.width() && frame.height() <= available.height()) {
        if (!available.contains(frame)) // the right size, somewhere off screen: bring it in
            move(available.topLeft() + QPoint(kFrameWidth / 2, kFrameHeight));
        return;
    }
    resize(std::min(width(), available.width() - kFrameWidth),
           std::min(height(), available.height() - kFrameHeight));
    move(available.topLeft() + QPoint(kFrameWidth / 2, kFrameHeight));
    setWindowState(windowState() | Qt::WindowMaximized);
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kStateVersion));
    if (SpecTab *tab = currentSpecTab()) {
        tab->form()->saveState();
        tab->runPanel()->saveState();
        settings.setValue(u"mainWindow/specTabSplitter"_s, tab->splitter()->saveState());
    }
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    const QStringList names = distinctFileLabels(files);
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString path = files.at(i);
        QString name = names.at(i);
        name.replace(u'&', u"&&"_s);
        const QString label = tr("&%1 %2").arg(i + 1).arg(name);
        QAction *action = m_recentMenu->addAction(label);
        action->setToolTip(path);
        action->setStatusTip(path);
        action->setData(path);
        connect(action, &QAction::triggered, this, [this, path] { openSpecFile(path); });
    }
    m_filesDock->setRecentFiles(files);
    if (!files.isEmpty())
        m_recentMenu->addSeparator();
    QAction *clear = m_recentMenu->addAction(tr("&Clear List"));
    clear->setEnabled(!files.isEmpty());
    connect(clear, &QAction::triggered, m_documents, &DocumentManager::clearRecentFiles);
}

// ---- documents and tabs -------------------------------------------------------------------

bool MainWindow::isModified() const
{
    SpecDocument *document = currentDocument();
    return document && document->isModified();
}

std::optional<Spec> MainWindow::currentSpec() const
{
    SpecDocument *document = currentDocument();
    return document ? document->spec() : std::nullopt;
}

SpecFormEditor *MainWindow::specForm() const
{
    SpecTab *tab = currentSpecTab();
    return tab ? tab->form() : nullptr;
}

JsonEditor *MainWindow::jsonView() const
{
    SpecTab *tab = currentSpecTab();
    return tab ? tab->jsonView() : nullptr;
}

QTabWidget *MainWindow::editorTabs() const
{
    SpecTab *tab = currentSpecTab();
    return tab ? tab->editorTabs() : nullptr;
}

NoticeBar *MainWindow::messageBar() const
{
    SpecTab *tab = currentSpecTab();
    return tab ? tab->messageBar() : nullptr;
}

RunPanel *MainWindow::runPanel() const
{
    SpecTab *tab = currentSpecTab();
    return tab ? tab->runPanel() : nullptr;
}

SpecTab *MainWindow::addSpecTab(SpecDocument *document)
{
    if (m_lintTargetOverride)
        document->setLintTargetOverride(m_lintTargetOverride);
    auto *tab = new SpecTab(document, m_studio, m_documentTabs);
    tab->jsonView()->setLineWrapMode(m_wrapAction && m_wrapAction->isChecked()
                                         ? QPlainTextEdit::WidgetWidth
                                         : QPlainTextEdit::NoWrap);
    const QByteArray splitter = QSettings().value(u"mainWindow/specTabSplitter"_s).toByteArray();
    if (splitter.isEmpty() || !tab->splitter()->restoreState(splitter))
        tab->splitter()->setSizes({ 455, 615 });
    tab->form()->restoreState();
    RunPanel *panel = tab->runPanel();
    // What needs the person comes forward: a run that starts or stops for a decision.
    connect(panel, &RunPanel::runStarted, this, [this, tab] {
        // What was current when the run started: if the person picks another call meanwhile,
        // the finished run does not take it away.
        tab->setProperty("currentCallAtStart", m_historyDocks->currentCallId());
        m_documentTabs->setCurrentWidget(tab);
        makeRoomForRun();
        if (tab == currentSpecTab())
            m_runAction->setEnabled(false);
    });
    connect(panel, &RunPanel::runFinished, this, [this, tab](const LaunchResult &result) {
        if (tab == currentSpecTab())
            m_runAction->setEnabled(m_studio->context()->historyReadOnlyReason().isEmpty());
        // The call just run is the current call: History, the revision tree, the budget view
        // and the History commands all act on it now.
        if (result.stored && result.record.id > 0
            && m_historyDocks->currentCallId() == tab->property("currentCallAtStart").toLongLong())
            m_historyDocks->adoptFinishedCall(result.record.id);
    });
    connect(panel, &RunPanel::attentionNeeded, this, [this, tab] {
        if (isMinimized())
            showNormal();
        m_documentTabs->setCurrentWidget(tab);
        makeRoomForRun();
    });
    connect(document, &SpecDocument::modifiedChanged, this, [this, tab] {
        if (tab == currentSpecTab())
            updateTitle();
    });
    connect(document, &SpecDocument::pathChanged, this, [this, tab] {
        if (tab == currentSpecTab())
            updateTitle();
    });
    connect(document, &SpecDocument::checked, this, [this, tab] {
        if (tab != currentSpecTab())
            return;
        updateFindings();
        Q_EMIT specReread();
    });
    connect(document->undoStack(), &QUndoStack::canUndoChanged, this, [this, tab](bool can) {
        if (tab == currentSpecTab())
            m_undoAction->setEnabled(can);
    });
    connect(document->undoStack(), &QUndoStack::canRedoChanged, this, [this, tab](bool can) {
        if (tab == currentSpecTab())
            m_redoAction->setEnabled(can);
    });
    connect(tab->jsonView(), &QPlainTextEdit::cursorPositionChanged, this, [this, tab] {
        if (tab == currentSpecTab())
            updateCursorLabel();
    });
    return tab;
}

void MainWindow::onCurrentTabChanged()
{
    SpecTab *tab = currentSpecTab();
    SpecDocument *document = tab ? tab->document() : nullptr;
    m_undoAction->setEnabled(document && document->undoStack()->canUndo());
    m_redoAction->setEnabled(document && document->undoStack()->canRedo());
    // A history the role may only read: Run stays off, its tip says why.
    const QString readOnly = m_studio->context()->historyReadOnlyReason();
    m_runAction->setEnabled(tab && !tab->runPanel()->isRunning() && readOnly.isEmpty());
    m_runAction->setToolTip(readOnly.isEmpty() ? m_runAction->text().remove(u'&')
                                               : tr("Cannot run: %1").arg(readOnly));
    if (document && document->lintTargetOverride() != m_lintTargetOverride)
        document->setLintTargetOverride(m_lintTargetOverride);
    updateRunMenu();
    updateFindings();
    updateTitle();
    updateCursorLabel();
    Q_EMIT specReread();
}

void MainWindow::updateRunMenu()
{
    if (!m_runMenu)
        return;
    const QList<QAction *> previous = m_lintTargetGroup->actions();
    for (QAction *action : previous)
        m_lintTargetGroup->removeAction(action);
    m_runMenu->clear();
    // The submenus of the previous tab's commands (their actions are the run panel's, or go with
    // the submenu).
    const QList<QMenu *> submenus = m_runMenu->findChildren<QMenu *>(Qt::FindDirectChildrenOnly);
    for (QMenu *submenu : submenus)
        delete submenu;
    m_runMenu->addAction(m_runAction);
    RunPanel *panel = runPanel();
    if (panel) {
        // The commands of the spec in front: its run, its breakpoints.
        m_runMenu->addAction(panel->stepAction());
        m_runMenu->addAction(panel->continueAction());
        m_runMenu->addAction(panel->stopAction());
        QMenu *breakpoints = m_runMenu->addMenu(tr("&Breakpoints"));
        breakpoints->setObjectName(u"breakpointsMenu"_s);
        breakpoints->addActions(panel->breakpointActions());
        m_runMenu->addAction(panel->rawAction());
        m_runMenu->addAction(panel->attachAction());
    }
    m_runMenu->addSeparator();
    m_runMenu->addAction(m_lintAction);
    QMenu *target = m_runMenu->addMenu(tr("Lint &For"));
    QAction *own = target->addAction(tr("The Spec's Engine"));
    own->setCheckable(true);
    own->setChecked(!m_lintTargetOverride);
    m_lintTargetGroup->addAction(own);
    connect(own, &QAction::triggered, this, [this] { setLintTargetOverride(std::nullopt); });
    target->addSeparator();
    for (const QString &name : engineTypeNames()) {
        QAction *action = target->addAction(name);
        action->setCheckable(true);
        action->setData(name);
        const EngineType type = *engineTypeFromName(name);
        action->setChecked(m_lintTargetOverride == type);
        m_lintTargetGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, type] { setLintTargetOverride(type); });
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    bool unsaved = false;
    for (SpecDocument *document : documents()) {
        if (SpecTab *tab = specTab(document))
            tab->form()->flushPendingEdits();
        unsaved = unsaved || document->isModified();
    }
    if (!m_closeConfirmed && unsaved) {
        event->ignore();
        m_documents->confirmDiscardAll([this] {
            m_closeConfirmed = true;
            close();
        });
        return;
    }
    // Calls in flight are cancelled and stored as cancelled before the window goes, so nothing
    // paid for is lost without a trace; a call that does not stop within 5 s is left behind.
    CallService *calls = m_studio ? m_studio->calls() : nullptr;
    // A running experiment starts no new calls once the window closes.
    if (m_experiments)
        m_experiments->view()->stop();
    if (calls && calls->activeJobs() > 0 && !m_closeAnyway) {
        event->ignore();
        if (!m_closingAfterCalls) {
            m_closingAfterCalls = true;
            statusBar()->showMessage(tr("Cancelling the calls in flight before closing…"));
            connect(calls, &CallService::jobFinished, this, [this, calls] {
                if (calls->activeJobs() == 0)
                    QTimer::singleShot(0, this, &QWidget::close);
            });
            QTimer::singleShot(5000, this, [this] {
                m_closeAnyway = true;
                close();
            });
            calls->cancelAll();
        }
        return;
    }
    if (calls)
        calls->flushWrites();
    writeSettings();
    event->accept();
}

EngineType MainWindow::lintTarget() const
{
    if (m_lintTargetOverride)
        return *m_lintTargetOverride;
    SpecDocument *document = currentDocument();
    return document ? document->lintTarget() : EngineType::OpenAI;
}

void MainWindow::setLintTargetOverride(std::optional<EngineType> type)
{
    m_lintTargetOverride = type;
    const QString name = type ? engineTypeName(*type) : QString();
    for (QAction *action : m_lintTargetGroup->actions())
        action->setChecked(action->data().toString() == name);
    for (SpecDocument *document : documents())
        document->setLintTargetOverride(type);
}

void MainWindow::revalidate()
{
    SpecTab *tab = currentSpecTab();
    if (!tab)
        return;
    tab->form()->flushPendingEdits();
    tab->document()->recheck();
}

void MainWindow::updateFindings()
{
    SpecDocument *document = currentDocument();
    m_findingsDock->setFindings(document ? document->findings() : QList<SpecFinding>());
    const SpecFindingsModel *findings = m_findingsDock->model();
    const int errors = findings->count(SpecFinding::Severity::Error);
    const int warnings = findings->count(SpecFinding::Severity::Warning);
    const int infos = findings->count(SpecFinding::Severity::Info);
    m_countsLabel->setText(tr("%n error(s)", nullptr, errors) + u", "_s
                           + tr("%n warning(s)", nullptr, warnings) + u", "_s
                           + tr("%n note(s)", nullptr, infos));
    m_engineLabel->setText(tr("Advice for: %1 engine").arg(engineTypeName(lintTarget())));
}

void MainWindow::updateTitle()
{
    SpecDocument *document = currentDocument();
    const QString name = document ? document->displayName() : tr("Untitled spec");
    setWindowTitle(tr("%1[*] — Callscope").arg(name));
    setWindowFilePath(document ? document->path() : QString());
    setWindowModified(document && document->isModified());
}

void MainWindow::updateCursorLabel()
{
    JsonEditor *editor = jsonView();
    if (!editor || !m_cursorLabel) {
        if (m_cursorLabel)
            m_cursorLabel->clear();
        return;
    }
    const QTextCursor cursor = editor->textCursor();
    m_cursorLabel->setText(
        tr("Line %1, Column %2").arg(cursor.blockNumber() + 1).arg(cursor.positionInBlock() + 1));
}

QList<std::pair<QString, QString>> MainWindow::shortcutList() const
{
    return HelpDialogs::shortcutList(menuBar());
}

void MainWindow::showShortcuts()
{
    HelpDialogs::showShortcuts(this, shortcutList());
}

void MainWindow::showDocumentation()
{
    HelpDialogs::showDocumentation(this);
}

QString MainWindow::aboutText() const
{
    return HelpDialogs::aboutText();
}

void MainWindow::showAbout()
{
    Dialogs::inform(this, u"aboutBox"_s, tr("About Callscope"), aboutText());
}

} // namespace Callscope
