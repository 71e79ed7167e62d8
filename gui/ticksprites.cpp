#include "gui/ticksprites.h"

#include <QPaintDevice>
#include <QPainter>

#include <cmath>
#include <cstring>

namespace bpflens {

void TickSprites::drawDirect(QPainter &p, const QColor &color, double headY, double bottomY,
                             const std::vector<double> &xs)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    for (const double x : xs) {
        p.fillRect(QRectF(x - StemWidth / 2, headY, StemWidth, bottomY - headY), color);
        p.drawEllipse(QPointF(x, headY), HeadRadius, HeadRadius);
    }
    p.restore();
}

const TickSprites::Sprite &TickSprites::sprite(const QColor &color, double scale, double dpr,
                                               double headFracY, double stemDevice)
{
    struct Key
    {
        quint64 rgb; // as wide as the doubles: no padding bytes in the key
        double scale, dpr, headFracY, stemDevice;
    } key{color.rgba(), scale, dpr, headFracY, stemDevice};
    QByteArray bytes(sizeof key, Qt::Uninitialized);
    std::memcpy(bytes.data(), &key, sizeof key);
    if (auto it = m_sprites.constFind(bytes); it != m_sprites.constEnd())
        return *it;
    // Resizing the window makes new stem lengths; the old ones are not coming back soon.
    if (m_sprites.size() >= 64)
        m_sprites.clear();

    Sprite s;
    const double r = HeadRadius * scale;
    s.originX = int(std::ceil(r)) + 1;
    s.originY = s.originX;
    const int width = 2 * s.originX + 2;
    const int height = s.originY + int(std::ceil(headFracY + std::max(stemDevice, r))) + 2;
    for (int phase = 0; phase < Phases; ++phase) {
        QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter sp(&image);
        sp.setRenderHint(QPainter::Antialiasing);
        const double cx = s.originX + double(phase) / Phases;
        const double cy = s.originY + headFracY;
        // Stem first, then the head over it, as drawDirect() does: composing them on a
        // transparent sprite and blending that gives the same pixels.
        sp.fillRect(QRectF(cx - StemWidth * scale / 2, cy, StemWidth * scale, stemDevice), color);
        sp.setBrush(color);
        sp.setPen(Qt::NoPen);
        sp.drawEllipse(QPointF(cx, cy), r, r);
        sp.end();
        image.setDevicePixelRatio(dpr);
        s.phases[size_t(phase)] = image;
    }
    return *m_sprites.insert(bytes, s);
}

void TickSprites::draw(QPainter &p, const QColor &color, double headY, double bottomY,
                       const std::vector<double> &xs)
{
    if (xs.empty())
        return;
    const QTransform world = p.worldTransform();
    if (world.type() > QTransform::TxScale || !p.device()) {
        drawDirect(p, color, headY, bottomY, xs);
        return;
    }
    // Sprites are blitted in device pixels: the device pixel ratio and the world transform's
    // scale make one factor, and the world transform is otherwise a translation.
    const double dpr = p.device()->devicePixelRatio();
    const double sx = world.m11() * dpr;
    const double sy = world.m22() * dpr;
    if (sx <= 0 || std::abs(sx - sy) > 1e-9) {
        drawDirect(p, color, headY, bottomY, xs);
        return;
    }
    const double headDevY = (world.m22() * headY + world.dy()) * dpr;
    const double bottomDevY = (world.m22() * bottomY + world.dy()) * dpr;
    const double headFloorY = std::floor(headDevY);
    const Sprite &s = sprite(color, sx, dpr, headDevY - headFloorY, bottomDevY - headDevY);
    p.save();
    // Positions below are device pixels, divided by the device pixel ratio the painter
    // multiplies by again: with the sprite at the same ratio that is a 1:1 blit.
    p.resetTransform();
    const double top = (headFloorY - s.originY) / dpr;
    for (const double x : xs) {
        const double devX = (world.m11() * x + world.dx()) * dpr;
        const double q = std::round(devX * Phases);
        const double column = std::floor(q / Phases);
        const int phase = int(q - column * Phases);
        p.drawImage(QPointF((column - s.originX) / dpr, top), s.phases[size_t(phase)]);
    }
    p.restore();
}

} // namespace bpflens
