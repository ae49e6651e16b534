#include "ui/window/documentmanager.h"

#include "core/eval/promptfooimport.h"
#include "core/model/specio.h"
#include "core/secrets/truststore.h"
#include "core/service/callservice.h"
#include "ui/editor/specdocument.h"
#include "ui/editor/specformeditor.h"
#include "ui/run/runpanel.h"
#include "ui/run/transcriptmodel.h"
#include "ui/widgets/dialogs.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/studioservices.h"
#include "ui/window/spectab.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QTabWidget>
#include <QUndoStack>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcDocuments, "callscope.ui.documents", QtInfoMsg)

namespace {

const QString kRecentKey = u"recentFiles"_s;
// Where the spec form once kept a recent-files list of its own: its entries join the one list.
const QString kFormRecentKey = u"editor/recentFiles"_s;

QString specFileFilter()
{
    return QCoreApplication::translate("Callscope::MainWindow",
                                       "Spec files (*.spec.json *.json);;promptfoo configurations "
                                       "(*.yaml *.yml);;All files (*)");
}

// The spec a new document starts from: a response schema to fill in and an engine to pick.
QString newSpecTemplate()
{
    Spec spec;
    spec.systemPrompt =
        QCoreApplication::translate("Callscope::MainWindow", "Describe the task here.");
    spec.responseSchema = QJsonObject {
        { "type"_L1, u"object"_s },
        { "properties"_L1,
          QJsonObject { { "answer"_L1, QJsonObject { { "type"_L1, u"string"_s } } } } },
        { "required"_L1, QJsonArray { u"answer"_s } },
        { "additionalProperties"_L1, false }
    };
    return QString::fromUtf8(saveSpec(spec));
}

} // namespace

DocumentManager::DocumentManager(QTabWidget *tabs, StudioServices *services, QWidget *window)
    : QObject(window)
    , m_tabs(tabs)
    , m_services(services)
    , m_window(window)
{
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (auto *tab = qobject_cast<SpecTab *>(m_tabs->currentWidget()))
            m_lastSpecTab = tab;
    });
    mergeFormRecentFiles();
}

DocumentManager::~DocumentManager() = default;

bool DocumentManager::openSpecFile(const QString &path)
{
    // A promptfoo configuration is an experiment (converted by the core's loader).
    if ((path.endsWith(u".experiment.json"_s) || isPromptfooConfig(path)) && m_experimentOpener)
        return m_experimentOpener(path);
    if (SpecTab *open = tabForFile(path)) {
        // Already open: its tab comes forward. Unchanged here, it shows the file as it is now.
        m_tabs->setCurrentWidget(open);
        QFile file(path);
        if (!open->document()->isModified() && file.open(QIODevice::ReadOnly)
            && QString::fromUtf8(file.readAll()) != open->document()->text()) {
            open->document()->revert();
            open->document()->recheck();
        }
        addRecentFile(path);
        return true;
    }
    // A fresh window's untouched template gives its tab to the first file opened.
    SpecTab *tab = documents().size() == 1 ? currentSpecTab() : nullptr;
    if (!isPristine(tab))
        tab = nullptr;
    SpecDocument *document = tab ? tab->document() : new SpecDocument(this);
    if (const std::optional<QString> error = document->load(path)) {
        if (!tab)
            delete document;
        const QString message =
            QCoreApplication::translate("Callscope::MainWindow", "Cannot open %1: %2")
                .arg(QDir::toNativeSeparators(path), *error);
        qCInfo(lcDocuments) << message;
        if (SpecTab *front = currentSpecTab())
            front->messageBar()->showMessage(message, NoticeBar::Kind::Error);
        removeRecentFile(path);
        return false;
    }
    if (tab) {
        tab->reloadForm();
        updateTabTitle(tab);
    } else {
        tab = addTab(document);
    }
    tab->runPanel()->setInputText(RunPanel::sampleInputFor(document->path()));
    addRecentFile(document->path());
    Q_EMIT documentShown(tab);
    Q_EMIT hint(QCoreApplication::translate("Callscope::MainWindow", "Opened %1")
                    .arg(QDir::toNativeSeparators(document->path())),
                4000);
    return true;
}

QStringList DocumentManager::sampleNames()
{
    QStringList names;
    for (const QString &file :
         QDir(u":/callscope/samples"_s).entryList({ u"*.spec.json"_s }, QDir::Files, QDir::Name))
        names.append(file.chopped(QStringView(u".spec.json").size()));
    return names;
}

