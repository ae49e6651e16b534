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
        QString text = value.toString();
        bool changed = false;
        for (const Blob &b : blobs) {
            const qsizetype at = text.indexOf(b.base64);
            if (at < 0)
                continue;
            // A data: URI goes as a whole; a bare base64 string is replaced in place.
            qsizetype start = at;
            const qsizetype uri = text.lastIndexOf(u"data:"_s, at);
            if (uri >= 0 && text.mid(uri, at - uri).endsWith(u";base64,"_s) && !text.mid(uri, at - uri).contains(u' '))
                start = uri;
            text.replace(start, at + b.base64.size() - start, b.placeholder);
            changed = true;
        }
        return changed ? QJsonValue(text) : value;
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
        blobs.append({QString::fromLatin1(a.data.toBase64()), placeholderFor(a)});
    }
    if (blobs.isEmpty())
        return body;
    return strip(body, blobs).toObject();
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
        QJsonDocument(withoutAttachmentData(outcome.requestBody, attachments)).toJson(QJsonDocument::Compact);
    exchange.requestBytes = request.size();
    exchange.request = request.size() > TurnExchange::kMaxRequestBytes ? request.left(TurnExchange::kMaxRequestBytes)
                                                                         : request;
    exchange.responseBytes = std::max<qint64>(outcome.rawResponseBytes, outcome.rawResponse.size());
    exchange.response = outcome.rawResponse.left(TurnExchange::kMaxResponseBytes);
    return exchange;
}

} // namespace Callscope
