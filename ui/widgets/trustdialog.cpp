#include "ui/widgets/trustdialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

QString kindText(RunItem::Kind kind)
{
    switch (kind) {
    case RunItem::Kind::CommandTool:
        return TrustDialog::tr("Command tool");
    case RunItem::Kind::PreSeed:
        return TrustDialog::tr("Pre-seeded call (before the first request)");
    case RunItem::Kind::McpServer:
        return TrustDialog::tr("MCP server");
    case RunItem::Kind::Assertion:
        return TrustDialog::tr("Command assertion");
    case RunItem::Kind::KeyVariable:
        return TrustDialog::tr("Key from the environment");
    }
    return {};
}

QString commandText(const QStringList &commandLine)
{
    QStringList parts;
    for (const QString &part : commandLine)
        parts.append(part.isEmpty() || part.contains(u' ') ? u'"' + part + u'"' : part);
    return parts.join(u' ');
}

} // namespace

TrustDialog::TrustDialog(const QString &file, const QList<RunItem> &items,
                         const QStringList &keyProblems, QWidget *parent)
    : QDialog(parent)
    , m_list(new QTreeWidget(this))
{
    setWindowTitle(tr("Run what this file brings?"));
    auto *layout = new QVBoxLayout(this);
    const QString where = file.isEmpty() ? tr("This spec (it has no file of its own)")
                                         : tr("The file %1").arg(QDir::toNativeSeparators(file));
    auto *intro = new QLabel(this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::PlainText);
    if (!items.isEmpty()) {
        intro->setText(
            tr("%1 would run these on this computer, with your permissions. Nothing has run and "
               "nothing was sent yet. Trust it only if you know what these commands do; "
               "an edited file asks again.")
                .arg(where));
    } else {
        intro->setText(
            tr("%1 would send an engine profile's key to another address. Nothing was sent yet.")
                .arg(where));
    }
    layout->addWidget(intro);

    m_list->setColumnCount(3);
    m_list->setHeaderLabels({ tr("What"), tr("Command line or variable"), tr("Working folder") });
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSelectionMode(QAbstractItemView::NoSelection);
    for (const RunItem &item : items) {
        const QString what =
            item.name.isEmpty() ? kindText(item.kind) : kindText(item.kind) + u": "_s + item.name;
        const QString line =
            item.kind == RunItem::Kind::KeyVariable ? item.name : commandText(item.commandLine);
        auto *row = new QTreeWidgetItem(
            m_list, { what, line, QDir::toNativeSeparators(item.workingFolder) });
        row->setToolTip(1, line);
        row->setToolTip(0, item.pointer);
    }
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_list->setVisible(!items.isEmpty());
    layout->addWidget(m_list, 1);

    for (const QString &problem : keyProblems) {
        auto *label = new QLabel(tr("Key: %1").arg(problem), this);
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        layout->addWidget(label);
    }

    auto *buttons = new QDialogButtonBox(this);
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_trust = buttons->addButton(items.isEmpty() ? tr("Send the key and Run") : tr("Trust and Run"),
                                 QDialogButtonBox::AcceptRole);
    m_cancel->setDefault(true);
    m_cancel->setAutoDefault(true);
    m_trust->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(820, 360);
}

TrustDialog *TrustDialog::ask(QWidget *parent, const QString &file, const QList<RunItem> &items,
                              const QStringList &keyProblems, std::function<void(bool)> answer)
{
    auto *dialog = new TrustDialog(file, items, keyProblems, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    connect(dialog, &QDialog::finished, dialog, [answer = std::move(answer)](int result) {
        if (answer)
            answer(result == QDialog::Accepted);
    });
    dialog->open();
    dialog->cancelButton()->setFocus();
    return dialog;
}

} // namespace Callscope
