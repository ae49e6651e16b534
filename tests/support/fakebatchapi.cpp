#include "tests/support/fakebatchapi.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope::Test {

namespace {

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

FakeReply jsonReply(int status, const QJsonObject &o)
{
    return FakeReply::json(status, compact(o));
}

FakeReply notFound(const QString &what)
{
    return jsonReply(404,
                     QJsonObject { { u"error"_s,
                                     QJsonObject { { u"message"_s, QString(u"no such "_s + what) },
                                                   { u"type"_s, u"not_found_error"_s } } } });
}

// The parts of a multipart/form-data body: name -> content.
QHash<QString, QByteArray> multipartParts(const RecordedRequest &request)
{
    QHash<QString, QByteArray> parts;
    const QByteArray type = request.header("content-type");
    const qsizetype at = type.indexOf("boundary=");
    if (at < 0)
        return parts;
    const QByteArray boundary = "--" + type.mid(at + 9).trimmed();
    qsizetype pos = request.body.indexOf(boundary);
    while (pos >= 0) {
        const qsizetype start = pos + boundary.size();
        if (request.body.mid(start, 2) == "--")
            break;
        const qsizetype next = request.body.indexOf(boundary, start);
        if (next < 0)
            break;
        QByteArray part =
            request.body.mid(start + 2, next - start - 2); // skip CRLF after the boundary
        if (part.endsWith("\r\n"))
            part.chop(2);
        const qsizetype split = part.indexOf("\r\n\r\n");
        const QByteArray head = part.left(split);
        const QByteArray content = part.mid(split + 4);
        const QRegularExpressionMatch m =
            QRegularExpression(u"name=\"([^\"]+)\""_s).match(QString::fromUtf8(head));
        if (m.hasMatch())
            parts.insert(m.captured(1), content);
        pos = next;
    }
    return parts;
}

QJsonObject errorBody(const QString &message)
{
    return QJsonObject {
        { u"error"_s, QJsonObject { { u"message"_s, message }, { u"type"_s, u"server_error"_s } } }
    };
}

} // namespace

FakeBatchApi::FakeBatchApi(Model model)
    : m_model(std::move(model))
{ }

FakeProvider::Responder FakeBatchApi::responder()
{
    std::shared_ptr<FakeBatchApi> self = shared_from_this();
    return [self](const RecordedRequest &request) {
        return self->handle(request);
    };
}

bool FakeBatchApi::ended(const Batch &batch) const
{
    return batch.cancelled ? batch.polls > 1 : batch.clock.elapsed() >= processingMs;
}

FakeBatchApi::Batch *FakeBatchApi::find(const QString &id)
{
    for (Batch &b : batches) {
        if (b.id == id)
            return &b;
    }
    return nullptr;
}

