#include "app/cli/runsupport.h"

#include "app/cli/cliutil.h"
#include "core/schema/jsonschema.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QPointer>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

bool appendWholeLine(QFile &out, const QByteArray &bytes, QString *error)
{
    const qint64 before = out.pos();
    errno = 0;
    if (out.write(bytes) == bytes.size() && out.flush())
        return true;
    // An unbuffered QFile leaves "Unknown error"; the system's reason says more.
    *error = errno != 0 ? QString::fromLocal8Bit(std::strerror(errno)) : out.errorString();
    out.unsetError();
    out.resize(before);
    out.seek(before);
    return false;
}

void addTrustOptions(QCommandLineParser &parser)
{
    parser.addOption(
        { u"trust"_s,
          QCoreApplication::translate("Callscope::Cli",
                                      "Run the programs the file starts and "
                                      "read the variables it names (see docs/trust.md).") });
    parser.addOption({ u"allow-key-env"_s,
                       QCoreApplication::translate("Callscope::Cli",
                                                   "Allow this environment variable as a key."),
                       u"NAME"_s });
}

bool trustGiven(const QCommandLineParser &parser)
{
    return parser.isSet(u"trust"_s) || qEnvironmentVariable("CALLSCOPE_TRUST") == u"1"_s;
}

bool passTrust(AppContext &context, const QCommandLineParser &parser, const QList<RunItem> &items,
               const TrustEntry &entry)
{
    CallService *calls = context.calls();
    calls->setAllowedKeyVariables(parser.values(u"allow-key-env"_s));
    if (trustGiven(parser) || (!items.isEmpty() && context.trust()->isTrusted(entry))) {
        calls->setTrustStore(nullptr); // this command's calls run without asking again
        return true;
    }
    if (items.isEmpty())
        return true;
    printError(untrustedText(items));
    std::fprintf(
        stderr, "%s\n",
        qPrintable(QCoreApplication::translate(
            "Callscope::Cli",
            "Nothing was run or sent. If you trust this file, run again with --trust (or set "
            "CALLSCOPE_TRUST=1 on a machine that runs only its own files); a key variable can be "
            "allowed alone with --allow-key-env NAME.")));
    return false;
}

LaunchResult waitFor(CallJob *job)
{
    LaunchResult out;
    QEventLoop loop;
    QObject::connect(job, &CallJob::finished, &loop, [&](const LaunchResult &result) {
        out = result;
        loop.quit();
    });
    loop.exec();
    return out;
}

StopOnSignal::StopOnSignal(std::function<void()> onStop, int handled)
    : m_onStop(std::move(onStop))
{
    if (::pipe2(s_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    s_signals = 0;
    s_handled = std::max(1, handled);
    m_notifier = std::make_unique<QSocketNotifier>(s_pipe[0], QSocketNotifier::Read);
    QObject::connect(m_notifier.get(), &QSocketNotifier::activated, m_notifier.get(), [this] {
        char byte;
        [[maybe_unused]] const auto n = ::read(s_pipe[0], &byte, 1);
        if (m_onStop)
            m_onStop();
    });
    std::signal(SIGINT, &StopOnSignal::handle);
    std::signal(SIGTERM, &StopOnSignal::handle);
}

StopOnSignal::~StopOnSignal()
{
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    m_notifier.reset();
    if (s_pipe[0] >= 0) {
        ::close(s_pipe[0]);
        ::close(s_pipe[1]);
    }
    s_pipe[0] = s_pipe[1] = -1;
}

void StopOnSignal::handle(int signal)
{
    // The Ctrl+C after the handled ones does not wait for the cancel: the default action ends
    // the program.
    s_signals = s_signals + 1;
    if (s_signals > s_handled) {
        std::signal(signal, SIG_DFL);
        std::raise(signal);
        return;
    }
    // A validation in progress (on any thread) stops at its next check of the flag, so the
    // event loop gets to the pipe within a second.
    stopAllValidation();
    if (s_pipe[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const auto n = ::write(s_pipe[1], &byte, 1);
    }
}

std::function<void()> cancelling(CallJob *job)
{
    return [guard = QPointer<CallJob>(job)] {
        if (guard)
            guard->cancel();
    };
}

QString durationText(qint64 ms)
{
    if (ms < 0)
        return u"?"_s;
    const qint64 s = (ms + 999) / 1000;
    if (s < 60)
        return u"%1s"_s.arg(s);
    if (s < 3600)
        return u"%1m%2s"_s.arg(s / 60).arg(s % 60, 2, 10, QChar(u'0'));
    return u"%1h%2m"_s.arg(s / 3600).arg((s % 3600) / 60, 2, 10, QChar(u'0'));
}

} // namespace Callscope::Cli
