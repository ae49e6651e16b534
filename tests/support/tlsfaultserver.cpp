#include "tests/support/tlsfaultserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTemporaryDir>

#include <mutex>

using namespace Qt::StringLiterals;

namespace Callscope::Test {

namespace {

const QString Python = u"/usr/bin/python3"_s; // Debian's, where python3-h2 installs

QString scriptPath()
{
    return QDir(QStringLiteral(CALLSCOPE_TEST_SUPPORT_DIR)).filePath(u"h2faultserver.py"_s);
}

QString writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    return path;
}

} // namespace

TlsFaultServer::TlsFaultServer() = default;

TlsFaultServer::~TlsFaultServer()
{
    stop();
}

bool TlsFaultServer::available(QString *why)
{
    if (!QFileInfo::exists(Python)) {
        *why = Python + u" is missing (tools/dev.sh installs python3-h2)"_s;
        return false;
    }
    QProcess probe;
    probe.start(Python, { u"-c"_s, u"import h2, hpack, ssl; print(h2.__version__)"_s });
    if (!probe.waitForFinished(20000) || probe.exitCode() != 0) {
        *why = u"python3-h2 is missing (tools/dev.sh installs it): "_s
            + QString::fromLocal8Bit(probe.readAllStandardError());
        return false;
    }
    QString error;
    if (certificatePath(&error).isEmpty()) {
        *why = error;
        return false;
    }
    return true;
}

QString TlsFaultServer::certificatePath(QString *error)
{
    // One certificate per test process, in a folder removed when the process exits.
    static std::once_flag once;
    static QString path;
    static QString failure;
    static QTemporaryDir dir;
    std::call_once(once, [] {
        if (!dir.isValid()) {
            failure = u"no temporary folder for the certificate"_s;
            return;
        }
        const QString cert = dir.filePath(u"cert.pem"_s);
        const QString key = dir.filePath(u"key.pem"_s);
        QProcess openssl;
        openssl.start(u"openssl"_s,
                      { u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s,
                        u"ec_paramgen_curve:prime256v1"_s, u"-nodes"_s, u"-keyout"_s, key,
                        u"-out"_s, cert, u"-days"_s, u"2"_s, u"-subj"_s, u"/CN=127.0.0.1"_s,
                        u"-addext"_s, u"subjectAltName=IP:127.0.0.1"_s });
        if (!openssl.waitForFinished(30000) || openssl.exitCode() != 0 || !QFileInfo::exists(cert)
            || !QFileInfo::exists(key)) {
            failure = u"openssl could not make the test certificate: "_s
                + QString::fromLocal8Bit(openssl.readAllStandardError()) + openssl.errorString();
            return;
        }
        path = cert;
    });
    if (error)
        *error = failure;
    return path;
}

bool TlsFaultServer::trustTestCertificate(QString *error)
{
    const QString cert = certificatePath(error);
    if (cert.isEmpty())
        return false;
    const QList<QSslCertificate> certs = QSslCertificate::fromPath(cert, QSsl::Pem);
    if (certs.isEmpty()) {
        if (error)
            *error = u"cannot read "_s + cert;
        return false;
    }
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    if (!config.caCertificates().contains(certs.first())) {
        config.addCaCertificates(certs);
        QSslConfiguration::setDefaultConfiguration(config);
    }
    return true;
}

