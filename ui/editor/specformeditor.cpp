#include "ui/editor/specformeditor.h"

#include "core/engines/httpjob.h"
#include "core/model/specio.h"
#include "core/schema/engineschema.h"
#include "core/secrets/profilestore.h"
#include "ui/editor/mcpserverpanel.h"
#include "ui/editor/schemabuilder.h"
#include "ui/editor/specdocument.h"
#include "ui/widgets/findingsmodel.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/jsonlocator.h"
#include "ui/widgets/undokeys.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStringListModel>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

constexpr int kJsonDebounceMs = 300;

QString indented(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented));
    if (value.isUndefined())
        return {};
    const QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

// Parses any JSON value (scalars included). On failure returns nullopt and the error offset.
std::optional<QJsonValue> parseJson(const QString &text, QString *error, int *offset)
{
    const QByteArray utf8 = u"[\n"_s.toUtf8() + text.toUtf8() + "\n]";
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(utf8, &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error = pe.errorString();
        // Offsets are in UTF-8 bytes of the wrapped text; map back to characters.
        const int bytes = std::max(0, pe.offset - 2);
        *offset = int(QString::fromUtf8(text.toUtf8().left(bytes)).size());
        return std::nullopt;
    }
    const QJsonArray array = doc.array();
    if (array.size() != 1) {
        *error = QCoreApplication::translate("Callscope::SpecFormEditor",
                                             "expected exactly one JSON value");
        *offset = 0;
        return std::nullopt;
    }
    return array.at(0);
}

QString joinCommand(const QStringList &argv)
{
    QStringList parts;
    for (const QString &a : argv) {
        if (a.isEmpty() || a.contains(u' ') || a.contains(u'"') || a.contains(u'\'')) {
            QString q = a;
            q.replace(u'"', u"\"\"\""_s);
            parts.append(u'"' + q + u'"');
        } else {
            parts.append(a);
        }
    }
    return parts.join(u' ');
}

void setText(QLineEdit *edit, const QString &text)
{
    if (edit->text() != text)
        edit->setText(text);
}

void setText(QPlainTextEdit *edit, const QString &text)
{
    if (edit->toPlainText() != text)
        edit->setPlainText(text);
}

} // namespace

SpecFormEditor::SpecFormEditor(SpecDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_tabs(new QTabWidget(this))
    , m_jsonTimer(new QTimer(this))
{
    Q_ASSERT(document);
    setAccessibleName(tr("Spec form"));
    m_jsonTimer->setObjectName(u"jsonDebounce"_s);
    m_jsonTimer->setSingleShot(true);
    m_jsonTimer->setInterval(kJsonDebounceMs);
    connect(m_jsonTimer, &QTimer::timeout, this, &SpecFormEditor::parseJsonEditors);

    m_tabs->setObjectName(u"specTabs"_s);
    m_tabs->setAccessibleName(tr("Spec sections"));
    m_tabs->addTab(buildGeneralPage(), tr("&General"));
    m_tabs->addTab(buildEnginePage(), tr("&Engine"));
    m_tabs->addTab(buildSchemaPage(), tr("Response &schema"));
    m_tabs->addTab(buildToolsPage(), tr("&Tools"));
    m_tabs->addTab(buildExtrasPage(), tr("&Pre-seeds && MCP"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs, 1);
    // Profiles added in Preferences since the form was made are in the list when it is shown.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index == 1 && m_profiles)
            setProfileStore(m_profiles);
    });

    // Undo and Redo are the document's, wherever the focus is.
    auto *filter = new UndoKeysToWindow(this);
    for (QWidget *w : findChildren<QWidget *>()) {
        if (qobject_cast<QLineEdit *>(w) || qobject_cast<QPlainTextEdit *>(w)
            || qobject_cast<QAbstractSpinBox *>(w))
            w->installEventFilter(filter);
    }
    connect(m_document, &SpecDocument::checked, this, [this] {
        if (m_reloadWhenChecked)
            reload();
        else
            showDocumentSpec();
        updateMarkers();
    });
    reload();
}

SpecFormEditor::~SpecFormEditor() = default;

// ---- pages ----------------------------------------------------------------------------------

namespace {
// A form page that scrolls. QScrollArea gives its page the page's preferred height, which for
// a page with word-wrapped notes is less than those notes need at the page's width: the rows
// were squeezed and a two-line note was cut at the top. The page's least height is kept at
// what its layout needs for the width it has.
class FormScrollArea final : public QScrollArea
{
public:
    FormScrollArea()
    {
        setWidgetResizable(true);
        setFrameShape(QFrame::NoFrame);
    }

    void setPage(QWidget *page)
    {
        setWidget(page);
        page->installEventFilter(this);
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QScrollArea::resizeEvent(event);
        fitHeight();
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest)
            QTimer::singleShot(0, this, [this] { fitHeight(); });
        return QScrollArea::eventFilter(watched, event);
    }

private:
    void fitHeight()
    {
        QWidget *page = widget();
        QLayout *layout = page ? page->layout() : nullptr;
        if (!layout || !layout->hasHeightForWidth())
            return;
        const int needed = layout->totalHeightForWidth(viewport()->width());
        if (needed > 0 && page->minimumHeight() != needed)
            page->setMinimumHeight(needed);
    }
};

QScrollArea *scrolled(QWidget *page)
{
    auto *area = new FormScrollArea;
    area->setPage(page);
    return area;
}

template<typename W> W *named(W *w, const QString &objectName, const QString &accessible)
{
    w->setObjectName(objectName);
    w->setAccessibleName(accessible);
    return w;
}
} // namespace

