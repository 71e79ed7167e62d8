#include "gui/theme.h"

#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QProxyStyle>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>

namespace bpflens {

namespace {

constexpr char SettingsKey[] = "appearance/theme";

const char *modeKey(Theme::Mode mode)
{
    switch (mode) {
    case Theme::Mode::Light:
        return "light";
    case Theme::Mode::Dark:
        return "dark";
    case Theme::Mode::System:
        break;
    }
    return "system";
}

Theme::Mode modeFromKey(const QString &key)
{
    if (key == QLatin1String("light"))
        return Theme::Mode::Light;
    if (key == QLatin1String("dark"))
        return Theme::Mode::Dark;
    return Theme::Mode::System;
}

struct Colors
{
    QRgb window, base, alternateBase, text, mutedText, button, highlight, highlightedText, light,
        mid, dark, shadow, link, linkVisited, toolTipBase, toolTipText;
    // The outline of checkboxes, radio buttons, fields and buttons: at least 3:1 against the
    // window and the base (WCAG 2.1, 1.4.11 non-text contrast). Fusion derives its outline from
    // the window colour (darker by 40 %), which on the dark window is all but invisible.
    QRgb controlBorder;
};

// Cool greys with one blue accent (as Sysprof and hotspot use one accent over neutral chrome):
// the probes' own colours in the timeline and charts are the only other colours on screen.
constexpr Colors LightColors{0xf5f6f8, 0xffffff, 0xf0f2f5, 0x1c2026, 0x6b7380, 0xeceef2,
                             0x2f6fd0, 0xffffff, 0xffffff, 0xc4c9d2, 0x9aa1ad, 0x5c636e,
                             0x1f5fbf, 0x7a4fb8, 0xfffdf0, 0x1c2026, 0x7b828e};
constexpr Colors DarkColors{0x282b31, 0x1e2126, 0x24272d, 0xe3e6ea, 0x9aa1ad, 0x353a42,
                            0x3d86e0, 0xffffff, 0x4a505a, 0x4a505a, 0x16181c, 0x000000,
                            0x6cacff, 0xb493f0, 0x353a42, 0xe3e6ea, 0x80868f};

// Fusion with BPF Lens' control outlines: Fusion paints each control, then the outline is
// painted again on Fusion's own outline geometry in Theme::controlBorder(). Focus keeps
// Fusion's accent outline; disabled controls keep Fusion's faint one.
class BorderedStyle : public QProxyStyle
{
public:
    BorderedStyle()
        : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion")))
    {
    }

    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget) const override
    {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        if (!(option->state & State_Enabled))
            return;
        const bool focus = option->state & State_HasFocus;
        const QPen pen(Theme::controlBorder(option->palette));
        const QRect r = option->rect;
        switch (element) {
        case PE_IndicatorCheckBox:
            if (focus && option->state & State_KeyboardFocusChange)
                return;
            painter->save();
            painter->setRenderHint(QPainter::Antialiasing, true);
            painter->translate(0.5, 0.5);
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(r.adjusted(0, 0, -1, -1));
            painter->restore();
            return;
        case PE_IndicatorRadioButton: {
            if (focus && option->state & State_KeyboardFocusChange)
                return;
            painter->save();
            painter->setRenderHint(QPainter::Antialiasing, true);
            QPainterPath circle;
            const qreal radius = (r.width() + (r.width() + 1) % 2) / 2.0 - 1;
            circle.addEllipse(QPointF(r.center() + QPoint(1, 1)), radius, radius);
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            painter->drawPath(circle);
            painter->restore();
            return;
        }
        case PE_FrameLineEdit:
            if (focus)
                return;
            painter->save();
            painter->setRenderHint(QPainter::Antialiasing, true);
            painter->translate(0.5, 0.5);
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            painter->drawRoundedRect(r.adjusted(0, 0, -1, -1), 2, 2);
            painter->restore();
            return;
        case PE_PanelButtonCommand:
            painter->save();
            painter->setRenderHint(QPainter::Antialiasing, true);
            painter->translate(0.5, -0.5);
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            painter->drawRoundedRect(r.adjusted(0, 1, -1, 0), 2.0, 2.0);
            painter->restore();
            return;
        default:
            return;
        }
    }

