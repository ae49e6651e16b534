#include "ui/mainwindow.h"

#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "ui/common/docsbrowser.h"
#include "ui/common/fitscrollarea.h"
#include "ui/common/jobsbutton.h"
#include "ui/sessions/sessionview.h"

#include "core/model/specio.h"
#include "core/schema/lint.h"
#include "ui/findingsmodel.h"
#include "ui/messagebar.h"
#include "ui/specview.h"
#include "ui/common/noticebar.h"
#include "ui/common/studioservices.h"
#include "ui/editor/jsoneditor.h"
#include "ui/editor/specformeditor.h"
#include "ui/jsonhighlighter.h"
#include "ui/run/runpanel.h"
#include "ui/history/historydocks.h"
#include "ui/experiments/experimentshost.h"
#include "ui/experiments/experimentview.h"

#include <QPointer>
#include <QScrollArea>
#include <QTabWidget>
#include <QStyle>
#include <QTabBar>
#include <QToolButton>
#include <QTimer>
#include <QUndoStack>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QHash>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QLabel>
#include <QLoggingCategory>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QTextBlock>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcMainWindow, "callscope.ui.mainwindow", QtInfoMsg)

namespace {

const QString kRecentKey = u"recentFiles"_s;
const QString kGeometryKey = u"mainWindow/geometry"_s;
const QString kStateKey = u"mainWindow/state"_s;
constexpr int kRevalidateDelayMs = 300;

QString specFileFilter()
{
    return QCoreApplication::translate("Callscope::MainWindow",
                                       "Spec files (*.spec.json *.json);;All files (*)");
}

// The spec a new document starts from: a response schema to fill in and an engine to pick.
QString newSpecTemplate()
{
    Spec spec;
    spec.systemPrompt = QCoreApplication::translate("Callscope::MainWindow", "Describe the task here.");
    spec.responseSchema = QJsonObject{
        {"type"_L1, u"object"_s},
        {"properties"_L1, QJsonObject{{"answer"_L1, QJsonObject{{"type"_L1, u"string"_s}}}}},
        {"required"_L1, QJsonArray{u"answer"_s}},
        {"additionalProperties"_L1, false}};
    return QString::fromUtf8(saveSpec(spec));
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(Options(), parent)
{
}

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent)
    , m_specView(new SpecView(this))
    , m_findings(new FindingsModel(this))
    , m_options(options)
{
    if (m_options.context) // the history it opened is the one the status bar names
        m_options.databasePath = m_options.context->usesDefaultDatabase() ? QString() : m_options.context->databasePath();
    setObjectName(u"mainWindow"_s);
    setWindowIcon(QIcon::fromTheme(u"applications-development"_s));
    setCentralWidget(m_specView);
    setDockNestingEnabled(true);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    m_revalidateTimer.setSingleShot(true);
    m_revalidateTimer.setInterval(kRevalidateDelayMs);
    connect(&m_revalidateTimer, &QTimer::timeout, this, &MainWindow::revalidate);

    createActions();
    createDocks();
    createStudio();
    createMenus();
    createStatusBar();
    m_historyDocks = new HistoryDocks(this); // studio part 2: history, revisions, sessions, budget, diff
    m_experiments = new ExperimentsHost(this); // the Experiment tab; its cells open calls in History
    // What needs the person comes forward: a run that starts or stops for a decision, a
    // session turn that waits for an approval.
    connect(m_runPanel, &RunPanel::runStarted, this, [this] {
        m_runDock->show();
        m_runDock->raise();
    });
    connect(m_runPanel, &RunPanel::attentionNeeded, this, [this] {
        m_runDock->show();
        m_runDock->raise();
    });
    // A badge on the Run tab while the run waits for the person, for when another panel is
    // brought over it.
    connect(m_runPanel, &RunPanel::waitingChanged, this, [this](bool waiting) {
        m_runDock->setWindowTitle(waiting ? tr("Run ● waiting for you") : tr("Run"));
    });
    // A run that cannot start says why in the Run panel; the field to fix is shown in the form.
    connect(m_runPanel, &RunPanel::preflightFailed, this, [this](const QString &pointer) {
        m_centralTabs->setCurrentWidget(m_form);
        m_form->revealEngineField(pointer);
    });
    if (SessionView *sessions = m_historyDocks->sessions()) {
        connect(sessions, &SessionView::attentionNeeded, this, [this] {
            m_historyDocks->sessionsDock()->show();
            m_historyDocks->sessionsDock()->raise();
        });
        // The same badge on the Sessions tab while a session turn waits for the person, for
        // when History (or anything else) is brought over it.
        connect(sessions, &SessionView::waitingChanged, this, [this](bool waiting) {
            m_historyDocks->sessionsDock()->setWindowTitle(waiting ? tr("Sessions ● waiting for you") : tr("Sessions"));
        });
    }

    QPlainTextEdit *editor = m_specView->editor();
    connect(editor, &QPlainTextEdit::textChanged, this, [this] { m_revalidateTimer.start(); });
    connect(editor->document(), &QTextDocument::modificationChanged, this, &QWidget::setWindowModified);
    connect(editor, &QPlainTextEdit::cursorPositionChanged, this, &MainWindow::updateCursorLabel);

    resize(1280, 800);
    readSettings();
    newSpec();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QPlainTextEdit *editor = m_specView->editor();

    m_newAction = new QAction(QIcon::fromTheme(u"document-new"_s), tr("&New Spec"), this);
    m_newAction->setShortcut(QKeySequence::New);
    m_newAction->setStatusTip(tr("Start a new spec from a template"));
    connect(m_newAction, &QAction::triggered, this, [this] { confirmDiscard([this] { newSpec(); }); });

    m_openAction = new QAction(QIcon::fromTheme(u"document-open"_s), tr("&Open…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a spec file"));
    connect(m_openAction, &QAction::triggered, this, [this] { confirmDiscard([this] { showOpenDialog(); }); });

    m_saveAction = new QAction(QIcon::fromTheme(u"document-save"_s), tr("&Save"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Save the spec"));
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);

    m_saveAsAction = new QAction(QIcon::fromTheme(u"document-save-as"_s), tr("Save &As…"), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    m_saveAsAction->setStatusTip(tr("Save the spec under a new name"));
    connect(m_saveAsAction, &QAction::triggered, this, [this] { showSaveAsDialog(); });

    m_quitAction = new QAction(QIcon::fromTheme(u"application-exit"_s), tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_undoAction = new QAction(QIcon::fromTheme(u"edit-undo"_s), tr("&Undo"), this);
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setEnabled(false);
    connect(m_undoAction, &QAction::triggered, editor, &QPlainTextEdit::undo);
    connect(editor, &QPlainTextEdit::undoAvailable, m_undoAction, &QAction::setEnabled);

    m_redoAction = new QAction(QIcon::fromTheme(u"edit-redo"_s), tr("&Redo"), this);
    m_redoAction->setShortcut(QKeySequence::Redo);
    m_redoAction->setEnabled(false);
    connect(m_redoAction, &QAction::triggered, editor, &QPlainTextEdit::redo);
    connect(editor, &QPlainTextEdit::redoAvailable, m_redoAction, &QAction::setEnabled);

    m_lintAction = new QAction(tr("&Lint Now"), this);
    m_lintAction->setShortcut(QKeySequence(Qt::Key_F7));
    m_lintAction->setStatusTip(tr("Check the spec and list its findings"));
    connect(m_lintAction, &QAction::triggered, this, &MainWindow::revalidate);

    m_runAction = new QAction(QIcon::fromTheme(u"media-playback-start"_s), tr("&Run…"), this);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setStatusTip(tr("Running a spec from the window is not available yet; use callscope-cli run"));
    m_runAction->setEnabled(false);

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
    m_findingsView->setModel(m_findings);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findingsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Messages wrap, so a narrow panel still shows them whole.
    m_findingsView->setWordWrap(true);
    m_findingsView->setAlternatingRowColors(true);
    m_findingsView->verticalHeader()->hide();
    m_findingsView->verticalHeader()->setDefaultSectionSize(m_findingsView->fontMetrics().height() + 8);
    m_findingsView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *header = m_findingsView->horizontalHeader();
    header->setSectionResizeMode(FindingsModel::SeverityColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(FindingsModel::LocationColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(FindingsModel::MessageColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(FindingsModel::RuleColumn, QHeaderView::Interactive);
    // Long pointers keep their start and their end ("/tools/0/…/properties/x"); the message
    // takes the remaining width and shows in full as a tooltip.
    m_findingsView->setTextElideMode(Qt::ElideMiddle);
    // Narrow where and which rule, so the message keeps the room at 1280 px.
    header->resizeSection(FindingsModel::LocationColumn, 140);
    header->resizeSection(FindingsModel::RuleColumn, 110);
    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { jumpToFinding(current); });
    connect(m_findingsView, &QAbstractItemView::activated, this, &MainWindow::jumpToFinding);

    m_findingsDock = new QDockWidget(tr("Findings"), this);
    m_findingsDock->setObjectName(u"findingsDock"_s);
    m_findingsDock->setWidget(m_findingsView);
    addDockWidget(Qt::BottomDockWidgetArea, m_findingsDock);
}

void MainWindow::createMenus()
{
    QMenu *file = m_fileMenu = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newAction);
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    // The samples run offline on the replay engine: the quickest way to see what Callscope does.
    QMenu *samples = file->addMenu(tr("Open &Sample"));
    samples->setObjectName(u"samplesMenu"_s);
    const QHash<QString, QString> sampleText{
        {u"lunar-landing"_s, tr("Lunar landing: extraction into a strict schema, with a reask")},
        {u"planner"_s, tr("Planner: a tool loop, with an approval")},
        {u"refusal"_s, tr("Refusal: the model refuses")}};
    for (const QString &name : sampleNames()) {
        QAction *action = samples->addAction(sampleText.value(name, name));
        action->setObjectName(u"openSample_"_s + name);
        action->setStatusTip(tr("Open the bundled sample %1; it runs offline, with no key").arg(name));
        connect(action, &QAction::triggered, this, [this, name] { confirmDiscard([this, name] { openSample(name); }); });
    }
    file->addSeparator();
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    file->addAction(m_quitAction);
    rebuildRecentMenu();

    QMenu *edit = m_editMenu = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);
    edit->addSeparator();
    QPlainTextEdit *editor = m_specView->editor();
    QAction *cut = edit->addAction(QIcon::fromTheme(u"edit-cut"_s), tr("Cu&t"), editor, &QPlainTextEdit::cut);
    cut->setShortcut(QKeySequence::Cut);
    QAction *copy = edit->addAction(QIcon::fromTheme(u"edit-copy"_s), tr("&Copy"), editor, &QPlainTextEdit::copy);
    copy->setShortcut(QKeySequence::Copy);
    QAction *paste = edit->addAction(QIcon::fromTheme(u"edit-paste"_s), tr("&Paste"), editor, &QPlainTextEdit::paste);
    paste->setShortcut(QKeySequence::Paste);
    edit->addSeparator();
    QAction *selectAll = edit->addAction(tr("Select &All"), editor, &QPlainTextEdit::selectAll);
    selectAll->setShortcut(QKeySequence::SelectAll);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_panelsMenu = new QMenu(tr("Show or Hide &Panels"), m_viewMenu);
    m_panelsMenu->setObjectName(u"panelsMenu"_s);
    m_panelsEnd = m_viewMenu->addSeparator();
    m_viewMenu->addMenu(m_panelsMenu);
    m_viewMenu->addSeparator();
    addPanelAction(m_findingsDock, tr("Findings"), QKeySequence(Qt::CTRL | Qt::Key_1));
    addPanelAction(m_runDock, tr("Run"), QKeySequence(Qt::CTRL | Qt::Key_2));
    QAction *wrap = m_viewMenu->addAction(tr("&Wrap Long Lines"));
    wrap->setCheckable(true);
    connect(wrap, &QAction::toggled, editor, [editor](bool on) {
        editor->setLineWrapMode(on ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap);
    });

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_runPanel->stepAction());
    run->addAction(m_runPanel->continueAction());
    run->addAction(m_runPanel->stopAction());
    QMenu *breakpoints = run->addMenu(tr("&Breakpoints"));
    breakpoints->addActions(m_runPanel->breakpointActions());
    run->addAction(m_runPanel->rawAction());
    run->addAction(m_runPanel->attachAction());
    run->addSeparator();
    run->addAction(m_lintAction);
    QMenu *target = run->addMenu(tr("Lint &For"));
    QAction *own = target->addAction(tr("The Spec's Engine"));
    own->setCheckable(true);
    own->setChecked(true);
    m_lintTargetGroup->addAction(own);
    connect(own, &QAction::triggered, this, [this] { setLintTargetOverride(std::nullopt); });
    target->addSeparator();
    for (const QString &name : engineTypeNames()) {
        QAction *action = target->addAction(name);
        action->setCheckable(true);
        action->setData(name);
        m_lintTargetGroup->addAction(action);
        const EngineType type = *engineTypeFromName(name);
        connect(action, &QAction::triggered, this, [this, type] { setLintTargetOverride(type); });
    }

    QMenu *help = m_helpMenu = menuBar()->addMenu(tr("&Help"));
    m_docsAction = help->addAction(tr("&Documentation"), this, &MainWindow::showDocumentation);
    m_docsAction->setObjectName(u"documentationAction"_s);
    m_docsAction->setShortcut(QKeySequence::HelpContents);
    m_docsAction->setStatusTip(tr("Read how Callscope works: the spec format, the command line, the export format"));
    m_shortcutsAction = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
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
    std::function<void(const QMenu *, const QString &)> walk = [&](const QMenu *menu, const QString &path) {
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
                rows.append({here, action->shortcut().toString(QKeySequence::NativeText)});
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
        table->setHorizontalHeaderLabels({tr("Command"), tr("Shortcut")});
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
        auto *history = new QLabel(tr("History: %1").arg(QFileInfo(m_options.databasePath).fileName()), this);
        history->setObjectName(u"historyFileLabel"_s);
        history->setToolTip(QDir::toNativeSeparators(QFileInfo(m_options.databasePath).absoluteFilePath()));
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
        restoreState(state);
    m_form->restoreState();
    m_runPanel->restoreState();
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    m_form->saveState();
    m_runPanel->saveState();
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
    const QStringList files = recentFiles();
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString path = files.at(i);
        const QString label = tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName());
        QAction *action = m_recentMenu->addAction(label);
        action->setToolTip(path);
        action->setStatusTip(path);
        action->setData(path);
        connect(action, &QAction::triggered, this,
                [this, path] { confirmDiscard([this, path] { openSpecFile(path); }); });
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

bool MainWindow::openSpecFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        const QString message = tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        qCInfo(lcMainWindow) << message;
        m_specView->messageBar()->showMessage(message, MessageBar::Type::Error);
        removeRecentFile(path);
        return false;
    }
    const QByteArray bytes = file.readAll();
    m_specView->setText(QString::fromUtf8(bytes));
    setCurrentFile(QFileInfo(path).absoluteFilePath());
    addRecentFile(path);
    revalidate();
    syncFormFromText(true);
    // Another spec starts clean: nothing of the previous spec's run stays in view.
    const QString input = RunPanel::sampleInputFor(path);
    if (m_runPanel->clearForNewSpec(input))
        statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(m_path)), 4000);
    else
        statusBar()->showMessage(tr("Opened %1; the previous spec's run is still going in the Run panel.")
                                     .arg(QDir::toNativeSeparators(m_path)), 6000);
    return true;
}

