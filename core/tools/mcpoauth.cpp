#include "core/tools/mcpoauth.h"

#include "core/secrets/credentialstore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QRandomGenerator>
#include <QSettings>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcMcpAuth, "callscope.tools.mcp.auth")

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::McpOAuth)
};

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray randomBytes(int count)
{
    QByteArray bytes(count, Qt::Uninitialized);
    for (int i = 0; i < count; ++i)
        bytes[i] = char(QRandomGenerator::system()->bounded(256));
    return bytes;
}

QString origin(const QUrl &url)
{
    return url
        .adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment
                  | QUrl::RemoveUserInfo)
        .toString(QUrl::StripTrailingSlash);
}

// Scheme, host and port alike (the default port of the scheme when none is given).
bool sameOrigin(const QUrl &a, const QUrl &b)
{
    const auto port = [](const QUrl &u) {
        return u.port(u.scheme().toLower() == u"https"_s ? 443 : 80);
    };
    return a.isValid() && b.isValid() && a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0
        && a.host().compare(b.host(), Qt::CaseInsensitive) == 0 && port(a) == port(b);
}

QString pathOf(const QUrl &url)
{
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    return path;
}

QStringList toStrings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        if (item.isString())
            list.append(item.toString());
    return list;
}

QString oauthError(int status, const QJsonObject &body, const QString &transport)
{
    if (!body.value(u"error"_s).toString().isEmpty()) {
        QString text = body.value(u"error"_s).toString();
        const QString description = body.value(u"error_description"_s).toString();
        if (!description.isEmpty())
            text += u": "_s + description;
        return text;
    }
    if (!transport.isEmpty())
        return transport;
    return Tr::tr("HTTP status %1").arg(status);
}

// key=value&... with every byte outside the unreserved set percent-encoded.
QByteArray formEncode(const QList<std::pair<QString, QString>> &items)
{
    QByteArray out;
    for (const auto &[key, value] : items) {
        if (!out.isEmpty())
            out += '&';
        out += QUrl::toPercentEncoding(key) + '=' + QUrl::toPercentEncoding(value);
    }
    return out;
}

} // namespace

McpOAuth::McpOAuth(QNetworkAccessManager *nam, const QUrl &serverUrl, const McpServerSpec &server,
                   CredentialStore *store, QObject *parent)
    : QObject(parent)
    , m_nam(nam)
    , m_serverUrl(serverUrl)
    , m_server(server)
    , m_store(store)
{
    // As before HttpJob: 30 s without a byte ends a request; the cap is far above any metadata.
    m_http.inactivityTimeoutMs = 30000;
    m_http.maxResponseBytes = 4 * 1024 * 1024;
    m_resource = serverUrl.adjusted(QUrl::RemoveFragment).toString();
    if (!server.oauthClientId.isEmpty()) {
        m_clientId = server.oauthClientId;
        if (!server.oauthClientSecretEnv.isEmpty())
            m_clientSecret =
                qEnvironmentVariable(server.oauthClientSecretEnv.toLocal8Bit().constData());
    }
}

McpOAuth::~McpOAuth()
{
    stopListener();
}

QString McpOAuth::browserCommandSetting()
{
    return QSettings().value(u"mcp/browser_command"_s).toString();
}

QByteArray McpOAuth::authorizationHeader() const
{
    if (m_accessToken.isEmpty())
        return {};
    return "Bearer " + m_accessToken.toUtf8();
}

QByteArray McpOAuth::makeVerifier()
{
    return base64Url(randomBytes(32)); // 43 characters of the unreserved set
}

QByteArray McpOAuth::challengeFor(const QByteArray &verifier)
{
    return base64Url(QCryptographicHash::hash(verifier, QCryptographicHash::Sha256));
}

