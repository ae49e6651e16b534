#pragma once

// Sends the calls of one history into another, idempotent by UUID: `callscope-cli history
// push` (a local history, or part of it, into a shared one) and the local queue of a server
// that could not be reached (core/store/historyqueue.h) both go through it.
//
// Each call is one transaction on the target: the call row with its turns, attempts and raw
// exchanges, the session messages it added, and its batch line, so a transfer stopped at any
// point (cancelled, the target gone) never leaves half a call there. A call whose UUID the
// target already holds is not sent again: a second transfer sends nothing new, and a transfer
// cut short after the target committed but before the source heard of it is finished by the
// next one without a duplicate.
//
// Links are carried by identity, not by id: a revision's parent and a session by UUID (a session
// the target lacks is made there with the same UUID); a batch by its files, hashes and start
// time; an experiment by its name, definition hash and start time (made on the target when it
// is not there; the calls' metadata "experiment_id" is rewritten to the target's id). An
// experiment's runs follow their calls: a run whose UUID the target holds is not sent again, and
// the target's (experiment, case, variant, repeat) key keeps a resent run from being stored
// twice. Compaction rows and review labels are not carried (the summary call is, as a call).

#include "core/store/callstore.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace Callscope {

struct TransferFilter
{
    QDateTime since; // calls made at or after this time (when valid)
    QString kind; // calls of this kind (when not empty)
};

struct TransferOutcome
{
    int total = 0; // calls selected
    int sent = 0; // stored on the target by this transfer
    int alreadyThere = 0; // the target held their UUID already
    int failed = 0; // the target refused them (see errors)
    int runsSent = 0; // experiment runs stored on the target
    int runsAlreadyThere = 0;
    int runsFailed = 0;
    int removed = 0; // calls removed from the source (setRemoveSent) after the target took them
    bool cancelled = false; // stopped between two calls by the cancel flag
    bool unreachable = false; // the target went away; what is left stays in the source
    QStringList errors; // the first few reasons, each naming the call
    // Every call selected went across (sent now or before).
    bool complete() const { return !cancelled && !unreachable && failed == 0 && runsFailed == 0; }
};

class HistoryTransfer
{
public:
    // Both stores must outlive the transfer and belong to the calling thread; `to` is written
    // through its own connection (a read-write one).
    HistoryTransfer(CallStore &from, CallStore &to);

    void setFilter(const TransferFilter &filter) { m_filter = filter; }
    // The local queue: what the target confirmed (stored now, or found there) is deleted from
    // the source afterwards, calls and runs, and then the experiments, batches and sessions
    // nothing in the source refers to any more.
    void setRemoveSent(bool remove) { m_removeSent = remove; }
    // Called after each call with (calls done, calls selected).
    void setProgress(std::function<void(int done, int total)> progress)
    {
        m_progress = std::move(progress);
    }
    // Checked before each call: when set, the transfer stops there (nothing is half sent).
    void setCancelFlag(const std::atomic<bool> *cancel) { m_cancel = cancel; }

    TransferOutcome run();

private:
    CallStore &m_from;
    CallStore &m_to;
    TransferFilter m_filter;
    bool m_removeSent = false;
    std::function<void(int, int)> m_progress;
    const std::atomic<bool> *m_cancel = nullptr;
};

} // namespace Callscope