QWidget *SpecFormEditor::buildGeneralPage()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    m_kind = named(new QLineEdit, u"kind"_s, tr("Kind"));
    m_systemPrompt = named(new QPlainTextEdit, u"systemPrompt"_s, tr("System prompt"));
    m_systemPrompt->setTabChangesFocus(true);
    m_outputParser = named(new QComboBox, u"outputParser"_s, tr("Output parser"));
    m_outputParser->addItem(tr("JSON"), u"json"_s);
    m_outputParser->addItem(tr("Text"), u"text"_s);
    m_outputMode = named(new QComboBox, u"outputMode"_s, tr("Output mode"));
    m_outputMode->addItem(tr("Tool (submit_output)"), outputModeName(OutputMode::Tool));
    m_outputMode->addItem(tr("Native (the provider's structured output)"),
                          outputModeName(OutputMode::Native));
    m_outputMode->addItem(tr("Prompted (schema in the system prompt)"),
                          outputModeName(OutputMode::Prompted));
    m_outputMode->setToolTip(tr("How the output of a call with a response schema is produced"));
    // The longest choice would make the page wider than the form's pane at 1280x800.
    m_outputMode->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_outputMode->setMinimumContentsLength(16);
    m_textOutput = named(new QLineEdit, u"textOutputField"_s, tr("Text output field"));
    m_textOutput->setPlaceholderText(tr("field that takes a plain-text answer (optional)"));
    m_stopEarly = named(new QCheckBox(tr("Stop as soon as the answer cannot be valid")),
                        u"stopEarly"_s, tr("Stop early"));
    m_stopEarly->setToolTip(tr("The reply is cut off at the first field that can no longer match "
                               "the schema, and the correction is sent at once"));
    m_maxTurns = named(new QSpinBox, u"maxTurns"_s, tr("Maximum turns"));
    m_maxTurns->setRange(1, 1000);
    form->addRow(tr("&Kind:"), m_kind);
    form->addRow(tr("System &prompt:"), m_systemPrompt);
    form->addRow(tr("Output &parser:"), m_outputParser);
    form->addRow(tr("Output &mode:"), m_outputMode);
    form->addRow(tr("Te&xt output field:"), m_textOutput);
    form->addRow(QString(), m_stopEarly);
    form->addRow(tr("Max &turns:"), m_maxTurns);
    connect(m_kind, &QLineEdit::textEdited, this, [this] { onFormEdited(1); });
    connect(m_systemPrompt, &QPlainTextEdit::textChanged, this, [this] { onFormEdited(2); });
    connect(m_outputParser, &QComboBox::currentIndexChanged, this, [this] { onFormEdited(3); });
    connect(m_textOutput, &QLineEdit::textEdited, this, [this] { onFormEdited(4); });
    connect(m_maxTurns, &QSpinBox::valueChanged, this, [this] { onFormEdited(5); });
    connect(m_outputMode, &QComboBox::currentIndexChanged, this, [this] { onFormEdited(6); });
    connect(m_stopEarly, &QCheckBox::toggled, this, [this] { onFormEdited(52); });
    return scrolled(page);
}

