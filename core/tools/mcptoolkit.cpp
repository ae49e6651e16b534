#include "core/tools/mcptoolkit.h"

#include "core/schema/jsonschema.h"
#include "core/secrets/credentialstore.h"
#include "core/tools/commandtoolkit.h"
#include "core/tools/mcphttp.h"
#include "core/tools/mcpoauth.h"
#include "core/tools/toolprocess.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMimeDatabase>
#include <QProcess>
#include <QRegularExpression>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcMcp, "callscope.tools.mcp")

namespace {
constexpr qsizetype StderrTailBytes = 4096;
constexpr int MaxListPages = 100;
constexpr int JsonRpcMethodNotFound = -32601;

const QStringList &knownProtocolVersions()
{
    static const QStringList versions { u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s,
                                        u"2024-11-05"_s };
    return versions;
}

QString compact(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    const QByteArray text = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(text.mid(1, text.size() - 2));
}

QString shortened(const QString &text, qsizetype max = 200)
{
    return text.size() <= max ? text : text.left(max) + u"…"_s;
}

QString extensionFor(const QString &mediaType)
{
    const QMimeType type = QMimeDatabase().mimeTypeForName(mediaType);
    const QString suffix = type.isValid() ? type.preferredSuffix() : QString();
    return suffix.isEmpty() ? u"bin"_s : suffix;
}

McpReply failureReply(const QString &message)
{
    McpReply reply;
    reply.ok = false;
    reply.errorMessage = message;
    return reply;
}
} // namespace

// ---------------------------------------------------------------------------------------------
// McpCallJob

McpCallJob::McpCallJob(McpToolkit *toolkit, const ToolCall &call, int timeoutMs, QObject *parent)
    : BasicToolJob(call, parent)
    , m_toolkit(toolkit)
    , m_timeoutMs(timeoutMs)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        finishWithError(
            tr("Tool \"%1\" timed out after %2 ms.").arg(this->call().name).arg(m_timeoutMs));
    });
}

McpCallJob::~McpCallJob()
{
    release();
}

void McpCallJob::begin()
{
    if (!call().argumentsError.isEmpty()) {
        finishWithError(tr("Tool \"%1\" was not run: its arguments are not a JSON object (%2).")
                            .arg(call().name, call().argumentsError));
        return;
    }
    if (!m_toolkit) {
        finishWithError(tr("Tool \"%1\" is no longer available.").arg(call().name));
        return;
    }
    if (m_toolkit->state() != McpToolkit::State::Ready) {
        const QString reason = m_toolkit->failureReason().isEmpty() ? tr("it is not running")
                                                                    : m_toolkit->failureReason();
        finishWithError(tr("Tool \"%1\" could not run: MCP server \"%2\" is not available: %3")
                            .arg(call().name, m_toolkit->serverName(), reason));
        return;
    }
    const QJsonObject params { { u"name"_s, call().name }, { u"arguments"_s, call().arguments } };
    m_requestId = m_toolkit->request(u"tools/call"_s, params,
                                     [self = QPointer<McpCallJob>(this)](const McpReply &reply) {
                                         if (self)
                                             self->onReply(reply);
                                     });
    if (m_requestId < 0) {
        finishWithError(tr("Tool \"%1\" could not run: MCP server \"%2\" is not running.")
                            .arg(call().name, m_toolkit->serverName()));
        return;
    }
    m_timer.start(m_timeoutMs);
}

void McpCallJob::release()
{
    m_timer.stop();
    if (m_requestId >= 0 && m_toolkit) {
        // Only still pending when the job ends early (timeout, cancel): tell the server.
        m_toolkit->cancelRequest(m_requestId, u"cancelled by the client"_s);
    }
    m_requestId = -1;
}

void McpCallJob::onReply(const McpReply &reply)
{
    m_requestId = -1; // answered: nothing to cancel
    if (!reply.ok) {
        QString text = reply.errorCode != 0
            ? tr("MCP error %1: %2").arg(reply.errorCode).arg(reply.errorMessage)
            : reply.errorMessage;
        finishWithError(text);
        return;
    }
    const QString violation =
        m_toolkit ? m_toolkit->checkOutput(call().name, reply.result.toObject()) : QString();
    if (!violation.isEmpty()) {
        finishWithError(violation);
        return;
    }
    finishWith(McpToolkit::resultFromCall(reply.result.toObject()));
}

// ---------------------------------------------------------------------------------------------
// McpToolkit

