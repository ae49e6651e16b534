#pragma once

// Two calls side by side (default: a call and its parent), differences marked.

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace Callscope {

class CallStore;
class DiffModel;

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

public Q_SLOTS:
    bool compare(qint64 leftId, qint64 rightId);
    // The call against its parent.
    bool compareWithParent(qint64 callId);

private:
    void applyOnlyDifferences();
    void compareFromFields();

    CallStore *m_store = nullptr;
    DiffModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_left = nullptr;
    QLineEdit *m_right = nullptr;
    QCheckBox *m_onlyDifferences = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace Callscope
