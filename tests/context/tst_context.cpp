// tst_context: every test class of the context domain in one executable.

#include <QCoreApplication>

int runContextBudgetTests(int argc, char **argv);
int runContextPairingTests(int argc, char **argv);
int runContextCompactionTests(int argc, char **argv);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int failures = 0;
    failures += runContextBudgetTests(argc, argv);
    failures += runContextPairingTests(argc, argv);
    failures += runContextCompactionTests(argc, argv);
    return failures;
}
