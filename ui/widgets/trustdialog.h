#pragma once

// The question before a run starts what a file brings (docs/trust.md): each program with its
// command line and working folder, each variable read as a key, and a profile's key going to
// another address. Cancel runs nothing; "Trust and Run" runs, and the caller remembers the
// answer for the file's content and folder.

#include "core/model/trustpolicy.h"

#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

class QDialogButtonBox;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace Callscope {

class TrustDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrustDialog)

public:
    // `file`: the file's path (empty for a spec without one, such as an imported call).
    // `keyProblems`: where a profile's key would go instead of its own address.
    TrustDialog(const QString &file, const QList<RunItem> &items, const QStringList &keyProblems,
                QWidget *parent = nullptr);

    // Opens the dialog window-modal without blocking; `answer` runs once with the choice.
    static TrustDialog *ask(QWidget *parent, const QString &file, const QList<RunItem> &items,
                            const QStringList &keyProblems,
                            std::function<void(bool trusted)> answer);

    QTreeWidget *itemList() const { return m_list; }
    QPushButton *trustButton() const { return m_trust; }
    QPushButton *cancelButton() const { return m_cancel; }

private:
    QTreeWidget *m_list = nullptr;
    QPushButton *m_trust = nullptr;
    QPushButton *m_cancel = nullptr;
};

} // namespace Callscope
