#pragma once

// Every modal question of the studio (unsaved changes, overwrite) and every modal notice goes
// through these wrappers, so tests can answer them without a real dialog: set a responder and
// it is asked instead. (What concerns one view is said inline, in its NoticeBar; the status bar
// only carries passing hints.)

#include <QList>
#include <QMessageBox>
#include <QString>

#include <functional>
#include <utility>

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

// A question asked without blocking: the box is window-modal over `parent` and named
// `objectName` (tests may find it and click); `answered` gets the button chosen (Cancel when
// the box is closed otherwise), unless `context` is gone by then. With a responder installed,
// the responder answers instead and `answered` runs at once.
struct Question
{
    QString objectName;
    QString title;
    QString text;
    QString informativeText;
    QMessageBox::StandardButtons buttons = QMessageBox::Ok;
    QMessageBox::StandardButton defaultButton = QMessageBox::NoButton;
    QMessageBox::Icon icon = QMessageBox::Question;
    // Words of its own for a button ("&Restart Now" on Yes), instead of the standard ones.
    QList<std::pair<QMessageBox::StandardButton, QString>> buttonTexts;
};
void askLater(QWidget *parent, const Question &question, QObject *context,
              const std::function<void(QMessageBox::StandardButton)> &answered);

// A notice in rich text that needs no answer (About), window-modal over `parent`, named
// `objectName`; closes with its Close button. Not shown while a responder is installed (the
// responder is told instead, and its answer ignored).
void inform(QWidget *parent, const QString &objectName, const QString &title,
            const QString &richText);

// Same idea for file names: a test can answer instead of the file dialog.
using FileResponder = std::function<QString(const QString &caption)>;
void setFileResponder(FileResponder responder);
QString openFileName(QWidget *parent, const QString &caption, const QString &dir,
                     const QString &filter);
QString saveFileName(QWidget *parent, const QString &caption, const QString &dir,
                     const QString &filter);
QStringList openFileNames(QWidget *parent, const QString &caption, const QString &dir,
                          const QString &filter);

// Where a file dialog for the user's own work starts when nothing better is known: their
// documents folder, or home when there is none.
QString documentsFolder();

} // namespace Callscope::Dialogs
