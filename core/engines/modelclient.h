#pragma once

// The contract between the runner (core/loop) and the engines: the runner hands a neutral
// ChatRequest to a ModelClient and gets back one ModelOutcome. HTTP engines and the replay
// engine both implement ModelClient, so the runner never knows which one it talks to.

#include "core/model/callrecord.h"
#include "core/model/message.h"
#include "core/model/spec.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <optional>

namespace Callscope {

struct ToolDeclaration
{
    QString name;
    QString description;
    QJsonObject inputSchema;
    bool strict = false;
};

enum class ToolChoiceMode { Auto, None, Required, Force };

struct ChatRequest
{
    QString system; // system prompt (empty = none)
    QList<Message> messages; // what this request carries (after the context budget)
    QList<ToolDeclaration> tools;
    ToolChoiceMode toolChoice = ToolChoiceMode::Auto;
    QString forcedTool; // for ToolChoiceMode::Force
    bool parallelToolCalls = true;
    // Native structured output (response_format json_schema / output_config / responseJsonSchema).
    // The runner uses the submit_output tool instead; this is for plain chat and engines tests.
    std::optional<QJsonObject> responseSchema;
    QString responseSchemaName = QStringLiteral("output");
    std::optional<int> maxTokens;
    std::optional<double> temperature;
    bool stream = true;
    QJsonObject extraBody; // merged over the built body last (power users)
    // Prompt cache settings; each codec writes the fields of its provider (cache_control marks,
    // prompt_cache_key, cachedContent).
    std::optional<CacheSpec> cache;
    // Gemini: the name of an explicit cached content that holds the system prompt and tools;
    // the request then names it and leaves those two out.
    QString cachedContent;
};

// A classified API failure.
struct ApiError
{
    ErrorCategory category = ErrorCategory::Other;
    int httpStatus = 0; // 0 when no HTTP status was received
    QString providerType; // e.g. "rate_limit_error", "RESOURCE_EXHAUSTED"
    QString message; // the provider's message, or ours for transport errors
    bool transient = false; // retryable by the rules of retrypolicy.h
    std::optional<qint64> retryAfterMs; // server-requested delay, when one was sent
    bool messageNamesStatus = false; // the message already says the HTTP status (one line)

    QString toString() const;
};

// What one ModelClient::send() ends with: a reply, or an error after all retries.
struct ModelOutcome
{
    std::optional<ModelReply> reply;
    ApiError error; // meaningful when !reply
    bool cancelled = false;
    QList<AttemptRecord> attempts; // every HTTP attempt made, failed ones included
    QJsonObject requestBody; // the wire body of the last attempt (secrets excluded)
    // The last response body (streams: the raw SSE bytes), at most its first few MiB
    // (HttpJobSettings::keepRawBytes); rawResponseBytes is its whole size. The transcript is
    // built once, when the call ends (ModelClient::toNative), not per turn.
    QByteArray rawResponse;
    qint64 rawResponseBytes = 0;
    // ModelClient::cutStream() ended the reply: `reply` holds what had arrived (its tool
    // calls' arguments may be unfinished JSON) and rawResponseBytes how much of the body.
    bool cutShort = false;
};

class ModelClient : public QObject
{
    Q_OBJECT

public:
    explicit ModelClient(QObject *parent = nullptr)
        : QObject(parent)
    { }
    ~ModelClient() override = default;

    virtual EngineType engineType() const = 0;
    virtual QString model() const = 0;

    // Starts one request; `finished` follows exactly once unless cancel() came first, in
    // which case `finished` carries cancelled = true. `maxAttempts` bounds transient retries.
    virtual void send(const ChatRequest &request, int maxAttempts) = 0;
    virtual void cancel() = 0;
    // Ends the reply being streamed at once, keeping what arrived: `finished` follows (before
    // this returns, for the HTTP engines) with ModelOutcome::cutShort set and the partial
    // reply. False when no stream is under way or the engine cannot do it.
    virtual bool cutStream() { return false; }

    // The engine-native form of a neutral conversation (what a request would send), and back.
    virtual QJsonArray toNative(const QString &system, const QList<Message> &messages) const = 0;
    virtual QList<Message> fromNative(const QJsonArray &native) const = 0;

Q_SIGNALS:
    void textDelta(const QString &delta);
    // A fragment of a tool call's arguments as it streams; `call` tells the calls of one reply
    // apart, `name` is the tool's name (empty when the provider has not said it yet).
    void toolArgumentsDelta(int call, const QString &name, const QString &fragment);
    void retryScheduled(int attempt, qint64 delayMs, const Callscope::ApiError &reason);
    void finished(const Callscope::ModelOutcome &outcome);
};

} // namespace Callscope