QStringList MainWindow::sampleNames()
{
    QStringList names;
    for (const QString &file : QDir(u":/callscope/samples"_s).entryList({u"*.spec.json"_s}, QDir::Files, QDir::Name))
        names.append(file.chopped(QStringView(u".spec.json").size()));
    return names;
}

bool MainWindow::openSample(const QString &name)
{
    const QString source = u":/callscope/samples/"_s + name;
    if (!QFile::exists(source + u".spec.json"_s))
        return false;
    const QString folder = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(u"samples"_s);
    if (!QDir().mkpath(folder)) {
        m_specView->messageBar()->showMessage(tr("Cannot create %1 for the samples.").arg(QDir::toNativeSeparators(folder)),
                                              MessageBar::Type::Error);
        return false;
    }
    // A copy already there is the user's (it may have been edited): it is opened as it is.
    for (const QString &suffix : {u".spec.json"_s, u".recording.json"_s, u".input.txt"_s}) {
        const QString from = source + suffix;
        const QString to = QDir(folder).filePath(name + suffix);
        if (!QFile::exists(from) || QFile::exists(to))
            continue;
        if (!QFile::copy(from, to)) {
            m_specView->messageBar()->showMessage(tr("Cannot copy the sample to %1.").arg(QDir::toNativeSeparators(to)),
                                                  MessageBar::Type::Error);
            return false;
        }
        // Copies of resources are read-only; the sample is there to be changed.
        QFile::setPermissions(to, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                                      | QFileDevice::ReadOther);
    }
    return openSpecFile(QDir(folder).filePath(name + u".spec.json"_s));
}

