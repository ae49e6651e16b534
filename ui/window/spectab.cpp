#include "ui/window/spectab.h"

#include "core/model/specio.h"
#include "core/secrets/profilestore.h"
#include "ui/editor/specdocument.h"
#include "ui/editor/specformeditor.h"
#include "ui/run/runpanel.h"
#include "ui/widgets/fitscrollarea.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/jsonlocator.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/studioservices.h"
#include "ui/widgets/undokeys.h"

#include <QAction>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTextCursor>
#include <QUndoStack>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

SpecTab::SpecTab(SpecDocument *document, StudioServices *services, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_form(new SpecFormEditor(document, this))
    , m_json(new JsonEditor(this))
    , m_editorTabs(new QTabWidget(this))
    , m_messages(new NoticeBar(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
{
    setObjectName(u"specTab"_s);
    document->setParent(this);

    m_form->setObjectName(u"specForm"_s);
    if (services) {
        m_form->setProfileStore(services->profiles());
        // Checked against the engine profiles, as callscope-cli lint does (the type of a spec
        // that names a profile and no type, the key rules).
        document->setProfileStore(services->profiles());
    }

    m_json->setObjectName(u"specEditor"_s);
    m_json->setAccessibleName(tr("Spec as JSON"));
    m_json->setTabChangesFocus(false);
    m_json->showDocument(document->textDocument());
    m_json->installEventFilter(new UndoKeysToWindow(m_json));

    m_editorTabs->setObjectName(u"editorTabs"_s);
    m_editorTabs->setAccessibleName(tr("Spec"));
    m_editorTabs->setDocumentMode(true);
    m_editorTabs->addTab(m_form, tr("&Form"));
    m_editorTabs->addTab(m_json, tr("JS&ON"));

    auto *editorBox = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editorBox);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_messages);
    editorLayout->addWidget(m_editorTabs, 1);
    // Scrolled only below its own minimum, so a wide sidebar page (History, Sessions) can take
    // the room for a while.
    auto *editorSide = new FitScrollArea(this);
    editorSide->setObjectName(u"editorScroll"_s);
    editorSide->setContent(editorBox);

    m_run = new RunPanel(services ? services->calls() : nullptr,
                         services ? services->profiles() : nullptr, this);
    // A run waits for the check of the text as it is (pending form edits written in first).
    m_run->setSpecReadiness([this](QObject *context, std::function<void()> ready) {
        m_form->flushPendingEdits();
        m_document->whenChecked(context, std::move(ready));
    });
    m_run->setSpecProvider([this] { return specForRun(); });
    m_run->restoreState();
    if (services && !services->databaseError().isEmpty())
        m_run->messageBar()->showMessage(
            tr("Calls are not stored: %1").arg(services->databaseError()),
            NoticeBar::Kind::Warning);
    // A history the role may only read (a reader on a shared server): nothing can run, said
    // before anyone presses Run (the run would be paid for and then not kept).
    if (services)
        m_historyBlock = services->context()->historyReadOnlyReason();
    if (!m_historyBlock.isEmpty())
        m_run->messageBar()->showMessage(tr("The history is read-only: %1").arg(m_historyBlock),
                                         NoticeBar::Kind::Warning);
    // The window's Run action (Ctrl+R) is the one that runs; the panel's button stays.
    m_run->runAction()->setShortcut(QKeySequence());
    // Scrolled only below its own minimum, so the run view never forces a wide window.
    auto *runScroll = new FitScrollArea(this);
    runScroll->setObjectName(u"runScroll"_s);
    runScroll->setContent(m_run);

    m_splitter->setObjectName(u"specTabSplitter"_s);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(editorSide);
    m_splitter->addWidget(runScroll);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    // The editor keeps the width its form needs (at 1280 px there is room for it beside the run
    // view even with History open in the sidebar); it scrolls sideways only on smaller screens.
    editorSide->setMinimumWidth(
        std::min(editorBox->minimumSizeHint().width() + 2 * editorSide->frameWidth()
                     + editorSide->style()->pixelMetric(QStyle::PM_ScrollBarExtent),
                 480));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);

    // The form is a view of the document; what the document's check finds also decides
    // whether the run view may run.
    connect(m_document, &SpecDocument::checked, this, &SpecTab::updateBanner);
    connect(m_run, &RunPanel::waitingChanged, this, [this](bool waiting) {
        m_waiting = waiting;
        Q_EMIT waitingChanged(waiting);
    });
    // A run that cannot start says why in the run panel; the field to fix is shown in the form.
    connect(m_run, &RunPanel::preflightFailed, this, [this](const QString &pointer) {
        showForm();
        m_form->revealEngineField(pointer);
    });
    reloadForm();
}

SpecTab::~SpecTab() = default;

void SpecTab::showForm()
{
    m_editorTabs->setCurrentWidget(m_form);
}

void SpecTab::showJson()
{
    m_editorTabs->setCurrentWidget(m_json);
}

void SpecTab::reloadForm()
{
    // The form starts over from the document's spec (a file that does not load: an empty one).
    m_form->reload();
    updateBanner();
}

std::optional<Spec> SpecTab::specForRun()
{
    if (!m_historyBlock.isEmpty()) {
        m_run->messageBar()->showMessage(tr("Cannot run: %1").arg(m_historyBlock),
                                         NoticeBar::Kind::Error);
        return std::nullopt;
    }
    if (!m_document->check().runnable()) {
        m_run->messageBar()->showMessage(
            tr("The spec cannot run: %1").arg(m_document->check().blockingReason()),
            NoticeBar::Kind::Error);
        return std::nullopt;
    }
    return m_document->spec();
}

void SpecTab::revealFinding(const QString &pointer, int line, int column)
{
    showJson();
    if (line > 0) {
        m_json->revealLineColumn(line, column);
        return;
    }
    QTextCursor cursor(m_json->document());
    cursor.setPosition(std::clamp(JsonLocator(m_json->toPlainText()).nearestStart(pointer), 0,
                                  m_json->document()->characterCount() - 1));
    m_json->setTextCursor(cursor);
    m_json->centerCursor();
}

void SpecTab::updateBanner()
{
    const SpecCheck &check = m_document->check();
    if (!check.ok() && check.errors.isEmpty()) {
        // Not checked yet (the first check of a file just opened is under way).
        m_run->setBlockedReason(m_historyBlock);
        return;
    }
    if (!check.ok()) {
        const QString first = check.errors.constFirst().toString();
        m_messages->showMessage(
            check.errors.size() == 1
                ? tr("This spec cannot run: %1").arg(first)
                : tr("This spec cannot run: %1 (and %2 more problems in Findings)")
                      .arg(first)
                      .arg(check.errors.size() - 1),
            NoticeBar::Kind::Error);
    } else if (!check.schemaErrors.isEmpty()) {
        const SpecSchemaError &first = check.schemaErrors.constFirst();
        const qsizetype more = check.schemaErrors.size() - 1;
        const QString where = tr("%1: %2").arg(first.pointer, first.message);
        m_messages->showMessage(
            more == 0 ? tr("This spec cannot run: %1").arg(where)
                      : tr("This spec cannot run: %1 (and %n more in Findings)", nullptr, int(more))
                            .arg(where),
            NoticeBar::Kind::Error);
    } else if (m_messages->kind() == NoticeBar::Kind::Error) {
        m_messages->clearMessage();
    }
    if (!m_historyBlock.isEmpty())
        m_run->setBlockedReason(m_historyBlock);
    else
        m_run->setBlockedReason(check.runnable() ? QString() : check.blockingReason());
}

} // namespace Callscope
