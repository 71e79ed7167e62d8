#pragma once

#include "viewstate.h"

#include <QWidget>

class QSplitter;
class QTreeView;
class QTreeWidget;

namespace bpflens {

class SessionModel;
class StackFramesModel;

// Every field of the selected event (ViewState::selectedEvent()) and, for an event with a stack
// (a CPU sample, an off-CPU wait), its frames below them.
class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    DetailsPane(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    QTreeWidget *tree() const { return m_tree; }
    // The shown value of a field ("Path"), or a null string.
    QString value(const QString &field) const;
    // The selected event's frames, leaf first; hidden for an event without a stack.
    QTreeView *framesView() const { return m_framesView; }
    StackFramesModel *frames() const { return m_frames; }

public Q_SLOTS:
    void refresh();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitFrameColumns();

    SessionModel *m_session;
    ViewState *m_state;
    QTreeWidget *m_tree;
    QSplitter *m_split;
    StackFramesModel *m_frames;
    QTreeView *m_framesView;
};

// Session facts: host, kernel, times, and per probe its options, attach path and the events
// it saw and lost (lost is always shown, also when 0).
class SummaryPanel : public QWidget
{
    Q_OBJECT
public:
    // The probes tree's columns.
    enum ProbeColumn
    {
        ProbeIdColumn,
        SeenColumn,
        LostColumn,
        UnseenColumn,
        UnfinishedColumn,
        OptionsColumn, // short: before the attach path, which is long
        AttachColumn,
        ProbeColumnCount
    };
    explicit SummaryPanel(SessionModel *session, QWidget *parent = nullptr);
    QTreeWidget *probes() const { return m_probes; }
    // What each cause of a missing event means, for tooltips here and in the status bar.
    static QString lostExplanation();
    static QString unseenExplanation();
    static QString unfinishedExplanation();
    QTreeWidget *facts() const { return m_facts; }
    // While a recording runs, its duration is "so far", not "not stopped cleanly".
    void setRecording(bool recording);

public Q_SLOTS:
    void refresh();

private:
    SessionModel *m_session;
    bool m_recording = false;
    QTreeWidget *m_facts;
    QTreeWidget *m_probes;
};

} // namespace bpflens