McpToolkit::McpToolkit(const QString &serverName, const McpServerSpec &server,
                       const QList<ToolSpec> &entries, QObject *parent)
    : Toolkit(parent)
    , m_serverName(serverName)
    , m_server(server)
{
    setObjectName(u"mcp:"_s + serverName);
    for (const ToolSpec &entry : entries) {
        if (entry.runner == ToolRunnerKind::Mcp && entry.mcpServer == serverName)
            m_entries.append(entry);
    }
    m_startupTimer.setSingleShot(true);
    m_startupTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_startupTimer, &QTimer::timeout, this, [this] {
        QString error = tr("MCP server \"%1\" did not finish starting within %2 ms.")
                            .arg(m_serverName)
                            .arg(m_startupTimeoutMs);
        if (m_garbageLines > 0) {
            error += u' '
                + tr("It printed %n line(s) that were not JSON-RPC; the first: %1", nullptr,
                     m_garbageLines)
                      .arg(m_firstGarbage);
        }
        fail(error);
    });
}

McpToolkit::~McpToolkit()
{
    shutdown();
}

QStringList McpToolkit::listedToolNames() const
{
    QStringList names;
    for (const ListedTool &tool : m_tools)
        names.append(tool.name);
    return names;
}

void McpToolkit::emitReady(const QString &error)
{
    if (m_readyEmitted)
        return;
    m_readyEmitted = true;
    Q_EMIT ready(error);
}

void McpToolkit::prepare()
{
    switch (m_state) {
    case State::Idle:
        startServer();
        return;
    case State::Starting:
        return; // `ready` follows when start-up ends
    case State::Ready:
    case State::Failed:
    case State::Stopped: {
        // Asked again: answer again, on the next turn of the event loop.
        const QString error = m_state == State::Ready ? QString() : m_failure;
        QMetaObject::invokeMethod(
            this, [this, error] { Q_EMIT ready(error); }, Qt::QueuedConnection);
        return;
    }
    }
}

void McpToolkit::startServer()
{
    m_state = State::Starting;
    m_clock.start();
    if (m_server.isRemote()) {
        startRemote();
        return;
    }
    const auto failSoon = [this](const QString &error) {
        // Failures found before anything started are reported asynchronously, like the others.
        QMetaObject::invokeMethod(
            this, [this, error] { fail(error); }, Qt::QueuedConnection);
    };
    if (m_server.command.isEmpty() || m_server.command.constFirst().isEmpty()) {
        failSoon(tr("MCP server \"%1\" has no command.").arg(m_serverName));
        return;
    }
    if (!m_workingDirectory.isEmpty() && !QFileInfo(m_workingDirectory).isDir()) {
        failSoon(
            tr("MCP server \"%1\" could not start: its working directory \"%2\" does not exist.")
                .arg(m_serverName, m_workingDirectory));
        return;
    }
    const QString program =
        ToolProcess::resolveProgram(m_server.command.constFirst(), m_workingDirectory);
    if (program.isEmpty()) {
        failSoon(
            tr("MCP server \"%1\" could not start: program \"%2\" not found or not executable.")
                .arg(m_serverName, m_server.command.constFirst()));
        return;
    }

    m_process = new QProcess(this);
    m_process->setProgram(program);
    m_process->setArguments(m_server.command.mid(1));
    if (!m_workingDirectory.isEmpty())
        m_process->setWorkingDirectory(m_workingDirectory);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (auto it = m_server.env.cbegin(); it != m_server.env.cend(); ++it)
        environment.insert(it.key(), it.value());
    m_process->setProcessEnvironment(environment);
    ToolProcess::useOwnProcessGroup(m_process);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &McpToolkit::onStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &McpToolkit::onStderr);
    connect(m_process, &QProcess::started, this, [this] { m_pid = m_process->processId(); });
    connect(m_process, &QProcess::finished, this,
            [this](int code, QProcess::ExitStatus status) { onExited(code, int(status)); });
    connect(m_process, &QProcess::errorOccurred, this,
            [this, program](QProcess::ProcessError error) {
                if (error == QProcess::FailedToStart && m_process) {
                    const QString reason = m_process->errorString();
                    QMetaObject::invokeMethod(
                        this,
                        [this, program, reason] {
                            fail(tr("MCP server \"%1\" could not start program \"%2\": %3")
                                     .arg(m_serverName, program, reason));
                        },
                        Qt::QueuedConnection);
                }
            });

    qCInfo(lcMcp) << "starting MCP server" << m_serverName << program << m_server.command.mid(1);
    m_startupTimer.start(m_startupTimeoutMs);
    m_process->start(QIODevice::ReadWrite);
    sendInitialize();
}

void McpToolkit::sendInitialize()
{
    // Remote servers get the newest version we speak; a server answers with the one it takes.
    const QString version = m_http ? u"2025-11-25"_s : QString(ProtocolVersion);
    const QJsonObject params {
        { u"protocolVersion"_s, version },
        { u"capabilities"_s,
          QJsonObject { { u"elicitation"_s, QJsonObject() }, { u"roots"_s, QJsonObject() } } },
        { u"clientInfo"_s,
          QJsonObject { { u"name"_s, u"callscope"_s },
                        { u"version"_s, QStringLiteral(CALLSCOPE_VERSION) } } },
    };
    if (request(u"initialize"_s, params, [this](const McpReply &reply) { onInitialized(reply); })
        < 0) {
        QMetaObject::invokeMethod(
            this,
            [this] {
                fail(
                    tr("MCP server \"%1\" could not be sent its first request.").arg(m_serverName));
            },
            Qt::QueuedConnection);
    }
}

