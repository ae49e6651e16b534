#include "ui/widgets/historyrescuedialog.h"

#include "core/service/appcontext.h"
#include "core/store/database.h"
#include "ui/widgets/dialogs.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QThread>
#include <QVBoxLayout>

namespace Callscope {

namespace {

constexpr auto kDamageKey = "history/damagedFiles";

void rememberDamage(const QString &path)
{
    QSettings settings;
    QStringList paths = settings.value(QLatin1StringView(kDamageKey)).toStringList();
    if (!paths.contains(path)) {
        paths.append(path);
        settings.setValue(QLatin1StringView(kDamageKey), paths);
    }
}

// Runs `work` on a thread of its own while the event loop goes on.
template<typename Work> void runAside(Work work)
{
    QEventLoop loop;
    QThread *thread = QThread::create(std::move(work));
    QObject::connect(thread, &QThread::finished, &loop, &QEventLoop::quit);
    thread->start();
    loop.exec();
    thread->wait();
    delete thread;
}

} // namespace

QStringList HistoryRescueDialog::rememberedDamage()
{
    return QSettings().value(QLatin1StringView(kDamageKey)).toStringList();
}

void HistoryRescueDialog::forgetDamage(const QString &databasePath)
{
    QSettings settings;
    QStringList paths = settings.value(QLatin1StringView(kDamageKey)).toStringList();
    if (paths.removeAll(databasePath) > 0)
        settings.setValue(QLatin1StringView(kDamageKey), paths);
}

bool HistoryRescueDialog::offerAtStart(AppContext &context, const QString &databaseArgument,
                                       QWidget *parent)
{
    const QString path = context.databasePath();
    QString problem;
    if (context.databaseErrorCode() == StoreError::Code::Corrupt) {
        problem = context.databaseError();
    } else if (rememberedDamage().contains(path)) {
        // The last run saw damage; the file may have been repaired since (by the CLI).
        StoreResult<HistoryRescue::CheckReport> report = StoreError();
        runAside([&report, path] { report = HistoryRescue::check(path); });
        if (report && report->ok) {
            forgetDamage(path);
            return false;
        }
        if (report) {
            // The check's first line names the database ("*** in database main ***"): skip it.
            QStringList lines = report->problems;
            lines.removeIf([](const QString &line) { return line.startsWith(u"***"); });
            problem = tr("Parts of the file cannot be read (SQLite's check found %n problem(s); "
                         "the first: %1).",
                         nullptr, int(lines.size()))
                          .arg(lines.value(0));
        } else {
            problem = report.error().message;
        }
    } else {
        return false;
    }
    // The dialog moves the file: this process must not hold it open meanwhile.
    context.closeHistory();
    HistoryRescueDialog dialog(path, problem, parent);
    const bool rescued = dialog.exec() == QDialog::Accepted;
    context.openHistory(databaseArgument);
    if (rescued)
        forgetDamage(path);
    return true;
}

void HistoryRescueDialog::watchForDamage(QWidget *window, AppContext *context)
{
    if (!context)
        return;
    QObject::connect(
        DatabaseMonitor::instance(), &DatabaseMonitor::damageFound, window,
        [window, context](const QString &path, const QString &message) {
            if (QFileInfo(path).absoluteFilePath()
                != QFileInfo(context->databasePath()).absoluteFilePath())
                return;
            if (rememberedDamage().contains(context->databasePath()))
                return; // said once already
            rememberDamage(context->databasePath());
            Dialogs::Question question;
            question.objectName = QStringLiteral("historyDamagedBox");
            question.title = tr("The History Is Damaged");
            question.text = tr("Callscope found part of its history unreadable:\n%1\n\nCalls "
                               "may not be stored until it is repaired. Restart Callscope to "
                               "choose a way back (restore the newest backup, recover what can "
                               "be read, or start a new history); the damaged file is kept.")
                                .arg(message);
            question.icon = QMessageBox::Warning;
            question.buttons = QMessageBox::Yes | QMessageBox::No;
            question.defaultButton = QMessageBox::Yes;
            question.buttonTexts = { { QMessageBox::Yes, tr("&Restart Now") },
                                     { QMessageBox::No, tr("Later") } };
            Dialogs::askLater(
                window, question, window, [window](QMessageBox::StandardButton answer) {
                    if (answer != QMessageBox::Yes)
                        return;
                    if (window->close()) {
                        QProcess::startDetached(QCoreApplication::applicationFilePath(),
                                                QCoreApplication::arguments().mid(1));
                        QCoreApplication::quit();
                    }
                });
        });
}

HistoryRescueDialog::HistoryRescueDialog(const QString &databasePath, const QString &problem,
                                         QWidget *parent)
    : QDialog(parent)
    , m_path(databasePath)
{
    setWindowTitle(tr("The History Is Damaged"));
    setObjectName(QStringLiteral("historyRescueDialog"));
    auto *layout = new QVBoxLayout(this);

    auto *what = new QLabel(this);
    what->setWordWrap(true);
    what->setTextFormat(Qt::PlainText);
    what->setText(tr("Callscope cannot read all of its history at %1.\n\n%2\n\n"
                     "Choose a way back. Whichever you choose, the damaged file is kept beside "
                     "the history under a new name, so nothing is lost for good.")
                      .arg(QDir::toNativeSeparators(databasePath), problem));
    layout->addWidget(what);

    HistoryRescue::BackupInfo newest;
    for (const HistoryRescue::BackupInfo &backup : HistoryRescue::listBackups(databasePath)) {
        if (backup.readable()) {
            newest = backup;
            break;
        }
    }

    auto *buttons = new QDialogButtonBox(this);
    m_restore = buttons->addButton(tr("&Restore Backup"), QDialogButtonBox::AcceptRole);
    m_recover = buttons->addButton(tr("Re&cover What Can Be Read"), QDialogButtonBox::AcceptRole);
    m_startNew = buttons->addButton(tr("Start a &New History"), QDialogButtonBox::AcceptRole);
    m_later = buttons->addButton(tr("Not Now"), QDialogButtonBox::RejectRole);
    m_restore->setObjectName(QStringLiteral("restoreBackupButton"));
    m_recover->setObjectName(QStringLiteral("recoverHistoryButton"));
    m_startNew->setObjectName(QStringLiteral("startNewHistoryButton"));

    auto *backupLine = new QLabel(this);
    backupLine->setObjectName(QStringLiteral("backupLabel"));
    backupLine->setWordWrap(true);
    if (newest.path.isEmpty()) {
        backupLine->setText(
            tr("There is no backup of this history yet, so it cannot be restored."));
        m_restore->setEnabled(false);
        m_recover->setDefault(true);
    } else {
        backupLine->setText(
            tr("Newest good backup: %1, with %n call(s).", nullptr, int(newest.calls))
                .arg(QLocale().toString(newest.createdUtc.toLocalTime(), QLocale::LongFormat)));
        m_restore->setDefault(true);
    }
    layout->addWidget(backupLine);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("rescueStatus"));
    m_status->setWordWrap(true);
    m_status->hide();
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(m_restore, &QPushButton::clicked, this, [this] { choose(Choice::Restore); });
    connect(m_recover, &QPushButton::clicked, this, [this] { choose(Choice::Recover); });
    connect(m_startNew, &QPushButton::clicked, this, [this] { choose(Choice::StartNew); });
    connect(m_later, &QPushButton::clicked, this, &QDialog::reject);
    // The buttons are wired by hand: the box must not close the dialog before the work is done.
    disconnect(buttons, &QDialogButtonBox::accepted, nullptr, nullptr);
    resize(560, sizeHint().height());
}

