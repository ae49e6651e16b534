#include "core/telemetry/genaispans.h"

#include "core/loop/edits.h"
#include "core/loop/runner.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope::Telemetry {

QString captureLevelName(CaptureLevel level)
{
    switch (level) {
    case CaptureLevel::None:
        return u"none"_s;
    case CaptureLevel::Metadata:
        return u"metadata"_s;
    case CaptureLevel::Full:
        return u"full"_s;
    }
    return u"none"_s;
}

std::optional<CaptureLevel> captureLevelFromName(QStringView name)
{
    for (CaptureLevel level : { CaptureLevel::None, CaptureLevel::Metadata, CaptureLevel::Full }) {
        if (name.compare(captureLevelName(level), Qt::CaseInsensitive) == 0)
            return level;
    }
    return std::nullopt;
}

QString providerName(const QString &engineType)
{
    if (engineType.startsWith(u"openai"))
        return u"openai"_s;
    if (engineType == u"anthropic")
        return u"anthropic"_s;
    if (engineType == u"gemini")
        return u"gcp.gemini"_s;
    return engineType.isEmpty() ? u"_OTHER"_s : u"callscope."_s + engineType;
}

namespace {

QString callKey(const CallRecord &record)
{
    return u"call:"_s + QString::number(record.id) + u':'
        + QString::number(record.createdAt.toMSecsSinceEpoch());
}

QString experimentIdOf(const CallRecord &record)
{
    const QJsonValue id = record.metadata.value(u"experiment_id"_s);
    if (id.isDouble())
        return QString::number(id.toInteger());
    return id.toString();
}

QString compact(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.toString();
}

QString finishReasonText(FinishReason reason, const QString &raw)
{
    if (!raw.isEmpty())
        return raw;
    switch (reason) {
    case FinishReason::Stop:
        return u"stop"_s;
    case FinishReason::Length:
        return u"length"_s;
    case FinishReason::ToolCalls:
        return u"tool_call"_s;
    case FinishReason::Refusal:
        return u"content_filter"_s;
    case FinishReason::Pause:
    case FinishReason::Other:
        break;
    }
    return finishReasonName(reason);
}

// The conventions' message parts of one neutral message.
QJsonObject messageJson(const Message &message, const QString &finishReason = {})
{
    QJsonArray parts;
    if (!message.text.isEmpty())
        parts.append(QJsonObject { { u"type"_s, u"text"_s }, { u"content"_s, message.text } });
    if (!message.refusal.isEmpty())
        parts.append(QJsonObject { { u"type"_s, u"text"_s }, { u"content"_s, message.refusal } });
    for (const Attachment &attachment : message.attachments)
        parts.append(QJsonObject { { u"type"_s, u"blob"_s },
                                   { u"mime_type"_s, attachment.mediaType },
                                   { u"modality"_s, attachment.isImage() ? u"image"_s : u"file"_s },
                                   { u"content"_s, QString() } });
    for (const ToolCall &call : message.toolCalls)
        parts.append(QJsonObject { { u"type"_s, u"tool_call"_s },
                                   { u"id"_s, call.id },
                                   { u"name"_s, call.name },
                                   { u"arguments"_s, call.arguments } });
    for (const ToolResult &result : message.toolResults)
        parts.append(QJsonObject { { u"type"_s, u"tool_call_response"_s },
                                   { u"id"_s, result.callId },
                                   { u"response"_s, result.content } });
    QString role = roleName(message.role);
    QJsonObject out { { u"role"_s, role }, { u"parts"_s, parts } };
    if (message.role == Role::Assistant)
        out.insert(u"finish_reason"_s, finishReason.isEmpty() ? u"stop"_s : finishReason);
    return out;
}

struct TurnTimes
{
    qint64 start = 0;
    qint64 end = 0;
    QList<const AttemptRecord *> attempts;
};

// The response id and model a provider's reply body names (whole JSON or an SSE stream).
std::pair<QString, QString> responseIdentity(const QByteArray &body)
{
    auto fromObject = [](const QJsonObject &object) -> std::pair<QString, QString> {
        QJsonObject o = object;
        if (o.value(u"response"_s).isObject()) // Responses API stream events
            o = o.value(u"response"_s).toObject();
        if (o.value(u"message"_s).isObject()) // Anthropic message_start
            o = o.value(u"message"_s).toObject();
        QString id = o.value(u"id"_s).toString();
        if (id.isEmpty())
            id = o.value(u"responseId"_s).toString();
        QString model = o.value(u"model"_s).toString();
        if (model.isEmpty())
            model = o.value(u"modelVersion"_s).toString();
        return { id, model };
    };
    const QJsonDocument whole = QJsonDocument::fromJson(body);
    if (whole.isObject())
        return fromObject(whole.object());
    std::pair<QString, QString> found;
    for (const QByteArray &line : body.split('\n')) {
        if (!line.startsWith("data:"))
            continue;
        const QJsonDocument event = QJsonDocument::fromJson(line.mid(5).trimmed());
        if (!event.isObject())
            continue;
        const auto [id, model] = fromObject(event.object());
        if (found.first.isEmpty())
            found.first = id;
        if (found.second.isEmpty())
            found.second = model;
        if (!found.first.isEmpty() && !found.second.isEmpty())
            break;
    }
    return found;
}

void setUsage(Span &span, const Usage &usage)
{
    span.set(u"gen_ai.usage.input_tokens"_s, usage.promptTokens());
    span.set(u"gen_ai.usage.output_tokens"_s, usage.outputTokens);
    span.set(u"gen_ai.usage.cache_read.input_tokens"_s, usage.cacheReadTokens);
    span.set(u"gen_ai.usage.cache_creation.input_tokens"_s, usage.cacheWriteTokens);
    span.set(u"gen_ai.usage.reasoning.output_tokens"_s, usage.reasoningTokens);
}

QString errorTypeOf(const CallRecord &record)
{
    const QString category = errorCategoryName(record.errorCategory);
    if (!category.isEmpty())
        return category;
    return record.status == CallStatus::Failed ? u"_OTHER"_s : QString();
}

QString toolType(const QJsonObject &spec, const QString &name)
{
    for (const QJsonValue &tool : spec.value(u"tools"_s).toArray()) {
        if (tool.toObject().value(u"name"_s).toString() == name)
            return u"function"_s;
    }
    return spec.value(u"mcp_servers"_s).toArray().isEmpty() ? u"function"_s : u"extension"_s;
}

} // namespace

