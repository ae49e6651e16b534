#pragma once

// The pure, synchronous half of an engine: it turns a neutral ChatRequest into the provider's
// HTTP request and turns the provider's bytes back into a neutral ModelReply. No I/O here;
// core/engines/httpmodelclient.h drives a codec over the network.

#include "core/engines/modelclient.h"
#include "core/engines/ssedecoder.h"

#include <QByteArray>
#include <QList>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace Callscope {

// Connection settings of one engine. Lives in memory only: never stored, never exported.
struct EngineConfig
{
    EngineType type = EngineType::OpenAI;
    QString model;
    QUrl baseUrl; // host root; empty = the provider's public endpoint
    QString apiKey; // may be empty (local servers)
    bool stream = true;
    std::optional<int> maxTokens;
    std::optional<double> temperature;
    std::optional<qint64> timeoutMs; // per attempt; unset = HttpJobSettings' default
    std::optional<qint64> idleTimeoutMs; // silence; unset = HttpJobSettings' default
};

struct HttpRequestData
{
    QUrl url;
    QList<std::pair<QByteArray, QByteArray>> headers; // includes the auth header
    QJsonObject body;
    bool stream = false;
    // Requests that are not model calls (the providers' batch endpoints): another method
    // ("GET" sends no body), a body sent byte for byte instead of `body` (a multipart upload;
    // its Content-Type goes in `headers`), and a reply kept whole instead of decoded as a model
    // reply (HttpJobResult::rawResponse holds all of it, up to maxResponseBytes).
    QByteArray method = QByteArrayLiteral("POST");
    std::optional<QByteArray> rawBody;
    bool wholeReply = false;
    // Requests of other protocols over the same job (remote MCP, its OAuth): no codec is
    // needed, nothing is decoded. A 2xx event stream (text/event-stream) is handed to the
    // caller piece by piece as it is read (HttpJob::bodyReceived); any other body is kept
    // whole in HttpJobResult::rawResponse, up to maxResponseBytes. Once a 2xx status came the
    // request is never sent again (the server took it and may have acted on it). "GET" and
    // "DELETE" send no body.
    bool passThrough = false;

    // The headers with credential values replaced by "***", for logs and stored requests.
    QList<std::pair<QByteArray, QByteArray>> redactedHeaders() const;
};

// Assembles one streamed reply from decoded SSE events.
class StreamAssembler
{
public:
    virtual ~StreamAssembler() = default;

    // Feeds one event. Returns false once the stream is known to be broken (see error()).
    virtual bool handleEvent(const SseEvent &event) = 0;
    // True once the provider's end signal arrived ([DONE], message_stop, response.completed,
    // or, for Gemini, a chunk with a finishReason).
    virtual bool isComplete() const = 0;
    // True once any model content (text, refusal or tool call fragment) arrived: after that a
    // failure must not be retried silently.
    virtual bool hasContent() const = 0;
    // A mid-stream error event, or a malformed event, with the provider's message.
    virtual std::optional<ApiError> error() const = 0;
    // The assembled reply; valid once isComplete(). Called at end of stream.
    virtual ModelReply reply() const = 0;

    // Called with every text (not refusal, not tool argument) fragment as it arrives.
    std::function<void(const QString &)> onTextDelta;
    // Called with every fragment of a tool call's arguments (JSON text) as it arrives: `call`
    // tells the calls of one reply apart (the same number for every fragment of one call),
    // `name` is the tool's name as far as it is known. Providers that send a call's arguments
    // whole (Gemini) hand them over as one fragment.
    std::function<void(int call, const QString &name, const QString &fragment)>
        onToolArgumentsDelta;
};

class EngineCodec
{
public:
    virtual ~EngineCodec() = default;

    virtual EngineType type() const = 0;

    virtual HttpRequestData buildRequest(const ChatRequest &request,
                                         const EngineConfig &config) const = 0;
    // A non-streamed reply body; nullopt with `error` set when it cannot be understood.
    virtual std::optional<ModelReply> parseReply(const QByteArray &body, QString *error) const = 0;
    virtual std::unique_ptr<StreamAssembler> createStreamAssembler() const = 0;
    // An HTTP error reply (status >= 400) classified: category, provider type and message,
    // transient by the retry rules of retrypolicy.h (headers are applied by the HTTP job, not
    // here).
    virtual ApiError parseError(int httpStatus, const QByteArray &body) const = 0;

    // Neutral conversation <-> the engine-native message list a request carries.
    virtual QJsonArray toNative(const QString &system, const QList<Message> &messages) const = 0;
    virtual QList<Message> fromNative(const QJsonArray &native) const = 0;
};

std::unique_ptr<EngineCodec> createEngineCodec(EngineType type); // nullptr for Replay

} // namespace Callscope