void McpToolkit::startRemote()
{
    const QUrl url(m_server.url);
    m_http = new McpHttpTransport(m_serverName, url, this);
    m_http->setHeaders(m_server.headers);
    if (m_server.auth == McpAuthKind::Bearer) {
        const QByteArray token = qgetenv(m_server.bearerEnv.toLocal8Bit().constData());
        if (token.isEmpty()) {
            QMetaObject::invokeMethod(
                this,
                [this] {
                    fail(tr("MCP server \"%1\" needs a bearer token from the environment variable "
                            "%2, "
                            "which is not set.")
                             .arg(m_serverName, m_server.bearerEnv));
                },
                Qt::QueuedConnection);
            return;
        }
        m_http->setBearerToken(token);
    }
    connect(m_http, &McpHttpTransport::messageReceived, this, &McpToolkit::handleMessage);
    connect(m_http, &McpHttpTransport::deliveryFailed, this,
            [this](const QJsonValue &id, const QString &error) {
                if (id.isUndefined()) {
                    fail(error);
                    return;
                }
                if (const ReplyHandler handler = m_pending.take(id.toInteger()))
                    handler(failureReply(error));
            });
    qCInfo(lcMcp) << "connecting to remote MCP server" << m_serverName
                  << url.toString(QUrl::RemoveQuery);
    m_startupTimer.start(m_startupTimeoutMs);
    if (m_server.auth == McpAuthKind::OAuth) {
        if (!m_credentials)
            m_credentials = new CredentialStore(this);
        m_oauth = new McpOAuth(m_http->networkAccessManager(), url, m_server, m_credentials, this);
        m_oauth->setBrowserCommand(m_browserCommand);
        connect(m_oauth, &McpOAuth::authorizationStarted, this, [this](const QUrl &authUrl) {
            // A sign-in waits for a person: the start-up clock stops meanwhile.
            m_startupTimer.stop();
            Q_EMIT authorizationStarted(authUrl);
        });
        m_http->setOAuth(m_oauth);
        m_oauth->loadStored([self = QPointer<McpToolkit>(this)] {
            if (self && self->m_state == State::Starting)
                self->sendInitialize();
        });
        return;
    }
    sendInitialize();
}

void McpToolkit::onInitialized(const McpReply &reply)
{
    if (m_state != State::Starting)
        return;
    if (!reply.ok) {
        fail(tr("MCP server \"%1\" refused to initialize: %2")
                 .arg(m_serverName,
                      reply.errorCode ? u"%1 (%2)"_s.arg(reply.errorMessage).arg(reply.errorCode)
                                      : reply.errorMessage));
        return;
    }
    const QJsonObject result = reply.result.toObject();
    m_protocolVersion = result.value(u"protocolVersion"_s).toString();
    m_serverInfo = result.value(u"serverInfo"_s).toObject();
    if (m_protocolVersion.isEmpty()) {
        fail(tr("MCP server \"%1\" answered initialize without a protocol version.")
                 .arg(m_serverName));
        return;
    }
    if (!knownProtocolVersions().contains(m_protocolVersion)) {
        // Tools work the same way in every version so far: go on, but say so.
        qCWarning(lcMcp) << "MCP server" << m_serverName << "speaks protocol version"
                         << m_protocolVersion << "which we do not know; trying anyway";
    }
    qCInfo(lcMcp) << "MCP server" << m_serverName << "is"
                  << m_serverInfo.value(u"name"_s).toString()
                  << m_serverInfo.value(u"version"_s).toString() << "protocol" << m_protocolVersion;
    if (m_http)
        m_http->setProtocolVersion(m_protocolVersion);
    send(QJsonObject { { u"jsonrpc"_s, u"2.0"_s },
                       { u"method"_s, u"notifications/initialized"_s } });
    if (m_http)
        m_http->openServerStream();
    listTools(QString(), false);
}

