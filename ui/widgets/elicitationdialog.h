#pragma once

// The form an MCP server asks a person to fill in during a run (elicitation/create): one field
// per property of the requested schema (text, a choice for an enum, a check box, a number), the
// schema's defaults filled in. Accept answers with the values, Decline and Cancel say so. The
// run waits for the tool meanwhile; the dialog never blocks the event loop.

#include "core/tools/mcptoolkit.h"

#include <QDialog>
#include <QHash>
#include <QJsonObject>

class QLabel;

namespace Callscope {

class ElicitationDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElicitationDialog)

public:
    explicit ElicitationDialog(const McpElicitation &request, QWidget *parent = nullptr);
    ~ElicitationDialog() override;

    // {"action": "accept", "content": {...}} after Accept; decline or cancel otherwise.
    QJsonObject answer() const { return m_answer; }
    // The values as the form holds them now (for Accept).
    QJsonObject content() const;

    // Shows a dialog for `request` (non-modal to the event loop) and calls `reply` once with the
    // answer; the handler the GUI gives the call service.
    static void ask(QWidget *parent, const McpElicitation &request,
                    std::function<void(const QJsonObject &)> reply);

private:
    void finishWith(const QString &action);

    QJsonObject m_schema;
    QHash<QString, QWidget *> m_fields;
    QLabel *m_problem = nullptr;
    QJsonObject m_answer { { QStringLiteral("action"), QStringLiteral("cancel") } };
};

} // namespace Callscope
