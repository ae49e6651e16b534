#pragma once

// LaunchResolver: from "run this spec on this input" to a model client that can send, or a clear
// reason why not. Every call of every front end passes it, in two steps:
//
// 1. check() (synchronous, nothing is read from the keychain, nothing starts or is sent): the
//    engine profile merged under the spec's engine, where the profile's key may go, trust, the
//    engine preflight (model, base URL, key variable, replay recording) and the programs of the
//    tools. CallService::check() answers with it (the studio's run view shows that answer);
//    CallService::launch() runs it once for a request that was not checked yet.
// 2. connect() (after the scheduler admitted the call): the replay recording or the key (the
//    keychain answers asynchronously), then the client, its HTTP settings and its lane.

#include "core/engines/enginecodec.h"
#include "core/loop/runner.h"
#include "core/model/callrecord.h"
#include "core/model/spec.h"
#include "core/model/trustpolicy.h"
#include "core/store/callstore.h"

#include <QCoreApplication>
#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QNetworkAccessManager;
class QObject;

namespace Callscope {

class CallService;
class GeminiContentCache;
class ModelClient;

// Session compaction by policy: before a session turn, when the
// last request's prompt plus output passed maxContextTokens, everything but the newest
// keepRecent messages folds into a rolling summary made by a call of kind `compaction`.
struct CompactionPolicy
{
    qint64 maxContextTokens = 0; // 0 = never by policy
    int keepRecent = 6;
};

struct LaunchRequest
{
    Spec spec;
    RunInput input;
    RunOptions options; // breakpoints, attended, allowed tools, metadata
    std::optional<qint64> sessionId; // run inside a session
    std::optional<qint64> reviseOf; // set by revise(): replays that call's conversation
    QString rerunOf; // metadata note for reruns
    std::optional<CompactionPolicy> compaction; // session turns only
    std::optional<BatchLink> batch; // the stored batch line this call answers
    // Where the model requests go instead of an HTTP engine (a provider batch round, the
    // response cache): called by connect() once the key is known; nullptr falls back to the
    // direct client. With `unscheduled` the job does not wait for a place in the scheduler:
    // its requests do not go out one by one, so the limits of calls in flight do not apply.
    std::function<ModelClient *(const EngineConfig &config, QNetworkAccessManager *nam,
                                QObject *parent)>
        clientFactory;
    bool unscheduled = false;
    // Trust (core/model/trustpolicy.h): a spec that would start programs or read environment
    // variables that are not provider keys runs only when it is trusted, by this flag (the
    // person said so: the studio's trust dialog, --trust, CALLSCOPE_TRUST=1) or by the
    // service's trust store. Otherwise the job fails before anything starts or is sent.
    bool trusted = false;
    QStringList allowedKeyVariables; // --allow-key-env: read as keys without trust
    // The spec names an engine profile and another address or engine type: the profile's key
    // goes there only when the person agreed (the studio asks, showing both addresses).
    bool allowKeyRedirect = false;
    // Gemini's explicit cache shared by the calls of a batch or an experiment (not owned): a
    // request that asks for it names the entry of its prefix. Without one, a call that asks
    // for it makes its own entry and deletes it when it ends. `contentCacheLabel` says whose
    // work the call is (an experiment's variant).
    QPointer<GeminiContentCache> contentCache;
    QString contentCacheLabel;
};

// The answer of LaunchResolver::check().
struct LaunchCheck
{
    enum class Verdict {
        Ready, // request holds the request as it will run
        NoProfile, // the spec names an engine profile that does not exist
        KeyRedirect, // the profile's key would go to another address: ask the person
        Untrusted, // the file would start programs or read variables: ask the person
        Engine, // the engine cannot answer (no model, no key, a bad base URL, no recording)
        Tools, // a tool's program is not there
    };
    Verdict verdict = Verdict::Ready;
    // The request, with the engine profile merged under the spec's engine (the spec wins).
    LaunchRequest request;
    QString message; // why not, for a person (one line per problem)
    QString pointer; // the spec field to fix ("/engine/model"), when one is to blame
    ErrorCategory category = ErrorCategory::None; // of the failed call, when launched anyway
    QList<RunItem> untrusted; // Untrusted: what would run
    bool ok() const { return verdict == Verdict::Ready; }
};

// What connect() ends with: a client (owned by the context given to connect()), or why not.
struct ConnectedClient
{
    ModelClient *client = nullptr;
    // The manager the client's requests use, taken from the service's pool (give it back with
    // the key when the call ends); null for engines that send nothing over HTTP.
    QNetworkAccessManager *network = nullptr;
    QString networkKey; // scheme, host and port of the requests
    ErrorCategory category = ErrorCategory::None;
    QString error; // set when there is no client
};

class LaunchResolver final
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::LaunchResolver)

public:
    explicit LaunchResolver(CallService *service);
    Q_DISABLE_COPY_MOVE(LaunchResolver)

    LaunchCheck check(const LaunchRequest &request) const;
    // `checked` is the request of a Ready check. `done` runs once, at once for engines that
    // need no key (replay), else from the event loop; never once `context` is gone.
    void connect(const LaunchRequest &checked, const QString &engineKey, QObject *context,
                 std::function<void(const ConnectedClient &)> done) const;

private:
    QPointer<CallService> m_service;
};

} // namespace Callscope
