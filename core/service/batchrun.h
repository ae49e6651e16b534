#pragma once

// A batch: one spec run once for every line of a JSON Lines inputs file, with many calls in
// flight at once. The scheduler bounds what runs at once; BatchRun keeps it fed
// without creating a job per line up front, hands results back in input order, links every
// stored call to its batch line (so a resumed batch runs only what has no completed call),
// and stops cleanly: no new launches, what is in flight is cancelled and stored as cancelled.

#include "core/service/callservice.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QSet>

namespace Callscope {

class CallJob;

// One input line: a JSON string (the input text) or {"input", "attachments": [paths],
// "metadata"}. `error` says why a line cannot run (it is reported, the batch goes on).
struct BatchLine
{
    int line = 0; // 1-based line number in the file
    QString text;
    QStringList attachments;
    QJsonObject metadata;
    QString error;
};

struct BatchInputs
{
    QList<BatchLine> lines; // non-empty lines only
    QByteArray sha256; // hex, of the whole file
    QString error; // the file could not be read
};
BatchInputs readBatchInputs(const QString &path);
// A file as an attachment (its type from its name and bytes); `error` says why not.
std::optional<Attachment> readAttachmentFile(const QString &path, QString *error = nullptr);

class BatchRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BatchRun)

public:
    struct Progress
    {
        int total = 0; // lines to answer in this run (resumed ones not counted)
        int done = 0; // answered: completed, failed, cancelled or invalid
        int failed = 0; // answered but not completed
        int inFlight = 0; // launched, not finished (queued ones included)
        int resumed = 0; // completed in an earlier run of the same batch
        int notStored = 0; // answered but not in the history (counted in failed)
        double callsPerSecond = 0;
        qint64 etaMs = -1; // -1 while unknown
    };

    BatchRun(CallService *service, const Spec &spec, const QList<BatchLine> &lines,
             QObject *parent = nullptr);
    ~BatchRun() override;

    void setAllowedTools(const QSet<QString> &tools) { m_allowedTools = tools; }
    // Calls are linked to this stored batch.
    void setBatchId(qint64 id) { m_batchId = id; }
    // Lines answered by a completed call in an earlier run: not run again, reported from the
    // store (resumed = true).
    void setCompletedLines(const QHash<int, qint64> &lineToCall) { m_completed = lineToCall; }
    // How many launched jobs may wait in the scheduler's queue beyond those running.
    void setWindow(int jobs) { m_window = std::max(1, jobs); }

    void start();
    // No new launches; jobs in flight are cancelled (stored as cancelled). finished follows.
    void stop();
    // The store failed in a way that will recur (full disk, read-only or damaged file): no
    // new call starts, those waiting for a place are cancelled, the running ones end.
    bool isHalted() const { return m_halted; }
    // The same from outside (the output cannot be written): no new call starts.
    void halt(const QString &why);
    QString haltReason() const { return m_haltReason; }

    Progress progress() const;
    // Gemini's explicit cache entries of this batch (made by its first call of each prefix,
    // deleted before `finished`).
    GeminiContentCache *contentCache() const { return m_contentCache; }

Q_SIGNALS:
    // Something the person should know that does not stop the batch (an explicit cache that
    // could not be made: the calls send their prefix).
    void notice(const QString &text);
    // In input order. `resumed`: answered by an earlier run (result read from the store).
    void lineFinished(int line, const Callscope::LaunchResult &result, bool resumed,
                      const QString &lineError);
    // The first store failure that will recur: no new call starts; finished follows.
    void halted(const QString &why);
    void finished();

private:
    struct Outcome
    {
        LaunchResult result;
        bool resumed = false;
        QString lineError;
    };

    void fill();
    bool launch(const BatchLine &line); // false: answered at once (an unreadable attachment)
    void onJobFinished(int line, const LaunchResult &result);
    void deliver();
    void checkDone();

    QPointer<CallService> m_service;
    Spec m_spec;
    QList<BatchLine> m_lines;
    QSet<QString> m_allowedTools;
    qint64 m_batchId = 0;
    QHash<int, qint64> m_completed;
    int m_window = 8;

    int m_nextIndex = 0; // next entry of m_lines to look at
    int m_deliverIndex = 0; // next entry of m_lines to hand out in order
    QHash<int, Outcome> m_outcomes; // by line number, waiting for earlier lines
    QHash<int, QPointer<CallJob>> m_running;
    bool m_started = false;
    bool m_stopping = false;
    bool m_halted = false;
    QString m_haltReason;
    bool m_fillQueued = false;
    bool m_finished = false;
    int m_notStored = 0;
    int m_total = 0;
    int m_done = 0;
    int m_failed = 0;
    int m_resumed = 0;
    QElapsedTimer m_clock;
    GeminiContentCache *m_contentCache = nullptr; // a child
    bool m_cacheReleasing = false;
    bool m_cacheReleased = false;
};

} // namespace Callscope
