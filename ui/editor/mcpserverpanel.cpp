#include "ui/editor/mcpserverpanel.h"

#include "core/secrets/credentialstore.h"
#include "core/tools/mcptoolkit.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {
enum AuthChoice { AuthNone, AuthOAuth, AuthBearer };
enum Column {
    NameColumn,
    ReadOnlyColumn,
    DestructiveColumn,
    IdempotentColumn,
    OpenWorldColumn,
    ApprovalColumn,
    DescriptionColumn,
    ColumnCount
};
} // namespace

McpServerPanel::McpServerPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *addBox = new QGroupBox(tr("Add a remote server"));
    auto *addForm = new QFormLayout(addBox);
    m_name = new QLineEdit;
    m_name->setObjectName(u"mcpRemoteName"_s);
    m_name->setPlaceholderText(tr("docs"));
    m_url = new QLineEdit;
    m_url->setObjectName(u"mcpRemoteUrl"_s);
    m_url->setPlaceholderText(u"https://mcp.example.com/mcp"_s);
    m_auth = new QComboBox;
    m_auth->setObjectName(u"mcpRemoteAuth"_s);
    m_auth->addItem(tr("None"), AuthNone);
    m_auth->addItem(tr("OAuth sign-in"), AuthOAuth);
    m_auth->addItem(tr("Bearer token from an environment variable"), AuthBearer);
    m_bearerEnv = new QLineEdit;
    m_bearerEnv->setObjectName(u"mcpRemoteBearerEnv"_s);
    m_bearerEnv->setPlaceholderText(u"DOCS_TOKEN"_s);
    m_add = new QPushButton(tr("&Add server"));
    m_add->setObjectName(u"mcpRemoteAdd"_s);
    addForm->addRow(tr("&Name:"), m_name);
    addForm->addRow(tr("&URL:"), m_url);
    addForm->addRow(tr("Sign-&in:"), m_auth);
    addForm->addRow(tr("Token &variable:"), m_bearerEnv);
    addForm->addRow(QString(), m_add);
    layout->addWidget(addBox);

    auto *toolsBox = new QGroupBox(tr("Tools of a server"));
    auto *toolsLayout = new QVBoxLayout(toolsBox);
    auto *row = new QHBoxLayout;
    m_server = new QComboBox;
    m_server->setObjectName(u"mcpServerPick"_s);
    m_connect = new QPushButton(tr("&Connect and list tools"));
    m_connect->setObjectName(u"mcpConnect"_s);
    m_connect->setToolTip(tr("Starts or connects to the server and lists its tools; a server that "
                             "needs a sign-in opens the browser."));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(u"mcpCancel"_s);
    m_cancel->setEnabled(false);
    row->addWidget(m_server, 1);
    row->addWidget(m_connect);
    row->addWidget(m_cancel);
    toolsLayout->addLayout(row);
    m_status = new QLabel;
    m_status->setObjectName(u"mcpStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    toolsLayout->addWidget(m_status);
    m_tools = new QTableWidget(0, ColumnCount);
    m_tools->setObjectName(u"mcpTools"_s);
    m_tools->setHorizontalHeaderLabels({ tr("Tool"), tr("Read-only"), tr("Destructive"),
                                         tr("Idempotent"), tr("Open world"), tr("Needs approval"),
                                         tr("Description") });
    m_tools->horizontalHeader()->setStretchLastSection(true);
    m_tools->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tools->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tools->verticalHeader()->hide();
    toolsLayout->addWidget(m_tools, 1);
    layout->addWidget(toolsBox, 1);

    connect(m_auth, &QComboBox::currentIndexChanged, this, &McpServerPanel::updateAuthFields);
    connect(m_add, &QPushButton::clicked, this, &McpServerPanel::addRemote);
    connect(m_connect, &QPushButton::clicked, this, &McpServerPanel::connectToServer);
    connect(m_cancel, &QPushButton::clicked, this, &McpServerPanel::cancel);
    updateAuthFields();
    setSpec(Spec());
}

McpServerPanel::~McpServerPanel()
{
    cancel();
}

void McpServerPanel::setSpec(const Spec &spec)
{
    m_spec = spec;
    const QString current = m_server->currentText();
    m_server->clear();
    m_server->addItems(spec.mcpServers.keys());
    const int index = m_server->findText(current);
    if (index >= 0)
        m_server->setCurrentIndex(index);
    m_connect->setEnabled(!m_toolkit && m_server->count() > 0);
}

void McpServerPanel::setCredentialStore(CredentialStore *store)
{
    m_credentials = store;
}

