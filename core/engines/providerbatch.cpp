#include "core/engines/providerbatch.h"

#include "core/engines/codec_common.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QRandomGenerator>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(ProviderBatchClient)
};

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QJsonObject objectOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

bool isOpenAi(EngineType type)
{
    return type == EngineType::OpenAI || type == EngineType::OpenAIResponses;
}

// Calls one JSON line at a time; blank lines are skipped, unreadable ones reported.
template<typename F> void forEachLine(const QByteArray &jsonl, F &&f)
{
    qsizetype start = 0;
    while (start < jsonl.size()) {
        qsizetype end = jsonl.indexOf('\n', start);
        if (end < 0)
            end = jsonl.size();
        const QByteArray line = jsonl.mid(start, end - start).trimmed();
        start = end + 1;
        if (line.isEmpty())
            continue;
        f(QJsonDocument::fromJson(line).object());
    }
}

} // namespace

QString batchLineKindName(BatchLineResult::Kind kind)
{
    switch (kind) {
    case BatchLineResult::Kind::Succeeded:
        return u"succeeded"_s;
    case BatchLineResult::Kind::Errored:
        return u"errored"_s;
    case BatchLineResult::Kind::Expired:
        return u"expired"_s;
    case BatchLineResult::Kind::Cancelled:
        return u"canceled"_s;
    }
    return {};
}

BatchLimits BatchLimits::forEngine(EngineType type)
{
    BatchLimits limits;
    if (type == EngineType::Anthropic) {
        limits.maxLines = 100000;
        limits.maxBytes = 256LL * 1024 * 1024;
    } else if (type == EngineType::Gemini) {
        limits.maxLines = 100000;
        limits.maxBytes = 20LL * 1024 * 1024; // inline requests: one request body
    }
    return limits;
}

bool ProviderBatchClient::hasBatchApi(EngineType type)
{
    return type == EngineType::OpenAI || type == EngineType::OpenAIResponses
        || type == EngineType::Anthropic || type == EngineType::Gemini;
}

ProviderBatchClient *ProviderBatchClient::create(const EngineConfig &config,
                                                 QNetworkAccessManager *nam, QObject *parent)
{
    if (!hasBatchApi(config.type))
        return nullptr;
    std::unique_ptr<EngineCodec> codec = createEngineCodec(config.type);
    if (!codec)
        return nullptr;
    return new ProviderBatchClient(config, std::move(codec), nam, parent);
}

ProviderBatchClient::ProviderBatchClient(const EngineConfig &config,
                                         std::unique_ptr<EngineCodec> codec,
                                         QNetworkAccessManager *nam, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_codec(std::move(codec))
    , m_nam(nam)
{
    m_config.stream = false;
    m_settings.applyTimeouts(m_config.timeoutMs, m_config.idleTimeoutMs);
    // Results files can be large; they are read whole.
    m_settings.maxResponseBytes = 1024LL * 1024 * 1024;
}

ProviderBatchClient::~ProviderBatchClient() = default;

QJsonObject ProviderBatchClient::lineBody(const ChatRequest &request) const
{
    ChatRequest whole = request;
    whole.stream = false;
    return m_codec->buildRequest(whole, m_config).body;
}

std::optional<ModelReply> ProviderBatchClient::decode(const QByteArray &body, QString *error) const
{
    return m_codec->parseReply(body, error);
}

QString ProviderBatchClient::directEndpoint() const
{
    return m_config.type == EngineType::OpenAIResponses ? u"/v1/responses"_s
                                                        : u"/v1/chat/completions"_s;
}

QString ProviderBatchClient::apiRoot() const
{
    // The direct request's URL, cut after its API version: a base_url with a path prefix (a
    // proxy) applies to the batch endpoints exactly as to the direct ones.
    ChatRequest probe;
    probe.messages = { Message::user(u"x"_s) };
    probe.stream = false;
    const QUrl url = m_codec->buildRequest(probe, m_config).url;
    QString path = url.path();
    for (const QString &version : { u"/v1beta/"_s, u"/v1/"_s }) {
        const qsizetype at = path.lastIndexOf(version);
        if (at >= 0) {
            path = path.first(at + version.size() - 1);
            break;
        }
    }
    QUrl root = url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment);
    root.setPath(path);
    return root.toString();
}

