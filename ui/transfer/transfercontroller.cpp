#include "ui/transfer/transfercontroller.h"

#include "core/store/callexchange.h"
#include "core/store/database.h"
#include "core/store/storewriter.h"
#include "ui/widgets/dialogs.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProgressDialog>
#include <QPromise>
#include <QSaveFile>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>
#include <optional>
#include <utility>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

constexpr int kPhases = 4;
constexpr qint64 kChunkBytes = 1 << 20;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(TransferController)
};

TransferResult cancelled(TransferResult result)
{
    result.ok = false;
    result.cancelled = true;
    result.message = Tr::tr("Cancelled; nothing was written.");
    return result;
}

void runExport(QPromise<TransferResult> &promise, std::shared_ptr<std::atomic_bool> stop,
               QString databasePath, TransferResult::Kind kind, qint64 id, QString path)
{
    TransferResult result;
    result.kind = kind;
    result.path = path;
    promise.setProgressRange(0, kPhases);
    Database::Options reader; // an export only reads
    reader.readOnly = true;
    auto opened = Database::open(databasePath, reader);
    if (!opened) {
        result.message = Tr::tr("The history cannot be opened: %1").arg(opened.error().message);
        promise.addResult(result);
        return;
    }
    promise.setProgressValueAndText(1, Tr::tr("Reading the rows…"));
    if (stop->load())
        return void(promise.addResult(cancelled(result)));
    CallStore store(**opened);
    CallExchange exchange(store);
    if (kind == TransferResult::Kind::ExportTree) {
        // The whole tree the call belongs to, from its root.
        auto root = store.revisionRoot(id);
        if (!root) {
            result.message = Tr::tr("The export failed: %1").arg(root.error().message);
            promise.addResult(result);
            return;
        }
        id = root.value();
    }
    StoreResult<QJsonObject> document = kind == TransferResult::Kind::ExportSession
        ? exchange.exportSession(id)
        : kind == TransferResult::Kind::ExportTree ? exchange.exportRevisionTree(id)
                                                   : exchange.exportCalls({ id });
    if (!document) {
        result.message = Tr::tr("The export failed: %1").arg(document.error().message);
        promise.addResult(result);
        return;
    }
    for (const QJsonValue &call : document->value(u"calls"_s).toArray())
        result.callIds.append(call.toObject().value(u"id"_s).toInteger());
    promise.setProgressValueAndText(2, Tr::tr("Writing JSON…"));
    if (stop->load())
        return void(promise.addResult(cancelled(result)));
    const QByteArray bytes = QJsonDocument(document.value()).toJson(QJsonDocument::Indented);
    promise.setProgressValueAndText(3, Tr::tr("Saving the file…"));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        result.message = Tr::tr("Cannot write %1: %2").arg(path, file.errorString());
        promise.addResult(result);
        return;
    }
    for (qint64 at = 0; at < bytes.size(); at += kChunkBytes) {
        if (stop->load()) {
            file.cancelWriting();
            return void(promise.addResult(cancelled(result)));
        }
        file.write(bytes.constData() + at, std::min<qint64>(kChunkBytes, bytes.size() - at));
    }
    if (!file.commit()) {
        result.message = Tr::tr("Cannot write %1: %2").arg(path, file.errorString());
        promise.addResult(result);
        return;
    }
    promise.setProgressValue(kPhases);
    result.ok = true;
    result.message =
        Tr::tr("Exported %n call(s) to %1.", nullptr, int(result.callIds.size())).arg(path);
    promise.addResult(result);
}

TransferResult importFinished(TransferResult result,
                              const StoreResult<CallExchange::ImportResult> &imported)
{
    if (!imported) {
        const StoreError &e = imported.error();
        result.message = e.pointer.isEmpty()
            ? Tr::tr("The import failed: %1").arg(e.message)
            : Tr::tr("The import failed: %1 (at %2)").arg(e.message, e.pointer);
        return result;
    }
    result.ok = true;
    result.callIds = imported->callIds;
    result.sessionIds = imported->sessionIds;
    // Rows whose UUID the history already held are not stored again; the ids above are then
    // the ones already there, so the message counts what is new.
    const int newCalls = int(result.callIds.size()) - imported->callsAlreadyPresent;
    const int newSessions = int(result.sessionIds.size()) - imported->sessionsAlreadyPresent;
    const QString file = QFileInfo(result.path).fileName();
    if (newCalls == 0 && newSessions == 0 && !result.callIds.isEmpty()) {
        result.message = Tr::tr("Nothing new in %1: its %n call(s) are already in this history.",
                                nullptr, int(result.callIds.size()))
                             .arg(file);
        return result;
    }
    result.message = Tr::tr("Imported %n call(s)", nullptr, newCalls)
        + Tr::tr(" and %n session(s) from %1.", nullptr, newSessions).arg(file);
    if (imported->callsAlreadyPresent > 0)
        result.message += u' '
            + Tr::tr("%n call(s) were already in this history and were not stored again.", nullptr,
                     imported->callsAlreadyPresent);
    return result;
}