bool DocumentManager::openSample(const QString &name)
{
    const QString source = u":/callscope/samples/"_s + name;
    if (!QFile::exists(source + u".spec.json"_s))
        return false;
    const QString folder = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                               .filePath(u"samples"_s);
    if (!QDir().mkpath(folder)) {
        if (SpecTab *front = currentSpecTab())
            front->messageBar()->showMessage(
                QCoreApplication::translate("Callscope::MainWindow",
                                            "Cannot create %1 for the samples.")
                    .arg(QDir::toNativeSeparators(folder)),
                NoticeBar::Kind::Error);
        return false;
    }
    // A copy already there is the user's (it may have been edited): it is opened as it is.
    for (const QString &suffix : { u".spec.json"_s, u".recording.json"_s, u".input.txt"_s }) {
        const QString from = source + suffix;
        const QString to = QDir(folder).filePath(name + suffix);
        if (!QFile::exists(from) || QFile::exists(to))
            continue;
        if (!QFile::copy(from, to)) {
            if (SpecTab *front = currentSpecTab())
                front->messageBar()->showMessage(
                    QCoreApplication::translate("Callscope::MainWindow",
                                                "Cannot copy the sample to %1.")
                        .arg(QDir::toNativeSeparators(to)),
                    NoticeBar::Kind::Error);
            return false;
        }
        // Copies of resources are read-only; the sample is there to be changed.
        QFile::setPermissions(to,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                  | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    }
    return openSpecFile(QDir(folder).filePath(name + u".spec.json"_s));
}

void DocumentManager::newSpec()
{
    auto *document = new SpecDocument(this);
    document->reset(newSpecTemplate());
    Q_EMIT documentShown(addTab(document));
}

std::optional<QString> DocumentManager::saveToFile(const QString &path)
{
    SpecTab *tab = currentSpecTab();
    if (!tab)
        return QCoreApplication::translate("Callscope::MainWindow", "No spec is open.");
    tab->form()->flushPendingEdits();
    SpecDocument *document = tab->document();
    // Another tab holding the same file would now show an old text: it is that file's tab.
    if (SpecTab *other = tabForFile(path); other && other != tab)
        return QCoreApplication::translate("Callscope::MainWindow",
                                           "%1 is open in another tab; close it first.")
            .arg(QDir::toNativeSeparators(path));
    if (const std::optional<QString> error = document->saveTo(path)) {
        const QString message =
            QCoreApplication::translate("Callscope::MainWindow", "Cannot save %1: %2")
                .arg(QDir::toNativeSeparators(path), *error);
        tab->messageBar()->showMessage(message, NoticeBar::Kind::Error);
        return message;
    }
    addRecentFile(document->path());
    // What the user saved in the studio is theirs: it runs without the trust question. The spec
    // is the document's check of the saved text (made on a worker thread), when it comes.
    if (m_services && m_services->calls()->trustStore()) {
        const QString saved = document->text();
        document->whenChecked(this, [this, document = QPointer<SpecDocument>(document), saved] {
            TrustStore *store = m_services ? m_services->calls()->trustStore() : nullptr;
            if (store && document && document->text() == saved && document->spec())
                store->trust(trustEntryFor(*document->spec()));
        });
    }
    const int errors = document->count(SpecFinding::Severity::Error);
    Q_EMIT hint(errors == 0 ? QCoreApplication::translate("Callscope::MainWindow", "Saved %1")
                                  .arg(QDir::toNativeSeparators(document->path()))
                            : QCoreApplication::translate("Callscope::MainWindow",
                                                          "Saved %1 (it still has errors)")
                                  .arg(QDir::toNativeSeparators(document->path())),
                4000);
    Q_EMIT documentSaved(document);
    return std::nullopt;
}

void DocumentManager::save()
{
    if (currentFile().isEmpty())
        showSaveAsDialog();
    else
        saveToFile(currentFile());
}

void DocumentManager::revert()
{
    SpecTab *tab = currentSpecTab();
    if (!tab || tab->document()->path().isEmpty())
        return;
    if (const std::optional<QString> error = tab->document()->revert()) {
        tab->messageBar()->showMessage(
            QCoreApplication::translate("Callscope::MainWindow", "Cannot read %1 again: %2")
                .arg(QDir::toNativeSeparators(tab->document()->path()), *error),
            NoticeBar::Kind::Error);
        return;
    }
    Q_EMIT hint(QCoreApplication::translate("Callscope::MainWindow",
                                            "Read %1 again; Undo brings the changes back.")
                    .arg(QDir::toNativeSeparators(tab->document()->path())),
                5000);
}

void DocumentManager::showOpenDialog()
{
    const QString start =
        !currentFile().isEmpty() ? QFileInfo(currentFile()).absolutePath() : m_startFolder;
    auto *dialog =
        new QFileDialog(m_window, QCoreApplication::translate("Callscope::MainWindow", "Open Spec"),
                        start, specFileFilter());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &path) { openSpecFile(path); });
    dialog->open();
}

