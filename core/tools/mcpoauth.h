#pragma once

// Signing in to a remote MCP server with OAuth, the way the MCP authorization spec describes:
//
// 1. A 401 (or a 403 with error="insufficient_scope") names, in its WWW-Authenticate header, the
//    protected-resource metadata (RFC 9728) and perhaps the scopes. Without that link the
//    well-known locations are tried: /.well-known/oauth-protected-resource/<path>, then the root.
//    A server with no such metadata at all is treated as its own authorization server (the
//    2025-03-26 rules).
// 2. The authorization server's metadata comes from RFC 8414 / OpenID discovery, trying the
//    path-inserted locations first; without any, /authorize, /token and /register at its root.
// 3. The client: a pre-registered one from the spec, a client ID metadata document URL when the
//    server supports those, a client registered earlier (kept in the keychain), or a new one
//    through dynamic client registration (RFC 7591).
// 4. Authorization code with PKCE S256 and the resource indicator (RFC 8707); the code comes back
//    to a loopback listener on 127.0.0.1. The URL is opened with the browser command (the
//    QSettings key mcp/browser_command, "xdg-open" when unset; a test sets a program that
//    follows the redirect itself).
// 5. The token endpoint with the client's auth method (none, client_secret_basic,
//    client_secret_post); refresh tokens are used before a new sign-in.
//
// Tokens and client secrets live in the keychain (CredentialStore, one entry per resource) and
// in memory; never in a file, a log or an error text.

#include "core/engines/httpjob.h"
#include "core/model/spec.h"
#include "core/secrets/credentialstore.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;
class QTcpServer;

namespace Callscope {

class CredentialStore;

class McpOAuth final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpOAuth)

public:
    static constexpr int MaxAuthorizations = 3; // sign-ins per session (step-up included)
    static constexpr int DefaultAuthorizationTimeoutMs = 300000;

    // `nam` must outlive this object. `store` may be null: tokens are then kept in memory only.
    McpOAuth(QNetworkAccessManager *nam, const QUrl &serverUrl, const McpServerSpec &server,
             CredentialStore *store, QObject *parent = nullptr);
    ~McpOAuth() override;

    // The command the authorization URL is given to (the URL is appended as its last argument).
    // Empty: the setting mcp/browser_command, else xdg-open.
    void setBrowserCommand(const QString &command) { m_browserCommand = command; }
    static QString browserCommandSetting();
    void setAuthorizationTimeoutMs(int ms) { m_authorizationTimeoutMs = qMax(1000, ms); }
    // Timeouts, retries and reply cap of its requests (metadata, registration, tokens), which
    // go through HttpJob like every other request; 30 s of silence ends one by default.
    void setHttpSettings(const HttpJobSettings &settings) { m_http = settings; }

    // The Authorization header value ("Bearer ...") or empty when there is no token yet.
    QByteArray authorizationHeader() const;
    bool hasToken() const { return !m_accessToken.isEmpty(); }

    // Reads what an earlier session kept in the keychain; `done` runs once, always.
    void loadStored(std::function<void()> done);

    // The server answered `status` (401 or 403) with this WWW-Authenticate header. `done` runs
    // once: an empty error means a new token is in place and the request may be sent again.
    void handleChallenge(int status, const QByteArray &wwwAuthenticate,
                         std::function<void(const QString &error)> done);

    // Parses a WWW-Authenticate header's Bearer parameters (keys in lower case).
    static QMap<QString, QString> parseChallenge(const QByteArray &header);
    // PKCE: a code verifier and its S256 challenge.
    static QByteArray makeVerifier();
    static QByteArray challengeFor(const QByteArray &verifier);

Q_SIGNALS:
    // A sign-in opened this URL (no secret in it); front ends tell the person.
    void authorizationStarted(const QUrl &url);

private:
    using Done = std::function<void(const QString &error)>;
    using JsonDone = std::function<void(int status, const QJsonObject &body, const QString &error)>;

    void getJson(const QUrl &url, JsonDone done);
    void postForm(const QUrl &url, const QList<std::pair<QString, QString>> &form, bool basicAuth,
                  JsonDone done);
    void postJson(const QUrl &url, const QJsonObject &body, JsonDone done);
    // One request through HttpJob; `done` gets the status, the JSON object of the body and,
    // when nothing answered, why.
    void request(const QUrl &url, const QByteArray &method, const QByteArray &contentType,
                 const QByteArray &body, const QByteArray &authorization, JsonDone done);
    void tryJsonUrls(QList<QUrl> urls,
                     std::function<void(const QJsonObject &found, const QUrl &from)> done);

    void refresh(Done done);
    void authorize(const QString &scopeHint, const QString &resourceMetadata, Done done);
    void discoverAuthorizationServer(const QString &issuer, Done done);
    void ensureClient(Done done);
    void runCodeFlow(Done done);
    void exchangeCode(const QString &code, Done done);
    void acceptTokens(const QJsonObject &body);
    void save();
    QString entryName() const;
    QString chooseAuthMethod() const;
    void openBrowser(const QUrl &url);
    void stopListener();

    QNetworkAccessManager *m_nam = nullptr;
    HttpJobSettings m_http;
    QUrl m_serverUrl;
    McpServerSpec m_server;
    QPointer<CredentialStore> m_store;
    QString m_browserCommand;
    int m_authorizationTimeoutMs = DefaultAuthorizationTimeoutMs;

    // Discovered
    QString m_resource; // the resource indicator
    QStringList m_scopesSupported;
    QString m_issuer;
    QUrl m_authorizationEndpoint;
    QUrl m_tokenEndpoint;
    QUrl m_registrationEndpoint;
    QStringList m_authMethodsSupported;
    bool m_cimdSupported = false;
    bool m_discovered = false;

    // Client and tokens (secret: never logged)
    QString m_clientId;
    QString m_clientSecret;
    QString m_authMethod; // none, client_secret_basic, client_secret_post
    QString m_clientIssuer; // the authorization server the client belongs to
    QString m_accessToken;
    QString m_refreshToken;
    QString m_scope; // granted or asked for
    qint64 m_expiresAt = 0; // ms since epoch, 0 = unknown

    int m_authorizations = 0;
    bool m_refreshTried = false;

    // The code flow in progress
    QTcpServer *m_listener = nullptr;
    QByteArray m_verifier;
    QString m_state;
    QString m_redirectUri;
    QString m_requestScope;
};

} // namespace Callscope