void McpToolkit::listTools(const QString &cursor, bool refresh)
{
    if (cursor.isEmpty()) {
        m_listing.clear();
        m_listPages = 0;
        m_listingActive = true;
    }
    QJsonObject params;
    if (!cursor.isEmpty())
        params.insert(u"cursor"_s, cursor);
    const qint64 id =
        request(u"tools/list"_s, params, [this, refresh, cursor](const McpReply &reply) {
            if (!reply.ok) {
                m_listingActive = false;
                const QString error = tr("MCP server \"%1\" could not list its tools: %2")
                                          .arg(m_serverName, reply.errorMessage);
                if (refresh)
                    qCWarning(lcMcp) << error;
                else
                    fail(error);
                return;
            }
            const QJsonObject result = reply.result.toObject();
            const QJsonArray tools = result.value(u"tools"_s).toArray();
            for (const QJsonValue &value : tools) {
                const QJsonObject object = value.toObject();
                ListedTool tool;
                tool.name = object.value(u"name"_s).toString();
                if (tool.name.isEmpty())
                    continue;
                tool.title = object.value(u"title"_s).toString();
                if (tool.title.isEmpty())
                    tool.title =
                        object.value(u"annotations"_s).toObject().value(u"title"_s).toString();
                tool.description = object.value(u"description"_s).toString();
                if (tool.description.isEmpty())
                    tool.description = tool.title;
                tool.annotations = object.value(u"annotations"_s).toObject();
                tool.outputSchema = object.value(u"outputSchema"_s).toObject();
                tool.inputSchema = object.value(u"inputSchema"_s).toObject();
                tool.inputSchema.remove(u"$schema"_s);
                if (tool.inputSchema.isEmpty())
                    tool.inputSchema.insert(u"type"_s, u"object"_s);
                m_listing.append(tool);
            }
            ++m_listPages;
            const QString next = result.value(u"nextCursor"_s).toString();
            if (!next.isEmpty() && next != cursor && m_listPages < MaxListPages) {
                listTools(next, refresh);
                return;
            }
            if (!next.isEmpty())
                qCWarning(lcMcp) << "MCP server" << m_serverName
                                 << "keeps paginating; stopped after" << m_listPages << "pages";
            finishListing(refresh);
        });
    if (id < 0)
        m_listingActive = false;
}

void McpToolkit::finishListing(bool refresh)
{
    m_listingActive = false;
    if (!refresh) {
        QStringList missing;
        for (const ToolSpec &entry : std::as_const(m_entries)) {
            const bool listed =
                std::any_of(m_listing.cbegin(), m_listing.cend(),
                            [&](const ListedTool &t) { return t.name == entry.name; });
            if (!listed)
                missing.append(entry.name);
        }
        m_tools = m_listing;
        if (!missing.isEmpty()) {
            fail(tr("MCP server \"%1\" does not offer the tool(s) %2; it lists: %3")
                     .arg(m_serverName, missing.join(u", "_s), listedToolNames().join(u", "_s)));
            return;
        }
        m_startupTimer.stop();
        m_state = State::Ready;
        m_startupMs = m_clock.elapsed();
        qCInfo(lcMcp) << "MCP server" << m_serverName << "ready in" << m_startupMs << "ms with"
                      << m_tools.size() << "tools";
        emitReady(QString());
        return;
    }
    // A refresh keeps what the spec's entries need even if the server dropped them.
    QList<ListedTool> merged = m_listing;
    for (const ListedTool &old : std::as_const(m_tools)) {
        const bool listed = std::any_of(merged.cbegin(), merged.cend(),
                                        [&](const ListedTool &t) { return t.name == old.name; });
        const bool needed = std::any_of(m_entries.cbegin(), m_entries.cend(),
                                        [&](const ToolSpec &e) { return e.name == old.name; });
        if (!listed && needed)
            merged.append(old);
    }
    m_tools = merged;
    qCInfo(lcMcp) << "MCP server" << m_serverName << "tool list refreshed:" << m_tools.size()
                  << "tools";
}

QList<ToolDeclaration> McpToolkit::declarations() const
{
    QList<ToolDeclaration> result;
    const auto listed = [this](const QString &name) -> const ListedTool * {
        for (const ListedTool &tool : m_tools) {
            if (tool.name == name)
                return &tool;
        }
        return nullptr;
    };
    for (const ToolSpec &entry : m_entries) {
        ToolDeclaration declaration = declarationOf(entry);
        if (const ListedTool *tool = listed(entry.name)) {
            if (entry.description.isEmpty())
                declaration.description = tool->description;
            if (entry.inputSchema.isEmpty())
                declaration.inputSchema = tool->inputSchema;
        }
        result.append(declaration);
    }
    if (m_server.exposeAll) {
        for (const ListedTool &tool : m_tools) {
            const bool hasEntry =
                std::any_of(m_entries.cbegin(), m_entries.cend(),
                            [&](const ToolSpec &e) { return e.name == tool.name; });
            if (hasEntry)
                continue;
            ToolDeclaration declaration;
            declaration.name = tool.name;
            declaration.description = tool.description;
            declaration.inputSchema = tool.inputSchema;
            result.append(declaration);
        }
    }
    return result;
}

bool McpToolkit::offers(const QString &toolName) const
{
    if (std::any_of(m_entries.cbegin(), m_entries.cend(),
                    [&](const ToolSpec &e) { return e.name == toolName; }))
        return true;
    return m_server.exposeAll
        && std::any_of(m_tools.cbegin(), m_tools.cend(),
                       [&](const ListedTool &t) { return t.name == toolName; });
}

