#include "latencyspinbox.h"

#include <QRegularExpression>

namespace bpflens {

namespace {

// A number, then perhaps a unit; the unit may be unfinished while typing ("10 m").
const QRegularExpression &latencyPattern()
{
    static const QRegularExpression re(
        QStringLiteral("^\\s*([0-9]+(?:[.,][0-9]*)?)\\s*(ns|us|µs|μs|ms|s)?\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

} // namespace

LatencySpinBox::LatencySpinBox(QWidget *parent)
    : QDoubleSpinBox(parent)
{
    setDecimals(1);
    setRange(0, 1e9);
    setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
}

std::optional<double> LatencySpinBox::parseMicroseconds(const QString &text, const QLocale &locale)
{
    const QRegularExpressionMatch m = latencyPattern().match(text);
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    double n = locale.toDouble(m.captured(1), &ok);
    if (!ok)
        n = QLocale::c().toDouble(
            QString(m.captured(1)).replace(QLatin1Char(','), QLatin1Char('.')), &ok);
    if (!ok)
        return std::nullopt;
    const QString unit = m.captured(2).toLower();
    if (unit == QLatin1String("ns"))
        return n / 1000.0;
    if (unit == QLatin1String("ms"))
        return n * 1000.0;
    if (unit == QLatin1String("s"))
        return n * 1e6;
    return n; // µs, us, or none
}

QValidator::State LatencySpinBox::validate(QString &input, int &) const
{
    const QString t = input.trimmed();
    if (t.isEmpty() || t == specialValueText())
        return QValidator::Intermediate;
    if (const std::optional<double> v = parseMicroseconds(t, locale()))
        return *v <= maximum() ? QValidator::Acceptable : QValidator::Invalid;
    // A unit being typed: "10 m", "10 u", "10 µ", "10 n".
    static const QRegularExpression typing(QStringLiteral("^\\s*[0-9]+(?:[.,][0-9]*)?\\s*[mnuµμ]$"),
                                           QRegularExpression::CaseInsensitiveOption);
    return typing.match(t).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
}

double LatencySpinBox::valueFromText(const QString &text) const
{
    if (text.trimmed() == specialValueText())
        return minimum();
    return parseMicroseconds(text, locale()).value_or(value());
}

QString LatencySpinBox::textFromValue(double value) const
{
    // Without group separators: "10000,0 µs" reads back whatever the locale.
    QLocale l = locale();
    l.setNumberOptions(l.numberOptions() | QLocale::OmitGroupSeparator);
    //: Keep "µs" (or "us"): the text is read back as a latency, with its unit.
    return tr("%1 µs").arg(l.toString(value, 'f', decimals()));
}

} // namespace bpflens