HttpRequestData ProviderBatchClient::requestFor(const QByteArray &method, const QString &path,
                                                const QString &query) const
{
    ChatRequest probe;
    probe.messages = { Message::user(u"x"_s) };
    probe.stream = false;
    // The codec's headers carry the key the way the direct request does (and Anthropic's version).
    HttpRequestData request = m_codec->buildRequest(probe, m_config);
    request.body = {};
    request.stream = false;
    request.method = method;
    request.wholeReply = true;
    QUrl url(apiRoot() + u'/' + path);
    if (!query.isEmpty())
        url.setQuery(query);
    request.url = url;
    if (method == "GET") {
        request.headers.removeIf([](const std::pair<QByteArray, QByteArray> &h) {
            return h.first.compare("content-type", Qt::CaseInsensitive) == 0;
        });
    }
    return request;
}

void ProviderBatchClient::send(HttpRequestData request, int maxAttempts,
                               std::function<void(const Reply &)> done)
{
    HttpJobSettings settings = m_settings;
    if (maxAttempts > 0)
        settings.retry.maxAttempts = maxAttempts;
    auto *job = new HttpJob(m_nam.data(), m_codec.get(), request, settings, this);
    connect(job, &HttpJob::finished, this, [job, done = std::move(done)] {
        const HttpJobResult &result = job->result();
        Reply reply;
        reply.ok = result.reply.has_value();
        reply.status = result.httpStatus;
        reply.body = result.rawResponse;
        reply.error = result.error;
        job->deleteLater();
        done(reply);
    });
    job->start();
}

qint64 ProviderBatchClient::lineBytes(const ProviderBatchLine &line) const
{
    // Near enough for splitting: the body plus the line's envelope.
    return compact(line.body).size() + line.customId.size() + 64;
}

QByteArray ProviderBatchClient::openAiInputFile(const QList<ProviderBatchLine> &lines) const
{
    QByteArray file;
    for (const ProviderBatchLine &line : lines) {
        const QJsonObject entry { { u"custom_id"_s, line.customId },
                                  { u"method"_s, u"POST"_s },
                                  { u"url"_s, directEndpoint() },
                                  { u"body"_s, line.body } };
        file += compact(entry);
        file += '\n';
    }
    return file;
}

// ---------------------------------------------------------------------------------------------
// Submit