void MainWindow::newSpec()
{
    m_specView->setText(newSpecTemplate());
    setCurrentFile(QString());
    revalidate();
    syncFormFromText(true);
    if (m_runPanel)
        m_runPanel->clearForNewSpec();
}

std::optional<QString> MainWindow::saveToFile(const QString &path)
{
    QSaveFile file(path);
    const QByteArray bytes = m_specView->text().toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        const QString message = tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        m_specView->messageBar()->showMessage(message, MessageBar::Type::Error);
        return message;
    }
    m_specView->editor()->document()->setModified(false);
    setCurrentFile(QFileInfo(path).absoluteFilePath());
    addRecentFile(path);
    revalidate();
    const int errors = m_findings->count(Finding::Severity::Error);
    statusBar()->showMessage(errors == 0 ? tr("Saved %1").arg(QDir::toNativeSeparators(m_path))
                                         : tr("Saved %1 (it still has errors)").arg(QDir::toNativeSeparators(m_path)),
                             4000);
    return std::nullopt;
}

bool MainWindow::isModified() const
{
    return m_specView->editor()->document()->isModified();
}

void MainWindow::save()
{
    if (m_path.isEmpty())
        showSaveAsDialog();
    else
        saveToFile(m_path);
}

void MainWindow::showOpenDialog()
{
    auto *dialog = new QFileDialog(this, tr("Open Spec"), m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath(),
                                   specFileFilter());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) { openSpecFile(path); });
    dialog->open();
}

