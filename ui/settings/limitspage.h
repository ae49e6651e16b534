#pragma once

// Settings > Calls at once: how many calls run together (all engines), and how many on one
// engine unless its profile says otherwise (Engines and keys > Calls at once). Saved in the
// settings (scheduler/global_limit, scheduler/engine_limit) and applied at once to the
// running studio; the command line reads the same settings (batch --jobs overrides the first).

#include <QPointer>
#include <QWidget>

class QLabel;
class QSpinBox;

namespace Callscope {

class CallService;

class LimitsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitsPage)

public:
    explicit LimitsPage(CallService *service, QWidget *parent = nullptr);
    ~LimitsPage() override;

    QSpinBox *globalLimitBox() const { return m_global; }
    QSpinBox *engineLimitBox() const { return m_engine; }

private:
    void save();

    QPointer<CallService> m_service;
    QSpinBox *m_global = nullptr;
    QSpinBox *m_engine = nullptr;
    QLabel *m_note = nullptr;
};

} // namespace Callscope