void ProviderBatchClient::submit(const QList<ProviderBatchLine> &lines, const QString &tag,
                                 std::function<void(const QString &)> fileUploaded,
                                 std::function<void(const SubmitResult &)> done)
{
    // The creating request is sent once: after a timeout or a lost connection the provider may
    // hold the batch, and a second request would pay for every line twice.
    auto finishCreate = [done](const Reply &reply, const QString &fileId, auto idOf) {
        SubmitResult result;
        result.inputFileId = fileId;
        if (reply.ok) {
            result.providerId = idOf(objectOf(reply.body));
            result.ok = !result.providerId.isEmpty();
            if (!result.ok)
                result.error = ApiError { ErrorCategory::Other,
                                          reply.status,
                                          {},
                                          Tr::tr("the provider's answer named no batch id") };
        } else {
            result.error = reply.error;
            result.unknown = reply.status == 0 && !reply.error.message.isEmpty();
        }
        done(result);
    };

    if (isOpenAi(m_config.type)) {
        const QByteArray file = openAiInputFile(lines);
        const QByteArray boundary =
            "callscope-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
        QByteArray body;
        body += "--" + boundary
            + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n";
        body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
            + tag.toUtf8() + ".jsonl\"\r\nContent-Type: application/jsonl\r\n\r\n";
        body += file;
        body += "\r\n--" + boundary + "--\r\n";
        HttpRequestData upload = requestFor("POST", u"files"_s);
        upload.headers.removeIf([](const std::pair<QByteArray, QByteArray> &h) {
            return h.first.compare("content-type", Qt::CaseInsensitive) == 0;
        });
        upload.headers.append({ "Content-Type"_ba, "multipart/form-data; boundary=" + boundary });
        upload.rawBody = body;
        // An upload that is retried at worst leaves an unused file behind; it is never billed.
        send(upload, 0, [this, tag, fileUploaded, done](const Reply &reply) {
            if (!reply.ok) {
                SubmitResult result;
                result.error = reply.error;
                done(result);
                return;
            }
            const QString fileId = objectOf(reply.body).value(u"id"_s).toString();
            if (fileId.isEmpty()) {
                SubmitResult result;
                result.error = ApiError { ErrorCategory::Other,
                                          reply.status,
                                          {},
                                          Tr::tr("the provider's answer named no file id") };
                done(result);
                return;
            }
            if (fileUploaded)
                fileUploaded(fileId);
            createFromFile(fileId, tag, done);
        });
        return;
    }

    if (m_config.type == EngineType::Anthropic) {
        QJsonArray requests;
        for (const ProviderBatchLine &line : lines)
            requests.append(
                QJsonObject { { u"custom_id"_s, line.customId }, { u"params"_s, line.body } });
        HttpRequestData create = requestFor("POST", u"messages/batches"_s);
        create.body = QJsonObject { { u"requests"_s, requests } };
        send(create, 1, [finishCreate](const Reply &reply) {
            finishCreate(reply, QString(),
                         [](const QJsonObject &o) { return o.value(u"id"_s).toString(); });
        });
        return;
    }

    // Gemini: inline requests, each keyed by its custom id.
    QJsonArray requests;
    for (const ProviderBatchLine &line : lines)
        requests.append(
            QJsonObject { { u"request"_s, line.body },
                          { u"metadata"_s, QJsonObject { { u"key"_s, line.customId } } } });
    QString model = m_config.model;
    if (model.startsWith(u"models/"))
        model = model.sliced(7);
    HttpRequestData create = requestFor("POST", u"models/"_s + model + u":batchGenerateContent"_s);
    create.body = QJsonObject {
        { u"batch"_s,
          QJsonObject {
              { u"displayName"_s, tag },
              { u"inputConfig"_s,
                QJsonObject { { u"requests"_s, QJsonObject { { u"requests"_s, requests } } } } } } }
    };
    send(create, 1, [finishCreate](const Reply &reply) {
        finishCreate(reply, QString(), [](const QJsonObject &o) {
            QString name = o.value(u"name"_s).toString();
            if (name.isEmpty())
                name = o.value(u"metadata"_s).toObject().value(u"name"_s).toString();
            return name.startsWith(u"batches/"_s) ? name.sliced(8) : name;
        });
    });
}

void ProviderBatchClient::createFromFile(const QString &fileId, const QString &tag,
                                         std::function<void(const SubmitResult &)> done)
{
    HttpRequestData create = requestFor("POST", u"batches"_s);
    create.body = QJsonObject { { u"input_file_id"_s, fileId },
                                { u"endpoint"_s, directEndpoint() },
                                { u"completion_window"_s, u"24h"_s },
                                { u"metadata"_s, QJsonObject { { u"callscope_batch"_s, tag } } } };
    send(create, 1, [fileId, done](const Reply &reply) {
        SubmitResult result;
        result.inputFileId = fileId;
        if (reply.ok) {
            result.providerId = objectOf(reply.body).value(u"id"_s).toString();
            result.ok = !result.providerId.isEmpty();
        } else {
            result.error = reply.error;
            result.unknown = reply.status == 0;
        }
        done(result);
    });
}

// ---------------------------------------------------------------------------------------------
// Poll, cancel, find

