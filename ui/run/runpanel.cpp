#include "ui/run/runpanel.h"

#include "core/secrets/profilestore.h"
#include "core/secrets/truststore.h"
#include "core/service/calljob.h"
#include "ui/run/attachmentmodel.h"
#include "ui/run/partialoutputmodel.h"
#include "ui/run/timelineview.h"
#include "ui/run/transcriptdelegate.h"
#include "ui/run/transcriptmodel.h"
#include "ui/widgets/approvalpanel.h"
#include "ui/widgets/dialogs.h"
#include "ui/widgets/displaynames.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/rawexchangeview.h"
#include "ui/widgets/trustdialog.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

QString pretty(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isString())
        return value.toString();
    const QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

QString argumentsText(const ToolCall &call)
{
    if (!call.argumentsError.isEmpty())
        return QCoreApplication::translate("Callscope::RunPanel", "%1\n(not a JSON object: %2)")
            .arg(call.rawArguments, call.argumentsError);
    return pretty(call.arguments);
}

// A menu of toggles that stays open while they are switched, so several breakpoints can be set
// in one go.
class ToggleMenu final : public QMenu
{
public:
    using QMenu::QMenu;

protected:
    void mouseReleaseEvent(QMouseEvent *event) override
    {
        QAction *action = activeAction();
        if (action && action->isEnabled() && action->isCheckable()
            && rect().contains(event->position().toPoint())) {
            action->trigger();
            return;
        }
        QMenu::mouseReleaseEvent(event);
    }
};

// An editor at a pause is as tall as its text, within bounds; longer text scrolls.
void fitToText(QPlainTextEdit *edit, int minLines, int maxLines)
{
    int lines = 0;
    for (QTextBlock b = edit->document()->begin(); b.isValid() && lines <= maxLines; b = b.next())
        lines += std::max(1, b.layout() ? b.layout()->lineCount() : 1);
    lines = std::clamp(lines, minLines, maxLines);
    edit->setFixedHeight(lines * edit->fontMetrics().lineSpacing() + 2 * edit->frameWidth()
                         + int(2 * edit->document()->documentMargin()) + 4);
}

// The raw wire exchange of one turn: the request body sent and the response received.
class RawExchangeDialog final : public QDialog
{
    Q_OBJECT

public:
    RawExchangeDialog(int turn, const TranscriptModel::TurnRaw &raw, QWidget *parent)
        : QDialog(parent)
    {
        setWindowTitle(tr("Turn %1: raw request and response").arg(turn + 1));
        setAttribute(Qt::WA_DeleteOnClose);
        auto *exchange = new RawExchangeView(this);
        exchange->setExchange(raw.requestBody, raw.rawResponse, raw.rawResponseBytes);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
        connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
        auto *layout = new QVBoxLayout(this);
        layout->addWidget(exchange);
        layout->addWidget(buttons);
        resize(760, 560);
    }
};

} // namespace

