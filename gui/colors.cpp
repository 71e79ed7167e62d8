#include "gui/colors.h"

#include "core/eventschema.h"

#include <QPainter>
#include <QPixmap>

namespace bpflens::colors {

QColor eventType(EventType type, const QPalette &palette)
{
    quint32 rgb = 0;
    visitEventType(type, [&]<typename E>() { rgb = EventTraits<E>::lane.rgb; });
    return rgb ? QColor::fromRgb(QRgb(rgb)) : palette.color(QPalette::Highlight);
}

QColor probe(const QString &probeId, const QPalette &palette)
{
    QColor color;
    for (int n = 1; n < 256 && !color.isValid(); ++n) {
        if (isEventType(n) && probeId == QLatin1String(probeIdOf(EventType(n))))
            color = eventType(EventType(n), palette);
    }
    return color;
}

QColor operation(Operation op)
{
    switch (op) {
    case Operation::Read:
        return QColor(0x2b7bd6);
    case Operation::Write:
        return QColor(0xe06c1f);
    case Operation::Other:
        break;
    }
    return QColor(0x8a8f98);
}

QColor series(int n)
{
    static const QRgb tableau10[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                     0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0x2f4b7c};
    return QColor(tableau10[size_t(n) % std::size(tableau10)]);
}

QColor rest()
{
    return QColor(0x9a9a9a);
}

QIcon swatch(const QColor &color)
{
    QIcon icon;
    for (int size : {12, 16, 24}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(color.darker(125), 1));
        p.setBrush(color);
        const qreal margin = size / 6.0;
        p.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
        p.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace bpflens::colors