BatchStatus ProviderBatchClient::parseStatus(const QJsonObject &object) const
{
    BatchStatus s;
    s.raw = object;
    if (isOpenAi(m_config.type)) {
        s.providerId = object.value(u"id"_s).toString();
        s.rawStatus = object.value(u"status"_s).toString();
        const QJsonObject counts = object.value(u"request_counts"_s).toObject();
        s.total = counts.value(u"total"_s).toInt();
        s.succeeded = counts.value(u"completed"_s).toInt();
        s.errored = counts.value(u"failed"_s).toInt();
        s.pending = std::max(0, s.total - s.succeeded - s.errored);
        s.outputRef = object.value(u"output_file_id"_s).toString();
        s.errorRef = object.value(u"error_file_id"_s).toString();
        if (s.rawStatus == u"completed"_s || s.rawStatus == u"expired"_s
            || s.rawStatus == u"cancelled"_s)
            s.state = BatchStatus::State::Ended;
        else if (s.rawStatus == u"failed"_s)
            s.state = BatchStatus::State::Failed;
        else if (s.rawStatus == u"cancelling"_s)
            s.state = BatchStatus::State::Cancelling;
        if (s.state == BatchStatus::State::Failed) {
            QStringList messages;
            for (const QJsonValue &e :
                 object.value(u"errors"_s).toObject().value(u"data"_s).toArray())
                messages.append(e.toObject().value(u"message"_s).toString());
            s.message = messages.join(u"; "_s);
        }
        return s;
    }
    if (m_config.type == EngineType::Anthropic) {
        s.providerId = object.value(u"id"_s).toString();
        s.rawStatus = object.value(u"processing_status"_s).toString();
        const QJsonObject counts = object.value(u"request_counts"_s).toObject();
        s.pending = counts.value(u"processing"_s).toInt();
        s.succeeded = counts.value(u"succeeded"_s).toInt();
        s.errored = counts.value(u"errored"_s).toInt() + counts.value(u"canceled"_s).toInt()
            + counts.value(u"expired"_s).toInt();
        s.total = s.pending + s.succeeded + s.errored;
        s.outputRef = object.value(u"results_url"_s).toString();
        if (s.rawStatus == u"ended"_s)
            s.state = BatchStatus::State::Ended;
        else if (s.rawStatus == u"canceling"_s)
            s.state = BatchStatus::State::Cancelling;
        return s;
    }
    // Gemini: an Operation ({name, metadata: batch, done, response: batch}) or the batch itself.
    QJsonObject batch = object;
    if (object.contains(u"metadata"_s) || object.contains(u"done"_s)) {
        // The batch is the operation's metadata; a finished one may carry it (or its output)
        // in `response` as well.
        batch = object.value(u"metadata"_s).toObject();
        const QJsonObject response = object.value(u"response"_s).toObject();
        for (auto it = response.begin(); it != response.end(); ++it)
            batch.insert(it.key(), it.value());
        if (!batch.contains(u"output"_s) && response.contains(u"inlinedResponses"_s))
            batch.insert(u"output"_s, response);
    }
    QString name = object.value(u"name"_s).toString();
    s.providerId = name.startsWith(u"batches/"_s) ? name.sliced(8) : name;
    s.rawStatus = batch.value(u"state"_s).toString();
    const QJsonObject stats = batch.value(u"batchStats"_s).toObject();
    s.total = stats.value(u"requestCount"_s).toVariant().toInt();
    s.succeeded = stats.value(u"successfulRequestCount"_s).toVariant().toInt();
    s.errored = stats.value(u"failedRequestCount"_s).toVariant().toInt();
    s.pending = stats.value(u"pendingRequestCount"_s).toVariant().toInt();
    s.raw = batch;
    if (s.rawStatus == u"BATCH_STATE_SUCCEEDED"_s || s.rawStatus == u"BATCH_STATE_CANCELLED"_s
        || s.rawStatus == u"BATCH_STATE_EXPIRED"_s || s.rawStatus == u"JOB_STATE_SUCCEEDED"_s)
        s.state = BatchStatus::State::Ended;
    else if (s.rawStatus == u"BATCH_STATE_FAILED"_s)
        s.state = BatchStatus::State::Failed;
    if (s.state == BatchStatus::State::Failed)
        s.message = object.value(u"error"_s).toObject().value(u"message"_s).toString();
    return s;
}

void ProviderBatchClient::poll(const QString &providerId,
                               std::function<void(const BatchStatus &, const ApiError &)> done)
{
    QString path;
    if (isOpenAi(m_config.type))
        path = u"batches/"_s + providerId;
    else if (m_config.type == EngineType::Anthropic)
        path = u"messages/batches/"_s + providerId;
    else
        path = u"batches/"_s + providerId;
    send(requestFor("GET", path), 0, [this, done](const Reply &reply) {
        if (!reply.ok) {
            done(BatchStatus(), reply.error);
            return;
        }
        done(parseStatus(objectOf(reply.body)),
             ApiError { ErrorCategory::None, reply.status, {}, {} });
    });
}

