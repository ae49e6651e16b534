#include "ui/window/filesdock.h"

#include "ui/widgets/displaynames.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

// The page keeps the window's translations (its strings were the window's).
FilesDock::FilesDock(QWidget *parent)
    : QDockWidget(QCoreApplication::translate("Callscope::MainWindow", "Files"), parent)
{
    // The workspace folder's spec files and experiments, as a tree of folders.
    m_fsModel = new QFileSystemModel(this);
    m_fsModel->setObjectName(u"workspaceModel"_s);
    m_fsModel->setNameFilters({ u"*.spec.json"_s, u"*.experiment.json"_s, u"*.json"_s });
    m_fsModel->setNameFilterDisables(false);
    m_fsModel->setFilter(QDir::AllDirs | QDir::Files | QDir::NoDotAndDotDot);
    m_fsModel->setReadOnly(true);

    auto *page = new QWidget(this);
    page->setObjectName(u"filesPage"_s);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);

    auto *folderRow = new QHBoxLayout;
    m_workspaceLabel = new QLabel(page);
    m_workspaceLabel->setObjectName(u"workspaceLabel"_s);
    m_workspaceLabel->setTextFormat(Qt::PlainText);
    m_workspaceLabel->setWordWrap(true);
    auto *openFolder =
        new QPushButton(QCoreApplication::translate("Callscope::MainWindow", "Open Folder…"), page);
    openFolder->setObjectName(u"openFolderButton"_s);
    openFolder->setToolTip(QCoreApplication::translate(
        "Callscope::MainWindow", "List a folder's spec files and experiments here"));
    connect(openFolder, &QPushButton::clicked, this, &FilesDock::showOpenFolderDialog);
    folderRow->addWidget(m_workspaceLabel, 1);
    folderRow->addWidget(openFolder);
    layout->addLayout(folderRow);

    m_workspaceView = new QTreeView(page);
    m_workspaceView->setObjectName(u"workspaceView"_s);
    m_workspaceView->setAccessibleName(
        QCoreApplication::translate("Callscope::MainWindow", "Spec files of the workspace folder"));
    m_workspaceView->setModel(m_fsModel);
    m_workspaceView->setHeaderHidden(true);
    for (int column = 1; column < m_fsModel->columnCount(); ++column)
        m_workspaceView->hideColumn(column);
    m_workspaceView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_workspaceView->hide();
    connect(m_workspaceView, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        if (!m_fsModel->isDir(index))
            Q_EMIT fileActivated(m_fsModel->filePath(index));
    });
    layout->addWidget(m_workspaceView, 3);

    auto *recentTitle =
        new QLabel(QCoreApplication::translate("Callscope::MainWindow", "Recent files"), page);
    recentTitle->setObjectName(u"recentTitle"_s);
    QFont bold = recentTitle->font();
    bold.setBold(true);
    recentTitle->setFont(bold);
    layout->addWidget(recentTitle);
    m_recentList = new QListWidget(page);
    m_recentList->setObjectName(u"recentList"_s);
    m_recentList->setAccessibleName(
        QCoreApplication::translate("Callscope::MainWindow", "Recent files"));
    connect(m_recentList, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        Q_EMIT fileActivated(item->data(Qt::UserRole).toString());
    });
    layout->addWidget(m_recentList, 2);

    setObjectName(u"filesDock"_s);
    setAccessibleName(QCoreApplication::translate("Callscope::MainWindow", "Files"));
    setWidget(page);
    setWorkspaceFolder(QSettings().value(u"workspace/folder"_s).toString());
}

FilesDock::~FilesDock() = default;

void FilesDock::setWorkspaceFolder(const QString &folder)
{
    const QString absolute = folder.isEmpty() ? QString() : QFileInfo(folder).absoluteFilePath();
    m_workspaceFolder = absolute.isEmpty() || !QFileInfo(absolute).isDir() ? QString() : absolute;
    if (m_workspaceFolder.isEmpty()) {
        m_workspaceLabel->setText(
            QCoreApplication::translate("Callscope::MainWindow", "No folder open."));
        m_workspaceLabel->setToolTip(QString());
        m_workspaceView->hide();
        Q_EMIT workspaceFolderChanged(m_workspaceFolder);
        return;
    }
    QSettings().setValue(u"workspace/folder"_s, m_workspaceFolder);
    m_workspaceLabel->setText(QFileInfo(m_workspaceFolder).fileName());
    m_workspaceLabel->setToolTip(QDir::toNativeSeparators(m_workspaceFolder));
    m_workspaceView->setRootIndex(m_fsModel->setRootPath(m_workspaceFolder));
    m_workspaceView->show();
    Q_EMIT workspaceFolderChanged(m_workspaceFolder);
}

void FilesDock::showOpenFolderDialog()
{
    auto *dialog =
        new QFileDialog(this, QCoreApplication::translate("Callscope::MainWindow", "Open Folder"),
                        m_workspaceFolder);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly, true);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &folder) {
        setWorkspaceFolder(folder);
        Q_EMIT folderChosen();
    });
    dialog->open();
}

void FilesDock::setRecentFiles(const QStringList &files)
{
    m_recentList->clear();
    const QStringList labels = distinctFileLabels(files);
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString &path = files.at(i);
        auto *item = new QListWidgetItem(labels.at(i), m_recentList);
        item->setToolTip(QDir::toNativeSeparators(path));
        item->setData(Qt::UserRole, path);
    }
}

} // namespace Callscope
