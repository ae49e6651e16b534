#include "ui/sessions/sessionview.h"

#include "core/model/specio.h"
#include "core/secrets/profilestore.h"
#include "core/service/calljob.h"
#include "core/store/callstore.h"
#include "core/store/storereader.h"
#include "ui/sessions/sessionlistmodel.h"
#include "ui/widgets/approvalpanel.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/displaynames.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <utility>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped().replace(u'\n', u"<br>"_s);
}

// Messages a "Compact now" leaves out of the summary.
constexpr int kKeepRecent = 4;

} // namespace

struct SessionView::StructuredSpan
{
    qint64 first = 0;
    qint64 last = 0;
    CallRecord record;
};

SessionView::SessionView(CallStore *store, CallService *service, ProfileStore *profiles,
                         QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_service(service)
    , m_profiles(profiles)
    , m_sessions(new SessionListModel(store, this))
    , m_list(new QListView(this))
    , m_chat(new QTextBrowser(this))
    , m_input(new QPlainTextEdit(this))
    , m_engine(new QComboBox(this))
    , m_send(new QPushButton(tr("Send"), this))
    , m_runSpec(new QPushButton(tr("Run spec in session…"), this))
    , m_compact(new QPushButton(tr("Compact now"), this))
    , m_status(new NoticeBar(this))
    , m_approval(new ApprovalPanel(this))
{
    m_sessions->setService(service);
    connect(m_sessions, &SessionListModel::reloaded, this, [this](bool ok) {
        if (!ok && !m_sessions->lastError().isEmpty())
            setStatus(tr("The sessions could not be read: %1").arg(m_sessions->lastError()),
                      NoticeBar::Kind::Error);
        if (const qint64 id = std::exchange(m_reselect, 0); id > 0)
            selectSession(id);
        Q_EMIT sessionsShown();
    });
    // A name typed in the list that could not be stored.
    connect(m_sessions, &SessionListModel::writeFailed, this, [this](const QString &message) {
        setStatus(tr("The session could not be renamed: %1").arg(message), NoticeBar::Kind::Error);
    });
    setObjectName(u"sessionView"_s);
    m_list->setModel(m_sessions);
    m_list->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
    auto *newButton = new QPushButton(tr("New"), this);
    m_new = newButton;
    auto *renameButton = new QPushButton(tr("Rename"), this);
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 1);
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(newButton);
    listButtons->addWidget(renameButton);
    leftLayout->addLayout(listButtons);

    m_chat->setOpenLinks(false);
    m_input->setPlaceholderText(
        tr("Type a message (Send), or the input of a spec (Run spec in session)"));
    m_input->setMaximumHeight(m_input->fontMetrics().height() * 5);
    m_engine->addItem(tr("Engine of the open spec"));
    if (m_profiles) {
        for (const EngineProfile &p : m_profiles->list())
            m_engine->addItem(tr("Profile %1 (%2)").arg(p.name, p.model), p.name);
    }
    m_compact->setToolTip(
        tr("Fold all but the newest %n message(s) into a rolling summary (a call of "
           "kind compaction, on the chat engine). No message is deleted.",
           nullptr, kKeepRecent));

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_chat, 1);
    rightLayout->addWidget(m_status);
    rightLayout->addWidget(m_approval);
    rightLayout->addWidget(m_input);
    // Two rows, so a dock beside the spec shows every button whole.
    auto *engineRow = new QHBoxLayout;
    engineRow->addWidget(new QLabel(tr("Chat engine:"), this));
    engineRow->addWidget(m_engine, 1);
    rightLayout->addLayout(engineRow);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_send);
    actions->addWidget(m_runSpec);
    actions->addStretch(1);
    actions->addWidget(m_compact);
    rightLayout->addLayout(actions);
    m_chatHint = new QLabel(this);
    m_chatHint->setObjectName(u"sessionChatHint"_s);
    m_chatHint->setWordWrap(true);
    m_chatHint->hide();
    rightLayout->addWidget(m_chatHint);

    // The sessions above their chat, so the view fits the window's sidebar beside the spec.
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(u"sessionSplitter"_s);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 4);
    m_list->setMinimumHeight(m_list->fontMetrics().height() * 4);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    // A turn's tools that need a person are answered here, next to the chat they belong to.
    m_approval->hide();
    connect(m_approval, &ApprovalPanel::approved, this,
            [this](const QString &id, const std::optional<QJsonObject> &edited, bool always) {
                Runner *runner = m_turn ? m_turn->runner() : nullptr;
                if (!runner)
                    return;
                if (always)
                    runner->alwaysAllow(m_approval->call().name);
                m_approval->dismiss();
                setPending(std::nullopt);
                runner->approve(id, edited);
            });
    connect(m_approval, &ApprovalPanel::refused, this,
            [this](const QString &id, const QString &reason) {
                if (Runner *runner = m_turn ? m_turn->runner() : nullptr) {
                    m_approval->dismiss();
                    setPending(std::nullopt);
                    runner->refuse(id, reason);
                }
            });
    connect(m_approval, &ApprovalPanel::manualResult, this,
            [this](const QString &id, const QString &text, bool isError) {
                if (Runner *runner = m_turn ? m_turn->runner() : nullptr) {
                    m_approval->dismiss();
                    setPending(std::nullopt);
                    runner->provideManualResult(id, text, isError);
                }
            });

    connect(newButton, &QPushButton::clicked, this, [this] { newSession(); });
    connect(renameButton, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_list->currentIndex();
        if (current.isValid())
            m_list->edit(current);
    });
    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        refreshChat();
        updateActions();
    });
    connect(m_chat, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == u"call")
            Q_EMIT callOpened(url.path().toLongLong());
    });
    connect(m_send, &QPushButton::clicked, this, [this] {
        const QString text = m_input->toPlainText();
        if (sendMessage(text)) {
            m_sentText = text; // given back if the turn does not complete
            m_input->clear();
        }
    });
    connect(m_runSpec, &QPushButton::clicked, this, &SessionView::onRunSpecClicked);
    connect(m_engine, &QComboBox::currentIndexChanged, this, [this] { updateActions(); });
    connect(m_compact, &QPushButton::clicked, this, &SessionView::compactNow);
    if (m_service) {
        // A call started elsewhere (a revision of an in-session call) that landed here.
        connect(m_service, &CallService::jobFinished, this,
                [this](CallJob *job, const LaunchResult &result) {
                    if (job != m_turn && job != m_compaction && result.stored
                        && result.record.session && *result.record.session == currentSessionId())
                        refreshChat();
                });
    }
    updateActions();
}

