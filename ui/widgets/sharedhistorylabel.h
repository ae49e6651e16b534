#pragma once

// The status bar's word on a shared history (a PostgreSQL server): while calls wait in the
// local queue because the server could not be reached, "3 calls wait to be sent to the shared
// history at db.example:5432/callscope". Every retry interval (and when the window opens) it
// asks the store writer to send the queue (core/store/historyqueue.h), off the GUI thread; once
// nothing waits the line goes. Hidden for a history file.

#include <QLabel>
#include <QPointer>

class QTimer;

namespace Callscope {

class CallService;

class SharedHistoryLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SharedHistoryLabel)

public:
    // `location` is the history the studio was started with.
    SharedHistoryLabel(CallService *service, const QString &location, QWidget *parent = nullptr);
    ~SharedHistoryLabel() override;

    // Tries to send the queue now (the timer does it every retry interval).
    void retry();
    void setRetryIntervalMs(int ms);
    // Calls the last answer said wait (tests).
    int waitingCalls() const { return m_waiting; }

Q_SIGNALS:
    void answered(int waitingCalls);

private:
    QPointer<CallService> m_service;
    QString m_location;
    QTimer *m_timer = nullptr;
    bool m_asking = false;
    int m_waiting = 0;
};

} // namespace Callscope