bool TlsFaultServer::start(const QList<Behavior> &script, const QString &alpn)
{
    stop();
    m_error.clear();
    const QString cert = certificatePath(&m_error);
    if (cert.isEmpty())
        return false;
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid()) {
        m_error = u"no temporary folder"_s;
        return false;
    }
    QJsonArray steps;
    for (qsizetype i = 0; i < script.size(); ++i) {
        const Behavior &b = script[i];
        QJsonArray headers;
        for (const auto &[name, value] : b.headers)
            headers.append(
                QJsonArray { QString::fromLatin1(name.toLower()), QString::fromLatin1(value) });
        QJsonObject step { { u"action"_s, b.action },
                           { u"status"_s, b.status },
                           { u"headers"_s, headers },
                           { u"reset_after"_s, b.resetAfter },
                           { u"drip_ms"_s, b.dripMs } };
        if (!b.resetWhen.isEmpty())
            step.insert(u"reset_when"_s, b.resetWhen);
        if (!b.body.isEmpty())
            step.insert(u"body_file"_s, writeFile(m_dir->filePath(u"body%1"_s.arg(i)), b.body));
        if (!b.chunk.isEmpty())
            step.insert(u"chunk_file"_s, writeFile(m_dir->filePath(u"chunk%1"_s.arg(i)), b.chunk));
        steps.append(step);
    }
    const QString scriptFile =
        writeFile(m_dir->filePath(u"script.json"_s), QJsonDocument(steps).toJson());
    const QString keyFile = QFileInfo(cert).dir().filePath(u"key.pem"_s);
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    m_process->setStandardErrorFile(m_dir->filePath(u"stderr"_s));
    m_process->start(Python,
                     { scriptPath(), u"--cert"_s, cert, u"--key"_s, keyFile, u"--script"_s,
                       scriptFile, u"--log"_s, m_dir->filePath(u"log.jsonl"_s), u"--alpn"_s,
                       alpn });
    QByteArray line;
    while (!line.contains('\n') && m_process->waitForReadyRead(20000))
        line += m_process->readAllStandardOutput();
    if (!line.startsWith("PORT ")) {
        QFile err(m_dir->filePath(u"stderr"_s));
        err.open(QIODevice::ReadOnly);
        m_error =
            u"the HTTP/2 server did not start: "_s + QString::fromLocal8Bit(line + err.readAll());
        stop();
        return false;
    }
    m_port = line.mid(5).trimmed().toInt();
    return m_port > 0;
}

void TlsFaultServer::stop()
{
    if (m_process) {
        m_process->kill();
        m_process->waitForFinished(5000);
        m_process.reset();
    }
}

void TlsFaultServer::readLog(QList<Connection> *connections, QList<Request> *requests) const
{
    if (!m_dir)
        return;
    QFile file(m_dir->filePath(u"log.jsonl"_s));
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        const QString ev = o.value(u"ev"_s).toString();
        if (ev == u"connection"_s && connections) {
            connections->append({ o.value(u"conn"_s).toInt(), o.value(u"alpn"_s).toString(),
                                  o.value(u"preface"_s).toBool() });
        } else if (ev == u"request"_s && requests) {
            Request r;
            r.index = o.value(u"index"_s).toInt();
            r.connection = o.value(u"conn"_s).toInt();
            r.stream = o.value(u"stream"_s).toInt();
            r.method = o.value(u"method"_s).toString().toLatin1();
            r.path = o.value(u"path"_s).toString().toLatin1();
            r.receivedAtMs = qint64(o.value(u"at_ms"_s).toDouble());
            r.bodyBytes = qint64(o.value(u"body_bytes"_s).toDouble());
            r.authorization = o.value(u"authorization"_s).toBool();
            requests->append(r);
        } else if (ev == u"end"_s && requests) {
            const int index = o.value(u"index"_s).toInt();
            for (Request &r : *requests) {
                if (r.index == index && r.how.isEmpty()) {
                    r.how = o.value(u"how"_s).toString();
                    r.bytesSent = qint64(o.value(u"sent"_s).toDouble());
                    r.endedAtMs = qint64(o.value(u"at_ms"_s).toDouble());
                }
            }
        }
    }
}

QList<TlsFaultServer::Connection> TlsFaultServer::connections() const
{
    QList<Connection> out;
    readLog(&out, nullptr);
    return out;
}

QList<TlsFaultServer::Request> TlsFaultServer::requests() const
{
    QList<Request> out;
    readLog(nullptr, &out);
    return out;
}

} // namespace Callscope::Test