SessionView::~SessionView() = default;

qint64 SessionView::currentSessionId() const
{
    const QModelIndex current = m_list->currentIndex();
    return current.isValid() ? current.data(SessionListModel::SessionIdRole).toLongLong() : 0;
}

QString SessionView::chatText() const
{
    return m_chat->toPlainText();
}

QString SessionView::statusText() const
{
    return m_status->text();
}

void SessionView::setStatus(const QString &text, NoticeBar::Kind kind)
{
    if (text.isEmpty())
        m_status->clearMessage();
    else
        m_status->showMessage(text, kind);
}

void SessionView::reload()
{
    // The session picked now is picked again once the list is read (reloaded()).
    if (const qint64 current = currentSessionId())
        m_reselect = current;
    m_sessions->reload();
}

void SessionView::selectSession(qint64 id)
{
    const int row = m_sessions->rowOfSession(id);
    if (row < 0)
        return;
    m_list->setCurrentIndex(m_sessions->index(row));
    refreshChat();
}

void SessionView::newSession(const QString &title)
{
    const QString name = title.isEmpty() ? tr("New session") : title;
    // Written through the store writer; the session is listed and picked once it is stored.
    QPointer<SessionView> self(this);
    m_sessions->createSession(name, QString(), [self](qint64 id, const QString &error) {
        if (!self)
            return;
        if (id == 0) {
            self->setStatus(tr("The session could not be created: %1").arg(error),
                            NoticeBar::Kind::Error);
            Q_EMIT self->sessionCreated(0);
            return;
        }
        self->selectSession(id);
        Q_EMIT self->sessionCreated(id);
    });
}

