#pragma once

// The providers' batch APIs: many model requests sent as one job that the provider works
// through within a day, at about half the price. One ProviderBatchClient per engine (type,
// base URL, key); every HTTP request it makes is an HttpJob (auth, retries, timeouts, the
// same-origin redirect rule), and its errors are read by the engine's own codec.
//
// - OpenAI (`openai`, `openai-responses`): the lines go up as a JSONL file
//   (POST /v1/files, purpose "batch"), then POST /v1/batches for /v1/chat/completions or
//   /v1/responses; GET /v1/batches/{id} polls; the output and error files hold the results.
// - Anthropic: POST /v1/messages/batches with the requests inline; GET .../{id} polls; the
//   JSONL at results_url holds the results (succeeded, errored, canceled, expired).
// - Gemini: POST /v1beta/models/{model}:batchGenerateContent with the requests inline;
//   GET /v1beta/batches/{id} polls; the finished batch holds the responses inline.
//
// A line's body is what the engine's codec builds for the direct request (non-streamed), and a
// result is decoded by the same codec: there is one way to build a request and read a reply.

#include "core/engines/enginecodec.h"
#include "core/engines/httpjob.h"

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace Callscope {

// How much one provider batch may carry. OpenAI: 50,000 lines and 200 MB per input file;
// Anthropic: 100,000 requests and 256 MB; Gemini inline requests: 20 MB per call.
struct BatchLimits
{
    int maxLines = 50000;
    qint64 maxBytes = 200LL * 1024 * 1024;

    static BatchLimits forEngine(EngineType type);
};

struct ProviderBatchLine
{
    QString customId; // [A-Za-z0-9_-]{1,64}, unique within its batch
    QJsonObject body; // the codec's request body
};

// A provider batch as its last poll described it.
struct BatchStatus
{
    enum class State { InProgress, Ended, Cancelling, Failed };
    State state = State::InProgress;
    QString providerId;
    QString rawStatus; // the provider's own word ("validating", "ended", "BATCH_STATE_RUNNING")
    int total = 0;
    int succeeded = 0;
    int errored = 0;
    int pending = 0;
    QString outputRef; // OpenAI output file id; Anthropic results_url
    QString errorRef; // OpenAI error file id
    QString message; // why a batch failed as a whole
    QJsonObject raw; // the provider's object (Gemini carries its results in it)
};

struct BatchLineResult
{
    enum class Kind { Succeeded, Errored, Expired, Cancelled };
    QString customId;
    Kind kind = Kind::Errored;
    QByteArray body; // Succeeded: the model reply body, as a direct request returns it
    ApiError error; // Errored: classified like a direct request's error
};
QString batchLineKindName(BatchLineResult::Kind kind);

class ProviderBatchClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProviderBatchClient)

public:
    // nullptr when the engine type has no batch API (openai-compatible, replay).
    static ProviderBatchClient *create(const EngineConfig &config, QNetworkAccessManager *nam,
                                       QObject *parent = nullptr);
    static bool hasBatchApi(EngineType type);
    ~ProviderBatchClient() override;

    EngineType type() const { return m_config.type; }
    const EngineCodec &codec() const { return *m_codec; }
    const EngineConfig &config() const { return m_config; }
    void setSettings(const HttpJobSettings &settings) { m_settings = settings; }

    // The body of one line: exactly the direct request's body, never streamed.
    QJsonObject lineBody(const ChatRequest &request) const;
    // The bytes a line takes in the provider's upload (for splitting by BatchLimits).
    qint64 lineBytes(const ProviderBatchLine &line) const;
    // OpenAI's JSONL input file for `lines` ({custom_id, method, url, body} per line).
    QByteArray openAiInputFile(const QList<ProviderBatchLine> &lines) const;
    // The result body decoded by the engine's codec.
    std::optional<ModelReply> decode(const QByteArray &body, QString *error) const;

    // Every callback runs once, from the event loop; none runs after the client is destroyed.
    struct SubmitResult
    {
        bool ok = false;
        QString providerId;
        QString inputFileId;
        // The request that creates the batch got no answer (a timeout, a lost connection):
        // the provider may or may not have the batch. Never retried blindly.
        bool unknown = false;
        ApiError error;
    };
    // `tag` goes into the batch's metadata where the provider keeps metadata (OpenAI), so a
    // batch whose creation got no answer can be found again. `fileUploaded` runs once the
    // input file is up (OpenAI), before the batch is created.
    void submit(const QList<ProviderBatchLine> &lines, const QString &tag,
                std::function<void(const QString &fileId)> fileUploaded,
                std::function<void(const SubmitResult &)> done);
    // OpenAI only: creates the batch from an input file uploaded earlier.
    void createFromFile(const QString &fileId, const QString &tag,
                        std::function<void(const SubmitResult &)> done);
    void poll(const QString &providerId,
              std::function<void(const BatchStatus &, const ApiError &)> done);
    void cancel(const QString &providerId, std::function<void(const ApiError &)> done);
    void fetchResults(const BatchStatus &status,
                      std::function<void(const QList<BatchLineResult> &, const ApiError &)> done);
    // OpenAI: the batch whose metadata carries `tag` (listing the newest batches); `found`
    // is empty when the listing worked and no batch has the tag. Other providers keep no
    // metadata: `supported` is false.
    void
    findByTag(const QString &tag,
              std::function<void(bool supported, const QString &found, const ApiError &)> done);

private:
    ProviderBatchClient(const EngineConfig &config, std::unique_ptr<EngineCodec> codec,
                        QNetworkAccessManager *nam, QObject *parent);

    struct Reply
    {
        bool ok = false;
        int status = 0;
        QByteArray body;
        ApiError error;
    };
    // One HTTP request on the engine's origin; `path` is relative to the API root ("batches").
    HttpRequestData requestFor(const QByteArray &method, const QString &path,
                               const QString &query = {}) const;
    void send(HttpRequestData request, int maxAttempts, std::function<void(const Reply &)> done);
    QString apiRoot() const; // the direct endpoint's URL up to its API version ("/v1", "/v1beta")
    QString directEndpoint() const; // "/v1/chat/completions", "/v1/responses"

    BatchStatus parseStatus(const QJsonObject &object) const;
    QList<BatchLineResult> parseOpenAiFile(const QByteArray &jsonl) const;
    QList<BatchLineResult> parseAnthropicResults(const QByteArray &jsonl) const;
    QList<BatchLineResult> parseGeminiResults(const QJsonObject &batch) const;

    EngineConfig m_config;
    std::unique_ptr<EngineCodec> m_codec;
    QPointer<QNetworkAccessManager> m_nam;
    HttpJobSettings m_settings;
};

} // namespace Callscope
