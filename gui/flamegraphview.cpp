#include "gui/flamegraphview.h"

#include "gui/models/eventmodels.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>

namespace bpflens {

namespace {

constexpr int TextPadding = 3;

quint64 mix(quint64 h, quint64 v)
{
    return (h ^ v) * 0x100000001b3ull + (h >> 29);
}

// FNV-1a: the same hue for a function in every run and on every machine (qHash is seeded).
quint32 stableHash(const QString &s)
{
    quint32 h = 2166136261u;
    for (QChar c : s) {
        h ^= c.unicode();
        h *= 16777619u;
    }
    return h;
}

QColor readableText(const QColor &background)
{
    // Relative luminance, roughly: dark text on the light warm hues, light text on dark ones.
    const double l =
        0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF();
    return l > 0.55 ? QColor(0x1a, 0x1a, 0x1a) : QColor(0xfa, 0xfa, 0xfa);
}

const QColor SearchColor(0xd4, 0x3c, 0xc8); // magenta, as flamegraph.pl marks matches
const QColor MergedColor(0xc8, 0xc8, 0xc8);
const QColor TruncatedColor(0xa0, 0xa0, 0xa8);
const QColor RootColor(0xb8, 0xb0, 0xa8);

} // namespace

const QColor FlameGraphView::SeparatorColor(0x4a, 0x50, 0x58);

FlameGraphView::FlameGraphView(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Flame graph"));
    setAccessibleDescription(tr("Call stacks as boxes as wide as their share of the samples. "
                                "Click a box to zoom into it, Backspace zooms out, Escape "
                                "resets."));
}

QColor FlameGraphView::frameColor(FrameKind kind, const QString &name)
{
    const quint32 h = stableHash(name);
    // Kernel code in blues, user code in the warm red-to-yellow of flamegraph.pl: which side of
    // the system call a box is on reads at a glance, and neighbours differ by name.
    if (kind == FrameKind::Kernel)
        return QColor::fromHsv(int(195 + h % 30), int(110 + (h >> 8) % 70),
                               int(200 + (h >> 16) % 45));
    return QColor::fromHsv(int(h % 50), int(150 + (h >> 8) % 70), int(225 + (h >> 16) % 30));
}

QColor FlameGraphView::wakerColor(FrameKind kind, const QString &name)
{
    const quint32 h = stableHash(name);
    if (kind == FrameKind::Kernel)
        return QColor::fromHsv(int(160 + h % 15), int(90 + (h >> 8) % 60),
                               int(220 + (h >> 16) % 30));
    return QColor::fromHsv(int(150 + h % 18), int(170 + (h >> 8) % 60), int(165 + (h >> 16) % 45));
}

bool FlameGraphView::isWakerHue(const QColor &color)
{
    const int h = color.hsvHue();
    return h >= 145 && h < 180 && color.hsvSaturation() >= 60;
}

void FlameGraphView::setNodeColoring(std::function<QColor(qint32)> color,
                                     std::function<QString(qint32)> toolTip)
{
    m_nodeColor = std::move(color);
    m_nodeToolTip = std::move(toolTip);
    invalidate();
}

void FlameGraphView::setProfile(std::shared_ptr<const Profile> profile, const StackTable *stacks)
{
    // A new aggregation of the same session (live data, another range) keeps the zoom on the
    // same call path if it still exists.
    QList<quint32> zoomPath;
    if (m_profile && m_zoom > 0) {
        for (qint32 n : m_profile->topDown.pathTo(m_zoom))
            zoomPath << m_profile->topDown.node(n).frame;
    }
    m_profile = std::move(profile);
    m_stacks = stacks;
    m_names.clear();
    m_zoom = 0;
    m_maxDepth = 0;
    if (m_profile) {
        const CallTree &t = m_profile->topDown;
        std::vector<int> depth(size_t(t.size()), 0);
        for (qint32 n = 1; n < t.size(); ++n) {
            // Children always come after their parent.
            depth[size_t(n)] = depth[size_t(t.node(n).parent)] + 1;
            m_maxDepth = std::max(m_maxDepth, depth[size_t(n)]);
        }
        qint32 at = 0;
        for (quint32 frame : std::as_const(zoomPath)) {
            qint32 next = -1;
            for (qint32 c : t.node(at).children) {
                if (t.node(c).frame == frame) {
                    next = c;
                    break;
                }
            }
            if (next < 0)
                break;
            at = next;
        }
        if (at > 0 && zoomPath.size() == t.pathTo(at).size())
            m_zoom = at;
    }
    updateMatches();
    invalidate();
    updateGeometry();
    Q_EMIT zoomChanged(m_zoom);
}

void FlameGraphView::setIcicle(bool icicle)
{
    if (m_icicle == icicle)
        return;
    m_icicle = icicle;
    invalidate();
}

void FlameGraphView::setSearch(const QString &text)
{
    if (m_search == text)
        return;
    m_search = text;
    updateMatches();
    invalidate();
}

void FlameGraphView::setSelectedFrame(quint32 frame)
{
    if (m_selectedFrame == frame)
        return;
    m_selectedFrame = frame;
    invalidate();
}

void FlameGraphView::zoomTo(qint32 node)
{
    if (!m_profile || node < 0 || node >= m_profile->topDown.size())
        node = 0;
    if (m_zoom == node)
        return;
    m_zoom = node;
    invalidate();
    Q_EMIT zoomChanged(m_zoom);
}

const QString &FlameGraphView::nameOf(quint32 frame) const
{
    auto it = m_names.find(frame);
    if (it == m_names.end())
        it = m_names.insert(frame, ProfileText::frameName(*m_stacks, frame));
    return *it;
}

QString FlameGraphView::frameName(qint32 node) const
{
    if (!m_profile || node < 0 || node >= m_profile->topDown.size())
        return {};
    if (node == 0)
        return m_profile->isTime()     ? tr("all off-CPU time")
               : m_profile->isFaults() ? tr("all page faults")
               : m_profile->isBytes()  ? tr("all memory in use")
                                       : tr("all samples");
    return nameOf(m_profile->topDown.node(node).frame);
}

bool FlameGraphView::matches(quint32 frame) const
{
    if (frame == CallTree::TruncatedFrame)
        return m_truncatedMatches;
    return frame < m_matches.size() && m_matches[frame] > 0;
}

void FlameGraphView::updateMatches()
{
    m_matches.clear();
    m_truncatedMatches = false;
    m_matchTotal = 0;
    m_heaviestMatch = 0;
    if (!m_profile || m_search.isEmpty())
        return;
    const CallTree &t = m_profile->topDown;
    // Per frame, not per node: a function is on many paths.
    m_matches.assign(size_t(m_stacks->frameCount()) + 1, -1);
    m_truncatedMatches = nameOf(CallTree::TruncatedFrame).contains(m_search, Qt::CaseInsensitive);
    for (qint32 n = 1; n < t.size(); ++n) {
        const quint32 f = t.node(n).frame;
        if (f < m_matches.size() && m_matches[f] < 0) {
            const QString name = m_stacks->frameName(f);
            m_matches[f] = name.contains(m_search, Qt::CaseInsensitive) ? 1 : 0;
        }
    }
    // Each sample once: a matching node's total covers its matching descendants.
    std::vector<qint32> todo(t.root().children.cbegin(), t.root().children.cend());
    while (!todo.empty()) {
        const qint32 n = todo.back();
        todo.pop_back();
        if (matches(t.node(n).frame)) {
            m_matchTotal += t.node(n).total;
            if (!m_heaviestMatch || t.node(n).total > t.node(m_heaviestMatch).total)
                m_heaviestMatch = n;
            continue;
        }
        todo.insert(todo.end(), t.node(n).children.cbegin(), t.node(n).children.cend());
    }
}

QString FlameGraphView::searchSummary() const
{
    if (m_search.isEmpty() || !m_profile)
        return {};
    const QString share = ProfileText::percent(m_matchTotal, m_profile->total);
    if (m_profile->isTime())
        return tr("%1: %2 of off-CPU time (%3)")
            .arg(m_search, share, ProfileText::cost(m_matchTotal, true));
    if (m_profile->isFaults())
        return tr("%1: %2 of page faults").arg(m_search, share);
    if (m_profile->isBytes())
        return tr("%1: %2 of memory in use (%3)")
            .arg(m_search, share, ProfileText::cost(m_matchTotal, *m_profile));
    return tr("%1: %2 of samples").arg(m_search, share);
}

int FlameGraphView::rowHeight() const
{
    return fontMetrics().height() + 4;
}

QSize FlameGraphView::sizeHint() const
{
    return {800, std::max(200, (m_maxDepth + 1) * rowHeight() + 2)};
}

QSize FlameGraphView::minimumSizeHint() const
{
    return {200, (m_maxDepth + 1) * rowHeight() + 2};
}

quint64 FlameGraphView::cacheKey() const
{
    quint64 h = 0xcbf29ce484222325ull;
    h = mix(h, m_generation);
    h = mix(h, quint64(width()) << 32 | quint64(height()));
    h = mix(h, quint64(devicePixelRatioF() * 100));
    return h;
}

void FlameGraphView::invalidate()
{
    ++m_generation;
    m_hover = -1;
    update();
}

const std::vector<FlameGraphView::Box> &FlameGraphView::boxes()
{
    layout();
    return m_boxes;
}

void FlameGraphView::layout()
{
    const quint64 key = cacheKey();
    if (m_layoutKey == key)
        return;
    m_layoutKey = key;
    m_boxes.clear();
    if (!m_profile || m_profile->total == 0)
        return;
    const CallTree &t = m_profile->topDown;
    const int rowH = rowHeight();
    const double w = width();
    auto rowTop = [&](int depth) {
        return m_icicle ? double(depth * rowH) : double(height() - (depth + 1) * rowH);
    };
    // The zoomed node's callers, full width, then the node itself.
    const QList<qint32> path = t.pathTo(m_zoom);
    m_boxes.push_back({QRectF(0, rowTop(0), w, rowH - 1), 0, BoxKind::Root, t.root().total, 1});
    for (qsizetype i = 0; i + 1 < path.size(); ++i)
        m_boxes.push_back({QRectF(0, rowTop(int(i) + 1), w, rowH - 1), path[i], BoxKind::Ancestor,
                           t.node(path[i]).total, 1});
    const double scale = w / double(std::max<quint64>(t.node(m_zoom).total, 1));
    struct Item
    {
        qint32 node;
        double x;
        int depth;
    };
    std::vector<Item> todo;
    const int zoomDepth = int(path.size());
    if (m_zoom > 0)
        todo.push_back({m_zoom, 0.0, zoomDepth});
    else {
        // The root's box is drawn above; its children start the walk.
        todo.push_back({0, 0.0, 0});
    }
    while (!todo.empty()) {
        const Item it = todo.back();
        todo.pop_back();
        const CallTree::Node &n = t.node(it.node);
        if (it.node != 0)
            m_boxes.push_back({QRectF(it.x, rowTop(it.depth), n.total * scale, rowH - 1), it.node,
                               BoxKind::Frame, n.total, 1});
        double x = it.x;
        const CallTree::Children &children = n.children;
        for (qsizetype c = 0; c < children.size(); ++c) {
            const CallTree::Node &child = t.node(children[c]);
            const double cw = double(child.total) * scale;
            if (cw < MinBoxWidth) {
                // Children are sorted by total: every one from here on is as narrow.
                quint64 rest = 0;
                for (qsizetype k = c; k < children.size(); ++k)
                    rest += t.node(children[k]).total;
                const double rw = double(rest) * scale;
                if (rw >= 1.0)
                    m_boxes.push_back({QRectF(x, rowTop(it.depth + 1), rw, rowH - 1), it.node,
                                       BoxKind::Merged, rest, int(children.size() - c)});
                break;
            }
            todo.push_back({children[c], x, it.depth + 1});
            x += cw;
        }
    }
}

QColor FlameGraphView::boxColor(const Box &box) const
{
    switch (box.kind) {
    case BoxKind::Root:
        return RootColor;
    case BoxKind::Merged:
        return MergedColor;
    default:
        break;
    }
    const quint32 frame = m_profile->topDown.node(box.node).frame;
    if (!m_search.isEmpty() && matches(frame))
        return SearchColor;
    QColor c;
    const OffWakeStacks *ow = m_profile->offWake.get();
    if (m_nodeColor)
        c = m_nodeColor(box.node);
    else if (ow && frame == ow->separator)
        c = SeparatorColor;
    else if (ow && m_profile->isWakerNode(box.node))
        c = wakerColor(m_stacks->hasFrame(frame) && ow->role(frame) == OffWakeStacks::Role::Code
                           ? m_stacks->frame(frame).kind
                           : FrameKind::User,
                       nameOf(frame));
    else if (frame == CallTree::TruncatedFrame)
        c = TruncatedColor;
    else if (!m_stacks->hasFrame(frame))
        c = MergedColor;
    else
        c = frameColor(m_stacks->frame(frame).kind, nameOf(frame));
    // Callers of the zoomed node are context, not content.
    if (box.kind == BoxKind::Ancestor)
        c = c.lighter(115);
    return c;
}

QImage FlameGraphView::render()
{
    const quint64 key = cacheKey();
    if (m_imageKey == key && !m_image.isNull())
        return m_image;
    layout();
    ++m_renders;
    const qreal dpr = devicePixelRatioF();
    QImage image(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(palette().color(QPalette::Base));
    QPainter p(&image);
    const QFontMetrics fm = fontMetrics();
    const double minTextWidth = fm.horizontalAdvance(QStringLiteral("W…")) + 2 * TextPadding;
    const QColor selectedPen = palette().color(QPalette::Highlight);
    for (const Box &b : m_boxes) {
        const QColor fill = boxColor(b);
        p.fillRect(b.rect, fill);
        const quint32 frame = b.kind == BoxKind::Frame || b.kind == BoxKind::Ancestor
                                  ? m_profile->topDown.node(b.node).frame
                                  : 0;
        if (frame == CallTree::TruncatedFrame && (m_search.isEmpty() || !matches(frame)))
            p.fillRect(b.rect, QBrush(fill.darker(130), Qt::BDiagPattern));
        if (b.rect.width() >= minTextWidth) {
            QString text;
            if (b.kind == BoxKind::Merged)
                text = tr("%1 small functions").arg(b.count);
            else
                text = frameName(b.kind == BoxKind::Root ? 0 : b.node);
            p.setPen(readableText(fill));
            const QRectF textRect = b.rect.adjusted(TextPadding, 0, -TextPadding, 0);
            if (m_profile->isBytes()) {
                // Bytes are what a reader of a memory profile compares: the box says its own
                // where the name leaves room for them.
                const quint64 bytes = b.kind == BoxKind::Merged ? b.total
                                      : b.kind == BoxKind::Root
                                          ? m_profile->total
                                          : m_profile->topDown.node(b.node).total;
                const QString withBytes =
                    tr("%1 · %2").arg(text, ProfileText::cost(bytes, *m_profile));
                if (fm.horizontalAdvance(withBytes) <= textRect.width())
                    text = withBytes;
            }
            p.drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter,
                       fm.elidedText(text, Qt::ElideRight, int(textRect.width())));
        }
        if (m_selectedFrame && frame == m_selectedFrame) {
            p.setPen(QPen(selectedPen, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(b.rect.adjusted(1, 1, -1, -1));
        }
    }
    if (!m_profile || m_profile->total == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No samples"));
    }
    p.end();
    m_image = image;
    m_imageKey = key;
    return m_image;
}

void FlameGraphView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.drawImage(0, 0, render());
    if (m_hover >= 0 && size_t(m_hover) < m_boxes.size()) {
        p.setPen(QPen(palette().color(QPalette::Text), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(m_boxes[size_t(m_hover)].rect.adjusted(0, 0, -1, 0));
    }
    if (hasFocus()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DotLine));
        p.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

const FlameGraphView::Box *FlameGraphView::boxAt(const QPointF &pos)
{
    layout();
    for (const Box &b : m_boxes) {
        if (b.rect.contains(pos))
            return &b;
    }
    return nullptr;
}

QRectF FlameGraphView::nodeRect(qint32 node)
{
    layout();
    for (const Box &b : m_boxes) {
        if (b.node == node && b.kind != BoxKind::Merged)
            return b.rect;
    }
    return {};
}

QString FlameGraphView::toolTipFor(const Box &box) const
{
    if (!m_profile)
        return {};
    const bool time = m_profile->isTime();
    const quint64 all = m_profile->total;
    auto costLine = [&](const QString &what, quint64 v) {
        const int n = int(std::min<quint64>(v, INT_MAX));
        const QString amount = time || m_profile->isBytes() ? ProfileText::cost(v, *m_profile)
                               : m_profile->isFaults()      ? tr("%n page fault(s)", nullptr, n)
                                                            : tr("%n sample(s)", nullptr, n);
        return tr("%1: %2 (%3)").arg(what, amount, ProfileText::percent(v, all));
    };
    QStringList lines;
    if (box.kind == BoxKind::Merged) {
        lines << tr("%1 small functions, each narrower than %2 pixels, merged")
                     .arg(box.count)
                     .arg(MinBoxWidth);
        lines << costLine(tr("Total"), box.total);
        lines << tr("Click the caller to zoom in");
        return lines.join(QLatin1Char('\n'));
    }
    const CallTree::Node &n = m_profile->topDown.node(box.node);
    lines << frameName(box.kind == BoxKind::Root ? 0 : box.node);
    const OffWakeStacks *ow = m_profile->offWake.get();
    const auto role =
        ow && box.kind != BoxKind::Root ? ow->role(n.frame) : OffWakeStacks::Role::Code;
    const bool waker = m_profile->isWakerNode(box.node);
    if (ow && box.kind != BoxKind::Root) {
        if (role == OffWakeStacks::Role::Separator)
            lines << tr("Below: the blocked threads' stacks. Above: the stacks of the threads "
                        "that woke them, the frame that woke them first.");
        else if (role == OffWakeStacks::Role::UnknownWaker)
            lines << tr("Waits whose wakeup was not seen (a preempted thread, or a wakeup lost "
                        "to a full map)");
        else if (role == OffWakeStacks::Role::Comm)
            lines << (waker ? tr("The waker's command") : tr("The blocked thread's command"));
        else if (waker)
            lines << tr("Waker's frame: the thread that woke the blocked one was here");
        else
            lines << tr("Blocked thread's frame");
        if (waker || role == OffWakeStacks::Role::Separator)
            lines << tr("Ended %1 of off-CPU time (%2)")
                         .arg(ProfileText::cost(n.total, true), ProfileText::percent(n.total, all));
    }
    if (n.frame == CallTree::TruncatedFrame) {
        lines << tr("Truncated stacks: the unwinder did not reach the thread's first frame, so "
                    "the callers of these samples are unknown.");
    } else if (box.kind != BoxKind::Root && m_stacks->hasFrame(n.frame) &&
               role == OffWakeStacks::Role::Code) {
        const StackFrame &f = m_stacks->frame(n.frame);
        const QString module = ProfileText::modulePath(*m_stacks, n.frame);
        lines << (f.kind == FrameKind::Kernel ? tr("Kernel: %1") : tr("User: %1"))
                     .arg(module.isEmpty() ? tr("unknown module") : module);
    }
    // Page faults and bytes say their unit in the amount ("30 page faults"), as time does.
    const bool unitInAmount = time || m_profile->isFaults() || m_profile->isBytes();
    if (box.kind != BoxKind::Root)
        lines << costLine(unitInAmount ? tr("Self") : tr("Self samples"), n.self);
    lines << costLine(unitInAmount ? tr("Total") : tr("Total samples"), n.total);
    if (const qint64 age = m_profile->isBytes() ? m_profile->oldestAgeNs(box.node) : -1; age >= 0)
        lines << tr("Oldest block: allocated %1 before the range's end")
                     .arg(EventTableModel::formatDuration(quint64(age)));
    if (m_profile->isBytes() && m_profile->sampleEvery > 1)
        lines << tr("Sampled: each recorded allocation stands for %Ln allocation(s)", nullptr,
                    int(std::min<quint64>(m_profile->sampleEvery, INT_MAX)));
    if (m_nodeToolTip)
        lines << m_nodeToolTip(box.node);
    return lines.join(QLatin1Char('\n'));
}

bool FlameGraphView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const Box *b = boxAt(help->pos());
        if (b)
            QToolTip::showText(help->globalPos(), toolTipFor(*b), this, b->rect.toRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void FlameGraphView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const Box *b = boxAt(event->position());
    if (!b)
        return;
    switch (b->kind) {
    case BoxKind::Root:
        resetZoom();
        break;
    case BoxKind::Merged:
        zoomTo(b->node);
        break;
    case BoxKind::Frame:
    case BoxKind::Ancestor: {
        const qint32 node = b->node;
        const quint32 frame = m_profile->topDown.node(node).frame;
        zoomTo(node);
        if (frame != CallTree::TruncatedFrame)
            Q_EMIT frameClicked(frame);
        break;
    }
    }
    event->accept();
}

void FlameGraphView::mouseMoveEvent(QMouseEvent *event)
{
    const Box *b = boxAt(event->position());
    const int hover = b ? int(b - m_boxes.data()) : -1;
    if (hover != m_hover) {
        m_hover = hover;
        setCursor(b ? Qt::PointingHandCursor : Qt::ArrowCursor);
        update();
    }
}

void FlameGraphView::leaveEvent(QEvent *event)
{
    m_hover = -1;
    update();
    QWidget::leaveEvent(event);
}

void FlameGraphView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Escape:
    case Qt::Key_Home:
        resetZoom();
        break;
    case Qt::Key_Backspace:
        if (m_profile && m_zoom > 0)
            zoomTo(m_profile->topDown.node(m_zoom).parent);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void FlameGraphView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        m_names.clear();
        invalidate();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

} // namespace bpflens