void SessionView::renameCurrent(const QString &title)
{
    const qint64 id = currentSessionId();
    if (id == 0) {
        setStatus(tr("The session could not be renamed: %1").arg(tr("no session is picked")),
                  NoticeBar::Kind::Error);
        Q_EMIT sessionRenamed(0, false);
        return;
    }
    QPointer<SessionView> self(this);
    m_sessions->renameSession(id, title.trimmed(), [self, id](const QString &error) {
        if (!self)
            return;
        if (!error.isEmpty())
            self->setStatus(tr("The session could not be renamed: %1").arg(error),
                            NoticeBar::Kind::Error);
        Q_EMIT self->sessionRenamed(id, error.isEmpty());
    });
}

void SessionView::setChatEngine(const EngineSpec &engine)
{
    m_chatEngine = engine;
    m_engine->setItemText(0, tr("Engine: %1 · %2").arg(engineTypeName(engine.type), engine.model));
    m_engine->setCurrentIndex(0);
    updateActions();
}

void SessionView::setCurrentSpec(const Spec &spec)
{
    m_currentSpec = spec;
    m_runSpec->setText(tr("Run spec in session"));
    m_runSpec->setToolTip(
        tr("Runs the spec open in the editor (%1) on the text typed below.").arg(spec.kind));
    updateActions();
}

void SessionView::clearCurrentSpec()
{
    m_currentSpec.reset();
    m_runSpec->setText(tr("Run spec in session…"));
    m_runSpec->setToolTip(tr("Pick a spec file and run it on the text typed below."));
    updateActions();
}

std::optional<EngineSpec> SessionView::chatEngine(QString *why) const
{
    if (m_engine->currentIndex() > 0) {
        EngineSpec spec;
        spec.profile = m_engine->currentData().toString();
        spec.typeFromProfile = true;
        return spec;
    }
    // A replay engine answers from its recording whatever is typed, and the recording was made
    // for another conversation: a chat turn needs a live engine.
    const QString needsLive =
        tr("Chat turns need a live engine: the replay engine of this spec only plays back "
           "its recording, whatever you type. Pick an engine profile in the list above "
           "(Edit > Preferences adds one); Run spec in session still works.");
    if (m_chatEngine) {
        if (m_chatEngine->type == EngineType::Replay) {
            if (why)
                *why = needsLive;
            return std::nullopt;
        }
        return m_chatEngine;
    }
    if (m_currentSpec) {
        const EngineSpec engine = m_currentSpec->engine;
        if (engine.type == EngineType::Replay
            && !(engine.typeFromProfile && !engine.profile.isEmpty())) {
            if (why)
                *why = needsLive;
            return std::nullopt;
        }
        return engine;
    }
    if (why)
        *why = tr("Pick an engine profile for chat turns (or open a spec).");
    return std::nullopt;
}

void SessionView::updateActions()
{
    const bool ready = currentSessionId() > 0 && m_service && !m_turn && !m_compaction;
    // Send only where a chat turn can run; the button says why not.
    QString why;
    const bool canChat = chatEngine(&why).has_value();
    m_send->setEnabled(ready && canChat);
    m_send->setToolTip(canChat ? QString() : why);
    // With no session chosen nothing here can run: say where to start.
    if (currentSessionId() == 0)
        why = m_list->model() && m_list->model()->rowCount() > 0
            ? tr("Select a session above, or press New to start one.")
            : tr("Press New to start a session.");
    m_chatHint->setText(why);
    m_chatHint->setVisible(!why.isEmpty() && (currentSessionId() == 0 || !canChat));
    m_runSpec->setEnabled(ready);
    m_compact->setEnabled(ready);
    if (!m_blocked.isEmpty()) {
        // Nothing a session does could be kept: said before anyone types.
        for (QPushButton *button : { m_send, m_runSpec, m_compact, m_new }) {
            button->setEnabled(false);
            button->setToolTip(tr("Cannot run: %1").arg(m_blocked));
        }
        m_chatHint->setText(tr("Cannot run: %1").arg(m_blocked));
        m_chatHint->setVisible(true);
    }
}

void SessionView::setBlockedReason(const QString &reason)
{
    m_blocked = reason;
    updateActions();
}

