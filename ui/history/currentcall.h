#pragma once

// The one "current call" of the studio window, and the calls picked with it. The History list,
// the revision trees and the call-view tabs all write it when the person picks a call, and all
// read it; every History-menu command (Open, Compare, Export, Replay, Revise, Context budget)
// acts on it. Picking in one view replaces what was picked in another, so the commands never
// act on a row the person left behind.

#include <QList>
#include <QObject>

#include <optional>
#include <utility>

namespace Callscope {

class CurrentCall final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CurrentCall)

public:
    explicit CurrentCall(QObject *parent = nullptr);
    ~CurrentCall() override;

    // The call the commands act on; 0 when none.
    qint64 id() const { return m_id; }
    // The calls picked together (sorted, without repeats); holds id() when one is current.
    QList<qint64> selection() const { return m_selection; }
    // The call that was current before this one (0 when none): "Compare with Call N" pairs it
    // with the current call, wherever each was picked.
    qint64 previous() const { return m_previous; }
    // The two calls Compare shows (older first) when exactly two are picked.
    std::optional<std::pair<qint64, qint64>> comparePair() const;

public Q_SLOTS:
    // One call, picked alone.
    void setCurrent(qint64 id);
    // Several calls picked in one view; `current` is the one the person touched last (added
    // to the selection when missing). Ids <= 0 are ignored.
    void setSelection(const QList<qint64> &ids, qint64 current);
    void clear();

Q_SIGNALS:
    void currentChanged(qint64 id);
    void selectionChanged(const QList<qint64> &ids);

private:
    void apply(QList<qint64> ids, qint64 current);

    qint64 m_id = 0;
    qint64 m_previous = 0;
    QList<qint64> m_selection;
};

} // namespace Callscope
