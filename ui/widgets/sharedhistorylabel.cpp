#include "ui/widgets/sharedhistorylabel.h"

#include "core/service/callservice.h"
#include "core/store/database.h"
#include "core/store/historyqueue.h"
#include "core/store/storewriter.h"

#include <QDir>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

constexpr int kRetryMs = 15000;

} // namespace

SharedHistoryLabel::SharedHistoryLabel(CallService *service, const QString &location,
                                       QWidget *parent)
    : QLabel(parent)
    , m_service(service)
    , m_location(location)
    , m_timer(new QTimer(this))
{
    setObjectName(u"sharedHistoryLabel"_s);
    hide();
    if (!isServerLocation(location) || !service)
        return;
    m_timer->setInterval(kRetryMs);
    connect(m_timer, &QTimer::timeout, this, &SharedHistoryLabel::retry);
    m_timer->start();
    QTimer::singleShot(0, this, &SharedHistoryLabel::retry);
}

SharedHistoryLabel::~SharedHistoryLabel() = default;

void SharedHistoryLabel::setRetryIntervalMs(int ms)
{
    m_timer->setInterval(ms);
}

void SharedHistoryLabel::retry()
{
    StoreWriter *writer = m_service ? m_service->writer() : nullptr;
    if (!writer || m_asking)
        return;
    m_asking = true;
    writer->sendQueue(this, [this](const StoreWriter::QueueReport &report) {
        m_asking = false;
        m_waiting = report.waitingCalls;
        if (report.waitingCalls > 0 || report.waitingRuns > 0) {
            setText(HistoryQueue::waitingMessage(m_location, report.waitingCalls));
            QString tip = tr("Kept in %1 until the server can be reached; sent on their own "
                             "then, each once.")
                              .arg(QDir::toNativeSeparators(HistoryQueue::pathFor(m_location)));
            if (!report.outcome.errors.isEmpty())
                tip += u'\n' + report.outcome.errors.first();
            setToolTip(tip);
            show();
        } else {
            hide();
        }
        Q_EMIT answered(report.waitingCalls);
    });
}

} // namespace Callscope