QWidget *SpecFormEditor::buildEnginePage()
{
    auto *page = new QWidget;
    auto *v = new QVBoxLayout(page);

    auto *engine = new QGroupBox(tr("Engine"));
    auto *ef = new QFormLayout(engine);
    m_engineType = named(new QComboBox, u"engineType"_s, tr("Engine type"));
    // First: no type in the spec, the profile's decides (its text names that type).
    m_engineType->addItem(tr("From the profile"), QString());
    for (const QString &name : engineTypeNames())
        m_engineType->addItem(name, name);
    m_engineTypeNote = named(new QLabel, u"engineTypeNote"_s, tr("Which engine type is used"));
    m_engineTypeNote->setWordWrap(true);
    m_model = named(new QLineEdit, u"model"_s, tr("Model"));
    m_baseUrl = named(new QLineEdit, u"baseUrl"_s, tr("Base URL"));
    m_baseUrl->setPlaceholderText(tr("the provider's public endpoint"));
    m_profile = named(new QComboBox, u"profile"_s, tr("Engine profile"));
    m_profile->setEditable(true);
    m_apiKeyEnv = named(new QLineEdit, u"apiKeyEnv"_s, tr("API key environment variable"));
    m_maxTokens = named(new QSpinBox, u"maxTokens"_s, tr("Maximum output tokens"));
    m_maxTokens->setRange(0, 10'000'000);
    m_maxTokens->setSpecialValueText(tr("(engine default)"));
    m_temperature = named(new QDoubleSpinBox, u"temperature"_s, tr("Temperature"));
    m_temperature->setRange(-0.1, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setSpecialValueText(tr("(engine default)"));
    m_contextWindow = named(new QSpinBox, u"contextWindow"_s, tr("Context window"));
    m_contextWindow->setRange(0, 100'000'000);
    m_contextWindow->setSpecialValueText(tr("(assumed)"));
    // 0 = unset: the profile's value, else the interactive defaults of HttpJobSettings.
    m_timeout = named(new QSpinBox, u"timeoutMs"_s, tr("Timeout per attempt"));
    m_timeout->setRange(0, std::numeric_limits<int>::max());
    m_timeout->setSingleStep(1000);
    m_timeout->setSuffix(tr(" ms"));
    m_timeout->setSpecialValueText(
        tr("(profile or %1 s)").arg(HttpJobSettings::DefaultTotalTimeoutMs / 1000));
    m_timeout->setToolTip(tr("timeout_ms: the longest one HTTP attempt may take, first byte sent "
                             "to last byte received"));
    m_idleTimeout = named(new QSpinBox, u"idleTimeoutMs"_s, tr("Idle timeout"));
    m_idleTimeout->setRange(0, std::numeric_limits<int>::max());
    m_idleTimeout->setSingleStep(1000);
    m_idleTimeout->setSuffix(tr(" ms"));
    m_idleTimeout->setSpecialValueText(
        tr("(profile or %1 s)").arg(HttpJobSettings::DefaultInactivityTimeoutMs / 1000));
    m_idleTimeout->setToolTip(
        tr("idle_timeout_ms: how long the provider may send nothing before the attempt ends"));
    m_stream = named(new QCheckBox(tr("Stream the reply")), u"stream"_s, tr("Stream the reply"));
    m_replay = named(new QLineEdit, u"replay"_s, tr("Replay recording or call id"));
    ef->addRow(tr("T&ype:"), m_engineType);
    ef->addRow(QString(), m_engineTypeNote);
    ef->addRow(tr("&Model:"), m_model);
    ef->addRow(tr("&Base URL:"), m_baseUrl);
    ef->addRow(tr("Pro&file:"), m_profile);
    ef->addRow(tr("API &key variable:"), m_apiKeyEnv);
    ef->addRow(tr("Max &output tokens:"), m_maxTokens);
    ef->addRow(tr("&Temperature:"), m_temperature);
    ef->addRow(tr("Context &window:"), m_contextWindow);
    ef->addRow(tr("Time&out per attempt:"), m_timeout);
    ef->addRow(tr("I&dle timeout:"), m_idleTimeout);
    ef->addRow(QString(), m_stream);
    ef->addRow(tr("&Replay from:"), m_replay);

    auto *retry = new QGroupBox(tr("Retry"));
    auto *rf = new QFormLayout(retry);
    m_maxAttempts = named(new QSpinBox, u"maxAttempts"_s, tr("Maximum attempts"));
    m_maxAttempts->setRange(1, 100);
    m_reask = named(new QCheckBox(tr("Reask after a truncated or invalid reply")), u"reask"_s,
                    tr("Reask"));
    m_schedule =
        named(new JsonEditor, u"perAttemptOverride"_s, tr("Per-attempt overrides (JSON array)"));
    m_schedule->setMaximumHeight(110);
    rf->addRow(tr("Max &attempts:"), m_maxAttempts);
    rf->addRow(QString(), m_reask);
    rf->addRow(tr("Per-attempt &schedule:"), m_schedule);

    auto *context = new QGroupBox(tr("Context budget"));
    auto *cf = new QFormLayout(context);
    m_ctxResults = named(new QSpinBox, u"toolResultsInContext"_s, tr("Tool results in context"));
    m_ctxResults->setRange(-1, 100000);
    m_ctxResults->setSpecialValueText(tr("all, in full"));
    m_ctxTokens = named(new QSpinBox, u"toolResultsTokens"_s, tr("Tool results token budget"));
    m_ctxTokens->setRange(-1, 100'000'000);
    m_ctxTokens->setSpecialValueText(tr("(unset)"));
    m_ctxChars = named(new QSpinBox, u"toolResultsChars"_s, tr("Tool results character budget"));
    m_ctxChars->setRange(-1, 1'000'000'000);
    m_ctxChars->setSpecialValueText(tr("(unset)"));
    m_ctxImages = named(new QSpinBox, u"imagesInContext"_s, tr("Images in context"));
    m_ctxImages->setRange(0, 1000);
    cf->addRow(tr("Tool &results in context:"), m_ctxResults);
    cf->addRow(tr("Tool results to&kens:"), m_ctxTokens);
    cf->addRow(tr("Tool results &characters:"), m_ctxChars);
    cf->addRow(tr("&Images in context:"), m_ctxImages);

    v->addWidget(engine);
    v->addWidget(retry);
    v->addWidget(context);
    v->addStretch(1);

    int id = 10;
    for (QLineEdit *e : { m_model, m_baseUrl, m_apiKeyEnv, m_replay }) {
        const int mergeId = id++;
        connect(e, &QLineEdit::textEdited, this, [this, mergeId] { onFormEdited(mergeId); });
    }
    connect(m_engineType, &QComboBox::currentIndexChanged, this, [this] { onFormEdited(20); });
    connect(m_profile, &QComboBox::currentTextChanged, this, [this](const QString &profile) {
        if (m_updating)
            return;
        // Choosing a profile lets it decide the type (a type in the spec would override it);
        // clearing it leaves the type that was in use.
        const bool was = std::exchange(m_updating, true);
        if (!profile.isEmpty())
            m_engineType->setCurrentIndex(0);
        else if (m_engineType->currentIndex() == 0)
            m_engineType->setCurrentIndex(
                std::max(1, m_engineType->findData(engineTypeName(m_spec.engine.type))));
        m_updating = was;
        onFormEdited(21);
    });
    for (QSpinBox *s : { m_maxTokens, m_contextWindow, m_maxAttempts, m_ctxResults, m_ctxTokens,
                         m_ctxChars, m_ctxImages }) {
        const int mergeId = id++;
        connect(s, &QSpinBox::valueChanged, this, [this, mergeId] { onFormEdited(mergeId); });
    }
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, [this] { onFormEdited(40); });
    connect(m_timeout, &QSpinBox::valueChanged, this, [this] { onFormEdited(50); });
    connect(m_idleTimeout, &QSpinBox::valueChanged, this, [this] { onFormEdited(51); });
    connect(m_stream, &QCheckBox::toggled, this, [this] { onFormEdited(41); });
    connect(m_reask, &QCheckBox::toggled, this, [this] { onFormEdited(42); });
    connect(m_schedule, &QPlainTextEdit::textChanged, this,
            [this] { onJsonEdited(Source::Schedule); });
    return scrolled(page);
}

QWidget *SpecFormEditor::buildSchemaPage()
{
    m_schemaEditor = named(new JsonEditor, u"responseSchema"_s, tr("Response schema"));
    m_schemaEditor->setPlaceholderText(
        tr("No response schema: the final text goes through the output parser."));
    connect(m_schemaEditor, &QPlainTextEdit::textChanged, this,
            [this] { onJsonEdited(Source::Schema); });

    // Native mode: what the engine is sent, with each change of the transform listed.
    m_sentPanel = new QWidget;
    m_sentPanel->setObjectName(u"sentSchemaPanel"_s);
    auto *v = new QVBoxLayout(m_sentPanel);
    v->setContentsMargins(0, 0, 0, 0);
    m_sentLabel = new QLabel;
    m_sentLabel->setWordWrap(true);
    m_sentSchema = named(new JsonEditor, u"sentSchema"_s, tr("Schema sent"));
    m_sentSchema->setReadOnly(true);
    m_sentChanges =
        named(new QListWidget, u"sentSchemaChanges"_s, tr("Changes made to the schema sent"));
    auto *sentSplit = new QSplitter(Qt::Vertical);
    sentSplit->addWidget(m_sentSchema);
    sentSplit->addWidget(m_sentChanges);
    sentSplit->setStretchFactor(0, 3);
    sentSplit->setStretchFactor(1, 1);
    v->addWidget(m_sentLabel);
    v->addWidget(sentSplit, 1);
    connect(m_sentChanges, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        const QString pointer = m_sentChanges->item(row)->data(Qt::UserRole).toString();
        m_schemaEditor->revealPointer(pointer);
        m_sentSchema->revealPointer(pointer);
    });

    auto *split = new QSplitter(Qt::Horizontal);
    split->setObjectName(u"schemaSplitter"_s);
    split->addWidget(m_schemaEditor);
    split->addWidget(m_sentPanel);
    m_sentPanel->hide();

    // The fields for the common case above, the JSON (the whole truth) below.
    m_schemaBuilder = new SchemaBuilder;
    connect(m_schemaEditor, &QPlainTextEdit::textChanged, this,
            [this] { m_schemaBuilder->setSchemaText(m_schemaEditor->toPlainText()); });
    connect(m_schemaBuilder, &SchemaBuilder::schemaEdited, this,
            &SpecFormEditor::applyBuilderSchema);
    auto *page = new QSplitter(Qt::Vertical);
    page->setObjectName(u"schemaBuilderSplitter"_s);
    page->addWidget(m_schemaBuilder);
    page->addWidget(split);
    page->setStretchFactor(0, 3);
    page->setStretchFactor(1, 2);
    page->setChildrenCollapsible(false);
    m_schemaPage = page;
    return page;
}

void SpecFormEditor::applyBuilderSchema(const QJsonObject &schema)
{
    // Typed edits still waiting for the debounce go first, so nothing is lost or merged.
    if (m_jsonTimer->isActive()) {
        m_jsonTimer->stop();
        parseJsonEditors();
    }
    // Write the text the way a load does (the builder is already showing it), then take the same
    // path as any edit: one step on the spec's undo stack.
    m_updating = true;
    m_schemaEditor->setJsonText(indented(schema));
    m_updating = false;
    clearJsonError(u"responseSchema"_s);
    Spec next = m_spec;
    next.responseSchema = schema;
    applyEdit(next, -1, Source::Schema);
}

