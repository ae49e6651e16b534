#pragma once

// The live transcript of a run as a flat list model: one row per thing that happened (the
// system prompt, the user's input, assistant text as it streams, tool calls, tool results,
// corrections, retries, validation failures, the final result, errors). Streaming text is
// buffered and flushed on a short timer, so thousands of deltas a second cost a handful of
// model updates.

#include "core/engines/modelclient.h"

#include <QAbstractListModel>
#include <QElapsedTimer>
#include <QList>

class QTimer;

namespace Callscope {

class TranscriptModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TranscriptModel)

public:
    enum class Kind {
        System,
        User,
        Assistant, // text (streams while it arrives)
        ToolCall,
        ToolResult,
        Correction,
        Retry,
        ValidationFailure,
        Result, // the final validated output
        Error, // failed call, refusal, stop
        Note, // pauses, approvals, other events
    };
    Q_ENUM(Kind)

    enum Role {
        KindRole = Qt::UserRole + 1,
        TitleRole,
        TextRole, // the full text (DisplayRole may be shortened)
        TurnRole,
        IsErrorRole,
        HasRawRole, // the turn's raw request/response are available
        StreamingRole,
        UsageRole, // "in 412 / out 32" of the row's turn, when known
    };

    struct Item
    {
        Kind kind = Kind::Note;
        QString title;
        QString text;
        int turn = -1;
        bool isError = false;
        bool streaming = false;
    };

    struct TurnRaw
    {
        QJsonObject requestBody;
        QByteArray rawResponse;
        Usage usage;
        qint64 rawResponseBytes = 0; // the whole body's size; rawResponse may hold its start only
    };

    explicit TranscriptModel(QObject *parent = nullptr);
    ~TranscriptModel() override;

    void clear();
    void append(const Item &item);
    // Replaces a row (an edited tool call gets its mark).
    void setItem(int row, const Item &item);
    // Takes a row out (a pause the run has gone on from).
    void remove(int row);
    // Streaming text: buffered, then appended to the open assistant row on the next flush.
    void appendDelta(const QString &delta);
    // Flushes buffered text now and closes the streaming row (the reply is complete).
    void endStream();
    void flush();
    // Sets the text of the open streaming row (or appends a row) to the final reply text.
    void finishAssistantText(int turn, const QString &text);

    void setTurnRaw(int turn, const TurnRaw &raw);
    std::optional<TurnRaw> turnRaw(int turn) const;

    const Item &item(int row) const { return m_items.at(row); }
    int count() const { return int(m_items.size()); }
    // All text streamed into assistant rows, in order (for checks and copying).
    QString streamedText() const;

    // DisplayRole shows at most this many characters of a row; the detail pane shows all.
    static constexpr int kDisplayLimit = 4000;
    static QString kindLabel(Kind kind);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    void flushed();

private:
    int openStreamRow() const;

    QList<Item> m_items;
    QHash<int, TurnRaw> m_raw;
    QString m_pending; // deltas not yet in the model
    QString m_streamedAll;
    QTimer *m_flushTimer = nullptr;
    int m_streamRow = -1;
};

} // namespace Callscope
