#include "core/service/launchresolver.h"

#include "core/engines/geminicontentcache.h"
#include "core/engines/httpmodelclient.h"
#include "core/loop/replayclient.h"
#include "core/secrets/keyresolver.h"
#include "core/secrets/profilestore.h"
#include "core/secrets/truststore.h"
#include "core/service/callservice.h"
#include "core/service/preflight.h"
#include "core/service/scheduler.h"
#include "core/store/storewriter.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Callscope {

LaunchResolver::LaunchResolver(CallService *service)
    : m_service(service)
{ }

LaunchCheck LaunchResolver::check(const LaunchRequest &request) const
{
    LaunchCheck out;
    out.request = request;
    auto refuse = [&out](LaunchCheck::Verdict verdict, ErrorCategory category,
                         const QString &message, const QString &pointer = QString()) {
        out.verdict = verdict;
        out.category = category;
        out.message = message;
        out.pointer = pointer;
        return out;
    };

    // The profile's settings go under the spec's own (the spec wins).
    const QString profileName = request.spec.engine.profile;
    if (!profileName.isEmpty()) {
        ProfileStore *profiles = m_service ? m_service->m_profiles : nullptr;
        std::optional<EngineProfile> profile = profiles ? profiles->get(profileName) : std::nullopt;
        if (!profile)
            return refuse(LaunchCheck::Verdict::NoProfile, ErrorCategory::Other,
                          tr("no engine profile named \"%1\" (list them with: callscope-cli "
                             "engines list)")
                              .arg(profileName),
                          u"/engine/profile"_s);
        // The profile's key goes only to the profile's own address and engine type.
        if (!request.allowKeyRedirect) {
            if (auto problem = keyRedirectProblem(request.spec.engine, profileName, profile->type,
                                                  profile->baseUrl))
                return refuse(LaunchCheck::Verdict::KeyRedirect, ErrorCategory::Auth, *problem,
                              u"/engine/base_url"_s);
        }
        out.request.spec.engine = mergeProfileIntoSpec(request.spec.engine, *profile);
    }
    const Spec &spec = out.request.spec;

    // Nothing starts, and no key variable is read, for a file the person has not trusted.
    if (TrustStore *trust = m_service ? m_service->trustStore() : nullptr;
        trust && !request.trusted) {
        out.untrusted = untrustedRunItems(
            spec, *trust, request.allowedKeyVariables + m_service->allowedKeyVariables());
        if (!out.untrusted.isEmpty())
            return refuse(LaunchCheck::Verdict::Untrusted, ErrorCategory::Other,
                          untrustedText(out.untrusted));
    }
    // Nothing is sent, and no retry spent, for an engine that cannot answer.
    if (const PreflightResult engine = preflightEngine(spec, spec.engine); !engine.ok()) {
        const PreflightProblem &first = engine.problems.constFirst();
        return refuse(LaunchCheck::Verdict::Engine,
                      first.field == PreflightProblem::Field::Key ? ErrorCategory::Auth
                                                                  : ErrorCategory::Other,
                      engine.text(), first.pointer);
    }
    // Nor for tools whose programs are not there.
    if (const PreflightResult tools = preflightTools(spec); !tools.ok())
        return refuse(LaunchCheck::Verdict::Tools, ErrorCategory::Other, tools.text(),
                      tools.problems.constFirst().pointer);
    return out;
}

