// callscope-cli mcp tools (SPEC.json SERVER | --url URL) [options]
// callscope-cli mcp call  (SPEC.json SERVER | --url URL) TOOL --args JSON [options]
//
// `tools` prints the server's tools as a JSON array (name, title, description, input_schema,
// output_schema, annotations, needs_approval); `call` prints one tools/call result as JSON
// ({"is_error", "content", "images"}: content is the text the model would get). Exit 0 on success,
// 1 when the server fails or the result is an error, 2 for bad arguments or an invalid spec.
// Progress and log notifications and the sign-in URL go to stderr; a token never does.

#include "app/cli/cliutil.h"
#include "app/cli/runsupport.h"
#include "core/model/specio.h"
#include "core/secrets/credentialstore.h"
#include "core/service/appcontext.h"
#include "core/tools/mcptoolkit.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

QString mcpHelp()
{
    return Tr::tr(
        "Usage: callscope-cli mcp tools (SPEC.json SERVER | --url URL) [OPTIONS]\n"
        "       callscope-cli mcp call (SPEC.json SERVER | --url URL) TOOL --args JSON "
        "[OPTIONS]\n\n"
        "Lists the tools of an MCP server, or calls one, and prints JSON. The server is an entry\n"
        "of a spec's mcp_servers, or a remote server given by its URL.\n\n"
        "Options:\n"
        "  --url URL                 a remote server (Streamable HTTP, HTTP+SSE as fallback)\n"
        "  --header NAME:VALUE       send this header with every request (repeatable)\n"
        "  --bearer-env VAR          send the token in VAR as a bearer token\n"
        "  --oauth                   sign in with OAuth when the server asks\n"
        "  --client-id ID            a pre-registered OAuth client\n"
        "  --client-secret-env VAR   that client's secret, from the environment\n"
        "  --client-metadata-url URL a client ID metadata document, used when the server supports "
        "it\n"
        "  --scope SCOPES            the OAuth scopes to ask for\n"
        "  --browser-command CMD     opens the sign-in URL (default: the mcp/browser_command\n"
        "                            setting, else xdg-open)\n"
        "  --args JSON               call: the tool's arguments (a JSON object)\n"
        "  --timeout MS              how long start-up and the call may take (default 60000)\n"
        "  --trust                   start the spec's server even though the file is not trusted\n"
        "  --allow-key-env NAME      allow this variable as a key (bearer_env)\n\n"
        "Exit codes: 0 done, 1 the server failed or the result is an error, 2 bad arguments.\n");
}

QJsonObject toolJson(const McpToolInfo &tool, bool needsApproval)
{
    QJsonObject o { { u"name"_s, tool.name },
                    { u"description"_s, tool.description },
                    { u"input_schema"_s, tool.inputSchema },
                    { u"annotations"_s, tool.annotations },
                    { u"needs_approval"_s, needsApproval } };
    if (!tool.title.isEmpty())
        o.insert(u"title"_s, tool.title);
    if (!tool.outputSchema.isEmpty())
        o.insert(u"output_schema"_s, tool.outputSchema);
    return o;
}

// Waits for the toolkit's `closed` (a remote session's DELETE), at most `ms`, then for the
// keychain to finish writing a sign-in.
void shutDown(McpToolkit &toolkit, CredentialStore &credentials, int ms)
{
    QEventLoop loop;
    QObject::connect(&toolkit, &McpToolkit::closed, &loop, &QEventLoop::quit);
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    toolkit.shutdown();
    loop.exec();
    QElapsedTimer clock;
    clock.start();
    while (credentials.pendingCount() > 0 && clock.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
}

} // namespace