FakeReply FakeBatchApi::handle(const RecordedRequest &request)
{
    const QString path = QString::fromUtf8(request.path);
    const QString method = QString::fromUtf8(request.method);
    m_base = QUrl(u"http://"_s + QString::fromUtf8(request.header("host")));

    if (method == u"POST"_s
        && (path == u"/v1/chat/completions"_s || path == u"/v1/responses"_s
            || path == u"/v1/messages"_s)) {
        ++directRequests;
        const auto [status, body] = m_model(path, request.jsonObject());
        return FakeReply::json(status, body);
    }
    static const QRegularExpression geminiModel(
        u"^/v1beta/models/([^/:]+):(generateContent|batchGenerateContent)$"_s);
    if (const QRegularExpressionMatch m = geminiModel.match(path);
        method == u"POST"_s && m.hasMatch()) {
        if (m.captured(2) == u"generateContent"_s) {
            ++directRequests;
            const auto [status, body] = m_model(u"gemini"_s, request.jsonObject());
            return FakeReply::json(status, body);
        }
        Batch batch;
        batch.number = int(batches.size()) + 1;
        batch.id = QString::number(1000 + batch.number);
        batch.provider = u"gemini"_s;
        batch.endpoint = m.captured(1);
        const QJsonObject inputConfig =
            request.jsonObject().value(u"batch"_s).toObject().value(u"inputConfig"_s).toObject();
        for (const QJsonValue &r :
             inputConfig.value(u"requests"_s).toObject().value(u"requests"_s).toArray()) {
            const QJsonObject entry = r.toObject();
            batch.lines.append({ entry.value(u"metadata"_s).toObject().value(u"key"_s).toString(),
                                 entry.value(u"request"_s).toObject() });
        }
        for (const auto &[id, lineBody] : std::as_const(batch.lines))
            batch.fates.insert(id, fate ? fate(id, lineBody, batch.number) : QString());
        batch.clock.start();
        batches.append(batch);
        return geminiOperation(batches.last());
    }
    static const QRegularExpression geminiBatch(u"^/v1beta/batches/([^/:]+)(:cancel)?$"_s);
    if (const QRegularExpressionMatch m = geminiBatch.match(path); m.hasMatch()) {
        Batch *batch = find(m.captured(1));
        if (!batch)
            return notFound(u"batch"_s);
        if (!m.captured(2).isEmpty()) {
            ++cancels;
            batch->cancelled = true;
            batch->polls = 0;
            return jsonReply(200, QJsonObject());
        }
        ++batch->polls;
        return geminiOperation(*batch);
    }

    // ---- OpenAI files and batches
    if (method == u"POST"_s && path == u"/v1/files"_s) {
        const QHash<QString, QByteArray> parts = multipartParts(request);
        if (parts.value(u"purpose"_s) != "batch" || !parts.contains(u"file"_s))
            return jsonReply(
                400,
                QJsonObject {
                    { u"error"_s,
                      QJsonObject { { u"message"_s, u"purpose batch and a file are required"_s },
                                    { u"type"_s, u"invalid_request_error"_s } } } });
        const QString id = u"file-"_s + QString::number(files.size() + 1);
        files.insert(id, parts.value(u"file"_s));
        uploads.append(parts.value(u"file"_s));
        return jsonReply(200,
                         QJsonObject { { u"id"_s, id },
                                       { u"object"_s, u"file"_s },
                                       { u"bytes"_s, parts.value(u"file"_s).size() },
                                       { u"created_at"_s, 1 },
                                       { u"filename"_s, u"batch.jsonl"_s },
                                       { u"purpose"_s, u"batch"_s } });
    }
    const bool creates = method == u"POST"_s
        && (path == u"/v1/batches"_s || path == u"/v1/messages/batches"_s
            || path.endsWith(u":batchGenerateContent"_s));
    const LostCreate lost =
        creates ? std::exchange(loseNextCreate, LostCreate::None) : LostCreate::None;
    if (creates && lost != LostCreate::Processed)
        ++createRequests;
    if (lost == LostCreate::Unprocessed) {
        if (path == u"/v1/batches"_s)
            createBodies.append(request.jsonObject());
        return FakeReply::stall();
    }
    if (lost == LostCreate::Processed) {
        RecordedRequest copy = request;
        handle(copy); // creates it
        return FakeReply::stall();
    }
    if (method == u"POST"_s && path == u"/v1/batches"_s) {
        const QJsonObject body = request.jsonObject();
        createBodies.append(body);
        const QString fileId = body.value(u"input_file_id"_s).toString();
        if (!files.contains(fileId))
            return notFound(u"file "_s + fileId);
        Batch batch;
        batch.number = int(batches.size()) + 1;
        batch.id = u"batch_"_s + QString::number(batch.number);
        batch.provider = u"openai"_s;
        batch.endpoint = body.value(u"endpoint"_s).toString();
        batch.metadata = body.value(u"metadata"_s).toObject();
        for (const QByteArray &line : files.value(fileId).split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject entry = QJsonDocument::fromJson(line).object();
            batch.lines.append(
                { entry.value(u"custom_id"_s).toString(), entry.value(u"body"_s).toObject() });
        }
        for (const auto &[id, lineBody] : std::as_const(batch.lines))
            batch.fates.insert(id, fate ? fate(id, lineBody, batch.number) : QString());
        batch.clock.start();
        batches.append(batch);
        FakeReply created = openAiBatchObject(batches.last());
        if (createAnswerDelayMs > 0)
            created.delayedBy(createAnswerDelayMs);
        return created;
    }
    if (method == u"GET"_s && path == u"/v1/batches"_s) {
        QJsonArray data;
        for (auto it = batches.rbegin(); it != batches.rend(); ++it) {
            if (it->provider == u"openai"_s)
                data.append(QJsonDocument::fromJson(openAiBatchObject(*it).body).object());
        }
        return jsonReply(200,
                         QJsonObject { { u"object"_s, u"list"_s },
                                       { u"data"_s, data },
                                       { u"has_more"_s, false } });
    }
    static const QRegularExpression openAiBatch(u"^/v1/batches/([^/]+)(/cancel)?$"_s);
    if (const QRegularExpressionMatch m = openAiBatch.match(path); m.hasMatch()) {
        Batch *batch = find(m.captured(1));
        if (!batch)
            return notFound(u"batch"_s);
        if (!m.captured(2).isEmpty()) {
            ++cancels;
            batch->cancelled = true;
            batch->polls = 0;
        } else {
            ++batch->polls;
        }
        return openAiBatchObject(*batch);
    }
    static const QRegularExpression fileContent(u"^/v1/files/([^/]+)/content$"_s);
    if (const QRegularExpressionMatch m = fileContent.match(path); m.hasMatch()) {
        if (!files.contains(m.captured(1)))
            return notFound(u"file"_s);
        return FakeReply::text(200, files.value(m.captured(1)), "application/octet-stream");
    }

    // ---- Anthropic message batches
    if (method == u"POST"_s && path == u"/v1/messages/batches"_s) {
        Batch batch;
        batch.number = int(batches.size()) + 1;
        batch.id = u"msgbatch_"_s + QString::number(batch.number);
        batch.provider = u"anthropic"_s;
        for (const QJsonValue &r : request.jsonObject().value(u"requests"_s).toArray()) {
            const QJsonObject entry = r.toObject();
            batch.lines.append(
                { entry.value(u"custom_id"_s).toString(), entry.value(u"params"_s).toObject() });
        }
        for (const auto &[id, lineBody] : std::as_const(batch.lines))
            batch.fates.insert(id, fate ? fate(id, lineBody, batch.number) : QString());
        batch.clock.start();
        batches.append(batch);
        return anthropicBatchObject(batches.last(), m_base);
    }
    static const QRegularExpression anthropicBatch(
        u"^/v1/messages/batches/([^/]+)(/cancel|/results)?$"_s);
    if (const QRegularExpressionMatch m = anthropicBatch.match(path); m.hasMatch()) {
        Batch *batch = find(m.captured(1));
        if (!batch)
            return notFound(u"batch"_s);
        if (m.captured(2) == u"/cancel"_s) {
            ++cancels;
            batch->cancelled = true;
            batch->polls = 0;
            return anthropicBatchObject(*batch, m_base);
        }
        if (m.captured(2) == u"/results"_s) {
            if (!ended(*batch))
                return notFound(u"results (the batch is still processing)"_s);
            QList<QByteArray> out;
            for (const auto &[id, body] : std::as_const(batch->lines)) {
                const QString fate = batch->cancelled ? u"canceled"_s : batch->fates.value(id);
                QJsonObject result;
                if (fate.isEmpty()) {
                    const auto [status, reply] = m_model(u"/v1/messages"_s, body);
                    Q_UNUSED(status)
                    result =
                        QJsonObject { { u"type"_s, u"succeeded"_s },
                                      { u"message"_s, QJsonDocument::fromJson(reply).object() } };
                } else if (fate == u"errored"_s) {
                    result = QJsonObject {
                        { u"type"_s, u"errored"_s },
                        { u"error"_s,
                          QJsonObject {
                              { u"type"_s, u"error"_s },
                              { u"error"_s,
                                QJsonObject { { u"type"_s, u"api_error"_s },
                                              { u"message"_s, u"Internal server error"_s } } } } }
                    };
                } else {
                    result = QJsonObject { { u"type"_s, fate } };
                }
                out.append(
                    compact(QJsonObject { { u"custom_id"_s, id }, { u"result"_s, result } }));
            }
            std::shuffle(out.begin(), out.end(),
                         *QRandomGenerator::global()); // results come in any order
            return FakeReply::text(200, out.join('\n') + '\n', "application/binary");
        }
        ++batch->polls;
        return anthropicBatchObject(*batch, m_base);
    }
    return jsonReply(
        404,
        QJsonObject {
            { u"error"_s,
              QJsonObject {
                  { u"message"_s, QString(u"FakeBatchApi: nothing at "_s + method + u' ' + path) },
                  { u"type"_s, u"not_found_error"_s } } } });
}