bool SessionView::compactNow()
{
    const qint64 session = currentSessionId();
    QString why;
    const std::optional<EngineSpec> engine = chatEngine(&why);
    if (session == 0 || !m_service || !engine) {
        setStatus(session == 0 ? tr("Select or create a session first.") : why);
        return false;
    }
    if (m_turn || m_compaction) {
        setStatus(tr("Another call is running; wait for it to finish."));
        return false;
    }
    Spec engineFrom;
    engineFrom.engine = *engine;
    setStatus(tr("Compacting…"));
    CallJob *job = m_service->compact(session, kKeepRecent, engineFrom);
    m_compaction = job;
    connect(job, &CallJob::finished, this, [this, job, session] {
        m_compaction = nullptr;
        const CompactionOutcome outcome = job->compaction();
        setStatus(outcome.ok ? (outcome.callId > 0
                                    ? tr("Compacted: the summary is call %1.").arg(outcome.callId)
                                    : tr("Nothing to compact yet."))
                             : tr("Compaction failed: %1").arg(outcome.message),
                  outcome.ok ? NoticeBar::Kind::Info : NoticeBar::Kind::Error);
        if (session == currentSessionId())
            refreshChat();
        updateActions();
        Q_EMIT compacted(outcome.ok ? outcome.callId : -1);
    });
    updateActions();
    return true;
}

bool SessionView::start(const LaunchRequest &request, const QString &what)
{
    if (!m_service) {
        setStatus(tr("Runs need the history database."));
        return false;
    }
    if (m_turn || m_compaction) {
        setStatus(tr("Another call is running; wait for it to finish."));
        return false;
    }
    setStatus(what);
    CallJob *job = m_service->launch(request);
    m_turn = job;
    m_turnSession = request.sessionId.value_or(0);
    connect(job, &CallJob::finished, this, &SessionView::onTurnFinished);
    connect(job, &CallJob::runnerCreated, this, [this](Runner *runner) {
        connect(runner, &Runner::approvalNeeded, this, [this](const ToolCall &call) {
            m_approval->askApproval(call);
            setStatus(tr("The turn waits for your decision on %1.").arg(call.name));
            setPending(call, false);
        });
        connect(runner, &Runner::manualResultNeeded, this, [this](const ToolCall &call) {
            m_approval->askManualResult(call);
            setStatus(tr("The turn waits for the result of %1.").arg(call.name));
            setPending(call, true);
        });
    });
    // A turn that needs a person must not wait unseen: the window brings this view forward.
    connect(job, &CallJob::attentionNeeded, this, [this] { Q_EMIT attentionNeeded(); });
    updateActions();
    return true;
}

bool SessionView::sendMessage(const QString &text)
{
    const QString message = text.trimmed();
    const qint64 session = currentSessionId();
    if (message.isEmpty() || session == 0) {
        setStatus(session == 0 ? tr("Select or create a session first.")
                               : tr("Type a message first."));
        return false;
    }
    QString why;
    const std::optional<EngineSpec> engine = chatEngine(&why);
    if (!engine) {
        setStatus(why);
        return false;
    }
    // An ordinary chat turn: the loop without a schema or tools, answered as plain text.
    Spec chat;
    chat.kind = u"chat"_s;
    chat.outputParser = u"text"_s;
    chat.engine = *engine;
    LaunchRequest request;
    request.spec = chat;
    request.input.text = message;
    request.sessionId = session;
    request.options.attended = true;
    return start(request, tr("Waiting for the reply…"));
}

bool SessionView::runSpec(const Spec &spec, const QString &input)
{
    const qint64 session = currentSessionId();
    if (session == 0) {
        setStatus(tr("Select or create a session first."));
        return false;
    }
    LaunchRequest request;
    request.spec = spec;
    request.input.text = input.trimmed();
    request.sessionId = session;
    request.options.attended = true;
    return start(request, tr("Running %1 in the session…").arg(spec.kind));
}

void SessionView::onRunSpecClicked()
{
    if (m_currentSpec) {
        const QString text = m_input->toPlainText();
        if (runSpec(*m_currentSpec, text)) {
            m_sentText = text;
            m_input->clear();
        }
        return;
    }
    auto *dialog =
        new QFileDialog(this, tr("Run a spec in the session"), QString(), tr("Specs (*.json)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        const SpecLoadResult loaded = loadSpecFile(path);
        if (!loaded.spec) {
            const QString problem = loaded.errors.isEmpty()
                ? QString()
                : loaded.errors.first().pointer + u" "_s + loaded.errors.first().message;
            setStatus(tr("The spec %1 cannot be used: %2").arg(path, problem),
                      NoticeBar::Kind::Error);
            return;
        }
        if (runSpec(*loaded.spec, m_input->toPlainText()))
            m_input->clear();
    });
    dialog->open();
}

