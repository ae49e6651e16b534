#include "ui/mainwindow.h"

#include "core/model/specio.h"
#include "core/secrets/truststore.h"
#include "core/service/appcontext.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "ui/editor/specdocument.h"
#include "ui/editor/specformeditor.h"
#include "ui/experiments/experimentshost.h"
#include "ui/experiments/experimentview.h"
#include "ui/history/historydocks.h"
#include "ui/run/runpanel.h"
#include "ui/run/transcriptmodel.h"
#include "ui/sessions/sessionview.h"
#include "ui/spectab.h"
#include "ui/widgets/dialogs.h"
#include "ui/widgets/docsbrowser.h"
#include "ui/widgets/findingsmodel.h"
#include "ui/widgets/jobsbutton.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/jsonhighlighter.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/studioservices.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QLoggingCategory>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBlock>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcMainWindow, "callscope.ui.mainwindow", QtInfoMsg)

namespace {

const QString kRecentKey = u"recentFiles"_s;
const QString kGeometryKey = u"mainWindow/geometry"_s;
const QString kStateKey = u"mainWindow/state"_s;
constexpr int kSidebarWidth = 200;
constexpr int kWideSidebarWidth = 330;
// The dock layout's version: layouts saved before the sidebar (a Run dock, History on the
// right) are not restored over it.
constexpr int kStateVersion = 2;

QString specFileFilter()
{
    return QCoreApplication::translate("Callscope::MainWindow",
                                       "Spec files (*.spec.json *.json);;All files (*)");
}

// The spec a new document starts from: a response schema to fill in and an engine to pick.
QString newSpecTemplate()
{
    Spec spec;
    spec.systemPrompt =
        QCoreApplication::translate("Callscope::MainWindow", "Describe the task here.");
    spec.responseSchema = QJsonObject {
        { "type"_L1, u"object"_s },
        { "properties"_L1,
          QJsonObject { { "answer"_L1, QJsonObject { { "type"_L1, u"string"_s } } } } },
        { "required"_L1, QJsonArray { u"answer"_s } },
        { "additionalProperties"_L1, false }
    };
    return QString::fromUtf8(saveSpec(spec));
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(Options(), parent)
{ }

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent)
    , m_findings(new SpecFindingsModel(this))
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
    connect(m_documentTabs, &QTabWidget::tabCloseRequested, this,
            [this](int index) { closeDocumentTab(index); });
    connect(m_documentTabs, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);