FakeReply FakeBatchApi::openAiBatchObject(Batch &batch)
{
    QString status = u"in_progress"_s;
    if (batch.cancelled)
        status = ended(batch) ? u"cancelled"_s : u"cancelling"_s;
    int completed = 0, failed = 0;
    if (ended(batch) && batch.outputFile.isEmpty() && batch.errorFile.isEmpty()) {
        // The output and error files are written once, results in any order.
        QList<QByteArray> output, errors;
        bool anyExpired = false;
        for (const auto &[id, body] : std::as_const(batch.lines)) {
            const QString fate = batch.cancelled ? u"cancelled"_s : batch.fates.value(id);
            if (fate.isEmpty()) {
                const auto [code, reply] = m_model(batch.endpoint, body);
                output.append(compact(QJsonObject {
                    { u"id"_s, QString(u"batch_req_"_s + id) },
                    { u"custom_id"_s, id },
                    { u"response"_s,
                      QJsonObject { { u"status_code"_s, code },
                                    { u"request_id"_s, QString(u"req_"_s + id) },
                                    { u"body"_s, QJsonDocument::fromJson(reply).object() } } },
                    { u"error"_s, QJsonValue() } }));
            } else if (fate == u"errored"_s) {
                errors.append(compact(QJsonObject {
                    { u"id"_s, QString(u"batch_req_"_s + id) },
                    { u"custom_id"_s, id },
                    { u"response"_s,
                      QJsonObject { { u"status_code"_s, 500 },
                                    { u"request_id"_s, QString(u"req_"_s + id) },
                                    { u"body"_s, errorBody(u"The server had an error"_s) } } },
                    { u"error"_s, QJsonValue() } }));
            } else {
                anyExpired |= fate == u"expired"_s;
                const QString code =
                    fate == u"expired"_s ? u"batch_expired"_s : u"batch_cancelled"_s;
                errors.append(compact(QJsonObject {
                    { u"id"_s, QString(u"batch_req_"_s + id) },
                    { u"custom_id"_s, id },
                    { u"response"_s, QJsonValue() },
                    { u"error"_s,
                      QJsonObject {
                          { u"code"_s, code },
                          { u"message"_s,
                            u"This request could not be executed before the completion window expired."_s } } } }));
            }
        }
        std::shuffle(output.begin(), output.end(), *QRandomGenerator::global());
        std::shuffle(errors.begin(), errors.end(), *QRandomGenerator::global());
        if (!output.isEmpty()) {
            batch.outputFile = u"file-out-"_s + batch.id;
            files.insert(batch.outputFile, output.join('\n') + '\n');
        }
        if (!errors.isEmpty()) {
            batch.errorFile = u"file-err-"_s + batch.id;
            files.insert(batch.errorFile, errors.join('\n') + '\n');
        }
        if (anyExpired)
            batch.metadata.insert(u"fake_expired"_s, true);
    }
    if (ended(batch)) {
        completed = int(files.value(batch.outputFile).count('\n'));
        failed = int(files.value(batch.errorFile).count('\n'));
        if (!batch.cancelled)
            status =
                batch.metadata.value(u"fake_expired"_s).toBool() ? u"expired"_s : u"completed"_s;
    }
    QJsonObject metadata = batch.metadata;
    metadata.remove(u"fake_expired"_s);
    const QJsonObject object {
        { u"id"_s, batch.id },
        { u"object"_s, u"batch"_s },
        { u"endpoint"_s, batch.endpoint },
        { u"errors"_s, QJsonValue() },
        { u"input_file_id"_s, u"file"_s },
        { u"completion_window"_s, u"24h"_s },
        { u"status"_s, status },
        { u"output_file_id"_s,
          batch.outputFile.isEmpty() ? QJsonValue() : QJsonValue(batch.outputFile) },
        { u"error_file_id"_s,
          batch.errorFile.isEmpty() ? QJsonValue() : QJsonValue(batch.errorFile) },
        { u"created_at"_s, 1711471533 },
        { u"request_counts"_s,
          QJsonObject { { u"total"_s, int(batch.lines.size()) },
                        { u"completed"_s, completed },
                        { u"failed"_s, failed } } },
        { u"metadata"_s, metadata.isEmpty() ? QJsonValue() : QJsonValue(metadata) }
    };
    return jsonReply(200, object);
}

