#include "core/loop/replayclient.h"

#include "core/loop/exchangecapture.h"
#include "core/model/boundedread.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Replay)
};

// What the replay engine was asked, in neutral form (it sends nothing anywhere).
struct ReplayRequestView
{
    ReplayRequestView() = default;
    explicit ReplayRequestView(const ChatRequest &request)
        : m_request(&request)
    { }
    QJsonObject toJson(const QString &source) const
    {
        QJsonObject body {
            { u"replay"_s, true },
            { u"note"_s,
              Tr::tr("nothing was sent: the replay engine answers every request with the "
                     "next reply of its recording") },
            { u"recording"_s, source }
        };
        if (!m_request)
            return body;
        if (!m_request->system.isEmpty())
            body.insert(u"system"_s, m_request->system);
        QJsonArray messages;
        for (const Message &m : m_request->messages)
            messages.append(messageAsSent(m));
        body.insert(u"messages"_s, messages);
        QJsonArray tools;
        for (const ToolDeclaration &t : m_request->tools)
            tools.append(t.name);
        body.insert(u"tools"_s, tools);
        // The limits a live engine would have been sent, so a reask's raised limit shows.
        if (m_request->maxTokens)
            body.insert(u"max_tokens"_s, *m_request->maxTokens);
        if (m_request->temperature)
            body.insert(u"temperature"_s, *m_request->temperature);
        return body;
    }

private:
    const ChatRequest *m_request = nullptr;
};

FinishReason inferFinish(const Message &m)
{
    if (!m.refusal.isEmpty())
        return FinishReason::Refusal;
    if (!m.toolCalls.isEmpty())
        return FinishReason::ToolCalls;
    return FinishReason::Stop;
}

} // namespace

Recording recordingFromCall(const CallRecord &call)
{
    Recording rec;
    rec.model = call.model;
    rec.source = call.id > 0 ? Tr::tr("call %1").arg(call.id) : Tr::tr("a recorded call");
    int turn = 0;
    for (const QJsonValue &v : call.messages) {
        Message m = Message::fromJson(v.toObject());
        if (m.role != Role::Assistant || m.providerData.value(u"callscope_synthetic"_s).toBool())
            continue;
        m = m.withoutTextAnswerCall(); // the submit_output call made from a text answer is ours
        ModelReply reply;
        reply.message = m;
        reply.model = call.model;
        if (turn < call.turns.size()) {
            reply.finishReason = call.turns.at(turn).finishReason;
            reply.rawFinishReason = call.turns.at(turn).rawFinishReason;
            reply.usage = call.turns.at(turn).usage;
        } else {
            reply.finishReason = inferFinish(m);
        }
        if (reply.finishReason == FinishReason::Refusal
            && call.errorCategory == ErrorCategory::Refusal)
            reply.refusalCategory = call.metadata.value(u"refusal_category"_s).toString();
        rec.replies.append(reply);
        ++turn;
    }
    return rec;
}

std::optional<Recording> recordingFromJson(const QJsonValue &json, QString *error)
{
    const QJsonObject object = json.toObject();
    const QString format = object.value(u"format"_s).toString();
    if (format == u"callscope-recording") {
        if (!object.value(u"replies"_s).isArray()) {
            if (error)
                *error = Tr::tr("/replies: expected an array of model replies");
            return std::nullopt;
        }
        Recording rec;
        rec.model = object.value(u"model"_s).toString();
        const QJsonArray replies = object.value(u"replies"_s).toArray();
        for (qsizetype i = 0; i < replies.size(); ++i) {
            if (!replies.at(i).isObject()
                || !replies.at(i).toObject().value(u"message"_s).isObject()) {
                if (error)
                    *error = Tr::tr("/replies/%1: expected an object with a \"message\"").arg(i);
                return std::nullopt;
            }
            ModelReply reply = ModelReply::fromJson(replies.at(i).toObject());
            reply.message.role = Role::Assistant;
            rec.replies.append(reply);
        }
        return rec;
    }
    if (format == u"callscope-export") {
        const QJsonArray calls = object.value(u"calls"_s).toArray();
        if (calls.isEmpty()) {
            if (error)
                *error = Tr::tr("/calls: the export holds no call to replay");
            return std::nullopt;
        }
        return recordingFromCall(CallRecord::fromJson(calls.first().toObject()));
    }
    if (object.contains(u"messages"_s) && object.contains(u"turns"_s))
        return recordingFromCall(CallRecord::fromJson(object));
    if (error)
        *error =
            Tr::tr("not a recording: expected \"format\": \"callscope-recording\", an export, or "
                   "a stored call");
    return std::nullopt;
}