    createActions();
    createDocks();
    createSidebar();
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
    for (QDockWidget *dock :
         { m_filesDock, m_historyDocks->historyDock(), m_historyDocks->sessionsDock() }) {
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
    connect(m_openAction, &QAction::triggered, this, &MainWindow::showOpenDialog);

    m_openFolderAction = new QAction(QIcon::fromTheme(u"folder-open"_s), tr("Open &Folder…"), this);
    m_openFolderAction->setStatusTip(
        tr("List a folder's spec files and experiments in the sidebar"));
    connect(m_openFolderAction, &QAction::triggered, this, &MainWindow::showOpenFolderDialog);

    m_saveAction = new QAction(QIcon::fromTheme(u"document-save"_s), tr("&Save"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Save the spec"));
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);

    m_saveAsAction = new QAction(QIcon::fromTheme(u"document-save-as"_s), tr("Save &As…"), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    m_saveAsAction->setStatusTip(tr("Save the spec under a new name"));
    connect(m_saveAsAction, &QAction::triggered, this, [this] { showSaveAsDialog(); });

    m_revertAction = new QAction(QIcon::fromTheme(u"document-revert"_s), tr("Re&vert"), this);
    m_revertAction->setStatusTip(tr("Read the spec's file again, dropping the unsaved changes"));
    connect(m_revertAction, &QAction::triggered, this, &MainWindow::revert);

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

void MainWindow::createDocks()
{
    m_findingsView = new QTableView(this);
    m_findingsView->setObjectName(u"findingsView"_s);
    m_findingsView->setAccessibleName(tr("Findings"));
    m_findingsView->setModel(m_findings);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findingsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Messages wrap, so a narrow panel still shows them whole.
    m_findingsView->setWordWrap(true);
    m_findingsView->setAlternatingRowColors(true);
    m_findingsView->verticalHeader()->hide();
    m_findingsView->verticalHeader()->setDefaultSectionSize(m_findingsView->fontMetrics().height()
                                                            + 8);
    m_findingsView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *header = m_findingsView->horizontalHeader();
    header->setSectionResizeMode(SpecFindingsModel::SeverityColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(SpecFindingsModel::LocationColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(SpecFindingsModel::MessageColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(SpecFindingsModel::RuleColumn, QHeaderView::Interactive);
    // Long pointers keep their start and their end ("/tools/0/…/properties/x"); the message
    // takes the remaining width and shows in full as a tooltip.
    m_findingsView->setTextElideMode(Qt::ElideMiddle);
    // Narrow where and which rule, so the message keeps the room at 1280 px.
    header->resizeSection(SpecFindingsModel::LocationColumn, 140);
    header->resizeSection(SpecFindingsModel::RuleColumn, 110);
    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { jumpToFinding(current); });
    connect(m_findingsView, &QAbstractItemView::activated, this, &MainWindow::jumpToFinding);

    m_findingsDock = new QDockWidget(tr("Findings"), this);
    m_findingsDock->setObjectName(u"findingsDock"_s);
    m_findingsDock->setWidget(m_findingsView);
    addDockWidget(Qt::BottomDockWidgetArea, m_findingsDock);
}

void MainWindow::createSidebar()
{
    // The workspace folder's spec files and experiments, as a tree of folders.
    m_fsModel = new QFileSystemModel(this);
    m_fsModel->setObjectName(u"workspaceModel"_s);
    m_fsModel->setNameFilters({ u"*.spec.json"_s, u"*.experiment.json"_s, u"*.json"_s });
    m_fsModel->setNameFilterDisables(false);
    m_fsModel->setFilter(QDir::AllDirs | QDir::Files | QDir::NoDotAndDotDot);
    m_fsModel->setReadOnly(true);

    auto *page = new QWidget(this);
    page->setObjectName(u"filesPage"_s);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);

    auto *folderRow = new QHBoxLayout;
    m_workspaceLabel = new QLabel(page);
    m_workspaceLabel->setObjectName(u"workspaceLabel"_s);
    m_workspaceLabel->setTextFormat(Qt::PlainText);
    m_workspaceLabel->setWordWrap(true);
    auto *openFolder = new QPushButton(tr("Open Folder…"), page);
    openFolder->setObjectName(u"openFolderButton"_s);
    openFolder->setToolTip(tr("List a folder's spec files and experiments here"));
    connect(openFolder, &QPushButton::clicked, this, &MainWindow::showOpenFolderDialog);
    folderRow->addWidget(m_workspaceLabel, 1);
    folderRow->addWidget(openFolder);
    layout->addLayout(folderRow);

    m_workspaceView = new QTreeView(page);
    m_workspaceView->setObjectName(u"workspaceView"_s);
    m_workspaceView->setAccessibleName(tr("Spec files of the workspace folder"));
    m_workspaceView->setModel(m_fsModel);
    m_workspaceView->setHeaderHidden(true);
    for (int column = 1; column < m_fsModel->columnCount(); ++column)
        m_workspaceView->hideColumn(column);
    m_workspaceView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_workspaceView->hide();
    connect(m_workspaceView, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        if (!m_fsModel->isDir(index))
            openSpecFile(m_fsModel->filePath(index));
    });
    layout->addWidget(m_workspaceView, 3);

    auto *recentTitle = new QLabel(tr("Recent files"), page);
    recentTitle->setObjectName(u"recentTitle"_s);
    QFont bold = recentTitle->font();
    bold.setBold(true);
    recentTitle->setFont(bold);
    layout->addWidget(recentTitle);
    m_recentList = new QListWidget(page);
    m_recentList->setObjectName(u"recentList"_s);
    m_recentList->setAccessibleName(tr("Recent files"));
    connect(m_recentList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { openSpecFile(item->data(Qt::UserRole).toString()); });
    layout->addWidget(m_recentList, 2);

    m_filesDock = new QDockWidget(tr("Files"), this);
    m_filesDock->setObjectName(u"filesDock"_s);
    m_filesDock->setAccessibleName(tr("Files"));
    m_filesDock->setWidget(page);
    addDockWidget(Qt::LeftDockWidgetArea, m_filesDock);
    setWorkspaceFolder(QSettings().value(u"workspace/folder"_s).toString());
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
             { m_filesDock, m_historyDocks->historyDock(), m_historyDocks->sessionsDock() }) {
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

void MainWindow::setWorkspaceFolder(const QString &folder)
{
    const QString absolute = folder.isEmpty() ? QString() : QFileInfo(folder).absoluteFilePath();
    m_workspaceFolder = absolute.isEmpty() || !QFileInfo(absolute).isDir() ? QString() : absolute;
    if (m_workspaceFolder.isEmpty()) {
        m_workspaceLabel->setText(tr("No folder open."));
        m_workspaceLabel->setToolTip(QString());
        m_workspaceView->hide();
        return;
    }
    QSettings().setValue(u"workspace/folder"_s, m_workspaceFolder);
    m_workspaceLabel->setText(QFileInfo(m_workspaceFolder).fileName());
    m_workspaceLabel->setToolTip(QDir::toNativeSeparators(m_workspaceFolder));
    m_workspaceView->setRootIndex(m_fsModel->setRootPath(m_workspaceFolder));
    m_workspaceView->show();
}

void MainWindow::showOpenFolderDialog()
{
    auto *dialog = new QFileDialog(this, tr("Open Folder"), m_workspaceFolder);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly, true);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &folder) {
        setWorkspaceFolder(folder);
        showPanel(m_filesDock);
    });
    dialog->open();
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

QList<std::pair<QString, QString>> MainWindow::shortcutList() const
{
    QList<std::pair<QString, QString>> rows;
    std::function<void(const QMenu *, const QString &)> walk = [&](const QMenu *menu,
                                                                   const QString &path) {
        for (QAction *action : menu->actions()) {
            if (action->isSeparator())
                continue;
            const QString name = QString(action->text()).remove(u'&');
            const QString here = path.isEmpty() ? name : path + u" › "_s + name;
            if (action->menu()) {
                walk(action->menu(), here);
                continue;
            }
            if (!action->shortcut().isEmpty())
                rows.append({ here, action->shortcut().toString(QKeySequence::NativeText) });
        }
    };
    for (QAction *top : menuBar()->actions()) {
        if (top->menu())
            walk(top->menu(), QString(top->text()).remove(u'&'));
    }
    return rows;
}

void MainWindow::showDocumentation()
{
    auto *dialog = findChild<DocumentationDialog *>(u"documentationDialog"_s);
    if (!dialog) {
        dialog = new DocumentationDialog(documentationFolder(), this);
        dialog->setWindowFlag(Qt::Window);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::showShortcuts()
{
    auto *dialog = findChild<QDialog *>(u"shortcutsDialog"_s);
    if (!dialog) {
        dialog = new QDialog(this);
        dialog->setObjectName(u"shortcutsDialog"_s);
        dialog->setWindowTitle(tr("Keyboard Shortcuts"));
        auto *table = new QTableWidget(dialog);
        table->setObjectName(u"shortcutsTable"_s);
        table->setAccessibleName(tr("Keyboard shortcuts"));
        table->setColumnCount(2);
        table->setHorizontalHeaderLabels({ tr("Command"), tr("Shortcut") });
        table->verticalHeader()->hide();
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
        table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        auto *layout = new QVBoxLayout(dialog);
        layout->addWidget(table);
        layout->addWidget(buttons);
        dialog->resize(560, 640);
    }
    auto *table = dialog->findChild<QTableWidget *>(u"shortcutsTable"_s);
    const QList<std::pair<QString, QString>> rows = shortcutList();
    table->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows.at(i).first));
        table->setItem(i, 1, new QTableWidgetItem(rows.at(i).second));
    }
    dialog->show();
    dialog->raise();
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
    statusBar()->addPermanentWidget(m_countsLabel);
    statusBar()->addPermanentWidget(m_engineLabel);
    statusBar()->addPermanentWidget(m_cursorLabel);
    if (!m_options.databasePath.isEmpty()) {
        // Another history than the usual one (callscope --db): say which, so nobody wonders
        // where their calls went.
        auto *history =
            new QLabel(tr("History: %1").arg(QFileInfo(m_options.databasePath).fileName()), this);
        history->setObjectName(u"historyFileLabel"_s);
        history->setToolTip(
            QDir::toNativeSeparators(QFileInfo(m_options.databasePath).absoluteFilePath()));
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

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void MainWindow::removeRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    QSettings().setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    m_recentList->clear();
    const QStringList files = recentFiles();
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString path = files.at(i);
        const QString label = tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName());
        QAction *action = m_recentMenu->addAction(label);
        action->setToolTip(path);
        action->setStatusTip(path);
        action->setData(path);
        connect(action, &QAction::triggered, this, [this, path] { openSpecFile(path); });
        auto *item = new QListWidgetItem(QFileInfo(path).fileName(), m_recentList);
        item->setToolTip(QDir::toNativeSeparators(path));
        item->setData(Qt::UserRole, path);
    }
    if (!files.isEmpty())
        m_recentMenu->addSeparator();
    QAction *clear = m_recentMenu->addAction(tr("&Clear List"));
    clear->setEnabled(!files.isEmpty());
    connect(clear, &QAction::triggered, this, [this] {
        QSettings().remove(kRecentKey);
        rebuildRecentMenu();
    });
}

// ---- documents and tabs -------------------------------------------------------------------

SpecTab *MainWindow::currentSpecTab() const
{
    if (auto *tab = qobject_cast<SpecTab *>(m_documentTabs->currentWidget()))
        return tab;
    if (m_lastSpecTab && m_documentTabs->indexOf(m_lastSpecTab) >= 0)
        return m_lastSpecTab;
    for (int i = 0; i < m_documentTabs->count(); ++i) {
        if (auto *tab = qobject_cast<SpecTab *>(m_documentTabs->widget(i)))
            return tab;
    }
    return nullptr;
}

SpecDocument *MainWindow::currentDocument() const
{
    SpecTab *tab = currentSpecTab();
    return tab ? tab->document() : nullptr;
}

QList<SpecDocument *> MainWindow::documents() const
{
    QList<SpecDocument *> list;
    for (int i = 0; i < m_documentTabs->count(); ++i) {
        if (auto *tab = qobject_cast<SpecTab *>(m_documentTabs->widget(i)))
            list.append(tab->document());
    }
    return list;
}

SpecTab *MainWindow::specTab(SpecDocument *document) const
{
    for (int i = 0; i < m_documentTabs->count(); ++i) {
        auto *tab = qobject_cast<SpecTab *>(m_documentTabs->widget(i));
        if (tab && tab->document() == document)
            return tab;
    }
    return nullptr;
}

SpecTab *MainWindow::tabForFile(const QString &path) const
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (SpecDocument *document : documents()) {
        if (!document->path().isEmpty() && document->path() == absolute)
            return specTab(document);
    }
    return nullptr;
}