QMap<QString, QString> McpOAuth::parseChallenge(const QByteArray &header)
{
    QMap<QString, QString> params;
    const QString text = QString::fromUtf8(header);
    qsizetype i = 0;
    // Skip the scheme ("Bearer").
    while (i < text.size() && !text.at(i).isSpace())
        ++i;
    while (i < text.size()) {
        while (i < text.size() && (text.at(i).isSpace() || text.at(i) == u','))
            ++i;
        const qsizetype keyStart = i;
        while (i < text.size() && text.at(i) != u'=' && text.at(i) != u',' && !text.at(i).isSpace())
            ++i;
        const QString key = text.mid(keyStart, i - keyStart).toLower();
        while (i < text.size() && text.at(i).isSpace())
            ++i;
        if (i >= text.size() || text.at(i) != u'=')
            continue;
        ++i;
        while (i < text.size() && text.at(i).isSpace())
            ++i;
        QString value;
        if (i < text.size() && text.at(i) == u'"') {
            ++i;
            while (i < text.size() && text.at(i) != u'"') {
                if (text.at(i) == u'\\' && i + 1 < text.size())
                    ++i;
                value.append(text.at(i));
                ++i;
            }
            ++i; // closing quote
        } else {
            const qsizetype start = i;
            while (i < text.size() && text.at(i) != u',' && !text.at(i).isSpace())
                ++i;
            value = text.mid(start, i - start);
        }
        if (!key.isEmpty())
            params.insert(key, value);
    }
    return params;
}

QString McpOAuth::entryName() const
{
    return u"mcp-oauth "_s + m_resource;
}

// ---------------------------------------------------------------------------------------------
// Keychain

void McpOAuth::loadStored(std::function<void()> done)
{
    if (!m_store) {
        done();
        return;
    }
    m_store->readKey(entryName(), this, [this, done](const KeychainResult &result) {
        if (result.status == KeychainStatus::Ok && result.key) {
            const QJsonObject o = QJsonDocument::fromJson(result.key->toUtf8()).object();
            m_accessToken = o.value(u"access_token"_s).toString();
            m_refreshToken = o.value(u"refresh_token"_s).toString();
            m_expiresAt = qint64(o.value(u"expires_at"_s).toDouble());
            m_scope = o.value(u"scope"_s).toString();
            if (m_server.oauthClientId.isEmpty()) {
                m_clientId = o.value(u"client_id"_s).toString();
                m_clientSecret = o.value(u"client_secret"_s).toString();
                m_authMethod = o.value(u"auth_method"_s).toString();
                m_clientIssuer = o.value(u"issuer"_s).toString();
            }
            const QUrl token(o.value(u"token_endpoint"_s).toString());
            if (token.isValid() && !token.isEmpty())
                m_tokenEndpoint = token;
            if (m_expiresAt > 0 && m_expiresAt < QDateTime::currentMSecsSinceEpoch())
                m_accessToken.clear(); // expired: the first 401 refreshes it
        } else if (!result.usable()) {
            qCInfo(lcMcpAuth).noquote()
                << u"no keychain for MCP sign-ins; tokens stay in memory: "_s + result.message;
        }
        done();
    });
}

void McpOAuth::save()
{
    QJsonObject o { { u"access_token"_s, m_accessToken },
                    { u"refresh_token"_s, m_refreshToken },
                    { u"expires_at"_s, double(m_expiresAt) },
                    { u"scope"_s, m_scope },
                    { u"token_endpoint"_s, m_tokenEndpoint.toString() } };
    if (m_server.oauthClientId.isEmpty()) {
        o.insert(u"client_id"_s, m_clientId);
        o.insert(u"client_secret"_s, m_clientSecret);
        o.insert(u"auth_method"_s, m_authMethod);
        o.insert(u"issuer"_s, m_clientIssuer);
    }
    if (!m_store)
        return;
    m_store->writeKey(
        entryName(), QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)), this,
        [](const KeychainResult &result) {
            if (!result.usable())
                qCInfo(lcMcpAuth).noquote()
                    << u"the MCP sign-in was not kept in the keychain: "_s + result.message;
        });
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

