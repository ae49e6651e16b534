#pragma once

// Where a compaction cuts a conversation. Pure: the runner or the
// session decides when to compact and makes the summary call (kind "compaction"); this only
// says which messages fold into the summary and which stay, so that the cut never separates
// a tool call from its result.

#include "core/model/message.h"

#include <QList>

namespace Callscope {

struct CompactionPlan
{
    // Messages [0, foldCount) fold into the summary; [foldCount, size) are sent as they are.
    int foldCount = 0;
    // Messages kept beyond keep_recent so that no call is separated from its result.
    int extraKept = 0;

    bool isEmpty() const { return foldCount == 0; }
    friend bool operator==(const CompactionPlan &, const CompactionPlan &) = default;
};

// The policy check of context_size: the last request's prompt plus its output passed the
// limit (strictly greater). A limit of 0 or less turns the policy off.
bool compactionNeeded(qint64 lastPromptTokens, qint64 lastOutputTokens, qint64 maxContextTokens);

// Folds all but the newest `keepRecent` messages, moving the cut towards the older end while
// a kept message holds a tool result whose call would be folded (so the kept part never starts
// with orphaned results, and an assistant message's calls always stay with their results).
// keepRecent < 0 counts as 0. Results whose call id matches no call do not move the cut.
// Nothing folds when the cut ends at 0.
CompactionPlan planCompaction(const QList<Message> &messages, int keepRecent);

} // namespace Callscope