void DocumentManager::showSaveAsDialog(const std::function<void()> &afterSave)
{
    auto *dialog = new QFileDialog(
        m_window, QCoreApplication::translate("Callscope::MainWindow", "Save Spec As"),
        currentFile().isEmpty() ? m_startFolder : currentFile(), specFileFilter());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(u"spec.json"_s);
    connect(dialog, &QFileDialog::fileSelected, this, [this, afterSave](const QString &path) {
        if (!saveToFile(path) && afterSave)
            afterSave();
    });
    dialog->open();
}

void DocumentManager::confirmDiscard(SpecDocument *document, const std::function<void()> &proceed)
{
    SpecTab *tab = specTab(document);
    if (tab)
        tab->form()->flushPendingEdits();
    if (!document || !document->isModified()) {
        proceed();
        return;
    }
    if (tab)
        m_tabs->setCurrentWidget(tab);
    Dialogs::Question question;
    question.objectName = u"unsavedChangesBox"_s;
    question.title = QCoreApplication::translate("Callscope::MainWindow", "Unsaved Changes");
    question.text =
        QCoreApplication::translate("Callscope::MainWindow", "%1 has changes that are not saved.")
            .arg(document->displayName());
    question.informativeText =
        QCoreApplication::translate("Callscope::MainWindow", "Save them first?");
    question.buttons = QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel;
    question.defaultButton = QMessageBox::Save;
    question.icon = QMessageBox::Warning;
    QPointer<SpecDocument> guard(document);
    Dialogs::askLater(m_window, question, this,
                      [this, guard, proceed](QMessageBox::StandardButton button) {
                          if (!guard)
                              return;
                          if (button == QMessageBox::Discard) {
                              proceed();
                          } else if (button == QMessageBox::Save) {
                              if (SpecTab *owner = specTab(guard))
                                  m_tabs->setCurrentWidget(owner);
                              if (guard->path().isEmpty())
                                  showSaveAsDialog(proceed);
                              else if (!saveToFile(guard->path()))
                                  proceed();
                          }
                      });
}

void DocumentManager::confirmDiscardAll(const std::function<void()> &proceed)
{
    for (SpecDocument *document : documents()) {
        if (document->isModified()) {
            confirmDiscard(document, [this, document, proceed] {
                // Discarded or saved: this one no longer holds the close up.
                document->setClean();
                confirmDiscardAll(proceed);
            });
            return;
        }
    }
    proceed();
}

QStringList DocumentManager::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void DocumentManager::mergeFormRecentFiles()
{
    // Once: the form's entries go after the window's own (newest first in each), and its key goes.
    QSettings settings;
    if (!settings.contains(kFormRecentKey))
        return;
    QStringList files = settings.value(kRecentKey).toStringList();
    for (const QString &path : settings.value(kFormRecentKey).toStringList()) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        if (!path.isEmpty() && !files.contains(absolute))
            files.append(absolute);
    }
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentKey, files);
    settings.remove(kFormRecentKey);
}

void DocumentManager::addRecentFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(kRecentKey, files);
    Q_EMIT recentFilesChanged();
}

void DocumentManager::removeRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    QSettings().setValue(kRecentKey, files);
    Q_EMIT recentFilesChanged();
}

SpecTab *DocumentManager::currentSpecTab() const
{
    if (auto *tab = qobject_cast<SpecTab *>(m_tabs->currentWidget()))
        return tab;
    if (m_lastSpecTab && m_tabs->indexOf(m_lastSpecTab) >= 0)
        return m_lastSpecTab;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *tab = qobject_cast<SpecTab *>(m_tabs->widget(i)))
            return tab;
    }
    return nullptr;
}

SpecDocument *DocumentManager::currentDocument() const
{
    SpecTab *tab = currentSpecTab();
    return tab ? tab->document() : nullptr;
}