// Reads, parses and checks the file. With `checked` the rows are not written here: the checked
// document is left in it for the store writer (the process's one writing connection), and the
// result says nothing yet. Without, the rows are written on a connection of the worker's own
// (a controller without a writer: tools and tests).
void runImport(QPromise<TransferResult> &promise, std::shared_ptr<std::atomic_bool> stop,
               QString databasePath, QString path, std::shared_ptr<QJsonValue> checked)
{
    TransferResult result;
    result.kind = TransferResult::Kind::Import;
    result.path = path;
    promise.setProgressRange(0, kPhases);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.message = Tr::tr("Cannot read %1: %2").arg(path, file.errorString());
        promise.addResult(result);
        return;
    }
    QByteArray bytes;
    while (!file.atEnd()) {
        if (stop->load())
            return void(promise.addResult(cancelled(result)));
        bytes += file.read(kChunkBytes);
    }
    promise.setProgressValueAndText(1, Tr::tr("Parsing…"));
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        result.message = Tr::tr("%1 is not valid JSON: %2 at byte %3.")
                             .arg(QFileInfo(path).fileName(), parseError.errorString())
                             .arg(parseError.offset);
        promise.addResult(result);
        return;
    }
    const QJsonValue document =
        json.isObject() ? QJsonValue(json.object()) : QJsonValue(json.array());
    promise.setProgressValueAndText(2, Tr::tr("Checking the document…"));
    if (stop->load())
        return void(promise.addResult(cancelled(result)));
    if (const StoreError problem = CallExchange::validateDocument(document)) {
        result.message = problem.pointer.isEmpty()
            ? Tr::tr("%1 is not a Callscope export: %2")
                  .arg(QFileInfo(path).fileName(), problem.message)
            : Tr::tr("%1 is not a Callscope export: %2 (at %3)")
                  .arg(QFileInfo(path).fileName(), problem.message, problem.pointer);
        promise.addResult(result);
        return;
    }
    promise.setProgressValueAndText(3, Tr::tr("Writing the rows…"));
    if (stop->load())
        return void(promise.addResult(cancelled(result)));
    if (checked) {
        *checked = document;
        promise.addResult(result);
        return;
    }
    auto opened = Database::open(databasePath);
    if (!opened) {
        result.message = Tr::tr("The history cannot be opened: %1").arg(opened.error().message);
        promise.addResult(result);
        return;
    }
    CallStore store(**opened);
    CallExchange exchange(store);
    const auto imported = exchange.importDocument(document);
    if (imported)
        promise.setProgressValue(kPhases);
    promise.addResult(importFinished(result, imported));
}

} // namespace

TransferController::TransferController(const QString &databasePath, QWidget *dialogParent,
                                       QObject *parent)
    : QObject(parent)
    , m_databasePath(databasePath)
    , m_dialogParent(dialogParent)
{
    qRegisterMetaType<TransferResult>();
}

TransferController::~TransferController()
{
    // The worker owns copies of everything it uses; it stops at its next phase boundary.
    cancel();
    if (m_watcher)
        m_watcher->disconnect(this);
}

QFileDialog *TransferController::fileDialog() const
{
    return m_fileDialog;
}

QProgressDialog *TransferController::progressDialog() const
{
    return m_progress;
}

bool TransferController::isBusy() const
{
    return m_watcher != nullptr || m_writing;
}

void TransferController::setWriter(StoreWriter *writer)
{
    m_writer = writer;
}

void TransferController::exportCall(qint64 callId)
{
    askForFile(TransferResult::Kind::ExportCall, callId);
}

void TransferController::exportTree(qint64 callId)
{
    askForFile(TransferResult::Kind::ExportTree, callId);
}

void TransferController::exportSession(qint64 sessionId)
{
    askForFile(TransferResult::Kind::ExportSession, sessionId);
}

void TransferController::importFile()
{
    askForFile(TransferResult::Kind::Import, 0);
}

