#pragma once

// The small MCP area under the spec editor's "MCP servers" JSON: add a remote server (name, URL,
// sign-in kind) and connect to any server of the spec to see its tools with their annotations.
// Connecting signs in when the server asks (the browser opens; tokens go to the keychain).
// The panel only asks core: the toolkit does the talking.

#include "core/model/spec.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace Callscope {

class CredentialStore;
class McpToolkit;

class McpServerPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpServerPanel)

public:
    explicit McpServerPanel(QWidget *parent = nullptr);
    ~McpServerPanel() override;

    // The servers the spec declares (the connect list follows it).
    void setSpec(const Spec &spec);
    // Where sign-ins are kept; without one the panel makes its own.
    void setCredentialStore(CredentialStore *store);

    QTableWidget *toolTable() const { return m_tools; }
    QLabel *statusLabel() const { return m_status; }
    bool isConnecting() const { return m_toolkit != nullptr; }

public Q_SLOTS:
    void connectToServer(); // the server picked in the list
    void cancel();

Q_SIGNALS:
    // The person filled in a remote server; the editor adds it to the spec's mcp_servers.
    void addServerRequested(const QString &name, const QJsonObject &entry);

private:
    void addRemote();
    void updateAuthFields();
    void showTools();
    void finish(const QString &status);

    Spec m_spec;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_url = nullptr;
    QComboBox *m_auth = nullptr;
    QLineEdit *m_bearerEnv = nullptr;
    QPushButton *m_add = nullptr;
    QComboBox *m_server = nullptr;
    QPushButton *m_connect = nullptr;
    QPushButton *m_cancel = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_tools = nullptr;
    QPointer<CredentialStore> m_credentials;
    McpToolkit *m_toolkit = nullptr;
};

} // namespace Callscope
