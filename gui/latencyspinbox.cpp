#include "gui/latencyspinbox.h"

#include "core/units.h"

#include <QRegularExpression>

namespace bpflens {

LatencySpinBox::LatencySpinBox(QWidget *parent)
    : QDoubleSpinBox(parent)
{
    setDecimals(1);
    setRange(0, 1e9);
    setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
}

std::optional<double> LatencySpinBox::parseMicroseconds(const QString &text, const QLocale &locale)
{
    // The same parser as bpflens-cli's --min-latency: what this box shows, the CLI takes.
    const std::optional<quint64> ns = parseLatencyNs(text, locale, 1000);
    return ns ? std::optional<double>(double(*ns) / 1000.0) : std::nullopt;
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
