#pragma once

#include <QColor>
#include <QObject>
#include <QPalette>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QMenu;
class QActionGroup;
QT_END_NAMESPACE

namespace bpflens {

// The application's look: the desktop's own style and palette (System, the default: a dark
// desktop gives a dark BPF Lens), or BPF Lens' own light or dark palette on the Fusion style.
// Views draw with the palette they are given and restyle on QEvent::PaletteChange, so a switch
// needs no restart. The choice is remembered (QSettings "appearance/theme").
class Theme : public QObject
{
    Q_OBJECT
public:
    enum class Mode
    {
        System,
        Light,
        Dark
    };
    Q_ENUM(Mode)

    // The application's one Theme, made on first use (after the QApplication exists): it
    // remembers the desktop's style and palette, then applies the saved mode.
    static Theme *instance();

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);

    // A View > Theme submenu with one checkable action per mode, kept in step with setMode.
    QMenu *createMenu(QWidget *parent);

    // BPF Lens' own palettes (the System mode uses the desktop's).
    static QPalette palette(Mode mode);
    // Whether a palette is a dark one (light text on a dark window), as views decide their
    // chart theme and text colours.
    static bool isDark(const QPalette &palette);

    // The outline of controls (checkboxes, fields, buttons) in BPF Lens' own palettes: at least
    // 3:1 against the window and the base, as WCAG asks of a control's boundary.
    static QColor controlBorder(const QPalette &palette);

    // The colour of the application's accent (selection, the record button's state, the start
    // page's headings): a blue that reads on both palettes.
    static QColor accent(const QPalette &palette);

Q_SIGNALS:
    void modeChanged(bpflens::Theme::Mode mode);

private:
    explicit Theme(QObject *parent);
    void apply();

    Mode m_mode = Mode::System;
    QString m_systemStyle;
    QPalette m_systemPalette;
    QList<QPointer<QActionGroup>> m_groups; // one per window's menu
};

} // namespace bpflens
