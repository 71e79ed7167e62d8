#pragma once

#include <QColor>
#include <QHash>
#include <QImage>

#include <array>
#include <vector>

class QPainter;

namespace bpflens {

// The timeline's sparse-lane ticks: a 1.5 px stem with a round head of radius 3 (logical
// pixels), antialiased. Drawing each as an antialiased ellipse path and rectangle was most of
// a redraw at the zoom levels where these lanes have one or two events per pixel column, so
// the tick is rendered once per colour, stem length and sub-pixel phase into a sprite at the
// device pixel ratio, and every tick is a blit of it. A tick lands within 1/(2 * Phases)
// device pixel of where drawDirect() puts it.
class TickSprites
{
public:
    static constexpr int Phases = 4; // horizontal sub-pixel positions per device pixel
    static constexpr double HeadRadius = 3.0;
    static constexpr double StemWidth = 1.5;

    // One tick per entry of xs (logical x of the stem's centre); the head is centred on headY
    // and the stem reaches down to bottomY. The painter's transform must be a scale (the
    // device pixel ratio) and translation only; its clip applies.
    void draw(QPainter &p, const QColor &color, double headY, double bottomY,
              const std::vector<double> &xs);
    // The same ticks as antialiased paths, one by one: the reference draw() is measured and
    // tested against.
    static void drawDirect(QPainter &p, const QColor &color, double headY, double bottomY,
                           const std::vector<double> &xs);
    void clear() { m_sprites.clear(); }
    qsizetype cachedSprites() const { return m_sprites.size(); }

private:
    struct Sprite
    {
        std::array<QImage, Phases> phases;
        int originX = 0; // device pixel of the sprite holding the head's centre (phase 0)
        int originY = 0;
    };
    const Sprite &sprite(const QColor &color, double scale, double dpr, double headFracY,
                         double stemDevice);

    QHash<QByteArray, Sprite> m_sprites;
};

} // namespace bpflens