TraceRef callTraceRef(const CallRecord &record)
{
    const QString experiment = experimentIdOf(record);
    const QString key = callKey(record);
    return { experiment.isEmpty() ? traceIdFor(key) : experimentTraceRef(experiment).traceId,
             spanIdFor(key + u"/agent"_s) };
}

QString traceViewerTemplateProblem(const QString &urlTemplate)
{
    struct Tr
    {
        Q_DECLARE_TR_FUNCTIONS(TraceViewer)
    };
    const QString text = urlTemplate.trimmed();
    if (text.isEmpty())
        return {};
    if (!text.contains(u"{trace_id}"_s))
        return Tr::tr("The trace link needs {trace_id} where the trace's id goes.");
    const QUrl url(QString(text).replace(u"{trace_id}"_s, u"0"_s).replace(u"{span_id}"_s, u"0"_s),
                   QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != u"http"_s && url.scheme() != u"https"_s)
        || url.host().isEmpty())
        return Tr::tr("The trace link must be an http or https address, for example "
                      "http://localhost:16686/trace/{trace_id}.");
    return {};
}

QUrl traceViewerUrl(const QString &urlTemplate, const TraceRef &ref)
{
    if (urlTemplate.trimmed().isEmpty() || !traceViewerTemplateProblem(urlTemplate).isEmpty()
        || ref.traceId.isEmpty())
        return {};
    QString text = urlTemplate.trimmed();
    text.replace(u"{trace_id}"_s, QString::fromLatin1(ref.traceId.toHex()));
    text.replace(u"{span_id}"_s, QString::fromLatin1(ref.spanId.toHex()));
    return QUrl(text, QUrl::StrictMode);
}

TraceRef experimentTraceRef(const QString &experimentId)
{
    const QString key = u"experiment:"_s + experimentId;
    return { traceIdFor(key), spanIdFor(key) };
}