void TransferController::askForFile(TransferResult::Kind kind, qint64 id)
{
    if (m_fileDialog)
        m_fileDialog->close();
    const bool import = kind == TransferResult::Kind::Import;
    QString title;
    QString suggested;
    switch (kind) {
    case TransferResult::Kind::ExportCall:
        title = tr("Export call %1").arg(id);
        suggested = u"call-%1.json"_s.arg(id);
        break;
    case TransferResult::Kind::ExportTree:
        title = tr("Export the revision tree of call %1").arg(id);
        suggested = u"call-%1-tree.json"_s.arg(id);
        break;
    case TransferResult::Kind::ExportSession:
        title = tr("Export session %1").arg(id);
        suggested = u"session-%1.json"_s.arg(id);
        break;
    case TransferResult::Kind::Import:
        title = tr("Import calls or a session");
        break;
    }
    // The folder used last for an export or import; at first the user's documents (never the
    // folder the studio happened to be started from).
    QString folder = QSettings().value(u"transfer/lastDir"_s).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = Dialogs::documentsFolder();
    auto *dialog = new QFileDialog(m_dialogParent, title, folder,
                                   tr("Callscope exports (*.json);;All files (*)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAcceptMode(import ? QFileDialog::AcceptOpen : QFileDialog::AcceptSave);
    dialog->setFileMode(import ? QFileDialog::ExistingFile : QFileDialog::AnyFile);
    if (!import) {
        dialog->setDefaultSuffix(u"json"_s);
        dialog->selectFile(suggested);
    }
    connect(dialog, &QFileDialog::fileSelected, this, [this, kind, id](const QString &path) {
        QSettings().setValue(u"transfer/lastDir"_s, QFileInfo(path).absolutePath());
        if (kind == TransferResult::Kind::Import)
            startImport(path);
        else
            startExport(kind, id, path);
    });
    m_fileDialog = dialog;
    dialog->open();
}

void TransferController::startExport(TransferResult::Kind kind, qint64 id, const QString &path)
{
    if (isBusy())
        return;
    watch(QtConcurrent::run(runExport, newStopFlag(), m_databasePath, kind, id, path),
          tr("Exporting to %1…").arg(QFileInfo(path).fileName()));
}

void TransferController::startImport(const QString &path)
{
    if (isBusy())
        return;
    m_checked = m_writer ? std::make_shared<QJsonValue>() : nullptr;
    watch(QtConcurrent::run(runImport, newStopFlag(), m_databasePath, path, m_checked),
          tr("Importing %1…").arg(QFileInfo(path).fileName()));
}

void TransferController::cancel()
{
    if (m_stop)
        m_stop->store(true);
}

std::shared_ptr<std::atomic_bool> TransferController::newStopFlag()
{
    m_stop = std::make_shared<std::atomic_bool>(false);
    return m_stop;
}

void TransferController::watch(const QFuture<TransferResult> &future, const QString &label)
{
    m_watcher = new QFutureWatcher<TransferResult>(this);
    auto *progress = new QProgressDialog(label, tr("Cancel"), 0, kPhases, m_dialogParent);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setWindowTitle(tr("Export and import"));
    progress->setMinimumDuration(400);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setValue(0);
    m_progress = progress;
    connect(m_watcher, &QFutureWatcher<TransferResult>::progressValueChanged, progress,
            &QProgressDialog::setValue);
    connect(
        m_watcher, &QFutureWatcher<TransferResult>::progressTextChanged, progress,
        [progress, label](const QString &text) { progress->setLabelText(label + u"\n"_s + text); });
    connect(progress, &QProgressDialog::canceled, this, &TransferController::cancel);
    connect(m_watcher, &QFutureWatcher<TransferResult>::finished, this,
            &TransferController::onFinished);
    m_watcher->setFuture(future);
}

void TransferController::onFinished()
{
    QFutureWatcher<TransferResult> *watcher = m_watcher;
    m_watcher = nullptr;
    TransferResult result;
    if (watcher->future().resultCount() > 0) {
        result = watcher->future().result();
    } else {
        result.cancelled = true;
        result.message = tr("Cancelled; nothing was written.");
    }
    watcher->deleteLater();
    const std::shared_ptr<QJsonValue> checked = std::exchange(m_checked, nullptr);
    if (checked && !result.cancelled && result.message.isEmpty() && !checked->isUndefined()
        && m_writer) {
        writeImport(result, *checked);
        return;
    }
    if (m_progress)
        m_progress->close();
    Q_EMIT finished(result);
}

void TransferController::writeImport(const TransferResult &checked, const QJsonValue &document)
{
    // The rows go through the store writer, in one transaction (it waits for other writers
    // and retries a locked file); the controller stays busy until it is committed.
    m_writing = true;
    auto imported = std::make_shared<std::optional<StoreResult<CallExchange::ImportResult>>>();
    m_writer->perform(
        [document, imported](CallStore &store) {
            CallExchange exchange(store);
            imported->emplace(exchange.importDocument(document));
            WriteResult result;
            if (**imported)
                result.id = qint64(0);
            else
                result.id = (**imported).error(); // a locked file is tried again
            return result;
        },
        this,
        [this, checked, imported](const WriteResult &written) {
            m_writing = false;
            TransferResult result = checked;
            if (imported->has_value())
                result = importFinished(checked, **imported);
            else
                result.message =
                    tr("The history cannot be opened: %1").arg(written.id.error().message);
            if (m_progress) {
                if (result.ok)
                    m_progress->setValue(kPhases);
                m_progress->close();
            }
            Q_EMIT finished(result);
        });
}

} // namespace Callscope
