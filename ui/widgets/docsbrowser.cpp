#include "ui/widgets/docsbrowser.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// A folder holds the documents when it has the first page a newcomer reads.
bool hasDocuments(const QString &folder)
{
    return !folder.isEmpty() && QFileInfo::exists(QDir(folder).filePath(u"user-guide.md"_s));
}

// The page's first "# " heading, else its file name.
QString pageTitle(const QString &path)
{
    QFile file(path);
    if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        for (int i = 0; i < 20 && !file.atEnd(); ++i) {
            const QString line = QString::fromUtf8(file.readLine()).trimmed();
            if (line.startsWith(u"# "_s))
                return line.mid(2).remove(u'`');
        }
    }
    return QFileInfo(path).completeBaseName();
}

} // namespace

QString documentationFolder()
{
    QStringList candidates {
        QDir(QCoreApplication::applicationDirPath()).filePath(u"../share/callscope/docs"_s)
    };
    candidates.append(QStandardPaths::locate(QStandardPaths::GenericDataLocation,
                                             u"callscope/docs"_s, QStandardPaths::LocateDirectory));
#ifdef CALLSCOPE_DOCS_SOURCE_DIR
    candidates.append(QStringLiteral(CALLSCOPE_DOCS_SOURCE_DIR));
#endif
    for (const QString &folder : std::as_const(candidates)) {
        if (hasDocuments(folder))
            return QDir(folder).canonicalPath();
    }
    return {};
}

DocumentationDialog::DocumentationDialog(const QString &folder, QWidget *parent)
    : QDialog(parent)
    , m_folder(folder)
    , m_list(new QListWidget(this))
    , m_browser(new QTextBrowser(this))
    , m_where(new QLabel(this))
{
    setObjectName(u"documentationDialog"_s);
    setWindowTitle(tr("Callscope Documentation"));
    m_list->setObjectName(u"documentationPages"_s);
    m_list->setAccessibleName(tr("Documentation pages"));
    m_browser->setObjectName(u"documentationPage"_s);
    m_browser->setAccessibleName(tr("Documentation page"));
    m_browser->setOpenLinks(false);
    m_where->setWordWrap(true);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);

    if (hasDocuments(folder)) {
        // A user's reading order first (the guide, then the references), then the detail pages
        // by name; how Callscope is built is for contributors and comes last.
        const QStringList first { u"user-guide.md"_s, u"spec-format.md"_s, u"cli.md"_s,
                                  u"export.md"_s };
        const QStringList last { u"architecture.md"_s };
        const QDir dir(folder);
        for (const QString &name : first) {
            if (dir.exists(name))
                m_files.append(name);
        }
        for (const QString &name : dir.entryList({ u"*.md"_s }, QDir::Files, QDir::Name)) {
            if (!m_files.contains(name) && !last.contains(name))
                m_files.append(name);
        }
        for (const QString &name : last) {
            if (dir.exists(name))
                m_files.append(name);
        }
        for (const QString &name : std::as_const(m_files)) {
            auto *item = new QListWidgetItem(pageTitle(dir.filePath(name)), m_list);
            item->setData(Qt::UserRole, name);
            item->setToolTip(dir.filePath(name));
        }
        m_browser->setSearchPaths({ folder });
        m_where->setText(tr("The documents are in %1.").arg(QDir::toNativeSeparators(folder)));
    } else {
        m_list->hide();
        m_browser->setPlainText(
            tr("The documentation was not found. It is installed with the package in "
               "/usr/share/callscope/docs, and is in the docs folder of the source tree."));
    }

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < m_files.size())
            m_browser->setSource(QUrl::fromLocalFile(QDir(m_folder).filePath(m_files.at(row))),
                                 QTextDocument::MarkdownResource);
    });
    // A link to another page opens it here (and selects it in the list); anchors stay in the
    // page; anything else (the web) goes to the desktop's browser.
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == u"http" || url.scheme() == u"https" || url.scheme() == u"mailto") {
            QDesktopServices::openUrl(url);
            return;
        }
        const QUrl resolved = m_browser->source().resolved(url);
        const QString name = QFileInfo(resolved.toLocalFile()).fileName();
        if (!resolved.fragment().isEmpty()
            && resolved.adjusted(QUrl::RemoveFragment)
                == m_browser->source().adjusted(QUrl::RemoveFragment)) {
            m_browser->scrollToAnchor(resolved.fragment());
            return;
        }
        if (!showPage(name))
            QDesktopServices::openUrl(resolved);
    });

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_list);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    // The list is as wide as its longest title (up to 40 % of the dialog); a longer one wraps
    // instead of being cut.
    m_list->setWordWrap(true);
    m_list->setTextElideMode(Qt::ElideNone);
    int widest = 0;
    for (int row = 0; row < m_list->count(); ++row)
        widest =
            std::max(widest, m_list->fontMetrics().horizontalAdvance(m_list->item(row)->text()));
    const int listWidth = std::min(widest + 2 * m_list->frameWidth() + 12
                                       + m_list->style()->pixelMetric(QStyle::PM_ScrollBarExtent),
                                   980 * 2 / 5);
    splitter->setSizes({ std::max(200, listWidth), 980 - std::max(200, listWidth) });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_where, 1);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);
    resize(980, 680);
    if (!m_files.isEmpty())
        m_list->setCurrentRow(0);
}

bool DocumentationDialog::showPage(const QString &fileName)
{
    const qsizetype row = m_files.indexOf(fileName);
    if (row < 0)
        return false;
    if (m_list->currentRow() == int(row))
        m_browser->setSource(QUrl::fromLocalFile(QDir(m_folder).filePath(fileName)),
                             QTextDocument::MarkdownResource);
    else
        m_list->setCurrentRow(int(row));
    return true;
}

QString DocumentationDialog::currentPage() const
{
    const int row = m_list->currentRow();
    return row >= 0 && row < m_files.size() ? m_files.at(row) : QString();
}

} // namespace Callscope