RunPanel::RunPanel(CallService *service, ProfileStore *profiles, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_profiles(profiles)
    , m_transcript(new TranscriptModel(this))
    , m_attachments(new AttachmentModel(this))
    , m_messages(new NoticeBar(this))
{
    setObjectName(u"runPanel"_s);
    setAccessibleName(tr("Run panel"));
    setAcceptDrops(true);
    createActions();

    // Input and attachments.
    m_input = new QPlainTextEdit(this);
    m_input->setObjectName(u"runInput"_s);
    m_input->setAccessibleName(tr("Input text"));
    m_input->setPlaceholderText(tr("The user's input for this call"));
    m_input->setTabChangesFocus(true);
    m_attachmentView = new QListView(this);
    m_attachmentView->setObjectName(u"attachments"_s);
    m_attachmentView->setAccessibleName(tr("Attachments"));
    m_attachmentView->setModel(m_attachments);
    m_attachmentView->setMaximumHeight(64);
    m_attachmentView->addAction(m_removeAttachmentAction);
    m_attachmentView->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *attachButton = new QToolButton(this);
    attachButton->setObjectName(u"attachButton"_s);
    attachButton->setDefaultAction(m_attachAction);
    // Its words beside the icon: a bare file icon says nothing to someone new.
    attachButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto *removeButton = new QToolButton(this);
    removeButton->setDefaultAction(m_removeAttachmentAction);
    auto *attachRow = new QHBoxLayout;
    attachRow->addWidget(m_attachmentView, 1);
    auto *attachButtons = new QHBoxLayout;
    attachButtons->addWidget(attachButton);
    attachButtons->addWidget(removeButton);
    attachRow->addLayout(attachButtons);
    attachRow->setAlignment(attachButtons, Qt::AlignTop | Qt::AlignLeft);
    // The list takes room only when there is something in it.
    auto updateAttachments = [this, removeButton] {
        const bool any = m_attachments->rowCount() > 0;
        m_attachmentView->setVisible(any);
        removeButton->setVisible(any);
    };
    connect(m_attachments, &QAbstractItemModel::rowsInserted, this, updateAttachments);
    connect(m_attachments, &QAbstractItemModel::rowsRemoved, this, updateAttachments);
    connect(m_attachments, &QAbstractItemModel::modelReset, this, updateAttachments);
    updateAttachments();

    // Controls: the run commands and the breakpoints menu on one row, narrow enough for a
    // column beside the spec.
    auto *controls = new QHBoxLayout;
    for (QAction *a : { m_runAction, m_stepAction, m_continueAction, m_stopAction }) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setObjectName(a->objectName() + u"Button"_s);
        controls->addWidget(b);
    }
    controls->addStretch(1);
    auto *bpMenu = new ToggleMenu(this);
    bpMenu->setObjectName(u"breakpointsMenu"_s);
    bpMenu->setToolTipsVisible(true);
    bpMenu->addSection(tr("Pause the run"));
    bpMenu->addActions(m_breakpointActions);
    // A push button draws its menu arrow beside the words, not over them.
    m_breakpointsButton = new QPushButton(this);
    m_breakpointsButton->setObjectName(u"breakpointsButton"_s);
    m_breakpointsButton->setAccessibleName(tr("Breakpoints"));
    m_breakpointsButton->setMenu(bpMenu);
    controls->addWidget(m_breakpointsButton);
    for (QAction *a : std::as_const(m_breakpointActions)) {
        connect(a, &QAction::toggled, this, [this] {
            updateBreakpointsButton();
            applyBreakpointsToRun();
        });
    }
    updateBreakpointsButton();

    m_status = new QLabel(this);
    m_status->setObjectName(u"runStatus"_s);
    m_status->setAccessibleName(tr("Run status"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    QFont statusFont = m_status->font();
    statusFont.setBold(true);
    m_status->setFont(statusFont);
    m_usage = new QLabel(this);
    m_usage->setObjectName(u"runUsage"_s);
    m_usage->setAccessibleName(tr("Attempts and token usage"));
    m_usage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_usage->setWordWrap(true);
    auto *statusRow = new QVBoxLayout;
    statusRow->setSpacing(2);
    statusRow->addWidget(m_status);
    statusRow->addWidget(m_usage);

    // Transcript and detail.
    m_view = new TimelineView(this);
    m_view->setObjectName(u"transcript"_s);
    m_view->setAccessibleName(tr("Timeline of the run"));
    m_view->setModel(m_transcript);
    m_view->setHeaderHidden(true);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(false);
    m_view->setWordWrap(true);
    m_view->setItemDelegate(new TranscriptDelegate(m_view));
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    // What the empty transcript is for, until the first entry arrives.
    m_transcriptHint = new QLabel(
        tr("Run (Ctrl+R) sends the input to the engine. The conversation appears here as "
           "it happens: the model's replies, each tool call and its result, corrections, "
           "retries, and the checked answer. Select an entry to read all of it.\n\n"
           "New here? File > Open Sample opens a spec that runs offline, with no key."),
        m_view->viewport());
    m_transcriptHint->setObjectName(u"transcriptHint"_s);
    m_transcriptHint->setWordWrap(true);
    m_transcriptHint->setAlignment(Qt::AlignCenter);
    m_transcriptHint->setForegroundRole(QPalette::PlaceholderText);
    m_transcriptHint->setMargin(24);
    auto *hintLayout = new QVBoxLayout(m_view->viewport());
    hintLayout->addWidget(m_transcriptHint);
    auto updateHint = [this] {
        m_transcriptHint->setVisible(m_transcript->rowCount() == 0);
    };
    connect(m_transcript, &QAbstractItemModel::rowsInserted, this, updateHint);
    connect(m_transcript, &QAbstractItemModel::rowsRemoved, this, updateHint);
    connect(m_transcript, &QAbstractItemModel::modelReset, this, updateHint);
    m_detail = new QPlainTextEdit(this);
    m_detail->setObjectName(u"transcriptDetail"_s);
    m_detail->setAccessibleName(tr("Selected transcript entry"));
    m_detail->setReadOnly(true);
    m_detail->setPlaceholderText(tr("Select an entry to see all of it"));
    auto *detailBox = new QWidget(this);
    auto *dl = new QVBoxLayout(detailBox);
    dl->setContentsMargins(0, 0, 0, 0);
    auto *rawButton = new QToolButton(detailBox);
    rawButton->setDefaultAction(m_rawAction);
    rawButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    dl->addWidget(m_detail, 1);
    dl->addWidget(rawButton, 0, Qt::AlignRight);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &current) { showDetail(current); });
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (index.data(TranscriptModel::HasRawRole).toBool())
            showRawExchange();
    });
    connect(m_transcript, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &tl) {
        if (m_view->currentIndex() == tl)
            showDetail(tl);
    });
    // Follow the newest entry while the view is scrolled to the end.
    auto follow = [this] {
        QScrollBar *bar = m_view->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 4)
            QMetaObject::invokeMethod(m_view, &QTreeView::scrollToBottom, Qt::QueuedConnection);
    };
    connect(m_transcript, &QAbstractItemModel::rowsInserted, this, follow);
    connect(m_transcript, &TranscriptModel::flushed, this, follow);

    // Pause editor.
    // No title of its own: it stands in the timeline row that says where the run paused.
    m_pausePanel = new QGroupBox(this);
    m_pausePanel->setObjectName(u"pausePanel"_s);
    m_pausePanel->setAccessibleName(tr("Paused at a breakpoint"));
    m_pauseLabel = new QLabel(m_pausePanel);
    m_pauseLabel->setWordWrap(true);
    QFont pauseFont = m_pauseLabel->font();
    pauseFont.setBold(true);
    m_pauseLabel->setFont(pauseFont);
    m_pauseArgs = new JsonEditor(m_pausePanel);
    m_pauseArgs->setObjectName(u"pauseArguments"_s);
    m_pauseArgs->setAccessibleName(tr("Pending tool arguments"));
    m_pauseResult = new QPlainTextEdit(m_pausePanel);
    m_pauseResult->setObjectName(u"pauseResult"_s);
    m_pauseResult->setAccessibleName(tr("Pending tool result"));
    m_pauseResult->setTabChangesFocus(true);
    m_pauseIsError = new QCheckBox(tr("The result is an error"), m_pausePanel);
    m_pauseIsError->setObjectName(u"pauseResultIsError"_s);
    m_pauseInfo = new QPlainTextEdit(m_pausePanel);
    m_pauseInfo->setObjectName(u"pauseInfo"_s);
    m_pauseInfo->setAccessibleName(tr("What is pending"));
    m_pauseInfo->setReadOnly(true);
    // Buttons that take the focus and answer Enter when they have it.
    auto pauseButton = [this](QAction *action, const QString &text, const QString &name) {
        auto *b = new QPushButton(action->icon(), text, m_pausePanel);
        b->setObjectName(name);
        b->setToolTip(action->toolTip());
        b->setAutoDefault(true);
        connect(b, &QPushButton::clicked, action, &QAction::trigger);
        return b;
    };
    m_pauseStop = pauseButton(m_stopAction, tr("Stop"), u"pauseStopButton"_s);
    m_pauseStep = pauseButton(m_stepAction, tr("Step"), u"pauseStepButton"_s);
    m_pauseStep->setToolTip(tr("Go on and pause again at the next point (F10)"));
    m_pauseContinue = pauseButton(m_continueAction, tr("Continue"), u"pauseContinueButton"_s);
    auto *pauseButtons = new QHBoxLayout;
    pauseButtons->addStretch(1);
    pauseButtons->addWidget(m_pauseStop);
    pauseButtons->addWidget(m_pauseStep);
    pauseButtons->addWidget(m_pauseContinue);
    // A complaint about what was typed here is shown here, next to it.
    m_pauseMessages = new NoticeBar(m_pausePanel);
    m_pauseMessages->setObjectName(u"pauseMessages"_s);
    auto *pl = new QVBoxLayout(m_pausePanel);
    pl->addWidget(m_pauseLabel);
    pl->addWidget(m_pauseMessages);
    pl->addWidget(m_pauseArgs);
    pl->addWidget(m_pauseResult);
    pl->addWidget(m_pauseIsError);
    pl->addWidget(m_pauseInfo);
    pl->addLayout(pauseButtons);
    // A card in the timeline, like the approval panel.
    m_pausePanel->setAutoFillBackground(true);
    QPalette pausePalette = m_pausePanel->palette();
    pausePalette.setColor(QPalette::Window, pausePalette.color(QPalette::AlternateBase));
    m_pausePanel->setPalette(pausePalette);
    m_pausePanel->hide();

    m_approval = new ApprovalPanel(this);
    connect(m_approval, &ApprovalPanel::approved, this,
            [this](const QString &id, const std::optional<QJsonObject> &edited, bool always) {
                if (!m_runner)
                    return;
                const QString name = m_approval->call().name;
                if (edited && *edited != m_approval->call().arguments)
                    markEdited(id, *edited);
                const bool changed = m_editedCalls.contains(id);
                TranscriptModel::Item note;
                note.kind = TranscriptModel::Kind::Note;
                note.title = changed ? tr("Approved with your edited arguments") : tr("Approved");
                note.text = changed ? tr("%1 runs with the arguments you edited").arg(name)
                                    : tr("%1 runs as the model asked").arg(name);
                if (always)
                    note.text += tr(" (always allowed for the rest of this run)");
                endPending(note);
                if (always)
                    m_runner->alwaysAllow(name);
                m_runner->approve(id, edited);
            });
    connect(m_approval, &ApprovalPanel::refused, this,
            [this](const QString &id, const QString &reason) {
                if (!m_runner)
                    return;
                TranscriptModel::Item note;
                note.kind = TranscriptModel::Kind::Note;
                note.title = tr("Refused");
                note.text = reason.isEmpty() ? tr("No reason given") : reason;
                endPending(note);
                m_runner->refuse(id, reason);
            });
    connect(m_approval, &ApprovalPanel::manualResult, this,
            [this](const QString &id, const QString &text, bool isError) {
                if (!m_runner)
                    return;
                const QString name = m_approval->call().name;
                endPending(TranscriptModel::Item {
                    TranscriptModel::Kind::Note,
                    isError ? tr("Error result typed by you") : tr("Result typed by you"),
                    tr("%1 (%2) gets the text you typed").arg(name, id) });
                m_runner->provideManualResult(id, text, isError);
            });

    // Run on another engine (after a refusal or any failure).
    m_otherEngine = new QGroupBox(tr("Run on another engine"), this);
    m_otherEngine->setObjectName(u"otherEnginePanel"_s);
    m_otherEngine->setAccessibleName(tr("Run on another engine"));
    m_otherProfile = new QComboBox(m_otherEngine);
    m_otherProfile->setObjectName(u"otherEngineProfile"_s);
    m_otherProfile->setAccessibleName(tr("Engine profile"));
    m_otherType = new QComboBox(m_otherEngine);
    m_otherType->setObjectName(u"otherEngineType"_s);
    m_otherType->setAccessibleName(tr("Engine type"));
    for (const QString &name : engineTypeNames()) {
        if (name != u"replay")
            m_otherType->addItem(name, name);
    }
    m_otherModel = new QLineEdit(m_otherEngine);
    m_otherModel->setObjectName(u"otherEngineModel"_s);
    m_otherModel->setAccessibleName(tr("Model"));
    m_otherBaseUrl = new QLineEdit(m_otherEngine);
    m_otherBaseUrl->setObjectName(u"otherEngineBaseUrl"_s);
    m_otherBaseUrl->setAccessibleName(tr("Base URL"));
    m_otherBaseUrl->setPlaceholderText(tr("the provider's public endpoint"));
    m_otherKeyEnv = new QLineEdit(m_otherEngine);
    m_otherKeyEnv->setObjectName(u"otherEngineKeyEnv"_s);
    m_otherKeyEnv->setAccessibleName(tr("API key environment variable"));
    auto *otherRun = new QPushButton(tr("Run &There"), m_otherEngine);
    otherRun->setObjectName(u"runOnOtherEngineButton"_s);
    connect(otherRun, &QPushButton::clicked, this, &RunPanel::runOnOtherEngine);
    auto *of = new QFormLayout(m_otherEngine);
    of->addRow(tr("&Profile:"), m_otherProfile);
    of->addRow(tr("or engine t&ype:"), m_otherType);
    of->addRow(tr("&Model:"), m_otherModel);
    of->addRow(tr("Base &URL:"), m_otherBaseUrl);
    of->addRow(tr("API &key variable:"), m_otherKeyEnv);
    of->addRow(QString(), otherRun);
    connect(m_otherProfile, &QComboBox::currentIndexChanged, this, [this] {
        const bool none = m_otherProfile->currentIndex() <= 0;
        m_otherType->setEnabled(none);
        m_otherBaseUrl->setEnabled(none);
        m_otherKeyEnv->setEnabled(none);
    });
    m_otherEngine->hide();

    auto *top = new QWidget(this);
    auto *tl = new QVBoxLayout(top);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addWidget(m_input, 1);
    tl->addLayout(attachRow);
    // One column: the input, the timeline (most of the room), the selected entry (which can be
    // dragged smaller or closed).
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(u"runSplitter"_s);
    m_splitter->addWidget(top);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(detailBox);
    m_splitter->setCollapsible(0, false);
    m_splitter->setCollapsible(1, false);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 0);
    m_splitter->setSizes({ 90, 420, 110 });
    m_input->setMinimumHeight(m_input->fontMetrics().lineSpacing() * 2 + 12);
    m_detail->setMinimumHeight(m_detail->fontMetrics().lineSpacing() * 2 + 12);
    // What waits on the person (an approval, a pause) is shown whole: the timeline takes the
    // room it lacks from the selected entry's box, then from the input.
    connect(m_view, &TimelineView::needsRoom, this, [this, top](int pixels) {
        QList<int> sizes = m_splitter->sizes();
        if (sizes.size() != 3)
            return;
        if (m_sizesBeforeWait.isEmpty())
            m_sizesBeforeWait = sizes;
        const int fromDetail = std::min(pixels, sizes[2]);
        sizes[2] -= fromDetail;
        const int fromInput =
            std::min(pixels - fromDetail, std::max(0, sizes[0] - top->minimumSizeHint().height()));
        sizes[0] -= fromInput;
        if (fromDetail + fromInput == 0)
            return;
        sizes[1] += fromDetail + fromInput;
        m_splitter->setSizes(sizes);
    });

    // What the run waits on is shown inline in the timeline; until then these wait hidden.
    m_pausePanel->setParent(m_view->viewport());
    m_pausePanel->hide();
    m_approval->setParent(m_view->viewport());
    m_approval->hide();

    // The structured answer as it streams, field by field; shown once a reply brings one.
    m_partial = new PartialOutputModel(this);
    m_partialBox = new QGroupBox(tr("Answer so far"), this);
    m_partialBox->setObjectName(u"partialOutput"_s);
    m_partialSummary = new QLabel(m_partialBox);
    m_partialSummary->setObjectName(u"partialOutputSummary"_s);
    m_partialSummary->setWordWrap(true);
    auto *partialView = new QTreeView(m_partialBox);
    partialView->setObjectName(u"partialOutputView"_s);
    partialView->setAccessibleName(tr("Fields of the answer as it streams"));
    partialView->setModel(m_partial);
    partialView->setRootIsDecorated(false);
    partialView->setUniformRowHeights(true);
    partialView->setSelectionMode(QAbstractItemView::NoSelection);
    partialView->header()->setStretchLastSection(true);
    partialView->setMaximumHeight(partialView->fontMetrics().lineSpacing() * 8 + 24);
    auto *partialLayout = new QVBoxLayout(m_partialBox);
    partialLayout->addWidget(m_partialSummary);
    partialLayout->addWidget(partialView, 1);
    m_partialBox->hide();
    connect(m_partial, &PartialOutputModel::progressChanged, this, [this, partialView] {
        const bool any = !m_partial->isEmpty();
        m_partialBox->setVisible(any);
        m_partialSummary->setText(m_partial->summary());
        if (any && m_partial->rowCount() > 0)
            partialView->scrollTo(m_partial->index(m_partial->rowCount() - 1, 0));
    });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(statusRow);
    layout->addWidget(m_messages);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_partialBox);
    layout->addWidget(m_otherEngine);

    refreshProfiles();
    updateStatus();
    updateActions();
}

