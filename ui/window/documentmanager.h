#pragma once

// The open specs of a window and their files: which spec tab is in front, opening a file or a
// bundled sample (a file already open brings its tab forward), a new spec from the template,
// Save, Save As, Revert, the recent files (in the settings) and the question before unsaved
// changes are dropped. The window makes the tabs (the manager asks it through the tab factory,
// so the window wires each one) and keeps the menus and the layout.

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QTabWidget;
class QWidget;

namespace Callscope {

class SpecDocument;
class SpecTab;
class StudioServices;

class DocumentManager final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DocumentManager)

public:
    // Makes the tab of a document, wired to the window (the manager adds it to the tabs).
    using TabFactory = std::function<SpecTab *(SpecDocument *document)>;

    // `tabs` holds the spec tabs (among other pages); `window` is the parent of the dialogs.
    DocumentManager(QTabWidget *tabs, StudioServices *services, QWidget *window);
    ~DocumentManager() override;

    void setTabFactory(TabFactory factory) { m_tabFactory = std::move(factory); }
    // Experiment files (*.experiment.json) opened from here go to `opener`, not to a spec tab.
    void setExperimentOpener(std::function<bool(const QString &path)> opener)
    {
        m_experimentOpener = std::move(opener);
    }
    // Where the open and save dialogs start when the spec in front has no file.
    void setStartFolder(const QString &folder) { m_startFolder = folder; }

    // The spec tab in front (the spec tab shown, or the last one shown when another page is in
    // front), and every open document.
    SpecTab *currentSpecTab() const;
    SpecDocument *currentDocument() const;
    QList<SpecDocument *> documents() const;
    SpecTab *specTab(SpecDocument *document) const;
    // The tab that holds `path`, or nullptr.
    SpecTab *tabForFile(const QString &path) const;
    QString currentFile() const;

    // Opens the spec file in a tab of its own (a file already open: its tab comes to the
    // front). False when the file cannot be read (the tab's message bar says why).
    bool openSpecFile(const QString &path);
    // The bundled samples (names such as "planner"), and opening one: it is copied out of the
    // program into the data folder the first time, with its recording and input beside it.
    static QStringList sampleNames();
    bool openSample(const QString &name);
    // An unsaved spec from the template, in a new tab.
    void newSpec();

    // Writes the current spec's text to `path`, which becomes its file; the error otherwise.
    std::optional<QString> saveToFile(const QString &path);
    void save();
    void revert();
    void showOpenDialog();
    // `afterSave` runs once the file is written (not on Cancel or an error).
    void showSaveAsDialog(const std::function<void()> &afterSave = {});

    // Runs `proceed` once the document's unsaved changes are saved or discarded; not at all on
    // Cancel.
    void confirmDiscard(SpecDocument *document, const std::function<void()> &proceed);
    // The same for every open document, one after another (closing the window).
    void confirmDiscardAll(const std::function<void()> &proceed);

    // Adds `page` as a closable tab (or brings it to the front when it is one already) and
    // returns its index. Closing the tab deletes the page, unless its property
    // "keepWhenClosed" is true (it is then only taken out of the tabs, to come back later).
    int openDocumentTab(QWidget *page, const QString &title);
    // Closes a tab; a spec with unsaved changes asks first (then `done` runs, or not at all on
    // Cancel). A run in flight in it is cancelled; the last spec tab gives way to a new spec.
    void closeDocumentTab(int index, const std::function<void()> &done = {});

    static constexpr int kMaxRecentFiles = 8;
    QStringList recentFiles() const;
    void addRecentFile(const QString &path);
    void removeRecentFile(const QString &path);
    void clearRecentFiles();
    // Takes the entries of the recent-files list the spec form once kept into the one list.
    void mergeFormRecentFiles();

Q_SIGNALS:
    // A document was opened or made and its tab is in front.
    void documentShown(SpecTab *tab);
    // A spec tab was closed and others remain.
    void documentClosed();
    // The document was written to its file.
    void documentSaved(SpecDocument *document);
    void recentFilesChanged();
    // A passing hint for the status bar ("Opened …", "Saved …").
    void hint(const QString &text, int timeoutMs);

private:
    // The factory's tab, added to the tabs with a title that follows the document.
    SpecTab *addTab(SpecDocument *document);
    // "name *" while modified, "● " while its run waits; the file as the tooltip.
    void updateTabTitle(SpecTab *tab);
    // A fresh window's untitled, unchanged template tab (replaced by the first file opened).
    bool isPristine(SpecTab *tab) const;

    QTabWidget *m_tabs = nullptr;
    StudioServices *m_services = nullptr;
    QWidget *m_window = nullptr;
    TabFactory m_tabFactory;
    std::function<bool(const QString &path)> m_experimentOpener;
    QString m_startFolder;
    QPointer<SpecTab> m_lastSpecTab; // the spec tab shown last
};

} // namespace Callscope
