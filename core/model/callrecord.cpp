#include "core/model/callrecord.h"

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

QString isoOrEmpty(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime timeFromJson(const QJsonValue &value)
{
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

QJsonValue optionalToJson(const std::optional<qint64> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

std::optional<qint64> optionalFromJson(const QJsonValue &value)
{
    if (value.isDouble())
        return value.toInteger();
    return std::nullopt;
}

} // namespace

QString callStatusName(CallStatus status)
{
    switch (status) {
    case CallStatus::Running:
        return u"running"_s;
    case CallStatus::Completed:
        return u"completed"_s;
    case CallStatus::Failed:
        return u"failed"_s;
    case CallStatus::TurnLimited:
        return u"turn_limited"_s;
    case CallStatus::Cancelled:
        return u"cancelled"_s;
    }
    return {};
}

std::optional<CallStatus> callStatusFromName(QStringView name)
{
    for (CallStatus s : { CallStatus::Running, CallStatus::Completed, CallStatus::Failed,
                          CallStatus::TurnLimited, CallStatus::Cancelled }) {
        if (callStatusName(s) == name)
            return s;
    }
    return std::nullopt;
}

QString errorCategoryName(ErrorCategory category)
{
    switch (category) {
    case ErrorCategory::None:
        return {};
    case ErrorCategory::Auth:
        return u"auth"_s;
    case ErrorCategory::Network:
        return u"network"_s;
    case ErrorCategory::Model:
        return u"model"_s;
    case ErrorCategory::Refusal:
        return u"refusal"_s;
    case ErrorCategory::Other:
        return u"other"_s;
    }
    return {};
}

std::optional<ErrorCategory> errorCategoryFromName(QStringView name)
{
    if (name.isEmpty())
        return ErrorCategory::None;
    for (ErrorCategory c : { ErrorCategory::Auth, ErrorCategory::Network, ErrorCategory::Model,
                             ErrorCategory::Refusal, ErrorCategory::Other }) {
        if (errorCategoryName(c) == name)
            return c;
    }
    return std::nullopt;
}

QJsonObject AttemptRecord::toJson() const
{
    return QJsonObject { { u"index"_s, index },
                         { u"turn"_s, turn },
                         { u"outcome"_s, outcome },
                         { u"finish_reason"_s, finishReasonName(finishReason) },
                         { u"raw_finish_reason"_s, rawFinishReason },
                         { u"http_status"_s, httpStatus },
                         { u"error"_s, error },
                         { u"delay_ms"_s, delayMs },
                         { u"usage"_s, usage.toJson() },
                         { u"started_at"_s, isoOrEmpty(startedAt) },
                         { u"duration_ms"_s, durationMs } };
}

AttemptRecord AttemptRecord::fromJson(const QJsonObject &o)
{
    AttemptRecord a;
    a.index = o.value(u"index"_s).toInt();
    a.turn = o.value(u"turn"_s).toInt();
    a.outcome = o.value(u"outcome"_s).toString();
    a.finishReason =
        finishReasonFromName(o.value(u"finish_reason"_s).toString()).value_or(FinishReason::Other);
    a.rawFinishReason = o.value(u"raw_finish_reason"_s).toString();
    a.httpStatus = o.value(u"http_status"_s).toInt();
    a.error = o.value(u"error"_s).toString();
    a.delayMs = o.value(u"delay_ms"_s).toInteger();
    a.usage = Usage::fromJson(o.value(u"usage"_s).toObject());
    a.startedAt = timeFromJson(o.value(u"started_at"_s));
    a.durationMs = o.value(u"duration_ms"_s).toInteger();
    return a;
}

QJsonObject TurnRecord::toJson() const
{
    QJsonObject o { { u"index"_s, index },
                    { u"finish_reason"_s, finishReasonName(finishReason) },
                    { u"raw_finish_reason"_s, rawFinishReason },
                    { u"usage"_s, usage.toJson() },
                    { u"tool_calls"_s, toolCalls } };
    if (!note.isEmpty())
        o.insert(u"note"_s, note);
    if (!requestReport.isEmpty())
        o.insert(u"request_report"_s, requestReport);
    return o;
}

TurnRecord TurnRecord::fromJson(const QJsonObject &o)
{
    TurnRecord t;
    t.index = o.value(u"index"_s).toInt();
    t.finishReason =
        finishReasonFromName(o.value(u"finish_reason"_s).toString()).value_or(FinishReason::Other);
    t.rawFinishReason = o.value(u"raw_finish_reason"_s).toString();
    t.usage = Usage::fromJson(o.value(u"usage"_s).toObject());
    t.toolCalls = o.value(u"tool_calls"_s).toInt();
    t.note = o.value(u"note"_s).toString();
    t.requestReport = o.value(u"request_report"_s).toObject();
    return t;
}

QJsonObject CallRecord::toJson() const
{
    QJsonArray turnArray;
    for (const TurnRecord &t : turns)
        turnArray.append(t.toJson());
    QJsonArray attemptArray;
    for (const AttemptRecord &a : attempts)
        attemptArray.append(a.toJson());
    const QString category = errorCategoryName(errorCategory);
    return QJsonObject {
        { u"id"_s, id },
        { u"uuid"_s, uuid },
        { u"person"_s, person },
        { u"machine"_s, machine },
        { u"kind"_s, kind },
        { u"status"_s, callStatusName(status) },
        { u"input"_s, input },
        { u"response"_s, response.isUndefined() ? QJsonValue(QJsonValue::Null) : response },
        { u"system_prompt"_s, systemPrompt },
        { u"engine_type"_s, engineType },
        { u"model"_s, model },
        { u"transcript"_s, transcript },
        { u"messages"_s, messages },
        { u"turns"_s, turnArray },
        { u"attempts"_s, attemptArray },
        { u"usage"_s, usage.toJson() },
        { u"error_category"_s,
          category.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(category) },
        { u"error"_s, error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error) },
        { u"parent"_s, optionalToJson(parent) },
        { u"session"_s, optionalToJson(session) },
        { u"first_sequence"_s, optionalToJson(firstSequence) },
        { u"last_sequence"_s, optionalToJson(lastSequence) },
        { u"metadata"_s, metadata },
        { u"spec"_s, spec },
        { u"created_at"_s, isoOrEmpty(createdAt) },
        { u"finished_at"_s, isoOrEmpty(finishedAt) },
    };
}

CallRecord CallRecord::fromJson(const QJsonObject &o)
{
    CallRecord c;
    c.id = o.value(u"id"_s).toInteger();
    c.uuid = o.value(u"uuid"_s).toString();
    c.person = o.value(u"person"_s).toString();
    c.machine = o.value(u"machine"_s).toString();
    c.kind = o.value(u"kind"_s).toString();
    c.status = callStatusFromName(o.value(u"status"_s).toString()).value_or(CallStatus::Failed);
    c.input = o.value(u"input"_s).toObject();
    c.response = o.value(u"response"_s);
    c.systemPrompt = o.value(u"system_prompt"_s).toString();
    c.engineType = o.value(u"engine_type"_s).toString();
    c.model = o.value(u"model"_s).toString();
    c.transcript = o.value(u"transcript"_s).toArray();
    c.messages = o.value(u"messages"_s).toArray();
    for (const QJsonValue &v : o.value(u"turns"_s).toArray())
        c.turns.append(TurnRecord::fromJson(v.toObject()));
    for (const QJsonValue &v : o.value(u"attempts"_s).toArray())
        c.attempts.append(AttemptRecord::fromJson(v.toObject()));
    c.usage = Usage::fromJson(o.value(u"usage"_s).toObject());
    c.errorCategory = errorCategoryFromName(o.value(u"error_category"_s).toString())
                          .value_or(ErrorCategory::Other);
    c.error = o.value(u"error"_s).toString();
    c.parent = optionalFromJson(o.value(u"parent"_s));
    c.session = optionalFromJson(o.value(u"session"_s));
    c.firstSequence = optionalFromJson(o.value(u"first_sequence"_s));
    c.lastSequence = optionalFromJson(o.value(u"last_sequence"_s));
    c.metadata = o.value(u"metadata"_s).toObject();
    c.spec = o.value(u"spec"_s).toObject();
    c.createdAt = timeFromJson(o.value(u"created_at"_s));
    c.finishedAt = timeFromJson(o.value(u"finished_at"_s));
    return c;
}

} // namespace Callscope