RunPanel::~RunPanel() = default;

void RunPanel::createActions()
{
    auto make = [this](const QString &text, const QKeySequence &key, const QString &name,
                       QStyle::StandardPixmap icon) {
        auto *a = new QAction(style()->standardIcon(icon), text, this);
        a->setShortcut(key);
        a->setObjectName(name);
        a->setToolTip(
            tr("%1 (%2)").arg(QString(text).remove(u'&'), key.toString(QKeySequence::NativeText)));
        a->setShortcutContext(Qt::WindowShortcut);
        addAction(a);
        return a;
    };
    m_runAction =
        make(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), u"runAction"_s, QStyle::SP_MediaPlay);
    m_stepAction =
        make(tr("S&tep"), QKeySequence(Qt::Key_F10), u"stepAction"_s, QStyle::SP_MediaSeekForward);
    m_continueAction = make(tr("&Continue"), QKeySequence(Qt::Key_F5), u"continueAction"_s,
                            QStyle::SP_MediaSkipForward);
    m_stopAction = make(tr("St&op"), QKeySequence(Qt::SHIFT | Qt::Key_F5), u"stopAction"_s,
                        QStyle::SP_MediaStop);
    m_rawAction = make(tr("Raw Request/&Response…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_J),
                       u"rawAction"_s, QStyle::SP_FileDialogDetailedView);
    m_attachAction = make(tr("&Attach Files…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                          u"attachAction"_s, QStyle::SP_FileIcon);
    m_removeAttachmentAction =
        new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("Remove Attachment"), this);
    m_removeAttachmentAction->setShortcut(QKeySequence::Delete);
    m_removeAttachmentAction->setShortcutContext(Qt::WidgetShortcut);
    connect(m_runAction, &QAction::triggered, this, &RunPanel::run);
    connect(m_stepAction, &QAction::triggered, this, &RunPanel::step);
    connect(m_continueAction, &QAction::triggered, this, &RunPanel::continueRun);
    connect(m_stopAction, &QAction::triggered, this, &RunPanel::stop);
    connect(m_rawAction, &QAction::triggered, this, &RunPanel::showRawExchange);
    connect(m_attachAction, &QAction::triggered, this, &RunPanel::addAttachments);
    connect(m_removeAttachmentAction, &QAction::triggered, this,
            [this] { m_attachments->remove(m_attachmentView->currentIndex().row()); });

    const std::pair<Breakpoint, QString> kinds[] = {
        { Breakpoint::BeforeRequest, tr("Before &request") },
        { Breakpoint::AfterReply, tr("After re&ply") },
        { Breakpoint::BeforeTool, tr("Before &tool") },
        { Breakpoint::AfterToolResult, tr("After tool res&ult") },
        { Breakpoint::OnValidationFailure, tr("On &validation failure") },
    };
    int n = 1;
    for (const auto &[bp, text] : kinds) {
        auto *a = new QAction(text, this);
        a->setCheckable(true);
        a->setData(unsigned(bp));
        a->setObjectName(u"breakpoint_"_s + breakpointName(bp));
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key(Qt::Key_0 + n++)));
        a->setToolTip(tr("Pause %1 (%2)")
                          .arg(QString(text).remove(u'&').toLower(),
                               a->shortcut().toString(QKeySequence::NativeText)));
        addAction(a);
        m_breakpointActions.append(a);
    }
}