void MainWindow::showSaveAsDialog(const std::function<void()> &afterSave)
{
    auto *dialog = new QFileDialog(this, tr("Save Spec As"), m_path, specFileFilter());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(u"spec.json"_s);
    connect(dialog, &QFileDialog::fileSelected, this, [this, afterSave](const QString &path) {
        if (!saveToFile(path) && afterSave)
            afterSave();
    });
    dialog->open();
}

void MainWindow::confirmDiscard(const std::function<void()> &proceed)
{
    if (!isModified()) {
        proceed();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Unsaved Changes"),
                                tr("The spec has changes that are not saved."),
                                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setInformativeText(tr("Save them first?"));
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, proceed](int) {
        const QMessageBox::StandardButton button = box->standardButton(box->clickedButton());
        if (button == QMessageBox::Discard) {
            proceed();
        } else if (button == QMessageBox::Save) {
            if (m_path.isEmpty())
                showSaveAsDialog(proceed);
            else if (!saveToFile(m_path))
                proceed();
        }
    });
    box->open();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_closeConfirmed && isModified()) {
        event->ignore();
        confirmDiscard([this] {
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
    return m_spec ? m_spec->engine.type : EngineType::OpenAI;
}

void MainWindow::setLintTargetOverride(std::optional<EngineType> type)
{
    m_lintTargetOverride = type;
    const QString name = type ? engineTypeName(*type) : QString();
    for (QAction *action : m_lintTargetGroup->actions())
        action->setChecked(action->data().toString() == name);
    revalidate();
}

void MainWindow::revalidate()
{
    m_revalidateTimer.stop();
    const QByteArray bytes = m_specView->text().toUtf8();
    QList<Finding> findings;
    const SpecLoadResult result = loadSpec(bytes, m_path);
    MessageBar *bar = m_specView->messageBar();
    if (!result.ok()) {
        m_spec.reset();
        QJsonParseError parseError;
        QJsonDocument::fromJson(bytes, &parseError);
        for (const SpecError &error : result.errors) {
            Finding f = Finding::fromError(error);
            if (parseError.error != QJsonParseError::NoError)
                f.position = QString::fromUtf8(bytes.left(parseError.offset)).size();
            findings.append(f);
        }
        const QString first = result.errors.constFirst().toString();
        bar->showMessage(result.errors.size() == 1
                             ? tr("This spec cannot run: %1").arg(first)
                             : tr("This spec cannot run: %1 (and %2 more problems in Findings)")
                                   .arg(first)
                                   .arg(result.errors.size() - 1),
                         MessageBar::Type::Error);
    } else {
        m_spec = result.spec;
        for (const LintFinding &lint : lintSpec(*m_spec, lintTarget()))
            findings.append(Finding::fromLint(lint));
        if (bar->type() == MessageBar::Type::Error)
            bar->hideMessage();
    }
    m_findings->setFindings(findings);

    const int errors = m_findings->count(Finding::Severity::Error);
    const int warnings = m_findings->count(Finding::Severity::Warning);
    const int infos = m_findings->count(Finding::Severity::Info);
    m_countsLabel->setText(tr("%1 errors, %2 warnings, %3 notes").arg(errors).arg(warnings).arg(infos));
    m_engineLabel->setText(tr("Lint for: %1").arg(engineTypeName(lintTarget())));
    m_findingsDock->setWindowTitle(findings.isEmpty() ? tr("Findings") : tr("Findings (%1)").arg(findings.size()));
    Q_EMIT specReread();
}

void MainWindow::jumpToFinding(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    // Bring the JSON text forward when it sits behind another tab (the form).
    if (m_centralTabs && m_centralTabs->indexOf(m_specView) >= 0)
        m_centralTabs->setCurrentWidget(m_specView);
    const qsizetype position = index.data(FindingsModel::PositionRole).toLongLong();
    if (position >= 0)
        m_specView->moveCursorTo(position);
    else
        m_specView->moveCursorToPointer(index.data(FindingsModel::PointerRole).toString());
}

// ---- the studio (issue 9) -----------------------------------------------------------------
// The JSON text stays the file's truth (open, save, recent files work on it); the form edits the
// same spec and writes its changes back into the text as one undoable edit each.

void MainWindow::createStudio()
{
    JsonEditor::setHighlighterFactory([](QTextDocument *document, const QPalette &palette) -> QSyntaxHighlighter * {
        auto *highlighter = new JsonHighlighter(document);
        highlighter->setDarkBackground(palette.color(QPalette::Base).lightness() < 128);
        return highlighter;
    });
    m_studio = m_options.context ? new StudioServices(m_options.context, this)
                                 : new StudioServices(m_options.databasePath, this);

    m_form = new SpecFormEditor(this);
    m_form->setObjectName(u"specForm"_s);
    m_form->setRawTabVisible(false);
    // The window lists findings once, in its Findings panel.
    m_form->setFindingsListVisible(false);
    m_form->setProfileStore(m_studio->profiles());
    // The window's Undo/Redo act on the form's history while the form is shown.
    m_form->undoAction()->setShortcut(QKeySequence());
    m_form->redoAction()->setShortcut(QKeySequence());

    QWidget *central = takeCentralWidget();
    m_centralTabs = new QTabWidget(this);
    m_centralTabs->setObjectName(u"centralTabs"_s);
    m_centralTabs->setAccessibleName(tr("Spec"));
    m_centralTabs->setDocumentMode(true);
    m_centralTabs->addTab(m_form, tr("&Form"));
    m_centralTabs->addTab(central, tr("JS&ON"));
    setCentralWidget(m_centralTabs);

    QPlainTextEdit *editor = m_specView->editor();
    disconnect(m_undoAction, &QAction::triggered, editor, &QPlainTextEdit::undo);
    disconnect(m_redoAction, &QAction::triggered, editor, &QPlainTextEdit::redo);
    disconnect(editor, &QPlainTextEdit::undoAvailable, m_undoAction, &QAction::setEnabled);
    disconnect(editor, &QPlainTextEdit::redoAvailable, m_redoAction, &QAction::setEnabled);
    // Undo follows where the person works: the form's history while the focus is in the form,
    // the text's own otherwise.
    auto formShown = [this] {
        QWidget *focus = QApplication::focusWidget();
        return m_form && focus && m_form->isAncestorOf(focus);
    };
    connect(m_undoAction, &QAction::triggered, this, [this, formShown, editor] {
        if (formShown())
            m_form->undoStack()->undo();
        else
            editor->undo();
    });
    connect(m_redoAction, &QAction::triggered, this, [this, formShown, editor] {
        if (formShown())
            m_form->undoStack()->redo();
        else
            editor->redo();
    });
    auto updateUndo = [this, form = QPointer<SpecFormEditor>(m_form), editor = QPointer<QPlainTextEdit>(editor)] {
        if (!form || !editor)
            return;
        m_undoAction->setEnabled(form->undoStack()->canUndo() || editor->document()->isUndoAvailable());
        m_redoAction->setEnabled(form->undoStack()->canRedo() || editor->document()->isRedoAvailable());
    };
    connect(m_form->undoStack(), &QUndoStack::indexChanged, this, updateUndo);
    connect(editor, &QPlainTextEdit::undoAvailable, this, updateUndo);
    connect(editor, &QPlainTextEdit::redoAvailable, this, updateUndo);

    m_formSyncTimer.setSingleShot(true);
    m_formSyncTimer.setInterval(kRevalidateDelayMs);
    connect(&m_formSyncTimer, &QTimer::timeout, this, [this] { syncFormFromText(false); });
    connect(editor, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_syncing)
            m_formSyncTimer.start();
    });
    connect(m_form, &SpecFormEditor::specChanged, this, &MainWindow::syncTextFromForm);

    m_runPanel = new RunPanel(m_studio->calls(), m_studio->profiles(), this);
    m_runPanel->setSpecProvider([this] { return specForRun(); });
    if (!m_studio->databaseError().isEmpty())
        m_runPanel->messageBar()->showMessage(tr("Calls are not stored: %1").arg(m_studio->databaseError()),
                                              NoticeBar::Kind::Warning);
    m_runDock = new QDockWidget(tr("Run"), this);
    m_runDock->setObjectName(u"runDock"_s);
    // Scrolled, so the dock never forces a wide window.
    auto *runScroll = new FitScrollArea(m_runDock);
    runScroll->setContent(m_runPanel);
    m_runDock->setWidget(runScroll);
    addDockWidget(Qt::RightDockWidgetArea, m_runDock);
    resizeDocks({m_runDock}, {720}, Qt::Horizontal);

    // The window's Run action is the panel's (one Ctrl+R).
    m_runPanel->runAction()->setShortcut(QKeySequence());
    m_runAction->setEnabled(true);
    m_runAction->setText(tr("&Run"));
    m_runAction->setStatusTip(tr("Run the spec on the input in the Run panel"));
    connect(m_runAction, &QAction::triggered, this, [this] {
        m_runDock->show();
        m_runPanel->run();
    });
    connect(m_runPanel, &RunPanel::runStarted, this, [this] { m_runAction->setEnabled(false); });
    connect(m_runPanel, &RunPanel::runFinished, this, [this] { m_runAction->setEnabled(true); });
}

