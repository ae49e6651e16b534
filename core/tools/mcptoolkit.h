#pragma once

// The tools of one MCP server spoken to over stdio: JSON-RPC 2.0, one
// message per line. prepare() starts the server, sends `initialize` (then
// `notifications/initialized`) and lists its tools with `tools/list`, following `nextCursor`;
// `ready` tells how that went. A call is `tools/call`; its `content` parts become the result
// (text parts joined by newlines, image parts as ToolResult::images plus a short marker line,
// other parts described in a line), `isError` and JSON-RPC errors become error results.
//
// Which tools are offered: every spec entry {"name": x, "mcp": server} (description and
// input schema from the server unless the entry gives them; a top-level "$schema" key of a
// listed schema is dropped), plus, with "expose": "all", every other tool the server lists.
// An entry the server does not list makes prepare() fail.
//
// Faults: a program that is missing or exits during start-up, or no complete start-up within
// the start-up timeout (setStartupTimeoutMs), makes `ready` carry the error. A server that dies
// later ends every pending call with an error result and emits `failed`; later calls get an error
// result at once. A call that takes longer than its tool's timeout_ms (30 s for tools exposed
// without an entry) ends with "timed out after N ms" and the server is sent
// `notifications/cancelled`. Lines on stdout that are not JSON-RPC are ignored with a warning; a
// line longer than the line limit (setLineLimit) is dropped and the call it answered (when it can
// be told) gets an error result. Stderr is logged (category callscope.tools.mcp), never parsed; its
// tail is quoted in errors. Requests from the server: `ping` and `roots/list` (no roots) are
// answered; `elicitation/create` goes to the elicitation handler when one is set (the GUI's form),
// else it is accepted with the schema's defaults when every required field has one and declined
// otherwise; anything else gets "method not found". Progress and log notifications are emitted as
// serverNotification; `notifications/tools/list_changed` re-lists.
//
// Remote servers (a spec entry with "url") speak through McpHttpTransport, signed in with
// static headers, a bearer token from the environment, or McpOAuth. shutdown() ends the session
// with DELETE; `closed` follows once that is done (at once for stdio servers).
//
// Tools carry their annotations (readOnlyHint, destructiveHint, idempotentHint,
// openWorldHint) and outputSchema: a result whose structuredContent fails the schema becomes
// an error result naming the JSON Pointer; needsApproval() follows the server's approval policy.

#include "core/model/spec.h"
#include "core/secrets/credentialstore.h"
#include "core/tools/basictooljob.h"
#include "core/tools/toolkit.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <functional>

class QProcess;

namespace Callscope {

class CredentialStore;
class McpHttpTransport;
class McpOAuth;
class McpToolkit;

// One tool as the server lists it.
struct McpToolInfo
{
    QString name;
    QString title;
    QString description;
    QJsonObject inputSchema;
    QJsonObject outputSchema; // empty when the tool declares none
    QJsonObject annotations; // as listed: readOnlyHint, destructiveHint, ...
    bool readOnly() const { return annotations.value(QStringLiteral("readOnlyHint")).toBool(); }
    // Destructive only when the server says so explicitly and does not call it read-only.
    bool destructive() const
    {
        return !readOnly() && annotations.value(QStringLiteral("destructiveHint")).toBool(false);
    }
};

// An elicitation/create request: the message and the schema of the fields it asks for. The
// handler answers once with {"action": "accept", "content": {...}} or {"action": "decline"} /
// {"action": "cancel"}.
struct McpElicitation
{
    QString serverName;
    QString message;
    QJsonObject requestedSchema;
};
using McpElicitationHandler = std::function<void(
    const McpElicitation &request, std::function<void(const QJsonObject &answer)> reply)>;

// One JSON-RPC answer (or our own failure standing in for it).
struct McpReply
{
    bool ok = false;
    QJsonValue result;
    int errorCode = 0;
    QString errorMessage;
};

class McpCallJob final : public BasicToolJob
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpCallJob)

public:
    McpCallJob(McpToolkit *toolkit, const ToolCall &call, int timeoutMs, QObject *parent = nullptr);
    ~McpCallJob() override;

protected:
    void begin() override;
    void release() override;

private:
    void onReply(const McpReply &reply);

    QPointer<McpToolkit> m_toolkit;
    int m_timeoutMs = 0;
    qint64 m_requestId = -1;
    QTimer m_timer;
};

class McpToolkit final : public Toolkit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpToolkit)

