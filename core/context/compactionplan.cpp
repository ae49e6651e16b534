#include "core/context/compactionplan.h"

#include <QHash>

#include <algorithm>

namespace Callscope {

bool compactionNeeded(qint64 lastPromptTokens, qint64 lastOutputTokens, qint64 maxContextTokens)
{
    if (maxContextTokens <= 0)
        return false;
    return lastPromptTokens + lastOutputTokens > maxContextTokens;
}

CompactionPlan planCompaction(const QList<Message> &messages, int keepRecent)
{
    const int size = int(messages.size());
    const int wanted = std::max(0, size - std::max(0, keepRecent));

    // Where each call was made: a kept result must not point before the cut.
    QHash<QString, int> callAt;
    for (int m = 0; m < size; ++m) {
        for (const ToolCall &call : messages[m].toolCalls) {
            if (!callAt.contains(call.id))
                callAt.insert(call.id, m);
        }
    }

    // Moving the cut earlier can bring in more results whose calls are older still, so repeat
    // until the kept part [cut, size) holds no result of a call before the cut.
    int cut = wanted;
    bool moved = true;
    while (moved && cut > 0) {
        moved = false;
        for (int m = cut; m < size; ++m) {
            for (const ToolResult &result : messages[m].toolResults) {
                const auto it = callAt.constFind(result.callId);
                if (it != callAt.constEnd() && *it < cut) {
                    cut = *it;
                    moved = true;
                }
            }
        }
    }

    CompactionPlan plan;
    plan.foldCount = cut;
    plan.extraKept = wanted - cut;
    return plan;
}

} // namespace Callscope
