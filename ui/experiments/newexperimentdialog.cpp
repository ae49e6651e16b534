#include "ui/experiments/newexperimentdialog.h"

#include "core/eval/assertions.h"
#include "core/eval/experiment.h"
#include "ui/widgets/dialogs.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryFile>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// Shared with Open, so both start in the folder last used.
const auto kLastDirKey = u"experiments/lastDirectory"_s;

// The text of a JSON object as the form shows it: indented, unless it is empty.
QString objectText(const QJsonObject &object)
{
    if (object.isEmpty())
        return u"{}"_s;
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)).trimmed();
}

// The object typed in `text`, or what is wrong with it (with the line and column).
std::optional<QJsonObject> parseObject(const QString &text, QString *problem)
{
    const QByteArray data = text.trimmed().isEmpty() ? QByteArray("{}") : text.toUtf8();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError) {
        int line = 1, column = 1;
        for (qsizetype i = 0; i < error.offset && i < data.size(); ++i) {
            if (data[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        *problem = NewExperimentDialog::tr("not valid JSON at line %1, column %2: %3")
                       .arg(line)
                       .arg(column)
                       .arg(error.errorString());
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *problem = NewExperimentDialog::tr("must be a JSON object such as {\"max_turns\": 2}");
        return std::nullopt;
    }
    return doc.object();
}

QPlainTextEdit *jsonEdit(const QString &text, QWidget *parent)
{
    auto *edit = new QPlainTextEdit(text, parent);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setTabChangesFocus(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    const int lines = 5;
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * lines + 2 * edit->frameWidth() + 8);
    return edit;
}

// An open-file dialog that puts the chosen path into `target` (without a nested event loop).
void pickFile(QWidget *parent, const QString &title, const QString &dir, const QString &filter,
              QLineEdit *target)
{
    auto *dialog = new QFileDialog(parent, title, dir, filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    QObject::connect(dialog, &QFileDialog::fileSelected, target,
                     [target](const QString &path) { target->setText(path); });
    dialog->open();
}

QWidget *scrolled(QWidget *content, QWidget *parent)
{
    auto *area = new QScrollArea(parent);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(content);
    return area;
}

} // namespace

NewExperimentDialog::NewExperimentDialog(const QString &specPath, CallStore *store, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
{
    setObjectName(u"newExperimentDialog"_s);
    setWindowTitle(tr("New Experiment"));

    // The file: name, spec, repeat.
    m_name = new QLineEdit(this);
    m_name->setObjectName(u"newExperimentName"_s);
    m_name->setPlaceholderText(tr("for example planner-regression"));
    m_spec = new QLineEdit(specPath, this);
    m_spec->setObjectName(u"newExperimentSpec"_s);
    m_spec->setPlaceholderText(tr("the spec file every variant starts from"));
    if (m_name->text().isEmpty() && !specPath.isEmpty()) {
        QString stem = QFileInfo(specPath).completeBaseName();
        stem.remove(QRegularExpression(u"\\.spec$"_s));
        m_name->setText(stem);
    }
    auto *specBrowse = new QPushButton(tr("Browse…"), this);
    specBrowse->setObjectName(u"newExperimentSpecBrowse"_s);
    connect(specBrowse, &QPushButton::clicked, this, [this] {
        pickFile(this, tr("Choose the Spec"), QFileInfo(m_spec->text()).absolutePath(),
                 tr("Specs (*.json);;All files (*)"), m_spec);
    });
    auto *specRow = new QHBoxLayout;
    specRow->addWidget(m_spec, 1);
    specRow->addWidget(specBrowse);
    m_repeat = new QSpinBox(this);
    m_repeat->setObjectName(u"newExperimentRepeat"_s);
    m_repeat->setRange(1, 10);
    m_repeat->setValue(1);
    m_repeat->setToolTip(
        tr("How many times each case runs in each variant (more repeats show flaky cases)"));
    m_jobs = new QSpinBox(this);
    m_jobs->setObjectName(u"newExperimentJobs"_s);
    m_jobs->setRange(0, 256);
    m_jobs->setValue(0);
    m_jobs->setSpecialValueText(tr("as in Preferences"));
    m_jobs->setToolTip(tr("How many calls of this experiment may be in flight at once"));
    auto *jobsLabel = new QLabel(tr("Calls at &once:"), this);
    jobsLabel->setBuddy(m_jobs);
    m_via = new QComboBox(this);
    m_via->setObjectName(u"newExperimentVia"_s);
    m_via->addItem(tr("Direct calls"), u"direct"_s);
    m_via->addItem(tr("Provider batch API (cheaper, answers within hours)"), u"batch"_s);
    m_via->setToolTip(
        tr("Direct calls answer at once. The providers' batch APIs cost less but may take "
           "up to a day; the tool loop then runs in rounds."));
    auto *viaLabel = new QLabel(tr("Send &as:"), this);
    viaLabel->setBuddy(m_via);
    connect(m_via, &QComboBox::currentIndexChanged, this,
            [this] { m_jobs->setEnabled(m_via->currentData().toString() == u"direct"_s); });
    auto *repeatRow = new QHBoxLayout;
    repeatRow->addWidget(m_repeat);
    repeatRow->addSpacing(16);
    repeatRow->addWidget(jobsLabel);
    repeatRow->addWidget(m_jobs);
    repeatRow->addSpacing(16);
    repeatRow->addWidget(viaLabel);
    repeatRow->addWidget(m_via);
    repeatRow->addStretch(1);
    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    auto *specLabel = new QLabel(tr("&Spec:"), this);
    specLabel->setBuddy(m_spec);
    form->addRow(specLabel, specRow);
    auto *repeatLabel = new QLabel(tr("&Repeat:"), this);
    repeatLabel->setBuddy(m_repeat);
    form->addRow(repeatLabel, repeatRow);

    // The dataset: a file, or cases typed here.
    auto *datasetGroup = new QGroupBox(tr("Dataset"), this);
    datasetGroup->setObjectName(u"newExperimentDatasetGroup"_s);
    m_datasetFileRadio = new QRadioButton(tr("A &file of cases (.jsonl or .csv)"), datasetGroup);
    m_datasetFileRadio->setObjectName(u"newExperimentDatasetFile"_s);
    m_datasetInlineRadio = new QRadioButton(tr("Cases &typed here"), datasetGroup);
    m_datasetInlineRadio->setObjectName(u"newExperimentDatasetInline"_s);
    m_datasetInlineRadio->setChecked(true);
    m_datasetFileRow = new QWidget(datasetGroup);
    {
        m_dataset = new QLineEdit(m_datasetFileRow);
        m_dataset->setObjectName(u"newExperimentDatasetPath"_s);
        m_dataset->setPlaceholderText(tr("cases.jsonl"));
        auto *browse = new QPushButton(tr("Browse…"), m_datasetFileRow);
        browse->setObjectName(u"newExperimentDatasetBrowse"_s);
        connect(browse, &QPushButton::clicked, this, [this] {
            const QString start = m_dataset->text().isEmpty()
                ? QFileInfo(m_spec->text()).absolutePath()
                : QFileInfo(m_dataset->text()).absolutePath();
            pickFile(this, tr("Choose the Dataset"), start,
                     tr("Datasets (*.jsonl *.csv);;All files (*)"), m_dataset);
        });
        auto *row = new QHBoxLayout(m_datasetFileRow);
        row->setContentsMargins(0, 0, 0, 0);
        row->addWidget(m_dataset, 1);
        row->addWidget(browse);
    }
    m_casesBox = new QWidget(datasetGroup);
    {
        m_cases = new QTableWidget(0, 4, m_casesBox);
        m_cases->setObjectName(u"newExperimentCases"_s);
        m_cases->setHorizontalHeaderLabels({ tr("Id"), tr("Input"), tr("Vars"), tr("Expected") });
        m_cases->horizontalHeaderItem(2)->setToolTip(
            tr("Optional. A JSON object such as {\"ticket\": 7}; {{ticket}} in the input or the "
               "spec's "
               "prompt is replaced by its value"));
        m_cases->horizontalHeaderItem(3)->setToolTip(
            tr("Optional. JSON (such as {\"title\": \"ok\"}) or plain text"));
        m_cases->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
        m_cases->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
        m_cases->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Interactive);
        m_cases->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
        m_cases->setColumnWidth(2, 110);
        m_cases->verticalHeader()->hide();
        auto *add = new QPushButton(tr("Add Case"), m_casesBox);
        add->setObjectName(u"newExperimentAddCase"_s);
        auto *remove = new QPushButton(tr("Remove Case"), m_casesBox);
        remove->setObjectName(u"newExperimentRemoveCase"_s);
        connect(add, &QPushButton::clicked, this, [this] {
            const int row = m_cases->rowCount();
            m_cases->insertRow(row);
            m_cases->setItem(row, 0, new QTableWidgetItem(u"case%1"_s.arg(row + 1)));
            m_cases->setItem(row, 1, new QTableWidgetItem);
            m_cases->setItem(row, 2, new QTableWidgetItem);
            m_cases->setItem(row, 3, new QTableWidgetItem);
            m_cases->setCurrentCell(row, 1);
            m_cases->editItem(m_cases->item(row, 1));
        });
        connect(remove, &QPushButton::clicked, this, [this] {
            if (m_cases->currentRow() >= 0)
                m_cases->removeRow(m_cases->currentRow());
        });
        auto *buttons = new QHBoxLayout;
        buttons->addWidget(add);
        buttons->addWidget(remove);
        buttons->addStretch(1);
        auto *layout = new QVBoxLayout(m_casesBox);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_cases, 1);
        layout->addLayout(buttons);
    }
    connect(m_datasetFileRadio, &QRadioButton::toggled, this,
            &NewExperimentDialog::updateDatasetMode);
    {
        auto *layout = new QVBoxLayout(datasetGroup);
        layout->addWidget(m_datasetFileRadio);
        layout->addWidget(m_datasetFileRow);
        layout->addWidget(m_datasetInlineRadio);
        layout->addWidget(m_casesBox, 1);
    }

    // Variants and assertions: rows of a name (or type) and a JSON object each.
    auto *variantsGroup = new QGroupBox(tr("Variants"), this);
    variantsGroup->setObjectName(u"newExperimentVariantsGroup"_s);
    {
        auto *hint = new QLabel(tr("Each variant is the spec with these fields replaced, such as "
                                   "{\"max_turns\": 1} or {\"engine\": {\"model\": \"…\"}}."),
                                variantsGroup);
        hint->setWordWrap(true);
        auto *content = new QWidget;
        m_variantsLayout = new QVBoxLayout(content);
        m_variantsLayout->setContentsMargins(0, 0, 0, 0);
        m_variantsLayout->addStretch(1);
        auto *add = new QPushButton(tr("Add Variant"), variantsGroup);
        add->setObjectName(u"newExperimentAddVariant"_s);
        connect(add, &QPushButton::clicked, this, [this] { addVariant(); });
        auto *layout = new QVBoxLayout(variantsGroup);
        layout->addWidget(hint);
        layout->addWidget(scrolled(content, variantsGroup), 1);
        layout->addWidget(add, 0, Qt::AlignLeft);
    }
    auto *assertionsGroup = new QGroupBox(tr("Assertions"), this);
    assertionsGroup->setObjectName(u"newExperimentAssertionsGroup"_s);
    {
        auto *hint = new QLabel(
            tr("Checks every output must pass. A pointer such as /title picks a field of the "
               "output; \"\" is the whole output."),
            assertionsGroup);
        hint->setWordWrap(true);
        auto *content = new QWidget;
        m_assertionsLayout = new QVBoxLayout(content);
        m_assertionsLayout->setContentsMargins(0, 0, 0, 0);
        m_assertionsLayout->addStretch(1);
        auto *add = new QPushButton(tr("Add Assertion"), assertionsGroup);
        add->setObjectName(u"newExperimentAddAssertion"_s);
        connect(add, &QPushButton::clicked, this, [this] { addAssertion(); });
        auto *layout = new QVBoxLayout(assertionsGroup);
        layout->addWidget(hint);
        layout->addWidget(scrolled(content, assertionsGroup), 1);
        layout->addWidget(add, 0, Qt::AlignLeft);
    }

    m_errors = new QTableWidget(0, 2, this);
    m_errors->setObjectName(u"newExperimentErrors"_s);
    m_errors->setHorizontalHeaderLabels({ tr("Where"), tr("Problem") });
    m_errors->verticalHeader()->hide();
    m_errors->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_errors->setWordWrap(true);
    m_errors->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_errors->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_errors->setMaximumHeight(130);
    m_errors->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_createButton = m_buttons->addButton(tr("&Create…"), QDialogButtonBox::AcceptRole);
    m_createButton->setObjectName(u"newExperimentCreate"_s);
    m_createButton->setToolTip(
        tr("Choose where to save the experiment file; it is checked before it is written"));
    m_createButton->setDefault(true);
    // Accepted only once a file was written.
    connect(m_buttons, &QDialogButtonBox::accepted, this,
            &NewExperimentDialog::chooseFileAndCreate);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *columns = new QHBoxLayout;
    columns->addWidget(datasetGroup, 4);
    columns->addWidget(variantsGroup, 3);
    columns->addWidget(assertionsGroup, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(columns, 1);
    layout->addWidget(m_errors);
    layout->addWidget(m_buttons);

    addVariant(u"base"_s, u"{}"_s);
    addAssertion(u"status"_s);
    updateDatasetMode();
    resize(1100, 640);
}

NewExperimentDialog::~NewExperimentDialog() = default;

QJsonObject NewExperimentDialog::assertionTemplate(const QString &type)
{
    // What each type needs, with a place to type it; the loader says when it is still wrong.
    static const QHash<QString, QByteArray> templates {
        { u"equals"_s, R"({"pointer": "/title", "value": ""})" },
        { u"contains"_s, R"({"pointer": "/title", "value": ""})" },
        { u"regex"_s, R"({"pointer": "/title", "pattern": ""})" },
        { u"one_of"_s, R"({"pointer": "/title", "values": []})" },
        { u"matches_expected"_s, R"({"pointers": ["/title"]})" },
        { u"schema"_s, R"({"schema": {"type": "object", "required": ["title"]}})" },
        { u"is_json"_s, R"({"schema": {"type": "object"}})" },
        { u"contains_json"_s, R"({"schema": {"type": "object"}})" },
        { u"status"_s, R"({"value": "completed"})" },
        { u"tool_called"_s, R"({"name": ""})" },
        { u"tool_not_called"_s, R"({"name": ""})" },
        { u"tool_sequence"_s, R"({"names": [], "strict": false})" },
        { u"max_turns"_s, R"({"value": 4})" },
        { u"max_tokens"_s, R"({"value": 4000})" },
        { u"max_latency_ms"_s, R"({"value": 10000})" },
        { u"max_cost_usd"_s, R"({"value": 0.01})" },
        { u"judge"_s,
          R"({"rubric": "", "engine": {"type": "openai", "model": ""}, "pass_score": 0.7})" },
        { u"command"_s, R"({"command": ["python3", "check.py"]})" },
        { u"javascript"_s, R"({"value": "output.title.length > 0"})" },
    };
    return QJsonDocument::fromJson(templates.value(type, "{}")).object();
}

int NewExperimentDialog::addVariant(const QString &name, const QString &overridesJson)
{
    const int index = int(m_variants.size());
    VariantRow row;
    row.box = new QWidget;
    row.box->setObjectName(u"newExperimentVariant%1"_s.arg(index));
    row.name = new QLineEdit(name.isEmpty() ? u"variant%1"_s.arg(index + 1) : name, row.box);
    row.name->setObjectName(u"variantName"_s);
    row.name->setPlaceholderText(tr("name"));
    row.json = jsonEdit(overridesJson, row.box);
    row.json->setObjectName(u"variantOverrides"_s);
    row.json->setToolTip(
        tr("The spec fields this variant changes, as a JSON object ({} changes nothing)"));
    auto *remove = new QToolButton(row.box);
    remove->setObjectName(u"variantRemove"_s);
    remove->setIcon(QIcon::fromTheme(u"list-remove"_s));
    remove->setText(tr("Remove"));
    remove->setToolTip(tr("Remove this variant"));
    remove->setToolButtonStyle(Qt::ToolButtonTextOnly);
    QWidget *box = row.box;
    connect(remove, &QToolButton::clicked, this, [this, box] {
        for (int i = 0; i < m_variants.size(); ++i) {
            if (m_variants.at(i).box == box)
                return removeVariant(i);
        }
    });
    auto *top = new QHBoxLayout;
    top->addWidget(row.name, 1);
    top->addWidget(remove);
    auto *layout = new QVBoxLayout(row.box);
    layout->setContentsMargins(0, 0, 0, 6);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(row.json);
    m_variantsLayout->insertWidget(m_variantsLayout->count() - 1, row.box);
    m_variants.append(row);
    return index;
}

int NewExperimentDialog::addAssertion(const QString &type)
{
    const int index = int(m_assertions.size());
    AssertionRow row;
    row.box = new QWidget;
    row.box->setObjectName(u"newExperimentAssertion%1"_s.arg(index));
    row.type = new QComboBox(row.box);
    row.type->setObjectName(u"assertionType"_s);
    row.type->addItems(assertionTypes());
    row.type->setToolTip(tr("What the assertion checks"));
    const QString chosen = type.isEmpty() ? u"equals"_s : type;
    if (row.type->findText(chosen) >= 0)
        row.type->setCurrentText(chosen);
    row.lastTemplate = objectText(assertionTemplate(row.type->currentText()));
    row.json = jsonEdit(row.lastTemplate, row.box);
    row.json->setObjectName(u"assertionParams"_s);
    row.json->setToolTip(tr("The assertion's parameters, as a JSON object"));
    auto *remove = new QToolButton(row.box);
    remove->setObjectName(u"assertionRemove"_s);
    remove->setText(tr("Remove"));
    remove->setToolTip(tr("Remove this assertion"));
    QWidget *box = row.box;
    connect(remove, &QToolButton::clicked, this, [this, box] {
        for (int i = 0; i < m_assertions.size(); ++i) {
            if (m_assertions.at(i).box == box)
                return removeAssertion(i);
        }
    });
    // A new type brings its template, unless the parameters were already edited.
    connect(row.type, &QComboBox::currentTextChanged, this, [this, box](const QString &text) {
        for (AssertionRow &r : m_assertions) {
            if (r.box != box)
                continue;
            const QString current = r.json->toPlainText().trimmed();
            const QString next = objectText(assertionTemplate(text));
            if (current.isEmpty() || current == u"{}"_s || current == r.lastTemplate)
                r.json->setPlainText(next);
            r.lastTemplate = next;
        }
    });
    auto *top = new QHBoxLayout;
    top->addWidget(row.type, 1);
    top->addWidget(remove);
    auto *layout = new QVBoxLayout(row.box);
    layout->setContentsMargins(0, 0, 0, 6);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(row.json);
    m_assertionsLayout->insertWidget(m_assertionsLayout->count() - 1, row.box);
    m_assertions.append(row);
    return index;
}

void NewExperimentDialog::removeVariant(int index)
{
    if (index < 0 || index >= m_variants.size())
        return;
    delete m_variants.takeAt(index).box;
}

void NewExperimentDialog::removeAssertion(int index)
{
    if (index < 0 || index >= m_assertions.size())
        return;
    delete m_assertions.takeAt(index).box;
}

void NewExperimentDialog::updateDatasetMode()
{
    const bool file = m_datasetFileRadio->isChecked();
    m_datasetFileRow->setEnabled(file);
    m_casesBox->setEnabled(!file);
}

QJsonObject NewExperimentDialog::definition(const QString &baseDir, QStringList *errors) const
{
    const QDir dir(baseDir);
    QJsonObject out;
    const QString name = m_name->text().trimmed();
    if (name.isEmpty())
        errors->append(tr("Name: give the experiment a name"));
    out.insert(u"name"_s, name);
    const QString spec = m_spec->text().trimmed();
    if (spec.isEmpty())
        errors->append(tr("Spec: choose the spec file the variants start from"));
    else
        out.insert(u"spec"_s, dir.relativeFilePath(QFileInfo(spec).absoluteFilePath()));

    if (m_datasetFileRadio->isChecked()) {
        const QString dataset = m_dataset->text().trimmed();
        if (dataset.isEmpty())
            errors->append(tr("Dataset: choose a .jsonl or .csv file of cases"));
        else
            out.insert(u"dataset"_s, dir.relativeFilePath(QFileInfo(dataset).absoluteFilePath()));
    } else {
        QJsonArray cases;
        for (int r = 0; r < m_cases->rowCount(); ++r) {
            auto text = [this, r](int column) {
                return m_cases->item(r, column) ? m_cases->item(r, column)->text() : QString();
            };
            const QString id = text(0).trimmed();
            const QString input = text(1);
            const QString vars = text(2).trimmed();
            const QString expected = text(3).trimmed();
            if (id.isEmpty() && input.trimmed().isEmpty() && vars.isEmpty() && expected.isEmpty())
                continue; // a row left blank
            const QString caseId = id.isEmpty() ? u"case%1"_s.arg(r + 1) : id;
            QJsonObject c { { u"id"_s, caseId }, { u"input"_s, input } };
            if (!vars.isEmpty()) {
                QString problem;
                const std::optional<QJsonObject> object = parseObject(vars, &problem);
                if (object)
                    c.insert(u"vars"_s, *object);
                else
                    errors->append(
                        tr("Case %1 (%2): the vars are %3").arg(r + 1).arg(caseId, problem));
            }
            if (!expected.isEmpty()) {
                // JSON when it reads as JSON, else the text itself.
                QJsonParseError error;
                const QJsonDocument doc =
                    QJsonDocument::fromJson("[" + expected.toUtf8() + "]", &error);
                c.insert(u"expected"_s,
                         error.error == QJsonParseError::NoError && doc.array().size() == 1
                             ? doc.array().at(0)
                             : QJsonValue(expected));
            }
            cases.append(c);
        }
        if (cases.isEmpty())
            errors->append(tr("Dataset: add at least one case (an id and an input)"));
        out.insert(u"dataset"_s, cases);
    }
    out.insert(u"repeat"_s, m_repeat->value());
    const QString via = m_via->currentData().toString();
    if (via == u"batch"_s)
        out.insert(u"via"_s, via);
    else if (m_jobs->value() > 0)
        out.insert(u"jobs"_s, m_jobs->value());

    QJsonArray variants;
    for (int i = 0; i < m_variants.size(); ++i) {
        const VariantRow &row = m_variants.at(i);
        const QString vname = row.name->text().trimmed();
        const QString where =
            tr("Variant %1 (%2)").arg(i + 1).arg(vname.isEmpty() ? tr("no name") : vname);
        if (vname.isEmpty())
            errors->append(tr("%1: give the variant a name").arg(where));
        QString problem;
        const std::optional<QJsonObject> overrides = parseObject(row.json->toPlainText(), &problem);
        if (!overrides) {
            errors->append(tr("%1: the overrides are %2").arg(where, problem));
            continue;
        }
        QJsonObject v { { u"name"_s, vname } };
        for (auto it = overrides->begin(); it != overrides->end(); ++it) {
            if (it.key() != u"name"_s)
                v.insert(it.key(), it.value());
        }
        variants.append(v);
    }
    if (!variants.isEmpty())
        out.insert(u"variants"_s, variants);

    QJsonArray asserts;
    for (int i = 0; i < m_assertions.size(); ++i) {
        const AssertionRow &row = m_assertions.at(i);
        QString problem;
        const std::optional<QJsonObject> params = parseObject(row.json->toPlainText(), &problem);
        if (!params) {
            errors->append(tr("Assertion %1 (%2): the parameters are %3")
                               .arg(i + 1)
                               .arg(row.type->currentText(), problem));
            continue;
        }
        QJsonObject a { { u"type"_s, row.type->currentText() } };
        for (auto it = params->begin(); it != params->end(); ++it) {
            if (it.key() != u"type"_s)
                a.insert(it.key(), it.value());
        }
        asserts.append(a);
    }
    if (!asserts.isEmpty())
        out.insert(u"assert"_s, asserts);
    return errors->isEmpty() ? out : QJsonObject();
}

void NewExperimentDialog::showProblems(const QStringList &where, const QStringList &what)
{
    m_errors->setRowCount(int(what.size()));
    for (int i = 0; i < what.size(); ++i) {
        auto *w = new QTableWidgetItem(where.value(i));
        w->setToolTip(w->text());
        auto *m = new QTableWidgetItem(what.at(i));
        m->setToolTip(m->text());
        m_errors->setItem(i, 0, w);
        m_errors->setItem(i, 1, m);
    }
    m_errors->setVisible(!what.isEmpty());
}

void NewExperimentDialog::showFormProblems(const QStringList &problems)
{
    // "Where: what" split into the two columns.
    QStringList where, what;
    for (const QString &p : problems) {
        const qsizetype colon = p.indexOf(u": "_s);
        where.append(colon > 0 ? p.left(colon) : QString());
        what.append(colon > 0 ? p.mid(colon + 2) : p);
    }
    showProblems(where, what);
}

bool NewExperimentDialog::createAt(const QString &path)
{
    const QFileInfo target(path);
    const QString baseDir = target.absolutePath();
    QStringList problems;
    const QJsonObject definition = this->definition(baseDir, &problems);
    if (!problems.isEmpty()) {
        showFormProblems(problems);
        return false;
    }
    const QByteArray data = QJsonDocument(definition).toJson(QJsonDocument::Indented);
    // The loader reads it from the folder it will live in, before anything is written there.
    QTemporaryFile probe(QDir(baseDir).filePath(u".new-experiment-XXXXXX.json"_s));
    if (!probe.open() || probe.write(data) != data.size() || !probe.flush()) {
        showProblems({ target.fileName() },
                     { tr("cannot write in %1: %2")
                           .arg(QDir::toNativeSeparators(baseDir), probe.errorString()) });
        return false;
    }
    probe.close();
    const ExperimentLoad load = loadExperimentFile(probe.fileName(), m_store);
    if (!load.experiment) {
        QStringList where, what;
        for (const ExperimentError &e : load.errors) {
            where.append(e.where.isEmpty() ? tr("(the file)") : e.where);
            what.append(e.message);
        }
        showProblems(where, what);
        return false;
    }
    QSaveFile file(target.absoluteFilePath());
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        showProblems({ target.fileName() }, { tr("cannot write: %1").arg(file.errorString()) });
        return false;
    }
    showProblems({}, {});
    m_createdPath = target.absoluteFilePath();
    QSettings().setValue(kLastDirKey, baseDir);
    Q_EMIT created(m_createdPath);
    accept();
    return true;
}

void NewExperimentDialog::chooseFileAndCreate()
{
    // The form's own mistakes first: no point choosing a file for them.
    QStringList problems;
    definition(QDir::currentPath(), &problems);
    if (!problems.isEmpty()) {
        showFormProblems(problems);
        return;
    }
    QString dir = QSettings().value(kLastDirKey).toString();
    if (dir.isEmpty() && !m_spec->text().isEmpty())
        dir = QFileInfo(m_spec->text()).absolutePath();
    // A bundled sample's folder is the studio's own data, hidden in the home folder: an
    // experiment made from it is the user's work and goes with their documents.
    const QString appData = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (!appData.isEmpty() && (dir == appData || dir.startsWith(appData + u'/')))
        dir = Dialogs::documentsFolder();
    QString stem = m_name->text().trimmed().toLower();
    stem.replace(QRegularExpression(u"[^a-z0-9._-]+"_s), u"-"_s);
    stem.remove(QRegularExpression(u"^-+|-+$"_s));
    auto *dialog = new QFileDialog(this, tr("Save the Experiment"), dir,
                                   tr("Experiment files (*.json);;All files (*)"));
    dialog->setObjectName(u"newExperimentSaveDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(u"json"_s);
    dialog->selectFile((stem.isEmpty() ? u"experiment"_s : stem) + u".experiment.json"_s);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &path) { createAt(path); });
    dialog->open();
}

} // namespace Callscope
