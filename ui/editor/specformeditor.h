#pragma once

// The spec form: a field for every part of a spec, JSON editors for the schemas, tools,
// pre-seeds and MCP servers, and the schema builder. It is a view of one SpecDocument: it shows
// the document's spec, writes each edit into the document's text (one step of the document's
// history), and marks the spots the document's findings name. Files, undo, findings and the
// whole-spec text belong to the document and its other views.

#include "core/model/spec.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStringListModel;
class QTabWidget;
class QTimer;

namespace Callscope {

class JsonEditor;
class SchemaBuilder;
class McpServerPanel;
class ProfileStore;
class SpecDocument;
struct SpecFinding;

class SpecFormEditor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecFormEditor)

public:
    // Shows `document` (which must outlive the form) and edits it.
    explicit SpecFormEditor(SpecDocument *document, QWidget *parent = nullptr);
    ~SpecFormEditor() override;

    void setProfileStore(ProfileStore *profiles); // fills the profile picker

    SpecDocument *document() const { return m_document; }
    // The spec the form shows: the document's, plus edits not yet checked.
    const Spec &spec() const { return m_spec; }
    // Starts over from the document's spec (after a load or a revert): the first tool shown.
    void reload();

    QTabWidget *tabs() const { return m_tabs; }
    JsonEditor *responseSchemaEditor() const { return m_schemaEditor; }
    SchemaBuilder *schemaBuilder() const { return m_schemaBuilder; }
    JsonEditor *toolSchemaEditor() const { return m_toolSchema; }
    McpServerPanel *mcpPanel() const { return m_mcpPanel; }

    // Shows the spot `pointer` names when the form has an editor for it (the response schema,
    // a tool's input schema); false otherwise (the JSON view shows it then).
    bool revealPointer(const QString &pointer);
    // Shows the Engine tab with the field `pointer` names ("/engine/model") focused; for a tool's
    // command ("/tools/2/command") or an MCP server ("/mcp_servers/NAME/command"), its tab.
    void revealEngineField(const QString &pointer);
    // Writes the JSON editors' pending edits into the document now (tests, and before a run).
    void flushPendingEdits();

    void saveState() const;
    void restoreState();

Q_SIGNALS:
    // The spec the form shows changed (an edit here, or the document's text).
    void specChanged();

private:
    enum class Source {
        None,
        Form,
        Schema,
        ToolForm,
        ToolSchema,
        ToolMock,
        PreSeeds,
        Mcp,
        Schedule
    };

    QWidget *buildGeneralPage();
    QWidget *buildEnginePage();
    QWidget *buildSchemaPage();
    QWidget *buildToolsPage();
    QWidget *buildExtrasPage();

    void applyEdit(const Spec &next, int mergeId, Source source);
    void applyBuilderSchema(const QJsonObject &schema);
    void showDocumentSpec(); // the document's text changed (typed, undone, reverted)
    void refreshViews(Source source);
    void specToForm();
    Spec formToSpec() const;
    void toolToForm();
    void writeToolForm(Spec &spec) const;
    void refreshToolList();

    void onFormEdited(int mergeId);
    void onToolFormEdited(int mergeId);
    void onJsonEdited(Source source);
    void parseJsonEditors();
    void updateMarkers();
    void updateSentSchema();
    void updateEngineType();
    void setJsonError(const QString &editor, const QString &pointer, const QString &text,
                      const QString &error, int offset);
    void clearJsonError(const QString &editor);

    SpecDocument *m_document = nullptr;
    Spec m_spec;
    bool m_updating = false;
    // reload() came before the document's check of its text: the form reloads when it comes.
    bool m_reloadWhenChecked = false;
    // Text in one of the JSON editors that is not yet a value the spec can take (a syntax error,
    // an array where an object goes): marked in that editor; the document keeps its last spec.
    QList<SpecFinding> m_jsonErrors;
    ProfileStore *m_profiles = nullptr;

    QTabWidget *m_tabs = nullptr;
    QTimer *m_jsonTimer = nullptr;
    QSet<int> m_dirtyJson; // Source values waiting for the debounce

    // General
    QLineEdit *m_kind = nullptr;
    QPlainTextEdit *m_systemPrompt = nullptr;
    QComboBox *m_outputParser = nullptr;
    QComboBox *m_outputMode = nullptr;
    QLineEdit *m_textOutput = nullptr;
    QCheckBox *m_stopEarly = nullptr;
    QSpinBox *m_maxTurns = nullptr;
    // Engine
    QComboBox *m_engineType = nullptr;
    QLabel *m_engineTypeNote = nullptr; // which type wins: the spec's or the profile's
    QLineEdit *m_model = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QComboBox *m_profile = nullptr;
    QLineEdit *m_apiKeyEnv = nullptr;
    QSpinBox *m_maxTokens = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    QSpinBox *m_contextWindow = nullptr;
    QSpinBox *m_timeout = nullptr;
    QSpinBox *m_idleTimeout = nullptr;
    QCheckBox *m_stream = nullptr;
    QLineEdit *m_replay = nullptr;
    QSpinBox *m_maxAttempts = nullptr;
    QCheckBox *m_reask = nullptr;
    JsonEditor *m_schedule = nullptr;
    QSpinBox *m_ctxResults = nullptr;
    QSpinBox *m_ctxTokens = nullptr;
    QSpinBox *m_ctxChars = nullptr;
    QSpinBox *m_ctxImages = nullptr;
    // Schema, and in native mode the schema the engine gets beside it
    QWidget *m_schemaPage = nullptr;
    JsonEditor *m_schemaEditor = nullptr;
    SchemaBuilder *m_schemaBuilder = nullptr;
    QWidget *m_sentPanel = nullptr;
    QLabel *m_sentLabel = nullptr;
    JsonEditor *m_sentSchema = nullptr;
    QListWidget *m_sentChanges = nullptr;
    // Tools
    QListView *m_toolList = nullptr;
    QStringListModel *m_toolNames = nullptr;
    int m_currentTool = -1;
    McpServerPanel *m_mcpPanel = nullptr;
    QPushButton *m_addTool = nullptr;
    QPushButton *m_removeTool = nullptr;
    QWidget *m_toolDetail = nullptr;
    QLineEdit *m_toolName = nullptr;
    QPlainTextEdit *m_toolDescription = nullptr;
    QComboBox *m_toolRunner = nullptr;
    QLineEdit *m_toolCommand = nullptr;
    QLineEdit *m_toolMcp = nullptr;
    JsonEditor *m_toolMock = nullptr;
    QCheckBox *m_toolApproval = nullptr;
    QSpinBox *m_toolTimeout = nullptr;
    JsonEditor *m_toolSchema = nullptr;
    // Extras
    JsonEditor *m_preSeeds = nullptr;
    JsonEditor *m_mcpServers = nullptr;
};

} // namespace Callscope
