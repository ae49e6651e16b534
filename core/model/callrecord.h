#pragma once

// One structured call as it is stored. Never holds a key or any
// engine configuration that could hold a secret.

#include "core/model/message.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Callscope {

enum class CallStatus { Running, Completed, Failed, TurnLimited, Cancelled };
QString callStatusName(CallStatus status);
std::optional<CallStatus> callStatusFromName(QStringView name);

enum class ErrorCategory { None, Auth, Network, Model, Refusal, Other };
QString errorCategoryName(ErrorCategory category); // None -> empty string
std::optional<ErrorCategory> errorCategoryFromName(QStringView name);

// One try of a whole model request (transient retries and reasks make more).
struct AttemptRecord
{
    int index = 0; // 0-based over the whole call
    int turn = 0; // the turn it belonged to
    QString outcome; // "ok", "retry", "reask", "error"
    FinishReason finishReason = FinishReason::Other;
    QString rawFinishReason;
    int httpStatus = 0;
    QString error; // message of a failed attempt
    qint64 delayMs = 0; // backoff waited before the next attempt
    Usage usage;
    QDateTime startedAt;
    qint64 durationMs = 0;

    QJsonObject toJson() const;
    static AttemptRecord fromJson(const QJsonObject &object);
};

// One model request and its reply inside the tool loop.
struct TurnRecord
{
    int index = 0;
    FinishReason finishReason = FinishReason::Other;
    QString rawFinishReason;
    Usage usage;
    int toolCalls = 0;
    QString note; // "correction", "validation_failed", ... for the views
    QJsonObject requestReport; // the context budget report of this request (context/)

    QJsonObject toJson() const;
    static TurnRecord fromJson(const QJsonObject &object);
};

// One HTTP request of the tool loop (a turn, a correction or a re-ask) and its reply, as they
// went over the wire, bounded so a large history stays small: the request body without
// headers (so without keys) and with attachments' bytes replaced by a placeholder, at most
// kMaxRequestBytes of it; the first kMaxResponseBytes of the reply (streams: the SSE text).
// The *Bytes fields hold the whole sizes, so a view can say what was cut.
struct TurnExchange
{
    static constexpr qint64 kMaxRequestBytes = 1024 * 1024;
    static constexpr qint64 kMaxResponseBytes = 256 * 1024;

    int turn = 0; // the turn it belonged to (TurnRecord::index)
    int attempt = 0; // the AttemptRecord::index of the try that answered
    int httpStatus = 0; // 0 when no HTTP reply came (a network error, a replay)
    bool replayed = false; // answered from a recording: nothing went on a wire
    QByteArray request; // compact JSON (cut at kMaxRequestBytes)
    qint64 requestBytes = 0;
    QByteArray response; // the reply body's head
    qint64 responseBytes = 0;

    bool requestCut() const { return requestBytes > request.size(); }
    bool responseCut() const { return responseBytes > response.size(); }
    friend bool operator==(const TurnExchange &, const TurnExchange &) = default;
};

struct CallRecord
{
    qint64 id = 0; // 0 until stored
    QString kind;
    CallStatus status = CallStatus::Running;
    QJsonObject input; // {"text": ..., "attachments": [placeholders]}
    QJsonValue response; // the parsed result (object, or text for output_parser text)
    QString systemPrompt;
    QString engineType;
    QString model;
    QJsonArray transcript; // engine-native messages, attachments as placeholders
    QJsonArray messages; // the same conversation in the neutral model (messagesToJson)
    QList<TurnRecord> turns;
    QList<AttemptRecord> attempts;
    Usage usage; // totals
    ErrorCategory errorCategory = ErrorCategory::None;
    QString error;
    std::optional<qint64> parent;
    std::optional<qint64> session;
    std::optional<qint64> firstSequence;
    std::optional<qint64> lastSequence;
    QJsonObject metadata;
    QJsonObject spec; // the spec the call ran with, secrets stripped (for replay)
    QDateTime createdAt;
    QDateTime finishedAt;
    // The raw HTTP exchanges in the order they were made. Written with the call; never read
    // back by getCall() (history stays fast) nor part of toJson(): CallStore::exchanges().
    QList<TurnExchange> exchanges;
    // The call everywhere: the store gives one when it is empty; export and import keep it.
    QString uuid;
    // Who made the call and on which machine (core/store/identity.h); the store fills them in
    // when empty.
    QString person;
    QString machine;

    QJsonObject toJson() const; // every field, for `show` and export
    static CallRecord fromJson(const QJsonObject &object);
};

} // namespace Callscope