void MainWindow::syncFormFromText(bool resetHistory)
{
    m_formSyncTimer.stop();
    const SpecLoadResult loaded = loadSpec(m_specView->text().toUtf8(), m_path);
    if (!loaded.ok()) {
        if (resetHistory) {
            m_syncing = true;
            m_form->setSpec(Spec(), m_path, true);
            m_syncing = false;
        }
        return;
    }
    if (!resetHistory && *loaded.spec == m_form->spec())
        return;
    m_syncing = true;
    m_form->setSpec(*loaded.spec, m_path, resetHistory);
    m_syncing = false;
}

void MainWindow::syncTextFromForm()
{
    if (m_syncing)
        return;
    const QString text = QString::fromUtf8(saveSpec(m_form->spec()));
    const SpecLoadResult current = loadSpec(m_specView->text().toUtf8(), m_path);
    if (current.ok() && *current.spec == m_form->spec())
        return;
    m_syncing = true;
    QTextCursor cursor(m_specView->editor()->document());
    cursor.select(QTextCursor::Document);
    cursor.insertText(text); // one step of the text's own undo history
    m_syncing = false;
    m_revalidateTimer.start();
}

std::optional<Spec> MainWindow::specForRun()
{
    m_form->flushPendingEdits();
    if (m_formSyncTimer.isActive())
        syncFormFromText(false);
    const SpecLoadResult loaded = loadSpec(m_specView->text().toUtf8(), m_path);
    if (!loaded.ok()) {
        m_runPanel->messageBar()->showMessage(tr("The spec cannot run: %1").arg(loaded.errors.constFirst().toString()),
                                              NoticeBar::Kind::Error);
        return std::nullopt;
    }
    return loaded.spec;
}

