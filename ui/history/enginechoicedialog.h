#pragma once

// Picks the engine a replay runs on: a saved profile, or a type, model, base URL and the
// environment variable holding the key.

#include "core/model/spec.h"

#include <QDialog>

class QComboBox;
class QLineEdit;

namespace Callscope {

class NoticeBar;
class ProfileStore;

class EngineChoiceDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineChoiceDialog)

public:
    // `profiles` may be null (only type and model can be chosen).
    EngineChoiceDialog(ProfileStore *profiles, QWidget *parent);
    ~EngineChoiceDialog() override;

    // Preselects the fields from an engine (the call's own, typically).
    void setEngine(const EngineSpec &engine);
    EngineSpec engine() const;
    // A user-facing problem with the current choice, or empty.
    QString problem() const;

    QComboBox *typeCombo() const { return m_type; }
    QLineEdit *modelEdit() const { return m_model; }
    QLineEdit *baseUrlEdit() const { return m_baseUrl; }

    void accept() override;

private:
    void updateEnabled();

    QComboBox *m_profile = nullptr;
    QComboBox *m_type = nullptr;
    QLineEdit *m_model = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QLineEdit *m_keyEnv = nullptr;
    NoticeBar *m_notice = nullptr;
};

} // namespace Callscope
