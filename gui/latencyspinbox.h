#pragma once

#include <QDoubleSpinBox>

#include <optional>

namespace bpflens {

// A latency in microseconds that can be typed with its unit, as in biolatency's and
// ext4slower's thresholds: "10ms", "1.5 s", "250 µs" (or "us"), "800ns"; a bare number is µs.
// Numbers are read in the user's locale ("1,5 ms" in German) or with a dot.
class LatencySpinBox : public QDoubleSpinBox
{
    Q_OBJECT
public:
    explicit LatencySpinBox(QWidget *parent = nullptr);

    // The text's value in µs, or nothing when it is not a latency.
    static std::optional<double> parseMicroseconds(const QString &text, const QLocale &locale);

protected:
    QValidator::State validate(QString &input, int &pos) const override;
    double valueFromText(const QString &text) const override;
    QString textFromValue(double value) const override;
};

} // namespace bpflens
