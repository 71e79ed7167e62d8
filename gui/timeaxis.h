#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QWidget;

namespace bpflens {

class ViewState;

// One time axis for every view that draws time on x (the timeline, the heatmap, the counters):
// the same mapping of ViewState's visible range onto pixels and the same 1-2-5 ticks, labelled
// in seconds since the session start.
class TimeAxis
{
public:
    struct Tick
    {
        double x;      // in the coordinates left was given in
        double relNs;  // since the origin
        QString label; // "1.5 s"
    };

    // [startNs, endNs) drawn over [left, left + width); labels count from originNs (the session
    // start).
    TimeAxis(quint64 startNs, quint64 endNs, quint64 originNs, double left, double width);

    double xForTime(quint64 timeNs) const;
    // Clamped to the range.
    quint64 timeAt(double x) const;
    double left() const { return m_left; }
    double width() const { return m_width; }

    // Ticks at whole multiples of a 1, 2 or 5 × 10^k ns step giving about one label per
    // pixelsPerLabel pixels, with as many decimals as the step needs.
    QList<Tick> ticks(double pixelsPerLabel = 100) const;
    double tickStepNs(double pixelsPerLabel = 100) const;

private:
    quint64 m_start;
    quint64 m_end;
    quint64 m_origin;
    double m_left;
    double m_width;
};

// Lines up the plots of the views that show the visible range, so that one time has one screen
// x in all of them and a spike in the timeline is straight above its heatmap column and its
// counter peak. Each view says how much room it needs left and right of its plot (its labels,
// its axis); the group gives every visible view the same plot span in screen coordinates: the
// narrowest one that leaves every view its room. One group per ViewState (of()), so views need
// no wiring to find each other.
class TimeAxisGroup : public QObject
{
    Q_OBJECT
public:
    static TimeAxisGroup *of(ViewState *state);

    // Adds a view (until it is destroyed) that needs `left` and `right` pixels of its own width
    // beside the plot. Changing them later: setNeeds().
    void add(QWidget *view, int left, int right);
    void setNeeds(QWidget *view, int left, int right);
    // The plot's [left, right) in view's coordinates: the common span of the visible members
    // (view counted as visible), or the view's own when it is alone.
    QPair<int, int> span(const QWidget *view) const;

Q_SIGNALS:
    // A member's needs changed or it was shown or hidden: the others' spans may have moved.
    void changed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit TimeAxisGroup(ViewState *state);
    struct Member
    {
        QPointer<QWidget> view;
        int left = 0;
        int right = 0;
    };
    QList<Member> m_members;
};

} // namespace bpflens