QList<Span> callSpans(const CallRecord &record, const SpanOptions &options,
                      const std::optional<TraceRef> &revisionOf)
{
    const TraceRef ref = callTraceRef(record);
    const QString key = callKey(record);
    const QString experiment = experimentIdOf(record);
    const qint64 callStart = unixNano(record.createdAt);
    const qint64 callEnd = std::max(callStart, unixNano(record.finishedAt));
    const QString provider = providerName(record.engineType);
    const QJsonObject engine = record.spec.value(u"engine"_s).toObject();
    const bool full = options.capture == CaptureLevel::Full;
    const bool metadata = options.capture != CaptureLevel::None;
    const QString conversation =
        record.session ? u"callscope-session-"_s + QString::number(*record.session) : QString();
    const QJsonArray approvals = record.metadata.value(u"approvals"_s).toArray();

    auto common = [&](Span &span, const QString &operation) {
        span.set(u"gen_ai.operation.name"_s, operation);
        span.set(u"gen_ai.provider.name"_s, provider);
        if (!options.latestExperimental)
            span.set(u"gen_ai.system"_s, provider);
        span.set(u"gen_ai.conversation.id"_s, conversation);
    };

    QList<Span> spans;

    // The whole loop.
    Span agent;
    agent.traceId = ref.traceId;
    agent.spanId = ref.spanId;
    if (!experiment.isEmpty())
        agent.parentSpanId = experimentTraceRef(experiment).spanId;
    agent.name = u"invoke_agent "_s + record.kind;
    agent.kind = SpanKind::Internal;
    agent.startUnixNano = callStart;
    agent.endUnixNano = callEnd;
    common(agent, u"invoke_agent"_s);
    agent.set(u"gen_ai.agent.name"_s, record.kind);
    agent.set(u"gen_ai.request.model"_s, record.model);
    agent.set(u"gen_ai.output.type"_s,
              record.spec.contains(u"response_schema"_s) ? u"json"_s : u"text"_s);
    setUsage(agent, record.usage);
    if (options.cost) {
        if (const auto usd = options.cost(record, record.usage))
            agent.set(u"callscope.cost.usd"_s, *usd);
    }
    if (record.id > 0)
        agent.set(u"callscope.call.id"_s, record.id);
    agent.set(u"callscope.call.status"_s, callStatusName(record.status));
    agent.set(u"callscope.turns"_s, qint64(record.turns.size()));
    agent.set(u"callscope.attempts"_s, qint64(record.attempts.size()));
    if (record.parent)
        agent.set(u"callscope.call.parent_id"_s, *record.parent);
    if (!experiment.isEmpty()) {
        agent.set(u"callscope.experiment.id"_s, experiment);
        agent.set(u"callscope.experiment.case"_s,
                  record.metadata.value(u"case"_s).toVariant().toString());
        agent.set(u"callscope.experiment.variant"_s,
                  record.metadata.value(u"variant"_s).toString());
        agent.set(u"callscope.experiment.repeat"_s, record.metadata.value(u"repeat"_s).toInteger());
    }
    if (revisionOf)
        agent.links.append({ revisionOf->traceId,
                             revisionOf->spanId,
                             { { u"callscope.link"_s, u"revision_of"_s } } });
    const QString errorType = errorTypeOf(record);
    if (!errorType.isEmpty()) {
        agent.set(u"error.type"_s, errorType);
        agent.status = StatusCode::Error;
        agent.statusMessage = record.error;
    }
    QStringList toolNames;
    for (const QJsonValue &tool : record.spec.value(u"tools"_s).toArray())
        toolNames.append(tool.toObject().value(u"name"_s).toString());
    if (metadata) {
        agent.set(u"callscope.tools"_s, toolNames);
        agent.set(u"callscope.input.bytes"_s,
                  qint64(record.input.value(u"text"_s).toString().toUtf8().size()));
        agent.set(u"callscope.output.bytes"_s, qint64(compact(record.response).toUtf8().size()));
        agent.set(u"callscope.response_schema.title"_s,
                  record.spec.value(u"response_schema"_s).toObject().value(u"title"_s).toString());
    }
    spans.append(agent);

    // Turn times from the attempts of each turn.
    QList<TurnTimes> times(record.turns.size());
    for (const AttemptRecord &attempt : record.attempts) {
        if (attempt.turn < 0 || attempt.turn >= times.size())
            continue;
        TurnTimes &t = times[attempt.turn];
        const qint64 start = unixNano(attempt.startedAt);
        const qint64 end = start + attempt.durationMs * 1000000;
        if (t.attempts.isEmpty() || start < t.start)
            t.start = start;
        t.end = std::max(t.end, end);
        t.attempts.append(&attempt);
    }
    for (qsizetype i = 0; i < times.size(); ++i) {
        if (times[i].start == 0)
            times[i].start = i > 0 ? times[i - 1].end : callStart;
        times[i].end = std::clamp(times[i].end, times[i].start, std::max(times[i].start, callEnd));
    }

    // The conversation, split at each assistant message (one per turn).
    const QList<Message> messages = messagesFromJson(record.messages);
    QList<qsizetype> assistantAt;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        if (messages.at(i).role == Role::Assistant)
            assistantAt.append(i);
    }

    QJsonArray toolDefinitions;
    for (const QJsonValue &value : record.spec.value(u"tools"_s).toArray()) {
        const QJsonObject tool = value.toObject();
        toolDefinitions.append(QJsonObject { { u"type"_s, u"function"_s },
                                             { u"name"_s, tool.value(u"name"_s) },
                                             { u"description"_s, tool.value(u"description"_s) },
                                             { u"parameters"_s, tool.value(u"input_schema"_s) } });
    }

    for (qsizetype turn = 0; turn < record.turns.size(); ++turn) {
        const TurnRecord &turnRecord = record.turns.at(turn);
        Span chat;
        chat.traceId = ref.traceId;
        chat.spanId = spanIdFor(key + u"/chat/"_s + QString::number(turn));
        chat.parentSpanId = ref.spanId;
        chat.name = u"chat "_s + record.model;
        chat.kind = SpanKind::Client;
        chat.startUnixNano = times[turn].start;
        chat.endUnixNano = times[turn].end;
        common(chat, u"chat"_s);
        chat.set(u"gen_ai.request.model"_s, record.model);
        if (engine.contains(u"max_tokens"_s))
            chat.set(u"gen_ai.request.max_tokens"_s, engine.value(u"max_tokens"_s).toInteger());
        if (engine.contains(u"temperature"_s))
            chat.set(u"gen_ai.request.temperature"_s, engine.value(u"temperature"_s).toDouble());
        if (engine.contains(u"top_p"_s))
            chat.set(u"gen_ai.request.top_p"_s, engine.value(u"top_p"_s).toDouble());
        if (engine.contains(u"seed"_s))
            chat.set(u"gen_ai.request.seed"_s, engine.value(u"seed"_s).toInteger());
        chat.set(u"gen_ai.output.type"_s,
                 record.spec.contains(u"response_schema"_s) ? u"json"_s : u"text"_s);
        const QString finish =
            finishReasonText(turnRecord.finishReason, turnRecord.rawFinishReason);
        chat.set(u"gen_ai.response.finish_reasons"_s, QStringList { finish });
        setUsage(chat, turnRecord.usage);
        if (options.cost) {
            if (const auto usd = options.cost(record, turnRecord.usage))
                chat.set(u"callscope.cost.usd"_s, *usd);
        }
        for (const TurnExchange &exchange : record.exchanges) {
            if (exchange.turn != turn)
                continue;
            const auto [id, model] = responseIdentity(exchange.response);
            chat.set(u"gen_ai.response.id"_s, id);
            chat.set(u"gen_ai.response.model"_s, model);
        }
        chat.set(u"callscope.attempts"_s, qint64(times[turn].attempts.size()));
        if (!turnRecord.note.isEmpty())
            chat.set(u"callscope.turn.note"_s, turnRecord.note);
        for (const AttemptRecord *attempt : times[turn].attempts) {
            if (attempt->outcome == u"ok")
                continue;
            SpanEvent event;
            event.name = attempt->outcome == u"reask" ? u"callscope.reask"_s : u"callscope.retry"_s;
            event.timeUnixNano = unixNano(attempt->startedAt) + attempt->durationMs * 1000000;
            setAttribute(event.attributes, u"callscope.attempt.index"_s, qint64(attempt->index));
            setAttribute(event.attributes, u"callscope.attempt.outcome"_s, attempt->outcome);
            if (attempt->httpStatus > 0)
                setAttribute(event.attributes, u"http.response.status_code"_s,
                             qint64(attempt->httpStatus));
            setAttribute(event.attributes, u"callscope.retry.delay_ms"_s, attempt->delayMs);
            chat.events.append(event);
        }
        const bool lastTurn = turn == record.turns.size() - 1;
        if (lastTurn && !errorType.isEmpty()) {
            chat.set(u"error.type"_s, errorType);
            chat.status = StatusCode::Error;
            chat.statusMessage = record.error;
        }
        const qsizetype at = turn < assistantAt.size() ? assistantAt.at(turn) : -1;
        if (full) {
            QJsonArray system;
            if (!record.systemPrompt.isEmpty())
                system.append(QJsonObject { { u"type"_s, u"text"_s },
                                            { u"content"_s, record.systemPrompt } });
            chat.set(u"gen_ai.system_instructions"_s,
                     system.isEmpty() ? QString() : compact(system));
            QJsonArray input;
            const qsizetype inputEnd = at >= 0 ? at : messages.size();
            for (qsizetype i = 0; i < inputEnd; ++i) {
                if (messages.at(i).role != Role::System)
                    input.append(messageJson(messages.at(i)));
            }
            chat.set(u"gen_ai.input.messages"_s, compact(input));
            if (at >= 0)
                chat.set(u"gen_ai.output.messages"_s,
                         compact(QJsonArray { messageJson(messages.at(at), finish) }));
            if (!toolDefinitions.isEmpty())
                chat.set(u"gen_ai.tool.definitions"_s, compact(toolDefinitions));
        }
        spans.append(chat);

        // The tools this turn asked for that ran (their results are in the next message).
        if (at < 0 || at + 1 >= messages.size() || messages.at(at + 1).role != Role::Tool)
            continue;
        const Message &asked = messages.at(at);
        const qint64 toolStart = chat.endUnixNano;
        const qint64 toolEnd = turn + 1 < times.size() ? std::max(toolStart, times[turn + 1].start)
                                                       : std::max(toolStart, callEnd);
        for (const ToolResult &result : messages.at(at + 1).toolResults) {
            const ToolCall *call = nullptr;
            for (const ToolCall &candidate : asked.toolCalls) {
                if (candidate.id == result.callId)
                    call = &candidate;
            }
            if (!call || call->name == Runner::submitToolName())
                continue; // the answer (or a correction of it), not a tool that ran
            Span tool;
            tool.traceId = ref.traceId;
            tool.spanId = spanIdFor(key + u"/tool/"_s + QString::number(turn) + u'/' + call->id);
            tool.parentSpanId = chat.spanId; // the turn that asked for it
            tool.name = u"execute_tool "_s + call->name;
            tool.kind = SpanKind::Internal;
            tool.startUnixNano = toolStart;
            tool.endUnixNano = toolEnd;
            common(tool, u"execute_tool"_s);
            tool.set(u"gen_ai.tool.name"_s, call->name);
            tool.set(u"gen_ai.tool.call.id"_s, call->id);
            tool.set(u"gen_ai.tool.type"_s, toolType(record.spec, call->name));
            if (result.isError) {
                tool.set(u"error.type"_s, u"tool_error"_s);
                tool.status = StatusCode::Error;
            }
            // How the person settled a tool that needs approval: who, after how long, and
            // (from the metadata level on) which argument names they changed.
            for (const QJsonValue &value : approvals) {
                const QJsonObject approval = value.toObject();
                if (approval.value(u"call_id"_s).toString() != call->id)
                    continue;
                SpanEvent event;
                event.name = u"callscope.tool.approval"_s;
                event.timeUnixNano = toolStart;
                setAttribute(event.attributes, u"callscope.approval.decision"_s,
                             approval.value(u"decision"_s).toString());
                if (approval.contains(u"waited_ms"_s))
                    setAttribute(event.attributes, u"callscope.approval.waited_ms"_s,
                                 approval.value(u"waited_ms"_s).toInteger());
                if (!record.person.isEmpty())
                    setAttribute(event.attributes, u"callscope.approval.by"_s, record.person);
                const QJsonArray edited = approval.value(u"edited_arguments"_s).toArray();
                setAttribute(event.attributes, u"callscope.approval.edited_argument_count"_s,
                             qint64(edited.size()));
                if (metadata && !edited.isEmpty()) {
                    QStringList names;
                    for (const QJsonValue &name : edited)
                        names.append(name.toString());
                    setAttribute(event.attributes, u"callscope.approval.edited_arguments"_s,
                                 names.join(u","_s));
                }
                tool.events.append(event);
            }
            if (argumentsEdited(*call))
                tool.events.append({ u"callscope.tool.arguments_edited"_s, toolStart, {} });
            if (resultEdited(result))
                tool.events.append({ u"callscope.tool.result_edited"_s, toolEnd, {} });
            if (metadata) {
                tool.set(u"callscope.tool.arguments.bytes"_s,
                         qint64(compact(call->arguments).toUtf8().size()));
                tool.set(u"callscope.tool.result.bytes"_s, qint64(result.content.toUtf8().size()));
            }
            if (full) {
                tool.set(u"gen_ai.tool.call.arguments"_s, compact(call->arguments));
                tool.set(u"gen_ai.tool.call.result"_s, result.content);
            }
            spans.append(tool);
        }
    }
    return spans;
}

