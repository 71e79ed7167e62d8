#pragma once

#include "gui/models/profilemodels.h"

#include <QHash>
#include <QImage>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

namespace bpflens {

// A flame graph of a Profile's top-down tree (Brendan Gregg's, as in KDAB hotspot): one box per
// call path, as wide as its share of the samples, the root ("all") at the bottom, or at the top
// in the icicle orientation. An off-wake profile (ProfileKind::OffWake) stacks each waker's
// frames on a "woken by" box above the blocked thread's, drawn in the waker colours. Frames are
// coloured by where their code lives (user code in warm hues, the kernel in blue, one stable hue
// per function name), boxes narrower than MinBoxWidth are merged into one grey box per parent, and
// stacks the unwinder could not finish stand on a hatched "[truncated]" box. Clicking a box zooms
// into it (it becomes the full width, its callers stay below as a breadcrumb; clicking "all" or
// resetZoom() returns); the search colours matching frames and sums their share. The picture is
// cached per size, zoom, search and selection, so hovering and scrolling repaint from the cache.
class FlameGraphView : public QWidget
{
    Q_OBJECT
public:
    static constexpr double MinBoxWidth = 2.0;

    enum class BoxKind : quint8
    {
        Frame,    // a node of the tree
        Ancestor, // a caller of the zoomed node, drawn full width
        Root,     // "all"
        Merged,   // children narrower than MinBoxWidth, summed
    };
    struct Box
    {
        QRectF rect; // widget coordinates
        qint32 node = 0;
        BoxKind kind = BoxKind::Frame;
        quint64 total = 0; // Merged: the sum of the merged children
        int count = 1;     // Merged: how many
    };

    explicit FlameGraphView(QWidget *parent = nullptr);

    void setProfile(std::shared_ptr<const Profile> profile, const StackTable *stacks);
    std::shared_ptr<const Profile> profile() const { return m_profile; }

    // Root at the top (icicle) instead of the bottom (flame).
    void setIcicle(bool icicle);
    bool isIcicle() const { return m_icicle; }

    // Case-insensitive substring of the function name; empty: no search.
    void setSearch(const QString &text);
    QString search() const { return m_search; }
    // The cost of the samples with a matching function on their stack (each sample once).
    quint64 searchMatchTotal() const { return m_matchTotal; }
    // "malloc: 12.3% of samples"; empty without a search.
    QString searchSummary() const;
    // The matching node with the largest cost (the first in tree order of equals), where the
    // search leads the eye; 0 without a match.
    qint32 heaviestMatch() const { return m_heaviestMatch; }

    void zoomTo(qint32 node); // 0 resets
    void resetZoom() { zoomTo(0); }
    qint32 zoomNode() const { return m_zoom; }

    // A function picked in another view: its boxes are outlined.
    void setSelectedFrame(quint32 frame);
    quint32 selectedFrame() const { return m_selectedFrame; }

    // A differential flame graph (ComparePage) colours each node of the tree itself and adds
    // lines to its tool tip (the shares in both sessions); unset, frames are coloured by kind.
    void setNodeColoring(std::function<QColor(qint32 node)> color,
                         std::function<QString(qint32 node)> toolTip = {});
    // The fill of a box as painted.
    QColor colorOf(const Box &box) const { return boxColor(box); }

    // Geometry and text, public so tests can aim at things.
    int rowHeight() const;
    int depth() const { return m_maxDepth; }
    const std::vector<Box> &boxes();
    const Box *boxAt(const QPointF &pos);
    QRectF nodeRect(qint32 node); // empty when the node is not drawn
    QString toolTipFor(const Box &box) const;
    QString frameName(qint32 node) const;
    // How often the picture was painted anew (not from the cache).
    int renderCount() const { return m_renders; }
    // Renders the picture now (as paintEvent would) and returns it.
    QImage render();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // A box's colour: by kind of code, a stable hue per function name.
    static QColor frameColor(FrameKind kind, const QString &name);
    // An off-wake profile's waker frames (above the separator): aquamarine and teal (hue
    // 150-175), flamegraph.pl's wakeup family turned a little green to keep clear of the
    // kernel's blues (hue 195-225), so the end of the blocked stack shows at a glance. User
    // code deeper and darker, kernel code paler.
    static QColor wakerColor(FrameKind kind, const QString &name);
    static bool isWakerHue(const QColor &color); // what tests and the legend check against
    // The "woken by" separator between the blocked and the waker's stack.
    static const QColor SeparatorColor;

Q_SIGNALS:
    void frameClicked(quint32 frame); // a function was clicked (not "all" or merged boxes)
    void zoomChanged(qint32 node);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    quint64 cacheKey() const;
    void layout();
    void updateMatches();
    bool matches(quint32 frame) const;
    const QString &nameOf(quint32 frame) const;
    QColor boxColor(const Box &box) const;
    void invalidate();

    std::shared_ptr<const Profile> m_profile;
    const StackTable *m_stacks = nullptr;
    bool m_icicle = false;
    QString m_search;
    quint64 m_matchTotal = 0;
    qint32 m_heaviestMatch = 0;
    mutable QHash<quint32, QString> m_names;
    std::vector<qint8> m_matches; // per frame id: 1 matches the search, 0 not, -1 not asked
    bool m_truncatedMatches = false;
    qint32 m_zoom = 0;
    quint32 m_selectedFrame = 0;
    int m_maxDepth = 0; // levels below the root
    std::vector<Box> m_boxes;
    quint64 m_layoutKey = 0;
    QImage m_image;
    quint64 m_imageKey = 0;
    quint64 m_generation = 1; // bumped on every change the picture depends on
    int m_renders = 0;
    int m_hover = -1; // index into m_boxes
    std::function<QColor(qint32)> m_nodeColor;
    std::function<QString(qint32)> m_nodeToolTip;
};

} // namespace bpflens