void LaunchResolver::connect(const LaunchRequest &checked, const QString &engineKey,
                             QObject *context,
                             std::function<void(const ConnectedClient &)> done) const
{
    auto failed = [](ErrorCategory category, const QString &message) {
        ConnectedClient out;
        out.category = category;
        out.error = message;
        return out;
    };
    CallService *service = m_service;
    const EngineSpec &engine = checked.spec.engine;
    if (engine.type == EngineType::Replay) {
        CallStore *store = service ? service->store() : nullptr;
        const QString source = engine.replay;
        static const QRegularExpression callId(u"^\\d+$"_s);
        auto replayFrom = [context, done](const std::optional<Recording> &recording,
                                          const QString &error) {
            if (!recording) {
                ConnectedClient out;
                out.category = ErrorCategory::Other;
                out.error = error;
                done(out);
                return;
            }
            ConnectedClient out;
            out.client = new ReplayModelClient(*recording, context);
            done(out);
        };
        if (!callId.match(source).hasMatch()) {
            QString error;
            const auto recording = recordingFromFile(checked.spec.resolvePath(source), &error);
            replayFrom(recording, error);
            return;
        }
        if (!store) {
            done(failed(ErrorCategory::Other,
                        tr("replaying call %1 needs the history database").arg(source)));
            return;
        }
        // The stored call is read in the writer's queue, off the GUI thread.
        struct Read
        {
            std::optional<Recording> recording;
            QString error;
        };
        runOnStore<Read>(
            service->writer(), store, context,
            [source](CallStore &from) {
                Read out;
                auto call = from.getCall(source.toLongLong());
                if (!call)
                    out.error = tr("cannot replay call %1: %2").arg(source, call.error().message);
                else
                    out.recording = recordingFromCall(call.value());
                return out;
            },
            [replayFrom, source](const Read *read, const QString &error) {
                if (!read) {
                    replayFrom(std::nullopt, tr("cannot replay call %1: %2").arg(source, error));
                    return;
                }
                replayFrom(read->recording, read->error);
            });
        return;
    }
    if (!service || !service->m_nam) {
        done(failed(ErrorCategory::Other,
                    tr("no network access for engine %1").arg(engineTypeName(engine.type))));
        return;
    }
    auto *keys = new KeyResolver(service->credentials(), context);
    keys->resolve(
        engine, context,
        [service = QPointer<CallService>(service), keys, checked, engineKey, context, failed,
         done = std::move(done)](const ResolvedKey &key) {
            keys->deleteLater();
            if (!service) {
                done(failed(ErrorCategory::Other, tr("the call service is gone")));
                return;
            }
            if (!key.ok) {
                done(failed(ErrorCategory::Auth, key.error));
                return;
            }
            if (const PreflightResult keyCheck = checkKey(checked.spec.engine, key.key);
                !keyCheck.ok()) {
                done(failed(ErrorCategory::Auth, keyCheck.text()));
                return;
            }
            const EngineConfig config =
                makeEngineConfig(checked.spec.engine, std::nullopt, key.key);
            // Connections are per host, whatever the model or profile.
            const QUrl base = config.baseUrl;
            ConnectedClient out;
            out.networkKey = base.isEmpty() ? engineTypeName(config.type)
                                            : base.scheme() + u"://"_s + base.host() + u':'
                    + QString::number(base.port(base.scheme() == u"https"_s ? 443 : 80));
            out.network = service->acquireNetwork(out.networkKey);
            out.client = checked.clientFactory ? checked.clientFactory(config, out.network, context)
                                               : nullptr;
            if (!out.client)
                out.client = createModelClient(config, out.network, context);
            if (!out.client) {
                out.category = ErrorCategory::Other;
                out.error =
                    tr("engine type %1 cannot be used here").arg(engineTypeName(config.type));
                done(out); // the network goes back with the call's end
                return;
            }
            // A client in front of an HTTP client (the response cache) has it as a
            // direct child.
            auto *http = qobject_cast<HttpModelClient *>(out.client);
            if (!http)
                http =
                    out.client->findChild<HttpModelClient *>(QString(), Qt::FindDirectChildrenOnly);
            if (http) {
                HttpJobSettings settings = http->settings();
                if (service->inactivityTimeoutMs() > 0)
                    settings.inactivityTimeoutMs = service->inactivityTimeoutMs();
                settings.gate = service->scheduler()->lane(engineKey);
                http->setSettings(settings);
                if (checked.contentCache)
                    http->setContentCache(checked.contentCache, checked.contentCacheLabel);
            }
            done(out);
        });
}

} // namespace Callscope
