#pragma once

// Help > Documentation: the project's own documents (docs/*.md) read inside the studio, a list
// of pages on the left and the page, rendered from Markdown, on the right. Links between the
// pages follow; links to the web open in the browser.

#include <QDialog>
#include <QString>
#include <QStringList>

class QLabel;
class QListWidget;
class QTextBrowser;

namespace Callscope {

// The folder of the documents: installed beside the program (<prefix>/share/callscope/docs), or
// in a data folder of the system (/usr/share/callscope/docs), else the docs/ of the source
// tree the program was built from. Empty when none of them has the documents.
QString documentationFolder();

class DocumentationDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DocumentationDialog)

public:
    // `folder` empty: says that the documents were not found.
    explicit DocumentationDialog(const QString &folder, QWidget *parent = nullptr);

    // The pages in their reading order (file names such as "architecture.md").
    QStringList pages() const { return m_files; }
    // Shows the page `fileName`; false when there is no such page.
    bool showPage(const QString &fileName);
    QString currentPage() const;

    QListWidget *pageList() const { return m_list; }
    QTextBrowser *browser() const { return m_browser; }

private:
    QString m_folder;
    QStringList m_files;
    QListWidget *m_list = nullptr;
    QTextBrowser *m_browser = nullptr;
    QLabel *m_where = nullptr;
};

} // namespace Callscope
