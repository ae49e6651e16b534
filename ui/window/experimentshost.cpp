#include "ui/window/experimentshost.h"

#include "ui/editor/specformeditor.h"
#include "ui/experiments/experimentview.h"
#include "ui/widgets/studioservices.h"
#include "ui/window/historydocks.h"
#include "ui/window/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace Callscope {

ExperimentsHost::ExperimentsHost(MainWindow *window)
    : QObject(window)
    , m_window(window)
{
    setObjectName(u"experimentsHost"_s);
    StudioServices *services = window->studioServices();
    m_view = new ExperimentView(services ? services->calls() : nullptr,
                                services ? services->store() : nullptr, window);
    m_view->setReader(services ? services->reader() : nullptr);
    if (services)
        m_view->setRunBlockedReason(services->context()->historyReadOnlyReason());
    // A document tab of the window, opened when an experiment is (and again after it is closed).
    m_view->hide();
    m_view->setProperty("keepWhenClosed", true);

    m_view->setSpecProvider([this]() -> std::optional<Spec> {
        // Pending form edits go into the text, which is read now.
        if (SpecFormEditor *form = m_window->specForm())
            form->flushPendingEdits();
        m_window->revalidate();
        return m_window->currentSpec();
    });
    // New Experiment starts from the spec in the editor when it is saved to a file.
    m_view->setSpecPathProvider([this]() -> QString {
        return m_window->isModified() ? QString() : m_window->currentFile();
    });
    m_view->setCurrentCallProvider([this]() -> qint64 {
        return m_window->historyDocks() ? m_window->historyDocks()->currentCallId() : 0;
    });
    // A click makes the cell's call the current one (shown in History); double-click opens it.
    connect(m_view, &ExperimentView::callRequested, this, [this](qint64 id) {
        if (HistoryDocks *docks = m_window->historyDocks())
            docks->showInHistory(id);
    });
    connect(m_view, &ExperimentView::callOpenRequested, this, [this](qint64 id) {
        if (HistoryDocks *docks = m_window->historyDocks())
            docks->openCall(id);
    });
    // The matrix stays in view: two cells compare in the Diff panel beside it.
    connect(m_view, &ExperimentView::compareRequested, this, [this](qint64 left, qint64 right) {
        if (HistoryDocks *docks = m_window->historyDocks())
            docks->compareInPanel(left, right);
    });
    connect(m_view, &ExperimentView::message, this,
            [this](const QString &text) { m_window->statusBar()->showMessage(text, 5000); });
    // A file that was opened (or cannot run) is what the person looks at next.
    connect(m_view, &ExperimentView::loaded, this, [this] {
        showView();
        // The calls of the cells open in History: have it in front on the right.
        if (HistoryDocks *docks = m_window->historyDocks()) {
            docks->historyDock()->show();
            docks->historyDock()->raise();
        }
    });
    connect(m_view, &ExperimentView::stateChanged, this, &ExperimentsHost::updateActions);
    connect(m_view, &ExperimentView::loaded, this, &ExperimentsHost::updateActions);
    connect(m_view, &ExperimentView::actionsChanged, this, &ExperimentsHost::updateActions);

    createActions();
    createMenus();
    updateActions();
}

ExperimentsHost::~ExperimentsHost() = default;