Breakpoints RunPanel::breakpoints() const
{
    Breakpoints bps;
    for (QAction *a : m_breakpointActions) {
        if (a->isChecked())
            bps |= Breakpoint(a->data().toUInt());
    }
    return bps;
}

void RunPanel::setBreakpoints(Breakpoints breakpoints)
{
    for (QAction *a : std::as_const(m_breakpointActions))
        a->setChecked(breakpoints.testFlag(Breakpoint(a->data().toUInt())));
}

void RunPanel::setInputText(const QString &text)
{
    m_input->setPlainText(text);
}

QString RunPanel::inputText() const
{
    return m_input->toPlainText();
}

QString RunPanel::sampleInputFor(const QString &specPath)
{
    QString base = specPath;
    if (base.endsWith(u".spec.json"_s))
        base.chop(int(QStringView(u".spec.json").size()));
    else if (base.endsWith(u".json"_s))
        base.chop(5);
    else
        return {};
    QFile file(base + u".input.txt"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

bool RunPanel::isRunning() const
{
    return m_launching || m_asking || m_preparing || !m_job.isNull();
}

void RunPanel::run()
{
    if (isRunning())
        return;
    // A new run starts from a clean view, also when it cannot start: the last run stays in
    // History, not beside the message about this one.
    resetView();
    if (m_specReadiness) {
        m_preparing = true;
        updateStatus();
        updateActions();
        const quint64 attempt = ++m_prepareAttempt;
        m_specReadiness(this, [this, attempt] {
            if (!m_preparing || attempt != m_prepareAttempt)
                return; // stopped meanwhile
            m_preparing = false;
            runCheckedSpec();
        });
        return;
    }
    runCheckedSpec();
}

void RunPanel::runCheckedSpec()
{
    updateStatus();
    updateActions();
    std::optional<Spec> spec = m_specProvider ? m_specProvider() : std::nullopt;
    if (!spec) {
        // The provider says why when it can (the spec's first error); keep that.
        if (m_messages->text().isEmpty())
            m_messages->showMessage(tr("There is no spec to run."), NoticeBar::Kind::Error);
        return;
    }
    LaunchRequest request;
    request.spec = *spec;
    request.input.text = m_input->toPlainText();
    request.input.attachments = m_attachments->attachments();
    request.options.attended = true;
    request.options.breakpoints = breakpoints();
    launch(request);
}

void RunPanel::step()
{
    if (isRunning() && !isPaused())
        return;
    setBreakpoints(Breakpoint::BeforeRequest | Breakpoint::AfterReply | Breakpoint::BeforeTool
                   | Breakpoint::AfterToolResult | Breakpoint::OnValidationFailure);
    if (isPaused())
        continueRun(); // the run now stops at the next point
    else
        run();
}

void RunPanel::updateBreakpointsButton()
{
    QStringList on;
    for (QAction *a : std::as_const(m_breakpointActions)) {
        if (a->isChecked())
            on.append(breakpointDisplayName(Breakpoint(a->data().toUInt())));
    }
    m_breakpointsButton->setText(on.isEmpty() ? tr("Breakpoints")
                                              : tr("Breakpoints (%1)").arg(on.size()));
    m_breakpointsButton->setToolTip(
        on.isEmpty() ? tr("Pause the run at chosen points: none chosen")
                     : tr("The run pauses %1").arg(QLocale().createSeparatedList(on)));
}

void RunPanel::applyBreakpointsToRun()
{
    // Toggled during a run: the run stops (or no longer stops) from its next point on.
    if (!m_runner)
        return;
    RunOptions options = m_runner->options();
    options.breakpoints = breakpoints();
    m_runner->setOptions(options);
}

void RunPanel::abandonPending()
{
    // The run ended while it waited for an answer: the row says so, without its buttons.
    if (m_pendingRow < 0 || m_view->pendingWidget() != m_approval
        || m_approval->mode() == ApprovalPanel::Mode::None) {
        endPending(std::nullopt);
        return;
    }
    const ToolCall call = m_approval->call();
    endPending(TranscriptModel::Item {
        TranscriptModel::Kind::Note, tr("Not answered"),
        tr("%1 (%2) was still waiting for you when the run ended").arg(call.name, call.id) });
}

QWidget *RunPanel::pendingWidget() const
{
    return m_view->pendingWidget();
}

QTreeView *RunPanel::transcriptView() const
{
    return m_view;
}

QString RunPanel::waitingSummary() const
{
    if (!isRunning())
        return {};
    if (m_approval->mode() == ApprovalPanel::Mode::Approval)
        return tr("%1 needs your approval").arg(m_approval->call().name);
    if (m_approval->mode() == ApprovalPanel::Mode::Manual)
        return tr("%1 needs its result from you").arg(m_approval->call().name);
    if (isPaused())
        return tr("Paused %1").arg(breakpointDisplayName(m_pausedAt));
    return {};
}

void RunPanel::showPending(QWidget *widget, const TranscriptModel::Item &row)
{
    endPending(std::nullopt);
    m_transcript->append(row);
    m_pendingRow = m_transcript->count() - 1;
    m_view->setPendingWidget(m_transcript->index(m_pendingRow), widget);
    setWaiting(true);
}

void RunPanel::endPending(const std::optional<TranscriptModel::Item> &outcome)
{
    if (m_pendingRow < 0)
        return;
    const int row = std::exchange(m_pendingRow, -1);
    m_view->clearPendingWidget();
    if (!m_sizesBeforeWait.isEmpty())
        m_splitter->setSizes(std::exchange(m_sizesBeforeWait, {}));
    if (row >= m_transcript->count())
        return;
    if (outcome) {
        m_transcript->setItem(row, *outcome);
        return;
    }
    m_transcript->remove(row);
    // Rows after it moved up by one.
    for (QHash<QString, int> *rows : { &m_resultRows, &m_callRows }) {
        for (auto it = rows->begin(); it != rows->end(); ++it) {
            if (it.value() > row)
                --it.value();
        }
    }
}

void RunPanel::resetView()
{
    m_lastResult.reset();
    m_pendingRow = -1;
    m_view->clearPendingWidget();
    if (!m_sizesBeforeWait.isEmpty())
        m_splitter->setSizes(std::exchange(m_sizesBeforeWait, {}));
    m_transcript->clear();
    m_partial->clear();
    m_detail->clear();
    m_resultRows.clear();
    m_callRows.clear();
    m_modelCalls.clear();
    m_editedCalls.clear();
    m_messages->clearMessage();
    m_otherEngine->hide();
    m_approval->dismiss();
    clearPause();
    m_firstRequestShown = false;
    m_total = Usage();
    m_lastTurnUsage = Usage();
    m_turns = 0;
    m_attempts = 0;
    m_retriesInTurn = 0;
    m_state = RunnerState::Idle;
}

QString RunPanel::editedResultText(const QString &content, const ToolOriginal &tool)
{
    return tr("Goes to the model (edited by you):\n%1\n\nThe tool returned%2:\n%3")
        .arg(content, tool.isError ? tr(" (an error)") : QString(), tool.content);
}

void RunPanel::markEdited(const QString &callId, const QJsonObject &edited)
{
    m_editedCalls.insert(callId);
    const int row = m_callRows.value(callId, -1);
    const auto model = m_modelCalls.constFind(callId);
    if (row < 0 || model == m_modelCalls.cend())
        return;
    TranscriptModel::Item item = m_transcript->item(row);
    item.title = tr("Tool call: %1 (%2) · arguments edited by you").arg(model->name, callId);
    item.text = tr("Runs with (edited by you):\n%1\n\nThe model asked for:\n%2")
                    .arg(pretty(edited), argumentsText(*model));
    m_transcript->setItem(row, item);
}

void RunPanel::launch(const LaunchRequest &request)
{
    m_lastSpec = request.spec;
    m_lastInput = request.input;
    resetView();
    // The service's one check, before anything is sent: a missing model, key or address is
    // shown here and no request (and no retry) is spent on it. What the file would run, or
    // where a profile's key would go, is asked first (docs/trust.md). The answer to "trust" is
    // remembered for the file's content and folder; a key sent elsewhere is asked again each
    // time.
    const LaunchCheck checked = m_service->check(request);
    switch (checked.verdict) {
    case LaunchCheck::Verdict::Ready:
        break;
    case LaunchCheck::Verdict::KeyRedirect:
        askTrust(request, {}, { checked.message });
        return;
    case LaunchCheck::Verdict::Untrusted:
        askTrust(request, checked.untrusted, {});
        return;
    case LaunchCheck::Verdict::NoProfile:
    case LaunchCheck::Verdict::Engine:
    case LaunchCheck::Verdict::Tools:
        m_messages->showMessage(
            (checked.verdict == LaunchCheck::Verdict::Tools
                 ? tr("Nothing was sent: a tool cannot start.\n%1\nFix it in the Tools tab of the "
                      "form, then run again.")
                 : tr("Nothing was sent: the engine is not ready.\n%1\nFix it in the Engine tab "
                      "of the form, then run again."))
                .arg(checked.message),
            NoticeBar::Kind::Error);
        updateStatus();
        updateActions();
        Q_EMIT preflightFailed(checked.pointer);
        return;
    }
    const EngineSpec &engine = checked.request.spec.engine;
    if (engine.type == EngineType::Replay)
        m_messages->showMessage(
            tr("Replay: the replies come from the recording %1, not from a model. Edits to the "
               "prompt, the schema or the tools do not change what it answers; pick a live engine "
               "to see their effect.")
                .arg(QFileInfo(engine.replay).fileName()),
            NoticeBar::Kind::Info);
    m_launching = true;
    updateStatus();
    updateActions();
    Q_EMIT runStarted();
    follow(m_service->launch(checked));
}

void RunPanel::askTrust(const LaunchRequest &request, const QList<RunItem> &items,
                        const QStringList &keyProblems)
{
    m_asking = true;
    updateStatus();
    updateActions();
    TrustDialog *dialog = TrustDialog::ask(
        window(), request.spec.sourcePath, items, keyProblems,
        [this, request, items, keyProblems](bool yes) {
            m_asking = false;
            if (!yes) {
                m_messages->showMessage(
                    keyProblems.isEmpty()
                        ? tr("Nothing was run or sent: the file is not trusted.")
                        : tr("Nothing was sent: the profile's key stays with its own address."),
                    NoticeBar::Kind::Info);
                updateStatus();
                updateActions();
                return;
            }
            LaunchRequest next = request;
            if (!keyProblems.isEmpty())
                next.allowKeyRedirect = true;
            if (!items.isEmpty()) {
                next.trusted = true;
                if (TrustStore *trust = m_service ? m_service->trustStore() : nullptr) {
                    QString error;
                    if (!trust->trust(trustEntryFor(request.spec), &error))
                        m_messages->showMessage(
                            tr("The answer could not be remembered: %1").arg(error),
                            NoticeBar::Kind::Warning);
                }
            }
            launch(next);
        });
    Q_EMIT trustAsked(dialog);
}

void RunPanel::follow(CallJob *job)
{
    // This panel shows this job and nothing else: its own runner, its own end.
    m_job = job;
    connect(job, &CallJob::runnerCreated, this, &RunPanel::onRunnerCreated);
    connect(job, &CallJob::attentionNeeded, this, [this] { Q_EMIT attentionNeeded(); });
    connect(job, &CallJob::finished, this, [this, job](const LaunchResult &result) {
        if (m_job == job)
            onFinished(result);
    });
}

void RunPanel::onRunnerCreated(Runner *runner)
{
    m_runner = runner;
    connect(runner, &Runner::stateChanged, this, [this](RunnerState state) {
        m_state = state;
        // The wait starts when its item is shown (showPending), so waitingSummary() is ready
        // when the signal goes out; it ends with the state.
        if (state != RunnerState::AwaitingApproval && state != RunnerState::AwaitingManual
            && state != RunnerState::Paused)
            setWaiting(false);
        updateStatus();
        updateActions();
    });
    connect(
        runner, &Runner::requestBuilt, this,
        [this](int, const ChatRequest &request, const QJsonObject &) {
            if (m_firstRequestShown)
                return;
            m_firstRequestShown = true;
            if (!request.system.isEmpty())
                m_transcript->append(
                    { TranscriptModel::Kind::System, tr("System prompt"), request.system });
            for (const Message &m : request.messages) {
                switch (m.role) {
                case Role::User: {
                    QString text = m.text;
                    for (const Attachment &a : m.attachments)
                        text += tr("\n[attachment: %1, %2, %3]")
                                    .arg(a.name, a.mediaType, QLocale().formattedDataSize(a.size));
                    m_transcript->append({ TranscriptModel::Kind::User, tr("User"), text });
                    break;
                }
                case Role::Assistant:
                    if (!m.text.isEmpty())
                        m_transcript->append(
                            { TranscriptModel::Kind::Assistant, tr("Assistant"), m.text });
                    for (const ToolCall &c : m.toolCalls)
                        m_transcript->append({ TranscriptModel::Kind::ToolCall,
                                               tr("Tool call: %1 (%2)").arg(c.name, c.id),
                                               argumentsText(c) });
                    break;
                case Role::Tool:
                    for (const ToolResult &r : m.toolResults) {
                        if (r.toolOriginal)
                            m_transcript->append(
                                { TranscriptModel::Kind::ToolResult,
                                  tr("Result of %1 (%2) · edited by you").arg(r.name, r.callId),
                                  editedResultText(r.content, *r.toolOriginal), -1, r.isError });
                        else
                            m_transcript->append({ TranscriptModel::Kind::ToolResult,
                                                   tr("Result of %1 (%2)").arg(r.name, r.callId),
                                                   r.content, -1, r.isError });
                    }
                    break;
                case Role::System:
                    m_transcript->append({ TranscriptModel::Kind::System, tr("System"), m.text });
                    break;
                }
            }
        });
    connect(runner, &Runner::textDelta, m_transcript, &TranscriptModel::appendDelta);
    connect(runner, &Runner::outputProgress, m_partial, &PartialOutputModel::setProgress);
    connect(runner, &Runner::streamCut, this, [this](const StreamCut &cut) {
        m_transcript->endStream();
        m_transcript->append(
            { TranscriptModel::Kind::Note, tr("Stopped early"),
              tr("The answer could no longer match the schema at %1: %2. The reply was cut off "
                 "after %n byte(s), and the correction goes to the model.",
                 nullptr, int(std::min<qint64>(cut.receivedBytes, std::numeric_limits<int>::max())))
                  .arg(cut.pointer.isEmpty() ? tr("the whole answer") : cut.pointer, cut.reason),
              cut.turn, true });
    });
    connect(runner, &Runner::replyReceived, this,
            [this](int turn, const ModelReply &reply, const ModelOutcome &outcome) {
                m_transcript->finishAssistantText(
                    turn, reply.message.refusal.isEmpty() ? reply.message.text : QString());
                for (const ToolCall &c : reply.message.toolCalls) {
                    m_transcript->append({ TranscriptModel::Kind::ToolCall,
                                           tr("Tool call: %1 (%2)").arg(c.name, c.id),
                                           argumentsText(c), turn, !c.argumentsError.isEmpty() });
                    m_callRows.insert(c.id, m_transcript->count() - 1);
                    m_modelCalls.insert(c.id, c);
                }
                if (!reply.message.refusal.isEmpty())
                    m_transcript->append({ TranscriptModel::Kind::Error, tr("Refusal"),
                                           reply.message.refusal, turn, true });
                if (reply.finishReason == FinishReason::Length)
                    m_transcript->append(
                        { TranscriptModel::Kind::Note, tr("Cut off"),
                          tr("The reply reached the output limit (%1).").arg(reply.rawFinishReason),
                          turn, true });
                m_transcript->setTurnRaw(turn,
                                         { outcome.requestBody, outcome.rawResponse, reply.usage,
                                           outcome.rawResponseBytes });
                m_lastTurnUsage = reply.usage;
                m_total += reply.usage;
                m_turns = turn + 1;
                m_attempts += std::max<int>(1, int(outcome.attempts.size()));
                m_retriesInTurn = 0;
                updateStatus();
            });
    connect(runner, &Runner::approvalNeeded, this, [this](const ToolCall &call) {
        m_transcript->endStream();
        const bool edited = m_editedCalls.contains(call.id);
        m_approval->askApproval(call, edited);
        showPending(
            m_approval,
            { TranscriptModel::Kind::Note, tr("Waiting for your approval"),
              edited ? tr("%1 (%2) with your arguments needs your approval").arg(call.name, call.id)
                     : tr("%1 (%2) needs your approval").arg(call.name, call.id) });
        m_approval->approveButton()->setFocus(Qt::OtherFocusReason);
        updateActions();
    });
    connect(runner, &Runner::manualResultNeeded, this, [this](const ToolCall &call) {
        m_transcript->endStream();
        m_approval->askManualResult(call);
        showPending(
            m_approval,
            { TranscriptModel::Kind::Note, tr("Waiting for a result from you"),
              tr("%1 (%2) is a manual tool: you give its result").arg(call.name, call.id) });
        m_approval->resultEdit()->setFocus(Qt::OtherFocusReason);
        updateActions();
    });
    connect(runner, &Runner::toolResultReady, this, [this](const ToolResult &result) {
        m_transcript->append({ TranscriptModel::Kind::ToolResult,
                               tr("Result of %1 (%2)").arg(result.name, result.callId),
                               result.content, -1, result.isError });
        m_resultRows.insert(result.callId, m_transcript->count() - 1);
    });
    connect(runner, &Runner::validationFailed, this, [this](int turn, const QStringList &errors) {
        m_transcript->append({ TranscriptModel::Kind::ValidationFailure,
                               tr("Output failed validation"), errors.join(u'\n'), turn, true });
    });
    connect(runner, &Runner::correctionSent, this, [this](int turn, const QString &text) {
        // A validation failure's correction is the error result already shown.
        const int n = m_transcript->count();
        if (n > 0 && m_transcript->item(n - 1).kind == TranscriptModel::Kind::ToolResult
            && m_transcript->item(n - 1).text == text)
            return;
        m_transcript->append(
            { TranscriptModel::Kind::Correction, tr("Correction sent"), text, turn });
    });
    connect(runner, &Runner::retryScheduled, this,
            [this](int attempt, qint64 delayMs, const ApiError &reason) {
                m_transcript->endStream();
                m_transcript->append({ TranscriptModel::Kind::Retry,
                                       tr("Retry %1 in %2 ms").arg(attempt).arg(delayMs),
                                       reason.toString(), -1, false });
                // The attempt that failed counts, though no reply came of it.
                ++m_retriesInTurn;
                updateStatus();
            });
    connect(runner, &Runner::paused, this, &RunPanel::onPaused);
}

void RunPanel::onPaused(const PendingItem &item)
{
    m_pausedAt = item.breakpoint;
    m_pending = item;
    m_pauseMessages->clearMessage();
    m_pauseArgs->hide();
    m_pauseResult->hide();
    m_pauseIsError->hide();
    m_pauseInfo->hide();
    QString what;
    switch (item.breakpoint) {
    case Breakpoint::BeforeRequest:
        what = tr("Before the request of turn %1: %2, %3 offered. The system prompt:")
                   .arg(item.turn + 1)
                   .arg(tr("%n message(s)", nullptr, int(item.request.messages.size())),
                        tr("%n tool(s)", nullptr, int(item.request.tools.size())));
        m_pauseInfo->setPlainText(item.request.system);
        m_pauseInfo->show();
        break;
    case Breakpoint::AfterReply: {
        what = tr("After the reply of turn %1 (finish: %2).")
                   .arg(item.turn + 1)
                   .arg(item.reply ? item.reply->rawFinishReason : QString());
        QString text = item.reply ? item.reply->message.text : QString();
        if (item.reply) {
            for (const ToolCall &c : item.reply->message.toolCalls)
                text += tr("\n→ %1(%2)").arg(c.name, c.rawArguments);
        }
        m_pauseInfo->setPlainText(text.trimmed());
        m_pauseInfo->show();
        break;
    }
    case Breakpoint::BeforeTool:
        what = tr("Before the tool \"%1\" runs (call %2). Edit its arguments, then continue.")
                   .arg(item.call.name, item.call.id);
        m_pauseArgs->setJsonText(
            QString::fromUtf8(QJsonDocument(item.call.arguments).toJson(QJsonDocument::Indented))
                .trimmed());
        m_pauseArgs->show();
        break;
    case Breakpoint::AfterToolResult:
        what = tr("After the result of \"%1\" (call %2). Edit it before the model sees it, then "
                  "continue.")
                   .arg(item.call.name, item.call.id);
        m_pauseResult->setPlainText(item.result.content);
        m_pauseIsError->setChecked(item.result.isError);
        m_pauseResult->show();
        m_pauseIsError->show();
        break;
    case Breakpoint::OnValidationFailure:
        what = tr("The submitted output failed validation; the errors go back to the model.");
        m_pauseInfo->setPlainText(item.validationErrors.join(u'\n'));
        m_pauseInfo->show();
        break;
    case Breakpoint::None:
        break;
    }
    const QString title = tr("Paused %1").arg(breakpointDisplayName(item.breakpoint));
    m_pausePanel->setAccessibleName(title);
    m_pauseLabel->setText(what);
    fitToText(m_pauseArgs, 3, 8);
    fitToText(m_pauseResult, 3, 8);
    fitToText(m_pauseInfo, 2, 8);
    m_transcript->endStream();
    showPending(m_pausePanel, { TranscriptModel::Kind::Note, title, what });
    updateStatus();
    updateActions(); // before the focus: a disabled button does not take it
    m_pauseContinue->setFocus(Qt::OtherFocusReason);
    Q_EMIT pausedChanged(true);
}

void RunPanel::clearPause()
{
    const bool was = m_pausedAt != Breakpoint::None;
    m_pausedAt = Breakpoint::None;
    m_pending = PendingItem();
    // The pause row goes with the pause; what was changed there gets its own row.
    if (was && m_view->pendingWidget() == m_pausePanel)
        endPending(std::nullopt);
    m_pausePanel->hide();
    if (was)
        Q_EMIT pausedChanged(false);
}

void RunPanel::continueRun()
{
    if (!m_runner || !isPaused())
        return;
    // Checked before the pause row goes, so a bad edit keeps the pause as it was.
    if (m_pausedAt == Breakpoint::BeforeTool) {
        QJsonParseError error;
        const QJsonDocument doc =
            QJsonDocument::fromJson(m_pauseArgs->toPlainText().toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            m_pauseMessages->showMessage(
                error.error != QJsonParseError::NoError
                    ? tr("The arguments are not valid JSON: %1 (at offset %2)")
                          .arg(error.errorString())
                          .arg(error.offset)
                    : tr("The arguments must be a JSON object."),
                NoticeBar::Kind::Error);
            m_pauseArgs->setFocus(Qt::OtherFocusReason);
            return;
        }
    }
    if (m_view->pendingWidget() == m_pausePanel)
        endPending(std::nullopt);
    if (m_pausedAt == Breakpoint::BeforeTool) {
        const QJsonDocument doc =
            QJsonDocument::fromJson(m_pauseArgs->toPlainText().toUtf8()); // checked above
        if (doc.object() != m_pending.call.arguments) {
            m_runner->editPendingArguments(m_pending.call.id, doc.object());
            markEdited(m_pending.call.id, doc.object());
            m_transcript->append({ TranscriptModel::Kind::Note, tr("Arguments edited by you"),
                                   tr("%1 (%2) runs with the arguments you edited, not the model's")
                                       .arg(m_pending.call.name, m_pending.call.id) });
        }
    } else if (m_pausedAt == Breakpoint::AfterToolResult) {
        const QString text = m_pauseResult->toPlainText();
        const bool isError = m_pauseIsError->isChecked();
        if (text != m_pending.result.content || isError != m_pending.result.isError) {
            ToolResult edited = m_pending.result;
            edited.content = text;
            edited.isError = isError;
            m_runner->editPendingResult(m_pending.call.id, edited);
            // The result's row shows what goes to the model, with the tool's own answer beside it.
            const ToolOriginal tool = m_pending.result.toolOriginal.value_or(
                ToolOriginal { m_pending.result.content, m_pending.result.isError });
            const TranscriptModel::Item item {
                TranscriptModel::Kind::ToolResult,
                tr("Result of %1 (%2) · edited by you").arg(edited.name, edited.callId),
                editedResultText(text, tool), -1, isError
            };
            const int row = m_resultRows.value(edited.callId, -1);
            if (row >= 0 && row < m_transcript->count()) {
                TranscriptModel::Item existing = m_transcript->item(row);
                existing.title = item.title;
                existing.text = item.text;
                existing.isError = item.isError;
                m_transcript->setItem(row, existing);
            } else {
                m_transcript->append(item);
            }
        }
    }
    m_pauseMessages->clearMessage();
    clearPause();
    m_runner->resume();
    updateActions();
}

void RunPanel::stop()
{
    if (!isRunning())
        return;
    if (m_preparing) {
        // Nothing started yet: the run is not made when the spec's check comes.
        m_preparing = false;
        updateStatus();
        updateActions();
        return;
    }
    abandonPending();
    m_approval->dismiss();
    clearPause();
    if (m_job)
        m_job->cancel();
}

void RunPanel::setWaiting(bool waiting)
{
    // Sent again when the run goes from one wait to the next (another call to approve), so a
    // badge can follow waitingSummary().
    const QString summary = waiting ? waitingSummary() : QString();
    if (m_waiting == waiting && m_waitingSummary == summary)
        return;
    m_waiting = waiting;
    m_waitingSummary = summary;
    Q_EMIT waitingChanged(waiting);
}

void RunPanel::onFinished(const LaunchResult &result)
{
    setWaiting(false);
    m_launching = false;
    m_runner = nullptr;
    m_job = nullptr;
    m_lastResult = result;
    abandonPending();
    m_approval->dismiss();
    clearPause();
    m_transcript->endStream();
    const CallRecord &r = result.record;
    // Every HTTP attempt of the call, those that failed without a reply too.
    if (!r.attempts.isEmpty()) {
        m_attempts = int(r.attempts.size());
        m_retriesInTurn = 0;
    }
    switch (r.status) {
    case CallStatus::Completed:
        m_transcript->append(
            { TranscriptModel::Kind::Result, tr("Validated result"), pretty(r.response) });
        break;
    case CallStatus::Cancelled:
        m_transcript->append({ TranscriptModel::Kind::Error, tr("Cancelled"), r.error, -1, true });
        break;
    case CallStatus::TurnLimited:
        m_transcript->append(
            { TranscriptModel::Kind::Error, tr("Turn limit reached"), r.error, -1, true });
        break;
    case CallStatus::Failed:
    case CallStatus::Running: {
        const QString category = errorCategoryDisplayName(r.errorCategory);
        m_transcript->append({ TranscriptModel::Kind::Error,
                               category.isEmpty() ? tr("Failed") : tr("Failed: %1").arg(category),
                               r.error, -1, true });
        if (r.errorCategory == ErrorCategory::Refusal) {
            QString why = r.error.trimmed();
            while (why.endsWith(u'.'))
                why.chop(1);
            m_messages->showMessage(
                tr("The model refused: %1. You can run the same input on another engine below.")
                    .arg(why),
                NoticeBar::Kind::Warning);
            refreshProfiles();
            m_otherEngine->show();
        } else {
            // The line says who answered; what they sent (a web server's whole page, say) is
            // behind Details.
            QString details;
            if (!r.exchanges.isEmpty() && r.exchanges.constLast().httpStatus >= 300) {
                const TurnExchange &last = r.exchanges.constLast();
                details = QString::fromUtf8(last.response);
                if (last.responseCut())
                    details += u'\n'
                        + tr("[%n more bytes not kept]", nullptr,
                             int(std::min<qint64>(last.responseBytes - last.response.size(),
                                                  std::numeric_limits<int>::max())));
            }
            // "Could not run" says nothing the error itself does not: the line is just the error.
            // A call that never started (no key, an engine that cannot be made) sent nothing:
            // the line says so, as the checks before a run do.
            const QString line = result.startFailed ? tr("Nothing was sent: %1").arg(r.error)
                : category.isEmpty()                ? r.error
                : r.errorCategory == ErrorCategory::Other
                ? tr("The call failed: %1").arg(r.error)
                : tr("The call failed (%1): %2").arg(category, r.error);
            m_messages->showMessage(line, NoticeBar::Kind::Error, details);
            if (!result.startFailed) {
                refreshProfiles();
                m_otherEngine->show();
            }
        }
        break;
    }
    }
    if (!result.stored && !result.storeError.isEmpty())
        m_messages->showMessage(tr("The call was not stored: %1").arg(result.storeError),
                                NoticeBar::Kind::Warning);
    m_state = RunnerState::Finished;
    updateStatus();
    updateActions();
    Q_EMIT runFinished(result);
}

void RunPanel::runOnOtherEngine()
{
    if (isRunning())
        return;
    Spec spec = m_lastSpec;
    EngineSpec engine;
    engine.maxTokens = spec.engine.maxTokens;
    engine.temperature = spec.engine.temperature;
    engine.stream = spec.engine.stream;
    if (m_otherProfile->currentIndex() > 0) {
        engine.profile = m_otherProfile->currentText();
        engine.typeFromProfile = true;
        engine.model = m_otherModel->text().trimmed();
    } else {
        engine.type =
            engineTypeFromName(m_otherType->currentData().toString()).value_or(EngineType::OpenAI);
        engine.model = m_otherModel->text().trimmed();
        engine.baseUrl = m_otherBaseUrl->text().trimmed();
        engine.apiKeyEnv = m_otherKeyEnv->text().trimmed();
    }
    spec.engine = engine;
    RunOptions options;
    options.attended = true;
    options.breakpoints = breakpoints();
    const RunInput input = m_lastInput;
    const std::optional<qint64> previous = m_lastResult && m_lastResult->stored
        ? std::optional<qint64>(m_lastResult->record.id)
        : std::nullopt;
    if (previous && input.attachments.isEmpty()) {
        // The stored call's input on the new engine, linked to it as a replay.
        m_lastSpec = spec;
        resetView();
        LaunchRequest request;
        request.spec = spec;
        request.options = options;
        const LaunchCheck checked = m_service->check(request);
        if (!checked.ok()) {
            m_messages->showMessage((checked.verdict == LaunchCheck::Verdict::Engine
                                         ? tr("Nothing was sent: the engine is not ready.\n%1")
                                         : tr("Nothing was sent.\n%1"))
                                        .arg(checked.message),
                                    NoticeBar::Kind::Error);
            m_otherEngine->show();
            updateStatus();
            updateActions();
            return;
        }
        m_launching = true;
        updateStatus();
        updateActions();
        Q_EMIT runStarted();
        follow(m_service->rerun(*previous, checked));
        return;
    }
    LaunchRequest request;
    request.spec = spec;
    request.input = input;
    request.options = options;
    launch(request);
}

void RunPanel::showRawExchange()
{
    const QModelIndex current = m_view->currentIndex();
    int turn = current.isValid() ? current.data(TranscriptModel::TurnRole).toInt() : -1;
    if (turn < 0) {
        // The newest turn that has one.
        for (int row = m_transcript->count() - 1; row >= 0 && turn < 0; --row) {
            const int t = m_transcript->item(row).turn;
            if (t >= 0 && m_transcript->turnRaw(t))
                turn = t;
        }
    }
    const auto raw = turn >= 0 ? m_transcript->turnRaw(turn) : std::nullopt;
    if (!raw) {
        m_messages->showMessage(tr("No raw request or response for this entry yet."),
                                NoticeBar::Kind::Info);
        return;
    }
    auto *dialog = new RawExchangeDialog(turn, *raw, this);
    dialog->setObjectName(u"rawExchangeDialog"_s);
    dialog->show();
}

void RunPanel::showDetail(const QModelIndex &index)
{
    if (!index.isValid()) {
        m_detail->clear();
        return;
    }
    const QString text = index.data(TranscriptModel::TextRole).toString();
    if (m_detail->toPlainText() != text)
        m_detail->setPlainText(text);
    m_rawAction->setEnabled(index.data(TranscriptModel::HasRawRole).toBool()
                            || m_transcript->count() > 0);
}

void RunPanel::updateStatus()
{
    QString status;
    if (m_asking) {
        status = tr("Waiting for your answer · nothing runs until you trust the file or cancel");
    } else if (m_preparing) {
        status = tr("Checking the spec before it runs");
    } else if (m_launching) {
        status = tr("Running · %1").arg(runnerStateDisplayName(m_state));
        if (isPaused())
            status = tr("Paused %1").arg(breakpointDisplayName(m_pausedAt));
    } else if (m_lastResult) {
        status = callOutcomeText(m_lastResult->record.status, m_lastResult->record.errorCategory);
        if (m_lastResult->stored)
            status += tr(" · call %1").arg(m_lastResult->record.id);
    } else {
        status = tr("Ready");
    }
    if (!m_launching && !isStarting() && !m_blockedReason.isEmpty())
        status = tr("Cannot run: %1").arg(m_blockedReason);
    m_status->setText(status);
    auto usage = [](const Usage &u) {
        QString s = tr("in %1 / out %2").arg(u.promptTokens()).arg(u.outputTokens);
        if (u.cacheReadTokens > 0)
            s += tr(" (cached %1)").arg(u.cacheReadTokens);
        if (u.cacheWriteTokens > 0)
            s += tr(" (cache written %1)").arg(u.cacheWriteTokens);
        if (u.reasoningTokens > 0)
            s += tr(" (reasoning %1)").arg(u.reasoningTokens);
        return s;
    };
    m_usage->setText(tr("Turns %1 · attempts %2 · last turn %3 · total %4")
                         .arg(m_turns)
                         .arg(m_attempts + m_retriesInTurn)
                         .arg(usage(m_lastTurnUsage), usage(m_total)));
}

void RunPanel::setBlockedReason(const QString &reason)
{
    if (reason == m_blockedReason)
        return;
    m_blockedReason = reason;
    updateStatus();
    updateActions();
}

void RunPanel::updateActions()
{
    const bool running = isRunning();
    const bool blocked = !m_blockedReason.isEmpty();
    m_runAction->setEnabled(!running && !blocked);
    m_runAction->setToolTip(blocked ? tr("Cannot run: %1").arg(m_blockedReason)
                                    : m_runAction->text().remove(u'&'));
    m_stepAction->setEnabled((!running && !blocked) || isPaused());
    m_continueAction->setEnabled(running && isPaused());
    // Nothing runs while the run waits to start (the trust question is open): nothing to stop.
    m_stopAction->setEnabled(running && !isStarting());
    m_attachAction->setEnabled(!running);
    m_pauseContinue->setEnabled(m_continueAction->isEnabled());
    m_pauseStep->setEnabled(m_stepAction->isEnabled());
    m_pauseStop->setEnabled(m_stopAction->isEnabled());
}

void RunPanel::addAttachments()
{
    const QStringList files =
        Dialogs::openFileNames(this, tr("Attach Files"), QString(), tr("All files (*)"));
    QStringList errors;
    for (const QString &f : files) {
        const QString error = m_attachments->addFile(f);
        if (!error.isEmpty())
            errors.append(error);
    }
    if (!errors.isEmpty())
        m_messages->showMessage(errors.join(u'\n'), NoticeBar::Kind::Error);
}

void RunPanel::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() && !isRunning())
        event->acceptProposedAction();
}

