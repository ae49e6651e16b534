#pragma once

// The run panel: Run / Step / Continue / Stop and the breakpoints menu, the status in plain
// words, the input and its attachments, the timeline of the run (the live transcript, with the
// raw request and response of each turn one click away) and the selected entry below it, and
// "run on another engine" after a refusal. What a paused run waits on stands inline in the
// timeline, at its row, with its buttons: the approval panel (approve, refuse, edit, always
// allow; or a manual tool's result), or the pause editor of a breakpoint (tool arguments before
// a tool runs, the result after, Continue / Step / Stop). It fits a column of about 640 x 700.
// Every run goes through CallService, like the command line's.

#include "core/loop/runner.h"
#include "core/model/trustpolicy.h"
#include "core/service/callservice.h"
#include "ui/run/transcriptmodel.h"

#include <QPointer>
#include <QSet>
#include <QWidget>

#include <functional>

class QAction;
class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTreeView;

namespace Callscope {

class ApprovalPanel;
class AttachmentModel;
class CallJob;
class JsonEditor;
class NoticeBar;
class PartialOutputModel;
class TrustDialog;
class ProfileStore;
class TimelineView;
class TranscriptModel;

class RunPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunPanel)

public:
    using SpecProvider = std::function<std::optional<Spec>()>;

    RunPanel(CallService *service, ProfileStore *profiles, QWidget *parent = nullptr);
    ~RunPanel() override;

    void setSpecProvider(SpecProvider provider) { m_specProvider = std::move(provider); }
    // Asked before the spec is: it calls `ready` (not when `context` has gone) once the spec
    // provider's answer is up to date. The studio's check of a spec's text runs on a worker
    // thread, and a run waits for the check of the text as it is. Without one, the spec is
    // asked for at once.
    using SpecReadiness = std::function<void(QObject *context, std::function<void()> ready)>;
    void setSpecReadiness(SpecReadiness readiness) { m_specReadiness = std::move(readiness); }
    void setInputText(const QString &text);
    QString inputText() const;
    // "x.spec.json" -> the text of "x.input.txt" beside it, when there is one.
    static QString sampleInputFor(const QString &specPath);

    // Commands (also behind the actions).
    void run();
    // Run was pressed and the run waits before it starts (the spec's check, the trust
    // question): nothing runs yet, so there is nothing to stop.
    bool isStarting() const { return m_preparing || m_asking; }
    // Why the spec in front cannot run (an invalid schema, a file that is not a spec): Run and
    // Step are off and the status line says why. Empty: it can run.
    void setBlockedReason(const QString &reason);
    QString blockedReason() const { return m_blockedReason; }
    void step(); // run with every breakpoint on; at a pause, on to the next stop
    void continueRun(); // apply edits at a pause, then resume
    void stop();
    void runOnOtherEngine(); // with the engine chosen in the picker
    void showRawExchange(); // of the selected transcript row's turn

    Breakpoints breakpoints() const;
    void setBreakpoints(Breakpoints breakpoints);

    // State, for the window and for tests.
    bool isRunning() const;
    bool isPaused() const { return m_pausedAt != Breakpoint::None; }
    Breakpoint pausedAt() const { return m_pausedAt; }
    const PendingItem &pendingItem() const { return m_pending; }
    // What the run waits on, in plain words ("get_ticket needs your approval"); empty when it
    // waits on nothing.
    QString waitingSummary() const;
    // The widget shown inline in the timeline for what the run waits on (the approval panel or
    // the pause panel), and its transcript row; null and -1 when nothing waits.
    QWidget *pendingWidget() const;
    int pendingRow() const { return m_pendingRow; }
    const std::optional<LaunchResult> &lastResult() const { return m_lastResult; }
    Runner *runner() const { return m_runner; }
    Usage totalUsage() const { return m_total; }
    int attempts() const { return m_attempts; }

    // The panel's widgets go by object name (findChild): runInput, runStatus, runUsage,
    // transcript (the timeline), transcriptHint, transcriptDetail, breakpointsButton,
    // approvalPanel, pausePanel with pauseArguments, pauseResult, pauseResultIsError,
    // pauseMessages and the pause{Step,Stop,Continue}Button, otherEnginePanel with
    // otherEngine{Profile,Type,Model,BaseUrl,KeyEnv}.
    TranscriptModel *transcript() const { return m_transcript; }
    // The structured answer of the reply under way, field by field (shown in partialOutput,
    // with partialOutputView and partialOutputSummary).
    PartialOutputModel *partialOutput() const { return m_partial; }
    AttachmentModel *attachments() const { return m_attachments; }
    QTreeView *transcriptView() const;
    NoticeBar *messageBar() const { return m_messages; }

    QAction *runAction() const { return m_runAction; }
    QAction *stepAction() const { return m_stepAction; }
    QAction *continueAction() const { return m_continueAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *rawAction() const { return m_rawAction; }
    QAction *attachAction() const { return m_attachAction; }
    QList<QAction *> breakpointActions() const { return m_breakpointActions; }

    void saveState() const;
    void restoreState();

Q_SIGNALS:
    void runStarted();
    void runFinished(const Callscope::LaunchResult &result);
    void pausedChanged(bool paused);
    // The run waits for a person (breakpoint, approval, manual result): bring the panel forward.
    void attentionNeeded();
    // The run waits for a person (approval, breakpoint, manual result), or no longer does; sent
    // again when it goes from one wait to another (waitingSummary() says what it waits on).
    void waitingChanged(bool waiting);
    // The run did not start: the engine is missing something (`pointer` into the spec).
    void preflightFailed(const QString &pointer);
    // The run waits for the trust question (the dialog is open, window-modal).
    void trustAsked(Callscope::TrustDialog *dialog);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void launch(const LaunchRequest &request);
    // run() once the spec is up to date.
    void runCheckedSpec();
    void askTrust(const LaunchRequest &request, const QList<RunItem> &items,
                  const QStringList &keyProblems);
    void follow(CallJob *job);
    void onRunnerCreated(Runner *runner);
    void onFinished(const LaunchResult &result);
    void onPaused(const PendingItem &item);
    void clearPause();
    // Adds the row the run waits at and shows `widget` inline in it.
    void showPending(QWidget *widget, const TranscriptModel::Item &row);
    // The wait is over: the row becomes `outcome`, or goes when there is none.
    void endPending(const std::optional<TranscriptModel::Item> &outcome);
    void abandonPending();
    void updateBreakpointsButton();
    void applyBreakpointsToRun();
    void resetView();
    // Marks the transcript row of a tool call whose arguments the person changed.
    void markEdited(const QString &callId, const QJsonObject &edited);
    static QString editedResultText(const QString &content, const ToolOriginal &tool);
    void updateStatus();
    void updateActions();
    void addAttachments();
    void refreshProfiles();
    void showDetail(const QModelIndex &index);

    CallService *m_service = nullptr;
    ProfileStore *m_profiles = nullptr;
    SpecProvider m_specProvider;
    QPointer<Runner> m_runner;
    QPointer<CallJob> m_job;
    Spec m_lastSpec;
    RunInput m_lastInput;
    std::optional<LaunchResult> m_lastResult;
    QString m_blockedReason;
    bool m_launching = false;
    bool m_asking = false; // the trust dialog is open
    bool m_preparing = false; // Run was pressed; waiting for the spec's check
    quint64 m_prepareAttempt = 0;
    SpecReadiness m_specReadiness;
    bool m_waiting = false;
    QString m_waitingSummary;
    void setWaiting(bool waiting);
    RunnerState m_state = RunnerState::Idle;
    Breakpoint m_pausedAt = Breakpoint::None;
    PendingItem m_pending;
    int m_firstRequestShown = false;
    Usage m_total;
    Usage m_lastTurnUsage;
    int m_turns = 0;
    int m_retriesInTurn = 0; // failed attempts of the turn under way (its reply counts them)
    int m_attempts = 0;
    int m_pendingRow = -1; // the transcript row the run waits at
    QHash<QString, int> m_resultRows; // tool call id -> transcript row of its result
    QHash<QString, int> m_callRows; // tool call id -> transcript row of the call
    QHash<QString, ToolCall> m_modelCalls; // tool call id -> the call as the model made it
    QSet<QString> m_editedCalls;

    TranscriptModel *m_transcript = nullptr;
    PartialOutputModel *m_partial = nullptr;
    QGroupBox *m_partialBox = nullptr;
    QLabel *m_partialSummary = nullptr;
    AttachmentModel *m_attachments = nullptr;
    NoticeBar *m_messages = nullptr;
    QPlainTextEdit *m_input = nullptr;
    QListView *m_attachmentView = nullptr;
    TimelineView *m_view = nullptr;
    QLabel *m_transcriptHint = nullptr;
    QPlainTextEdit *m_detail = nullptr;
    QSplitter *m_splitter = nullptr; // input, timeline, detail
    // The splitter's sizes before a waiting row took room from the input and the detail box;
    // given back when the wait ends.
    QList<int> m_sizesBeforeWait;
    QLabel *m_status = nullptr;
    QLabel *m_usage = nullptr;
    ApprovalPanel *m_approval = nullptr;
    QGroupBox *m_pausePanel = nullptr;
    QLabel *m_pauseLabel = nullptr;
    JsonEditor *m_pauseArgs = nullptr;
    QPlainTextEdit *m_pauseResult = nullptr;
    QCheckBox *m_pauseIsError = nullptr;
    QPlainTextEdit *m_pauseInfo = nullptr;
    NoticeBar *m_pauseMessages = nullptr;
    QPushButton *m_pauseContinue = nullptr;
    QPushButton *m_pauseStep = nullptr;
    QPushButton *m_pauseStop = nullptr;
    QPushButton *m_breakpointsButton = nullptr;
    QGroupBox *m_otherEngine = nullptr;
    QComboBox *m_otherProfile = nullptr;
    QComboBox *m_otherType = nullptr;
    QLineEdit *m_otherModel = nullptr;
    QLineEdit *m_otherBaseUrl = nullptr;
    QLineEdit *m_otherKeyEnv = nullptr;

    QAction *m_runAction = nullptr;
    QAction *m_stepAction = nullptr;
    QAction *m_continueAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_rawAction = nullptr;
    QAction *m_attachAction = nullptr;
    QAction *m_removeAttachmentAction = nullptr;
    QList<QAction *> m_breakpointActions;
};

} // namespace Callscope
