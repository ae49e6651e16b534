#include "ui/widgets/dialogs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QPushButton>
#include <QStandardPaths>

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

void giveButtonsMnemonics(QMessageBox *box)
{
    // Qt's standard buttons have no Alt key for Discard (nor for Save in some styles).
    const std::pair<QMessageBox::StandardButton, const char *> mnemonics[] = {
        { QMessageBox::Save, QT_TRANSLATE_NOOP("Callscope::Dialogs", "&Save") },
        { QMessageBox::Discard, QT_TRANSLATE_NOOP("Callscope::Dialogs", "&Discard") },
        { QMessageBox::Yes, QT_TRANSLATE_NOOP("Callscope::Dialogs", "&Yes") },
        { QMessageBox::No, QT_TRANSLATE_NOOP("Callscope::Dialogs", "&No") },
    };
    for (const auto &[which, label] : mnemonics) {
        if (QAbstractButton *button = box->button(which))
            button->setText(QCoreApplication::translate("Callscope::Dialogs", label));
    }
}

QMessageBox::StandardButton ask(QWidget *parent, const QString &title, const QString &text,
                                QMessageBox::StandardButtons buttons,
                                QMessageBox::StandardButton defaultButton)
{
    if (responder())
        return responder()(title, text, buttons);
    QMessageBox box(QMessageBox::Question, title, text, buttons, parent);
    box.setDefaultButton(defaultButton);
    giveButtonsMnemonics(&box);
    box.exec();
    const QMessageBox::StandardButton answer = box.standardButton(box.clickedButton());
    return answer == QMessageBox::NoButton ? QMessageBox::Cancel : answer;
}

void askLater(QWidget *parent, const Question &question, QObject *context,
              const std::function<void(QMessageBox::StandardButton)> &answered)
{
    if (responder()) {
        const QMessageBox::StandardButton answer =
            responder()(question.title, question.text, question.buttons);
        answered(answer == QMessageBox::NoButton ? QMessageBox::Cancel : answer);
        return;
    }
    auto *box =
        new QMessageBox(question.icon, question.title, question.text, question.buttons, parent);
    box->setObjectName(question.objectName);
    if (!question.informativeText.isEmpty())
        box->setInformativeText(question.informativeText);
    box->setDefaultButton(question.defaultButton);
    giveButtonsMnemonics(box);
    for (const auto &[which, text] : question.buttonTexts) {
        if (QAbstractButton *button = box->button(which))
            button->setText(text);
    }
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::finished, context ? context : box, [box, answered](int) {
        const QMessageBox::StandardButton answer = box->standardButton(box->clickedButton());
        answered(answer == QMessageBox::NoButton ? QMessageBox::Cancel : answer);
    });
    box->open();
}

void inform(QWidget *parent, const QString &objectName, const QString &title,
            const QString &richText)
{
    if (responder()) {
        responder()(title, richText, QMessageBox::Close);
        return;
    }
    auto *box = new QMessageBox(parent);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowTitle(title);
    box->setTextFormat(Qt::RichText);
    box->setText(richText);
    box->setIcon(QMessageBox::Information);
    box->setStandardButtons(QMessageBox::Close);
    box->open();
}

void setFileResponder(FileResponder r)
{
    fileResponder() = std::move(r);
}

QString openFileName(QWidget *parent, const QString &caption, const QString &dir,
                     const QString &filter)
{
    if (fileResponder())
        return fileResponder()(caption);
    return QFileDialog::getOpenFileName(parent, caption, dir, filter);
}

QString saveFileName(QWidget *parent, const QString &caption, const QString &dir,
                     const QString &filter)
{
    if (fileResponder())
        return fileResponder()(caption);
    return QFileDialog::getSaveFileName(parent, caption, dir, filter);
}

QStringList openFileNames(QWidget *parent, const QString &caption, const QString &dir,
                          const QString &filter)
{
    if (fileResponder()) {
        const QString one = fileResponder()(caption);
        return one.isEmpty() ? QStringList() : QStringList { one };
    }
    return QFileDialog::getOpenFileNames(parent, caption, dir, filter);
}

QString documentsFolder()
{
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

} // namespace Callscope::Dialogs