int McpToolkit::callTimeoutMs(const QString &toolName) const
{
    for (const ToolSpec &entry : m_entries) {
        if (entry.name == toolName)
            return entry.timeoutMs > 0 ? entry.timeoutMs : m_defaultCallTimeoutMs;
    }
    return m_defaultCallTimeoutMs;
}

ToolJob *McpToolkit::createJob(const ToolCall &call, QObject *parent)
{
    if (!offers(call.name))
        return nullptr;
    return new McpCallJob(this, call, callTimeoutMs(call.name), parent);
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC

bool McpToolkit::send(const QJsonObject &message)
{
    if (m_http) {
        m_http->send(message);
        return true;
    }
    if (!m_process)
        return false;
    ToolProcess::ignoreSigpipe(); // the server may be gone by the time the bytes are written
    QByteArray line = QJsonDocument(message).toJson(QJsonDocument::Compact);
    line += '\n';
    return m_process->write(line) == line.size();
}

qint64 McpToolkit::request(const QString &method, const QJsonObject &params, ReplyHandler handler)
{
    if ((!m_process && !m_http) || (m_state != State::Starting && m_state != State::Ready))
        return -1;
    const qint64 id = m_nextId++;
    QJsonObject message { { u"jsonrpc"_s, u"2.0"_s }, { u"id"_s, id }, { u"method"_s, method } };
    if (!params.isEmpty() || method != u"tools/list"_s)
        message.insert(u"params"_s, params);
    m_pending.insert(id, std::move(handler));
    if (!send(message)) {
        m_pending.remove(id);
        return -1;
    }
    return id;
}

void McpToolkit::cancelRequest(qint64 id, const QString &reason)
{
    if (!m_pending.remove(id))
        return;
    QJsonObject params { { u"requestId"_s, id } };
    if (!reason.isEmpty())
        params.insert(u"reason"_s, reason);
    send(QJsonObject { { u"jsonrpc"_s, u"2.0"_s },
                       { u"method"_s, u"notifications/cancelled"_s },
                       { u"params"_s, params } });
}

void McpToolkit::onStdout()
{
    if (!m_process)
        return;
    const QPointer<McpToolkit> self(this);
    const QByteArray chunk = m_process->readAllStandardOutput();
    qsizetype pos = 0;
    while (pos < chunk.size()) {
        const qsizetype newline = chunk.indexOf('\n', pos);
        const qsizetype end = newline < 0 ? chunk.size() : newline;
        const QByteArrayView piece(chunk.constData() + pos, end - pos);
        if (m_discarding) {
            m_discardTail = QByteArray(m_discardTail + piece).right(256);
            m_discardedBytes += piece.size();
        } else {
            m_line.append(piece);
            if (m_line.size() > m_lineLimit) {
                m_discarding = true;
                m_discardHead = m_line.left(256);
                m_discardTail = m_line.right(256);
                m_discardedBytes = m_line.size();
                m_line = QByteArray();
            }
        }
        if (newline < 0)
            break;
        pos = newline + 1;
        if (m_discarding) {
            m_discarding = false;
            handleOversizedLine();
        } else {
            const QByteArray line = m_line;
            m_line.clear();
            handleLine(line);
        }
        // A handler may have ended the server (or, through a job, this toolkit).
        if (!self || !m_process)
            return;
    }
}

void McpToolkit::onStderr()
{
    if (!m_process)
        return;
    const QByteArray data = m_process->readAllStandardError();
    m_stderrTail = QByteArray(m_stderrTail + data).right(StderrTailBytes);
    // Logged line by line; a line without an end is logged once it is long enough.
    m_stderrLine += data;
    qsizetype newline;
    while ((newline = m_stderrLine.indexOf('\n')) >= 0 || m_stderrLine.size() > 4096) {
        const qsizetype end = newline >= 0 ? newline : 4096;
        qCInfo(lcMcp).noquote() << m_serverName + u" stderr: "_s
                + QString::fromUtf8(m_stderrLine.left(end)).trimmed();
        m_stderrLine.remove(0, newline >= 0 ? newline + 1 : end);
    }
}

QString McpToolkit::stderrTail() const
{
    const QString tail = QString::fromUtf8(m_stderrTail).trimmed();
    if (tail.isEmpty())
        return {};
    return u"\n"_s + tr("Its stderr ended with:") + u'\n' + tail;
}

void McpToolkit::handleLine(const QByteArray &rawLine)
{
    const QByteArray line = rawLine.trimmed();
    if (line.isEmpty())
        return;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        ++m_garbageLines;
        const QString text = shortened(QString::fromUtf8(line));
        if (m_firstGarbage.isEmpty())
            m_firstGarbage = text;
        qCWarning(lcMcp).noquote()
            << u"MCP server %1 printed a line that is not JSON-RPC (ignored): %2"_s.arg(
                   m_serverName, text);
        return;
    }
    handleMessage(document.object());
}

