#include "core/loop/exchangecapture.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Blob
{
    QString base64;
    QString placeholder;
};

// Model-facing text inside a stored body, so not translated.
QString placeholderFor(const Attachment &a)
{
    return u"[attachment %1 (%2, %3 bytes) not kept]"_s.arg(a.name, a.mediaType).arg(a.data.size());
}

QJsonValue strip(const QJsonValue &value, const QList<Blob> &blobs)
{
    if (value.isString()) {
        // The codecs send an attachment as a string of its own: the bare base64, or a data:
        // URI around it. Only a whole match is replaced, so short data never hits other text.
        const QString text = value.toString();
        for (const Blob &b : blobs) {
            if (text.size() < b.base64.size() || !text.endsWith(b.base64))
                continue;
            const QStringView head = QStringView(text).first(text.size() - b.base64.size());
            if (head.isEmpty()
                || (head.startsWith(u"data:") && head.endsWith(u";base64,")
                    && !head.contains(u' ')))
                return b.placeholder;
        }
        return value;
    }
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            array[i] = strip(array.at(i), blobs);
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            it.value() = strip(it.value(), blobs);
        return object;
    }
    return value;
}

} // namespace

QJsonObject withoutAttachmentData(const QJsonObject &body, const QList<Attachment> &attachments)
{
    QList<Blob> blobs;
    for (const Attachment &a : attachments) {
        if (a.data.isEmpty())
            continue;
        blobs.append({ QString::fromLatin1(a.data.toBase64()), placeholderFor(a) });
    }
    if (blobs.isEmpty())
        return body;
    return strip(body, blobs).toObject();
}

QJsonObject messageAsSent(const Message &message)
{
    QJsonObject object = message.toJson();
    QJsonObject extras = object.value(u"provider_data"_s).toObject();
    for (auto it = extras.begin(); it != extras.end();) {
        if (it.key().startsWith(u"callscope_"_s))
            it = extras.erase(it);
        else
            ++it;
    }
    if (extras.isEmpty())
        object.remove(u"provider_data"_s);
    else
        object.insert(u"provider_data"_s, extras);
    return object;
}

TurnExchange captureExchange(const ModelOutcome &outcome, const QList<Message> &sent, int turn,
                             int attempt, bool replayed)
{
    QList<Attachment> attachments;
    for (const Message &m : sent) {
        attachments.append(m.attachments);
        for (const ToolResult &r : m.toolResults)
            attachments.append(r.images);
    }
    TurnExchange exchange;
    exchange.turn = turn;
    exchange.attempt = attempt;
    exchange.replayed = replayed;
    if (!outcome.attempts.isEmpty())
        exchange.httpStatus = outcome.attempts.constLast().httpStatus;
    if (exchange.httpStatus == 0)
        exchange.httpStatus = outcome.error.httpStatus;
    const QByteArray request =
        QJsonDocument(withoutAttachmentData(outcome.requestBody, attachments))
            .toJson(QJsonDocument::Compact);
    exchange.requestBytes = request.size();
    exchange.request = request.size() > TurnExchange::kMaxRequestBytes
        ? request.left(TurnExchange::kMaxRequestBytes)
        : request;
    exchange.responseBytes = std::max<qint64>(outcome.rawResponseBytes, outcome.rawResponse.size());
    exchange.response = outcome.rawResponse.left(TurnExchange::kMaxResponseBytes);
    return exchange;
}

} // namespace Callscope