void ProviderBatchClient::cancel(const QString &providerId,
                                 std::function<void(const ApiError &)> done)
{
    QString path;
    if (isOpenAi(m_config.type))
        path = u"batches/"_s + providerId + u"/cancel"_s;
    else if (m_config.type == EngineType::Anthropic)
        path = u"messages/batches/"_s + providerId + u"/cancel"_s;
    else
        path = u"batches/"_s + providerId + u":cancel"_s;
    HttpRequestData request = requestFor("POST", path);
    request.body = QJsonObject();
    send(request, 0, [done](const Reply &reply) {
        done(reply.ok ? ApiError { ErrorCategory::None, reply.status, {}, {} } : reply.error);
    });
}

void ProviderBatchClient::findByTag(
    const QString &tag, std::function<void(bool, const QString &, const ApiError &)> done)
{
    if (!isOpenAi(m_config.type)) {
        QTimer::singleShot(0, this, [done] {
            done(false, QString(), ApiError { ErrorCategory::None, 0, {}, {} });
        });
        return;
    }
    send(requestFor("GET", u"batches"_s, u"limit=100"_s), 0, [tag, done](const Reply &reply) {
        if (!reply.ok) {
            done(true, QString(), reply.error);
            return;
        }
        QString found;
        for (const QJsonValue &b : objectOf(reply.body).value(u"data"_s).toArray()) {
            const QJsonObject batch = b.toObject();
            if (batch.value(u"metadata"_s).toObject().value(u"callscope_batch"_s).toString()
                == tag) {
                found = batch.value(u"id"_s).toString();
                break;
            }
        }
        done(true, found, ApiError { ErrorCategory::None, reply.status, {}, {} });
    });
}

// ---------------------------------------------------------------------------------------------
// Results

QList<BatchLineResult> ProviderBatchClient::parseOpenAiFile(const QByteArray &jsonl) const
{
    QList<BatchLineResult> out;
    forEachLine(jsonl, [&](const QJsonObject &line) {
        BatchLineResult r;
        r.customId = line.value(u"custom_id"_s).toString();
        if (r.customId.isEmpty())
            return;
        const QJsonObject response = line.value(u"response"_s).toObject();
        const QJsonObject error = line.value(u"error"_s).toObject();
        const int status = response.value(u"status_code"_s).toInt();
        const QByteArray body = compact(response.value(u"body"_s).toObject());
        if (!response.isEmpty() && status >= 200 && status < 300) {
            r.kind = BatchLineResult::Kind::Succeeded;
            r.body = body;
        } else if (error.value(u"code"_s).toString() == u"batch_expired"_s) {
            r.kind = BatchLineResult::Kind::Expired;
        } else if (error.value(u"code"_s).toString() == u"batch_cancelled"_s) {
            r.kind = BatchLineResult::Kind::Cancelled;
        } else {
            r.kind = BatchLineResult::Kind::Errored;
            if (status > 0) {
                r.error = m_codec->parseError(status, body);
                r.error.httpStatus = status;
                r.error.transient = r.error.transient || RetryPolicy::isRetryableStatus(status);
            } else {
                r.error = ApiError { ErrorCategory::Other, 0, error.value(u"code"_s).toString(),
                                     error.value(u"message"_s).toString(), true };
            }
        }
        out.append(r);
    });
    return out;
}

QList<BatchLineResult> ProviderBatchClient::parseAnthropicResults(const QByteArray &jsonl) const
{
    QList<BatchLineResult> out;
    forEachLine(jsonl, [&](const QJsonObject &line) {
        BatchLineResult r;
        r.customId = line.value(u"custom_id"_s).toString();
        if (r.customId.isEmpty())
            return;
        const QJsonObject result = line.value(u"result"_s).toObject();
        const QString type = result.value(u"type"_s).toString();
        if (type == u"succeeded"_s) {
            r.kind = BatchLineResult::Kind::Succeeded;
            r.body = compact(result.value(u"message"_s).toObject());
        } else if (type == u"expired"_s) {
            r.kind = BatchLineResult::Kind::Expired;
        } else if (type == u"canceled"_s) {
            r.kind = BatchLineResult::Kind::Cancelled;
        } else {
            r.kind = BatchLineResult::Kind::Errored;
            // {"type":"error","error":{"type","message"}}: the shape of a direct error body.
            const QJsonObject error = result.value(u"error"_s).toObject();
            const QString errorType =
                error.value(u"error"_s).toObject().value(u"type"_s).toString();
            int status = 0;
            if (errorType == u"invalid_request_error"_s)
                status = 400;
            else if (errorType == u"overloaded_error"_s)
                status = 529;
            else if (errorType == u"rate_limit_error"_s)
                status = 429;
            else
                status = 500;
            r.error = m_codec->parseError(status, compact(error));
            r.error.httpStatus = status;
            r.error.transient = RetryPolicy::isRetryableStatus(status);
        }
        out.append(r);
    });
    return out;
}

