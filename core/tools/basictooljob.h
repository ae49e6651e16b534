#pragma once

// Shared bookkeeping of the toolkits' jobs: `finished` exactly once, with the call's id and
// name filled in, and never emitted from inside start() (a job that fails at once reports on
// the next turn of the event loop, so the caller's start() never re-enters its own handler).

#include "core/tools/toolkit.h"

namespace Callscope {

class BasicToolJob : public ToolJob
{
public:
    explicit BasicToolJob(const ToolCall &call, QObject *parent = nullptr);

    void start() final;
    void cancel() final;

    const ToolCall &call() const { return m_call; }
    bool isDone() const { return m_done; }

protected:
    virtual void begin() = 0;
    // Stops whatever still runs; called once, just before `finished` is emitted.
    virtual void release() { }

    void finishWith(ToolResult result);
    void finishWithError(const QString &text);
    void finishWithText(const QString &text);

private:
    ToolCall m_call;
    bool m_started = false;
    bool m_inStart = false;
    bool m_done = false;
    bool m_emitted = false;
    ToolResult m_queued; // decided inside start(), emitted on the next event loop turn
};

} // namespace Callscope