void ExperimentsHost::createActions()
{
    m_openAction = new QAction(QIcon::fromTheme(u"document-open"_s), tr("Open E&xperiment…"), this);
    m_openAction->setObjectName(u"openExperimentAction"_s);
    m_openAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    m_openAction->setStatusTip(
        tr("Open an experiment file: a spec over a dataset, in several variants, with checks"));
    connect(m_openAction, &QAction::triggered, this, [this] {
        showView();
        m_view->showOpenDialog();
    });
    m_newAction = new QAction(QIcon::fromTheme(u"document-new"_s), tr("&New Experiment…"), this);
    m_newAction->setObjectName(u"newExperimentAction"_s);
    m_newAction->setStatusTip(
        tr("Make a new experiment file in a form: the spec, cases, variants and assertions"));
    connect(m_newAction, &QAction::triggered, this, [this] {
        showView();
        m_view->showNewDialog();
    });
    m_runAction =
        new QAction(QIcon::fromTheme(u"media-playback-start"_s), tr("&Run Experiment"), this);
    m_runAction->setObjectName(u"runExperimentAction"_s);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_runAction->setStatusTip(tr("Run every case of the experiment in every variant"));
    connect(m_runAction, &QAction::triggered, this, [this] {
        showView();
        m_view->run();
    });
    m_stopAction =
        new QAction(QIcon::fromTheme(u"media-playback-stop"_s), tr("&Stop Experiment"), this);
    m_stopAction->setObjectName(u"stopExperimentAction"_s);
    connect(m_stopAction, &QAction::triggered, m_view, &ExperimentView::stop);
    m_resumeAction = new QAction(tr("Res&ume Experiment"), this);
    m_resumeAction->setObjectName(u"resumeExperimentAction"_s);
    m_resumeAction->setStatusTip(tr("Run only what the stored experiment has not run yet"));
    connect(m_resumeAction, &QAction::triggered, this, [this] {
        showView();
        m_view->resume();
    });
    m_fromSpecAction = new QAction(tr("Add Variant from the &Spec…"), this);
    m_fromSpecAction->setObjectName(u"experimentVariantFromSpecAction"_s);
    m_fromSpecAction->setStatusTip(
        tr("Add the spec in the editor to the experiment as a new variant"));
    connect(m_fromSpecAction, &QAction::triggered, this, [this] {
        showView();
        m_view->askVariantFromSpec();
    });
    m_fromCallAction = new QAction(tr("Add Variant from the Current &Call…"), this);
    m_fromCallAction->setObjectName(u"experimentVariantFromCallAction"_s);
    m_fromCallAction->setStatusTip(
        tr("Add the spec the current call ran with to the experiment as a new variant"));
    connect(m_fromCallAction, &QAction::triggered, this, [this] {
        showView();
        m_view->askVariantFromCall();
    });
    m_compareAction = new QAction(tr("&Compare Two Cells"), this);
    m_compareAction->setObjectName(u"experimentCompareAction"_s);
    m_compareAction->setStatusTip(tr("Show the calls of the two selected cells side by side"));
    connect(m_compareAction, &QAction::triggered, m_view, &ExperimentView::compareSelected);
    m_reviewAction = new QAction(tr("Re&view Outputs…"), this);
    m_reviewAction->setObjectName(u"experimentReviewAction"_s);
    m_reviewAction->setStatusTip(
        tr("Label the outputs of the run shown with the keyboard; the judge's verdict stays "
           "hidden until you have labelled"));
    connect(m_reviewAction, &QAction::triggered, this, [this] {
        showView();
        m_view->openReview();
    });
}

void ExperimentsHost::createMenus()
{
    // File: after Open Recent.
    QMenu *file = nullptr;
    for (QAction *top : m_window->menuBar()->actions()) {
        QMenu *menu = top->menu();
        if (!menu)
            continue;
        for (QAction *action : menu->actions()) {
            if (action->menuRole() == QAction::QuitRole)
                file = menu;
        }
    }
    if (file) {
        const QList<QAction *> actions = file->actions();
        QAction *after = nullptr;
        for (qsizetype i = 0; i < actions.size(); ++i) {
            if (actions.at(i)->menu()) { // Open Recent
                after = i + 1 < actions.size() ? actions.at(i + 1) : nullptr;
                break;
            }
        }
        file->insertAction(after, m_openAction);
    }

    m_menu = new QMenu(tr("E&xperiment"), m_window);
    m_menu->setObjectName(u"experimentMenu"_s);
    m_menu->addAction(m_newAction);
    m_menu->addAction(m_openAction);
    m_menu->addSeparator();
    m_menu->addAction(m_runAction);
    m_menu->addAction(m_stopAction);
    m_menu->addAction(m_resumeAction);
    m_menu->addSeparator();
    m_menu->addAction(m_fromSpecAction);
    m_menu->addAction(m_fromCallAction);
    m_menu->addSeparator();
    m_menu->addAction(m_compareAction);
    m_menu->addAction(m_reviewAction);
    // Before History, so the window's menus read File, Edit, View, Run, Experiment, History, Help.
    QAction *before = nullptr;
    for (QAction *top : m_window->menuBar()->actions()) {
        if (top->menu() && top->menu()->objectName() == u"historyMenu"_s)
            before = top;
    }
    m_window->menuBar()->insertMenu(before, m_menu);
}

void ExperimentsHost::updateActions()
{
    const bool loaded = m_view->experiment().has_value();
    const bool running = m_view->isRunning();
    m_runAction->setEnabled(loaded && !running);
    m_stopAction->setEnabled(m_view->state() == ExperimentView::State::Running);
    m_resumeAction->setEnabled(!running && m_view->canResume());
    m_fromSpecAction->setEnabled(loaded && !running);
    m_fromCallAction->setEnabled(loaded && !running);
    m_reviewAction->setEnabled(m_view->reviewButton()->isEnabled());
    m_compareAction->setEnabled(m_view->compareButton()->isEnabled());
    m_openAction->setEnabled(!running);
    m_newAction->setEnabled(!running);
}

void ExperimentsHost::showView()
{
    m_window->openDocumentTab(m_view, tr("E&xperiment"));
}

bool ExperimentsHost::openFile(const QString &path)
{
    showView();
    return m_view->openFile(path);
}

} // namespace Callscope