std::optional<Recording> recordingFromFile(const QString &path, QString *error)
{
    QString why;
    const std::optional<QByteArray> data = readFileBounded(path, MaxRecordingFileBytes, &why);
    if (!data) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        if (error)
            *error = Tr::tr("%1: invalid JSON at offset %2: %3")
                         .arg(path)
                         .arg(parseError.offset)
                         .arg(parseError.errorString());
        return std::nullopt;
    }
    QString inner;
    auto rec = recordingFromJson(QJsonValue(doc.object()), &inner);
    if (!rec) {
        if (error)
            *error = path + u": "_s + inner;
        return std::nullopt;
    }
    rec->source = path;
    return rec;
}

ReplayModelClient::ReplayModelClient(const Recording &recording, QObject *parent)
    : ModelClient(parent)
    , m_recording(recording)
{ }

void ReplayModelClient::send(const ChatRequest &request, int maxAttempts)
{
    Q_UNUSED(maxAttempts);
    m_requests.append(request);
    m_busy = true;
    const quint64 ticket = ++m_ticket;
    // Answer from the event loop, like a real engine: callers never see a re-entrant finish.
    QTimer::singleShot(0, this, [this, ticket] { deliver(ticket); });
}

void ReplayModelClient::deliver(quint64 ticket)
{
    if (!m_busy || ticket != m_ticket)
        return;
    m_busy = false;
    ModelOutcome outcome;
    AttemptRecord attempt;
    attempt.startedAt = QDateTime::currentDateTimeUtc();
    if (m_next >= m_recording.replies.size()) {
        outcome.error.category = ErrorCategory::Other;
        outcome.error.message =
            tr("the recording (%1) holds %2 model replies and the run asked for "
               "reply %3: the replayed call no longer fits its recording")
                .arg(m_recording.source.isEmpty() ? tr("replay") : m_recording.source)
                .arg(m_recording.replies.size())
                .arg(m_next + 1);
        attempt.outcome = u"error"_s;
        attempt.error = outcome.error.message;
        outcome.attempts.append(attempt);
        Q_EMIT finished(outcome);
        return;
    }
    // Nothing goes on a wire: the raw exchange says so and shows the recorded reply, so the
    // person sees what the "provider" answered and where it came from.
    const ReplayRequestView request =
        m_requests.isEmpty() ? ReplayRequestView() : ReplayRequestView(m_requests.constLast());
    outcome.requestBody = request.toJson(m_recording.source);
    const int index = m_next;
    const ModelReply reply = m_recording.replies.at(m_next++);
    outcome.rawResponse = QJsonDocument(QJsonObject { { u"replay"_s, true },
                                                      { u"recording"_s, m_recording.source },
                                                      { u"reply_index"_s, index + 1 },
                                                      { u"recorded_reply"_s, reply.toJson() } })
                              .toJson(QJsonDocument::Indented);
    if (!reply.message.text.isEmpty())
        Q_EMIT textDelta(reply.message.text);
    attempt.outcome = u"ok"_s;
    attempt.finishReason = reply.finishReason;
    attempt.rawFinishReason = reply.rawFinishReason;
    attempt.usage = reply.usage;
    outcome.attempts.append(attempt);
    outcome.reply = reply;
    Q_EMIT finished(outcome);
}

void ReplayModelClient::cancel()
{
    if (!m_busy)
        return;
    m_busy = false;
    ++m_ticket;
    ModelOutcome outcome;
    outcome.cancelled = true;
    Q_EMIT finished(outcome);
}

QJsonArray ReplayModelClient::toNative(const QString &system, const QList<Message> &messages) const
{
    QJsonArray native;
    if (!system.isEmpty())
        native.append(Message::system(system).toJson());
    for (const Message &m : messages)
        native.append(m.toJson());
    return native;
}

QList<Message> ReplayModelClient::fromNative(const QJsonArray &native) const
{
    QList<Message> messages = messagesFromJson(native);
    messages.removeIf([](const Message &m) { return m.role == Role::System; });
    return messages;
}

} // namespace Callscope
