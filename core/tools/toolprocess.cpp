#include "core/tools/toolprocess.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QStringDecoder>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Callscope::ToolProcess {

Q_LOGGING_CATEGORY(lcToolProcess, "callscope.tools.process")

QString resolveProgram(const QString &program, const QString &workingDirectory)
{
    if (program.isEmpty())
        return {};
    if (!program.contains(u'/'))
        return QStandardPaths::findExecutable(program);
    const QString base = workingDirectory.isEmpty() ? QDir::currentPath() : workingDirectory;
    const QFileInfo info(QDir(base).absoluteFilePath(program));
    if (!info.exists() || info.isDir() || !info.isExecutable())
        return {};
    return info.absoluteFilePath();
}

void ignoreSigpipe()
{
    struct sigaction current = {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_IGN)
        return;
    struct sigaction ignore = {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, nullptr);
}

void useOwnProcessGroup(QProcess *process)
{
    ignoreSigpipe();
    process->setChildProcessModifier([] {
        ::setpgid(0, 0);
        // The child must not inherit our SIG_IGN: `yes | head` style tools rely on SIGPIPE.
        ::signal(SIGPIPE, SIG_DFL);
    });
}

void signalGroup(qint64 pid, int signal)
{
    if (pid <= 0)
        return; // kill(0) or kill(-1) would reach our own group or everything
    ::kill(-static_cast<pid_t>(pid), signal);
}

namespace {
QList<QPointer<QProcess>> &retiring()
{
    static QList<QPointer<QProcess>> list;
    return list;
}

void pruneRetiring()
{
    retiring().removeIf(
        [](const QPointer<QProcess> &p) { return !p || p->state() == QProcess::NotRunning; });
}
} // namespace

int retiredCount()
{
    pruneRetiring();
    return int(retiring().size());
}

int finishRetired(int maxMs)
{
    QElapsedTimer clock;
    clock.start();
    while (retiredCount() > 0 && clock.elapsed() < maxMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (retiredCount() > 0)
            QThread::msleep(5);
    }
    int killed = 0;
    for (const QPointer<QProcess> &process : std::as_const(retiring())) {
        if (!process || process->state() == QProcess::NotRunning)
            continue;
        signalGroup(process->processId(), SIGKILL);
        process->waitForFinished(1000);
        ++killed;
    }
    retiring().clear();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return killed;
}

void retire(QProcess *process, int graceMs, int stdinGraceMs)
{
    if (!process)
        return;
    process->disconnect();
    // Owned by the application until it has ended, so one still stopping at exit is destroyed
    // (and killed) with the application instead of leaking.
    process->setParent(QCoreApplication::instance());
    if (process->state() == QProcess::NotRunning) {
        process->deleteLater();
        return;
    }
    // Closed read channels make QProcess drop whatever still arrives.
    process->closeReadChannel(QProcess::StandardOutput);
    process->closeReadChannel(QProcess::StandardError);
    process->closeWriteChannel();
    pruneRetiring();
    retiring().append(process);
    const qint64 pid = process->processId();
    QObject::connect(process, &QProcess::finished, process, [process, pid] {
        signalGroup(pid, SIGKILL); // children that outlived the leader
        process->deleteLater();
    });
    const auto terminate = [process, pid, graceMs] {
        if (process->state() == QProcess::NotRunning)
            return;
        signalGroup(pid, SIGTERM);
        QTimer::singleShot(graceMs, process, [process, pid] {
            if (process->state() != QProcess::NotRunning) {
                qCDebug(lcToolProcess) << "process" << pid << "ignored SIGTERM; killing it";
                signalGroup(pid, SIGKILL);
            }
        });
    };
    if (stdinGraceMs > 0)
        QTimer::singleShot(stdinGraceMs, process, terminate);
    else
        terminate();
}

QString decodeCapped(const QByteArray &data, qint64 maxBytes, bool *invalid)
{
    const bool cut = data.size() > maxBytes;
    qsizetype end = cut ? qsizetype(maxBytes) : data.size();
    // Do not split a multi-byte sequence at the cut: that would not be the tool's fault.
    if (cut) {
        while (end > 0 && (uchar(data.at(end)) & 0xC0) == 0x80 && maxBytes - end < 4)
            --end;
    }
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder.decode(data.first(end));
    if (invalid)
        *invalid = decoder.hasError();
    if (cut) {
        text += QCoreApplication::translate("Callscope::ToolProcess", "\n[... cut at %1 bytes]")
                    .arg(maxBytes);
    }
    return text;
}

} // namespace Callscope::ToolProcess
