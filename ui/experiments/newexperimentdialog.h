#pragma once

// "New Experiment…": a form for the parts of an experiment file (a name, the spec, a dataset
// given as a file or typed as a few cases, the repeat count, the variants with their spec
// overrides, the assertions with their parameters). Create writes the file where the person
// chooses, but only after the core loader accepted it: the definition is first written to a
// temporary file in the same folder (so relative paths resolve as they will) and loaded; its
// problems are listed in the dialog with their places, and nothing is written until there are
// none.

#include <QDialog>
#include <QJsonObject>
#include <QList>
#include <QString>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;
class QVBoxLayout;

namespace Callscope {

class CallStore;

class NewExperimentDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NewExperimentDialog)

public:
    // `specPath`: the spec to start from (may be empty). `store` serves variants with from_call.
    NewExperimentDialog(const QString &specPath, CallStore *store, QWidget *parent = nullptr);
    ~NewExperimentDialog() override;

    // The parameters an assertion type starts with in the form (an empty object for a type
    // without a template).
    static QJsonObject assertionTemplate(const QString &type);

    // Rows added at the end; the index of the new row.
    int addVariant(const QString &name = {}, const QString &overridesJson = QStringLiteral("{}"));
    int addAssertion(const QString &type = {});
    void removeVariant(int index);
    void removeAssertion(int index);
    int variantCount() const { return int(m_variants.size()); }
    int assertionCount() const { return int(m_assertions.size()); }
    QLineEdit *variantNameEdit(int index) const { return m_variants.at(index).name; }
    QPlainTextEdit *variantJsonEdit(int index) const { return m_variants.at(index).json; }
    QComboBox *assertionTypeCombo(int index) const { return m_assertions.at(index).type; }
    QPlainTextEdit *assertionJsonEdit(int index) const { return m_assertions.at(index).json; }

    // The experiment as it would be written to a file in `baseDir` (paths relative to it);
    // empty with `errors` filled ("where: what") when the form itself is wrong.
    QJsonObject definition(const QString &baseDir, QStringList *errors) const;
    // Checks through the loader and writes `path`; false (and the problems listed) otherwise.
    bool createAt(const QString &path);
    QString createdPath() const { return m_createdPath; }

    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *specEdit() const { return m_spec; }
    QRadioButton *datasetInlineRadio() const { return m_datasetInlineRadio; }
    QTableWidget *casesTable() const { return m_cases; }
    QSpinBox *repeatSpin() const { return m_repeat; }
    // 0 = the number set in Preferences (not written to the file).
    QSpinBox *jobsSpin() const { return m_jobs; }
    // "direct" or "batch" as item data.
    QComboBox *viaCombo() const { return m_via; }
    QTableWidget *errorsView() const { return m_errors; }
    QPushButton *createButton() const { return m_createButton; }

Q_SIGNALS:
    // A file was written and the loader accepted it.
    void created(const QString &path);

private:
    struct VariantRow
    {
        QWidget *box = nullptr;
        QLineEdit *name = nullptr;
        QPlainTextEdit *json = nullptr;
    };
    struct AssertionRow
    {
        QWidget *box = nullptr;
        QComboBox *type = nullptr;
        QPlainTextEdit *json = nullptr;
        QString lastTemplate;
    };

    void chooseFileAndCreate();
    void showProblems(const QStringList &where, const QStringList &what);
    void showFormProblems(const QStringList &problems);
    void updateDatasetMode();

    CallStore *m_store = nullptr;
    QString m_createdPath;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_spec = nullptr;
    QRadioButton *m_datasetFileRadio = nullptr;
    QRadioButton *m_datasetInlineRadio = nullptr;
    QLineEdit *m_dataset = nullptr;
    QWidget *m_datasetFileRow = nullptr;
    QWidget *m_casesBox = nullptr;
    QTableWidget *m_cases = nullptr;
    QSpinBox *m_repeat = nullptr;
    QSpinBox *m_jobs = nullptr;
    QComboBox *m_via = nullptr;
    QVBoxLayout *m_variantsLayout = nullptr;
    QVBoxLayout *m_assertionsLayout = nullptr;
    QList<VariantRow> m_variants;
    QList<AssertionRow> m_assertions;
    QTableWidget *m_errors = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QPushButton *m_createButton = nullptr;
};

} // namespace Callscope