Span experimentSpan(const ExperimentSpanInput &input)
{
    const TraceRef ref = experimentTraceRef(input.experimentId);
    Span span;
    span.traceId = ref.traceId;
    span.spanId = ref.spanId;
    span.name = u"experiment "_s + input.name;
    span.kind = SpanKind::Internal;
    span.startUnixNano = unixNano(input.startedAt);
    span.endUnixNano = std::max(span.startUnixNano, unixNano(input.finishedAt));
    span.set(u"callscope.experiment.id"_s, input.experimentId);
    span.set(u"callscope.experiment.name"_s, input.name);
    span.set(u"callscope.experiment.runs"_s, qint64(input.runs));
    span.set(u"callscope.experiment.failed"_s, qint64(input.failed));
    if (input.failed > 0)
        span.status = StatusCode::Error;
    return span;
}

Span batchRoundSpan(const BatchRoundSpanInput &input)
{
    const TraceRef experiment = experimentTraceRef(input.experimentId);
    Span span;
    span.traceId = experiment.traceId;
    span.parentSpanId = experiment.spanId;
    span.spanId = spanIdFor(u"experiment:"_s + input.experimentId + u"/batch/"_s + input.engine
                            + u'/' + QString::number(input.round));
    span.name = u"provider_batch round "_s + QString::number(input.round);
    span.kind = SpanKind::Client;
    span.startUnixNano = unixNano(input.createdAt);
    span.endUnixNano = std::max(span.startUnixNano, unixNano(input.endedAt));
    span.set(u"gen_ai.provider.name"_s, providerName(input.engineType));
    span.set(u"gen_ai.request.model"_s, input.model);
    span.set(u"callscope.experiment.id"_s, input.experimentId);
    span.set(u"callscope.batch.engine"_s, input.engine);
    span.set(u"callscope.batch.round"_s, qint64(input.round));
    span.set(u"callscope.batch.parts"_s, qint64(input.parts));
    span.set(u"callscope.batch.lines"_s, qint64(input.lines));
    span.set(u"callscope.batch.lines.succeeded"_s, qint64(input.succeeded));
    span.set(u"callscope.batch.lines.failed"_s, qint64(input.failedLines));
    span.set(u"callscope.batch.statuses"_s, input.statuses);
    span.set(u"callscope.batch.provider_ids"_s, input.providerIds);
    if (input.submittedAt.isValid())
        span.events.append({ u"callscope.batch.submitted"_s, unixNano(input.submittedAt), {} });
    if (input.endedAt.isValid())
        span.events.append({ u"callscope.batch.ended"_s, span.endUnixNano, {} });
    if (input.statuses.contains(u"failed"_s) || input.statuses.contains(u"abandoned"_s)) {
        span.status = StatusCode::Error;
        span.set(u"error.type"_s, u"batch_failed"_s);
    }
    return span;
}

} // namespace Callscope::Telemetry
