#pragma once

// The providers' batch endpoints for tests, on top of FakeProvider's responder:
//
//   OpenAI:    POST /v1/files (multipart, purpose "batch"), POST /v1/batches, GET /v1/batches,
//              GET /v1/batches/{id}, POST /v1/batches/{id}/cancel, GET /v1/files/{id}/content
//   Anthropic: POST /v1/messages/batches, GET .../{id}, POST .../{id}/cancel, GET .../{id}/results
//   Gemini:    POST /v1beta/models/{m}:batchGenerateContent (inline), GET /v1beta/batches/{id},
//              POST /v1beta/batches/{id}:cancel (responses inline in the finished operation)
//   direct:    POST /v1/chat/completions, /v1/responses, /v1/messages,
//              /v1beta/models/{m}:generateContent (counted)
//
// Every model request (direct or a batch line) is answered by the same `Model` function, so
// an experiment run directly and through a batch gets the same replies. A batch is in progress
// until `processingMs` passed since it was created; its results come out of order; `fate`
// makes chosen lines expire or fail. The state is shared with the test: read it inside
// FakeProviderThread::run (the provider's thread).
//
//   auto api = std::make_shared<FakeBatchApi>(twoTurnBatchModel());
//   server.run([api](FakeProvider &p) { p.setResponder(api->responder()); });

#include "tests/support/fakeprovider.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

#include <functional>
#include <memory>

namespace Callscope::Test {

class FakeBatchApi : public std::enable_shared_from_this<FakeBatchApi>
{
public:
    // endpoint: "/v1/chat/completions", "/v1/responses", "/v1/messages" or "gemini"; returns the
    // reply (status + body) a direct request gets.
    using Model =
        std::function<std::pair<int, QByteArray>(const QString &endpoint, const QJsonObject &body)>;
    // What happens to one line: "" (answered), "expired" or "errored" (HTTP 500 for the line).
    using Fate =
        std::function<QString(const QString &customId, const QJsonObject &body, int batchNumber)>;

    explicit FakeBatchApi(Model model);

    FakeProvider::Responder responder();

    int processingMs = 0;
    // The answer to an OpenAI create waits this long (the batch exists at once): a cancel can
    // then come while the client does not know the batch's id yet.
    int createAnswerDelayMs = 0;
    Fate fate;
    // The next request that creates a batch gets no answer at all (the connection stalls):
    // Unprocessed drops it, Processed creates the batch all the same.
    enum class LostCreate { None, Unprocessed, Processed };
    LostCreate loseNextCreate = LostCreate::None;

    struct Batch
    {
        QString id;
        QString provider; // "openai", "anthropic" or "gemini"
        int number = 0; // 1-based, in creation order
        QString endpoint;
        QJsonObject metadata;
        QList<std::pair<QString, QJsonObject>> lines; // custom_id, body
        QHash<QString, QString> fates;
        QElapsedTimer clock;
        bool cancelled = false;
        int polls = 0;
        QString outputFile;
        QString errorFile;
    };
    QList<Batch> batches;
    QHash<QString, QByteArray> files; // id -> content (uploads and results)
    QList<QByteArray> uploads; // every uploaded input file, in order
    QList<QJsonObject> createBodies; // every POST /v1/batches body
    int directRequests = 0;
    int createRequests = 0; // requests that create a batch, answered or not
    int cancels = 0;

private:
    FakeReply handle(const RecordedRequest &request);
    FakeReply openAiBatchObject(Batch &batch);
    FakeReply anthropicBatchObject(Batch &batch, const QUrl &base);
    FakeReply geminiOperation(Batch &batch);
    bool ended(const Batch &batch) const;
    Batch *find(const QString &id);
    QUrl m_base;
    Model m_model;
};

// The model of a two-turn tool loop in both formats: a request without a tool result gets a
// call of get_ticket; one with a result gets submit_output {"title": "ok"} when the user's
// input contains "pass", else {"title": "bad"}. Usage 120 input + 20 output tokens per reply.
FakeBatchApi::Model twoTurnBatchModel();

} // namespace Callscope::Test