int runMcp(const QStringList &arguments)
{
    if (arguments.isEmpty() || arguments.first() == u"--help" || arguments.first() == u"-h") {
        std::fputs(mcpHelp().toLocal8Bit().constData(), stdout);
        return arguments.isEmpty() ? ExitUsage : ExitOk;
    }
    const QString verb = arguments.first();
    if (verb != u"tools" && verb != u"call") {
        printError(Tr::tr("mcp: unknown verb '%1' (tools or call)").arg(verb));
        return ExitUsage;
    }
    QCommandLineParser parser;
    const QCommandLineOption urlOption(u"url"_s, u"URL"_s, u"url"_s);
    const QCommandLineOption headerOption(u"header"_s, u"NAME:VALUE"_s, u"header"_s);
    const QCommandLineOption bearerOption(u"bearer-env"_s, u"VAR"_s, u"var"_s);
    const QCommandLineOption oauthOption(u"oauth"_s, u"OAuth"_s);
    const QCommandLineOption clientIdOption(u"client-id"_s, u"ID"_s, u"id"_s);
    const QCommandLineOption clientSecretOption(u"client-secret-env"_s, u"VAR"_s, u"var"_s);
    const QCommandLineOption metadataOption(u"client-metadata-url"_s, u"URL"_s, u"url"_s);
    const QCommandLineOption scopeOption(u"scope"_s, u"SCOPES"_s, u"scopes"_s);
    const QCommandLineOption browserOption(u"browser-command"_s, u"CMD"_s, u"cmd"_s);
    const QCommandLineOption argsOption(u"args"_s, u"JSON"_s, u"json"_s);
    const QCommandLineOption timeoutOption(u"timeout"_s, u"MS"_s, u"ms"_s, u"60000"_s);
    parser.addOptions({ urlOption, headerOption, bearerOption, oauthOption, clientIdOption,
                        clientSecretOption, metadataOption, scopeOption, browserOption, argsOption,
                        timeoutOption });
    addTrustOptions(parser);
    parser.addPositionalArgument(u"target"_s, u"SPEC.json SERVER [TOOL]"_s);
    if (const auto exit = parseArguments(parser, u"mcp "_s + verb, arguments.mid(1), mcpHelp()))
        return *exit;
    QStringList positional = parser.positionalArguments();

    QString serverName;
    McpServerSpec server;
    QList<ToolSpec> entries;
    // What the spec's server would start or read, checked for trust before anything starts
    // (a server given on the command line is the user's own).
    QList<RunItem> untrusted;
    TrustEntry trustEntry;
    if (parser.isSet(urlOption)) {
        serverName = u"remote"_s;
        server.url = parser.value(urlOption);
        const QUrl url(server.url, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https")) {
            printError(Tr::tr("mcp: --url %1 is not an http:// or https:// URL").arg(server.url));
            return ExitUsage;
        }
        for (const QString &header : parser.values(headerOption)) {
            const qsizetype colon = header.indexOf(u':');
            if (colon <= 0) {
                printError(Tr::tr("mcp: --header %1 is not NAME:VALUE").arg(header));
                return ExitUsage;
            }
            server.headers.insert(header.left(colon).trimmed(), header.mid(colon + 1).trimmed());
        }
        if (parser.isSet(bearerOption)) {
            server.auth = McpAuthKind::Bearer;
            server.bearerEnv = parser.value(bearerOption);
        }
        if (parser.isSet(oauthOption) || parser.isSet(clientIdOption)
            || parser.isSet(metadataOption)) {
            server.auth = McpAuthKind::OAuth;
            server.oauthClientId = parser.value(clientIdOption);
            server.oauthClientSecretEnv = parser.value(clientSecretOption);
            server.oauthClientMetadataUrl = parser.value(metadataOption);
            server.oauthScope = parser.value(scopeOption);
        }
    } else {
        if (positional.size() < 2) {
            printError(Tr::tr("mcp %1: give SPEC.json SERVER or --url URL").arg(verb));
            return ExitUsage;
        }
        const QString specPath = positional.takeFirst();
        serverName = positional.takeFirst();
        const SpecLoadResult loaded = loadSpecFile(specPath);
        if (!loaded.ok()) {
            QString message = Tr::tr("%1 is not a valid spec:").arg(specPath);
            for (const SpecError &error : loaded.errors)
                message += u"\n  "_s + (error.pointer.isEmpty() ? u"/"_s : error.pointer) + u": "_s
                    + error.message;
            printError(message);
            return ExitUsage;
        }
        if (!loaded.spec->mcpServers.contains(serverName)) {
            printError(
                Tr::tr("%1 has no MCP server named %2 (it has: %3)")
                    .arg(specPath, serverName, loaded.spec->mcpServers.keys().join(u", "_s)));
            return ExitUsage;
        }
        server = loaded.spec->mcpServers.value(serverName);
        entries = loaded.spec->tools;
        Spec started = *loaded.spec;
        started.tools.clear();
        started.preSeeds.clear();
        started.engine = EngineSpec();
        started.mcpServers = { { serverName, server } };
        started.mcpServers[serverName].exposeAll = true;
        untrusted = specRunItems(started, parser.values(u"allow-key-env"_s));
        trustEntry = trustEntryFor(*loaded.spec);
    }
    server.exposeAll = true;

    QString toolName;
    QJsonObject toolArguments;
    if (verb == u"call") {
        if (positional.size() != 1) {
            printError(Tr::tr("mcp call: give exactly one TOOL name"));
            return ExitUsage;
        }
        toolName = positional.first();
        if (parser.isSet(argsOption)) {
            QJsonParseError error;
            const QJsonDocument doc =
                QJsonDocument::fromJson(parser.value(argsOption).toUtf8(), &error);
            if (error.error != QJsonParseError::NoError || !doc.isObject()) {
                printError(Tr::tr("mcp call: --args is not a JSON object (%1)")
                               .arg(error.error != QJsonParseError::NoError
                                        ? error.errorString()
                                        : Tr::tr("another JSON value")));
                return ExitUsage;
            }
            toolArguments = doc.object();
        }
    } else if (!positional.isEmpty()) {
        printError(Tr::tr("mcp tools: unexpected argument %1").arg(positional.first()));
        return ExitUsage;
    }
    bool timeoutOk = false;
    const int timeoutMs = parser.value(timeoutOption).toInt(&timeoutOk);
    if (!timeoutOk || timeoutMs <= 0) {
        printError(Tr::tr("mcp: --timeout must be a positive number of milliseconds"));
        return ExitUsage;
    }

    // Tests give each run its own keychain service so one run's sign-in is never another's.
    AppContext context;
    context.setKeychainService(qEnvironmentVariable("CALLSCOPE_MCP_KEYCHAIN_SERVICE",
                                                    CredentialStore::defaultServiceName()));
    if (!passTrust(context, parser, untrusted, trustEntry))
        return ExitUsage;
    CredentialStore &credentials = *context.credentials();
    McpToolkit toolkit(serverName, server, entries);
    toolkit.setStartupTimeoutMs(timeoutMs);
    toolkit.setDefaultCallTimeoutMs(timeoutMs);
    toolkit.setCredentialStore(&credentials);
    toolkit.setBrowserCommand(parser.value(browserOption));
    QObject::connect(&toolkit, &McpToolkit::authorizationStarted, [](const QUrl &url) {
        printError(Tr::tr("signing in: opened %1").arg(url.toString(QUrl::RemoveQuery)));
    });
    QObject::connect(
        &toolkit, &McpToolkit::serverNotification,
        [&serverName](const QString &method, const QJsonObject &params) {
            const QString text =
                QString::fromUtf8(QJsonDocument(params).toJson(QJsonDocument::Compact));
            std::fputs(qPrintable(u"[%1] %2 %3\n"_s.arg(serverName, method, text.left(500))),
                       stderr);
        });

    QString prepareError;
    {
        QEventLoop loop;
        QObject::connect(&toolkit, &Toolkit::ready, &loop, [&](const QString &error) {
            prepareError = error;
            loop.quit();
        });
        StopOnSignal stop([&] {
            prepareError = Tr::tr("interrupted");
            loop.quit();
        });
        toolkit.prepare();
        loop.exec();
    }
    if (!prepareError.isEmpty()) {
        printError(prepareError);
        shutDown(toolkit, credentials, 3000);
        return ExitFailed;
    }

    if (verb == u"tools") {
        QJsonArray list;
        for (const McpToolInfo &tool : toolkit.tools())
            list.append(toolJson(tool, toolkit.needsApproval(tool.name)));
        printJson(list);
        shutDown(toolkit, credentials, 3000);
        return ExitOk;
    }

    ToolCall call;
    call.id = u"cli-1"_s;
    call.name = toolName;
    call.arguments = toolArguments;
    std::unique_ptr<ToolJob> job(toolkit.createJob(call, nullptr));
    if (!job) {
        QStringList names;
        for (const McpToolInfo &tool : toolkit.tools())
            names.append(tool.name);
        printError(Tr::tr("MCP server %1 has no tool %2 (it lists: %3)")
                       .arg(serverName, toolName, names.join(u", "_s)));
        shutDown(toolkit, credentials, 3000);
        return ExitUsage;
    }
    ToolResult result;
    {
        QEventLoop loop;
        bool done = false;
        QObject::connect(job.get(), &ToolJob::finished, &loop, [&](const ToolResult &r) {
            result = r;
            done = true;
            loop.quit();
        });
        StopOnSignal stop([&] { job->cancel(); });
        job->start();
        if (!done)
            loop.exec();
    }
    QJsonObject out { { u"is_error"_s, result.isError },
                      { u"content"_s, result.content },
                      { u"images"_s, int(result.images.size()) } };
    printJson(out);
    job.reset();
    shutDown(toolkit, credentials, 3000);
    return result.isError ? ExitFailed : ExitOk;
}

} // namespace Callscope::Cli
