#include "ui/mainwindow.h"

#include <QApplication>

#include <csignal>

using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    // A tool or MCP server that exits without reading its stdin must not kill us with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"Callscope"_s);
    QApplication::setApplicationName(u"callscope"_s);
    QApplication::setApplicationDisplayName(u"Callscope"_s);
    QApplication::setApplicationVersion(QStringLiteral(CALLSCOPE_VERSION));

    Callscope::MainWindow window;
    const QStringList args = QApplication::arguments();
    if (args.size() > 1)
        window.openSpecFile(args.at(1));
    window.show();
    return QApplication::exec();
}