void McpOAuth::request(const QUrl &url, const QByteArray &method, const QByteArray &contentType,
                       const QByteArray &body, const QByteArray &authorization, JsonDone done)
{
    HttpRequestData data;
    data.url = url;
    data.method = method;
    data.passThrough = true;
    data.headers.emplaceBack("Accept", "application/json");
    if (!contentType.isEmpty()) {
        data.headers.emplaceBack("Content-Type", contentType);
        data.rawBody = body;
    }
    if (!authorization.isEmpty())
        data.headers.emplaceBack("Authorization", authorization);
    auto *job = new HttpJob(m_nam, nullptr, data, m_http, this);
    connect(job, &HttpJob::finished, this, [job, done] {
        const HttpJobResult result = job->takeResult();
        job->deleteLater();
        const QJsonDocument doc = QJsonDocument::fromJson(result.rawResponse);
        QString error;
        if (result.httpStatus == 0
            || (result.httpStatus / 100 == 2 && result.error.category != ErrorCategory::None))
            error =
                result.transportDetail.isEmpty() ? result.error.message : result.transportDetail;
        done(result.httpStatus, doc.object(), error);
    });
    job->start();
}

void McpOAuth::getJson(const QUrl &url, JsonDone done)
{
    request(url, "GET", {}, {}, {}, std::move(done));
}

void McpOAuth::postForm(const QUrl &url, const QList<std::pair<QString, QString>> &form,
                        bool basicAuth, JsonDone done)
{
    QByteArray authorization;
    if (basicAuth) {
        const QByteArray pair =
            QUrl::toPercentEncoding(m_clientId) + ':' + QUrl::toPercentEncoding(m_clientSecret);
        authorization = "Basic " + pair.toBase64();
    }
    request(url, "POST", "application/x-www-form-urlencoded", formEncode(form), authorization,
            std::move(done));
}

void McpOAuth::postJson(const QUrl &url, const QJsonObject &body, JsonDone done)
{
    request(url, "POST", "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact), {},
            std::move(done));
}

void McpOAuth::tryJsonUrls(QList<QUrl> urls,
                           std::function<void(const QJsonObject &, const QUrl &)> done)
{
    if (urls.isEmpty()) {
        done({}, {});
        return;
    }
    const QUrl url = urls.takeFirst();
    getJson(url, [this, urls, done, url](int status, const QJsonObject &body, const QString &) {
        if (status == 200 && !body.isEmpty()) {
            done(body, url);
            return;
        }
        tryJsonUrls(urls, done);
    });
}

// ---------------------------------------------------------------------------------------------
// The flow

void McpOAuth::handleChallenge(int status, const QByteArray &wwwAuthenticate,
                               std::function<void(const QString &)> done)
{
    const QMap<QString, QString> params = parseChallenge(wwwAuthenticate);
    const QString scope = params.value(u"scope"_s);
    const QString metadata = params.value(u"resource_metadata"_s);
    if (status == 403) {
        if (params.value(u"error"_s) != u"insufficient_scope") {
            done(tr("the server refused the request (HTTP 403) without asking for more scopes"));
            return;
        }
        // Step-up: ask for what we had plus what the server now wants.
        QStringList wanted = m_scope.split(u' ', Qt::SkipEmptyParts);
        for (const QString &s : scope.split(u' ', Qt::SkipEmptyParts))
            if (!wanted.contains(s))
                wanted.append(s);
        authorize(wanted.join(u' '), metadata, done);
        return;
    }
    if (!m_refreshToken.isEmpty() && !m_refreshTried) {
        m_refreshTried = true;
        refresh([this, scope, metadata, done](const QString &error) {
            if (error.isEmpty()) {
                done(QString());
                return;
            }
            qCInfo(lcMcpAuth).noquote()
                << u"refreshing the MCP token failed; signing in again: "_s + error;
            authorize(scope, metadata, done);
        });
        return;
    }
    authorize(scope, metadata, done);
}