QWidget *SpecFormEditor::buildToolsPage()
{
    auto *page = new QSplitter(Qt::Horizontal);
    page->setObjectName(u"toolsSplitter"_s);
    auto *left = new QWidget;
    auto *lv = new QVBoxLayout(left);
    lv->setContentsMargins(0, 0, 0, 0);
    m_toolNames = new QStringListModel(this);
    m_toolList = named(new QListView, u"toolList"_s, tr("Tools"));
    m_toolList->setModel(m_toolNames);
    m_toolList->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_addTool = named(new QPushButton(tr("&Add Tool")), u"addTool"_s, tr("Add tool"));
    m_removeTool = named(new QPushButton(tr("Remo&ve Tool")), u"removeTool"_s, tr("Remove tool"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_addTool);
    buttons->addWidget(m_removeTool);
    lv->addWidget(m_toolList, 1);
    lv->addLayout(buttons);

    m_toolDetail = new QWidget;
    auto *form = new QFormLayout(m_toolDetail);
    m_toolName = named(new QLineEdit, u"toolName"_s, tr("Tool name"));
    m_toolDescription = named(new QPlainTextEdit, u"toolDescription"_s, tr("Tool description"));
    m_toolDescription->setTabChangesFocus(true);
    m_toolDescription->setMaximumHeight(80);
    m_toolRunner = named(new QComboBox, u"toolRunner"_s, tr("Tool runner"));
    m_toolRunner->addItem(tr("Command"), int(ToolRunnerKind::Command));
    m_toolRunner->addItem(tr("MCP server"), int(ToolRunnerKind::Mcp));
    m_toolRunner->addItem(tr("Manual (a person types the result)"), int(ToolRunnerKind::Manual));
    m_toolRunner->addItem(tr("Mock (canned result)"), int(ToolRunnerKind::Mock));
    m_toolCommand = named(new QLineEdit, u"toolCommand"_s, tr("Command and arguments"));
    m_toolCommand->setPlaceholderText(
        tr("program arg1 \"arg 2\" (run directly, never through a shell)"));
    m_toolMcp = named(new QLineEdit, u"toolMcp"_s, tr("MCP server name"));
    m_toolMock = named(new JsonEditor, u"toolMock"_s, tr("Mock result (JSON)"));
    m_toolMock->setMaximumHeight(120);
    m_toolApproval =
        named(new QCheckBox(tr("Requires approval")), u"toolApproval"_s, tr("Requires approval"));
    m_toolTimeout = named(new QSpinBox, u"toolTimeout"_s, tr("Timeout in milliseconds"));
    m_toolTimeout->setRange(1, 24 * 3600 * 1000);
    m_toolTimeout->setSuffix(tr(" ms"));
    m_toolSchema = named(new JsonEditor, u"toolInputSchema"_s, tr("Tool input schema"));
    form->addRow(tr("&Name:"), m_toolName);
    form->addRow(tr("&Description:"), m_toolDescription);
    form->addRow(tr("R&unner:"), m_toolRunner);
    form->addRow(tr("&Command:"), m_toolCommand);
    form->addRow(tr("MCP ser&ver:"), m_toolMcp);
    form->addRow(tr("Moc&k result:"), m_toolMock);
    form->addRow(QString(), m_toolApproval);
    form->addRow(tr("T&imeout:"), m_toolTimeout);
    form->addRow(tr("Input sc&hema:"), m_toolSchema);

    // The list of names stays narrow; the tool's editors get the width.
    left->setMaximumWidth(200);
    m_toolMock->setMinimumHeight(80);
    m_toolSchema->setMinimumHeight(170);
    page->addWidget(left);
    page->addWidget(scrolled(m_toolDetail));
    page->setStretchFactor(1, 3);

    connect(m_toolList->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                m_currentTool = current.isValid() ? current.row() : -1;
                toolToForm();
            });
    connect(m_addTool, &QPushButton::clicked, this, [this] {
        Spec next = m_spec;
        ToolSpec tool;
        int n = 1;
        tool.name = u"new_tool"_s;
        while (next.tool(tool.name))
            tool.name = u"new_tool_"_s + QString::number(++n);
        tool.description = tr("Describe when to use this tool.");
        tool.runner = ToolRunnerKind::Mock;
        tool.mock = u"ok"_s;
        tool.inputSchema =
            QJsonObject { { u"type"_s, u"object"_s }, { u"properties"_s, QJsonObject {} } };
        next.tools.append(tool);
        m_currentTool = int(next.tools.size()) - 1;
        applyEdit(next, -1, Source::None);
        m_toolList->setCurrentIndex(m_toolNames->index(m_currentTool));
    });
    connect(m_removeTool, &QPushButton::clicked, this, [this] {
        if (m_currentTool < 0 || m_currentTool >= m_spec.tools.size())
            return;
        Spec next = m_spec;
        next.tools.removeAt(m_currentTool);
        m_currentTool = std::min<int>(m_currentTool, int(next.tools.size()) - 1);
        applyEdit(next, -1, Source::None);
    });
    connect(m_toolName, &QLineEdit::textEdited, this, [this] { onToolFormEdited(100); });
    connect(m_toolDescription, &QPlainTextEdit::textChanged, this,
            [this] { onToolFormEdited(101); });
    connect(m_toolRunner, &QComboBox::currentIndexChanged, this, [this] { onToolFormEdited(102); });
    connect(m_toolCommand, &QLineEdit::textEdited, this, [this] { onToolFormEdited(103); });
    connect(m_toolMcp, &QLineEdit::textEdited, this, [this] { onToolFormEdited(104); });
    connect(m_toolApproval, &QCheckBox::toggled, this, [this] { onToolFormEdited(105); });
    connect(m_toolTimeout, &QSpinBox::valueChanged, this, [this] { onToolFormEdited(106); });
    connect(m_toolMock, &QPlainTextEdit::textChanged, this,
            [this] { onJsonEdited(Source::ToolMock); });
    connect(m_toolSchema, &QPlainTextEdit::textChanged, this,
            [this] { onJsonEdited(Source::ToolSchema); });
    return page;
}

QWidget *SpecFormEditor::buildExtrasPage()
{
    auto *page = new QSplitter(Qt::Vertical);
    page->setObjectName(u"extrasSplitter"_s);
    auto wrap = [](const QString &title, QWidget *w) {
        auto *box = new QGroupBox(title);
        auto *l = new QVBoxLayout(box);
        l->addWidget(w);
        return box;
    };
    m_preSeeds = named(new JsonEditor, u"preSeeds"_s, tr("Pre-seeded tool calls (JSON array)"));
    m_preSeeds->setPlaceholderText(
        u"[ { \"tool\": \"get_ticket\", \"arguments\": { \"id\": 7 } } ]"_s);
    m_mcpServers = named(new JsonEditor, u"mcpServers"_s, tr("MCP servers (JSON object)"));
    m_mcpServers->setPlaceholderText(
        u"{ \"everything\": { \"command\": [\"npx\", \"server\"], \"env\": {} } }"_s);
    page->addWidget(wrap(tr("Pre-seeded tool calls"), m_preSeeds));
    page->addWidget(wrap(tr("MCP servers"), m_mcpServers));
    m_mcpPanel = new McpServerPanel;
    m_mcpPanel->setObjectName(u"mcpPanel"_s);
    // In a scroll area, so the panel never makes the window's minimum size larger.
    auto *mcpScroll = new QScrollArea;
    mcpScroll->setObjectName(u"mcpPanelScroll"_s);
    mcpScroll->setFrameShape(QFrame::NoFrame);
    mcpScroll->setWidgetResizable(true);
    mcpScroll->setWidget(m_mcpPanel);
    page->addWidget(mcpScroll);
    connect(m_preSeeds, &QPlainTextEdit::textChanged, this,
            [this] { onJsonEdited(Source::PreSeeds); });
    connect(m_mcpServers, &QPlainTextEdit::textChanged, this,
            [this] { onJsonEdited(Source::Mcp); });
    connect(this, &SpecFormEditor::specChanged, m_mcpPanel,
            [this] { m_mcpPanel->setSpec(m_spec); });
    connect(m_mcpPanel, &McpServerPanel::addServerRequested, this,
            [this](const QString &name, const QJsonObject &entry) {
                // Through the JSON editor, so the edit is checked and undoable like a typed one.
                const QString text = m_mcpServers->toPlainText().trimmed();
                const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
                if (!text.isEmpty() && !doc.isObject()) {
                    m_mcpPanel->statusLabel()->setText(
                        tr("Fix the MCP servers JSON first: it is not an object."));
                    return;
                }
                QJsonObject servers = doc.object();
                servers.insert(name, entry);
                m_mcpServers->setPlainText(indented(servers));
                flushPendingEdits();
            });
    return page;
}

