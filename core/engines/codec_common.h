#pragma once

// Helpers the engine codecs share (internal to core/engines).

#include "core/engines/enginecodec.h"

#include <QJsonDocument>

namespace Callscope::CodecCommon {

// Parses a JSON document leniently (surrounding whitespace allowed). nullopt + error on failure.
std::optional<QJsonDocument> parseJson(QByteArrayView data, QString *error = nullptr);

// Parses ToolCall::rawArguments into ToolCall::arguments. An empty string means {}; anything
// that is not a JSON object leaves `arguments` empty and sets `argumentsError`.
void parseToolArguments(ToolCall &call);

QString compactJson(const QJsonObject &object);

// The endpoint under `baseUrl` (the host root), or under `defaultRoot` when baseUrl is empty.
// A base that already ends with the first segment of `path` (".../v1") does not repeat it.
QUrl endpointUrl(const QUrl &baseUrl, const QString &defaultRoot, const QString &path,
                 const QString &query = {});

// RFC 7386 JSON merge patch: objects merge recursively, null deletes a key.
void mergePatch(QJsonObject &target, const QJsonObject &patch);

std::optional<int> maxTokens(const ChatRequest &request, const EngineConfig &config);
std::optional<double> temperature(const ChatRequest &request, const EngineConfig &config);
bool streaming(const ChatRequest &request, const EngineConfig &config);

// "data:<media type>;base64,<bytes>".
QString dataUri(const Attachment &attachment);
bool isTextLike(const QString &mediaType);
// The text sent in place of an attachment whose bytes were not kept.
QString placeholderText(const Attachment &attachment);

// An ApiError with category and transient flag from the HTTP status alone (WIRE.md 5):
// 401/403 auth; 400/404/413/422 model; 408/409/429/5xx/529 transient "other"; else other.
ApiError errorForStatus(int httpStatus);
// Applies what the provider's error type / code tells beyond the status: insufficient_quota
// is never transient, content-policy codes are refusals, overload/server types are transient.
void refineError(ApiError &error, const QString &type, const QString &code);

ApiError malformedEventError(const SseEvent &event, const QString &parseError);

// The tool name of each call id in a neutral conversation (for results that lack it).
QHash<QString, QString> toolNamesById(const QList<Message> &messages);

} // namespace Callscope::CodecCommon
