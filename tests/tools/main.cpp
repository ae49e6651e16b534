// tst_tools: the toolkits of core/tools, one test class each, in one executable.

#include <QCoreApplication>

int runCommandToolkitTests(int argc, char **argv);
int runMockToolkitTests(int argc, char **argv);
int runMcpToolkitTests(int argc, char **argv);
int runToolRegistryTests(int argc, char **argv);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int failures = 0;
    failures += runCommandToolkitTests(argc, argv);
    failures += runMockToolkitTests(argc, argv);
    failures += runMcpToolkitTests(argc, argv);
    failures += runToolRegistryTests(argc, argv);
    return failures == 0 ? 0 : 1;
}
