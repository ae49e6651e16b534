// One executable for the spec domain: each test class runs in turn; the exit code is the
// number of failed classes' failures summed.

#include <QCoreApplication>
#include <QTest>

int runSpecIoTests(int argc, char **argv);
int runLintTests(int argc, char **argv);
int runCliLintTests(int argc, char **argv);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Q_INIT_RESOURCE(resources);
    int failures = 0;
    failures += runSpecIoTests(argc, argv);
    failures += runLintTests(argc, argv);
    failures += runCliLintTests(argc, argv);
    return failures;
}