void McpOAuth::refresh(Done done)
{
    auto doRefresh = [this, done] {
        if (m_tokenEndpoint.isEmpty()) {
            done(tr("no token endpoint is known"));
            return;
        }
        QList<std::pair<QString, QString>> form { { u"grant_type"_s, u"refresh_token"_s },
                                                  { u"refresh_token"_s, m_refreshToken },
                                                  { u"resource"_s, m_resource } };
        const QString method = m_authMethod.isEmpty() ? chooseAuthMethod() : m_authMethod;
        if (method != u"client_secret_basic")
            form.append({ u"client_id"_s, m_clientId });
        if (method == u"client_secret_post")
            form.append({ u"client_secret"_s, m_clientSecret });
        postForm(m_tokenEndpoint, form, method == u"client_secret_basic",
                 [this, done](int status, const QJsonObject &body, const QString &transport) {
                     if (status != 200 || body.value(u"access_token"_s).toString().isEmpty()) {
                         m_refreshToken.clear();
                         done(oauthError(status, body, transport));
                         return;
                     }
                     acceptTokens(body);
                     done(QString());
                 });
    };
    doRefresh();
}

void McpOAuth::authorize(const QString &scopeHint, const QString &resourceMetadata, Done done)
{
    if (m_authorizations >= MaxAuthorizations) {
        done(tr("gave up after %1 sign-ins in this session; the server keeps refusing the token")
                 .arg(MaxAuthorizations));
        return;
    }
    ++m_authorizations;

    // Protected-resource metadata: the header's link, else the well-known locations.
    QList<QUrl> candidates;
    if (!resourceMetadata.isEmpty())
        candidates.append(QUrl(resourceMetadata));
    const QString path = pathOf(m_serverUrl);
    if (resourceMetadata.isEmpty() && !path.isEmpty())
        candidates.append(
            QUrl(origin(m_serverUrl) + u"/.well-known/oauth-protected-resource"_s + path));
    if (resourceMetadata.isEmpty())
        candidates.append(QUrl(origin(m_serverUrl) + u"/.well-known/oauth-protected-resource"_s));

    tryJsonUrls(candidates, [this, scopeHint, done](const QJsonObject &prm, const QUrl &) {
        QString issuer;
        if (!prm.isEmpty()) {
            const QString resource = prm.value(u"resource"_s).toString();
            if (!resource.isEmpty() && sameOrigin(QUrl(resource), m_serverUrl)) {
                m_resource = resource;
            } else if (!resource.isEmpty()) {
                // The sign-in is kept in the keychain under its resource: a server naming
                // another one could read or replace the sign-in of that other server.
                done(tr("the server's protected-resource metadata names another server (%1) as its "
                        "resource; "
                        "a server signs in only for itself (%2), so the sign-in is refused")
                         .arg(resource, origin(m_serverUrl)));
                return;
            }
            m_scopesSupported = toStrings(prm.value(u"scopes_supported"_s));
            const QStringList servers = toStrings(prm.value(u"authorization_servers"_s));
            issuer = servers.value(0);
        }
        if (issuer.isEmpty())
            issuer = origin(m_serverUrl); // no metadata: the server is its own authorization server
        if (!m_server.oauthScope.isEmpty())
            m_requestScope = m_server.oauthScope;
        else if (!scopeHint.isEmpty())
            m_requestScope = scopeHint;
        else
            m_requestScope = m_scopesSupported.join(u' ');
        discoverAuthorizationServer(issuer, [this, done](const QString &error) {
            if (!error.isEmpty()) {
                done(error);
                return;
            }
            ensureClient([this, done](const QString &clientError) {
                if (!clientError.isEmpty()) {
                    done(clientError);
                    return;
                }
                runCodeFlow(done);
            });
        });
    });
}