QList<SpecDocument *> DocumentManager::documents() const
{
    QList<SpecDocument *> list;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *tab = qobject_cast<SpecTab *>(m_tabs->widget(i)))
            list.append(tab->document());
    }
    return list;
}

SpecTab *DocumentManager::specTab(SpecDocument *document) const
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        auto *tab = qobject_cast<SpecTab *>(m_tabs->widget(i));
        if (tab && tab->document() == document)
            return tab;
    }
    return nullptr;
}

SpecTab *DocumentManager::tabForFile(const QString &path) const
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (SpecDocument *document : documents()) {
        if (!document->path().isEmpty() && document->path() == absolute)
            return specTab(document);
    }
    return nullptr;
}

QString DocumentManager::currentFile() const
{
    SpecDocument *document = currentDocument();
    return document ? document->path() : QString();
}

int DocumentManager::openDocumentTab(QWidget *page, const QString &title)
{
    int index = m_tabs->indexOf(page);
    if (index < 0)
        index = m_tabs->addTab(page, title);
    else
        m_tabs->setTabText(index, title);
    m_tabs->setCurrentIndex(index);
    return index;
}

void DocumentManager::closeDocumentTab(int index, const std::function<void()> &done)
{
    QWidget *page = m_tabs->widget(index);
    if (!page)
        return;
    auto *tab = qobject_cast<SpecTab *>(page);
    if (!tab) {
        m_tabs->removeTab(index);
        if (page->property("keepWhenClosed").toBool())
            page->hide();
        else
            page->deleteLater();
        if (done)
            done();
        return;
    }
    QPointer<SpecTab> guard(tab);
    confirmDiscard(tab->document(), [this, guard, done] {
        if (!guard)
            return;
        // A run in flight is cancelled; its call is still stored, as cancelled.
        if (guard->runPanel()->isRunning())
            guard->runPanel()->stop();
        m_tabs->removeTab(m_tabs->indexOf(guard));
        guard->deleteLater();
        // The window always has a spec to edit.
        if (documents().isEmpty())
            newSpec();
        else
            Q_EMIT documentClosed();
        if (done)
            done();
    });
}

void DocumentManager::updateTabTitle(SpecTab *tab)
{
    const int index = m_tabs->indexOf(tab);
    if (index < 0)
        return;
    SpecDocument *document = tab->document();
    QString title = document->displayName();
    if (document->isModified())
        title += u" *"_s;
    QString tip = document->path().isEmpty()
        ? QCoreApplication::translate("Callscope::MainWindow", "Not saved yet")
        : QDir::toNativeSeparators(document->path());
    // A run waiting for the person shows as a sign on the tab, not as a dot in its title (a
    // dot reads as "not saved").
    if (tab->isWaiting())
        tip += u"\n"_s + QCoreApplication::translate("Callscope::MainWindow", "waiting for you");
    m_tabs->setTabIcon(
        index,
        tab->isWaiting() ? m_tabs->style()->standardIcon(QStyle::SP_MessageBoxQuestion) : QIcon());
    // A tab title is taken for a mnemonic otherwise.
    title.replace(u'&', u"&&"_s);
    m_tabs->setTabText(index, title);
    m_tabs->setTabToolTip(index, tip);
}

SpecTab *DocumentManager::addTab(SpecDocument *document)
{
    SpecTab *tab = m_tabFactory(document);
    // A badge on the tab while its run waits for the person, for when another tab is in front.
    connect(tab, &SpecTab::waitingChanged, this, [this, tab] { updateTabTitle(tab); });
    connect(document, &SpecDocument::modifiedChanged, this, [this, tab] { updateTabTitle(tab); });
    connect(document, &SpecDocument::pathChanged, this, [this, tab] { updateTabTitle(tab); });
    const int index = m_tabs->addTab(tab, document->displayName());
    updateTabTitle(tab);
    m_tabs->setCurrentIndex(index);
    return tab;
}

bool DocumentManager::isPristine(SpecTab *tab) const
{
    return tab && tab->document()->path().isEmpty() && !tab->document()->isModified()
        && tab->document()->undoStack()->count() == 0 && !tab->runPanel()->isRunning()
        && !tab->runPanel()->lastResult() && tab->runPanel()->transcript()->rowCount() == 0;
}

void DocumentManager::clearRecentFiles()
{
    QSettings().remove(kRecentKey);
    Q_EMIT recentFilesChanged();
}

} // namespace Callscope
