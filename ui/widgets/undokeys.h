#pragma once

// Text fields keep Ctrl+Z and Ctrl+Shift+Z for their own little history; where a document's
// history owns undo (the spec editor, the JSON view of a spec), this filter lets the keys reach
// the window's or the editor's Undo and Redo instead. Install it on each such field.

#include <QEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QObject>

namespace Callscope {

class UndoKeysToWindow final : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::ShortcutOverride) {
            auto *key = static_cast<QKeyEvent *>(event);
            if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) {
                event->ignore();
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }
};

} // namespace Callscope