void McpOAuth::discoverAuthorizationServer(const QString &issuer, Done done)
{
    if (m_discovered && m_issuer == issuer) {
        done(QString());
        return;
    }
    const QUrl issuerUrl(issuer);
    if (!issuerUrl.isValid() || (issuerUrl.scheme() != u"https" && issuerUrl.scheme() != u"http")) {
        done(tr("the authorization server \"%1\" is not an http(s) URL").arg(issuer));
        return;
    }
    const QString base = origin(issuerUrl);
    const QString path = pathOf(issuerUrl);
    QList<QUrl> candidates;
    if (!path.isEmpty()) {
        candidates << QUrl(base + u"/.well-known/oauth-authorization-server"_s + path)
                   << QUrl(base + u"/.well-known/openid-configuration"_s + path)
                   << QUrl(base + path + u"/.well-known/openid-configuration"_s);
    } else {
        candidates << QUrl(base + u"/.well-known/oauth-authorization-server"_s)
                   << QUrl(base + u"/.well-known/openid-configuration"_s);
    }
    tryJsonUrls(candidates, [this, issuer, base, done](const QJsonObject &meta, const QUrl &) {
        m_issuer = issuer;
        if (meta.isEmpty()) {
            // No metadata at all: the default endpoints at the server's root.
            m_authorizationEndpoint = QUrl(base + u"/authorize"_s);
            m_tokenEndpoint = QUrl(base + u"/token"_s);
            m_registrationEndpoint = QUrl(base + u"/register"_s);
            m_authMethodsSupported = { u"client_secret_basic"_s, u"client_secret_post"_s,
                                       u"none"_s };
            m_cimdSupported = false;
        } else {
            m_authorizationEndpoint = QUrl(meta.value(u"authorization_endpoint"_s).toString());
            m_tokenEndpoint = QUrl(meta.value(u"token_endpoint"_s).toString());
            m_registrationEndpoint = QUrl(meta.value(u"registration_endpoint"_s).toString());
            m_authMethodsSupported = meta.contains(u"token_endpoint_auth_methods_supported"_s)
                ? toStrings(meta.value(u"token_endpoint_auth_methods_supported"_s))
                : QStringList { u"client_secret_basic"_s };
            m_cimdSupported = meta.value(u"client_id_metadata_document_supported"_s).toBool();
            const QStringList pkce = toStrings(meta.value(u"code_challenge_methods_supported"_s));
            if (meta.contains(u"code_challenge_methods_supported"_s) && !pkce.contains(u"S256"_s)) {
                done(tr("the authorization server does not support PKCE with S256, which MCP "
                        "requires"));
                return;
            }
            if (m_authorizationEndpoint.isEmpty() || m_tokenEndpoint.isEmpty()) {
                done(tr("the authorization server's metadata names no authorization or token "
                        "endpoint"));
                return;
            }
        }
        m_discovered = true;
        done(QString());
    });
}

QString McpOAuth::chooseAuthMethod() const
{
    if (m_clientSecret.isEmpty())
        return u"none"_s;
    if (m_authMethodsSupported.contains(u"client_secret_basic"_s))
        return u"client_secret_basic"_s;
    if (m_authMethodsSupported.contains(u"client_secret_post"_s))
        return u"client_secret_post"_s;
    return u"client_secret_basic"_s;
}

