#pragma once

// A call's revisions and replays as a tree, the selected call beside it, and the actions that
// grow the tree: Revise (a correction), Replay on another engine, Replay with the current spec.
// Runs go through the shared CallService; the tree updates when the run is stored.

#include "core/model/spec.h"
#include "core/service/callservice.h"
#include "ui/widgets/noticebar.h"

#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QPushButton;
class QTreeView;

namespace Callscope {

class CallJob;
class CallStore;
class CallView;
class ProfileStore;
class RevisionTreeModel;
class StoreReader;

class RevisionTreeWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RevisionTreeWidget)

public:
    // `service` and `profiles` may be null (no runs; no profile choice).
    RevisionTreeWidget(CallStore *store, CallService *service, ProfileStore *profiles,
                       QWidget *parent = nullptr);
    ~RevisionTreeWidget() override;

    RevisionTreeModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    CallView *callView() const { return m_callView; }
    QPushButton *reviseButton() const { return m_revise; }
    QPushButton *replaySpecButton() const { return m_replaySpec; }
    QString statusText() const;

    qint64 selectedCallId() const;
    void selectCall(qint64 id);
    // Reads the trees and the calls on `reader`'s thread (null: at once). It must outlive this.
    void setReader(StoreReader *reader);

public Q_SLOTS:
    // Shows the tree holding `callId` and selects that call (read off the GUI thread with a
    // reader: the model's loaded() tells when it is in).
    void setCall(qint64 callId);
    // The spec open in the editor (for "Replay with current spec").
    void setCurrentSpec(const Callscope::Spec &spec);
    void clearCurrentSpec();

    // The actions, on the selected call. False (with the reason in the status line) when the
    // run could not be started.
    // On a call that ran on the replay engine this asks for a live engine first (the recording
    // would answer the same whatever the correction says) and returns false.
    bool revise(const QString &correction);
    bool reviseOnEngine(const QString &correction, const Callscope::EngineSpec &engine);
    bool replayOnEngine(const Callscope::EngineSpec &engine);
    bool replayWithCurrentSpec();
    void openReviseDialog();
    void openReplayDialog();

Q_SIGNALS:
    void callSelected(qint64 id);
    // A node was opened (double-click, Enter, or Open in its context menu).
    void callOpened(qint64 id);
    void diffRequested(qint64 left, qint64 right);
    void budgetRequested(qint64 id);
    void exportTreeRequested(qint64 rootId);
    // A run started here was stored (id > 0) or failed to (id 0).
    void runFinished(qint64 id);

private:
    // Runs `then` with the selected call: at once when it is read already, else once it is
    // read off the GUI thread (dropped when another call is picked meanwhile). False, with the
    // reason in the status line, when there is no call to read.
    bool withSelectedCall(std::function<void(const CallRecord &)> then);
    bool reviseCall(const CallRecord &call, const QString &text);
    bool replayCall(const CallRecord &call, const EngineSpec &engine);
    bool startRun(const QString &what);
    void follow(CallJob *job);
    void onJobFinished(const LaunchResult &result);
    void updateActions();
    void showSelected();
    void onTreeLoaded(bool ok);
    void setStatus(const QString &text, NoticeBar::Kind kind = NoticeBar::Kind::Info);

    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    qint64 m_pendingSelect = 0; // picked once the tree asked for is in
    bool m_layoutAfterLoad = false; // a new tree: expand it and fit its columns
    qint64 m_showing = 0; // the call being read for the view beside the tree
    CallService *m_service = nullptr;
    ProfileStore *m_profiles = nullptr;
    RevisionTreeModel *m_model = nullptr;
    QTreeView *m_view = nullptr;
    CallView *m_callView = nullptr;
    QPushButton *m_revise = nullptr;
    QPushButton *m_replayEngine = nullptr;
    QPushButton *m_replaySpec = nullptr;
    QPushButton *m_diff = nullptr;
    QPushButton *m_budget = nullptr;
    QPushButton *m_export = nullptr;
    NoticeBar *m_status = nullptr;
    std::optional<Spec> m_currentSpec;
    QPointer<CallJob> m_job;
};

} // namespace Callscope
