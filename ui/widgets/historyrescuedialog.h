#pragma once

// The way back from a damaged history, offered by the studio: what happened, the newest good
// backup (its date and number of calls), and three choices — restore that backup, recover
// what can still be read into a new file, or start a new history — plus "Not now". Every
// choice keeps the damaged file beside the history, renamed. The work runs off the GUI
// thread; the dialog says what it did and where the old file went.

#include "core/store/historyrescue.h"

#include <QDialog>

class QLabel;
class QPushButton;

namespace Callscope {

class AppContext;

class HistoryRescueDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryRescueDialog)

public:
    enum class Choice { None, Restore, Recover, StartNew };

    HistoryRescueDialog(const QString &databasePath, const QString &problem,
                        QWidget *parent = nullptr);
    ~HistoryRescueDialog() override;

    // At the studio's start, before the window: when the history could not be opened because
    // it is damaged, or a previous run found it damaged (and a check confirms it), closes it,
    // asks, and opens it again after a way back was taken. `databaseArgument` is --db (empty:
    // the usual history). Returns true when the dialog was shown.
    static bool offerAtStart(AppContext &context, const QString &databaseArgument,
                             QWidget *parent = nullptr);

    // While the studio runs: when SQLite finds the history damaged, remembers it for the next
    // start and tells the user once, offering to restart into the way back.
    static void watchForDamage(QWidget *window, AppContext *context);

    // The files a previous run found damaged (QSettings), and forgetting one.
    static QStringList rememberedDamage();
    static void forgetDamage(const QString &databasePath);

    // Runs the choice as if its button was pressed (tests, and the buttons themselves).
    void choose(Choice choice);

    Choice chosen() const { return m_chosen; }
    // After accept(): what the rescue did; the history at the path can be opened again.
    const HistoryRescue::RescueReport &report() const { return m_report; }
    QString resultText() const;
    QPushButton *button(Choice choice) const;

Q_SIGNALS:
    void rescueFinished(bool ok);

private:
    void finish(const StoreResult<HistoryRescue::RescueReport> &result);

    QString m_path;
    QLabel *m_status = nullptr;
    QPushButton *m_restore = nullptr;
    QPushButton *m_recover = nullptr;
    QPushButton *m_startNew = nullptr;
    QPushButton *m_later = nullptr;
    Choice m_chosen = Choice::None;
    HistoryRescue::RescueReport m_report;
    bool m_busy = false;
};

} // namespace Callscope