// ---- spec <-> widgets -------------------------------------------------------------------------

void SpecFormEditor::specToForm()
{
    const bool was = std::exchange(m_updating, true);
    const Spec &s = m_spec;
    setText(m_kind, s.kind);
    setText(m_systemPrompt, s.systemPrompt);
    m_outputParser->setCurrentIndex(std::max(0, m_outputParser->findData(s.outputParser)));
    setText(m_textOutput, s.textOutputField);
    m_stopEarly->setChecked(s.stopEarly);
    m_outputMode->setCurrentIndex(
        std::max(0, m_outputMode->findData(outputModeName(s.outputMode))));
    m_maxTurns->setValue(s.maxTurns);
    m_engineType->setCurrentIndex(
        s.engine.typeFromProfile && !s.engine.profile.isEmpty()
            ? 0
            : std::max(1, m_engineType->findData(engineTypeName(s.engine.type))));
    setText(m_model, s.engine.model);
    setText(m_baseUrl, s.engine.baseUrl);
    if (m_profile->currentText() != s.engine.profile)
        m_profile->setEditText(s.engine.profile);
    setText(m_apiKeyEnv, s.engine.apiKeyEnv);
    m_maxTokens->setValue(s.engine.maxTokens.value_or(0));
    m_temperature->setValue(s.engine.temperature.value_or(-0.1));
    m_contextWindow->setValue(int(s.engine.contextWindow.value_or(0)));
    m_timeout->setValue(
        int(std::min<qint64>(s.engine.timeoutMs.value_or(0), std::numeric_limits<int>::max())));
    m_idleTimeout->setValue(
        int(std::min<qint64>(s.engine.idleTimeoutMs.value_or(0), std::numeric_limits<int>::max())));
    m_stream->setChecked(s.engine.stream);
    setText(m_replay, s.engine.replay);
    m_maxAttempts->setValue(s.retry.maxAttempts);
    m_reask->setChecked(s.retry.reask);
    m_ctxResults->setValue(s.context.toolResultsInContext.value_or(-1));
    m_ctxTokens->setValue(int(s.context.toolResultsTokens.value_or(-1)));
    m_ctxChars->setValue(int(s.context.toolResultsChars.value_or(-1)));
    m_ctxImages->setValue(s.context.imagesInContext);
    if (m_mcpPanel)
        m_mcpPanel->setSpec(m_spec);
    m_updating = was;
}

Spec SpecFormEditor::formToSpec() const
{
    Spec s = m_spec;
    s.kind = m_kind->text();
    s.systemPrompt = m_systemPrompt->toPlainText();
    s.outputParser = m_outputParser->currentData().toString();
    s.textOutputField = m_textOutput->text();
    s.stopEarly = m_stopEarly->isChecked();
    s.outputMode =
        outputModeFromName(m_outputMode->currentData().toString()).value_or(OutputMode::Tool);
    s.maxTurns = m_maxTurns->value();
    if (auto type = engineTypeFromName(m_engineType->currentData().toString())) {
        s.engine.type = *type;
        s.engine.typeFromProfile = false;
    } else {
        s.engine.typeFromProfile = true;
        if (m_profiles) {
            if (const auto profile = m_profiles->get(m_profile->currentText()))
                s.engine.type = profile->type;
        }
    }
    s.engine.model = m_model->text();
    s.engine.baseUrl = m_baseUrl->text();
    s.engine.profile = m_profile->currentText();
    s.engine.apiKeyEnv = m_apiKeyEnv->text();
    s.engine.maxTokens =
        m_maxTokens->value() > 0 ? std::optional<int>(m_maxTokens->value()) : std::nullopt;
    s.engine.temperature =
        m_temperature->value() >= 0 ? std::optional<double>(m_temperature->value()) : std::nullopt;
    s.engine.contextWindow = m_contextWindow->value() > 0
        ? std::optional<qint64>(m_contextWindow->value())
        : std::nullopt;
    s.engine.timeoutMs =
        m_timeout->value() > 0 ? std::optional<qint64>(m_timeout->value()) : std::nullopt;
    s.engine.idleTimeoutMs =
        m_idleTimeout->value() > 0 ? std::optional<qint64>(m_idleTimeout->value()) : std::nullopt;
    s.engine.stream = m_stream->isChecked();
    s.engine.replay = m_replay->text();
    s.retry.maxAttempts = m_maxAttempts->value();
    s.retry.reask = m_reask->isChecked();
    s.context.toolResultsInContext =
        m_ctxResults->value() >= 0 ? std::optional<int>(m_ctxResults->value()) : std::nullopt;
    s.context.toolResultsTokens =
        m_ctxTokens->value() >= 0 ? std::optional<qint64>(m_ctxTokens->value()) : std::nullopt;
    s.context.toolResultsChars =
        m_ctxChars->value() >= 0 ? std::optional<qint64>(m_ctxChars->value()) : std::nullopt;
    s.context.imagesInContext = m_ctxImages->value();
    return s;
}

void SpecFormEditor::refreshToolList()
{
    QStringList names;
    for (const ToolSpec &t : std::as_const(m_spec.tools))
        names.append(t.name);
    if (names != m_toolNames->stringList()) {
        if (names.size() == m_toolNames->rowCount()) {
            for (int i = 0; i < names.size(); ++i)
                m_toolNames->setData(m_toolNames->index(i), names.at(i));
        } else {
            const int keep = m_currentTool;
            m_toolNames->setStringList(names);
            m_currentTool = std::min<int>(keep, int(names.size()) - 1);
            if (m_currentTool < 0 && !names.isEmpty())
                m_currentTool = 0;
            if (m_currentTool >= 0)
                m_toolList->setCurrentIndex(m_toolNames->index(m_currentTool));
        }
    }
    if (m_currentTool >= m_spec.tools.size())
        m_currentTool = int(m_spec.tools.size()) - 1;
    if (m_currentTool < 0 && !m_spec.tools.isEmpty()) {
        m_currentTool = 0;
        m_toolList->setCurrentIndex(m_toolNames->index(0));
    }
    m_removeTool->setEnabled(m_currentTool >= 0);
}