QString MainWindow::currentFile() const
{
    SpecDocument *document = currentDocument();
    return document ? document->path() : QString();
}

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

bool MainWindow::isPristine(SpecTab *tab) const
{
    return tab && tab->document()->path().isEmpty() && !tab->document()->isModified()
        && tab->document()->undoStack()->count() == 0 && !tab->runPanel()->isRunning()
        && !tab->runPanel()->lastResult() && tab->runPanel()->transcript()->rowCount() == 0;
}

SpecTab *MainWindow::addSpecTab(SpecDocument *document)
{
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
            m_runAction->setEnabled(true);
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
    // A badge on the tab while its run waits for the person, for when another tab is in front.
    connect(tab, &SpecTab::waitingChanged, this, [this, tab] { updateTabTitle(tab); });
    connect(document, &SpecDocument::modifiedChanged, this, [this, tab] {
        updateTabTitle(tab);
        if (tab == currentSpecTab())
            updateTitle();
    });
    connect(document, &SpecDocument::pathChanged, this, [this, tab] {
        updateTabTitle(tab);
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
    const int index = m_documentTabs->addTab(tab, document->displayName());
    updateTabTitle(tab);
    m_documentTabs->setCurrentIndex(index);
    return tab;
}

int MainWindow::openDocumentTab(QWidget *page, const QString &title)
{
    int index = m_documentTabs->indexOf(page);
    if (index < 0)
        index = m_documentTabs->addTab(page, title);
    else
        m_documentTabs->setTabText(index, title);
    m_documentTabs->setCurrentIndex(index);
    return index;
}

void MainWindow::closeDocumentTab(int index, const std::function<void()> &done)
{
    QWidget *page = m_documentTabs->widget(index);
    if (!page)
        return;
    auto *tab = qobject_cast<SpecTab *>(page);
    if (!tab) {
        m_documentTabs->removeTab(index);
        if (page->property("keepWhenClosed").toBool())
            page->hide();
        else
            page->deleteLater();
        if (done)
            done();
        return;
    }
    QPointer<SpecTab> guard(tab);
    confirmDiscard(tab->document(), [this, guard, done] {
        if (!guard)
            return;
        // A run in flight is cancelled; its call is still stored, as cancelled.
        if (guard->runPanel()->isRunning())
            guard->runPanel()->stop();
        m_documentTabs->removeTab(m_documentTabs->indexOf(guard));
        guard->deleteLater();
        // The window always has a spec to edit.
        if (documents().isEmpty())
            newSpec();
        else
            onCurrentTabChanged();
        if (done)
            done();
    });
}

void MainWindow::updateTabTitle(SpecTab *tab)
{
    const int index = m_documentTabs->indexOf(tab);
    if (index < 0)
        return;
    SpecDocument *document = tab->document();
    QString title = document->displayName();
    if (document->isModified())
        title += u" *"_s;
    QString tip = document->path().isEmpty() ? tr("Not saved yet")
                                             : QDir::toNativeSeparators(document->path());
    if (tab->isWaiting()) {
        title = u"● "_s + title;
        tip += u"\n"_s + tr("waiting for you");
    }
    // A tab title is taken for a mnemonic otherwise.
    title.replace(u'&', u"&&"_s);
    m_documentTabs->setTabText(index, title);
    m_documentTabs->setTabToolTip(index, tip);
}

void MainWindow::onCurrentTabChanged()
{
    if (auto *tab = qobject_cast<SpecTab *>(m_documentTabs->currentWidget()))
        m_lastSpecTab = tab;
    SpecTab *tab = currentSpecTab();
    SpecDocument *document = tab ? tab->document() : nullptr;
    m_undoAction->setEnabled(document && document->undoStack()->canUndo());
    m_redoAction->setEnabled(document && document->undoStack()->canRedo());
    m_runAction->setEnabled(tab && !tab->runPanel()->isRunning());
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

bool MainWindow::openSpecFile(const QString &path)
{
    if (path.endsWith(u".experiment.json"_s) && m_experiments)
        return m_experiments->openFile(path);
    if (SpecTab *open = tabForFile(path)) {
        // Already open: its tab comes forward. Unchanged here, it shows the file as it is now.
        m_documentTabs->setCurrentWidget(open);
        QFile file(path);
        if (!open->document()->isModified() && file.open(QIODevice::ReadOnly)
            && QString::fromUtf8(file.readAll()) != open->document()->text()) {
            open->document()->revert();
            open->document()->recheck();
        }
        addRecentFile(path);
        return true;
    }
    // A fresh window's untouched template gives its tab to the first file opened.
    SpecTab *tab = documents().size() == 1 ? currentSpecTab() : nullptr;
    if (!isPristine(tab))
        tab = nullptr;
    SpecDocument *document = tab ? tab->document() : new SpecDocument(this);
    if (const std::optional<QString> error = document->load(path)) {
        if (!tab)
            delete document;
        const QString message =
            tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), *error);
        qCInfo(lcMainWindow) << message;
        if (NoticeBar *bar = messageBar())
            bar->showMessage(message, NoticeBar::Kind::Error);
        statusBar()->showMessage(message, 6000);
        removeRecentFile(path);
        return false;
    }
    if (tab) {
        tab->reloadForm();
        updateTabTitle(tab);
    } else {
        if (m_lintTargetOverride)
            document->setLintTargetOverride(m_lintTargetOverride);
        tab = addSpecTab(document);
    }
    tab->runPanel()->setInputText(RunPanel::sampleInputFor(document->path()));
    addRecentFile(document->path());
    onCurrentTabChanged();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(document->path())), 4000);
    return true;
}

