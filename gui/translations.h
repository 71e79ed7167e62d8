#pragma once

#include <QLocale>

namespace bpflens {

// Installs the application's translators for locale: BPF Lens's own (embedded as resources,
// :/i18n/bpflens_<lang>.qm) and Qt's qtbase translations if the system has them (standard
// dialogs and buttons). Replaces translators an earlier call installed. Returns whether a BPF
// Lens translation for locale was found: for English (bpflens_en, the English plural forms of
// "%n event(s)") also, for a language without one (C) false, and English is installed then.
bool installTranslations(const QLocale &locale);

} // namespace bpflens
