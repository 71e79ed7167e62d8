#include "cli/probespec.h"

#include <QRegularExpression>

namespace bpflens {

std::optional<ProbeConfig> parseProbeSpec(const QString &spec, QString *error)
{
    ProbeConfig config;
    const qsizetype colon = spec.indexOf(QLatin1Char(':'));
    config.id = spec.left(colon).trimmed();
    if (config.id.isEmpty()) {
        *error = QStringLiteral(
            "--probe needs a probe id, as in --probe exec or --probe block:disk=vda");
        return std::nullopt;
    }
    if (colon < 0)
        return config;
    const QStringList parts = spec.mid(colon + 1).split(QLatin1Char(','), Qt::SkipEmptyParts);
    QString last;
    for (const QString &part : parts) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        // A list value keeps its commas (ports=80,443, flags=O_WRONLY,O_CREAT): option names
        // start with a lower-case letter, never with a digit or an upper-case one.
        if (eq < 0 && !last.isEmpty() && !part.trimmed().isEmpty() &&
            (part.trimmed().front().isDigit() || part.trimmed().front().isUpper())) {
            config.options[last] =
                config.options.value(last).toString() + QLatin1Char(',') + part.trimmed();
            continue;
        }
        const QString name = part.left(eq).trimmed();
        if (name.isEmpty()) {
            *error = QStringLiteral("--probe %1: \"%2\" is not name=value").arg(config.id, part);
            return std::nullopt;
        }
        // A bare flag ("perDisk") means true, as a command-line switch would.
        config.options.insert(name, eq < 0 ? QStringLiteral("true") : part.mid(eq + 1));
        last = eq < 0 ? QString() : name;
    }
    return config;
}

std::optional<quint64> parseDuration(const QString &text, QString *error)
{
    static const QRegularExpression re(
        QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch()) {
        *error =
            QStringLiteral("\"%1\" is not a duration (examples: 500ms, 10s, 2m, 1h)").arg(text);
        return std::nullopt;
    }
    const double value = m.captured(1).toDouble();
    const QString unit = m.captured(2);
    double ns = value * 1e9;
    if (unit == QLatin1String("ms"))
        ns = value * 1e6;
    else if (unit == QLatin1String("m"))
        ns = value * 60e9;
    else if (unit == QLatin1String("h"))
        ns = value * 3600e9;
    if (ns <= 0 || ns > 365.0 * 24 * 3600e9) {
        *error = QStringLiteral("duration %1 is out of range").arg(text);
        return std::nullopt;
    }
    return quint64(ns);
}

} // namespace bpflens
