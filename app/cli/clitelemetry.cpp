#include "app/cli/clitelemetry.h"

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/eval/calltelemetry.h"
#include "core/service/callservice.h"

#include <QCoreApplication>

#include <memory>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

std::unique_ptr<Telemetry::OtlpExporter> &exporter()
{
    static std::unique_ptr<Telemetry::OtlpExporter> instance;
    return instance;
}

// Takes "--otlp VALUE" or "--otlp=VALUE" (also with one dash) out of `arguments`; `failed` when
// the option has no value.
std::optional<QString> takeOtlpOption(QStringList &arguments, bool *failed)
{
    std::optional<QString> value;
    for (qsizetype i = 0; i < arguments.size();) {
        const QString &a = arguments.at(i);
        if (a == u"--otlp"_s || a == u"-otlp"_s) {
            if (i + 1 >= arguments.size()) {
                printError(Tr::tr("--otlp needs an endpoint (for example http://localhost:4318)"));
                *failed = true;
                return std::nullopt;
            }
            value = arguments.at(i + 1);
            arguments.remove(i, 2);
        } else if (a.startsWith(u"--otlp="_s) || a.startsWith(u"-otlp="_s)) {
            value = a.mid(a.indexOf(u'=') + 1);
            arguments.remove(i);
        } else {
            ++i;
        }
    }
    return value;
}

} // namespace

bool startTelemetry(QStringList &arguments)
{
    bool failed = false;
    const auto endpoint = takeOtlpOption(arguments, &failed);
    if (failed)
        return false;
    const Telemetry::OtlpConfig config = Telemetry::OtlpConfig::fromEnvironment(
        QProcessEnvironment::systemEnvironment(), endpoint.value_or(QString()));
    if (!config.enabled)
        return true;
    if (!config.problem.isEmpty()) {
        printError(config.problem);
        return false;
    }
    exporter() = std::make_unique<Telemetry::OtlpExporter>(config);
    AppContext::setServiceObserver([](AppContext *context, CallService *service) {
        auto *telemetry = new CallTelemetry(exporter().get(), context->store(), service);
        telemetry->watch(service);
    });
    return true;
}

bool takeOtlpExportFlag(QStringList &arguments)
{
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        if (a.startsWith(u"--otlp="_s) || a.startsWith(u"-otlp="_s))
            return true;
        if (a != u"--otlp"_s && a != u"-otlp"_s)
            continue;
        if (i + 1 >= arguments.size() || arguments.at(i + 1).startsWith(u'-'))
            arguments.remove(i);
        return true;
    }
    return false;
}

Telemetry::OtlpExporter *telemetryExporter()
{
    return exporter().get();
}

void finishTelemetry()
{
    if (!exporter())
        return;
    AppContext::setServiceObserver({});
    exporter()->flush(2000);
    const Telemetry::OtlpExporter::Stats stats = exporter()->stats();
    const qint64 lost = stats.submitted - stats.exported; // in flight ones included
    if (lost > 0)
        printError(QCoreApplication::translate("Cli",
                                               "OTLP export: %n span(s) not delivered "
                                               "(see docs/telemetry.md)",
                                               nullptr, int(lost)));
    exporter().reset();
}

} // namespace Callscope::Cli