QList<BatchLineResult> ProviderBatchClient::parseGeminiResults(const QJsonObject &batch) const
{
    QList<BatchLineResult> out;
    const QJsonObject output = batch.value(u"output"_s).toObject();
    const QJsonArray responses =
        output.value(u"inlinedResponses"_s).toObject().value(u"inlinedResponses"_s).toArray();
    const bool expired = batch.value(u"state"_s).toString() == u"BATCH_STATE_EXPIRED"_s;
    for (const QJsonValue &v : responses) {
        const QJsonObject item = v.toObject();
        BatchLineResult r;
        r.customId = item.value(u"metadata"_s).toObject().value(u"key"_s).toString();
        if (item.contains(u"response"_s)) {
            r.kind = BatchLineResult::Kind::Succeeded;
            r.body = compact(item.value(u"response"_s).toObject());
        } else if (expired) {
            r.kind = BatchLineResult::Kind::Expired;
        } else {
            r.kind = BatchLineResult::Kind::Errored;
            const QJsonObject error = item.value(u"error"_s).toObject();
            const int code = error.value(u"code"_s).toInt();
            const int status = code >= 400 ? code : 500;
            r.error = m_codec->parseError(status, compact(QJsonObject { { u"error"_s, error } }));
            r.error.httpStatus = status;
            r.error.transient = RetryPolicy::isRetryableStatus(status);
        }
        out.append(r);
    }
    return out;
}

void ProviderBatchClient::fetchResults(
    const BatchStatus &status,
    std::function<void(const QList<BatchLineResult> &, const ApiError &)> done)
{
    const ApiError none { ErrorCategory::None, 0, {}, {} };
    if (m_config.type == EngineType::Gemini) {
        QList<BatchLineResult> results = parseGeminiResults(status.raw);
        QTimer::singleShot(0, this, [results, done, none] { done(results, none); });
        return;
    }
    if (m_config.type == EngineType::Anthropic) {
        HttpRequestData request =
            requestFor("GET", u"messages/batches/"_s + status.providerId + u"/results"_s);
        // The results URL the provider names, when it is on the engine's own origin (the key
        // never goes anywhere else).
        const QUrl named(status.outputRef);
        if (named.isValid() && !named.isRelative() && named.scheme() == request.url.scheme()
            && named.host() == request.url.host() && named.port() == request.url.port())
            request.url = named;
        send(request, 0, [this, done, none](const Reply &reply) {
            if (!reply.ok) {
                done({}, reply.error);
                return;
            }
            done(parseAnthropicResults(reply.body), none);
        });
        return;
    }
    // OpenAI: the output file, then the error file (either may be missing).
    auto results = std::make_shared<QList<BatchLineResult>>();
    const QString errorRef = status.errorRef;
    auto readErrors = [this, results, errorRef, done, none] {
        if (errorRef.isEmpty()) {
            done(*results, none);
            return;
        }
        send(requestFor("GET", u"files/"_s + errorRef + u"/content"_s), 0,
             [this, results, done, none](const Reply &reply) {
                 if (!reply.ok) {
                     done({}, reply.error);
                     return;
                 }
                 results->append(parseOpenAiFile(reply.body));
                 done(*results, none);
             });
    };
    if (status.outputRef.isEmpty()) {
        QTimer::singleShot(0, this, readErrors);
        return;
    }
    send(requestFor("GET", u"files/"_s + status.outputRef + u"/content"_s), 0,
         [this, results, readErrors, done](const Reply &reply) {
             if (!reply.ok) {
                 done({}, reply.error);
                 return;
             }
             results->append(parseOpenAiFile(reply.body));
             readErrors();
         });
}

} // namespace Callscope
