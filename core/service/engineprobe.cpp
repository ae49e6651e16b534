#include "core/service/engineprobe.h"

#include "core/engines/httpmodelclient.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/keyresolver.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// The spec-side checks of preflight.h, worded for a profile (which has no engine.* fields).
QList<PreflightProblem> profileProblems(const PreflightResult &checked, const EngineSpec &engine)
{
    QList<PreflightProblem> problems;
    for (PreflightProblem problem : checked.problems) {
        switch (problem.field) {
        case PreflightProblem::Field::Model:
            problem.message =
                EngineProbe::tr("The engine profile %1 names no model: set its model first.")
                    .arg(engine.profile);
            break;
        case PreflightProblem::Field::BaseUrl:
            problem.message = engine.baseUrl.trimmed().isEmpty()
                ? EngineProbe::tr("The engine profile %1 has no base URL: an OpenAI-compatible "
                                  "engine needs the address of its server.")
                      .arg(engine.profile)
                : EngineProbe::tr(
                      "The base URL \"%1\" of the engine profile %2 is not a web "
                      "address: it must start with https:// (or http://) and name a host.")
                      .arg(engine.baseUrl, engine.profile);
            break;
        case PreflightProblem::Field::Key:
            problem.message =
                EngineProbe::tr(
                    "No key found for the engine profile %1 (%2 needs one): store a key "
                    "with the profile, or give one in an environment variable "
                    "(engines test %1 --key-env VAR).")
                    .arg(engine.profile, engineTypeName(engine.type));
            break;
        case PreflightProblem::Field::Replay:
        case PreflightProblem::Field::Profile:
        case PreflightProblem::Field::Tool:
            break;
        }
        problems.append(problem);
    }
    return problems;
}

QString joined(const QList<PreflightProblem> &problems)
{
    QStringList lines;
    for (const PreflightProblem &p : problems)
        lines.append(p.message);
    return lines.join(u'\n');
}

} // namespace

EngineProbe::EngineProbe(QNetworkAccessManager *nam, CredentialStore *credentials, QObject *parent)
    : QObject(parent)
    , m_nam(nam)
    , m_credentials(credentials)
{ }

EngineProbe::~EngineProbe() = default;

void EngineProbe::finishLater(const EngineProbeResult &result)
{
    QTimer::singleShot(0, this, [this, result] { finish(result); });
}

void EngineProbe::start(const EngineProfile &profile, const QString &keyEnv,
                        const QString &typedKey)
{
    if (m_running)
        return;
    m_running = true;
    EngineSpec spec;
    spec.type = profile.type;
    spec.profile = profile.name;
    spec.apiKeyEnv = keyEnv;
    spec.stream = false;
    spec.maxTokens = 16;
    // What will be asked: the profile's model, base URL and timeouts under the probe's own
    // request settings.
    const EngineSpec merged = mergeProfileIntoSpec(spec, profile);

    EngineProbeResult base;
    base.name = profile.name;
    base.type = merged.type;
    base.model = merged.model;

    if (!m_nam) {
        EngineProbeResult result = base;
        result.category = ErrorCategory::Other;
        result.message = tr("no network access");
        finishLater(result);
        return;
    }
    if (merged.type == EngineType::Replay) {
        EngineProbeResult result = base;
        result.category = ErrorCategory::Other;
        result.message =
            tr("an engine of type %1 cannot be tested").arg(engineTypeName(merged.type));
        finishLater(result);
        return;
    }
    // Nothing goes out for a profile that cannot be asked.
    const QList<PreflightProblem> before = profileProblems(preflightEngine(Spec(), merged), merged);
    if (!before.isEmpty()) {
        EngineProbeResult result = base;
        result.category = ErrorCategory::Other;
        result.problems = before;
        result.message = joined(before);
        finishLater(result);
        return;
    }

    const auto withKey = [this, spec, merged, profile, base](const ResolvedKey &resolved) {
        if (!resolved.ok) {
            EngineProbeResult result = base;
            result.category = ErrorCategory::Auth;
            result.problems.append(
                { PreflightProblem::Field::Key, u"/engine/api_key_env"_s, resolved.error });
            result.message = resolved.error;
            finish(result);
            return;
        }
        const QList<PreflightProblem> keyProblems =
            profileProblems(checkKey(merged, resolved.key), merged);
        if (!keyProblems.isEmpty()) {
            EngineProbeResult result = base;
            result.category = ErrorCategory::Auth;
            result.problems = keyProblems;
            result.message = joined(keyProblems);
            finish(result);
            return;
        }
        const EngineConfig config = makeEngineConfig(spec, profile, resolved.key);
        m_client.reset(createModelClient(config, m_nam, nullptr));
        if (!m_client) {
            EngineProbeResult result = base;
            result.category = ErrorCategory::Other;
            result.message =
                tr("an engine of type %1 cannot be tested").arg(engineTypeName(config.type));
            finish(result);
            return;
        }
        if (auto *http = qobject_cast<HttpModelClient *>(m_client.get())) {
            HttpJobSettings settings = http->settings();
            settings.retry.maxAttempts = 1;
            settings.inactivityTimeoutMs = 30000;
            settings.totalTimeoutMs = 60000;
            http->setSettings(settings);
        }
        auto timer = std::make_shared<QElapsedTimer>();
        const QString keySource = keySourceName(resolved.source);
        connect(m_client.get(), &ModelClient::finished, this,
                [this, timer, keySource, base](const ModelOutcome &outcome) {
                    EngineProbeResult result = base;
                    result.sent = true;
                    result.keySource = keySource;
                    result.durationMs = timer->elapsed();
                    if (outcome.reply) {
                        result.ok = true;
                        result.reply = outcome.reply->message.text;
                    } else {
                        result.category = outcome.error.category;
                        result.httpStatus = outcome.error.httpStatus;
                        result.providerType = outcome.error.providerType;
                        result.providerMessage = outcome.error.message;
                        result.message = outcome.error.toString();
                    }
                    // The client is released after its own signal has returned.
                    finishLater(result);
                });
        ChatRequest request;
        request.messages.append(Message::user(u"Reply with the single word: ok"_s));
        request.maxTokens = 16;
        request.stream = false;
        timer->start();
        m_client->send(request, 1);
    };
    if (!typedKey.trimmed().isEmpty()) {
        // The key in the dialog's field, saved or not: the test is of what the user sees.
        const ResolvedKey typed { true, typedKey.trimmed(), KeySource::Typed, {}, std::nullopt };
        QTimer::singleShot(0, this, [withKey, typed] { withKey(typed); });
        return;
    }
    auto *resolver = new KeyResolver(m_credentials, this);
    resolver->resolve(spec, this, [resolver, withKey](const ResolvedKey &resolved) {
        resolver->deleteLater();
        withKey(resolved);
    });
}

void EngineProbe::finish(const EngineProbeResult &result)
{
    m_client.reset();
    m_running = false;
    Q_EMIT finished(result);
}

} // namespace Callscope