void SpecFormEditor::toolToForm()
{
    const bool was = std::exchange(m_updating, true);
    const bool has = m_currentTool >= 0 && m_currentTool < m_spec.tools.size();
    m_toolDetail->setEnabled(has);
    const ToolSpec tool = has ? m_spec.tools.at(m_currentTool) : ToolSpec();
    setText(m_toolName, tool.name);
    setText(m_toolDescription, tool.description);
    m_toolRunner->setCurrentIndex(std::max(0, m_toolRunner->findData(int(tool.runner))));
    if (QProcess::splitCommand(m_toolCommand->text()) != tool.command)
        m_toolCommand->setText(joinCommand(tool.command));
    setText(m_toolMcp, tool.mcpServer);
    m_toolApproval->setChecked(tool.requiresApproval);
    m_toolTimeout->setValue(tool.timeoutMs);
    const auto runner = tool.runner;
    m_toolCommand->setEnabled(runner == ToolRunnerKind::Command);
    m_toolMcp->setEnabled(runner == ToolRunnerKind::Mcp);
    m_toolMock->setEnabled(runner == ToolRunnerKind::Mock);
    m_toolMock->setJsonText(has && runner == ToolRunnerKind::Mock ? indented(tool.mock)
                                                                  : QString());
    m_toolSchema->setJsonText(has && !tool.inputSchema.isEmpty() ? indented(tool.inputSchema)
                                                                 : QString());
    clearJsonError(u"toolMock"_s);
    clearJsonError(u"toolInputSchema"_s);
    m_updating = was;
    updateMarkers();
}

void SpecFormEditor::writeToolForm(Spec &spec) const
{
    if (m_currentTool < 0 || m_currentTool >= spec.tools.size())
        return;
    ToolSpec &tool = spec.tools[m_currentTool];
    tool.name = m_toolName->text();
    tool.description = m_toolDescription->toPlainText();
    tool.runner = ToolRunnerKind(m_toolRunner->currentData().toInt());
    tool.command = tool.runner == ToolRunnerKind::Command
        ? QProcess::splitCommand(m_toolCommand->text())
        : QStringList();
    tool.mcpServer = tool.runner == ToolRunnerKind::Mcp ? m_toolMcp->text() : QString();
    if (tool.runner != ToolRunnerKind::Mock)
        tool.mock = QJsonValue();
    else if (tool.mock.isNull() || tool.mock.isUndefined())
        tool.mock = u"ok"_s;
    tool.requiresApproval = m_toolApproval->isChecked();
    tool.timeoutMs = m_toolTimeout->value();
}

void SpecFormEditor::onFormEdited(int mergeId)
{
    if (m_updating)
        return;
    applyEdit(formToSpec(), mergeId, Source::Form);
}

void SpecFormEditor::onToolFormEdited(int mergeId)
{
    if (m_updating || m_currentTool < 0)
        return;
    Spec next = m_spec;
    writeToolForm(next);
    applyEdit(next, mergeId * 1000 + m_currentTool, Source::ToolForm);
}

void SpecFormEditor::onJsonEdited(Source source)
{
    if (m_updating)
        return;
    m_dirtyJson.insert(int(source));
    m_jsonTimer->start();
}

void SpecFormEditor::setJsonError(const QString &editor, const QString &pointer,
                                  const QString &text, const QString &error, int offset)
{
    clearJsonError(editor);
    SpecFinding f;
    f.severity = SpecFinding::Severity::Error;
    f.source = SpecFinding::Source::Json;
    f.pointer = pointer;
    f.editor = editor;
    const auto [line, column] = JsonLocator::lineColumn(text, offset);
    f.line = line;
    f.column = column;
    f.message = tr("%1 is not valid JSON: %2 (line %3, column %4)")
                    .arg(pointer.isEmpty() ? tr("the spec") : pointer, error)
                    .arg(line)
                    .arg(column);
    m_jsonErrors.append(f);
}

void SpecFormEditor::clearJsonError(const QString &editor)
{
    m_jsonErrors.removeIf([&editor](const SpecFinding &f) { return f.editor == editor; });
}

void SpecFormEditor::parseJsonEditors()
{
    const QSet<int> dirty = std::exchange(m_dirtyJson, {});
    for (int raw : dirty) {
        const Source source = Source(raw);
        JsonEditor *editor = nullptr;
        QString pointer;
        switch (source) {
        case Source::Schema:
            editor = m_schemaEditor;
            pointer = u"/response_schema"_s;
            break;
        case Source::Schedule:
            editor = m_schedule;
            pointer = u"/retry/per_attempt_override"_s;
            break;
        case Source::PreSeeds:
            editor = m_preSeeds;
            pointer = u"/pre_seeds"_s;
            break;
        case Source::Mcp:
            editor = m_mcpServers;
            pointer = u"/mcp_servers"_s;
            break;
        case Source::ToolMock:
            editor = m_toolMock;
            pointer = u"/tools/%1/mock"_s.arg(m_currentTool);
            break;
        case Source::ToolSchema:
            editor = m_toolSchema;
            pointer = u"/tools/%1/input_schema"_s.arg(m_currentTool);
            break;
        default:
            continue;
        }
        const QString text = editor->toPlainText();
        QString error;
        int offset = 0;
        std::optional<QJsonValue> value;
        if (!text.trimmed().isEmpty()) {
            value = parseJson(text, &error, &offset);
            if (!value) {
                setJsonError(editor->objectName(), pointer, text, error, offset);
                continue;
            }
        }
        clearJsonError(editor->objectName());
        Spec next = m_spec;
        auto expect = [&](bool ok, const QString &what) {
            if (!ok) {
                SpecFinding f;
                f.severity = SpecFinding::Severity::Error;
                f.source = SpecFinding::Source::Json;
                f.pointer = pointer;
                f.editor = editor->objectName();
                f.message = tr("%1: expected %2").arg(pointer, what);
                m_jsonErrors.append(f);
            }
            return ok;
        };
        switch (source) {
        case Source::Schema:
            if (!value) {
                next.responseSchema.reset();
            } else {
                if (!expect(value->isObject(), tr("an object")))
                    continue;
                next.responseSchema = value->toObject();
            }
            break;
        case Source::Schedule: {
            next.retry.perAttemptOverride.clear();
            if (value) {
                if (!expect(value->isArray(), tr("an array of objects")))
                    continue;
                bool ok = true;
                for (const QJsonValue &v : value->toArray()) {
                    ok = ok && v.isObject();
                    next.retry.perAttemptOverride.append(v.toObject());
                }
                if (!expect(ok, tr("an array of objects")))
                    continue;
            }
            break;
        }
        case Source::PreSeeds:
        case Source::Mcp: {
            // Through the loader, so its checks (and error pointers) apply.
            QJsonObject json = specToJson(m_spec);
            const QString key = source == Source::PreSeeds ? u"pre_seeds"_s : u"mcp_servers"_s;
            if (value)
                json.insert(key, *value);
            else
                json.remove(key);
            SpecLoadResult loaded = specFromJson(json, m_spec.sourcePath);
            if (!loaded.ok()) {
                for (const SpecError &e : loaded.errors) {
                    SpecFinding f;
                    f.severity = SpecFinding::Severity::Error;
                    f.source = SpecFinding::Source::Spec;
                    f.pointer = e.pointer;
                    f.editor = editor->objectName();
                    f.message = e.toString();
                    m_jsonErrors.append(f);
                }
                continue;
            }
            if (source == Source::PreSeeds)
                next.preSeeds = loaded.spec->preSeeds;
            else
                next.mcpServers = loaded.spec->mcpServers;
            break;
        }
        case Source::ToolMock:
            if (m_currentTool < 0 || m_currentTool >= next.tools.size())
                continue;
            next.tools[m_currentTool].mock = value.value_or(QJsonValue(u"ok"_s));
            break;
        case Source::ToolSchema:
            if (m_currentTool < 0 || m_currentTool >= next.tools.size())
                continue;
            if (value && !expect(value->isObject(), tr("an object")))
                continue;
            next.tools[m_currentTool].inputSchema = value ? value->toObject() : QJsonObject();
            break;
        default:
            break;
        }
        applyEdit(next, 200 + raw, source);
    }
    // The typing stopped a debounce ago already: the document checks the new text now instead
    // of waiting a delay of its own, so its findings follow the last keystroke within one
    // debounce plus the check.
    if (m_document->recheckPending())
        m_document->recheck();
    updateMarkers();
}

