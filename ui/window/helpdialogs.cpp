#include "ui/window/helpdialogs.h"

#include "ui/widgets/docsbrowser.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <functional>

using namespace Qt::StringLiterals;

// The strings keep the window's translations (they were the window's).
namespace Callscope::HelpDialogs {

namespace {
QString highlighterName()
{
#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
    return QCoreApplication::translate("Callscope::MainWindow", "KF6 SyntaxHighlighting");
#else
    return QCoreApplication::translate("Callscope::MainWindow", "built-in JSON highlighter");
#endif
}
} // namespace

QList<std::pair<QString, QString>> shortcutList(const QMenuBar *menuBar)
{
    QList<std::pair<QString, QString>> rows;
    std::function<void(const QMenu *, const QString &)> walk = [&](const QMenu *menu,
                                                                   const QString &path) {
        for (QAction *action : menu->actions()) {
            if (action->isSeparator())
                continue;
            const QString name = QString(action->text()).remove(u'&');
            const QString here = path.isEmpty() ? name : path + u" › "_s + name;
            if (action->menu()) {
                walk(action->menu(), here);
                continue;
            }
            if (!action->shortcut().isEmpty())
                rows.append({ here, action->shortcut().toString(QKeySequence::NativeText) });
        }
    };
    for (QAction *top : menuBar->actions()) {
        if (top->menu())
            walk(top->menu(), QString(top->text()).remove(u'&'));
    }
    return rows;
}

void showDocumentation(QWidget *window)
{
    auto *dialog = window->findChild<DocumentationDialog *>(u"documentationDialog"_s);
    if (!dialog) {
        dialog = new DocumentationDialog(documentationFolder(), window);
        dialog->setWindowFlag(Qt::Window);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void showShortcuts(QWidget *window, const QList<std::pair<QString, QString>> &rows)
{
    auto *dialog = window->findChild<QDialog *>(u"shortcutsDialog"_s);
    if (!dialog) {
        dialog = new QDialog(window);
        dialog->setObjectName(u"shortcutsDialog"_s);
        dialog->setWindowTitle(
            QCoreApplication::translate("Callscope::MainWindow", "Keyboard Shortcuts"));
        auto *table = new QTableWidget(dialog);
        table->setObjectName(u"shortcutsTable"_s);
        table->setAccessibleName(
            QCoreApplication::translate("Callscope::MainWindow", "Keyboard shortcuts"));
        table->setColumnCount(2);
        table->setHorizontalHeaderLabels(
            { QCoreApplication::translate("Callscope::MainWindow", "Command"),
              QCoreApplication::translate("Callscope::MainWindow", "Shortcut") });
        table->verticalHeader()->hide();
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
        table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        auto *layout = new QVBoxLayout(dialog);
        layout->addWidget(table);
        layout->addWidget(buttons);
        dialog->resize(560, 640);
    }
    auto *table = dialog->findChild<QTableWidget *>(u"shortcutsTable"_s);
    table->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows.at(i).first));
        table->setItem(i, 1, new QTableWidgetItem(rows.at(i).second));
    }
    dialog->show();
    dialog->raise();
}

QString aboutText()
{
    return QCoreApplication::translate(
               "Callscope::MainWindow",
               "<h3>Callscope %1</h3>"
               "<p>A desktop studio for engineering LLM calls: write a spec, run it, step through "
               "the tool loop and get a validated result.</p>"
               "<p>Qt %2 (built with Qt %3)<br>QtKeychain %4<br>Syntax highlighting: %5</p>")
        .arg(QStringLiteral(CALLSCOPE_VERSION), QString::fromLatin1(qVersion()),
             QStringLiteral(QT_VERSION_STR), QStringLiteral(CALLSCOPE_QTKEYCHAIN_VERSION),
             highlighterName());
}

} // namespace Callscope::HelpDialogs