QStringList MainWindow::sampleNames()
{
    QStringList names;
    for (const QString &file :
         QDir(u":/callscope/samples"_s).entryList({ u"*.spec.json"_s }, QDir::Files, QDir::Name))
        names.append(file.chopped(QStringView(u".spec.json").size()));
    return names;
}

bool MainWindow::openSample(const QString &name)
{
    const QString source = u":/callscope/samples/"_s + name;
    if (!QFile::exists(source + u".spec.json"_s))
        return false;
    const QString folder = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                               .filePath(u"samples"_s);
    if (!QDir().mkpath(folder)) {
        if (NoticeBar *bar = messageBar())
            bar->showMessage(
                tr("Cannot create %1 for the samples.").arg(QDir::toNativeSeparators(folder)),
                NoticeBar::Kind::Error);
        return false;
    }
    // A copy already there is the user's (it may have been edited): it is opened as it is.
    for (const QString &suffix : { u".spec.json"_s, u".recording.json"_s, u".input.txt"_s }) {
        const QString from = source + suffix;
        const QString to = QDir(folder).filePath(name + suffix);
        if (!QFile::exists(from) || QFile::exists(to))
            continue;
        if (!QFile::copy(from, to)) {
            if (NoticeBar *bar = messageBar())
                bar->showMessage(
                    tr("Cannot copy the sample to %1.").arg(QDir::toNativeSeparators(to)),
                    NoticeBar::Kind::Error);
            return false;
        }
        // Copies of resources are read-only; the sample is there to be changed.
        QFile::setPermissions(to,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                  | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    }
    return openSpecFile(QDir(folder).filePath(name + u".spec.json"_s));
}

void MainWindow::newSpec()
{
    auto *document = new SpecDocument(this);
    document->reset(newSpecTemplate());
    if (m_lintTargetOverride)
        document->setLintTargetOverride(m_lintTargetOverride);
    addSpecTab(document);
    onCurrentTabChanged();
}

std::optional<QString> MainWindow::saveToFile(const QString &path)
{
    SpecTab *tab = currentSpecTab();
    if (!tab)
        return tr("No spec is open.");
    tab->form()->flushPendingEdits();
    SpecDocument *document = tab->document();
    // Another tab holding the same file would now show an old text: it is that file's tab.
    if (SpecTab *other = tabForFile(path); other && other != tab)
        return tr("%1 is open in another tab; close it first.").arg(QDir::toNativeSeparators(path));
    if (const std::optional<QString> error = document->saveTo(path)) {
        const QString message =
            tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), *error);
        tab->messageBar()->showMessage(message, NoticeBar::Kind::Error);
        return message;
    }
    addRecentFile(document->path());
    // What the user saved in the studio is theirs: it runs without the trust question. The spec
    // is the document's check of the saved text (made on a worker thread), when it comes.
    if (m_studio && m_studio->calls()->trustStore()) {
        const QString saved = document->text();
        document->whenChecked(this, [this, document = QPointer<SpecDocument>(document), saved] {
            TrustStore *store = m_studio ? m_studio->calls()->trustStore() : nullptr;
            if (store && document && document->text() == saved && document->spec())
                store->trust(trustEntryFor(*document->spec()));
        });
    }
    const int errors = document->count(SpecFinding::Severity::Error);
    statusBar()->showMessage(
        errors == 0
            ? tr("Saved %1").arg(QDir::toNativeSeparators(document->path()))
            : tr("Saved %1 (it still has errors)").arg(QDir::toNativeSeparators(document->path())),
        4000);
    updateTitle();
    return std::nullopt;
}