void SpecFormEditor::applyEdit(const Spec &next, int mergeId, Source source)
{
    if (next == m_spec) {
        updateMarkers();
        return;
    }
    m_spec = next;
    refreshViews(source);
    // One step of the document's history; edits with the same mergeId follow one another in
    // one field and merge.
    m_document->replaceText(QString::fromUtf8(saveSpec(m_spec)), mergeId);
}

void SpecFormEditor::showDocumentSpec()
{
    const std::optional<Spec> &spec = m_document->spec();
    // A text that is not a spec leaves the form on the last one it was.
    if (!spec || *spec == m_spec)
        return;
    m_spec = *spec;
    m_jsonErrors.clear();
    m_dirtyJson.clear();
    m_jsonTimer->stop();
    refreshViews(Source::None);
}

void SpecFormEditor::reload()
{
    m_reloadWhenChecked = !m_document->isCheckCurrent();
    m_spec = m_document->spec().value_or(Spec());
    m_jsonErrors.clear();
    m_dirtyJson.clear();
    m_jsonTimer->stop();
    m_currentTool = m_spec.tools.isEmpty() ? -1 : 0;
    m_toolNames->setStringList({});
    refreshViews(Source::None);
    if (m_currentTool >= 0)
        m_toolList->setCurrentIndex(m_toolNames->index(0));
}

void SpecFormEditor::refreshViews(Source source)
{
    const bool was = std::exchange(m_updating, true);
    if (source != Source::Form)
        specToForm();
    refreshToolList();
    if (source != Source::ToolForm && source != Source::ToolSchema && source != Source::ToolMock) {
        toolToForm();
    } else {
        // Keep the editor the person types in; refresh the others of the tool.
        m_updating = true;
        const bool has = m_currentTool >= 0 && m_currentTool < m_spec.tools.size();
        if (has) {
            const ToolSpec &tool = m_spec.tools.at(m_currentTool);
            m_toolCommand->setEnabled(tool.runner == ToolRunnerKind::Command);
            m_toolMcp->setEnabled(tool.runner == ToolRunnerKind::Mcp);
            m_toolMock->setEnabled(tool.runner == ToolRunnerKind::Mock);
            if (source == Source::ToolForm && tool.runner == ToolRunnerKind::Mock
                && m_toolMock->toPlainText().isEmpty())
                m_toolMock->setJsonText(indented(tool.mock));
        }
    }
    m_updating = true;
    if (source != Source::Schema) {
        m_schemaEditor->setJsonText(m_spec.responseSchema ? indented(*m_spec.responseSchema)
                                                          : QString());
        clearJsonError(u"responseSchema"_s);
    }
    if (source != Source::Schedule) {
        QJsonArray schedule;
        for (const QJsonObject &o : std::as_const(m_spec.retry.perAttemptOverride))
            schedule.append(o);
        m_schedule->setJsonText(schedule.isEmpty() ? QString() : indented(schedule));
        clearJsonError(u"perAttemptOverride"_s);
    }
    const QJsonObject json = specToJson(m_spec);
    if (source != Source::PreSeeds) {
        m_preSeeds->setJsonText(json.contains(u"pre_seeds"_s) ? indented(json.value(u"pre_seeds"_s))
                                                              : QString());
        clearJsonError(u"preSeeds"_s);
    }
    if (source != Source::Mcp) {
        m_mcpServers->setJsonText(
            json.contains(u"mcp_servers"_s) ? indented(json.value(u"mcp_servers"_s)) : QString());
        clearJsonError(u"mcpServers"_s);
    }
    m_updating = was;
    updateEngineType();
    updateMarkers();
    updateSentSchema();
    Q_EMIT specChanged();
}

// ---- findings -------------------------------------------------------------------------------

void SpecFormEditor::updateSentSchema()
{
    const bool native = m_spec.responseSchema && m_spec.outputMode == OutputMode::Native;
    m_sentPanel->setVisible(native);
    if (!native)
        return;
    const EngineSchema sent = schemaForEngine(*m_spec.responseSchema, m_spec.engine.type);
    m_sentLabel->setText(
        sent.unchanged() ? tr("Sent to %1 as it is.").arg(engineTypeName(m_spec.engine.type))
                         : tr("Sent to %1 with %n change(s); the reply is validated against the "
                              "schema on the left.",
                              nullptr, int(sent.changes.size()))
                               .arg(engineTypeName(m_spec.engine.type)));
    const QString text = indented(sent.schema);
    if (m_sentSchema->toPlainText() != text)
        m_sentSchema->setJsonText(text);
    QList<EditorMarker> markers;
    m_sentChanges->clear();
    for (const SchemaChange &c : sent.changes) {
        markers.append(EditorMarker { c.pointer, c.reason, false });
        auto *item = new QListWidgetItem(
            tr("%1: %2").arg(c.pointer.isEmpty() ? tr("(root)") : c.pointer, c.reason));
        item->setData(Qt::UserRole, c.pointer);
        m_sentChanges->addItem(item);
    }
    m_sentSchema->setMarkers(markers);
}