FakeReply FakeBatchApi::anthropicBatchObject(Batch &batch, const QUrl &base)
{
    const bool done = ended(batch);
    const QString status = done ? u"ended"_s : batch.cancelled ? u"canceling"_s : u"in_progress"_s;
    int succeeded = 0, errored = 0, expired = 0, canceled = 0;
    if (done) {
        for (const auto &[id, body] : std::as_const(batch.lines)) {
            const QString fate = batch.cancelled ? u"canceled"_s : batch.fates.value(id);
            succeeded += fate.isEmpty();
            errored += fate == u"errored"_s;
            expired += fate == u"expired"_s;
            canceled += fate == u"canceled"_s;
        }
    }
    QUrl results = base;
    results.setPath(u"/v1/messages/batches/"_s + batch.id + u"/results"_s);
    const QJsonObject object {
        { u"id"_s, batch.id },
        { u"type"_s, u"message_batch"_s },
        { u"processing_status"_s, status },
        { u"request_counts"_s,
          QJsonObject { { u"processing"_s, done ? 0 : int(batch.lines.size()) },
                        { u"succeeded"_s, succeeded },
                        { u"errored"_s, errored },
                        { u"canceled"_s, canceled },
                        { u"expired"_s, expired } } },
        { u"ended_at"_s, done ? QJsonValue(u"2026-12-01T12:00:00Z"_s) : QJsonValue() },
        { u"created_at"_s, u"2026-12-01T11:00:00Z"_s },
        { u"expires_at"_s, u"2026-12-02T11:00:00Z"_s },
        { u"results_url"_s, done ? QJsonValue(results.toString()) : QJsonValue() }
    };
    return jsonReply(200, object);
}