    void drawComplexControl(ComplexControl control, const QStyleOptionComplex *option,
                            QPainter *painter, const QWidget *widget) const override
    {
        QProxyStyle::drawComplexControl(control, option, painter, widget);
        const auto *spin = qstyleoption_cast<const QStyleOptionSpinBox *>(option);
        if (control != CC_SpinBox || !spin || !spin->frame || !(option->state & State_Enabled) ||
            option->state & State_HasFocus)
            return;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->translate(0.5, 0.5);
        painter->setPen(Theme::controlBorder(option->palette));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(option->rect.adjusted(0, 0, -1, -1), 2, 2);
        painter->restore();
    }
};

} // namespace

Theme *Theme::instance()
{
    static Theme *theme = new Theme(qApp);
    return theme;
}

Theme::Theme(QObject *parent)
    : QObject(parent)
    , m_mode(modeFromKey(QSettings().value(QLatin1String(SettingsKey)).toString()))
    , m_systemStyle(QApplication::style() ? QApplication::style()->name() : QString())
    , m_systemPalette(QApplication::palette())
{
    if (m_mode != Mode::System)
        apply();
}

void Theme::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    QSettings().setValue(QLatin1String(SettingsKey), QLatin1String(modeKey(mode)));
    apply();
    m_groups.removeAll(nullptr);
    for (QActionGroup *group : std::as_const(m_groups)) {
        for (QAction *a : group->actions())
            a->setChecked(a->data().toInt() == int(mode));
    }
    Q_EMIT modeChanged(mode);
}

void Theme::apply()
{
    if (m_mode == Mode::System) {
        if (!m_systemStyle.isEmpty())
            QApplication::setStyle(m_systemStyle);
        QApplication::setPalette(m_systemPalette);
        return;
    }
    // Fusion draws everything from the palette; a native style may keep its own light chrome.
    QApplication::setStyle(new BorderedStyle);
    QApplication::setPalette(palette(m_mode));
}

QMenu *Theme::createMenu(QWidget *parent)
{
    auto *menu = new QMenu(tr("&Theme"), parent);
    auto *group = new QActionGroup(menu);
    m_groups.append(group);
    const std::pair<Mode, QString> entries[] = {
        {Mode::System, tr("Follow the &Desktop")},
        {Mode::Light, tr("&Light")},
        {Mode::Dark, tr("D&ark")},
    };
    for (const auto &[mode, text] : entries) {
        QAction *a = menu->addAction(text);
        a->setCheckable(true);
        a->setData(int(mode));
        a->setChecked(mode == m_mode);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, m = mode] { setMode(m); });
    }
    return menu;
}

QPalette Theme::palette(Mode mode)
{
    if (mode == Mode::System)
        return QApplication::palette();
    const Colors &c = mode == Mode::Dark ? DarkColors : LightColors;
    QPalette p;
    auto set = [&p](QPalette::ColorRole role, QRgb rgb) { p.setColor(role, QColor(rgb)); };
    set(QPalette::Window, c.window);
    set(QPalette::WindowText, c.text);
    set(QPalette::Base, c.base);
    set(QPalette::AlternateBase, c.alternateBase);
    set(QPalette::Text, c.text);
    set(QPalette::PlaceholderText, c.mutedText);
    set(QPalette::Button, c.button);
    set(QPalette::ButtonText, c.text);
    set(QPalette::BrightText, 0xff5a4e);
    set(QPalette::Highlight, c.highlight);
    set(QPalette::HighlightedText, c.highlightedText);
    set(QPalette::Light, c.light);
    set(QPalette::Midlight, QColor(c.light).darker(110).rgb());
    set(QPalette::Mid, c.mid);
    set(QPalette::Dark, c.dark);
    set(QPalette::Shadow, c.shadow);
    set(QPalette::Link, c.link);
    set(QPalette::LinkVisited, c.linkVisited);
    set(QPalette::ToolTipBase, c.toolTipBase);
    set(QPalette::ToolTipText, c.toolTipText);
    // Disabled text: the muted grey, so a disabled action reads as unavailable on both.
    for (QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText})
        p.setColor(QPalette::Disabled, role, QColor(c.mutedText));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(c.mid));
    return p;
}

bool Theme::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor Theme::controlBorder(const QPalette &palette)
{
    return QColor(isDark(palette) ? DarkColors.controlBorder : LightColors.controlBorder);
}

QColor Theme::accent(const QPalette &palette)
{
    return QColor(isDark(palette) ? DarkColors.highlight : LightColors.highlight);
}

} // namespace bpflens