void SpecFormEditor::updateEngineType()
{
    const EngineSpec &engine = m_spec.engine;
    std::optional<EngineProfile> profile;
    if (m_profiles && !engine.profile.isEmpty())
        profile = m_profiles->get(engine.profile);
    const bool fromProfile = engine.typeFromProfile && !engine.profile.isEmpty();
    m_engineType->setItemText(0,
                              profile
                                  ? tr("From the profile (%1)").arg(engineTypeName(profile->type))
                                  : tr("From the profile"));
    QString note;
    if (engine.profile.isEmpty())
        note = tr("No profile: the call goes to %1.").arg(engineTypeName(engine.type));
    else if (!profile)
        note =
            tr("There is no engine profile named \"%1\" (Edit > Preferences).").arg(engine.profile);
    else if (fromProfile)
        note = tr("The profile \"%1\" decides: %2.")
                   .arg(engine.profile, engineTypeName(profile->type));
    else if (profile->type == engine.type)
        note = tr("The spec says %1, as the profile \"%2\" does.")
                   .arg(engineTypeName(engine.type), engine.profile);
    else
        note = tr("The spec's %1 wins over the profile's %2; choose \"From the profile\" to use "
                  "the profile's.")
                   .arg(engineTypeName(engine.type), engineTypeName(profile->type));
    m_engineTypeNote->setText(note);
}

void SpecFormEditor::updateMarkers()
{
    // The document's findings (as of its last check) and the JSON editors' own errors.
    QList<SpecFinding> all = m_jsonErrors;
    all.append(m_document->findings());
    auto collect = [&all](const QString &base, const QString &editorName) {
        QList<EditorMarker> markers;
        for (const SpecFinding &f : std::as_const(all)) {
            if (f.source == SpecFinding::Source::Json && f.editor.isEmpty())
                continue; // a syntax error of the whole text: the JSON view shows it
            if (!f.editor.isEmpty() && f.editor != editorName)
                continue;
            if (f.pointer == base || f.pointer.startsWith(base + u'/'))
                markers.append(EditorMarker { f.pointer.mid(base.size()), f.message,
                                              f.severity == SpecFinding::Severity::Error });
        }
        return markers;
    };
    m_schemaEditor->setMarkers(collect(u"/response_schema"_s, u"responseSchema"_s));
    // The builder says plainly what is wrong with a schema no engine accepts, when the check was
    // of the schema it shows (not of an older text while an edit waits to be written).
    const SpecCheck &check = m_document->check();
    const QJsonDocument shown = QJsonDocument::fromJson(m_schemaEditor->toPlainText().toUtf8());
    if (m_document->isCheckCurrent() && check.spec && check.spec->responseSchema && shown.isObject()
        && shown.object() == *check.spec->responseSchema) {
        static const QString base = u"/response_schema"_s;
        QList<SpecSchemaError> errors;
        for (SpecSchemaError e : check.schemaErrors) {
            if (e.pointer != base && !e.pointer.startsWith(base + u'/'))
                continue;
            e.pointer = e.pointer.mid(base.size());
            errors.append(e);
        }
        m_schemaBuilder->setSchemaErrors(errors);
    }
    m_toolSchema->setMarkers(
        m_currentTool >= 0
            ? collect(u"/tools/%1/input_schema"_s.arg(m_currentTool), u"toolInputSchema"_s)
            : QList<EditorMarker>());
}

bool SpecFormEditor::revealPointer(const QString &pointer)
{
    static const QRegularExpression toolPointer(u"^/tools/(\\d+)(/input_schema)?(.*)$"_s);
    if (pointer.startsWith(u"/response_schema"_s)) {
        m_tabs->setCurrentIndex(m_tabs->indexOf(m_schemaPage));
        m_schemaEditor->revealPointer(pointer.mid(QStringView(u"/response_schema").size()));
        return true;
    }
    const QRegularExpressionMatch m = toolPointer.match(pointer);
    if (m.hasMatch() && m.capturedLength(2) > 0 && m.captured(1).toInt() < m_spec.tools.size()) {
        const int index = m.captured(1).toInt();
        m_tabs->setCurrentIndex(3);
        m_toolList->setCurrentIndex(m_toolNames->index(index));
        m_toolSchema->revealPointer(m.captured(3));
        return true;
    }
    return false;
}

void SpecFormEditor::revealEngineField(const QString &pointer)
{
    // A tool whose program is missing: its command in the Tools tab, or the MCP servers.
    static const QRegularExpression toolCommand(u"^/tools/(\\d+)/command$"_s);
    if (const QRegularExpressionMatch m = toolCommand.match(pointer);
        m.hasMatch() && m.captured(1).toInt() < m_spec.tools.size()) {
        m_tabs->setCurrentIndex(3);
        m_toolList->setCurrentIndex(m_toolNames->index(m.captured(1).toInt()));
        m_toolCommand->setFocus(Qt::OtherFocusReason);
        return;
    }
    if (pointer.startsWith(u"/mcp_servers/"_s)) {
        QWidget *page = m_mcpServers;
        while (page && m_tabs->indexOf(page) < 0)
            page = page->parentWidget();
        if (page)
            m_tabs->setCurrentWidget(page);
        m_mcpServers->setFocus(Qt::OtherFocusReason);
        return;
    }
    QWidget *field = m_model;
    if (pointer == u"/engine/base_url")
        field = m_baseUrl;
    else if (pointer == u"/engine/api_key_env")
        field = m_apiKeyEnv;
    else if (pointer == u"/engine/replay")
        field = m_replay;
    else if (pointer == u"/engine/profile")
        field = m_profile;
    m_tabs->setCurrentIndex(1);
    if (field)
        field->setFocus(Qt::OtherFocusReason);
}

void SpecFormEditor::flushPendingEdits()
{
    if (m_jsonTimer->isActive()) {
        m_jsonTimer->stop();
        parseJsonEditors();
    }
}

void SpecFormEditor::setProfileStore(ProfileStore *profiles)
{
    m_profiles = profiles;
    const bool was = std::exchange(m_updating, true);
    const QString current = m_profile->currentText();
    m_profile->clear();
    m_profile->addItem(QString());
    if (m_profiles) {
        for (const EngineProfile &p : m_profiles->list())
            m_profile->addItem(p.name);
    }
    m_profile->setEditText(current);
    m_updating = was;
}

void SpecFormEditor::saveState() const
{
    QSettings settings;
    if (auto *splitter = findChild<QSplitter *>(u"toolsSplitter"_s))
        settings.setValue(u"editor/toolsSplitter"_s, splitter->saveState());
    settings.setValue(u"editor/tab"_s, m_tabs->currentIndex());
}

void SpecFormEditor::restoreState()
{
    QSettings settings;
    if (auto *splitter = findChild<QSplitter *>(u"toolsSplitter"_s))
        splitter->restoreState(settings.value(u"editor/toolsSplitter"_s).toByteArray());
    m_tabs->setCurrentIndex(settings.value(u"editor/tab"_s, 0).toInt());
}

} // namespace Callscope