FakeReply FakeBatchApi::geminiOperation(Batch &batch)
{
    const bool done = ended(batch);
    QString state = done
        ? (batch.cancelled ? u"BATCH_STATE_CANCELLED"_s : u"BATCH_STATE_SUCCEEDED"_s)
        : u"BATCH_STATE_RUNNING"_s;
    QJsonObject metadata {
        { u"@type"_s,
          u"type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch"_s },
        { u"name"_s, QString(u"batches/"_s + batch.id) },
        { u"model"_s, QString(u"models/"_s + batch.endpoint) },
        { u"state"_s, state }
    };
    int succeeded = 0, failed = 0;
    if (done) {
        QJsonArray responses;
        for (const auto &[id, body] : std::as_const(batch.lines)) {
            const QString fate = batch.cancelled ? u"canceled"_s : batch.fates.value(id);
            QJsonObject item { { u"metadata"_s, QJsonObject { { u"key"_s, id } } } };
            if (fate.isEmpty()) {
                const auto [status, reply] = m_model(u"gemini"_s, body);
                Q_UNUSED(status)
                item.insert(u"response"_s, QJsonDocument::fromJson(reply).object());
                ++succeeded;
            } else {
                item.insert(u"error"_s,
                            QJsonObject { { u"code"_s, fate == u"errored"_s ? 500 : 504 },
                                          { u"message"_s, u"Internal error"_s },
                                          { u"status"_s, u"INTERNAL"_s } });
                ++failed;
            }
            responses.append(item);
        }
        metadata.insert(u"output"_s,
                        QJsonObject { { u"inlinedResponses"_s,
                                        QJsonObject { { u"inlinedResponses"_s, responses } } } });
    }
    metadata.insert(u"batchStats"_s,
                    QJsonObject { { u"requestCount"_s, QString::number(batch.lines.size()) },
                                  { u"successfulRequestCount"_s, QString::number(succeeded) },
                                  { u"failedRequestCount"_s, QString::number(failed) },
                                  { u"pendingRequestCount"_s,
                                    QString::number(done ? 0 : batch.lines.size()) } });
    return jsonReply(200,
                     QJsonObject { { u"name"_s, QString(u"batches/"_s + batch.id) },
                                   { u"metadata"_s, metadata },
                                   { u"done"_s, done } });
}

