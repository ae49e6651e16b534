#pragma once

// One stored call as a document tab: a summary line (status in words, engine, model, tokens,
// cost, duration, when; replays and edits marked), the actions that start from it (Replay,
// Revise, Export, Compare with parent) and five views of it: Transcript, Result (the validated
// output, or what failed validation), Request / Response of each turn (the HTTP bodies as
// sent and received, for calls stored since they are kept), Context budget, Cache (what the
// prompt cache read, wrote and saved, and why a turn missed) and the call's revision tree. The tab
// writes the shared CurrentCall when the person picks in it; the window decides what the actions do
// (they run through the same code as the History menu).

#include "core/model/callrecord.h"
#include "core/store/cachereport.h"

#include <QUrl>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTextBrowser;
class QTreeView;

namespace Callscope {

class BudgetView;
class CacheView;
class JsonEditor;
class CallStore;
class CurrentCall;
class RawExchangeView;
class RevisionTreeModel;
class StoreReader;

class CallTab final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CallTab)

public:
    // `store` and `current` must outlive the tab; `current` may be null (a tab on its own).
    CallTab(CallStore *store, CurrentCall *current, QWidget *parent = nullptr);
    ~CallTab() override;

    // Reads the call, its exchanges and its revision tree on `reader`'s thread from now on
    // (null: at once on the store). It must outlive the tab.
    void setReader(StoreReader *reader);
    // Reads the call. With a reader the tab says "Reading call N…", its buttons stay disabled
    // until the call is in, and loaded() tells how it went; an answer to an earlier setCall()
    // or reload() is dropped. Without one it is filled before this returns. False (and the
    // reason in the summary line) when it is known already that it cannot be read.
    bool setCall(qint64 id);
    // Reads the call again (a revision or replay of it was stored: the tree grows).
    void reload();
    qint64 callId() const { return m_id; }
    const CallRecord &call() const { return m_record; } // empty until it is read
    bool isLoading() const { return m_loading; }
    bool isLoaded() const { return m_record.id > 0; }
    bool hasFailed() const { return m_failed; }
    // "Call 12 · planner": the tab's title.
    QString title() const;

    QString summaryText() const;
    QString transcriptText() const;
    QString resultText() const;
    QString validationText() const;
    QString requestText() const; // the Request pane of the turn picked
    QString responseText() const;
    QString exchangeNote() const;

    QTabWidget *tabs() const { return m_tabs; }
    QWidget *transcriptPage() const;
    QWidget *exchangePage() const { return m_exchangePage; }
    QComboBox *turnCombo() const { return m_turn; }
    RawExchangeView *exchange() const { return m_exchange; }
    BudgetView *budget() const { return m_budget; }
    CacheView *cacheView() const { return m_cacheView; }
    QTreeView *revisionView() const { return m_revisionView; }
    RevisionTreeModel *revisionModel() const { return m_revisionModel; }
    QPushButton *reviseButton() const { return m_revise; }
    QPushButton *compareParentButton() const { return m_compareParent; }
    QPushButton *compareSelectedButton() const { return m_compareSelected; }
    // Shown when Settings > Telemetry has a trace link: opens the call's trace in the viewer.
    QPushButton *openTraceButton() const { return m_openTrace; }
    // The address Open Trace goes to (empty without a trace link or before the call is read).
    QUrl traceUrl() const;

    // The turn's request and reply as the stored call keeps them (the messages the turn's
    // request carried, the reply decoded), for the Request / Response pane.
    static QJsonObject turnRequest(const CallRecord &record, int turn);
    static QJsonObject turnResponse(const CallRecord &record, int turn);
    // The raw exchanges read with the call (empty for a call stored before they were kept).
    const QList<TurnExchange> &exchanges() const { return m_exchanges; }

public Q_SLOTS:
    void showTurn(int turn);

Q_SIGNALS:
    // The person asked for these on this tab's call (or, for compare, on two calls).
    void replayRequested(qint64 id);
    void reviseRequested(qint64 id);
    void exportRequested(qint64 id);
    void compareRequested(qint64 left, qint64 right);
    // A node of the revision tree was opened (double-click, Enter).
    void callOpened(qint64 id);
    // The call asked for last (setCall or reload) is in, or could not be read.
    void loaded(bool ok);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void read();
    void fill();
    void showTree(); // the revision tree read: expanded, with this call picked
    void writeSelection();
    void updateButtons();

    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    CurrentCall *m_current = nullptr;
    qint64 m_id = 0; // the call asked for; m_record is it once read
    quint64 m_ticket = 0; // the read whose answer counts
    bool m_loading = false;
    bool m_failed = false;
    bool m_treeShown = false;
    CallRecord m_record;
    QList<TurnExchange> m_exchanges; // read apart from the call (CallStore::exchanges)
    std::optional<CacheReport> m_cache;
    QList<Message> m_messages; // the conversation, parsed with the read
    QString m_transcriptHtml;
    QString m_resultText; // the output as shown (the start of a huge one)
    bool m_syncing = false;

    QLabel *m_summary = nullptr;
    QLabel *m_marks = nullptr;
    QPushButton *m_replay = nullptr;
    QPushButton *m_revise = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_compareParent = nullptr;
    QPushButton *m_compareSelected = nullptr;
    QPushButton *m_openTrace = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTextBrowser *m_transcript = nullptr;
    QWidget *m_resultPage = nullptr;
    QLabel *m_resultState = nullptr;
    JsonEditor *m_result = nullptr;
    QPlainTextEdit *m_validation = nullptr;
    QWidget *m_exchangePage = nullptr;
    QComboBox *m_turn = nullptr;
    QLabel *m_turnFacts = nullptr;
    QLabel *m_exchangeNote = nullptr;
    RawExchangeView *m_exchange = nullptr;
    CacheView *m_cacheView = nullptr;
    BudgetView *m_budget = nullptr;
    QTreeView *m_revisionView = nullptr;
    RevisionTreeModel *m_revisionModel = nullptr;
};

} // namespace Callscope
