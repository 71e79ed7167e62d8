#pragma once

#include <QWidget>

class QAction;
class QPushButton;

namespace bpflens {

class ProbePanel;

// The recording page (hotspot's Record page): the probes with their options and the Record
// button. It is a page of its own, not a dock beside the views: while a session is explored it
// takes no width from the charts, and here it has the window's width for its descriptions.
class RecordPage : public QWidget
{
    Q_OBJECT
public:
    // record: the window's Record action (the button follows its enabled state and tool tip).
    RecordPage(ProbePanel *probes, QAction *record, QWidget *parent = nullptr);

    ProbePanel *probePanel() const { return m_probes; }
    QPushButton *recordButton() const { return m_record; }
    QPushButton *backButton() const { return m_back; }
    // Whether there is a session to go back to (the Back button is shown then).
    void setCanGoBack(bool canGoBack);

Q_SIGNALS:
    void backRequested();

private:
    ProbePanel *m_probes;
    QPushButton *m_record;
    QPushButton *m_back;
};

} // namespace bpflens