void McpOAuth::ensureClient(Done done)
{
    // The loopback listener first: its port is part of the redirect URI a registration names.
    stopListener();
    m_listener = new QTcpServer(this);
    if (!m_listener->listen(QHostAddress::LocalHost, 0)) {
        done(tr("could not open a loopback port for the sign-in: %1")
                 .arg(m_listener->errorString()));
        return;
    }
    m_redirectUri = u"http://127.0.0.1:%1/callback"_s.arg(m_listener->serverPort());

    if (!m_server.oauthClientId.isEmpty()) {
        m_authMethod = chooseAuthMethod();
        done(QString());
        return;
    }
    if (m_cimdSupported && !m_server.oauthClientMetadataUrl.isEmpty()) {
        m_clientId = m_server.oauthClientMetadataUrl;
        m_clientSecret.clear();
        m_authMethod = u"none"_s;
        m_clientIssuer = m_issuer;
        done(QString());
        return;
    }
    if (!m_clientId.isEmpty() && m_clientIssuer == m_issuer) {
        done(QString()); // registered in an earlier session
        return;
    }
    if (m_registrationEndpoint.isEmpty()) {
        done(tr(
            "the authorization server offers no dynamic client registration; give a pre-registered "
            "client in the spec (auth.oauth.client_id)"));
        return;
    }
    QString method = u"none"_s;
    if (!m_authMethodsSupported.contains(u"none"_s))
        method = m_authMethodsSupported.contains(u"client_secret_post"_s)
                && !m_authMethodsSupported.contains(u"client_secret_basic"_s)
            ? u"client_secret_post"_s
            : u"client_secret_basic"_s;
    const QJsonObject body { { u"client_name"_s, u"Callscope"_s },
                             { u"redirect_uris"_s, QJsonArray { m_redirectUri } },
                             { u"grant_types"_s,
                               QJsonArray { u"authorization_code"_s, u"refresh_token"_s } },
                             { u"response_types"_s, QJsonArray { u"code"_s } },
                             { u"token_endpoint_auth_method"_s, method } };
    postJson(
        m_registrationEndpoint, body,
        [this, method, done](int status, const QJsonObject &reply, const QString &transport) {
            if ((status != 200 && status != 201)
                || reply.value(u"client_id"_s).toString().isEmpty()) {
                done(
                    tr("client registration failed: %1").arg(oauthError(status, reply, transport)));
                return;
            }
            m_clientId = reply.value(u"client_id"_s).toString();
            m_clientSecret = reply.value(u"client_secret"_s).toString();
            m_authMethod = reply.value(u"token_endpoint_auth_method"_s).toString(method);
            m_clientIssuer = m_issuer;
            done(QString());
        });
}

void McpOAuth::runCodeFlow(Done done)
{
    m_verifier = makeVerifier();
    m_state = QString::fromLatin1(base64Url(randomBytes(16)));
    QUrl url = m_authorizationEndpoint;
    QList<std::pair<QString, QString>> items { { u"response_type"_s, u"code"_s },
                                               { u"client_id"_s, m_clientId },
                                               { u"redirect_uri"_s, m_redirectUri },
                                               { u"code_challenge"_s,
                                                 QString::fromLatin1(challengeFor(m_verifier)) },
                                               { u"code_challenge_method"_s, u"S256"_s },
                                               { u"state"_s, m_state },
                                               { u"resource"_s, m_resource } };
    if (!m_requestScope.isEmpty())
        items.append({ u"scope"_s, m_requestScope });
    QByteArray query = url.query(QUrl::FullyEncoded).toLatin1();
    if (!query.isEmpty())
        query += '&';
    query += formEncode(items);
    url.setQuery(QString::fromLatin1(query), QUrl::TolerantMode);

    auto finished = std::make_shared<bool>(false);
    auto finish = [this, finished, done](const QString &error) {
        if (*finished)
            return;
        *finished = true;
        stopListener();
        done(error);
    };
    auto *timeout = new QTimer(m_listener);
    timeout->setSingleShot(true);
    connect(timeout, &QTimer::timeout, this, [this, finish] {
        finish(tr("no sign-in came back within %1 s").arg(m_authorizationTimeoutMs / 1000));
    });
    timeout->start(m_authorizationTimeoutMs);

    connect(m_listener, &QTcpServer::newConnection, this, [this, finish] {
        while (m_listener && m_listener->hasPendingConnections()) {
            QTcpSocket *socket = m_listener->nextPendingConnection();
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QTcpSocket::readyRead, this, [this, socket, finish] {
                const QByteArray head = socket->peek(16384);
                if (!head.contains("\r\n"))
                    return;
                const QByteArray line = head.left(head.indexOf("\r\n"));
                const QList<QByteArray> parts = line.split(' ');
                const QUrl target(QString::fromLatin1(parts.value(1)));
                const QUrlQuery params(target);
                QString error;
                QString code;
                if (target.path() != u"/callback") {
                    socket->write(
                        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                    socket->disconnectFromHost();
                    return;
                }
                if (socket->property("answered").toBool())
                    return;
                socket->setProperty("answered", true);
                if (params.queryItemValue(u"state"_s, QUrl::FullyDecoded) != m_state)
                    error = tr("the sign-in answer carried the wrong state; it was ignored");
                else if (params.hasQueryItem(u"error"_s))
                    error =
                        tr("the authorization server refused: %1 %2")
                            .arg(params.queryItemValue(u"error"_s, QUrl::FullyDecoded),
                                 params.queryItemValue(u"error_description"_s, QUrl::FullyDecoded));
                else
                    code = params.queryItemValue(u"code"_s, QUrl::FullyDecoded);
                const QByteArray page = error.isEmpty()
                    ? tr("Signed in. You can close this window.").toUtf8()
                    : error.toUtf8();
                socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain; "
                              "charset=utf-8\r\nConnection: close\r\n"
                              "Content-Length: "
                              + QByteArray::number(page.size()) + "\r\n\r\n" + page);
                socket->disconnectFromHost();
                if (!error.isEmpty() || code.isEmpty()) {
                    finish(error.isEmpty() ? tr("the sign-in answer carried no code") : error);
                    return;
                }
                exchangeCode(code, finish);
            });
        }
    });
    Q_EMIT authorizationStarted(url);
    openBrowser(url);
}