void McpServerPanel::updateAuthFields()
{
    m_bearerEnv->setEnabled(m_auth->currentData().toInt() == AuthBearer);
}

void McpServerPanel::addRemote()
{
    static const QRegularExpression envName(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    const QString name = m_name->text().trimmed();
    const QUrl url(m_url->text().trimmed(), QUrl::StrictMode);
    if (name.isEmpty()) {
        m_status->setText(tr("Give the server a name."));
        return;
    }
    if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https")
        || url.host().isEmpty()) {
        m_status->setText(tr("The URL must start with http:// or https://."));
        return;
    }
    QJsonObject entry { { u"url"_s, url.toString() } };
    switch (m_auth->currentData().toInt()) {
    case AuthOAuth:
        entry.insert(u"auth"_s, u"oauth"_s);
        break;
    case AuthBearer:
        if (!envName.match(m_bearerEnv->text().trimmed()).hasMatch()) {
            m_status->setText(
                tr("Name the environment variable that holds the token (letters, digits and _), "
                   "not the token itself."));
            return;
        }
        entry.insert(u"auth"_s, QJsonObject { { u"bearer_env"_s, m_bearerEnv->text().trimmed() } });
        break;
    default:
        break;
    }
    entry.insert(u"expose"_s, u"all"_s);
    m_status->setText(tr("Added \"%1\"; connect to it to see its tools.").arg(name));
    Q_EMIT addServerRequested(name, entry);
}

void McpServerPanel::connectToServer()
{
    if (m_toolkit)
        return;
    const QString name = m_server->currentText();
    if (!m_spec.mcpServers.contains(name))
        return;
    McpServerSpec server = m_spec.mcpServers.value(name);
    server.exposeAll = true;
    if (!m_credentials)
        m_credentials = new CredentialStore(this);
    m_toolkit = new McpToolkit(name, server, {}, this);
    m_toolkit->setCredentialStore(m_credentials);
    if (!m_spec.sourcePath.isEmpty())
        m_toolkit->setWorkingDirectory(QFileInfo(m_spec.sourcePath).absolutePath());
    connect(m_toolkit, &McpToolkit::authorizationStarted, this, [this] {
        m_status->setText(tr("Signing in: finish in the browser window that opened."));
    });
    connect(m_toolkit, &Toolkit::ready, this, [this, name](const QString &error) {
        if (!error.isEmpty()) {
            finish(error);
            return;
        }
        showTools();
        finish(tr("%n tool(s) on \"%1\".", nullptr, int(m_tools->rowCount())).arg(name));
    });
    m_tools->setRowCount(0);
    m_connect->setEnabled(false);
    m_cancel->setEnabled(true);
    m_status->setText(tr("Connecting to \"%1\"…").arg(name));
    m_toolkit->prepare();
}

void McpServerPanel::showTools()
{
    const QList<McpToolInfo> tools = m_toolkit->tools();
    m_tools->setRowCount(int(tools.size()));
    const auto hint = [](const McpToolInfo &tool, const char *key) {
        const QJsonValue value = tool.annotations.value(QLatin1StringView(key));
        return value.isBool() ? (value.toBool() ? tr("yes") : tr("no")) : QString();
    };
    for (int row = 0; row < tools.size(); ++row) {
        const McpToolInfo &tool = tools.at(row);
        const auto set = [&](int column, const QString &text) {
            auto *item = new QTableWidgetItem(text);
            m_tools->setItem(row, column, item);
            return item;
        };
        set(NameColumn, tool.name)->setToolTip(tool.title);
        set(ReadOnlyColumn, hint(tool, "readOnlyHint"));
        set(DestructiveColumn, hint(tool, "destructiveHint"));
        set(IdempotentColumn, hint(tool, "idempotentHint"));
        set(OpenWorldColumn, hint(tool, "openWorldHint"));
        set(ApprovalColumn, m_toolkit->needsApproval(tool.name) ? tr("yes") : tr("no"));
        set(DescriptionColumn, tool.description)->setToolTip(tool.description);
    }
    m_tools->resizeColumnsToContents();
}

void McpServerPanel::finish(const QString &status)
{
    m_status->setText(status);
    if (m_toolkit) {
        McpToolkit *toolkit = std::exchange(m_toolkit, nullptr);
        toolkit->disconnect(this);
        connect(toolkit, &McpToolkit::closed, toolkit, &QObject::deleteLater);
        toolkit->shutdown();
    }
    m_cancel->setEnabled(false);
    m_connect->setEnabled(m_server->count() > 0);
}

void McpServerPanel::cancel()
{
    if (m_toolkit)
        finish(tr("Cancelled."));
}

} // namespace Callscope
