#pragma once

// The `replay` engine: answers each request with the next model reply
// of a recorded call, offline. It lets a newcomer try the whole loop with no key, and re-runs a
// recorded call deterministically after its tools, validation or spec changed.

#include "core/engines/modelclient.h"

#include <QJsonValue>

namespace Callscope {

struct Recording
{
    QList<ModelReply> replies;
    QString model;
    QString source; // where it came from, for error messages
};

// Reads a recording from JSON: a recording document
// {"format": "callscope-recording", "version": 1, "model": "...", "replies": [ModelReply...]},
// a stored call (a `show` row), or an export document (its first call).
std::optional<Recording> recordingFromJson(const QJsonValue &json, QString *error);
std::optional<Recording> recordingFromFile(const QString &path, QString *error);
// The model replies of a stored call, rebuilt from its neutral messages and turn records.
Recording recordingFromCall(const CallRecord &call);

class ReplayModelClient final : public ModelClient
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReplayModelClient)

public:
    explicit ReplayModelClient(const Recording &recording, QObject *parent = nullptr);

    EngineType engineType() const override { return EngineType::Replay; }
    QString model() const override { return m_recording.model; }
    void send(const ChatRequest &request, int maxAttempts) override;
    void cancel() override;
    QJsonArray toNative(const QString &system, const QList<Message> &messages) const override;
    QList<Message> fromNative(const QJsonArray &native) const override;

    QList<ChatRequest> requests() const { return m_requests; }

private:
    void deliver(quint64 ticket);

    Recording m_recording;
    int m_next = 0;
    quint64 m_ticket = 0;
    bool m_busy = false;
    QList<ChatRequest> m_requests;
};

} // namespace Callscope