void SessionView::onTurnFinished(const LaunchResult &result)
{
    m_turn = nullptr;
    m_approval->dismiss();
    setPending(std::nullopt);
    m_turnSession = 0;
    // A turn that left nothing in the session gives the typed text back, so it can be sent again.
    // A turn that did not complete left nothing in the session: the typed text comes back.
    if (result.record.status != CallStatus::Completed && !m_sentText.isEmpty()
        && m_input->toPlainText().isEmpty())
        m_input->setPlainText(m_sentText);
    m_sentText.clear();
    if (result.record.status == CallStatus::Completed)
        setStatus({});
    else
        setStatus(tr("The turn did not complete (%1): %2")
                      .arg(callOutcomeText(result.record.status, result.record.errorCategory),
                           result.record.error),
                  NoticeBar::Kind::Error);
    refreshChat();
    updateActions();
    Q_EMIT turnFinished(result.stored ? result.record.id : 0);
}

// What the chat shows of a stored session, read in one go (off the GUI thread with a reader).
struct SessionView::ChatRead
{
    qint64 sessionId = 0;
    QString error;
    QList<SessionMessage> messages;
    QList<StructuredSpan> spans; // structured calls (a spec with a response schema)
    QString summary;
};

namespace {

SessionView::ChatRead readChat(CallStore &store, qint64 sessionId)
{
    SessionView::ChatRead read;
    read.sessionId = sessionId;
    auto messages = store.sessionMessages(sessionId);
    auto calls = store.sessionCalls(sessionId);
    if (!messages || !calls) {
        read.error = !messages ? messages.error().message : calls.error().message;
        return read;
    }
    read.messages = messages.value();
    for (const HistoryRow &row : calls.value()) {
        auto call = store.getCall(row.id);
        if (!call || !call->firstSequence || !call->lastSequence)
            continue;
        if (!call->spec.contains(u"response_schema"_s))
            continue;
        read.spans.append({ *call->firstSequence, *call->lastSequence, call.value() });
    }
    if (auto session = store.getSession(sessionId))
        read.summary = session->summary;
    return read;
}

} // namespace

void SessionView::setReader(StoreReader *reader)
{
    m_reader = reader;
    m_sessions->setReader(reader);
    // The list the model read at once on the store is read again on the reader's thread.
    if (reader)
        reload();
}

void SessionView::refreshChat()
{
    const qint64 sessionId = currentSessionId();
    if (!m_store || sessionId == 0) {
        m_chatRead.reset();
        m_chat->clear();
        return;
    }
    // What is known of the session now is drawn at once (the turn in flight, its approval);
    // the stored messages follow when they are read.
    if (m_reader && m_chatRead && m_chatRead->sessionId == sessionId)
        renderChat();
    const quint64 ticket = ++m_chatTicket;
    readFromStore<ChatRead>(
        m_reader, m_store, this,
        [sessionId](CallStore &store) { return readChat(store, sessionId); },
        [this, ticket, sessionId](const ChatRead *read, const QString &error) {
            if (ticket != m_chatTicket || sessionId != currentSessionId())
                return;
            if (read) {
                m_chatRead = std::make_shared<ChatRead>(*read);
            } else {
                m_chatRead = std::make_shared<ChatRead>();
                m_chatRead->sessionId = sessionId;
                m_chatRead->error = error;
            }
            renderChat();
            Q_EMIT chatShown(sessionId);
        });
}