void McpToolkit::handleMessage(const QJsonObject &message)
{
    const QJsonValue id = message.value(u"id"_s);
    if (message.contains(u"method"_s)) {
        const QString method = message.value(u"method"_s).toString();
        if (id.isUndefined() || id.isNull()) {
            if (method == u"notifications/tools/list_changed"_s && m_state == State::Ready
                && !m_listingActive) {
                listTools(QString(), true);
            } else if (method == u"notifications/message"_s
                       || method == u"notifications/progress"_s) {
                qCInfo(lcMcp).noquote() << m_serverName + u" "_s + method + u": "_s
                        + shortened(compact(message.value(u"params"_s)), 1000);
                Q_EMIT serverNotification(method, message.value(u"params"_s).toObject());
            } else {
                qCDebug(lcMcp) << "MCP server" << m_serverName << "notification" << method;
            }
            return;
        }
        answerServerRequest(id, method, message.value(u"params"_s).toObject());
        return;
    }
    if (!id.isDouble() || (!message.contains(u"result"_s) && !message.contains(u"error"_s))) {
        ++m_garbageLines;
        const QString text = shortened(compact(message));
        if (m_firstGarbage.isEmpty())
            m_firstGarbage = text;
        qCWarning(lcMcp).noquote()
            << u"MCP server %1 sent a message that is not JSON-RPC (ignored): %2"_s.arg(
                   m_serverName, text);
        return;
    }
    const qint64 requestId = id.toInteger();
    const ReplyHandler handler = m_pending.take(requestId);
    if (!handler) {
        qCDebug(lcMcp) << "MCP server" << m_serverName << "answered request" << requestId
                       << "that no one waits for";
        return;
    }
    McpReply reply;
    if (message.contains(u"error"_s)) {
        const QJsonObject error = message.value(u"error"_s).toObject();
        reply.ok = false;
        reply.errorCode = error.value(u"code"_s).toInt();
        reply.errorMessage = error.value(u"message"_s).toString();
        if (error.contains(u"data"_s))
            reply.errorMessage += u" "_s + shortened(compact(error.value(u"data"_s)), 2000);
    } else {
        reply.ok = true;
        reply.result = message.value(u"result"_s);
    }
    handler(reply);
}

void McpToolkit::handleOversizedLine()
{
    qCWarning(lcMcp) << "MCP server" << m_serverName << "sent a line of" << m_discardedBytes
                     << "bytes, over the limit of" << m_lineLimit << "; dropped";
    // Which request did it answer? Ids are ours (integers); look near both ends of the line.
    static const QRegularExpression idPattern(u"\"id\"\\s*:\\s*(\\d+)"_s);
    qint64 id = -1;
    QRegularExpressionMatchIterator tail =
        idPattern.globalMatch(QString::fromLatin1(m_discardTail));
    while (tail.hasNext())
        id = tail.next().captured(1).toLongLong();
    if (id < 0 || !m_pending.contains(id)) {
        const QRegularExpressionMatch head = idPattern.match(QString::fromLatin1(m_discardHead));
        if (head.hasMatch())
            id = head.captured(1).toLongLong();
    }
    if ((id < 0 || !m_pending.contains(id)) && m_pending.size() == 1)
        id = m_pending.constBegin().key();
    m_discardHead.clear();
    m_discardTail.clear();
    const ReplyHandler handler = m_pending.take(id);
    if (handler) {
        handler(
            failureReply(tr("MCP server \"%1\" sent a reply larger than %2 bytes; it was dropped.")
                             .arg(m_serverName)
                             .arg(m_lineLimit)));
    }
}

void McpToolkit::onExited(int exitCode, int exitStatus)
{
    if (!m_process)
        return;
    onStdout(); // the last lines it wrote
    onStderr();
    if (!m_process || m_state == State::Failed || m_state == State::Stopped)
        return;
    const QString how = exitStatus == QProcess::CrashExit
        ? tr("MCP server \"%1\" crashed or was killed.").arg(m_serverName)
        : tr("MCP server \"%1\" exited with code %2.").arg(m_serverName).arg(exitCode);
    fail(how + stderrTail());
}

void McpToolkit::endPending(const QString &error)
{
    const QHash<qint64, ReplyHandler> pending = std::exchange(m_pending, {});
    for (auto it = pending.cbegin(); it != pending.cend(); ++it)
        it.value()(failureReply(error));
}

