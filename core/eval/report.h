#pragma once

// Reports of an experiment's summary (ExperimentRun::summary()): a self-contained HTML page
// with the matrix (cases x variants, each cell's pass ratio over its repeats, colour-coded, with
// tokens, cost, latency and the failing reasons on hover), and the JUnit XML CI systems read.

#include <QJsonObject>
#include <QString>

namespace Callscope {

QString experimentHtml(const QJsonObject &summary);
// One test suite per variant, one test case per case; a failure lists every failing
// assertion's reason, run by run.
QByteArray experimentJunit(const QJsonObject &summary);

} // namespace Callscope