void SessionView::renderChat()
{
    if (!m_chatRead)
        return;
    const qint64 sessionId = m_chatRead->sessionId;
    if (!m_chatRead->error.isEmpty()) {
        m_chat->setPlainText(tr("The session could not be read: %1").arg(m_chatRead->error));
        return;
    }
    const QList<StructuredSpan> &spans = m_chatRead->spans;
    const QPalette pal = palette();
    const QString muted = pal.color(QPalette::PlaceholderText).name();
    const QString blockColour = pal.color(QPalette::AlternateBase).name();
    QString html;
    if (!m_chatRead->summary.isEmpty())
        html += u"<p style='color:%1'><i>%2</i></p>"_s.arg(
            muted, esc(tr("Summary of the compacted messages: %1").arg(m_chatRead->summary)));
    for (const SessionMessage &sm : m_chatRead->messages) {
        const StructuredSpan *span = nullptr;
        for (const StructuredSpan &s : spans) {
            if (sm.sequence >= s.first && sm.sequence <= s.last)
                span = &s;
        }
        if (span) {
            if (sm.sequence != span->first)
                continue;
            const CallRecord &r = span->record;
            QString output = r.status == CallStatus::Completed
                ? CallView::prettyJson(r.response)
                : tr("%1: %2").arg(callStatusDisplayName(r.status), r.error);
            html += u"<table width='100%' cellpadding='6' bgcolor='%1'><tr><td>"_s.arg(blockColour);
            html += u"<b>%1</b> · %2 · <a href='call:%3'>%4</a><br>"_s
                        .arg(esc(tr("Structured call %1").arg(r.kind)),
                             esc(callStatusDisplayName(r.status)))
                        .arg(r.id)
                        .arg(esc(tr("open call %1").arg(r.id)));
            html += u"<span style='color:%1'>%2</span> %3<br>"_s.arg(
                muted, esc(tr("Input:")), esc(r.input.value(u"text"_s).toString()));
            // Long values wrap at the chat's width (a session often lives in the narrow sidebar).
            html += u"<pre style='white-space: pre-wrap'>%1</pre>"_s.arg(output.toHtmlEscaped());
            html += u"</td></tr></table><br>"_s;
            continue;
        }
        const Message &m = sm.message;
        if (m.role == Role::Tool || (m.text.isEmpty() && m.refusal.isEmpty()))
            continue;
        const QString who = m.role == Role::User ? tr("You")
            : m.role == Role::Assistant          ? tr("Assistant")
                                                 : tr("System");
        QString line = u"<p><b>%1</b>"_s.arg(esc(who));
        if (sm.compactedBy)
            line += u" <span style='color:%1'>%2</span>"_s.arg(muted, esc(tr("(compacted)")));
        line += u"<br>%1</p>"_s.arg(esc(m.text.isEmpty() ? m.refusal : m.text));
        html += line;
    }
    // The turn in flight is not stored yet: what was sent, and what it waits on, at the end of
    // the timeline where it belongs, with the buttons right under the chat.
    if (m_turn && m_turnSession == sessionId) {
        if (!m_sentText.trimmed().isEmpty())
            html += u"<p><b>%1</b> <span style='color:%2'>%3</span><br>%4</p>"_s.arg(
                esc(tr("You")), muted, esc(tr("(in progress)")), esc(m_sentText.trimmed()));
        if (m_pending) {
            const QString args = QString::fromUtf8(
                QJsonDocument(m_pending->arguments).toJson(QJsonDocument::Compact));
            const QString ask = m_pendingManual
                ? tr("Waiting for you: type the result of %1 below, then Send Result.")
                : tr("Waiting for you: %1 needs your approval. Approve or refuse below.");
            html +=
                u"<a name='pending'></a><table width='100%' cellpadding='6' bgcolor='%1'><tr><td>"
                u"<b>%2</b><br><tt>%3(%4)</tt></td></tr></table>"_s.arg(
                    pal.color(QPalette::Highlight).lighter(180).name(),
                    esc(ask.arg(m_pending->name)), esc(m_pending->name), esc(args));
        }
    }
    m_chat->setHtml(html);
    m_chat->moveCursor(QTextCursor::End);
    m_chat->ensureCursorVisible();
}

void SessionView::setPending(const std::optional<ToolCall> &call, bool manual)
{
    const bool was = m_pending.has_value();
    m_pending = call;
    m_pendingManual = manual;
    refreshChat();
    if (was != m_pending.has_value())
        Q_EMIT waitingChanged(m_pending.has_value());
}

bool SessionView::isWaiting() const
{
    return m_pending.has_value();
}

} // namespace Callscope
