#pragma once

// The status bar's list of calls in flight: "3 calls running" (and how many wait in the
// queue), with a menu that names each call, its state and how long it has run, and cancels
// any one of them or all. Hidden while nothing runs.

#include <QPointer>
#include <QToolButton>

class QMenu;
class QTimer;

namespace Callscope {

class CallJob;
class CallService;

class JobsButton final : public QToolButton
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobsButton)

public:
    explicit JobsButton(CallService *service, QWidget *parent = nullptr);
    ~JobsButton() override;

    // Rebuilds the menu now (tests read it without opening it).
    QMenu *jobsMenu();
    static QString stateText(const CallJob *job);

private:
    void updateText();
    void rebuildMenu();

    QPointer<CallService> m_service;
    QMenu *m_menu = nullptr;
    QTimer *m_tick = nullptr;
};

} // namespace Callscope
