#include "core/tools/basictooljob.h"

#include <QCoreApplication>
#include <QMetaObject>

namespace Callscope {

BasicToolJob::BasicToolJob(const ToolCall &call, QObject *parent)
    : ToolJob(parent)
    , m_call(call)
{ }

void BasicToolJob::start()
{
    if (m_started || m_done)
        return;
    m_started = true;
    m_inStart = true;
    begin();
    m_inStart = false;
}

void BasicToolJob::cancel()
{
    const QString text = QCoreApplication::translate("Callscope::ToolJob", "cancelled");
    if (m_done && !m_emitted) {
        // Decided inside start() but not told yet: the caller gets the cancellation now.
        m_queued.content = text;
        m_queued.isError = true;
        m_queued.images.clear();
        m_emitted = true;
        Q_EMIT finished(m_queued);
        return;
    }
    finishWithError(text);
}

void BasicToolJob::finishWith(ToolResult result)
{
    if (m_done)
        return;
    m_done = true;
    result.callId = m_call.id;
    result.name = m_call.name;
    release();
    if (m_inStart) {
        m_queued = result;
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_emitted)
                    return;
                m_emitted = true;
                Q_EMIT finished(m_queued);
            },
            Qt::QueuedConnection);
        return;
    }
    m_emitted = true;
    Q_EMIT finished(result);
}

void BasicToolJob::finishWithError(const QString &text)
{
    ToolResult result;
    result.content = text;
    result.isError = true;
    finishWith(result);
}

void BasicToolJob::finishWithText(const QString &text)
{
    ToolResult result;
    result.content = text;
    finishWith(result);
}

} // namespace Callscope