void McpOAuth::exchangeCode(const QString &code, Done done)
{
    const QString method = m_authMethod.isEmpty() ? chooseAuthMethod() : m_authMethod;
    QList<std::pair<QString, QString>> form { { u"grant_type"_s, u"authorization_code"_s },
                                              { u"code"_s, code },
                                              { u"redirect_uri"_s, m_redirectUri },
                                              { u"code_verifier"_s,
                                                QString::fromLatin1(m_verifier) },
                                              { u"resource"_s, m_resource } };
    if (method != u"client_secret_basic")
        form.append({ u"client_id"_s, m_clientId });
    if (method == u"client_secret_post")
        form.append({ u"client_secret"_s, m_clientSecret });
    postForm(
        m_tokenEndpoint, form, method == u"client_secret_basic",
        [this, done](int status, const QJsonObject &body, const QString &transport) {
            if (status != 200 || body.value(u"access_token"_s).toString().isEmpty()) {
                done(tr("the token request failed: %1").arg(oauthError(status, body, transport)));
                return;
            }
            acceptTokens(body);
            done(QString());
        });
}

void McpOAuth::acceptTokens(const QJsonObject &body)
{
    m_accessToken = body.value(u"access_token"_s).toString();
    if (body.contains(u"refresh_token"_s))
        m_refreshToken = body.value(u"refresh_token"_s).toString();
    const qint64 expiresIn = qint64(body.value(u"expires_in"_s).toDouble());
    m_expiresAt = expiresIn > 0 ? QDateTime::currentMSecsSinceEpoch() + expiresIn * 1000 : 0;
    m_scope = body.contains(u"scope"_s) ? body.value(u"scope"_s).toString() : m_requestScope;
    m_refreshTried = false;
    save();
}

void McpOAuth::openBrowser(const QUrl &url)
{
    QString command = m_browserCommand.isEmpty() ? browserCommandSetting() : m_browserCommand;
    if (command.isEmpty())
        command = u"xdg-open"_s;
    QStringList arguments = QProcess::splitCommand(command);
    if (arguments.isEmpty())
        return;
    const QString program = arguments.takeFirst();
    arguments.append(url.toString(QUrl::FullyEncoded));
    if (!QProcess::startDetached(program, arguments))
        qCWarning(lcMcpAuth).noquote()
            << tr("could not start the browser command \"%1\"").arg(program);
}

void McpOAuth::stopListener()
{
    if (m_listener) {
        m_listener->close();
        m_listener->deleteLater();
        m_listener = nullptr;
    }
}

} // namespace Callscope