void MainWindow::setCurrentFile(const QString &path)
{
    m_path = path;
    updateTitle();
}

void MainWindow::updateTitle()
{
    const QString name = m_path.isEmpty() ? tr("Untitled spec") : QFileInfo(m_path).fileName();
    setWindowTitle(tr("%1[*] — Callscope").arg(name));
    setWindowFilePath(m_path);
    setWindowModified(isModified());
}

void MainWindow::updateCursorLabel()
{
    const QTextCursor cursor = m_specView->editor()->textCursor();
    m_cursorLabel->setText(tr("Line %1, Column %2").arg(cursor.blockNumber() + 1).arg(cursor.positionInBlock() + 1));
}

QString MainWindow::aboutText() const
{
    return tr("<h3>Callscope %1</h3>"
              "<p>A desktop studio for engineering LLM calls: write a spec, run it, step through "
              "the tool loop and get a validated result.</p>"
              "<p>Qt %2 (built with Qt %3)<br>QtKeychain %4<br>Syntax highlighting: %5</p>")
        .arg(QStringLiteral(CALLSCOPE_VERSION), QString::fromLatin1(qVersion()),
             QStringLiteral(QT_VERSION_STR), QStringLiteral(CALLSCOPE_QTKEYCHAIN_VERSION),
             SpecView::highlighterName());
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

// --- Document tabs (issue 17, stored calls and compares). A stand-in until the window's
// restructuring provides its own; kept apart so the two merge simply.

QTabWidget *MainWindow::documentTabs() const
{
    return m_centralTabs;
}

int MainWindow::openDocumentTab(QWidget *page, const QString &title)
{
    if (!m_centralTabs || !page)
        return -1;
    int index = m_centralTabs->indexOf(page);
    if (index < 0) {
        index = m_centralTabs->addTab(page, title);
        // Only these tabs close (the spec's own pages stay).
        auto *close = new QToolButton(m_centralTabs);
        close->setObjectName(u"closeDocumentTab"_s);
        close->setAutoRaise(true);
        close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
        close->setToolTip(tr("Close %1").arg(title));
        close->setAccessibleName(tr("Close %1").arg(title));
        connect(close, &QToolButton::clicked, page, [this, page] {
            m_centralTabs->removeTab(m_centralTabs->indexOf(page));
            page->deleteLater();
        });
        m_centralTabs->tabBar()->setTabButton(index, QTabBar::RightSide, close);
    }
    m_centralTabs->setCurrentIndex(index);
    return index;
}

} // namespace Callscope