void McpToolkit::fail(const QString &error)
{
    if (m_state == State::Failed || m_state == State::Stopped)
        return;
    const bool wasReady = m_state == State::Ready;
    m_state = State::Failed;
    m_failure = error;
    m_startupTimer.stop();
    qCWarning(lcMcp).noquote() << error;
    if (m_process) {
        QProcess *process = m_process;
        m_process = nullptr;
        ToolProcess::retire(process, m_killGraceMs);
    }
    if (m_http) {
        McpHttpTransport *http = std::exchange(m_http, nullptr);
        http->setParent(QCoreApplication::instance());
        connect(http, &McpHttpTransport::closed, http, &QObject::deleteLater);
        http->close();
    }
    const QPointer<McpToolkit> self(this);
    endPending(error);
    if (!self)
        return;
    if (wasReady)
        Q_EMIT failed(error);
    else
        emitReady(error);
}

void McpToolkit::shutdown()
{
    if (m_state == State::Stopped)
        return;
    const bool starting = m_state == State::Starting;
    m_state = State::Stopped;
    if (m_failure.isEmpty())
        m_failure = tr("MCP server \"%1\" was shut down.").arg(m_serverName);
    m_startupTimer.stop();
    if (m_process) {
        QProcess *process = m_process;
        m_process = nullptr;
        ToolProcess::retire(process, m_killGraceMs, qMax(1, m_killGraceMs));
    }
    bool closing = false;
    if (m_http) {
        // The DELETE outlives this toolkit: the transport belongs to the application until done.
        McpHttpTransport *http = std::exchange(m_http, nullptr);
        http->setParent(QCoreApplication::instance());
        connect(http, &McpHttpTransport::closed, http, &QObject::deleteLater);
        connect(http, &McpHttpTransport::closed, this, [this] {
            if (!m_closedEmitted) {
                m_closedEmitted = true;
                Q_EMIT closed();
            }
        });
        http->close();
        closing = true;
    }
    if (!closing) {
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (!m_closedEmitted) {
                    m_closedEmitted = true;
                    Q_EMIT closed();
                }
            },
            Qt::QueuedConnection);
    }
    const QPointer<McpToolkit> self(this);
    endPending(m_failure);
    if (self && starting)
        emitReady(m_failure);
}

QList<McpToolInfo> McpToolkit::tools() const
{
    return m_tools;
}

bool McpToolkit::needsApproval(const QString &toolName) const
{
    switch (m_server.approval) {
    case McpApprovalPolicy::Always:
        return true;
    case McpApprovalPolicy::Never:
        return false;
    case McpApprovalPolicy::Destructive:
        break;
    }
    for (const McpToolInfo &tool : m_tools) {
        if (tool.name == toolName)
            return tool.destructive();
    }
    return false;
}

QJsonObject McpToolkit::defaultElicitationAnswer(const QJsonObject &requestedSchema)
{
    const QJsonObject properties = requestedSchema.value(u"properties"_s).toObject();
    QJsonObject content;
    for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
        const QJsonObject property = it.value().toObject();
        if (property.contains(u"default"_s))
            content.insert(it.key(), property.value(u"default"_s));
    }
    for (const QJsonValue &required : requestedSchema.value(u"required"_s).toArray()) {
        if (!content.contains(required.toString()))
            return QJsonObject { { u"action"_s, u"decline"_s } };
    }
    return QJsonObject { { u"action"_s, u"accept"_s }, { u"content"_s, content } };
}

void McpToolkit::answerServerRequest(const QJsonValue &id, const QString &method,
                                     const QJsonObject &params)
{
    const auto answer = [this, id](const QJsonObject &result) {
        send(QJsonObject { { u"jsonrpc"_s, u"2.0"_s }, { u"id"_s, id }, { u"result"_s, result } });
    };
    if (method == u"ping"_s) {
        answer(QJsonObject());
    } else if (method == u"roots/list"_s) {
        // A local server may work in the spec's folder; a remote one is told of no local path.
        QJsonArray roots;
        if (!m_http && !m_workingDirectory.isEmpty()) {
            const QFileInfo folder(m_workingDirectory);
            roots.append(QJsonObject {
                { u"uri"_s, QUrl::fromLocalFile(folder.absoluteFilePath()).toString() },
                { u"name"_s, folder.fileName() } });
        }
        answer(QJsonObject { { u"roots"_s, roots } });
    } else if (method == u"elicitation/create"_s) {
        const QJsonObject schema = params.value(u"requestedSchema"_s).toObject();
        if (params.value(u"mode"_s).toString(u"form"_s) != u"form"_s) {
            answer(QJsonObject { { u"action"_s, u"decline"_s } });
            return;
        }
        if (m_elicitationHandler) {
            McpElicitation request { m_serverName, params.value(u"message"_s).toString(), schema };
            m_elicitationHandler(
                request, [self = QPointer<McpToolkit>(this), answer](const QJsonObject &result) {
                    if (self)
                        answer(result);
                });
            return;
        }
        const QJsonObject result = defaultElicitationAnswer(schema);
        qCInfo(lcMcp) << "MCP server" << m_serverName << "asked for input; unattended answer:"
                      << result.value(u"action"_s).toString();
        answer(result);
    } else {
        qCInfo(lcMcp) << "MCP server" << m_serverName << "asked for" << method << "(not supported)";
        send(QJsonObject { { u"jsonrpc"_s, u"2.0"_s },
                           { u"id"_s, id },
                           { u"error"_s,
                             QJsonObject { { u"code"_s, JsonRpcMethodNotFound },
                                           { u"message"_s, u"Method not found"_s } } } });
    }
}

