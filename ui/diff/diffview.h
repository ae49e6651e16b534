#pragma once

// Two calls side by side (default: a call and its parent), differences marked.
//
// With a StoreReader (setReader) the calls are read and compared off the GUI thread: compare()
// returns at once and compared() tells how it went; without one it is done before it returns.

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace Callscope {

class CallStore;
class DiffModel;
class StoreReader;

class DiffView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiffView)

public:
    explicit DiffView(CallStore *store, QWidget *parent = nullptr);
    ~DiffView() override;

    DiffModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QString statusText() const;
    // Reads on `reader`'s thread from now on (null: at once). It must outlive the view.
    void setReader(StoreReader *reader) { m_reader = reader; }
    bool isComparing() const { return m_comparing != 0; }

public Q_SLOTS:
    // False when the comparison cannot start (no history); otherwise the result comes with
    // compared() (at once without a reader).
    bool compare(qint64 leftId, qint64 rightId);
    // The call against its parent.
    bool compareWithParent(qint64 callId);
    // Fills the two fields with a likely pair (an earlier call and the current one) while the
    // user has typed neither; compares nothing.
    void suggest(qint64 leftId, qint64 rightId);

Q_SIGNALS:
    // The comparison asked for last is shown (ok) or failed (statusText() says why).
    void compared(bool ok);

private:
    void applyOnlyDifferences();
    void compareFromFields();

    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    quint64 m_comparing = 0; // the comparison under way (0: none)
    quint64 m_asked = 0;
    bool m_lastOk = false;
    DiffModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_left = nullptr;
    QLineEdit *m_right = nullptr;
    QCheckBox *m_onlyDifferences = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace Callscope
