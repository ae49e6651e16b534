#include "ui/widgets/dialogs.h"

#include <QFileDialog>

namespace Callscope::Dialogs {

namespace {
Responder &responder()
{
    static Responder r;
    return r;
}
FileResponder &fileResponder()
{
    static FileResponder r;
    return r;
}
} // namespace

void setResponder(Responder r)
{
    responder() = std::move(r);
}

QMessageBox::StandardButton ask(QWidget *parent, const QString &title, const QString &text,
                                QMessageBox::StandardButtons buttons,
                                QMessageBox::StandardButton defaultButton)
{
    if (responder())
        return responder()(title, text, buttons);
    return QMessageBox::question(parent, title, text, buttons, defaultButton);
}

void setFileResponder(FileResponder r)
{
    fileResponder() = std::move(r);
}

QString openFileName(QWidget *parent, const QString &caption, const QString &dir, const QString &filter)
{
    if (fileResponder())
        return fileResponder()(caption);
    return QFileDialog::getOpenFileName(parent, caption, dir, filter);
}

QString saveFileName(QWidget *parent, const QString &caption, const QString &dir, const QString &filter)
{
    if (fileResponder())
        return fileResponder()(caption);
    return QFileDialog::getSaveFileName(parent, caption, dir, filter);
}

QStringList openFileNames(QWidget *parent, const QString &caption, const QString &dir, const QString &filter)
{
    if (fileResponder()) {
        const QString one = fileResponder()(caption);
        return one.isEmpty() ? QStringList() : QStringList{one};
    }
    return QFileDialog::getOpenFileNames(parent, caption, dir, filter);
}

} // namespace Callscope::Dialogs
