#include "ui/widgets/jobsbutton.h"

#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/service/scheduler.h"

#include <QMenu>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

JobsButton::JobsButton(CallService *service, QWidget *parent)
    : QToolButton(parent)
    , m_service(service)
    , m_menu(new QMenu(this))
    , m_tick(new QTimer(this))
{
    setObjectName(u"jobsButton"_s);
    setAutoRaise(true);
    setPopupMode(QToolButton::InstantPopup);
    setMenu(m_menu);
    setToolTip(tr("Calls in flight: open the list to cancel one"));
    connect(m_menu, &QMenu::aboutToShow, this, &JobsButton::rebuildMenu);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &JobsButton::updateText);
    if (m_service) {
        connect(m_service, &CallService::jobAdded, this, [this](CallJob *job) {
            connect(job, &CallJob::stateChanged, this, &JobsButton::updateText);
            updateText();
        });
        connect(m_service, &CallService::jobFinished, this, [this] {
            // The finished job leaves the list after its signal; count again from the loop.
            QTimer::singleShot(0, this, &JobsButton::updateText);
        });
    }
    updateText();
}

JobsButton::~JobsButton() = default;

QString JobsButton::stateText(const CallJob *job)
{
    switch (job->state()) {
    case CallJob::State::Queued:
        return tr("waiting for a free place");
    case CallJob::State::Starting:
        return tr("starting");
    case CallJob::State::Running:
        if (Runner *runner = job->runner()) {
            switch (runner->state()) {
            case RunnerState::Paused:
                return tr("paused");
            case RunnerState::AwaitingApproval:
                return tr("waiting for your approval");
            case RunnerState::AwaitingManual:
                return tr("waiting for a tool result");
            default:
                break;
            }
        }
        return tr("running for %1 s").arg(job->elapsedMs() / 1000);
    case CallJob::State::Finished:
        return tr("finished");
    }
    return {};
}

void JobsButton::updateText()
{
    const QList<CallJob *> jobs = m_service ? m_service->jobs() : QList<CallJob *>();
    int queued = 0;
    for (const CallJob *job : jobs)
        queued += job->state() == CallJob::State::Queued ? 1 : 0;
    const int running = int(jobs.size()) - queued;
    setVisible(!jobs.isEmpty());
    if (jobs.isEmpty()) {
        m_tick->stop();
        return;
    }
    if (!m_tick->isActive())
        m_tick->start();
    QString text = running == 1 ? tr("1 call running") : tr("%1 calls running").arg(running);
    if (queued > 0)
        text += tr(", %1 waiting").arg(queued);
    setText(text);
}

QMenu *JobsButton::jobsMenu()
{
    rebuildMenu();
    return m_menu;
}

void JobsButton::rebuildMenu()
{
    m_menu->clear();
    const QList<CallJob *> jobs = m_service ? m_service->jobs() : QList<CallJob *>();
    if (jobs.isEmpty()) {
        m_menu->addAction(tr("No calls running"))->setEnabled(false);
        return;
    }
    for (CallJob *job : jobs) {
        QAction *action =
            m_menu->addAction(tr("Cancel: %1 (%2)").arg(job->title(), stateText(job)));
        const QPointer<CallJob> guard(job);
        connect(action, &QAction::triggered, this, [guard] {
            if (guard)
                guard->cancel();
        });
    }
    m_menu->addSeparator();
    connect(m_menu->addAction(tr("Cancel all")), &QAction::triggered, this, [this] {
        if (m_service)
            m_service->cancelAll();
    });
}

} // namespace Callscope