HistoryRescueDialog::~HistoryRescueDialog() = default;

QPushButton *HistoryRescueDialog::button(Choice choice) const
{
    switch (choice) {
    case Choice::Restore:
        return m_restore;
    case Choice::Recover:
        return m_recover;
    case Choice::StartNew:
        return m_startNew;
    case Choice::None:
        break;
    }
    return m_later;
}

void HistoryRescueDialog::choose(Choice choice)
{
    if (m_busy || choice == Choice::None)
        return;
    m_busy = true;
    m_chosen = choice;
    for (QPushButton *button : { m_restore, m_recover, m_startNew, m_later })
        button->setEnabled(false);
    m_status->setText(choice == Choice::Recover ? tr("Reading what can still be read…")
                                                : tr("Working…"));
    m_status->show();

    // Recovering a large file takes a while: the window stays alive meanwhile.
    const QString path = m_path;
    auto result = std::make_shared<StoreResult<HistoryRescue::RescueReport>>(StoreError());
    QThread *worker = QThread::create([path, choice, result] {
        switch (choice) {
        case Choice::Restore:
            *result = HistoryRescue::restore(path);
            break;
        case Choice::Recover:
            *result = HistoryRescue::recover(path);
            break;
        case Choice::StartNew:
            *result = HistoryRescue::startNew(path);
            break;
        case Choice::None:
            break;
        }
    });
    QPointer<HistoryRescueDialog> self(this);
    connect(worker, &QThread::finished, this, [self, worker, result] {
        worker->deleteLater();
        if (self)
            self->finish(*result);
    });
    worker->start();
}

QString HistoryRescueDialog::resultText() const
{
    return m_status->text();
}

void HistoryRescueDialog::finish(const StoreResult<HistoryRescue::RescueReport> &result)
{
    m_busy = false;
    if (!result) {
        m_status->setText(tr("That did not work: %1").arg(result.error().message));
        for (QPushButton *button : { m_recover, m_startNew, m_later })
            button->setEnabled(true);
        Q_EMIT rescueFinished(false);
        return;
    }
    m_report = result.value();
    QString text;
    switch (m_chosen) {
    case Choice::Restore:
        text = tr("The backup is back in place, with %n call(s).", nullptr, int(m_report.calls));
        break;
    case Choice::Recover:
        text = tr("%n call(s) could be read into the new history.", nullptr, int(m_report.calls));
        if (!m_report.lost.isEmpty())
            text += u' ' + tr("Not readable: %1.").arg(m_report.lost.join(u"; "));
        break;
    case Choice::StartNew:
    case Choice::None:
        text = tr("A new, empty history starts now.");
        break;
    }
    if (!m_report.damagedKeptAs.isEmpty())
        text += u' '
            + tr("The damaged file was kept as %1.")
                  .arg(QDir::toNativeSeparators(m_report.damagedKeptAs));
    m_status->setText(text);
    Q_EMIT rescueFinished(true);
    accept();
}

} // namespace Callscope