FakeBatchApi::Model twoTurnBatchModel()
{
    return [](const QString &endpoint, const QJsonObject &body) -> std::pair<int, QByteArray> {
        const bool anthropic = endpoint == u"/v1/messages"_s;
        QString input;
        bool hasResult = false;
        if (endpoint == u"/v1/responses"_s) {
            for (const QJsonValue &i : body.value(u"input"_s).toArray()) {
                const QJsonObject item = i.toObject();
                hasResult |= item.value(u"type"_s).toString() == u"function_call_output"_s;
                if (input.isEmpty() && item.value(u"role"_s).toString() == u"user"_s) {
                    const QJsonValue content = item.value(u"content"_s);
                    if (content.isString())
                        input = content.toString();
                    for (const QJsonValue &p : content.toArray())
                        input += p.toObject().value(u"text"_s).toString();
                }
            }
            const QJsonObject args = hasResult
                ? QJsonObject { { u"title"_s, input.contains(u"pass"_s) ? u"ok"_s : u"bad"_s } }
                : QJsonObject { { u"id"_s, 7 } };
            const QJsonObject call { { u"type"_s, u"function_call"_s },
                                     { u"id"_s, u"fc_1"_s },
                                     { u"call_id"_s, hasResult ? u"call_2"_s : u"call_1"_s },
                                     { u"name"_s,
                                       hasResult ? u"submit_output"_s : u"get_ticket"_s },
                                     { u"arguments"_s, QString::fromUtf8(compact(args)) },
                                     { u"status"_s, u"completed"_s } };
            const QJsonObject reply { { u"id"_s, u"resp_fake"_s },
                                      { u"object"_s, u"response"_s },
                                      { u"status"_s, u"completed"_s },
                                      { u"model"_s, body.value(u"model"_s) },
                                      { u"output"_s, QJsonArray { call } },
                                      { u"usage"_s,
                                        QJsonObject { { u"input_tokens"_s, 120 },
                                                      { u"output_tokens"_s, 20 },
                                                      { u"total_tokens"_s, 140 } } } };
            return { 200, compact(reply) };
        }
        if (endpoint == u"gemini"_s) {
            for (const QJsonValue &c : body.value(u"contents"_s).toArray()) {
                for (const QJsonValue &p : c.toObject().value(u"parts"_s).toArray()) {
                    const QJsonObject part = p.toObject();
                    hasResult |= part.contains(u"functionResponse"_s);
                    if (input.isEmpty() && c.toObject().value(u"role"_s).toString() == u"user"_s)
                        input = part.value(u"text"_s).toString();
                }
            }
            const QJsonObject call {
                { u"name"_s, hasResult ? u"submit_output"_s : u"get_ticket"_s },
                { u"args"_s,
                  hasResult ? QJsonObject { { u"title"_s,
                                              input.contains(u"pass"_s) ? u"ok"_s : u"bad"_s } }
                            : QJsonObject { { u"id"_s, 7 } } }
            };
            const QJsonObject reply {
                { u"candidates"_s,
                  QJsonArray { QJsonObject {
                      { u"content"_s,
                        QJsonObject {
                            { u"role"_s, u"model"_s },
                            { u"parts"_s,
                              QJsonArray { QJsonObject { { u"functionCall"_s, call } } } } } },
                      { u"finishReason"_s, u"STOP"_s },
                      { u"index"_s, 0 } } } },
                { u"usageMetadata"_s,
                  QJsonObject { { u"promptTokenCount"_s, 120 },
                                { u"candidatesTokenCount"_s, 20 },
                                { u"totalTokenCount"_s, 140 } } },
                { u"modelVersion"_s, u"fake"_s }
            };
            return { 200, compact(reply) };
        }
        for (const QJsonValue &m : body.value(u"messages"_s).toArray()) {
            const QJsonObject message = m.toObject();
            const QString role = message.value(u"role"_s).toString();
            if (role == u"tool"_s)
                hasResult = true;
            const QJsonValue content = message.value(u"content"_s);
            if (content.isArray()) {
                for (const QJsonValue &b : content.toArray()) {
                    const QJsonObject block = b.toObject();
                    if (block.value(u"type"_s).toString() == u"tool_result"_s)
                        hasResult = true;
                    if (role == u"user"_s && input.isEmpty()
                        && block.value(u"type"_s).toString() == u"text"_s)
                        input = block.value(u"text"_s).toString();
                }
            } else if (role == u"user"_s && input.isEmpty()) {
                input = content.toString();
            }
        }
        const QString tool = hasResult ? u"submit_output"_s : u"get_ticket"_s;
        const QJsonObject args = hasResult
            ? QJsonObject { { u"title"_s, input.contains(u"pass"_s) ? u"ok"_s : u"bad"_s } }
            : QJsonObject { { u"id"_s, 7 } };
        if (anthropic) {
            const QJsonObject reply {
                { u"id"_s, u"msg_fake"_s },
                { u"type"_s, u"message"_s },
                { u"role"_s, u"assistant"_s },
                { u"model"_s, body.value(u"model"_s) },
                { u"content"_s,
                  QJsonArray { QJsonObject { { u"type"_s, u"tool_use"_s },
                                             { u"id"_s, hasResult ? u"toolu_2"_s : u"toolu_1"_s },
                                             { u"name"_s, tool },
                                             { u"input"_s, args } } } },
                { u"stop_reason"_s, u"tool_use"_s },
                { u"stop_sequence"_s, QJsonValue() },
                { u"usage"_s,
                  QJsonObject { { u"input_tokens"_s, 120 }, { u"output_tokens"_s, 20 } } }
            };
            return { 200, compact(reply) };
        }
        return { 200, openAiToolCallBody(hasResult ? u"call_2"_s : u"call_1"_s, tool, args) };
    };
}

} // namespace Callscope::Test