public:
    enum class State { Idle, Starting, Ready, Failed, Stopped };

    static constexpr int DefaultStartupTimeoutMs = 30000;
    static constexpr int DefaultCallTimeoutMs = 30000;
    static constexpr qint64 DefaultLineLimit = 16 * 1024 * 1024;
    static constexpr QLatin1StringView ProtocolVersion { "2025-06-18" };

    // `entries` are the spec's tools; those whose mcpServer is `serverName` are kept.
    McpToolkit(const QString &serverName, const McpServerSpec &server,
               const QList<ToolSpec> &entries, QObject *parent = nullptr);
    ~McpToolkit() override;

    void setWorkingDirectory(const QString &directory) { m_workingDirectory = directory; }
    void setStartupTimeoutMs(int ms) { m_startupTimeoutMs = qMax(1, ms); }
    void setDefaultCallTimeoutMs(int ms) { m_defaultCallTimeoutMs = qMax(1, ms); }
    void setLineLimit(qint64 bytes) { m_lineLimit = qMax<qint64>(1024, bytes); }
    void setKillGraceMs(int ms) { m_killGraceMs = qMax(0, ms); }

    QString serverName() const { return m_serverName; }
    State state() const { return m_state; }
    QString failureReason() const { return m_failure; }
    QString protocolVersion() const { return m_protocolVersion; } // what the server answered
    QJsonObject serverInfo() const { return m_serverInfo; }
    QStringList listedToolNames() const;
    qint64 serverProcessId() const { return m_pid; }
    qint64 startupMs() const { return m_startupMs; } // prepare() to ready, -1 before
    int ignoredLineCount() const { return m_garbageLines; }
    QList<McpToolInfo> tools() const;
    bool isRemote() const { return m_server.isRemote(); }
    McpHttpTransport *httpTransport() const { return m_http; }

    // Remote servers: where OAuth tokens are kept (null: memory only) and how the sign-in URL
    // is opened (empty: the mcp/browser_command setting, else xdg-open).
    void setCredentialStore(CredentialStore *store) { m_credentials = store; }
    void setBrowserCommand(const QString &command) { m_browserCommand = command; }
    void setElicitationHandler(McpElicitationHandler handler)
    {
        m_elicitationHandler = std::move(handler);
    }

    bool needsApproval(const QString &toolName) const override;

    // The unattended answer to an elicitation: accept with the defaults when every required
    // field has one, decline otherwise.
    static QJsonObject defaultElicitationAnswer(const QJsonObject &requestedSchema);
    // An error text when `result` breaks the tool's outputSchema; empty when it is fine.
    QString checkOutput(const QString &toolName, const QJsonObject &result) const;

    void prepare() override;
    QList<ToolDeclaration> declarations() const override;
    bool offers(const QString &toolName) const override;
    ToolJob *createJob(const ToolCall &call, QObject *parent) override;
    // Closes the server's stdin, then SIGTERM and SIGKILL if it lingers; pending calls end
    // with error results.
    void shutdown() override;

    // JSON-RPC plumbing for the jobs. request() returns the id, or -1 when the server is not
    // running (the handler is then never called). The handler runs exactly once otherwise,
    // unless the request is cancelled first.
    using ReplyHandler = std::function<void(const McpReply &)>;
    qint64 request(const QString &method, const QJsonObject &params, ReplyHandler handler);
    void cancelRequest(qint64 id, const QString &reason);
    int callTimeoutMs(const QString &toolName) const;

    // A tools/call result as a ToolResult (callId and name left empty).
    static ToolResult resultFromCall(const QJsonObject &result);

Q_SIGNALS:
    // The server failed after `ready` (it died); the text says how.
    void failed(const QString &error);
    // notifications/progress and notifications/message, with their params.
    void serverNotification(const QString &method, const QJsonObject &params);
    // A remote server asked for a sign-in and its URL was opened.
    void authorizationStarted(const QUrl &url);
    // After shutdown(): the server is stopped (a remote session was ended with DELETE).
    void closed();

private:
    using ListedTool = McpToolInfo;

    void startServer();
    void startRemote();
    void sendInitialize();
    void answerServerRequest(const QJsonValue &id, const QString &method,
                             const QJsonObject &params);
    void onInitialized(const McpReply &reply);
    void listTools(const QString &cursor, bool refresh);
    void finishListing(bool refresh);
    void onStdout();
    void onStderr();
    void onExited(int exitCode, int exitStatus);
    void handleLine(const QByteArray &line);
    void handleOversizedLine();
    void handleMessage(const QJsonObject &message);
    bool send(const QJsonObject &message);
    void fail(const QString &error);
    void endPending(const QString &error);
    void emitReady(const QString &error);
    QString stderrTail() const;

    QString m_serverName;
    McpServerSpec m_server;
    QList<ToolSpec> m_entries;
    QString m_workingDirectory;
    int m_startupTimeoutMs = DefaultStartupTimeoutMs;
    int m_defaultCallTimeoutMs = DefaultCallTimeoutMs;
    qint64 m_lineLimit = DefaultLineLimit;
    int m_killGraceMs = 2000;

    State m_state = State::Idle;
    bool m_readyEmitted = false;
    QString m_failure;
    QString m_protocolVersion;
    QJsonObject m_serverInfo;
    QProcess *m_process = nullptr;
    qint64 m_pid = 0;
    QTimer m_startupTimer;
    QElapsedTimer m_clock;
    qint64 m_startupMs = -1;

    qint64 m_nextId = 1;
    QHash<qint64, ReplyHandler> m_pending;

    QByteArray m_line;
    bool m_discarding = false;
    QByteArray m_discardHead;
    QByteArray m_discardTail;
    qint64 m_discardedBytes = 0;
    QByteArray m_stderrTail;
    QByteArray m_stderrLine;
    int m_garbageLines = 0;
    QString m_firstGarbage;

    QList<ListedTool> m_listing; // being collected
    int m_listPages = 0;
    bool m_listingActive = false;
    QList<ListedTool> m_tools; // the last complete listing

    McpHttpTransport *m_http = nullptr;
    McpOAuth *m_oauth = nullptr;
    QPointer<CredentialStore> m_credentials;
    QString m_browserCommand;
    McpElicitationHandler m_elicitationHandler;
    bool m_closedEmitted = false;
};

} // namespace Callscope