void RunPanel::dropEvent(QDropEvent *event)
{
    QStringList errors;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString error = m_attachments->addFile(url.toLocalFile());
        if (!error.isEmpty())
            errors.append(error);
    }
    if (!errors.isEmpty())
        m_messages->showMessage(errors.join(u'\n'), NoticeBar::Kind::Error);
    event->acceptProposedAction();
}

void RunPanel::refreshProfiles()
{
    const QString current = m_otherProfile->currentText();
    m_otherProfile->clear();
    m_otherProfile->addItem(tr("(none: use the type below)"));
    if (m_profiles) {
        for (const EngineProfile &p : m_profiles->list())
            m_otherProfile->addItem(p.name);
    }
    const int i = m_otherProfile->findText(current);
    m_otherProfile->setCurrentIndex(std::max(0, i));
}

void RunPanel::saveState() const
{
    QSettings settings;
    // A key of its own: the layout of one column (input, timeline, detail) is not the old one's.
    settings.setValue(u"run/column"_s, m_splitter->saveState());
    settings.setValue(u"run/breakpoints"_s, unsigned(breakpoints().toInt()));
}

void RunPanel::restoreState()
{
    QSettings settings;
    const QByteArray column = settings.value(u"run/column"_s).toByteArray();
    if (!column.isEmpty())
        m_splitter->restoreState(column);
    setBreakpoints(Breakpoints::fromInt(int(settings.value(u"run/breakpoints"_s, 0u).toUInt())));
}

} // namespace Callscope

#include "runpanel.moc"
