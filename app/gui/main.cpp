#include "ui/mainwindow.h"

#include <QApplication>

using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
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
