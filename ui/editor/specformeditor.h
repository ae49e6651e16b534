#pragma once

// The spec editor: a form for every field of a spec, JSON editors for the schemas, tools,
// pre-seeds and MCP servers, a raw JSON view of the whole spec kept in sync both ways, live
// findings (meta-schema validation, lint, file errors) shown inline and in a list, undo/redo
// over the whole spec, and the file commands (open, save, save as, recent files).

#include "core/model/spec.h"

#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListView;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStringListModel;
class QTabWidget;
class QTableView;
class QTimer;
class QUndoStack;

namespace Callscope {

class JsonEditor;
class SchemaBuilder;
class McpServerPanel;
class NoticeBar;
class ProfileStore;
class SpecFindingsModel;
struct SpecFinding;

class SpecFormEditor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecFormEditor)

public:
    explicit SpecFormEditor(QWidget *parent = nullptr);
    ~SpecFormEditor() override;

    void setProfileStore(ProfileStore *profiles); // fills the profile picker

    // File commands. Each returns false when nothing happened (cancelled or failed; the
    // message bar says why).
    bool newSpec();                          // asks about unsaved changes first
    bool openFile(const QString &path);      // asks about unsaved changes first
    bool save();                             // save as when there is no file yet
    bool saveAs(const QString &path = {});   // empty: ask for a name
    bool maybeSave();                        // true when it is fine to discard the spec

    const Spec &spec() const { return m_spec; }
    // A spec that came from elsewhere (another view of the same file): with resetHistory the
    // undo history starts over and the spec counts as saved at `path`; otherwise it is one
    // undoable edit.
    void setSpec(const Spec &spec, const QString &path, bool resetHistory);
    // The form as a view of a document that keeps the history (SpecDocument): edits are no
    // longer recorded here but announced by specEdited, and Undo/Redo act on `stack`.
    void setExternalHistory(QUndoStack *stack);
    // Shows a spec that came from the document (its text changed, an undo): no step recorded,
    // the tool shown stays.
    void showSpec(const Spec &spec);
    // Shows or hides the whole-spec JSON tab (hidden when the window has its own text view).
    void setRawTabVisible(bool visible);
    QString filePath() const { return m_path; }
    bool isModified() const;
    QStringList recentFiles() const;

    QUndoStack *undoStack() const { return m_external ? m_external : m_undo; }
    SpecFindingsModel *findings() const { return m_findings; }
    NoticeBar *messageBar() const { return m_messages; }
    QTabWidget *tabs() const { return m_tabs; }
    JsonEditor *responseSchemaEditor() const { return m_schemaEditor; }
    SchemaBuilder *schemaBuilder() const { return m_schemaBuilder; }
    JsonEditor *toolSchemaEditor() const { return m_toolSchema; }
    JsonEditor *rawEditor() const { return m_raw; }
    McpServerPanel *mcpPanel() const { return m_mcpPanel; }
    QTableView *findingsView() const { return m_findingsView; }

    // Actions for menus and toolbars (with shortcuts).
    QAction *newAction() const { return m_newAction; }
    QAction *openAction() const { return m_openAction; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *saveAsAction() const { return m_saveAsAction; }
    QAction *undoAction() const { return m_undoAction; }
    QAction *redoAction() const { return m_redoAction; }
    QMenu *recentMenu() const { return m_recentMenu; }

    // Jumps to the spot a finding names (used by the findings list).
    void revealFinding(int row);
    // Shows the Engine tab with the field `pointer` names ("/engine/model") focused; for a tool's
    // command ("/tools/2/command") or an MCP server ("/mcp_servers/NAME/command"), its tab.
    void revealEngineField(const QString &pointer);
    // The list of findings under the form; a window with its own Findings panel hides it.
    void setFindingsListVisible(bool visible);
    // Runs the pending debounced checks now (tests, and before running a call).
    void flushPendingEdits();

    void saveState() const;
    void restoreState();

Q_SIGNALS:
    void specChanged();
    // The person changed the spec in the form (with setExternalHistory); edits with the same
    // mergeId follow one another in one field.
    void specEdited(int mergeId);
    void filePathChanged(const QString &path);
    void modifiedChanged(bool modified);

private:
    friend class SpecSnapshotCommand;
    enum class Source { None, Form, Schema, ToolForm, ToolSchema, ToolMock, PreSeeds, Mcp, Schedule, Raw };

    QWidget *buildGeneralPage();
    QWidget *buildEnginePage();
    QWidget *buildSchemaPage();
    QWidget *buildToolsPage();
    QWidget *buildExtrasPage();
    void createActions();

    void applyEdit(const Spec &next, int mergeId, Source source);
    void applyBuilderSchema(const QJsonObject &schema);
    void setSpecFromHistory(const Spec &spec); // undo/redo
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
    void applyRawJson();
    void updateFindings();
    void updateMarkers();
    void updateSentSchema();
    void setJsonError(const QString &editor, const QString &pointer, const QString &text, const QString &error, int offset);
    void clearJsonError(const QString &editor);
    void loadSpecInto(const Spec &spec, const QString &path);
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void updateWindowState();

    Spec m_spec;
    QString m_path;
    bool m_updating = false;
    QUndoStack *m_undo = nullptr;
    QUndoStack *m_external = nullptr;
    SpecFindingsModel *m_findings = nullptr;
    QList<SpecFinding> m_jsonErrors;      // syntax errors of the JSON editors
    QList<SpecFinding> m_rawSpecErrors;   // the raw JSON parsed but is not a valid spec
    ProfileStore *m_profiles = nullptr;

    NoticeBar *m_messages = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_findingsView = nullptr;
    QTimer *m_jsonTimer = nullptr;
    QTimer *m_findingsTimer = nullptr;
    QSet<int> m_dirtyJson;                // Source values waiting for the debounce

    // General
    QLineEdit *m_kind = nullptr;
    QPlainTextEdit *m_systemPrompt = nullptr;
    QComboBox *m_outputParser = nullptr;
    QComboBox *m_outputMode = nullptr;
    QLineEdit *m_textOutput = nullptr;
    QSpinBox *m_maxTurns = nullptr;
    // Engine
    QComboBox *m_engineType = nullptr;
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
    // Raw
    JsonEditor *m_raw = nullptr;

    QAction *m_newAction = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QMenu *m_recentMenu = nullptr;
};

} // namespace Callscope