QString McpToolkit::checkOutput(const QString &toolName, const QJsonObject &result) const
{
    if (result.value(u"isError"_s).toBool())
        return {};
    for (const McpToolInfo &tool : m_tools) {
        if (tool.name != toolName || tool.outputSchema.isEmpty())
            continue;
        if (!result.contains(u"structuredContent"_s))
            return tr("Tool \"%1\" declares an outputSchema but its result has no "
                      "structuredContent.")
                .arg(toolName);
        const CompiledSchema schema = SchemaCompiler().compile(tool.outputSchema);
        if (!schema.isValid())
            return tr("Tool \"%1\" declares an outputSchema that is not a valid schema: %2")
                .arg(toolName, schema.errorString());
        const SchemaValidationResult validation =
            schema.validate(result.value(u"structuredContent"_s));
        if (validation.valid)
            return {};
        const SchemaError &first = validation.errors.constFirst();
        const QString pointer =
            first.instancePath.isEmpty() ? u"\"\" (the whole value)"_s : first.instancePath;
        return tr("Tool \"%1\" returned structuredContent that breaks its outputSchema at %2: %3")
            .arg(toolName, pointer, first.message);
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Results

ToolResult McpToolkit::resultFromCall(const QJsonObject &result)
{
    ToolResult toolResult;
    toolResult.isError = result.value(u"isError"_s).toBool();
    QStringList parts;
    const QJsonArray content = result.value(u"content"_s).toArray();
    for (const QJsonValue &value : content) {
        const QJsonObject part = value.toObject();
        const QString type = part.value(u"type"_s).toString();
        const QString mediaType = part.value(u"mimeType"_s).toString();
        if (type == u"text"_s) {
            parts.append(part.value(u"text"_s).toString());
        } else if (type == u"image"_s) {
            const auto decoded =
                QByteArray::fromBase64Encoding(part.value(u"data"_s).toString().toLatin1(),
                                               QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded || decoded.decoded.isEmpty()) {
                parts.append(
                    QCoreApplication::translate("Callscope::McpToolkit",
                                                "[an image (%1) that could not be decoded]")
                        .arg(mediaType));
                continue;
            }
            const int number = int(toolResult.images.size()) + 1;
            const QString name = u"image-%1.%2"_s.arg(number).arg(extensionFor(mediaType));
            toolResult.images.append(Attachment::fromData(name, mediaType, decoded.decoded));
            parts.append(
                QCoreApplication::translate("Callscope::McpToolkit", "[image %1: %2, %3 bytes]")
                    .arg(number)
                    .arg(mediaType)
                    .arg(decoded.decoded.size()));
        } else if (type == u"audio"_s) {
            const qsizetype bytes = part.value(u"data"_s).toString().size() * 3 / 4;
            parts.append(QCoreApplication::translate("Callscope::McpToolkit",
                                                     "[audio: %1, about %2 bytes, not passed on]")
                             .arg(mediaType)
                             .arg(bytes));
        } else if (type == u"resource_link"_s) {
            parts.append(
                QCoreApplication::translate("Callscope::McpToolkit", "[resource link: %1 <%2>]")
                    .arg(part.value(u"name"_s).toString(), part.value(u"uri"_s).toString()));
        } else if (type == u"resource"_s) {
            const QJsonObject resource = part.value(u"resource"_s).toObject();
            const QString uri = resource.value(u"uri"_s).toString();
            if (resource.contains(u"text"_s)) {
                parts.append(
                    QCoreApplication::translate("Callscope::McpToolkit", "[resource <%1>]").arg(uri)
                    + u'\n' + resource.value(u"text"_s).toString());
            } else {
                parts.append(
                    QCoreApplication::translate("Callscope::McpToolkit",
                                                "[resource <%1>: %2, binary, not passed on]")
                        .arg(uri, resource.value(u"mimeType"_s).toString()));
            }
        } else {
            parts.append(
                QCoreApplication::translate("Callscope::McpToolkit", "[content of type \"%1\": %2]")
                    .arg(type, shortened(compact(part), 2000)));
        }
    }
    if (parts.isEmpty() && result.contains(u"structuredContent"_s))
        parts.append(compact(result.value(u"structuredContent"_s)));
    toolResult.content = parts.join(u'\n');
    return toolResult;
}

} // namespace Callscope