void MainWindow::save()
{
    if (currentFile().isEmpty())
        showSaveAsDialog();
    else
        saveToFile(currentFile());
}

void MainWindow::revert()
{
    SpecTab *tab = currentSpecTab();
    if (!tab || tab->document()->path().isEmpty())
        return;
    if (const std::optional<QString> error = tab->document()->revert()) {
        tab->messageBar()->showMessage(
            tr("Cannot read %1 again: %2")
                .arg(QDir::toNativeSeparators(tab->document()->path()), *error),
            NoticeBar::Kind::Error);
        return;
    }
    statusBar()->showMessage(tr("Read %1 again; Undo brings the changes back.")
                                 .arg(QDir::toNativeSeparators(tab->document()->path())),
                             5000);
}

void MainWindow::showOpenDialog()
{
    const QString start =
        !currentFile().isEmpty() ? QFileInfo(currentFile()).absolutePath() : m_workspaceFolder;
    auto *dialog = new QFileDialog(this, tr("Open Spec"), start, specFileFilter());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &path) { openSpecFile(path); });
    dialog->open();
}

void MainWindow::showSaveAsDialog(const std::function<void()> &afterSave)
{
    auto *dialog = new QFileDialog(this, tr("Save Spec As"),
                                   currentFile().isEmpty() ? m_workspaceFolder : currentFile(),
                                   specFileFilter());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(u"spec.json"_s);
    connect(dialog, &QFileDialog::fileSelected, this, [this, afterSave](const QString &path) {
        if (!saveToFile(path) && afterSave)
            afterSave();
    });
    dialog->open();
}

