#pragma once

#include "gui/models/viewstate.h"

#include <QWidget>

class QLabel;
class QSplitter;
class QToolButton;
class QTreeView;
class QTreeWidget;

namespace bpflens {

class OverviewPage;
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
    // An off-wake wait's waker: the line naming it and its frames, leaf first; hidden for
    // other events.
    QWidget *wakerPanel() const { return m_waker; }
    QLabel *wakerLabel() const { return m_wakerLabel; }
    StackFramesModel *wakerFrames() const { return m_wakerFrames; }

public Q_SLOTS:
    void refresh();

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fitFrameColumns();

    SessionModel *m_session;
    ViewState *m_state;
    QTreeWidget *m_tree;
    QSplitter *m_split;
    StackFramesModel *m_frames;
    QTreeView *m_framesView;
    QWidget *m_waker;
    QLabel *m_wakerLabel;
    StackFramesModel *m_wakerFrames;
    QTreeView *m_wakerFramesView;
};

// The Overview tab: the answer first (OverviewPage: what is worth a look, the top processes
// by each cost, what each probe recorded), the session's facts in one line above it, and in a
// collapsible section below the facts in full: host, kernel, times, and per probe its options,
// attach path and the events it saw and lost (lost is always shown, also when 0).
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
    SummaryPanel(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    OverviewPage *overview() const { return m_overview; }
    QTreeWidget *probes() const { return m_probes; }
    // What each cause of a missing event means, for tooltips here and in the status bar.
    static QString lostExplanation();
    static QString unseenExplanation();
    static QString unfinishedExplanation();
    QTreeWidget *facts() const { return m_facts; }
    // "demo.bpflens · host · kernel 6.18.0 · 10.0 s": the facts in one line above the overview.
    QLabel *factsLine() const { return m_factsLine; }
    // Shows or hides the facts in full.
    QToolButton *detailsButton() const { return m_detailsButton; }
    // While a recording runs, its duration is "so far", not "not stopped cleanly".
    void setRecording(bool recording);

public Q_SLOTS:
    void refresh();

private:
    SessionModel *m_session;
    bool m_recording = false;
    OverviewPage *m_overview;
    QLabel *m_factsLine;
    QToolButton *m_detailsButton;
    QWidget *m_details;
    QTreeWidget *m_facts;
    QTreeWidget *m_probes;
};

} // namespace bpflens
