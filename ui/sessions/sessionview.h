#pragma once

// Sessions: the list (new, rename) and a chat view that mixes ordinary chat turns with the
// structured calls run inside the session (shown as their accepted output with a link that
// opens the call). Type a message for a chat turn, or run a spec inside the session.

#include "core/model/spec.h"
#include "core/service/callservice.h"
#include "ui/widgets/noticebar.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;

namespace Callscope {

class ApprovalPanel;
class CallJob;
class CallStore;
class ProfileStore;
class SessionListModel;
class StoreReader;

class SessionView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionView)

public:
    // `service` and `profiles` may be null (read-only view; no profile choice).
    SessionView(CallStore *store, CallService *service, ProfileStore *profiles,
                QWidget *parent = nullptr);
    ~SessionView() override;

    SessionListModel *sessionModel() const { return m_sessions; }
    QListView *sessionList() const { return m_list; }
    QTextBrowser *chat() const { return m_chat; }
    QPlainTextEdit *input() const { return m_input; }
    QPushButton *sendButton() const { return m_send; }
    QPushButton *runSpecButton() const { return m_runSpec; }
    QPushButton *compactButton() const { return m_compact; }
    QComboBox *engineCombo() const { return m_engine; }
    qint64 currentSessionId() const;
    QString chatText() const;
    QString statusText() const;
    // The engine a chat turn uses now, or nullopt with the reason in *why.
    std::optional<EngineSpec> chatEngine(QString *why = nullptr) const;
    // Reads on `reader`'s thread from now on (null: at once). It must outlive the view.
    void setReader(StoreReader *reader);
    // Why nothing may be stored (a history the role may only read); empty: it may. New, Send,
    // Run spec in session and Compact are off, and the hint says why.
    void setBlockedReason(const QString &reason);
    struct StructuredSpan;
    struct ChatRead; // what the chat shows of a stored session

public Q_SLOTS:
    void reload();
    void selectSession(qint64 id);
    // Written through the store writer, off the GUI thread: sessionCreated() (and the new
    // session picked) or sessionRenamed() follow once it is stored; a failure is shown in the
    // view's notice bar.
    void newSession(const QString &title = {});
    void renameCurrent(const QString &title);
    // The engine for chat turns when no profile is picked in the engine box.
    void setChatEngine(const Callscope::EngineSpec &engine);
    // The spec open in the editor ("Run spec in session" uses it; else it asks for a file).
    void setCurrentSpec(const Callscope::Spec &spec);
    void clearCurrentSpec();
    // An ordinary chat turn in the current session.
    bool sendMessage(const QString &text);
    // A structured call of `spec` on `input` in the current session.
    bool runSpec(const Callscope::Spec &spec, const QString &input);
    // Folds the older messages into a summary on the chat engine (CallService::compact).
    bool compactNow();
    // Reads the session again and draws it (off the GUI thread with a reader; chatShown()
    // follows).
    void refreshChat();
    // A turn waits for the person (an approval or a manual result).
    bool isWaiting() const;

Q_SIGNALS:
    void callOpened(qint64 id);
    void turnFinished(qint64 callId);
    void compacted(qint64 summaryCallId); // -1 when it failed, 0 when there was nothing to fold
    // A turn waits for a person (an approval or a manual tool's result).
    void attentionNeeded();
    // The turn in flight starts or stops waiting for the person (for a badge on the tab).
    void waitingChanged(bool waiting);
    // The chat shows what is stored of the session now.
    void chatShown(qint64 sessionId);
    // The list of sessions was read (reload()).
    void sessionsShown();
    // A session asked for with newSession() was stored (0: it could not be).
    void sessionCreated(qint64 id);
    void sessionRenamed(qint64 id, bool ok);

private:
    void onRunSpecClicked();
    void onTurnFinished(const LaunchResult &result);
    bool start(const LaunchRequest &request, const QString &what);
    void updateActions();
    void setStatus(const QString &text, NoticeBar::Kind kind = NoticeBar::Kind::Info);
    // The tool call the turn waits on (nullopt: none); redraws the chat's pending item.
    void setPending(const std::optional<ToolCall> &call, bool manual = false);

    void renderChat();

    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    qint64 m_reselect = 0; // picked again once the list is read
    std::shared_ptr<ChatRead> m_chatRead; // the session as last read
    quint64 m_chatTicket = 0;
    CallService *m_service = nullptr;
    ProfileStore *m_profiles = nullptr;
    SessionListModel *m_sessions = nullptr;
    QListView *m_list = nullptr;
    QTextBrowser *m_chat = nullptr;
    QPlainTextEdit *m_input = nullptr;
    QComboBox *m_engine = nullptr;
    QPushButton *m_send = nullptr;
    QPushButton *m_new = nullptr;
    QString m_blocked; // setBlockedReason()
    QPushButton *m_runSpec = nullptr;
    QPushButton *m_compact = nullptr;
    // Why Send is off (a replay engine, no engine at all), in sight rather than in a tooltip.
    QLabel *m_chatHint = nullptr;
    NoticeBar *m_status = nullptr;
    std::optional<EngineSpec> m_chatEngine;
    std::optional<Spec> m_currentSpec;
    QString m_sentText; // the text of the turn in flight
    ApprovalPanel *m_approval = nullptr;
    QPointer<CallJob> m_turn;
    QPointer<CallJob> m_compaction;
    std::optional<ToolCall> m_pending; // what the turn in flight waits on
    bool m_pendingManual = false;
    qint64 m_turnSession = 0; // the session of the turn in flight
};

} // namespace Callscope
