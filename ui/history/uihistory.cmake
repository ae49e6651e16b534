# Studio part 2 (issue 10): history, revision trees, diff, context budget view, sessions,
# engines page, export/import. Included from ui/CMakeLists.txt (paths relative to ui/). Its own
# static library so its tests build without the rest of the UI; callscope_ui carries it.
add_library(callscope_ui_history STATIC
    history/callview.cpp history/callview.h
    history/calltab.cpp history/calltab.h
    history/currentcall.cpp history/currentcall.h
    history/enginechoicedialog.cpp history/enginechoicedialog.h
    history/historybrowser.cpp history/historybrowser.h
    history/historymodel.cpp history/historymodel.h
    history/revisiontreemodel.cpp history/revisiontreemodel.h
    history/revisiontreewidget.cpp history/revisiontreewidget.h
    diff/calldiff.cpp diff/calldiff.h
    diff/diffmodel.cpp diff/diffmodel.h
    diff/diffview.cpp diff/diffview.h
    budget/budgetbardelegate.cpp budget/budgetbardelegate.h
    budget/budgetmodel.cpp budget/budgetmodel.h
    budget/budgetview.cpp budget/budgetview.h
    sessions/sessionlistmodel.cpp sessions/sessionlistmodel.h
    sessions/sessionview.cpp sessions/sessionview.h
    settings/enginespage.cpp settings/enginespage.h
    settings/limitspage.cpp settings/limitspage.h
    settings/profilelistmodel.cpp settings/profilelistmodel.h
    transfer/transfercontroller.cpp transfer/transfercontroller.h)
target_link_libraries(callscope_ui_history PUBLIC callscope_flags callscope_core callscope_eval callscope_ui_studio Qt6::Widgets Qt6::Concurrent Qt6::Sql)
target_include_directories(callscope_ui_history PUBLIC ${PROJECT_SOURCE_DIR})
target_precompile_headers(callscope_ui_history PRIVATE ${CALLSCOPE_PCH_HEADERS} <QtWidgets/QWidget>)
target_link_libraries(callscope_ui PUBLIC callscope_ui_history)

# The docks, menus and wiring that place these views in the main window. They know the
# MainWindow, so they are built into callscope_ui rather than this library.
target_sources(callscope_ui PRIVATE history/historydocks.cpp history/historydocks.h)
