#pragma once

// Decisions that need a modal answer (unsaved changes, overwrite) go through these wrappers so
// tests can answer them without a real dialog: set a responder and it is asked instead.

#include <QMessageBox>
#include <QString>

#include <functional>

namespace Callscope::Dialogs {

using Responder = std::function<QMessageBox::StandardButton(
    const QString &title, const QString &text, QMessageBox::StandardButtons buttons)>;

// Installs (or with an empty function removes) the test responder.
void setResponder(Responder responder);

// Gives Save, Discard, Yes and No an Alt key ("&Save", "&Discard") in `box`.
void giveButtonsMnemonics(QMessageBox *box);

QMessageBox::StandardButton ask(QWidget *parent, const QString &title, const QString &text,
                                QMessageBox::StandardButtons buttons,
                                QMessageBox::StandardButton defaultButton = QMessageBox::NoButton);

// Same idea for file names: a test can answer instead of the file dialog.
using FileResponder = std::function<QString(const QString &caption)>;
void setFileResponder(FileResponder responder);
QString openFileName(QWidget *parent, const QString &caption, const QString &dir,
                     const QString &filter);
QString saveFileName(QWidget *parent, const QString &caption, const QString &dir,
                     const QString &filter);
QStringList openFileNames(QWidget *parent, const QString &caption, const QString &dir,
                          const QString &filter);

} // namespace Callscope::Dialogs