void MainWindow::confirmDiscard(SpecDocument *document, const std::function<void()> &proceed)
{
    SpecTab *tab = specTab(document);
    if (tab)
        tab->form()->flushPendingEdits();
    if (!document || !document->isModified()) {
        proceed();
        return;
    }
    if (tab)
        m_documentTabs->setCurrentWidget(tab);
    auto *box =
        new QMessageBox(QMessageBox::Warning, tr("Unsaved Changes"),
                        tr("%1 has changes that are not saved.").arg(document->displayName()),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setObjectName(u"unsavedChangesBox"_s);
    box->setInformativeText(tr("Save them first?"));
    box->setDefaultButton(QMessageBox::Save);
    Dialogs::giveButtonsMnemonics(box); // Alt+S saves, Alt+D discards
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<SpecDocument> guard(document);
    connect(box, &QMessageBox::finished, this, [this, box, guard, proceed](int) {
        const QMessageBox::StandardButton button = box->standardButton(box->clickedButton());
        if (!guard)
            return;
        if (button == QMessageBox::Discard) {
            proceed();
        } else if (button == QMessageBox::Save) {
            if (SpecTab *owner = specTab(guard))
                m_documentTabs->setCurrentWidget(owner);
            if (guard->path().isEmpty())
                showSaveAsDialog(proceed);
            else if (!saveToFile(guard->path()))
                proceed();
        }
    });
    box->open();
}

void MainWindow::confirmDiscardAll(const std::function<void()> &proceed)
{
    for (SpecDocument *document : documents()) {
        if (document->isModified()) {
            confirmDiscard(document, [this, document, proceed] {
                // Discarded or saved: this one no longer holds the close up.
                document->setClean();
                confirmDiscardAll(proceed);
            });
            return;
        }
    }
    proceed();
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
        confirmDiscardAll([this] {
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
    const QList<SpecFinding> findings = document ? document->findings() : QList<SpecFinding>();
    m_findings->setFindings(findings);
    const int errors = m_findings->count(SpecFinding::Severity::Error);
    const int warnings = m_findings->count(SpecFinding::Severity::Warning);
    const int infos = m_findings->count(SpecFinding::Severity::Info);
    m_countsLabel->setText(tr("%n error(s)", nullptr, errors) + u", "_s
                           + tr("%n warning(s)", nullptr, warnings) + u", "_s
                           + tr("%n note(s)", nullptr, infos));
    m_engineLabel->setText(tr("Advice for: %1 engine").arg(engineTypeName(lintTarget())));
    m_findingsDock->setWindowTitle(findings.isEmpty() ? tr("Findings")
                                                      : tr("Findings (%1)").arg(findings.size()));
}

void MainWindow::jumpToFinding(const QModelIndex &index)
{
    SpecTab *tab = currentSpecTab();
    if (!index.isValid() || !tab)
        return;
    m_documentTabs->setCurrentWidget(tab);
    tab->revealFinding(index.data(SpecFindingsModel::PointerRole).toString(),
                       index.data(SpecFindingsModel::LineRole).toInt(),
                       index.data(SpecFindingsModel::ColumnRole).toInt());
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

namespace {
QString highlighterName()
{
#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
    return QCoreApplication::translate("Callscope::MainWindow", "KF6 SyntaxHighlighting");
#else
    return QCoreApplication::translate("Callscope::MainWindow", "built-in JSON highlighter");
#endif
}
} // namespace

QString MainWindow::aboutText() const
{
    return tr("<h3>Callscope %1</h3>"
              "<p>A desktop studio for engineering LLM calls: write a spec, run it, step through "
              "the tool loop and get a validated result.</p>"
              "<p>Qt %2 (built with Qt %3)<br>QtKeychain %4<br>Syntax highlighting: %5</p>")
        .arg(QStringLiteral(CALLSCOPE_VERSION), QString::fromLatin1(qVersion()),
             QStringLiteral(QT_VERSION_STR), QStringLiteral(CALLSCOPE_QTKEYCHAIN_VERSION),
             highlighterName());
}

void MainWindow::showAbout()
{
    auto *box = new QMessageBox(this);
    box->setObjectName(u"aboutBox"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowTitle(tr("About Callscope"));
    box->setTextFormat(Qt::RichText);
    box->setText(aboutText());
    box->setIcon(QMessageBox::Information);
    box->setStandardButtons(QMessageBox::Close);
    box->open();
}

} // namespace Callscope
